//! Following games live: the application service behind the game and round streams and the
//! broadcast PGN. It has no SQL and no chess logic of its own: it reads the log through the
//! store, folds it with the engine, and asks [`crate::interchange::broadcast`] what each
//! audience sees.
//!
//! A subscriber takes its wake-up signal, waits until the instance's one listener listens,
//! then reads the log: anything committed later wakes it (migration `0005` notifies in the
//! append's transaction), and a wake-up only makes it read again from where it stopped. A game
//! stream reads `seq > last` (contiguous by construction); a round stream reads the round's
//! part of the feed behind the transaction-id fence, so an event that commits late is never
//! skipped. Either way an event is sent exactly once, in order, also across a reconnection
//! with `Last-Event-ID`.
//!
//! The public audience sees only events older than the broadcast delay, and of those only
//! what [`crate::interchange::broadcast::Disclosure`] allows: a stream judges each event as
//! the game stands right after it (so a claim made during the game is never streamed to the
//! public; it appears in the broadcast PGN once the game has ended).
//!
//! A round is read once per wake-up whatever the number of its viewers: one `source` per
//! round and audience reads and encodes, and every subscriber of the round shares what it
//! sends (issue 40; see `source`).
//!
//! By what is followed: this module holds the service ([`Streams`]: subscriptions, the
//! delay, the broadcast PGN and its cache); `game` follows one game, `round` a round's part
//! of the feed, `source` shares a round's reader among its subscribers, and `followed` is the
//! folded game both keep per board.

use crate::game::event::{Event, ServiceEvent};
use crate::game::{CorruptLog, Game};
use crate::interchange::broadcast::{
    Audience, Disclosure, GameSnapshot, MovePosition, RestoredPosition, fold_for_stream, snapshot,
};
use crate::interchange::pgn_export::export_broadcast_pgn;
use crate::store::{EventEnvelope, FeedCursor, Store, StoreError, Wakeup, Wakeups};
use chrono::{DateTime, Utc};
use futures_util::stream::BoxStream;
use lru::LruCache;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use utoipa::ToSchema;
use uuid::Uuid;

mod followed;
mod game;
mod round;
mod source;

use game::GameFollower;
use round::RoundFollower;
use source::{Frame, RoundKey, Sources, Start};

/// How long a subscriber waits for the listener before the request fails (503).
const LISTENER_WAIT: Duration = Duration::from_secs(5);

/// Events read from the log per query.
const PAGE: u64 = 500;

/// How soon a round stream reads again when committed events wait behind the fence (an older
/// transaction still open may abort, which notifies nobody).
const FENCE_RETRY: Duration = Duration::from_millis(250);

/// How long a new round subscriber waits for the fence before its snapshots.
const FENCE_PATIENCE: Duration = Duration::from_secs(3);

/// Messages buffered per subscriber before the reader waits for the client.
const BUFFERED: usize = 64;

/// Broadcast PGNs of single games kept in memory (one per game and audience).
const PGN_CACHE: usize = 4096;

/// The version of the broadcast PGN's form, part of its ETag.
const PGN_FORM: &str = "broadcast-pgn-1";

/// What can stop a stream or a broadcast.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The store failed, or there is no such game.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The stored log cannot be folded.
    #[error("the stored log of game {game_id} cannot be folded")]
    Corrupt {
        /// The game.
        game_id: Uuid,
        /// What is wrong.
        #[source]
        source: CorruptLog,
    },
    /// No game has this event and round.
    #[error("no game of round `{round}` of event `{event}` exists")]
    RoundNotFound {
        /// The event's name, as asked.
        event: String,
        /// The round, as asked.
        round: String,
    },
    /// The round's shared source could not serve the stream.
    #[error("the round's stream source failed: {0}")]
    Source(String),
}

/// The messages of one stream, in order, as the HTTP layer writes them; shared with the
/// other subscribers of the same round (each message is encoded once).
pub type Messages = BoxStream<'static, Arc<StreamMessage>>;

/// One message of a stream, as the HTTP layer writes it (`id:`, `event:`, `data:`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamMessage {
    /// The SSE `id`: the game's `seq`, or for a round the feed cursor `TXID-POSITION`.
    pub id: String,
    /// The SSE `event`: `snapshot` or the event's type.
    pub event: String,
    /// The SSE `data`: JSON.
    pub data: String,
}

