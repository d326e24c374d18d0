#!/usr/bin/env python3
"""Extract the cburnett piece set from python-chess's chess/svg.py into assets/pieces/cburnett/.

The piece images by Colin M.L. Burnett are triple licensed under the GFDL, BSD and GPL
(python-chess 1.11.2, docs/svg.rst); python-chess itself is GPL-3.0-or-later.

    pip download chess==1.11.2 --no-deps && tar xzf chess-1.11.2.tar.gz
    python3 scripts/extract-cburnett.py chess-1.11.2/chess/svg.py

Each file holds one SVG <g> fragment (45x45 units) with the id `white-king`, `black-pawn`, ...
as python-chess wrote it; the Rust code embeds them with include_str!.
"""
import ast
import pathlib
import sys

source = pathlib.Path(sys.argv[1]).read_text()
tree = ast.parse(source)
pieces = None
for node in tree.body:
    if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "PIECES" for t in node.targets):
        pieces = ast.literal_eval(node.value)
if pieces is None:
    sys.exit("no PIECES table in " + sys.argv[1])
out = pathlib.Path(__file__).resolve().parent.parent / "assets" / "pieces" / "cburnett"
out.mkdir(parents=True, exist_ok=True)
names = {"k": "king", "q": "queen", "r": "rook", "b": "bishop", "n": "knight", "p": "pawn"}
for symbol, fragment in sorted(pieces.items()):
    colour = "white" if symbol.isupper() else "black"
    path = out / f"{colour}-{names[symbol.lower()]}.svg"
    path.write_text(fragment + "\n")
    print(path.relative_to(out.parent.parent.parent))
