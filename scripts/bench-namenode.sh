#!/usr/bin/env bash
# JMH benchmarks of the NameNode adapters. Usage: scripts/bench-namenode.sh [JMH regex] [extra JMH options]
# chooseTarget on 1,000 DataNodes: EAFR's policy and BlockPlacementPolicyDefault in the same run (goal <= 1.5x);
# the read counter's cost per audited open (target < 1 us), for repeat and first reads, from 1 and 8 threads;
# the reader ordering of a getBlockLocations answer under stock and every eafr.layout (ReadOrderingBench), printed
# at the end as ratios to stock from the same run (ReadOrderingRatios). Results: stdout and target/jmh-namenode.json.
# BENCH_ITERATIONS=N sets the measured iterations (default 5), BENCH_FORKS=N the forks (default 1). On a shared
# machine add -prof org.eafr.namenode.bench.ProcessCpuProfiler (CPU time per call, steadier than the wall clock).
set -euo pipefail
cd "$(dirname "$0")/.."
pattern="${1:-org.eafr.namenode.bench.*}"
shift || true
module=hadoop-eafr-namenode
# One reactor build: the namenode's classpath then points at the placement module's classes, not at an installed jar.
mvn -B -q -ntp -pl hadoop-eafr-placement,"$module" test-compile dependency:build-classpath -DincludeScope=test \
  -Dmdep.outputFile=target/bench.cp
mkdir -p target
classpath="$module/target/test-classes:$module/target/classes:hadoop-eafr-placement/target/classes:$(cat "$module/target/bench.cp")"
java -cp "$classpath" org.openjdk.jmh.Main "$pattern" -f "${BENCH_FORKS:-1}" -wi 3 -i "${BENCH_ITERATIONS:-5}" -w 1s -r 1s \
  -rf json -rff target/jmh-namenode.json "$@"
if grep -q 'ReadOrderingBench' target/jmh-namenode.json; then
  java -cp "$classpath" org.eafr.namenode.bench.ReadOrderingRatios target/jmh-namenode.json
fi
