//! Following a round's electronic boards live: one task per followed round polls the board
//! feed (DGT LiveChess JSON: `game-N.json` is board N of the round's pairings), reads each
//! board against the stored line ([`crate::interchange::dgt::read_against`]) and records the
//! new legal moves, with their clock readings, through [`Arbitration`] exactly as an arbiter's
//! moves are recorded. What the feed says that the engine refuses or that only the arbiter may
//! decide is never stored as if it were true: it is kept as an open attention ("needs the
//! arbiter") with the feed's moves and the reason, until the arbiter decides
//! ([`Followers::decide`]) or the feed stops saying it.
//!
//! Event ids derive from the feed (UUID v5 of the follow, the board, the ply, the move and
//! the `seq` it extends), so a restart, a replayed feed or two instances polling the same
//! round store nothing twice: a retried append is answered from the store. The setting is
//! stored, so [`Followers::resume_enabled`] at start-up resumes every followed round. While the
//! source fails, the follower waits twice as long after each failure, up to a limit, and
//! resumes where the log stands.

use crate::access::Principal;
use crate::app::arbitration::{Arbitration, RecordError};
use crate::app::feed_source::{AddressPolicy, DEFAULT_TIMEOUT, FeedClient, Fetched};
use crate::game::Game;
use crate::game::event::{
    ArbiterRuling, ClockReading, Event, GameResult, RecordedEvent, ServiceEvent,
};
use crate::interchange::board_feed::{
    BoardMemory, Frame, Settled, admissible_rise_ms, move_number, reading_admissible,
};
use crate::interchange::dgt::{self, Attention, FeedMove, ResultSignal};
use crate::interchange::pgn_feed;
use crate::rules::side::Side;
use crate::store::{
    AttentionResolution, FeedKind, FollowAttention, NewEvent, PollOutcome, RoundFollow,
    RoundGameHead, Store, StoreError, TakebackPolicy,
};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;
use utoipa::ToSchema;
use uuid::Uuid;

mod decisions;
mod feed_events;
mod poll;
mod sync;
pub use decisions::{Decided, attention_kind, choice_name, describe, fitting_choices};
pub use feed_events::{feed_event_id, round_base};
pub use poll::Seen;
pub use sync::{BoardSync, BoardView};

/// Who the follower records as (the `recorded_by` of its events).
pub const FEED_RECORDER: &str = "board feed";

/// How often a followed round is polled, and how long the follower waits at most while its
/// source fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FollowTiming {
    /// Between two polls of a source that answers.
    pub poll: Duration,
    /// The longest wait after failures (the wait doubles after each failure up to it).
    pub max_backoff: Duration,
    /// How soon a board whose feed changed is fetched again, to see whether the change
    /// stands; at [`FollowTiming::poll`] or above, the next poll does it.
    pub confirm: Duration,
}

impl FollowTiming {
    /// The timing the service's settings give (`--follow-poll-ms`, at least 100 ms;
    /// `--follow-max-backoff-ms`; `--follow-confirm-ms`, at least 100 ms).
    pub fn of(config: &crate::config::ServeConfig) -> FollowTiming {
        FollowTiming {
            poll: Duration::from_millis(config.follow_poll_ms.max(100)),
            max_backoff: Duration::from_millis(config.follow_max_backoff_ms),
            confirm: Duration::from_millis(config.follow_confirm_ms.max(100)),
        }
    }

    /// The wait after `failures` polls failed in a row: the poll interval doubled per
    /// failure, at most [`FollowTiming::max_backoff`].
    pub fn wait_after(&self, failures: u32) -> Duration {
        let factor = 2u32.saturating_pow(failures.min(16));
        self.poll
            .saturating_mul(factor)
            .min(self.max_backoff.max(self.poll))
    }
}

/// What can go wrong while following or deciding.
#[derive(Debug, thiserror::Error)]
pub enum FollowError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Recording failed for another reason than the engine's refusal.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The feed did not answer, or answered something that cannot be read.
    #[error("the board feed failed: {0}")]
    Source(String),
    /// The attention is not open (settled already, or unknown).
    #[error("{0}")]
    NotOpen(String),
    /// The choice does not fit the attention.
    #[error("{0}")]
    Choice(String),
    /// The round's tournament is gone.
    #[error("the tournament {0} of the followed round does not exist")]
    NoTournament(Uuid),
}

