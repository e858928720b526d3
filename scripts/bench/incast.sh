#!/usr/bin/env bash
# Receive-side rate control (incast: 8 senders into one receiver, stock against each of INCAST_MODES) and EAFR's
# destination choice (hetero: 4 sources into 4 targets, 2 on slow links, stock against EAFR's placement), with real
# NameNode and DataNode processes from the project's jars in network namespaces on tc-shaped veth links. Needs root;
# not part of CI. What it measures: docs/datanode.md#benchmark; the table goes to docs/evaluation-real-daemons.md.
# This script builds the network and starts and stops the daemons; configuration, rounds and statistics are
# org.eafr.datanode.bench.IncastBench. Knobs (environment): INCAST_ROUNDS (5), INCAST_BLOCK_MB (16), INCAST_BLOCKS
# (3 per sender), INCAST_MBIT (100), INCAST_SLOW_MBIT (25), INCAST_QUEUE_BYTES (30000), INCAST_ETA_LOW /
# INCAST_ETA_HIGH (0.2 / 0.5), INCAST_PERIOD_MS (100), INCAST_MODES ("pacing window"), INCAST_SCENARIOS ("incast
# hetero"), INCAST_NO_DOC=1 (leave the doc alone), MVN_ARGS. State and logs: target/bench-incast/.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
STATE="$ROOT/target/bench-incast"
ROUNDS="${INCAST_ROUNDS:-5}" BLOCK_MB="${INCAST_BLOCK_MB:-16}" BLOCKS="${INCAST_BLOCKS:-3}"
MBIT="${INCAST_MBIT:-100}" SLOW_MBIT="${INCAST_SLOW_MBIT:-25}" QUEUE="${INCAST_QUEUE_BYTES:-30000}"
ETA_LOW="${INCAST_ETA_LOW:-0.2}" ETA_HIGH="${INCAST_ETA_HIGH:-0.5}" PERIOD_MS="${INCAST_PERIOD_MS:-100}"
SCENARIOS="${INCAST_SCENARIOS:-incast hetero}" MODES="${INCAST_MODES:-pacing window}"
FINISH_RATIO=1
NS=eafrb     # prefix of every namespace this script creates
NET=10.213.0 # the private /24 inside them
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
NN_CLASS=org.apache.hadoop.hdfs.server.namenode.NameNode
DN_CLASS=org.apache.hadoop.hdfs.server.datanode.DataNode
LOGS="$STATE/logs"

