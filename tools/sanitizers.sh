#!/usr/bin/env bash
# The sanitizer part of `make test` (and so of CI):
#   - with clang: one clang build (build-fuzz, -DREDLAB_FUZZ=ON) instrumented with ASan+UBSan,
#     where any report stops the program; it runs the server's unit tests and each libFuzzer
#     target for FUZZ_SECONDS (30; tools/fuzz/run.sh, one target per core at a time); with
#     REDLAB_SANITIZE_CONFORMANCE=1 also the conformance suite on embedded nodes (a second
#     compile of the whole suite, which CI's time cannot afford on two cores);
#   - the client's unit tests under ThreadSanitizer (the tsan preset, build-tsan).
# REDLAB_SANITIZERS=0 skips it all. Prints how long each part took.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${REDLAB_SANITIZERS:-1}" = "0" ]; then
  echo "sanitizers: skipped (REDLAB_SANITIZERS=0)"
  exit 0
fi
JOBS="${JOBS:-$(nproc)}"
FUZZ_SECONDS="${FUZZ_SECONDS:-30}"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
t0=$(date +%s)
lap() { echo "sanitizers: $1 after $(( $(date +%s) - t0 )) s"; }

if command -v clang++ >/dev/null 2>&1; then
  cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ -DREDLAB_FUZZ=ON "${launcher[@]}" >/dev/null
  cmake --build build-fuzz -j"$JOBS" --target server_unit_tests fuzz_targets
  lap "ASan+UBSan build"
  build-fuzz/bin/server_unit_tests --gtest_brief=1
  lap "server unit tests under ASan+UBSan"
  if [ "${REDLAB_SANITIZE_CONFORMANCE:-0}" = "1" ]; then
    cmake --build build-fuzz -j"$JOBS" --target conformance_tests
    REDLAB_TARGET=embedded build-fuzz/bin/conformance_tests --gtest_brief=1
    lap "conformance (embedded) under ASan+UBSan"
  fi
  tools/fuzz/run.sh build-fuzz "$FUZZ_SECONDS"
  lap "fuzzing"
else
  echo "sanitizers: no clang++: the ASan+UBSan tests and the fuzz targets are skipped"
fi

cmake --preset tsan "${launcher[@]}" >/dev/null
cmake --build build-tsan -j"$JOBS" --target client_unit_tests
build-tsan/bin/client_unit_tests --gtest_brief=1
lap "client unit tests under TSan"
