#!/usr/bin/env bash
# The carbon scenario and its charts: scripts/carbon-report.sh [OUT [SIMULATE OPTIONS...]]   (default docs/evaluation)
# Runs `scripts/simulate.sh carbon` into OUT (7 grid weeks x 6 policies, 168 h each; options such as --policies or
# --variants are passed on), then draws the per-week grouped bars from OUT/carbon.csv and one day's timeline (week
# CARBON_TIMELINE_WEEK, default GB-2023-01; day CARBON_TIMELINE_DAY of it, 1-7, default 3, its Wednesday; policy
# CARBON_TIMELINE_POLICY, default springfs, energy-only and carbon-aware; CARBON_TIMELINE_WEEK=- draws no timeline)
# with org.eafr.sim.report.CarbonReport.
# With CARBON_REPORT_ONLY=1 the scenario is not re-run (OUT/carbon.csv is read as it is).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/evaluation}"
shift || true
if [[ "${CARBON_REPORT_ONLY:-0}" != 1 ]]; then
  scripts/simulate.sh carbon --no-charts --out "$out" "$@" | tee "$out/carbon.txt" # CarbonReport draws the charts
else
  scripts/simulate.sh --help >/dev/null # builds the simulator when its classes are missing or stale
fi
module=hadoop-eafr-sim
exec java -Djava.awt.headless=true ${SIM_JAVA_OPTS:--Xmx6g -XX:+UseParallelGC} \
  -cp "$module/target/classes:$(cat "$module/target/sim.cp")" org.eafr.sim.report.CarbonReport "$out" \
  "${CARBON_TIMELINE_WEEK:-GB-2023-01}" "${CARBON_TIMELINE_POLICY:-springfs}" "${CARBON_TIMELINE_DAY:-3}"
