//! Several database hosts, one of them the primary: libpq multi-host URLs and following the
//! primary when a failover manager (pg_auto_failover, Patroni) moves it.
//!
//! sqlx parses one host per URL. A URL such as
//! `postgres://arbiter@10.0.0.1:5432,10.0.0.2:5432/arbiter?target_session_attrs=read-write`
//! (what `pg_autoctl show uri` prints) is split here into one set of connect options per host.
//! The pool connects to the host that has the wanted role (`pg_is_in_recovery()`), and a
//! watcher task keeps one connection of its own to that host, asking it every
//! [`CHECK_EVERY`] whether it still has that role. When the host stops answering or changes
//! role, the watcher marks every pooled connection as stale (they are closed instead of
//! handed out: [`Following::is_stale`]), looks for the host that has the role now, and points
//! the pool's future connections at it. Meanwhile requests fail fast (connection refused,
//! `read only transaction`) and are answered 503 with `Retry-After`
//! ([`super::StoreError::is_unavailable`]). A single-host URL never comes here: it behaves as
//! before.

use super::StoreError;
use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{Connection, PgPool};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the watcher asks the host in use whether it still has the wanted role.
pub const CHECK_EVERY: Duration = Duration::from_millis(250);

/// How often the watcher says, while no host has the wanted role, that it is still looking.
const WARN_EVERY: Duration = Duration::from_secs(5);

/// How long one host may take to accept a connection and answer during the search.
const ANSWER_WITHIN: Duration = Duration::from_secs(2);

/// How often a pool that wants a standby but had to take the primary looks for a standby.
const PREFERENCE_EVERY: Duration = Duration::from_secs(2);

/// Which host a multi-host URL asks for (`target_session_attrs`, as libpq spells it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetSession {
    /// `read-write` or `primary` (and the service's choice when the URL says nothing): the
    /// host that is not in recovery.
    Primary,
    /// `standby` or `read-only`: a host in recovery only.
    Standby,
    /// `prefer-standby`: a host in recovery, else the primary.
    PreferStandby,
    /// `any`: the first host that answers.
    Any,
}

impl TargetSession {
    fn parse(value: &str) -> Option<TargetSession> {
        match value {
            "read-write" | "primary" => Some(TargetSession::Primary),
            "read-only" | "standby" => Some(TargetSession::Standby),
            "prefer-standby" => Some(TargetSession::PreferStandby),
            "any" => Some(TargetSession::Any),
            _ => None,
        }
    }

