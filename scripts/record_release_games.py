#!/usr/bin/env python3
"""Records, through a running arbiter's HTTP API, games covering every recorded event kind,
every decision kind (claim_ruled upheld and rejected, penalty_applied, game_ended with every
termination, arbiter_decision, appeal_decided) and games left in progress. Used by
scripts/record-release-fixture.sh; written against the API of release v0.1.0 and kept
compatible with later ones, so that each release can record the same games.

    record_release_games.py BASE_URL ARBITER_TOKEN APPEALS_TOKEN READS.json

READS.json receives what the release answers to `GET /v1/games/{id}` for every game, keyed
by game id: the upgrade test checks that the current release reads each game the same.
"""
import json
import sys
import urllib.error
import urllib.request

BASE, ARBITER, APPEALS, READS = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
GAMES = []


def call(method, path, body=None, token=ARBITER, refusal=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    request.add_header("Authorization", "Bearer " + token)
    request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        if refusal is not None and error.code == 422 and f'"code":"{refusal}"' in text:
            return None
        sys.exit(f"{method} {path} {json.dumps(body)}: {error.code} {text}")


class Game:
    def __init__(self, board, kind="standard", base_ms=5_400_000, increment_ms=30_000,
                 start_fen=None, regulations=None):
        settings = {
            "white": {"name": "White, Player " + str(board)},
            "black": {"name": "Black, Player " + str(board)},
            "event": "Release fixture",
            "round": "1",
            "board": board,
            "time_control": {"kind": kind, "base_ms": base_ms, "increment_ms": increment_ms},
        }
        if start_fen:
            settings["start_fen"] = start_fen
        if regulations:
            settings["regulations"] = regulations
        self.id = call("POST", "/v1/games", settings)["game"]["game_id"]
        self.seq = 1
        GAMES.append(self.id)

    def add(self, events, token=ARBITER, refusal=None):
        """Records `events`; a release that refuses them with the code `refusal` records
        nothing (what an earlier release accepted and a later one's rules refuse)."""
        answer = call("POST", f"/v1/games/{self.id}/events",
                      {"expected_seq": self.seq, "events": events}, token, refusal)
        if answer is None:
            return []
        self.seq = answer["last_seq"]
        return answer["events"]

    def moves(self, text, first="white"):
        side = first
        events = []
        for san in text.split():
            events.append({"type": "move", "by": side, "san": san})
            side = "black" if side == "white" else "white"
        return self.add(events)


def seq_of(stored, kind):
    return next(e["seq"] for e in stored if e["event"]["type"] == kind)


KNIGHTS = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"

# 1. Clocks, a touch and its correction, a declined offer, a first illegal move (penalty),
#    a resignation.
g = Game(1)
g.add([{"type": "move", "by": "white", "san": "e4"},
       {"type": "clock_press", "by": "white", "white_ms": 5_395_000, "black_ms": 5_400_000},
       {"type": "move", "by": "black", "san": "e5"},
       {"type": "clock_press", "by": "black"}])
touched = g.add([{"type": "touch", "by": "white", "square": "g1"}])[0]["seq"]
g.add([{"type": "correction", "retracts_seq": touched, "reason": "the player adjusted the knight"}])
g.add([{"type": "clock_pause", "by": "white"}, {"type": "clock_resume"},
       {"type": "clock_adjust", "side": "black", "delta_ms": 60_000, "reason": "faulty clock"}])
g.moves("Nf3")
g.add([{"type": "draw_offer", "by": "white"}, {"type": "draw_decline", "by": "black"}])
g.add([{"type": "illegal_move", "by": "black", "description": "Ke7 then Ke6", "completed": True},
       {"type": "move", "by": "black", "san": "Nc6"}])
g.add([{"type": "resign", "by": "white"}])

# 2. A correct repetition claim (claim_ruled upheld, game_ended repetition_claim).
g = Game(2)
g.moves(KNIGHTS)
g.add([{"type": "claim", "by": "white", "kind": "repetition"}])

# 3. An incorrect claim with a written move (claim_ruled rejected with a penalty and the
#    move the claimant must play), then the move.
g = Game(3)
g.moves("Nf3 Nf6 Ng1 Ng8 Nf3")
g.add([{"type": "claim", "by": "black", "kind": "repetition", "intended_move": "Nf6"}])
g.moves("Nf6 e4", first="black")
g.add([{"type": "draw_offer", "by": "black"}, {"type": "draw_accept", "by": "white"}])

# 4. Rapid: an incorrect fifty-move claim (A.3), then a flag with mating material.
g = Game(4, kind="rapid", base_ms=900_000, increment_ms=10_000)
g.moves("e4 e5")
g.add([{"type": "claim", "by": "white", "kind": "fifty_moves"}])
g.moves("Nf3 Nc6")
g.add([{"type": "flag", "side": "black"}])

# 5. Blitz: an incorrect repetition claim, then fivefold repetition.
g = Game(5, kind="blitz", base_ms=180_000, increment_ms=2_000)
g.moves("Nf3 Nf6")
g.add([{"type": "claim", "by": "black", "kind": "repetition"}])
g.moves(" ".join([KNIGHTS] * 2)[len("Nf3 Nf6 "):])

# 6. A correct fifty-move claim.
g = Game(6, start_fen="4k3/8/8/8/8/8/R7/4K3 w - - 99 80")
g.moves("Ra3")
g.add([{"type": "claim", "by": "black", "kind": "fifty_moves"}])

# 7. Checkmate.
g = Game(7)
g.moves("f3 e5 g4 Qh4#")

# 8. Stalemate.
g = Game(8, start_fen="7k/4Q3/6K1/8/8/8/8/8 w - - 0 1")
g.moves("Qf7")

# 9. A dead position (king against king).
g = Game(9, start_fen="8/8/8/4k3/8/8/3n4/4K3 w - - 0 1")
g.moves("Kxd2")

# 10. Seventy-five moves.
g = Game(10, start_fen="8/8/8/4k3/8/8/R7/4K3 w - - 149 80")
g.moves("Ra3")

# 11. Two illegal moves by the same player in standard play (the second loses).
g = Game(11)
g.moves("e4 e5")
g.add([{"type": "illegal_move", "by": "white", "description": "Ke3", "completed": True},
       {"type": "move", "by": "white", "san": "Nf3"},
       {"type": "move", "by": "black", "san": "Nc6"},
       {"type": "illegal_move", "by": "white", "description": "Bxf7 through the pawn", "completed": True}])

# 12. A flag against a lone king (drawn).
g = Game(12, start_fen="4k3/8/8/8/8/8/8/4K2Q b - - 0 1")
g.add([{"type": "flag", "side": "white"}])

# 13. Quickplay finish: the claim awaits the arbiter, who warns, penalises and ends the game.
g = Game(13, kind="rapid", base_ms=900_000, increment_ms=0, regulations={"quickplay_finish": True})
g.moves("e4 e5")
claim = g.add([{"type": "claim", "by": "white", "kind": "quickplay_finish"}])[0]["seq"]
g.add([{"type": "arbiter_decision", "subject_seq": claim, "decision": "claim_postponed",
        "reason": "the arbiter watches the next moves (III.5.1)"}])
g.add([{"type": "arbiter_decision", "decision": "warning", "reason": "talking at the board (12.9.1)"}])
g.add([{"type": "arbiter_decision", "decision": "time_penalty", "reason": "distracting the opponent (12.9.2)",
        "penalty": {"side": "white", "add_ms": 120_000}}])
g.add([{"type": "arbiter_decision", "subject_seq": claim, "decision": "game_ended",
        "reason": "Black is making no effort to win by normal means (III.5.1)", "result": "1/2-1/2"}])

# 14. A quickplay claim rejected by the arbiter, then resignation.
g = Game(14, kind="rapid", base_ms=900_000, increment_ms=0, regulations={"quickplay_finish": True})
g.moves("d4 d5")
claim = g.add([{"type": "claim", "by": "black", "kind": "quickplay_finish"}])[0]["seq"]
g.add([{"type": "arbiter_decision", "subject_seq": claim, "decision": "claim_rejected",
        "reason": "White is trying to win by normal means"}])
g.add([{"type": "resign", "by": "black"}])

# 15. A flag, appealed: the appeal is upheld and the game drawn (game_ended by appeal);
#     a second appeal, dismissed (releases from 0.3.0 refuse a second decision: appeals are
#     final, and that release records no second decision).
g = Game(15)
g.moves("e4 e5 Nf3")
ended = seq_of(g.add([{"type": "flag", "side": "white"}]), "game_ended")
g.add([{"type": "appeal_lodged", "by": "White (the flagged player)", "against_seq": ended,
        "grounds": "the clock was faulty"}], token=APPEALS)
g.add([{"type": "appeal_decided", "against_seq": ended, "upheld": True, "result": "1/2-1/2",
        "reason": "the clock was faulty; the game is drawn"}], token=APPEALS)
g.add([{"type": "appeal_lodged", "by": "Black", "against_seq": ended, "grounds": "the clock was fine"}],
      token=APPEALS)
g.add([{"type": "appeal_decided", "against_seq": ended, "upheld": False, "reason": "already decided"}],
      token=APPEALS, refusal="appeal_already_decided")

# 16-18. Games in progress: after moves and clock readings, after a rejected claim with a
#        written move still to play, after a pending quickplay claim.
g = Game(16)
g.moves("d4 Nf6 c4 e6 Nc3 Bb4")
g.add([{"type": "clock_press", "by": "black", "white_ms": 5_300_000, "black_ms": 5_350_000}])
g = Game(17)
g.moves("Nf3 Nf6 Ng1 Ng8 Nf3")
g.add([{"type": "claim", "by": "black", "kind": "repetition", "intended_move": "Nf6"}])
g = Game(18, kind="rapid", base_ms=900_000, increment_ms=0, regulations={"quickplay_finish": True})
g.moves("c4 c5")
g.add([{"type": "claim", "by": "white", "kind": "quickplay_finish"}])

reads = {game: call("GET", f"/v1/games/{game}") for game in GAMES}
with open(READS, "w") as out:
    json.dump(reads, out, indent=1, sort_keys=True)
    out.write("\n")
print(f"recorded {len(GAMES)} games")
