//! Judgement of draw claims under 9.2 (repetition) and 9.3 (fifty moves), for the claimant,
//! at the moment of the claim.
//!
//! * "Has just appeared" (9.2.2 / 9.3.2): the claimant must have the move and must not have
//!   moved; the current position is judged.
//! * "About to appear" (9.2.1 / 9.3.1): the claimant has written a move and declared it; that
//!   one move alone is judged, without being played. A written move that is not legal makes
//!   the claim incorrect.
//! * A written move that is not needed: when the third occurrence (or the fifty moves)
//!   already stands on the board, the condition of 9.2.2 (9.3.2) is met and the claim is
//!   correct whatever move was written (the choice is documented in docs/rules-figures.md).
//! * The written move cannot be changed (9.2.1): after an incorrect claim on a move, a new
//!   claim on the same move is judged on the move written first.
//! * A claim by the player who does not have the move (who has already moved) is incorrect.
//! * A player who has touched a piece (4.3) has lost the right to claim on that move (9.4).
//!
//! What the written move obliges the claimant to do afterwards (9.5.3: "this move must be
//! made in accordance with Articles 3 and 4") is decided by the game, which knows the other
//! obligations: the judgement hands back the written move as read.

use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, Color, Position};
use utoipa::ToSchema;

use super::evidence::{ClaimEvidence, ClaimForm};
use super::laws::{LawsEdition, Rule, article};
use super::move_counting::FIFTY_MOVES_HALFMOVES;
use super::move_parsing::{WrittenMove, fen_of, read_written_move, san_of};
use super::position_identity::PositionHistory;
use super::side::Side;

pub use super::evidence::ClaimKind;

/// The outcome of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClaimOutcome {
    /// The claim is correct.
    Upheld,
    /// The claim is incorrect.
    Rejected,
}

/// Everything a 9.2 / 9.3 claim is judged on.
#[derive(Clone, Copy, Debug)]
pub struct ClaimContext<'a> {
    /// The game's positions so far.
    pub history: &'a PositionHistory,
    /// Castling notation of the game.
    pub castling_mode: CastlingMode,
    /// The edition of the Laws, for the articles named in the reasons.
    pub edition: LawsEdition,
    /// Who claims.
    pub claimant: Side,
    /// Whether the claimant has touched a piece (4.3) on this move.
    pub claimant_touched_piece: bool,
    /// The move the claimant wrote for an earlier incorrect claim on this same move: it
    /// cannot be changed (9.2.1), so a new claim with a written move is judged on it.
    pub written_before: Option<&'a str>,
}

/// The engine's judgement of a claim, before it becomes a `claim_ruled` event.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimJudgement {
    /// Correct or incorrect.
    pub outcome: ClaimOutcome,
    /// The rule applied.
    pub rule: Rule,
    /// One plain sentence.
    pub reason: String,
    /// What the ruling rests on.
    pub evidence: ClaimEvidence,
    /// The written move the claim was judged on, as read in the position (the move written
    /// first, when the claimant tried to change it).
    pub written: Option<(String, WrittenMove)>,
}

