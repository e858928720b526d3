#!/usr/bin/env bash
# Installs what the build and tests need on a bare Debian machine: a JDK (17 or newer), Maven 3.8+, and the BMC
# simulators of the power tests (docs/power.md). Idempotent: does nothing when all are already there.
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
# Power-control tests: ipmi_sim as the BMC, ipmitool, openssl for test certificates, a Python venv for sushy-tools.
command -v ipmi_sim >/dev/null 2>&1 || packages+=(openipmi)
command -v ipmitool >/dev/null 2>&1 || packages+=(ipmitool)
command -v openssl >/dev/null 2>&1 || packages+=(openssl)
/usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || packages+=(python3-venv)
# The demo's cluster (scripts/demo.sh, scripts/thrash.sh in CI): curl asks the NameNode's /jmx, unzip the web apps.
command -v curl >/dev/null 2>&1 || packages+=(curl)
command -v unzip >/dev/null 2>&1 || packages+=(unzip)

if [ "${#packages[@]}" -gt 0 ]; then
  echo "installing ${packages[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${packages[@]}"
fi
# The Redfish emulator, in its own venv (Debian's system pip refuses installs, PEP 668); tests find it here.
sushy_venv="${EAFR_SUSHY_VENV:-$HOME/.cache/hadoop-eafr/sushy-venv}"
if [ ! -x "$sushy_venv/bin/sushy-emulator" ]; then
  echo "installing sushy-tools into $sushy_venv"
  /usr/bin/python3 -m venv "$sushy_venv"
  "$sushy_venv/bin/pip" install -q --disable-pip-version-check sushy-tools==2.2.0
fi
java -version 2>&1 | sed -n 1p
mvn -v 2>&1 | sed -n 1p
