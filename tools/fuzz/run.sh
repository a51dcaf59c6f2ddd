#!/usr/bin/env bash
# Runs every libFuzzer target of a REDLAB_FUZZ build for a bounded time, each from its seed corpus
# (tools/fuzz/corpus/<target without _fuzz>/, copied so the seeds stay as they are), and prints
# the executions each made. Exits non-zero on the first finding; its input is kept as
# <build dir>/fuzz-findings/<target>-crash-* (or leak-, timeout-, oom-). FUZZ_JOBS targets run at
# once (default: one per core).
#   tools/fuzz/run.sh BUILD_DIR SECONDS_PER_TARGET [TARGET...]
set -euo pipefail
build="$1"
seconds="$2"
shift 2
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(engine_fuzz restore_fuzz rdb_fuzz lua_fuzz repl_fuzz config_fuzz)
fi
here="$(cd "$(dirname "$0")" && pwd)"
findings="$build/fuzz-findings"
mkdir -p "$findings"
# FUZZ_JOBS targets at a time (default: the number of cores), each on one core.
jobs="${FUZZ_JOBS:-$(nproc)}"

fuzz_one() {
  local t="$1" seeds="$here/corpus/${1%_fuzz}" work="$build/fuzz-corpus/${1%_fuzz}"
  local log="$findings/$1.log"
  mkdir -p "$work"
  # -timeout: an input running 10 s is a hang; -rss_limit_mb: what one input may hold.
  if "$build/bin/$t" "$work" "$seeds" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/$t-" >"$log" 2>&1; then
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz: $t: $execs executions in ${seconds} s, no finding"
  else
    echo "fuzz: $t: FINDING (see $log and $findings/$t-*)"
    tail -40 "$log"
    return 1
  fi
}

status=0
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
