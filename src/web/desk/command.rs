//! What a desk form asks for, typed: the form as sent ([`DeskForm`], every field named once),
//! read into one [`DeskCommand`] per desk action with its fields in the vocabulary's own
//! types, which gives the recorded events themselves ([`RecordedEvent`]), checked as the API
//! checks an event ([`crate::app::commands::check_recorded`]). Reading a form is where what a
//! person typed is judged (a clock time, a side, an event number), with a message that says
//! what to fix; the engine then judges the events exactly as it judges an API request.

use crate::app::commands::{CommandError, check_recorded};
use crate::game::event::{
    ArbiterRuling, ClaimKind, EndCause, GameResult, IllegalMoveKind, MoveCount, RecordedEvent,
    Resume, Side, TimeBonus,
};
use crate::store::NewEvent;
use crate::web::forms::{parse_clock, parse_delta};
use serde::Deserialize;
use serde::de::DeserializeOwned;

/// The desk's form as the browser sends it: the fields the page drew (the kind of event, the
/// `seq` it was drawn at, fresh event ids) and what the arbiter typed or chose, as text.
/// Every field is optional here: which ones an action needs is said by [`DeskCommand::read`].
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct DeskForm {
    /// The desk action (`move`, `claim`, `result`, `undo`, ...).
    #[serde(rename = "type")]
    pub action: Option<String>,
    /// The `seq` the page was drawn at.
    pub expected_seq: Option<String>,
    /// The event id the page gave the form.
    pub event_id: Option<String>,
    /// The event id of the clock press sent with a move.
    pub event_id_press: Option<String>,
    /// The page to go back to (the floor's quick forms).
    pub return_to: Option<String>,
    /// `yes` when the arbiter confirmed an entry the evidence doubted.
    pub confirmed: Option<String>,
    /// Who did it: `white` or `black`.
    pub by: Option<String>,
    /// Whose clock or flag: `white` or `black`.
    pub side: Option<String>,
    /// The move as written.
    pub san: Option<String>,
    /// Present when the move's clock was pressed.
    pub press: Option<String>,
    /// The mover's clock after the press.
    pub clock: Option<String>,
    /// White's clock at a press.
    pub white_time: Option<String>,
    /// Black's clock at a press.
    pub black_time: Option<String>,
    /// A change of a clock (`+2:00`).
    pub delta: Option<String>,
    /// The reason, in words.
    pub reason: Option<String>,
    /// The square touched.
    pub square: Option<String>,
    /// The kind of claim, or of illegal move.
    pub kind: Option<String>,
    /// The move written with a claim.
    pub intended_move: Option<String>,
    /// What happened (an illegal move).
    pub description: Option<String>,
    /// Present when the illegal move was completed.
    pub completed: Option<String>,
    /// The move attempted.
    pub attempted_move: Option<String>,
    /// The event decided on.
    pub subject_seq: Option<String>,
    /// The arbiter's decision.
    pub decision: Option<String>,
    /// A result (or `resume`, for an appeal).
    pub result: Option<String>,
    /// What an end rests on.
    pub cause: Option<String>,
    /// A reconstructed position.
    pub fen: Option<String>,
    /// An increment granted, in seconds.
    pub increment: Option<String>,
    /// Whose moves are counted.
    pub count_side: Option<String>,
    /// The completed moves counted.
    pub count_moves: Option<String>,
    /// Time given to a player.
    pub penalty_time: Option<String>,
    /// Who receives the time.
    pub penalty_side: Option<String>,
    /// Who appeals.
    pub appellant: Option<String>,
    /// The decision appealed against.
    pub against_seq: Option<String>,
    /// The grounds of an appeal.
    pub grounds: Option<String>,
    /// `yes` or `no`.
    pub upheld: Option<String>,
    /// White's clock when play resumes.
    pub resume_white: Option<String>,
    /// Black's clock when play resumes.
    pub resume_black: Option<String>,
    /// The events an undo retracts, newest first, comma-separated.
    pub retracts: Option<String>,
    /// Their corrections' event ids, in the same order.
    pub event_ids: Option<String>,
    /// The event a correction retracts.
    pub retracts_seq: Option<String>,
}

