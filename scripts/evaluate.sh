#!/usr/bin/env bash
# Runs the full evaluation scenarios (EAFR Figs. 5-14) and writes tables, CSVs and PNG charts into docs/evaluation/.
# Usage: scripts/evaluate.sh [SCENARIO...]   (default: every scenario but "tiny"; takes tens of minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/evaluation
mkdir -p "$out"
scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 ]]; then
  scenarios=(replicas recovery ablations sample-size reliability storage energy arrival-rate concurrency eafr gears
    rabbit springfs write-offload accordion fill)
fi
for scenario in "${scenarios[@]}"; do
  echo "== $scenario" >&2
  scripts/simulate.sh "$scenario" --out "$out" | tee "$out/$scenario.txt"
done
