#!/usr/bin/env bash
# Installs what the build and tests need on a bare Debian machine: a JDK (17 or newer) and Maven 3.8+.
# Idempotent: does nothing when both are already there.
set -euo pipefail

have_java17() {
  command -v java >/dev/null 2>&1 || return 1
  local major
  major=$(java -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ {print $2}')
  [ "${major%%.*}" -ge 17 ] 2>/dev/null
}

packages=()
have_java17 || packages+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || packages+=(maven)

if [ "${#packages[@]}" -gt 0 ]; then
  echo "installing ${packages[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${packages[@]}"
fi
java -version 2>&1 | sed -n 1p
mvn -v 2>&1 | sed -n 1p
