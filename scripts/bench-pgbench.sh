#!/usr/bin/env bash
# The database's own ceiling for the write path: single-row INSERT + commit (autocommit, one
# transaction per row, durable: whatever fsync/synchronous_commit the server has) into a table
# shaped like `events` (uuid, bigint, jsonb payload, timestamps, an index on (tx_id, position)),
# with pgbench at 1, 4 and 16 clients. Cited by docs/scale-out.md.
#
#   scripts/bench-pgbench.sh [SECONDS_PER_RUN]     # default 20
#
# Uses ARBITER_TEST_DATABASE_URL's server, or postgres://postgres@127.0.0.1:5432/postgres.
set -euo pipefail
seconds=${1:-20}
admin_url=${ARBITER_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
db=arbiter_pgbench_$$
url=${admin_url%/*}/$db
psql "$admin_url" -qc "CREATE DATABASE $db"
trap 'psql "$admin_url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
psql "$url" -q <<'SQL'
CREATE TABLE bench_events (
    position    bigint      GENERATED ALWAYS AS IDENTITY,
    tx_id       xid8        NOT NULL DEFAULT pg_current_xact_id(),
    game_id     uuid        NOT NULL,
    seq         bigint      NOT NULL,
    event_id    uuid        NOT NULL DEFAULT gen_random_uuid(),
    payload     jsonb       NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX ON bench_events (tx_id, position);
SQL
script=$(mktemp)
cat >"$script" <<'SQL'
\set seq random(1, 1000000000)
INSERT INTO bench_events (game_id, seq, payload) VALUES (gen_random_uuid(), :seq, '{"type": "move", "by": "white", "san": "Nf3"}');
SQL
psql "$admin_url" -Atc "SELECT 'server ' || version()"
psql "$admin_url" -Atc "SELECT 'fsync=' || current_setting('fsync') || ' synchronous_commit=' || current_setting('synchronous_commit') || ' wal_sync_method=' || current_setting('wal_sync_method')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for clients in 1 4 16; do
    threads=$((clients < 2 ? clients : 2))
    out=$(pgbench -n -M prepared -f "$script" -c "$clients" -j "$threads" -T "$seconds" "$url" 2>&1)
    tps=$(grep -Eo 'tps = [0-9.]+' <<<"$out" | head -1 | cut -d' ' -f3)
    latency=$(grep -Eo 'latency average = [0-9.]+ ms' <<<"$out" | cut -d' ' -f4)
    echo "clients=$clients tps=$tps latency_avg_ms=$latency"
done
rm -f "$script"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
