#!/usr/bin/env bash
# Starts (or stops) a throwaway PostgreSQL server on 127.0.0.1 for the tests, owned by the postgres user,
# with its data and socket under /tmp. Prints the connection URL on start.
#   scripts/pg-temp.sh start [port]   ->  postgresql://postgres:postgres@127.0.0.1:<port>/postgres
#   scripts/pg-temp.sh stop  [port]
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"
cmd=${1:-start}
port=${2:-55432}
dir=/tmp/hintline-pg-$port
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "pg-temp: PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "$cmd" in
  start)
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      rm -rf "$dir"; mkdir -p "$dir/data" "$dir/sock"
      [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$dir"
      echo postgres > "$dir/pw"; [ "$(id -u)" = 0 ] && chown postgres "$dir/pw"
      as_pg "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pw" -A scram-sha-256 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    if ! as_pg "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/sock -c fsync=off -c synchronous_commit=off -c max_connections=200" start >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    fi
    echo "postgresql://postgres:postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    [ -d "$dir/data" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
    ;;
  *) echo "usage: $0 start|stop [port]" >&2; exit 2 ;;
esac
