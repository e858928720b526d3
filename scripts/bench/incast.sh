#!/usr/bin/env bash
# Receive-side rate control and destination choice on shaped links, with real NameNode and DataNode processes from
# the project's jars. Needs root (network namespaces, tc); not part of CI.
#
#   scripts/bench/incast.sh            run both scenarios, print the table, write it to docs/evaluation-real-daemons.md
#
# incast: 8 sender DataNodes (rack /r1) each re-replicate blocks into one receiver DataNode (rack /r2, the only
#   remote rack, so every second replica goes there) at once; stock HDFS against the EAFR receive rate control on
#   the receiver (hadoop-eafr-datanode) in each of INCAST_MODES (eafr.datanode.rate.mode: pacing, window), rounds
#   alternating, the receiver restarted between them. `ss -tin` is sampled every 2 s on the receiver and the senders.
# hetero: 4 source DataNodes (/r1) re-replicate into 4 targets (/r2), half of them on slower links; stock placement
#   against EAFR's placement policy (Eq. 9-12: destinations by measured transfer speed), the NameNode restarted
#   between modes (EAFR gets one unmeasured round first to learn the speeds).
#
# Each node runs in its own network namespace, linked by a veth pair to a bridge in a switch namespace; tc tbf
# shapes both directions, with a shallow queue towards each receiver. Addresses are 10.213.0.0/24 inside these
# namespaces only. Per-block transfer times come from the receivers' logs ("Receiving" to "Received"), TCP
# retransmissions and timeouts from /proc/net/snmp and /proc/net/netstat of the senders' namespaces; the statistics
# are org.eafr.datanode.bench.IncastBench. Knobs (environment): INCAST_ROUNDS (5), INCAST_BLOCK_MB (16),
# INCAST_BLOCKS (3 per sender), INCAST_MBIT (100), INCAST_SLOW_MBIT (25), INCAST_QUEUE_BYTES (30000),
# INCAST_ETA_LOW / INCAST_ETA_HIGH (eafr.rate.*, 0.2 / 0.5), INCAST_MODES ("pacing window"), INCAST_NO_DOC=1 (do not touch docs/evaluation-real-daemons.md),
# MVN_ARGS. State and logs: target/bench-incast/.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
STATE="$ROOT/target/bench-incast"
ROUNDS="${INCAST_ROUNDS:-5}"
BLOCK_MB="${INCAST_BLOCK_MB:-16}"
BLOCKS="${INCAST_BLOCKS:-3}"
MBIT="${INCAST_MBIT:-100}"
SLOW_MBIT="${INCAST_SLOW_MBIT:-25}"
QUEUE="${INCAST_QUEUE_BYTES:-30000}"
ETA_LOW="${INCAST_ETA_LOW:-0.2}"
ETA_HIGH="${INCAST_ETA_HIGH:-0.5}"
PERIOD_MS="${INCAST_PERIOD_MS:-100}"
SCENARIOS="${INCAST_SCENARIOS:-incast hetero}"
MODES="${INCAST_MODES:-pacing window}"
NS=eafrb          # prefix of every namespace this script creates
NET=10.213.0      # the private /24 inside them
NN_IP="$NET.2"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
NN_CLASS=org.apache.hadoop.hdfs.server.namenode.NameNode
DN_CLASS=org.apache.hadoop.hdfs.server.datanode.DataNode
RESULTS="$STATE/results.csv"
LOGS="$STATE/logs"

