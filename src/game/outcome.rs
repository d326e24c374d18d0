//! How a game's end is reported to those outside the service: the rating officer (the
//! tournament report's result codes), a PGN reader (`Termination`), the chief arbiter's report
//! and the results page. The cause decides, not the number of half-moves in the log:
//!
//! * A game ends as a **forfeit** (not played, 6.7.1; TRF `+`/`-`) only when the arbiter
//!   records one (an `arbiter_decision` with `cause: forfeit`, the results page's forfeit and
//!   double forfeit).
//! * A **result the players reported** (8.7, `cause: reported_result`) is a game played, even
//!   when none of its moves is in the log: most boards of an open are not electronic.
//! * A loss for **breaking the Laws** (a device on a player's person, 11.3.2.2, ruled through a
//!   fair-play event or an `arbiter_decision` with `cause: rules_infraction`; 7.5.5), a
//!   resignation, an arbiter's **adjudication** and every end on the board are games played;
//!   one that lasted less than one move (fewer than one move of each player in the log) is
//!   reported as such (TRF-16 and TRF26: "The scheduled game lasted less than one move: W, D,
//!   L, not rated").
//! * An **appeal** that changes the result keeps the nature of the end it replaced (a forfeit
//!   changed on appeal is still a game not played).
//! * **Old logs**, whose arbiter's decisions carry no `cause`, are read as they were exported
//!   before: an end by the arbiter before any move is a forfeit, unless its reason says
//!   otherwise (names a reported result, 8.7, or a device, 11.3).

use serde::Serialize;
use utoipa::ToSchema;

use super::event::{EndCause, Event, GameResult, RecordedEvent, ServiceEvent, Termination};

/// What a game's end rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndedAs {
    /// On the board: mate, stalemate, dead position, repetition, 75 moves, agreement, a
    /// claim, a flag fall, a resignation (the game's `termination` says which).
    OverTheBoard,
    /// Not played: the arbiter recorded a forfeit (6.7.1).
    Forfeit,
    /// The result the players reported (8.7).
    ReportedResult,
    /// Lost for breaking the Laws: illegal moves (7.5.5), a device (11.3.2.2), a penalty of
    /// 12.9.
    RulesInfraction,
    /// An arbiter's ruling on the game (III.5), or an appeal's that changed a played result.
    Adjudication,
}

/// Whether the game counts as played, as the tournament report (TRF) sorts results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Played {
    /// A game played: `1`, `=`, `0`.
    Played,
    /// A game that lasted less than one move: `W`, `D`, `L` (not rated).
    LessThanOneMove,
    /// Not played, a forfeit: `+`, `-`.
    NotPlayed,
}

/// How an ended game is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Outcome {
    /// The result.
    pub result: GameResult,
    /// What the end rests on.
    pub ended_as: EndedAs,
    /// Played, less than one move, or not played.
    pub played: Played,
}

impl Outcome {
    /// The PGN `Termination` tag (PGN standard 9.8.1): `normal`, `time forfeit`, `rules
    /// infraction`, `abandoned` (a forfeit: the game was not played), `adjudication`.
    pub fn pgn_termination(&self, termination: Option<Termination>) -> &'static str {
        match (self.ended_as, termination) {
            (EndedAs::Forfeit, _) => "abandoned",
            (EndedAs::ReportedResult, _) => "normal",
            (EndedAs::RulesInfraction, _) => "rules infraction",
            (EndedAs::Adjudication, _) => "adjudication",
            (EndedAs::OverTheBoard, Some(Termination::Flag)) => "time forfeit",
            (EndedAs::OverTheBoard, _) => "normal",
        }
    }

    /// Whether this is a forfeit (6.7.1), one player's or both.
    pub fn is_forfeit(&self) -> bool {
        self.played == Played::NotPlayed
    }
}

