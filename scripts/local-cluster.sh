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
# Maven arguments, e.g. -Dhadoop.version=3.5.0). Needs a JDK 11+, Maven, curl, unzip and setsid (util-linux).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="${LOCAL_CLUSTER_DIR:-$ROOT/target/local-cluster}"
RACKS="${LOCAL_CLUSTER_RACKS:-2}"
INTERVAL_MS="${LOCAL_CLUSTER_INTERVAL_MS:-20000}"
HEAP="${LOCAL_CLUSTER_HEAP:-256m}"
NAME_DIR="${LOCAL_CLUSTER_NAME_DIR:-$STATE/nn}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
EAFR_SITE="$ROOT/conf/hdfs-site.eafr.xml"
NN_CLASS=org.apache.hadoop.hdfs.server.namenode.NameNode
DN_CLASS=org.apache.hadoop.hdfs.server.datanode.DataNode
EAFR_JMX="Hadoop:service=NameNode,name=EafrNameNode"

log() { echo "[local-cluster] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

require_tools() {
  local tool missing=()
  for tool in java mvn curl unzip setsid; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  ((${#missing[@]} == 0)) || die "missing ${missing[*]}: install them (Debian: apt-get install curl unzip util-linux;"\
" scripts/install-deps.sh installs a JDK and Maven)"
}

# shellcheck source=lib/eafr-daemons.sh
source "$ROOT/scripts/lib/eafr-daemons.sh"

# ---------------------------------------------------------------------------------------------------------------
# Build and classpath

# Builds the EAFR jars and writes the daemons' classpath (scripts/lib/eafr-daemons.sh).
build() {
  if [[ "${LOCAL_CLUSTER_SKIP_BUILD:-0}" == 1 && -s "$STATE/classpath" ]]; then
    log "LOCAL_CLUSTER_SKIP_BUILD=1: reusing $STATE/classpath"
    return
  fi
  eafr_build "$STATE" hadoop-eafr-namenode
}

# Runs a Hadoop class as a client (FsShell, DFSAdmin, GetConf) against the cluster, logging warnings only.
hadoop_client() {
  "$JAVA" -Xmx256m -Djava.net.preferIPv4Stack=true -Dhadoop.root.logger=WARN,console \
    -cp "$STATE/conf:$(cat "$STATE/classpath")" "$@"
}
fs() { hadoop_client org.apache.hadoop.fs.FsShell -fs "hdfs://127.0.0.1:$NN_RPC" "$@"; }

# ---------------------------------------------------------------------------------------------------------------
# Ports and configuration

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Picks 2 + 3N free ports from a random base in [20000, 40000), skipping busy ones; writes them to cluster.env.
pick_ports() {
  local n=$1
  local need=$((2 + 3 * n)) port=$((20000 + RANDOM % 20000)) ports=()
  while ((${#ports[@]} < need)); do
    port_free "$port" && ports+=("$port")
    port=$((port + 1))
  done
  {
    echo "N=$n"
    echo "RACKS=$RACKS"
    echo "NN_RPC=${ports[0]}"
    echo "NN_HTTP=${ports[1]}"
    local i
    for ((i = 0; i < n; i++)); do
      echo "DN_XFER_$i=${ports[2 + 3 * i]}"
      echo "DN_IPC_$i=${ports[3 + 3 * i]}"
      echo "DN_HTTP_$i=${ports[4 + 3 * i]}"
    done
  } >"$STATE/cluster.env"
}

load_env() {
  [[ -f "$STATE/cluster.env" ]] || die "no cluster in $STATE: run 'scripts/local-cluster.sh start' first"
  # shellcheck disable=SC1091
  source "$STATE/cluster.env"
}

all_ports_free() {
  local i
  port_free "$NN_RPC" && port_free "$NN_HTTP" || return 1
  for ((i = 0; i < N; i++)); do
    local x="DN_XFER_$i" p="DN_IPC_$i" h="DN_HTTP_$i"
    port_free "${!x}" && port_free "${!p}" && port_free "${!h}" || return 1
  done
}

dn_host() { echo "dn$1.eafr.local"; }
dn_rack() { echo "/rack$(($1 % RACKS))"; }

# The standby DataNode of each rack is its last one, when the rack has two or more; all others are hot.
is_standby() {
  local i=$1 last=$((N - 1 - ((N - 1 - $1) % RACKS)))
  ((i == last && i >= RACKS))
}

# The NameNode's hdfs-site.xml: "eafr" (also the DataNodes'), or "stock": the same cluster without any EAFR part,
# for comparisons (scripts/bench-namenode-rpc.sh).
hdfs_site() {
  local mode=$1 conf="$STATE/conf"
  echo '<?xml version="1.0"?>'
  echo "<!-- Generated by scripts/local-cluster.sh. -->"
  echo '<configuration xmlns:xi="http://www.w3.org/2001/XInclude">'
  if [[ "$mode" == eafr ]]; then
    echo '  <!-- EAFR exactly as documented: the properties an operator merges into hdfs-site.xml. Properties below'
    echo '       override only paths and test-speed knobs. -->'
    echo "  <xi:include href=\"$EAFR_SITE\"/>"
    echo '  <!-- Paths of this local cluster. -->'
    property dfs.hosts "$conf/dfs.hosts.json"
    property eafr.roles.file "$conf/eafr-roles"
    property eafr.interval.ms "$INTERVAL_MS"
    echo '  <!-- All DataNodes share one disk here: a 10 GiB reserve (Eq. 8) could put every standby to sleep at once. -->'
    property eafr.storage-reserve.bytes 0
  else
    echo '  <!-- Stock HDFS: no EAFR part configured. -->'
  fi
  echo '  <!-- Test speed: 1 MiB blocks, 1 s heartbeats (and, with EAFR, a monitor round every 20 s above). -->'
  property dfs.blocksize 1048576
  quick_cluster_properties
  echo '  <!-- The local NameNode. -->'
  property dfs.namenode.rpc-address "127.0.0.1:$NN_RPC"
  property dfs.namenode.http-address "127.0.0.1:$NN_HTTP"
  property dfs.namenode.name.dir "file://$NAME_DIR"
  echo '</configuration>'
}

write_conf() {
  local conf="$STATE/conf" i
  mkdir -p "$conf" "$STATE/logs" "$STATE/pids" "$STATE/tmp"
  local mapping=""
  for ((i = 0; i < N; i++)); do mapping+="${mapping:+,}$(dn_host "$i")=$(dn_rack "$i")"; done
  {
    echo '<?xml version="1.0"?>'
    echo "<!-- Generated by scripts/local-cluster.sh. -->"
    echo '<configuration>'
    property fs.defaultFS "hdfs://127.0.0.1:$NN_RPC"
    property hadoop.tmp.dir "$STATE/tmp"
    echo '  <!-- Racks. Hadoop resolves DataNodes by IP address with its script and table mappings (both are'
    echo '       CachedDNSToSwitchMapping), and every DataNode here has 127.0.0.1; other mappings get the DataNode host'
    echo '       name (dfs.datanode.hostname), so StaticMapping (hadoop-common tests jar, as MiniDFSCluster uses) maps'
    echo '       dnK.eafr.local to its rack. On a real cluster use net.topology.script.file.name as usual. -->'
    property net.topology.node.switch.mapping.impl org.apache.hadoop.net.StaticMapping
    property hadoop.configured.node.mapping "$mapping"
    echo '</configuration>'
  } >"$conf/core-site.xml"

  hdfs_site eafr >"$conf/hdfs-site.xml"

  # JSON hosts file of CombinedHostFileManager: each DataNode by IP and transfer port. NORMAL entries make it an
  # allow-list (an empty list [] would let any DataNode register); EAFR lays its sleeping servers over it.
  {
    echo '['
    for ((i = 0; i < N; i++)); do
      local x="DN_XFER_$i"
      printf '  {"hostName": "127.0.0.1", "port": %s, "adminState": "NORMAL"}%s\n' "${!x}" "$( ((i < N - 1)) && echo ,)"
    done
    echo ']'
  } >"$conf/dfs.hosts.json"

  {
    echo "# Generated by scripts/local-cluster.sh: the last DataNode of each rack with two or more is standby."
    local hot="" standby=""
    for ((i = 0; i < N; i++)); do
      if is_standby "$i"; then standby+=" $(dn_host "$i")"; else hot+=" $(dn_host "$i")"; fi
    done
    echo "hot    $hot"
    [[ -n "$standby" ]] && echo "standby$standby"
    echo "unlisted hot"
  } >"$conf/eafr-roles"

  cat >"$conf/log4j.properties" <<'EOF'
# Generated by scripts/local-cluster.sh: daemons log to stdout (redirected to logs/NAME.log), the NameNode's audit
# log (cmd=open: what EAFR counts as reads) to logs/hdfs-audit.log, EAFR's round classification at DEBUG.
hadoop.root.logger=INFO,console
hdfs.audit.logger=INFO,NullAppender
hadoop.log.dir=.
log4j.rootLogger=${hadoop.root.logger}
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
log4j.appender.NullAppender=org.apache.log4j.varia.NullAppender
log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=${hdfs.audit.logger}
log4j.additivity.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=false
log4j.appender.RFAAUDIT=org.apache.log4j.FileAppender
log4j.appender.RFAAUDIT.File=${hadoop.log.dir}/hdfs-audit.log
log4j.appender.RFAAUDIT.layout=org.apache.log4j.PatternLayout
log4j.appender.RFAAUDIT.layout.ConversionPattern=%d{ISO8601} %m%n
log4j.logger.org.eafr.namenode.monitor.ReplicationMonitor=DEBUG
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
log4j.logger.http.requests=WARN
EOF
  mkdir -p "$STATE/conf-stock"
  cp "$conf/core-site.xml" "$conf/log4j.properties" "$STATE/conf-stock/"
  hdfs_site stock >"$STATE/conf-stock/hdfs-site.xml"

  for ((i = 0; i < N; i++)); do
    local dconf="$STATE/dn$i/conf" x="DN_XFER_$i" p="DN_IPC_$i" h="DN_HTTP_$i"
    mkdir -p "$dconf" "$STATE/dn$i/data"
    cp "$conf/core-site.xml" "$conf/log4j.properties" "$dconf/"
    {
      echo '<?xml version="1.0"?>'
      echo "<!-- Generated by scripts/local-cluster.sh: the cluster's hdfs-site.xml plus this DataNode's own. -->"
      echo '<configuration xmlns:xi="http://www.w3.org/2001/XInclude">'
      echo "  <xi:include href=\"$conf/hdfs-site.xml\"/>"
      property dfs.datanode.hostname "$(dn_host "$i")"
      property dfs.datanode.address "127.0.0.1:${!x}"
      property dfs.datanode.ipc.address "127.0.0.1:${!p}"
      property dfs.datanode.http.address "127.0.0.1:${!h}"
      property dfs.datanode.data.dir "file://$STATE/dn$i/data"
      echo '</configuration>'
    } >"$dconf/hdfs-site.xml"
  done
}

# ---------------------------------------------------------------------------------------------------------------
# Daemons

# Whether the pid in $1 runs a JVM with main class $2 (a recycled pid running something else does not count).
alive() {
  local pidfile=$1 class=$2 pid
  [[ -f "$pidfile" ]] || return 1
  pid="$(cat "$pidfile")"
  [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$class"
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

stop_daemon() {
  local name=$1 class=$2 pidfile="$STATE/pids/$1.pid"
  if alive "$pidfile" "$class"; then
    local pid
    pid="$(cat "$pidfile")"
    kill -TERM "$pid" 2>/dev/null || true
    if ! wait_until 30 "$name (pid $pid) to exit" eval "! alive '$pidfile' '$class'"; then
      log "killing $name (pid $pid)"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    log "stopped $name (pid $pid)"
  fi
  rm -f "$pidfile"
}

jmx() { curl -sf --max-time 5 "http://127.0.0.1:$NN_HTTP/jmx?qry=$1"; }
# The number after "NAME" : in the JMX JSON on stdin (empty when absent).
json_number() { grep -o "\"$1\" : [0-9-]*" | head -1 | sed 's/.*: //'; }
json_string() { grep -o "\"$1\" : \"[^\"]*\"" | head -1 | sed 's/.*: "//; s/"$//'; }

live_datanodes() { jmx Hadoop:service=NameNode,name=FSNamesystemState | json_number NumLiveDataNodes; }
all_datanodes_live() { [[ "$(live_datanodes)" == "$N" ]]; }
out_of_safemode() { jmx Hadoop:service=NameNode,name=NameNodeInfo | grep -q '"Safemode" : ""'; }
nn_http_up() { jmx Hadoop:service=NameNode,name=NameNodeInfo >/dev/null; }

# Whether the NameNode log, past its first $1 lines, says the EAFR plugin started.
plugin_started() { tail -n +"$(($1 + 1))" "$STATE/logs/namenode.log" | grep -q "EAFR replication monitor started"; }
nn_log_errors() { grep -E ' (ERROR|FATAL) ' "$STATE/logs/namenode.log" || true; }

cmd_start() {
  local requested="${1:-}"
  [[ -z "$requested" || "$requested" =~ ^[1-9][0-9]*$ ]] || die "start N: N must be a positive number of DataNodes, got '$requested'"
  [[ "$RACKS" =~ ^[1-9][0-9]*$ ]] || die "LOCAL_CLUSTER_RACKS must be a positive number, got '$RACKS'"
  mkdir -p "$STATE"
  if [[ -f "$STATE/cluster.env" ]]; then
    load_env
    if [[ -n "$requested" && "$requested" != "$N" ]]; then
      die "the cluster in $STATE has $N DataNodes; run 'scripts/local-cluster.sh clean' before starting $requested"
    fi
    if alive "$STATE/pids/namenode.pid" "$NN_CLASS"; then
      local i missing=0
      for ((i = 0; i < N; i++)); do alive "$STATE/pids/datanode$i.pid" "$DN_CLASS" || missing=1; done
      if ((missing == 0)); then
        log "already running (NameNode hdfs://127.0.0.1:$NN_RPC, http://127.0.0.1:$NN_HTTP)"
        return 0
      fi
      log "NameNode running; starting the DataNodes that are not"
    else
      local d
      for d in "$STATE"/pids/datanode*.pid; do [[ -e "$d" ]] && stop_daemon "$(basename "$d" .pid)" "$DN_CLASS"; done
      all_ports_free || { log "some stored ports are taken: picking new ones"; pick_ports "$N"; load_env; }
    fi
  else
    N="${requested:-4}"
    pick_ports "$N"
    load_env
  fi

  if ! alive "$STATE/pids/namenode.pid" "$NN_CLASS"; then
    build
    write_conf
    if [[ ! -f "$NAME_DIR/current/VERSION" ]]; then
      log "formatting the NameNode"
      "$JAVA" -Xmx256m -Djava.net.preferIPv4Stack=true "-Djava.io.tmpdir=$STATE/tmp" \
        -cp "$STATE/conf:$(cat "$STATE/classpath")" "$NN_CLASS" -format -force -nonInteractive \
        >"$STATE/logs/format.log" 2>&1 || { tail -20 "$STATE/logs/format.log" >&2; die "format failed"; }
    fi
    start_namenode eafr
  fi
  local i
  for ((i = 0; i < N; i++)); do
    alive "$STATE/pids/datanode$i.pid" "$DN_CLASS" || start_daemon "datanode$i" "$DN_CLASS" "$STATE/dn$i/conf"
  done
  if ! wait_until 90 "$N live DataNodes" all_datanodes_live; then
    log "live DataNodes: $(live_datanodes)"
    die "not every DataNode registered (see $STATE/logs/datanode*.log)"
  fi
  wait_until 60 "the NameNode to leave safe mode" out_of_safemode || die "the NameNode stays in safe mode"
  log "running: NameNode hdfs://127.0.0.1:$NN_RPC (web UI http://127.0.0.1:$NN_HTTP), $N DataNodes on $RACKS racks"
}

# Starts the NameNode with EAFR ($1 = eafr: conf/) or as stock HDFS ($1 = stock: conf-stock/) and waits for its web
# server (and the EAFR plugin). Extra JVM options: LOCAL_CLUSTER_NN_OPTS.
start_namenode() {
  local mode=$1 conf="$STATE/conf" lines=0
  [[ "$mode" == stock ]] && conf="$STATE/conf-stock"
  [[ -f "$STATE/logs/namenode.log" ]] && lines="$(wc -l <"$STATE/logs/namenode.log")"
  # shellcheck disable=SC2086
  start_daemon namenode "$NN_CLASS" "$conf" -Dhdfs.audit.logger=INFO,RFAAUDIT ${LOCAL_CLUSTER_NN_OPTS:-}
  if ! wait_until 90 "the NameNode's web server on port $NN_HTTP" nn_http_up; then
    tail -30 "$STATE/logs/namenode.log" >&2
    die "the NameNode did not come up"
  fi
  if [[ "$mode" == eafr ]] && ! wait_until 30 "the EAFR replication monitor plugin to start" plugin_started "$lines"; then
    nn_log_errors >&2
    die "the EAFR replication monitor plugin did not start (see $STATE/logs/namenode.log)"
  fi
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
  wait_until 90 "$N live DataNodes" all_datanodes_live || die "not every DataNode registered again"
  wait_until 60 "the NameNode to leave safe mode" out_of_safemode || die "the NameNode stays in safe mode"
  log "NameNode ($mode) running, pid $(cat "$STATE/pids/namenode.pid")"
}

cmd_stop() {
  [[ -f "$STATE/cluster.env" ]] || { log "nothing to stop in $STATE"; return 0; }
  load_env
  local d
  for d in "$STATE"/pids/datanode*.pid; do [[ -e "$d" ]] && stop_daemon "$(basename "$d" .pid)" "$DN_CLASS"; done
  stop_daemon namenode "$NN_CLASS"
  log "stopped"
}

cmd_clean() {
  cmd_stop
  rm -rf "$STATE" "$NAME_DIR"
  log "removed $STATE"
}

cmd_status() {
  load_env
  local i state
  alive "$STATE/pids/namenode.pid" "$NN_CLASS" && state="running (pid $(cat "$STATE/pids/namenode.pid"))" || state=stopped
  echo "NameNode  hdfs://127.0.0.1:$NN_RPC  http://127.0.0.1:$NN_HTTP  $state"
  for ((i = 0; i < N; i++)); do
    local x="DN_XFER_$i" role=hot
    is_standby "$i" && role=standby
    alive "$STATE/pids/datanode$i.pid" "$DN_CLASS" && state="running (pid $(cat "$STATE/pids/datanode$i.pid"))" || state=stopped
    echo "DataNode $i  $(dn_host "$i")  127.0.0.1:${!x}  $(dn_rack "$i")  $role  $state"
  done
  alive "$STATE/pids/namenode.pid" "$NN_CLASS" || return 0
  echo
  hadoop_client org.apache.hadoop.hdfs.tools.DFSAdmin -fs "hdfs://127.0.0.1:$NN_RPC" -report -live |
    grep -E '^(Live datanodes|Name:|Hostname:|Rack:|Decommission Status|DFS Used:|Num of Blocks:)' || true
  echo
  hadoop_client org.apache.hadoop.hdfs.tools.DFSAdmin -fs "hdfs://127.0.0.1:$NN_RPC" -printTopology || true
  echo "EAFR metrics ($EAFR_JMX):"
  jmx "$EAFR_JMX" | grep -E '"(RoundsTotal|HotFiles|NormalFiles|ColdFiles|HotNodes|StandbyNodes|ColdNodes|ReplicasAddedTotal|ReplicasRemovedTotal|ReplicasMigratedTotal|MovedBytesTotal)"' ||
    echo "  (not registered)"
}

# ---------------------------------------------------------------------------------------------------------------
# Smoke test

# Lines in which a round classified $1 (DEBUG "EAFR round on ...: PATH reads N holders [...] -> TEMPERATURE").
round_lines() { grep -F ": $1 reads " "$STATE/logs/namenode.log" || true; }
round_count() { round_lines "$1" | wc -l; }
replication() { fs -stat %r "$1"; }

PASSES=()
FAILS=()
check() { # description, then a command that succeeds when the check passes
  local what=$1
  shift
  if "$@"; then PASSES+=("$what"); echo "  PASS  $what"; else FAILS+=("$what"); echo "  FAIL  $what"; fi
}

cmd_smoke() {
  local keep=0 n=""
  while (($#)); do
    case "$1" in
      --keep) keep=1 ;;
      *) n=$1 ;;
    esac
    shift
  done
  local started_here=0 began=$SECONDS
  if ! { [[ -f "$STATE/cluster.env" ]] && load_env && alive "$STATE/pids/namenode.pid" "$NN_CLASS"; }; then
    started_here=1
  fi
  if ((started_here && !keep)); then trap 'cmd_stop' EXIT; fi
  cmd_start "$n"
  load_env
  ((N >= 3)) || die "smoke needs at least 3 DataNodes (files are written with replication 3)"

  local run="/smoke/run-$(date +%s)" work="$STATE/tmp/smoke" i
  echo "DataNodes (replica holders are shown as IP:transfer port):"
  for ((i = 0; i < N; i++)); do
    local x="DN_XFER_$i" role=hot
    is_standby "$i" && role=standby
    echo "  127.0.0.1:${!x}  $(dn_host "$i")  $(dn_rack "$i")  $role"
  done
  rm -rf "$work"
  mkdir -p "$work"
  head -c 524288 /dev/urandom >"$work/hot.bin"
  head -c 524288 /dev/urandom >"$work/cold-1.bin"
  head -c 2621440 /dev/urandom >"$work/cold-2.bin" # 3 blocks of at most 1 MiB
  echo marker >"$work/marker"

  # Reads must fall in one monitor interval, so wait for a round to pass (the marker file shows in the round's
  # classification log), then write and read at once.
  log "smoke in $run: waiting for a monitor round (every ${INTERVAL_MS} ms) to start an interval"
  fs -mkdir -p "$run"
  fs -D dfs.replication=1 -put "$work/marker" "$run/marker"
  wait_until $((INTERVAL_MS / 1000 + 60)) "a round to classify $run/marker" eval "(( \$(round_count '$run/marker') >= 1 ))" ||
    die "no EAFR round ran (see $STATE/logs/namenode.log)"
  local t0=$SECONDS
  fs -put "$work/hot.bin" "$work/cold-1.bin" "$work/cold-2.bin" "$run/"
  local -a cats=()
  for ((i = 0; i < 40; i++)); do cats+=("$run/hot.bin"); done
  fs -cat "${cats[@]}" >"$work/hot.x40"
  log "wrote 3 files (replication 3) and read $run/hot.bin 40 times in $((SECONDS - t0)) s"

  wait_until $((INTERVAL_MS / 1000 + 60)) "the next round to classify $run/hot.bin" \
    eval "(( \$(round_count '$run/hot.bin') >= 1 ))" || true
  local f
  echo "EAFR's classification in the NameNode log (the round after the reads):"
  for f in hot.bin cold-1.bin cold-2.bin; do round_lines "$run/$f" | head -1 | sed 's/.*EAFR round on [^ ]* [^ ]* reads /  /'; done
  grep -F "EAFR plan on" "$STATE/logs/namenode.log" | grep -F "$run" | head -3 | sed 's/.*EAFR plan on [^ ]* /  plan /' || true

  # The cold files lose a replica (Alg. 1 DELETE, r = 2), the read file is normal and keeps its replication. Later
  # rounds go on (the unread hot.bin turns cold, cold files migrate to standby servers): look right after this one.
  cold_reduced() { [[ "$(replication "$run/cold-1.bin")" -lt 3 && "$(replication "$run/cold-2.bin")" -lt 3 ]]; }
  local cold_ok=0 r_hot r_cold1 r_cold2
  wait_until 30 "EAFR to lower the cold files' replication" cold_reduced && cold_ok=1
  r_hot="$(replication "$run/hot.bin")"
  r_cold1="$(replication "$run/cold-1.bin")"
  r_cold2="$(replication "$run/cold-2.bin")"
  echo "replication after that round: hot.bin $r_hot, cold-1.bin $r_cold1, cold-2.bin $r_cold2"
  local opens rounds removed added json
  opens="$(grep -c "cmd=open.*src=$run/hot.bin" "$STATE/logs/hdfs-audit.log" || true)"
  metrics_ready() { [[ "$(jmx "$EAFR_JMX" | json_number ReplicasRemovedTotal)" -ge 2 ]] 2>/dev/null; }
  wait_until 30 "the metrics to show the round (JMX values are cached for up to 10 s)" metrics_ready || true
  json="$(jmx "$EAFR_JMX" || true)"
  rounds="$(json_number RoundsTotal <<<"$json")"
  removed="$(json_number ReplicasRemovedTotal <<<"$json")"
  added="$(json_number ReplicasAddedTotal <<<"$json")"
  echo "JMX $EAFR_JMX: RoundsTotal=${rounds:-absent} ReplicasRemovedTotal=${removed:-absent} ReplicasAddedTotal=${added:-absent}"
  echo "checks:"
  check "NameNode sees $N live DataNodes on $RACKS racks" \
    eval "all_datanodes_live && (( \$(hadoop_client org.apache.hadoop.hdfs.tools.DFSAdmin -fs hdfs://127.0.0.1:$NN_RPC -printTopology | grep -c '^Rack:') == RACKS ))"
  check "audit log has the 40 opens of hot.bin that EAFR counts (found $opens)" eval "(( ${opens:-0} >= 40 ))"
  check "metrics source $EAFR_JMX has RoundsTotal >= 1 (RoundsTotal=${rounds:-absent})" eval "(( ${rounds:-0} >= 1 ))"
  local counted hot_class
  counted="$(round_lines "$run/hot.bin" | head -1 | sed -n "s|.*$run/hot.bin: reads \([0-9]*\).*|\1|p")"
  hot_class="$(round_lines "$run/hot.bin" | head -1 | sed -n 's/.*-> //p')"
  check "round counted the 40 reads of hot.bin (counted ${counted:-none}) and classified it ${hot_class:-?}, not COLD" \
    eval "(( ${counted:-0} >= 40 )) && [[ '$hot_class' == HOT || '$hot_class' == NORMAL ]]"
  check "round classified the unread files COLD" \
    eval "round_lines '$run/cold-1.bin' | head -1 | grep -q -- '-> COLD' && round_lines '$run/cold-2.bin' | head -1 | grep -q -- '-> COLD'"
  check "EAFR lowered the cold files' replication 3 -> 2 (now $r_cold1, $r_cold2; ReplicasRemovedTotal=${removed:-absent})" \
    eval "(( cold_ok == 1 && ${removed:-0} >= 2 ))"
  check "hot.bin kept replication 3 or gained a replica (now $r_hot; ReplicasAddedTotal=${added:-absent})" eval "(( r_hot >= 3 ))"
  same_bytes() {
    cmp -s "$work/hot.bin" <(fs -cat "$run/hot.bin") && cmp -s "$work/cold-1.bin" <(fs -cat "$run/cold-1.bin") &&
      cmp -s "$work/cold-2.bin" <(fs -cat "$run/cold-2.bin") &&
      cmp -s "$work/hot.x40" <(for ((i = 0; i < 40; i++)); do cat "$work/hot.bin"; done)
  }
  check "every file reads back byte for byte" same_bytes
  local errors
  errors="$(nn_log_errors | grep -i -E 'eafr|plugin|ClassNotFound|NoClassDefFound' || true)"
  check "no EAFR or plugin ERROR in the NameNode log" test -z "$errors"
  [[ -z "$errors" ]] || echo "$errors" | head -20
  echo "smoke: ${#PASSES[@]} passed, ${#FAILS[@]} failed, $((SECONDS - began)) s; logs in $STATE/logs"
  if ((keep)); then log "--keep: the cluster keeps running ('scripts/local-cluster.sh stop' ends it)"; fi
  if ((!started_here && !keep)); then log "the cluster was running before smoke: left running"; fi
  if ((${#FAILS[@]})); then echo "FAIL"; return 1; fi
  echo "PASS"
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
  clean) cmd_clean ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
