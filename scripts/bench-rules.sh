#!/usr/bin/env bash
# Measure the analyser (criterion, Rust) and the same analysis in python-chess on the same
# file in one run, and print both figures and their ratio.
#
# Usage: scripts/bench-rules.sh            (from the repository root)
# Needs: pip install chess==1.11.2
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
PGN=../shared/data/games/twic1599.pgn
[[ -f "$PGN" ]] || PGN=tests/shared/data/games/twic1599.pgn

cargo bench --bench analyze -- --warm-up-time 3 --measurement-time 10 2>&1 \
  | grep -E "^(analyze|claim_300_plies)|time:|thrpt:"

estimates="$CARGO_TARGET_DIR/criterion/analyze/twic1599_plies/new/estimates.json"
python_line=$(python3 scripts/analyze_python_chess.py "$PGN" --quiet 2>&1 >/dev/null | tail -1)
echo "$python_line"

python3 - "$estimates" "$python_line" <<'PY'
import json, re, sys
estimates = json.load(open(sys.argv[1]))
plies = 101487  # main-line half-moves in twic1599.pgn (see shared/data/README.md)
median_s = estimates["median"]["point_estimate"] / 1e9
rust = plies / median_s
python = float(re.search(r"= (\d+) plies/s", sys.argv[2]).group(1))
print(f"arbiter analyze engine: {rust:,.0f} plies/s (median {median_s*1000:.1f} ms per pass)")
print(f"python-chess 1.11.2:    {python:,.0f} plies/s")
print(f"ratio: {rust/python:.0f}x")
PY