/// A clock press sent with a move (the box "pressed the clock").
#[derive(Clone, Debug, PartialEq)]
pub struct Press {
    /// The mover's clock after the press.
    pub clock_ms: Option<u64>,
    /// The press's event id.
    pub event_id: Option<String>,
}

/// A decision of the arbiter, with what it may carry.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The event decided on.
    pub subject_seq: Option<u64>,
    /// The decision.
    pub decision: ArbiterRuling,
    /// Why.
    pub reason: String,
    /// The result it sets, and what the end rests on.
    pub result: Option<(GameResult, Option<EndCause>)>,
    /// The move attempted (7.5).
    pub attempted_move: Option<String>,
    /// A reconstructed position.
    pub fen: Option<String>,
    /// An increment granted (III.4).
    pub increment_ms: Option<u64>,
    /// The completed moves counted (6.10.2, 8.5).
    pub move_count: Option<MoveCount>,
    /// Time given to a player.
    pub penalty: Option<TimeBonus>,
}

/// What a desk form asks for: one variant per desk action, with its fields typed.
#[derive(Clone, Debug, PartialEq)]
pub enum DeskCommand {
    /// A move, with the clock press when the box was ticked.
    Move {
        /// Who moved.
        by: Side,
        /// The move as written.
        san: String,
        /// The press that went with it.
        press: Option<Press>,
    },
    /// A clock press with the times read.
    ClockPress {
        /// Who pressed.
        by: Side,
        /// White's clock.
        white_ms: Option<u64>,
        /// Black's clock.
        black_ms: Option<u64>,
    },
    /// The clocks paused (by a player, or by the arbiter).
    ClockPause {
        /// The player who paused, if one did.
        by: Option<Side>,
    },
    /// The clocks restarted.
    ClockResume,
    /// A clock set by the arbiter.
    ClockAdjust {
        /// Whose clock.
        side: Side,
        /// The change.
        delta_ms: i64,
        /// Why.
        reason: String,
    },
    /// A piece touched (4.3).
    Touch {
        /// Who touched.
        by: Side,
        /// The square, lowercase.
        square: String,
    },
    /// A draw offered.
    DrawOffer(Side),
    /// A draw accepted.
    DrawAccept(Side),
    /// A draw declined.
    DrawDecline(Side),
    /// A player resigned.
    Resign(Side),
    /// A flag fell.
    Flag(Side),
    /// A claim.
    Claim {
        /// The claimant.
        by: Side,
        /// What is claimed.
        kind: ClaimKind,
        /// The move written with it.
        intended_move: Option<String>,
    },
    /// An illegal move or irregularity (7.5).
    IllegalMove {
        /// Who made it.
        by: Side,
        /// What happened.
        description: String,
        /// Whether the clock was pressed.
        completed: bool,
        /// The move attempted.
        attempted_move: Option<String>,
        /// The irregularity, when not a plain illegal move.
        kind: Option<IllegalMoveKind>,
    },
    /// An arbiter's decision.
    Decision(Box<Decision>),
    /// A result reported at the end (8.7) or a forfeit (6.7.1): the game ended.
    Result {
        /// The result.
        result: GameResult,
        /// A forfeit or a reported result.
        cause: EndCause,
        /// Why, in words.
        reason: String,
    },
    /// An appeal lodged.
    AppealLodged {
        /// Who appeals.
        by: String,
        /// The decision appealed against.
        against_seq: u64,
        /// The grounds.
        grounds: String,
    },
    /// The appeals committee's decision.
    AppealDecided {
        /// The decision appealed against.
        against_seq: u64,
        /// Whether the appeal is upheld.
        upheld: bool,
        /// The result it sets.
        result: Option<GameResult>,
        /// The times play resumes with.
        resume: Option<Resume>,
        /// The reasons.
        reason: String,
    },
    /// "Undo the last entry": one correction per event, newest first, with its event id.
    Undo {
        /// Why.
        reason: String,
        /// The events retracted, with the correction's event id.
        retracts: Vec<(u64, String)>,
    },
    /// A correction of one event.
    Correction {
        /// The event retracted.
        retracts_seq: u64,
        /// Why.
        reason: String,
    },
}

