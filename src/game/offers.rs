//! Article 9.1: draw offers and agreement, with the event's regulations.
//!
//! * 9.1.1: the regulations may forbid agreement, require the arbiter's consent, or forbid
//!   it "in less than a specified number of moves". The count: both players must have
//!   completed that many moves (the move number on the board minus one), so "no draw before
//!   move 30" allows agreement from Black's 30th move on. Offers made while agreement is
//!   forbidden are recorded (they are facts) and marked `forbidden`; they cannot be
//!   accepted.
//! * 9.1.2.1: an offer "remains valid until the opponent accepts it, rejects it orally,
//!   rejects it by touching a piece with the intention of moving or capturing it, or the game
//!   is concluded in some other way". Making a move needs a touch, so a move rejects it too;
//!   so does an illegal move whose piece is known. A claim does *not*: each player can have
//!   one offer open, and a claimant can still accept the opponent's offer.
//! * 9.1.2.3: a claim under 9.2 or 9.3 is an offer of a draw; Guidelines III.4 says the same
//!   of a request for an increment. If the opponent accepts a claim found incorrect, the
//!   game is drawn by agreement and the extra time given for the claim is void (REP-17).
//! * 5.2.3: agreement needs both players to have made at least one move.

use std::collections::HashMap;

use crate::rules::claims::ClaimKind;
use crate::rules::laws::Rule;
use crate::rules::side::{BySide, Side};

use super::event::{
    ArbiterRuling, DrawOfferPolicy, Event, GameResult, RecordedEvent, Regulations, ServiceEvent,
    Termination,
};
use super::parts::{CorruptLog, Fold, FoldContext, JudgeContext, Judged, Judgement};
use super::prepared::{IllegalMoveEffect, Prepared};
use super::refusal::{Refusal, RefusalCode};
use super::view::DrawOfferMark;

/// Why an offer is no longer open.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lapsed {
    seq: u64,
    why: String,
}

/// Every offer of the game and those still open.
#[derive(Clone, Debug, Default)]
pub(super) struct Offers {
    marks: Vec<DrawOfferMark>,
    pending: BySide<Option<DrawOfferMark>>,
    lapsed: BySide<Option<Lapsed>>,
    /// The extra time given to the opponent for each incorrect claim, by the claim's `seq`.
    claim_penalties: HashMap<u64, (Side, u64)>,
}

/// Whether the regulations forbid agreeing a draw now (9.1.1); `completed_moves` is the
/// number of moves both players have completed.
fn agreement_forbidden(regulations: &Regulations, completed_moves: u32) -> bool {
    regulations.draw_offers == DrawOfferPolicy::Forbidden
        || regulations
            .earliest_agreement_move
            .is_some_and(|earliest| completed_moves < earliest)
}

impl Offers {
    /// Every offer made, in order (for the `(=)` marks of the scoresheet, 9.1.2.2).
    pub(super) fn marks(&self) -> &[DrawOfferMark] {
        &self.marks
    }

    /// The offers still open, oldest first.
    pub(super) fn pending(&self) -> Vec<DrawOfferMark> {
        let mut open: Vec<DrawOfferMark> = Side::BOTH
            .iter()
            .filter_map(|side| self.pending.get(*side).clone())
            .collect();
        open.sort_by_key(|offer| offer.seq);
        open
    }

    /// `by` made an offer (or a claim or request that stands as one).
    fn offered(&mut self, mark: DrawOfferMark) {
        let by = mark.by;
        self.marks.push(mark.clone());
        *self.pending.get_mut(by) = Some(mark);
    }

    /// The open offer of `offerer` lapses, for the reason given.
    fn lapse(&mut self, offerer: Side, why: String) {
        if let Some(offer) = self.pending.get_mut(offerer).take() {
            *self.lapsed.get_mut(offerer) = Some(Lapsed {
                seq: offer.seq,
                why,
            });
        }
    }

    /// `by` touched a piece with the intention of moving or capturing it (a touch, a move, an
    /// illegal move whose piece is known): the opponent's open offer lapses (9.1.2.1).
    fn rejected_by_touch(&mut self, by: Side, how: &str) {
        self.lapse(
            by.opponent(),
            format!("{} {how} instead of accepting (9.1.2.1)", by.name()),
        );
    }

    /// `by` rejected the opponent's offer orally.
    fn declined(&mut self, by: Side) {
        self.lapse(by.opponent(), format!("{} declined it orally", by.name()));
    }

    /// The game ended: every open offer lapses.
    fn game_concluded(&mut self) {
        for side in Side::BOTH {
            self.lapse(side, "the game ended".to_string());
        }
    }

    /// The extra time given for the incorrect claim `claim_seq` (void if it is accepted).
    fn claim_penalised(&mut self, claim_seq: u64, side: Side, add_ms: u64) {
        self.claim_penalties.insert(claim_seq, (side, add_ms));
    }

