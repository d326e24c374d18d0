//! What a live stream and a broadcast show of a game: the position after each move, the
//! position a correction returns to, the snapshot a new subscriber starts from, and what the
//! public may see.
//!
//! The public sees what spectators in the hall see: moves, clocks, draw offers (marked `(=)`
//! as on the scoresheet, 8.1.5), resignations, flag falls and results. It never sees a
//! touched piece (4.3: what the arbiter noted, not a move) nor an arbiter's warning (12.9.1).
//! Claims (9.2, 9.3, III.5), their rulings, penalties (9.5.3, 7.5.5, 12.9), clock adjustments,
//! illegal moves (7.5), arbiter decisions and appeals become public once the game has ended,
//! so that a broadcast neither anticipates the arbiter nor shows a ruling that may still be
//! corrected. A correction is shown exactly when the event it retracts is; a draw accepted or
//! declined exactly when the offer or claim it answers is. A record of the game as it stands
//! (the public PGN) leaves out what a correction retracted, and the correction: only the
//! arbiters' record keeps them.
//!
//! Pure: the caller hands in the folded [`Game`] and the events.

use crate::game::event::{ArbiterRuling, Event, GameResult, Player, RecordedEvent, ServiceEvent};
use crate::game::view::{ClockTimes, GameStatus};
use crate::game::{CorruptLog, Game};
use crate::rules::move_parsing::{fen_of, parse_move};
use serde::Serialize;
use shakmaty::uci::UciMove;
use std::collections::{HashMap, HashSet};
use utoipa::ToSchema;
use uuid::Uuid;

/// Who watches a stream or reads a broadcast.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Audience {
    /// Arbiters' screens: every event, at once.
    Full,
    /// The public broadcast: delayed, and without what is not (yet) public.
    Public,
}

/// When the public may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Publicity {
    /// As soon as it is broadcast.
    Always,
    /// Once the game has ended.
    OnceEnded,
    /// Never (touches, warnings).
    Never,
    /// When the event it retracts is (a correction).
    AsRetracted(u64),
    /// When the draw offer or the claim (itself an offer, 9.1.2.3) it answers is (a draw
    /// accepted or declined).
    AsAnswered(u64),
}

/// When the public may see `event` (see the module documentation).
pub fn publicity(event: &Event) -> Publicity {
    match event {
        Event::Recorded(recorded) => match recorded {
            RecordedEvent::Move { .. }
            | RecordedEvent::ClockPress { .. }
            | RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {}
            | RecordedEvent::DrawOffer { .. }
            | RecordedEvent::DrawAccept { .. }
            | RecordedEvent::DrawDecline { .. }
            | RecordedEvent::Flag { .. }
            | RecordedEvent::BothFlags {}
            | RecordedEvent::Resign { .. } => Publicity::Always,
            // A fair-play event's payload is sealed, and not even its row is broadcast; a
            // game it ends is (the `game_ended`, with the result and the article only).
            RecordedEvent::Touch { .. } | RecordedEvent::FairPlay { .. } => Publicity::Never,
            RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::Warning,
                ..
            } => Publicity::Never,
            RecordedEvent::IllegalMove { .. }
            | RecordedEvent::ClockAdjust { .. }
            | RecordedEvent::Claim { .. }
            | RecordedEvent::ArbiterDecision { .. }
            | RecordedEvent::AppealLodged { .. }
            | RecordedEvent::AppealDecided { .. } => Publicity::OnceEnded,
            RecordedEvent::Correction { retracts_seq, .. } => Publicity::AsRetracted(*retracts_seq),
        },
        Event::Service(service) => match service {
            ServiceEvent::GameCreated(_) | ServiceEvent::GameEnded { .. } => Publicity::Always,
            ServiceEvent::ClaimRuled(_)
            | ServiceEvent::PenaltyApplied { .. }
            | ServiceEvent::GameResumed { .. }
            | ServiceEvent::AppealDismissed { .. }
            | ServiceEvent::AppealUpheld { .. } => Publicity::OnceEnded,
        },
    }
}

