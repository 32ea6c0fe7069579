#!/usr/bin/env bash
# A PostgreSQL server for a Control team's shared games, from Debian's `postgresql` package.
#
#   scripts/control-server.sh init          [--dir DIR] [--port PORT] [--lan CIDR]
#   scripts/control-server.sh start         [--dir DIR] [--rules DIR]
#   scripts/control-server.sh stop          [--dir DIR]
#   scripts/control-server.sh restart       [--dir DIR]
#   scripts/control-server.sh status        [--dir DIR]
#   scripts/control-server.sh add-umpire    NAME ROLE [TABLE] [--login LOGIN] [--ask | --pgpass] [--dir DIR]
#   scripts/control-server.sh remove-umpire LOGIN [--dir DIR]
#   scripts/control-server.sh list-umpires  [--dir DIR]
#   scripts/control-server.sh url           [--dir DIR] [--game NAME] [--user LOGIN] [--host HOST]
#   scripts/control-server.sh fingerprint   [--dir DIR]
#
# `init` makes a database cluster of its own in DIR (default: ~/.local/share/umpire/server),
# owned by the user running it (or by the `postgres` system user when run as root, since
# PostgreSQL refuses to run as root), listening on 127.0.0.1:PORT (default 5433, beside any
# system PostgreSQL on 5432), with a self-signed TLS certificate whose SHA-256 fingerprint it
# prints. Every connection signs in with a password (scram-sha-256), loopback included; only the
# administrator (the user that runs the server) comes in without one, over the Unix socket in
# DIR (peer authentication). `start` creates the database `umpire` and Umpire's schema
# (scripts/control-server.sql): the tables belong to a role nobody logs in as, and the umpires
# write the journal only through functions that check the hash chain, who wrote each entry and
# the umpire's remit.
#
# Each umpire gets a login of their own: `add-umpire Anna map the_east` (ROLE: game, map,
# political, religious, character, non_played_states; Map Control needs its TABLE). The password
# is generated and shown once, or typed (`--ask`), or written to your ~/.pgpass (`--pgpass`,
# or $PGPASSFILE); it is never taken on the command line. Game Control logins create and
# publish games. With `--lan 192.168.1.0/24` the server also listens on the network and lets
# that range in over TLS only: the desks use the URL that `url --host THIS-LAPTOP'S-ADDRESS
# --user LOGIN` prints, which pins the certificate's fingerprint.
# `start` also starts the referee (`umpire referee`, from $UMPIRE_BIN or the `umpire` on PATH):
# every append a desk sends is first held by it to the rules of play, as `game import` holds a
# journal, and the server stores only what it accepted. It reads the shipped rulesets, or those
# under `--rules DIR` (remembered for later starts); its log is DIR/referee.log.
# Install the server first: `sudo apt-get install postgresql` (Debian 12: PostgreSQL 15).
set -euo pipefail

cmd=${1:-}
shift || true
dir=${UMPIRE_SERVER_DIR:-"${XDG_DATA_HOME:-$HOME/.local/share}/umpire/server"}
port=""
lan=""
rules=""
game="main"
host="127.0.0.1"
user=""
login=""
password_mode="show"
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --lan) lan=$2; shift 2 ;;
    --rules) rules=$2; shift 2 ;;
    --game) game=$2; shift 2 ;;
    --host) host=$2; shift 2 ;;
    --user) user=$2; shift 2 ;;
    --login) login=$2; shift 2 ;;
    --ask) password_mode="ask"; shift ;;
    --pgpass) password_mode="pgpass"; shift ;;
    --password)
      echo "control-server: passwords are never taken on the command line — add each umpire with 'add-umpire NAME ROLE [TABLE]' (the password is generated, or typed with --ask)" >&2
      exit 2 ;;
    --*) echo "control-server: unknown option '$1' (see the top of $0)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done

# psql and the referee reach the socket by an absolute path.
dir=$(realpath -m -- "$dir")
here=$(cd "$(dirname "$0")" && pwd)
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

# The administrator's psql: over the socket in DIR, as the user that runs the server (peer).
admin_sql() {
  PGCLIENTENCODING=UTF8 as_owner "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$(conf_port)" "$@"
}

# A literal for SQL: single quotes doubled.
sql_quote() {
  printf "'%s'" "${1//\'/\'\'}"
}

fingerprint() {
  openssl x509 -in "$dir/server.crt" -noout -fingerprint -sha256 | sed 's/^.*=/sha256:/'
}

need_server() {
  if [ ! -e "$dir/PG_VERSION" ]; then
    echo "control-server: no server in $dir — run: $0 init" >&2
    exit 1
  fi
}