    /// `by` accepted the opponent's offer: it is no longer open, and the extra time given for
    /// it, if it was a claim found incorrect, is void (taken back by the clocks).
    fn accepted(&mut self, by: Side) {
        if let Some(offer) = self.pending.get_mut(by.opponent()).take()
            && offer.from_claim.is_some()
        {
            self.claim_penalties.remove(&offer.seq);
        }
    }

    /// The extra time that becomes void if `by` accepts the opponent's open offer: the offer
    /// is a claim found incorrect (9.1.2.3, REP-17). Who received it, and how much.
    pub(super) fn extra_time_void_on_acceptance(&self, by: Side) -> Option<(Side, u64)> {
        let offer = self.pending.get(by.opponent()).as_ref()?;
        offer
            .from_claim
            .and_then(|_| self.claim_penalties.get(&offer.seq).copied())
    }

    /// Judges a `draw_accept` (9.1.1, 9.1.2, 5.2.3) and a `draw_decline` (9.1.2.1): there
    /// must be an open offer of the opponent. Other events are not this part's to judge.
    pub(super) fn judge(&self, ctx: &JudgeContext<'_>, event: &RecordedEvent) -> Judgement {
        match event {
            RecordedEvent::DrawAccept { by } => self.judge_acceptance(ctx, *by),
            RecordedEvent::DrawDecline { by } => {
                self.open_for(*by, "decline")?;
                Ok(Judged::nothing())
            }
            _ => Ok(Judged::nothing()),
        }
    }

    /// Judges the acceptance by `by` of the opponent's open offer: the game is drawn by
    /// agreement, unless the regulations or 5.2.3 forbid it.
    fn judge_acceptance(&self, ctx: &JudgeContext<'_>, by: Side) -> Judgement {
        let (decisions, board) = (&ctx.decisions, ctx.board());
        let offer = self.open_for(by, "accept")?;
        if let Some(refusal) =
            regulations_refuse(&ctx.settings().regulations, board.completed_moves(), offer)
        {
            return Err(refusal);
        }
        if !board.both_have_moved(ctx.start_turn) {
            return Err(Refusal::new(
                RefusalCode::BothMustHaveMoved,
                format!(
                    "A draw by agreement needs both players to have made at least one move ({}); the game continues.",
                    decisions.cite(&[Rule::Agreement])
                ),
            ));
        }
        let void = offer.from_claim.is_some() && self.claim_penalty_standing(offer.seq);
        let (rules, what) = agreement_grounds(offer, void);
        Ok(Judged::decisions(vec![decisions.game_ended(
            ctx.seq,
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
        )]))
    }

    /// The open offer `by` may accept or decline, or why there is none.
    fn open_for(&self, by: Side, verb: &str) -> Result<&DrawOfferMark, Refusal> {
        if let Some(offer) = self.pending.get(by.opponent()) {
            return Ok(offer);
        }
        if self.pending.get(by).is_some() {
            return Err(Refusal::new(
                RefusalCode::OwnOffer,
                format!(
                    "The open draw offer is {}'s own; only the opponent can {verb} it.",
                    by.name()
                ),
            ));
        }
        let why = match self.lapsed.get(by.opponent()) {
            Some(lapsed) => format!(
                " The last offer (event {}) lapsed: {}.",
                lapsed.seq, lapsed.why
            ),
            None => String::new(),
        };
        Err(Refusal::new(
            RefusalCode::NoPendingOffer,
            format!(
                "There is no open draw offer for {} to {verb} (9.1.2).{why}",
                by.name()
            ),
        ))
    }

    /// Whether the extra time given for the claim `claim_seq` is still standing.
    fn claim_penalty_standing(&self, claim_seq: u64) -> bool {
        self.claim_penalties.contains_key(&claim_seq)
    }
}

impl Fold for Offers {
    /// An offer (or a claim standing as one, 9.1.2.3) is made; it lapses when the opponent
    /// accepts it, declines it, touches a piece (a touch, a move, an illegal move whose piece
    /// is known), or the game ends (9.1.2.1); a request for an increment the arbiter agrees
    /// to was refused (III.4).
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        match event {
            Event::Recorded(recorded) => self.apply_recorded(ctx, recorded)?,
            Event::Service(ServiceEvent::PenaltyApplied {
                side,
                add_ms,
                cause_seq,
                ..
            }) => {
                if ctx.claim.is_some_and(|(_, kind)| {
                    matches!(kind, ClaimKind::Repetition | ClaimKind::FiftyMoves)
                }) {
                    self.claim_penalised(*cause_seq, *side, *add_ms);
                }
            }
            Event::Service(ServiceEvent::GameEnded { .. }) => self.game_concluded(),
            Event::Service(_) => {}
        }
        Ok(())
    }
}

