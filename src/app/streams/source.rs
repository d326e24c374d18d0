//! One source per round and audience, shared by all its subscribers (issue 40).
//!
//! Ten thousand viewers of a round must not mean ten thousand reads of the log per event. A
//! [`RoundSource`] is the one reader of a round's part of the feed for one audience in this
//! instance: it wakes on the instance's notifications, reads what is new once, folds it once,
//! encodes each message once, keeps the latest messages in a bounded history and sends each
//! to every subscriber over a `tokio::sync::broadcast` channel (a shared `Arc`, not a copy).
//!
//! A subscriber joins through the source's own task, between two reads: the task hands it
//! the snapshots of the games as they stand at its cursor (or, with `Last-Event-ID`, the
//! history after the client's cursor) together with a receiver subscribed at that same
//! cursor, so that the backlog and the live messages meet with no gap and no duplicate. A
//! client's cursor older than the history is caught up from the log by the subscriber itself
//! up to the source's cursor, then goes on live. A subscriber that falls further behind than
//! the channel holds is closed (never skipped): its client reconnects with `Last-Event-ID`
//! and resumes exactly. The source stops when its last subscriber has left.

use super::round::RoundFollower;
use super::*;
use std::collections::VecDeque;
use std::sync::atomic::AtomicU64;
use tokio::sync::{broadcast, oneshot};

/// Messages kept for subscribers that reconnect with `Last-Event-ID`.
const HISTORY: usize = 4096;

/// Messages a subscriber may fall behind the source before it is closed (its client then
/// reconnects with `Last-Event-ID`).
const LAG: usize = 1024;

/// How often a source with nothing to read checks whether it still has subscribers.
const IDLE_CHECK: Duration = Duration::from_secs(2);

/// Requests to join a source waiting for its task.
const JOINS: usize = 1024;

/// One encoded message, shared by every subscriber that is sent it.
pub(super) type Frame = Arc<StreamMessage>;

/// Which source: a round of an event, for one audience.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct RoundKey {
    pub(super) event: String,
    pub(super) round: String,
    pub(super) audience: Audience,
}

/// The running sources of an instance, by round and audience: each entry is the way into a
/// source's task, with a number that tells a source its own entry from a successor's.
#[derive(Debug, Default)]
pub(super) struct Sources {
    running: Mutex<HashMap<RoundKey, (u64, mpsc::Sender<Join>)>>,
    next_id: AtomicU64,
}

/// A request to join a source.
pub(super) struct Join {
    resume: Option<FeedCursor>,
    reply: oneshot::Sender<Result<Joined, String>>,
}

/// What a subscriber gets when it joins.
pub(super) struct Joined {
    /// What to send before the live messages.
    pub(super) backlog: Vec<Frame>,
    /// The live messages: everything the source sends after `at`.
    pub(super) live: broadcast::Receiver<Frame>,
    /// The source's cursor when the subscriber joined.
    pub(super) at: FeedCursor,
    /// How the backlog relates to the client's cursor.
    pub(super) start: Start,
}

/// How a subscriber starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Start {
    /// The backlog is a snapshot of every game at `at` (no `Last-Event-ID`).
    Snapshots,
    /// The backlog is everything after the client's cursor.
    Resumed,
    /// The client's cursor is older than the history: the subscriber reads the log from it
    /// up to `at` itself; the backlog is empty.
    Behind,
    /// The client's cursor is beyond the source's (it came from an instance that had read
    /// further): the subscriber follows on its own, as before there were sources.
    Ahead,
}

impl Sources {
    /// Joins the round's source, starting one when none runs.
    pub(super) async fn join(
        &self,
        streams: &Streams,
        key: &RoundKey,
        resume: Option<FeedCursor>,
    ) -> Result<Joined, StreamError> {
        // A source that has just stopped drops the request: try again with a new one.
        for _ in 0..3 {
            let sender = {
                let mut running = lock(&self.running);
                match running.get(key) {
                    Some((_, sender)) if !sender.is_closed() => sender.clone(),
                    _ => {
                        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                        let (sender, joins) = mpsc::channel(JOINS);
                        running.insert(key.clone(), (id, sender.clone()));
                        tokio::spawn(run(streams.clone(), key.clone(), id, joins));
                        sender
                    }
                }
            };
            let (reply, answer) = oneshot::channel();
            let join = Join {
                resume: resume.clone(),
                reply,
            };
            if sender.send(join).await.is_err() {
                continue;
            }
            match answer.await {
                Ok(Ok(joined)) => return Ok(joined),
                Ok(Err(message)) => return Err(StreamError::Source(message)),
                Err(_) => continue,
            }
        }
        Err(StreamError::Source(
            "the round's source stopped while the stream joined it".into(),
        ))
    }

    /// Removes the source `id`'s entry, if the entry is still its own.
    fn remove(&self, key: &RoundKey, id: u64) {
        let mut running = lock(&self.running);
        if running.get(key).is_some_and(|(entry, _)| *entry == id) {
            running.remove(key);
        }
    }

    /// Removes the source `id`'s entry if nobody waits to join it and it has no subscriber;
    /// true when it was removed (the source then stops).
    fn remove_if_idle(
        &self,
        key: &RoundKey,
        id: u64,
        joins: &mpsc::Receiver<Join>,
        live: &broadcast::Sender<Frame>,
    ) -> bool {
        let mut running = lock(&self.running);
        if live.receiver_count() > 0 || !joins.is_empty() {
            return false;
        }
        if running.get(key).is_some_and(|(entry, _)| *entry == id) {
            running.remove(key);
        }
        true
    }

    /// How many sources run now.
    pub(super) fn running(&self) -> usize {
        lock(&self.running).len()
    }
}

