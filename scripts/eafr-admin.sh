#!/usr/bin/env bash
# `hdfs eafr ...` for the local cluster of scripts/local-cluster.sh, which has no Hadoop tarball and so no `hdfs`
# shell: runs the same Tool (org.eafr.namenode.admin.AdminTool) with the cluster's classpath and configuration.
#
#   scripts/eafr-admin.sh status [-json]      (scripts/eafr-admin.sh -help lists every command)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="${LOCAL_CLUSTER_DIR:-$ROOT/target/local-cluster}"
[[ -s "$STATE/classpath" && -d "$STATE/conf" ]] \
  || { echo "eafr-admin: no local cluster under $STATE: run scripts/local-cluster.sh start first" >&2; exit 1; }
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -Xmx256m -Djava.net.preferIPv4Stack=true \
  -Dhadoop.root.logger=WARN,console -cp "$STATE/conf:$(cat "$STATE/classpath")" \
  org.eafr.namenode.admin.AdminTool "$@"
