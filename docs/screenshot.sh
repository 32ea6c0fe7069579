#!/usr/bin/env bash
# Takes the README's pictures of the desk: runs it in a real window under Xvfb on three games
# and captures the screen.
#   docs/desk.png           "Venice at bay, 1509": the map with the places the text names,
#                           Chaumont's Force selected with its stack and the hand changes
#   docs/desk-rr3.png       the rr3 handbook game: the board of map tables and the ledgers
#   docs/desk-thousand.png  a game of about 1,300 counters: stacks with their count badges
# Needs (Debian): xvfb imagemagick xdotool mesa-vulkan-drivers libgl1 libegl1.
# BIN=path/to/umpire uses another build (default: a release build made here).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cargo build --release
  BIN=./target/release/umpire
fi
export DISPLAY=:97
scratch=$(mktemp -d)
export HOME="$scratch" XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config"
mkdir -p "$XDG_CONFIG_HOME/umpire"
Xvfb "$DISPLAY" -screen 0 1400x900x24 >/dev/null 2>&1 &
xvfb=$!
app=
trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$scratch"' EXIT
sleep 1

# Opens the desk on a game file (the most recent game is the one it opens), waits for it.
desk_on() {
  echo "$1" >"$XDG_CONFIG_HOME/umpire/recent-games.txt"
  UMPIRE_RENDERER="${UMPIRE_RENDERER:-glow}" "$BIN" --no-user-rules &
  app=$!
  for _ in $(seq 1 200); do
    if xdotool search --name '^Umpire' >/dev/null 2>&1; then break; fi
    sleep 0.05
  done
  sleep 3
}

shot() {
  import -window root "$1"
  echo "wrote $1"
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
}

# "Venice at bay": the APs credited, then Chaumont's Force
# selected (a click on its stack at Cassano) with the hand changes open.
venice="$scratch/venice.umpire"
"$BIN" --no-user-rules game new ailsh_1_venice_at_bay_1509 -o "$venice" >/dev/null
"$BIN" --no-user-rules game credit "$venice" 1 >/dev/null
"$BIN" --no-user-rules game credit "$venice" 2 >/dev/null
desk_on "$venice"
xdotool search --name '^Umpire' windowfocus 2>/dev/null || true
# Chaumont's stack at Cassano (2832): its centre on the map as the desk opens at 1400×900.
xdotool mousemove "${CASSANO_X:-937}" "${CASSANO_Y:-40}" click 1
sleep 1
shot docs/desk.png

# The rr3 handbook game: the board of the three map tables, with the ledgers open.
rr3="$scratch/rr3.umpire"
"$BIN" --no-user-rules game new rr3_handbook_1524 -o "$rr3" >/dev/null
desk_on "$rr3"
# The Ledgers button at the right of the clock bar.
xdotool mousemove "${LEDGERS_X:-1357}" "${LEDGERS_Y:-38}" click 1
sleep 1
# (The ledgers dock at the right, beside the clock bar: nothing to move out of the way.)
shot docs/desk-rr3.png

# A big game: scenario 1 with 400 more Forces, two hundred a side, on a 20 × 20 block of hexes,
# each a Capitano with one or two units: about 1,100 counters, each stack a face with its
# count badge.
big="$scratch/big.yaml"
python3 - scenarios/ailsh/s1_venice_at_bay_1509.yaml "$big" <<'PY'
import sys
src, out = sys.argv[1], sys.argv[2]
text = open(src, encoding="utf-8").read()
text = text.replace("id: ailsh_1_venice_at_bay_1509", "id: ailsh_1_a_thousand_counters", 1)
text = text.replace("title: Venice at bay, 1509", "title: A thousand counters (Venice at bay, 1509, grown)", 1)
forces = []
for i in range(400):
    side = "french" if i % 2 == 0 else "venetian"
    col, row = 10 + i % 20, 30 + i // 20
    units = [
        f"      - {{name: Infantry {i}, sp: 6, counters: [{{count: 1, max: 8}}], attributes: {{unit_type: infantry, nationality: {'french' if side == 'french' else 'venetian'}}}}}"
    ]
    if i % 3:
        units.append(
            f"      - {{name: Cavalry {i}, sp: 4, counters: [{{count: 1, max: 6}}], attributes: {{unit_type: heavy_cavalry, nationality: {'french' if side == 'french' else 'venetian'}}}}}"
        )
    forces.append(
        f"  - id: grown-{i}\n    side: {side}\n    army: {side}\n    position: {{hex: \"{col:02}{row:02}\"}}\n"
        f"    leaders:\n      - {{name: Capitano {i}, attributes: {{nationality: {side}}}}}\n"
        f"    units:\n" + "\n".join(units) + "\n"
    )
text = text.replace("\nforces:\n", "\nforces:\n" + "".join(forces), 1)
open(out, "w", encoding="utf-8").write(text)
PY
thousand="$scratch/thousand.umpire"
"$BIN" --no-user-rules game new "$big" -o "$thousand" >/dev/null
desk_on "$thousand"
shot docs/desk-thousand.png