/// Decides, event by event, what an audience sees. Every event of the log must be
/// [`observed`](Disclosure::observe) in order (also those not sent), so that a correction
/// can be judged by the event it retracts.
#[derive(Clone, Debug)]
pub struct Disclosure {
    audience: Audience,
    classes: HashMap<u64, Publicity>,
    /// The latest draw offer or claim, which a draw accepted or declined answers.
    open_offer: Option<u64>,
    /// `(correction seq, retracted seq)`, in log order.
    corrections: Vec<(u64, u64)>,
    /// The `seq`s of the service's decisions (retracted with the event that caused them).
    decisions: HashSet<u64>,
}

impl Disclosure {
    /// Nothing observed yet.
    pub fn new(audience: Audience) -> Self {
        Disclosure {
            audience,
            classes: HashMap::new(),
            open_offer: None,
            corrections: Vec::new(),
            decisions: HashSet::new(),
        }
    }

    /// The audience.
    pub fn audience(&self) -> Audience {
        self.audience
    }

    /// Notes the event stored at `seq`.
    pub fn observe(&mut self, seq: u64, event: &Event) {
        let mut class = publicity(event);
        match event {
            Event::Recorded(RecordedEvent::DrawOffer { .. } | RecordedEvent::Claim { .. }) => {
                self.open_offer = Some(seq);
            }
            Event::Recorded(
                RecordedEvent::DrawAccept { .. } | RecordedEvent::DrawDecline { .. },
            ) => {
                if let Some(offer) = self.open_offer.take() {
                    class = Publicity::AsAnswered(offer);
                }
            }
            Event::Recorded(RecordedEvent::Correction { retracts_seq, .. }) => {
                self.corrections.push((seq, *retracts_seq));
            }
            Event::Service(_) => {
                self.decisions.insert(seq);
            }
            _ => {}
        }
        self.classes.insert(seq, class);
    }

    /// Whether the audience sees the event at `seq` in a record of the game as it stands (a
    /// PGN): as [`Disclosure::shows`], except that the public sees neither what a correction
    /// retracted (with the decisions it caused) nor the correction itself. Only the
    /// arbiters' record keeps them, with the correction saying what it retracted.
    pub fn shows_in_record(&self, seq: u64, game_ended: bool) -> bool {
        if self.audience == Audience::Full {
            return true;
        }
        let is_correction = self.corrections.iter().any(|(c, _)| *c == seq);
        let retracted =
            crate::game::retracted_by(&self.corrections, seq, self.decisions.contains(&seq));
        !is_correction && retracted.is_none() && self.shows(seq, game_ended)
    }

    /// Whether the audience sees the event at `seq` (observed before), given whether the game
    /// has ended in what the audience is shown.
    pub fn shows(&self, seq: u64, game_ended: bool) -> bool {
        if self.audience == Audience::Full {
            return true;
        }
        let mut seq = seq;
        // A correction follows what it retracts (a chain only through other corrections).
        for _ in 0..self.classes.len() + 1 {
            match self.classes.get(&seq) {
                None | Some(Publicity::Never) => return false,
                Some(Publicity::Always) => return true,
                Some(Publicity::OnceEnded) => return game_ended,
                Some(Publicity::AsRetracted(earlier) | Publicity::AsAnswered(earlier)) => {
                    seq = *earlier
                }
            }
        }
        false
    }
}

/// The position after a move, as a stream sends it with the move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct MovePosition {
    /// The position after the move (en passant square only where the capture is legal).
    pub fen: String,
    /// The move in SAN, as the engine writes it (with `+`/`#`).
    pub san: String,
    /// The move in UCI (`e2e4`, `e7e8q`; castling as the game writes it: king to its square
    /// in standard chess, king takes rook in Chess960).
    pub uci: String,
    /// Half-moves played, this one included.
    pub ply: usize,
    /// The clocks as the engine keeps them after the move (the last readings, with penalties
    /// and adjustments); a reading sent with the move is in the envelope's `clock`.
    pub clocks: ClockTimes,
}

