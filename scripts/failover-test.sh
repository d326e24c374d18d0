#!/usr/bin/env bash
# Kills the primary KILLS times under 8 retrying writers and checks that nothing acknowledged
# is lost (issue 20 item 3; docs/operations.md, "High availability").
#
#   scripts/failover-test.sh [KILLS]        # default 10
#
# 1. scripts/ha-cluster.sh start: a pg_auto_failover monitor, a primary and a synchronous
#    standby on loopback ports (ARBITER_HA_DIR, ARBITER_HA_PORT as there);
# 2. `arbiter serve` on the formation's multi-host URL (`pg_autoctl show uri`);
# 3. 8 writers (`bench_write retrying`) that resend every failed append unchanged (same
#    event_id) until it is acknowledged, and note every acknowledged event;
# 4. KILLS times, after $ROUND_SECONDS (5) of writing: SIGKILL of the primary's postmaster
#    (odd kills: its keeper restarts it, or the monitor fails over) or of the whole primary
#    node, keeper and PostgreSQL (even kills: the monitor promotes the standby; the killed
#    node's keeper is then started again and rejoins as the standby). Before the next kill the
#    formation is back to a primary and a secondary and the writers acknowledge again;
# 5. stops the writers and checks, on the primary: every acknowledged event is stored exactly
#    once at the seq it was acknowledged with, every game's seqs run 1, 2, 3 ... without a gap,
#    and `arbiter verify --all` passes. recovery_max_ms is the longest time from a kill to the
#    end of the silence that follows it (no event acknowledged by any writer).
#
# Prints as its last line:
#   failover: kills=K acknowledged=N lost=L duplicated=D gaps=G recovery_max_ms=T
# and exits non-zero if anything was lost, duplicated or out of place, or a chain broke.
# Everything runs on 127.0.0.1; every wait is bounded. ARBITER_PROFILE=release builds and
# runs the release binaries (default: debug, already built by `cargo test`).
set -euo pipefail
cd "$(dirname "$0")/.."

KILLS=${1:-10}
ROUND_SECONDS=${ROUND_SECONDS:-5}
WRITERS=${WRITERS:-8}
PROFILE=${ARBITER_PROFILE:-debug}
HA=scripts/ha-cluster.sh
export ARBITER_HA_DIR=${ARBITER_HA_DIR:-/tmp/arbiter-ha-failover-$$}
export ARBITER_HA_PORT=${ARBITER_HA_PORT:-18400}
MONITOR_URL="postgres://autoctl_node@127.0.0.1:$ARBITER_HA_PORT/pg_auto_failover?sslmode=disable"
WORK=$(mktemp -d /tmp/arbiter-failover-test.XXXXXX)
SERVICE_PORT=${SERVICE_PORT:-$((ARBITER_HA_PORT + 10))}
LOGS=${FAILOVER_LOGS:-/tmp/arbiter-failover-logs}
service_pid=""
writers_pid=""

case "$KILLS" in '' | *[!0-9]*) echo "KILLS must be a number" >&2; exit 2 ;; esac

log() { echo "failover-test: $*" >&2; }
now_ms() { date +%s%3N; }

