#!/usr/bin/env bash
# The carbon scenario and its charts: scripts/carbon-report.sh [OUT]   (default docs/evaluation)
# Runs `scripts/simulate.sh carbon` into OUT, then draws the per-day grouped bars from OUT/carbon.csv and one day's
# timeline (GB-2023-01, springfs energy-only and carbon-aware) with org.eafr.sim.report.CarbonReport.
# With CARBON_REPORT_ONLY=1 the scenario is not re-run (OUT/carbon.csv is read as it is).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/evaluation}"
if [[ "${CARBON_REPORT_ONLY:-0}" != 1 ]]; then
  scripts/simulate.sh carbon --no-charts --out "$out" | tee "$out/carbon.txt" # CarbonReport draws the charts
else
  scripts/simulate.sh --help >/dev/null # builds the simulator when its classes are missing or stale
fi
module=hadoop-eafr-sim
exec java -Djava.awt.headless=true ${SIM_JAVA_OPTS:--Xmx6g -XX:+UseParallelGC} \
  -cp "$module/target/classes:$(cat "$module/target/sim.cp")" org.eafr.sim.report.CarbonReport "$out" \
  "${CARBON_TIMELINE_DAY:-GB-2023-01}" "${CARBON_TIMELINE_POLICY:-springfs}"