fn side(value: Option<&str>, label: &str) -> Result<Side, String> {
    match value {
        Some("white") => Ok(Side::White),
        Some("black") => Ok(Side::Black),
        _ => Err(format!("Choose {label}: White or Black.")),
    }
}

fn number(value: Option<&str>, label: &str) -> Result<Option<u64>, String> {
    value
        .map(|text| {
            text.trim_start_matches('#')
                .parse::<u64>()
                .map_err(|_| format!("{label} must be an event number (seq), not `{text}`."))
        })
        .transpose()
}

fn required<'a>(value: Option<&'a str>, label: &str) -> Result<&'a str, String> {
    value.ok_or_else(|| format!("{label} is missing; fill it in."))
}

fn text(value: Option<&str>, label: &str) -> Result<String, String> {
    required(value, label).map(str::to_owned)
}

/// A value of the vocabulary chosen from a list (a claim's kind, a decision, a result).
fn chosen<T: DeserializeOwned>(value: &str, what: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(value.to_owned()))
        .map_err(|_| format!("`{value}` is not {what}; choose one from the list."))
}

const DAMAGED_UNDO: &str = "The undo form is damaged; open the desk again.";

impl DeskForm {
    fn get(value: &Option<String>) -> Option<&str> {
        value.as_deref()
    }
}

impl DeskCommand {
    /// Reads the desk form into its command, or says what to fix.
    pub fn read(form: &DeskForm) -> Result<DeskCommand, String> {
        let get = DeskForm::get;
        let action = required(get(&form.action), "The kind of event")?;
        Ok(match action {
            "move" => {
                let by = side(get(&form.by), "who moved")?;
                let san = text(get(&form.san), "The move")?;
                let press = match form.press {
                    None => None,
                    Some(_) => Some(Press {
                        clock_ms: get(&form.clock).map(parse_clock).transpose()?,
                        event_id: form.event_id_press.clone(),
                    }),
                };
                DeskCommand::Move { by, san, press }
            }
            "clock_press" => DeskCommand::ClockPress {
                by: side(get(&form.by), "who pressed")?,
                white_ms: get(&form.white_time).map(parse_clock).transpose()?,
                black_ms: get(&form.black_time).map(parse_clock).transpose()?,
            },
            "clock_pause" => DeskCommand::ClockPause {
                by: side(get(&form.by), "").ok(),
            },
            "clock_resume" => DeskCommand::ClockResume,
            "clock_adjust" => DeskCommand::ClockAdjust {
                side: side(get(&form.side), "whose clock")?,
                delta_ms: parse_delta(required(get(&form.delta), "The change of time")?)?,
                reason: text(get(&form.reason), "The reason")?,
            },
            "touch" => DeskCommand::Touch {
                by: side(get(&form.by), "who touched")?,
                square: text(get(&form.square), "The square")?.to_lowercase(),
            },
            "draw_offer" => DeskCommand::DrawOffer(side(get(&form.by), "the player")?),
            "draw_accept" => DeskCommand::DrawAccept(side(get(&form.by), "the player")?),
            "draw_decline" => DeskCommand::DrawDecline(side(get(&form.by), "the player")?),
            "resign" => DeskCommand::Resign(side(get(&form.by), "the player")?),
            "flag" => DeskCommand::Flag(side(get(&form.side), "whose flag")?),
            "claim" => DeskCommand::Claim {
                by: side(get(&form.by), "the claimant")?,
                kind: chosen(required(get(&form.kind), "The claim")?, "a claim")?,
                intended_move: form.intended_move.clone(),
            },
            "illegal_move" => DeskCommand::IllegalMove {
                by: side(get(&form.by), "who made it")?,
                description: text(get(&form.description), "What happened")?,
                completed: form.completed.is_some(),
                attempted_move: form.attempted_move.clone(),
                kind: get(&form.kind)
                    .filter(|kind| *kind != "illegal_move")
                    .map(|kind| chosen(kind, "an irregularity"))
                    .transpose()?,
            },
            "arbiter_decision" => DeskCommand::Decision(Box::new(Self::decision(form)?)),
            "result" => Self::result(form)?,
            "appeal_lodged" => DeskCommand::AppealLodged {
                by: text(get(&form.appellant), "Who appeals")?,
                against_seq: Self::against(form)?,
                grounds: text(get(&form.grounds), "The grounds")?,
            },
            "appeal_decided" => {
                let against_seq = Self::against(form)?;
                let upheld = match get(&form.upheld) {
                    Some("yes") => true,
                    Some("no") => false,
                    _ => return Err("Say whether the appeal is upheld or dismissed.".into()),
                };
                let (result, resume) = match get(&form.result) {
                    // Play resumes, with the times the committee sets.
                    Some("resume") => {
                        let white_ms =
                            parse_clock(required(get(&form.resume_white), "White's clock")?)?;
                        let black_ms =
                            parse_clock(required(get(&form.resume_black), "Black's clock")?)?;
                        (None, Some(Resume { white_ms, black_ms }))
                    }
                    Some(result) => (Some(chosen(result, "a result")?), None),
                    None => (None, None),
                };
                DeskCommand::AppealDecided {
                    against_seq,
                    upheld,
                    result,
                    resume,
                    reason: text(get(&form.reason), "The reasons")?,
                }
            }
            "undo" => {
                // The page drew the list of events to retract; expected_seq guards it.
                let reason = text(get(&form.reason), "The reason")?;
                let retracts = required(get(&form.retracts), "The events retracted")?;
                let ids = required(get(&form.event_ids), "The event ids")?;
                let retracts: Vec<&str> = retracts.split(',').collect();
                let ids: Vec<&str> = ids.split(',').collect();
                if retracts.len() != ids.len() {
                    return Err(DAMAGED_UNDO.into());
                }
                let retracts = retracts
                    .iter()
                    .zip(ids)
                    .map(|(seq, id)| {
                        let seq: u64 = seq.trim().parse().map_err(|_| DAMAGED_UNDO.to_string())?;
                        Ok((seq, id.trim().to_owned()))
                    })
                    .collect::<Result<_, String>>()?;
                DeskCommand::Undo { reason, retracts }
            }
            "correction" => DeskCommand::Correction {
                retracts_seq: number(get(&form.retracts_seq), "The event retracted")?
                    .ok_or("Give the event number (seq) to retract.")?,
                reason: text(get(&form.reason), "The reason")?,
            },
            other => {
                return Err(format!(
                    "`{other}` is not an event the desk records; choose one of the forms."
                ));
            }
        })
    }

