#!/usr/bin/env bash
# A pg_auto_failover set on one machine, on loopback ports only: a monitor, a primary and a
# synchronous standby (docs/operations.md, "High availability").
#
#   scripts/ha-cluster.sh start    # creates and runs it; prints the service's DATABASE_URL
#   scripts/ha-cluster.sh status   # pg_autoctl show state, and the URL
#   scripts/ha-cluster.sh uri      # the multi-host URL only
#   scripts/ha-cluster.sh stop     # stops every process of the set and removes its directory
#   scripts/ha-cluster.sh node-start NAME   # (re)starts one node's keeper (used by failover-test.sh)
#   scripts/ha-cluster.sh keeper-pid NAME | postmaster-pid NAME   # for failover-test.sh
#
# PostgreSQL and pg_autoctl refuse to run as root: the set runs as the system user
# $ARBITER_HA_USER (default `arbiter-ha`, created when run as root and missing), through
# `runuser`. Run as another user, the set runs as that user.
#
# Environment: ARBITER_HA_DIR (default /tmp/arbiter-ha), ARBITER_HA_PORT (first of three ports,
# default 18400, below the kernel's ephemeral range (32768-60999) so that no outgoing
# connection holds one of them: monitor, node1 = +1, node2 = +2).
set -euo pipefail

HA_USER=${ARBITER_HA_USER:-arbiter-ha}
DIR=${ARBITER_HA_DIR:-/tmp/arbiter-ha}
PORT=${ARBITER_HA_PORT:-18400}
HOST=127.0.0.1
MONITOR_PORT=$PORT
NODE_PORTS=([1]=$((PORT + 1)) [2]=$((PORT + 2)))
PGBIN=${ARBITER_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
MONITOR_URL="postgres://autoctl_node@$HOST:$MONITOR_PORT/pg_auto_failover?sslmode=disable"

case "$HOST" in 127.*) ;; *) echo "ha-cluster: refusing a non-loopback host $HOST" >&2; exit 2 ;; esac

if [ "$(id -u)" = 0 ]; then
  if ! id "$HA_USER" >/dev/null 2>&1; then
    useradd --system --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin "$HA_USER"
  fi
  as_user() { runuser -u "$HA_USER" -- env PATH="$PGBIN:$PATH" HOME="$DIR" PGHOST="$DIR/sock" "$@"; }
else
  HA_USER=$(id -un)
  as_user() { env PATH="$PGBIN:$PATH" HOME="$DIR" PGHOST="$DIR/sock" "$@"; }
fi

autoctl() { as_user pg_autoctl "$@"; }

# The keeper of one node (or the monitor), in the background, logging to its own file.
run_keeper() {
  local name=$1
  as_user setsid pg_autoctl run --pgdata "$DIR/$name" >>"$DIR/$name.log" 2>&1 </dev/null &
}

