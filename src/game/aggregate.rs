//! The game aggregate: [`Game::apply`] folds stored events into state, [`Game::decide`]
//! returns the decision events a new recorded event causes under the Laws.
//!
//! `apply` returns an error only for a corrupt log (a stored move that is not legal, a
//! correction of an event that is not the latest standing one); the state is then unchanged.
//! `decide` is a pure function of the state and the event: the same prefix always gives the
//! same decisions (Principle 3).

use std::collections::HashMap;

use serde_json::json;
use shakmaty::{CastlingMode, Chess, Color, Position, Role, Square};

use super::ENGINE_VERSION;
use super::event::{
    ArbiterRuling, ClaimKind, ClaimOutcome, ClaimRuling, DrawOfferPolicy, Event, GameResult,
    GameSettings, RecordedEvent, RuledBy, ServiceEvent, Side, Termination, TimeBonus,
    TimeControlKind,
};
use super::refusal::Refusal;
use super::settings::{SettingsError, validate};
use super::view::{
    ClockTimes, DrawOfferMark, GameStatus, GameView, IllegalMoveCounts, MustPlay, Obligations,
    PositionOccurrences, TouchedPiece,
};
use crate::rules::claims::{ClaimContext, judge_claim};
use crate::rules::laws::article_in;
use crate::rules::mating_potential::{MatingPotential, dead_position, mating_potential};
use crate::rules::move_counting::seventy_five_moves_reached;
use crate::rules::move_parsing::{MoveParseError, fen_of, parse_move, san_of};
use crate::rules::position_identity::{PositionHistory, position_key};

/// A stored event that cannot be folded: the log is corrupt.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event {seq} cannot be applied: {problem}")]
pub struct CorruptLog {
    /// The `seq` of the event.
    pub seq: u64,
    /// What is wrong.
    pub problem: String,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq)]
struct GameEnd {
    result: GameResult,
    termination: Termination,
    article: String,
    reason: String,
    seq: u64,
}

/// An offer still open.
#[derive(Clone, Debug, PartialEq)]
struct LapsedOffer {
    seq: u64,
    why: String,
}

/// Everything derived from the standing events.
#[derive(Clone, Debug)]
struct BoardState {
    history: PositionHistory,
    moves: Vec<String>,
    offers: Vec<DrawOfferMark>,
    clocks: ClockTimes,
    pending_offer: Option<DrawOfferMark>,
    lapsed_offer: Option<LapsedOffer>,
    touched: Option<TouchedPiece>,
    must_play: Option<MustPlay>,
    illegal_moves: IllegalMoveCounts,
    end: Option<GameEnd>,
    claims: HashMap<u64, (Side, ClaimKind)>,
    appeals: Vec<u64>,
    /// Extra time given to the opponent for each incorrect claim, by the claim's `seq`: void
    /// when the claim is accepted as a draw offer (9.1.2.3; case REP-17).
    claim_penalties: HashMap<u64, (Side, u64)>,
}

#[derive(Clone, Debug)]
struct LoggedEvent {
    seq: u64,
    event: Event,
    retracted: bool,
}

/// A game: its settings, its log and the state folded from it.
#[derive(Clone, Debug)]
pub struct Game {
    settings: GameSettings,
    start: Chess,
    castling_mode: CastlingMode,
    log: Vec<LoggedEvent>,
    state: BoardState,
}

impl Game {
    /// A new game with `settings`, before any event (the `game_created` event at seq 1 may
    /// then be applied; it must carry the same settings).
    pub fn new(settings: &GameSettings) -> Result<Game, SettingsError> {
        let (start, castling_mode) = validate(settings)?;
        let state = BoardState::new(start.clone(), settings);
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
        self.state.history.current()
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.state.end.is_some()
    }

    /// The result, once the game has ended.
    pub fn result(&self) -> Option<GameResult> {
        self.state.end.as_ref().map(|end| end.result)
    }

    /// How many times the position after `ply` half-moves had occurred up to then.
    pub fn repetition_count_at(&self, ply: usize) -> usize {
        self.state.history.count_at_ply(ply)
    }

    /// The position after `ply` half-moves of the standing moves (ply 0 = the start).
    pub fn position_at_ply(&self, ply: usize) -> Option<&Chess> {
        self.state.history.at(ply)
    }

    /// The `seq` of each standing move, in order: entry `n - 1` reached ply `n`.
    pub fn move_seqs(&self) -> Vec<u64> {
        self.log
            .iter()
            .filter(|l| {
                !l.retracted && matches!(l.event, Event::Recorded(RecordedEvent::Move { .. }))
            })
            .map(|l| l.seq)
            .collect()
    }

