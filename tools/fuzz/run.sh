#!/usr/bin/env bash
# Runs every libFuzzer target of a REDLAB_FUZZ build for a bounded time, each from its seed corpus
# (tools/fuzz/corpus/<target without _fuzz>/, copied so the seeds stay as they are), and prints
# the executions each made. Exits non-zero on the first finding; its input is kept as
# <build dir>/fuzz-findings/<target>-crash-* (or leak-, timeout-, oom-).
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
status=0
for t in "${targets[@]}"; do
  seeds="$here/corpus/${t%_fuzz}"
  work="$build/fuzz-corpus/${t%_fuzz}"
  mkdir -p "$work"
  log="$build/fuzz-findings/$t.log"
  # -timeout: an input running 10 s is a hang; -rss_limit_mb: what one input may hold.
  if "$build/bin/$t" "$work" "$seeds" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/$t-" >"$log" 2>&1; then
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz: $t: $execs executions in ${seconds} s, no finding"
  else
    echo "fuzz: $t: FINDING (see $log and $findings/$t-*)"
    tail -40 "$log"
    status=1
  fi
done
exit $status
