#!/usr/bin/env bash
# Takes docs/desk.png: runs the desk in a real window under Xvfb and captures the screen.
# Needs (Debian): xvfb imagemagick xdotool mesa-vulkan-drivers libgl1 libegl1.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
export DISPLAY=:97
# A fresh data and config folder, so the desk opens a new game on the default scenario.
scratch=$(mktemp -d)
export XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config"
Xvfb "$DISPLAY" -screen 0 1400x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $app $xvfb 2>/dev/null || true' EXIT
sleep 1
start=$(date +%s.%N)
./target/release/umpire --no-user-rules &
app=$!
# Wait for the window to map, and report the time to first window.
for _ in $(seq 1 100); do
  if xdotool search --name '^Umpire$' >/dev/null 2>&1; then break; fi
  sleep 0.05
done
end=$(date +%s.%N)
echo "window mapped after $(python3 -c "print(round($end - $start, 2))") s"
sleep 2
xdotool search --name '^Umpire$' windowfocus 2>/dev/null || true
# Press R (Roll) so the picture shows a result with its proposed effects.
xdotool mousemove 700 400 click 1; sleep 0.3
xdotool key r; sleep 0.5
# The opening step's Weather Table is not in the rule text: type the result read off the chart.
xdotool mousemove 1183 571 click 1; sleep 0.2; xdotool type rain; sleep 0.2
xdotool mousemove 1288 571 click 1; sleep 0.5
sleep 1
import -window root "${1:-docs/desk.png}"
echo "wrote ${1:-docs/desk.png}"
