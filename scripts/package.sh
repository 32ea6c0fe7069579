#!/usr/bin/env bash
# Builds the Debian package from this checkout: target/debian/umpire_VERSION_ARCH.deb.
# It holds the binary (rulesets, scenarios, print templates and fonts are embedded in it), the
# menu entry and its icon, the MIME type of game files (a double-click opens the desk), the shell
# completions for bash, zsh and fish, and the manual pages. Needs Debian's dpkg-deb (dpkg) and
# gzip; `cargo build --release` runs first unless BIN=path/to/umpire is given.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked
  BIN=${CARGO_TARGET_DIR:-target}/release/umpire
fi
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# The maintainer: whoever made the commit this package is built from.
maintainer=$(git log -1 --format='%an <%ae>' 2>/dev/null || true)
maintainer=${maintainer:-${DEBFULLNAME:-Umpire} <${DEBEMAIL:-$(id -un)@$(hostname -f)}>}
arch=$(dpkg --print-architecture)
out=${CARGO_TARGET_DIR:-target}/debian
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/umpire_${version}_${arch}"

install -D -m 0755 "$BIN" "$root/usr/bin/umpire"
strip --strip-unneeded "$root/usr/bin/umpire" 2>/dev/null || true
install -D -m 0644 packaging/umpire.desktop "$root/usr/share/applications/umpire.desktop"
install -D -m 0644 packaging/umpire-mime.xml "$root/usr/share/mime/packages/umpire.xml"
install -D -m 0644 packaging/umpire.svg "$root/usr/share/icons/hicolor/scalable/apps/umpire.svg"
for size in 16 32 48 64 128 256; do
  install -D -m 0644 "packaging/umpire-$size.png" \
    "$root/usr/share/icons/hicolor/${size}x${size}/apps/umpire.png"
