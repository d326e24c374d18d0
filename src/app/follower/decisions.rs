//! The arbiter's decisions about what a board feed said (`POST /v1/follow-attentions/{id}/decision`),
//! and the corrections of a stored line that a decision (or the board feed itself) appends.

use super::feed_events::{FEED_EVENT_NAMESPACE, move_event, side_of_ply};
use super::*;
use crate::interchange::pgn_import;

/// What a decision recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Decided {
    /// The attention as settled.
    pub attention: FollowAttention,
    /// Events appended to the game's log by the decision (corrections, the illegal move,
    /// the arbiter's decision), not counting the board's moves recorded after a correction.
    pub appended: usize,
    /// The board's moves recorded after an accepted correction.
    pub recorded_moves: usize,
}

impl Followers {
    /// Settles an open attention as the arbiter (`principal`) decides, recording what the
    /// choice records with the feed's moves and the engine's reason in its text.
    pub async fn decide(
        &self,
        attention_id: Uuid,
        choice: ArbiterChoice,
        principal: &Principal,
    ) -> Result<Decided, FollowError> {
        let open = self
            .store()
            .attention(attention_id)
            .await?
            .filter(|a| a.resolution.is_none())
            .ok_or_else(|| {
                FollowError::NotOpen(format!(
                    "The attention {attention_id} is not open: it was decided already, the \
                     feed stopped saying it, or it does not exist. Read the board's attentions \
                     again."
                ))
            })?;
        let (game, seq) = self.arbitration.state_at(open.game_id, None).await?;
        principal
            .may_record("arbiter_decision", &game.settings().event)
            .map_err(RecordError::from)?;
        let evidence = evidence_text(&open);
        let accepted = |keep: usize| {
            truncation(
                &game,
                seq,
                keep,
                &attention_id.to_string(),
                &format!(
                    "{}; accepted by the arbiter as a correction of the stored line. {evidence}",
                    taken_back_text(&game, keep)
                ),
            )
        };
        let (events, resolution) = match (&open.attention, choice) {
            (_, ArbiterChoice::Ignore) => (Vec::new(), AttentionResolution::Ignored),
            (Attention::TakenBack { keep_plies, .. }, ArbiterChoice::AcceptCorrection) => {
                (accepted(*keep_plies)?, AttentionResolution::Accepted)
            }
            (Attention::Diverges { ply, .. }, ArbiterChoice::AcceptCorrection) => (
                accepted(ply.saturating_sub(1))?,
                AttentionResolution::Accepted,
            ),
            (
                Attention::CorrectedByFeed {
                    keep_plies,
                    retracted,
                    ..
                },
                ArbiterChoice::UndoCorrection,
            ) => {
                let reason = format!(
                    "Undoing the takeback the board feed applied: what was recorded after \
                     half-move {keep_plies} since is retracted and the moves taken back are \
                     recorded again. {evidence}"
                );
                let mut events =
                    truncation(&game, seq, *keep_plies, &attention_id.to_string(), &reason)?;
                let start = game.position_at_ply(0).cloned().unwrap_or_default();
                for (index, restored) in retracted.iter().enumerate() {
                    let ply = keep_plies + 1 + index;
                    let mut event =
                        move_event(&start, open.follow_id, open.board, 0, ply, restored);
                    event.event_id = Uuid::new_v5(
                        &FEED_EVENT_NAMESPACE,
                        format!("{attention_id}/restore/{index}").as_bytes(),
                    );
                    events.push(event);
                }
                (events, AttentionResolution::Undone)
            }
            (Attention::IllegalMove { ply, san, .. }, ArbiterChoice::RecordIllegalMove) => (
                vec![derived(
                    attention_id,
                    "illegal_move",
                    RecordedEvent::IllegalMove {
                        by: game
                            .position_at_ply(0)
                            .map_or(Side::White, |start| side_of_ply(start, *ply)),
                        description: format!("{san}, as the board read it: {evidence}"),
                        completed: true,
                        attempted_move: None,
                        kind: None,
                    },
                )],
                AttentionResolution::IllegalMoveRecorded,
            ),
            (
                Attention::ProposedResult {
                    result,
                    termination,
                    ..
                },
                ArbiterChoice::RecordResult,
            ) => (
                vec![derived(
                    attention_id,
                    "result",
                    // A time forfeit or a resignation the feed states is recorded as that
                    // fact, as the PGN import records it (the engine rules on a flag under
                    // 6.9); any other result as the arbiter's decision.
                    pgn_import::tag_ending(termination.as_deref(), Some(*result)).unwrap_or(
                        RecordedEvent::ArbiterDecision {
                            subject_seq: None,
                            decision: ArbiterRuling::GameEnded,
                            reason: format!(
                                "The result {} confirmed by the arbiter. {evidence}",
                                result_text(*result)
                            ),
                            result: Some(*result),
                            penalty: None,
                            attempted_move: None,
                            fen: None,
                            increment_ms: None,
                            move_count: None,
                            // The board's result of a game played on it.
                            cause: Some(crate::game::event::EndCause::ReportedResult),
                        },
                    ),
                )],
                AttentionResolution::ResultRecorded,
            ),
            (attention, choice) => {
                return Err(FollowError::Choice(format!(
                    "`{}` does not fit this attention ({}); choose {}.",
                    choice_name(choice),
                    attention_kind(attention),
                    fitting_choices(attention)
                        .iter()
                        .map(|c| format!("`{}`", choice_name(*c)))
                        .collect::<Vec<_>>()
                        .join(" or ")
                )));
            }
        };
        // Settled first, so that the follower polling meanwhile neither raises it again nor
        // clears it; reopened when the log refuses what the decision records.
        let settled = self
            .store()
            .settle_attention(attention_id, resolution, &principal.recorder())
            .await?
            .ok_or_else(|| {
                FollowError::NotOpen(format!(
                    "The attention {attention_id} was settled by someone else meanwhile."
                ))
            })?;
        let appended = events.len();
        if !events.is_empty()
            && let Err(error) = self
                .arbitration
                .record_checked(open.game_id, seq, events, principal)
                .await
        {
            self.store().reopen_attention(attention_id).await?;
            return Err(error.into());
        }
        let recorded_moves = if resolution == AttentionResolution::Accepted {
            // The board's moves now extend the log; the follower records them at its next
            // poll if this fails (another writer came first, say).
            match self
                .sync_board(
                    open.follow_id,
                    open.board,
                    open.game_id,
                    BoardView {
                        feed: &open.feed_moves,
                        feed_result: open.feed_result.as_deref(),
                        feed_termination: None,
                        stood: true,
                        takebacks: TakebackPolicy::ByArbiter,
                    },
                )
                .await
            {
                Ok(sync) => sync.recorded,
                Err(error) => {
                    tracing::info!(%attention_id, %error, "the board's moves wait for the next poll");
                    0
                }
            }
        } else {
            0
        };
        Ok(Decided {
            attention: settled,
            appended,
            recorded_moves,
        })
    }
}

