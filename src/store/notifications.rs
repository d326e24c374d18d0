//! Wake-ups for live streams: one `LISTEN` connection per service instance, fanned out to
//! every subscriber in memory.
//!
//! Migration `0005` sends `NOTIFY arbiter_events, '<game id>'` from a statement-level trigger
//! in the append's own transaction, so a notification arrives only once the events are
//! committed, from whichever instance (or tool) appended them. A wake-up carries no data: a
//! woken subscriber reads what is new from the log, from where it stopped. A lost
//! notification (the listening connection dropped) therefore loses nothing but a wake-up, and
//! every reconnection of the listener wakes every subscriber, who re-read from their last
//! `seq` or cursor.
//!
//! The listener starts with the first subscriber, on the runtime that built the
//! [`Wakeups`] (the server's main runtime), and keeps one pooled connection.

use super::StoreError;
use sqlx::PgPool;
use sqlx::postgres::PgListener;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::sync::watch;
use uuid::Uuid;

/// The notification channel of migration `0005`.
pub const EVENTS_CHANNEL: &str = "arbiter_events";

/// The longest pause between two attempts to (re)connect the listener.
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Above this many games watched, watchers nobody holds any more are dropped.
const PRUNE_ABOVE: usize = 1024;

/// The wake-up hub of one service instance. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Wakeups {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    pool: PgPool,
    /// The runtime that runs the listener (the one the hub was built on, if any).
    runtime: Option<tokio::runtime::Handle>,
    /// One watch per game with subscribers; its value counts wake-ups.
    games: Mutex<HashMap<Uuid, watch::Sender<u64>>>,
    /// Woken by every notification (round streams filter by reading).
    any: watch::Sender<u64>,
    /// `Some(n)` while the listener listens (n counts its connections), `None` otherwise.
    listening: watch::Sender<Option<u64>>,
    /// Whether a listener task is running.
    started: Mutex<bool>,
}

/// A subscriber's wake-up signal. Wake-ups that arrive while the subscriber is busy are
/// folded into one: it reads everything new anyway.
#[derive(Debug)]
pub struct Wakeup {
    receiver: watch::Receiver<u64>,
}

impl Wakeup {
    /// Waits for the next wake-up (returns at once if one came since the last call).
    pub async fn changed(&mut self) {
        if self.receiver.changed().await.is_err() {
            // The hub is gone (the service is stopping): never wake again.
            std::future::pending::<()>().await;
        }
    }
}

impl Wakeups {
    /// A hub over `pool`. The listener is started by the first subscriber.
    pub fn new(pool: PgPool) -> Self {
        Wakeups {
            inner: Arc::new(Inner {
                pool,
                runtime: tokio::runtime::Handle::try_current().ok(),
                games: Mutex::new(HashMap::new()),
                any: watch::Sender::new(0),
                listening: watch::Sender::new(None),
                started: Mutex::new(false),
            }),
        }
    }

    /// Wake-ups for one game's appends (and for every reconnection of the listener).
    pub fn game(&self, game_id: Uuid) -> Wakeup {
        self.start();
        let mut games = lock(&self.inner.games);
        if games.len() > PRUNE_ABOVE {
            games.retain(|_, sender| sender.receiver_count() > 0);
        }
        let sender = games
            .entry(game_id)
            .or_insert_with(|| watch::Sender::new(0));
        Wakeup {
            receiver: sender.subscribe(),
        }
    }

    /// Wake-ups for every append of every game.
    pub fn any(&self) -> Wakeup {
        self.start();
        Wakeup {
            receiver: self.inner.any.subscribe(),
        }
    }

    /// Waits until the listener listens, so that anything committed after this returns
    /// wakes the caller. Take the [`Wakeup`] first, then wait, then read the log.
    pub async fn ready(&self, timeout: Duration) -> Result<(), StoreError> {
        self.start();
        let mut listening = self.inner.listening.subscribe();
        match tokio::time::timeout(timeout, listening.wait_for(Option::is_some)).await {
            Ok(Ok(_)) => Ok(()),
            _ => Err(StoreError::ListenerUnavailable),
        }
    }