    /// Fold one stored event into the state. Service events (`game_created`, `claim_ruled`,
    /// `penalty_applied`, `game_ended`) are folded too. Returns [`CorruptLog`] (and leaves
    /// the state unchanged) if the event cannot have been accepted in this state.
    pub fn apply(&mut self, seq: u64, event: &Event) -> Result<(), CorruptLog> {
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
                self.log[index].retracted = true;
                for later in self.log[index + 1..].iter_mut() {
                    if matches!(later.event, Event::Service(_)) {
                        later.retracted = true;
                    }
                }
                self.rebuild()?;
            }
            _ => {
                let context = self.fold_context();
                self.state.fold(seq, event, &context)?;
            }
        }
        self.log.push(LoggedEvent {
            seq,
            event: event.clone(),
            retracted: false,
        });
        Ok(())
    }

    fn fold_context(&self) -> FoldContext {
        FoldContext {
            castling_mode: self.castling_mode,
        }
    }

    fn rebuild(&mut self) -> Result<(), CorruptLog> {
        let mut state = BoardState::new(self.start.clone(), &self.settings);
        let context = self.fold_context();
        for logged in self.log.iter().filter(|l| !l.retracted) {
            match &logged.event {
                Event::Service(ServiceEvent::GameCreated(_))
                | Event::Recorded(RecordedEvent::Correction { .. }) => {}
                event => state.fold(logged.seq, event, &context)?,
            }
        }
        self.state = state;
        Ok(())
    }

    /// The index in the log of the latest standing recorded event (corrections excluded).
    fn latest_standing_index(&self) -> Option<usize> {
        self.log.iter().rposition(|l| {
            !l.retracted
                && matches!(&l.event, Event::Recorded(e) if !matches!(e, RecordedEvent::Correction { .. }))
        })
    }

    fn ruled_by(&self) -> RuledBy {
        RuledBy {
            engine_version: ENGINE_VERSION.to_string(),
            laws_edition: self.settings.laws_edition,
        }
    }

    fn art(&self, article_2023: &str) -> String {
        article_in(self.settings.laws_edition, article_2023)
    }

    fn fast_play(&self) -> bool {
        self.settings.time_control.kind != TimeControlKind::Standard
    }

    /// Extra time for the opponent: 2 minutes in standard play, 1 minute in rapid and blitz
    /// (Appendix A.3), for an incorrect claim (9.5.3) or an illegal move (7.5.5).
    fn penalty_ms(&self) -> u64 {
        if self.fast_play() { 60_000 } else { 120_000 }
    }

    fn incorrect_claim_penalty_ms(&self) -> u64 {
        self.settings
            .regulations
            .incorrect_claim_penalty_ms
            .unwrap_or_else(|| self.penalty_ms())
    }

    fn game_ended(
        &self,
        seq: u64,
        result: GameResult,
        termination: Termination,
        article: String,
        reason: String,
    ) -> ServiceEvent {
        ServiceEvent::GameEnded {
            result,
            termination,
            article,
            reason,
            cause_seq: seq,
            ruled_by: self.ruled_by(),
            evidence: None,
        }
    }

    /// A game end after a move, with the evidence it rests on (Principle 4).
    #[allow(clippy::too_many_arguments)]
    fn game_ended_after_move(
        &self,
        seq: u64,
        result: GameResult,
        termination: Termination,
        article: String,
        reason: String,
        san: &str,
        after: &Chess,
        ply: usize,
        plies: Option<&[usize]>,
    ) -> ServiceEvent {
        let mut evidence = json!({
            "move": san,
            "fen": fen_of(after),
            "ply": ply,
            "halfmove_clock": after.halfmoves(),
        });
        if let Some(plies) = plies {
            evidence["occurrences"] = json!(plies);
        }
        ServiceEvent::GameEnded {
            result,
            termination,
            article,
            reason,
            cause_seq: seq,
            ruled_by: self.ruled_by(),
            evidence: Some(evidence),
        }
    }

    /// The decision events that `event`, stored at `seq` on the current state, causes (to be
    /// stored at `seq + 1`, `seq + 2`, ...), or why it must not be stored.
    pub fn decide(&self, seq: u64, event: &RecordedEvent) -> Result<Vec<ServiceEvent>, Refusal> {
        if let Some(end) = &self.state.end
            && is_refused_after_end(event)
        {
            return Err(self.refuse_after_end(end, event));
        }
        match event {
            RecordedEvent::Move { by, san } => self.decide_move(seq, *by, san),
            RecordedEvent::IllegalMove { by, completed, .. } => {
                self.decide_illegal_move(seq, *by, *completed)
            }
            RecordedEvent::ClockPress { .. }
            | RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {}
            | RecordedEvent::ClockAdjust { .. } => Ok(Vec::new()),
            RecordedEvent::Touch { by, square } => self.decide_touch(*by, square),
            RecordedEvent::DrawOffer { .. } => Ok(Vec::new()),
            RecordedEvent::DrawAccept { by } => self.decide_draw_accept(seq, *by),
            RecordedEvent::DrawDecline { by } => {
                self.open_offer_for(*by, "decline")?;
                Ok(Vec::new())
            }
            RecordedEvent::Claim {
                by,
                kind,
                intended_move,
            } => Ok(self.decide_claim(seq, *by, *kind, intended_move.as_deref())),
            RecordedEvent::Flag { side } => Ok(vec![self.decide_flag(seq, *side)]),
            RecordedEvent::Resign { by } => Ok(vec![self.decide_resign(seq, *by)]),
            RecordedEvent::ArbiterDecision {
                subject_seq,
                decision,
                reason,
                result,
                penalty,
            } => self.decide_arbiter(seq, *subject_seq, *decision, reason, *result, penalty),
            RecordedEvent::AppealLodged { against_seq, .. } => {
                if *against_seq >= seq || !self.log.iter().any(|l| l.seq == *against_seq) {
                    return Err(Refusal::new(
                        "unknown_seq",
                        format!(
                            "There is no event {against_seq} in this game to appeal against; give the seq of the decision appealed against."
                        ),
                    ));
                }
                Ok(Vec::new())
            }
            RecordedEvent::AppealDecided {
                against_seq,
                upheld,
                result,
                reason,
            } => {
                if !self.state.appeals.contains(against_seq) {
                    return Err(Refusal::new(
                        "no_appeal_lodged",
                        format!(
                            "No appeal against event {against_seq} has been lodged; record the appeal_lodged first."
                        ),
                    ));
                }
                match (upheld, result) {
                    (true, Some(result)) => Ok(vec![self.game_ended(
                        seq,
                        *result,
                        Termination::Appeal,
                        self.art("11.10"),
                        format!("The appeal against event {against_seq} was upheld and the result is {}: {reason}", result.pgn()),
                    )]),
                    _ => Ok(Vec::new()),
                }
            }
            RecordedEvent::Correction { retracts_seq, .. } => {
                let latest = self.latest_standing_index().map(|i| self.log[i].seq);
                if latest != Some(*retracts_seq) {
                    let what = match latest {
                        Some(s) => format!("the latest standing event is {s}"),
                        None => "no recorded event is standing".to_string(),
                    };
                    return Err(Refusal::new(
                        "not_latest_standing",
                        format!(
                            "Only the latest standing recorded event can be retracted, and {what}, not {retracts_seq}; retract the later events first, one by one."
                        ),
                    ));
                }
                Ok(Vec::new())
            }
        }
    }

    fn refuse_after_end(&self, end: &GameEnd, event: &RecordedEvent) -> Refusal {
        let what = match event {
            RecordedEvent::Flag { side } => format!(
                "A flag fall of {} noticed now changes nothing: 6.9 applies only while the game is in progress.",
                side.name()
            ),
            RecordedEvent::Move { .. } => "A move played after the end is void.".to_string(),
            other => format!("A {} after the end changes nothing.", other.type_name()),
        };
        Refusal::new(
            "game_over",
            format!(
                "The game already ended at event {} with {} ({}, article {}: {}). {what} If the end itself was wrong, record an appeal_lodged, or a correction of the latest event if it was a data-entry error.",
                end.seq,
                end.result.pgn(),
                termination_name(end.termination),
                end.article,
                end.reason
            ),
        )
    }

    fn decide_move(&self, seq: u64, by: Side, text: &str) -> Result<Vec<ServiceEvent>, Refusal> {
        let position = self.position();
        let turn = Side::from(position.turn());
        if by != turn {
            return Err(Refusal::new(
                "not_your_turn",
                format!(
                    "It is {}'s move, not {}'s. If {} moved out of turn, record it as an illegal_move.",
                    turn.name(),
                    by.name(),
                    by.name()
                ),
            ));
        }
        let m = parse_move(position, text, self.castling_mode).map_err(|error| match error {
            MoveParseError::Illegal { .. } => Refusal::new(
                "illegal_move",
                format!("{error}. If it was played on the board, record an illegal_move (7.5) instead; the position stays as it is."),
            ),
            MoveParseError::Ambiguous { .. } => Refusal::new("ambiguous_move", error.to_string()),
            MoveParseError::Unreadable { .. } => Refusal::new("unreadable_move", error.to_string()),
        })?;
        if let Some(must) = &self.state.must_play
            && must.by == by
            && san_of(position, m) != must.san
        {
            return Err(Refusal::new(
                "must_play_obligation",
                format!(
                    "{} must play {}, the move written for the incorrect claim (9.5.3). If the arbiter ruled otherwise, record the arbiter_decision first.",
                    by.name(),
                    must.san
                ),
            ));
        }
        if let Some(touched) = &self.state.touched
            && touched.by == by
            && let Ok(square) = touched.square.parse::<Square>()
        {
            let legal = position.legal_moves();
            let obliged: Vec<_> = legal
                .iter()
                .filter(|c| {
                    if touched.opponents_piece {
                        c.to() == square && c.is_capture()
                    } else {
                        c.from() == Some(square)
                    }
                })
                .collect();
            if !obliged.is_empty() && !obliged.contains(&&m) {
                let verb = if touched.opponents_piece {
                    "capture"
                } else {
                    "move"
                };
                return Err(Refusal::new(
                    "touch_move_obligation",
                    format!(
                        "{} touched the piece on {} and must {verb} it (4.3). If the touch was not deliberate (4.2 adjusting), retract the touch with a correction first.",
                        by.name(),
                        touched.square
                    ),
                ));
            }
        }
        let mut after = position.clone();
        after.play_unchecked(m);
        let ply = self.state.history.ply() + 1;
        let san = san_of(position, m);
        if after.is_checkmate() {
            return Ok(vec![self.game_ended_after_move(
                seq,
                GameResult::win_for(by),
                Termination::Checkmate,
                self.art("5.1.1"),
                format!("{san} checkmates: {} wins.", by.name()),
                &san,
                &after,
                ply,
                None,
            )]);
        }
        if after.is_stalemate() {
            return Ok(vec![self.game_ended_after_move(
                seq,
                GameResult::Draw,
                Termination::Stalemate,
                self.art("5.2.1"),
                format!(
                    "After {san} {} has no legal move and is not in check: stalemate.",
                    by.opponent().name()
                ),
                &san,
                &after,
                ply,
                None,
            )]);
        }
        if dead_position(&after) == MatingPotential::CannotMate {
            return Ok(vec![self.game_ended_after_move(
                seq,
                GameResult::Draw,
                Termination::DeadPosition,
                self.art("5.2.2"),
                format!("After {san} neither player can checkmate by any series of legal moves: the position is dead."),
                &san,
                &after,
                ply,
                None,
            )]);
        }
        let earlier = self.state.history.occurrences_of(&after);
        if earlier.len() + 1 >= 5 {
            let mut plies = earlier.clone();
            plies.push(ply);
            return Ok(vec![self.game_ended_after_move(
                seq,
                GameResult::Draw,
                Termination::FivefoldRepetition,
                self.art("9.6.1"),
                format!("After {san} the same position has appeared for the fifth time (plies {plies:?})."),
                &san,
                &after,
                ply,
                Some(&plies),
            )]);
        }
        if seventy_five_moves_reached(&after) {
            return Ok(vec![self.game_ended_after_move(
                seq,
                GameResult::Draw,
                Termination::SeventyFiveMoves,
                self.art("9.6.2"),
                format!("After {san} 75 moves by each player ({} half-moves) have been made without a pawn move or capture, and the last move did not checkmate.", after.halfmoves()),
                &san,
                &after,
                ply,
                None,
            )]);
        }
        Ok(Vec::new())
    }

    fn decide_illegal_move(
        &self,
        seq: u64,
        by: Side,
        completed: bool,
    ) -> Result<Vec<ServiceEvent>, Refusal> {
        if !completed {
            return Ok(Vec::new());
        }
        let count = match by {
            Side::White => self.state.illegal_moves.white,
            Side::Black => self.state.illegal_moves.black,
        } + 1;
        let article = if self.fast_play() {
            self.art("7.5.5, A.3")
        } else {
            self.art("7.5.5")
        };
        if count == 1 {
            let add_ms = self.penalty_ms();
            return Ok(vec![ServiceEvent::PenaltyApplied {
                side: by.opponent(),
                add_ms,
                article,
                reason: format!(
                    "First completed illegal move by {}: {} receives {} extra (the position before the illegal move is reinstated).",
                    by.name(),
                    by.opponent().name(),
                    minutes(add_ms)
                ),
                cause_seq: seq,
                ruled_by: self.ruled_by(),
            }]);
        }
        let (potential, _) = mating_potential(self.position(), by.opponent().into());
        let (result, reason) = match potential {
            MatingPotential::CannotMate => (
                GameResult::Draw,
                format!(
                    "Second completed illegal move by {}; the game is drawn because {} cannot checkmate by any series of legal moves.",
                    by.name(),
                    by.opponent().name()
                ),
            ),
            MatingPotential::CanMate => (
                GameResult::win_for(by.opponent()),
                format!(
                    "Second completed illegal move by {}: the game is lost.",
                    by.name()
                ),
            ),
            MatingPotential::Inconclusive => (
                GameResult::win_for(by.opponent()),
                format!(
                    "Second completed illegal move by {}: the game is lost (the helpmate search for {} was inconclusive; the arbiter should confirm that a mate is possible).",
                    by.name(),
                    by.opponent().name()
                ),
            ),
        };
        Ok(vec![self.game_ended(
            seq,
            result,
            Termination::IllegalMoves,
            article,
            reason,
        )])
    }

    fn decide_touch(&self, by: Side, square: &str) -> Result<Vec<ServiceEvent>, Refusal> {
        let parsed: Square = square.trim().parse().map_err(|_| {
            Refusal::new(
                "bad_square",
                format!("`{square}` is not a square; write it like e2 or b8."),
            )
        })?;
        let position = self.position();
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
        Ok(Vec::new())
    }

    /// The open offer that `by` may accept or decline, or why there is none.
    fn open_offer_for(&self, by: Side, verb: &str) -> Result<&DrawOfferMark, Refusal> {
        match &self.state.pending_offer {
            Some(offer) if offer.by != by => Ok(offer),
            Some(_) => Err(Refusal::new(
                "own_offer",
                format!(
                    "The open draw offer is {}'s own; only the opponent can {verb} it.",
                    by.name()
                ),
            )),
            None => {
                let why = match &self.state.lapsed_offer {
                    Some(lapsed) => format!(
                        " The last offer (event {}) lapsed: {}.",
                        lapsed.seq, lapsed.why
                    ),
                    None => String::new(),
                };
                Err(Refusal::new(
                    "no_pending_offer",
                    format!(
                        "There is no open draw offer for {} to {verb} (9.1.2).{why}",
                        by.name()
                    ),
                ))
            }
        }
    }

    fn decide_draw_accept(&self, seq: u64, by: Side) -> Result<Vec<ServiceEvent>, Refusal> {
        let offer = self.open_offer_for(by, "accept")?;
        let regulations = &self.settings.regulations;
        match regulations.draw_offers {
            DrawOfferPolicy::Forbidden => {
                return Err(Refusal::new(
                    "draw_agreement_forbidden",
                    "The event's regulations forbid draws by agreement (9.1.1); the game continues. Record an arbiter_decision if the arbiter penalises the agreement.",
                ));
            }
            DrawOfferPolicy::ArbiterConsent => {
                return Err(Refusal::new(
                    "arbiter_consent_required",
                    "A draw by agreement needs the arbiter's consent under the event's regulations (9.1.1); record an arbiter_decision with decision game_ended and result 1/2-1/2 if the arbiter consents.",
                ));
            }
            DrawOfferPolicy::Allowed => {}
        }
        let position = self.position();
        if let Some(earliest) = regulations.earliest_agreement_move {
            let move_number = position.fullmoves().get();
            if move_number < earliest {
                return Err(Refusal::new(
                    "too_early_for_agreement",
                    format!(
                        "The regulations allow a draw by agreement from move {earliest} only; this is move {move_number} (9.1.1). The game continues."
                    ),
                ));
            }
        }
        let start_turn = Side::from(self.start.turn());
        let ply = self.state.history.ply();
        let (white_moves, black_moves) = match start_turn {
            Side::White => (ply.div_ceil(2), ply / 2),
            Side::Black => (ply / 2, ply.div_ceil(2)),
        };
        if white_moves == 0 || black_moves == 0 {
            return Err(Refusal::new(
                "both_must_have_moved",
                "A draw by agreement needs both players to have made at least one move (5.2.3); the game continues.",
            ));
        }
        let (article, what) = match offer.from_claim {
            Some(_) if self.state.claim_penalties.contains_key(&offer.seq) => (
                "9.1.2.3, 5.2.3",
                "the claim, which counts as a draw offer (the extra time given because the claim was incorrect is void)",
            ),
            Some(_) => ("9.1.2.3, 5.2.3", "the claim, which counts as a draw offer"),
            None => ("9.1.2.2, 5.2.3", "the draw offer"),
        };
        Ok(vec![self.game_ended(
            seq,
            GameResult::Draw,
            Termination::Agreement,
            self.art(article),
            format!(
                "{} accepted {what} made by {} (event {}): drawn by agreement.",
                by.name(),
                offer.by.name(),
                offer.seq
            ),
        )])
    }

    fn decide_claim(
        &self,
        seq: u64,
        by: Side,
        kind: ClaimKind,
        intended_move: Option<&str>,
    ) -> Vec<ServiceEvent> {
        if kind == ClaimKind::QuickplayFinish {
            return self.decide_quickplay_claim(seq, by);
        }
        let touched = self.state.touched.as_ref().is_some_and(|t| t.by == by);
        let context = ClaimContext {
            history: &self.state.history,
            castling_mode: self.castling_mode,
            edition: self.settings.laws_edition,
            claimant: by,
            claimant_touched_piece: touched,
        };
        let judgement = judge_claim(&context, kind, intended_move);
        match judgement.outcome {
            ClaimOutcome::Upheld => {
                let termination = match kind {
                    ClaimKind::FiftyMoves => Termination::FiftyMovesClaim,
                    _ => Termination::RepetitionClaim,
                };
                let article = judgement.article.clone();
                let reason = judgement.reason.clone();
                vec![
                    ServiceEvent::ClaimRuled(Box::new(ClaimRuling {
                        claim_seq: seq,
                        outcome: ClaimOutcome::Upheld,
                        article: judgement.article,
                        reason: judgement.reason,
                        evidence: judgement.evidence,
                        penalty: None,
                        must_play: None,
                        ruled_by: self.ruled_by(),
                    })),
                    self.game_ended(seq, GameResult::Draw, termination, article, reason),
                ]
            }
            ClaimOutcome::Rejected => {
                let add_ms = self.incorrect_claim_penalty_ms();
                let opponent = by.opponent();
                let penalty_article = if self.fast_play() {
                    self.art("9.5.3, A.3")
                } else {
                    self.art("9.5.3")
                };
                let mut reason = judgement.reason;
                match (&judgement.must_play, intended_move) {
                    (Some(san), _) => reason.push_str(&format!(
                        " {} receives {} extra and {} must play {san}.",
                        opponent.name(),
                        minutes(add_ms),
                        by.name()
                    )),
                    (None, Some(_)) => reason.push_str(&format!(
                        " {} receives {} extra.",
                        opponent.name(),
                        minutes(add_ms)
                    )),
                    (None, None) => reason.push_str(&format!(
                        " {} receives {} extra.",
                        opponent.name(),
                        minutes(add_ms)
                    )),
                }
                vec![
                    ServiceEvent::ClaimRuled(Box::new(ClaimRuling {
                        claim_seq: seq,
                        outcome: ClaimOutcome::Rejected,
                        article: judgement.article,
                        reason: reason.clone(),
                        evidence: judgement.evidence,
                        penalty: Some(TimeBonus {
                            side: opponent,
                            add_ms,
                        }),
                        must_play: judgement.must_play,
                        ruled_by: self.ruled_by(),
                    })),
                    ServiceEvent::PenaltyApplied {
                        side: opponent,
                        add_ms,
                        article: penalty_article,
                        reason: format!(
                            "Incorrect claim by {}: {} receives {} extra.",
                            by.name(),
                            opponent.name(),
                            minutes(add_ms)
                        ),
                        cause_seq: seq,
                        ruled_by: self.ruled_by(),
                    },
                ]
            }
        }
    }

    /// Guidelines III.5: the engine checks only the preconditions; the decision is the
    /// arbiter's (an `arbiter_decision` event). When the preconditions hold nothing is
    /// appended and the claim awaits that decision; when they fail the claim is ruled
    /// rejected (without time penalty: it was not examined on its merits).
    fn decide_quickplay_claim(&self, seq: u64, by: Side) -> Vec<ServiceEvent> {
        let position = self.position();
        let turn = Side::from(position.turn());
        let failure = if !self.settings.regulations.quickplay_finish {
            Some((
                "III.1",
                "Guidelines III are not in force under this event's regulations.",
            ))
        } else if self.settings.time_control.increment_ms > 0 {
            Some((
                "III.1",
                "Guidelines III do not apply to games with an increment.",
            ))
        } else if by != turn {
            Some((
                "III.5",
                "Only the player having the move may claim under III.5, before the flag falls.",
            ))
        } else {
            None
        };
        let Some((article, sentence)) = failure else {
            return Vec::new();
        };
        vec![ServiceEvent::ClaimRuled(Box::new(ClaimRuling {
            claim_seq: seq,
            outcome: ClaimOutcome::Rejected,
            article: self.art(article),
            reason: format!("The quickplay-finish claim is not admissible: {sentence}"),
            evidence: json!({
                "claim": "quickplay_finish",
                "quickplay_finish_in_force": self.settings.regulations.quickplay_finish,
                "increment_ms": self.settings.time_control.increment_ms,
                "side_to_move": turn.name(),
                "claimant": by.name(),
                "fen": fen_of(position),
            }),
            penalty: None,
            must_play: None,
            ruled_by: self.ruled_by(),
        }))]
    }

    fn decide_flag(&self, seq: u64, side: Side) -> ServiceEvent {
        let opponent = side.opponent();
        let (potential, method) = mating_potential(self.position(), opponent.into());
        let (result, reason) = match potential {
            MatingPotential::CannotMate => (
                GameResult::Draw,
                format!(
                    "{}'s flag fell, but {} cannot checkmate by any series of legal moves ({}): drawn.",
                    side.name(),
                    opponent.name(),
                    method.name().replace('_', " ")
                ),
            ),
            MatingPotential::CanMate => (
                GameResult::win_for(opponent),
                format!(
                    "{}'s flag fell and {} can still checkmate by a series of legal moves: {} wins.",
                    side.name(),
                    opponent.name(),
                    opponent.name()
                ),
            ),
            MatingPotential::Inconclusive => (
                GameResult::win_for(opponent),
                format!(
                    "{}'s flag fell: {} wins (the bounded helpmate search for {} was inconclusive; the arbiter should confirm that a mate is possible).",
                    side.name(),
                    opponent.name(),
                    opponent.name()
                ),
            ),
        };
        self.game_ended(seq, result, Termination::Flag, self.art("6.9"), reason)
    }

    /// Resignation ends the game (5.1.2); following the project's issue, it is a draw when the
    /// opponent cannot checkmate by any series of legal moves.
    fn decide_resign(&self, seq: u64, by: Side) -> ServiceEvent {
        let opponent = by.opponent();
        let (potential, _) = mating_potential(self.position(), opponent.into());
        let (result, reason) = match potential {
            MatingPotential::CannotMate => (
                GameResult::Draw,
                format!(
                    "{} resigned, but {} cannot checkmate by any series of legal moves: drawn.",
                    by.name(),
                    opponent.name()
                ),
            ),
            _ => (
                GameResult::win_for(opponent),
                format!("{} resigned: {} wins.", by.name(), opponent.name()),
            ),
        };
        self.game_ended(
            seq,
            result,
            Termination::Resignation,
            self.art("5.1.2"),
            reason,
        )
    }

    fn decide_arbiter(
        &self,
        seq: u64,
        subject_seq: Option<u64>,
        decision: ArbiterRuling,
        reason: &str,
        result: Option<GameResult>,
        penalty: &Option<TimeBonus>,
    ) -> Result<Vec<ServiceEvent>, Refusal> {
        let quickplay = subject_seq
            .and_then(|s| self.state.claims.get(&s))
            .is_some_and(|(_, kind)| *kind == ClaimKind::QuickplayFinish);
        let article = if quickplay {
            self.art("III.5")
        } else {
            self.art("12.2")
        };
        if let Some(end) = &self.state.end
            && decision != ArbiterRuling::Warning
        {
            return Err(self.refuse_after_end(
                end,
                &RecordedEvent::ArbiterDecision {
                    subject_seq,
                    decision,
                    reason: reason.to_string(),
                    result,
                    penalty: penalty.clone(),
                },
            ));
        }
        let penalty_event = |bonus: &TimeBonus, article: String| ServiceEvent::PenaltyApplied {
            side: bonus.side,
            add_ms: bonus.add_ms,
            article,
            reason: format!("Arbiter's decision: {reason}"),
            cause_seq: seq,
            ruled_by: self.ruled_by(),
        };
        match decision {
            ArbiterRuling::GameEnded => {
                let Some(result) = result else {
                    return Err(Refusal::new(
                        "missing_result",
                        "An arbiter_decision with decision game_ended needs a result (1-0, 0-1 or 1/2-1/2).",
                    ));
                };
                Ok(vec![self.game_ended(
                    seq,
                    result,
                    Termination::Arbiter,
                    article,
                    format!("Arbiter's decision: {reason}"),
                )])
            }
            ArbiterRuling::TimePenalty => match penalty {
                Some(bonus) => Ok(vec![penalty_event(bonus, self.art("12.9"))]),
                None => Err(Refusal::new(
                    "missing_penalty",
                    "An arbiter_decision with decision time_penalty needs a penalty {side, add_ms}.",
                )),
            },
            ArbiterRuling::ClaimRejected | ArbiterRuling::ClaimPostponed => Ok(penalty
                .iter()
                .map(|bonus| penalty_event(bonus, article.clone()))
                .collect()),
            ArbiterRuling::Warning => Ok(Vec::new()),
        }
    }

    /// The state as an arbiter sees it.
    pub fn view(&self) -> GameView {
        let state = &self.state;
        let position = state.history.current();
        let mut scoresheet = state.moves.clone();
        for offer in &state.offers {
            if offer.after_ply >= 1
                && let Some(entry) = scoresheet.get_mut(offer.after_ply - 1)
                && !entry.ends_with("(=)")
            {
                entry.push_str(" (=)");
            }
        }
        GameView {
            fen: fen_of(position),
            side_to_move: position.turn().into(),
            ply: state.history.ply(),
            moves: state.moves.clone(),
            scoresheet,
            offers: state.offers.clone(),
            clocks: state.clocks,
            halfmove_clock: position.halfmoves(),
            pending_offer: state.pending_offer.clone(),
            obligations: Obligations {
                touched: state.touched.clone(),
                must_play: state.must_play.clone(),
            },
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
            repetition_count: state.history.count_at_ply(state.history.ply()),
            laws_edition: self.settings.laws_edition,
        }
    }

    /// The distinct positions of the game, in order of first occurrence, with the plies at
    /// which each stood.
    pub fn positions(&self) -> Vec<PositionOccurrences> {
        let mut found: Vec<PositionOccurrences> = Vec::new();
        let mut first_ply: Vec<usize> = Vec::new();
        let mut by_key: HashMap<shakmaty::zobrist::Zobrist64, Vec<usize>> = HashMap::new();
        let positions = self.state.history.positions();
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

/// Which recorded events are refused once the game has ended. Clock presses, pauses and
/// resumes are harmless facts (a clock pressed after the mating move) and are kept; appeals,
/// corrections and arbiter warnings still apply; arbiter decisions other than warnings are
/// refused in [`Game::decide`] itself.
fn is_refused_after_end(event: &RecordedEvent) -> bool {
    !matches!(
        event,
        RecordedEvent::ClockPress { .. }
            | RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {}
            | RecordedEvent::ArbiterDecision { .. }
            | RecordedEvent::AppealLodged { .. }
            | RecordedEvent::AppealDecided { .. }
            | RecordedEvent::Correction { .. }
    )
}

fn minutes(ms: u64) -> String {
    if ms.is_multiple_of(60_000) {
        let m = ms / 60_000;
        if m == 1 {
            "1 minute".to_string()
        } else {
            format!("{m} minutes")
        }
    } else {
        format!("{} seconds", ms / 1000)
    }
}

fn termination_name(termination: Termination) -> &'static str {
    match termination {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::DeadPosition => "dead position",
        Termination::FivefoldRepetition => "fivefold repetition",
        Termination::SeventyFiveMoves => "75-move rule",
        Termination::Agreement => "agreement",
        Termination::RepetitionClaim => "repetition claim",
        Termination::FiftyMovesClaim => "fifty-move claim",
        Termination::Flag => "flag fall",
        Termination::Resignation => "resignation",
        Termination::IllegalMoves => "illegal moves",
        Termination::Arbiter => "arbiter's decision",
        Termination::Appeal => "appeal",
    }
}

