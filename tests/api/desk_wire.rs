//! The back office's game desk records what the API records (issue 39): for every action
//! of the desk's forms (and of the results page and a decision's review page, which post to
//! the same desk route), an arbiter signs in, sends the form as a browser sends it as drawn
//! (its hidden fields, CSRF token, `expected_seq` and event ids, its selects and ticked boxes
//! as they stand, and what the arbiter typed or chose), and the game's log is then read
//! through the API. The events appended must be the wire events of the action, and exactly
//! the events (the service's consequences included) that the same events appended through
//! `POST /v1/games/{id}/events` append to a twin game. Also: a form sent twice is stored
//! once, and a form drawn before someone else recorded is refused with what to do.

use crate::client::{Api, api};
use crate::office::{ORIGIN, page_text, signed_in};
use crate::support::{TestDb, standard_game};
use actix_web::test::TestRequest;
use serde_json::{Value, json};
use uuid::Uuid;

/// The page that draws a family's form, and how the form is found on it.
enum Page {
    /// The game desk: the form with this id.
    Desk(&'static str),
    /// The round's results page: the result form of the game's board.
    Results,
    /// The review page of the decision at `seq`: the form recording `kind`.
    Review { seq: u64, kind: &'static str },
}

/// Who signs in to send the form (and appends the twin's events through the API).
#[derive(Clone, Copy)]
enum Who {
    Arbiter,
    Appeals,
}

/// One event a form must append, in the order of the log.
enum Wire {
    /// An event of the vocabulary, exactly as the log must hold it.
    Recorded(Value),
    /// A consequence the service appended: at least these fields.
    Consequence(Value),
}

/// One action of the desk, or one of its kinds: the form, what is chosen and typed in it,
/// and the wire events it must append.
struct Family {
    /// What the row is, for the failure message.
    name: &'static str,
    /// The game's settings.
    settings: Value,
    /// Appends made through the API before the form is drawn (one JSON array each).
    before: Vec<Value>,
    who: Who,
    page: Page,
    /// The fields the arbiter fills in or chooses; an empty value unticks a box.
    fields: Vec<(&'static str, &'static str)>,
    wire: Vec<Wire>,
}

fn recorded(event: Value) -> Wire {
    Wire::Recorded(event)
}

fn consequence(event: Value) -> Wire {
    Wire::Consequence(event)
}

/// A rapid game of 15 minutes without increment.
fn rapid() -> Value {
    let mut settings = standard_game();
    settings["time_control"] = json!({"kind": "rapid", "base_ms": 900_000});
    settings
}

/// A rapid game without increment under the Guidelines III (quickplay finish).
fn rapid_quickplay() -> Value {
    let mut settings = rapid();
    settings["regulations"] = json!({"quickplay_finish": true});
    settings
}

/// A game starting from `fen`.
fn from_fen(fen: &str) -> Value {
    let mut settings = standard_game();
    settings["start_fen"] = json!(fen);
    settings
}

const REPORTED: &str = "Result reported by both players at the end of the game (8.7).";

/// Every family of the desk, one row per kind the forms offer.
fn families() -> Vec<Family> {
    let row = |name, before: Vec<Value>, page, fields, wire| Family {
        name,
        settings: standard_game(),
        before,
        who: Who::Arbiter,
        page,
        fields,
        wire,
    };
    let e4 = || json!([{"type": "move", "by": "white", "san": "e4"}]);
    // Agreement needs a move by each player (5.2.3); White offers after moving (9.1.2.1).
    let offered = || {
        json!([{"type": "move", "by": "white", "san": "e4"},
               {"type": "move", "by": "black", "san": "e5"},
               {"type": "move", "by": "white", "san": "Nf3"},
               {"type": "draw_offer", "by": "white"}])
    };
    let flagged = || json!([{"type": "flag", "side": "black"}]);
    let lodged = || {
        json!([{"type": "appeal_lodged", "by": "Black (Nepomniachtchi, Ian)", "against_seq": 3,
                "grounds": "My flag had not fallen."}])
    };
    let mut rows = vec![
        // Move, with its clock press.
        row(
            "move with the clock press and the mover's time",
            vec![],
            Page::Desk("form-move"),
            vec![("by", "white"), ("san", "e4"), ("clock", "1:29:51")],
            vec![
                recorded(json!({"type": "move", "by": "white", "san": "e4"})),
                recorded(
                    json!({"type": "clock_press", "by": "white", "white_ms": 5_391_000, "black_ms": null}),
                ),
            ],
        ),
        row(
            "move with the clock press and no time read",
            vec![e4()],
            Page::Desk("form-move"),
            vec![("by", "black"), ("san", "e5")],
            vec![
                recorded(json!({"type": "move", "by": "black", "san": "e5"})),
                recorded(
                    json!({"type": "clock_press", "by": "black", "white_ms": null, "black_ms": null}),
                ),
            ],
        ),
        row(
            "move without the clock press",
            vec![],
            Page::Desk("form-move"),
            vec![("by", "white"), ("san", "Nf3"), ("press", "")],
            vec![recorded(
                json!({"type": "move", "by": "white", "san": "Nf3"}),
            )],
        ),
        row(
            "move typed in UCI",
            vec![],
            Page::Desk("form-move"),
            vec![("by", "white"), ("san", "g1f3"), ("press", "")],
            vec![recorded(
                json!({"type": "move", "by": "white", "san": "g1f3"}),
            )],
        ),
        // Clock press, pause, resume, adjustment.
        row(
            "clock press by the button of one side",
            vec![e4()],
            Page::Desk("form-press-white"),
            vec![],
            vec![recorded(
                json!({"type": "clock_press", "by": "white", "white_ms": null, "black_ms": null}),
            )],
        ),
        row(
            "clock press with both times",
            vec![e4()],
            Page::Desk("form-press-times"),
            vec![
                ("by", "white"),
                ("white_time", "1:29:51"),
                ("black_time", "1:30:00"),
            ],
            vec![recorded(
                json!({"type": "clock_press", "by": "white", "white_ms": 5_391_000, "black_ms": 5_400_000}),
            )],
        ),
        row(
            "clock pause",
            vec![],
            Page::Desk("form-pause"),
            vec![],
            vec![recorded(json!({"type": "clock_pause", "by": null}))],
        ),
        row(
            "clock resume",
            vec![json!([{"type": "clock_pause"}])],
            Page::Desk("form-resume"),
            vec![],
            vec![recorded(json!({"type": "clock_resume"}))],
        ),
        row(
            "clock adjustment adding time",
            vec![],
            Page::Desk("form-adjust"),
            vec![
                ("side", "black"),
                ("delta", "+2:00"),
                ("reason", "9.5.3: White's incorrect claim"),
            ],
            vec![recorded(
                json!({"type": "clock_adjust", "side": "black", "delta_ms": 120_000,
                       "reason": "9.5.3: White's incorrect claim"}),
            )],
        ),
        row(
            "clock adjustment taking time",
            vec![],
            Page::Desk("form-adjust"),
            vec![
                ("side", "white"),
                ("delta", "-1:00"),
                ("reason", "6.10.2: the clock was set wrongly"),
            ],
            vec![recorded(
                json!({"type": "clock_adjust", "side": "white", "delta_ms": -60_000,
                       "reason": "6.10.2: the clock was set wrongly"}),
            )],
        ),
        // Touch.
        row(
            "touch, the square written in capitals",
            vec![],
            Page::Desk("form-touch"),
            vec![("by", "white"), ("square", "G1")],
            vec![recorded(
                json!({"type": "touch", "by": "white", "square": "g1"}),
            )],
        ),
        // Draw offer and its answers.
        row(
            "draw offer",
            vec![e4()],
            Page::Desk("form-draw_offer"),
            vec![("by", "white")],
            vec![recorded(json!({"type": "draw_offer", "by": "white"}))],
        ),
        row(
            "draw accepted",
            vec![offered()],
            Page::Desk("form-draw_accept"),
            vec![("by", "black")],
            vec![
                recorded(json!({"type": "draw_accept", "by": "black"})),
                consequence(
                    json!({"type": "game_ended", "result": "1/2-1/2", "termination": "agreement"}),
                ),
            ],
        ),
        row(
            "draw declined",
            vec![offered()],
            Page::Desk("form-draw_decline"),
            vec![("by", "black")],
            vec![recorded(json!({"type": "draw_decline", "by": "black"}))],
        ),
        // Resignation and flag fall.
        row(
            "resignation",
            vec![],
            Page::Desk("form-resign"),
            vec![("by", "black")],
            vec![
                recorded(json!({"type": "resign", "by": "black"})),
                consequence(
                    json!({"type": "game_ended", "result": "1-0", "termination": "resignation"}),
                ),
            ],
        ),
        row(
            "flag fall",
            vec![],
            Page::Desk("form-flag"),
            vec![("side", "black")],
            vec![
                recorded(json!({"type": "flag", "side": "black"})),
                consequence(json!({"type": "game_ended", "result": "1-0", "termination": "flag"})),
            ],
        ),
        // Claims.
        row(
            "claim of a repetition that has just appeared",
            vec![],
            Page::Desk("form-claim"),
            vec![("by", "white"), ("kind", "repetition")],
            vec![
                recorded(
                    json!({"type": "claim", "by": "white", "kind": "repetition", "intended_move": null}),
                ),
                // The start position has occurred once: an incorrect claim (9.2.2, 9.5.3).
                consequence(
                    json!({"type": "claim_ruled", "claim_seq": 2, "outcome": "rejected", "article": "9.2.2",
                           "must_play": null}),
                ),
                consequence(
                    json!({"type": "penalty_applied", "side": "black", "add_ms": 120_000, "article": "9.5.3"}),
                ),
            ],
        ),
        row(
            "claim of a repetition with a written move",
            vec![],
            Page::Desk("form-claim"),
            vec![
                ("by", "white"),
                ("kind", "repetition"),
                ("intended_move", "Nf3"),
            ],
            vec![
                recorded(
                    json!({"type": "claim", "by": "white", "kind": "repetition", "intended_move": "Nf3"}),
                ),
                // Judged on the written move, which must then be played (9.2.1, 9.5.3).
                consequence(
                    json!({"type": "claim_ruled", "claim_seq": 2, "outcome": "rejected", "article": "9.2.1",
                           "must_play": "Nf3"}),
                ),
                consequence(
                    json!({"type": "penalty_applied", "side": "black", "add_ms": 120_000, "article": "9.5.3"}),
                ),
            ],
        ),
        row(
            "claim under the 50-move rule",
            vec![],
            Page::Desk("form-claim"),
            vec![("by", "black"), ("kind", "fifty_moves")],
            vec![
                recorded(
                    json!({"type": "claim", "by": "black", "kind": "fifty_moves", "intended_move": null}),
                ),
                // Black does not have the move: an incorrect claim (9.3.2, 9.5.3).
                consequence(
                    json!({"type": "claim_ruled", "claim_seq": 2, "outcome": "rejected", "article": "9.3.2"}),
                ),
                consequence(
                    json!({"type": "penalty_applied", "side": "white", "add_ms": 120_000, "article": "9.5.3"}),
                ),
            ],
        ),
        // Illegal moves and irregularities (7.5).
        row(
            "illegal move, completed",
            vec![],
            Page::Desk("form-illegal"),
            vec![
                ("by", "white"),
                ("kind", "illegal_move"),
                ("attempted_move", "Ke2"),
                ("description", "Ke2 with the pawn still on e2"),
            ],
            vec![
                recorded(
                    json!({"type": "illegal_move", "by": "white", "description": "Ke2 with the pawn still on e2",
                           "completed": true, "attempted_move": "Ke2"}),
                ),
                consequence(
                    json!({"type": "penalty_applied", "side": "black", "add_ms": 120_000, "article": "7.5.5"}),
                ),
            ],
        ),
        row(
            "illegal move, not completed",
            vec![],
            Page::Desk("form-illegal"),
            vec![
                ("by", "white"),
                ("kind", "illegal_move"),
                ("completed", ""),
                ("description", "reached for the king, the clock not pressed"),
            ],
            vec![recorded(json!({"type": "illegal_move", "by": "white",
                       "description": "reached for the king, the clock not pressed", "completed": false}))],
        ),
        row(
            "clock pressed without a move",
            vec![],
            Page::Desk("form-illegal"),
            vec![
                ("by", "white"),
                ("kind", "clock_without_move"),
                ("description", "pressed the clock without moving"),
            ],
            vec![
                recorded(
                    json!({"type": "illegal_move", "by": "white", "description": "pressed the clock without moving",
                           "completed": true, "kind": "clock_without_move"}),
                ),
                consequence(
                    json!({"type": "penalty_applied", "side": "black", "add_ms": 120_000, "article": "7.5.5"}),
                ),
            ],
        ),
        row(
            "move made with two hands",
            vec![],
            Page::Desk("form-illegal"),
            vec![
                ("by", "white"),
                ("kind", "two_hands"),
                ("attempted_move", "e2e4"),
                ("description", "castled with two hands"),
            ],
            vec![
                recorded(
                    json!({"type": "illegal_move", "by": "white", "description": "castled with two hands",
                           "completed": true, "attempted_move": "e2e4", "kind": "two_hands"}),
                ),
                consequence(
                    json!({"type": "penalty_applied", "side": "black", "add_ms": 120_000, "article": "7.5.5"}),
                ),
            ],
        ),
        // The arbiter's decisions.
        row(
            "arbiter's warning",
            vec![],
            Page::Desk("form-decision"),
            vec![
                ("decision", "warning"),
                ("reason", "11.5: the phone rang in the playing hall"),
            ],
            vec![recorded(
                json!({"type": "arbiter_decision", "subject_seq": null, "decision": "warning",
                       "reason": "11.5: the phone rang in the playing hall", "result": null, "penalty": null}),
            )],
        ),
        row(
            "arbiter's time penalty",
            vec![],
            Page::Desk("form-decision"),
            vec![
                ("decision", "time_penalty"),
                ("penalty_side", "black"),
                ("penalty_time", "2:00"),
                ("reason", "12.3: White spoke to Black"),
            ],
            vec![
                recorded(
                    json!({"type": "arbiter_decision", "subject_seq": null, "decision": "time_penalty",
                           "reason": "12.3: White spoke to Black", "result": null,
                           "penalty": {"side": "black", "add_ms": 120_000}}),
                ),
                consequence(
                    json!({"type": "penalty_applied", "side": "black", "add_ms": 120_000, "article": "12.9",
                           "cause_seq": 2}),
                ),
            ],
        ),
        row(
            "arbiter's decision that the game ended",
            vec![],
            Page::Desk("form-decision"),
            vec![
                ("decision", "game_ended"),
                ("result", "0-1"),
                ("cause", "rules_infraction"),
                ("reason", "11.3.2.2: a phone on White's person"),
            ],
            vec![
                recorded(
                    json!({"type": "arbiter_decision", "subject_seq": null, "decision": "game_ended",
                           "reason": "11.3.2.2: a phone on White's person", "result": "0-1", "penalty": null,
                           "cause": "rules_infraction"}),
                ),
                consequence(json!({"type": "game_ended", "result": "0-1"})),
            ],
        ),
        // A result, from the results page.
        row(
            "result 1-0 reported",
            vec![],
            Page::Results,
            vec![("result", "1-0")],
            vec![
                recorded(
                    json!({"type": "arbiter_decision", "subject_seq": null, "decision": "game_ended",
                           "reason": REPORTED, "result": "1-0", "penalty": null, "cause": "reported_result"}),
                ),
                consequence(json!({"type": "game_ended", "result": "1-0"})),
            ],
        ),
        row(
            "result ½-½ reported",
            vec![],
            Page::Results,
            vec![("result", "1/2-1/2")],
            vec![
                recorded(
                    json!({"type": "arbiter_decision", "subject_seq": null, "decision": "game_ended",
                           "reason": REPORTED, "result": "1/2-1/2", "penalty": null, "cause": "reported_result"}),
                ),
                consequence(json!({"type": "game_ended", "result": "1/2-1/2"})),
            ],
        ),
        row(
            "result 0-1 reported",
            vec![],
            Page::Results,
            vec![("result", "0-1")],
            vec![
                recorded(
                    json!({"type": "arbiter_decision", "subject_seq": null, "decision": "game_ended",
                           "reason": REPORTED, "result": "0-1", "penalty": null, "cause": "reported_result"}),
                ),
                consequence(json!({"type": "game_ended", "result": "0-1"})),
            ],
        ),
        row(
            "Black's forfeit",
            vec![],
            Page::Results,
            vec![("result", "forfeit:white")],
            vec![
                recorded(
                    json!({"type": "arbiter_decision", "subject_seq": null, "decision": "game_ended",
                           "reason": "Forfeit: Black did not play the game (6.7.1); White wins by forfeit.",
                           "result": "1-0", "penalty": null, "cause": "forfeit"}),
                ),
                consequence(json!({"type": "game_ended", "result": "1-0"})),
            ],
        ),
        row(
            "White's forfeit",
            vec![],
            Page::Results,
            vec![("result", "forfeit:black")],
            vec![
                recorded(
                    json!({"type": "arbiter_decision", "subject_seq": null, "decision": "game_ended",
                           "reason": "Forfeit: White did not play the game (6.7.1); Black wins by forfeit.",
                           "result": "0-1", "penalty": null, "cause": "forfeit"}),
                ),
                consequence(json!({"type": "game_ended", "result": "0-1"})),
            ],
        ),
        row(
            "double forfeit",
            vec![],
            Page::Results,
            vec![("result", "forfeit:both")],
            vec![
                recorded(
                    json!({"type": "arbiter_decision", "subject_seq": null, "decision": "game_ended",
                           "reason": "Double forfeit: neither player played the game (6.7.1); both lose.",
                           "result": "0-0", "penalty": null, "cause": "forfeit"}),
                ),
                consequence(json!({"type": "game_ended", "result": "0-0"})),
            ],
        ),
        // Appeals, from the review page of the decision appealed against.
        row(
            "appeal lodged",
            vec![flagged()],
            Page::Review {
                seq: 3,
                kind: "appeal_lodged",
            },
            vec![
                ("appellant", "Black (Nepomniachtchi, Ian)"),
                ("grounds", "My flag had not fallen."),
            ],
            vec![recorded(
                json!({"type": "appeal_lodged", "by": "Black (Nepomniachtchi, Ian)", "against_seq": 3,
                       "grounds": "My flag had not fallen."}),
            )],
        ),
        // Undo and correction.
        row(
            "undo of the last entry (a move and its press)",
            vec![json!([{"type": "move", "by": "white", "san": "e4"},
                        {"type": "clock_press", "by": "white"}])],
            Page::Desk("form-undo"),
            vec![("reason", "wrong move typed")],
            vec![
                recorded(
                    json!({"type": "correction", "retracts_seq": 3, "reason": "wrong move typed"}),
                ),
                recorded(
                    json!({"type": "correction", "retracts_seq": 2, "reason": "wrong move typed"}),
                ),
            ],
        ),
        row(
            "correction of one event",
            vec![e4()],
            Page::Desk("form-correction"),
            vec![("retracts_seq", "2"), ("reason", "wrong square typed")],
            vec![recorded(
                json!({"type": "correction", "retracts_seq": 2, "reason": "wrong square typed"}),
            )],
        ),
    ];
    // Quickplay finish (Guidelines III): a rapid game without increment.
    for (name, kind) in [
        ("claim under the quickplay finish", "quickplay_finish"),
        ("request for an increment", "increment_request"),
    ] {
        rows.push(Family {
            settings: rapid_quickplay(),
            ..row(
                name,
                vec![],
                Page::Desk("form-claim"),
                vec![("by", "white"), ("kind", kind)],
                vec![recorded(
                    json!({"type": "claim", "by": "white", "kind": kind, "intended_move": null}),
                )],
            )
        });
    }
    // 7.5.2: a pawn on the last rank, the clock pressed, the pawn not replaced.
    rows.push(Family {
        settings: from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 50"),
        ..row(
            "promotion without a piece",
            vec![],
            Page::Desk("form-illegal"),
            vec![
                ("by", "white"),
                ("kind", "promotion_without_piece"),
                ("attempted_move", "a7a8"),
                ("description", "the pawn left on a8"),
            ],
            vec![
                recorded(
                    json!({"type": "illegal_move", "by": "white", "description": "the pawn left on a8",
                           "completed": true, "attempted_move": "a7a8", "kind": "promotion_without_piece"}),
                ),
                consequence(
                    json!({"type": "penalty_applied", "side": "black", "add_ms": 120_000, "article": "7.5.5"}),
                ),
            ],
        )
    });
    // The arbiter's decisions on a claim awaiting them (the form names the open claim, #2).
    for (name, claim, fields, wire) in [
        (
            "arbiter postpones a quickplay-finish claim",
            "quickplay_finish",
            vec![
                ("decision", "claim_postponed"),
                ("reason", "III.5: the arbiter watches the game"),
            ],
            vec![recorded(
                json!({"type": "arbiter_decision", "subject_seq": 2, "decision": "claim_postponed",
                       "reason": "III.5: the arbiter watches the game", "result": null, "penalty": null}),
            )],
        ),
        (
            "arbiter rejects a quickplay-finish claim",
            "quickplay_finish",
            vec![
                ("decision", "claim_rejected"),
                ("reason", "III.5: Black is making efforts to win"),
            ],
            vec![
                recorded(
                    json!({"type": "arbiter_decision", "subject_seq": 2, "decision": "claim_rejected",
                           "reason": "III.5: Black is making efforts to win", "result": null, "penalty": null}),
                ),
                // A rejected claim gives the opponent two minutes (III.5.3).
                consequence(
                    json!({"type": "penalty_applied", "side": "black", "add_ms": 120_000, "article": "III.5.3",
                           "cause_seq": 3}),
                ),
            ],
        ),
        (
            "arbiter grants an increment",
            "increment_request",
            vec![
                ("decision", "increment_granted"),
                ("increment", "5"),
                ("reason", "III.4: an increment of 5 seconds for both"),
            ],
            vec![
                recorded(
                    json!({"type": "arbiter_decision", "subject_seq": 2, "decision": "increment_granted",
                           "reason": "III.4: an increment of 5 seconds for both", "result": null, "penalty": null,
                           "increment_ms": 5_000}),
                ),
                // The opponent receives two minutes with the increment (III.4).
                consequence(
                    json!({"type": "penalty_applied", "side": "black", "add_ms": 120_000, "article": "III.4",
                           "cause_seq": 3}),
                ),
            ],
        ),
    ] {
        rows.push(Family {
            settings: rapid_quickplay(),
            ..row(
                name,
                vec![json!([{"type": "claim", "by": "white", "kind": claim}])],
                Page::Desk("form-decision"),
                fields,
                wire,
            )
        });
    }
    // In rapid play an illegal move the opponent did not claim stands (A.5.2).
    rows.push(Family {
        settings: rapid(),
        ..row(
        "arbiter's decision that an illegal move stood",
        vec![json!([{"type": "move", "by": "white", "san": "e4"},
                    {"type": "move", "by": "black", "san": "e5"},
                    {"type": "move", "by": "white", "san": "Nf3"}])],
        Page::Desk("form-decision"),
        vec![
            ("decision", "illegal_move_stands"),
            ("attempted_move", "e8e6"),
            ("reason", "A.5.2: White did not claim before moving"),
        ],
        vec![recorded(
            json!({"type": "arbiter_decision", "subject_seq": null, "decision": "illegal_move_stands",
                   "reason": "A.5.2: White did not claim before moving", "result": null, "penalty": null,
                   "attempted_move": "e8e6"}),
        )],
    )
    });
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    rows.push(row(
        "arbiter's reconstruction of the position",
        vec![],
        Page::Desk("form-decision"),
        vec![
            ("decision", "position_reconstructed"),
            ("fen", start),
            ("reason", "7.6: the knights stood on the wrong squares"),
        ],
        vec![recorded(
            json!({"type": "arbiter_decision", "subject_seq": null, "decision": "position_reconstructed",
                   "reason": "7.6: the knights stood on the wrong squares", "result": null, "penalty": null,
                   "fen": start}),
        )],
    ));
    rows.push(row(
        "arbiter's count of the moves",
        vec![e4()],
        Page::Desk("form-decision"),
        vec![
            ("decision", "move_count_set"),
            ("count_side", "white"),
            ("count_moves", "1"),
            ("reason", "6.10.2: White has completed one move"),
        ],
        vec![recorded(
            json!({"type": "arbiter_decision", "subject_seq": null, "decision": "move_count_set",
                   "reason": "6.10.2: White has completed one move", "result": null, "penalty": null,
                   "move_count": {"side": "white", "moves": 1}}),
        )],
    ));
    // The appeals committee's decisions.
    for (name, fields, wire) in [
        (
            "appeal dismissed",
            vec![("reason", "The flag had fallen.")],
            vec![recorded(
                json!({"type": "appeal_decided", "against_seq": 3, "upheld": false, "result": null,
                       "reason": "The flag had fallen."}),
            )],
        ),
        (
            "appeal upheld with a new result",
            vec![
                ("upheld", "yes"),
                ("result", "1/2-1/2"),
                ("reason", "White could not checkmate."),
            ],
            vec![
                recorded(
                    json!({"type": "appeal_decided", "against_seq": 3, "upheld": true, "result": "1/2-1/2",
                           "reason": "White could not checkmate."}),
                ),
                consequence(json!({"type": "game_ended", "result": "1/2-1/2"})),
            ],
        ),
        (
            "appeal upheld and play resumes",
            vec![
                ("upheld", "yes"),
                ("result", "resume"),
                ("resume_white", "1:05:00"),
                ("resume_black", "0:58:30"),
                ("reason", "The clock was faulty."),
            ],
            vec![
                recorded(
                    json!({"type": "appeal_decided", "against_seq": 3, "upheld": true, "result": null,
                           "resume": {"white_ms": 3_900_000, "black_ms": 3_510_000},
                           "reason": "The clock was faulty."}),
                ),
                consequence(
                    json!({"type": "game_resumed", "against_seq": 3, "white_ms": 3_900_000, "black_ms": 3_510_000}),
                ),
            ],
        ),
    ] {
        rows.push(Family {
            who: Who::Appeals,
            ..row(
                name,
                vec![flagged(), lodged()],
                Page::Review {
                    seq: 3,
                    kind: "appeal_decided",
                },
                fields,
                wire,
            )
        });
    }
    rows
}

/// Creates a game with `settings`; returns its id.
async fn create(api: &Api<'_>, settings: &Value) -> Uuid {
    api.create_game(settings).await.expect(201)["game"]["game_id"]
        .as_str()
        .and_then(|id| id.parse().ok())
        .expect("the game's id")
}

/// Appends each batch of `before` through the API; returns the log's last `seq`.
async fn prepare(api: &Api<'_>, game: Uuid, before: &[Value]) -> u64 {
    let mut seq = 1;
    for batch in before {
        seq = api
            .append_events(game, seq, batch.clone())
            .await
            .expect(201)["last_seq"]
            .as_u64()
            .expect("last_seq");
    }
    seq
}

/// The events of `game`'s log after `seq`, as `GET /v1/games/{id}/events` answers them.
async fn log_after(api: &Api<'_>, game: Uuid, seq: u64) -> Vec<Value> {
    let page = api.events(game).await.expect(200);
    page["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|item| item["seq"].as_u64().is_some_and(|s| s > seq))
        .cloned()
        .collect()
}

/// The text of the first form on `page` holding `marker`, from `<form` to `</form>`.
fn form_with<'p>(page: &'p str, marker: &str) -> Option<&'p str> {
    page.split("<form")
        .skip(1)
        .map(|form| &form[..form.find("</form>").unwrap_or(form.len())])
        .find(|form| form.contains(marker))
}

/// The value of the attribute `name` of the tag starting `tag` (up to its `>`).
fn attribute(tag: &str, name: &str) -> Option<String> {
    let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let value = &tag[at..at + tag[at..].find('"')?];
    Some(
        value
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

/// Whether the tag starting `tag` carries the boolean attribute `flag` (`checked`, ...).
fn flagged_with(tag: &str, flag: &str) -> bool {
    let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
    tag.split_whitespace().any(|word| word == flag)
}

/// The fields a browser sends for `form` as drawn: its hidden inputs, its ticked boxes and
/// chosen radios, its text inputs with a value, and the chosen (or first) option of each
/// select.
fn as_drawn(form: &str) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    for tag in form.split("<input").skip(1) {
        let (Some(name), kind) = (attribute(tag, "name"), attribute(tag, "type")) else {
            continue;
        };
        let value = attribute(tag, "value");
        match kind.as_deref() {
            Some("checkbox" | "radio") if flagged_with(tag, "checked") => {
                fields.push((name, value.unwrap_or_else(|| "on".into())));
            }
            Some("checkbox" | "radio") => {}
            _ => {
                if let Some(value) = value.filter(|v| !v.is_empty()) {
                    fields.push((name, value));
                }
            }
        }
    }
    for select in form.split("<select").skip(1) {
        let Some(name) = attribute(select, "name") else {
            continue;
        };
        let body = &select[..select.find("</select>").unwrap_or(select.len())];
        let options: Vec<&str> = body.split("<option").skip(1).collect();
        let chosen = options
            .iter()
            .find(|option| flagged_with(option, "selected"))
            .or(options.first())
            .and_then(|option| attribute(option, "value"));
        if let Some(value) = chosen {
            fields.push((name, value));
        }
    }
    fields
}

/// Whether `form` lets the arbiter give `name` the value `value`: a field of that name, and
/// when it is a select or radio buttons, one of their values.
fn offers(form: &str, name: &str, value: &str) -> bool {
    let named = format!("name=\"{name}\"");
    if let Some(select) = form
        .split("<select")
        .skip(1)
        .find(|select| attribute(select, "name").as_deref() == Some(name))
    {
        let body = &select[..select.find("</select>").unwrap_or(select.len())];
        return body
            .split("<option")
            .skip(1)
            .any(|option| attribute(option, "value").as_deref() == Some(value));
    }
    let radios: Vec<&str> = form
        .split("<input")
        .skip(1)
        .filter(|tag| {
            attribute(tag, "name").as_deref() == Some(name)
                && attribute(tag, "type").as_deref() == Some("radio")
        })
        .collect();
    if !radios.is_empty() {
        return radios
            .iter()
            .any(|radio| attribute(radio, "value").as_deref() == Some(value));
    }
    form.contains(&named)
}

/// The form's fields as drawn, with what the arbiter filled in or chose (an empty value
/// unticks a box: the browser then leaves the field out).
fn filled(form: &str, fields: &[(&str, &str)]) -> Result<Vec<(String, String)>, String> {
    let mut sent = as_drawn(form);
    for (name, value) in fields {
        if !offers(form, name, value) {
            return Err(format!("the form does not offer {name} = {value:?}"));
        }
        sent.retain(|(drawn, _)| drawn != name);
        if !value.is_empty() {
            sent.push((name.to_string(), value.to_string()));
        }
    }
    Ok(sent)
}

/// A signed-in person of the back office.
struct Session {
    cookie: String,
}

impl Session {
    async fn open(api: &Api<'_>, token: &str) -> Session {
        Session {
            cookie: signed_in(api, token).await,
        }
    }

    async fn page(&self, api: &Api<'_>, uri: &str) -> String {
        page_text(api, uri, &self.cookie).await
    }

    /// Posts `fields` to the form's `action`; the answer's status and `Location`.
    async fn post(
        &self,
        api: &Api<'_>,
        action: &str,
        fields: &[(String, String)],
    ) -> (u16, String) {
        let response = api
            .call(
                TestRequest::post()
                    .uri(action)
                    .insert_header(("Cookie", self.cookie.clone()))
                    .insert_header(("Origin", ORIGIN))
                    .set_form(fields),
            )
            .await;
        let location = response
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        (response.status().as_u16(), location)
    }
}

/// The page that draws the family's form and the text that finds the form on it.
fn page_of(family: &Family, game: Uuid) -> (String, String) {
    let settings = &family.settings;
    match family.page {
        Page::Desk(id) => (format!("/office/games/{game}"), format!("id=\"{id}\"")),
        Page::Results => (
            format!(
                "/office/results?event={}&round={}",
                settings["event"].as_str().expect("event").replace(' ', "+"),
                settings["round"].as_str().expect("round")
            ),
            format!("action=\"/office/games/{game}/record\""),
        ),
        Page::Review { seq, kind } => (
            format!("/office/games/{game}/decisions/{seq}"),
            format!("name=\"type\" value=\"{kind}\""),
        ),
    }
}

/// Whether `actual` holds every field of `expected` with the same value.
fn holds(actual: &Value, expected: &Value) -> bool {
    expected
        .as_object()
        .expect("an object")
        .iter()
        .all(|(key, value)| actual.get(key) == Some(value))
}

/// The refusal a page shows, if any (for the failure message).
fn refusal_on(page: &str) -> Option<&str> {
    let at = page.find("class=\"refusal\"")?;
    let text = &page[at..];
    Some(&text[..text.find("</p>").unwrap_or(text.len())])
}

/// Sends the family's form on a fresh game and checks the log; the twin game gets the same
/// recorded events through the API, and the two logs must append the same events.
async fn check(
    api: &Api<'_>,
    sessions: (&Session, &Session),
    db: &TestDb,
    family: &Family,
) -> Result<(), String> {
    let (session, token) = match family.who {
        Who::Arbiter => (sessions.0, db.arbiter.as_str()),
        Who::Appeals => (sessions.1, db.appeals.as_str()),
    };
    let game = create(api, &family.settings).await;
    let twin = create(api, &family.settings).await;
    let seq = prepare(api, game, &family.before).await;
    assert_eq!(prepare(api, twin, &family.before).await, seq);

    let (uri, marker) = page_of(family, game);
    let page = session.page(api, &uri).await;
    let form = form_with(&page, &marker).ok_or_else(|| format!("no form {marker} on {uri}"))?;
    let action = attribute(form, "action").ok_or("the form has no action")?;
    let fields = filled(form, &family.fields)?;
    let (status, location) = session.post(api, &action, &fields).await;
    if status != 303 {
        return Err(format!("the form was answered {status}"));
    }
    let appended = log_after(api, game, seq).await;
    if appended.is_empty() {
        let shown = session.page(api, &location).await;
        return Err(format!(
            "nothing was recorded; the page says {:?}",
            refusal_on(&shown)
        ));
    }
    let events: Vec<&Value> = appended.iter().map(|item| &item["event"]).collect();
    if events.len() != family.wire.len() {
        return Err(format!(
            "{} events appended, {} expected: {events:?}",
            events.len(),
            family.wire.len()
        ));
    }
    for (index, (event, wire)) in events.iter().zip(&family.wire).enumerate() {
        let matches = match wire {
            Wire::Recorded(expected) => *event == expected,
            Wire::Consequence(expected) => holds(event, expected),
        };
        if !matches {
            let expected = match wire {
                Wire::Recorded(e) | Wire::Consequence(e) => e,
            };
            return Err(format!(
                "event {index} is {event}, expected {expected} ({})",
                if matches!(wire, Wire::Recorded(_)) {
                    "exactly"
                } else {
                    "at least"
                }
            ));
        }
    }
    // The same recorded events through the API append the same log.
    let recorded: Vec<Value> = family
        .wire
        .iter()
        .filter_map(|wire| match wire {
            Wire::Recorded(event) => Some(event.clone()),
            Wire::Consequence(_) => None,
        })
        .collect();
    api.with_token(token)
        .append_events(twin, seq, Value::Array(recorded))
        .await
        .expect(201);
    let through_api: Vec<Value> = log_after(api, twin, seq)
        .await
        .into_iter()
        .map(|item| item["event"].clone())
        .collect();
    let through_desk: Vec<Value> = events.into_iter().cloned().collect();
    if through_desk != through_api {
        return Err(format!(
            "the desk appended {through_desk:?}, the API {through_api:?}"
        ));
    }
    let recorders = |items: &[Value]| -> Vec<Value> {
        items.iter().map(|i| i["recorded_by"].clone()).collect()
    };
    let twin_items = log_after(api, twin, seq).await;
    if recorders(&appended) != recorders(&twin_items) {
        return Err(format!(
            "recorded by {:?} at the desk, {:?} through the API",
            recorders(&appended),
            recorders(&twin_items)
        ));
    }
    Ok(())
}

#[actix_web::test]
async fn every_desk_form_appends_the_wire_events_the_api_appends_for_the_same_action() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let arbiter = Session::open(&api, &db.arbiter).await;
    let appeals = Session::open(&api, &db.appeals).await;
    let mut failures = Vec::new();
    for family in families() {
        if let Err(failure) = check(&api, (&arbiter, &appeals), &db, &family).await {
            failures.push(format!("{}: {failure}", family.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} families failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[actix_web::test]
async fn a_desk_form_sent_again_with_the_same_event_ids_appends_nothing_the_second_time() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let arbiter = Session::open(&api, &db.arbiter).await;
    let desk = format!("/office/games/{game}");
    let page = arbiter.page(&api, &desk).await;
    let form = form_with(&page, "id=\"form-move\"").expect("the move form");
    let fields = filled(
        form,
        &[("by", "white"), ("san", "e4"), ("clock", "1:29:51")],
    )
    .expect("the form offers them");
    let action = attribute(form, "action").expect("its action");

    let (status, first) = arbiter.post(&api, &action, &fields).await;
    assert_eq!(status, 303);
    assert!(
        first.contains("?recorded=2-3"),
        "the move and its press: {first}"
    );
    let log = api.events(game).await.expect(200);
    assert_eq!(log["last_seq"], 3, "{log}");

    let (status, again) = arbiter.post(&api, &action, &fields).await;
    assert_eq!(status, 303);
    assert_eq!(again, first, "answered with what the first one stored");
    assert_eq!(
        api.events(game).await.expect(200),
        log,
        "nothing appended the second time"
    );
}

#[actix_web::test]
async fn a_desk_form_drawn_before_someone_else_recorded_is_refused_with_what_to_do() {
    let db = TestDb::new().await;
    let api = api(&db).await;
    let game = api.create_standard_game().await;
    let arbiter = Session::open(&api, &db.arbiter).await;
    let desk = format!("/office/games/{game}");
    let page = arbiter.page(&api, &desk).await;
    let form = form_with(&page, "id=\"form-touch\"").expect("the touch form");
    let fields = filled(form, &[("by", "white"), ("square", "e2")]).expect("the form offers them");
    let action = attribute(form, "action").expect("its action");

    // Another device records a move after the page was drawn at #1.
    api.append_events(
        game,
        1,
        json!([{"type": "move", "by": "white", "san": "e4"}]),
    )
    .await
    .expect(201);
    let log = api.events(game).await.expect(200);

    let (status, location) = arbiter.post(&api, &action, &fields).await;
    assert_eq!(status, 303);
    assert_eq!(api.events(game).await.expect(200), log, "nothing appended");
    let shown = arbiter.page(&api, &location).await;
    let refusal = refusal_on(&shown).expect("the desk shows the refusal");
    assert!(
        refusal.contains("the log now ends at #2, the form was drawn at #1")
            && refusal
                .contains("Check the timeline, then send the form again if it still applies."),
        "{refusal}"
    );
    assert!(
        shown.contains("value=\"e2\""),
        "the form keeps what was typed"
    );
}