fn derived(attention_id: Uuid, what: &str, event: RecordedEvent) -> NewEvent {
    NewEvent {
        event_id: Uuid::new_v5(
            &FEED_EVENT_NAMESPACE,
            format!("{attention_id}/{what}").as_bytes(),
        ),
        event: Event::Recorded(event),
        occurred_at: None,
        clock: None,
    }
}

/// "The board feed shows 10 half-moves where the log had 12 (taken back: Bxc6 dxc6)".
pub(super) fn taken_back_text(game: &Game, keep: usize) -> String {
    let taken_back: Vec<&str> = game.moves().iter().skip(keep).map(String::as_str).collect();
    format!(
        "The board feed shows {keep} half-moves where the log had {} (taken back: {})",
        game.ply(),
        if taken_back.is_empty() {
            "no move".to_string()
        } else {
            taken_back.join(" ")
        }
    )
}

/// The corrections that retract the standing recorded events after ply `keep` (the latest
/// first, as a correction retracts the latest standing event), in one append, each with
/// `reason`; their event ids derive from `id_base`.
pub(super) fn truncation(
    game: &Game,
    seq: u64,
    keep: usize,
    id_base: &str,
    reason: &str,
) -> Result<Vec<NewEvent>, FollowError> {
    let mut game = game.clone();
    let mut seq = seq;
    let mut events = Vec::new();
    while game.ply() > keep {
        // The latest standing event the arbiter or the feed recorded: a correction stands
        // too but is never itself retracted (it retracted the event before it).
        let Some(latest) = game
            .standing_events()
            .filter(|(_, event)| {
                matches!(event, Event::Recorded(recorded)
                    if !matches!(recorded, RecordedEvent::Correction { .. }))
            })
            .map(|(seq, _)| seq)
            .last()
        else {
            break;
        };
        let correction = RecordedEvent::Correction {
            retracts_seq: latest,
            reason: reason.to_string(),
        };
        seq += 1;
        game.record(seq, &correction).map_err(|refusal| {
            FollowError::Choice(format!(
                "The stored line cannot be corrected to the board's: {}",
                refusal.message()
            ))
        })?;
        events.push(NewEvent {
            event_id: Uuid::new_v5(
                &FEED_EVENT_NAMESPACE,
                format!("{id_base}/correction/{}", events.len()).as_bytes(),
            ),
            event: Event::Recorded(correction),
            occurred_at: None,
            clock: None,
        });
    }
    Ok(events)
}