/// How a game that ended with `result` is reported (see the module documentation), from its
/// standing `events` with their `seq` and the half-moves played (`plies`). Read from the log
/// and not from a `Game`, so that the view (which carries it) and the aggregate (which
/// builds the view) are not tied to each other through it.
pub fn outcome_of(result: GameResult, plies: usize, events: &[(u64, &Event)]) -> Outcome {
    let ends: Vec<(&Termination, u64)> = events
        .iter()
        .filter_map(|(_, event)| match event {
            Event::Service(ServiceEvent::GameEnded {
                termination,
                cause_seq,
                ..
            }) => Some((termination, *cause_seq)),
            _ => None,
        })
        .collect();
    let cause_of = |seq: u64| {
        events
            .iter()
            .find(|(s, _)| *s == seq)
            .map(|(_, event)| *event)
    };
    let classify = |termination: Termination, cause_seq: u64| -> Option<EndedAs> {
        match termination {
            Termination::IllegalMoves => Some(EndedAs::RulesInfraction),
            Termination::Arbiter => Some(match cause_of(cause_seq) {
                Some(Event::Recorded(RecordedEvent::ArbiterDecision {
                    cause: Some(cause),
                    ..
                })) => match cause {
                    EndCause::Forfeit => EndedAs::Forfeit,
                    EndCause::ReportedResult => EndedAs::ReportedResult,
                    EndCause::RulesInfraction => EndedAs::RulesInfraction,
                    EndCause::Adjudication => EndedAs::Adjudication,
                },
                Some(Event::Recorded(RecordedEvent::ArbiterDecision {
                    cause: None,
                    reason,
                    ..
                })) => legacy(reason, plies),
                Some(Event::Recorded(RecordedEvent::FairPlay {
                    forfeit: Some(_), ..
                })) => EndedAs::RulesInfraction,
                _ => EndedAs::Adjudication,
            }),
            Termination::Appeal => None,
            _ => Some(EndedAs::OverTheBoard),
        }
    };
    // The last end stands; an appeal's end keeps the nature of the end before it.
    let mut ended_as = None;
    for (termination, cause_seq) in &ends {
        ended_as = match (classify(**termination, *cause_seq), ended_as) {
            (Some(now), _) => Some(now),
            (None, Some(EndedAs::Forfeit)) => Some(EndedAs::Forfeit),
            (None, Some(EndedAs::ReportedResult)) => Some(EndedAs::ReportedResult),
            (None, Some(_)) => Some(EndedAs::Adjudication),
            // An appeal that ended a game nothing had ended: as before, before any move it is
            // a forfeit.
            (None, None) if plies == 0 => Some(EndedAs::Forfeit),
            (None, None) => Some(EndedAs::Adjudication),
        };
    }
    let ended_as = ended_as.unwrap_or(EndedAs::OverTheBoard);
    let played = match ended_as {
        EndedAs::Forfeit => Played::NotPlayed,
        EndedAs::ReportedResult => Played::Played,
        _ if plies >= 2 => Played::Played,
        _ => Played::LessThanOneMove,
    };
    Outcome {
        result,
        ended_as,
        played,
    }
}

/// An arbiter's `game_ended` from before decisions carried their cause: read as the report
/// read it then (an end before any move is a forfeit, 6.7.1), unless the reason names a
/// reported result (8.7) or a device (11.3).
fn legacy(reason: &str, plies: usize) -> EndedAs {
    let reason = reason.to_lowercase();
    if reason.contains("forfeit") || reason.contains("6.7.1") {
        EndedAs::Forfeit
    } else if reason.contains("8.7") || reason.contains("reported") {
        EndedAs::ReportedResult
    } else if reason.contains("11.3") || reason.contains("device") {
        EndedAs::RulesInfraction
    } else if plies == 0 {
        EndedAs::Forfeit
    } else {
        EndedAs::Adjudication
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_old_decision_is_read_from_its_reason_and_before_any_move_is_a_forfeit_otherwise() {
        assert_eq!(
            legacy(
                "Forfeit: Black did not play the game (6.7.1); White wins by forfeit.",
                0
            ),
            EndedAs::Forfeit
        );
        assert_eq!(
            legacy(
                "Result reported by both players at the end of the game (8.7).",
                0
            ),
            EndedAs::ReportedResult
        );
        assert_eq!(
            legacy("Mobile phone rang in his pocket (11.3.2.2).", 0),
            EndedAs::RulesInfraction
        );
        assert_eq!(legacy("Absent.", 0), EndedAs::Forfeit);
        assert_eq!(legacy("Quickplay finish.", 40), EndedAs::Adjudication);
    }
}
