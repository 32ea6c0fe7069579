#!/usr/bin/env bash
# A PostgreSQL server for a Control team's shared games, from Debian's `postgresql` package.
#
#   scripts/control-server.sh init    [--dir DIR] [--port PORT] [--lan CIDR --password PW]
#   scripts/control-server.sh start   [--dir DIR]
#   scripts/control-server.sh stop    [--dir DIR]
#   scripts/control-server.sh restart [--dir DIR]
#   scripts/control-server.sh status  [--dir DIR]
#   scripts/control-server.sh url     [--dir DIR] [--game NAME] [--host HOST]
#
# `init` makes a database cluster of its own in DIR (default: ~/.local/share/umpire/server),
# owned by the user running it (or by the `postgres` system user when run as root, since
# PostgreSQL refuses to run as root), listening on 127.0.0.1:PORT (default 5433, beside any
# system PostgreSQL on 5432) with the role `umpire` and the database `umpire`.
# Loopback connections are trusted. With `--lan 192.168.1.0/24 --password PW` it also listens on
# every interface and lets the LAN in with the password (scram-sha-256): the other Control desks
# then use the URL that `url --host THIS-LAPTOP'S-ADDRESS` prints.
# Install the server first: `sudo apt-get install postgresql` (Debian 12: PostgreSQL 15).
set -euo pipefail

cmd=${1:-}
shift || true
dir=${UMPIRE_SERVER_DIR:-"${XDG_DATA_HOME:-$HOME/.local/share}/umpire/server"}
port=""
lan=""
password=""
game="main"
host="127.0.0.1"
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --lan) lan=$2; shift 2 ;;
    --password) password=$2; shift 2 ;;
    --game) game=$2; shift 2 ;;
    --host) host=$2; shift 2 ;;
    *) echo "control-server: unknown option '$1' (see the top of $0)" >&2; exit 2 ;;
  esac
done

bindir=""
if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
  bindir=$(pg_config --bindir)
else
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ]; then bindir=$d; break; fi
  done
fi
if [ -z "$bindir" ]; then
  echo "control-server: PostgreSQL's server programs are not installed — run: sudo apt-get install postgresql" >&2
  exit 1
fi

# PostgreSQL will not run as root: as root, run it as the `postgres` system user.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

conf_port() {
  sed -n "s/^port = \([0-9]*\).*/\1/p" "$dir/postgresql.conf" | tail -1
}

case "$cmd" in
  init)
    port=${port:-5433}
    if [ -e "$dir/PG_VERSION" ]; then
      echo "control-server: $dir already holds a server (port $(conf_port)); nothing changed" >&2
      exit 1
    fi
    if [ -n "$lan" ] && [ -z "$password" ]; then
      echo "control-server: --lan needs --password (LAN desks sign in with it)" >&2
      exit 2
    fi
    mkdir -p "$dir"
    chmod 700 "$dir"
    if [ "$(id -u)" -eq 0 ]; then
      id postgres >/dev/null 2>&1 || { echo "control-server: no 'postgres' user — install Debian's postgresql package" >&2; exit 1; }
      chown postgres:postgres "$dir"
      # The postgres user must be able to reach DIR.
      parent=$(dirname "$dir")
      while [ "$parent" != "/" ]; do chmod o+x "$parent" 2>/dev/null || true; parent=$(dirname "$parent"); done
    fi
    pwfile=$(mktemp)
    printf '%s\n' "${password:-umpire}" > "$pwfile"
    [ "$(id -u)" -eq 0 ] && chown postgres "$pwfile"
    as_owner "$bindir/initdb" -D "$dir" -U umpire --auth-local=trust --auth-host=trust \
      --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 >/dev/null
    rm -f "$pwfile"
    listen="127.0.0.1"
    [ -n "$lan" ] && listen="*"
    cat >> "$dir/postgresql.conf" <<EOF
# Umpire Control server (scripts/control-server.sh)
port = $port
listen_addresses = '$listen'
unix_socket_directories = '$dir'
max_connections = 100
# Durable commits: an event is on disk when the desk is told it is recorded.
fsync = on
synchronous_commit = on
EOF
    if [ -n "$lan" ]; then
      echo "host all umpire $lan scram-sha-256" >> "$dir/pg_hba.conf"
    fi
    echo "control-server: initialised $dir (port $port${lan:+, LAN $lan})"
    ;;
  start)
    as_owner "$bindir/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 30 start >/dev/null
    if ! as_owner "$bindir/psql" -h "$dir" -p "$(conf_port)" -U umpire -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = 'umpire'" | grep -q 1; then
      as_owner "$bindir/createdb" -h "$dir" -p "$(conf_port)" -U umpire umpire
    fi
    echo "control-server: running on port $(conf_port)"
    ;;
  stop)
    as_owner "$bindir/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
    echo "control-server: stopped"
    ;;
  restart)
    as_owner "$bindir/pg_ctl" -D "$dir" -m fast -w -t 30 restart -l "$dir/server.log" >/dev/null
    echo "control-server: restarted on port $(conf_port)"
    ;;
  status)
    if as_owner "$bindir/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      echo "control-server: running on port $(conf_port) ($dir)"
    else
      echo "control-server: not running ($dir)"
      exit 3
    fi
    ;;
  url)
    echo "postgres://umpire@$host:$(conf_port)/umpire?game=$game"
    ;;
  *)
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    [ -z "$cmd" ] && exit 0 || exit 2
    ;;
esac
