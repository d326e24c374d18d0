#!/usr/bin/env bash
# Runs schemathesis (PyPI) against a running arbiter built from this checkout, on a fresh
# database, with a valid arbiter token, and prints its summary (requests made, failures).
#
#   scripts/schemathesis.sh [MAX_SECONDS]        # default 120
#
# Needs PostgreSQL on 127.0.0.1:5432 (ARBITER_TEST_DATABASE_URL overrides, as for the tests)
# and installs schemathesis with pip when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
max_time=${1:-120}
admin_url=${ARBITER_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db=arbiter_schemathesis_$$
db_url=${admin_url%/*}/$db
port=${SCHEMATHESIS_PORT:-18181}

command -v schemathesis >/dev/null || pip install -q 'schemathesis==4.32.5'
cargo build -q --bin arbiter
psql "$admin_url" -qc "CREATE DATABASE $db"
cleanup() {
    [[ -n "${server:-}" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
    psql "$admin_url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
}
trap cleanup EXIT

export DATABASE_URL=$db_url
./target/debug/arbiter migrate >/dev/null
token=$(./target/debug/arbiter token create --role arbiter --name schemathesis 2>/dev/null)
ARBITER_LOG=warn ./target/debug/arbiter serve --port "$port" >"target/schemathesis-server.log" 2>&1 &
server=$!
for _ in $(seq 1 50); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done

# A game to aim at, so that generated requests reach real data too.
game=$(curl -fsS -X POST "http://127.0.0.1:$port/v1/games" -H "Authorization: Bearer $token" \
    -H 'content-type: application/json' \
    -d '{"white":{"name":"A"},"black":{"name":"B"},"event":"Fuzz","round":"1","time_control":{"kind":"blitz","base_ms":300000}}' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["game"]["game_id"])')
echo "schemathesis: server on port $port, game $game"

SCHEMATHESIS_HOOKS=scripts/schemathesis_hooks.py \
    schemathesis run "http://127.0.0.1:$port/api-docs/openapi.json" \
    --header "Authorization: Bearer $token" \
    --checks all \
    --exclude-checks positive_data_acceptance,ignored_auth \
    --max-time "$max_time" \
    --workers 2 \
    --suppress-health-check all \
    --seed 1 \
    "${@:2}"
