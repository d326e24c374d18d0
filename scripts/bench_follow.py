#!/usr/bin/env python3
"""One instance following a whole Olympiad's boards (issue 34 item 6), against a running
arbiter that polls its board feeds every second (scripts/bench-follow.sh starts it).

A DGT LiveChess feed of BOARDS boards is served from this process (asyncio, HTTP/1.1
keep-alive, each board's `game-N.json` built once per move): board N replays a real game of
TWIC 1599 (the games with at least 60 half-moves, in file order, again from the first when
there are fewer than BOARDS), each move with the mover's seconds left under 90 minutes + 30
seconds a move. Before the measured window every board shows an opening part of its game
(the first half-moves up to a random ply); the service records those first (warm-up). Then,
during SECONDS:

* tournament pace: each board's next move comes after a random wait (exponential, mean PACE
  seconds, at least 3 s);
* the burst at the time control: moves 31 to 40 (half-moves 61 to 80) come every 2 to 6
  seconds (a time scramble), and a share of the boards (--scramble-share, default 0.3) start
  the window at half-moves 56 to 64, so that they reach it together, as a round's boards do
  some 3 hours in.

Measured over the window, from /proc: the CPU (user + system) of the service's process and of
PostgreSQL's backends connected to the benchmark database (pg_stat_activity; the pool's
connections, so the SQL work of the service), the service's resident memory (VmRSS, VmHWM),
the feed requests per board per second (the poll rate achieved) and, for every move that
appeared during the window, the time from the moment the feed began to show it to its
`recorded_at` in the log (the same machine's clock; a move not stored by the end, as after a
game the engine ended, is counted apart): min, p50, p90, p99, max.

    python3 scripts/bench_follow.py --service URL --token TOKEN --service-pid PID \\
        --database-url URL --games twic1599.pgn [--boards 1000] [--seconds 300] [--pace 60]
"""
import argparse
import asyncio
import bisect
import http.client
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_claim import games as pgn_games  # noqa: E402

EVENT = "Follow Bench Olympiad 2026"
BASE_S = 5400
INCREMENT_S = 30
CLK_TCK = os.sysconf("SC_CLK_TCK")


def parse():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--service", required=True)
    p.add_argument("--token", required=True)
    p.add_argument("--service-pid", type=int, required=True)
    p.add_argument("--database-url", required=True)
    p.add_argument("--games", required=True)
    p.add_argument("--feed-port", type=int, default=18294)
    p.add_argument("--boards", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=300)
    p.add_argument("--pace", type=float, default=60, help="mean seconds between two moves of a board")
    p.add_argument("--scramble-share", type=float, default=0.3)
    p.add_argument("--seed", type=int, default=34)
    return p.parse_args()


class Board:
    """One board's game, its schedule and its served texts."""

    def __init__(self, sans, start_ply, rng, pace):
        self.sans = sans
        self.start_ply = start_ply
        # Seconds after the window opens at which each half-move after start_ply appears.
        self.offsets = []
        t = 0.0
        for ply in range(start_ply + 1, len(sans) + 1):
            if 61 <= ply <= 80:
                t += rng.uniform(2, 6)
            else:
                t += max(3.0, rng.expovariate(1 / pace))
            self.offsets.append(t)
        # The mover's seconds left after each half-move: a think time per move, the increment.
        left = [BASE_S, BASE_S]
        self.clocks = []
        for ply in range(1, len(sans) + 1):
            side = (ply - 1) % 2
            think = rng.uniform(2, 6) if 61 <= ply <= 80 else rng.uniform(20, 150)
            left[side] = max(5, int(left[side] - think + INCREMENT_S))
            self.clocks.append(left[side])
        self.texts = {}

    def plies_at(self, elapsed):
        """The half-moves shown `elapsed` seconds into the window (None: before it)."""
        if elapsed is None:
            return self.start_ply
        return self.start_ply + bisect.bisect_right(self.offsets, elapsed)

    def text(self, plies):
        text = self.texts.get(plies)
        if text is None:
            moves = [f"{san} {self.clocks[i]}" for i, san in enumerate(self.sans[:plies])]
            text = json.dumps({"moves": moves, "result": "*", "chess960": 518}).encode()
            self.texts[plies] = text
        return text


