#!/usr/bin/env bash
# The write path under load (issue 9), on a fresh database and a release server started here:
#
#   scripts/bench-write.sh [SECONDS]          # default 20 s per run
#       For clients in $CLIENTS (1 4 16): N HTTP clients recording real games one move per
#       request (examples/bench_write/, keep-alive, one connection each), then N pgbench
#       clients doing single-row INSERT + commit into a table shaped like `events`; then
#       $BATCH-event appends (default 100) against pgbench INSERT ... SELECT ... FROM
#       generate_series(1, $BATCH). Prints events/s, p50/p99 and the ratios. In the batch runs
#       the games are cut to a multiple of $BATCH plies (shorter ones are left out), so every
#       append carries exactly $BATCH moves; each game also costs one creation request
#       (creates_per_s), which the clients' time includes.
#   scripts/bench-write.sh peer [SECONDS]
#       Issue 19's comparison, one command: at $PEER_CLIENTS (16) clients, $ROUNDS (3) rounds
#       interleaved, each round running our HTTP single-move appends, the peer event store
#       (Message DB's write_message from pgbench, ../shared/bench/peer-messagedb.sh, which
#       also runs a raw single-row INSERT), then our $BATCH-event appends and pgbench's
#       $BATCH-row INSERT ... SELECT into the events-shaped table. Prints every round and the
#       medians with the ratios the issue sets as targets (>= 1.5x the peer and >= 0.3x the
#       raw insert for single moves; >= 0.25x the raw $BATCH-row insert for batches).
#   scripts/bench-write.sh growth [SECONDS]
#       The single-move rate and p99 at $GROWTH_CLIENTS (4 16) clients with $GROWTH_STEPS
#       (0 1000000 10000000) events already stored; the history is stored through the
#       library's store (`bench_write load`: real games, 100-event appends, 2 loaders), then
#       VACUUM ANALYZE and CHECKPOINT. Each step measures $GROWTH_ROUNDS (3) rounds, the clients'
#       runs interleaved, and prints every run, the medians and each median's change against
#       the first step's (target: within 15 %). Smoke run: GROWTH_STEPS="0 20000" GROWTH_ROUNDS=1.
#   scripts/bench-write.sh claim [SECONDS]
#       Claim rulings in a 300-ply game at $CLAIM_CLIENTS (16) concurrent clients, p99 end to
#       end (target: at most 10 ms). Each client claims in $CLAIM_GAMES (4) games in turn; every
#       claim and decline add 4 events to a game's log (longest_log in the RESULT line).
#
# Environment: ARBITER_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
# BENCH_PORT (default: a free port), WARMUP (2 s, not measured), CLIENTS, BATCH,
# GROWTH_STEPS, GROWTH_CLIENTS, GROWTH_ROUNDS, CLAIM_CLIENTS, CLAIM_GAMES, PEER_CLIENTS, ROUNDS, PEER_SCRIPT,
# ARBITER_BIN, SKIP_BUILD=1 (no release build first), KEEP_DB=1 (do not drop the database). The service's own settings come from the
# environment too (e.g. ARBITER_GROUP_COMMIT_WRITERS=0 ARBITER_TOKEN_CACHE_MS=0 for the write
# path without group commit and token memory).
#
# "events/s" counts the moves (claims) the clients recorded and the service stored; the
# decisions it appended with them and `game_created` are not counted (the client's RESULT
# lines give them as envelopes_per_s). pgbench's table has the columns, types, constraints and
# indexes of `events` but no trigger (no hash chain), and rows of the same width (a move
# payload, a recorded_by like the service's, two 32-byte hashes).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=write
case "${1:-}" in
    write | growth | claim | peer) mode=$1; shift ;;