/// The position a correction returns to: consumers truncate their moves to `moves` rather
/// than branch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct RestoredPosition {
    /// The position after the retraction.
    pub fen: String,
    /// Half-moves standing after the retraction.
    pub ply: usize,
    /// The moves standing after the retraction, in SAN.
    pub moves: Vec<String>,
    /// The clocks as the engine keeps them after the retraction.
    pub clocks: ClockTimes,
    /// In progress or ended (a correction can retract the event that ended the game).
    pub status: GameStatus,
    /// The result, if the game has still ended.
    pub result: Option<GameResult>,
}

/// What a stream adds to an event: the position after a move, or the position a correction
/// returns to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Positions {
    /// For a move.
    pub position: Option<MovePosition>,
    /// For a correction.
    pub returns_to: Option<RestoredPosition>,
}

/// Folds `event` (stored at `seq`) into `game` and says what a stream sends with it.
pub fn fold_for_stream(game: &mut Game, seq: u64, event: &Event) -> Result<Positions, CorruptLog> {
    let uci = match event {
        Event::Recorded(RecordedEvent::Move { san, .. }) => {
            parse_move(game.position(), san, game.castling_mode())
                .ok()
                .map(|m| UciMove::from_move(m, game.castling_mode()).to_string())
        }
        _ => None,
    };
    game.apply(seq, event)?;
    let mut positions = Positions::default();
    match event {
        Event::Recorded(RecordedEvent::Move { .. }) => {
            positions.position = Some(MovePosition {
                fen: fen_of(game.position()),
                san: game.moves().last().cloned().unwrap_or_default(),
                uci: uci.unwrap_or_default(),
                ply: game.moves().len(),
                clocks: game.clocks(),
            });
        }
        Event::Recorded(RecordedEvent::Correction { .. }) => {
            positions.returns_to = Some(RestoredPosition {
                fen: fen_of(game.position()),
                ply: game.moves().len(),
                moves: game.moves().to_vec(),
                clocks: game.clocks(),
                status: if game.is_over() {
                    GameStatus::Ended
                } else {
                    GameStatus::InProgress
                },
                result: game.result(),
            });
        }
        _ => {}
    }
    Ok(positions)
}

/// Where a game stands, as a new subscriber first receives it.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct GameSnapshot {
    /// The game.
    pub game_id: Uuid,
    /// The `seq` this snapshot reflects (also the SSE `id` of a game stream's snapshot).
    pub seq: u64,
    /// The player of the white pieces.
    pub white: Player,
    /// The player of the black pieces.
    pub black: Player,
    /// The tournament.
    pub event: String,
    /// The round.
    pub round: String,
    /// The board number.
    pub board: Option<u32>,
    /// The start position, when not the standard one.
    pub start_fen: Option<String>,
    /// The current position.
    pub fen: String,
    /// Half-moves played.
    pub ply: usize,
    /// The moves in SAN.
    pub moves: Vec<String>,
    /// The moves as on a scoresheet, with `(=)` after a move where a draw was offered.
    pub scoresheet: Vec<String>,
    /// The clocks as the engine keeps them.
    pub clocks: ClockTimes,
    /// In progress or ended.
    pub status: GameStatus,
    /// The result, once ended.
    pub result: Option<GameResult>,
    /// How it ended (`checkmate`, `agreement`, ...), once ended.
    pub termination: Option<crate::game::event::Termination>,
    /// The control as PGN writes it (`40/5400+30:1800+30`; `?` where PGN cannot).
    pub time_control: String,
    /// Each player's period, moves to the control and "control reached" (6.3.1, 6.4).
    pub periods: crate::game::view::PeriodsView,
}