    fn against(form: &DeskForm) -> Result<u64, String> {
        Ok(
            number(form.against_seq.as_deref(), "The decision appealed against")?
                .ok_or("Give the event number of the decision appealed against.")?,
        )
    }

    fn decision(form: &DeskForm) -> Result<Decision, String> {
        let get = DeskForm::get;
        let decision_text = required(get(&form.decision), "The decision")?;
        let decision = chosen(decision_text, "a decision")?;
        let reason = text(get(&form.reason), "The reason")?;
        let result = match get(&form.result) {
            // What the end rests on, for the reports (a forfeit only when said so).
            Some(result) => Some((
                chosen(result, "a result")?,
                get(&form.cause)
                    .map(|cause| chosen(cause, "a cause of the end"))
                    .transpose()?,
            )),
            None => None,
        };
        let increment_ms = match get(&form.increment) {
            Some(seconds) => Some(
                seconds
                    .parse::<u64>()
                    .map(|s| s.saturating_mul(1000))
                    .map_err(|_| {
                        format!(
                            "The increment is a number of seconds (5 under III.4), not `{seconds}`."
                        )
                    })?,
            ),
            None => None,
        };
        let move_count = if decision_text == "move_count_set" {
            // 6.10.2 / 8.5: the completed moves counted; none when the count cannot be
            // established (8.6).
            let side = side(get(&form.count_side), "whose moves are counted")?;
            let moves = match get(&form.count_moves) {
                Some(moves) => Some(moves.trim().parse::<u32>().map_err(|_| {
                    format!(
                        "The move count is a number of completed moves (e.g. 40), not \
                         `{moves}`; leave it empty when the count cannot be established."
                    )
                })?),
                None => None,
            };
            Some(MoveCount { side, moves })
        } else {
            None
        };
        let penalty = match get(&form.penalty_time) {
            Some(time) => {
                let side = side(get(&form.penalty_side), "who receives the time")?;
                Some(TimeBonus {
                    side,
                    add_ms: parse_clock(time)?,
                })
            }
            None => None,
        };
        Ok(Decision {
            subject_seq: number(get(&form.subject_seq), "The event decided on")?,
            decision,
            reason,
            result,
            attempted_move: form.attempted_move.clone(),
            fen: form.fen.clone(),
            increment_ms,
            move_count,
            penalty,
        })
    }

