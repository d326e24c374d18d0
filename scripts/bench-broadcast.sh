#!/usr/bin/env bash
# Starts a release build of arbiter on a fresh database and measures the broadcast.
#
#   scripts/bench-broadcast.sh [GAMES] [PLIES]
#       scripts/bench_broadcast.py: round PGN build and 304 times, stream latency, fan-out.
#   scripts/bench-broadcast.sh audience [STREAMS] [POLLS_PER_S] [BOARDS] [MOVES_PER_S] [SECONDS]
#       examples/bench_broadcast.rs (issue 40): STREAMS public round streams held (default
#       10000), the public round PGN polled at POLLS_PER_S with If-None-Match (default 1000),
#       while a round of BOARDS boards (default 200) is recorded at MOVES_PER_S (default 2)
#       for SECONDS (default 60), the polls over POLL_CONNECTIONS keep-alive connections
#       (default 128). The service runs with --public-broadcast; the last line
#       printed is a one-line summary.
set -euo pipefail
cd "$(dirname "$0")/.."
admin_url=${ARBITER_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db=arbiter_bench_broadcast_$$
port=${BENCH_PORT:-18283}
mode=pgn
if [[ "${1:-}" == audience ]]; then
    mode=audience
    shift
    # Every stream is a socket in the service and one in the client: raise the open-file
    # limit of both (they inherit it from this shell) as far as the hard limit allows.
    ulimit -n "$(ulimit -Hn)"
    cargo build -q --release --bin arbiter --example bench_broadcast
else
    cargo build -q --release --bin arbiter
fi
target=${CARGO_TARGET_DIR:-target}
psql "$admin_url" -qc "CREATE DATABASE $db"
cleanup() {
    [[ -n "${server:-}" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
    psql "$admin_url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
}
trap cleanup EXIT
export DATABASE_URL=${admin_url%/*}/$db
"$target/release/arbiter" migrate >/dev/null
token=$("$target/release/arbiter" token create --role arbiter --name bench 2>/dev/null)
ARBITER_LOG=warn "$target/release/arbiter" serve --port "$port" --public-broadcast >"$target/bench-broadcast-server.log" 2>&1 &
server=$!
for _ in $(seq 1 50); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
if [[ $mode == audience ]]; then
    echo "load before: $(uptime)"
    "$target/release/examples/bench_broadcast" --base "http://127.0.0.1:$port" --token "$token" \
        --server-pid "$server" --streams "${1:-10000}" --polls-per-s "${2:-1000}" \
        --boards "${3:-200}" --moves-per-s "${4:-2}" --seconds "${5:-60}" \
        --poll-connections "${POLL_CONNECTIONS:-128}"
    echo "load after: $(uptime)"
else
    python3 scripts/bench_broadcast.py "http://127.0.0.1:$port" "$token" "${1:-50}" "${2:-80}"
fi