/// Judge a repetition (9.2) or fifty-move (9.3) claim. Other kinds are not judged here.
pub fn judge_claim(
    context: &ClaimContext<'_>,
    kind: ClaimKind,
    written_now: Option<&str>,
) -> ClaimJudgement {
    let history = context.history;
    let position = history.current();
    let fifty = kind == ClaimKind::FiftyMoves;
    let (claim_name, just_rule, about_rule) = if fifty {
        (
            "fifty-move",
            Rule::FiftyMovesMade,
            Rule::FiftyMovesAboutToBeMade,
        )
    } else {
        (
            "repetition",
            Rule::RepetitionHasAppeared,
            Rule::RepetitionAboutToAppear,
        )
    };
    // The written move cannot be changed (9.2.1): a new written move is judged as the first.
    let changed = matches!((written_now, context.written_before), (Some(now), Some(before)) if now.trim() != before);
    let written_text = match (written_now, context.written_before) {
        (Some(_), Some(before)) => Some(before),
        (now, _) => now,
    };
    let mut evidence = ClaimEvidence {
        form: Some(if written_text.is_some() {
            ClaimForm::IntendedMove
        } else {
            ClaimForm::HasJustAppeared
        }),
        ply: Some(history.ply()),
        halfmove_clock: Some(position.halfmoves()),
        ..ClaimEvidence::new(
            if fifty {
                ClaimKind::FiftyMoves
            } else {
                ClaimKind::Repetition
            },
            context.claimant,
            Side::from(position.turn()),
            fen_of(position),
        )
    };
    if changed {
        evidence.written_move_changed_to = written_now.map(str::to_string);
        evidence.written_move_kept = written_text.map(str::to_string);
    }
    let written = written_text.map(|text| {
        (
            text.trim().to_string(),
            read_written_move(position, text, context.castling_mode),
        )
    });
    let rejected = |rule: Rule, reason: String, evidence: ClaimEvidence, written| ClaimJudgement {
        outcome: ClaimOutcome::Rejected,
        rule,
        reason,
        evidence,
        written,
    };

    if Color::from(context.claimant) != position.turn() {
        return rejected(
            if written_text.is_some() {
                about_rule
            } else {
                just_rule
            },
            format!(
                "The {claim_name} claim is incorrect: {} has already moved and it is {}'s move; a claim must be made by the player having the move, before moving.",
                context.claimant.name(),
                Side::from(position.turn()).name()
            ),
            evidence,
            None,
        );
    }
    if context.claimant_touched_piece {
        return rejected(
            Rule::ClaimAfterTouch,
            format!(
                "The {claim_name} claim is incorrect: {} touched a piece with the intention of moving it and so lost the right to claim on this move.",
                context.claimant.name()
            ),
            evidence,
            written,
        );
    }

    // The condition of 9.2.2 / 9.3.2 on the position on the board.
    let (stands_now, sentence_now) = if fifty {
        let halfmoves = position.halfmoves();
        (
            halfmoves >= FIFTY_MOVES_HALFMOVES,
            format!(
                "{halfmoves} half-moves have been made without a capture or pawn move (100 are needed)"
            ),
        )
    } else {
        let plies = history.occurrences_of_ply(history.ply());
        evidence.near_misses = Some(history.near_misses(position));
        let stands = plies.len() >= 3;
        let sentence = format!(
            "the current position has occurred {} time(s), at plies {:?} (3 are needed)",
            plies.len(),
            plies
        );
        evidence.occurrences = Some(plies);
        (stands, sentence)
    };
    let Some((text, read)) = written else {
        return judgement(
            stands_now,
            just_rule,
            claim_name,
            sentence_now,
            evidence,
            None,
        );
    };
    evidence.intended_move = Some(text.clone());
    if stands_now {
        // The written move is not needed: the condition of 9.2.2 / 9.3.2 is met on the board.
        evidence.written_move_not_needed = true;
        let sentence = format!(
            "{sentence_now}, so the condition of {} is met on the board and the written move {text} is not needed",
            article(context.edition, just_rule)
        );
        return judgement(
            true,
            just_rule,
            claim_name,
            sentence,
            evidence,
            Some((text, read)),
        );
    }
    let m = match &read {
        WrittenMove::Legal(m) => *m,
        WrittenMove::Illegal { .. } | WrittenMove::Unreadable => {
            evidence.intended_move_error = Some(format!(
                "`{text}` is not a legal move in this position ({})",
                fen_of(position)
            ));
            return rejected(
                about_rule,
                format!(
                    "The {claim_name} claim is incorrect: the written move {text} is not legal in this position."
                ),
                evidence,
                Some((text, read)),
            );
        }
    };
    let san = san_of(position, m);
    let mut after = position.clone();
    after.play_unchecked(m);
    evidence.fen_after_intended_move = Some(fen_of(&after));
    evidence.halfmove_clock_after_intended_move = Some(after.halfmoves());
    let (correct, sentence) = if fifty {
        let halfmoves = after.halfmoves();
        (
            halfmoves >= FIFTY_MOVES_HALFMOVES,
            format!(
                "after the intended move {san}, {halfmoves} half-moves would have been made without a capture or pawn move (100 are needed)"
            ),
        )
    } else {
        let plies = history.occurrences_of(&after);
        evidence.occurrence_after_intended_move = Some(history.ply() + 1);
        evidence.near_misses = Some(history.near_misses(&after));
        let correct = plies.len() + 1 >= 3;
        let sentence = format!(
            "the intended move {san} would make the position occur for the {} time (earlier at plies {:?}; 3 are needed)",
            ordinal(plies.len() + 1),
            plies
        );
        evidence.occurrences = Some(plies);
        (correct, sentence)
    };
    let sentence = if changed {
        format!(
            "{sentence}; the move written for the earlier claim on this move cannot be changed ({}), so the claim is judged on it",
            article(context.edition, about_rule)
        )
    } else {
        sentence
    };
    judgement(
        correct,
        about_rule,
        claim_name,
        sentence,
        evidence,
        Some((san, read)),
    )
}

fn judgement(
    correct: bool,
    rule: Rule,
    claim_name: &str,
    sentence: String,
    evidence: ClaimEvidence,
    written: Option<(String, WrittenMove)>,
) -> ClaimJudgement {
    let verdict = if correct { "correct" } else { "incorrect" };
    ClaimJudgement {
        outcome: if correct {
            ClaimOutcome::Upheld
        } else {
            ClaimOutcome::Rejected
        },
        rule,
        reason: format!("The {claim_name} claim is {verdict}: {sentence}."),
        evidence,
        written,
    }
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "first".to_string(),
        2 => "second".to_string(),
        3 => "third".to_string(),
        4 => "fourth".to_string(),
        5 => "fifth".to_string(),
        _ => format!("{n}th"),
    }
}