cleanup() {
  set +e
  touch "$WORK/stop"
  if [ -n "$writers_pid" ]; then
    for _ in $(seq 1 60); do kill -0 "$writers_pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$writers_pid" 2>/dev/null
  fi
  if [ -n "$service_pid" ]; then
    kill -TERM "$service_pid" 2>/dev/null
    for _ in $(seq 1 40); do kill -0 "$service_pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL "$service_pid" 2>/dev/null
  fi
  # The logs of this run stay in $LOGS (the keepers', PostgreSQL's, the service's, the writers').
  rm -rf "$LOGS" && mkdir -p "$LOGS"
  cp "$ARBITER_HA_DIR"/*.log "$WORK"/*.log "$LOGS"/ 2>/dev/null
  for node in node1 node2; do cp -r "$ARBITER_HA_DIR/$node/log" "$LOGS/$node-postgresql" 2>/dev/null; done
  "$HA" stop >&2
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'log "failed at line $LINENO (exit $?)"' ERR

monitor() {
  psql -XAtq "$MONITOR_URL" -c "$1" 2>/dev/null || true
}

# The primary's node name (empty while there is none).
primary_node() {
  monitor "SELECT nodename FROM pgautofailover.node WHERE reportedstate IN ('primary','wait_primary','single') AND goalstate IN ('primary','wait_primary','single') ORDER BY reportedlsn DESC LIMIT 1"
}

# The formation's state in one word: the healthy nodes that are where the monitor wants them.
formation() {
  monitor "SELECT string_agg(reportedstate::text, ',' ORDER BY reportedstate) FROM pgautofailover.node WHERE reportedstate = goalstate AND health = 1"
}

# Waits (at most $1 s) for a primary and a secondary, both healthy and where the monitor
# wants them, and the old primary at the new one's position.
wait_formation() {
  local limit=$1 i
  for ((i = 0; i < limit; i++)); do
    if [ "$(formation)" = "primary,secondary" ]; then
      return 0
    fi
    sleep 1
  done
  log "the formation did not come back to a primary and a secondary within ${limit}s"
  "$HA" status >&2 || true
  return 1
}

if [ "$PROFILE" = release ]; then
  cargo build -q --release --bin arbiter --example bench_write
else
  cargo build -q --bin arbiter --example bench_write
fi
ARBITER=target/$PROFILE/arbiter
WRITER=target/$PROFILE/examples/bench_write

"$HA" start >"$WORK/ha-start.out"
URL=$(tail -1 "$WORK/ha-start.out")
case "$URL" in postgres://*127.0.0.1:*) ;; *) log "unexpected URL: $URL"; exit 1 ;; esac
log "formation up: $URL"

"$ARBITER" migrate --database-url "$URL" >"$WORK/migrate.log" 2>&1
TOKEN=$(DATABASE_URL="$URL" "$ARBITER" token create --role arbiter --name "failover test" 2>>"$WORK/migrate.log" | tail -1)
ARBITER_LOG=info,sqlx=warn "$ARBITER" serve --database-url "$URL" --bind 127.0.0.1 --port "$SERVICE_PORT" \
  >"$WORK/service.log" 2>&1 &
service_pid=$!
for i in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$SERVICE_PORT/readyz" >/dev/null 2>&1 && break
  kill -0 "$service_pid" 2>/dev/null || { cat "$WORK/service.log" >&2; exit 1; }
  [ "$i" = 120 ] && { log "the service did not become ready"; exit 1; }
  sleep 0.5
done

total_seconds=$((KILLS * 120 + 120))
"$WRITER" retrying --url "http://127.0.0.1:$SERVICE_PORT" --token "$TOKEN" --clients "$WRITERS" \
  --seconds "$total_seconds" --stop-file "$WORK/stop" --out "$WORK/acks.txt" >"$WORK/writers.out" 2>"$WORK/writers.log" &
writers_pid=$!
: >"$WORK/kills.txt"

for ((k = 1; k <= KILLS; k++)); do
  sleep "$ROUND_SECONDS"
  node=$(primary_node)
  if [ -z "$node" ]; then log "no primary before kill $k"; exit 1; fi
  postmaster=$("$HA" postmaster-pid "$node")
  keeper=$("$HA" keeper-pid "$node")
  if [ $((k % 2)) = 1 ]; then
    what="postmaster of $node"
    at=$(now_ms)
    kill -KILL "$postmaster"
  else
    what="whole node $node (keeper $keeper)"
    at=$(now_ms)
    kill -KILL "$postmaster" 2>/dev/null || true
    kill -KILL -- "-$keeper" 2>/dev/null || true
  fi
  echo "$at" >>"$WORK/kills.txt"
  log "kill $k/$KILLS: SIGKILL of the $what"
  # Until the monitor has noticed (at most 15 s: a postmaster its keeper restarts at once
  # may never be noticed), so that the healthy formation waited for below is the new one.
  for i in $(seq 1 60); do
    [ "$(formation)" != "primary,secondary" ] && break
    sleep 0.25
  done
  if [ $((k % 2)) = 0 ]; then
    # Wait for the other node to be promoted, then bring the killed one back as a standby.
    for i in $(seq 1 240); do
      p=$(primary_node)
      [ -n "$p" ] && [ "$p" != "$node" ] && break
      if [ "$i" = 240 ]; then
        log "no failover within 120 s"
        "$HA" status >&2 || true
        exit 1
      fi
      sleep 0.5
    done
    log "failover to $p after $(($(now_ms) - at)) ms"
    "$HA" node-start "$node"
  fi
  wait_formation 180
  kill -0 "$writers_pid" 2>/dev/null || { log "the writers ended early"; cat "$WORK/writers.log" >&2; exit 1; }
done
sleep "$ROUND_SECONDS"
touch "$WORK/stop"
for _ in $(seq 1 60); do kill -0 "$writers_pid" 2>/dev/null || break; sleep 0.5; done
wait "$writers_pid" || { log "the writers failed"; cat "$WORK/writers.log" >&2; exit 1; }
writers_pid=""
cat "$WORK/writers.out" >&2
grep -i "refused" "$WORK/writers.log" >&2 || true

# The checks, on the primary (psql follows target_session_attrs=read-write itself).
psql -XAtq "$URL" -v ON_ERROR_STOP=1 >"$WORK/check.txt" <<SQL
CREATE TEMP TABLE acks (game_id uuid, event_id uuid, seq bigint, at_ms bigint);
\copy acks FROM '$WORK/acks.txt' WITH (DELIMITER ' ')
SELECT count(*) FROM acks;
SELECT count(*) FROM acks a WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.game_id = a.game_id AND e.event_id = a.event_id AND e.seq = a.seq);
SELECT count(*) FROM (SELECT e.game_id, e.event_id FROM events e JOIN acks a USING (game_id, event_id) GROUP BY 1, 2 HAVING count(*) > 1) d;
SELECT count(*) FROM (SELECT seq, lag(seq) OVER (PARTITION BY game_id ORDER BY seq) AS prev FROM events) s WHERE seq <> coalesce(prev, 0) + 1;
SQL
mapfile -t check <"$WORK/check.txt"
acknowledged=${check[0]}
lost=${check[1]}
duplicated=${check[2]}
gaps=${check[3]}
verified=ok
DATABASE_URL="$URL" "$ARBITER" verify --all >"$WORK/verify.log" 2>&1 || verified=FAILED
tail -3 "$WORK/verify.log" >&2

recovery_max_ms=$(python3 - "$WORK/acks.txt" "$WORK/kills.txt" <<'PY'
import sys
acks = sorted(int(line.split()[3]) for line in open(sys.argv[1]) if line.strip())
kills = [int(line) for line in open(sys.argv[2]) if line.strip()]
worst = 0
for kill in kills:
    # The silence that follows the kill: the first pause of at least 500 ms between two
    # acknowledgements (by any writer) that begins at most 2 s before the kill (requests in
    # flight at the kill fail) and at most 60 s after it; recovery is its end minus the kill.
    previous = None
    for at in acks:
        if previous is not None and at - previous >= 500 and kill - 2000 <= previous <= kill + 60000 and at > kill:
            worst = max(worst, at - kill)
            break
        previous = at
print(worst)
PY
)
answers_503=$(sed 's/\x1b\[[0-9;]*m//g' "$WORK/service.log" | grep ' status=503 ' | grep -o 'request_id="[^"]*"' | sort -u | wc -l)
log "chains: $verified; the service followed $(grep -c "the database host changed" "$WORK/service.log" || true) host change(s) and answered 503 $answers_503 times"

# Everything is stopped and removed before the last line, so that it stays the last one.
trap - EXIT
cleanup
status=0
if [ "$lost" != 0 ] || [ "$duplicated" != 0 ] || [ "$gaps" != 0 ] || [ "$verified" != ok ] || [ "$acknowledged" = 0 ]; then
  status=1
fi
echo "failover: kills=$KILLS acknowledged=$acknowledged lost=$lost duplicated=$duplicated gaps=$gaps recovery_max_ms=$recovery_max_ms"
exit $status
