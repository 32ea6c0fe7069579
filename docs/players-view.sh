#!/usr/bin/env bash
# Takes the README's pictures of the players' view: a game of "Venice at bay, 1509" with a few
# entries, served by `umpire serve`, each side's page in Debian's headless Chromium at a phone's
# size (390×844).
#   docs/players-view.png           the French page: its own Forces first, then the journal newest
#                                   first, one entry open
#   docs/players-view-venetian.png  the Venetian page of the same moment
# Needs (Debian): chromium, imagemagick.
# BIN=path/to/umpire uses another build (default: a release build made here).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cargo build --release
  BIN=./target/release/umpire
fi
scratch=$(mktemp -d)
server=
trap 'kill $server 2>/dev/null || true; rm -rf "$scratch"' EXIT
game="$scratch/venice.umpire"
"$BIN" --no-user-rules game new ailsh_1_venice_at_bay_1509 -o "$game" --seed 1509 >/dev/null
"$BIN" --no-user-rules game resolve "$game" order_cost -i force=minor -i order=stand \
  --chart-result 1 --counter force=chaumont >/dev/null
"$BIN" --no-user-rules game move "$game" chaumont 2833 >/dev/null
"$BIN" --no-user-rules game resolve "$game" capitano_fate --roll 3 >/dev/null
"$BIN" --no-user-rules game resolve "$game" discipline_check -i reason=combat -i troop_quality=3 \
  -i reliability=S --roll 4 --chart-result D --counter unit=fr-chaumont-french-gendarmes-1 >/dev/null
port=$((20000 + RANDOM % 20000))
"$BIN" --no-user-rules serve "$game" --bind "127.0.0.1:$port" --no-qr >"$scratch/links.txt" &
server=$!
for _ in $(seq 1 100); do
  grep -q '^Venetian' "$scratch/links.txt" 2>/dev/null && break
  sleep 0.05
done
link() { grep "^$1" "$scratch/links.txt" | sed 's#.*\(http://[^ ]*\).*#\1#'; }
shoot() {
  # Opens the newest entry (its explanation and the odds shown before the roll) first.
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$scratch/chromium-$2" --hide-scrollbars --window-size=390,844 \
    --screenshot="$2" "$1" 2>/dev/null
  echo "wrote $2"
}
shoot "$(link French)" docs/players-view.png
shoot "$(link Venetian)" docs/players-view-venetian.png