/// The notice of a takeback the board feed applied (keeping `keep` plies, retracting
/// `retracted`), taking in the notice of an earlier one still open (`earlier`): undoing the
/// result restores the line as it stood before both. The moves the later takeback retracted
/// up to the earlier one's ply were the earlier line's; those after it were the feed's own
/// since, which an undo does not restore.
pub(super) fn merged_notice(
    earlier: Option<&Attention>,
    keep: usize,
    retracted: Vec<FeedMove>,
) -> Attention {
    match earlier {
        Some(Attention::CorrectedByFeed {
            keep_plies: earlier_keep,
            retracted: earlier_retracted,
            ..
        }) => {
            let mut line: Vec<FeedMove> = retracted
                .into_iter()
                .take(earlier_keep.saturating_sub(keep))
                .collect();
            line.extend(earlier_retracted.iter().cloned());
            let keep = keep.min(*earlier_keep);
            Attention::CorrectedByFeed {
                keep_plies: keep,
                stored_plies: keep + line.len(),
                retracted: line,
            }
        }
        _ => Attention::CorrectedByFeed {
            keep_plies: keep,
            stored_plies: keep + retracted.len(),
            retracted,
        },
    }
}

/// The evidence kept in the log with the arbiter's decision: what the feed said, and why it
/// was not stored.
fn evidence_text(open: &FollowAttention) -> String {
    feed_evidence(
        open.board,
        &open.attention,
        &open.feed_moves,
        open.feed_result.as_deref(),
    )
}

/// What a board's feed said, in a sentence kept in the log.
pub(super) fn feed_evidence(
    board: u32,
    attention: &Attention,
    feed: &[FeedMove],
    feed_result: Option<&str>,
) -> String {
    let moves: Vec<&str> = feed.iter().map(|m| m.san.as_str()).collect();
    format!(
        "Board feed, board {board}: {}. The feed's moves: {}{}.",
        describe(attention),
        if moves.is_empty() {
            "none".to_string()
        } else {
            moves.join(" ")
        },
        feed_result
            .map(|r| format!("; its result: {r}"))
            .unwrap_or_default()
    )
}

/// The attention in a sentence, without its full stop (the page that shows it ends it; a
/// reason quoted from the engine loses its own, so that the page never shows two).
pub fn describe(attention: &Attention) -> String {
    match attention {
        Attention::IllegalMove { reason, .. } => reason.trim_end_matches('.').to_string(),
        Attention::TakenBack {
            keep_plies,
            stored_plies,
        } => format!(
            "the board shows {keep_plies} half-moves, the log {stored_plies}: moves were taken back on the board"
        ),
        Attention::Diverges { ply, stored, board } => format!(
            "at half-move {ply} the board shows {board} where the log has {stored} (the board was reset, or a move taken back and another played)"
        ),
        Attention::ProposedResult {
            result,
            signal,
            termination,
        } => format!(
            "the board proposes the result {} ({}{})",
            result_text(*result),
            match signal {
                ResultSignal::KingsInCentre => "both kings placed on the centre squares",
                ResultSignal::FeedResult => "the feed's result",
            },
            termination
                .as_deref()
                .map(|t| format!(", Termination `{t}`"))
                .unwrap_or_default()
        ),
        Attention::Refused { san, reason, .. } => {
            format!("the engine refuses {san}: {}", reason.trim_end_matches('.'))
        }
        Attention::CorrectedByFeed {
            keep_plies,
            stored_plies,
            retracted,
        } => format!(
            "the board took back {} (from {stored_plies} half-moves to {keep_plies}) and the \
             board feed retracted them, as nothing the arbiter entered stood on them; keep it \
             (`ignore`) or undo it",
            if retracted.is_empty() {
                "moves".to_string()
            } else {
                retracted
                    .iter()
                    .map(|m| m.san.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        ),
    }
}

/// The attention's kind, as the API names it.
pub fn attention_kind(attention: &Attention) -> &'static str {
    match attention {
        Attention::IllegalMove { .. } => "illegal_move",
        Attention::TakenBack { .. } => "taken_back",
        Attention::Diverges { .. } => "diverges",
        Attention::ProposedResult { .. } => "proposed_result",
        Attention::Refused { .. } => "refused",
        Attention::CorrectedByFeed { .. } => "corrected_by_feed",
    }
}

/// The choices that fit an attention.
pub fn fitting_choices(attention: &Attention) -> &'static [ArbiterChoice] {
    match attention {
        Attention::IllegalMove { .. } => &[ArbiterChoice::RecordIllegalMove, ArbiterChoice::Ignore],
        Attention::TakenBack { .. } | Attention::Diverges { .. } => {
            &[ArbiterChoice::AcceptCorrection, ArbiterChoice::Ignore]
        }
        Attention::ProposedResult { .. } => &[ArbiterChoice::RecordResult, ArbiterChoice::Ignore],
        Attention::Refused { .. } => &[ArbiterChoice::Ignore],
        Attention::CorrectedByFeed { .. } => {
            &[ArbiterChoice::Ignore, ArbiterChoice::UndoCorrection]
        }
    }
}

