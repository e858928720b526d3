#!/usr/bin/env bash
# A real HDFS cluster on this machine (1 NameNode + N DataNodes, separate JVMs) running the EAFR jars, configured only
# through hdfs-site.xml as conf/hdfs-site.eafr.xml shows. Everything comes from Maven artifacts: no Hadoop tarball.
#
#   scripts/local-cluster.sh start [N]        build, then start 1 NameNode + N DataNodes (default 4) on 2 racks
#   scripts/local-cluster.sh status           daemons, DataNodes and racks, EAFR metrics
#   scripts/local-cluster.sh smoke [--keep] [N]  start if needed, write and read files, check one EAFR round acted
#   scripts/local-cluster.sh namenode eafr|stock  restart only the NameNode, with EAFR or as stock HDFS
#   scripts/local-cluster.sh stop             stop every daemon (data stays)
#   scripts/local-cluster.sh clean            stop, then delete the cluster's state directory
#
# State (configuration, name and data directories, logs, pids): target/local-cluster/ (LOCAL_CLUSTER_DIR).
# Knobs (environment): LOCAL_CLUSTER_RACKS (2), LOCAL_CLUSTER_INTERVAL_MS (eafr.interval.ms, 20000),
# LOCAL_CLUSTER_HEAP (256m per daemon), LOCAL_CLUSTER_NN_OPTS (extra NameNode JVM options), LOCAL_CLUSTER_NAME_DIR
# (the NameNode's metadata, default STATE/nn), LOCAL_CLUSTER_SKIP_BUILD=1 (reuse the last build), MVN_ARGS (extra
# Maven arguments, e.g. -Dhadoop.version=3.5.0). Needs a JDK 11+, Maven, unzip and setsid (util-linux). This script
# starts and stops processes; configuration, waits and checks are org.eafr.demo.LocalClusterTool (JMX, hdfs eafr).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="${LOCAL_CLUSTER_DIR:-$ROOT/target/local-cluster}"
RACKS="${LOCAL_CLUSTER_RACKS:-2}"
INTERVAL_MS="${LOCAL_CLUSTER_INTERVAL_MS:-20000}"
HEAP="${LOCAL_CLUSTER_HEAP:-256m}"
NAME_DIR="${LOCAL_CLUSTER_NAME_DIR:-$STATE/nn}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
NN_CLASS=org.apache.hadoop.hdfs.server.namenode.NameNode
DN_CLASS=org.apache.hadoop.hdfs.server.datanode.DataNode