/// The one reader of a round for one audience, and what it keeps for its subscribers.
struct RoundSource {
    follower: RoundFollower,
    live: broadcast::Sender<Frame>,
    /// The latest messages sent, with their cursors; every message the audience saw after
    /// `base` up to the follower's cursor is here.
    history: VecDeque<(FeedCursor, Frame)>,
    base: FeedCursor,
    /// The snapshots at a cursor, kept until the source reads past it.
    snapshots: Option<(FeedCursor, Arc<[Frame]>)>,
}

fn later(a: &FeedCursor, b: &FeedCursor) -> bool {
    (a.tx_id, a.position) > (b.tx_id, b.position)
}

impl RoundSource {
    /// Sends what was read to every subscriber and keeps it in the history.
    fn publish(&mut self, messages: Vec<StreamMessage>) {
        for message in messages {
            let cursor =
                FeedCursor::parse(&message.id).unwrap_or_else(|| self.follower.cursor.clone());
            let frame: Frame = Arc::new(message);
            if self.history.len() == HISTORY
                && let Some((oldest, _)) = self.history.pop_front()
            {
                self.base = oldest;
            }
            self.history.push_back((cursor, frame.clone()));
            // No receiver is no error: the source stops at its next check.
            let _ = self.live.send(frame);
        }
        if self.history.is_empty() {
            // Nothing was kept that a client could have been sent after base, and nothing
            // before the cursor is missing from the history.
            self.base = self.follower.cursor.clone();
        }
    }

    /// Answers a join: the backlog and a receiver, both at the follower's cursor.
    fn join(&mut self, join: Join) {
        let at = self.follower.cursor.clone();
        let (backlog, start) = match &join.resume {
            None => (self.snapshots(), Start::Snapshots),
            Some(resume) if later(resume, &at) => (Vec::new(), Start::Ahead),
            Some(resume) if later(&self.base, resume) => (Vec::new(), Start::Behind),
            Some(resume) => (
                self.history
                    .iter()
                    .filter(|(cursor, _)| later(cursor, resume))
                    .map(|(_, frame)| frame.clone())
                    .collect(),
                Start::Resumed,
            ),
        };
        let joined = Joined {
            backlog,
            live: self.live.subscribe(),
            at,
            start,
        };
        // A subscriber that has gone meanwhile drops its receiver with the answer.
        let _ = join.reply.send(Ok(joined));
    }

    /// The snapshot of every game at the follower's cursor, built once per cursor.
    fn snapshots(&mut self) -> Vec<Frame> {
        let cursor = &self.follower.cursor;
        if let Some((at, frames)) = &self.snapshots
            && at == cursor
        {
            return frames.to_vec();
        }
        let mut messages = Vec::new();
        self.follower.snapshots(&mut messages);
        let frames: Arc<[Frame]> = messages.into_iter().map(Arc::new).collect();
        self.snapshots = Some((cursor.clone(), frames.clone()));
        frames.to_vec()
    }
}

/// The source's task: catches up, then reads on every wake-up and answers joins between
/// reads, until its last subscriber has left, a read fails, or the service stops.
async fn run(streams: Streams, key: RoundKey, id: u64, mut joins: mpsc::Receiver<Join>) {
    let mut wakeup = streams.wakeups.any();
    let started = start(&streams, &key).await;
    let (mut source, mut retry_at) = match started {
        Ok(started) => started,
        Err(error) => {
            streams.sources.remove(&key, id);
            joins.close();
            let message = error.to_string();
            while let Ok(join) = joins.try_recv() {
                let _ = join.reply.send(Err(message.clone()));
            }
            tracing::warn!(event = %key.event, round = %key.round, error = %message, "round source could not start");
            return;
        }
    };
    let mut idle_check = tokio::time::interval(IDLE_CHECK);
    idle_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let retry = async {
            match retry_at {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        let read = tokio::select! {
            join = joins.recv() => {
                match join {
                    Some(join) => source.join(join),
                    None => break,
                }
                false
            }
            _ = wakeup.changed() => true,
            _ = retry => true,
            _ = idle_check.tick() => false,
            _ = streams.closed() => break,
        };
        if read {
            let mut messages = Vec::new();
            match source.follower.read_new(&mut messages).await {
                Ok(at) => retry_at = at,
                Err(error) => {
                    tracing::warn!(event = %key.event, round = %key.round, error = %error, "round source stopped: reading the feed failed");
                    break;
                }
            }
            source.publish(messages);
        }
        if streams
            .sources
            .remove_if_idle(&key, id, &joins, &source.live)
        {
            return;
        }
    }
    streams.sources.remove(&key, id);
}

/// Folds the round up to what is visible now (waiting a little for the fence, as a new
/// subscriber did before sources) and reads what is new.
async fn start(
    streams: &Streams,
    key: &RoundKey,
) -> Result<(RoundSource, Option<tokio::time::Instant>), StreamError> {
    streams.wakeups.ready(LISTENER_WAIT).await?;
    let mut follower = RoundFollower {
        streams: streams.clone(),
        event: key.event.clone(),
        round: key.round.clone(),
        audience: key.audience,
        games: HashMap::new(),
        cursor: FeedCursor::START,
    };
    let (mut retry_at, _) = follower.catch_up(None).await?;
    let base = follower.cursor.clone();
    let mut messages = Vec::new();
    if retry_at.is_none() {
        retry_at = follower.read_new(&mut messages).await?;
    }
    let (live, _) = broadcast::channel(LAG);
    let mut source = RoundSource {
        follower,
        live,
        history: VecDeque::new(),
        base,
        snapshots: None,
    };
    source.publish(messages);
    Ok((source, retry_at))
}
