//! Following one game: its stream from a snapshot (or a resumed `seq`) onwards.

use super::followed::Followed;
use super::*;

/// What a game stream keeps between reads.
pub(super) struct GameFollower {
    streams: Streams,
    game_id: Uuid,
    audience: Audience,
    followed: Option<Followed>,
}

impl GameFollower {
    pub(super) fn new(streams: Streams, game_id: Uuid, audience: Audience) -> Self {
        GameFollower {
            streams,
            game_id,
            audience,
            followed: None,
        }
    }

    pub(super) fn game_over(&self) -> bool {
        self.followed.as_ref().is_some_and(|f| f.game.is_over())
    }

    /// Folds silently up to `seq` (the client's `Last-Event-ID`). False when the game's log
    /// (as far as the audience may see it) does not reach it: the stream then starts anew
    /// with a snapshot.
    pub(super) async fn resume_at(&mut self, seq: u64) -> Result<bool, StreamError> {
        let events = self
            .streams
            .reads()
            .await
            .read_events(self.game_id, 0, Some(seq), None)
            .await?;
        let cutoff = self.streams.cutoff(self.audience);
        let reaches = events.last().is_some_and(|last| {
            last.seq == seq && cutoff.is_none_or(|cutoff| last.recorded_at <= cutoff)
        });
        if events.is_empty() {
            return Err(StoreError::GameNotFound(self.game_id).into());
        }
        if !reaches {
            return Ok(false);
        }
        for envelope in &events {
            self.fold_silently(envelope)?;
        }
        Ok(true)
    }

    pub(super) fn fold_silently(&mut self, envelope: &EventEnvelope) -> Result<(), StreamError> {
        match &mut self.followed {
            None => self.followed = Some(Followed::new(self.game_id, envelope, self.audience)?),
            Some(followed) => {
                followed.fold(envelope, None)?;
            }
        }
        Ok(())
    }

    /// Folds what the audience may see now and queues the snapshot of it.
    pub(super) async fn start_with_snapshot(
        &mut self,
        out: &mut Vec<StreamMessage>,
    ) -> Result<(), StreamError> {
        self.followed = None;
        let cutoff = self.streams.cutoff(self.audience);
        let mut after = 0;
        loop {
            let events = self
                .streams
                .reads()
                .await
                .read_events(self.game_id, after, None, Some(PAGE))
                .await?;
            let full_page = events.len() as u64 == PAGE;
            for envelope in &events {
                if cutoff.is_some_and(|cutoff| envelope.recorded_at > cutoff) {
                    break;
                }
                self.fold_silently(envelope)?;
                after = envelope.seq;
            }
            if !full_page || after != events.last().map_or(after, |e| e.seq) {
                break;
            }
        }
        match &self.followed {
            Some(followed) => {
                out.push(followed.snapshot_message(self.game_id, followed.seq.to_string()));
                Ok(())
            }
            // Not even the game's creation is old enough for the public: the game is not on
            // air yet. Fold nothing; the snapshot comes when it is.
            None if cutoff.is_some()
                && self
                    .streams
                    .reads()
                    .await
                    .last_seq(self.game_id)
                    .await?
                    .is_some() =>
            {
                Ok(())
            }
            None => Err(StoreError::GameNotFound(self.game_id).into()),
        }
    }

    /// Reads and folds what is new; queues what the audience sees. Returns when the next
    /// held-back event becomes visible (public audience), if one waits.
    pub(super) async fn read_new(
        &mut self,
        out: &mut Vec<StreamMessage>,
    ) -> Result<Option<tokio::time::Instant>, StreamError> {
        loop {
            let after = self.followed.as_ref().map_or(0, |f| f.seq);
            let events = self
                .streams
                .reads()
                .await
                .read_events(self.game_id, after, None, Some(PAGE))
                .await?;
            let cutoff = self.streams.cutoff(self.audience);
            let full_page = events.len() as u64 == PAGE;
            for envelope in &events {
                if let Some(cutoff) = cutoff
                    && envelope.recorded_at > cutoff
                {
                    return Ok(Some(self.streams.release_time(envelope.recorded_at)));
                }
                match &mut self.followed {
                    None => {
                        let followed = Followed::new(self.game_id, envelope, self.audience)?;
                        // The game just went on air for the public: start with its snapshot.
                        out.push(followed.snapshot_message(self.game_id, followed.seq.to_string()));
                        self.followed = Some(followed);
                    }
                    Some(followed) => {
                        if let Some(message) = followed.fold(envelope, None)? {
                            out.push(message);
                        }
                    }
                }
            }
            if !full_page {
                return Ok(None);
            }
        }
    }

    /// Sends, waits for wake-ups (or the next release), reads again; ends after the game has
    /// ended and what ended it was sent, or when the client has gone.
    pub(super) async fn run(
        mut self,
        first: Vec<StreamMessage>,
        mut next_release: Option<tokio::time::Instant>,
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
            if self.game_over() {
                return;
            }
            let release = async {
                match next_release {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = wakeup.changed() => {}
                _ = release => {}
                _ = sender.closed() => return,
                _ = self.streams.closed() => return,
            }
            match self.read_new(&mut pending).await {
                Ok(release) => next_release = release,
                Err(error) => {
                    tracing::warn!(game_id = %self.game_id, error = %error, "game stream stopped: reading the log failed");
                    for message in pending.drain(..) {
                        if sender.send(message).await.is_err() {
                            return;
                        }
                    }
                    return;
                }
            }
        }
    }
}