struct FoldContext {
    castling_mode: CastlingMode,
}

impl BoardState {
    fn new(start: Chess, settings: &GameSettings) -> BoardState {
        BoardState {
            history: PositionHistory::new(start),
            moves: Vec::new(),
            offers: Vec::new(),
            clocks: ClockTimes {
                white_ms: Some(settings.time_control.base_ms),
                black_ms: Some(settings.time_control.base_ms),
            },
            pending_offer: None,
            lapsed_offer: None,
            touched: None,
            must_play: None,
            illegal_moves: IllegalMoveCounts::default(),
            end: None,
            claims: HashMap::new(),
            appeals: Vec::new(),
            claim_penalties: HashMap::new(),
        }
    }

    fn lapse_offer(&mut self, why: String) {
        if let Some(offer) = self.pending_offer.take() {
            self.lapsed_offer = Some(LapsedOffer {
                seq: offer.seq,
                why,
            });
        }
    }

    fn clock_mut(&mut self, side: Side) -> &mut Option<u64> {
        match side {
            Side::White => &mut self.clocks.white_ms,
            Side::Black => &mut self.clocks.black_ms,
        }
    }

    fn fold(&mut self, seq: u64, event: &Event, context: &FoldContext) -> Result<(), CorruptLog> {
        match event {
            Event::Recorded(recorded) => self.fold_recorded(seq, recorded, context),
            Event::Service(service) => {
                self.fold_service(seq, service);
                Ok(())
            }
        }
    }

