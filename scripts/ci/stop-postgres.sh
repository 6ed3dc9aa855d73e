#!/usr/bin/env bash
# Stops a cluster started by start-postgres.sh and deletes its directory. Safe to call twice, or
# when the start failed half-way.
set -uo pipefail

root=${1:?usage: stop-postgres.sh ROOT_DIR}
[[ -d $root ]] || exit 0

bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
[[ -x ${bin:-}/pg_ctl ]] || bin=$(dirname "$(readlink -f "$(command -v pg_ctl 2>/dev/null || echo /nonexistent)")")

if [[ -f $root/data/postmaster.pid && -x $bin/pg_ctl ]]; then
  echo "[stop-postgres] stopping the cluster in $root" >&2
  if [[ $(id -u) == 0 ]]; then
    runuser -u postgres -- "$bin/pg_ctl" -D "$root/data" -m fast -w -t 30 stop >&2 || true
  else
    "$bin/pg_ctl" -D "$root/data" -m fast -w -t 30 stop >&2 || true
  fi
fi
rm -rf "$root"
