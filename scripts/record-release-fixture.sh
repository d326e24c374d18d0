#!/usr/bin/env bash
# Records the upgrade test's fixture for one release: runs that release's `arbiter` against a
# fresh database, records the games of scripts/record_release_games.py through its HTTP API,
# and writes the database as plain SQL (tests/fixtures/releases/README.md).
#
#   scripts/record-release-fixture.sh BIN OUT.sql [ADMIN_URL]
#
# BIN is the release's binary (built from its tag: see the README), OUT.sql the dump; what
# the release answers to `GET /v1/games/{id}` for each game goes next to it, in
# OUT.reads.json.
# ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) is a maintenance database
# of a server where the user may create databases.
set -euo pipefail
bin=$(realpath "$1")
out=$2
admin=${3:-postgres://postgres@127.0.0.1:5432/postgres}
here=$(dirname "$(realpath "$0")")
db=arbiter_release_fixture_$$
port=$((20000 + $$ % 10000))
psql -qX "$admin" -c "CREATE DATABASE $db"
export DATABASE_URL=${admin%/*}/$db
server=
cleanup() {
    [[ -n $server ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    psql -qX "$admin" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"
}
trap cleanup EXIT
"$bin" migrate >/dev/null
arbiter=$("$bin" token create --role arbiter --name "Chief arbiter" 2>/dev/null)
appeals=$("$bin" token create --role appeals --name "Appeals committee" 2>/dev/null)
ARBITER_LOG=warn "$bin" serve --port "$port" >"${TMPDIR:-/tmp}/record-release-fixture.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.2
done
python3 "$here/record_release_games.py" "http://127.0.0.1:$port" "$arbiter" "$appeals" "${out%.sql}.reads.json"
kill "$server"
wait "$server" 2>/dev/null || true
server=
# Plain SQL with one INSERT per row (no COPY, no psql meta-commands) and no owners, so that
# the test can execute it with sqlx as any user; the grants to `arbiter_service` stay (the
# role must exist first: it is server-wide, and the test creates it as 0002_access.sql does).
# pg_dump's \restrict/\unrestrict lines (psql meta-commands, since 15.14) are left out.
pg_dump --no-owner --inserts --no-comments "$DATABASE_URL" | sed -E '/^\\(un)?restrict /d' > "$out"
"$bin" --version >/dev/null
echo "wrote $out ($(wc -c < "$out") bytes) with $("$bin" --version)"
