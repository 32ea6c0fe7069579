#!/usr/bin/env bash
# Start to first frame, and memory at rest, of the release desk under Xvfb.
# Needs (Debian): xvfb mesa-vulkan-drivers libgl1 libegl1.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
export DISPLAY=:96
Xvfb "$DISPLAY" -screen 0 1400x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1
scratch=$(mktemp -d)
export XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config"
runs=${RUNS:-10}
echo "start → first frame on screen (whole process, $runs runs each):"
# The first frame shows the window (menu bar and a spinner) while a worker thread loads the
# rulesets and the game; "game on screen" waits for the first frame that shows the game
# (UMPIRE_EXIT_AFTER_FIRST_FRAME=ready).
for label in "first start (creates a game)" "reopening the last game" "reopening, game on screen"; do
  times=()
  exit_after=1
  if [ "$label" = "reopening, game on screen" ]; then exit_after=ready; fi
  for _ in $(seq 1 "$runs"); do
    if [ "$label" = "first start (creates a game)" ]; then rm -rf "$scratch/data" "$scratch/config"; fi
    t0=$(date +%s%N)
    UMPIRE_EXIT_AFTER_FIRST_FRAME=$exit_after ./target/release/umpire >/dev/null 2>&1
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000000 )))
  done
  sorted=$(printf '%s\n' "${times[@]}" | sort -n | tr '\n' ' ')
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
  echo "  $label: median ${median} ms (all: ${sorted}ms)"
done
./target/release/umpire >/dev/null 2>&1 &
app=$!
sleep 5
rss=$(awk '/VmRSS/ {print $2}' "/proc/$app/status")
echo "memory at rest (5 s after start, a game open): $(( rss / 1024 )) MiB resident"
kill $app