/// The `data` of a stream message for a stored event: the envelope (as in
/// `GET /v1/games/{id}/events`) with, for a move, the position after it and, for a
/// correction, the position it returns to.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct StreamItem {
    /// The stored event.
    #[serde(flatten)]
    pub envelope: EventEnvelope,
    /// For a move: the position after it, the move in SAN and UCI, the ply and the clocks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<MovePosition>,
    /// For a correction: the position, moves and status it returns to (truncate, do not
    /// branch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returns_to: Option<RestoredPosition>,
    /// In a round stream: the feed cursor of the event (also its SSE `id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// How a game stream starts.
pub enum GameFollow {
    /// Messages follow; they end after `game_ended`.
    Live(Messages),
    /// The game has ended and nothing is new after the client's `Last-Event-ID`: answer
    /// `204 No Content`, which tells an `EventSource` to stop reconnecting.
    Finished,
}

impl std::fmt::Debug for GameFollow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameFollow::Live(_) => f.write_str("Live(..)"),
            GameFollow::Finished => f.write_str("Finished"),
        }
    }
}

/// The round's games as one PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundPgn {
    /// The client's copy is current.
    NotModified {
        /// The ETag.
        etag: String,
    },
    /// The PGN.
    Text {
        /// The ETag.
        etag: String,
        /// The games, one after another.
        text: String,
    },
}

/// Counts live subscribers for as long as it lives.
struct Subscribed(Arc<AtomicI64>);

impl Subscribed {
    fn new(counter: &Arc<AtomicI64>) -> Self {
        let now = counter.fetch_add(1, Ordering::Relaxed) + 1;
        crate::ops::telemetry::stream_subscribers(now);
        Subscribed(counter.clone())
    }
}

impl Drop for Subscribed {
    fn drop(&mut self) {
        let now = self.0.fetch_sub(1, Ordering::Relaxed) - 1;
        crate::ops::telemetry::stream_subscribers(now);
    }
}

type PgnCache = LruCache<(Uuid, Audience), (u64, Arc<str>)>;

/// Streams and broadcasts of one service instance. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Streams {
    store: Store,
    wakeups: Wakeups,
    delay: Duration,
    subscribers: Arc<AtomicI64>,
    pgn_cache: Arc<Mutex<PgnCache>>,
    closing: Arc<tokio::sync::watch::Sender<bool>>,
    sources: Arc<Sources>,
    read_counts: Arc<Reads>,
}

/// How often the log was read, by what (for tests and the operator: the point of the shared
/// sources and the PGN cache is that these do not grow with the audience).
#[derive(Debug, Default)]
struct Reads {
    round_feed: AtomicU64,
    game_logs: AtomicU64,
}

impl Streams {
    /// Streams over `store`, with no broadcast delay.
    pub fn new(store: Store) -> Self {
        Streams {
            wakeups: Wakeups::new(store.pool().clone()),
            store,
            delay: Duration::ZERO,
            subscribers: Arc::new(AtomicI64::new(0)),
            pgn_cache: Arc::new(Mutex::new(LruCache::new(
                NonZeroUsize::new(PGN_CACHE).unwrap_or(NonZeroUsize::MIN),
            ))),
            closing: Arc::new(tokio::sync::watch::Sender::new(false)),
            sources: Arc::new(Sources::default()),
            read_counts: Arc::new(Reads::default()),
        }
    }

    /// How many pages of rounds' feeds this instance has read (every round stream's source,
    /// and subscribers that catch up from an old cursor). One per wake-up of each round
    /// followed, however many subscribers follow it.
    pub fn round_feed_reads(&self) -> u64 {
        self.read_counts.round_feed.load(Ordering::Relaxed)
    }

    /// How many games' logs the broadcast PGN has read to rebuild a game's text (none for a
    /// `304`, nor for a game whose text is cached at its last `seq`).
    pub fn pgn_log_reads(&self) -> u64 {
        self.read_counts.game_logs.load(Ordering::Relaxed)
    }

    /// How many round sources run now (one per round and audience with a subscriber).
    pub fn round_sources(&self) -> usize {
        self.sources.running()
    }

    /// Ends every open stream of this instance (the service is stopping): each sends what it
    /// holds and closes, and a client reconnects with `Last-Event-ID` to another instance or
    /// after the restart, losing nothing. Streams opened afterwards close at once.
    pub fn close_all(&self) {
        self.closing.send_replace(true);
    }

