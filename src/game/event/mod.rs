//! The event vocabulary: the wire contract between recorders (people, DGT boards, clocks)
//! and the service, and the shape in which every fact is kept in the log.
//!
//! Events are JSON objects tagged by `type` (snake_case), colours are `"white"`/`"black"`,
//! moves are SAN (UCI accepted), times are milliseconds. Two families exist:
//!
//! * [`RecordedEvent`]: what people and devices report about the board. Clients submit these.
//! * [`ServiceEvent`]: what the service appends itself — the game's creation and the decision
//!   events that a recorded event causes under the Laws. Clients can never submit these.
//!
//! Both families are stored in the same log; [`Event`] is their union.
//!
//! Here: the events themselves. How a game ends (the result and the termination) is in
//! `results.rs`, what a game is created with in `game_settings.rs`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use crate::rules::appeals::{AppealRegulations, Sitting};
pub use crate::rules::claims::{ClaimKind, ClaimOutcome};
use crate::rules::electronic_devices::OpponentScore;
pub use crate::rules::evidence::{ClaimEvidence, EndEvidence};
pub use crate::rules::laws::{LawsEdition, TimeControlKind};
pub use crate::rules::side::Side;

mod game_settings;
mod results;

pub use game_settings::{
    Bonus, BonusMode, ClockBehaviour, DrawOfferPolicy, GAME_SETTINGS_FIELDS, GameSettings, Period,
    Player, Preset, Regulations, StartMoves, TimeControl, TimeControlSpec,
};
pub use results::{ALL_TERMINATIONS, GameResult, Termination};

/// Extra time given to a player (for example 9.5.3 after an incorrect claim, 7.5.5 after
/// an illegal move).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeBonus {
    /// The player who receives the time.
    pub side: Side,
    /// Milliseconds added to that player's clock.
    pub add_ms: u64,
}

/// The clock times an appeals committee sets when it sends the players back to the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Resume {
    /// White's remaining time in milliseconds when play resumes.
    pub white_ms: u64,
    /// Black's remaining time in milliseconds when play resumes.
    pub black_ms: u64,
}

/// A clock reading, as shown on the clock when the event happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockReading {
    /// White's remaining time in milliseconds.
    pub white_ms: Option<u64>,
    /// Black's remaining time in milliseconds.
    pub black_ms: Option<u64>,
}

