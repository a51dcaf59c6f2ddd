#!/bin/bash
# Throughput of redlab-server against redis-server, same run: redis-benchmark alternately on
# both, for Redisson's lock acquire (EVALSHA of lua/lock_acquire.lua), PING and SET, at one
# connection (c1), 50 connections (c50) and 50 connections x pipeline 16 (p16).
#   bench/throughput.sh [ROUNDS] [N]
# ROUNDS (default 2) rounds, N (default 100000) requests per run. Env: REDLAB_BIN (default
# build/bin/redlab-server), REDIS_BIN (default redis-server), PORT_A/PORT_B (17801/17802),
# TESTS (default "evalsha ping set"), MODES (default "c1 c50 p16").
# PIN (default 1 when the machine has 2 CPUs or more, else 0): with 1, each server runs on CPU
# SERVER_CPU (default 0) and redis-benchmark on CLIENT_CPU (default 1), by taskset, so the load
# generator and the server do not take each other's CPU time (both servers get the same CPU:
# the comparison stays fair). PIN=0 lets the scheduler place them, as before.
# Prints the pinning and the load average, then one line per figure and round: requests per
# second of each and redlab/redis.
set -euo pipefail
rounds=${1:-2} n=${2:-100000}
here=$(cd "$(dirname "$0")/.." && pwd)
redlab_bin=${REDLAB_BIN:-$here/build/bin/redlab-server}
redis_bin=${REDIS_BIN:-redis-server}
port_a=${PORT_A:-17801} port_b=${PORT_B:-17802}
tests=${TESTS:-evalsha ping set} modes=${MODES:-c1 c50 p16}
pin=${PIN:-$([ "$(nproc)" -ge 2 ] && echo 1 || echo 0)}
server_cpu=${SERVER_CPU:-0} client_cpu=${CLIENT_CPU:-1}
server_pin=() client_pin=()
if [ "$pin" = 1 ]; then
  server_pin=(taskset -c "$server_cpu") client_pin=(taskset -c "$client_cpu")
fi

pids=()
cleanup() {
  for p in "$port_a" "$port_b"; do redis-cli -p "$p" shutdown nosave >/dev/null 2>&1 || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

start() {  # start BIN PORT: starts the server and waits (with a deadline) until it answers PING
  "${server_pin[@]}" "$1" --port "$2" --save "" --appendonly no >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 1 300); do
    [ "$(redis-cli -p "$2" ping 2>/dev/null)" = PONG ] && return 0
    sleep 0.02
  done
  echo "server on port $2 did not start" >&2
  exit 1
}
start "$redlab_bin" "$port_a"
start "$redis_bin" "$port_b"
script=$(cat "$here/lua/lock_acquire.lua")
sha=$(redis-cli -p "$port_a" script load "$script")
[ "$(redis-cli -p "$port_b" script load "$script")" = "$sha" ] || { echo "SCRIPT LOAD differs" >&2; exit 1; }

rps() {  # rps PORT TEST MODE: requests per second of one redis-benchmark run
  local load
  case $3 in
    c1) load=(-c 1) ;;
    c50) load=(-c 50) ;;
    p16) load=(-c 50 -P 16) ;;
    *) echo "mode: c1, c50 or p16" >&2; exit 2 ;;
  esac
  local cmd
  case $2 in
    evalsha) cmd=(evalsha "$sha" 1 lock:__rand_int__ 30000 owner) ;;
    ping) cmd=(-t ping_mbulk) ;;
    set) cmd=(-t set) ;;
    *) echo "test: evalsha, ping or set" >&2; exit 2 ;;
  esac
  # --csv prints "test","rps",...; the second field of the last line is the throughput.
  "${client_pin[@]}" redis-benchmark -p "$1" -n "$n" -r 100000 "${load[@]}" --csv "${cmd[@]}" 2>/dev/null |
    tail -1 | awk -F'"' '{print $4}'
}

if [ "$pin" = 1 ]; then
  echo "pinned: servers on CPU $server_cpu, redis-benchmark on CPU $client_cpu"
else
  echo "not pinned"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-8s %-4s %5s %12s %12s %7s\n" test mode round redlab redis ratio
for t in $tests; do
  for m in $modes; do
    for r in $(seq 1 "$rounds"); do
      # Alternate which server goes first, so a busy machine's drift does not favour one.
      if [ $((r % 2)) -eq 1 ]; then
        a=$(rps "$port_a" "$t" "$m") b=$(rps "$port_b" "$t" "$m")
      else
        b=$(rps "$port_b" "$t" "$m") a=$(rps "$port_a" "$t" "$m")
      fi
      printf "%-8s %-4s %5s %12s %12s %7.2f\n" "$t" "$m" "$r" "$a" "$b" \
        "$(awk -v a="$a" -v b="$b" 'BEGIN { print (b > 0 ? a / b : 0) }')"
      redis-cli -p "$port_a" flushall >/dev/null
      redis-cli -p "$port_b" flushall >/dev/null
    done
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