    /// Whether a host in recovery (`true`) or not is the one wanted, or acceptable.
    fn fit(self, in_recovery: bool) -> Fit {
        match (self, in_recovery) {
            (TargetSession::Primary, false) | (TargetSession::Standby, true) => Fit::Wanted,
            (TargetSession::PreferStandby, true) | (TargetSession::Any, _) => Fit::Wanted,
            (TargetSession::PreferStandby, false) => Fit::Acceptable,
            _ => Fit::No,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fit {
    No,
    Acceptable,
    Wanted,
}

/// A libpq multi-host URL, split: one set of connect options per host, in the URL's order.
#[derive(Clone, Debug)]
pub struct MultiHost {
    /// `host:port` of each host, for messages.
    pub names: Vec<String>,
    /// The connect options of each host.
    pub hosts: Vec<PgConnectOptions>,
    /// Which host to use.
    pub target: TargetSession,
}

impl MultiHost {
    /// Splits `url` when it names several hosts (`h1:p1,h2:p2`); `Ok(None)` for a URL with one
    /// host (or one sqlx reads itself), which is used as it is.
    pub fn parse(url: &str) -> Result<Option<MultiHost>, StoreError> {
        let Some((scheme, rest)) = url.split_once("://") else {
            return Ok(None);
        };
        if scheme != "postgres" && scheme != "postgresql" {
            return Ok(None);
        }
        let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(authority_end);
        let (userinfo, host_list) = match authority.rfind('@') {
            Some(at) => (&authority[..=at], &authority[at + 1..]),
            None => ("", authority),
        };
        if !host_list.contains(',') {
            return Ok(None);
        }
        let (tail, target) = take_target_session(tail)?;
        let mut names = Vec::new();
        let mut hosts = Vec::new();
        for host in host_list.split(',') {
            let (name, port) = split_host_port(host)?;
            let single = format!("{scheme}://{userinfo}{name}:{port}{tail}");
            let options = PgConnectOptions::from_str(&single).map_err(|error| {
                config_error(format!(
                    "the database URL's host {host:?} cannot be used: {error}"
                ))
            })?;
            names.push(format!("{name}:{port}"));
            hosts.push(options);
        }
        Ok(Some(MultiHost {
            names,
            hosts,
            target: target.unwrap_or(TargetSession::Primary),
        }))
    }
}

/// Removes `target_session_attrs` from the URL's path-and-query `tail` (sqlx does not know it)
/// and reads it.
fn take_target_session(tail: &str) -> Result<(String, Option<TargetSession>), StoreError> {
    let (path, query) = match tail.split_once('?') {
        Some((path, query)) => (path, query),
        None => return Ok((tail.to_string(), None)),
    };
    let mut target = None;
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        match pair.split_once('=') {
            Some(("target_session_attrs", value)) => {
                target = Some(TargetSession::parse(value).ok_or_else(|| {
                    config_error(format!(
                        "target_session_attrs={value} is not one of read-write, primary, \
                         read-only, standby, prefer-standby, any"
                    ))
                })?);
            }
            _ => kept.push(pair),
        }
    }
    let tail = if kept.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", kept.join("&"))
    };
    Ok((tail, target))
}

/// `name[:port]` or `[v6]:port`; PostgreSQL's port 5432 when none is given.
fn split_host_port(host: &str) -> Result<(&str, u16), StoreError> {
    let empty = || config_error("the database URL has an empty host in its host list".into());
    if host.is_empty() {
        return Err(empty());
    }
    let (name, port) = if host.starts_with('[') {
        let close = host.find(']').ok_or_else(|| {
            config_error(format!(
                "the database URL's host {host:?} lacks its closing `]`"
            ))
        })?;
        let port = host[close + 1..].strip_prefix(':');
        if port.is_none() && close + 1 != host.len() {
            return Err(config_error(format!(
                "the database URL's host {host:?} has text after `]` that is not `:port`"
            )));
        }
        (&host[..=close], port)
    } else {
        match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        }
    };
    if name.is_empty() || name == "[]" {
        return Err(empty());
    }
    let port = match port {
        None => 5432,
        Some(port) => port.parse::<u16>().ok().filter(|p| *p > 0).ok_or_else(|| {
            config_error(format!(
                "the database URL's host {host:?} has the port {port:?}, which is not a port number"
            ))
        })?,
    };
    Ok((name, port))
}

fn config_error(message: String) -> StoreError {
    StoreError::Database(sqlx::Error::Configuration(message.into()))
}

/// The role a host has, and a connection to it.
async fn probe(options: &PgConnectOptions) -> Result<(PgConnection, bool), sqlx::Error> {
    let attempt = async {
        let mut connection = PgConnection::connect_with(options).await?;
        let in_recovery: bool = sqlx::query_scalar("SELECT pg_is_in_recovery()")
            .fetch_one(&mut connection)
            .await?;
        Ok((connection, in_recovery))
    };
    match tokio::time::timeout(ANSWER_WITHIN, attempt).await {
        Ok(answer) => answer,
        Err(_) => Err(sqlx::Error::PoolTimedOut),
    }
}

/// The host to use now: the first wanted one in URL order, else the first acceptable one,
/// with a connection to it and whether it is the wanted kind.
async fn search(hosts: &MultiHost) -> Option<(usize, PgConnection, Fit)> {
    let mut acceptable: Option<(usize, PgConnection)> = None;
    for (index, options) in hosts.hosts.iter().enumerate() {
        let Ok((connection, in_recovery)) = probe(options).await else {
            continue;
        };
        match hosts.target.fit(in_recovery) {
            Fit::Wanted => return Some((index, connection, Fit::Wanted)),
            Fit::Acceptable if acceptable.is_none() => acceptable = Some((index, connection)),
            _ => {}
        }
    }
    acceptable.map(|(index, connection)| (index, connection, Fit::Acceptable))
}

