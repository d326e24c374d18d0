//! The service's configuration: every option of `arbiter serve`, declared once as clap
//! arguments (flag and environment variable), read once, and handed whole to
//! [`crate::startup::Application::build`]. The tests build the same [`ServeConfig`] (from
//! [`ServeConfig::defaults`], then changing fields), so every setting production reads is
//! reachable from a test.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

/// How many games are kept warm unless configured (`--warm-games`): folded games in memory,
/// the least recently used forgotten first.
pub const DEFAULT_WARM_GAMES: NonZeroUsize = match NonZeroUsize::new(4096) {
    Some(bound) => bound,
    None => unreachable!(),
};

/// Where the database is.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct DatabaseConfig {
    /// PostgreSQL URL. Without it, a private cluster is run from the installed PostgreSQL.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Where the private cluster keeps its data (default: /var/lib/arbiter as root,
    /// ~/.local/share/arbiter otherwise).
    #[arg(long, env = "ARBITER_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
}

/// The options of `arbiter serve`.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeConfig {
    /// Where the database is.
    #[command(flatten)]
    pub database: DatabaseConfig,
    /// Address to listen on.
    #[arg(long, env = "ARBITER_BIND", default_value = "127.0.0.1")]
    pub bind: String,
    /// Port to listen on (0: any free port, as the tests use).
    #[arg(long, env = "ARBITER_PORT", default_value_t = 8080)]
    pub port: u16,
    /// Database connections in the pool.
    #[arg(long, env = "ARBITER_DB_CONNECTIONS", default_value_t = 16)]
    pub db_connections: u32,
    /// The database role the service works as (may append and read events, never change
    /// them); migrations run as DATABASE_URL's own user.
    #[arg(long, env = "ARBITER_SERVICE_ROLE", default_value = "arbiter_service")]
    pub service_role: String,
    /// Minutes the public broadcast (routes under /v1/broadcast) runs behind the board.
    #[arg(long, env = "ARBITER_BROADCAST_DELAY_MINUTES", default_value_t = 0)]
    pub broadcast_delay_minutes: u32,
    /// Serve the public broadcast (routes under /v1/broadcast: delayed, filtered) without
    /// a token, for relays that poll a URL (lichess); every other route still needs one.
    #[arg(long, env = "ARBITER_PUBLIC_BROADCAST")]
    pub public_broadcast: bool,
    /// Origins whose web pages may read the public broadcast (routes under /v1/broadcast)
    /// across origins (CORS), comma-separated: `https://viewer.example.org`, or `*` for any
    /// site (the broadcast is public data). Needs --public-broadcast; never applies to a
    /// route that needs a token or a session. Default: none (no CORS headers at all).
    #[arg(long, env = "ARBITER_CORS_ALLOWED_ORIGINS", value_delimiter = ',', value_parser = parse_origin)]
    pub cors_allowed_origins: Vec<String>,
    /// A hot standby of DATABASE_URL (streaming replication) to serve the read routes;
    /// appends and token writes stay on the primary (docs/operations.md).
    #[arg(long, env = "ARBITER_READ_DATABASE_URL")]
    pub read_database_url: Option<String>,
    /// Database connections in the read replica's pool (default: --db-connections).
    #[arg(long, env = "ARBITER_READ_DB_CONNECTIONS")]
    pub read_db_connections: Option<u32>,
    /// How long a read carrying X-Arbiter-LSN waits for the replica before the primary
    /// serves it, in milliseconds.
    #[arg(long, env = "ARBITER_REPLICA_WAIT_MS", default_value_t = 2000)]
    pub replica_wait_ms: u64,
    /// Also serve GET /metrics without a token on this address (e.g. 127.0.0.1:9090);
    /// on the main address /metrics needs an admin token.
    #[arg(long, env = "ARBITER_METRICS_BIND")]
    pub metrics_bind: Option<String>,
    /// Failed authentications allowed per client address and minute before its failing
    /// requests are answered 429 (valid tokens are never slowed).
    #[arg(long, env = "ARBITER_AUTH_FAILURES_PER_MINUTE", default_value_t = 10)]
    pub auth_failures_per_minute: u32,
    /// Take the client address from Forwarded/X-Forwarded-For (only behind a reverse
    /// proxy that sets them) when counting failed authentications.
    #[arg(long, env = "ARBITER_TRUST_FORWARDED_FOR")]
    pub trust_forwarded_for: bool,
    /// Games kept folded in memory (least recently used forgotten first); a game not
    /// warm is folded from its log on its next append.
    #[arg(long, env = "ARBITER_WARM_GAMES", default_value_t = DEFAULT_WARM_GAMES)]
    pub warm_games: NonZeroUsize,
    /// Group commit (docs/write-path.md): tasks writing the appends of different games that
    /// arrive together as one statement and one commit; 0 writes every append alone.
    #[arg(long, env = "ARBITER_GROUP_COMMIT_WRITERS", default_value_t = 1)]
    pub group_commit_writers: usize,
    /// The most events one group commit stores (the appends waiting beyond it go in the
    /// next group).
    #[arg(long, env = "ARBITER_GROUP_COMMIT_MAX_EVENTS", default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub group_commit_max_events: u32,
    /// Group-commit tasks of their own for long appends (at least
    /// `--group-commit-bulk-events` events: a relay's or an import's moves), so that their
    /// statements run beside the short appends' groups; 0 queues them with the others.
    #[arg(long, env = "ARBITER_GROUP_COMMIT_BULK_WRITERS", default_value_t = 2)]
    pub group_commit_bulk_writers: usize,
    /// How many events make an append long (see `--group-commit-bulk-writers`).
    #[arg(long, env = "ARBITER_GROUP_COMMIT_BULK_EVENTS", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub group_commit_bulk_events: u32,
    /// Milliseconds a valid token is trusted without asking the database again (its
    /// revocation, rotation or expiry takes effect within this time; at once for a token
    /// revoked or rotated through this instance); 0 looks every token up on every request.
    #[arg(long, env = "ARBITER_TOKEN_CACHE_MS", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub token_cache_ms: u64,
    /// Milliseconds between two polls of a followed round's board feed.
    #[arg(long, env = "ARBITER_FOLLOW_POLL_MS", default_value_t = 3000)]
    pub follow_poll_ms: u64,
    /// Milliseconds after the poll read a board whose feed changed (a new last move, a
    /// takeback) that the board is fetched again, to see whether the change stands: a move is
    /// stored once the board has shown it this long or it has a successor. At least 100; at
    /// the poll interval or above, the next poll does it.
    #[arg(long, env = "ARBITER_FOLLOW_CONFIRM_MS", default_value_t = 500)]
    pub follow_confirm_ms: u64,
    /// The longest wait, in milliseconds, between polls of a board feed that fails (the
    /// wait doubles after each failure up to it).
    #[arg(long, env = "ARBITER_FOLLOW_MAX_BACKOFF_MS", default_value_t = 60_000)]
    pub follow_max_backoff_ms: u64,
    /// The longest a board feed's answer may take, in milliseconds (connecting takes at most
    /// half of it); a feed that stops answering fails the poll and is waited for.
    #[arg(long, env = "ARBITER_FOLLOW_TIMEOUT_MS", default_value_t = 10_000)]
    pub follow_timeout_ms: u64,
    /// Hosts a board feed may be followed from even though they are (or resolve to) a
    /// loopback, link-local, private or this machine's own address, comma-separated, as the
    /// feed URL writes them: `127.0.0.1`, `[::1]`, `livechess.lan`. Default: none (a feed on
    /// an internal address is refused; e.g. a DGT LiveChess PC on the venue's LAN needs its
    /// host listed here).
    #[arg(long, env = "ARBITER_FOLLOW_ALLOW_HOSTS", value_delimiter = ',')]
    pub follow_allow_hosts: Vec<String>,
    /// HTTP worker threads (default: one per CPU core).
    #[arg(long, env = "ARBITER_WORKERS")]
    pub workers: Option<std::num::NonZeroUsize>,
    /// Back-office sessions.
    #[command(flatten)]
    pub sessions: SessionConfig,
    /// Whether SIGINT and SIGTERM stop the server (always for `arbiter serve`; the tests
    /// that run several servers in one process stop them through their handles).
    #[arg(skip = true)]
    pub handle_signals: bool,
}

