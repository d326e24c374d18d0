"""Records a whole real game through the Python client generated from openapi/openapi.json.

Run by tests/api/generated_client.rs against a live server on a fresh database; every HTTP
request goes through the generated package `arbiter_client` (openapi-python-client 0.29.1),
nothing else. The game is a real one read from a PGN file: its moves are recorded one by one
with the mover's clock from `[%clk]`; when its position stands for the second time the player
having the move claims a repetition too early (9.2: the claim is rejected and the opponent
gets extra time, 9.5.3 / B.3), and when it stands for the third time the claim is upheld and
the game ends drawn. Finally the game's PGN is fetched back and must hold every move.

Environment: ARBITER_URL, ARBITER_TOKEN (an arbiter's), ARBITER_PGN (a PGN file) and
ARBITER_SITE (the `Site` tag of the game to record). Exits non-zero with a message on the
first thing that is not as it should be.
"""

import json
import os
import re
import sys
import uuid

from arbiter_client import AuthenticatedClient
from arbiter_client.api.records import pgn as game_pgn
from arbiter_client.api.events import append_events, read_events
from arbiter_client.api.games import create_game, get_game
from arbiter_client.models import (
    AppendRequest,
    AppendResponse,
    ClaimEvent,
    ClaimEventRequest,
    ClaimEventRequestType,
    ClaimKind,
    ClaimOutcome,
    ClaimRuledEvent,
    ClockReading,
    CreateGameRequest,
    EventPage,
    GameCreatedEvent,
    GameCreatedResponse,
    GameDetail,
    GameEndedEvent,
    GameResult,
    GameStatus,
    MoveEvent,
    MoveEventRequest,
    MoveEventRequestType,
    PenaltyAppliedEvent,
    Player,
    Side,
    Termination,
    TimeControl,
    TimeControlKind,
)

CLOCK = re.compile(r"\[%clk (\d+):(\d\d):(\d\d(?:\.\d+)?)\]")
SAN = re.compile(r"^(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN])?|O-O(?:-O)?)[+#]?$")
# Every event id is derived from the game and the event's place, so a rerun is recognised.
NAMESPACE = uuid.UUID("0b7c8f1e-2d35-4a8e-9c61-5f0a3e2d9b47")


