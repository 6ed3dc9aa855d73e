#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for the test suite and prints its URL on stdout (logs go to stderr).
#
#   TEST_DATABASE_URL=$(bash scripts/ci/start-postgres.sh /tmp/pg-ci)   # ROOT must not exist or be empty
#   ...
#   bash scripts/ci/stop-postgres.sh /tmp/pg-ci
#
# The cluster lives in ROOT (data/, sock/, postgres.log), listens on 127.0.0.1 only, trusts local
# connections and runs without fsync: it is for tests, never for data you want to keep.
# Env: PG_PORT (first port to try, default 54329), PG_BIN (bin dir; default: newest
# /usr/lib/postgresql/*/bin, else the directory of `initdb` on PATH), PG_DB (default photo_missions_test).
set -euo pipefail

root=${1:?usage: start-postgres.sh ROOT_DIR}
port=${PG_PORT:-54329}
db=${PG_DB:-photo_missions_test}

log() { echo "[start-postgres] $*" >&2; }

find_bin() {
  if [[ -n ${PG_BIN:-} ]]; then echo "$PG_BIN"; return; fi
  local newest
  newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -n $newest && -x $newest/initdb ]]; then echo "$newest"; return; fi
  if command -v initdb >/dev/null 2>&1; then dirname "$(readlink -f "$(command -v initdb)")"; return; fi
  log "no PostgreSQL server binaries found (install the 'postgresql' package)"
  exit 1
}
bin=$(find_bin)

# initdb and the server refuse to run as root: run them as the postgres user then.
if [[ $(id -u) == 0 ]]; then
  owner=postgres
  id "$owner" >/dev/null 2>&1 || { log "user 'postgres' does not exist"; exit 1; }
  as_owner() { runuser -u "$owner" -- "$@"; }
else
  owner=$(id -un)
  as_owner() { "$@"; }
fi

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for _ in $(seq 1 50); do
  port_in_use "$port" || break
  log "port $port is in use, trying $((port + 1))"
  port=$((port + 1))
done
port_in_use "$port" && { log "no free port found"; exit 1; }

mkdir -p "$root"
if [[ -n $(ls -A "$root") ]]; then log "$root is not empty; refusing to reuse it"; exit 1; fi
mkdir -p "$root/sock"
chown -R "$owner" "$root"
chmod 700 "$root"

log "initdb ($("$bin/postgres" --version)) in $root/data as $owner"
as_owner "$bin/initdb" -D "$root/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$root/initdb.log" 2>&1 || {
  cat "$root/initdb.log" >&2
  exit 1
}

log "starting on 127.0.0.1:$port (socket dir $root/sock)"
as_owner "$bin/pg_ctl" -D "$root/data" -l "$root/postgres.log" -w -t 60 \
  -o "-p $port -k $root/sock -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >&2 || {
  cat "$root/postgres.log" >&2
  exit 1
}
echo "$port" >"$root/port"

as_owner "$bin/psql" -h "$root/sock" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt \
  -c "create database $db" >&2

log "ready: postgres://postgres@127.0.0.1:$port/$db"
echo "postgres://postgres@127.0.0.1:$port/$db"
