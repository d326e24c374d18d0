//! Checking bearer tokens, with a short memory of the valid ones.
//!
//! Looking a token up is one statement and one round trip to PostgreSQL on every request:
//! under load, as much as a third of an append's database work (docs/write-path.md). A token
//! found valid is therefore trusted for a short while (`--token-cache-ms`, 2 s by default)
//! without asking again. The promise (docs/trust.md, "Tokens and roles"):
//!
//! * a token revoked, rotated or given another fair-play role **through this instance** (the
//!   API or the back office) stops working, or works with its new rights, **at once**: the
//!   instance forgets it before answering the revocation;
//! * revoked elsewhere (`arbiter token revoke`, another instance), it stops working **within
//!   the cache time**;
//! * an expiring token is never trusted past its expiry (the entry ends then, by this
//!   machine's clock);
//! * an unknown, revoked or expired token is never remembered: each such request asks the
//!   database, so a token created a moment ago works at once, and the failed-authentication
//!   throttle sees every failure.
//!
//! A cache time of 0 looks every token up on every request, as before.

use crate::access::Principal;
use crate::store::{Store, StoreError, TokenCheck, token_hash};
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use uuid::Uuid;

/// Above this many remembered tokens, the expired entries are dropped (and if none is, the
/// whole memory: it is only a shortcut).
const MAX_REMEMBERED: usize = 4096;

/// A valid token remembered.
#[derive(Clone, Debug)]
struct Remembered {
    principal: Principal,
    /// Trusted until then (monotonic clock).
    until: Instant,
    /// The token's own expiry, if it has one (wall clock).
    expires_at: Option<DateTime<Utc>>,
}

/// Checks tokens against the store, remembering valid ones for a short while. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Authenticator {
    store: Store,
    remember_for: Duration,
    remembered: Arc<Mutex<HashMap<Vec<u8>, Remembered>>>,
}

impl Authenticator {
    /// Checks tokens in `store`, trusting a valid one for `remember_for` (zero: never).
    pub fn new(store: Store, remember_for: Duration) -> Self {
        Authenticator {
            store,
            remember_for,
            remembered: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// How long a valid token is trusted without asking the database.
    pub fn remember_for(&self) -> Duration {
        self.remember_for
    }

    fn memory(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<u8>, Remembered>> {
        self.remembered
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// What `token` is: valid (with its principal), expired, or unknown (also revoked).
    pub async fn authenticate(&self, token: &str) -> Result<TokenCheck, StoreError> {
        let hash = token_hash(token);
        if !self.remember_for.is_zero() {
            let now = Instant::now();
            let mut memory = self.memory();
            if let Some(entry) = memory.get(&hash) {
                let expired = entry.expires_at.is_some_and(|at| at <= Utc::now());
                if entry.until > now && !expired {
                    return Ok(TokenCheck::Valid(entry.principal.clone()));
                }
                memory.remove(&hash);
            }
        }
        let (check, expires_at) = self.store.authenticate_hash(&hash).await?;
        if let TokenCheck::Valid(principal) = &check
            && !self.remember_for.is_zero()
        {
            let mut memory = self.memory();
            if memory.len() >= MAX_REMEMBERED {
                let now = Instant::now();
                memory.retain(|_, entry| entry.until > now);
                if memory.len() >= MAX_REMEMBERED {
                    memory.clear();
                }
            }
            memory.insert(
                hash,
                Remembered {
                    principal: principal.clone(),
                    until: Instant::now() + self.remember_for,
                    expires_at,
                },
            );
        }
        Ok(check)
    }

    /// Forgets the token `token_id` (revoked, rotated or changed here): its next request
    /// asks the database.
    pub fn forget(&self, token_id: Uuid) {
        self.memory()
            .retain(|_, entry| entry.principal.token_id != token_id);
    }
}
