//! Articles 9.2 to 9.5 in play: a repetition or fifty-move claim judged at once
//! (`crate::rules::claims` judges; this module writes the ruling and its consequences).
//!
//! * 9.5.2: a correct claim draws the game at once.
//! * 9.5.3: an incorrect one gives the opponent extra time (two minutes; one in rapid and
//!   blitz under 2023 A.3, in blitz under 2018 B.2; or the event's own figure), and "if the
//!   claim was based on an intended move, this move must be made in accordance with Articles
//!   3 and 4": the written move becomes compulsory when it is legal and the earlier
//!   obligations (a touched piece, 4.3) allow it; when it is not legal, "another move with
//!   this piece must be made" (Arbiters' Manual); when the touched piece forbids it, the
//!   touched piece must be moved and the written move is not compulsory (9.4).
//! * 9.2.1: the written move "cannot be changed": a second claim on the same move with
//!   another written move is judged on the first one.
//! * 9.1.2.3: the claim stands as a draw offer (`super::offers`).

use std::collections::HashMap;

use crate::rules::claims::{ClaimContext, ClaimJudgement, ClaimKind, ClaimOutcome, judge_claim};
use crate::rules::laws::{ExtraTimeCause, Rule, extra_time};
use crate::rules::move_parsing::{WrittenMove, is_move_notation};
use crate::rules::side::Side;

use super::decisions::minutes;
use super::event::{
    ClaimRuling, Event, GameResult, RecordedEvent, ServiceEvent, Termination, TimeBonus,
};
use super::parts::{CorruptLog, Fold, FoldContext, JudgeContext, Judged, Judgement};
use super::refusal::{Refusal, RefusalCode};

/// The claims of the game.
#[derive(Clone, Debug, Default)]
pub(super) struct Claims {
    by_seq: HashMap<u64, (Side, ClaimKind)>,
    /// The move written for a claim on the current move: (claimant, ply, text). It cannot
    /// be changed (9.2.1).
    written: Option<(Side, usize, String)>,
}

impl Claims {
    /// `by` claimed `kind` at `seq`, on the move at `ply`, writing `intended` if given.
    fn claimed(&mut self, seq: u64, by: Side, kind: ClaimKind, intended: Option<&str>, ply: usize) {
        self.by_seq.insert(seq, (by, kind));
        if let Some(text) = intended
            && matches!(kind, ClaimKind::Repetition | ClaimKind::FiftyMoves)
            && self.written_before(by, ply).is_none()
        {
            self.written = Some((by, ply, text.trim().to_string()));
        }
    }

    /// The claimant and kind of the claim at `seq`.
    pub(super) fn kind_of(&self, seq: u64) -> Option<(Side, ClaimKind)> {
        self.by_seq.get(&seq).copied()
    }

    /// The move `by` wrote for an earlier claim on the move at `ply`.
    fn written_before(&self, by: Side, ply: usize) -> Option<&str> {
        match &self.written {
            Some((claimant, at, text)) if *claimant == by && *at == ply => Some(text),
            _ => None,
        }
    }
}

impl Claims {
    /// Judges a 9.2 or 9.3 `claim` (a repetition or fifty-move claim) at once. Other events,
    /// and the claims of Guidelines III, are not this part's to judge.
    pub(super) fn judge(&self, ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
        match event {
            RecordedEvent::Claim {
                kind: ClaimKind::Repetition | ClaimKind::FiftyMoves,
                intended_move: Some(text),
                ..
            } if !is_move_notation(text) => Err(Refusal::new(
                RefusalCode::UnreadableMove,
                format!(
                    "The written move `{text}` of the claim is not a move in any notation: \
                     not SAN (like Nf3, exd5, O-O), UCI (like g1f3) or from-to squares (like \
                     g1-f3). Copy it as the claimant wrote it; a written move that is a move \
                     but not a legal one is recorded and judged under the Laws (9.5.3)."
                ),
            )),
            RecordedEvent::Claim {
                by,
                kind: kind @ (ClaimKind::Repetition | ClaimKind::FiftyMoves),
                intended_move,
            } => Ok(Judged::decisions(self.rule_on(
                ctx,
                *by,
                *kind,
                intended_move.as_deref(),
            ))),
            _ => Ok(Judged::nothing()),
        }
    }

    /// The ruling on a 9.2 / 9.3 claim by `by`, and its consequences.
    fn rule_on(
        &self,
        ctx: &JudgeContext<'_>,
        by: Side,
        kind: ClaimKind,
        intended_move: Option<&str>,
    ) -> Vec<ServiceEvent> {
        let board = ctx.board();
        let context = ClaimContext {
            history: board.history(),
            castling_mode: board.castling_mode(),
            edition: ctx.decisions.edition(),
            claimant: by,
            claimant_touched_piece: ctx.obligations.touched_by(by),
            written_before: self.written_before(by, board.ply()),
        };
        let judgement = judge_claim(&context, kind, intended_move);
        if judgement.outcome == ClaimOutcome::Upheld {
            upheld(ctx, kind, judgement)
        } else {
            rejected(ctx, by, judgement)
        }
    }
}

