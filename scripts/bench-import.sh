#!/usr/bin/env bash
# Measures PGN import throughput (games/s, moves/s) on a game file, twice each way, on fresh
# databases: through a running release server (POST /v1/games/import, one request with the
# whole file) and through the command line (arbiter import FILE.pgn). The second run of each
# imports the same file again (nothing new is stored) and shows what recognising it costs.
#
#   scripts/bench-import.sh [FILE.pgn]     # default ../shared/data/games/twic1599.pgn
#
# Needs PostgreSQL on 127.0.0.1:5432 (ARBITER_TEST_DATABASE_URL overrides, as for the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-../shared/data/games/twic1599.pgn}
admin_url=${ARBITER_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
port=${BENCH_PORT:-18282}
http_db=arbiter_bench_import_http_$$
cli_db=arbiter_bench_import_cli_$$

cargo build -q --release --bin arbiter
bin=./target/release/arbiter
cleanup() {
    [[ -n "${server:-}" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
    psql "$admin_url" -qc "DROP DATABASE IF EXISTS $http_db WITH (FORCE)" || true
    psql "$admin_url" -qc "DROP DATABASE IF EXISTS $cli_db WITH (FORCE)" || true
}
trap cleanup EXIT
psql "$admin_url" -qc "CREATE DATABASE $http_db"
psql "$admin_url" -qc "CREATE DATABASE $cli_db"

echo "file: $file ($(grep -c '^\[Event ' "$file") games, $(wc -c <"$file") bytes); $(nproc) cores"

# Through the HTTP service.
export DATABASE_URL=${admin_url%/*}/$http_db
$bin migrate >/dev/null
token=$($bin token create --role arbiter --name bench-import 2>/dev/null)
ARBITER_LOG=warn $bin serve --port "$port" >target/bench-import-server.log 2>&1 &
server=$!
for _ in $(seq 1 50); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.2; done
for run in first second; do
    start=$(date +%s.%N)
    curl -fsS -X POST "http://127.0.0.1:$port/v1/games/import" -H "Authorization: Bearer $token" \
        -H 'content-type: application/x-chess-pgn' --data-binary "@$file" >target/bench-import-$run.json
    end=$(date +%s.%N)
    python3 - "$run" "$start" "$end" target/bench-import-$run.json <<'EOF'
import json, sys
run, start, end, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
report = json.load(open(path))
seconds = end - start
print(f"HTTP {run} import: {report['games']} games ({report['imported']} imported, "
      f"{report['already_imported']} already imported, {report['unreadable']} unreadable, "
      f"{report['failed']} failed), {report['moves_stored']} moves, {report['events_stored']} events "
      f"in {seconds:.1f} s: {report['imported'] / seconds:.1f} games/s, {report['moves_stored'] / seconds:.0f} moves/s")
EOF
done
kill "$server"; wait "$server" 2>/dev/null || true; server=

# Through the command line.
export DATABASE_URL=${admin_url%/*}/$cli_db
for run in first second; do
    /usr/bin/time -f "CLI $run import: %e s wall, %U s user CPU, %M KiB max RSS" \
        $bin import "$file" >target/bench-import-cli-$run.jsonl
done