    fn fold_recorded(
        &mut self,
        seq: u64,
        event: &RecordedEvent,
        context: &FoldContext,
    ) -> Result<(), CorruptLog> {
        match event {
            RecordedEvent::Move { by, san } => {
                let position = self.history.current();
                if Side::from(position.turn()) != *by {
                    return Err(CorruptLog {
                        seq,
                        problem: format!("{} moved out of turn", by.name()),
                    });
                }
                let m =
                    parse_move(position, san, context.castling_mode).map_err(|e| CorruptLog {
                        seq,
                        problem: e.to_string(),
                    })?;
                let written = san_of(position, m);
                let mut after = position.clone();
                after.play_unchecked(m);
                self.history.push(after);
                self.moves.push(written);
                self.touched = None;
                if self.must_play.as_ref().is_some_and(|must| must.by == *by) {
                    self.must_play = None;
                }
                if self
                    .pending_offer
                    .as_ref()
                    .is_some_and(|offer| offer.by != *by)
                {
                    self.lapse_offer(format!(
                        "{} moved instead of accepting (9.1.2.2)",
                        by.name()
                    ));
                }
            }
            RecordedEvent::IllegalMove { by, completed, .. } => {
                if *completed {
                    match by {
                        Side::White => self.illegal_moves.white += 1,
                        Side::Black => self.illegal_moves.black += 1,
                    }
                }
            }
            RecordedEvent::ClockPress {
                white_ms, black_ms, ..
            } => {
                if white_ms.is_some() {
                    self.clocks.white_ms = *white_ms;
                }
                if black_ms.is_some() {
                    self.clocks.black_ms = *black_ms;
                }
            }
            RecordedEvent::ClockAdjust { side, delta_ms, .. } => {
                let clock = self.clock_mut(*side);
                if let Some(ms) = clock {
                    *ms = ms.saturating_add_signed(*delta_ms);
                }
            }
            RecordedEvent::Touch { by, square } => {
                let position = self.history.current();
                if let Ok(parsed) = square.trim().parse::<Square>() {
                    let piece = position.board().piece_at(parsed);
                    let opponents_piece = piece.is_some_and(|p| p.color != Color::from(*by));
                    let keep_first = self
                        .touched
                        .as_ref()
                        .is_some_and(|t| t.by == *by && has_legal_use(position, t));
                    if !keep_first
                        && piece.is_some_and(|p| p.role != Role::King || !opponents_piece)
                    {
                        self.touched = Some(TouchedPiece {
                            by: *by,
                            square: parsed.to_string(),
                            opponents_piece,
                        });
                    }
                }
                if self
                    .pending_offer
                    .as_ref()
                    .is_some_and(|offer| offer.by != *by)
                {
                    self.lapse_offer(format!(
                        "{} touched a piece with the intention of moving or capturing it (9.1.2.2)",
                        by.name()
                    ));
                }
            }
            RecordedEvent::DrawOffer { by } => {
                let position = self.history.current();
                let mark = DrawOfferMark {
                    seq,
                    by: *by,
                    after_ply: self.history.ply(),
                    irregular: Side::from(position.turn()) == *by,
                    from_claim: None,
                };
                self.offers.push(mark.clone());
                self.pending_offer = Some(mark);
            }
            RecordedEvent::DrawAccept { .. } => {
                // A claim accepted as a draw offer (9.1.2.3): the game is drawn by agreement,
                // and the extra time given for the claim being incorrect is void (REP-17).
                if let Some(offer) = self.pending_offer.take()
                    && offer.from_claim.is_some()
                    && let Some((side, add_ms)) = self.claim_penalties.remove(&offer.seq)
                    && let Some(ms) = self.clock_mut(side)
                {
                    *ms = ms.saturating_sub(add_ms);
                }
            }
            RecordedEvent::DrawDecline { by } => {
                self.lapse_offer(format!("{} declined it orally", by.name()));
            }
            RecordedEvent::Claim { by, kind, .. } => {
                self.claims.insert(seq, (*by, *kind));
                if *kind != ClaimKind::QuickplayFinish {
                    // 9.1.2.3: a claim under 9.2 or 9.3 is also a draw offer.
                    let mark = DrawOfferMark {
                        seq,
                        by: *by,
                        after_ply: self.history.ply(),
                        irregular: false,
                        from_claim: Some(*kind),
                    };
                    self.offers.push(mark.clone());
                    self.pending_offer = Some(mark);
                }
            }
            RecordedEvent::AppealLodged { against_seq, .. } => self.appeals.push(*against_seq),
            RecordedEvent::ClockPause { .. }
            | RecordedEvent::ClockResume {}
            | RecordedEvent::Flag { .. }
            | RecordedEvent::Resign { .. }
            | RecordedEvent::ArbiterDecision { .. }
            | RecordedEvent::AppealDecided { .. }
            | RecordedEvent::Correction { .. } => {}
        }
        Ok(())
    }

