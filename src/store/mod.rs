//! All SQL lives here: appending to and reading the event log, the global feed, the games read
//! model and hash-chain verification. Nothing outside this module talks to PostgreSQL, so the
//! guarantees of the log (append-only, contiguous `seq`, hash chain) are kept in one place and
//! in the database itself.

mod chain;
mod events;
mod failover;
mod fair_play;
mod follows;
mod games;
mod group_commit;
mod notifications;
mod read_model;
mod replica;
mod roster;
mod rounds;
mod rulings;
mod sessions;
mod tokens;
mod tournament_log;
mod tournaments;

pub use chain::{ChainBreak, ChainReport, GENESIS_HASH};
pub use events::{Appended, EventEnvelope, FeedCursor, FeedItem, FeedPage, GameOutcome, NewEvent};
pub use failover::{MultiHost, TargetSession};
pub use fair_play::{
    EvidenceFile, FairPlayAccess, FairPlayIdUse, SealedRows, StoredFairPlay, UnsealedRow,
    evidence_sha256, payload_sha256,
};
pub use follows::{
    AttentionResolution, FeedKind, FollowAttention, PollOutcome, RoundFollow, TakebackPolicy,
};
pub use games::{CreatedGame, GameFilter, GameListPage, GameStatus, GameSummary, ListCursor};
pub use group_commit::{
    GROUP_APPEND_LINKED_STATEMENT, GROUP_APPEND_STATEMENT, GroupCommitter, GroupLinks,
    GroupedOutcome, PreparedAppend, StoredLink,
};
pub use notifications::{EVENTS_CHANNEL, Wakeup, Wakeups};
pub use read_model::{LoggedEvent, ReadModelRebuild, ReadModelWritten, RebuiltSummary};
pub use replica::{Lsn, ReadHandle, ServedBy};
pub use roster::{RoundBye, RoundRoster, TournamentGame};
pub use rounds::{RoundFeedPage, RoundGameHead};
pub use rulings::{RulingFilter, RulingItem, RulingPage};
pub use sessions::{OpenedSession, Session};
pub use tokens::{RotateError, Rotated, TokenCheck, TokenInfo, token_hash};
pub use tournaments::{EventRound, Recorder};

use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use std::sync::Arc;
use std::time::Duration;
use uuid::Uuid;

/// The migrations in `migrations/`, embedded at compile time (see `build.rs`).
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// What can go wrong when reading or writing the log.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No game with that id exists.
    #[error("no game with id {0} exists")]
    GameNotFound(Uuid),
    /// The caller expected a different last `seq`: someone else appended first.
    #[error("expected the game's last seq to be {expected}, but it is {current}")]
    StaleSeq {
        /// What the caller expected.
        expected: u64,
        /// The game's last stored `seq`.
        current: u64,
    },
    /// An `event_id` is already stored for this game, but not as a retry of this append.
    #[error(
        "event_id {event_id} is already stored as seq {seq} of this game with different content or at another place"
    )]
    EventIdReused {
        /// The reused id.
        event_id: Uuid,
        /// Where it is stored.
        seq: u64,
    },
    /// A fair-play record's `event_id` already has a sealed payload: stored by a request
    /// that raced this one, or used in another game.
    #[error("event_id {0} already names a stored fair-play record")]
    FairPlayIdTaken(Uuid),
    /// The same `event_id` appears twice in one append.
    #[error("event_id {0} appears more than once in the request")]
    DuplicateEventIdInRequest(Uuid),
    /// A tournament with this name exists already.
    #[error("a tournament named {0} exists already")]
    TournamentNameTaken(String),
    /// A game with this id exists with other settings.
    #[error("a game with id {0} already exists with other settings")]
    GameIdTaken(Uuid),
    /// A stored row could not be decoded: the log holds something this version cannot read.
    #[error("stored event {seq} of game {game_id} cannot be decoded: {message}")]
    Undecodable {
        /// The game.
        game_id: Uuid,
        /// The event.
        seq: u64,
        /// What is wrong with it.
        message: String,
    },
    /// The summary row of a game (`games.last_seq`) does not follow its log: the read model
    /// is out of step. `arbiter rebuild` rebuilds it from the log.
    #[error(
        "the summary of game {game_id} does not follow its log; run `arbiter rebuild` to rebuild the games read model"
    )]
    SummaryOutOfStep {
        /// The game.
        game_id: Uuid,
    },
    /// A stored value this version does not know (e.g. a game status or a transaction id
    /// written by a newer version): refused rather than read as a default.
    #[error("the database holds {what} {value:?}, which this version cannot read")]
    UnknownStoredValue {
        /// What kind of value.
        what: &'static str,
        /// The value as stored.
        value: String,
    },
    /// Any other database failure.
    #[error("database error")]
    Database(#[from] sqlx::Error),
    /// Live streams cannot listen for appends (the database does not answer `LISTEN`).
    #[error("the service cannot listen for appends to wake live streams")]
    ListenerUnavailable,
    /// Applying migrations failed.
    #[error("applying migrations failed")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// None of the hosts of a multi-host database URL answered with the role asked for.
    #[error(
        "none of the database hosts {hosts} answered as {wanted:?} (target_session_attrs); check that the failover manager has a primary (e.g. `pg_autoctl show state`)"
    )]
    NoHostFits {
        /// The URL's hosts.
        hosts: String,
        /// The role asked for.
        wanted: TargetSession,
    },
}

