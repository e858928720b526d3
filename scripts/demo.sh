#!/usr/bin/env bash
# The demo on real daemons: a geared HDFS cluster (1 NameNode, 9 DataNodes on 3 racks) whose DataNode hosts sit behind
# simulated BMCs (ipmi_sim + ipmitool, sushy-tools Redfish, Wake-on-LAN), a SWIM trace slice replayed through HDFS
# clients in about 10 minutes, gears shifting with the load, and a report of the energy used with its timeline PNG.
#
#   scripts/demo.sh run [--policy NAME] [--gears auto|manual|off] [--no-gears] [--settings FILE] [--set KEY=VALUE]...
#                       [--keep]   NAME: rabbit (default), springfs, accordion, eafr-geared, random (no gears)
#   scripts/demo.sh compare [--policies a,b,...] [--settings FILE] [--set KEY=VALUE]...   every node on, then each
#                               policy on the same 240 s replay: table and chart in target/demo-results/compare.*
#   scripts/demo.sh start [--settings FILE] [--set KEY=VALUE]...   only the cluster and its BMCs, left running (gears
#                               manual: hdfs eafr gear auto hands them to the controller)
#   scripts/demo.sh status      roles, gears and each host's power state, from the NameNode (hdfs eafr)
#   scripts/demo.sh stop        stop every daemon and simulator of the demo
#   scripts/demo.sh clean       stop, then delete the demo's state directory
#   scripts/demo.sh settings    list the demo's own settings (other KEYs go into the cluster's hdfs-site.xml)
#
# --gears auto (the default): the NameNode's gear controller shifts with the load; manual: the demo shifts by schedule.
# --no-gears is --gears off: every DataNode stays on, same workload (the baseline the report compares against).
# State, logs and the report: target/demo/ (DEMO_DIR). DEMO_SKIP_BUILD=1 reuses the last build. docs/demo.md explains.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="${DEMO_DIR:-$ROOT/target/demo}"
BUILD="$ROOT/target/demo-build"
SUSHY_VENV="${EAFR_SUSHY_VENV:-$HOME/.cache/hadoop-eafr/sushy-venv}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
NN_CLASS=org.apache.hadoop.hdfs.server.namenode.NameNode
DN_CLASS=org.apache.hadoop.hdfs.server.datanode.DataNode
FARM_CLASS=org.eafr.demo.BmcFarm