class Feed:
    """The DGT LiveChess feed: `/round/game-N.json`, HTTP/1.1 keep-alive."""

    def __init__(self, boards):
        self.boards = boards
        self.window_start = None  # time.time() when the window opened
        self.frozen_at = None  # seconds into the window when the feed stopped moving
        self.requests = 0
        self.requests_in_window = 0

    def elapsed(self):
        if self.window_start is None:
            return None
        elapsed = time.time() - self.window_start
        return elapsed if self.frozen_at is None else min(elapsed, self.frozen_at)

    async def handle(self, reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1].decode()
                self.requests += 1
                body, status = b"none", b"404 Not Found"
                if path.startswith("/round/game-") and path.endswith(".json"):
                    number = int(path[len("/round/game-"):-len(".json")])
                    board = self.boards.get(number)
                    if board is not None:
                        if self.window_start is not None and self.frozen_at is None:
                            self.requests_in_window += 1
                        body, status = board.text(board.plies_at(self.elapsed())), b"200 OK"
                writer.write(b"HTTP/1.1 " + status + b"\r\nContent-Type: application/json\r\n"
                             b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
                await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.CancelledError, ConnectionError, IndexError, ValueError):
            pass
        finally:
            writer.close()


def api(service, token):
    url = urllib.parse.urlparse(service)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(method, path, body=None):
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        data = response.read()
        if response.status >= 300:
            raise SystemExit(f"{method} {path}: {response.status} {data[:500]!r}")
        return json.loads(data) if data else None

    return call


def psql(database_url, sql):
    out = subprocess.run(["psql", database_url, "-AtXqc", sql], check=True, capture_output=True, text=True)
    return [line.split("|") for line in out.stdout.splitlines() if line]


def cpu_ticks(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    except (FileNotFoundError, ProcessLookupError):
        return None


def backends(database_url):
    rows = psql(database_url, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                              "AND pid <> pg_backend_pid()")
    return {int(r[0]) for r in rows}


def memory(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(value.split()[0]) // 1024
    return values


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * len(values) + 0.5) - 1))]


def stored_moves(database_url):
    """Per board, the stored moves' recorded_at (epoch seconds), in ply order."""
    rows = psql(database_url,
                "SELECT (c.payload->>'board')::int, extract(epoch FROM m.recorded_at) "
                "FROM events m JOIN events c ON c.game_id = m.game_id AND c.event_type = 'game_created' "
                "WHERE m.event_type = 'move' ORDER BY 1, m.seq")
    per_board = {}
    for board, at in rows:
        per_board.setdefault(int(board), []).append(float(at))
    return per_board


