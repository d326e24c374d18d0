#!/usr/bin/env bash
# Runs schemathesis (PyPI) against a running arbiter built from this checkout, on a fresh
# database, with a valid arbiter token, and prints its summary (requests made, failures).
#
#   scripts/schemathesis.sh [MAX_SECONDS]        # default 120
#
# The database: a fresh one on ARBITER_TEST_DATABASE_URL's server when that is set (as for
# the tests); otherwise the service's own private cluster (`arbiter serve --data-dir`) in a
# temporary directory, so only PostgreSQL's binaries are needed. Installs schemathesis with
# pip when it is missing. One worker: with two, schemathesis on CPython 3.11.7 failed runs
# with "SystemError: AST constructor recursion depth mismatch" (CPython gh-106905) in 3 runs
# of 3, and one worker generated more cases in the same minute on this 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
max_time=${1:-120}
# A free port unless one is given (other checkouts may run this script at the same time).
port=${SCHEMATHESIS_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}

command -v schemathesis >/dev/null || pip install -q 'schemathesis==4.32.5'
cargo build -q --bin arbiter

database_args=()
if [[ -n "${ARBITER_TEST_DATABASE_URL:-}" ]]; then
    admin_url=$ARBITER_TEST_DATABASE_URL
    db=arbiter_schemathesis_$$
    psql "$admin_url" -qc "CREATE DATABASE $db"
    export DATABASE_URL=${admin_url%/*}/$db
else
    unset DATABASE_URL
    data_dir=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-schemathesis-XXXXXX")
    database_args=(--data-dir "$data_dir")
fi
cleanup() {
    if [[ -n "${server:-}" ]]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    if [[ -n "${db:-}" ]]; then
        psql "$admin_url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
    fi
    if [[ -n "${data_dir:-}" ]]; then
        rm -rf -- "$data_dir"
    fi
}
trap cleanup EXIT

# The failed-authentication throttle (429 after 10 failures a minute from one address, its own
# test in tests/api/operations.rs) is raised out of reach here: schemathesis sends hundreds of
# requests with a wrong token on purpose, and its `ignored_auth` check expects each to be
# answered 401, which it is until the throttle steps in.
ARBITER_LOG=warn ./target/debug/arbiter serve "${database_args[@]}" --port "$port" \
    --auth-failures-per-minute 1000000 \
    >"target/schemathesis-server.log" 2>&1 &
server=$!
for _ in $(seq 1 300); do
    kill -0 "$server" 2>/dev/null || { cat target/schemathesis-server.log; exit 1; }
    curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null || { cat target/schemathesis-server.log; exit 1; }
# With the private cluster, this attaches to the cluster the server started.
# The token holds the fair-play capability too (as the chief arbiter): without it the
# restricted fair-play routes answer 404 to everyone, by design (a reader must not learn that
# fair-play records exist), and schemathesis would find a game it just created "not found"
# there; with it, those routes are tested like the others. The 404 for other callers has its
# own tests (tests/api/fair_play.rs).
token=$(./target/debug/arbiter token "${database_args[@]}" create --role arbiter --name schemathesis \
    --fair-play chief_arbiter 2>/dev/null)

# A game to aim at, so that generated requests reach real data too.
game=$(curl -fsS -X POST "http://127.0.0.1:$port/v1/games" -H "Authorization: Bearer $token" \
    -H 'content-type: application/json' \
    -d '{"white":{"name":"A"},"black":{"name":"B"},"event":"Fuzz","round":"1","time_control":{"kind":"blitz","base_ms":300000}}' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["game"]["game_id"])')
echo "schemathesis: server on port $port, game $game"

# Every check runs. scripts/schemathesis.toml lists the operations that may refuse a
# schema-valid request with a 422 (or 400) naming the field, and why (what JSON Schema cannot
# say); scripts/schemathesis_hooks.py drops the positive cases whose header breaks its
# declared pattern (see there).
SCHEMATHESIS_HOOKS=scripts/schemathesis_hooks.py \
    schemathesis --config-file scripts/schemathesis.toml run "http://127.0.0.1:$port/api-docs/openapi.json" \
    --header "Authorization: Bearer $token" \
    --checks all \
    --max-time "$max_time" \
    --workers 1 \
    --suppress-health-check all \
    --seed 1 \
    "${@:2}"