    /// A result reported at the end of the game (8.7), or a forfeit before the first move
    /// (6.7.1). The cause says how the reports write it: a forfeit is a game not played, a
    /// reported result a game played (crate::game::outcome).
    fn result(form: &DeskForm) -> Result<DeskCommand, String> {
        let (result, reason, cause) = match required(form.result.as_deref(), "The result")? {
            "forfeit:white" => (
                GameResult::WhiteWins,
                "Forfeit: Black did not play the game (6.7.1); White wins by forfeit.",
                EndCause::Forfeit,
            ),
            "forfeit:black" => (
                GameResult::BlackWins,
                "Forfeit: White did not play the game (6.7.1); Black wins by forfeit.",
                EndCause::Forfeit,
            ),
            "forfeit:both" => (
                GameResult::BothLose,
                "Double forfeit: neither player played the game (6.7.1); both lose.",
                EndCause::Forfeit,
            ),
            result @ ("1-0" | "1/2-1/2" | "0-1") => (
                chosen(result, "a result")?,
                "Result reported by both players at the end of the game (8.7).",
                EndCause::ReportedResult,
            ),
            other => {
                return Err(format!(
                    "`{other}` is not a result; choose 1-0, ½-½, 0-1 or a forfeit."
                ));
            }
        };
        Ok(DeskCommand::Result {
            result,
            cause,
            reason: form.reason.clone().unwrap_or_else(|| reason.to_owned()),
        })
    }

    /// The events the command records, each with the event id the page gave it (so that
    /// sending the same form twice stores it once) and the name it is checked under.
    fn recorded(self, event_id: Option<String>) -> Vec<(RecordedEvent, Option<String>)> {
        let one = |event| vec![(event, event_id.clone())];
        match self {
            DeskCommand::Move { by, san, press } => {
                let mut events = vec![(RecordedEvent::Move { by, san }, event_id.clone())];
                if let Some(press) = press {
                    let (white_ms, black_ms) = match by {
                        Side::White => (press.clock_ms, None),
                        Side::Black => (None, press.clock_ms),
                    };
                    events.push((
                        RecordedEvent::ClockPress {
                            by,
                            white_ms,
                            black_ms,
                        },
                        press.event_id,
                    ));
                }
                events
            }
            DeskCommand::ClockPress {
                by,
                white_ms,
                black_ms,
            } => one(RecordedEvent::ClockPress {
                by,
                white_ms,
                black_ms,
            }),
            DeskCommand::ClockPause { by } => one(RecordedEvent::ClockPause { by }),
            DeskCommand::ClockResume => one(RecordedEvent::ClockResume {}),
            DeskCommand::ClockAdjust {
                side,
                delta_ms,
                reason,
            } => one(RecordedEvent::ClockAdjust {
                side,
                delta_ms,
                reason,
            }),
            DeskCommand::Touch { by, square } => one(RecordedEvent::Touch { by, square }),
            DeskCommand::DrawOffer(by) => one(RecordedEvent::DrawOffer { by }),
            DeskCommand::DrawAccept(by) => one(RecordedEvent::DrawAccept { by }),
            DeskCommand::DrawDecline(by) => one(RecordedEvent::DrawDecline { by }),
            DeskCommand::Resign(by) => one(RecordedEvent::Resign { by }),
            DeskCommand::Flag(side) => one(RecordedEvent::Flag { side }),
            DeskCommand::Claim {
                by,
                kind,
                intended_move,
            } => one(RecordedEvent::Claim {
                by,
                kind,
                intended_move,
            }),
            DeskCommand::IllegalMove {
                by,
                description,
                completed,
                attempted_move,
                kind,
            } => one(RecordedEvent::IllegalMove {
                by,
                description,
                completed,
                attempted_move,
                kind,
            }),
            DeskCommand::Decision(decision) => {
                let Decision {
                    subject_seq,
                    decision,
                    reason,
                    result,
                    attempted_move,
                    fen,
                    increment_ms,
                    move_count,
                    penalty,
                } = *decision;
                one(RecordedEvent::ArbiterDecision {
                    subject_seq,
                    decision,
                    reason,
                    result: result.map(|(result, _)| result),
                    penalty,
                    attempted_move,
                    fen,
                    increment_ms,
                    move_count,
                    cause: result.and_then(|(_, cause)| cause),
                })
            }
            DeskCommand::Result {
                result,
                cause,
                reason,
            } => one(RecordedEvent::ArbiterDecision {
                subject_seq: None,
                decision: ArbiterRuling::GameEnded,
                reason,
                result: Some(result),
                penalty: None,
                attempted_move: None,
                fen: None,
                increment_ms: None,
                move_count: None,
                cause: Some(cause),
            }),
            DeskCommand::AppealLodged {
                by,
                against_seq,
                grounds,
            } => one(RecordedEvent::AppealLodged {
                by,
                against_seq,
                grounds,
            }),
            DeskCommand::AppealDecided {
                against_seq,
                upheld,
                result,
                resume,
                reason,
            } => one(RecordedEvent::AppealDecided {
                against_seq,
                upheld,
                result,
                resume,
                committee: Vec::new(),
                reason,
            }),
            DeskCommand::Undo { reason, retracts } => retracts
                .into_iter()
                .map(|(retracts_seq, id)| {
                    (
                        RecordedEvent::Correction {
                            retracts_seq,
                            reason: reason.clone(),
                        },
                        Some(id),
                    )
                })
                .collect(),
            DeskCommand::Correction {
                retracts_seq,
                reason,
            } => one(RecordedEvent::Correction {
                retracts_seq,
                reason,
            }),
        }
    }

