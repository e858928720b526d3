#!/usr/bin/env bash
# JMH benchmarks of the policy core. Usage: scripts/bench-core.sh [JMH regex] [extra JMH options]
# Default: every benchmark, 1 fork, 3 warm-up and 5 measured iterations of 1 s. Results go to stdout and
# target/jmh-core.json; destination selection is reported next to its random-choice baseline from the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern="${1:-org.eafr.placement.bench.*}"
shift || true
module=hadoop-eafr-placement
mvn -B -q -ntp -pl "$module" test-compile
mvn -B -q -ntp -pl "$module" dependency:build-classpath -DincludeScope=test -Dmdep.outputFile=target/bench.cp
mkdir -p target
java -cp "$module/target/test-classes:$module/target/classes:$(cat "$module/target/bench.cp")" \
  org.openjdk.jmh.Main "$pattern" -f 1 -wi 3 -i 5 -w 1s -r 1s -rf json -rff target/jmh-core.json "$@"
