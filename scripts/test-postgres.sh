#!/usr/bin/env bash
# A real PostgreSQL server for the state store's tests: a cluster of its own (not Debian's "main"), listening on
# 127.0.0.1 only, with password (SCRAM) logins for a test role that owns a test database. Nothing here is reachable
# from outside the machine.
#
# Needs root and Debian's postgresql package (this script installs nothing itself; scripts/test-all.sh does).
#
# Usage:
#   scripts/test-postgres.sh up       initialize (first time) and start the server; idempotent
#   scripts/test-postgres.sh down     stop it (its data is kept, so "up" is quick)
#   scripts/test-postgres.sh status   exit 0 only when it accepts the test role's logins
#
# State lives in GANTRY_TEST_POSTGRES_DIR (default /var/lib/gantry-test-postgres):
#   postgres.env   what the tests read: URL (JDBC), USER, PASSWORD_FILE, SOCKET_DIR, PORT, SUPERUSER
#   password       the test role's password (0600; the tests pass it as the secret reference file:PATH)
#   data/, run/    the cluster and its Unix socket and server.log (both owned by the postgres user)
set -euo pipefail

STATE=${GANTRY_TEST_POSTGRES_DIR:-/var/lib/gantry-test-postgres}
PORT=${GANTRY_TEST_POSTGRES_PORT:-55432}
ROLE=gantry_test
DATABASE=gantry_test

die() { echo "test-postgres: $*" >&2; exit 1; }

bin_dir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$dir" ] && [ -x "$dir/postgres" ] \
    || die "PostgreSQL is not installed; install Debian's postgresql package (scripts/test-all.sh does)"
  echo "$dir"
}

as_postgres() { runuser -u postgres -- "$@"; }

running() { as_postgres "$(bin_dir)/pg_ctl" status -D "$STATE/data" >/dev/null 2>&1; }

superuser_sql() { as_postgres psql -X -q -v ON_ERROR_STOP=1 -h "$STATE/run" -p "$PORT" -U postgres -d postgres "$@"; }

accepts_logins() {
  [ -f "$STATE/password" ] || return 1
  PGPASSWORD=$(cat "$STATE/password") psql -X -q -h 127.0.0.1 -p "$PORT" -U "$ROLE" -d "$DATABASE" \
    -c 'SELECT 1' >/dev/null 2>&1
}

initialize() {
  local bin=$1
  rm -rf "$STATE/data"
  install -d -o postgres -g postgres -m 0700 "$STATE/data"
  # Local (socket) logins as the postgres user for setup; every TCP login needs a password.
  as_postgres "$bin/initdb" -D "$STATE/data" -U postgres --auth-local=peer --auth-host=scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 >"$STATE/initdb.log" 2>&1 || { cat "$STATE/initdb.log" >&2; die "initdb failed"; }
}

start() {
  local bin=$1
  install -d -o postgres -g postgres -m 0755 "$STATE/run"
  as_postgres "$bin/pg_ctl" start -D "$STATE/data" -l "$STATE/run/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories=$STATE/run -c max_connections=200" \
    >/dev/null || { tail -20 "$STATE/run/server.log" >&2; die "the server did not start; its log is $STATE/run/server.log"; }
}

ensure_role_and_database() {
  if [ ! -s "$STATE/password" ]; then
    (umask 077; head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$STATE/password")
  fi
  local password
  password=$(cat "$STATE/password")
  # The password is alphanumeric (base64 with its symbols removed), so it is safe inside the quotes.
  superuser_sql <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE $ROLE LOGIN PASSWORD '$password';
  ELSE
    ALTER ROLE $ROLE LOGIN PASSWORD '$password';
  END IF;
END \$\$;
SQL
  if ! superuser_sql -tAc "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'" | grep -x 1 >/dev/null; then
    superuser_sql -c "CREATE DATABASE $DATABASE OWNER $ROLE"
  fi
}

write_env() {
  local tmp="$STATE/postgres.env.tmp"
  cat >"$tmp" <<EOF
URL=jdbc:postgresql://127.0.0.1:$PORT/$DATABASE
USER=$ROLE
PASSWORD_FILE=$STATE/password
SOCKET_DIR=$STATE/run
PORT=$PORT
SUPERUSER=postgres
EOF
  mv "$tmp" "$STATE/postgres.env"
}

cmd_up() {
  [ "$(id -u)" = 0 ] || die "must run as root (it runs the server as the postgres user); run scripts/test-all.sh as root"
  id postgres >/dev/null 2>&1 || die "there is no postgres user; install Debian's postgresql package"
  local bin started
  started=$(date +%s)
  bin=$(bin_dir)
  install -d -m 0755 "$STATE"
  if ! running; then
    [ -f "$STATE/data/PG_VERSION" ] || initialize "$bin"
    start "$bin"
  fi
  ensure_role_and_database
  write_env
  accepts_logins || die "the server is up but refuses the test role's login; see $STATE/run/server.log"
  echo "test-postgres: up on 127.0.0.1:$PORT in $(( $(date +%s) - started )) s ($("$bin/postgres" --version))"
}

cmd_down() {
  rm -f "$STATE/postgres.env"
  if [ -d "$STATE/data" ] && running; then
    as_postgres "$(bin_dir)/pg_ctl" stop -D "$STATE/data" -m fast -w >/dev/null
  fi
  echo "test-postgres: down"
}

cmd_status() {
  if running && accepts_logins; then
    echo "test-postgres: up on 127.0.0.1:$PORT"
  else
    echo "test-postgres: down"
    return 1
  fi
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
