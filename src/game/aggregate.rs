//! The game aggregate: [`Game::record`] judges a recorded event and applies it with the
//! decisions it causes, in one step; [`Game::apply`] folds stored events into state;
//! [`Game::decide`] only judges.
//!
//! This module dispatches each event to the part of the Laws it belongs to and owns nothing
//! of the Laws itself:
//!
//! | Laws | module |
//! |---|---|
//! | Article 3, moves | [`super::moves`] |
//! | Article 4, touch-move, and the moves a player is bound to (9.5.3) | [`super::touch_move`] |
//! | Article 5 and 6.9, ends of the game | [`super::endings`] |
//! | Article 6, the clocks | [`super::clocks`] |
//! | Article 7.5 and A.5.2, illegal moves | [`super::illegal_moves`] |
//! | Article 9.1, draw offers | [`super::offers`] |
//! | Articles 9.2-9.5, claims | [`super::claims`] |
//! | Guidelines III, quickplay finish | [`super::quickplay`] |
//! | Appeals (11.10) and corrections | [`super::appeals`] |
//!
//! `apply` returns an error only for a corrupt log (a stored move that is not legal, a
//! correction of an event that is not the latest standing one); the state is then
//! unchanged. `decide` is a pure function of the state and the event: the same prefix always
//! gives the same decisions (docs/DESIGN.md, Principle 3).

use std::collections::HashMap;

use shakmaty::{CastlingMode, Chess, Move, Position, Square};

use crate::rules::claims::ClaimKind;
use crate::rules::laws::Rule;
use crate::rules::move_parsing::{fen_of, parse_move};
use crate::rules::position_identity::position_key;
use crate::rules::side::Side;

use super::appeals::{self, Appeals};
use super::claims::{self, Claims};
use super::clocks::Clocks;
use super::decisions::Decisions;
use super::endings::{self, GameEnd};
use super::event::{
    ArbiterRuling, ClockReading, Event, GameResult, GameSettings, IllegalMoveKind, RecordedEvent,
    ServiceEvent, Termination, TimeBonus,
};
use super::illegal_moves::{self, IllegalMoveEffect};
use super::moves::Board;
use super::offers::{self, Offers, agreement_forbidden};
use super::quickplay::{self, GRANTED_INCREMENT_MS, Quickplay, TWO_EXTRA_MINUTES_MS};
use super::refusal::Refusal;
use super::settings::{SettingsError, validate};
use super::touch_move::Obligations;
use super::view::{
    ClockTimes, DrawOfferMark, GameStatus, GameView, IllegalMoveCounts, PositionOccurrences,
};

/// A stored event that cannot be folded: the log is corrupt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event {seq} cannot be applied: {problem}")]
pub struct CorruptLog {
    /// The `seq` of the event.
    pub seq: u64,
    /// What is wrong.
    pub problem: String,
}

/// Everything derived from the standing events, one part per part of the Laws.
#[derive(Clone, Debug)]
struct State {
    board: Board,
    obligations: Obligations,
    offers: Offers,
    claims: Claims,
    illegal_moves: IllegalMoveCounts,
    clocks: Clocks,
    quickplay: Quickplay,
    appeals: Appeals,
    end: Option<GameEnd>,
}

impl State {
    fn new(start: Chess, castling_mode: CastlingMode, settings: &GameSettings) -> State {
        State {
            board: Board::new(start, castling_mode),
            obligations: Obligations::default(),
            offers: Offers::default(),
            claims: Claims::default(),
            illegal_moves: IllegalMoveCounts::default(),
            clocks: Clocks::new(
                settings.time_control.base_ms,
                settings.time_control.increment_ms,
            ),
            quickplay: Quickplay::default(),
            appeals: Appeals::default(),
            end: None,
        }
    }
}

#[derive(Clone, Debug)]
struct LoggedEvent {
    seq: u64,
    event: Event,
    clock: Option<ClockReading>,
    retracted: bool,
}

/// What judging a recorded event worked out, so that applying it parses nothing again.
#[derive(Clone, Debug)]
enum Prepared {
    Nothing,
    /// The move, and a player the dead-position check proved able to checkmate after it.
    Move(Move, Option<Side>),
    IllegalMove(IllegalMoveEffect),
    Stood(Box<Chess>),
    /// The square touched, when it names one.
    Touch(Option<Square>),
}

/// A game: its settings, its log and the state folded from it.
#[derive(Clone, Debug)]
pub struct Game {
    settings: GameSettings,
    start: Chess,
    castling_mode: CastlingMode,
    log: Vec<LoggedEvent>,
    state: State,
}

impl Game {
    /// A new game with `settings`, before any event (the `game_created` event at seq 1 may
    /// then be applied; it must carry the same settings).
    pub fn new(settings: &GameSettings) -> Result<Game, SettingsError> {
        let (start, castling_mode) = validate(settings)?;
        let state = State::new(start.clone(), castling_mode, settings);
        Ok(Game {
            settings: settings.clone(),
            start,
            castling_mode,
            log: Vec::new(),
            state,
        })
    }