    /// Resolves when [`Streams::close_all`] was called (at once if it was already).
    pub(super) async fn closed(&self) {
        let mut closing = self.closing.subscribe();
        let _ = closing.wait_for(|closed| *closed).await;
    }

    /// The same streams with a broadcast delay for the public audience.
    pub fn with_broadcast_delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// The public broadcast's delay.
    pub fn broadcast_delay(&self) -> Duration {
        self.delay
    }

    /// How many streams are open right now (the `arbiter_stream_subscribers` gauge).
    pub fn subscribers(&self) -> i64 {
        self.subscribers.load(Ordering::Relaxed)
    }

    /// The store to read what to send from. With a read replica configured: the replica once
    /// it has replayed everything the primary had written when asked (so an event whose
    /// notification woke the stream is there to read), else the primary. Without one: the
    /// primary, at no extra cost. Notifications always come from the primary, where the one
    /// `LISTEN` connection is (a standby cannot `LISTEN`).
    async fn reads(&self) -> Store {
        match self.store.lsn_for_reads().await {
            Ok(written) => {
                let handle = self.store.reader(written).await;
                crate::ops::telemetry::read_served(handle.served_by);
                handle.store
            }
            Err(error) => {
                tracing::warn!(error = %error, "cannot ask the primary how far it has written; the stream reads from the primary");
                self.store.clone()
            }
        }
    }

    /// The newest `recorded_at` the audience may see now (`None`: everything).
    fn cutoff(&self, audience: Audience) -> Option<DateTime<Utc>> {
        match audience {
            Audience::Full => None,
            Audience::Public => {
                let delay = chrono::Duration::from_std(self.delay).unwrap_or(chrono::Duration::MAX);
                Some(Utc::now() - delay)
            }
        }
    }

    /// When an event recorded at `recorded_at` becomes visible to the public.
    fn release_time(&self, recorded_at: DateTime<Utc>) -> tokio::time::Instant {
        let delay = chrono::Duration::from_std(self.delay).unwrap_or(chrono::Duration::MAX);
        let wait = (recorded_at + delay - Utc::now())
            .to_std()
            .unwrap_or(Duration::ZERO);
        tokio::time::Instant::now() + wait + Duration::from_millis(1)
    }

    /// Follows one game. Without `last_event_id`, a `snapshot` comes first; with it, the
    /// events after that `seq`. The receiver ends after `game_ended`.
    pub async fn follow_game(
        &self,
        game_id: Uuid,
        audience: Audience,
        last_event_id: Option<u64>,
    ) -> Result<GameFollow, StreamError> {
        let wakeup = self.wakeups.game(game_id);
        self.wakeups.ready(LISTENER_WAIT).await?;
        let mut follower = GameFollower::new(self.clone(), game_id, audience);
        let mut first = Vec::new();
        let resumed = match last_event_id {
            Some(seq) => follower.resume_at(seq).await?,
            None => false,
        };
        if !resumed {
            follower.start_with_snapshot(&mut first).await?;
        }
        let next_release = follower.read_new(&mut first).await?;
        if follower.game_over() && first.is_empty() {
            return Ok(GameFollow::Finished);
        }
        let (sender, receiver) = mpsc::channel(BUFFERED);
        let subscribed = Subscribed::new(&self.subscribers);
        tokio::spawn(async move {
            let _subscribed = subscribed;
            follower.run(first, next_release, wakeup, sender).await;
        });
        Ok(GameFollow::Live(received(receiver)))
    }

