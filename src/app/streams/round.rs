//! Following a round: its part of the global feed behind the transaction-id fence, one
//! folded game per board.

use super::followed::{Followed, to_json};
use super::*;

/// What a round stream keeps between reads.
pub(super) struct RoundFollower {
    pub(super) streams: Streams,
    pub(super) event: String,
    pub(super) round: String,
    pub(super) audience: Audience,
    pub(super) games: HashMap<Uuid, Followed>,
    pub(super) cursor: FeedCursor,
}

/// What to do after reading a round's feed.
pub(super) enum RoundRead {
    /// Everything visible was read.
    Done,
    /// An event waits for the broadcast delay: read again at this instant.
    Delayed(tokio::time::Instant),
    /// Committed events wait behind the fence (an older transaction is still open): read
    /// again shortly.
    Held,
}

impl RoundRead {
    pub(super) fn retry_at(&self) -> Option<tokio::time::Instant> {
        match self {
            RoundRead::Done => None,
            RoundRead::Delayed(at) => Some(*at),
            RoundRead::Held => Some(tokio::time::Instant::now() + FENCE_RETRY),
        }
    }
}

impl RoundFollower {
    /// Folds the round from its first event, silently, up to `resume` (the client's
    /// `Last-Event-ID`) or, without one, up to what is visible now, waiting a little for
    /// transactions that hold the fence so that the snapshots are current. Returns when to
    /// read again, and whether the stream resumes at the client's cursor (no snapshots).
    pub(super) async fn catch_up(
        &mut self,
        resume: Option<&FeedCursor>,
    ) -> Result<(Option<tokio::time::Instant>, bool), StreamError> {
        let deadline = tokio::time::Instant::now() + FENCE_PATIENCE;
        let read = loop {
            let read = self.read(None, resume).await?;
            if matches!(read, RoundRead::Held) && tokio::time::Instant::now() < deadline {
                tokio::time::sleep(FENCE_RETRY).await;
                continue;
            }
            break read;
        };
        Ok((read.retry_at(), resume.is_some_and(|r| *r == self.cursor)))
    }

    /// Reads the round's feed after the cursor, folding every event (up to `stop_after`,
    /// when given), and queues into `out` what the audience sees.
    pub(super) async fn read(
        &mut self,
        mut out: Option<&mut Vec<StreamMessage>>,
        stop_after: Option<&FeedCursor>,
    ) -> Result<RoundRead, StreamError> {
        loop {
            self.streams
                .read_counts
                .round_feed
                .fetch_add(1, Ordering::Relaxed);
            let page = self
                .streams
                .reads()
                .await
                .round_feed(&self.event, &self.round, &self.cursor, PAGE)
                .await?;
            let cutoff = self.streams.cutoff(self.audience);
            let full_page = page.items.len() as u64 == PAGE;
            for item in &page.items {
                let envelope = &item.envelope;
                let cursor = FeedCursor::parse(&item.cursor).ok_or_else(|| {
                    StoreError::UnknownStoredValue {
                        what: "feed cursor",
                        value: item.cursor.clone(),
                    }
                })?;
                if let Some(stop) = stop_after
                    && (cursor.tx_id, cursor.position) > (stop.tx_id, stop.position)
                {
                    return Ok(RoundRead::Done);
                }
                if let Some(cutoff) = cutoff
                    && envelope.recorded_at > cutoff
                {
                    return Ok(RoundRead::Delayed(
                        self.streams.release_time(envelope.recorded_at),
                    ));
                }
                self.fill_gap(envelope, &cursor, out.as_deref_mut()).await?;
                let message = self.fold(envelope, &cursor)?;
                self.cursor = cursor;
                if let (Some(out), Some(message)) = (out.as_deref_mut(), message) {
                    out.push(message);
                }
            }
            if page.held_back && !full_page {
                return Ok(RoundRead::Held);
            }
            if !full_page {
                return Ok(RoundRead::Done);
            }
        }
    }

    /// A game's `seq`s are contiguous and commit in order, so the feed gives them in order;
    /// should a writer ever commit them otherwise, the missing ones are read from the game's
    /// log and folded (and sent) first, and skipped when the feed reaches them.
    pub(super) async fn fill_gap(
        &mut self,
        envelope: &EventEnvelope,
        cursor: &FeedCursor,
        mut out: Option<&mut Vec<StreamMessage>>,
    ) -> Result<(), StreamError> {
        let Some(followed) = self.games.get(&envelope.game_id) else {
            return Ok(());
        };
        if envelope.seq <= followed.seq + 1 {
            return Ok(());
        }
        let missing = self
            .streams
            .reads()
            .await
            .read_events(envelope.game_id, followed.seq, Some(envelope.seq - 1), None)
            .await?;
        for earlier in &missing {
            if let Some(message) = self.fold(earlier, cursor)?
                && let Some(out) = out.as_deref_mut()
            {
                out.push(message);
            }
        }
        Ok(())
    }

    /// Folds one event of the round; the message for it, if the audience sees it.
    pub(super) fn fold(
        &mut self,
        envelope: &EventEnvelope,
        cursor: &FeedCursor,
    ) -> Result<Option<StreamMessage>, StreamError> {
        let game_id = envelope.game_id;
        match self.games.get_mut(&game_id) {
            Some(followed) => {
                if envelope.seq <= followed.seq {
                    return Ok(None);
                }
                followed.fold(envelope, Some(cursor))
            }
            None => {
                let followed = Followed::new(game_id, envelope, self.audience)?;
                let shown = followed
                    .disclosure
                    .shows(envelope.seq, followed.game.is_over());
                self.games.insert(game_id, followed);
                let item = StreamItem {
                    envelope: envelope.clone(),
                    position: None,
                    returns_to: None,
                    cursor: Some(cursor.to_string()),
                };
                Ok(shown.then(|| StreamMessage {
                    id: cursor.to_string(),
                    event: envelope.event.type_name().to_string(),
                    data: to_json(&item),
                }))
            }
        }
    }

    /// Queues a snapshot of every game folded so far (by board), with the cursor as id.
    pub(super) fn snapshots(&self, out: &mut Vec<StreamMessage>) {
        let mut games: Vec<(&Uuid, &Followed)> = self.games.iter().collect();
        games.sort_by_key(|(id, followed)| {
            (followed.game.settings().board.unwrap_or(u32::MAX), **id)
        });
        for (game_id, followed) in games {
            out.push(followed.snapshot_message(*game_id, self.cursor.to_string()));
        }
    }

    pub(super) async fn read_new(
        &mut self,
        out: &mut Vec<StreamMessage>,
    ) -> Result<Option<tokio::time::Instant>, StreamError> {
        Ok(self.read(Some(out), None).await?.retry_at())
    }

    pub(super) async fn run(
        mut self,
        first: Vec<StreamMessage>,
        mut retry_at: Option<tokio::time::Instant>,
        mut wakeup: Wakeup,
        sender: mpsc::Sender<StreamMessage>,
    ) {
        let mut pending = first;
        loop {
            for message in pending.drain(..) {
                if sender.send(message).await.is_err() {
                    return;
                }
            }
            let retry = async {
                match retry_at {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = wakeup.changed() => {}
                _ = retry => {}
                _ = sender.closed() => return,
                _ = self.streams.closed() => return,
            }
            match self.read_new(&mut pending).await {
                Ok(at) => retry_at = at,
                Err(error) => {
                    tracing::warn!(event = %self.event, round = %self.round, error = %error, "round stream stopped: reading the feed failed");
                    return;
                }
            }
        }
    }
}
