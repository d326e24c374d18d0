//! What every handler of both faces reaches: the shared state of one service instance.
//!
//! Its fields are the application services and settings, none of them owned by the JSON API
//! ([`crate::http`]) or the back office ([`crate::web`]), so neither face imports the other.
//! [`AppState::from_config`] is the one way production ([`crate::startup`]) and the tests
//! build it.

use crate::app::arbitration::Arbitration;
use crate::app::authentication::Authenticator;
use crate::app::follower::Followers;
use crate::app::streams::Streams;
use crate::app::throttle::FailedAuthentications;
use crate::config::{ServeConfig, SessionSettings};
use crate::store::Store;

/// Where the back office is mounted. The API leaves answers under it to the pages (they are
/// HTML, never problem+json).
pub const OFFICE_PREFIX: &str = "/office";

/// Request limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The largest request body accepted, in bytes.
    pub body_bytes: usize,
    /// The most events accepted in one append.
    pub events_per_append: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 1024 * 1024,
            events_per_append: 1000,
        }
    }
}

/// What every handler can reach.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The event store.
    pub store: Store,
    /// Records events with the engine's rulings; keeps warm games.
    pub arbitration: Arbitration,
    /// Checks bearer tokens, trusting a valid one for `--token-cache-ms`.
    pub authenticator: Authenticator,
    /// Request limits.
    pub limits: Limits,
    /// Live streams and broadcasts (holds the instance's one `LISTEN` connection).
    pub streams: Streams,
    /// Failed authentications per client address (429 past the limit).
    pub failed_authentications: FailedAuthentications,
    /// Whether the public broadcast (routes under `/v1/broadcast/`) is readable without a
    /// token (`--public-broadcast`), for relays that poll a URL.
    pub public_broadcast: bool,
    /// The origins whose pages may read the public broadcast across origins (CORS); empty
    /// unless the broadcast is public (`--cors-allowed-origins`, `*` for any).
    pub broadcast_cors_origins: Vec<String>,
    /// Back-office sessions.
    pub sessions: SessionSettings,
    /// The followers of rounds given a board feed (one task per followed round).
    pub followers: Followers,
}

impl AppState {
    /// The state of a service over `store` with the default configuration. Reads go to the
    /// store's read replica when it has one ([`Store::reader`]).
    pub fn new(store: Store) -> Self {
        AppState::from_config(store, &ServeConfig::defaults())
    }

    /// The state of a service over `store` as `config` sets it up: the warm-game bound, the
    /// broadcast delay and whether it is public, the authentication throttle and the
    /// sessions.
    pub fn from_config(store: Store, config: &ServeConfig) -> Self {
        let arbitration = Arbitration::with_warm_games(store.clone(), config.warm_games)
            .with_group_commit(
                config.group_commit_writers,
                config.group_commit_max_events as usize,
            )
            .with_bulk_group_commit(
                config.group_commit_bulk_writers,
                config.group_commit_bulk_events as usize,
                config.group_commit_max_events as usize,
            );
        AppState {
            followers: Followers::new(
                arbitration.clone(),
                crate::app::follower::FollowTiming::of(config),
            )
            .fetching(
                &config.follow_allow_hosts,
                std::time::Duration::from_millis(config.follow_timeout_ms.max(100)),
            ),
            arbitration,
            authenticator: Authenticator::new(
                store.clone(),
                std::time::Duration::from_millis(config.token_cache_ms),
            ),
            streams: Streams::new(store.clone()).with_broadcast_delay(config.broadcast_delay()),
            store,
            limits: Limits::default(),
            failed_authentications: FailedAuthentications::new(
                config.auth_failures_per_minute,
                std::time::Duration::from_secs(60),
                config.trust_forwarded_for,
            ),
            public_broadcast: config.public_broadcast,
            broadcast_cors_origins: config.broadcast_cors_origins(),
            sessions: config.sessions.settings(),
        }
    }
}