/// What the arbiter decides about what the feed said. Named `FollowDecision` in the OpenAPI
/// document: the 12.9 penalty choice is its `ArbiterChoice`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = FollowDecision)]
pub enum ArbiterChoice {
    /// For a move taken back or a line that no longer extends the stored one: the stored
    /// line is corrected to the board's (the moves after the common part are retracted by
    /// `correction` events, never branched), then the board's moves are recorded.
    AcceptCorrection,
    /// For a move the engine finds illegal: recorded as an `illegal_move` (7.5).
    RecordIllegalMove,
    /// For a proposed result: recorded as the arbiter's decision ending the game.
    RecordResult,
    /// Nothing is recorded; the same attention is not raised again. For a takeback the board
    /// feed applied: kept as it is.
    Ignore,
    /// For a takeback the board feed applied (`corrected_by_feed`): undone, the moves it
    /// retracted recorded again (after retracting what the feed recorded since).
    UndoCorrection,
}

/// The running followers of this instance, one task per followed round. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Followers {
    arbitration: Arbitration,
    timing: FollowTiming,
    client: FeedClient,
    running: Arc<Mutex<HashMap<Uuid, watch::Sender<bool>>>>,
}

impl Followers {
    /// Followers recording through `arbitration`, polling as `timing` says.
    /// Internal addresses are refused (see [`crate::app::feed_source`]);
    /// [`Followers::allowing_hosts`] lets an operator's hosts through.
    pub fn new(arbitration: Arbitration, timing: FollowTiming) -> Followers {
        install_tls_provider();
        Followers {
            arbitration,
            timing,
            client: FeedClient::new(AddressPolicy::default(), DEFAULT_TIMEOUT),
            running: Arc::default(),
        }
    }

    /// The same followers, fetching from `hosts` although they are internal
    /// (`--follow-allow-hosts`).
    pub fn allowing_hosts(self, hosts: &[String]) -> Followers {
        self.fetching(hosts, DEFAULT_TIMEOUT)
    }

    /// The same followers, fetching from `hosts` although they are internal
    /// (`--follow-allow-hosts`) and waiting at most `timeout` for a feed's answer
    /// (`--follow-timeout-ms`).
    pub fn fetching(mut self, hosts: &[String], timeout: Duration) -> Followers {
        self.client = FeedClient::new(AddressPolicy::allowing(hosts), timeout);
        self
    }

    /// Refuses a feed URL the follower would not fetch: not `http(s)`, or naming (or
    /// resolving to) an internal address the operator has not allowed. The message says how
    /// to allow it.
    pub async fn check_source(&self, url: &str) -> Result<(), String> {
        self.client.policy().check_url(url).await
    }

    fn store(&self) -> &Store {
        self.arbitration.store()
    }

    /// The polling timing.
    pub fn timing(&self) -> FollowTiming {
        self.timing
    }

    /// Starts a task for every enabled follow (start-up); returns how many.
    pub async fn resume_enabled(&self) -> Result<usize, StoreError> {
        let follows = self.store().enabled_follows().await?;
        for follow in &follows {
            self.start(follow.follow_id);
        }
        Ok(follows.len())
    }

    /// Starts (or restarts, with its stored setting) the task of a follow.
    pub fn start(&self, follow_id: Uuid) {
        let (stop, stopped) = watch::channel(false);
        if let Some(previous) = self.lock().insert(follow_id, stop) {
            let _ = previous.send(true);
        }
        let followers = self.clone();
        tokio::spawn(async move { followers.run(follow_id, stopped).await });
    }

    /// Stops the task of a follow, if it runs here.
    pub fn stop(&self, follow_id: Uuid) {
        if let Some(stop) = self.lock().remove(&follow_id) {
            let _ = stop.send(true);
        }
    }

    /// Stops every task (the service stops).
    pub fn stop_all(&self) {
        for (_, stop) in self.lock().drain() {
            let _ = stop.send(true);
        }
    }