    /// Follows every game of a round. Without `last_event_id`, a `snapshot` per game comes
    /// first; with it (a feed cursor), the round's events after it. Stays open (it ends when
    /// the service stops, when the round's reader fails, or when the client falls more than a
    /// channel's worth behind: it then reconnects with `Last-Event-ID` and loses nothing).
    ///
    /// Every subscriber of a round and audience shares one reader, the round's source
    /// (`source`): it reads the log once per wake-up and sends every subscriber the same
    /// encoded messages.
    pub async fn follow_round(
        &self,
        event: &str,
        round: &str,
        audience: Audience,
        last_event_id: Option<FeedCursor>,
    ) -> Result<Messages, StreamError> {
        if !self.reads().await.round_exists(event, round).await? {
            return Err(StreamError::RoundNotFound {
                event: event.to_string(),
                round: round.to_string(),
            });
        }
        let key = RoundKey {
            event: event.to_string(),
            round: round.to_string(),
            audience,
        };
        let joined = self.sources.join(self, &key, last_event_id.clone()).await?;
        let backlog = match joined.start {
            Start::Snapshots | Start::Resumed => joined.backlog,
            Start::Behind => {
                // The client's cursor is older than the source keeps: read the log from it up
                // to the source's cursor, where the live messages begin.
                let mut follower = self.round_follower(&key);
                let mut first = Vec::new();
                let (_, caught_up) = follower.catch_up(last_event_id.as_ref()).await?;
                if !caught_up {
                    follower.snapshots(&mut first);
                }
                follower.read(Some(&mut first), Some(&joined.at)).await?;
                first.into_iter().map(Arc::new).collect()
            }
            Start::Ahead => {
                drop(joined);
                return self.follow_round_alone(&key, last_event_id).await;
            }
        };
        let subscribed = Subscribed::new(&self.subscribers);
        Ok(shared(backlog, joined.live, subscribed))
    }

    fn round_follower(&self, key: &RoundKey) -> RoundFollower {
        RoundFollower {
            streams: self.clone(),
            event: key.event.clone(),
            round: key.round.clone(),
            audience: key.audience,
            games: HashMap::new(),
            cursor: FeedCursor::START,
        }
    }

    /// A round stream with a reader of its own: for a client whose cursor is beyond what the
    /// round's source has read (it was served by an instance that had read further).
    async fn follow_round_alone(
        &self,
        key: &RoundKey,
        last_event_id: Option<FeedCursor>,
    ) -> Result<Messages, StreamError> {
        let wakeup = self.wakeups.any();
        self.wakeups.ready(LISTENER_WAIT).await?;
        let mut follower = self.round_follower(key);
        let mut first = Vec::new();
        let (mut retry_at, caught_up) = follower.catch_up(last_event_id.as_ref()).await?;
        if !caught_up {
            follower.snapshots(&mut first);
        }
        if retry_at.is_none() {
            retry_at = follower.read_new(&mut first).await?;
        }
        let (sender, receiver) = mpsc::channel(BUFFERED);
        let subscribed = Subscribed::new(&self.subscribers);
        tokio::spawn(async move {
            let _subscribed = subscribed;
            follower.run(first, retry_at, wakeup, sender).await;
        });
        Ok(received(receiver))
    }

    /// The round's games as one PGN for relays, with an ETag derived from the games' last
    /// `seq`s in view (computed without building the PGN). Each game's text is kept in memory
    /// for its last `seq`, so a move rebuilds only its own game.
    pub async fn round_pgn(
        &self,
        event: &str,
        round: &str,
        audience: Audience,
        if_none_match: Option<&str>,
    ) -> Result<RoundPgn, StreamError> {
        let heads = self
            .reads()
            .await
            .round_heads(event, round, self.cutoff(audience))
            .await?;
        if heads.is_empty() {
            return Err(StreamError::RoundNotFound {
                event: event.to_string(),
                round: round.to_string(),
            });
        }
        let mut hasher = Sha256::new();
        hasher.update(PGN_FORM);
        hasher.update(match audience {
            Audience::Full => "full",
            Audience::Public => "public",
        });
        for head in &heads {
            hasher.update(head.game_id.as_bytes());
            hasher.update(head.seq.unwrap_or(0).to_be_bytes());
        }
        let etag = format!("\"{}\"", &hex::encode(hasher.finalize())[..32]);
        if if_none_match.is_some_and(|header| etag_matches(header, &etag)) {
            return Ok(RoundPgn::NotModified { etag });
        }
        let mut text = String::new();
        for head in &heads {
            let Some(seq) = head.seq else {
                // Nothing of this game is old enough for the public yet.
                continue;
            };
            text.push_str(&self.game_pgn(head.game_id, seq, audience).await?);
        }
        Ok(RoundPgn::Text { etag, text })
    }

