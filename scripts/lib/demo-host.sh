#!/usr/bin/env bash
# The "host" of one demo DataNode (scripts/demo.sh): what a simulated BMC's power command does to it.
#
#   demo-host.sh STATE INDEX on|off [DRIVER]   start or stop DataNode INDEX (detached; returns at once), logging the
#                                              event with the driver that asked (ipmi, redfish, wol, demo)
#   demo-host.sh STATE INDEX arm|suspend       the in-band power agent's Wake-on-LAN arming and host command
#   demo-host.sh STATE INDEX status            prints on or off: whether the DataNode process runs
#
# Called by ipmi_sim's chassis-control script, by the sushy notifier and Wake-on-LAN listener (org.eafr.demo.BmcFarm),
# by the DataNode's power agent and by scripts/demo.sh. One action at a time per host (flock).
set -euo pipefail
STATE=$1 I=$2 ACTION=$3 DRIVER=${4:-demo}
PIDFILE="$STATE/pids/datanode$I.pid"
DN_CLASS=org.apache.hadoop.hdfs.server.datanode.DataNode
mkdir -p "$STATE/pids" "$STATE/logs" "$STATE/bmc"

running() { # the recorded pid still runs a DataNode JVM (a recycled pid does not count)
  [[ -f "$PIDFILE" ]] && { tr '\0' ' ' <"/proc/$(cat "$PIDFILE")/cmdline"; } 2>/dev/null | grep -q "$DN_CLASS"
}
event() { echo "$(date +%s%3N) $DRIVER dn$I $*" >>"$STATE/bmc/events.log"; }

exec 9>"$STATE/pids/datanode$I.lock"
flock 9
case "$ACTION" in
  on)
    event on
    running && exit 0
    heap=$(sed -n 's/^heap=//p' "$STATE/demo.properties")
    old=$(cat "$PIDFILE" 2>/dev/null || true)
    # Detached (its own session): the DataNode outlives the BMC that started it. A DataNode still stopping from an
    # earlier "off" is waited for first, so two never share the data directory.
    setsid bash -c 'while [[ -n "$1" ]] && kill -0 "$1" 2>/dev/null; do sleep 0.2; done; echo $$ >"$2"; shift 2; exec "$@"' \
      _ "$old" "$PIDFILE" "${JAVA_HOME:+$JAVA_HOME/bin/}java" "-Xmx$heap" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
      -Djava.net.preferIPv4Stack=true "-Djava.io.tmpdir=$STATE/tmp" "-Dhadoop.log.dir=$STATE/logs" \
      -cp "$STATE/dn$I/conf:$(cat "$STATE/classpath")" "$DN_CLASS" \
      >>"$STATE/logs/datanode$I.log" 2>&1 </dev/null 9>&- &
    ;;
  off)
    event off
    running && kill -TERM "$(cat "$PIDFILE")"
    ;;
  arm) event armed ;;
  suspend) event off suspended by the power agent ;;
  status) running && echo on || echo off ;;
  *) echo "demo-host.sh: unknown action '$ACTION'" >&2; exit 2 ;;
esac
