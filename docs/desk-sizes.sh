#!/usr/bin/env bash
# Takes the desk's pictures at two screen sizes, the window filling the screen: "Venice at bay,
# 1509" with Chaumont's Force selected, at 1920×1080 (docs/desk-1920.png) and 1280×720
# (docs/desk-1280.png), the Assault form open at 1280×720 (docs/desk-1280-assault.png), and
# the rr3 handbook game at 1280×720 with its ledgers docked beside the clock
# (docs/desk-1280-rr3.png).
# Needs (Debian): xvfb imagemagick xdotool libgl1 libegl1.
# BIN=path/to/umpire uses another build (default: the debug build, made here).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cargo build
  BIN=./target/debug/umpire
fi
# Each picture on a fresh X server (a display number of its own: the last one's may still be
# closing).
display=${DISPLAY_NUMBER:-91}
scratch=$(mktemp -d)
export HOME="$scratch" XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config"
mkdir -p "$XDG_CONFIG_HOME/umpire"
xvfb=
app=
trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$scratch"' EXIT

venice="$scratch/venice.umpire"
"$BIN" --no-user-rules game new ailsh_1_venice_at_bay_1509 -o "$venice" >/dev/null
"$BIN" --no-user-rules game credit "$venice" 1 >/dev/null
"$BIN" --no-user-rules game credit "$venice" 2 >/dev/null

# Opens the desk on the game in a WxH screen, the window moved and sized to fill it.
desk_at() {
  export DISPLAY=:$display
  display=$((display + 1))
  Xvfb "$DISPLAY" -screen 0 "$1x$2x24" >/dev/null 2>&1 &
  xvfb=$!
  for _ in $(seq 1 50); do
    if xdotool getdisplaygeometry >/dev/null 2>&1; then break; fi
    sleep 0.1
  done
  echo "$venice" >"$XDG_CONFIG_HOME/umpire/recent-games.txt"
  UMPIRE_RENDERER=glow LIBGL_ALWAYS_SOFTWARE=1 "$BIN" --no-user-rules &
  app=$!
  for _ in $(seq 1 400); do
    if xdotool search --name '^Umpire' >/dev/null 2>&1; then break; fi
    sleep 0.05
  done
  sleep 2
  xdotool search --name '^Umpire' windowmove 0 0 windowsize "$1" "$2" 2>/dev/null || true
  sleep 3
}

done_with() {
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  kill "$xvfb" 2>/dev/null || true
  wait "$xvfb" 2>/dev/null || true
}

# A click on Chaumont's stack: its hex on screen, found by the desk's hover words ("hex 2832")
# would need a reader; the map opens centred on the scenario's action, so the stack is near
# the map's middle at these sizes (CHAUMONT_1920 / CHAUMONT_1280 to override: "x y").
desk_at 1920 1080
read -r x y <<<"${CHAUMONT_1920:-0 0}"
if [ "$x" != 0 ]; then xdotool mousemove "$x" "$y" click 1; sleep 1; fi
import -window root docs/desk-1920.png
echo "wrote docs/desk-1920.png"
done_with

desk_at 1280 720
read -r x y <<<"${CHAUMONT_1280:-0 0}"
if [ "$x" != 0 ]; then xdotool mousemove "$x" "$y" click 1; sleep 1; fi
import -window root docs/desk-1280.png
echo "wrote docs/desk-1280.png"
done_with

# The Assault form at 1280×720: the procedure picked in the resolve panel's list (the list
# opens under the picker; "Attack on the Assault Table (AST)" is in it, this step's group first).
desk_at 1280 720
read -r px py <<<"${PROCEDURE_1280:-1080 72}"
xdotool mousemove "$px" "$py" click 1
sleep 1.5
read -r ax ay <<<"${ASSAULT_ITEM_1280:-560 449}"
xdotool mousemove "$ax" "$ay" click 1
sleep 1.5
xdotool mousemove 640 480
sleep 1
import -window root docs/desk-1280-assault.png
echo "wrote docs/desk-1280-assault.png"
done_with

# The rr3 handbook game at 1280×720 with the ledgers open (Ctrl+Shift+L): docked at the right,
# beside the clock bar.
rr3="$scratch/rr3.umpire"
"$BIN" --no-user-rules game new rr3_handbook_1524 -o "$rr3" >/dev/null
venice="$rr3"
desk_at 1280 720
# The Ledgers button at the right of the clock bar.
read -r lx ly <<<"${LEDGERS_1280:-1238 38}"
xdotool mousemove "$lx" "$ly" click 1
sleep 2
import -window root docs/desk-1280-rr3.png
echo "wrote docs/desk-1280-rr3.png"
done_with
