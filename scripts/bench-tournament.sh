#!/usr/bin/env bash
# A whole tournament imported end to end (issue 40, item 2), through a release server on a
# fresh database, every step timed from the client's side (curl), one after the other as an
# arbiter's office would send them:
#
#   scripts/bench-tournament.sh [TRF] [PGN]
#       TRF: a tournament report whose rounds are loaded one by one through
#            POST /v1/tournaments/{id}/rounds/{round}/pairings (default tests/data/gros-2010.trf:
#            52 players, the rounds its player lines hold);
#       PGN: the source of the games (default ../shared/data/games/lichess-2025-05.pgn, games
#            with [%clk] readings). $GAMES (500) games are taken from it in order, again from
#            the start when it has fewer, each given its tournament's Event, a Round "r.b" ($BOARDS
#            boards a round, default 50) and its own id (a repeated game has another Round, so
#            another content-derived id), and imported in one POST /v1/games/import;
#       then the tournament report (GET /v1/tournaments/{id}/trf) and the round PGN of the last
#       round (GET /v1/rounds/pgn).
#
# Prints each step's wall time, the games/s and moves/s of the PGN import, and the total. The
# import is sequential (one game after the other, the moves in appends of 200 through the
# engine, src/app/import.rs): its figure is one office importing one file, not the service's
# capacity. Environment: ARBITER_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
# BENCH_PORT (default: a free port), GAMES, BOARDS, ARBITER_BIN, SKIP_BUILD=1 (no release build
# first), KEEP_DB=1.
set -euo pipefail
cd "$(dirname "$0")/.."
trf=${1:-tests/data/gros-2010.trf}
source_pgn=${2:-../shared/data/games/lichess-2025-05.pgn}
games=${GAMES:-500}
boards=${BOARDS:-50}
admin_url=${ARBITER_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db=arbiter_bench_tournament_$$
logdir=target/bench-tournament
mkdir -p "$logdir"

if [[ -z "${SKIP_BUILD:-}" ]]; then
    echo "building (release) ..."
    cargo build -q --release --bin arbiter
fi
arbiter=${ARBITER_BIN:-./target/release/arbiter}

psql "$admin_url" -qc "CREATE DATABASE $db"
cleanup() {
    if [[ -n "${server:-}" ]]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    if [[ -z "${KEEP_DB:-}" ]]; then
        psql "$admin_url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
    else
        echo "kept database $db"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export DATABASE_URL=${admin_url%/*}/$db
$arbiter migrate >/dev/null
token=$($arbiter token create --role arbiter --name bench-tournament 2>/dev/null)
port=${BENCH_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
ARBITER_LOG=warn $arbiter serve --port "$port" >"$logdir/server.log" 2>&1 &
server=$!
base=http://127.0.0.1:$port
for _ in $(seq 1 100); do
    curl -fsS "$base/readyz" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { echo "the server exited:" >&2; cat "$logdir/server.log" >&2; exit 1; }
    sleep 0.2
done
curl -fsS "$base/readyz" >/dev/null
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; arbiter on $base, database $db"

name="Bench Open $$"
pgn=$logdir/tournament.pgn
# The tournament's games: GAMES games of the source, tagged with the tournament's event and
# their round and board.
python3 - "$source_pgn" "$pgn" "$games" "$boards" "$name" <<'EOF'
import re, sys
source, out, count, boards, event = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
text = open(source, encoding="utf-8").read()
records = [r for r in re.split(r"\n(?=\[Event )", text) if r.strip()]
with open(out, "w", encoding="utf-8") as f:
    for i in range(count):
        record = records[i % len(records)]
        record = re.sub(r'^\[Event "[^"]*"\]', f'[Event "{event}"]', record, count=1, flags=re.M)
        record = re.sub(r'^\[Round "[^"]*"\]', f'[Round "{i // boards + 1}.{i % boards + 1}"]', record, count=1, flags=re.M)
        f.write(record.strip() + "\n\n")
print(f"{count} games from {len(records)} of {source}", file=sys.stderr)
EOF
clocks=$(grep -o '%clk' "$pgn" | wc -l)
echo "PGN: $games games, $(wc -c <"$pgn") bytes, $clocks clock readings; TRF: $trf"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
auth=(-H "Authorization: Bearer $token")
total_start=$(now)

start=$(now)
tournament=$(curl -fsS -X POST "$base/v1/tournaments" "${auth[@]}" -H 'content-type: application/json' \
    -d "{\"name\": \"$name\", \"site\": \"Bench\", \"starts_on\": \"2026-11-01\", \"ends_on\": \"2026-11-09\",
         \"time_control\": {\"kind\": \"standard\", \"base_ms\": 5400000, \"increment_ms\": 30000},
         \"arbiters\": [\"IA Bench Arbiter\"]}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tournament_id"])')
echo "tournament created in $(secs "$start" "$(now)") s"

# The rounds the TRF's player lines pair (columns of 10 characters from the 92nd, the
# opponent in the first 4: the last round in which some line names one).
rounds=$(python3 - "$trf" <<'EOF'
import sys
last = 0
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("001"):
        body = line.rstrip("\n")[91:]
        for r, i in enumerate(range(0, len(body), 10), start=1):
            opponent = body[i:i + 4].strip()
            if opponent and opponent != "0000":
                last = max(last, r)
print(last)
EOF
)
body=$(python3 -c 'import json, sys; print(json.dumps({"trf": open(sys.argv[1], encoding="utf-8").read()}))' "$trf")
start=$(now)
loaded=0
for round in $(seq 1 "$rounds"); do
    answer=$(curl -sS -X POST "$base/v1/tournaments/$tournament/rounds/$round/pairings" "${auth[@]}" \
        -H 'content-type: application/json' --data-binary "$body")
    n=$(python3 -c 'import json, sys; print(len(json.loads(sys.argv[1])["games"]))' "$answer") || {
        echo "round $round was not loaded: $answer" >&2
        exit 1
    }
    loaded=$((loaded + n))
done
trf_s=$(secs "$start" "$(now)")
echo "TRF: $rounds rounds, $loaded boards loaded in $trf_s s"

start=$(now)
curl -fsS -X POST "$base/v1/games/import" "${auth[@]}" -H 'content-type: application/x-chess-pgn' \
    --data-binary "@$pgn" >"$logdir/import.json"
end=$(now)
import_s=$(secs "$start" "$end")
python3 - "$logdir/import.json" "$import_s" <<'EOF'
import json, sys
report, seconds = json.load(open(sys.argv[1])), float(sys.argv[2])
print(f"PGN import: {report['games']} games ({report['imported']} imported, {report['unreadable']} unreadable, "
      f"{report['failed']} failed), {report['moves_stored']} moves, {report['events_stored']} events in "
      f"{seconds:.2f} s: {report['imported'] / seconds:.1f} games/s, {report['moves_stored'] / seconds:.0f} moves/s, "
      f"{report['events_stored'] / seconds:.0f} events/s")
EOF

start=$(now)
curl -fsS "$base/v1/tournaments/$tournament/trf" "${auth[@]}" >"$logdir/report.trf"
echo "tournament report: $(wc -l <"$logdir/report.trf") lines in $(secs "$start" "$(now)") s"
last_round=$(((games + boards - 1) / boards))
start=$(now)
curl -fsS -G "$base/v1/rounds/pgn" --data-urlencode "event=$name" --data-urlencode "round=$last_round" \
    "${auth[@]}" >"$logdir/round.pgn" || echo "(the round PGN was not answered)"
echo "round $last_round PGN: $(grep -c '^\[Event ' "$logdir/round.pgn" || true) games in $(secs "$start" "$(now)") s"
echo "TOTAL: $(secs "$total_start" "$(now)") s (TRF $trf_s s, PGN import $import_s s)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
problems=$(grep -ciE 'error|panic' "$logdir/server.log" || true)
echo "server log: $problems line(s) with error/panic ($logdir/server.log)"