/// Only the serve options, to read their defaults.
#[derive(clap::Parser)]
struct ServeOnly {
    #[command(flatten)]
    config: ServeConfig,
}

impl ServeConfig {
    /// The configuration `arbiter serve` runs with when given no flag (environment
    /// variables still apply, as they do for the binary).
    ///
    /// # Panics
    ///
    /// When an `ARBITER_*` environment variable holds a value its option refuses (start-up
    /// only).
    pub fn defaults() -> ServeConfig {
        <ServeOnly as clap::Parser>::try_parse_from(["arbiter"])
            .unwrap_or_else(|error| panic!("the serve options' defaults: {error}"))
            .config
    }

    /// Refuses a configuration whose options contradict each other, saying which to change.
    pub fn check(&self) -> Result<(), String> {
        if !self.cors_allowed_origins.is_empty() && !self.public_broadcast {
            return Err(format!(
                "--cors-allowed-origins ({}) needs --public-broadcast: CORS is answered only on \
                 the public broadcast, never on a route that needs a token. Add \
                 --public-broadcast (ARBITER_PUBLIC_BROADCAST=true) or leave the origins out.",
                self.cors_allowed_origins.join(",")
            ));
        }
        Ok(())
    }

    /// The origins allowed to read the public broadcast across origins: empty unless the
    /// broadcast is public.
    pub fn broadcast_cors_origins(&self) -> Vec<String> {
        if self.public_broadcast {
            self.cors_allowed_origins.clone()
        } else {
            Vec::new()
        }
    }

