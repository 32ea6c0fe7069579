#!/usr/bin/env bash
# Takes the README's pictures of the players' view: a game of "Venice at bay, 1509" with a few
# entries, served by `umpire serve`, each side's page in Debian's headless Chromium at a phone's
# size (390×844).
#   docs/players-view.png           the French page: its own Forces first, then the journal newest
#                                   first, one entry open
#   docs/players-view-venetian.png  the Venetian page of the same moment
#   docs/players-orders*.png        sealed orders (see the end of this script)
# Needs (Debian): chromium, imagemagick, curl.
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
wait_links() { # until the server has printed its links
  for _ in $(seq 1 100); do
    grep -q '^Venetian' "$scratch/links.txt" 2>/dev/null && break
    sleep 0.05
  done
}
wait_links
link() { grep "^$1" "$scratch/links.txt" | sed 's#.*\(http://[^ ]*\).*#\1#'; }
shoot() {
  # Opens the newest entry (its explanation and the odds shown before the roll) first.
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$scratch/chromium-$2" --hide-scrollbars --window-size="390,${3:-844}" \
    --screenshot="$2" "$1" 2>/dev/null
  echo "wrote $2"
}
shoot "$(link French)" docs/players-view.png
shoot "$(link Venetian)" docs/players-view-venetian.png

# Sealed orders: a second game at the Command Phase's "Issue or re-issue Orders" of turn 4.
#   docs/players-orders.png           the French phone's orders page, its Orders sealed
#   docs/players-orders-revealed.png  the Venetian page after the reveal
kill $server 2>/dev/null || true
orders="$scratch/orders.umpire"
"$BIN" --no-user-rules game new ailsh_1_venice_at_bay_1509 -o "$orders" --seed 1509 >/dev/null
for _ in $(seq 1 200); do
  "$BIN" --no-user-rules game status "$orders" | head -2 | grep -q "Issue or re-issue" && break
  out=$("$BIN" --no-user-rules game next "$orders" 2>&1 || true)
  if grep -q "pending:" <<<"$out"; then
    item=$(sed -E 's/.*pending: ([0-9]+)\. .*/\1/' <<<"$out" | head -1)
    "$BIN" --no-user-rules game credit "$orders" "$item" >/dev/null 2>&1 ||
      "$BIN" --no-user-rules game skip "$orders" "$item" --reason "done at the table" >/dev/null
  fi
done
"$BIN" --no-user-rules serve "$orders" --bind "127.0.0.1:$port" --no-qr >"$scratch/links.txt" &
server=$!
wait_links
seal() { # seal LINK FIELD=VALUE… : a phone's hand-in, with its page's form token
  local to="$1/orders" page csrf body
  page=$(curl -s "$to")
  csrf=$(grep -o 'name="csrf" value="[a-z0-9]*"' <<<"$page" | sed 's/.*value="//;s/"//')
  body="csrf=$csrf&order=orders"
  shift
  for f in "$@"; do body="$body&$f"; done
  curl -s -o /dev/null -X POST "$to" --data "$body"
}
seal "$(link French)" "f:fr-chaumont:order=attack" "f:fr-louis:order=retreat" "f:fr-roquebertin:order=stand"
shoot "$(link French)/orders" docs/players-orders.png
seal "$(link Venetian)" "f:ve-alviano:order=manoeuvre" "f:ve-pitigliano:order=garrison" \
  "f:ve-vitelli:order=garrison" "f:ve-naldi:order=garrison"
kill $server 2>/dev/null || true
"$BIN" --no-user-rules game orders reveal "$orders" >/dev/null
"$BIN" --no-user-rules serve "$orders" --bind "127.0.0.1:$port" --no-qr >"$scratch/links.txt" &
server=$!
wait_links
# A phone scrolled down to the journal: the page from its top, two screens long.
shoot "$(link Venetian)" docs/players-orders-revealed.png 1500
