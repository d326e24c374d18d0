#!/usr/bin/env bash
# Issue 34 item 6: one instance following a whole Olympiad's boards. Starts a release build of
# arbiter on a fresh database, polling board feeds every second, and runs
# scripts/bench_follow.py: a low-CPU local DGT LiveChess feed serving BOARDS boards of real
# games (TWIC 1599) at tournament pace, with a time scramble before move 40, while the CPU of
# the service and of PostgreSQL's backends of the benchmark database, the service's memory and
# the time from a feed change to the stored event are measured (docs/measurements.md).
#   scripts/bench-follow.sh [BOARDS] [SECONDS] [PACE_S]
# defaults: 1000 boards, 300 s measured, a move every 60 s per board on average.
set -euo pipefail
cd "$(dirname "$0")/.."
admin_url=${ARBITER_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db=arbiter_bench_follow_$$
port=${BENCH_PORT:-18293}
feed_port=${BENCH_FEED_PORT:-18294}
target=${CARGO_TARGET_DIR:-target}
# BENCH_PROFILE=debug tries the script with a debug build (its figures are not the service's).
profile=${BENCH_PROFILE:-release}
[[ $profile == release ]] && cargo build -q --release --bin arbiter
psql "$admin_url" -qc "CREATE DATABASE $db"
cleanup() {
    [[ -n "${server:-}" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
    psql "$admin_url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
}
trap cleanup EXIT
export DATABASE_URL=${admin_url%/*}/$db
"$target/$profile/arbiter" migrate >/dev/null
token=$("$target/$profile/arbiter" token create --role arbiter --name bench 2>/dev/null)
ARBITER_LOG=warn ARBITER_FOLLOW_POLL_MS=1000 ARBITER_FOLLOW_ALLOW_HOSTS=127.0.0.1 \
    "$target/$profile/arbiter" serve --port "$port" >"$target/bench-follow-server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
games=../shared/data/games/twic1599.pgn
[[ -f $games ]] || games=tests/shared/data/games/twic1599.pgn
python3 scripts/bench_follow.py --service "http://127.0.0.1:$port" --token "$token" \
    --service-pid "$server" --database-url "$DATABASE_URL" --feed-port "$feed_port" \
    --games "$games" --boards "${1:-1000}" --seconds "${2:-300}" --pace "${3:-60}"
