//! The arbiter's decisions (`arbiter_decision`): judgement rulings are the arbiter's, recorded
//! with their stated reasons; the engine checks only their preconditions and writes what they
//! cause (docs/DESIGN.md, Principle 6).
//!
//! * 12.2 and 12.9 (the arbiter's duties and penalties): the arbiter may end the game, give a
//!   time penalty, warn, or reject a claim, with the penalty the arbiter gives.
//! * Guidelines III.4: the arbiter agrees to a request for an increment: the increment applies
//!   from then on and the opponent receives two extra minutes.
//! * Guidelines III.5: the arbiter declares the result of a quickplay-finish claim, postpones
//!   it (III.5.2), or rejects it, and the opponent receives two extra minutes (III.5.3).
//! * Appendix A.5.2: an illegal move stands (`super::illegal_moves` reads the position).
//!
//! This module owns no state: what a decision changes is folded by the parts it concerns
//! (the clocks, the offers, the quickplay claims, the board).

use crate::rules::claims::ClaimKind;
use crate::rules::laws::Rule;

use super::event::{
    ArbiterRuling, EndCause, GameResult, MoveCount, RecordedEvent, ServiceEvent, Termination,
    TimeBonus,
};
use super::illegal_moves::position_it_stood_in;
use super::parts::{JudgeContext, Judged, Judgement};
use super::prepared::Prepared;
use super::quickplay::{GRANTED_INCREMENT_MS, TWO_EXTRA_MINUTES_MS};
use super::refusal::{Refusal, RefusalCode};
use super::view::OpenClaim;

/// An `arbiter_decision`, with the claim or request it answers.
struct Decision<'a> {
    decision: ArbiterRuling,
    reason: &'a str,
    result: Option<GameResult>,
    penalty: Option<&'a TimeBonus>,
    attempted_move: Option<&'a str>,
    fen: Option<&'a str>,
    increment_ms: Option<u64>,
    /// What a `game_ended` rests on (a forfeit, a reported result, ...).
    cause: Option<EndCause>,
    /// The claim or request awaiting the arbiter that `subject_seq` names, if any.
    subject: Option<OpenClaim>,
}

impl Decision<'_> {
    /// The subject, when it is a quickplay-finish claim (III.5).
    fn quickplay_claim(&self) -> Option<&OpenClaim> {
        self.subject
            .as_ref()
            .filter(|c| c.kind == ClaimKind::QuickplayFinish)
    }

    /// The penalty the arbiter gave, citing `rules`.
    fn given(&self, ctx: &JudgeContext<'_>, rules: &[Rule]) -> Vec<ServiceEvent> {
        self.penalty
            .iter()
            .map(|bonus| self.penalty_event(ctx, bonus, ctx.cite(rules)))
            .collect()
    }

    /// The `penalty_applied` of `bonus`, citing `article`.
    fn penalty_event(
        &self,
        ctx: &JudgeContext<'_>,
        bonus: &TimeBonus,
        article: String,
    ) -> ServiceEvent {
        ctx.decisions.penalty(
            ctx.seq,
            bonus.side,
            bonus.add_ms,
            article,
            format!("Arbiter's decision: {}", self.reason),
        )
    }
}

/// Judges an `arbiter_decision`. Once the game has ended only a warning is accepted (the end
/// refuses the others first, `super::endings`). Other events are not this module's to judge.
pub(super) fn judge(ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
    let RecordedEvent::ArbiterDecision {
        subject_seq,
        decision,
        reason,
        result,
        penalty,
        attempted_move,
        fen,
        increment_ms,
        move_count,
        cause,
    } = event
    else {
        return Ok(Judged::nothing());
    };
    let input = Decision {
        decision: *decision,
        reason,
        result: *result,
        penalty: penalty.as_ref(),
        attempted_move: attempted_move.as_deref(),
        fen: fen.as_deref(),
        increment_ms: *increment_ms,
        cause: *cause,
        subject: subject_seq
            .and_then(|s| ctx.awaiting.open_claim(s))
            .cloned(),
    };
    let decisions = match input.decision {
        ArbiterRuling::GameEnded => vec![game_ended(ctx, &input)?],
        ArbiterRuling::TimePenalty => match input.penalty {
            Some(bonus) => {
                vec![input.penalty_event(ctx, bonus, ctx.cite(&[Rule::ArbiterPenalties]))]
            }
            None => {
                return Err(Refusal::new(
                    RefusalCode::MissingPenalty,
                    "An arbiter_decision with decision time_penalty needs a penalty {side, add_ms}.",
                ));
            }
        },
        ArbiterRuling::ClaimRejected => claim_rejected(ctx, &input),
        ArbiterRuling::ClaimPostponed => match input.quickplay_claim() {
            Some(_) => input.given(ctx, &[Rule::QuickplayClaimPostponed]),
            None => input.given(ctx, &[Rule::ArbiterDuties]),
        },
        ArbiterRuling::Warning => Vec::new(),
        ArbiterRuling::IllegalMoveStands => {
            let position =
                position_it_stood_in(&ctx.decisions, ctx.board(), input.attempted_move, input.fen)?;
            return Ok(Judged {
                decisions: Vec::new(),
                prepared: Prepared::Stood(Box::new(position)),
            });
        }
        ArbiterRuling::IncrementGranted => vec![increment_granted(ctx, &input)?],
        ArbiterRuling::MoveCountSet => move_count_set(ctx, move_count.as_ref(), reason)?,
        ArbiterRuling::PositionReconstructed => {
            let position = reconstructed_position(&ctx.decisions, ctx.board(), input.fen)?;
            return Ok(Judged {
                decisions: Vec::new(),
                prepared: Prepared::Reconstructed(Box::new(position)),
            });
        }
    };
    Ok(Judged::decisions(decisions))
}