done
# Completions and manual pages, from the binary itself.
mkdir -p "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/man/man1"
"$BIN" completions bash >"$root/usr/share/bash-completion/completions/umpire"
"$BIN" completions zsh >"$root/usr/share/zsh/vendor-completions/_umpire"
"$BIN" completions fish >"$root/usr/share/fish/vendor_completions.d/umpire.fish"
"$BIN" manpages "$root/usr/share/man/man1" >/dev/null
gzip -9n "$root"/usr/share/man/man1/*.1
# The licences: the project's and the embedded DejaVu fonts'.
install -D -m 0644 /dev/null "$root/usr/share/doc/umpire/copyright"
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: umpire"
  echo
  echo "Files: *"
  echo "License: MIT or Apache-2.0"
  echo
  echo "Files: templates/fonts/*"
  echo "License: Bitstream-Vera and public domain (DejaVu fonts)"
  sed 's/^/ /; s/^ $/ ./' templates/fonts/LICENSE-DejaVu.txt
} >"$root/usr/share/doc/umpire/copyright"
chmod 0644 "$root/usr/share/doc/umpire/copyright"

# A native package's changelog: the last commits of this checkout.
{
  echo "umpire ($version) unstable; urgency=medium"
  echo
  git log -20 --format='  * %s' 2>/dev/null | cut -c1-78 || echo "  * Built outside a git checkout."
  echo
  echo " -- $maintainer  $(date -R)"
} | gzip -9n >"$root/usr/share/doc/umpire/changelog.gz"
chmod 0644 "$root/usr/share/doc/umpire/changelog.gz"
# unsafe-libyaml (through yaml_serde) is libyaml translated to Rust, linked in by design.
install -D -m 0644 /dev/null "$root/usr/share/lintian/overrides/umpire"
echo "umpire: embedded-library libyaml [usr/bin/umpire]" >"$root/usr/share/lintian/overrides/umpire"

# The project's public addresses and its software-centre listing, from Cargo.toml (the
# environment may override each, as the package test does): homepage and repository
# ([workspace.package]), the listing's AppStream id and the address its screenshots are published
# under ([workspace.metadata.listing]). An AppStream id names a domain the project controls and its
# screenshots must be on the web, so without an id the package carries no listing (and says so).
setting() { # KEY [SECTION]: a `key = "value"` line of Cargo.toml's SECTION
  awk -v key="$1" -v section="${2:-workspace.package}" '
    /^\[/ { inside = ($0 == "[" section "]") }
    inside && $1 == key { sub(/^[^=]*= *"/, ""); sub(/".*$/, ""); print; exit }' Cargo.toml
}
homepage=${UMPIRE_HOMEPAGE-$(setting homepage)}
repository=${UMPIRE_REPOSITORY-$(setting repository)}
bugs=${UMPIRE_BUGS-$(setting bugs workspace.metadata.listing)}
listing_id=${UMPIRE_LISTING_ID-$(setting id workspace.metadata.listing)}
screenshots=${UMPIRE_SCREENSHOTS-$(setting screenshots workspace.metadata.listing)}
xml() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'; }
# The package is not in Debian's archive: its Bugs field is the project's own tracker.
if [ -n "$bugs" ]; then
  echo "umpire: bugs-field-does-not-refer-to-debian-infrastructure *" >>"$root/usr/share/lintian/overrides/umpire"
fi
if [ -n "$listing_id" ]; then
  metainfo="$root/usr/share/metainfo/$listing_id.metainfo.xml"
  install -d "$(dirname "$metainfo")"
  urls=""
  [ -n "$homepage" ] && urls+="  <url type=\"homepage\">$(echo "$homepage" | xml)</url>"$'\n'
  [ -n "$bugs" ] && urls+="  <url type=\"bugtracker\">$(echo "$bugs" | xml)</url>"$'\n'
  [ -n "$repository" ] && urls+="  <url type=\"vcs-browser\">$(echo "$repository" | xml)</url>"$'\n'
  shots=""
  if [ -n "$screenshots" ]; then
    shots="  <screenshots>"$'\n'
    default=" type=\"default\""
    # The README's pictures, each with what it shows.
    while IFS='|' read -r file caption; do
      shots+="    <screenshot$default>"$'\n'
      shots+="      <caption>$(echo "$caption" | xml)</caption>"$'\n'
      shots+="      <image>$(echo "${screenshots%/}/$file" | xml)</image>"$'\n'
      shots+="    </screenshot>"$'\n'
      default=""
    done <<'SHOTS'
desk.png|The desk: a turn of "Venice at bay, 1509", the next thing to resolve framed on the left
desk-rr3.png|A megagame's board of map tables, with the states' ledgers
players-view.png|A side's own page on a player's phone
turn-report.png|A printed turn report: each result with its modifiers, rules and dice
SHOTS
    shots+="  </screenshots>"
  fi
  # The release notes: each version of CHANGELOG.md (`## VERSION — YYYY-MM-DD`), its sentences
  # as paragraphs and its bullets as a list.
  releases=$(awk '
    function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/`/, "", s); return s }
    function flush() {
      if (text == "") return
      if (bullet) { if (!list) { print "        <ul>"; list = 1 }; print "          <li>" esc(text) "</li>" }
      else { close_list(); print "        <p>" esc(text) "</p>" }
      text = ""
    }
    function close_list() { if (list) { print "        </ul>"; list = 0 } }
    function end_release() { if (open) { flush(); close_list(); print "      </description>"; print "    </release>"; open = 0 } }
    /^## / {
      end_release()
      n = split($0, f, " ")
      print "    <release version=\"" f[2] "\" date=\"" f[n] "\">"
      print "      <description>"
      open = 1; next
    }
    !open { next }
    /^- / { flush(); bullet = 1; text = substr($0, 3); next }
    /^$/ { flush(); bullet = 0; next }
    { sub(/^ +/, ""); text = (text == "" ? $0 : text " " $0) }
    END { end_release() }' CHANGELOG.md)
  awk -v id="$listing_id" -v urls="${urls%$'\n'}" -v shots="$shots" -v releases="$releases" '
    { gsub(/@ID@/, id) }
    /^@URLS@$/ { if (urls != "") print urls; next }
    /^@SCREENSHOTS@$/ { if (shots != "") print shots; next }
    /^@RELEASES@$/ { print releases; next }
    { print }' packaging/umpire.metainfo.xml.in >"$metainfo"
  chmod 0644 "$metainfo"
else
  echo "scripts/package.sh: no software-centre listing: the project has no AppStream id yet ([workspace.metadata.listing] id in Cargo.toml)" >&2
fi

size=$(du -sk "$root/usr" | cut -f1)
mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: umpire
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Section: utils
Priority: optional
Depends: libc6 (>= 2.36), libgcc-s1, libgl1, libegl1, libxkbcommon0, libwayland-client0, libx11-6, libxcursor1, libxrandr2, libxi6
Recommends: mesa-vulkan-drivers, xdg-desktop-portal
Suggests: postgresql-client, postgresql
${homepage:+Homepage: $homepage
}${bugs:+Bugs: $bugs
}Description: adjudication assistant for human-umpired wargames and megagames
 Umpire keeps a tabletop wargame or a megagame at the table: where the
 counters are, the Sequence of Play, the procedures resolved from YAML
 rulesets with every modifier and its rule shown and the exact odds before
 the roll, app or physical dice, a hash-chained journal players can verify,
 turn reports and chart sheets as PDF, and a read-only live view for each
 side's phones.
CONTROL
mkdir -p "$out"
deb="$out/umpire_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