    fn fold_service(&mut self, seq: u64, event: &ServiceEvent) {
        match event {
            ServiceEvent::GameCreated(_) => {}
            ServiceEvent::ClaimRuled(ruling) => {
                if let (Some(san), Some((by, _))) =
                    (&ruling.must_play, self.claims.get(&ruling.claim_seq))
                {
                    self.must_play = Some(MustPlay {
                        by: *by,
                        san: san.clone(),
                    });
                }
            }
            ServiceEvent::PenaltyApplied {
                side,
                add_ms,
                cause_seq,
                ..
            } => {
                let clock = self.clock_mut(*side);
                if let Some(ms) = clock {
                    *ms = ms.saturating_add(*add_ms);
                }
                if self.claims.contains_key(cause_seq) {
                    self.claim_penalties.insert(*cause_seq, (*side, *add_ms));
                }
            }
            ServiceEvent::GameEnded {
                result,
                termination,
                article,
                reason,
                ..
            } => {
                if self.pending_offer.is_some() {
                    self.lapse_offer("the game ended".to_string());
                }
                self.end = Some(GameEnd {
                    result: *result,
                    termination: *termination,
                    article: article.clone(),
                    reason: reason.clone(),
                    seq,
                });
            }
        }
    }
}

/// Whether a touched piece can still be moved (own piece) or captured (opponent's) — if
/// not, 4.5 frees the player and a later touch counts.
fn has_legal_use(position: &Chess, touched: &TouchedPiece) -> bool {
    let Ok(square) = touched.square.parse::<Square>() else {
        return false;
    };
    position.legal_moves().iter().any(|m| {
        if touched.opponents_piece {
            m.to() == square && m.is_capture()
        } else {
            m.from() == Some(square)
        }
    })
}
