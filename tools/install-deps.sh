#!/usr/bin/env bash
# Installs every Debian package redlab needs to build, test and benchmark, including the
# reference redis-server and redis-tools. Idempotent: packages already present are skipped.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config
  libuv1-dev liblua5.1-0-dev libhiredis-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libfmt-dev nlohmann-json3-dev libcli11-dev libssl-dev
  lua-cjson-dev lua-bitop-dev liblzf-dev
  redis-server redis-tools
  chromium  # the lab's HTML report is tested in a real headless browser
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