    /// The events to record (usually one; a move with its clock press two), checked as the
    /// API checks an event of its body.
    pub fn events(self, event_id: Option<String>) -> Result<Vec<NewEvent>, CommandError> {
        self.recorded(event_id)
            .into_iter()
            .map(|(event, id)| check_recorded(event, id.as_deref()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> DeskForm {
        let encoded = serde_urlencoded::to_string(pairs).expect("encodable");
        serde_urlencoded::from_str(&encoded).expect("a desk form")
    }

    #[test]
    fn a_move_with_a_press_becomes_two_events_with_the_movers_time() {
        let command = DeskCommand::read(&form(&[
            ("type", "move"),
            ("by", "black"),
            ("san", "Nf6"),
            ("press", "on"),
            ("clock", "1:29:48"),
        ]))
        .expect("readable");
        let events = command.events(None).expect("checked");
        assert_eq!(events.len(), 2);
        let press = serde_json::to_value(&events[1].event).expect("serializable");
        assert_eq!(press["type"], "clock_press");
        assert_eq!(press["black_ms"], 5_388_000);
        assert!(press["white_ms"].is_null());
    }

    #[test]
    fn a_forfeit_is_a_decision_that_the_game_ended_on_a_forfeit() {
        let command = DeskCommand::read(&form(&[("type", "result"), ("result", "forfeit:both")]))
            .expect("readable");
        assert_eq!(
            command,
            DeskCommand::Result {
                result: GameResult::BothLose,
                cause: EndCause::Forfeit,
                reason: "Double forfeit: neither player played the game (6.7.1); both lose.".into(),
            }
        );
    }

    #[test]
    fn what_was_typed_wrong_is_answered_with_what_to_fix() {
        let refused =
            |pairs: &[(&str, &str)]| DeskCommand::read(&form(pairs)).expect_err("refused");
        assert_eq!(
            refused(&[("type", "move"), ("san", "e4")]),
            "Choose who moved: White or Black."
        );
        assert_eq!(
            refused(&[("type", "move"), ("by", "white")]),
            "The move is missing; fill it in."
        );
        assert!(
            refused(&[
                ("type", "clock_press"),
                ("by", "white"),
                ("white_time", "soon")
            ])
            .contains("is not a clock time")
        );
        assert_eq!(
            refused(&[("type", "castle")]),
            "`castle` is not an event the desk records; choose one of the forms."
        );
    }
}