/// The arbiter ends the game: on a quickplay-finish claim (III.5, or III.5.2 after a
/// postponement or a flag fall), or under the arbiter's duties.
fn game_ended(ctx: &JudgeContext<'_>, input: &Decision<'_>) -> Result<ServiceEvent, Refusal> {
    let Some(result) = input.result else {
        return Err(Refusal::new(
            RefusalCode::MissingResult,
            "An arbiter_decision with decision game_ended needs a result (1-0, 0-1 or 1/2-1/2).",
        ));
    };
    // A forfeit is a game not played (6.7.1): not one whose moves are in the log.
    let plies = ctx.board().ply();
    if input.cause == Some(EndCause::Forfeit) && plies > 0 {
        return Err(Refusal::new(
            RefusalCode::ForfeitAfterMoves,
            format!(
                "A forfeit is a game that was not played (6.7.1), and this game has {plies} \
                 half-move(s) in the log. End it with the cause `rules_infraction` (a loss for \
                 breaking the Laws) or `adjudication`, or retract the moves with corrections if \
                 they were recorded by mistake."
            ),
        ));
    }
    let quickplay_claim = input.quickplay_claim();
    let after_postponement =
        quickplay_claim.is_some_and(|c| c.postponed) || ctx.awaiting.fallen_flag().is_some();
    let rules = if after_postponement {
        Rule::QuickplayClaimPostponed
    } else if quickplay_claim.is_some() {
        Rule::QuickplayClaim
    } else {
        Rule::ArbiterDuties
    };
    Ok(ctx.decisions.game_ended(
        ctx.seq,
        result,
        Termination::Arbiter,
        &[rules],
        format!("Arbiter's decision: {}", input.reason),
        None,
    ))
}

