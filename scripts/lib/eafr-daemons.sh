# Shared by scripts/local-cluster.sh, scripts/demo.sh and scripts/bench/incast.sh (source it): build the EAFR jars,
# the classpath of real Hadoop daemons from Maven artifacts alone (no Hadoop tarball), and small helpers. Expects ROOT
# (the checkout), log() and die() from the sourcing script; sets no shell options.

# Polls "$@" every half second until it succeeds or $1 seconds pass (then returns 1 and names what was awaited).
wait_until() {
  local timeout=$1 what=$2
  shift 2
  local deadline=$((SECONDS + timeout))
  until "$@"; do
    if ((SECONDS >= deadline)); then
      log "timed out after ${timeout}s waiting for $what"
      return 1
    fi
    sleep 0.5
  done
}

# Whether the pid in pidfile $1 runs a JVM with main class $2 (a recycled pid running something else does not count).
pid_runs() { [[ -f "$1" ]] && { tr '\0' ' ' <"/proc/$(cat "$1")/cmdline"; } 2>/dev/null | grep -q -- "$2"; }

# Stops the JVM of pidfile $1 (main class $2): TERM, then KILL when it still runs 30 s later; removes the pidfile.
stop_pid() {
  pid_runs "$1" "$2" || { rm -f "$1"; return 0; }
  local pid
  pid=$(cat "$1")
  kill -TERM "$pid" 2>/dev/null || true
  wait_until 30 "pid $pid ($2) to exit" eval "! pid_runs '$1' '$2'" || kill -KILL "$pid" 2>/dev/null || true
  rm -f "$1"
}

# eafr_build STATE MODULE...: builds hadoop-eafr-placement and the given adapter modules (mvn package -DskipTests)
# and writes STATE/classpath: the adapters' jars, Hadoop's runtime (hadoop-hdfs is `provided` in the adapters, so
# the compile scope, which includes provided, is the daemon's classpath; read from the first module), the web apps
# (only inside hadoop-hdfs-<v>-tests.jar) and hadoop-common-<v>-tests.jar (StaticMapping). MVN_ARGS adds Maven
# arguments (e.g. -Dhadoop.version=3.5.0).
eafr_build() {
  local state=$1
  shift
  local modules=("$@") list="hadoop-eafr-placement" m
  for m in "${modules[@]}"; do list+=",$m"; done
  log "building $list (mvn package -DskipTests) ..."
  mkdir -p "$state/logs"
  # includeScope=compile: compile + provided (hadoop-hdfs, hadoop-common), without the test libraries.
  # shellcheck disable=SC2086
  if ! (cd "$ROOT" && mvn -B -q -ntp -DskipTests ${MVN_ARGS:-} -pl "$list" \
    package dependency:build-classpath -DincludeScope=compile -Dmdep.outputFile=target/local-cluster.cp) \
    >"$state/logs/build.log" 2>&1; then
    cat "$state/logs/build.log" >&2
    die "the build failed"
  fi
  local first="$ROOT/${modules[0]}" jars="" jar hadoop_cp hdfs_jar common_jar
  for m in "${modules[@]}"; do
    jar="$(ls "$ROOT/$m"/target/"$m"-*.jar | grep -v -e '-tests.jar' -e '-sources.jar' | head -1)"
    jars+="${jars:+:}$jar"
  done
  hadoop_cp="$(cat "$first/target/local-cluster.cp")"
  hdfs_jar="$(tr ':' '\n' <<<"$hadoop_cp" | grep -E '/hadoop-hdfs-[0-9][^/]*\.jar$' | head -1)"
  common_jar="$(tr ':' '\n' <<<"$hadoop_cp" | grep -E '/hadoop-common-[0-9][^/]*\.jar$' | head -1)"
  [[ -n "$hdfs_jar" && -n "$common_jar" ]] || die "hadoop-hdfs or hadoop-common missing from $first/target/local-cluster.cp"
  local hdfs_tests="${hdfs_jar%.jar}-tests.jar" common_tests="${common_jar%.jar}-tests.jar"
  [[ -f "$hdfs_tests" && -f "$common_tests" ]] || die "$hdfs_tests or $common_tests not found (test-compile resolves them)"
  rm -rf "$state/webapps-root"
  mkdir -p "$state/webapps-root"
  (cd "$state/webapps-root" && unzip -q -o "$hdfs_tests" 'webapps/*')
  # The placement jar comes with the compile scope (reactor build of hadoop-eafr-placement).
  echo "$state/webapps-root:$jars:$hadoop_cp:$common_tests" >"$state/classpath"
  log "hadoop: $(basename "$hdfs_jar" .jar | sed 's/hadoop-hdfs-//'); EAFR: $(tr ':' '\n' <<<"$jars" | xargs -n1 basename | tr '\n' ' ')"
}

java17() { command -v java >/dev/null && java -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ { exit !($2 + 0 >= 17) }'; }

# require_tools "CHECK|DEBIAN PACKAGE|WHAT"...: installs the packages of the checks that fail with apt-get (when there
# is one), then stops naming each command still missing and its package.
require_tools() {
  local entry missing="" packages
  for entry in "$@"; do eval "${entry%%|*}" >/dev/null 2>&1 || missing+="${entry#*|}"$'\n'; done
  [[ -z "$missing" ]] && return 0
  packages="$(cut -d'|' -f1 <<<"${missing%$'\n'}" | sort -u | tr '\n' ' ')"
  if command -v apt-get >/dev/null; then
    log "installing $packages(Debian packages)"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      $packages >&2 || log "apt-get could not install $packages"
    missing=""
    for entry in "$@"; do eval "${entry%%|*}" >/dev/null 2>&1 || missing+="${entry#*|}"$'\n'; done
  fi
  missing="${missing%$'\n'}"
  [[ -z "$missing" ]] || die "missing: $(cut -d'|' -f2 <<<"$missing" | paste -sd';' | sed 's/;/; /g') (Debian packages: $(cut -d'|' -f1 <<<"$missing" | sort -u | paste -sd' '))"
}