/// The primary (or wanted host) a pool follows: which host it is, and since when the pooled
/// connections made before are stale.
#[derive(Debug)]
pub struct Following {
    hosts: MultiHost,
    started: Instant,
    /// Nanoseconds after `started` before which pooled connections are stale.
    stale_before: AtomicU64,
    /// The host in use (index into `hosts`).
    current: Mutex<usize>,
}

impl Following {
    /// Finds the host to use (waiting up to `patience` for one), for a pool to connect to.
    pub async fn start(
        hosts: MultiHost,
        patience: Duration,
    ) -> Result<(Arc<Following>, PgConnectOptions, PgConnection), StoreError> {
        let deadline = Instant::now() + patience;
        loop {
            if let Some((index, connection, _)) = search(&hosts).await {
                let options = hosts.hosts[index].clone();
                tracing::info!(host = %hosts.names[index], "database host chosen from the multi-host URL");
                let following = Arc::new(Following {
                    hosts,
                    started: Instant::now(),
                    stale_before: AtomicU64::new(0),
                    current: Mutex::new(index),
                });
                return Ok((following, options, connection));
            }
            if Instant::now() >= deadline {
                return Err(StoreError::NoHostFits {
                    hosts: hosts.names.join(","),
                    wanted: hosts.target,
                });
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }

    /// Whether a pooled connection `age` old was made before the last change of host (or
    /// loss of the watcher's connection) and must be closed instead of used.
    pub fn is_stale(&self, age: Duration) -> bool {
        let now = self.started.elapsed();
        let made_at = now.saturating_sub(age);
        let stale_before = Duration::from_nanos(self.stale_before.load(Ordering::Relaxed));
        made_at < stale_before
    }

    fn mark_stale(&self) {
        let now = u64::try_from(self.started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.stale_before.store(now, Ordering::Relaxed);
    }

    fn current(&self) -> usize {
        *self
            .current
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The watcher: runs until `pool` is closed.
    pub async fn watch(self: Arc<Self>, pool: PgPool, mut connection: Option<PgConnection>) {
        let mut fit = Fit::Wanted;
        let mut last_preference = Instant::now();
        let mut lost_since: Option<Instant> = None;
        let mut last_warning: Option<Instant> = None;
        while !pool.is_closed() {
            tokio::time::sleep(CHECK_EVERY).await;
            let role = match connection.as_mut() {
                Some(connection) => {
                    let ask = sqlx::query_scalar::<_, bool>("SELECT pg_is_in_recovery()")
                        .fetch_one(connection);
                    match tokio::time::timeout(ANSWER_WITHIN, ask).await {
                        Ok(Ok(in_recovery)) => Some(self.hosts.target.fit(in_recovery)),
                        _ => None,
                    }
                }
                None => None,
            };
            if let Some(role) = role {
                fit = role;
            }
            let keep = match role {
                Some(Fit::Wanted) => true,
                Some(Fit::Acceptable) => {
                    // A standby is preferred: look for one now and then, keep this one meanwhile.
                    last_preference.elapsed() < PREFERENCE_EVERY
                }
                _ => false,
            };
            if keep {
                continue;
            }
            last_preference = Instant::now();
            let lost = role.is_none() || role == Some(Fit::No);
            if lost {
                // Nothing pooled before now may be handed out: it talks to a host that is gone
                // or no longer has the role.
                connection = None;
                self.mark_stale();
                lost_since.get_or_insert_with(Instant::now);
            }
            let Some((index, found, found_fit)) = search(&self.hosts).await else {
                if lost && last_warning.is_none_or(|at| at.elapsed() >= WARN_EVERY) {
                    last_warning = Some(Instant::now());
                    tracing::warn!(hosts = %self.hosts.names.join(","), wanted = ?self.hosts.target, "no database host has the wanted role yet; requests are answered 503 until one has");
                }
                continue;
            };
            last_warning = None;
            if !lost && found_fit <= fit {
                // Still only acceptable hosts: keep the one in use.
                continue;
            }
            let previous = self.current();
            if index != previous || lost {
                pool.set_connect_options(self.hosts.hosts[index].clone());
                *self
                    .current
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()) = index;
                self.mark_stale();
                let after_ms = lost_since
                    .take()
                    .map(|since| since.elapsed().as_millis() as u64);
                tracing::warn!(from = %self.hosts.names[previous], to = %self.hosts.names[index], after_ms, "the database host changed; the pool follows it");
            }
            connection = Some(found);
            fit = found_fit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{MultiHost, TargetSession};

    #[test]
    fn a_single_host_url_is_left_to_sqlx() {
        for url in [
            "postgres://arbiter@127.0.0.1:5432/arbiter",
            "postgres://u:p@localhost/arbiter?target_session_attrs=read-write",
            "postgresql:///arbiter?host=/var/run/postgresql",
            "mysql://a,b/c",
            "not a url",
        ] {
            assert!(MultiHost::parse(url).expect("parses").is_none(), "{url}");
        }
    }

    #[test]
    fn pg_auto_failover_uri_splits_into_its_hosts() {
        let url = "postgres://arbiter:s%40cret@127.0.0.1:55401,127.0.0.1:55402/arbiter?target_session_attrs=read-write&sslmode=prefer";
        let multi = MultiHost::parse(url).expect("parses").expect("multi-host");
        assert_eq!(multi.names, ["127.0.0.1:55401", "127.0.0.1:55402"]);
        assert_eq!(multi.target, TargetSession::Primary);
        let ports: Vec<u16> = multi.hosts.iter().map(|o| o.get_port()).collect();
        assert_eq!(ports, [55401, 55402]);
        for options in &multi.hosts {
            assert_eq!(options.get_host(), "127.0.0.1");
            assert_eq!(options.get_username(), "arbiter");
            assert_eq!(options.get_database(), Some("arbiter"));
        }
    }

    #[test]
    fn hosts_take_default_ports_ipv6_and_every_target() {
        let multi = MultiHost::parse(
            "postgresql://db1,[::1]:6543,db3:7000?target_session_attrs=prefer-standby",
        )
        .expect("parses")
        .expect("multi-host");
        assert_eq!(multi.names, ["db1:5432", "[::1]:6543", "db3:7000"]);
        assert_eq!(multi.target, TargetSession::PreferStandby);
        for (attr, target) in [
            ("primary", TargetSession::Primary),
            ("read-only", TargetSession::Standby),
            ("standby", TargetSession::Standby),
            ("any", TargetSession::Any),
        ] {
            let url = format!("postgres://a,b/db?sslmode=disable&target_session_attrs={attr}");
            let multi = MultiHost::parse(&url).expect("parses").expect("multi-host");
            assert_eq!(multi.target, target, "{attr}");
        }
        let without = MultiHost::parse("postgres://u@a:1,b:2/db")
            .expect("parses")
            .expect("multi");
        assert_eq!(without.target, TargetSession::Primary);
    }

    #[test]
    fn a_malformed_host_list_is_refused_with_the_reason() {
        for (url, says) in [
            ("postgres://a,,b/db", "empty host"),
            ("postgres://a:1,:2/db", "empty host"),
            ("postgres://a:1,b:x/db", "not a port number"),
            ("postgres://a:1,b:70000/db", "not a port number"),
            ("postgres://a,[::1/db", "closing"),
            (
                "postgres://a,b/db?target_session_attrs=sometimes",
                "target_session_attrs",
            ),
        ] {
            let error = MultiHost::parse(url).expect_err(url).to_string();
            let detail = match MultiHost::parse(url) {
                Err(super::StoreError::Database(sqlx::Error::Configuration(message))) => {
                    message.to_string()
                }
                other => panic!("{url}: {other:?} ({error})"),
            };
            assert!(detail.contains(says), "{url}: {detail}");
        }
    }
}