log() { echo "[incast] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# shellcheck source=../lib/eafr-daemons.sh
source "$ROOT/scripts/lib/eafr-daemons.sh"

for n in ROUNDS BLOCK_MB BLOCKS MBIT SLOW_MBIT QUEUE PERIOD_MS; do [[ "${!n}" =~ ^[1-9][0-9]*$ ]] || die "INCAST_$n = '${!n}' is not allowed: expected a whole number >= 1"; done
for m in $MODES; do [[ $m == pacing || $m == window ]] || die "INCAST_MODES: '$m' is not allowed: expected pacing and/or window"; done
for s in $SCENARIOS; do [[ $s == incast || $s == hetero ]] || die "INCAST_SCENARIOS: unknown scenario '$s' (allowed: incast hetero)"; done
(($(id -u) == 0)) || die "needs root (network namespaces and tc); run it with sudo"

# Commands the bench needs, each "CHECK|DEBIAN PACKAGE|WHAT": installed with apt-get when missing (require_tools).
TOOLS=("command -v ip|iproute2|ip (network namespaces, veth links)" "command -v tc|iproute2|tc (link shaping)"
  "command -v unzip|unzip|unzip (the HDFS web apps)" "command -v setsid|util-linux|setsid (daemons in their own session)"
  "command -v flock|util-linux|flock (one bench at a time)" "java17|openjdk-17-jdk-headless|a JDK 17 or newer"
  "command -v mvn|maven|Maven (the build)")

# The kernel features, tried once on a throw-away namespace: each failure names the feature and its module.
check_kernel() {
  local probe="$NS-probe" err
  try() { local what=$1; shift; err="$("$@" 2>&1)" || { teardown_network; die "the kernel refused $what: '$*' said: $err"; }; }
  try "network namespaces (CONFIG_NET_NS)" ip netns add "$probe"
  try "veth links (module veth)" ip link add "$NS-pa" type veth peer name "$NS-pb"
  try "moving a link into a namespace" ip link set "$NS-pb" netns "$probe"
  try "bridges (module bridge)" ip netns exec "$probe" ip link add br0 type bridge
  try "tc tbf shaping (module sch_tbf)" ip netns exec "$probe" tc qdisc add dev "$NS-pb" root tbf rate 100mbit burst 16kb limit 30000
  teardown_network
}

# Network: namespace $NS-sw holds the bridge; node K (0 = NameNode, 1.. = DataNodes) is namespace $NS-K at $NET.(K+2).
in_ns() { local ns=$1; shift; ip netns exec "$NS-$ns" "$@"; }
# shape K MBIT: node K's uplink (a NIC-sized queue) and the switch port towards it (a shallow queue) at MBIT.
shape() {
  in_ns "$1" tc qdisc replace dev "$NS-n$1" root tbf rate "${2}mbit" burst 16kb limit 262144
  in_ns sw tc qdisc replace dev "$NS-s$1" root tbf rate "${2}mbit" burst 16kb limit "$QUEUE"
}
# network NODES: the switch and NODES nodes, all at $MBIT.
network() {
  teardown_network
  ip netns add "$NS-sw"
  in_ns sw ip link add br0 type bridge
  in_ns sw ip link set br0 up
  local k
  for ((k = 0; k < $1; k++)); do # node K: its namespace, a veth pair to the bridge, shaped both ways
    ip netns add "$NS-$k"
    ip link add "$NS-n$k" type veth peer name "$NS-s$k"
    ip link set "$NS-n$k" netns "$NS-$k"
    ip link set "$NS-s$k" netns "$NS-sw"
    in_ns sw ip link set "$NS-s$k" master br0 up
    in_ns "$k" ip link set lo up
    in_ns "$k" ip addr add "$NET.$((k + 2))/24" dev "$NS-n$k"
    in_ns "$k" ip link set "$NS-n$k" up
    shape "$k" "$MBIT"
  done
}
our_namespaces() { ip netns list | awk '{print $1}' | grep -E "^$NS-" || true; }
our_links() { ip -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' | grep -E "^$NS-" || true; }
# Ends every process still running in the bench's namespaces, then removes them (with their veths and bridge).
teardown_network() {
  local ns pids=() link
  for ns in $(our_namespaces); do pids+=($(ip netns pids "$ns" 2>/dev/null || true)); done
  if ((${#pids[@]} > 0)); then
    kill -TERM "${pids[@]}" 2>/dev/null || true
    none_alive() { local pid; for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && return 1; done; return 0; }
    wait_until 15 "processes in the bench's namespaces to exit" none_alive || kill -KILL "${pids[@]}" 2>/dev/null || true
  fi
  for ns in $(our_namespaces); do ip netns del "$ns" 2>/dev/null || log "could not remove namespace $ns"; done
  for link in $(our_links); do ip link del "$link" 2>/dev/null || true; done
}

# Daemons: node K runs in namespace $NS-K with conf dir $STATE/nodeK/conf (written by `bench node`).
bench() { "$JAVA" -cp "$(cat "$STATE/classpath")" org.eafr.datanode.bench.IncastBench "$@"; }
node_conf() { local k=$1; shift; bench node --state "$STATE" --net "$NET" --node "$k" --block-mb "$BLOCK_MB" --period-ms "$PERIOD_MS" --eta-low "$ETA_LOW" --eta-high "$ETA_HIGH" "$@"; }
start_node() { # K CLASS
  local k=$1 class=$2
  # Not through in_ns: a backgrounded function runs in a subshell, and $! must be the JVM (ip and setsid exec it).
  ip netns exec "$NS-$k" setsid "$JAVA" -Xmx256m -Djava.net.preferIPv4Stack=true "-Djava.io.tmpdir=$STATE/tmp" \
    -cp "$STATE/node$k/conf:$(cat "$STATE/classpath")" "$class" >>"$LOGS/node$k.log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$STATE/node$k.pid"
  is_jvm() { grep -q "$class" "/proc/$pid/cmdline" 2>/dev/null; } # once ip and setsid have exec'd it
  wait_until 30 "node $k (pid $pid) to run the $class JVM" is_jvm || die "node $k: pid $pid is not the $class JVM"
}
stop_node() {
  local pidfile="$STATE/node$1.pid" pid
  [[ -f "$pidfile" ]] || return 0
  pid="$(cat "$pidfile")"
  kill -TERM "$pid" 2>/dev/null && { wait_until 30 "node $1 (pid $pid) to exit" eval "! kill -0 $pid 2>/dev/null" || kill -KILL "$pid" 2>/dev/null || true; }
  rm -f "$pidfile"
}
stop_all() { local f; for f in "$STATE"/node*.pid; do [[ -e "$f" ]] && stop_node "$(basename "$f" .pid | sed 's/node//')"; done; return 0; }
# up N SECONDS: waits until the NameNode sees N live DataNodes and has left safe mode (its JMX, read in Java).
up() { in_ns 0 "$JAVA" -Xmx64m -cp "$(cat "$STATE/classpath")" org.eafr.demo.NameNodeJmx "$NET.2:9870" "$1" "$2"; }
# cluster SCENARIO NODES REMOTE_FROM: fresh state and conf (DataNodes REMOTE_FROM.. on /r2), then formats.
cluster() {
  LOGS="$STATE/logs/$1"
  mkdir -p "$LOGS"
  bench scenario --state "$STATE" --net "$NET" --nodes "$2" --remote-from "$3"
  local k
  for ((k = 0; k < $2; k++)); do node_conf "$k"; done
  in_ns 0 "$JAVA" -Xmx256m -cp "$STATE/node0/conf:$(cat "$STATE/classpath")" "$NN_CLASS" -format -force \
    -nonInteractive >"$LOGS/format.log" 2>&1 || die "format failed (see $LOGS/format.log)"
}
round() { # SCENARIO --mode M --round N --senders S --targets K,...: one round, its row logged
  local row
  row="$(bench run --state "$STATE" --net "$NET" --ns "$NS" --blocks "$BLOCKS" --scenario "$@")" || die "round failed: $*"
  log "$row"
}

incast() {
  log "incast: NameNode, 8 senders (/r1), 1 receiver (/r2), ${MBIT} Mbit/s links, ${QUEUE}-byte queue towards each node"
  network 10
  cluster incast 10 9
  local k mode r before
  for ((k = 0; k <= 9; k++)); do start_node "$k" "$([[ $k == 0 ]] && echo $NN_CLASS || echo $DN_CLASS)"; done
  up 9 180 || die "DataNodes missing (see $LOGS)"
  for ((r = 1; r <= ROUNDS; r++)); do
    for mode in stock $MODES; do
      stop_node 9
      if [[ $mode != stock ]]; then node_conf 9 "eafr.datanode.link.bytes-per-second=$((MBIT * 125000))" "eafr.datanode.rate.mode=$mode"; else node_conf 9; fi
      before="$(wc -l <"$LOGS/node9.log")"
      start_node 9 "$DN_CLASS"
      up 9 120 || die "the receiver did not come back"
      # The NameNode still counts the stopped receiver as live: wait for the new one's registration.
      bench await --file "$LOGS/node9.log" --from-line "$before" --pattern "successfully registered with NN" --timeout 120 --what "the receiver to register again" || die "the receiver did not register"
      [[ $mode == stock ]] || bench await --file "$LOGS/node9.log" --from-line "$before" --pattern "EAFR receive rate control on" --timeout 30 --what "the throttler" || die "the EAFR receive rate control did not start on the receiver (see $LOGS/node9.log)"
      round incast --mode "$mode" --round "$r" --senders 8 --targets 9
    done
  done
  stop_all
}

hetero() {
  log "hetero: NameNode, 4 sources (/r1), 4 targets (/r2): 2 at ${MBIT} Mbit/s, 2 at ${SLOW_MBIT} Mbit/s"
  network 9
  shape 7 "$SLOW_MBIT" && shape 8 "$SLOW_MBIT"
  cluster hetero 9 5
  local k mode r
  for ((k = 1; k <= 8; k++)); do start_node "$k" "$DN_CLASS"; done
  for mode in stock eafr; do
    stop_node 0
    # EAFR: the transfer-speed EWMA (Eq. 9) fed by the copies it times (16 MiB blocks are samples, a 5 s window),
    # every target ranked (d = 0) by expected finish time, later than r times the soonest cut; no monitor rounds.
    [[ $mode == stock ]] || node_conf 0 dfs.block.replicator.classname=org.eafr.namenode.placement.EafrBlockPlacementPolicy \
      dfs.namenode.plugins=org.eafr.namenode.monitor.ReplicationMonitorPlugin eafr.storage-reserve.bytes=0 \
      eafr.transfer.min-sample-bytes=$((BLOCK_MB << 19)) eafr.ewma.window.ms=5000 eafr.destination.sample-size=0 \
      eafr.destination.finish-ratio=$FINISH_RATIO
    start_node 0 "$NN_CLASS"
    up 8 180 || die "DataNodes missing (see $LOGS)"
    [[ $mode == stock ]] || { log "hetero eafr: one unmeasured round to learn the speeds"; round hetero --mode warmup --round 0 --senders 4 --targets 5,6,7,8; }
    for ((r = 1; r <= ROUNDS; r++)); do round hetero --mode "$mode" --round "$r" --senders 4 --targets 5,6,7,8; done
  done
  stop_all
}

cleanup() {
  trap - EXIT INT TERM HUP
  stop_all || true
  teardown_network || true
  local left="$(our_namespaces; our_links)"
  [[ -z "$left" ]] || log "left behind (remove by hand): $(tr '\n' ' ' <<<"$left")"
}

main() {
  require_tools "${TOOLS[@]}"
  local lock=/tmp/eafr-incast-bench.lock scenario load_start doc=()
  [[ -d /run/lock && -w /run/lock ]] && lock=/run/lock/eafr-incast-bench.lock
  exec 9>"$lock"
  flock -n 9 || die "another scripts/bench/incast.sh is running on this machine (it owns the namespaces $NS-*)"
  trap cleanup EXIT
  trap 'log "interrupted"; exit 130' INT
  trap 'log "terminated"; exit 143' TERM HUP
  check_kernel
  load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
  rm -rf "$STATE"
  mkdir -p "$STATE/logs" "$STATE/tmp"
  # The DataNode module first: the daemons' classpath is its compile scope, which has JNA (the window mode). The
  # demo module brings the JMX reader (org.eafr.demo.NameNodeJmx).
  eafr_build "$STATE" hadoop-eafr-datanode hadoop-eafr-namenode hadoop-eafr-demo hadoop-eafr-sim
  head -c $((BLOCK_MB * BLOCKS << 20)) /dev/urandom >"$STATE/tmp/data"
  for scenario in $SCENARIOS; do "$scenario"; done
  [[ "${INCAST_NO_DOC:-0}" == 1 ]] || doc=(--doc "$ROOT/docs/evaluation-real-daemons.md")
  bench finish --state "$STATE" --modes "$MODES" --rounds "$ROUNDS" --mbit "$MBIT" --slow-mbit "$SLOW_MBIT" \
    --queue "$QUEUE" --block-mb "$BLOCK_MB" --blocks "$BLOCKS" --period-ms "$PERIOD_MS" --eta-low "$ETA_LOW" \
    --eta-high "$ETA_HIGH" --finish-ratio "$FINISH_RATIO" --load-start "$load_start" "${doc[@]}"
}

main "$@"
