//! The evidence a ruling rests on (docs/DESIGN.md, Principle 4: "every ruling explains
//! itself"): what the arbiter shows a player to say why a claim is correct or not, and what
//! an automatic end was decided on.
//!
//! * [`ClaimEvidence`]: the `evidence` of a `claim_ruled` event, for a 9.2 repetition or a
//!   9.3 fifty-move claim (the position, the plies where it stood, the move counts, the move
//!   written for a claim "about to appear") and for a Guidelines III request or claim that
//!   is not admissible (the regulations in force, the rate of play, the claimant's clock).
//! * [`EndEvidence`]: the `evidence` of a `game_ended` event for an end without a claim
//!   (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2).
//! * [`NearMiss`] and [`PositionDifference`]: positions with the same pieces on the same
//!   squares that are nevertheless not the same position under 9.2.3.
//!
//! These types are the wire and the stored log: their JSON is the JSON the engine has
//! always written, field for field (fields in the alphabetical order of their names, the
//! order of the engine's earlier untyped evidence). A field the engine writes only in some
//! rulings is optional and stays absent when it is absent. A log written by another engine
//! version, which may lack a field or carry one this version does not know, still decodes,
//! and a field this version does not know is kept as stored (`other_fields`) and written
//! again: an event read from the log encodes to the JSON it was stored as, so the hash
//! chain of an export still verifies (`arbiter verify`, docs/trust.md).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::laws::TimeControlKind;
use super::side::Side;

/// How a 9.2 / 9.3 claim was made.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    ToSchema,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ClaimForm {
    /// The position or the fifty moves "has just appeared" (9.2.2 / 9.3.2 in the 2023
    /// edition): the claimant has the move and has not moved; the position on the board is
    /// judged.
    HasJustAppeared,
    /// The position or the fifty moves is "about to appear" (9.2.1 / 9.3.1): the claimant
    /// has written a move, not played it, and the position after that move is judged.
    IntendedMove,
}

impl ClaimForm {
    /// The snake_case name, as on the wire.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// What makes two positions differ, in the terms of 9.2.3 (the same player has the move,
/// pieces of the same kind and colour occupy the same squares, the possible moves of all
/// the pieces are the same). A near miss has the same placement, so it differs by the
/// others only.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    ToSchema,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum PositionDifference {
    /// Pieces of the same kind and colour do not occupy the same squares (9.2.3).
    PiecePlacement,
    /// Another player has the move (9.2.3).
    SideToMove,
    /// The castling rights differ (9.2.3.2: the right, not whether castling is legal now).
    CastlingRights,
    /// An en passant capture is possible in one and not in the other (9.2.3.1: only a
    /// capture that is legal counts).
    EnPassant,
}

impl PositionDifference {
    /// The snake_case name, as on the wire.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// An earlier position with the same pieces on the same squares as the claimed one that is
/// nevertheless not the same position (9.2.3), so that it does not count towards the
/// repetition: the evidence an arbiter shows a claimant who counted it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct NearMiss {
    /// What made it differ from the claimed position.
    pub differs_by: Vec<PositionDifference>,
    /// The earlier position (FEN).
    pub fen: String,
    /// The ply at which it stood (ply 0 = start position).
    pub ply: usize,
    /// Fields written by another engine version that this one does not know, as stored.
    #[serde(flatten)]
    pub other_fields: BTreeMap<String, Value>,
}