# The referee's way in: its login, over the socket, for the system user that runs this script.
referee_access() {
  me=$(id -un)
  if ! grep -q '^local *umpire *umpire_referee' "$dir/pg_hba.conf"; then
    { echo "# The referee (umpire referee): peer, as the user that runs control-server.sh."
      echo "local    umpire    umpire_referee   peer map=umpire_referee"
      cat "$dir/pg_hba.conf"; } > "$dir/pg_hba.conf.new"
    as_owner tee "$dir/pg_hba.conf" < "$dir/pg_hba.conf.new" >/dev/null
    rm -f "$dir/pg_hba.conf.new"
  fi
  if ! grep -q "^umpire_referee *$me *umpire_referee" "$dir/pg_ident.conf" 2>/dev/null; then
    echo "umpire_referee  $me  umpire_referee" | as_owner tee -a "$dir/pg_ident.conf" >/dev/null
  fi
}
referee_pid() {
  local pid
  pid=$(cat "$dir/referee.pid" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}
stop_referee() {
  local pid
  pid=$(referee_pid)
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f "$dir/referee.pid"
}
start_referee() {
  local bin=${UMPIRE_BIN:-}
  [ -z "$bin" ] && bin=$(command -v umpire 2>/dev/null || true)
  if [ -z "$bin" ]; then
    for b in "$here/../target/release/umpire" "$here/../target/debug/umpire"; do
      if [ -x "$b" ]; then bin=$b; break; fi
    done
  fi
  if [ -z "$bin" ] || [ ! -x "$bin" ]; then
    echo "control-server: the referee needs the umpire program — put it on PATH or set UMPIRE_BIN; until it runs the server writes nothing" >&2
    exit 1
  fi
  [ -n "$rules" ] && printf '%s\n' "$(cd "$rules" && pwd)" > "$dir/referee.rules"
  local args=(referee --socket "$dir" --port "$(conf_port)")
  if [ -s "$dir/referee.rules" ]; then args+=(--rules "$(cat "$dir/referee.rules")"); fi
  stop_referee
  setsid "$bin" "${args[@]}" </dev/null >>"$dir/referee.log" 2>&1 &
  echo $! > "$dir/referee.pid"
  for _ in $(seq 1 100); do
    if admin_sql -d umpire -tAc "SELECT umpire_referee_running()" 2>/dev/null | grep -q t; then
      return 0
    fi
    if ! kill -0 "$(cat "$dir/referee.pid")" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "control-server: the referee did not start — see $dir/referee.log:" >&2
  tail -5 "$dir/referee.log" >&2 || true
  exit 1
}
roles="game, map, political, religious, character, non_played_states"

case "$cmd" in
  init)
    port=${port:-5433}
    if [ -e "$dir/PG_VERSION" ]; then
      echo "control-server: $dir already holds a server (port $(conf_port)); nothing changed" >&2
      exit 1
    fi
    command -v openssl >/dev/null 2>&1 || { echo "control-server: openssl is needed for the TLS certificate — run: sudo apt-get install openssl" >&2; exit 1; }
    mkdir -p "$dir"
    chmod 700 "$dir"
    if [ "$(id -u)" -eq 0 ]; then
      id postgres >/dev/null 2>&1 || { echo "control-server: no 'postgres' user — install Debian's postgresql package" >&2; exit 1; }
      chown postgres:postgres "$dir"
      # The postgres user must be able to reach DIR.
      parent=$(dirname "$dir")
      while [ "$parent" != "/" ]; do chmod o+x "$parent" 2>/dev/null || true; parent=$(dirname "$parent"); done
    fi
    # The administrator is the system user that runs the server; it has no password and comes
    # in over the socket only (peer).
    as_owner "$bindir/initdb" -D "$dir" --auth-local=peer --auth-host=scram-sha-256 \
      -E UTF8 --locale=C.UTF-8 >/dev/null
    admin=$(as_owner id -un)
    as_owner openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
      -days 3650 -subj "/CN=umpire-control" \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
      -keyout "$dir/server.key" -out "$dir/server.crt" 2>/dev/null
    as_owner chmod 600 "$dir/server.key"
    listen="127.0.0.1"
    [ -n "$lan" ] && listen="*"
    cat >> "$dir/postgresql.conf" <<EOF