async def main():
    args = parse()
    rng = random.Random(args.seed)
    with open(args.games, encoding="utf-8") as f:
        lines = [g for g in pgn_games(f.read()) if len(g) >= 60]
    boards = {}
    for number in range(1, args.boards + 1):
        sans = lines[(number - 1) % len(lines)]
        if rng.random() < args.scramble_share:
            start = min(rng.randint(56, 64), len(sans) - 4)
        else:
            start = rng.randint(2, min(50, len(sans) - 10))
        boards[number] = Board(sans, start, rng, args.pace)
    feed = Feed(boards)
    server = await asyncio.start_server(feed.handle, "127.0.0.1", args.feed_port)

    call = api(args.service, args.token)
    tournament = call("POST", "/v1/tournaments", {
        "name": EVENT, "site": "Bench Hall", "starts_on": "2026-11-20", "ends_on": "2026-11-30",
        "time_control": {"kind": "standard", "base_ms": BASE_S * 1000, "increment_ms": INCREMENT_S * 1000},
        "laws_edition": "2023", "arbiters": ["IA Bench"]})
    tid = tournament["tournament_id"]
    pairings = [{"board": n, "white": {"name": f"White, Board {n}"}, "black": {"name": f"Black, Board {n}"}}
                for n in boards]
    loop = asyncio.get_running_loop()
    started = time.time()
    await loop.run_in_executor(None, call, "POST", f"/v1/tournaments/{tid}/rounds/1/pairings",
                               {"pairings": pairings})
    print(f"{len(boards)} boards loaded in {time.time() - started:.1f} s", flush=True)
    await loop.run_in_executor(None, call, "PUT", f"/v1/tournaments/{tid}/rounds/1/follow",
                               {"kind": "dgt_json", "url": f"http://127.0.0.1:{args.feed_port}/round/"})

    # Warm-up: every board's opening part stored (it stands from the second poll on).
    opening = sum(b.start_ply for b in boards.values())
    started = time.time()
    while True:
        await asyncio.sleep(2)
        count = int(psql(args.database_url, "SELECT count(*) FROM events WHERE event_type = 'move'")[0][0])
        if count >= opening:
            break
        if time.time() - started > 1800:
            raise SystemExit(f"warm-up: {count} of {opening} opening half-moves stored after 30 minutes")
    print(f"warm-up: {opening} opening half-moves stored in {time.time() - started:.1f} s", flush=True)
    await asyncio.sleep(3)

    # The window.
    pg_before = {pid: cpu_ticks(pid) for pid in backends(args.database_url)}
    svc_before = cpu_ticks(args.service_pid)
    own_before = resource.getrusage(resource.RUSAGE_SELF)
    load_before = os.getloadavg()
    feed.window_start = time.time()
    rss_samples = []
    while time.time() - feed.window_start < args.seconds:
        await asyncio.sleep(5)
        rss_samples.append(memory(args.service_pid)["VmRSS"])
    feed.frozen_at = args.seconds
    window = time.time() - feed.window_start
    svc_after = cpu_ticks(args.service_pid)
    pg_after = {pid: cpu_ticks(pid) for pid in backends(args.database_url)}
    own_after = resource.getrusage(resource.RUSAGE_SELF)
    load_after = os.getloadavg()
    mem = memory(args.service_pid)
    # Let the last moves be stored (each needs a second poll that shows it).
    await asyncio.sleep(5)
    server.close()

    svc_cpu = (svc_after - svc_before) / CLK_TCK
    both = [pid for pid in pg_before if pid in pg_after and pg_before[pid] is not None and pg_after[pid] is not None]
    pg_cpu = sum(pg_after[pid] - pg_before[pid] for pid in both) / CLK_TCK
    new_pg = [pid for pid in pg_after if pid not in pg_before and pg_after[pid] is not None]
    pg_cpu += sum(pg_after[pid] for pid in new_pg) / CLK_TCK
    gone = len([pid for pid in pg_before if pid not in pg_after])
    feed_cpu = (own_after.ru_utime + own_after.ru_stime - own_before.ru_utime - own_before.ru_stime)

    stored = stored_moves(args.database_url)
    latencies, appeared, missing = [], 0, 0
    for number, board in boards.items():
        times = stored.get(number, [])
        for index, offset in enumerate(board.offsets):
            if offset > args.seconds:
                break
            ply = board.start_ply + index + 1
            appeared += 1
            if ply > len(times):
                missing += 1
                continue
            # From the moment the feed began to show the move.
            latencies.append(times[ply - 1] - (feed.window_start + offset))

    n = len(boards)
    print()
    print(f"boards {n}, window {window:.0f} s, poll every 1 s; load average "
          f"{load_before[0]:.1f} at the start, {load_after[0]:.1f} at the end ({os.cpu_count()} cores)")
    print(f"feed requests per board per second: {feed.requests_in_window / n / window:.2f}")
    print(f"moves that appeared in the window: {appeared} ({appeared / window:.1f}/s); "
          f"stored: {len(latencies)}; not stored by the end: {missing}")
    print(f"service CPU: {svc_cpu:.1f} s = {svc_cpu / window:.3f} cores = "
          f"{svc_cpu / window / n * 1e3:.3f} ms per board per second")
    print(f"PostgreSQL backends of the benchmark database ({len(both) + len(new_pg)}, {gone} gone): "
          f"{pg_cpu:.1f} s = {pg_cpu / window:.3f} cores = {pg_cpu / window / n * 1e3:.3f} ms per board per second")
    print(f"together: {(svc_cpu + pg_cpu) / window:.3f} cores for {n} boards")
    print(f"service memory: VmRSS {mem.get('VmRSS')} MiB at the end (max sampled "
          f"{max(rss_samples) if rss_samples else '?'} MiB), VmHWM {mem.get('VmHWM')} MiB")
    print(f"the feed server (this process): {feed_cpu:.1f} s CPU")
    if latencies:
        ms = [1000 * x for x in latencies]
        print("feed change to stored event (ms): min {:.0f}, p50 {:.0f}, p90 {:.0f}, p99 {:.0f}, max {:.0f}, mean {:.0f}"
              .format(min(ms), percentile(ms, 50), percentile(ms, 90), percentile(ms, 99), max(ms),
                      statistics.mean(ms)))


if __name__ == "__main__":
    asyncio.run(main())
