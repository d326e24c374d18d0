#!/usr/bin/env python3
"""End-to-end latency of a claim ruling in a 300-ply game, against a running arbiter.

Records the first 300 plies of the longest game of ../shared/data/games/twic1599.pgn (game
1022, 305 plies, no automatic end), then sends N incorrect repetition claims by the player
to move, each one HTTP request that the engine rules on (claim_ruled + penalty_applied) and
the store appends in one transaction, and prints the latency distribution as seen by the
client (keep-alive HTTP/1.1, one request at a time).

    python3 scripts/bench_claim.py http://127.0.0.1:8080 TOKEN [N]
"""
import http.client
import json
import os
import re
import statistics
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
PGN = os.path.join(HERE, "..", "..", "shared", "data", "games", "twic1599.pgn")
if not os.path.exists(PGN):  # a clone without ../shared: the copy in tests/shared
    PGN = os.path.join(HERE, "..", "tests", "shared", "data", "games", "twic1599.pgn")


def games(text):
    """Main-line SAN lists of a PGN file, in file order."""
    for block in re.split(r"\n\s*\n(?=\[)", text):
        movetext = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        movetext = re.sub(r"\{[^}]*\}", " ", movetext)
        depth, main = 0, []
        for ch in movetext:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif depth == 0:
                main.append(ch)
        sans = []
        for token in "".join(main).split():
            if re.fullmatch(r"\d+\.+", token) or token.startswith("$"):
                continue
            token = re.sub(r"^\d+\.+", "", token)
            if not token or token in ("1-0", "0-1", "1/2-1/2", "*"):
                continue
            sans.append(token)
        yield sans


def main():
    base, token = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(method, path, body=None):
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None

    with open(PGN, encoding="utf-8") as f:
        sans = list(games(f.read()))[1022][:300]
    status, created = call("POST", "/v1/games", {
        "white": {"name": "Bench, White"}, "black": {"name": "Bench, Black"},
        "event": "Claim latency", "round": "1",
        "time_control": {"kind": "standard", "base_ms": 5400000, "increment_ms": 30000}})
    assert status == 201, created
    game = created["game"]["game_id"]
    seq = 1
    for ply, san in enumerate(sans):
        by = "white" if ply % 2 == 0 else "black"
        status, body = call("POST", f"/v1/games/{game}/events",
                            {"expected_seq": seq, "events": [{"type": "move", "by": by, "san": san}]})
        assert status == 201, (ply, san, body)
        seq = body["last_seq"]
    to_move = "white" if len(sans) % 2 == 0 else "black"
    latencies = []
    for _ in range(n):
        claim = {"expected_seq": seq, "events": [{"type": "claim", "by": to_move, "kind": "repetition"}]}
        start = time.perf_counter()
        status, body = call("POST", f"/v1/games/{game}/events", claim)
        latencies.append((time.perf_counter() - start) * 1000)
        assert status == 201, body
        kinds = [e["event"]["type"] for e in body["events"]]
        assert kinds[:2] == ["claim", "claim_ruled"], kinds
        seq = body["last_seq"]
        # The claim stands as an offer: decline it so the next claim starts clean.
        status, body = call("POST", f"/v1/games/{game}/events",
                            {"expected_seq": seq, "events": [{"type": "draw_decline", "by": "black" if to_move == "white" else "white"}]})
        assert status == 201, body
        seq = body["last_seq"]
    latencies.sort()
    q = lambda p: latencies[min(len(latencies) - 1, int(p * len(latencies)))]
    print(f"claim rulings in a {len(sans)}-ply game: n={n} median={statistics.median(latencies):.2f} ms "
          f"p90={q(0.90):.2f} ms p99={q(0.99):.2f} ms min={latencies[0]:.2f} ms (log {seq} events)")


if __name__ == "__main__":
    main()