/// What people and devices report about the board. Each variant is a fact, recorded as it
/// happened, even when it is irregular (docs/DESIGN.md, Principle 5: record what happened).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum RecordedEvent {
    /// A completed legal move, in SAN (UCI accepted).
    Move {
        /// The player who moved.
        by: Side,
        /// The move in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`) or UCI (`g1f3`).
        san: String,
    },
    /// An illegal move or an irregularity under 7.5.2-7.5.4, noticed by the arbiter or a player.
    IllegalMove {
        /// The player who made it.
        by: Side,
        /// What happened, in words (e.g. `2...Nf6 leaving the king in check`).
        description: String,
        /// Whether the move was completed (the clock was pressed), which is what 7.5.5 penalises.
        completed: bool,
        /// The move attempted, as from and to squares (`g8f6`, `g8-f6`) or SAN as written
        /// (`Nf6`): the engine then knows the piece touched and the piece it would have
        /// captured, which the move replacing it must respect (7.5.1: "Articles 4.3 and 4.7
        /// apply to the move replacing the illegal move"), and a pending draw offer of the
        /// opponent lapses (9.1.2.1). Required for `promotion_without_piece`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attempted_move: Option<String>,
        /// Which irregularity of 7.5 it was; `illegal_move` (7.5.1) when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<IllegalMoveKind>,
    },
    /// A press of the clock after a move.
    ClockPress {
        /// The player who pressed.
        by: Side,
        /// White's remaining time after the press, if read off the clock.
        #[serde(default)]
        white_ms: Option<u64>,
        /// Black's remaining time after the press, if read off the clock.
        #[serde(default)]
        black_ms: Option<u64>,
    },
    /// The clock was paused (by a player to claim, or by the arbiter).
    ClockPause {
        /// The player who paused it; absent when the arbiter did.
        #[serde(default)]
        by: Option<Side>,
    },
    /// The clock was restarted.
    ClockResume {},
    /// The arbiter set a clock (e.g. after a penalty applied by hand or a clock malfunction).
    ClockAdjust {
        /// Whose clock changed.
        side: Side,
        /// Milliseconds added (positive) or removed (negative).
        delta_ms: i64,
        /// Why.
        reason: String,
    },
    /// A piece touched with intent to move or capture it (4.3).
    Touch {
        /// The player who touched.
        by: Side,
        /// The square of the touched piece, e.g. `b8`.
        square: String,
    },
    /// A draw offer (9.1.2).
    DrawOffer {
        /// The player who offered.
        by: Side,
    },
    /// Acceptance of the pending draw offer (or of a claim, which stands as an offer, 9.1.2.3).
    DrawAccept {
        /// The player who accepted.
        by: Side,
    },
    /// An oral rejection of the pending draw offer.
    DrawDecline {
        /// The player who declined.
        by: Side,
    },
    /// A claim to the arbiter (9.2, 9.3, Guidelines III.5).
    Claim {
        /// The claimant.
        by: Side,
        /// What is claimed.
        kind: ClaimKind,
        /// The move written on the scoresheet and declared, not played (9.2.1 / 9.3.1).
        #[serde(default)]
        intended_move: Option<String>,
    },
    /// A flag fall noticed by a player or the arbiter (6.9).
    Flag {
        /// The player whose time ran out.
        side: Side,
    },
    /// Both flags have fallen and it cannot be established which fell first (Guidelines
    /// III.3.1, for games without increment): the game goes on in a period that is not the
    /// last (III.3.1.1), and is drawn in the last (III.3.1.2).
    BothFlags {},
    /// A resignation (5.1.2).
    Resign {
        /// The player who resigned.
        by: Side,
    },
    /// A judgement ruling by the arbiter (quickplay finish, 11.5, penalties, anything the
    /// engine does not decide mechanically).
    ArbiterDecision {
        /// The event the decision is about, if any.
        #[serde(default)]
        subject_seq: Option<u64>,
        /// What the arbiter decided.
        decision: ArbiterRuling,
        /// The arbiter's stated reasons, with the article.
        reason: String,
        /// The result, when the decision ends the game.
        #[serde(default)]
        result: Option<GameResult>,
        /// Time given to a player, when the decision includes it.
        #[serde(default)]
        penalty: Option<TimeBonus>,
        /// For `illegal_move_stands`: the illegal move as it was played on the board (from
        /// and to squares, or SAN as written), from which the position is derived.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attempted_move: Option<String>,
        /// For `illegal_move_stands`: the position as it stands on the board, as FEN, where
        /// it cannot be derived from `attempted_move` (and always wins over it); for
        /// `position_reconstructed`, the position the board should show.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fen: Option<String>,
        /// For `increment_granted`: the increment in milliseconds for both players from now
        /// on (5000 when absent, as Guidelines III.4 has it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        increment_ms: Option<u64>,
        /// For `move_count_set`: whose completed moves the arbiter counted, and how many.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        move_count: Option<MoveCount>,
        /// For `game_ended`: what the result rests on, which decides how the tournament report
        /// (TRF), the PGN `Termination` and the chief arbiter's report write it: a forfeit
        /// (the game was not played, 6.7.1), a result the players reported (8.7), a loss for
        /// breaking the Laws, or the arbiter's adjudication. Absent in logs written before it
        /// existed: the reason's words decide then (docs/interchange.md).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cause: Option<EndCause>,
    },
    /// An appeal against a decision.
    AppealLodged {
        /// Who appeals (a player's colour or a name).
        by: String,
        /// The `seq` of the decision appealed against.
        against_seq: u64,
        /// The grounds of the appeal.
        grounds: String,
    },
    /// The appeals committee's decision.
    AppealDecided {
        /// The `seq` of the decision that was appealed against.
        against_seq: u64,
        /// Whether the appeal was upheld.
        upheld: bool,
        /// The new result, when an upheld appeal changes it.
        #[serde(default)]
        result: Option<GameResult>,
        /// When an upheld appeal sends the players back to the board: the ruling appealed
        /// against is annulled (with the event it answered and the other decisions that event
        /// caused), the game stands where it stood without them (position, offers, move
        /// count), and the clocks show the times the committee sets. Not with `result`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resume: Option<Resume>,
        /// Who sat on the decision, when the regulations name a committee (their
        /// eligibility is checked: FIDE Handbook C.11, ECU Tournament Rules).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        committee: Vec<Sitting>,
        /// The committee's reasons.
        reason: String,
    },
    /// A fair-play event (devices, inspections, complaints, evidence: 11.3 and the Fair-Play
    /// Rules, 12.2.7), recorded through `POST /v1/games/{id}/fair-play` only. Its payload is
    /// confidential: the log keeps its SHA-256 (`sealed`), the payload sits in a restricted
    /// table that only the `fair_play` capability reads, and a public audit still verifies
    /// the chain. When the ruling ends the game, `forfeit` says who lost and the article:
    /// all the public sees.
    FairPlay {
        /// SHA-256 (hex) of the sealed payload, over PostgreSQL's canonical jsonb text.
        sealed: String,
        /// The player who loses and the article, when the ruling ends the game.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        forfeit: Option<Forfeit>,
        /// The clock change and the article, when the ruling is a penalty of 12.9.2 or
        /// 12.9.3 with its time known: the engine applies it (12.9.2 as a `penalty_applied`,
        /// 12.9.3 taken from the clock as it folds this row).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_penalty: Option<TimePenalty>,
    },
    /// Retracts the latest still-standing recorded event (and the decisions it caused) after
    /// a data-entry error. Nothing is deleted: the retraction is itself recorded.
    Correction {
        /// The `seq` of the event retracted.
        retracts_seq: u64,
        /// Why (e.g. `wrong square typed`).
        reason: String,
    },
}

