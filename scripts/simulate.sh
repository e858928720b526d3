#!/usr/bin/env bash
# Runs a simulator scenario: scripts/simulate.sh SCENARIO [options]   (scripts/simulate.sh --help lists them)
# Builds the simulator and the core in this checkout (reactor build, nothing installed into ~/.m2) when their classes
# are missing or older than their sources.
set -euo pipefail
cd "$(dirname "$0")/.."
module=hadoop-eafr-sim
cp_file="$module/target/sim.cp"
stamp="$module/target/classes/org/eafr/sim/Main.class"
if [[ ! -f "$stamp" || ! -f "$cp_file" ]] \
    || [[ -n "$(find "$module/src/main" hadoop-eafr-placement/src/main -newer "$stamp" -type f -print -quit)" ]]; then
  echo "building the simulator..." >&2
  mvn -B -q -ntp -pl "$module" -am package -DskipTests \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile=target/sim.cp \
    -DincludeScope=runtime >&2
fi
# The progress bar redraws in place only on a terminal; in a log it prints plain lines.
tty=false
if [[ -t 2 ]]; then tty=true; fi
# The parallel collector: the runs allocate short-lived objects per read, and its cheaper write barriers beat G1's
# here (1 min 49 s vs 1 min 53 s to 2 min 06 s for the eafr scenario on 2 cores); results do not depend on it.
exec java -Djava.awt.headless=true -Dsim.stderr.tty="$tty" ${SIM_JAVA_OPTS:--Xmx6g -XX:+UseParallelGC} \
  -cp "$module/target/classes:$(cat "$cp_file")" org.eafr.sim.Main "$@"