    /// One game's broadcast PGN as of `seq`, from the cache when it is current.
    async fn game_pgn(
        &self,
        game_id: Uuid,
        seq: u64,
        audience: Audience,
    ) -> Result<Arc<str>, StreamError> {
        if let Some((cached_seq, text)) = lock(&self.pgn_cache).get(&(game_id, audience))
            && *cached_seq == seq
        {
            return Ok(text.clone());
        }
        self.read_counts.game_logs.fetch_add(1, Ordering::Relaxed);
        let events = self
            .reads()
            .await
            .read_events(game_id, 0, Some(seq), None)
            .await?;
        let Some(first) = events.first() else {
            return Err(StoreError::GameNotFound(game_id).into());
        };
        let log = crate::app::arbitration::pgn_log(&events);
        let date = first.recorded_at.format("%Y.%m.%d").to_string();
        let text: Arc<str> = export_broadcast_pgn(&log, &date, audience)
            .map_err(|source| StreamError::Corrupt { game_id, source })?
            .into();
        lock(&self.pgn_cache).put((game_id, audience), (seq, text.clone()));
        Ok(text)
    }
}

/// The messages of a stream with a reader of its own.
fn received(receiver: mpsc::Receiver<StreamMessage>) -> Messages {
    Box::pin(futures_util::stream::unfold(
        receiver,
        |mut receiver| async move {
            let message = receiver.recv().await?;
            Some((Arc::new(message), receiver))
        },
    ))
}

/// The messages of a subscriber of a round's source: its backlog, then what the source sends
/// live. A subscriber that has fallen behind by more than the channel holds is closed rather
/// than skipped: its client reconnects with the `Last-Event-ID` of the last message it had,
/// and resumes exactly.
fn shared(
    backlog: Vec<Frame>,
    live: tokio::sync::broadcast::Receiver<Frame>,
    subscribed: Subscribed,
) -> Messages {
    use tokio::sync::broadcast::error::RecvError;
    Box::pin(futures_util::stream::unfold(
        (backlog.into_iter(), live, subscribed),
        |(mut backlog, mut live, subscribed)| async move {
            if let Some(frame) = backlog.next() {
                return Some((frame, (backlog, live, subscribed)));
            }
            match live.recv().await {
                Ok(frame) => Some((frame, (backlog, live, subscribed))),
                Err(RecvError::Lagged(missed)) => {
                    tracing::info!(
                        missed,
                        "round stream closed: the client fell behind; it resumes with Last-Event-ID"
                    );
                    None
                }
                Err(RecvError::Closed) => None,
            }
        },
    ))
}

/// Whether an `If-None-Match` header names `etag` (or is `*`).
fn etag_matches(header: &str, etag: &str) -> bool {
    header.split(',').map(str::trim).any(|candidate| {
        candidate == "*" || candidate.strip_prefix("W/").unwrap_or(candidate) == etag
    })
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;
    use tokio::sync::broadcast;

    fn frame(n: usize) -> Arc<StreamMessage> {
        Arc::new(StreamMessage {
            id: format!("7-{n}"),
            event: "move_made".into(),
            data: "{}".into(),
        })
    }

    async fn ids(messages: Messages) -> Vec<String> {
        messages.map(|message| message.id.clone()).collect().await
    }

    #[tokio::test]
    async fn a_subscriber_further_behind_than_the_channel_holds_is_closed_after_what_it_had_and_never_skips()
     {
        let subscribers = Arc::new(AtomicI64::new(0));
        let (sender, live) = broadcast::channel(4);
        let messages = shared(vec![frame(0)], live, Subscribed::new(&subscribers));
        assert_eq!(subscribers.load(Ordering::Relaxed), 1);
        // Six messages into a channel of four: the subscriber has lost 1 and 2.
        for n in 1..=6 {
            sender.send(frame(n)).expect("a receiver is subscribed");
        }
        // Its backlog, then the end of the stream: never 3-6 after a gap. Its client
        // reconnects with `Last-Event-ID: 7-0` and is sent 1-6 from the history.
        assert_eq!(ids(messages).await, ["7-0"]);
        assert_eq!(subscribers.load(Ordering::Relaxed), 0, "it is counted out");
    }

    #[tokio::test]
    async fn a_subscriber_within_what_the_channel_holds_gets_its_backlog_then_every_live_message_in_order()
     {
        let subscribers = Arc::new(AtomicI64::new(0));
        let (sender, live) = broadcast::channel(4);
        let messages = shared(
            vec![frame(0), frame(1)],
            live,
            Subscribed::new(&subscribers),
        );
        for n in 2..=5 {
            sender.send(frame(n)).expect("a receiver is subscribed");
        }
        drop(sender);
        assert_eq!(
            ids(messages).await,
            ["7-0", "7-1", "7-2", "7-3", "7-4", "7-5"]
        );
    }
}
