//! Reading from a hot standby (PostgreSQL streaming replication), with read-your-writes.
//!
//! Appends and token writes always go to the primary. Read routes take a [`ReadHandle`]
//! from [`Store::reader`]: the standby when one is configured and has replayed what the
//! client says it has seen, else the primary. A client that has just written carries the
//! WAL position of its write ([`Lsn`], from [`Store::lsn_for_reads`], sent back by the HTTP
//! layer as `X-Arbiter-LSN`); the reader waits, bounded, until the standby has replayed that
//! far, and reads from the primary when the standby lags past the bound. Without a position
//! the standby is read as it is (it may be a little behind). docs/operations.md has the
//! operator's view.

use super::{Store, StoreError};
use sqlx::PgPool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A position in the write-ahead log (`pg_lsn`), e.g. `16/B374D848`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lsn(pub u64);

impl Lsn {
    /// Parses PostgreSQL's text form: two hexadecimal numbers of at most 8 digits joined by `/`.
    pub fn parse(text: &str) -> Option<Lsn> {
        let (high, low) = text.split_once('/')?;
        let hex = |part: &str| {
            (!part.is_empty() && part.len() <= 8 && part.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| u32::from_str_radix(part, 16).ok())
                .flatten()
        };
        Some(Lsn((u64::from(hex(high)?) << 32) | u64::from(hex(low)?)))
    }
}

impl std::fmt::Display for Lsn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:X}/{:X}", self.0 >> 32, self.0 & 0xFFFF_FFFF)
    }
}

/// Which database served a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum ServedBy {
    /// The primary, because no standby is configured.
    Primary,
    /// The standby.
    Replica,
    /// The primary, because the standby had not replayed the client's position within the
    /// wait limit, or could not be asked.
    PrimaryFallback,
}

impl ServedBy {
    /// The name used in the `X-Arbiter-Read-From` header and in metrics.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A store to read from, and which database it is.
#[derive(Clone, Debug)]
pub struct ReadHandle {
    /// The store to read through (its writes would fail on a standby: read only).
    pub store: Store,
    /// Which database it is.
    pub served_by: ServedBy,
}

/// The standby and how long a read may wait for it.
#[derive(Debug)]
pub(super) struct Replica {
    pool: PgPool,
    max_wait: Duration,
}

/// The position a database has: replayed (standby), or inserted (primary). The insert
/// position, not the write position (`pg_current_wal_lsn()`), because with
/// `synchronous_commit = off` a commit returns before its record is written: only the insert
/// position is sure to lie at or after it. Asked by role, not by `coalesce`: a promoted
/// standby keeps answering `pg_last_wal_replay_lsn()` (the last position it replayed before
/// the promotion), which would hand clients a position older than their writes after a
/// failover.
const POSITION: &str = "SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() \
     ELSE pg_current_wal_insert_lsn() END)::text AS position";

impl Store {
    /// This store, reading from the standby behind `replica`; a read that carries a
    /// position waits at most `max_wait` for the standby to replay it.
    pub fn with_read_replica(mut self, replica: PgPool, max_wait: Duration) -> Store {
        self.replica = Some(Arc::new(Replica {
            pool: replica,
            max_wait,
        }));
        self
    }

    /// The standby's pool, when one is configured.
    pub fn replica_pool(&self) -> Option<&PgPool> {
        self.replica.as_ref().map(|replica| &replica.pool)
    }

    /// The position of the primary's write-ahead log now (`pg_current_wal_insert_lsn()`), for
    /// a client to pass back on its next read; `None` (and no round trip) when no standby is
    /// configured. Asked after a commit, it covers that commit.
    pub async fn lsn_for_reads(&self) -> Result<Option<Lsn>, StoreError> {
        if self.replica.is_none() {
            return Ok(None);
        }
        position(&self.pool).await.map(Some)
    }

    /// Where to read: the standby if configured and it has replayed `min_lsn` (waiting up to
    /// the configured limit), else the primary.
    pub async fn reader(&self, min_lsn: Option<Lsn>) -> ReadHandle {
        let Some(replica) = &self.replica else {
            return ReadHandle {
                store: self.clone(),
                served_by: ServedBy::Primary,
            };
        };
        let on_replica = ReadHandle {
            store: Store::new(replica.pool.clone()),
            served_by: ServedBy::Replica,
        };
        let Some(wanted) = min_lsn else {
            return on_replica;
        };
        let deadline = Instant::now() + replica.max_wait;
        let mut pause = Duration::from_millis(2);
        loop {
            match position(&replica.pool).await {
                Ok(replayed) if replayed >= wanted => return on_replica,
                Ok(_) => {}
                Err(error) => {
                    tracing::warn!(error = %error, "the read replica cannot be asked how far it has replayed; reading from the primary");
                    break;
                }
            }
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            tokio::time::sleep(pause.min(deadline - now)).await;
            pause = (pause * 2).min(Duration::from_millis(50));
        }
        ReadHandle {
            store: self.clone(),
            served_by: ServedBy::PrimaryFallback,
        }
    }

    /// How many bytes of WAL the standby has still to replay (`None` without a standby).
    pub async fn replica_lag_bytes(&self) -> Result<Option<u64>, StoreError> {
        let Some(replica) = &self.replica else {
            return Ok(None);
        };
        let written = position(&self.pool).await?;
        let replayed = position(&replica.pool).await?;
        Ok(Some(written.0.saturating_sub(replayed.0)))
    }
}

/// The write (primary) or replay (standby) position of a database.
async fn position(pool: &PgPool) -> Result<Lsn, StoreError> {
    let text: String = sqlx::query_scalar(POSITION).fetch_one(pool).await?;
    Lsn::parse(&text).ok_or_else(|| {
        StoreError::Database(sqlx::Error::Protocol(format!(
            "the database reported a WAL position that is not a pg_lsn: {text}"
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::Lsn;

    #[test]
    fn an_lsn_reads_and_prints_as_postgresql_writes_it() {
        let lsn = Lsn::parse("16/B374D848").expect("valid");
        assert_eq!(lsn.0, (0x16 << 32) | 0xB374_D848);
        assert_eq!(lsn.to_string(), "16/B374D848");
        assert_eq!(Lsn::parse("0/0"), Some(Lsn(0)));
        assert!(Lsn::parse("0/1") < Lsn::parse("1/0"));
        for bad in ["", "16", "/1", "1/", "g/1", "123456789/0", "1/2/3", " 1/2"] {
            assert_eq!(Lsn::parse(bad), None, "{bad:?}");
        }
    }
}
