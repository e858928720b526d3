#!/usr/bin/env bash
# The gear service's block-map walks at NameNode scale: a real NameNode in-process (MiniDFSCluster, no DataNode
# processes) holding a synthetic block map built through the NameNode's own protocols, as NNThroughputBenchmark's
# simulated DataNodes do: 12 DataNodes that exist only as registrations, one-block files (replication 3) placed by the
# equal-work layout (p = 4, g = 2: gears 0..4 keep 4, 6, 8, 10, 12 DataNodes on), each replica reported by an
# incremental block report. At each size it times (median of --repeats):
#   - the gear-down availability check (NamespaceFloor: the block lists of the DataNodes that would leave, a batch per
#     read-lock hold) from gear 4 to 3 (2 DataNodes leave) and to gear 0 (8 leave);
#   - the same question answered by walking the whole namespace (the baseline, in the same run);
#   - one scan of wake detection over HDFS's low-redundancy queue (at most 10,000 blocks, 1,000 per read-lock hold);
#   - one relayout planning pass over the whole map (the relayout service's first walk, planned and nothing moved),
#     once per --planning-batch-files value of eafr.relayout.batch-files.
# The first size is placed with every DataNode on; later sizes add blocks with the top gear group asleep, so the
# replicas on the 2 DataNodes of the 4 -> 3 shift stay fixed while the namespace grows. The longest namesystem
# read-lock hold of each walk is HDFS's own lock report (dfs.namenode.read-lock-reporting-threshold-ms, every hold
# over the threshold logged by FSNamesystemLock); holds under the threshold are shown as "< threshold". Each row also
# counts the holds reported (at or over the threshold) and the bytes the walking thread allocated per block walked
# (the JDK's per-thread count): a walk that allocates inside its holds is one a young-generation collection stops there.
# The run logic is in hadoop-eafr-namenode's test sources, org.eafr.namenode.bench.GearScaleBench.
#
# Usage: scripts/bench-gear-scale.sh [--sizes N,N,...] [--repeats R] [--lock-threshold-ms T]
#          [--planning-batch-files B,B,...]
#   --sizes 1000000,5000000   block counts (one file per block), ascending
#   --repeats 3               runs of each walk per size (the median is reported)
#   --lock-threshold-ms 5     HDFS's read/write-lock reporting threshold for the run
#   --planning-batch-files 64,1000  relayout planning passes, files per batch (64 is the setting's default; 1000 is
#                             one listing page); each pass reads the whole map
# Time: building the map costs the NameNode's create, addBlock and complete per block, 0.25-0.9 ms a block on the
# 2-core development VM (2 x 10^6 blocks in 8.5 minutes, 5 x 10^6 in 14); the namespace-walk baseline 5-24 s per
# 10^6 blocks a walk, with the machine's load. Heap: BENCH_HEAP (default 8g, which held 5 x 10^6 blocks). The
# NameNode's metadata (its edit log grows about 0.5 KB a block) goes to BENCH_DIR (default a fresh directory in
# /dev/shm, removed at the end).
# The machine is shared: run it as `nice -n -10 scripts/bench-gear-scale.sh ...` (as root) so the NameNode's JVM has
# the cores first, as a production NameNode has its own.
# Prints the table; also written to target/bench-gear-scale.txt.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
sizes=1000000,5000000 repeats=3 threshold=5 batches=64,1000
while (($#)); do
  case "$1" in
    -h | --help) sed -n '2,35p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --sizes | --repeats | --lock-threshold-ms | --planning-batch-files) ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  (($# >= 2)) || { echo "$1 needs a value" >&2; exit 2; }
  if [[ "$1" == --sizes || "$1" == --planning-batch-files ]]; then
    [[ "$2" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
      { echo "$1 $2 is not allowed: expected positive integers separated by commas" >&2; exit 2; }
  else
    [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "$1 $2 is not allowed: expected a positive integer" >&2; exit 2; }
  fi
  case "$1" in
    --sizes) sizes=$2 ;;
    --repeats) repeats=$2 ;;
    --lock-threshold-ms) threshold=$2 ;;
    --planning-batch-files) batches=$2 ;;
  esac
  shift 2
done
dir="${BENCH_DIR:-/dev/shm/bench-gear-scale-$$}"
trap 'rm -rf "$dir"' EXIT

echo "[bench-gear-scale $(date +%T)] building the bench tool (test-compile) ..." >&2
(cd "$ROOT" && mvn -B -q -ntp -pl hadoop-eafr-placement,hadoop-eafr-namenode test-compile \
  dependency:build-classpath -DincludeScope=test -Dmdep.outputFile=target/bench.cp)
nn_module="$ROOT/hadoop-eafr-namenode/target" core_module="$ROOT/hadoop-eafr-placement/target"
mkdir -p "$ROOT/target"
java -Xmx"${BENCH_HEAP:-8g}" \
  -cp "$nn_module/test-classes:$nn_module/classes:$core_module/classes:$(cat "$nn_module/bench.cp")" \
  org.eafr.namenode.bench.GearScaleBench --sizes "$sizes" --repeats "$repeats" --lock-threshold-ms "$threshold" \
  --planning-batch-files "$batches" \
  --dir "$dir" --out "$ROOT/target/bench-gear-scale.txt" 2>&1 | grep --line-buffered -v ' WARN ' # a test setup's noise
