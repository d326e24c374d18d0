//! One board's sync (lichess's `RelaySync`): what a board's frame adds to its stored line.
//! The new legal moves are recorded with their readings through [`Arbitration`]; what only
//! the arbiter may decide opens an attention; a takeback that nothing the arbiter entered
//! stands on is applied by the board feed (the round's `takebacks` setting) and shown as a
//! notice beside any attention.

use super::decisions::{feed_evidence, merged_notice, taken_back_text, truncation};
use super::feed_events::{move_event, with_admissible_readings};
use super::*;

/// What one board's poll did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardSync {
    /// Moves recorded.
    pub recorded: usize,
    /// Whether the board needs the arbiter now.
    pub needs_arbiter: bool,
}

/// What a board's feed shows at a poll, for [`Followers::sync_board`].
#[derive(Clone, Copy, Debug)]
pub struct BoardView<'a> {
    /// The board's moves, each with the reading that belongs to its ply.
    pub feed: &'a [FeedMove],
    /// The feed's result field.
    pub feed_result: Option<&'a str>,
    /// How the feed says the game ended (a round PGN's `Termination`), given with its result.
    pub feed_termination: Option<&'a str>,
    /// Whether the frame stood (the previous poll showed the same line): when not, only its
    /// moves with a successor are recorded and nothing else is acted on.
    pub stood: bool,
    /// Who applies a takeback that nothing the arbiter entered stands on.
    pub takebacks: TakebackPolicy,
}

impl Followers {
    /// Reads a board's feed against its stored line: records the new legal moves with their
    /// clock readings, and opens (or clears) the board's attention. A frame that has not
    /// `stood` (the previous poll showed another line) settles only its moves that have a
    /// successor: those are recorded, and nothing else is acted on until it stands.
    pub async fn sync_board(
        &self,
        follow_id: Uuid,
        board: u32,
        game_id: Uuid,
        view: BoardView<'_>,
    ) -> Result<BoardSync, FollowError> {
        let BoardView {
            feed,
            feed_result,
            feed_termination,
            stood,
            takebacks,
        } = view;
        let (game, seq) = self.arbitration.state_at(game_id, None).await?;
        let Some(start) = game.position_at_ply(0).cloned() else {
            return Ok(BoardSync::default());
        };
        let stored = game.moves().to_vec();
        let mut reading = dgt::read_against(&start, &stored, feed, game.result(), feed_result);
        if let Some(Attention::ProposedResult {
            signal: ResultSignal::FeedResult,
            termination,
            ..
        }) = &mut reading.attention
        {
            *termination = feed_termination.map(str::to_owned);
        }
        if !stood {
            // Only the plies with a successor have settled (a last move may yet be read
            // differently, a takeback put back): record those, decide nothing else yet.
            let settled = feed.len().saturating_sub(1).saturating_sub(stored.len());
            reading.to_record.truncate(settled);
            reading.attention = None;
        }
        let mut recorded = 0;
        let mut attention = reading.attention;
        if !reading.to_record.is_empty() {
            let first_ply = stored.len() + 1;
            let (checked, set_aside) =
                with_admissible_readings(&game, &start, first_ply, &reading.to_record);
            if set_aside > 0 {
                tracing::info!(
                    %game_id,
                    board,
                    set_aside,
                    "board feed readings that would make a clock go up set aside"
                );
            }
            reading.to_record = checked;
            let recording = self
                .record_moves(
                    &start,
                    follow_id,
                    board,
                    game_id,
                    seq,
                    first_ply,
                    &reading.to_record,
                )
                .await;
            let (done, refused) = match recording {
                // Someone recorded in the game meanwhile (an arbiter's decision): the board is
                // read again against the new log at the next poll.
                Err(FollowError::Record(RecordError::Store(StoreError::StaleSeq { .. }))) => {
                    return Ok(BoardSync::default());
                }
                other => other?,
            };
            recorded = done;
            if let Some(refused) = refused {
                attention = Some(refused);
            }
        }
        // A result the log already holds (or holds now, after the moves just recorded: a
        // mate ends the game by itself) needs nobody.
        let mut stored_result = game.result();
        if recorded > 0 && matches!(attention, Some(Attention::ProposedResult { .. })) {
            stored_result = self.arbitration.state_at(game_id, None).await?.0.result();
        }
        let attention = attention.filter(|attention| match attention {
            Attention::ProposedResult { result, .. } => stored_result != Some(*result),
            _ => true,
        });
        if !stood {
            return Ok(BoardSync {
                recorded,
                needs_arbiter: false,
            });
        }
        // A takeback (or another line from a ply on) that stood, over moves nothing the
        // arbiter entered stands on: applied by the feed itself when the round says so.
        let taken_back_to = match &attention {
            Some(Attention::TakenBack { keep_plies, .. }) => Some(*keep_plies),
            Some(Attention::Diverges { ply, .. }) => Some(ply.saturating_sub(1)),
            _ => None,
        };
        if let Some(keep) = taken_back_to
            && takebacks == TakebackPolicy::ByFeed
            && recorded == 0
            && let Some(retracted) = self.feed_owns_after(&game, game_id, keep).await?
        {
            let attention = attention.unwrap_or(Attention::TakenBack {
                keep_plies: keep,
                stored_plies: stored.len(),
            });
            let evidence = feed_evidence(board, &attention, feed, feed_result);
            let reason = format!(
                "{}; applied by the board feed, as nothing the arbiter entered stands on the \
                 moves taken back (the arbiter may undo it). {evidence}",
                taken_back_text(&game, keep)
            );
            let events = truncation(
                &game,
                seq,
                keep,
                &format!("{follow_id}/board/{board}/after/{seq}/keep/{keep}"),
                &reason,
            )?;
            match self
                .arbitration
                .record(game_id, seq, events, FEED_RECORDER)
                .await
            {
                Ok(_) => {}
                // Someone recorded meanwhile: read again at the next poll.
                Err(RecordError::Store(StoreError::StaleSeq { .. })) => {
                    return Ok(BoardSync::default());
                }
                Err(other) => return Err(other.into()),
            }
            // A notice still open for an earlier takeback takes this one in, so that one undo
            // restores the line as it stood before both.
            let earlier = self.store().game_notice(game_id).await?;
            let notice = merged_notice(
                earlier.as_ref().map(|open| &open.attention),
                keep,
                retracted,
            );
            self.store()
                .open_attention(follow_id, game_id, board, &notice, feed, feed_result)
                .await?;
            return Ok(BoardSync {
                recorded: 0,
                needs_arbiter: false,
            });
        }
        let needs_arbiter = match &attention {
            Some(attention) => self
                .store()
                .open_attention(follow_id, game_id, board, attention, feed, feed_result)
                .await?
                .is_some(),
            None => {
                self.store().clear_attention(game_id).await?;
                false
            }
        };
        Ok(BoardSync {
            recorded,
            needs_arbiter,
        })
    }