# Umpire Control server (scripts/control-server.sh)
port = $port
listen_addresses = '$listen'
unix_socket_directories = '$dir'
max_connections = 100
password_encryption = 'scram-sha-256'
ssl = on
ssl_cert_file = 'server.crt'
ssl_key_file = 'server.key'
ssl_min_protocol_version = 'TLSv1.2'
# Durable commits: an event is on disk when the desk is told it is recorded.
fsync = on
synchronous_commit = on
EOF
    {
      echo "# Umpire Control server (scripts/control-server.sh): a password for everyone but the"
      echo "# administrator on the socket; the LAN over TLS only. No 'trust' line."
      echo "# TYPE   DATABASE  USER  ADDRESS  METHOD"
      echo "local    all       $admin           peer"
      echo "local    all       all              scram-sha-256"
      echo "host     all       all   127.0.0.1/32  scram-sha-256"
      echo "host     all       all   ::1/128       scram-sha-256"
      if [ -n "$lan" ]; then
        echo "hostssl  umpire    all   $lan  scram-sha-256"
      fi
    } | as_owner tee "$dir/pg_hba.conf" >/dev/null
    referee_access
    echo "control-server: initialised $dir (port $port${lan:+, LAN $lan over TLS})"
    echo "control-server: certificate fingerprint $(fingerprint) — desks pin it with &fingerprint=… in the URL (\`$0 url --host …\` prints it)"
    ;;
  start)
    need_server
    referee_access
    # Already running (a start whose referee did not come up): the schema and referee only.
    if ! as_owner "$bindir/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      as_owner "$bindir/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 30 start >/dev/null
    else
      as_owner "$bindir/pg_ctl" -D "$dir" reload >/dev/null
    fi
    if ! admin_sql -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'umpire'" | grep -q 1; then
      admin_sql -d postgres -c "CREATE DATABASE umpire"
    fi
    # The schema: created once, its functions brought up to date at every start.
    admin_sql -d umpire < "$here/control-server.sql"
    start_referee
    echo "control-server: running on port $(conf_port), with its referee"
    ;;
  stop)
    stop_referee
    as_owner "$bindir/pg_ctl" -D "$dir" -m fast -w stop >/dev/null
    echo "control-server: stopped"
    ;;
  restart)
    # The referee stays: it reconnects by itself (a new one only if it is not running).
    as_owner "$bindir/pg_ctl" -D "$dir" -m fast -w -t 30 restart -l "$dir/server.log" >/dev/null
    if [ -z "$(referee_pid)" ]; then
      start_referee
    else
      for _ in $(seq 1 100); do
        admin_sql -d umpire -tAc "SELECT umpire_referee_running()" 2>/dev/null | grep -q t && break
        sleep 0.1
      done
    fi
    echo "control-server: restarted on port $(conf_port), with its referee"
    ;;
  status)
    if as_owner "$bindir/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
      echo "control-server: running on port $(conf_port) ($dir)"
      if [ -n "$(referee_pid)" ]; then
        echo "control-server: the referee is running (pid $(referee_pid))"
      else
        echo "control-server: the referee is not running — nothing can be written; run: $0 start --dir $dir" >&2
      fi
    else
      echo "control-server: not running ($dir)"
      exit 3
    fi
    ;;
  add-umpire)
    need_server
    name=$(printf '%s' "${positional[0]:-}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
    role=${positional[1]:-}
    table=$(printf '%s' "${positional[2]:-}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
    if [ -z "$name" ] || [ -z "$role" ]; then
      echo "control-server: add-umpire NAME ROLE [TABLE] — roles: $roles (Map Control needs its TABLE)" >&2
      exit 2
    fi
    case "$role" in
      game|map|political|religious|character|non_played_states) ;;
      *) echo "control-server: '$role' is not a Control role — roles: $roles" >&2; exit 2 ;;
    esac
    if [ "$role" = map ] && [ -z "$table" ]; then
      echo "control-server: Map Control works at a map table: add-umpire $name map TABLE (e.g. the_east)" >&2
      exit 2
    fi
    case "$name$table" in
      *:*) echo "control-server: a name or table may not contain ':'" >&2; exit 2 ;;
    esac
    if [ -z "$login" ]; then
      login=$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9_' '_')
    fi
    if ! printf '%s' "$login" | grep -Eq '^[a-z_][a-z0-9_]{0,62}$'; then
      echo "control-server: '$login' is not a usable login — give one with --login (letters, digits, '_')" >&2
      exit 2
    fi
    case "$login" in
      umpire|umpire_owner|umpire_desk|postgres|pg_*|"$(as_owner id -un)")
        echo "control-server: '$login' is reserved — give another with --login" >&2; exit 2 ;;
    esac
    if admin_sql -d umpire -tAc "SELECT 1 FROM pg_roles WHERE rolname = $(sql_quote "$login")" | grep -q 1; then
      echo "control-server: there is already a login '$login' — remove-umpire $login first, or choose another with --login" >&2
      exit 1
    fi
    case "$password_mode" in
      ask)
        if [ ! -t 0 ]; then
          echo "control-server: --ask needs a terminal to type the password on" >&2
          exit 2
        fi
        read -r -s -p "Password for $login: " password; echo >&2
        read -r -s -p "Again: " again; echo >&2
        if [ "$password" != "$again" ] || [ ${#password} -lt 8 ]; then
          echo "control-server: the passwords differ or are shorter than 8 characters; nothing changed" >&2
          exit 2
        fi
        ;;
      *)
        password=$(openssl rand -base64 24 | tr -d '/+=\n' | cut -c1-24)
        ;;
    esac
    pgpass_file=${PGPASSFILE:-$HOME/.pgpass}
    # --pgpass: the file must take the line before the login exists, or the password would be
    # lost with the login made (a test of the real append: as root, `-w` says yes to anything).
    if [ "$password_mode" = pgpass ] && ! (umask 077; : >> "$pgpass_file") 2>/dev/null; then
      echo "control-server: cannot write the password to $pgpass_file — nothing created; make it writable, set PGPASSFILE, or leave out --pgpass to have the password shown once" >&2
      exit 1
    fi
    tablesql=NULL
    [ -n "$table" ] && tablesql=$(sql_quote "$table")
    # The password reaches psql on standard input (never a command line), and the session logs
    # no statement, even one that fails.
    admin_sql -d umpire <<SQL
SET log_statement = 'none';
SET log_min_error_statement = 'panic';
BEGIN;
CREATE ROLE "$login" LOGIN PASSWORD $(sql_quote "$password") IN ROLE umpire_desk
  NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS CONNECTION LIMIT 20;
INSERT INTO umpire_umpires (login, name, role, map_table)
VALUES ($(sql_quote "$login"), $(sql_quote "$name"), $(sql_quote "$role"), $tablesql);
\\o /dev/null
SELECT umpire_login_limits($(sql_quote "$login"));
\\o
COMMIT;
SQL
    if [ "$password_mode" = pgpass ]; then
      file=$pgpass_file
      escaped=$(printf '%s' "$password" | sed 's/[\\:]/\\&/g')
      if ! (umask 077; printf '*:%s:umpire:%s:%s\n' "$(conf_port)" "$login" "$escaped" >> "$file") 2>/dev/null \
        || ! chmod 600 "$file" 2>/dev/null; then
        # The line did not go in after all (a full disk…): the login goes, so no password is lost.
        if ! admin_sql -d umpire <<SQL >/dev/null
BEGIN;
DELETE FROM umpire_umpires WHERE login = $(sql_quote "$login");
DROP ROLE IF EXISTS "$login";
COMMIT;
SQL
        then
          echo "control-server: could not write the password to $file, and could not remove the login '$login' again — run: $0 remove-umpire $login" >&2
          exit 1
        fi
        # A line written before chmod failed belongs to no login now.
        if [ -f "$file" ] && [ ! -L "$file" ]; then
          sed -i "/:umpire:$login:/d" "$file" 2>/dev/null || true
        fi
        echo "control-server: could not write the password to $file — the login '$login' was removed again; nothing changed" >&2
        exit 1
      fi
    fi
    echo "control-server: added $name ($role${table:+, $table}) with the login '$login'"
    case "$password_mode" in
      pgpass)
        echo "control-server: the password is in $file (not shown)"
        ;;
      ask) ;;
      *)
        echo "control-server: password for $login, shown once (it is kept nowhere; give it to $name):"
        echo "  $password"
        echo "control-server: on $name's desk, keep it in ~/.pgpass (chmod 600) as the line"
        echo "  *:$(conf_port):umpire:$login:PASSWORD"
        echo "  or type it when Umpire asks."
        ;;
    esac
    ;;
  remove-umpire)
    need_server
    login=${positional[0]:-}
    if [ -z "$login" ]; then
      echo "control-server: remove-umpire LOGIN (list-umpires shows them)" >&2
      exit 2
    fi
    quoted=$(sql_quote "$login")
    if ! admin_sql -d umpire -tAc "SELECT 1 FROM umpire_umpires WHERE login = $quoted" | grep -q 1; then
      echo "control-server: no umpire with the login '$login' (list-umpires shows them)" >&2
      exit 1
    fi
    admin_sql -d umpire <<SQL
BEGIN;
DELETE FROM umpire_umpires WHERE login = $quoted;
DROP ROLE "$login";
COMMIT;
SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = $quoted \\g /dev/null
SQL
    echo "control-server: removed the login '$login' (the journal keeps what it wrote)"
    ;;
  list-umpires)
    need_server
    admin_sql -d umpire -c "SELECT login, name, role, coalesce(map_table, '') AS map_table FROM umpire_umpires ORDER BY role, login"
    ;;
  url)
    need_server
    base="postgres://${user:-LOGIN}@$host:$(conf_port)/umpire?game=$game"
    case "$host" in
      127.0.0.1|localhost|::1) echo "$base" ;;
      *) echo "$base&sslmode=require&fingerprint=$(fingerprint)" ;;
    esac
    ;;
  fingerprint)
    need_server
    fingerprint
    ;;
  *)
    sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'
    [ -z "$cmd" ] && exit 0 || exit 2
    ;;
esac
