#!/bin/bash
# Server cost per call, steady on a busy machine: instructions (callgrind) or system calls
# (strace -c) of a server serving N calls of redis-benchmark, less a run serving none.
#   bench/instr.sh instr|syscalls BIN set|ping|evalsha N [c1|c50|p16] [port]
# BIN is build/bin/redlab-server or /usr/bin/redis-server. c1: one connection; c50: 50
# connections; p16: 50 connections x pipeline 16. Prints the per-call figure (instructions, or
# each system call's count per call); callgrind output stays in $OUT_DIR (default /tmp).
set -euo pipefail
what=$1 bin=$2 cmd=$3 n=$4 mode=${5:-c1} port=${6:-17779}
here=$(cd "$(dirname "$0")/.." && pwd)
out_dir=${OUT_DIR:-/tmp}
VG_OPTS=${VG_OPTS:-}  # e.g. --cache-sim=yes --branch-sim=yes
case $mode in
  c1) load="-c 1" ;;
  c50) load="-c 50" ;;
  p16) load="-c 50 -P 16" ;;
  *) echo "mode: c1, c50 or p16" >&2; exit 2 ;;
esac

# Runs the server under the tool, serves `calls` calls, stops it; leaves the tool's output in $1.
run() {
  local out=$1 calls=$2 pid sha
  rm -f "$out"
  if [ "$what" = instr ]; then
    valgrind --tool=callgrind $VG_OPTS --callgrind-out-file="$out" "$bin" --port "$port" --save "" \
      >/dev/null 2>&1 &
  else
    strace -c -f -o "$out" "$bin" --port "$port" --save "" >/dev/null 2>&1 &
  fi
  pid=$!
  for _ in $(seq 1 300); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  sha=$(redis-cli -p "$port" script load "$(cat "$here/lua/lock_acquire.lua")")
  if [ "$calls" -gt 0 ]; then
    case $cmd in
      evalsha)
        redis-benchmark -p "$port" -n "$calls" $load -r 100000 \
          evalsha "$sha" 1 lock:__rand_int__ 30000 owner >/dev/null 2>&1 ;;
      set) redis-benchmark -p "$port" -n "$calls" $load -r 100000 -t set >/dev/null 2>&1 ;;
      ping) redis-benchmark -p "$port" -n "$calls" $load -t ping_mbulk >/dev/null 2>&1 ;;
    esac
  fi
  redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
  wait "$pid" || true
}

base=$out_dir/$what-$(basename "$bin")-$cmd-$mode
run "$base-0.out" 0
run "$base-$n.out" "$n"
if [ "$what" = instr ]; then
  total() { callgrind_annotate "$1" 2>/dev/null |
    awk '/PROGRAM TOTALS/ && !done {gsub(",","",$1); print $1; done = 1}'; }
  a=$(total "$base-0.out") b=$(total "$base-$n.out")
  echo "$(basename "$bin") $cmd $mode: $(( (b - a) / n )) instructions per call"
else
  # strace -c's table: calls in column 4 (column 5 holds errors, when any).
  calls() { awk '$NF ~ /^[a-z_0-9]+$/ && $NF != "total" && $4 ~ /^[0-9]+$/ {print $NF, $4}' "$1" | sort; }
  join -a2 -e0 -o 0,1.2,2.2 <(calls "$base-0.out") <(calls "$base-$n.out") |
    awk -v n="$n" -v name="$(basename "$bin") $cmd $mode" '
      { per = ($3 - $2) / n; if (per >= 0.01) { printf "%s %.3f\n", $1, per; sum += per } }
      END { printf "%s: %.3f system calls per call\n", name, sum }'
fi