    /// The settings the game was created with.
    pub fn settings(&self) -> &GameSettings {
        &self.settings
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        self.state.board.position()
    }

    /// The position after `ply` half-moves (ply 0 = the start position).
    pub fn position_at_ply(&self, ply: usize) -> Option<&Chess> {
        self.state.board.history().at(ply)
    }

    /// The `seq` of the event that reached each ply of the standing game, in order: entry
    /// `n - 1` reached ply `n` (a move, a pawn promoted under 7.5.2, an illegal move that
    /// stood).
    pub fn move_seqs(&self) -> Vec<u64> {
        self.state.board.ply_seqs().to_vec()
    }

    /// Half-moves played.
    pub fn ply(&self) -> usize {
        self.state.board.ply()
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.state.end.is_some()
    }

    /// The result, once the game has ended.
    pub fn result(&self) -> Option<GameResult> {
        self.state.end.as_ref().map(|end| end.result)
    }

    /// How the game ended, once it has.
    pub fn termination(&self) -> Option<Termination> {
        self.state.end.as_ref().map(|end| end.termination)
    }

    /// The standing events of the log in order, with their `seq` (events retracted by a
    /// correction, and the decisions they caused, left out).
    pub fn standing_events(&self) -> impl Iterator<Item = (u64, &Event)> {
        self.log
            .iter()
            .filter(|logged| !logged.retracted)
            .map(|logged| (logged.seq, &logged.event))
    }

    /// The clock times as the engine keeps them: the last readings, with penalties and
    /// adjustments applied.
    pub fn clocks(&self) -> ClockTimes {
        self.state.clocks.times()
    }

    /// The standing moves in SAN (retracted ones excluded; an illegal move that stood as
    /// written).
    pub fn moves(&self) -> &[String] {
        self.state.board.moves()
    }

    /// How castling is written in UCI for this game (Chess960 or standard).
    pub fn castling_mode(&self) -> CastlingMode {
        self.castling_mode
    }