esac
seconds=${1:-20}
warmup=${WARMUP:-2}
clients_list=${CLIENTS:-1 4 16}
batch=${BATCH:-100}
growth_steps=${GROWTH_STEPS:-0 1000000 10000000}
growth_clients=${GROWTH_CLIENTS:-4 16}
growth_rounds=${GROWTH_ROUNDS:-3}
claim_clients=${CLAIM_CLIENTS:-16}
claim_games=${CLAIM_GAMES:-4}
admin_url=${ARBITER_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db=arbiter_bench_write_$$
url=${admin_url%/*}/$db
logdir=target/bench-write
mkdir -p "$logdir"

peer_script=${PEER_SCRIPT:-../shared/bench/peer-messagedb.sh}
peer_clients=${PEER_CLIENTS:-16}
rounds=${ROUNDS:-3}
if [[ $mode == peer && ! -f $peer_script ]]; then
    echo "the peer benchmark is missing: $peer_script (set PEER_SCRIPT)" >&2
    exit 1
fi
if [[ $mode == write || $mode == peer ]] && ! command -v pgbench >/dev/null; then
    echo "pgbench is missing (Debian: apt-get install -y postgresql-contrib)" >&2
    exit 1
fi

# SKIP_BUILD=1: measure the binaries already built (e.g. while the tree has changed since).
if [[ -z "${SKIP_BUILD:-}" ]]; then
    echo "building (release) ..."
    cargo build -q --release --bin arbiter --example bench_write
fi
# ARBITER_BIN: another build of the service to measure (e.g. the release before a change).
target=${CARGO_TARGET_DIR:-target}
arbiter=${ARBITER_BIN:-$target/release/arbiter}
bench=$target/release/examples/bench_write

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
export DATABASE_URL=$url
$arbiter migrate >/dev/null
token=$($arbiter token create --role arbiter --name bench 2>/dev/null)
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

psql "$admin_url" -Atc "SELECT 'server ' || version()"
psql "$admin_url" -Atc "SELECT 'fsync=' || current_setting('fsync') || ' synchronous_commit=' || current_setting('synchronous_commit') || ' wal_sync_method=' || current_setting('wal_sync_method') || ' shared_buffers=' || current_setting('shared_buffers')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; mode=$mode, ${seconds} s per run after ${warmup} s warm-up; arbiter on $base, database $db"

# The value of KEY in a RESULT line.
val() { grep -Eo "(^| )$1=[^ ]*" <<<"$2" | head -1 | cut -d= -f2; }
# The postmaster (the parent of the checkpointer): the cluster's CPU is measured under it.
checkpointer=$(psql "$url" -Atc "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'")
postmaster=$(awk '{ split($0, a, ") "); split(a[2], f, " "); print f[2] }' "/proc/$checkpointer/stat" 2>/dev/null || true)
watch=(--server-pid "$server")
[[ -n "$postmaster" ]] && watch+=(--postmaster-pid "$postmaster")

# Runs the client; prints its RESULT line (the rest of its output goes to stderr). The CPU
# figures cover the measured window: client_cpu_pct, server_cpu_pct and db_cpu_pct (the whole
# PostgreSQL cluster), in % of one core.
http_run() {
    local name=$1; shift
    local line
    "$bench" "$@" --url "$base" --token "$token" --seconds "$seconds" --warmup "$warmup" "${watch[@]}" \
        >"$logdir/$name.out" 2>"$logdir/$name.err" || {
        echo "bench_write failed ($name):" >&2
        cat "$logdir/$name.err" "$logdir/$name.out" >&2
        exit 1
    }
    grep -v '^RESULT' "$logdir/$name.out" | sed 's/^/  /' >&2
    line=$(grep '^RESULT' "$logdir/$name.out")
    if [[ $(val errors "$line") != 0 ]]; then
        echo "WARNING: $name: $(val errors "$line") error answers ($(val conflicts "$line") of them 409); see $logdir/$name.out" >&2
    fi
    echo "$line"
}

make_pgbench_table() {
    psql "$url" -q <<'SQL'
DROP TABLE IF EXISTS bench_events;
CREATE TABLE bench_events (
    position     bigint      GENERATED ALWAYS AS IDENTITY,
    tx_id        xid8        NOT NULL DEFAULT pg_current_xact_id(),
    game_id      uuid        NOT NULL,
    seq          bigint      NOT NULL,
    event_id     uuid        NOT NULL,
    batch_id     uuid        NOT NULL,
    event_type   text        NOT NULL,
    payload      jsonb       NOT NULL,
    metadata     jsonb       NOT NULL DEFAULT '{}'::jsonb,
    recorded_at  timestamptz NOT NULL DEFAULT now(),
    occurred_at  timestamptz,
    recorded_by  text        NOT NULL,
    prev_hash    bytea       NOT NULL,
    hash         bytea       NOT NULL,
    CONSTRAINT bench_events_game_seq_key PRIMARY KEY (game_id, seq),
    CONSTRAINT bench_events_game_event_id_key UNIQUE (game_id, event_id),
    CONSTRAINT bench_events_seq_positive CHECK (seq >= 1),
    CONSTRAINT bench_events_type_matches_payload CHECK (payload ->> 'type' = event_type),
    CONSTRAINT bench_events_payload_is_object CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT bench_events_metadata_is_object CHECK (jsonb_typeof(metadata) = 'object')
);
CREATE INDEX ON bench_events (tx_id, position);
CREATE INDEX ON bench_events (event_type, game_id);
SQL
}

# A recorded_by as wide as the service's ("NAME (ROLE, token UUID)") and two 32-byte hashes.
recorder="bench (arbiter, token 6f1c1a52-5bb0-4f57-9a44-4d7b4c8e2a10)"
h1='\x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'
h2='\x60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752'
single_sql=$(mktemp)
batch_sql=$(mktemp)
trap 'rm -f "$single_sql" "$batch_sql"; cleanup' EXIT
cat >"$single_sql" <<SQL
\\set seq random(1, 1000000000)
INSERT INTO bench_events (game_id, seq, event_id, batch_id, event_type, payload, recorded_by, prev_hash, hash) VALUES (gen_random_uuid(), :seq, gen_random_uuid(), gen_random_uuid(), 'move', '{"by": "white", "san": "Nf3", "type": "move"}', '$recorder', '$h1', '$h2');
SQL
cat >"$batch_sql" <<SQL
INSERT INTO bench_events (game_id, seq, event_id, batch_id, event_type, payload, recorded_by, prev_hash, hash) SELECT g.game_id, s, gen_random_uuid(), g.batch_id, 'move', '{"by": "white", "san": "Nf3", "type": "move"}', '$recorder', '$h1', '$h2' FROM (SELECT gen_random_uuid() AS game_id, gen_random_uuid() AS batch_id) g, generate_series(1, $batch) s;
SQL

# Runs pgbench with SCRIPT at CLIENTS for the run's length; prints "rows/s p50_ms p99_ms".
pgbench_run() {
    local script=$1 clients=$2 rows=$3 name=$4
    local threads=$((clients < 2 ? clients : 2))
    local prefix="$logdir/pgbench-$name"
    rm -f "$prefix".*
    psql "$url" -qc CHECKPOINT
    # Without TLS, like the service's own connections (tls-none): the same protocol cost.
    (cd "$logdir" && PGSSLMODE=disable pgbench -n -M prepared -f "$script" -c "$clients" -j "$threads" -T "$seconds" \
        -l --log-prefix="pgbench-$name" "$url") >"$prefix.out" 2>&1 || {
        echo "pgbench failed:" >&2
        cat "$prefix.out" >&2
        exit 1
    }
    local tps
    tps=$(grep -Eo 'tps = [0-9.]+' "$prefix.out" | head -1 | cut -d' ' -f3)
    # Per-transaction log: client, transaction, latency in microseconds, ...
    cat "$prefix".[0-9]* | awk '{ print $3 }' | sort -n >"$prefix.latencies"
    local n p50 p99
    n=$(wc -l <"$prefix.latencies")
    p50=$(awk -v n="$n" 'NR == int(n * 0.50 + 0.999) { printf "%.2f", $1 / 1000 }' "$prefix.latencies")
    p99=$(awk -v n="$n" 'NR == int(n * 0.99 + 0.999) { printf "%.2f", $1 / 1000 }' "$prefix.latencies")
    rm -f "$prefix".[0-9]* "$prefix.latencies"
    awk -v t="$tps" -v r="$rows" -v a="$p50" -v b="$p99" 'BEGIN { printf "%.1f %s %s\n", t * r, a, b }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

case $mode in
write)
    make_pgbench_table
    single_rows=()
    batch_rows=()
    for clients in $clients_list; do
        psql "$url" -qc CHECKPOINT
        echo "== $clients client(s): HTTP single-move appends" >&2
        h=$(http_run "moves-c$clients-b1" moves --clients "$clients")
        echo "$h"
        echo "== $clients client(s): pgbench single-row INSERT + commit" >&2
        read -r p_rate p_p50 p_p99 < <(pgbench_run "$single_sql" "$clients" 1 "single-c$clients")
        echo "PGBENCH kind=single clients=$clients rows_per_s=$p_rate p50_ms=$p_p50 p99_ms=$p_p99"
        single_rows+=("$(printf '%7s | %13s | %7s | %7s | %6s%% | %6s%% | %6s%% | %14s | %7s | %7s | %5s' "$clients" \
            "$(val events_per_s "$h")" "$(val p50_ms "$h")" "$(val p99_ms "$h")" \
            "$(val client_cpu_pct "$h")" "$(val server_cpu_pct "$h")" "$(val db_cpu_pct "$h")" \
            "$p_rate" "$p_p50" "$p_p99" "$(ratio "$(val events_per_s "$h")" "$p_rate")")")

        psql "$url" -qc CHECKPOINT
        echo "== $clients client(s): HTTP $batch-event appends" >&2
        h=$(http_run "moves-c$clients-b$batch" moves --clients "$clients" --batch "$batch")
        echo "$h"
        echo "== $clients client(s): pgbench $batch-row INSERT ... SELECT generate_series" >&2
        read -r p_rate p_p50 p_p99 < <(pgbench_run "$batch_sql" "$clients" "$batch" "batch-c$clients")
        echo "PGBENCH kind=batch$batch clients=$clients rows_per_s=$p_rate p50_ms=$p_p50 p99_ms=$p_p99"
        batch_rows+=("$(printf '%7s | %13s | %7s | %7s | %6s%% | %6s%% | %6s%% | %14s | %7s | %7s | %5s' "$clients" \
            "$(val events_per_s "$h")" "$(val p50_ms "$h")" "$(val p99_ms "$h")" \
            "$(val client_cpu_pct "$h")" "$(val server_cpu_pct "$h")" "$(val db_cpu_pct "$h")" \
            "$p_rate" "$p_p50" "$p_p99" "$(ratio "$(val events_per_s "$h")" "$p_rate")")")
    done
    header="clients | HTTP events/s | p50 ms  | p99 ms  | cli CPU | srv CPU | db CPU  | pgbench rows/s | p50 ms  | p99 ms  | ratio"
    echo
    echo "Single-event appends (one move per request) vs single-row INSERT + commit (target ratio >= 0.5 at 16):"
    echo "$header"
    printf '%s\n' "${single_rows[@]}"
    echo
    echo "$batch-event appends vs $batch-row INSERT ... SELECT ... generate_series(1, $batch) (target ratio >= 0.25):"
    echo "$header"
    printf '%s\n' "${batch_rows[@]}"
    ;;
peer)
    make_pgbench_table
    median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    ours=() peers=() raws=() ours_batch=() raws_batch=() p99s=()
    for round in $(seq 1 "$rounds"); do
        psql "$url" -qc CHECKPOINT
        echo "== round $round: $peer_clients client(s), HTTP single-move appends" >&2
        h=$(http_run "peer-moves-r$round" moves --clients "$peer_clients")
        echo "$h"
        ours+=("$(val events_per_s "$h")")
        p99s+=("$(val p99_ms "$h")")
        echo "== round $round: the peer (Message DB write_message) and a raw single-row INSERT" >&2
        peer_out=$(PG_ADMIN_URL=${admin_url%/*} bash "$peer_script" "$seconds" "$peer_clients")
        echo "$peer_out" | sed "s/^/PEER round=$round /"
        peers+=("$(awk '$1 == "messagedb_write_message" { print $2 }' <<<"$peer_out")")
        raws+=("$(awk '$1 == "raw_single_insert" { print $2 }' <<<"$peer_out")")
        psql "$url" -qc CHECKPOINT
        echo "== round $round: HTTP $batch-event appends" >&2
        h=$(http_run "peer-batch-r$round" moves --clients "$peer_clients" --batch "$batch")
        echo "$h"
        ours_batch+=("$(val events_per_s "$h")")
        echo "== round $round: pgbench $batch-row INSERT ... SELECT" >&2
        read -r p_rate _ _ < <(pgbench_run "$batch_sql" "$peer_clients" "$batch" "peer-batch-r$round")
        echo "PGBENCH round=$round kind=batch$batch clients=$peer_clients rows_per_s=$p_rate"
        raws_batch+=("$p_rate")
    done
    m_ours=$(echo "${ours[*]}" | median)
    m_peer=$(echo "${peers[*]}" | median)
    m_raw=$(echo "${raws[*]}" | median)
    m_ours_batch=$(echo "${ours_batch[*]}" | median)
    m_raw_batch=$(echo "${raws_batch[*]}" | median)
    m_p99=$(echo "${p99s[*]}" | median)
    # The quotient itself, three decimals and unrounded against the target (0.246 is not 0.25).
    exact() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
    verdict() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { print (a / b >= t ? "met" : "NOT met") }'; }
    echo
    echo "Medians of $rounds interleaved rounds, $peer_clients clients, ${seconds} s each:"
    echo "  rounds: ours ${ours[*]}; peer ${peers[*]}; raw ${raws[*]}; ours x$batch ${ours_batch[*]}; raw x$batch ${raws_batch[*]}"
    echo "  single-move appends (HTTP, ours):       $m_ours events/s (p99 $m_p99 ms)"
    echo "  Message DB write_message (the peer):    $m_peer events/s"
    echo "  raw single-row INSERT:                   $m_raw rows/s"
    echo "  ours / peer:  $(exact "$m_ours" "$m_peer")   (target >= 1.5: $(verdict "$m_ours" "$m_peer" 1.5))"
    echo "  ours / raw:   $(exact "$m_ours" "$m_raw")   (target >= 0.3: $(verdict "$m_ours" "$m_raw" 0.3))"
    echo "  $batch-event appends (HTTP, ours):       $m_ours_batch events/s"
    echo "  raw $batch-row INSERT ... SELECT:        $m_raw_batch rows/s"
    echo "  ours / raw:   $(exact "$m_ours_batch" "$m_raw_batch")   (target >= 0.25: $(verdict "$m_ours_batch" "$m_raw_batch" 0.25))"
    ;;
growth)
    median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    rows=() medians=() changes=()
    declare -A first_rate=()
    for step in $growth_steps; do
        stored=$(psql "$url" -Atc "SELECT count(*) FROM events")
        if ((step > stored)); then
            echo "== loading $((step - stored)) events of history (to $step)" >&2
            "$bench" load --database-url "$url" --events "$((step - stored))" | tee -a "$logdir/load.out" >&2
            psql "$url" -qc "VACUUM ANALYZE events" -c "VACUUM ANALYZE games" -c CHECKPOINT
        fi
        stored=$(psql "$url" -Atc "SELECT count(*) FROM events")
        size=$(psql "$url" -Atc "SELECT pg_size_pretty(pg_total_relation_size('events'))")
        declare -A rates=() p99s=()
        for round in $(seq 1 "$growth_rounds"); do
            for clients in $growth_clients; do
                psql "$url" -qc CHECKPOINT
                echo "== $stored events stored ($size), round $round: $clients client(s), single-move appends" >&2
                h=$(http_run "growth-$step-c$clients-r$round" moves --clients "$clients")
                echo "$h stored=$stored round=$round"
                rates[$clients]+="$(val events_per_s "$h") "
                p99s[$clients]+="$(val p99_ms "$h") "
                rows+=("$(printf '%13s | %9s | %7s | %5s | %13s | %7s | %7s | %6s%% | %6s%%' "$stored" "$size" "$clients" \
                    "$round" "$(val events_per_s "$h")" "$(val p50_ms "$h")" "$(val p99_ms "$h")" \
                    "$(val server_cpu_pct "$h")" "$(val db_cpu_pct "$h")")")
            done
        done
        for clients in $growth_clients; do
            m=$(echo "${rates[$clients]}" | median)
            medians+=("$(printf '%13s | %7s | %13s | %7s | %s' "$stored" "$clients" "$m" \
                "$(echo "${p99s[$clients]}" | median)" "${rates[$clients]}")")
            if [[ -z "${first_rate[$clients]:-}" ]]; then first_rate[$clients]=$m; fi
            changes+=("$(awk -v a="$m" -v b="${first_rate[$clients]}" -v s="$stored" -v c="$clients" \
                'BEGIN { printf "%13s stored, %3s clients: %+.1f %% against the first step", s, c, 100 * (a - b) / b }')")
        done
        unset rates p99s
    done
    echo
    echo "Single-move appends with history already stored, every run:"
    echo "stored before |   on disk | clients | round | HTTP events/s | p50 ms  | p99 ms  | srv CPU | db CPU"
    printf '%s\n' "${rows[@]}"
    echo
    echo "Medians of $growth_rounds rounds per step (the clients' runs interleaved in each round):"
    echo "stored before | clients | HTTP events/s | p99 ms  | rounds' events/s"
    printf '%s\n' "${medians[@]}"
    printf '%s\n' "${changes[@]}" "(target: within 15 %)"
    ;;
claim)
    rows=()
    for clients in $claim_clients; do
        echo "== claim rulings in a 300-ply game, $clients client(s)" >&2
        h=$(http_run "claim-c$clients" claim --clients "$clients" --games-per-client "$claim_games")
        echo "$h"
        rows+=("$(printf '%7s | %8s | %7s | %7s | %7s | %12s | %11s | %6s%% | %6s%%' "$clients" "$(val events_per_s "$h")" \
            "$(val p50_ms "$h")" "$(val p99_ms "$h")" "$(val max_ms "$h")" \
            "$(awk -v p="$(val p99_ms "$h")" 'BEGIN { print (p <= 10 ? "yes" : "NO") }')" "$(val longest_log "$h")" \
            "$(val server_cpu_pct "$h")" "$(val db_cpu_pct "$h")")")
    done
    echo
    echo "Claim rulings in a 300-ply game, end to end (target p99 <= 10 ms at 16 clients):"
    echo "clients | claims/s | p50 ms  | p99 ms  | max ms  | p99 <= 10 ms | longest log | srv CPU | db CPU"
    printf '%s\n' "${rows[@]}"
    ;;
esac

echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
problems=$(grep -ciE 'error|panic' "$logdir/server.log" || true)
echo "server log: $problems line(s) with error/panic ($logdir/server.log)"