/// The public part of a fair-play ruling that ends the game: the loser and the article
/// (`11.3.2.2`, or `12.9.6` where the arbiter chose it), nothing more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Forfeit {
    /// The player who loses; the opponent wins unless `opponent_score` says otherwise.
    pub loser: Side,
    /// The article the game ends under.
    pub article: String,
    /// The opponent's score when it is not the win: 12.9.6 with ½ or nothing for the
    /// opponent (the arbiter's choice, or the regulations' lesser penalty). Absent, the
    /// opponent wins (rows stored before it read as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent_score: Option<OpponentScore>,
}

/// The public part of a fair-play ruling that changes a clock (12.9.2, 12.9.3): whose clock,
/// by how much, and the article, nothing more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TimePenalty {
    /// Whose clock changes.
    pub side: Side,
    /// Milliseconds added (12.9.2, positive) or taken (12.9.3, negative); never 0.
    pub delta_ms: i64,
    /// The article (`12.9.2` or `12.9.3`).
    pub article: String,
}

/// What an arbiter's `game_ended` decision rests on.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    ToSchema,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum EndCause {
    /// The game was not played: a player (or both, a double forfeit) was not present at the
    /// default time or did not play it (6.7.1). Reported as a forfeit, `+`/`-`; not rated.
    Forfeit,
    /// The players reported the result of a game they played (8.7); its moves need not be in
    /// the log. Reported as a game played.
    ReportedResult,
    /// The arbiter declared the game lost for breaking the Laws (e.g. 11.3.2.2, 11.5, 12.9.6).
    /// A game played: its moves decide whether it lasted a move.
    RulesInfraction,
    /// Any other ruling by the arbiter on the game (e.g. a quickplay finish, III.5). A game
    /// played: its moves decide whether it lasted a move.
    Adjudication,
}

impl EndCause {
    /// The snake_case name, as on the wire.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The arbiter's judgement in an `arbiter_decision` event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ArbiterRuling {
    /// The game ends with the result given (e.g. III.5 claim accepted, 11.5 loss).
    GameEnded,
    /// A claim (III.5) is rejected.
    ClaimRejected,
    /// The decision on a claim (III.5) is postponed.
    ClaimPostponed,
    /// A time penalty or bonus, as given in `penalty`.
    TimePenalty,
    /// A warning to a player (12.9.1).
    Warning,
    /// In rapid or blitz, an illegal move that neither the opponent nor the arbiter acted on
    /// before the opponent's next move stands, and the game continues from the position on
    /// the board (Appendix A.5.2; 2018: A.4.2; blitz through B.3 / B.4).
    IllegalMoveStands,
    /// The arbiter agrees to a player's request for an increment of five seconds for both
    /// players (Guidelines III.4): the opponent receives two extra minutes.
    IncrementGranted,
    /// The arbiter records a player's completed moves (`move_count`): reconstructed when moves
    /// went unrecorded (8.5), a clock's move counter corrected (6.10.2), or, when the count
    /// cannot be established, the next move taken as the first of the following period
    /// (8.6). Period time the clock has not added is credited.
    MoveCountSet,
    /// The position the board should show (`fen`: 7.5.1, 7.6, 8.5.3), play continuing from
    /// it with the moves completed its move number gives; the clock times set (7.1) are the
    /// `clock` reading recorded with it (docs/time-controls.md).
    PositionReconstructed,
}