    /// Starts the listener task if none runs: on the runtime the hub was built on, else (or
    /// if that runtime has shut down) on the current one.
    fn start(&self) {
        {
            let mut started = lock(&self.inner.started);
            if *started {
                return;
            }
            *started = true;
        }
        let spawn = |runtime: &tokio::runtime::Handle| {
            *lock(&self.inner.started) = true;
            // A runtime that has shut down drops the task at once, and its guard marks the
            // listener stopped again.
            runtime.spawn(listen(
                Arc::downgrade(&self.inner),
                StoppedOnDrop(Arc::downgrade(&self.inner)),
            ));
            *lock(&self.inner.started)
        };
        let running = self.inner.runtime.as_ref().is_some_and(spawn);
        if !running {
            match tokio::runtime::Handle::try_current() {
                Ok(current) => {
                    spawn(&current);
                }
                Err(_) => *lock(&self.inner.started) = false,
            }
        }
    }
}

impl Inner {
    fn wake_game(&self, game_id: Uuid) {
        let mut games = lock(&self.games);
        if let Some(sender) = games.get(&game_id) {
            if sender.receiver_count() == 0 {
                games.remove(&game_id);
            } else {
                sender.send_modify(|count| *count = count.wrapping_add(1));
            }
        }
        drop(games);
        self.any.send_modify(|count| *count = count.wrapping_add(1));
    }

    fn wake_all(&self) {
        let mut games = lock(&self.games);
        games.retain(|_, sender| sender.receiver_count() > 0);
        for sender in games.values() {
            sender.send_modify(|count| *count = count.wrapping_add(1));
        }
        drop(games);
        self.any.send_modify(|count| *count = count.wrapping_add(1));
    }
}

/// Marks the listener stopped when its task ends or is dropped with its runtime, so that
/// the next subscriber starts a new one.
struct StoppedOnDrop(Weak<Inner>);

impl Drop for StoppedOnDrop {
    fn drop(&mut self) {
        if let Some(inner) = self.0.upgrade() {
            inner.listening.send_replace(None);
            *lock(&inner.started) = false;
        }
    }
}

/// The listener task: connect, `LISTEN`, wake everyone, then wake per notification;
/// reconnect with a growing pause after a failure. Ends when the hub is dropped or its pool
/// is closed.
async fn listen(inner: Weak<Inner>, stopped: StoppedOnDrop) {
    let _stopped = stopped;
    let mut backoff = Duration::from_millis(100);
    let mut connections: u64 = 0;
    loop {
        let Some(pool) = inner.upgrade().map(|i| i.pool.clone()) else {
            return;
        };
        let mut listener = match connect(&pool).await {
            Ok(listener) => listener,
            Err(sqlx::Error::PoolClosed) => return,
            Err(error) => {
                tracing::warn!(error = %error, retry_in_ms = backoff.as_millis() as u64, "live streams: cannot listen for appends");
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        };
        backoff = Duration::from_millis(100);
        connections += 1;
        {
            let Some(inner) = inner.upgrade() else {
                return;
            };
            inner.listening.send_replace(Some(connections));
            // Anything committed while nobody listened is read now.
            inner.wake_all();
        }
        loop {
            let received = listener.try_recv().await;
            let Some(inner) = inner.upgrade() else {
                return;
            };
            match received {
                Ok(Some(notification)) => match notification.payload().parse::<Uuid>() {
                    Ok(game_id) => inner.wake_game(game_id),
                    Err(_) => inner.wake_all(),
                },
                // The connection was lost and has been re-established (listening again):
                // notifications in between are lost, so everyone re-reads.
                Ok(None) => inner.wake_all(),
                Err(sqlx::Error::PoolClosed) => return,
                Err(error) => {
                    tracing::warn!(error = %error, "live streams: the listening connection failed; reconnecting");
                    inner.listening.send_replace(None);
                    break;
                }
            }
        }
    }
}

async fn connect(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(EVENTS_CHANNEL).await?;
    Ok(listener)
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
