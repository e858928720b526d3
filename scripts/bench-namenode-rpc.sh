#!/usr/bin/env bash
# NameNode throughput over RPC, stock HDFS against EAFR, measured as a new user would: a real NameNode
# process and 4 DataNodes from the project's jars (scripts/local-cluster.sh), the NameNode restarted as stock and as
# EAFR in alternating pairs (order flipped every pair), and in each run Hadoop's NNThroughputBenchmark in remote mode
# (-fs hdfs://...) for create, open (first reads of the interval, then repeat reads of the same files) and
# fileStatus, then getBlockLocations of one-block files on 3 of the 4 DataNodes (so the reader ordering runs), and the
# NameNode's live heap after a full GC before and after the first reads (jcmd GC.class_histogram). Before the timed
# first reads, untimed: getBlockLocations and first reads of other files (the open path compiled by the JIT first).
# The run logic is in hadoop-eafr-namenode's test sources, org.eafr.namenode.bench.NameNodeRpcBench.
#
# Usage: scripts/bench-namenode-rpc.sh [--pairs P] [--files F] [--threads T] [--block-files K] [--gbl-ops N] [--passes R]
#          [--layout L]
#   --pairs 6          stock/EAFR pairs (each pair: one stock run and one EAFR run, back to back, the order flipped
#                      every pair: with an even count each side runs first equally often)
#   --files 50000      files per NNThroughputBenchmark op (fewer make passes of about a second, which one GC moves by 20-40%)
#   --threads 8        client threads of every op
#   --block-files 500  one-block files for getBlockLocations, written once
#   --gbl-ops 100000   getBlockLocations calls per pass
#   --passes 3         passes of first reads (each on paths never read before: the directory is renamed between
#                      passes), repeat reads, fileStatus and getBlockLocations in each run; the median pass is
#                      reported (one pass moved by a GC or a neighbour's burst varied 20% here)
#   --layout random    eafr.layout of the EAFR NameNode: random (EAFR's ordering, Alg. 3), or a geared policy (rabbit,
#                      springfs, accordion, eafr-geared; equal-work is rabbit), whose read ordering (hit-ratio balancer,
#                      read offloading, rounds) then picks the replica listed first: the chain is fixed from the 4
#                      DataNodes (eafr.gear.expected-datanodes = 4) before the first pair, every DataNode on
# Time on the 2-core development VM: about 3 minutes per pair at the defaults when it is otherwise idle, twice that
# at a load average of 20-30 (others' builds). Steadier medians: more pairs (e.g. --pairs 12).
# Prints each run's figures, then every figure and the min/median/max of eafr/stock per pair; the report is also
# written to target/bench-namenode-rpc.txt. Then the read counter's heap at the default cap, measured in-process.
# State and logs: target/bench-namenode-rpc/ (the cluster is stopped at the end, its logs kept until the next run).
# Environment: BENCH_HEAP (heap of each daemon, 512m), BENCH_NAME_DIR (NameNode metadata, a fresh dir in /dev/shm).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
pairs=6 files=50000 threads=8 block_files=500 gbl_ops=100000 passes=3 layout=random
while (($#)); do
  case "$1" in
    -h | --help) sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --pairs | --files | --threads | --block-files | --gbl-ops | --passes) ;;
    --layout)
      (($# >= 2)) || { echo "$1 needs a value" >&2; exit 2; }
      [[ "$2" =~ ^(random|equal-work|rabbit|springfs|accordion|eafr-geared)$ ]] || {
        echo "--layout $2 is not allowed: expected random, equal-work, rabbit, springfs, accordion or eafr-geared" >&2
        exit 2
      }
      layout=$2
      shift 2
      continue
      ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  (($# >= 2)) || { echo "$1 needs a value" >&2; exit 2; }
  [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "$1 $2 is not allowed: expected a positive integer" >&2; exit 2; }
  case "$1" in
    --pairs) pairs=$2 ;;
    --files) files=$2 ;;
    --threads) threads=$2 ;;
    --block-files) block_files=$2 ;;
    --gbl-ops) gbl_ops=$2 ;;
    --passes) passes=$2 ;;
  esac
  shift 2
done

export LOCAL_CLUSTER_DIR="$ROOT/target/bench-namenode-rpc"
export LOCAL_CLUSTER_INTERVAL_MS=3600000 # no monitor round during the bench
export LOCAL_CLUSTER_HEAP="${BENCH_HEAP:-512m}"
# The NameNode's metadata on tmpfs: this machine's disk takes about 8 ms per fsync, so with the edit log on it create
# measures the disk (about 100 ops/s), not the NameNode. BENCH_NAME_DIR puts it elsewhere (e.g. on a disk).
export LOCAL_CLUSTER_NAME_DIR="${BENCH_NAME_DIR:-/dev/shm/bench-namenode-rpc-$$}"
# Hadoop's default audit configuration (hadoop-env.sh: INFO,NullAppender) for both: every event is formatted and
# dropped. local-cluster.sh logs the audit to a file, which would add the same cost to both sides.
export LOCAL_CLUSTER_NN_OPTS="-Dhdfs.audit.logger=INFO,NullAppender"
cluster() { "$ROOT/scripts/local-cluster.sh" "$@"; }
log() { echo "[bench-namenode-rpc $(date +%T)] $*" >&2; }

