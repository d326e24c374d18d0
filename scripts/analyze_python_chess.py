#!/usr/bin/env python3
"""The analysis of `arbiter analyze` written with python-chess 1.11.2, for comparison.

Per game and ply: repetition counts (threefold / fivefold, by python-chess's transposition
key, which counts an en passant square only where a legal capture exists), the 50/75-move
counts, insufficient material for each side (python-chess has no helpmate search, so `dead`
is the material heuristic) and the first automatic end; [%clk] comments are read by
python-chess's node.clock(). Prints one JSON object per game to stdout (unless --quiet) and
the plies per second to stderr.

Usage: python3 scripts/analyze_python_chess.py FILE.pgn [--quiet]
Needs: pip install chess==1.11.2
"""
import json
import sys
import time

import chess
import chess.pgn


def analyse(index, game):
    board = game.board()
    counts = {}
    threefold, fivefold, fifty, seventyfive, dead, flag_w, flag_b, clocks = [], [], [], [], [], [], [], []
    first_end = None

    def visit(ply, node):
        nonlocal first_end
        key = board._transposition_key()
        counts[key] = counts.get(key, 0) + 1
        n = counts[key]
        if n >= 3:
            threefold.append(ply)
        if n >= 5:
            fivefold.append(ply)
        if board.halfmove_clock >= 100:
            fifty.append(ply)
        mate = board.is_checkmate()
        if board.halfmove_clock >= 150 and not mate:
            seventyfive.append(ply)
        white_cannot = board.has_insufficient_material(chess.WHITE)
        black_cannot = board.has_insufficient_material(chess.BLACK)
        if black_cannot:
            flag_w.append(ply)
        if white_cannot:
            flag_b.append(ply)
        if white_cannot and black_cannot:
            dead.append(ply)
        clocks.append(node.clock())
        if first_end is None:
            if mate:
                first_end = {"ply": ply, "reason": "checkmate", "article": "5.1.1"}
            elif board.is_stalemate():
                first_end = {"ply": ply, "reason": "stalemate", "article": "5.2.1"}
            elif white_cannot and black_cannot:
                first_end = {"ply": ply, "reason": "dead_position", "article": "5.2.2"}
            elif n >= 5:
                first_end = {"ply": ply, "reason": "fivefold_repetition", "article": "9.6.1"}
            elif board.halfmove_clock >= 150 and not mate:
                first_end = {"ply": ply, "reason": "seventy_five_moves", "article": "9.6.2"}

    ply = 0
    visit(0, game)
    for node in game.mainline():
        board.push(node.move)
        ply += 1
        visit(ply, node)
    return ply, {
        "index": index, "plies": ply, "threefold": threefold, "fivefold": fivefold,
        "fifty": fifty, "seventyfive": seventyfive, "dead": dead,
        "flag_draw_if_white_flags": flag_w, "flag_draw_if_black_flags": flag_b,
        "first_automatic_end": first_end,
    }


def main():
    path = sys.argv[1]
    quiet = "--quiet" in sys.argv
    total = 0
    games = 0
    started = time.perf_counter()
    with open(path, encoding="utf-8", errors="replace") as pgn:
        while True:
            game = chess.pgn.read_game(pgn)
            if game is None:
                break
            if game.errors:
                report = {"index": games, "error": str(game.errors[0])}
            else:
                plies, report = analyse(games, game)
                total += plies
            if not quiet:
                print(json.dumps(report, separators=(",", ":")))
            games += 1
    elapsed = time.perf_counter() - started
    print(f"python-chess {chess.__version__}: {games} games, {total} plies in {elapsed:.3f} s = {total / elapsed:.0f} plies/s", file=sys.stderr)


if __name__ == "__main__":
    main()