/// The arbiter's count of a player's completed moves (`move_count_set`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"side": "white", "moves": 40}))]
pub struct MoveCount {
    /// The player.
    pub side: Side,
    /// The moves completed, as reconstructed from the scoresheets and the clock (8.5) or
    /// corrected (6.10.2). Absent when the count cannot be established: the next move is
    /// then the first of the following period (8.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, maximum = 1000)]
    pub moves: Option<u32>,
}

/// Which irregularity of Article 7.5 an `illegal_move` was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum IllegalMoveKind {
    /// A move that is not legal (7.5.1): the position before it is reinstated.
    IllegalMove,
    /// A pawn moved to the last rank, the clock pressed, the pawn not replaced (7.5.2): the
    /// pawn becomes a queen and the move stands.
    PromotionWithoutPiece,
    /// The clock pressed without a move (7.5.3).
    ClockWithoutMove,
    /// A move made with two hands and the clock pressed (7.5.4): penalised as an illegal
    /// move, the position before it reinstated.
    TwoHands,
}

/// What the service appends by itself: the game's creation and the consequences of recorded
/// events under the Laws (docs/DESIGN.md, Principle 3: decisions are events).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServiceEvent {
    /// The game was created with these settings (always `seq` 1, so the settings that govern
    /// every ruling are part of the hash chain).
    GameCreated(Box<GameSettings>),
    /// A claim (9.2 / 9.3) was ruled on by the engine.
    ClaimRuled(Box<ClaimRuling>),
    /// Time was added to a player's clock as a consequence of an event.
    PenaltyApplied {
        /// Who receives the time.
        side: Side,
        /// Milliseconds added.
        add_ms: u64,
        /// The article applied (e.g. `9.5.3`, `7.5.5`).
        article: String,
        /// Why, in a sentence.
        reason: String,
        /// The event that caused it.
        cause_seq: u64,
        /// Who made the ruling.
        ruled_by: RuledBy,
    },
    /// The game ended.
    GameEnded {
        /// The result.
        result: GameResult,
        /// How it ended.
        termination: Termination,
        /// The article applied.
        article: String,
        /// Why, in a sentence.
        reason: String,
        /// The event that caused it.
        cause_seq: u64,
        /// Who made the ruling.
        ruled_by: RuledBy,
        /// What the ruling rests on, for the automatic ends (5.1.1, 5.2.1, 5.2.2, 9.6.1,
        /// 9.6.2): the move, the position after it, the ply, the half-move count and, for a
        /// repetition, the plies where the position stood.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        evidence: Option<EndEvidence>,
    },
    /// The appeals committee dismissed an appeal, under the event's appeals procedure: the
    /// ruling stands, and the decision cites the right of appeal and the regulation (stored
    /// only when the regulations set the procedure, so that logs stored before it audit as
    /// they did).
    AppealDismissed {
        /// The `seq` of the ruling appealed against.
        against_seq: u64,
        /// The article applied (the right of appeal).
        article: String,
        /// Why, in a sentence: the committee's reasons, the regulation, the deposit kept and
        /// who sat.
        reason: String,
        /// The `appeal_decided` that caused it.
        cause_seq: u64,
        /// Who made the ruling.
        ruled_by: RuledBy,
    },
    /// The appeals committee upheld an appeal, under the event's appeals procedure, without a
    /// result or a resumption (a warning, a time penalty, a claim's refusal reversed): the
    /// decision cites the right of appeal and the regulation, and says the deposit is
    /// returned (stored only when the regulations set the procedure, so that logs stored
    /// before it audit as they did).
    AppealUpheld {
        /// The `seq` of the ruling appealed against.
        against_seq: u64,
        /// The article applied (the right of appeal).
        article: String,
        /// Why, in a sentence: the committee's reasons, the regulation, the deposit returned
        /// and who sat.
        reason: String,
        /// The `appeal_decided` that caused it.
        cause_seq: u64,
        /// Who made the ruling.
        ruled_by: RuledBy,
    },
    /// An upheld appeal annulled a ruling and sent the players back to the board: the events
    /// in `annulled` no longer count (the game is folded without them), and the clocks show
    /// the committee's times.
    GameResumed {
        /// The `seq` of the ruling appealed against.
        against_seq: u64,
        /// The stored events annulled: the event the ruling answered and every decision it
        /// caused.
        annulled: Vec<u64>,
        /// White's remaining time in milliseconds when play resumes.
        white_ms: u64,
        /// Black's remaining time in milliseconds when play resumes.
        black_ms: u64,
        /// The article applied (the right of appeal).
        article: String,
        /// Why, in a sentence.
        reason: String,
        /// The `appeal_decided` that caused it.
        cause_seq: u64,
        /// Who made the ruling.
        ruled_by: RuledBy,
    },
}