    /// The moves after ply `keep` with their stored readings, when nothing but the board
    /// feed's own moves (and its corrections) stands after that ply: no ruling, claim, offer,
    /// result or entry of the arbiter's. `None` when something does (the takeback waits for
    /// the arbiter).
    async fn feed_owns_after(
        &self,
        game: &Game,
        game_id: Uuid,
        keep: usize,
    ) -> Result<Option<Vec<FeedMove>>, FollowError> {
        if game.is_over() {
            return Ok(None);
        }
        let keep_seq = match keep {
            0 => 0,
            _ => match game.move_seqs().get(keep - 1) {
                Some(seq) => *seq,
                None => return Ok(None),
            },
        };
        let envelopes = self
            .store()
            .read_events(game_id, keep_seq, None, None)
            .await?;
        let recorders: HashMap<u64, &str> = envelopes
            .iter()
            .map(|e| (e.seq, e.recorded_by.as_str()))
            .collect();
        let mut retracted = Vec::new();
        for (seq, event, reading) in game.standing_events_with_readings() {
            if seq <= keep_seq || matches!(event, Event::Service(ServiceEvent::GameCreated(_))) {
                continue;
            }
            if recorders.get(&seq) != Some(&FEED_RECORDER) {
                return Ok(None);
            }
            match event {
                Event::Recorded(RecordedEvent::Move { by, san }) => retracted.push(FeedMove {
                    san: san.clone(),
                    seconds_left: reading
                        .and_then(|r| match by {
                            Side::White => r.white_ms,
                            Side::Black => r.black_ms,
                        })
                        .map(|ms| ms / 1000),
                    seconds_used: None,
                }),
                Event::Recorded(RecordedEvent::Correction { .. }) => {}
                _ => return Ok(None),
            }
        }
        Ok(Some(retracted))
    }

    /// Records `moves` (plies `first_ply`, ...) after `seq` in one append; when the engine
    /// refuses one, the moves before it are recorded and the refusal returned as an attention.
    #[allow(clippy::too_many_arguments)]
    async fn record_moves(
        &self,
        start: &shakmaty::Chess,
        follow_id: Uuid,
        board: u32,
        game_id: Uuid,
        seq: u64,
        first_ply: usize,
        moves: &[FeedMove],
    ) -> Result<(usize, Option<Attention>), FollowError> {
        // The events of the first moves of `moves`, each at its own seq and ply.
        let events_of = |moves: &[FeedMove]| -> Vec<NewEvent> {
            moves
                .iter()
                .enumerate()
                .map(|(index, feed_move)| {
                    move_event(
                        start,
                        follow_id,
                        board,
                        seq + index as u64,
                        first_ply + index,
                        feed_move,
                    )
                })
                .collect()
        };
        match self
            .arbitration
            .record(game_id, seq, events_of(moves), FEED_RECORDER)
            .await
        {
            Ok(_) => Ok((moves.len(), None)),
            Err(RecordError::Refused { index, refusal, .. }) => {
                let refused = Attention::Refused {
                    ply: first_ply + index,
                    san: moves.get(index).map(|m| m.san.clone()).unwrap_or_default(),
                    reason: refusal.message().to_string(),
                };
                if index == 0 {
                    return Ok((0, Some(refused)));
                }
                // The moves before the refused one are recorded on their own.
                match self
                    .arbitration
                    .record(game_id, seq, events_of(&moves[..index]), FEED_RECORDER)
                    .await
                {
                    Ok(_) => Ok((index, Some(refused))),
                    Err(RecordError::Refused { .. }) => Ok((0, Some(refused))),
                    Err(other) => Err(other.into()),
                }
            }
            Err(other) => Err(other.into()),
        }
    }
}