impl Offers {
    /// [`Fold::apply`] for the recorded events.
    fn apply_recorded(
        &mut self,
        ctx: &FoldContext<'_>,
        event: &RecordedEvent,
    ) -> Result<(), CorruptLog> {
        match event {
            RecordedEvent::Move { by, .. } => self.rejected_by_touch(*by, "moved"),
            RecordedEvent::IllegalMove { by, .. } => match &ctx.prepared {
                Prepared::IllegalMove(IllegalMoveEffect::Touched(pieces)) if !pieces.is_empty() => {
                    self.rejected_by_touch(*by, "touched a piece to make an illegal move")
                }
                Prepared::IllegalMove(IllegalMoveEffect::Stands(_)) => {
                    self.rejected_by_touch(*by, "moved")
                }
                Prepared::IllegalMove(_) => {}
                _ => return Err(ctx.mismatch("the effect of the illegal move")),
            },
            RecordedEvent::Touch { by, .. } => self.rejected_by_touch(
                *by,
                "touched a piece with the intention of moving or capturing it",
            ),
            RecordedEvent::DrawOffer { by } => self.offered(offer_mark(ctx, *by, None)),
            RecordedEvent::DrawAccept { by } => self.accepted(*by),
            RecordedEvent::DrawDecline { by } => self.declined(*by),
            // 9.1.2.3 (and III.4 for a request): the claim is a draw offer.
            RecordedEvent::Claim { by, kind, .. } if *kind != ClaimKind::QuickplayFinish => {
                self.offered(offer_mark(ctx, *by, Some(*kind)))
            }
            RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::IncrementGranted,
                ..
            } => {
                if let Some(request) = &ctx.open_claim {
                    self.lapse(
                        request.by,
                        "the arbiter agreed to the request for an increment (III.4), so the offer it constituted was refused".into(),
                    );
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The `(=)` mark of an offer by `by` (9.1.2.2), or of a claim standing as one.
fn offer_mark(ctx: &FoldContext<'_>, by: Side, from_claim: Option<ClaimKind>) -> DrawOfferMark {
    DrawOfferMark {
        seq: ctx.seq,
        by,
        after_ply: ctx.ply,
        // 9.1.2.1: an offer is made after moving; the player having the move offers early.
        irregular: from_claim.is_none() && ctx.side_to_move() == by,
        from_claim,
        forbidden: agreement_forbidden(&ctx.settings.regulations, ctx.completed_moves),
    }
}

/// What the acceptance of `offer` ends the game by: the rules to cite and the words.
fn agreement_grounds(offer: &DrawOfferMark, penalty_void: bool) -> (Vec<Rule>, &'static str) {
    match offer.from_claim {
        Some(ClaimKind::IncrementRequest) => (
            vec![Rule::QuickplayIncrement, Rule::Agreement],
            "the request for an increment, which constitutes a draw offer",
        ),
        Some(_) if penalty_void => (
            vec![Rule::ClaimIsOffer, Rule::Agreement],
            "the claim, which counts as a draw offer (the extra time given because the claim was incorrect is void)",
        ),
        Some(_) => (
            vec![Rule::ClaimIsOffer, Rule::Agreement],
            "the claim, which counts as a draw offer",
        ),
        None => (vec![Rule::DrawOffer, Rule::Agreement], "the draw offer"),
    }
}

/// Why agreement is not possible under the regulations right now, if it is not (9.1.1).
fn regulations_refuse(
    regulations: &Regulations,
    completed_moves: u32,
    offer: &DrawOfferMark,
) -> Option<Refusal> {
    match regulations.draw_offers {
        DrawOfferPolicy::Forbidden => {
            return Some(Refusal::new(
                RefusalCode::DrawAgreementForbidden,
                "The event's regulations forbid draws by agreement (9.1.1); the game continues. Record an arbiter_decision if the arbiter penalises the agreement.",
            ));
        }
        DrawOfferPolicy::ArbiterConsent => {
            return Some(Refusal::new(
                RefusalCode::ArbiterConsentRequired,
                "A draw by agreement needs the arbiter's consent under the event's regulations (9.1.1); record an arbiter_decision with decision game_ended and result 1/2-1/2 if the arbiter consents.",
            ));
        }
        DrawOfferPolicy::Allowed => {}
    }
    if let Some(earliest) = regulations.earliest_agreement_move
        && (completed_moves < earliest || offer.forbidden)
    {
        let when = if offer.forbidden && completed_moves >= earliest {
            format!(
                "the offer (event {}) was made before both players had completed {earliest} moves, when agreement was forbidden; a new offer is needed",
                offer.seq
            )
        } else {
            format!("both players have completed {completed_moves} moves")
        };
        return Some(Refusal::new(
            RefusalCode::TooEarlyForAgreement,
            format!(
                "The regulations allow a draw by agreement only once both players have completed {earliest} moves; {when} (9.1.1). The game continues."
            ),
        ));
    }
    None
}
