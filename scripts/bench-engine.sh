#!/usr/bin/env bash
# The engine's cost per recorded move (Game::record, as the service's warm-state append
# records it) over every game of ../shared/data/games/*.pgn, with the distribution and the
# share of moves whose dead-position check (5.2.2) ran the helpmate search. Three runs, one
# after the other (report the median run); the machine's load is printed before each.
#
# Usage: scripts/bench-engine.sh [RUNS] [FILE.pgn ...]   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
shift || true
cargo build --release --example bench_engine
for run in $(seq 1 "$runs"); do
  echo "== run $run of $runs; load: $(uptime | sed 's/.*load average/load average/')"
  cargo run --quiet --release --example bench_engine -- "$@"
done