def fail(message):
    print(f"record_game.py: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def read_game(path, site):
    """The tags and the (SAN, clock in ms or None) moves of the game with this Site tag."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    for chunk in re.split(r"\n\n(?=\[)", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', chunk, re.MULTILINE))
        if tags.get("Site") != site:
            continue
        movetext = "\n".join(line for line in chunk.splitlines() if not line.startswith("["))
        moves = []
        for token in re.findall(r"\{[^}]*\}|[^\s{}]+", movetext):
            if token.startswith("{"):
                found = CLOCK.search(token)
                if found and moves:
                    h, m, s = found.groups()
                    moves[-1] = (moves[-1][0], round((int(h) * 3600 + int(m) * 60 + float(s)) * 1000))
            elif SAN.match(token):
                moves.append((token, None))
        return tags, moves
    fail(f"no game with Site {site!r} in {path}")


def sans_in_pgn(text):
    """The SAN moves of a PGN text, in order (tags, comments and move numbers left out)."""
    movetext = "\n".join(line for line in text.splitlines() if not line.startswith("["))
    movetext = re.sub(r"\{[^}]*\}", " ", movetext)
    return [token for token in movetext.split() if SAN.match(token)]


def time_control(tag):
    """The time control of a `TimeControl` tag `base+increment` (seconds), by the FIDE
    definitions: 10 minutes or less for 60 moves is blitz, less than 60 minutes rapid."""
    base, _, increment = tag.partition("+")
    base_ms, increment_ms = int(base) * 1000, int(increment or 0) * 1000
    per_game = base_ms + 60 * increment_ms
    if per_game <= 10 * 60_000:
        kind = TimeControlKind.BLITZ
    elif per_game < 60 * 60_000:
        kind = TimeControlKind.RAPID
    else:
        kind = TimeControlKind.STANDARD
    return TimeControl(kind=kind, base_ms=base_ms, increment_ms=increment_ms)


def other(side):
    return Side.BLACK if side == Side.WHITE else Side.WHITE


def main():
    url, token = os.environ["ARBITER_URL"], os.environ["ARBITER_TOKEN"]
    tags, moves = read_game(os.environ["ARBITER_PGN"], os.environ["ARBITER_SITE"])
    check(moves and all(clock is not None for _, clock in moves), "every move has a [%clk]")
    client = AuthenticatedClient(base_url=url, token=token)

    created = create_game.sync_detailed(
        client=client,
        body=CreateGameRequest(
            white=Player(name=tags["White"]),
            black=Player(name=tags["Black"]),
            event=tags["Event"],
            round_="1",
            site=tags["Site"],
            time_control=time_control(tags["TimeControl"]),
        ),
    )
    check(created.status_code == 201, f"creating the game answered {created.status_code}: {created.content!r}")
    check(isinstance(created.parsed, GameCreatedResponse), f"creation decoded as {created.parsed!r}")
    check(isinstance(created.parsed.event.event, GameCreatedEvent), "seq 1 decodes as a GameCreatedEvent")
    game_id = created.parsed.game.game_id
    expected_seq = created.parsed.game.last_seq

    def append(event):
        nonlocal expected_seq
        answer = append_events.sync_detailed(
            game_id, client=client, body=AppendRequest(expected_seq=expected_seq, events=[event])
        )
        check(answer.status_code == 201, f"appending {event.to_dict()} answered {answer.status_code}: {answer.content!r}")
        check(isinstance(answer.parsed, AppendResponse), f"the append decoded as {answer.parsed!r}")
        expected_seq = answer.parsed.last_seq
        return [envelope.event for envelope in answer.parsed.events]

    def state():
        detail = get_game.sync(game_id, client=client)
        check(isinstance(detail, GameDetail), f"the game decoded as {detail!r}")
        return detail.state

    def claim_repetition(by):
        return append(
            ClaimEventRequest(
                type_=ClaimEventRequestType.CLAIM,
                by=by,
                kind=ClaimKind.REPETITION,
                event_id=uuid.uuid5(NAMESPACE, f"{game_id} claim {expected_seq}"),
            )
        )

    incorrect_claim_ply = correct_claim_ply = None
    for ply, (san, clock_ms) in enumerate(moves, start=1):
        by = Side.WHITE if ply % 2 == 1 else Side.BLACK
        reading = ClockReading(white_ms=clock_ms) if by == Side.WHITE else ClockReading(black_ms=clock_ms)
        stored = append(
            MoveEventRequest(
                type_=MoveEventRequestType.MOVE,
                by=by,
                san=san,
                clock=reading,
                event_id=uuid.uuid5(NAMESPACE, f"{game_id} ply {ply}"),
            )
        )
        check(isinstance(stored[0], MoveEvent) and stored[0].san == san, f"ply {ply} stored as {stored[0]!r}")
        now = state()
        check(now.status == GameStatus.IN_PROGRESS, f"the game is still being played after ply {ply}")

        if now.repetition_count == 2 and incorrect_claim_ply is None:
            # 9.2.2: the position has appeared only twice, so the claim is incorrect (9.5.3).
            claimant = now.side_to_move
            before = now.clocks
            ruled = claim_repetition(claimant)
            check(isinstance(ruled[0], ClaimEvent), f"the claim stored as {ruled[0]!r}")
            rulings = [e for e in ruled if isinstance(e, ClaimRuledEvent)]
            penalties = [e for e in ruled if isinstance(e, PenaltyAppliedEvent)]
            check(len(rulings) == 1 and rulings[0].outcome == ClaimOutcome.REJECTED, f"the early claim was rejected: {ruled!r}")
            check(len(penalties) == 1, f"one penalty for the incorrect claim: {ruled!r}")
            penalty = penalties[0]
            check(penalty.side == other(claimant), f"the opponent receives the time: {penalty!r}")
            # Blitz under the 2023 Laws: one minute (B.3 with A.3).
            check(penalty.add_ms == 60_000, f"one minute extra in blitz: {penalty!r}")
            check(not any(isinstance(e, GameEndedEvent) for e in ruled), "an incorrect claim does not end the game")
            after = state().clocks
            opponent_ms = lambda clocks: clocks.black_ms if claimant == Side.WHITE else clocks.white_ms
            check(
                opponent_ms(after) == opponent_ms(before) + 60_000,
                f"the opponent's clock shows the extra minute: {before!r} -> {after!r}",
            )
            incorrect_claim_ply = ply

        elif now.repetition_count >= 3:
            # 9.2.2: the position has just appeared for the third time; the player having the
            # move claims, the claim is upheld and the game is drawn.
            ruled = claim_repetition(now.side_to_move)
            rulings = [e for e in ruled if isinstance(e, ClaimRuledEvent)]
            ended = [e for e in ruled if isinstance(e, GameEndedEvent)]
            check(len(rulings) == 1 and rulings[0].outcome == ClaimOutcome.UPHELD, f"the claim was upheld: {ruled!r}")
            check(len(ended) == 1, f"the game ended: {ruled!r}")
            check(ended[0].result == GameResult("1/2-1/2"), f"drawn: {ended[0]!r}")
            check(ended[0].termination == Termination.REPETITION_CLAIM, f"by a repetition claim: {ended[0]!r}")
            correct_claim_ply = ply
            break

    check(incorrect_claim_ply is not None, "the position stood twice somewhere, for the early claim")
    check(correct_claim_ply == len(moves), f"the claim was upheld after the last move of the record (ply {correct_claim_ply} of {len(moves)})")
    final = state()
    check(final.status == GameStatus.ENDED and final.result == GameResult("1/2-1/2"), f"the game is over and drawn: {final!r}")

    # The whole log decodes into the generated event classes, each by its `type`.
    log = read_events.sync_detailed(game_id, client=client, limit=10_000)
    page = log.parsed
    check(isinstance(page, EventPage), f"the log decoded as {page!r}")
    check(len(page.items) == expected_seq, f"{expected_seq} events in the log, read {len(page.items)}")
    wire_types = [item["event"]["type"] for item in json.loads(log.content)["items"]]
    for envelope, wire_type in zip(page.items, wire_types):
        expected_class = "".join(word.capitalize() for word in wire_type.split("_")) + "Event"
        check(
            type(envelope.event).__name__ == expected_class,
            f"seq {envelope.seq} ({wire_type}) decoded as {type(envelope.event).__name__}",
        )

    answer = game_pgn.sync_detailed(game_id, client=client)
    check(answer.status_code == 200 and isinstance(answer.parsed, str), f"the PGN answered {answer.status_code}")
    text = answer.parsed
    check(sans_in_pgn(text) == [san for san, _ in moves], f"the PGN holds the moves:\n{text}")
    check(text.count("[%clk") == len(moves), f"a [%clk] after every move:\n{text}")
    check('[Result "1/2-1/2"]' in text, f"the PGN gives the draw:\n{text}")

    print(
        f"record_game.py: {tags['White']} - {tags['Black']} ({tags['Site']}): {len(moves)} moves recorded "
        f"with clocks; early repetition claim after ply {incorrect_claim_ply} rejected with one minute to "
        f"the opponent; claim after ply {correct_claim_ply} upheld, drawn; {len(page.items)} events in the "
        f"log; the PGN holds every move"
    )


if __name__ == "__main__":
    main()