/// The snapshot of `game`, folded to `seq`.
pub fn snapshot(game_id: Uuid, seq: u64, game: &Game) -> GameSnapshot {
    let settings = game.settings();
    let view = game.view();
    GameSnapshot {
        game_id,
        seq,
        white: settings.white.clone(),
        black: settings.black.clone(),
        event: settings.event.clone(),
        round: settings.round.clone(),
        board: settings.board,
        start_fen: settings.start_fen.clone(),
        fen: view.fen,
        ply: view.ply,
        moves: view.moves,
        scoresheet: view.scoresheet,
        clocks: view.clocks,
        status: view.status,
        result: view.result,
        termination: view.termination,
        time_control: super::time_control_tag::write_tag(&settings.time_control)
            .unwrap_or_else(|_| "?".to_string()),
        // The readings that do not fit are the arbiter's to check, not the relay's to show.
        periods: crate::game::view::PeriodsView {
            reading_discrepancies: Vec::new(),
            ..view.time_control
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::event::Side;

    fn touch() -> Event {
        Event::Recorded(RecordedEvent::Touch {
            by: Side::White,
            square: "e2".into(),
        })
    }

    fn offer() -> Event {
        Event::Recorded(RecordedEvent::DrawOffer { by: Side::Black })
    }

    fn correction(retracts_seq: u64) -> Event {
        Event::Recorded(RecordedEvent::Correction {
            retracts_seq,
            reason: "typed on the wrong board".into(),
        })
    }

    #[test]
    fn the_public_never_sees_a_touch_nor_its_correction_but_arbiters_see_both() {
        let mut public = Disclosure::new(Audience::Public);
        let mut full = Disclosure::new(Audience::Full);
        for disclosure in [&mut public, &mut full] {
            disclosure.observe(2, &touch());
            disclosure.observe(3, &correction(2));
        }
        assert!(!public.shows(2, true));
        assert!(!public.shows(3, true));
        assert!(full.shows(2, false));
        assert!(full.shows(3, false));
    }

    #[test]
    fn a_declined_claim_is_answered_in_public_only_when_the_claim_is_public() {
        let mut public = Disclosure::new(Audience::Public);
        let claim = Event::Recorded(RecordedEvent::Claim {
            by: Side::White,
            kind: crate::game::event::ClaimKind::Repetition,
            intended_move: None,
        });
        public.observe(2, &claim);
        public.observe(
            3,
            &Event::Recorded(RecordedEvent::DrawDecline { by: Side::Black }),
        );
        public.observe(4, &offer());
        public.observe(
            5,
            &Event::Recorded(RecordedEvent::DrawDecline { by: Side::White }),
        );
        assert!(!public.shows(3, false), "the claim is not public yet");
        assert!(public.shows(3, true));
        assert!(public.shows(5, false), "an offer and its answer are public");
    }

    #[test]
    fn the_public_record_leaves_out_a_retracted_resignation_its_ending_and_the_correction() {
        let mut public = Disclosure::new(Audience::Public);
        let mut full = Disclosure::new(Audience::Full);
        let resign = Event::Recorded(RecordedEvent::Resign { by: Side::Black });
        let ended = Event::Service(ServiceEvent::GameEnded {
            result: GameResult::WhiteWins,
            termination: crate::game::event::Termination::Resignation,
            article: "5.1.2".into(),
            reason: "resigned".into(),
            cause_seq: 2,
            ruled_by: crate::game::event::RuledBy {
                engine_version: "test".into(),
                laws_edition: Default::default(),
            },
            evidence: None,
        });
        for disclosure in [&mut public, &mut full] {
            disclosure.observe(2, &resign);
            disclosure.observe(3, &ended);
            disclosure.observe(4, &correction(2));
        }
        for seq in [2, 3, 4] {
            assert!(public.shows(seq, false), "the stream sends {seq}");
            assert!(
                !public.shows_in_record(seq, false),
                "the PGN leaves out {seq}"
            );
            assert!(full.shows_in_record(seq, false), "the arbiters keep {seq}");
        }
    }

    #[test]
    fn a_claim_becomes_public_once_the_game_has_ended_and_an_offer_at_once() {
        let mut public = Disclosure::new(Audience::Public);
        let claim = Event::Recorded(RecordedEvent::Claim {
            by: Side::White,
            kind: crate::game::event::ClaimKind::Repetition,
            intended_move: None,
        });
        public.observe(2, &claim);
        public.observe(3, &offer());
        public.observe(4, &correction(3));
        assert!(!public.shows(2, false));
        assert!(public.shows(2, true));
        assert!(public.shows(3, false));
        assert!(
            public.shows(4, false),
            "the correction of an offer is public"
        );
    }
}