/// What a ruling on a claim rests on (the `evidence` of `claim_ruled`).
///
/// For a repetition claim (9.2) or a fifty-move claim (9.3): the claim, its form (9.2.1 /
/// 9.3.1 with a written move, 9.2.2 / 9.3.2 without), the position at the claim and its
/// ply, the half-move count since the last capture or pawn move (9.3: 100 are fifty
/// moves), and for a repetition the plies where the judged position stood (counted over
/// the whole game, 9.2) with the near misses (9.2.3). With a written move: that move, the
/// position and count after it, or why it is not legal (9.2.1: a written move that is not
/// legal makes the claim incorrect), whether it was not needed, and whether the claimant
/// tried to change it (9.2.1: it cannot be changed).
///
/// For a Guidelines III request (III.4) or quickplay-finish claim (III.5) that is not
/// admissible: whether Guidelines III are in force, the rate of play, the increment and the
/// claimant's clock.
///
/// A claim ruled incorrect before anything was counted (the claimant had already moved, or
/// had touched a piece and so lost the right to claim on that move, 9.4) carries the
/// position only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ClaimEvidence {
    /// What was claimed.
    pub claim: ClaimKind,
    /// Who claimed.
    pub claimant: Side,
    /// Guidelines III: the claimant's time in milliseconds as last read on the clock (III.4,
    /// III.5 need less than two minutes), `null` when no reading was recorded (the arbiter
    /// verifies it). Present only in the evidence of a Guidelines III request or claim.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    #[schema(value_type = Option<u64>)]
    pub claimant_clock_ms: Option<Option<u64>>,
    /// The position at the claim (FEN).
    pub fen: String,
    /// 9.2.1 / 9.3.1: the position after the written move (FEN), when it is legal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen_after_intended_move: Option<String>,
    /// 9.2 / 9.3: how the claim was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<ClaimForm>,
    /// 9.3: half-moves at the claim since the last capture or pawn move (100 are fifty
    /// moves by each player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub halfmove_clock: Option<u32>,
    /// 9.3.1: the same count after the written move, when it is legal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub halfmove_clock_after_intended_move: Option<u32>,
    /// Guidelines III: the increment in force, in milliseconds (III.2.2: only games without
    /// increment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<u64>,
    /// 9.2.1 / 9.3.1: the move written on the scoresheet, not played, on which the claim was
    /// judged (the move written first, when the claimant tried to change it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intended_move: Option<String>,
    /// 9.2.1 / 9.3.1: why the written move is not legal in the position (the claim is then
    /// incorrect).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intended_move_error: Option<String>,
    /// 9.2.3: earlier positions with the same pieces on the same squares that are not the
    /// same position, with what made them differ (repetition claims only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near_misses: Option<Vec<NearMiss>>,
    /// 9.2.1: the ply at which the written move would make the position occur again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occurrence_after_intended_move: Option<usize>,
    /// 9.2: the plies at which the judged position stood, over the whole game (with a
    /// written move, before it: the written move would add one more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occurrences: Option<Vec<usize>>,
    /// 9.2 / 9.3: the ply at the claim (half-moves played; ply 0 = start position).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// Guidelines III: whether the event announced them (III.2.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quickplay_finish_in_force: Option<bool>,
    /// Who had the move at the claim (9.2.2 / 9.3.2: it must be the claimant).
    pub side_to_move: Side,
    /// Guidelines III: the rate of play (III.2.2: standard and rapid games, never blitz).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControlKind>,
    /// 9.2.1: the move the claimant wrote for this new claim, which was not judged because
    /// the move written for an earlier claim on the same move cannot be changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written_move_changed_to: Option<String>,
    /// 9.2.1: the move written for the earlier claim on this move, kept and judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written_move_kept: Option<String>,
    /// 9.2.2 / 9.3.2: true when the condition already stood on the board, so that the claim
    /// is correct whatever move was written; absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub written_move_not_needed: bool,
    /// Fields written by another engine version that this one does not know, as stored.
    #[serde(flatten)]
    pub other_fields: BTreeMap<String, Value>,
}

impl ClaimEvidence {
    /// Evidence of a claim of `claim` by `claimant` in the position `fen` with
    /// `side_to_move` to move, before anything was counted: every optional field absent.
    pub fn new(claim: ClaimKind, claimant: Side, side_to_move: Side, fen: String) -> Self {
        ClaimEvidence {
            claim,
            claimant,
            claimant_clock_ms: None,
            fen,
            fen_after_intended_move: None,
            form: None,
            halfmove_clock: None,
            halfmove_clock_after_intended_move: None,
            increment_ms: None,
            intended_move: None,
            intended_move_error: None,
            near_misses: None,
            occurrence_after_intended_move: None,
            occurrences: None,
            ply: None,
            quickplay_finish_in_force: None,
            side_to_move,
            time_control: None,
            written_move_changed_to: None,
            written_move_kept: None,
            written_move_not_needed: false,
            other_fields: BTreeMap::new(),
        }
    }
}

/// What an end without a claim rests on (the `evidence` of `game_ended` for checkmate 5.1.1,
/// stalemate 5.2.1, a dead position 5.2.2, fivefold repetition 9.6.1 and the 75-move rule
/// 9.6.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EndEvidence {
    /// The position after the last move (FEN).
    pub fen: String,
    /// Half-moves since the last capture or pawn move after the last move (9.6.2: 150 end
    /// the game unless the last move checkmates).
    pub halfmove_clock: u32,
    /// The last move, in SAN.
    #[serde(rename = "move")]
    pub san: String,
    /// 9.6.1: the plies at which the position stood, the fifth among them (fivefold
    /// repetition only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occurrences: Option<Vec<usize>>,
    /// The ply of the last move (half-moves played; ply 0 = start position).
    pub ply: usize,
    /// Fields written by another engine version that this one does not know, as stored.
    #[serde(flatten)]
    pub other_fields: BTreeMap<String, Value>,
}

/// Deserialises a field that may be present with `null`: present is `Some` (holding `None`
/// for `null`), absent is `None` by `#[serde(default)]`, so that re-encoding keeps both.
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// The kind of draw claim or request a player makes to the arbiter (Article 9 and
/// Guidelines III).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    ToSchema,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    /// Threefold repetition of position (9.2).
    Repetition,
    /// Fifty moves without a capture or pawn move (9.3).
    FiftyMoves,
    /// Quickplay finish: the opponent cannot win by normal means (Guidelines III.5).
    QuickplayFinish,
    /// A request for an increment of five seconds for both players (Guidelines III.4); it
    /// constitutes a draw offer, and the arbiter decides with an `arbiter_decision`.
    IncrementRequest,
}

impl ClaimKind {
    /// The snake_case name, as on the wire.
    pub fn name(self) -> &'static str {
        self.into()
    }
}