log() { echo "[demo] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# shellcheck source=lib/eafr-daemons.sh
source "$ROOT/scripts/lib/eafr-daemons.sh"

require_tools() {
  local tool missing=()
  for tool in java mvn ipmi_sim ipmitool openssl setsid flock unzip; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  [[ -x "$SUSHY_VENV/bin/sushy-emulator" ]] || missing+=("sushy-emulator (in $SUSHY_VENV)")
  ((${#missing[@]} == 0)) || die "missing ${missing[*]}: run scripts/install-deps.sh (a JDK 17, Maven, Debian"\
" openipmi ipmitool openssl python3-venv, PyPI sushy-tools in a venv); unzip, util-linux: apt-get install them"
  # Hadoop's daemons look up this machine's own name at start (a bare chroot or container may have no /etc/hosts).
  local name
  name=$(hostname)
  getent hosts "$name" >/dev/null 2>&1 || die "this machine's host name '$name' does not resolve, and Hadoop's"\
" daemons need it: add the line '127.0.1.1 $name' to /etc/hosts"
}

# A Java tool of the demo with the cluster's client configuration (demo_java_args sets JAVA_ARGS).
demo_java_args() { JAVA_ARGS=(-Xmx256m -Djava.awt.headless=true -Djava.net.preferIPv4Stack=true
  -Dhadoop.root.logger=WARN,console -cp "$STATE/conf:$(cat "$BUILD/classpath")"); }
demo_java() { demo_java_args; "$JAVA" "${JAVA_ARGS[@]}" "$@"; }
# The setup tool, which runs before $STATE/conf (and its log4j.properties) exists.
setup_java() { demo_java "-Dlog4j.configuration=file:$ROOT/scripts/lib/log4j-warn.properties" org.eafr.demo.DemoSetup "$@"; }

start_java() { # name class conf: a detached JVM logging to logs/NAME.log, pid in pids/NAME.pid
  local name=$1 class=$2 conf=$3 heap
  heap=$(sed -n 's/^heap=//p' "$STATE/demo.properties")
  setsid "$JAVA" "-Xmx$heap" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.net.preferIPv4Stack=true \
    "-Djava.io.tmpdir=$STATE/tmp" "-Dhadoop.log.dir=$STATE/logs" -cp "$conf:$(cat "$BUILD/classpath")" "$class" \
    "${@:4}" >>"$STATE/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$STATE/pids/$name.pid"
}

build() { [[ "${DEMO_SKIP_BUILD:-0}" == 1 && -s "$BUILD/classpath" ]] ||
  eafr_build "$BUILD" hadoop-eafr-demo hadoop-eafr-namenode hadoop-eafr-datanode hadoop-eafr-sim; }

cmd_stop() {
  [[ -d "$STATE/pids" ]] || return 0
  local f
  stop_pid "$STATE/pids/bmc-farm.pid" "$FARM_CLASS" # first: no BMC may start a DataNode after this
  for f in "$STATE"/pids/datanode*.pid; do [[ -e "$f" ]] && stop_pid "$f" "$DN_CLASS"; done
  stop_pid "$STATE/pids/namenode.pid" "$NN_CLASS"
  # A simulator whose supervisor was killed -9 would be left: find ours by their configuration under $STATE.
  for f in /proc/[0-9]*; do
    if { tr '\0' ' ' <"$f/cmdline"; } 2>/dev/null | grep -q -E "(ipmi_sim|sushy-emulator).*$STATE/bmc/"; then
      log "stopping leftover simulator pid ${f#/proc/}"
      kill -TERM "${f#/proc/}" 2>/dev/null || true
    fi
  done
  log "stopped (no demo daemon or simulator left)"
}

# Waits for one step of the start (org.eafr.demo.DemoWait: asks the cluster, names the log of a daemon that died).
demo_wait() { demo_java org.eafr.demo.DemoWait "$STATE" "$@"; }

start_cluster() {
  mkdir -p "$STATE/logs" "$STATE/pids" "$STATE/tmp"
  log "formatting the NameNode"
  demo_java "$NN_CLASS" -format -force -nonInteractive >"$STATE/logs/format.log" 2>&1 ||
    { tail -20 "$STATE/logs/format.log" >&2; die "formatting the NameNode failed: see $STATE/logs/format.log"; }
  start_java namenode "$NN_CLASS" "$STATE/conf"
  demo_wait namenode 300 || die "the NameNode or its EAFR plugin did not come up: see $STATE/logs/namenode.log"
  log "NameNode up; starting the simulated BMCs"
  start_java bmc-farm "$FARM_CLASS" "$STATE/conf" "$STATE"
  demo_wait bmcs 300 || die "the simulated BMCs did not start"
  local i n
  n=$(($(wc -l <"$STATE/hosts.txt")))
  log "BMCs ready; powering on $n DataNode hosts"
  for ((i = 0; i < n; i++)); do "$ROOT/scripts/lib/demo-host.sh" "$STATE" "$i" on demo; done
  demo_wait datanodes 300 || die "not every DataNode registered"
  log "$n DataNodes live"
}

REPLAY_PID=
on_signal() {
  [[ -n "$REPLAY_PID" ]] && kill -TERM "$REPLAY_PID" 2>/dev/null
  log "interrupted: stopping every daemon and simulator"
  exit 130
}

cmd_run() { # start-only [args]: 1 starts the cluster and leaves it running
  local only_start=$1 setup=() keep=0 arg
  shift
  while (($#)); do
    arg=$1
    shift
    case "$arg" in
      --gears) setup+=(--set "demo.gears=${1:?--gears needs auto, manual or off}"); shift ;;
      --no-gears) setup+=(--set demo.gears=off) ;;
      --policy) setup+=(--set "demo.policy=${1:?--policy needs a name}"); shift ;;
      --set) setup+=(--set "${1:?--set needs KEY=VALUE}"); shift ;;
      --settings) setup+=(--settings "${1:?--settings needs a file}"); shift ;;
      --keep) keep=1 ;;
      *) die "unknown argument '$arg' (scripts/demo.sh --help)" ;;
    esac
  done
  require_tools
  local began=$SECONDS
  cmd_stop 2>/dev/null
  build
  # A bad demo.* setting stops here, naming the key, before any daemon and before the last run's logs are removed.
  setup_java --check "${setup[@]}" || exit 2
  rm -rf "$STATE"
  mkdir -p "$STATE"
  cp "$BUILD/classpath" "$STATE/classpath"
  setup_java "$STATE" "$ROOT" "$SUSHY_VENV" "${setup[@]}" >"$STATE/hosts.txt" || exit 2
  ((keep || only_start)) || trap 'cmd_stop' EXIT
  trap 'on_signal' INT TERM
  if ((only_start)); then
    trap 'cmd_stop' EXIT
    start_cluster
    trap - EXIT
    log "running: scripts/demo.sh status shows it, scripts/demo.sh stop ends it"
    return 0
  fi
  start_cluster
  local code=0
  # In the background and waited for, so that a signal to this script runs its trap at once.
  (demo_java_args && exec "$JAVA" "${JAVA_ARGS[@]}" -Dhadoop.root.logger=WARN,replay "-Dhadoop.log.dir=$STATE/logs" \
    org.eafr.demo.TraceReplay "$STATE") &
  REPLAY_PID=$!
  wait "$REPLAY_PID" || code=$?
  REPLAY_PID=
  ((keep)) && log "--keep: the cluster keeps running; scripts/demo.sh stop ends it"
  log "demo finished in $((SECONDS - began)) s (exit $code); logs in $STATE/logs"
  if ((code != 0)); then # the last line names what failed
    log "$(cat "$STATE/verdict.txt" 2>/dev/null ||
      echo "FAIL: the replay exited $code without a verdict: see $STATE/logs/replay.log")"
  fi
  return "$code"
}