log() { echo "[local-cluster] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# shellcheck source=lib/eafr-daemons.sh
source "$ROOT/scripts/lib/eafr-daemons.sh"

require_tools() {
  local tool missing=()
  for tool in java mvn unzip setsid; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
  ((${#missing[@]} == 0)) || die "missing ${missing[*]}: install them (Debian: apt-get install unzip util-linux;"\
" scripts/install-deps.sh installs a JDK and Maven)"
}

# The EAFR jars, the demo module's tool and Hadoop's runtime, from Maven artifacts (scripts/lib/eafr-daemons.sh).
build() {
  if [[ "${LOCAL_CLUSTER_SKIP_BUILD:-0}" == 1 && -s "$STATE/classpath" ]]; then
    log "LOCAL_CLUSTER_SKIP_BUILD=1: reusing $STATE/classpath"
    return
  fi
  eafr_build "$STATE" hadoop-eafr-demo hadoop-eafr-namenode hadoop-eafr-datanode hadoop-eafr-sim
}

# org.eafr.demo.LocalClusterTool COMMAND STATE ARGS..., as an HDFS client of the cluster (warnings only).
tool() {
  local command=$1
  shift
  "$JAVA" -Xmx256m -Djava.net.preferIPv4Stack=true -Dhadoop.root.logger=WARN,console \
    -cp "$STATE/conf:$(cat "$STATE/classpath")" org.eafr.demo.LocalClusterTool "$command" "$STATE" "$@"
}

load_env() {
  [[ -f "$STATE/cluster.env" ]] || die "no cluster in $STATE: run 'scripts/local-cluster.sh start' first"
  # shellcheck disable=SC1091
  source "$STATE/cluster.env"
}

start_daemon() {
  local name=$1 class=$2 conf=$3
  shift 3
  log "starting $name (log: $STATE/logs/$name.log)"
  # setsid: the daemon outlives this script and the terminal's Ctrl-C; `stop` ends it by its recorded pid.
  setsid "$JAVA" "-Xmx$HEAP" -Djava.net.preferIPv4Stack=true "-Djava.io.tmpdir=$STATE/tmp" \
    "-Dhadoop.log.dir=$STATE/logs" "$@" -cp "$conf:$(cat "$STATE/classpath")" "$class" \
    >>"$STATE/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$STATE/pids/$name.pid"
}

stop_daemon() { # name class
  pid_runs "$STATE/pids/$1.pid" "$2" || { rm -f "$STATE/pids/$1.pid"; return 0; }
  stop_pid "$STATE/pids/$1.pid" "$2"
  log "stopped $1"
}

stop_datanodes() {
  local d
  for d in "$STATE"/pids/datanode*.pid; do [[ -e "$d" ]] && stop_daemon "$(basename "$d" .pid)" "$DN_CLASS"; done; return 0
}

# Starts the NameNode with EAFR ($1 = eafr: conf/) or as stock HDFS ($1 = stock: conf-stock/) and waits for its web
# server and, with EAFR, the replication monitor's metrics source. Extra JVM options: LOCAL_CLUSTER_NN_OPTS.
start_namenode() {
  local mode=$1 conf="$STATE/conf"
  [[ "$mode" == stock ]] && conf="$STATE/conf-stock"
  # shellcheck disable=SC2086
  start_daemon namenode "$NN_CLASS" "$conf" -Dhdfs.audit.logger=INFO,RFAAUDIT ${LOCAL_CLUSTER_NN_OPTS:-}
  tool wait up 90 || { tail -30 "$STATE/logs/namenode.log" >&2; die "the NameNode did not come up"; }
  [[ "$mode" == stock ]] || tool wait eafr 30 || die "the EAFR plugin did not start (see $STATE/logs/namenode.log)"
}

cmd_start() {
  local requested="${1:-}" i
  [[ -z "$requested" || "$requested" =~ ^[1-9][0-9]*$ ]] || die "start N: N must be a positive number of DataNodes, got '$requested'"
  [[ "$RACKS" =~ ^[1-9][0-9]*$ ]] || die "LOCAL_CLUSTER_RACKS must be a positive number, got '$RACKS'"
  mkdir -p "$STATE/logs" "$STATE/pids" "$STATE/tmp"
  if [[ -f "$STATE/cluster.env" ]]; then
    load_env
    [[ -z "$requested" || "$requested" == "$N" ]] \
      || die "the cluster in $STATE has $N DataNodes; run 'scripts/local-cluster.sh clean' before starting $requested"
  fi
  if ! pid_runs "$STATE/pids/namenode.pid" "$NN_CLASS"; then
    stop_datanodes
    build
    tool ports "${N:-${requested:-4}}" "$RACKS"
    load_env
    tool conf "$ROOT" "$INTERVAL_MS" "$NAME_DIR"
    if [[ ! -f "$NAME_DIR/current/VERSION" ]]; then
      log "formatting the NameNode"
      "$JAVA" -Xmx256m -Djava.net.preferIPv4Stack=true "-Djava.io.tmpdir=$STATE/tmp" \
        -cp "$STATE/conf:$(cat "$STATE/classpath")" "$NN_CLASS" -format -force -nonInteractive \
        >"$STATE/logs/format.log" 2>&1 || { tail -20 "$STATE/logs/format.log" >&2; die "format failed"; }
    fi
    start_namenode eafr
  fi
  for ((i = 0; i < N; i++)); do
    pid_runs "$STATE/pids/datanode$i.pid" "$DN_CLASS" || start_daemon "datanode$i" "$DN_CLASS" "$STATE/dn$i/conf"
  done
  tool wait ready 90 || die "the cluster is not ready (see $STATE/logs/datanode*.log)"
  log "running: NameNode hdfs://127.0.0.1:$NN_RPC (web UI http://127.0.0.1:$NN_HTTP), $N DataNodes on $RACKS racks"
}

# Restarts only the NameNode, with EAFR or as stock HDFS, on the same namespace; the DataNodes stay up and
# re-register. For comparisons such as scripts/bench-namenode-rpc.sh.
cmd_namenode() {
  local mode="${1:-}"
  [[ "$mode" == eafr || "$mode" == stock ]] || die "namenode MODE: MODE must be eafr or stock, got '$mode'"
  load_env
  [[ -f "$STATE/conf-stock/hdfs-site.xml" ]] || die "no configuration in $STATE: run 'scripts/local-cluster.sh start' first"
  stop_daemon namenode "$NN_CLASS"
  start_namenode "$mode"
  tool wait ready 90 || die "not every DataNode registered again"
  log "NameNode ($mode) running, pid $(cat "$STATE/pids/namenode.pid")"
}

cmd_stop() {
  [[ -f "$STATE/cluster.env" ]] || { log "nothing to stop in $STATE"; return 0; }
  stop_datanodes
  stop_daemon namenode "$NN_CLASS"
  log "stopped"
}

cmd_status() {
  load_env
  local state=stopped
  pid_runs "$STATE/pids/namenode.pid" "$NN_CLASS" && state="running (pid $(cat "$STATE/pids/namenode.pid"))"
  echo "NameNode  hdfs://127.0.0.1:$NN_RPC  http://127.0.0.1:$NN_HTTP  $state"
  tool status
}

cmd_smoke() {
  local keep=0 n="" started_here=0 began=$SECONDS
  while (($#)); do
    if [[ "$1" == --keep ]]; then keep=1; else n=$1; fi
    shift
  done
  { [[ -f "$STATE/cluster.env" ]] && pid_runs "$STATE/pids/namenode.pid" "$NN_CLASS"; } || started_here=1
  if ((started_here && !keep)); then trap 'cmd_stop' EXIT; fi
  cmd_start "$n"
  local code=0; tool smoke || code=$?
  log "smoke took $((SECONDS - began)) s; logs in $STATE/logs"
  ((keep)) && log "--keep: the cluster keeps running ('scripts/local-cluster.sh stop' ends it)"
  ((started_here || keep)) || log "the cluster was running before smoke: left running"
  return "$code"
}

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }

case "${1:-}" in
  start | smoke | namenode) require_tools ;;
esac
case "${1:-}" in
  start) shift; cmd_start "$@" ;;
  namenode) shift; cmd_namenode "$@" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  smoke) shift; cmd_smoke "$@" ;;
  clean) cmd_stop; rm -rf "$STATE" "$NAME_DIR"; log "removed $STATE" ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