    fn decisions(&self) -> Decisions<'_> {
        Decisions {
            settings: &self.settings,
        }
    }

    /// Judges the recorded `event` at `seq` and applies it, with the decisions it causes
    /// (stored at `seq + 1`, `seq + 2`, ...), in one step; returns those decisions. On a
    /// refusal nothing changes.
    pub fn record(
        &mut self,
        seq: u64,
        event: &RecordedEvent,
    ) -> Result<Vec<ServiceEvent>, Refusal> {
        self.record_with_clock(seq, event, None)
    }

    /// [`Game::record`] with the clock reading recorded with the event.
    pub fn record_with_clock(
        &mut self,
        seq: u64,
        event: &RecordedEvent,
        clock: Option<&ClockReading>,
    ) -> Result<Vec<ServiceEvent>, Refusal> {
        let (decisions, prepared) = self.judge(seq, event, clock)?;
        if let RecordedEvent::Correction { .. } = event {
            // A correction folds the standing events again; it causes no decision.
            self.apply_with_clock(seq, &Event::Recorded(event.clone()), clock)
                .map_err(|corrupt| {
                    Refusal::new(
                        "internal_inconsistency",
                        format!("The correction was judged acceptable but could not be applied: {corrupt}. Nothing was stored; please report this."),
                    )
                })?;
            return Ok(decisions);
        }
        self.fold_recorded(seq, event, clock, prepared);
        self.log.push(LoggedEvent {
            seq,
            event: Event::Recorded(event.clone()),
            clock: clock.cloned(),
            retracted: false,
        });
        for (offset, decision) in decisions.iter().enumerate() {
            let decision_seq = seq + 1 + offset as u64;
            self.fold_service(decision_seq, decision);
            self.log.push(LoggedEvent {
                seq: decision_seq,
                event: Event::Service(decision.clone()),
                clock: None,
                retracted: false,
            });
        }
        Ok(decisions)
    }

    /// The decision events that `event`, stored at `seq` on the current state, would cause
    /// (to be stored at `seq + 1`, `seq + 2`, ...), or why it must not be stored. Nothing
    /// changes.
    pub fn decide(&self, seq: u64, event: &RecordedEvent) -> Result<Vec<ServiceEvent>, Refusal> {
        self.judge(seq, event, None).map(|(decisions, _)| decisions)
    }

    /// Folds one stored event into the state. Service events (`game_created`,
    /// `claim_ruled`, `penalty_applied`, `game_ended`) are folded too. Returns
    /// [`CorruptLog`] (and leaves the state unchanged) if the event cannot have been
    /// accepted in this state.
    pub fn apply(&mut self, seq: u64, event: &Event) -> Result<(), CorruptLog> {
        self.apply_with_clock(seq, event, None)
    }

    /// [`Game::apply`] with the clock reading stored with the event.
    pub fn apply_with_clock(
        &mut self,
        seq: u64,
        event: &Event,
        clock: Option<&ClockReading>,
    ) -> Result<(), CorruptLog> {
        match event {
            Event::Service(ServiceEvent::GameCreated(settings)) => {
                if **settings != self.settings {
                    let fresh = Game::new(settings).map_err(|e| CorruptLog {
                        seq,
                        problem: e.to_string(),
                    })?;
                    *self = fresh;
                }
            }
            Event::Recorded(RecordedEvent::Correction { retracts_seq, .. }) => {
                let index = self
                    .latest_standing_index()
                    .filter(|&i| self.log[i].seq == *retracts_seq);
                let Some(index) = index else {
                    return Err(CorruptLog {
                        seq,
                        problem: format!("event {retracts_seq} is not the latest standing event"),
                    });
                };
                let mut corrected = self.clone();
                corrected.log[index].retracted = true;
                for later in corrected.log[index + 1..].iter_mut() {
                    if matches!(later.event, Event::Service(_)) {
                        later.retracted = true;
                    }
                }
                corrected.refold()?;
                *self = corrected;
            }
            Event::Recorded(recorded) => {
                let prepared = self.prepare(seq, recorded)?;
                self.fold_recorded(seq, recorded, clock, prepared);
            }
            Event::Service(service) => self.fold_service(seq, service),
        }
        self.log.push(LoggedEvent {
            seq,
            event: event.clone(),
            clock: clock.cloned(),
            retracted: false,
        });
        Ok(())
    }

    /// Folds the standing events again from the start (after a correction).
    fn refold(&mut self) -> Result<(), CorruptLog> {
        self.state = State::new(self.start.clone(), self.castling_mode, &self.settings);
        let standing: Vec<LoggedEvent> =
            self.log.iter().filter(|l| !l.retracted).cloned().collect();
        for logged in standing {
            match &logged.event {
                Event::Service(ServiceEvent::GameCreated(_))
                | Event::Recorded(RecordedEvent::Correction { .. }) => {}
                Event::Recorded(recorded) => {
                    let prepared = self.prepare(logged.seq, recorded)?;
                    self.fold_recorded(logged.seq, recorded, logged.clock.as_ref(), prepared);
                }
                Event::Service(service) => self.fold_service(logged.seq, service),
            }
        }
        Ok(())
    }

    /// The index in the log of the latest standing recorded event (corrections excluded).
    fn latest_standing_index(&self) -> Option<usize> {
        self.log.iter().rposition(|l| {
            !l.retracted
                && matches!(&l.event, Event::Recorded(e) if !matches!(e, RecordedEvent::Correction { .. }))
        })
    }

    /// The stored event at `seq`, if any.
    fn logged(&self, seq: u64) -> Option<&LoggedEvent> {
        self.log.iter().find(|l| l.seq == seq)
    }

    /// Judges `event` at `seq`: its decisions and what applying it needs.
    fn judge(
        &self,
        seq: u64,
        event: &RecordedEvent,
        clock: Option<&ClockReading>,
    ) -> Result<(Vec<ServiceEvent>, Prepared), Refusal> {
        let decisions = self.decisions();
        let state = &self.state;
        if let Some(end) = &state.end
            && endings::refused_after_end(event)
        {
            return Err(endings::refusal_after_end(&decisions, end, event));
        }
        if let Some(side) = state.quickplay.fallen_flag()
            && is_board_event(event)
        {
            return Err(Refusal::new(
                "awaiting_arbiter",
                format!(
                    "{}'s flag fell while a quickplay-finish claim awaited the arbiter: the arbiter declares the result ({}). Record the arbiter_decision (game_ended with the result) first.",
                    side.name(),
                    decisions.cite(&[Rule::QuickplayClaimPostponed])
                ),
            ));
        }
        let board = &state.board;
        let nothing = |decisions: Vec<ServiceEvent>| Ok((decisions, Prepared::Nothing));
        match event {
            RecordedEvent::Move { by, san } => {
                let m = board.judge_move(*by, san)?;
                state.obligations.check(board.position(), *by, &m)?;
                let mut after = board.position().clone();
                let written = crate::rules::move_parsing::san_of(board.position(), m);
                after.play_unchecked(m);
                let mut witness = None;
                let end = endings::after_move(
                    &decisions,
                    seq,
                    *by,
                    &written,
                    board.history(),
                    m,
                    &after,
                    board.mate_witness(),
                    &mut witness,
                );
                Ok((end.into_iter().collect(), Prepared::Move(m, witness)))
            }
            RecordedEvent::IllegalMove {
                by,
                completed,
                attempted_move,
                kind,
                ..
            } => {
                let kind = kind.unwrap_or(IllegalMoveKind::IllegalMove);
                let effect = illegal_moves::effect_of(
                    board,
                    *by,
                    *completed,
                    attempted_move.as_deref(),
                    kind,
                )?;
                let after = match &effect {
                    IllegalMoveEffect::Stands(m) => {
                        let mut after = board.position().clone();
                        after.play_unchecked(*m);
                        Some((after, *m))
                    }
                    _ => None,
                };
                let position_for_mate = after.as_ref().map(|(p, _)| p).unwrap_or(board.position());
                let mut ruled = illegal_moves::penalise(
                    &decisions,
                    &state.illegal_moves,
                    position_for_mate,
                    seq,
                    *by,
                    *completed,
                    kind,
                    &effect,
                );
                let lost = ruled
                    .iter()
                    .any(|d| matches!(d, ServiceEvent::GameEnded { .. }));
                if let (false, Some((after, m))) = (lost, &after) {
                    let written = crate::rules::move_parsing::san_of(board.position(), *m);
                    ruled.extend(endings::after_move(
                        &decisions,
                        seq,
                        *by,
                        &written,
                        board.history(),
                        *m,
                        after,
                        None,
                        &mut None,
                    ));
                }
                Ok((ruled, Prepared::IllegalMove(effect)))
            }
            RecordedEvent::ClockPress { .. }
            | RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {}
            | RecordedEvent::ClockAdjust { .. }
            | RecordedEvent::DrawOffer { .. } => nothing(Vec::new()),
            RecordedEvent::Touch { by, square } => {
                let square = judge_touch(board.position(), *by, square)?;
                Ok((Vec::new(), Prepared::Touch(Some(square))))
            }
            RecordedEvent::DrawAccept { by } => {
                let offer = state.offers.open_for(*by, "accept")?;
                if let Some(refusal) = offers::regulations_refuse(
                    &self.settings.regulations,
                    board.completed_moves(),
                    offer,
                ) {
                    return Err(refusal);
                }
                if !board.both_have_moved(Side::from(self.start.turn())) {
                    return Err(Refusal::new(
                        "both_must_have_moved",
                        format!(
                            "A draw by agreement needs both players to have made at least one move ({}); the game continues.",
                            decisions.cite(&[Rule::Agreement])
                        ),
                    ));
                }
                let void =
                    offer.from_claim.is_some() && state.offers.claim_penalty_standing(offer.seq);
                let (rules, what) = offers::agreement_grounds(offer, void);
                nothing(vec![decisions.game_ended(
                    seq,
                    GameResult::Draw,
                    Termination::Agreement,
                    &rules,
                    format!(
                        "{} accepted {what} made by {} (event {}): drawn by agreement.",
                        by.name(),
                        offer.by.name(),
                        offer.seq
                    ),
                    None,
                )])
            }
            RecordedEvent::DrawDecline { by } => {
                state.offers.open_for(*by, "decline")?;
                nothing(Vec::new())
            }
            RecordedEvent::Claim {
                by,
                kind,
                intended_move,
            } => {
                let ruled = match kind {
                    ClaimKind::Repetition | ClaimKind::FiftyMoves => claims::rule_on(
                        &decisions,
                        board,
                        &state.obligations,
                        &state.claims,
                        seq,
                        *by,
                        *kind,
                        intended_move.as_deref(),
                    ),
                    ClaimKind::QuickplayFinish | ClaimKind::IncrementRequest => {
                        let mut clocks = state.clocks.clone();
                        if let Some(reading) = clock {
                            clocks.observe(reading);
                        }
                        quickplay::rule_on(&decisions, board, &clocks, seq, *by, *kind)
                    }
                };
                nothing(ruled)
            }
            RecordedEvent::Flag { side } => {
                if state.quickplay.claim_awaits_arbiter() {
                    // III.5.2: the arbiter declares the result after a flag falls.
                    return nothing(Vec::new());
                }
                nothing(vec![endings::flag_fell(
                    &decisions,
                    seq,
                    *side,
                    board.position(),
                )])
            }
            RecordedEvent::Resign { by } => nothing(vec![endings::resigned(
                &decisions,
                seq,
                *by,
                board.position(),
            )]),
            RecordedEvent::ArbiterDecision {
                subject_seq,
                decision,
                reason,
                result,
                penalty,
                attempted_move,
                fen,
                increment_ms,
            } => self.judge_arbiter(
                seq,
                event,
                ArbiterInput {
                    subject_seq: *subject_seq,
                    decision: *decision,
                    reason,
                    result: *result,
                    penalty: penalty.as_ref(),
                    attempted_move: attempted_move.as_deref(),
                    fen: fen.as_deref(),
                    increment_ms: *increment_ms,
                },
            ),
            RecordedEvent::AppealLodged { against_seq, .. } => {
                appeals::check_lodged(*against_seq, seq, self.logged(*against_seq).is_some())?;
                nothing(Vec::new())
            }
            RecordedEvent::AppealDecided {
                against_seq,
                upheld,
                result,
                reason,
            } => nothing(appeals::decide(
                &decisions,
                &state.appeals,
                seq,
                *against_seq,
                *upheld,
                *result,
                reason,
            )?),
            RecordedEvent::Correction { retracts_seq, .. } => {
                let latest = self.latest_standing_index().map(|i| self.log[i].seq);
                appeals::check_correction(*retracts_seq, latest)?;
                nothing(Vec::new())
            }
        }
    }

    /// Judges an arbiter's decision.
    fn judge_arbiter(
        &self,
        seq: u64,
        event: &RecordedEvent,
        input: ArbiterInput<'_>,
    ) -> Result<(Vec<ServiceEvent>, Prepared), Refusal> {
        let decisions = self.decisions();
        let state = &self.state;
        if let Some(end) = &state.end
            && input.decision != ArbiterRuling::Warning
        {
            return Err(endings::refusal_after_end(&decisions, end, event));
        }
        let subject = input
            .subject_seq
            .and_then(|s| state.quickplay.open_claim(s))
            .cloned();
        let quickplay_claim = subject
            .as_ref()
            .filter(|c| c.kind == ClaimKind::QuickplayFinish);
        let after_postponement =
            quickplay_claim.is_some_and(|c| c.postponed) || state.quickplay.fallen_flag().is_some();
        let reason = input.reason;
        let penalty_event = |bonus: &TimeBonus, article: String| {
            decisions.penalty(
                seq,
                bonus.side,
                bonus.add_ms,
                article,
                format!("Arbiter's decision: {reason}"),
            )
        };
        let given = |rules: &[Rule]| -> Vec<ServiceEvent> {
            input
                .penalty
                .iter()
                .map(|bonus| penalty_event(bonus, decisions.cite(rules)))
                .collect()
        };
        let ruled = match input.decision {
            ArbiterRuling::GameEnded => {
                let Some(result) = input.result else {
                    return Err(Refusal::new(
                        "missing_result",
                        "An arbiter_decision with decision game_ended needs a result (1-0, 0-1 or 1/2-1/2).",
                    ));
                };
                let rules = if after_postponement {
                    Rule::QuickplayClaimPostponed
                } else if quickplay_claim.is_some() {
                    Rule::QuickplayClaim
                } else {
                    Rule::ArbiterDuties
                };
                vec![decisions.game_ended(
                    seq,
                    result,
                    Termination::Arbiter,
                    &[rules],
                    format!("Arbiter's decision: {reason}"),
                    None,
                )]
            }
            ArbiterRuling::TimePenalty => match input.penalty {
                Some(bonus) => vec![penalty_event(
                    bonus,
                    decisions.cite(&[Rule::ArbiterPenalties]),
                )],
                None => {
                    return Err(Refusal::new(
                        "missing_penalty",
                        "An arbiter_decision with decision time_penalty needs a penalty {side, add_ms}.",
                    ));
                }
            },
            ArbiterRuling::ClaimRejected => match (&subject, input.penalty) {
                // III.5.3: "the opponent shall be awarded two extra minutes".
                (Some(claim), None) if claim.kind == ClaimKind::QuickplayFinish => {
                    vec![decisions.penalty(
                        seq,
                        claim.by.opponent(),
                        TWO_EXTRA_MINUTES_MS,
                        decisions.cite(&[Rule::QuickplayClaimRejected]),
                        format!(
                            "The arbiter rejected {}'s quickplay-finish claim: {} receives two extra minutes. {reason}",
                            claim.by.name(),
                            claim.by.opponent().name()
                        ),
                    )]
                }
                (Some(claim), _) if claim.kind == ClaimKind::QuickplayFinish => {
                    given(&[Rule::QuickplayClaimRejected])
                }
                (Some(_), _) => given(&[Rule::QuickplayIncrement]),
                (None, _) => given(&[Rule::ArbiterDuties]),
            },
            ArbiterRuling::ClaimPostponed => match &subject {
                Some(claim) if claim.kind == ClaimKind::QuickplayFinish => {
                    given(&[Rule::QuickplayClaimPostponed])
                }
                _ => given(&[Rule::ArbiterDuties]),
            },
            ArbiterRuling::Warning => Vec::new(),
            ArbiterRuling::IllegalMoveStands => {
                let position = illegal_moves::position_it_stood_in(
                    &decisions,
                    &state.board,
                    input.attempted_move,
                    input.fen,
                )?;
                return Ok((Vec::new(), Prepared::Stood(Box::new(position))));
            }
            ArbiterRuling::IncrementGranted => {
                let Some(request) = subject
                    .as_ref()
                    .filter(|c| c.kind == ClaimKind::IncrementRequest)
                else {
                    return Err(Refusal::new(
                        "no_increment_request",
                        format!(
                            "increment_granted answers a player's request for an increment ({}): record the request as a claim of kind increment_request, then give its seq as subject_seq.",
                            decisions.cite(&[Rule::QuickplayIncrement])
                        ),
                    ));
                };
                let increment = input.increment_ms.unwrap_or(GRANTED_INCREMENT_MS);
                vec![decisions.penalty(
                    seq,
                    request.by.opponent(),
                    TWO_EXTRA_MINUTES_MS,
                    decisions.cite(&[Rule::QuickplayIncrement]),
                    format!(
                        "The arbiter agreed to {}'s request: an increment of {} s for both players from now on, and {} receives two extra minutes. {reason}",
                        request.by.name(),
                        increment / 1000,
                        request.by.opponent().name()
                    ),
                )]
            }
        };
        Ok((ruled, Prepared::Nothing))
    }

    /// What applying a stored recorded event needs (the move parsed, the illegal move read,
    /// the position an illegal move stood in), or why the log is corrupt. Nothing changes.
    fn prepare(&self, seq: u64, event: &RecordedEvent) -> Result<Prepared, CorruptLog> {
        let corrupt = |problem: String| CorruptLog { seq, problem };
        let board = &self.state.board;
        Ok(match event {
            RecordedEvent::Move { by, san } => {
                if board.side_to_move() != *by {
                    return Err(corrupt(format!("{} moved out of turn", by.name())));
                }
                Prepared::Move(
                    parse_move(board.position(), san, self.castling_mode)
                        .map_err(|e| corrupt(e.to_string()))?,
                    None,
                )
            }
            RecordedEvent::IllegalMove {
                by,
                completed,
                attempted_move,
                kind,
                ..
            } => Prepared::IllegalMove(
                illegal_moves::effect_of(
                    board,
                    *by,
                    *completed,
                    attempted_move.as_deref(),
                    kind.unwrap_or(IllegalMoveKind::IllegalMove),
                )
                .map_err(|refusal| corrupt(refusal.message().to_string()))?,
            ),
            RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::IllegalMoveStands,
                attempted_move,
                fen,
                ..
            } => Prepared::Stood(Box::new(
                illegal_moves::position_it_stood_in(
                    &self.decisions(),
                    board,
                    attempted_move.as_deref(),
                    fen.as_deref(),
                )
                .map_err(|refusal| corrupt(refusal.message().to_string()))?,
            )),
            RecordedEvent::Touch { square, .. } => Prepared::Touch(square.trim().parse().ok()),
            _ => Prepared::Nothing,
        })
    }

    /// Applies a recorded event (already judged, or stored).
    fn fold_recorded(
        &mut self,
        seq: u64,
        event: &RecordedEvent,
        clock: Option<&ClockReading>,
        prepared: Prepared,
    ) {
        if let Some(reading) = clock {
            self.state.clocks.observe(reading);
        }
        let settings = &self.settings;
        let state = &mut self.state;
        match event {
            RecordedEvent::Move { by, .. } => {
                let Prepared::Move(m, witness) = prepared else {
                    return;
                };
                state.board.play(seq, m, witness);
                state.obligations.clear();
                state.offers.rejected_by_touch(*by, "moved");
            }
            RecordedEvent::IllegalMove { by, completed, .. } => {
                let Prepared::IllegalMove(effect) = prepared else {
                    return;
                };
                if *completed {
                    match by {
                        Side::White => state.illegal_moves.white += 1,
                        Side::Black => state.illegal_moves.black += 1,
                    }
                }
                match effect {
                    IllegalMoveEffect::Nothing => {}
                    IllegalMoveEffect::Touched(pieces) => {
                        let position = state.board.position().clone();
                        for square in &pieces {
                            state.obligations.touch(*by, *square, &position);
                        }
                        if !pieces.is_empty() {
                            state
                                .offers
                                .rejected_by_touch(*by, "touched a piece to make an illegal move");
                        }
                    }
                    IllegalMoveEffect::Stands(m) => {
                        state.board.play(seq, m, None);
                        state.obligations.clear();
                        state.offers.rejected_by_touch(*by, "moved");
                    }
                }
            }
            RecordedEvent::ClockPress {
                white_ms, black_ms, ..
            } => state.clocks.pressed(*white_ms, *black_ms),
            RecordedEvent::ClockAdjust { side, delta_ms, .. } => {
                state.clocks.adjust(*side, *delta_ms)
            }
            RecordedEvent::Touch { by, .. } => {
                if let Prepared::Touch(Some(square)) = prepared {
                    let position = state.board.position().clone();
                    state.obligations.touch(*by, square, &position);
                }
                state.offers.rejected_by_touch(
                    *by,
                    "touched a piece with the intention of moving or capturing it",
                );
            }
            RecordedEvent::DrawOffer { by } => {
                let mark = offer_mark(settings, &state.board, seq, *by, None);
                state.offers.offered(mark);
            }
            RecordedEvent::DrawAccept { by } => {
                if let Some((side, add_ms)) = state.offers.accepted(*by) {
                    // 9.1.2.3 (REP-17): the extra time for the incorrect claim is void.
                    state.clocks.take_back(side, add_ms);
                }
            }
            RecordedEvent::DrawDecline { by } => state.offers.declined(*by),
            RecordedEvent::Claim {
                by,
                kind,
                intended_move,
            } => {
                let ply = state.board.ply();
                state
                    .claims
                    .claimed(seq, *by, *kind, intended_move.as_deref(), ply);
                if *kind != ClaimKind::QuickplayFinish {
                    // 9.1.2.3 (and III.4 for a request): the claim is a draw offer.
                    let mark = offer_mark(settings, &state.board, seq, *by, Some(*kind));
                    state.offers.offered(mark);
                }
                if matches!(
                    kind,
                    ClaimKind::QuickplayFinish | ClaimKind::IncrementRequest
                ) {
                    state.quickplay.admitted(seq, *by, *kind);
                }
            }
            RecordedEvent::Flag { side } => {
                if state.quickplay.claim_awaits_arbiter() {
                    state.quickplay.flag_fell(*side);
                }
            }
            RecordedEvent::ArbiterDecision {
                subject_seq,
                decision,
                attempted_move,
                increment_ms,
                ..
            } => {
                match decision {
                    ArbiterRuling::IllegalMoveStands => {
                        if let Prepared::Stood(position) = prepared {
                            state.board.stand(seq, attempted_move.as_deref(), *position);
                            state.obligations.clear();
                        }
                    }
                    ArbiterRuling::IncrementGranted => {
                        state
                            .clocks
                            .set_increment(increment_ms.unwrap_or(GRANTED_INCREMENT_MS));
                        if let Some(request) = subject_seq
                            .and_then(|s| state.quickplay.open_claim(s))
                            .cloned()
                        {
                            state.offers.lapse(
                                request.by,
                                "the arbiter agreed to the request for an increment (III.4), so the offer it constituted was refused".into(),
                            );
                        }
                    }
                    ArbiterRuling::ClaimPostponed => {
                        if let Some(subject) = subject_seq {
                            state.quickplay.postponed(*subject);
                        }
                    }
                    _ => {}
                }
                if matches!(
                    decision,
                    ArbiterRuling::GameEnded
                        | ArbiterRuling::ClaimRejected
                        | ArbiterRuling::IncrementGranted
                ) && let Some(subject) = subject_seq
                {
                    state.quickplay.decided(*subject);
                }
            }
            RecordedEvent::AppealLodged { against_seq, .. } => state.appeals.lodged(*against_seq),
            RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {}
            | RecordedEvent::Resign { .. }
            | RecordedEvent::AppealDecided { .. }
            | RecordedEvent::Correction { .. } => {}
        }
    }

    /// Applies a decision the service appended.
    fn fold_service(&mut self, seq: u64, event: &ServiceEvent) {
        let state = &mut self.state;
        match event {
            ServiceEvent::GameCreated(_) => {}
            ServiceEvent::ClaimRuled(ruling) => {
                state.quickplay.decided(ruling.claim_seq);
                let Some((by, _)) = state.claims.kind_of(ruling.claim_seq) else {
                    return;
                };
                let position = state.board.position().clone();
                if let Some(san) = &ruling.must_play
                    && let Ok(m) = parse_move(&position, san, self.castling_mode)
                {
                    state.obligations.bind_written_move(by, m, san.clone());
                }
                if let Some(squares) = &ruling.must_move_one_of {
                    let squares: Vec<Square> =
                        squares.iter().filter_map(|s| s.parse().ok()).collect();
                    if !squares.is_empty() {
                        state.obligations.bind_written_pieces(by, squares);
                    }
                }
            }
            ServiceEvent::PenaltyApplied {
                side,
                add_ms,
                cause_seq,
                ..
            } => {
                state.clocks.add(*side, *add_ms);
                if state.claims.kind_of(*cause_seq).is_some_and(|(_, kind)| {
                    matches!(kind, ClaimKind::Repetition | ClaimKind::FiftyMoves)
                }) {
                    state.offers.claim_penalised(*cause_seq, *side, *add_ms);
                }
            }
            ServiceEvent::GameEnded {
                result,
                termination,
                article,
                reason,
                ..
            } => {
                state.offers.game_concluded();
                state.quickplay.game_concluded();
                state.end = Some(GameEnd {
                    result: *result,
                    termination: *termination,
                    article: article.clone(),
                    reason: reason.clone(),
                    seq,
                });
            }
        }
    }

    /// The state as an arbiter sees it.
    pub fn view(&self) -> GameView {
        let state = &self.state;
        let board = &state.board;
        let position = board.position();
        let mut scoresheet = board.moves().to_vec();
        for offer in state.offers.marks() {
            if offer.after_ply >= 1
                && let Some(entry) = scoresheet.get_mut(offer.after_ply - 1)
                && !entry.ends_with("(=)")
            {
                entry.push_str(" (=)");
            }
        }
        let pending_offers = state.offers.pending();
        let obligations = if state.end.is_some() {
            Default::default()
        } else {
            state.obligations.view(position)
        };
        GameView {
            fen: fen_of(position),
            side_to_move: position.turn().into(),
            ply: board.ply(),
            moves: board.moves().to_vec(),
            scoresheet,
            offers: state.offers.marks().to_vec(),
            clocks: state.clocks.times(),
            halfmove_clock: position.halfmoves(),
            pending_offer: pending_offers.last().cloned(),
            pending_offers,
            obligations,
            illegal_moves: state.illegal_moves,
            status: if state.end.is_some() {
                GameStatus::Ended
            } else {
                GameStatus::InProgress
            },
            result: state.end.as_ref().map(|e| e.result),
            termination: state.end.as_ref().map(|e| e.termination),
            article: state.end.as_ref().map(|e| e.article.clone()),
            reason: state.end.as_ref().map(|e| e.reason.clone()),
            ended_at_seq: state.end.as_ref().map(|e| e.seq),
            repetition_count: board.history().count_at_ply(board.ply()),
            laws_edition: self.settings.laws_edition,
            increment_ms: state.clocks.increment_ms(),
            open_claims: state.quickplay.open().to_vec(),
            flag_fell_awaiting_arbiter: state.quickplay.fallen_flag(),
            stood_illegal_moves: board.stood().to_vec(),
        }
    }

    /// The distinct positions of the game, in order of first occurrence, with the plies at
    /// which each stood.
    pub fn positions(&self) -> Vec<PositionOccurrences> {
        let mut found: Vec<PositionOccurrences> = Vec::new();
        let mut first_ply: Vec<usize> = Vec::new();
        let mut by_key: HashMap<shakmaty::zobrist::Zobrist64, Vec<usize>> = HashMap::new();
        let positions = self.state.board.history().positions();
        for (ply, position) in positions.iter().enumerate() {
            let candidates = by_key.entry(position_key(position)).or_default();
            let existing = candidates
                .iter()
                .copied()
                .find(|&i| positions[first_ply[i]] == *position);
            match existing {
                Some(i) => found[i].plies.push(ply),
                None => {
                    candidates.push(found.len());
                    first_ply.push(ply);
                    found.push(PositionOccurrences {
                        fen: fen_of(position),
                        plies: vec![ply],
                    });
                }
            }
        }
        found
    }
}