/// The engine and edition of the Laws a decision was made under (docs/DESIGN.md,
/// Principle 3), so that an audit can reproduce it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RuledBy {
    /// The version of the rules engine.
    pub engine_version: String,
    /// The edition of the Laws of Chess.
    pub laws_edition: LawsEdition,
}

/// The engine's ruling on a claim, with the evidence an arbiter shows the players
/// (docs/DESIGN.md, Principle 4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ClaimRuling {
    /// The `seq` of the claim.
    pub claim_seq: u64,
    /// Correct or not.
    pub outcome: ClaimOutcome,
    /// The article applied, in the game's edition of the Laws.
    pub article: String,
    /// One plain sentence.
    pub reason: String,
    /// What the ruling rests on.
    pub evidence: ClaimEvidence,
    /// Time given to the opponent for an incorrect claim (9.5.3).
    #[serde(default)]
    pub penalty: Option<TimeBonus>,
    /// The written move the claimant must now play (9.5.3, Articles 3 and 4).
    #[serde(default)]
    pub must_play: Option<String>,
    /// When the written move was not legal: the squares of the pieces it names, one of
    /// which the claimant must now move where it has a legal move (9.5.3 with Article 4;
    /// Arbiters' Manual: "another move with this piece must be made").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub must_move_one_of: Option<Vec<String>>,
    /// Who made the ruling.
    pub ruled_by: RuledBy,
}

/// Every event in a game's log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Event {
    /// Reported by people or devices.
    Recorded(RecordedEvent),
    /// Appended by the service.
    Service(ServiceEvent),
}

impl RecordedEvent {
    /// The `type` tag of this event, as stored.
    pub fn type_name(&self) -> &'static str {
        self.into()
    }
}

impl ServiceEvent {
    /// The `type` tag of this event, as stored.
    pub fn type_name(&self) -> &'static str {
        self.into()
    }
}

impl Event {
    /// The `type` tag of this event, as stored.
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::Recorded(e) => e.type_name(),
            Event::Service(e) => e.type_name(),
        }
    }
}

/// The `type` tags that only the service may append.
pub const SERVICE_EVENT_TYPES: &[&str] = &[
    "game_created",
    "claim_ruled",
    "penalty_applied",
    "game_ended",
    "game_resumed",
    "appeal_dismissed",
    "appeal_upheld",
];

/// The `type` tags of decisions, the engine's and the people's: what `/v1/rulings` lists
/// and an appeals committee reviews.
pub const DECISION_TYPES: &[&str] = &[
    "claim_ruled",
    "penalty_applied",
    "game_ended",
    "game_resumed",
    "appeal_dismissed",
    "appeal_upheld",
    "arbiter_decision",
    "appeal_decided",
];

/// Every `type` tag a client may submit.
pub const RECORDED_EVENT_TYPES: &[&str] = &[
    "move",
    "illegal_move",
    "clock_press",
    "clock_pause",
    "clock_resume",
    "clock_adjust",
    "touch",
    "draw_offer",
    "draw_accept",
    "draw_decline",
    "claim",
    "flag",
    "both_flags",
    "resign",
    "arbiter_decision",
    "appeal_lodged",
    "appeal_decided",
    "correction",
];

/// The `type` tags of recorded events a client cannot send to a game's log: a `fair_play`
/// event is recorded through `POST /v1/games/{id}/fair-play`, which seals its payload.
pub const SEALED_EVENT_TYPES: &[&str] = &["fair_play"];

/// The schema of a string naming an event type: one of [`RECORDED_EVENT_TYPES`],
/// [`SEALED_EVENT_TYPES`] and [`SERVICE_EVENT_TYPES`] (for the OpenAPI document: a generated
/// client gets an enum).
pub fn event_type_schema() -> utoipa::openapi::Object {
    string_enum(
        RECORDED_EVENT_TYPES
            .iter()
            .chain(SEALED_EVENT_TYPES)
            .chain(SERVICE_EVENT_TYPES),
        "The event's type.",
    )
}

/// The schema of a string naming a kind of decision: one of [`DECISION_TYPES`].
pub fn decision_type_schema() -> utoipa::openapi::Object {
    string_enum(DECISION_TYPES.iter(), "A kind of decision.")
}

fn string_enum<'a>(
    values: impl Iterator<Item = &'a &'a str>,
    description: &str,
) -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(values.copied()))
        .description(Some(description))
        .build()
}