log() { echo "[incast] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# shellcheck source=../lib/eafr-daemons.sh
source "$ROOT/scripts/lib/eafr-daemons.sh"

for n in ROUNDS BLOCK_MB BLOCKS MBIT SLOW_MBIT QUEUE PERIOD_MS; do
  [[ "${!n}" =~ ^[1-9][0-9]*$ ]] || die "INCAST_$n = '${!n}' is not allowed: expected a whole number >= 1"
done
for m in $MODES; do
  [[ $m == pacing || $m == window ]] || die "INCAST_MODES: '$m' is not allowed: expected pacing and/or window"
done
(($(id -u) == 0)) || die "needs root (network namespaces and tc); run it with sudo"

# ---------------------------------------------------------------------------------------------------------------
# What the bench needs: commands (installed from Debian's packages when missing) and kernel features (checked).

java17() { command -v java >/dev/null && java -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ { exit !($2 + 0 >= 17) }'; }
# Each entry: a check, the Debian package that satisfies it, and what it is for.
TOOLS=(
  "command -v ip|iproute2|ip (network namespaces, veth links)"
  "command -v tc|iproute2|tc (link shaping)"
  "command -v unzip|unzip|unzip (the HDFS web apps)"
  "command -v setsid|util-linux|setsid (daemons in their own session)"
  "command -v flock|util-linux|flock (one bench at a time)"
  "java17|openjdk-17-jdk-headless|a JDK 17 or newer"
  "command -v mvn|maven|Maven (the build)"
)

# missing_tools: prints "PACKAGE|WHAT" for each tool not there.
missing_tools() {
  local entry
  for entry in "${TOOLS[@]}"; do
    eval "${entry%%|*}" >/dev/null 2>&1 || echo "${entry#*|}"
  done
}

install_tools() {
  local missing packages
  missing="$(missing_tools)"
  [[ -z "$missing" ]] && return 0
  packages="$(cut -d'|' -f1 <<<"$missing" | sort -u | tr '\n' ' ')"
  if command -v apt-get >/dev/null; then
    log "installing $packages(Debian packages)"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      $packages >&2 || log "apt-get could not install $packages"
    missing="$(missing_tools)"
  fi
  [[ -z "$missing" ]] || die "missing: $(cut -d'|' -f2 <<<"$missing" | paste -sd';' | sed 's/;/; /g') (Debian packages: $(cut -d'|' -f1 <<<"$missing" | sort -u | paste -sd' '))"
}

# The kernel features, tried once on a throw-away namespace: each failure names the feature and its module.
check_kernel() {
  local probe="$NS-probe" err
  try() { # WHAT COMMAND...
    local what=$1
    shift
    err="$("$@" 2>&1)" || { teardown_network; die "the kernel refused $what: '$*' said: $err"; }
  }
  try "network namespaces (CONFIG_NET_NS)" ip netns add "$probe"
  try "veth links (module veth)" ip link add "$NS-pa" type veth peer name "$NS-pb"
  try "moving a link into a namespace" ip link set "$NS-pb" netns "$probe"
  try "bridges (module bridge)" ip netns exec "$probe" ip link add br0 type bridge
  try "tc tbf shaping (module sch_tbf)" ip netns exec "$probe" tc qdisc add dev "$NS-pb" root tbf rate 100mbit burst 16kb limit 30000
  teardown_network
}

install_tools

# ---------------------------------------------------------------------------------------------------------------
# Network: namespace $NS-sw holds the bridge; node K (0 = NameNode, 1.. = DataNodes) is namespace $NS-K at $NET.(K+2)

in_ns() { local ns=$1; shift; ip netns exec "$NS-$ns" "$@"; }
ip_of() { echo "$NET.$(($1 + 2))"; }

# link_node K UP_MBIT DOWN_MBIT DOWN_QUEUE_BYTES
link_node() {
  local k=$1 up=$2 down=$3 queue=$4
  ip netns add "$NS-$k"
  ip link add "$NS-n$k" type veth peer name "$NS-s$k"
  ip link set "$NS-n$k" netns "$NS-$k"
  ip link set "$NS-s$k" netns "$NS-sw"
  in_ns sw ip link set "$NS-s$k" master br0 up
  in_ns "$k" ip link set lo up
  in_ns "$k" ip addr add "$(ip_of "$k")/24" dev "$NS-n$k"
  in_ns "$k" ip link set "$NS-n$k" up
  # Uplink: the node's NIC, a NIC-sized queue. Downlink: the switch port towards the node.
  in_ns "$k" tc qdisc add dev "$NS-n$k" root tbf rate "${up}mbit" burst 16kb limit 262144
  in_ns sw tc qdisc add dev "$NS-s$k" root tbf rate "${down}mbit" burst 16kb limit "$queue"
}

# network NODES: the switch and NODES nodes, all at $MBIT with a shallow queue towards each node.
network() {
  teardown_network
  ip netns add "$NS-sw"
  in_ns sw ip link add br0 type bridge
  in_ns sw ip link set br0 up
  local k
  for ((k = 0; k < $1; k++)); do link_node "$k" "$MBIT" "$MBIT" "$QUEUE"; done
}

# reshape K MBIT: node K's links both ways at MBIT.
reshape() {
  in_ns "$1" tc qdisc replace dev "$NS-n$1" root tbf rate "${2}mbit" burst 16kb limit 262144
  in_ns sw tc qdisc replace dev "$NS-s$1" root tbf rate "${2}mbit" burst 16kb limit "$QUEUE"
}

none_alive() {
  local pid
  for pid in "$@"; do kill -0 "$pid" 2>/dev/null && return 1; done
  return 0
}
our_namespaces() { ip netns list | awk '{print $1}' | grep -E "^$NS-" || true; }

# Ends every process still running in this script's namespaces (daemons, clients), then removes the namespaces
# (and the veths and bridge in them) and any of its veths left outside them.
teardown_network() {
  local ns pids=() link
  for ns in $(our_namespaces); do pids+=($(ip netns pids "$ns" 2>/dev/null || true)); done
  if ((${#pids[@]} > 0)); then
    kill -TERM "${pids[@]}" 2>/dev/null || true
    wait_until 15 "processes in the bench's namespaces to exit" none_alive "${pids[@]}" \
      || kill -KILL "${pids[@]}" 2>/dev/null || true
  fi
  for ns in $(our_namespaces); do ip netns del "$ns" 2>/dev/null || log "could not remove namespace $ns"; done
  for link in $(ip -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' | grep -E "^$NS-" || true); do
    ip link del "$link" 2>/dev/null || true
  done
}

# Sum of a TCP counter over the sender namespaces: tcp_counter snmp|netstat NAME NODE...
tcp_counter() {
  local file=$1 name=$2 sum=0 k v
  shift 2
  for k in "$@"; do
    # Each "Tcp:" / "TcpExt:" header line names the columns of the value line after it.
    v="$(in_ns "$k" awk -v n="$name" '$1 == "Tcp:" || $1 == "TcpExt:" { if (!($1 in col)) { col[$1] = 0; for (i = 2; i <= NF; i++) if ($i == n) col[$1] = i } else if (col[$1]) print $(col[$1]) }' "/proc/net/$file")"
    sum=$((sum + ${v:-0}))
  done
  echo "$sum"
}

# ---------------------------------------------------------------------------------------------------------------
# Daemons: every node has its own conf dir; a daemon runs in its node's namespace.

# write_conf SCENARIO NODES RACK_OF_NODE_FUNCTION: fresh state and logs ($LOGS) for a scenario.
write_conf() {
  local nodes=$2 rack_of=$3 k
  rm -rf "$STATE"/node* "$STATE/conf"
  LOGS="$STATE/logs/$1"
  mkdir -p "$STATE/conf" "$LOGS"
  for ((k = 1; k < nodes; k++)); do echo "$(ip_of "$k") $($rack_of "$k")"; done >"$STATE/conf/racks"
  {
    echo '<?xml version="1.0"?><configuration>'
    property fs.defaultFS "hdfs://$NN_IP:8020"
    property hadoop.tmp.dir "$STATE/tmp"
    property net.topology.node.switch.mapping.impl org.apache.hadoop.net.TableMapping
    property net.topology.table.file.name "$STATE/conf/racks"
    echo '</configuration>'
  } >"$STATE/conf/core-site.xml"
  cat >"$STATE/conf/log4j.properties" <<'LOG4J'
log4j.rootLogger=INFO,console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
log4j.logger.http.requests=WARN
# The receiver's throttler: one line per round, rates granted against bytes used (for the analysis in datanode.md).
log4j.logger.org.eafr.datanode.rate.SenderThrottler.trace=DEBUG
LOG4J
}

# node_conf K MODE-PROPERTIES...: conf dir of node K = the shared files plus hdfs-site.xml with the given properties.
node_conf() {
  local k=$1 dir="$STATE/node$1/conf"
  shift
  mkdir -p "$dir" "$STATE/node$k/data"
  cp "$STATE/conf/core-site.xml" "$STATE/conf/log4j.properties" "$dir/"
  {
    echo '<?xml version="1.0"?><configuration>'
    property dfs.namenode.rpc-address "$NN_IP:8020"
    property dfs.namenode.http-address "$NN_IP:9870"
    property dfs.namenode.name.dir "file://$STATE/node0/name"
    property dfs.datanode.data.dir "file://$STATE/node$k/data"
    property dfs.datanode.address "$(ip_of "$k"):9866"
    property dfs.datanode.ipc.address "$(ip_of "$k"):9867"
    property dfs.datanode.http.address "$(ip_of "$k"):9864"
    property dfs.blocksize "$((BLOCK_MB << 20))"
    property dfs.replication 1
    quick_cluster_properties
    echo '  <!-- One copy at a time per source, so that N sources make N concurrent flows; no load-based exclusion. -->'
    property dfs.namenode.replication.max-streams 1
    property dfs.namenode.replication.max-streams-hard-limit 2
    property dfs.namenode.redundancy.considerLoad false
    echo '  <!-- No DNS inside the namespaces: DataNodes are known by address. -->'
    property dfs.namenode.datanode.registration.ip-hostname-check false
    property dfs.datanode.plugins org.eafr.datanode.rate.ReceiveRatePlugin
    property eafr.datanode.rate.period.ms "$PERIOD_MS"
    property eafr.rate.low-threshold "$ETA_LOW"
    property eafr.rate.high-threshold "$ETA_HIGH"
    local p
    for p in "$@"; do property "${p%%=*}" "${p#*=}"; done
    echo '</configuration>'
  } >"$dir/hdfs-site.xml"
}

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
  if kill -TERM "$pid" 2>/dev/null; then
    wait_until 30 "node $1 (pid $pid) to exit" eval "! kill -0 $pid 2>/dev/null" || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

stop_all() {
  local f
  for f in "$STATE"/node*.pid; do [[ -e "$f" ]] && stop_node "$(basename "$f" .pid | sed 's/node//')"; done
  return 0
}

# up N SECONDS: waits until the NameNode sees N live DataNodes and has left safe mode (its JMX, read in Java).
up() { in_ns 0 "$JAVA" -Xmx64m -cp "$(cat "$STATE/classpath")" org.eafr.demo.NameNodeJmx "$NN_IP:9870" "$1" "$2"; }
client() { # NODE ARGS...: FsShell in node's namespace
  local k=$1
  shift
  in_ns "$k" "$JAVA" -Xmx128m -Djava.net.preferIPv4Stack=true -Dhadoop.root.logger=WARN,console \
    -cp "$STATE/node$k/conf:$(cat "$STATE/classpath")" org.apache.hadoop.fs.FsShell "$@"
}
hadoop_version() { tr ':' '\n' <"$STATE/classpath" | grep -oE 'hadoop-hdfs-[0-9][^/]*\.jar$' | head -1 | sed 's/hadoop-hdfs-//; s/\.jar$//'; }
bench_tool() { "$JAVA" -cp "$(cat "$STATE/classpath")" org.eafr.datanode.bench.IncastBench "$@"; }

# start_cluster NODES: format, then the NameNode and DataNodes 1..NODES-1, until all are live.
start_cluster() {
  local nodes=$1 k
  in_ns 0 "$JAVA" -Xmx256m -cp "$STATE/node0/conf:$(cat "$STATE/classpath")" "$NN_CLASS" -format -force \
    -nonInteractive >"$LOGS/format.log" 2>&1 || die "format failed (see $LOGS/format.log)"
  start_node 0 "$NN_CLASS"
  for ((k = 1; k < nodes; k++)); do start_node "$k" "$DN_CLASS"; done
  up $((nodes - 1)) 180 || die "DataNodes missing (see $STATE/logs)"
}

# sample_sockets PREFIX "TARGETS" "SENDERS": every 2 s, `ss -tin` of the block transfer connections, on the
# receiving side (PREFIX-rx.txt) and the sending side (PREFIX-tx.txt), until killed.
sample_sockets() {
  local prefix=$1 t k
  while :; do
    for t in $2; do in_ns "$t" ss -tinH state established '( sport = :9866 )' >>"$prefix-rx.txt" 2>/dev/null || true; done
    for k in $3; do in_ns "$k" ss -tinH state established '( dport = :9866 )' >>"$prefix-tx.txt" 2>/dev/null || true; done
    sleep 2
  done
}

# replicate ROUND_NAME SENDERS TARGET_LOGS...: writes BLOCKS blocks from each sender (replication 1, so the replica
# is local), asks for replication 2 and waits until every block has its copy; appends the round to the results.
replicate_round() {
  local scenario=$1 mode=$2 round=$3 senders=$4
  shift 4
  local targets=("$@") dir="/$scenario-$mode-$round" k expected=$((senders * BLOCKS))
  client 1 -fs "hdfs://$NN_IP:8020" -mkdir -p "$dir"
  local puts=() pid
  for ((k = 1; k <= senders; k++)); do
    client "$k" -fs "hdfs://$NN_IP:8020" -put "$STATE/tmp/data" "$dir/s$k" &
    puts+=($!)
  done
  for pid in "${puts[@]}"; do wait "$pid" || die "writing $dir failed"; done
  local senders_list=() lines=() t
  for ((k = 1; k <= senders; k++)); do senders_list+=("$k"); done
  for t in "${targets[@]}"; do lines+=("$(wc -l <"$LOGS/node$t.log")"); done
  local retrans0 timeouts0 requested
  retrans0="$(tcp_counter snmp RetransSegs "${senders_list[@]}")"
  timeouts0="$(tcp_counter netstat TCPTimeouts "${senders_list[@]}")"
  client 0 -fs "hdfs://$NN_IP:8020" -setrep 2 "$dir" >/dev/null
  # Completion counts from the NameNode's first setReplication of the round (its audit line), not from the client's
  # start: a client JVM takes seconds to start on a loaded machine.
  requested="$(grep -m1 "cmd=setReplication.src=$dir/" "$LOGS/node0.log" | cut -c1-23 | tr , .)"
  [[ -n "$requested" ]] || die "no setReplication of $dir in the NameNode's audit log"
  requested="$(date -d "$requested" +%s%3N)"
  copied() {
    local i n=0
    for i in "${!targets[@]}"; do
      n=$((n + $(tail -n +$((lines[i] + 1)) "$LOGS/node${targets[i]}.log" | grep -c 'Received BP.* of size' || true)))
    done
    ((n >= expected))
  }
  sample_sockets "$LOGS/ss-$scenario-$mode-$round" "${targets[*]}" "${senders_list[*]}" &
  local sampler=$!
  wait_until 600 "$expected copies in $scenario $mode round $round" copied || die "copies missing (see $STATE/logs)"
  kill "$sampler" 2>/dev/null || true
  wait "$sampler" 2>/dev/null || true
  local logs=() row
  for t in "${targets[@]}"; do logs+=("$LOGS/node$t.log"); done
  row="$(bench_tool round --scenario "$scenario" --mode "$mode" --round "$round" --requested "$requested" \
    --retrans $(($(tcp_counter snmp RetransSegs "${senders_list[@]}") - retrans0)) \
    --timeouts $(($(tcp_counter netstat TCPTimeouts "${senders_list[@]}") - timeouts0)) --out "$RESULTS" "${logs[@]}")"
  log "$row"
  client 0 -fs "hdfs://$NN_IP:8020" -rm -r -skipTrash "$dir" >/dev/null
}

# ---------------------------------------------------------------------------------------------------------------
# Scenarios

rack_incast() { (($1 == 9)) && echo /r2 || echo /r1; }
rack_hetero() { (($1 <= 4)) && echo /r1 || echo /r2; }

incast() {
  log "incast: NameNode, 8 senders (/r1), 1 receiver (/r2), ${MBIT} Mbit/s links, ${QUEUE}-byte queue towards each node"
  network 10
  write_conf incast 10 rack_incast
  local k mode round link=$((MBIT * 1000000 / 8))
  for ((k = 0; k <= 8; k++)); do node_conf "$k"; done
  node_conf 9
  start_cluster 10
  for ((round = 1; round <= ROUNDS; round++)); do
    for mode in stock $MODES; do
      stop_node 9
      if [[ $mode != stock ]]; then
        node_conf 9 "eafr.datanode.link.bytes-per-second=$link" "eafr.datanode.rate.mode=$mode"
      else
        node_conf 9
      fi
      local before
      before="$(wc -l <"$LOGS/node9.log" 2>/dev/null || echo 0)"
      start_node 9 "$DN_CLASS"
      up 9 120 || die "the receiver did not come back"
      # The NameNode still counts the stopped receiver as live: wait for the new one's registration.
      registered() { tail -n +$((before + 1)) "$LOGS/node9.log" | grep -q "successfully registered with NN"; }
      wait_until 120 "the receiver to register again" registered || die "the receiver did not register"
      throttler_on() { tail -n +$((before + 1)) "$LOGS/node9.log" | grep -q "EAFR receive rate control on"; }
      if [[ $mode != stock ]] && ! wait_until 30 "the throttler" throttler_on; then
        die "the EAFR receive rate control did not start on the receiver (see $LOGS/node9.log)"
      fi
      replicate_round incast "$mode" "$round" 8 9
    done
  done
  stop_all
}

hetero() {
  log "hetero: NameNode, 4 sources (/r1), 4 targets (/r2): 2 at ${MBIT} Mbit/s, 2 at ${SLOW_MBIT} Mbit/s"
  network 9
  reshape 7 "$SLOW_MBIT"
  reshape 8 "$SLOW_MBIT"
  write_conf hetero 9 rack_hetero
  local k mode round
  for ((k = 1; k <= 8; k++)); do node_conf "$k"; done
  node_conf 0
  start_cluster 9
  for mode in stock eafr; do
    stop_node 0
    if [[ $mode == eafr ]]; then
      # EAFR placement with the transfer-speed EWMA (Eq. 9) fed by the copies it times: 16 MiB blocks are samples,
      # a 5 s EWMA window, every target ranked (d = 0), ranked by expected finish time with targets finishing later
      # than 1.5x the soonest cut (r). The monitor's own rounds stay an hour away.
      node_conf 0 dfs.block.replicator.classname=org.eafr.namenode.placement.EafrBlockPlacementPolicy \
        dfs.namenode.plugins=org.eafr.namenode.monitor.ReplicationMonitorPlugin eafr.storage-reserve.bytes=0 \
        eafr.transfer.min-sample-bytes=$((BLOCK_MB << 19)) eafr.ewma.window.ms=5000 eafr.destination.sample-size=0 \
        eafr.destination.finish-ratio=1.5
    else
      node_conf 0
    fi
    start_node 0 "$NN_CLASS"
    up 8 120 || die "DataNodes did not re-register"
    [[ $mode == eafr ]] && { log "hetero eafr: one unmeasured round to learn the speeds"; replicate_round hetero warmup 0 4 5 6 7 8; }
    for ((round = 1; round <= ROUNDS; round++)); do replicate_round hetero "$mode" "$round" 4 5 6 7 8; done
  done
  stop_all
}

cleanup() {
  trap - EXIT INT TERM HUP
  stop_all || true
  teardown_network || true
  local left
  left="$(our_namespaces; ip -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' | grep -E "^$NS-" || true)"
  [[ -z "$left" ]] || log "left behind (remove by hand): $(tr '\n' ' ' <<<"$left")"
}

main() {
  local lock=/tmp/eafr-incast-bench.lock
  [[ -d /run/lock && -w /run/lock ]] && lock=/run/lock/eafr-incast-bench.lock
  exec 9>"$lock"
  flock -n 9 || die "another scripts/bench/incast.sh is running on this machine (it owns the namespaces $NS-*)"
  trap cleanup EXIT
  trap 'log "interrupted"; exit 130' INT
  trap 'log "terminated"; exit 143' TERM HUP
  check_kernel
  local load_start
  load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
  rm -rf "$STATE"
  mkdir -p "$STATE/logs" "$STATE/tmp"
  # The DataNode module first: the daemons' classpath is its compile scope, which has JNA (the window mode). The
  # demo module brings the JMX reader (org.eafr.demo.NameNodeJmx).
  eafr_build "$STATE" hadoop-eafr-datanode hadoop-eafr-namenode hadoop-eafr-demo hadoop-eafr-sim
  head -c $((BLOCK_MB * BLOCKS << 20)) /dev/urandom >"$STATE/tmp/data"
  local scenario
  for scenario in $SCENARIOS; do
    case "$scenario" in
      incast | hetero) "$scenario" ;;
      *) die "INCAST_SCENARIOS: unknown scenario '$scenario' (allowed: incast hetero)" ;;
    esac
  done
  grep -v ',warmup,' "$RESULTS" >"$STATE/results-measured.csv"
  cat >"$STATE/setup.md" <<SETUP
Measured by \`scripts/bench/incast.sh\` on $(date -u +%Y-%m-%d) (Hadoop $(hadoop_version),
$(nproc) CPUs shared): real NameNode and DataNode processes, each in its own network namespace, veth links shaped
with tc tbf (${MBIT} Mbit/s, ${QUEUE}-byte queue towards each node), ${BLOCK_MB} MiB blocks, ${BLOCKS} per sender,
adjustment period ${PERIOD_MS} ms,
${ROUNDS} rounds per mode; medians over rounds. **incast**: 8 senders re-replicate into one receiver at once; stock
HDFS against the EAFR receive rate control in each of: ${MODES} (c_b = ${MBIT} Mbit/s, eta_l = ${ETA_LOW}, eta_h = ${ETA_HIGH}).
**hetero**: 4 sources re-replicate into 4 targets, 2 of them at ${SLOW_MBIT} Mbit/s; stock placement against EAFR's
(Eq. 9-12 ranked by expected finish time, eafr.destination.finish-ratio = 1.5, after one unmeasured round). What the numbers mean: [datanode.md](datanode.md#benchmark).
Load average (1, 5, 15 min) at the start: $load_start; at the end: $(cut -d' ' -f1-3 /proc/loadavg).
SETUP
  if [[ -f "$STATE/logs/incast/node9.log" ]]; then
    { echo; bench_tool trace "$STATE/logs/incast/node9.log"; } >>"$STATE/setup.md"
  fi
  local mode
  for mode in stock $MODES; do
    compgen -G "$STATE/logs/incast/ss-incast-$mode-*-rx.txt" >/dev/null || continue
    { echo; bench_tool sockets --mode "$mode" --rx "$(ls "$STATE"/logs/incast/ss-incast-"$mode"-*-rx.txt | paste -sd,)" \
      --tx "$(ls "$STATE"/logs/incast/ss-incast-"$mode"-*-tx.txt | paste -sd,)"; } >>"$STATE/setup.md"
  done
  local doc=(--doc "$ROOT/docs/evaluation-real-daemons.md" --title "Incast and heterogeneous links on real daemons" --setup "$STATE/setup.md")
  [[ "${INCAST_NO_DOC:-0}" == 1 ]] && doc=()
  bench_tool report --results "$STATE/results-measured.csv" "${doc[@]}"
}

main "$@"
