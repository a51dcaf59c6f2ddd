#!/usr/bin/env bash
# Installs every Debian package redlab needs to build, test and benchmark, including the
# reference redis-server and redis-tools. Idempotent: packages already present are skipped.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config python3
  libuv1-dev liblua5.1-0-dev libhiredis-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libfmt-dev nlohmann-json3-dev libcli11-dev libssl-dev
  lua-cjson-dev lua-bitop-dev liblzf-dev zlib1g-dev
  redis-server redis-tools
  libhdrhistogram-java default-jre-headless  # HdrHistogram's own log reader, run on `redlab bench --hdr`'s files
  chromium  # the lab's HTML report is tested in a real headless browser
  clang libclang-rt-14-dev ccache  # the fuzz targets (libFuzzer) and the ASan+UBSan build of the tests
  python3-redis python3-pytest default-jdk-headless junit5  # the README's Python and Java examples, run as tests (Go's when go is there)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The lab's node-redlock driver (npm redlock and ioredis), when node and npm are there (Debian's
# nodejs and npm packages, or any other node >= 14). Without them that driver is not available.
DRIVER_DIR="$(cd "$(dirname "$0")" && pwd)/lab/drivers/node-redlock"
if command -v npm >/dev/null 2>&1; then
  if [ ! -d "$DRIVER_DIR/node_modules/redlock" ] || [ ! -d "$DRIVER_DIR/node_modules/ioredis" ]; then
    echo "install-deps: npm install in $DRIVER_DIR"
    (cd "$DRIVER_DIR" && npm install --no-audit --no-fund --silent)
  fi
else
  echo "install-deps: no npm: the lab's node-redlock driver is not installed"
fi
