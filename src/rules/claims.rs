//! Judgement of draw claims under 9.2 (repetition) and 9.3 (fifty moves), for the claimant,
//! at the moment of the claim.
//!
//! * "Has just appeared" (9.2.2 / 9.3.2): the claimant must have the move and must not have
//!   moved; the current position is judged.
//! * "About to appear" (9.2.1 / 9.3.1): the claimant has written an intended move and declared
//!   it; that one move alone is judged, without being played. An illegal intended move makes
//!   the claim incorrect.
//! * A claim by the player who does not have the move (who has already moved) is incorrect.
//! * A player who has touched a piece (4.3) has lost the right to claim on that move (9.4).

use serde_json::{Value, json};
use shakmaty::{CastlingMode, Color, Position};

use super::laws::article_in;
use super::move_counting::FIFTY_MOVES_HALFMOVES;
use super::move_parsing::{fen_of, parse_move, san_of};
use super::position_identity::PositionHistory;
use crate::game::event::{ClaimKind, ClaimOutcome, LawsEdition, Side};

/// Everything a 9.2 / 9.3 claim is judged on.
#[derive(Clone, Copy, Debug)]
pub struct ClaimContext<'a> {
    /// The game's positions so far.
    pub history: &'a PositionHistory,
    /// Castling notation of the game.
    pub castling_mode: CastlingMode,
    /// The edition of the Laws, for article numbers.
    pub edition: LawsEdition,
    /// Who claims.
    pub claimant: Side,
    /// Whether the claimant has touched a piece (4.3) on this move.
    pub claimant_touched_piece: bool,
}

/// The engine's judgement of a claim, before it becomes a `claim_ruled` event.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimJudgement {
    /// Correct or incorrect.
    pub outcome: ClaimOutcome,
    /// The article applied, in the game's edition.
    pub article: String,
    /// One plain sentence.
    pub reason: String,
    /// What the ruling rests on.
    pub evidence: Value,
    /// The legal intended move the claimant must now play if the claim fails (9.5.3).
    pub must_play: Option<String>,
}

/// Judge a repetition (9.2) or fifty-move (9.3) claim. Other kinds are not judged here.
pub fn judge_claim(
    context: &ClaimContext<'_>,
    kind: ClaimKind,
    intended_move: Option<&str>,
) -> ClaimJudgement {
    let history = context.history;
    let position = history.current();
    let edition = context.edition;
    let art = |a: &str| article_in(edition, a);
    let (claim_name, just_article, intended_article) = match kind {
        ClaimKind::FiftyMoves => ("fifty-move", "9.3.2", "9.3.1"),
        _ => ("repetition", "9.2.2", "9.2.1"),
    };
    let mut evidence = json!({
        "claim": match kind { ClaimKind::FiftyMoves => "fifty_moves", _ => "repetition" },
        "form": if intended_move.is_some() { "intended_move" } else { "has_just_appeared" },
        "ply": history.ply(),
        "fen": fen_of(position),
        "halfmove_clock": position.halfmoves(),
        "side_to_move": Side::from(position.turn()).name(),
        "claimant": context.claimant.name(),
    });

    if Color::from(context.claimant) != position.turn() {
        return ClaimJudgement {
            outcome: ClaimOutcome::Rejected,
            article: art(if intended_move.is_some() {
                intended_article
            } else {
                just_article
            }),
            reason: format!(
                "The {claim_name} claim is incorrect: {} has already moved and it is {}'s move; a claim must be made by the player having the move, before moving.",
                context.claimant.name(),
                Side::from(position.turn()).name()
            ),
            evidence,
            must_play: None,
        };
    }
    if context.claimant_touched_piece {
        let must_play = intended_move
            .and_then(|text| parse_move(position, text, context.castling_mode).ok())
            .map(|m| san_of(position, m));
        return ClaimJudgement {
            outcome: ClaimOutcome::Rejected,
            article: art("9.4"),
            reason: format!(
                "The {claim_name} claim is incorrect: {} touched a piece with the intention of moving it and so lost the right to claim on this move.",
                context.claimant.name()
            ),
            evidence,
            must_play,
        };
    }

    match intended_move {
        None => {
            let (correct, sentence) = match kind {
                ClaimKind::FiftyMoves => {
                    let halfmoves = position.halfmoves();
                    (
                        halfmoves >= FIFTY_MOVES_HALFMOVES,
                        format!(
                            "{halfmoves} half-moves have been made without a capture or pawn move (100 are needed)"
                        ),
                    )
                }
                _ => {
                    let plies = history.occurrences_of_ply(history.ply());
                    evidence["occurrences"] = json!(plies);
                    evidence["near_misses"] = json!(history.near_misses(position));
                    (
                        plies.len() >= 3,
                        format!(
                            "the current position has occurred {} time(s), at plies {:?} (3 are needed)",
                            plies.len(),
                            plies
                        ),
                    )
                }
            };
            judgement(
                correct,
                art(just_article),
                claim_name,
                sentence,
                evidence,
                None,
            )
        }
        Some(text) => {
            evidence["intended_move"] = json!(text);
            let m = match parse_move(position, text, context.castling_mode) {
                Ok(m) => m,
                Err(error) => {
                    evidence["intended_move_error"] = json!(error.to_string());
                    return ClaimJudgement {
                        outcome: ClaimOutcome::Rejected,
                        article: art(intended_article),
                        reason: format!(
                            "The {claim_name} claim is incorrect: the intended move {text} is not legal, so {} must play another legal move (Articles 3 and 4).",
                            context.claimant.name()
                        ),
                        evidence,
                        must_play: None,
                    };
                }
            };
            let san = san_of(position, m);
            let mut after = position.clone();
            after.play_unchecked(m);
            evidence["fen_after_intended_move"] = json!(fen_of(&after));
            evidence["halfmove_clock_after_intended_move"] = json!(after.halfmoves());
            let (correct, sentence) = match kind {
                ClaimKind::FiftyMoves => {
                    let halfmoves = after.halfmoves();
                    (
                        halfmoves >= FIFTY_MOVES_HALFMOVES,
                        format!(
                            "after the intended move {san}, {halfmoves} half-moves would have been made without a capture or pawn move (100 are needed)"
                        ),
                    )
                }
                _ => {
                    let plies = history.occurrences_of(&after);
                    evidence["occurrences"] = json!(plies);
                    evidence["occurrence_after_intended_move"] = json!(history.ply() + 1);
                    evidence["near_misses"] = json!(history.near_misses(&after));
                    (
                        plies.len() + 1 >= 3,
                        format!(
                            "the intended move {san} would make the position occur for the {} time (earlier at plies {:?}; 3 are needed)",
                            ordinal(plies.len() + 1),
                            plies
                        ),
                    )
                }
            };
            judgement(
                correct,
                art(intended_article),
                claim_name,
                sentence,
                evidence,
                Some(san),
            )
        }
    }
}

fn judgement(
    correct: bool,
    article: String,
    claim_name: &str,
    sentence: String,
    evidence: Value,
    intended_san: Option<String>,
) -> ClaimJudgement {
    if correct {
        ClaimJudgement {
            outcome: ClaimOutcome::Upheld,
            article,
            reason: format!("The {claim_name} claim is correct: {sentence}."),
            evidence,
            must_play: None,
        }
    } else {
        ClaimJudgement {
            outcome: ClaimOutcome::Rejected,
            article,
            reason: format!("The {claim_name} claim is incorrect: {sentence}."),
            evidence,
            must_play: intended_san,
        }
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
