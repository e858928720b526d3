#!/usr/bin/env bash
# Simulator speed benchmark: simulated events per second, wall time, peak heap and peak RSS.
# Usage: scripts/sim-bench.sh [baseline] [eafr] [large]   (default: all three; baseline is the ratio's reference)
#   eafr  = the full 2-day EAFR scenario, all five policies (goal: <= 2 minutes on 2 cores)
#   large = 3,000 servers, 500,000 files, 1 day (goal: <= 15 minutes)
#   gears = the gears scenario, every policy, 3 SWIM traces x 24 h, 300 servers (goal: <= 5 minutes)
#   large-geared = rabbit, 3,000 servers, 500,000 files, SWIM FB-2010, 1 day (goal: <= 15 minutes)
#   large-eafr-geared = the same with eafr-geared
#   huge-eafr-geared, huge-springfs = 10,000 servers, 10^7 files, SWIM FB-2010, 1 day (goal: <= 30 minutes each);
#     SIM_JAVA_OPTS="-Xmx12g -Dsim.bench.files=N" for another number of files
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/simulate.sh --help > /dev/null   # builds when needed
module=hadoop-eafr-sim
tty=false
if [[ -t 2 ]]; then tty=true; fi
exec java -Djava.awt.headless=true -Dsim.stderr.tty="$tty" ${SIM_JAVA_OPTS:--Xmx8g} \
  -cp "$module/target/classes:$(cat "$module/target/sim.cp")" org.eafr.sim.Bench "$@"
