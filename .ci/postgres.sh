# Sourced by .ci/run (and usable by hand): a throw-away PostgreSQL cluster for the tests.
#   pg_test_start   installs PostgreSQL from Debian's packages when missing, starts a cluster as an
#                   unprivileged user on a free port of 127.0.0.1 and exports TEST_DATABASE_URL;
#   pg_test_stop    stops it and removes its files (.ci/run calls it from a trap).

pg_test_bindir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

pg_test_start() {
  if [ -z "$(pg_test_bindir)" ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql
  fi
  local bin user
  bin="$(pg_test_bindir)"
  # PostgreSQL refuses to run as root; Debian's package creates the `postgres` user.
  user="$(id -un)"
  [ "$(id -u)" = 0 ] && user=postgres
  PG_TEST_DIR="$(mktemp -d /tmp/test-postgres.XXXXXX)"
  export PG_TEST_DIR
  chown "$user" "$PG_TEST_DIR"
  local port
  port="$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")"
  as_pg_user() { if [ "$(id -un)" = "$user" ]; then "$@"; else runuser -u "$user" -- "$@"; fi; }
  as_pg_user "$bin/initdb" -D "$PG_TEST_DIR/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 --no-sync >/dev/null
  # Durability is not what the tests are about: fsync off makes the cluster several times faster.
  as_pg_user "$bin/pg_ctl" -D "$PG_TEST_DIR/data" -l "$PG_TEST_DIR/log" -w start \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $PG_TEST_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" >/dev/null
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') for the tests at $TEST_DATABASE_URL (files in $PG_TEST_DIR)"
}

pg_test_stop() {
  [ -n "${PG_TEST_DIR:-}" ] || return 0
  local bin
  bin="$(pg_test_bindir)"
  if [ -f "$PG_TEST_DIR/data/postmaster.pid" ]; then
    local stop=("$bin/pg_ctl" -D "$PG_TEST_DIR/data" -m immediate -w stop)
    if [ "$(id -u)" = 0 ]; then runuser -u "$(stat -c %U "$PG_TEST_DIR/data")" -- "${stop[@]}"; else "${stop[@]}"; fi >/dev/null 2>&1 || true
  fi
  rm -rf "$PG_TEST_DIR"
  unset PG_TEST_DIR TEST_DATABASE_URL
}