/// A choice as the API names it.
pub fn choice_name(choice: ArbiterChoice) -> &'static str {
    match choice {
        ArbiterChoice::AcceptCorrection => "accept_correction",
        ArbiterChoice::RecordIllegalMove => "record_illegal_move",
        ArbiterChoice::RecordResult => "record_result",
        ArbiterChoice::Ignore => "ignore",
        ArbiterChoice::UndoCorrection => "undo_correction",
    }
}

fn result_text(result: GameResult) -> &'static str {
    result.pgn()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(sans: &[&str]) -> Vec<FeedMove> {
        sans.iter()
            .map(|san| FeedMove {
                san: (*san).to_string(),
                seconds_left: None,
                seconds_used: None,
            })
            .collect()
    }

    fn notice(keep: usize, retracted: &[&str]) -> Attention {
        Attention::CorrectedByFeed {
            keep_plies: keep,
            stored_plies: keep + retracted.len(),
            retracted: moves(retracted),
        }
    }

    #[test]
    fn an_attention_quoting_the_engine_is_described_without_the_engines_full_stop() {
        let refused = Attention::Refused {
            ply: 7,
            san: "Ke2".into(),
            reason: "Ke2 is not legal here: the king would be in check.".into(),
        };
        assert_eq!(
            describe(&refused),
            "the engine refuses Ke2: Ke2 is not legal here: the king would be in check"
        );
    }

    #[test]
    fn a_later_takeback_reaching_before_the_earlier_one_restores_the_whole_earlier_line() {
        // 12 plies; the feed took back d3 f4 (keeping 10) and recorded h3; then it took back
        // f5 h3 (keeping 9). One undo restores f5 d3 f4 after ply 9.
        let earlier = notice(10, &["d3", "f4"]);
        assert_eq!(
            merged_notice(Some(&earlier), 9, moves(&["f5", "h3"])),
            notice(9, &["f5", "d3", "f4"])
        );
    }

    #[test]
    fn a_later_takeback_of_the_feeds_own_moves_keeps_the_earlier_undo() {
        // The second takeback retracts only h3 Nf6, which the feed recorded after the first.
        let earlier = notice(10, &["d3", "f4"]);
        assert_eq!(
            merged_notice(Some(&earlier), 10, moves(&["h3", "Nf6"])),
            earlier
        );
        assert_eq!(merged_notice(Some(&earlier), 11, moves(&["Nf6"])), earlier);
    }

    #[test]
    fn without_an_earlier_notice_the_takeback_is_its_own() {
        let illegal = Attention::IllegalMove {
            ply: 3,
            san: "Qh8".into(),
            reason: "not legal".into(),
        };
        assert_eq!(
            merged_notice(Some(&illegal), 4, moves(&["Nf3"])),
            notice(4, &["Nf3"])
        );
        assert_eq!(merged_notice(None, 4, moves(&["Nf3"])), notice(4, &["Nf3"]));
    }
}
