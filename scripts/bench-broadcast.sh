#!/usr/bin/env bash
# Starts a release build of arbiter on a fresh database and runs scripts/bench_broadcast.py
# (round PGN build and 304 times, stream latency and fan-out).
#   scripts/bench-broadcast.sh [GAMES] [PLIES]
set -euo pipefail
cd "$(dirname "$0")/.."
admin_url=${ARBITER_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db=arbiter_bench_broadcast_$$
port=${BENCH_PORT:-18283}
cargo build -q --release --bin arbiter
psql "$admin_url" -qc "CREATE DATABASE $db"
cleanup() {
    [[ -n "${server:-}" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
    psql "$admin_url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
}
trap cleanup EXIT
export DATABASE_URL=${admin_url%/*}/$db
./target/release/arbiter migrate >/dev/null
token=$(./target/release/arbiter token create --role arbiter --name bench 2>/dev/null)
ARBITER_LOG=warn ./target/release/arbiter serve --port "$port" >target/bench-broadcast-server.log 2>&1 &
server=$!
for _ in $(seq 1 50); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
python3 scripts/bench_broadcast.py "http://127.0.0.1:$port" "$token" "${1:-50}" "${2:-80}"