cluster clean >/dev/null 2>&1 || true
trap 'cluster stop >/dev/null 2>&1 || true; rm -rf "$LOCAL_CLUSTER_NAME_DIR"' EXIT
cluster start 4

log "building the bench tool (test-compile) ..."
(cd "$ROOT" && mvn -B -q -ntp -pl hadoop-eafr-placement,hadoop-eafr-namenode test-compile \
  dependency:build-classpath -DincludeScope=test -Dmdep.outputFile=target/bench.cp)
nn_module="$ROOT/hadoop-eafr-namenode/target" core_module="$ROOT/hadoop-eafr-placement/target"
bench() {
  java -Xmx1g -Djava.net.preferIPv4Stack=true \
    -cp "$nn_module/test-classes:$nn_module/classes:$core_module/classes:$(cat "$nn_module/bench.cp")" \
    org.eafr.namenode.bench.NameNodeRpcBench "$@"
}
# shellcheck disable=SC1091
source "$LOCAL_CLUSTER_DIR/cluster.env"
common=(--fs "hdfs://127.0.0.1:$NN_RPC" --blocks-dir /bench-rpc/blocks --block-files "$block_files")

log "writing $block_files one-block files (replication 3) for getBlockLocations ..."
bench prepare "${common[@]}" >"$LOCAL_CLUSTER_DIR/logs/prepare.log" 2>&1 || { tail -20 "$LOCAL_CLUSTER_DIR/logs/prepare.log" >&2; exit 1; }

if [[ "$layout" != random ]]; then
  # The EAFR NameNode's own settings only (conf-stock stays stock); the chain is fixed once and persisted.
  sed -i "s#</configuration>#<property><name>eafr.layout</name><value>$layout</value></property><property><name>eafr.gear.expected-datanodes</name><value>4</value></property></configuration>#" \
    "$LOCAL_CLUSTER_DIR/conf/hdfs-site.xml"
  cluster namenode eafr >"$LOCAL_CLUSTER_DIR/logs/restart-layout.log" 2>&1 || { cat "$LOCAL_CLUSTER_DIR/logs/restart-layout.log" >&2; exit 1; }
  for ((tries = 0; tries < 120; tries++)); do
    grep -q 'EAFR gears: expansion chain fixed' "$LOCAL_CLUSTER_DIR/logs/namenode.log" && break
    sleep 0.5
  done
  grep -h 'EAFR gears: expansion chain fixed' "$LOCAL_CLUSTER_DIR/logs/namenode.log" >&2 \
    || { echo "the $layout layout's chain was not fixed in 60 s (see $LOCAL_CLUSTER_DIR/logs/namenode.log)" >&2; exit 1; }
  log "EAFR NameNode: eafr.layout = $layout, chain fixed"
fi

results="$LOCAL_CLUSTER_DIR/results.tsv"
echo "# pair	label	metric	value (ops/s; bytes)" >"$results"
for ((pair = 1; pair <= pairs; pair++)); do
  order=(stock eafr)
  ((pair % 2 == 0)) && order=(eafr stock)
  for label in "${order[@]}"; do
    restart_log="$LOCAL_CLUSTER_DIR/logs/restart-$pair-$label.log"
    cluster namenode "$label" >"$restart_log" 2>&1 || { cat "$restart_log" >&2; exit 1; }
    run_log="$LOCAL_CLUSTER_DIR/logs/run-$pair-$label.log"
    log "pair $pair/$pairs, $label: $files files, $threads threads (log: $run_log)"
    if ! bench run "${common[@]}" --pair "$pair" --label "$label" --files "$files" --threads "$threads" \
      --gbl-ops "$gbl_ops" --passes "$passes" --nn-pid "$(cat "$LOCAL_CLUSTER_DIR/pids/namenode.pid")" --out "$results" >"$run_log" 2>&1; then
      tail -30 "$run_log" >&2
      exit 1
    fi
    grep -P "^$pair\t$label\t" "$results" | sed 's/^/  /'
  done
done
cluster stop >/dev/null 2>&1

echo
echo "NameNode over RPC, $pairs pairs, $files files, $threads threads, EAFR with eafr.layout = $layout; ops/s per run (heap: bytes per opened file):"
bench report "$results" | tee "$ROOT/target/bench-namenode-rpc.txt"
java -Xmx2g -cp "$core_module/test-classes:$core_module/classes" org.eafr.placement.bench.ReadCounterFootprint \
  1000000 1500000 | tee -a "$ROOT/target/bench-namenode-rpc.txt"