impl Fold for Claims {
    /// A claim is recorded with the move written for it (9.2.1).
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        if let Event::Recorded(RecordedEvent::Claim {
            by,
            kind,
            intended_move,
        }) = event
        {
            self.claimed(ctx.seq, *by, *kind, intended_move.as_deref(), ctx.ply);
        }
        Ok(())
    }
}

/// A correct claim draws the game at once (9.5.2).
fn upheld(ctx: &JudgeContext<'_>, kind: ClaimKind, judgement: ClaimJudgement) -> Vec<ServiceEvent> {
    let (decisions, seq) = (&ctx.decisions, ctx.seq);
    let article = decisions.cite(&[judgement.rule]);
    let termination = match kind {
        ClaimKind::FiftyMoves => Termination::FiftyMovesClaim,
        _ => Termination::RepetitionClaim,
    };
    vec![
        ServiceEvent::ClaimRuled(Box::new(ClaimRuling {
            claim_seq: seq,
            outcome: ClaimOutcome::Upheld,
            article: article.clone(),
            reason: judgement.reason.clone(),
            evidence: judgement.evidence,
            penalty: None,
            must_play: None,
            must_move_one_of: None,
            ruled_by: decisions.ruled_by(),
        })),
        ServiceEvent::GameEnded {
            result: GameResult::Draw,
            termination,
            article,
            reason: judgement.reason,
            cause_seq: seq,
            ruled_by: decisions.ruled_by(),
            evidence: None,
        },
    ]
}

/// An incorrect claim gives the opponent extra time and may oblige the claimant to play the
/// written move (9.5.3).
fn rejected(ctx: &JudgeContext<'_>, by: Side, judgement: ClaimJudgement) -> Vec<ServiceEvent> {
    let (decisions, seq) = (&ctx.decisions, ctx.seq);
    let article = decisions.cite(&[judgement.rule]);
    let settings = decisions.settings;
    let extra = extra_time(
        decisions.edition(),
        settings.time_control.kind,
        ExtraTimeCause::IncorrectClaim,
    );
    let add_ms = settings
        .regulations
        .incorrect_claim_penalty_ms
        .unwrap_or(extra.ms);
    let opponent = by.opponent();
    let mut reason = judgement.reason;
    reason.push_str(&format!(
        " {} receives {} extra.",
        opponent.name(),
        minutes(add_ms)
    ));
    let (must_play, must_move_one_of) =
        written_obligation(ctx, by, judgement.written.as_ref(), &mut reason);
    vec![
        ServiceEvent::ClaimRuled(Box::new(ClaimRuling {
            claim_seq: seq,
            outcome: ClaimOutcome::Rejected,
            article,
            reason,
            evidence: judgement.evidence,
            penalty: Some(TimeBonus {
                side: opponent,
                add_ms,
            }),
            must_play,
            must_move_one_of,
            ruled_by: decisions.ruled_by(),
        })),
        decisions.penalty(
            seq,
            opponent,
            add_ms,
            decisions.cite(&extra.rules),
            format!(
                "Incorrect claim by {}: {} receives {} extra.",
                by.name(),
                opponent.name(),
                minutes(add_ms)
            ),
        ),
    ]
}

/// What the written move of an incorrect claim by `by` obliges the claimant to (9.5.3 with
/// Articles 3 and 4): the move to play, or the pieces one of which must be moved; the reason
/// says so.
fn written_obligation(
    ctx: &JudgeContext<'_>,
    by: Side,
    written: Option<&(String, WrittenMove)>,
    reason: &mut String,
) -> (Option<String>, Option<Vec<String>>) {
    let decisions = &ctx.decisions;
    let position = ctx.board().position();
    let acceptable = ctx.obligations.acceptable(position);
    let touch = decisions.cite(&[Rule::TouchMove]);
    match written {
        Some((san, WrittenMove::Legal(m))) if acceptable.contains(m) => {
            reason.push_str(&format!(" {} must play {san}.", by.name()));
            (Some(san.clone()), None)
        }
        Some((san, WrittenMove::Legal(_))) => {
            reason.push_str(&format!(
                " The written move {san} is not compulsory: {} touched another piece, which must be moved or captured ({touch}).",
                by.name()
            ));
            (None, None)
        }
        Some((_, WrittenMove::Illegal { pieces, .. })) => {
            let movable: Vec<String> = pieces
                .iter()
                .filter(|square| acceptable.iter().any(|m| m.from() == Some(**square)))
                .map(|square| square.to_string())
                .collect();
            if movable.is_empty() {
                reason.push_str(&format!(
                    " The piece of the written move has no acceptable move, so {} may make any legal move the other obligations allow ({}).",
                    by.name(),
                    decisions.cite(&[Rule::TouchedPieceCannotMove])
                ));
                (None, None)
            } else {
                reason.push_str(&format!(
                    " {} must make another move with the piece on {} ({} with Article 4).",
                    by.name(),
                    movable.join(" or "),
                    decisions.cite(&[Rule::IncorrectClaim])
                ));
                (None, Some(movable))
            }
        }
        Some((_, WrittenMove::Unreadable)) => {
            reason.push_str(&format!(
                " The written move names no piece of {}, so any legal move may be made (Articles 3 and 4).",
                by.name()
            ));
            (None, None)
        }
        None => (None, None),
    }
}