impl StoreError {
    /// Whether the database is out of reach for now (a lost connection, a full pool, a server
    /// shutting down or starting, a primary turned standby by a failover: `read only
    /// transaction`): nothing was stored and the same request may succeed in a few seconds.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::ListenerUnavailable | StoreError::NoHostFits { .. } => true,
            StoreError::Database(error) => match error {
                sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed => true,
                sqlx::Error::Database(error) => error.code().is_some_and(|code| {
                    // 08: connection exception; 25006: read_only_sql_transaction;
                    // 57P01-57P03: admin_shutdown, crash_shutdown, cannot_connect_now.
                    code.starts_with("08")
                        || matches!(code.as_ref(), "25006" | "57P01" | "57P02" | "57P03")
                }),
                _ => false,
            },
            _ => false,
        }
    }
}

/// The event store: a handle on the PostgreSQL pool (the primary), and on a read replica
/// when one is configured ([`Store::reader`]). Cheap to clone.
#[derive(Clone, Debug)]
pub struct Store {
    pool: PgPool,
    replica: Option<Arc<replica::Replica>>,
}

impl Store {
    /// Wraps an existing pool (e.g. one connected with other options than
    /// [`Store::connect`]'s).
    pub fn new(pool: PgPool) -> Self {
        Store {
            pool,
            replica: None,
        }
    }

    /// Connects to `database_url` with a pool sized for `max_connections`. A libpq
    /// multi-host URL (`postgres://h1:p1,h2:p2/db?target_session_attrs=read-write`) connects
    /// to the host with the role asked for (the primary unless the URL says otherwise) and
    /// follows it when it moves (`src/store/failover.rs`).
    pub async fn connect(database_url: &str, max_connections: u32) -> Result<Self, StoreError> {
        let options = PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(5));
        match MultiHost::parse(database_url)? {
            None => Ok(Store::new(options.connect(database_url).await?)),
            Some(hosts) => connect_following(options, hosts).await,
        }
    }

    /// Connects as the service: every pooled connection switches to the database role
    /// `role` (`arbiter_service` by migration `0002`), which may read and append events but
    /// not update, delete or truncate them.
    pub async fn connect_as_service(
        database_url: &str,
        max_connections: u32,
        role: &str,
    ) -> Result<Self, StoreError> {
        let role = role.to_string();
        let options = PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(5))
            // No ping before each use: it is one more round trip per statement, and the
            // write path is one statement per append. A connection the server closed fails
            // its next statement instead (answered 503, retryable) and is dropped.
            .test_before_acquire(false)
            .after_connect(move |connection, _| {
                let role = role.clone();
                Box::pin(async move {
                    sqlx::query("SELECT set_config('role', $1, false)")
                        .bind(role)
                        .execute(connection)
                        .await?;
                    Ok(())
                })
            });
        match MultiHost::parse(database_url)? {
            None => Ok(Store::new(options.connect(database_url).await?)),
            Some(hosts) => connect_following(options, hosts).await,
        }
    }

    /// The game's chain head (last `seq` and its hash, hex), or `None` if there is no such game.
    pub async fn chain_head(&self, game_id: Uuid) -> Result<Option<(u64, String)>, StoreError> {
        let row: Option<(i64, Vec<u8>)> = sqlx::query_as(
            "SELECT seq, hash FROM events WHERE game_id = $1 ORDER BY seq DESC LIMIT 1",
        )
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|(seq, hash)| (to_u64(seq), hex::encode(hash))))
    }

    /// Creates the database `arbiter` through `admin_url` if it does not exist yet (used for
    /// the embedded cluster).
    pub async fn ensure_arbiter_database(admin_url: &str) -> Result<(), StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .connect(admin_url)
            .await?;
        let exists: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM pg_database WHERE datname = 'arbiter'")
                .fetch_optional(&pool)
                .await?;
        if exists.is_none() {
            sqlx::query("CREATE DATABASE arbiter")
                .execute(&pool)
                .await?;
        }
        pool.close().await;
        Ok(())
    }

    /// Applies every pending migration.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        MIGRATOR.run(&self.pool).await?;
        Ok(())
    }

    /// The underlying pool.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Whether the database answers a trivial query.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }
}

/// How long the service waits at start-up for one of a multi-host URL's hosts to have the
/// role asked for (a failover may be under way).
const FIND_HOST_WITHIN: Duration = Duration::from_secs(30);

/// A pool on the host of `hosts` with the wanted role, followed by a watcher task when it moves.
/// Pooled connections made before a move are closed instead of handed out (`before_acquire`,
/// no round trip). Needs a Tokio runtime (the watcher runs on it until the pool is closed).
async fn connect_following(options: PgPoolOptions, hosts: MultiHost) -> Result<Store, StoreError> {
    let (following, first, connection) =
        failover::Following::start(hosts, FIND_HOST_WITHIN).await?;
    let stale = Arc::clone(&following);
    let pool = options
        .before_acquire(move |_, meta| {
            let fresh = !stale.is_stale(meta.age);
            Box::pin(async move { Ok(fresh) })
        })
        .connect_with(first)
        .await?;
    tokio::spawn(following.watch(pool.clone(), Some(connection)));
    Ok(Store::new(pool))
}

/// Converts a stored `bigint` that is non-negative by constraint.
fn to_u64(value: i64) -> u64 {
    u64::try_from(value).unwrap_or_default()
}

/// Converts a `seq` for binding; a `seq` above `i64::MAX` can never exist.
fn to_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}