    /// How far the public broadcast runs behind the board.
    pub fn broadcast_delay(&self) -> Duration {
        Duration::from_secs(u64::from(self.broadcast_delay_minutes) * 60)
    }

    /// How long a read waits for the replica before the primary serves it.
    pub fn replica_wait(&self) -> Duration {
        Duration::from_millis(self.replica_wait_ms)
    }

    /// Connections in the read replica's pool.
    pub fn read_db_connections(&self) -> u32 {
        self.read_db_connections.unwrap_or(self.db_connections)
    }
}

/// One allowed CORS origin: `*`, or a scheme and host with an optional port and nothing
/// after it (`https://viewer.example.org`, `http://localhost:3000`), as browsers send it in
/// `Origin`.
fn parse_origin(value: &str) -> Result<String, String> {
    let value = value.trim();
    if value == "*" {
        return Ok(value.to_string());
    }
    let host = value
        .strip_prefix("https://")
        .or_else(|| value.strip_prefix("http://"));
    match host {
        Some(host)
            if !host.is_empty()
                && host.chars().all(|c| {
                    c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']')
                }) =>
        {
            Ok(value.to_string())
        }
        _ => Err(format!(
            "`{value}` is not an origin: write `*` or a scheme and host as a browser sends \
             them in `Origin`, e.g. https://viewer.example.org or http://localhost:3000 (no \
             path, no trailing slash)"
        )),
    }
}

/// The options of back-office sessions.
#[derive(Clone, Debug, clap::Args)]
pub struct SessionConfig {
    /// A back-office session unused this many minutes ends.
    #[arg(long, env = "ARBITER_SESSION_IDLE_MINUTES", default_value_t = 240)]
    pub session_idle_minutes: u64,
    /// A back-office session ends this many hours after sign-in.
    #[arg(long, env = "ARBITER_SESSION_MAX_HOURS", default_value_t = 16)]
    pub session_max_hours: u64,
    /// When the session cookie is `Secure`: `auto` (the request came over HTTPS, or a proxy
    /// said so in Forwarded / X-Forwarded-Proto) or `always`.
    #[arg(
        long,
        env = "ARBITER_SECURE_COOKIES",
        value_enum,
        default_value = "auto"
    )]
    pub secure_cookies: SecureCookies,
}

impl SessionConfig {
    /// The session settings these options give.
    pub fn settings(&self) -> SessionSettings {
        SessionSettings {
            session_idle: Duration::from_secs(self.session_idle_minutes.max(1) * 60),
            session_lifetime: Duration::from_secs(self.session_max_hours.max(1) * 3600),
            secure_cookies: self.secure_cookies,
        }
    }
}

/// When the session cookie is marked `Secure`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SecureCookies {
    /// When the request arrived over HTTPS: TLS on the listener, or a reverse proxy saying
    /// so in `Forwarded: proto=https` or `X-Forwarded-Proto: https`.
    #[default]
    Auto,
    /// Always (behind a TLS-terminating proxy that does not say so).
    Always,
}

/// How long back-office sessions live and how their cookie is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionSettings {
    /// A session unused this long ends.
    pub session_idle: Duration,
    /// A session ends this long after sign-in, used or not.
    pub session_lifetime: Duration,
    /// When the cookie is `Secure`.
    pub secure_cookies: SecureCookies,
}

impl Default for SessionSettings {
    fn default() -> Self {
        SessionSettings {
            // A round of standard play lasts up to six hours; an arbiter at a board may not
            // touch the tablet for a long while.
            session_idle: Duration::from_secs(4 * 3600),
            session_lifetime: Duration::from_secs(16 * 3600),
            secure_cookies: SecureCookies::Auto,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_documented_ones_and_the_sessions_match_their_settings_default() {
        let config = ServeConfig::defaults();
        assert_eq!(config.auth_failures_per_minute, 10);
        assert_eq!(config.read_db_connections(), config.db_connections);
        assert_eq!(config.sessions.settings(), SessionSettings::default());
    }

    #[test]
    fn an_allowed_origin_is_a_star_or_a_scheme_and_host_without_a_path() {
        assert_eq!(parse_origin("*"), Ok("*".into()));
        assert_eq!(
            parse_origin("http://localhost:3000"),
            Ok("http://localhost:3000".into())
        );
        assert!(parse_origin("https://viewer.example.org/").is_err());
        assert!(parse_origin("viewer.example.org").is_err());
    }

    #[test]
    fn cors_origins_without_a_public_broadcast_are_refused_with_the_option_to_add() {
        let mut config = ServeConfig::defaults();
        config.cors_allowed_origins = vec!["*".into()];
        let refusal = config
            .check()
            .expect_err("refused without --public-broadcast");
        assert!(refusal.contains("--public-broadcast"), "{refusal}");
        assert!(config.broadcast_cors_origins().is_empty());
        config.public_broadcast = true;
        assert_eq!(config.check(), Ok(()));
        assert_eq!(config.broadcast_cors_origins(), vec!["*".to_string()]);
    }
}