# The pid of a node's (or the monitor's) running keeper, from its own pid file; empty if none.
keeper_pid() {
  local file pid
  file=$(as_user pg_autoctl show file --pid --pgdata "$DIR/$1" 2>/dev/null) || return 0
  [ -n "$file" ] && [ -f "$file" ] || return 0
  pid=$(head -1 "$file")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

# The pid of a node's postmaster; empty if none.
postmaster_pid() {
  local pid
  [ -f "$DIR/$1/postmaster.pid" ] || return 0
  pid=$(head -1 "$DIR/$1/postmaster.pid")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

# Waits (at most $2 seconds) until `pg_isready` answers on port $1.
wait_ready() {
  local port=$1 limit=$2 i
  for ((i = 0; i < limit * 4; i++)); do
    if "$PGBIN/pg_isready" -q -h $HOST -p "$port"; then return 0; fi
    sleep 0.25
  done
  echo "ha-cluster: nothing answers on $HOST:$port after ${limit}s" >&2
  return 1
}

# Waits (at most $1 seconds) until the formation has a primary and a secondary.
wait_formation() {
  local limit=$1 i states
  for ((i = 0; i < limit; i++)); do
    states=$(as_user psql -XAtq "$MONITOR_URL" -c \
      "SELECT string_agg(reportedstate::text, ',' ORDER BY reportedstate) FROM pgautofailover.node WHERE reportedstate = goalstate" 2>/dev/null || true)
    if [ "$states" = "primary,secondary" ]; then return 0; fi
    sleep 1
  done
  echo "ha-cluster: the formation has no primary and secondary after ${limit}s (states: ${states:-none})" >&2
  autoctl show state --pgdata "$DIR/monitor" >&2 || true
  return 1
}

uri() {
  # The formation URI as pg_autoctl prints it, with the user the service connects as.
  autoctl show uri --formation default --pgdata "$DIR/monitor" |
    sed -e "s#^postgres://@#postgres://arbiter@#" -e "s#^postgres://\([^@]*@\)\?#postgres://arbiter@#"
}

start() {
  if [ -e "$DIR" ]; then
    echo "ha-cluster: $DIR exists; run '$0 stop' first" >&2
    exit 1
  fi
  local port
  for port in "$MONITOR_PORT" "${NODE_PORTS[1]}" "${NODE_PORTS[2]}"; do
    if "$PGBIN/pg_isready" -q -h $HOST -p "$port" || [ "$?" = 1 ]; then
      echo "ha-cluster: something answers on $HOST:$port already; set ARBITER_HA_PORT" >&2
      exit 1
    fi
  done
  mkdir -p "$DIR"
  chown "$HA_USER" "$DIR"
  chmod 700 "$DIR"

  as_user mkdir -p "$DIR/sock"
  # Our own initdb, so that PostgreSQL listens on loopback only and keeps its sockets in $DIR
  # (the packaged default, /var/run/postgresql, is not writable by $HA_USER). The standby
  # copies node1's settings with its base backup.
  local name
  for name in monitor node1; do
    as_user "$PGBIN/initdb" -D "$DIR/$name" --auth trust --encoding UTF8 --no-instructions >>"$DIR/$name.log" 2>&1
    as_user tee -a "$DIR/$name/postgresql.auto.conf" >/dev/null <<EOF
listen_addresses = '$HOST'
unix_socket_directories = '$DIR/sock'
EOF
  done

  autoctl create monitor --pgdata "$DIR/monitor" --pgport "$MONITOR_PORT" --hostname $HOST \
    --auth trust --no-ssl >>"$DIR/monitor.log" 2>&1
  # Decide quickly on this loopback set: health checks every second, a node unhealthy after
  # 4 s without answering. The defaults (5 s / 20 s) suit a real network.
  as_user tee -a "$DIR/monitor/postgresql.conf" >/dev/null <<EOF
pgautofailover.health_check_period = 1000
pgautofailover.health_check_timeout = 1000
pgautofailover.health_check_max_retries = 1
pgautofailover.health_check_retry_delay = 500
pgautofailover.node_considered_unhealthy_timeout = 4000
pgautofailover.primary_demote_timeout = 8000
EOF
  # pg_autoctl starts the monitor with listen_addresses from its own configuration ('*').
  autoctl config set --pgdata "$DIR/monitor" postgresql.listen_addresses $HOST >>"$DIR/monitor.log" 2>&1
  run_keeper monitor
  wait_ready "$MONITOR_PORT" 60

  local n
  for n in 1 2; do
    autoctl create postgres --pgdata "$DIR/node$n" --pgport "${NODE_PORTS[$n]}" --hostname $HOST \
      --listen $HOST --name "node$n" --dbname arbiter --monitor "$MONITOR_URL" --auth trust --no-ssl \
      --candidate-priority 50 --replication-quorum true >>"$DIR/node$n.log" 2>&1
    run_keeper "node$n"
    if [ "$n" = 1 ]; then
      wait_ready "${NODE_PORTS[1]}" 60
      # The role the service connects as (a superuser here: `arbiter migrate` creates the
      # service role). Replicated to the standby with everything else.
      local i
      for ((i = 0; i < 60; i++)); do
        if as_user psql -XAtq -h $HOST -p "${NODE_PORTS[1]}" -d arbiter \
          -c "SELECT pg_is_in_recovery()" 2>/dev/null | grep -qx f; then break; fi
        sleep 1
      done
      as_user psql -XAtq -h $HOST -p "${NODE_PORTS[1]}" -d arbiter \
        -c "DO \$\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'arbiter') THEN CREATE ROLE arbiter LOGIN SUPERUSER; END IF; END\$\$" >/dev/null
    fi
  done
  wait_formation 120
  # The standby takes part in the write quorum (--replication-quorum true): pg_auto_failover
  # sets synchronous_standby_names = 'ANY 1 (pgautofailover_standby_2)' on the primary while
  # the standby is healthy, and synchronous_commit stays `on` (docs/operations.md says why).
  echo "ha-cluster: up in $DIR (monitor $HOST:$MONITOR_PORT, nodes $HOST:${NODE_PORTS[1]} and $HOST:${NODE_PORTS[2]})"
  uri
}

node_start() {
  local name=$1
  if [ -n "$(keeper_pid "$name")" ]; then return 0; fi
  run_keeper "$name"
}

stop() {
  if [ ! -d "$DIR" ]; then
    echo "ha-cluster: nothing at $DIR"
    return 0
  fi
  local name pid i
  for name in node2 node1 monitor; do
    [ -d "$DIR/$name" ] || continue
    pid=$(keeper_pid "$name")
    if [ -n "$pid" ]; then
      kill -TERM "$pid" 2>/dev/null || true
      for ((i = 0; i < 60; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.25
      done
      # The keeper leads its own process group (setsid): whatever is left of it.
      kill -KILL -- "-$pid" 2>/dev/null || true
    fi
    # Whatever PostgreSQL the keeper left behind.
    if [ -n "$(postmaster_pid "$name")" ]; then
      as_user "$PGBIN/pg_ctl" stop -m immediate -D "$DIR/$name" >/dev/null 2>&1 || true
    fi
  done
  # Until the ports are free again (a killed postmaster's children exit on their own).
  local port
  for port in "$MONITOR_PORT" "${NODE_PORTS[1]}" "${NODE_PORTS[2]}"; do
    for ((i = 0; i < 40; i++)); do
      "$PGBIN/pg_isready" -q -h $HOST -p "$port" && sleep 0.25 || break
    done
  done
  rm -rf "$DIR"
  echo "ha-cluster: stopped and removed $DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status)
    autoctl show state --pgdata "$DIR/monitor"
    uri
    ;;
  uri) uri ;;
  node-start) node_start "${2:?node name}" ;;
  keeper-pid) keeper_pid "${2:?node name}" ;;
  postmaster-pid) postmaster_pid "${2:?node name}" ;;
  *)
    echo "usage: $0 start|stop|status|uri|node-start NAME|keeper-pid NAME|postmaster-pid NAME" >&2
    exit 2
    ;;
esac
