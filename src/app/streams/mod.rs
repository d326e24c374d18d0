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
//! By what is followed: this module holds the service ([`Streams`]: subscriptions, the
//! delay, the broadcast PGN and its cache); `game` follows one game, `round` a round's part
//! of the feed, and `followed` is the folded game both keep per board.

use crate::game::event::{Event, ServiceEvent};
use crate::game::{CorruptLog, Game};
use crate::interchange::broadcast::{
    Audience, Disclosure, GameSnapshot, MovePosition, RestoredPosition, fold_for_stream, snapshot,
};
use crate::interchange::pgn_export::export_broadcast_pgn;
use crate::store::{EventEnvelope, FeedCursor, Store, StoreError, Wakeup, Wakeups};
use chrono::{DateTime, Utc};
use lru::LruCache;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use utoipa::ToSchema;
use uuid::Uuid;

mod followed;
mod game;
mod round;

use game::GameFollower;
use round::RoundFollower;

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
}

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
#[derive(Debug)]
pub enum GameFollow {
    /// Messages follow on this receiver; it ends after `game_ended`.
    Live(mpsc::Receiver<StreamMessage>),
    /// The game has ended and nothing is new after the client's `Last-Event-ID`: answer
    /// `204 No Content`, which tells an `EventSource` to stop reconnecting.
    Finished,
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
        }
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
        Ok(GameFollow::Live(receiver))
    }

    /// Follows every game of a round. Without `last_event_id`, a `snapshot` per game comes
    /// first; with it (a feed cursor), the round's events after it. Stays open.
    pub async fn follow_round(
        &self,
        event: &str,
        round: &str,
        audience: Audience,
        last_event_id: Option<FeedCursor>,
    ) -> Result<mpsc::Receiver<StreamMessage>, StreamError> {
        if !self.reads().await.round_exists(event, round).await? {
            return Err(StreamError::RoundNotFound {
                event: event.to_string(),
                round: round.to_string(),
            });
        }
        let wakeup = self.wakeups.any();
        self.wakeups.ready(LISTENER_WAIT).await?;
        let mut follower = RoundFollower {
            streams: self.clone(),
            event: event.to_string(),
            round: round.to_string(),
            audience,
            games: HashMap::new(),
            cursor: FeedCursor::START,
        };
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
        Ok(receiver)
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