    /// Whether a follow's task runs in this instance.
    pub fn is_running(&self, follow_id: Uuid) -> bool {
        self.lock().contains_key(&follow_id)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, watch::Sender<bool>>> {
        self.running
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The task: poll, note how it went, wait (longer while the source fails); ends when the
    /// follow is disabled or the task is stopped.
    async fn run(self, follow_id: Uuid, mut stopped: watch::Receiver<bool>) {
        let mut failures = 0u32;
        let mut seen = Seen::default();
        loop {
            if *stopped.borrow() {
                return;
            }
            let started = Instant::now();
            let follow = match self.store().follow_by_id(follow_id).await {
                Ok(Some(follow)) if follow.enabled => follow,
                Ok(_) => break,
                Err(error) => {
                    tracing::warn!(%follow_id, %error, "cannot read the follow setting");
                    failures = failures.saturating_add(1);
                    if wait(self.timing.wait_after(failures), &mut stopped).await {
                        return;
                    }
                    continue;
                }
            };
            let outcome = match self.poll_round_seen(&follow, &mut seen).await {
                Ok(recorded) => {
                    if failures > 0 {
                        tracing::info!(%follow_id, failures, "the board feed answers again");
                    }
                    if recorded > 0 {
                        tracing::debug!(%follow_id, recorded, "moves recorded from the board feed");
                    }
                    failures = 0;
                    PollOutcome::Answered
                }
                Err(error) => {
                    failures = failures.saturating_add(1);
                    tracing::warn!(%follow_id, failures, %error, "polling the board feed failed");
                    PollOutcome::Failed(error.to_string())
                }
            };
            if let Err(error) = self.store().note_poll(follow_id, &outcome).await {
                tracing::warn!(%follow_id, %error, "cannot note the poll");
            }
            // Polls keep their interval from start to start (a round of many boards takes a
            // while to read; the tick does not drift by it), with at least a tenth of it
            // between two polls.
            let next_poll = if failures == 0 {
                (started + self.timing.poll).max(Instant::now() + self.timing.poll / 10)
            } else {
                Instant::now() + self.timing.wait_after(failures)
            };
            // The boards whose feed changed are read again `confirm` after the poll read them
            // (not after the whole poll), so that a move that stands is stored without waiting
            // for the next poll; the boards read within a fifth of `confirm` of each other are
            // read again together.
            while let Some(first) = seen
                .unsettled
                .values()
                .min()
                .copied()
                .filter(|_| failures == 0)
            {
                let batch = first + self.timing.confirm / 5;
                let last = seen
                    .unsettled
                    .values()
                    .filter(|at| **at <= batch)
                    .max()
                    .copied()
                    .unwrap_or(first);
                let due = last + self.timing.confirm;
                if due >= next_poll {
                    break;
                }
                if wait_until(due, &mut stopped).await {
                    return;
                }
                let changed: HashSet<u32> = seen
                    .unsettled
                    .iter()
                    .filter(|(_, at)| **at <= last)
                    .map(|(board, _)| *board)
                    .collect();
                // Taken off the list: read again, each is put back if it changed again; one
                // that fails waits for the next poll.
                seen.unsettled.retain(|board, _| !changed.contains(board));
                if let Err(error) = self
                    .poll_round_with(&follow, Some(&mut seen), Some(&changed))
                    .await
                {
                    tracing::debug!(%follow_id, %error, "reading the changed boards again failed; the next poll reads them");
                    break;
                }
            }
            if wait_until(next_poll, &mut stopped).await {
                return;
            }
        }
        // Not stopped: the entry is this task's (a replacement would have stopped it).
        if !*stopped.borrow() {
            self.lock().remove(&follow_id);
        }
    }
}

/// Makes ring (the provider of the follower's HTTPS client) the process's TLS crypto
/// provider, once: where another library of the process brings another provider (the
/// browser driver of the tests brings aws-lc-rs), rustls would otherwise refuse to choose.
fn install_tls_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Err: a provider was installed already, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Waits until `deadline`; true when the task was stopped meanwhile.
async fn wait_until(deadline: Instant, stopped: &mut watch::Receiver<bool>) -> bool {
    wait(deadline.saturating_duration_since(Instant::now()), stopped).await
}

/// Waits `duration`; true when the task was stopped meanwhile.
async fn wait(duration: Duration, stopped: &mut watch::Receiver<bool>) -> bool {
    tokio::select! {
        () = tokio::time::sleep(duration) => *stopped.borrow(),
        changed = stopped.changed() => changed.is_err() || *stopped.borrow(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_after_each_failure_up_to_the_limit() {
        let timing = FollowTiming {
            poll: Duration::from_secs(3),
            max_backoff: Duration::from_secs(60),
            confirm: Duration::from_millis(500),
        };
        assert_eq!(timing.wait_after(0), Duration::from_secs(3));
        assert_eq!(timing.wait_after(1), Duration::from_secs(6));
        assert_eq!(timing.wait_after(3), Duration::from_secs(24));
        assert_eq!(timing.wait_after(5), Duration::from_secs(60));
        assert_eq!(timing.wait_after(40), Duration::from_secs(60));
    }
}
