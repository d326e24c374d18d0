//! The game aggregate: [`Game::record`] judges a recorded event and applies it with the
//! decisions it causes, in one step; [`Game::apply`] folds stored events into state;
//! [`Game::decide`] only judges.
//!
//! This module owns nothing of the Laws itself, and sits on top of `src/game`. Each part of
//! the game state folds the events it cares about and judges the requests it decides
//! (`super::parts` says how); the state (`super::state`) folds a stored event into every part
//! in turn and sends a recorded event to the part that decides it; here the game keeps its
//! log and the state folded from it:
//!
//! | Laws | module |
//! |---|---|
//! | Article 3, moves | `super::moves` |
//! | Article 4, touch-move, and the moves a player is bound to (9.5.3) | `super::touch_move` |
//! | Article 5 and 6.9, ends of the game | `super::endings` |
//! | Article 6, the clocks | `super::clocks` |
//! | Article 7.5 and A.5.2, illegal moves | `super::illegal_moves` |
//! | Article 9.1, draw offers | `super::offers` |
//! | Articles 9.2-9.5, claims | `super::claims` |
//! | Guidelines III, quickplay finish | `super::quickplay` |
//! | Articles 12.2 and 12.9, the arbiter's decisions | `super::arbiter` |
//! | Appeals (11.10) and corrections | `super::appeals` |
//!
//! `apply` returns an error only for a corrupt log (a stored move that is not legal, a
//! correction of an event that is not the latest standing one, a decision on a claim that
//! was never made); the state is then unchanged. `decide` is a pure function of the state
//! and the event: the same prefix always gives the same decisions (docs/DESIGN.md,
//! Principle 3).

use std::collections::HashMap;

use shakmaty::{CastlingMode, Chess, Position};

use crate::rules::move_parsing::fen_of;
use crate::rules::position_identity::position_key;
use crate::rules::side::Side;

