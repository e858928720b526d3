#!/usr/bin/env bash
# Brings a Debian machine to what a fresh install gets: Debian's current JDK 17 (upgraded when an older 17 is
# there, and made the default java), Maven, and the BMC simulators of the power tests (docs/power.md), so a
# development machine and CI run the JDK and tools a newcomer gets. Prints the versions it leaves in place.
set -euo pipefail

sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"

# openjdk-17-jdk-headless: the build's JDK. openipmi (ipmi_sim) and ipmitool: the IPMI BMC and its client. openssl:
# test certificates. python3-venv: sushy-tools' venv. unzip: the web apps of the demo's cluster.
# iproute2: network namespaces and tc for the incast bench. apt-get install upgrades any of them already installed.
packages=(openjdk-17-jdk-headless maven openipmi ipmitool openssl python3-venv unzip iproute2)
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${packages[@]}"

# Another JDK (a newer Temurin, say) may be the default java: the build and its scripts run on Debian's 17.
jdk17=$(dpkg -L openjdk-17-jre-headless | grep '/bin/java$')
$sudo_cmd update-alternatives --set java "$jdk17" >/dev/null
javac17=$(dpkg -L openjdk-17-jdk-headless | grep '/bin/javac$')
$sudo_cmd update-alternatives --set javac "$javac17" >/dev/null

# The Redfish emulator, in its own venv (Debian's system pip refuses installs, PEP 668); tests find it here.
sushy_venv="${EAFR_SUSHY_VENV:-$HOME/.cache/hadoop-eafr/sushy-venv}"
if [ ! -x "$sushy_venv/bin/sushy-emulator" ]; then
  echo "installing sushy-tools into $sushy_venv"
  /usr/bin/python3 -m venv "$sushy_venv"
  "$sushy_venv/bin/pip" install -q --disable-pip-version-check sushy-tools==2.2.0
fi

unset JAVA_HOME
echo "java:      $(java -version 2>&1 | sed -n 1p) ($(java -XshowSettings:properties -version 2>&1 \
  | awk -F' = ' '/java.runtime.version/ {print $2}'))"
echo "mvn:       $(mvn -B -v 2>&1 | sed -n 1p | sed "s/\x1b\[[0-9;]*m//g")"
echo "ipmitool:  $(ipmitool -V 2>&1)"
echo "ipmi_sim:  $(dpkg-query -W -f='${Version}' openipmi)"
echo "sushy:     $("$sushy_venv/bin/pip" show sushy-tools 2>/dev/null | awk '/^Version/ {print $2}')"
