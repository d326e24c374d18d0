"""schemathesis hooks for arbiter (loaded by scripts/schemathesis.sh through SCHEMATHESIS_HOOKS).

`POST /v1/games/import` takes PGN (`application/x-chess-pgn`), which is text: send generated
bodies for it the way schemathesis sends `text/plain`.
"""
import schemathesis

schemathesis.serializer.alias("application/x-chess-pgn", "text/plain")