use super::event::{
    ClockReading, Event, GameResult, GameSettings, RecordedEvent, ServiceEvent, Termination,
};
use super::outcome::{Outcome, outcome_of};
use super::parts::{CorruptLog, Judged, Judgement, LoggedEvent, latest_standing_index};
use super::prepared::Prepared;
use super::refusal::{Refusal, RefusalCode};
use super::settings::{SettingsError, validate};
use super::state::{GameInputs, State};
use super::view::{ClockTimes, GameStatus, GameView, PositionOccurrences};

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
        self.state.end.get().is_some()
    }

    /// The result, once the game has ended.
    pub fn result(&self) -> Option<GameResult> {
        self.state.end.get().map(|end| end.result)
    }

    /// How the game ended, once it has.
    pub fn termination(&self) -> Option<Termination> {
        self.state.end.get().map(|end| end.termination)
    }

    /// The standing events of the log in order, with their `seq` (events retracted by a
    /// correction, and the decisions they caused, left out; so are the events an upheld
    /// appeal annulled).
    pub fn standing_events(&self) -> impl Iterator<Item = (u64, &Event)> {
        self.log
            .iter()
            .filter(|logged| logged.counts())
            .map(|logged| (logged.seq, &logged.event))
    }

    /// How the game is reported to those outside the service once it has ended (forfeit,
    /// reported result, less than one move, ...: [`super::outcome`]); `None` while it goes
    /// on.
    pub fn outcome(&self) -> Option<Outcome> {
        let events: Vec<(u64, &Event)> = self.standing_events().collect();
        Some(outcome_of(self.result()?, self.ply(), &events))
    }

    /// The events no correction retracted, in order, with their `seq`: the standing events
    /// and those an upheld appeal annulled (which happened, and were reversed).
    pub fn unretracted_events(&self) -> impl Iterator<Item = (u64, &Event)> {
        self.log
            .iter()
            .filter(|logged| !logged.retracted)
            .map(|logged| (logged.seq, &logged.event))
    }

    /// The events an upheld appeal annulled (`game_resumed`), by `seq`.
    pub fn annulled_seqs(&self) -> Vec<u64> {
        self.log
            .iter()
            .filter(|logged| logged.annulled && !logged.retracted)
            .map(|logged| logged.seq)
            .collect()
    }

    /// The standing events in order, each with the clock reading recorded with it (a move
    /// recorded with the times read off the clock, for example).
    pub fn standing_events_with_readings(
        &self,
    ) -> impl Iterator<Item = (u64, &Event, Option<&ClockReading>)> {
        self.log
            .iter()
            .filter(|logged| logged.counts())
            .map(|logged| (logged.seq, &logged.event, logged.clock.as_ref()))
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

    /// Tells the game which events one append brings before they are recorded one by one,
    /// so that a run of moves at its start costs one dead-position search (5.2.2) instead of
    /// one per move: the search runs on the position the run ends in, and a player able to
    /// checkmate there proves every position of the run live. Rulings are the same as
    /// recording the events without it; an event that is refused, or a run cut short, only
    /// leaves the proof unused.
    pub fn look_ahead<'a>(&mut self, upcoming: impl IntoIterator<Item = &'a Event>) {
        if self.state.end.get().is_none() {
            self.state.board.look_ahead(upcoming);
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
        let Judged {
            decisions,
            prepared,
        } = self.judge(seq, event, clock)?;
        let recorded = Event::Recorded(event.clone());
        if let RecordedEvent::Correction { .. } = event {
            // A correction folds the standing events again; it causes no decision.
            self.apply_with_clock(seq, &recorded, clock)
                .map_err(|corrupt| internal_inconsistency("correction", &corrupt))?;
            return Ok(decisions);
        }
        let logged = self.log.len();
        self.fold_and_log(seq, recorded, clock, prepared)
            .map_err(|corrupt| internal_inconsistency(event.type_name(), &corrupt))?;
        for (offset, decision) in decisions.iter().enumerate() {
            let decision_seq = seq + 1 + offset as u64;
            let decision = Event::Service(decision.clone());
            let folded = self
                .prepare(decision_seq, &decision)
                .and_then(|prepared| self.fold_and_log(decision_seq, decision, None, prepared));
            if let Err(corrupt) = folded {
                // Undo the event: the state is folded again from the log before it.
                self.log.truncate(logged);
                self.refold()
                    .map_err(|corrupt| internal_inconsistency(event.type_name(), &corrupt))?;
                return Err(internal_inconsistency(event.type_name(), &corrupt));
            }
        }
        Ok(decisions)
    }

    /// The decision events that `event`, stored at `seq` on the current state, would cause
    /// (to be stored at `seq + 1`, `seq + 2`, ...), or why it must not be stored. Nothing
    /// changes.
    pub fn decide(&self, seq: u64, event: &RecordedEvent) -> Result<Vec<ServiceEvent>, Refusal> {
        self.judge(seq, event, None).map(|judged| judged.decisions)
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
                self.correct(seq, *retracts_seq)?;
            }
            _ => {
                let prepared = self.prepare(seq, event)?;
                return self.fold_and_log(seq, event.clone(), clock, prepared);
            }
        }
        self.log.push(LoggedEvent {
            seq,
            event: event.clone(),
            clock: clock.cloned(),
            retracted: false,
            annulled: false,
        });
        Ok(())
    }

    /// The correction at `seq` retracts the latest standing event, `retracts_seq`, and the
    /// decisions it caused; the standing events are folded again.
    fn correct(&mut self, seq: u64, retracts_seq: u64) -> Result<(), CorruptLog> {
        let index = latest_standing_index(&self.log).filter(|&i| self.log[i].seq == retracts_seq);
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
        Ok(())
    }

    /// Folds `event` at `seq`, with what was `prepared` for it, into every part of the
    /// state, and appends it to the log; on [`CorruptLog`] nothing changes.
    fn fold_and_log(
        &mut self,
        seq: u64,
        event: Event,
        clock: Option<&ClockReading>,
        prepared: Prepared,
    ) -> Result<(), CorruptLog> {
        if let Event::Service(ServiceEvent::GameResumed { .. }) = event {
            // An upheld appeal annuls events: the standing events are folded again without
            // them, and the clocks then show the committee's times.
            let mut resumed = self.clone();
            resumed.log.push(LoggedEvent {
                seq,
                event,
                clock: clock.cloned(),
                retracted: false,
                annulled: false,
            });
            resumed.refold()?;
            *self = resumed;
            return Ok(());
        }
        let ctx = self
            .state
            .fold_context(&self.settings, seq, &event, clock, prepared)?;
        self.state.fold(&ctx, &event)?;
        self.log.push(LoggedEvent {
            seq,
            event,
            clock: clock.cloned(),
            retracted: false,
            annulled: false,
        });
        Ok(())
    }

    /// Folds the standing events again from the start (after a correction, or an upheld
    /// appeal that annuls events). What a standing `game_resumed` annuls is worked out first,
    /// so that retracting the appeal's decision with a correction restores what it annulled.
    fn refold(&mut self) -> Result<(), CorruptLog> {
        let annulled: Vec<u64> = self
            .log
            .iter()
            .filter(|l| !l.retracted)
            .filter_map(|l| match &l.event {
                Event::Service(ServiceEvent::GameResumed { annulled, .. }) => {
                    Some(annulled.iter().copied())
                }
                _ => None,
            })
            .flatten()
            .collect();
        for logged in self.log.iter_mut() {
            logged.annulled = annulled.contains(&logged.seq);
        }
        self.state = State::new(self.start.clone(), self.castling_mode, &self.settings);
        for logged in self.log.iter().filter(|l| l.counts()) {
            if matches!(
                logged.event,
                Event::Service(ServiceEvent::GameCreated(_))
                    | Event::Recorded(RecordedEvent::Correction { .. })
            ) {
                continue;
            }
            let prepared = self
                .state
                .prepare(&self.settings, logged.seq, &logged.event)?;
            // The committee's times are read off the clock when play resumes.
            let resumed = match &logged.event {
                Event::Service(ServiceEvent::GameResumed {
                    white_ms, black_ms, ..
                }) => Some(ClockReading {
                    white_ms: Some(*white_ms),
                    black_ms: Some(*black_ms),
                }),
                _ => None,
            };
            let ctx = self.state.fold_context(
                &self.settings,
                logged.seq,
                &logged.event,
                resumed.as_ref().or(logged.clock.as_ref()),
                prepared,
            )?;
            self.state.fold(&ctx, &logged.event)?;
        }
        Ok(())
    }

    /// Judges `event` at `seq`: its decisions and what applying it needs (the state sends it
    /// to the part of the Laws that decides it).
    fn judge(&self, seq: u64, event: &RecordedEvent, clock: Option<&ClockReading>) -> Judgement {
        let ctx = self.state.judge_context(
            GameInputs {
                settings: &self.settings,
                start_turn: Side::from(self.start.turn()),
                log: &self.log,
            },
            seq,
            clock,
        );
        self.state.judge(&ctx, event)
    }

    /// What folding a stored `event` at `seq` needs, or why the log is corrupt.
    fn prepare(&self, seq: u64, event: &Event) -> Result<Prepared, CorruptLog> {
        self.state.prepare(&self.settings, seq, event)
    }

    /// The state as an arbiter sees it.
    pub fn view(&self) -> GameView {
        let state = &self.state;
        let board = &state.board;
        let position = board.position();
        let mut scoresheet = board.moves().to_vec();
        for offer in state.offers.marks() {
            // The `(=)` follows the move the offer was made with (9.1.2.1: after making the
            // move, before pressing the clock). An offer made before moving (irregular, still
            // valid) goes with the move the offerer then makes, not with the opponent's last
            // move; until that move is made it marks nothing.
            let marked_ply = offer.after_ply + usize::from(offer.irregular);
            if marked_ply >= 1
                && let Some(entry) = scoresheet.get_mut(marked_ply - 1)
                && !entry.ends_with("(=)")
            {
                entry.push_str(" (=)");
            }
        }
        let pending_offers = state.offers.pending();
        let end = state.end.get();
        let obligations = if end.is_some() {
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
            illegal_moves: state.illegal_moves.counts(),
            status: if end.is_some() {
                GameStatus::Ended
            } else {
                GameStatus::InProgress
            },
            result: end.map(|e| e.result),
            termination: end.map(|e| e.termination),
            article: end.map(|e| e.article.clone()),
            reason: end.map(|e| e.reason.clone()),
            ended_at_seq: end.map(|e| e.seq),
            outcome: self.outcome(),
            repetition_count: board.history().count_at_ply(board.ply()),
            laws_edition: self.settings.laws_edition,
            increment_ms: state.clocks.increment_ms(),
            open_claims: state.quickplay.awaiting().open().to_vec(),
            flag_fell_awaiting_arbiter: state.quickplay.awaiting().fallen_flag(),
            stood_illegal_moves: board.stood().to_vec(),
            reconstructed_positions: board.reconstructed().to_vec(),
            time_control: state.clocks.periods_view(self.settings.laws_edition),
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

/// The refusal of a recorded event that was judged acceptable but could not be folded: the
/// engine disagrees with itself, and nothing was stored.
fn internal_inconsistency(what: &str, corrupt: &CorruptLog) -> Refusal {
    Refusal::new(
        RefusalCode::InternalInconsistency,
        format!(
            "The {what} was judged acceptable but could not be applied: {corrupt}. Nothing was stored; please report this."
        ),
    )
}