# A compared run's daemon logs and power events, kept beside its report (the next run deletes the state directory):
# reads-RUN.tsv and RUN.properties' replay.start.epoch.ms line its reads up with them.
keep_logs() {
  local dir="$ROOT/target/demo-results/logs-$1"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp -r "$STATE/logs/." "$dir/" 2>/dev/null || true
  cp "$STATE/bmc/events.log" "$dir/power-events.log" 2>/dev/null || true
}

cmd_compare() { # the runs in a row, each its own `run` (a failed one is a row of the table), then the table
  local policies=rabbit,springfs,accordion,eafr-geared,random pass=(--set demo.duration.s=240) p since
  while (($#)); do
    case "$1" in
      --policies) policies=${2:?--policies needs a,b,...}; shift 2 ;;
      --gears | --no-gears | --policy | --keep) die "$1 is not allowed: compare runs every node on, then each policy on auto" ;;
      *) pass+=("$1"); shift ;;
    esac
  done
  require_tools
  build
  for p in ${policies//,/ }; do setup_java --check "${pass[@]}" --set "demo.policy=$p" || exit 2; done
  since=$(date +%s%3N)
  DEMO_SKIP_BUILD=1 "$ROOT/scripts/demo.sh" run --no-gears "${pass[@]}" || log "the run with every node on failed (see its row)"
  keep_logs off
  for p in ${policies//,/ }; do
    DEMO_SKIP_BUILD=1 "$ROOT/scripts/demo.sh" run --policy "$p" "${pass[@]}" || log "the run of $p failed (see its row)"
    keep_logs "$p"
  done
  demo_java org.eafr.demo.Comparison "$ROOT/target/demo-results" "$since" "$policies"
}

cmd_status() {
  [[ -f "$STATE/demo.properties" ]] || die "no demo in $STATE: run scripts/demo.sh run first"
  pid_runs "$STATE/pids/namenode.pid" "$NN_CLASS" || die "the demo's NameNode is not running"
  demo_java org.eafr.demo.DemoStatus "$STATE"
}

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

case "${1:-}" in
  run) shift; cmd_run 0 "$@" ;;
  start) shift; cmd_run 1 "$@" ;;
  compare) shift; cmd_compare "$@" ;;
  status) cmd_status ;;
  stop) cmd_stop ;;
  clean) cmd_stop; rm -rf "$STATE"; log "removed $STATE" ;;
  settings) [[ -s "$BUILD/classpath" ]] || die "run scripts/demo.sh run once (it builds)"; setup_java --help ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
