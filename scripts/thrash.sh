#!/usr/bin/env bash
# The thrash test (docs/thrash.md): the demo's cluster (scripts/demo.sh start: a NameNode and 9 DataNodes on 3 racks
# behind ipmi_sim, sushy-tools and Wake-on-LAN BMCs) under continuous reads and writes, one random fault per round
# (gear shifts, DataNodes killed -9, a BMC stopped during a power command, a lost magic packet, a node dying asleep, a
# wake during a gear-down, a NameNode restart in its gear and in gear 0, a relayout interrupted by a restart), then
# fsck, every file read back and every quarantine reported.
#
#   scripts/thrash.sh [ROUNDS] [--seed N] [--set KEY=VALUE]...    ROUNDS defaults to 100; the seed is printed
#
# Exit 0 when every check holds, 1 naming what failed (2: bad arguments). State and logs: target/thrash (THRASH_DIR);
# the summary table is also in target/thrash/thrash-summary.txt. Nothing is left running when it exits.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
export DEMO_DIR="${THRASH_DIR:-$ROOT/target/thrash}"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
ROUNDS=100 SEED=$(( (RANDOM << 15) | RANDOM )) SETS=()

log() { echo "[thrash] $*" >&2; }
while (($#)); do
  case "$1" in
    --seed) SEED=${2:?--seed needs a number}; shift 2 ;;
    --set) SETS+=(--set "${2:?--set needs KEY=VALUE}"); shift 2 ;;
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    [0-9]*) ROUNDS=$1; shift ;;
    *) log "unknown argument '$1' (scripts/thrash.sh --help)"; exit 2 ;;
  esac
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { log "ROUNDS must be a positive number, not '$ROUNDS'"; exit 2; }
[[ "$SEED" =~ ^-?[0-9]+$ ]] || { log "--seed must be a number, not '$SEED'"; exit 2; }

trap '"$ROOT/scripts/demo.sh" stop' EXIT
trap 'exit 130' INT TERM
began=$SECONDS
log "seed $SEED, $ROUNDS rounds; starting the demo's cluster in $DEMO_DIR"
# The demo's power timing as it is: a wake attempt waits up to 120 s for the DataNode (a JVM start here takes over 60 s
# at load 35); a lost magic packet is sent again every eafr.power.wol.resend-interval.ms within that attempt.
"$ROOT/scripts/demo.sh" start "${SETS[@]}"
code=0
"$JAVA" -Xmx384m -Djava.net.preferIPv4Stack=true -Dhadoop.root.logger=WARN,console \
  -cp "$DEMO_DIR/conf:$(cat "$DEMO_DIR/classpath")" org.eafr.demo.ThrashRun "$DEMO_DIR" "$ROUNDS" "$SEED" \
  2>>"$DEMO_DIR/logs/thrash-client.log" || code=$?  # the HDFS client's warnings (failovers, retries) go to the log
((code <= 1)) || tail -20 "$DEMO_DIR/logs/thrash-client.log" >&2
log "thrash finished in $((SECONDS - began)) s (exit $code, seed $SEED); logs in $DEMO_DIR/logs"
exit "$code"
