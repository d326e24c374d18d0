#!/usr/bin/env python3
"""Figures of the round PGN and the live streams, against a running arbiter.

Records GAMES games of one round (the first games of ../shared/data/games/twic1599.pgn with
at least PLIES plies, PLIES plies each, every move with a clock reading, in appends of 20
events), then measures as a client (HTTP/1.1 keep-alive, one request at a time):

* the round PGN built from nothing (empty per-game cache), then polls answered 304 with the
  ETag, then a PGN after one move in one game (one game rebuilt, the others from memory);
* the stream latency: from sending a move (POST) to its message on an open game stream;
* fan-out: SUBSCRIBERS round streams open at once, time until every one has a new move.

    python3 scripts/bench_broadcast.py http://127.0.0.1:8080 TOKEN [GAMES] [PLIES]
"""
import http.client
import json
import os
import statistics
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_claim import PGN, games  # noqa: E402

EVENT = "Broadcast Bench 2026"
ROUND = "1"
SUBSCRIBERS = 50


def main():
    base, token = sys.argv[1], sys.argv[2]
    n_games = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    plies = int(sys.argv[4]) if len(sys.argv) > 4 else 80
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port)
    auth = {"Authorization": f"Bearer {token}"}

    def call(method, path, body=None, extra=None):
        nonlocal conn
        headers = dict(auth, **(extra or {}))
        if body is not None:
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            try:
                conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
                response = conn.getresponse()
                break
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                # the server closed an idle keep-alive connection: open a new one
                conn.close()
                conn = http.client.HTTPConnection(url.hostname, url.port)
                if attempt == 2:
                    raise
        data = response.read()
        return response.status, response.getheader("ETag"), data

    with open(PGN, encoding="utf-8") as f:
        sources = [g for g in games(f.read()) if len(g) >= plies + 40][:n_games]
    assert len(sources) == n_games, f"only {len(sources)} games with {plies + 40} plies"
    ids, seqs = [], []
    for board, sans in enumerate(sources, start=1):
        status, _, data = call("POST", "/v1/games", {
            "white": {"name": f"White {board}", "fide_id": 100000 + board},
            "black": {"name": f"Black {board}", "fide_id": 200000 + board},
            "event": EVENT, "round": ROUND, "board": board,
            "time_control": {"kind": "standard", "base_ms": 5400000, "increment_ms": 30000}})
        assert status == 201, data
        game = json.loads(data)["game"]["game_id"]
        seq, clock = 1, [5400000, 5400000]
        for start in range(0, plies, 20):
            events = []
            for ply in range(start, min(start + 20, plies)):
                clock[ply % 2] -= 20000
                events.append({"type": "move", "by": "white" if ply % 2 == 0 else "black", "san": sans[ply],
                               "clock": {"white_ms": clock[0], "black_ms": clock[1]}})
            status, _, data = call("POST", f"/v1/games/{game}/events", {"expected_seq": seq, "events": events})
            assert status == 201, data
            seq = json.loads(data)["last_seq"]
        ids.append(game)
        seqs.append(seq)
    next_ply = [plies] * n_games

    def play(board):
        """Records the next move of a game."""
        p = next_ply[board]
        status, _, data = call("POST", f"/v1/games/{ids[board]}/events", {"expected_seq": seqs[board], "events": [
            {"type": "move", "by": "white" if p % 2 == 0 else "black", "san": sources[board][p]}]})
        assert status == 201, data
        seqs[board] = json.loads(data)["last_seq"]
        next_ply[board] += 1

    path = f"/v1/rounds/pgn?event={urllib.parse.quote(EVENT)}&round={ROUND}"

    start = time.perf_counter()
    status, etag, text = call("GET", path)
    cold = (time.perf_counter() - start) * 1000
    assert status == 200 and text.count(b"[Event ") == n_games

    polls = []
    for _ in range(200):
        start = time.perf_counter()
        status, _, _ = call("GET", path, extra={"If-None-Match": etag})
        polls.append((time.perf_counter() - start) * 1000)
        assert status == 304

    rebuilt = []
    for i in range(20):
        play(i % n_games)  # one more move in one game, then the relay's next poll
        start = time.perf_counter()
        status, new_etag, _ = call("GET", path, extra={"If-None-Match": etag})
        rebuilt.append((time.perf_counter() - start) * 1000)
        assert status == 200 and new_etag != etag
        etag = new_etag

    def q(values, p):
        values = sorted(values)
        return values[min(len(values) - 1, int(p * len(values)))]

    print(f"round PGN, {n_games} games x {plies} plies ({len(text)} bytes): first build {cold:.1f} ms; "
          f"304 poll median {statistics.median(polls):.2f} ms p90 {q(polls, 0.9):.2f} ms; "
          f"after one move (one game rebuilt) median {statistics.median(rebuilt):.2f} ms p90 {q(rebuilt, 0.9):.2f} ms")

    # Stream latency on one game.
    game, board = ids[-1], n_games - 1
    stream = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    stream.request("GET", f"/v1/games/{game}/stream", headers=auth)
    response = stream.getresponse()
    assert response.status == 200

    def next_message(resp):
        fields = {}
        while True:
            line = resp.fp.readline().decode()
            if line in ("\n", ""):
                if "data" in fields:
                    return fields
                if line == "":
                    return None
                continue
            key, _, value = line.rstrip("\n").partition(": ")
            fields[key] = value

    assert next_message(response)["event"] == "snapshot"
    latencies = []
    for _ in range(30):
        start = time.perf_counter()
        play(board)
        while True:
            message = next_message(response)
            if message and message["id"] == str(seqs[board]):
                break
        latencies.append((time.perf_counter() - start) * 1000)
    print(f"game stream: move POSTed -> its SSE message received, n={len(latencies)} "
          f"median {statistics.median(latencies):.2f} ms p90 {q(latencies, 0.9):.2f} ms")
    stream.close()

    # Fan-out to round streams.
    round_path = f"/v1/rounds/stream?event={urllib.parse.quote(EVENT)}&round={ROUND}"
    ready = threading.Barrier(SUBSCRIBERS + 1)
    received = [None] * SUBSCRIBERS
    target = {}

    def subscriber(index):
        c = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        c.request("GET", round_path, headers=auth)
        r = c.getresponse()
        for _ in range(n_games):
            assert next_message(r)["event"] == "snapshot"
        ready.wait()
        while True:
            message = next_message(r)
            if message and json.loads(message["data"]).get("seq") == target.get("seq") and \
                    json.loads(message["data"]).get("game_id") == target.get("game"):
                received[index] = time.perf_counter()
                break
        c.close()

    threads = [threading.Thread(target=subscriber, args=(i,), daemon=True) for i in range(SUBSCRIBERS)]
    for t in threads:
        t.start()
    ready.wait()
    board = 0
    target.update(game=ids[board], seq=seqs[board] + 1)
    start = time.perf_counter()
    play(board)
    for t in threads:
        t.join(timeout=60)
    assert all(received), "every subscriber received the move"
    last = max(received) - start
    print(f"round streams: {SUBSCRIBERS} subscribers, move POSTed -> all received it in {last * 1000:.1f} ms")


if __name__ == "__main__":
    main()