/// The arbiter rejects a claim: a quickplay-finish claim gives the opponent two extra minutes
/// unless the arbiter gives another penalty (III.5.3).
fn claim_rejected(ctx: &JudgeContext<'_>, input: &Decision<'_>) -> Vec<ServiceEvent> {
    let decisions = &ctx.decisions;
    let reason = input.reason;
    match (&input.subject, input.penalty) {
        // III.5.3: "the opponent shall be awarded two extra minutes".
        (Some(claim), None) if claim.kind == ClaimKind::QuickplayFinish => {
            vec![decisions.penalty(
                ctx.seq,
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
            input.given(ctx, &[Rule::QuickplayClaimRejected])
        }
        (Some(_), _) => input.given(ctx, &[Rule::QuickplayIncrement]),
        (None, _) => input.given(ctx, &[Rule::ArbiterDuties]),
    }
}

/// The arbiter agrees to a request for an increment (III.4): the opponent receives two extra
/// minutes (the clocks take the increment when the decision is folded).
fn increment_granted(
    ctx: &JudgeContext<'_>,
    input: &Decision<'_>,
) -> Result<ServiceEvent, Refusal> {
    let decisions = &ctx.decisions;
    let Some(request) = input
        .subject
        .as_ref()
        .filter(|c| c.kind == ClaimKind::IncrementRequest)
    else {
        return Err(Refusal::new(
            RefusalCode::NoIncrementRequest,
            format!(
                "increment_granted answers a player's request for an increment ({}): record the request as a claim of kind increment_request, then give its seq as subject_seq.",
                decisions.cite(&[Rule::QuickplayIncrement])
            ),
        ));
    };
    let increment = input.increment_ms.unwrap_or(GRANTED_INCREMENT_MS);
    Ok(decisions.penalty(
        ctx.seq,
        request.by.opponent(),
        TWO_EXTRA_MINUTES_MS,
        decisions.cite(&[Rule::QuickplayIncrement]),
        format!(
            "The arbiter agreed to {}'s request: an increment of {} s for both players from now on, and {} receives two extra minutes. {}",
            request.by.name(),
            increment / 1000,
            request.by.opponent().name(),
            input.reason
        ),
    ))
}

/// The position the arbiter reconstructed (`position_reconstructed`: 7.5.1, 7.6, 8.5.3), or
/// why it cannot be played from: it needs the FEN, a legal position (the player not having
/// the move is not in check) in which the player having the move has a legal move (a game
/// over on the board is the arbiter's result to record, `game_ended`).
pub(super) fn reconstructed_position(
    decisions: &super::decisions::Decisions<'_>,
    board: super::reads::BoardView<'_>,
    fen: Option<&str>,
) -> Result<shakmaty::Chess, Refusal> {
    use shakmaty::Position;
    let reinstated = decisions.cite(&[
        Rule::IllegalMove,
        Rule::DisplacedPiecesReinstated,
        Rule::GameReconstructed,
    ]);
    let Some(fen) = fen else {
        return Err(Refusal::new(
            RefusalCode::PositionNeeded,
            format!(
                "A position_reconstructed decision needs the position the board should show, \
                 as `fen`, with the move number and half-move clock the arbiter established \
                 ({reinstated})."
            ),
        ));
    };
    let position = crate::rules::move_parsing::position_in_mode(fen, board.castling_mode())
        .map_err(|e| {
            Refusal::new(
                RefusalCode::BadFen,
                format!(
                    "fen: {e}. Give the position the game continues from ({reinstated}): a \
                     legal position, with the player having the move, the castling rights, \
                     the move number and the half-move clock."
                ),
            )
        })?;
    if position.legal_moves().is_empty() {
        return Err(Refusal::new(
            RefusalCode::BadFen,
            format!(
                "fen: in {fen} the player having the move has no legal move, so no game \
                 continues from it; if the game is over, record the result as an \
                 arbiter_decision with decision game_ended ({}).",
                decisions.cite(&[Rule::ArbiterDuties])
            ),
        ));
    }
    Ok(position)
}

/// The arbiter records a player's completed moves (8.5 reconstruction, 6.10.2 correction, or
/// 8.6 when the count cannot be established). Fewer moves than the board holds are refused
/// (every recorded move was completed); 8.6 is refused in the last period, which has no
/// following period. Period time the clock had not added is credited (`penalty_applied`,
/// citing the ruling's article).
fn move_count_set(
    ctx: &JudgeContext<'_>,
    move_count: Option<&MoveCount>,
    reason: &str,
) -> Result<Vec<ServiceEvent>, Refusal> {
    let Some(count) = move_count else {
        return Err(Refusal::new(
            RefusalCode::MissingMoveCount,
            "An arbiter_decision with decision move_count_set needs a move_count {side, moves} \
             (moves left out when the count cannot be established, 8.6).",
        ));
    };
    let edition = ctx.decisions.edition();
    let clocks = ctx.clocks;
    let on_board = clocks.board_moves(count.side, ctx.board().ply());
    let mut tracker = clocks.periods().clone();
    let ruling = match count.moves {
        Some(moves) if moves < on_board => {
            return Err(Refusal::new(
                RefusalCode::MoveCountBelowBoard,
                format!(
                    "The record already holds {on_board} completed moves of {}; a count of \
                     {moves} would drop recorded moves. Record the moves, or correct the \
                     wrong ones.",
                    count.side.name()
                ),
            ));
        }
        Some(moves) => tracker.set_moves_completed(count.side, moves),
        None => tracker
            .move_count_unknown(count.side, None)
            .map_err(|e| Refusal::new(RefusalCode::NoFollowingPeriod, e.to_string()))?,
    };
    Ok((ruling.time_added_ms > 0)
        .then(|| {
            ctx.decisions.penalty(
                ctx.seq,
                count.side,
                ruling.time_added_ms,
                ruling.article(edition),
                format!(
                    "The arbiter counts {} completed moves for {}: period {} begins, and its {} \
                     are added. {reason}",
                    ruling.moves_completed,
                    count.side.name(),
                    ruling.period + 1,
                    crate::rules::time_control::minutes_text(ruling.time_added_ms)
                ),
            )
        })
        .into_iter()
        .collect())
}