/// The fields of an `arbiter_decision`.
struct ArbiterInput<'a> {
    subject_seq: Option<u64>,
    decision: ArbiterRuling,
    reason: &'a str,
    result: Option<GameResult>,
    penalty: Option<&'a TimeBonus>,
    attempted_move: Option<&'a str>,
    fen: Option<&'a str>,
    increment_ms: Option<u64>,
}

/// Events at the board, refused while a flag fall awaits the arbiter's decision (III.5.2).
fn is_board_event(event: &RecordedEvent) -> bool {
    matches!(
        event,
        RecordedEvent::Move { .. }
            | RecordedEvent::IllegalMove { .. }
            | RecordedEvent::Touch { .. }
            | RecordedEvent::DrawOffer { .. }
            | RecordedEvent::DrawAccept { .. }
            | RecordedEvent::DrawDecline { .. }
            | RecordedEvent::Claim { .. }
            | RecordedEvent::Flag { .. }
            | RecordedEvent::Resign { .. }
    )
}

/// A touch must name a square with a piece, by the player having the move (4.3); the square.
fn judge_touch(position: &Chess, by: Side, square: &str) -> Result<Square, Refusal> {
    let parsed: Square = square.trim().parse().map_err(|_| {
        Refusal::new(
            "bad_square",
            format!("`{square}` is not a square; write it like e2 or b8."),
        )
    })?;
    if position.board().piece_at(parsed).is_none() {
        return Err(Refusal::new(
            "empty_square",
            format!(
                "There is no piece on {parsed} in the current position ({}).",
                fen_of(position)
            ),
        ));
    }
    let turn = Side::from(position.turn());
    if by != turn {
        return Err(Refusal::new(
            "not_your_turn",
            format!(
                "It is {}'s move; touching a piece binds only the player having the move (4.3).",
                turn.name()
            ),
        ));
    }
    Ok(parsed)
}

/// The `(=)` mark of an offer by `by` at `seq` (9.1.2.2), or of a claim standing as one.
fn offer_mark(
    settings: &GameSettings,
    board: &Board,
    seq: u64,
    by: Side,
    from_claim: Option<ClaimKind>,
) -> DrawOfferMark {
    DrawOfferMark {
        seq,
        by,
        after_ply: board.ply(),
        // 9.1.2.1: an offer is made after moving; the player having the move offers early.
        irregular: from_claim.is_none() && board.side_to_move() == by,
        from_claim,
        forbidden: agreement_forbidden(&settings.regulations, board.completed_moves()),
    }
}
