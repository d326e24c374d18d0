//! `arbiter`: the command line of the arbitration record service.
//!
//! `serve` runs the HTTP service (on a private PostgreSQL cluster when no `DATABASE_URL` is
//! set), `migrate` applies migrations, `openapi` prints the OpenAPI document, `verify --all`
//! checks every game's hash chain, `import` records a PGN file through the engine.

use anyhow::{Context, Result};
use arbiter::cluster::Cluster;
use arbiter::http::AppState;
use arbiter::store::Store;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Arbitration record service for over-the-board chess"
)]
struct Cli {
    /// Log filter (`info`, `debug`, `arbiter=debug,actix_web=info`, ...).
    #[arg(
        long,
        env = "ARBITER_LOG",
        default_value = "info,sqlx=warn",
        global = true
    )]
    log_level: String,
    /// Log as JSON lines instead of text.
    #[arg(long, env = "ARBITER_LOG_JSON", global = true)]
    log_json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Args)]
struct DatabaseArgs {
    /// PostgreSQL URL. Without it, a private cluster is run from the installed PostgreSQL.
    #[arg(long, env = "DATABASE_URL")]
    database_url: Option<String>,
    /// Where the private cluster keeps its data (default: /var/lib/arbiter as root,
    /// ~/.local/share/arbiter otherwise).
    #[arg(long, env = "ARBITER_DATA_DIR")]
    data_dir: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP service.
    Serve {
        #[command(flatten)]
        database: DatabaseArgs,
        /// Address to listen on.
        #[arg(long, env = "ARBITER_BIND", default_value = "127.0.0.1")]
        bind: String,
        /// Port to listen on.
        #[arg(long, env = "ARBITER_PORT", default_value_t = 8080)]
        port: u16,
        /// Database connections in the pool.
        #[arg(long, env = "ARBITER_DB_CONNECTIONS", default_value_t = 16)]
        db_connections: u32,
        /// The database role the service works as (may append and read events, never change
        /// them); migrations run as DATABASE_URL's own user.
        #[arg(long, env = "ARBITER_SERVICE_ROLE", default_value = "arbiter_service")]
        service_role: String,
        /// Minutes the public broadcast (routes under /v1/broadcast) runs behind the board.
        #[arg(long, env = "ARBITER_BROADCAST_DELAY_MINUTES", default_value_t = 0)]
        broadcast_delay_minutes: u32,
        /// Serve the public broadcast (routes under /v1/broadcast: delayed, filtered) without
        /// a token, for relays that poll a URL (lichess); every other route still needs one.
        #[arg(long, env = "ARBITER_PUBLIC_BROADCAST")]
        public_broadcast: bool,
        /// A hot standby of DATABASE_URL (streaming replication) to serve the read routes;
        /// appends and token writes stay on the primary (docs/operations.md).
        #[arg(long, env = "ARBITER_READ_DATABASE_URL")]
        read_database_url: Option<String>,
        /// Database connections in the read replica's pool (default: --db-connections).
        #[arg(long, env = "ARBITER_READ_DB_CONNECTIONS")]
        read_db_connections: Option<u32>,
        /// How long a read carrying X-Arbiter-LSN waits for the replica before the primary
        /// serves it, in milliseconds.
        #[arg(long, env = "ARBITER_REPLICA_WAIT_MS", default_value_t = 2000)]
        replica_wait_ms: u64,
        /// Also serve GET /metrics without a token on this address (e.g. 127.0.0.1:9090);
        /// on the main address /metrics needs an admin token.
        #[arg(long, env = "ARBITER_METRICS_BIND")]
        metrics_bind: Option<String>,
        /// Failed authentications allowed per client address and minute before its failing
        /// requests are answered 429 (valid tokens are never slowed).
        #[arg(long, env = "ARBITER_AUTH_FAILURES_PER_MINUTE", default_value_t = 10)]
        auth_failures_per_minute: u32,
        /// Take the client address from Forwarded/X-Forwarded-For (only behind a reverse
        /// proxy that sets them) when counting failed authentications.
        #[arg(long, env = "ARBITER_TRUST_FORWARDED_FOR")]
        trust_forwarded_for: bool,
        /// Games kept folded in memory (least recently used forgotten first); a game not
        /// warm is folded from its log on its next append.
        #[arg(long, env = "ARBITER_WARM_GAMES", default_value_t = arbiter::arbitration::DEFAULT_WARM_GAMES)]
        warm_games: std::num::NonZeroUsize,
        #[command(flatten)]
        sessions: SessionArgs,
    },
    /// Apply pending database migrations and exit.
    Migrate {
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// Print the OpenAPI document (regenerate the committed one with
    /// `cargo run -- openapi > openapi/openapi.json`).
    Openapi,
    /// Verify hash chains: an exported game offline (`arbiter verify FILE`), or every game in
    /// the database (`arbiter verify --all`).
    Verify {
        #[command(flatten)]
        database: DatabaseArgs,
        /// Check every game in the database.
        #[arg(long, conflicts_with = "file")]
        all: bool,
        /// An export (`GET /v1/games/{id}/export`) to check without a database.
        file: Option<PathBuf>,
        /// The published chain head's seq (`GET /v1/games/{id}/digest`): the export must end there.
        #[arg(long, requires = "digest_hash")]
        digest_seq: Option<u64>,
        /// The published chain head's hash.
        #[arg(long, requires = "digest_seq")]
        digest_hash: Option<String>,
    },
    /// Rebuild the `games` read model (the summary rows the listings read) from the event
    /// log: every game folded by the engine, every row that does not follow its log
    /// rewritten. Appends wait while it runs.
    Rebuild {
        #[command(flatten)]
        database: DatabaseArgs,
    },
    /// Analyse a PGN file: one JSON object per game with the plies where threefold and
    /// fivefold repetition, the 50 and 75 moves, dead positions and flag-fall draws hold, and
    /// the first automatic end (no database needed).
    Analyze {
        /// The PGN file.
        file: PathBuf,
    },
    /// Import a PGN file: create its games and record their moves with their clock readings
    /// through the engine; prints one JSON report per game (like `POST /v1/games/import`).
    Import {
        #[command(flatten)]
        database: DatabaseArgs,
        /// The PGN file.
        file: PathBuf,
        /// Events recorded per append.
        #[arg(long, default_value_t = arbiter::import::DEFAULT_BATCH)]
        batch_size: usize,
        /// The database role the import records as (as `serve`).
        #[arg(long, env = "ARBITER_SERVICE_ROLE", default_value = "arbiter_service")]
        service_role: String,
    },
    /// Manage bearer tokens.
    Token {
        #[command(flatten)]
        database: DatabaseArgs,
        #[command(subcommand)]
        action: TokenAction,
    },
}

#[derive(Debug, Subcommand)]
enum TokenAction {
    /// Create a token and print it (only once: only its hash is stored).
    Create {
        /// The role.
        #[arg(long, value_enum)]
        role: arbiter::access::Role,
        /// Who holds it.
        #[arg(long)]
        name: String,
        /// Limit the token to this event (repeat for several).
        #[arg(long = "event")]
        events: Vec<String>,
        /// The token stops working after this long: `90d`, `12h`, `30m`, `2w`.
        #[arg(long, conflicts_with = "expires_at")]
        expires_in: Option<String>,
        /// The token stops working at this time (RFC 3339).
        #[arg(long)]
        expires_at: Option<chrono::DateTime<chrono::Utc>>,
    },
    /// List tokens (one JSON object a line, with expiry and last use).
    List,
    /// Revoke a token at once.
    Revoke {
        /// The token's id.
        token_id: uuid::Uuid,
    },
    /// Replace a token with a new one of the same name, role and events, printed once; the
    /// old one is revoked at once, or with --grace keeps working that long.
    Rotate {
        /// The token's id.
        token_id: uuid::Uuid,
        /// The new token's lifetime (`90d`, `12h`); by default the old token's lifetime,
        /// counted from now, or none if it did not expire.
        #[arg(long, conflicts_with = "expires_at")]
        expires_in: Option<String>,
        /// The new token's expiry (RFC 3339).
        #[arg(long)]
        expires_at: Option<chrono::DateTime<chrono::Utc>>,
        /// How long the old token keeps working (`10m`, `1h`; at most 30 days).
        #[arg(long)]
        grace: Option<String>,
    },
}

/// Back-office sessions.
#[derive(Debug, clap::Args)]
struct SessionArgs {
    /// A back-office session unused this many minutes ends.
    #[arg(long, env = "ARBITER_SESSION_IDLE_MINUTES", default_value_t = 240)]
    session_idle_minutes: u64,
    /// A back-office session ends this many hours after sign-in.
    #[arg(long, env = "ARBITER_SESSION_MAX_HOURS", default_value_t = 16)]
    session_max_hours: u64,
    /// When the session cookie is `Secure`: `auto` (the request came over HTTPS, or a proxy
    /// said so in Forwarded / X-Forwarded-Proto) or `always`.
    #[arg(
        long,
        env = "ARBITER_SECURE_COOKIES",
        value_enum,
        default_value = "auto"
    )]
    secure_cookies: arbiter::web::SecureCookies,
}

impl SessionArgs {
    fn settings(&self) -> arbiter::web::WebSettings {
        arbiter::web::WebSettings {
            session_idle: std::time::Duration::from_secs(self.session_idle_minutes.max(1) * 60),
            session_lifetime: std::time::Duration::from_secs(self.session_max_hours.max(1) * 3600),
            secure_cookies: self.secure_cookies,
        }
    }
}

/// The database to use: the given URL, or a private cluster started for the purpose.
struct Database {
    url: String,
    cluster: Option<Cluster>,
}

impl Database {
    async fn open(args: &DatabaseArgs) -> Result<Database> {
        if let Some(url) = &args.database_url {
            return Ok(Database {
                url: url.clone(),
                cluster: None,
            });
        }
        let base = args.data_dir.clone().unwrap_or_else(default_data_dir);
        let cluster = tokio::task::spawn_blocking(move || Cluster::start(&base)).await??;
        Store::ensure_arbiter_database(&cluster.admin_url())
            .await
            .context("cannot create the `arbiter` database in the private cluster")?;
        Ok(Database {
            url: cluster.database_url(),
            cluster: Some(cluster),
        })
    }

    fn close(self) -> Result<()> {
        match self.cluster {
            Some(cluster) => cluster.stop(),
            None => Ok(()),
        }
    }
}

fn default_data_dir() -> PathBuf {
    let root = arbiter::cluster::running_as_root();
    if root {
        return PathBuf::from("/var/lib/arbiter");
    }
    std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."))
        .join("arbiter")
}

fn init_logging(cli: &Cli) {
    let filter = tracing_subscriber::EnvFilter::try_new(&cli.log_level)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if cli.log_json {
        builder.json().init();
    } else {
        builder.init();
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(&cli);
    match run(cli).await {
        Ok(code) => code,
        Err(error) => {
            eprintln!("arbiter: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Openapi => {
            println!(
                "{}",
                serde_json::to_string_pretty(&arbiter::http::openapi())?
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Migrate { database } => {
            let database = Database::open(&database).await?;
            let outcome = migrate(&database.url).await;
            database.close()?;
            outcome?;
            println!("migrations applied");
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve {
            database,
            bind,
            port,
            db_connections,
            service_role,
            broadcast_delay_minutes,
            public_broadcast,
            read_database_url,
            read_db_connections,
            replica_wait_ms,
            metrics_bind,
            auth_failures_per_minute,
            trust_forwarded_for,
            warm_games,
            sessions,
        } => {
            let database = Database::open(&database).await?;
            let settings = ServeSettings {
                bind,
                port,
                db_connections,
                service_role,
                public_broadcast,
                broadcast_delay: std::time::Duration::from_secs(
                    u64::from(broadcast_delay_minutes) * 60,
                ),
                read_database_url,
                read_db_connections: read_db_connections.unwrap_or(db_connections),
                replica_wait: std::time::Duration::from_millis(replica_wait_ms),
                metrics_bind,
                auth_failures_per_minute,
                trust_forwarded_for,
                warm_games,
                web: sessions.settings(),
            };
            let outcome = serve(&database.url, settings).await;
            let closed = database.close();
            outcome?;
            closed?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify {
            database,
            all,
            file,
            digest_seq,
            digest_hash,
        } => {
            if let Some(file) = file {
                return verify_file(&file, digest_seq.zip(digest_hash));
            }
            if !all {
                anyhow::bail!(
                    "say what to verify: `arbiter verify FILE` checks an export offline, \
                     `arbiter verify --all` every game in the database"
                );
            }
            let database = Database::open(&database).await?;
            let outcome = verify_all(&database.url).await;
            database.close()?;
            outcome
        }
        Command::Rebuild { database } => {
            let database = Database::open(&database).await?;
            let outcome = rebuild(&database.url).await;
            database.close()?;
            outcome
        }
        Command::Analyze { file } => {
            let input = std::fs::File::open(&file)
                .with_context(|| format!("cannot open {}", file.display()))?;
            let stdout = std::io::stdout().lock();
            let summary = arbiter::analyze::analyze_pgn(
                std::io::BufReader::new(input),
                std::io::BufWriter::new(stdout),
            )
            .with_context(|| format!("cannot analyse {}", file.display()))?;
            eprintln!(
                "arbiter analyze: {} games ({} unreadable), {} plies",
                summary.games, summary.unreadable, summary.plies
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Import {
            database,
            file,
            batch_size,
            service_role,
        } => {
            let database = Database::open(&database).await?;
            let outcome = import_file(&database.url, &file, batch_size, &service_role).await;
            database.close()?;
            outcome
        }
        Command::Token { database, action } => {
            let database = Database::open(&database).await?;
            let outcome = manage_tokens(&database.url, action).await;
            database.close()?;
            outcome
        }
    }
}

async fn migrate(url: &str) -> Result<Store> {
    let store = Store::connect(url, 2)
        .await
        .with_context(|| format!("cannot connect to the database at {}", redact(url)))?;
    store
        .migrate()
        .await
        .context("applying migrations failed")?;
    Ok(store)
}

/// How `arbiter serve` runs, from its flags.
struct ServeSettings {
    bind: String,
    port: u16,
    db_connections: u32,
    service_role: String,
    broadcast_delay: std::time::Duration,
    public_broadcast: bool,
    read_database_url: Option<String>,
    read_db_connections: u32,
    replica_wait: std::time::Duration,
    metrics_bind: Option<String>,
    auth_failures_per_minute: u32,
    trust_forwarded_for: bool,
    warm_games: std::num::NonZeroUsize,
    web: arbiter::web::WebSettings,
}

async fn serve(url: &str, settings: ServeSettings) -> Result<()> {
    let ServeSettings {
        bind,
        port,
        db_connections,
        service_role,
        ..
    } = &settings;
    let (bind, port) = (bind.as_str(), *port);
    migrate(url).await?;
    let connect_failed = |url: &str| {
        format!(
            "cannot connect to the database at {} as the role {service_role} (the role \
             DATABASE_URL's user must be able to SET ROLE to)",
            redact(url)
        )
    };
    let mut store = Store::connect_as_service(url, *db_connections, service_role)
        .await
        .with_context(|| connect_failed(url))?;
    if let Some(read_url) = &settings.read_database_url {
        let replica =
            Store::connect_as_service(read_url, settings.read_db_connections, service_role)
                .await
                .with_context(|| connect_failed(read_url))?;
        store = store.with_read_replica(replica.pool().clone(), settings.replica_wait);
        tracing::info!(replica = %redact(read_url), wait_ms = settings.replica_wait.as_millis() as u64, "reads go to the read replica");
    }
    let mut state = AppState::new(store.clone());
    state.arbitration =
        arbiter::arbitration::Arbitration::with_warm_games(store, settings.warm_games);
    state.streams = state.streams.with_broadcast_delay(settings.broadcast_delay);
    state.public_broadcast = settings.public_broadcast;
    state.web = settings.web;
    state.failed_authentications = arbiter::http::auth::FailedAuthentications::new(
        settings.auth_failures_per_minute,
        std::time::Duration::from_secs(60),
        settings.trust_forwarded_for,
    );
    arbiter::telemetry::install();
    arbiter::telemetry::spawn_upkeep();
    let metrics_server = match &settings.metrics_bind {
        Some(address) => {
            let metrics_state = state.clone();
            let server = actix_web::HttpServer::new(move || {
                arbiter::http::metrics::metrics_app(metrics_state.clone())
            })
            .workers(1)
            .bind(address.as_str())
            .with_context(|| format!("cannot listen on {address} for metrics"))?
            .run();
            tracing::info!(address = %format!("http://{address}/metrics"), "metrics are served without a token");
            Some(server)
        }
        None => None,
    };
    let server = actix_web::HttpServer::new(move || arbiter::http::app(state.clone()))
        .bind((bind, port))
        .with_context(|| format!("cannot listen on {bind}:{port}"))?;
    tracing::info!(address = %format!("http://{bind}:{port}"), docs = %format!("http://{bind}:{port}/docs/"), office = %format!("http://{bind}:{port}/office/"), "arbiter is serving");
    match metrics_server {
        Some(metrics_server) => {
            let metrics_handle = metrics_server.handle();
            let outcome = server.run().await;
            metrics_handle.stop(true).await;
            let _ = metrics_server.await;
            outcome.context("the HTTP server failed")?;
        }
        None => server.run().await.context("the HTTP server failed")?,
    }
    tracing::info!("arbiter stopped");
    Ok(())
}

async fn import_file(
    url: &str,
    file: &std::path::Path,
    batch_size: usize,
    service_role: &str,
) -> Result<ExitCode> {
    let input =
        std::fs::File::open(file).with_context(|| format!("cannot open {}", file.display()))?;
    let games = arbiter::interchange::pgn_import::read_games(std::io::BufReader::new(input))
        .with_context(|| format!("cannot read {}", file.display()))?;
    migrate(url).await?;
    let store = Store::connect_as_service(url, 4, service_role)
        .await
        .with_context(|| {
            format!(
                "cannot connect to the database at {} as {service_role}",
                redact(url)
            )
        })?;
    let importer = arbiter::import::Importer::new(arbiter::arbitration::Arbitration::new(store))
        .with_batch(batch_size);
    let recorded_by = format!("arbiter import {}", file.display());
    let report = importer.import(games, &recorded_by, |_| Ok(())).await;
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    for game in &report.results {
        serde_json::to_writer(&mut stdout, game)?;
        std::io::Write::write_all(&mut stdout, b"\n")?;
    }
    std::io::Write::flush(&mut stdout)?;
    let seconds = report.elapsed_ms as f64 / 1000.0;
    eprintln!(
        "arbiter import: {} games: {} imported, {} already imported, {} unreadable, {} failed; \
         {} moves ({} events) stored in {seconds:.1} s ({:.1} games/s, {:.0} moves/s)",
        report.games,
        report.imported,
        report.already_imported,
        report.unreadable,
        report.failed,
        report.moves_stored,
        report.events_stored,
        report.imported as f64 / seconds.max(0.001),
        report.moves_stored as f64 / seconds.max(0.001),
    );
    Ok(if report.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

async fn manage_tokens(url: &str, action: TokenAction) -> Result<ExitCode> {
    let store = migrate(url).await?;
    match action {
        TokenAction::Create {
            role,
            name,
            events,
            expires_in,
            expires_at,
        } => {
            let events = (!events.is_empty()).then_some(events);
            arbiter::http::tokens::check_token_fields(&name, events.as_deref())
                .map_err(|e| anyhow::anyhow!("{}", e.problem().detail))?;
            let expires_at = arbiter::http::tokens::expiry_from(expires_at, expires_in.as_deref())
                .map_err(|e| anyhow::anyhow!("{}", e.problem().detail))?;
            let (info, token) = store
                .create_expiring_token(
                    &name,
                    role,
                    events.as_deref(),
                    expires_at,
                    "arbiter token create",
                )
                .await?;
            eprintln!(
                "token {} for {} ({}) created{}; it is printed once, store it now:",
                info.token_id,
                info.name,
                info.role.as_str(),
                expiry_note(info.expires_at)
            );
            println!("{token}");
        }
        TokenAction::Rotate {
            token_id,
            expires_in,
            expires_at,
            grace,
        } => {
            let detail =
                |e: arbiter::http::error::ApiError| anyhow::anyhow!("{}", e.problem().detail);
            let grace = match grace.as_deref() {
                None => std::time::Duration::ZERO,
                Some(text) => {
                    let grace =
                        arbiter::http::tokens::parse_duration("--grace", text).map_err(detail)?;
                    if grace > arbiter::http::tokens::MAX_GRACE {
                        anyhow::bail!("--grace is at most 30 days");
                    }
                    grace
                }
            };
            let Some(old) = store.token(token_id).await? else {
                anyhow::bail!("no token with id {token_id}");
            };
            let expires_at =
                arbiter::http::tokens::rotated_expiry(&old, expires_at, expires_in.as_deref())
                    .map_err(detail)?;
            let rotated = store
                .rotate_token(token_id, expires_at, grace, "arbiter token rotate")
                .await?;
            let old_fate = match (rotated.old.revoked_at, rotated.old.expires_at) {
                (Some(_), _) => "revoked".to_string(),
                (None, Some(until)) => format!(
                    "keeps working until {}",
                    until.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                ),
                (None, None) => "unchanged".to_string(),
            };
            eprintln!(
                "token {} replaces {} for {} ({}){}; the old token {old_fate}. The new token \
                 is printed once, store it now:",
                rotated.info.token_id,
                token_id,
                rotated.info.name,
                rotated.info.role.as_str(),
                expiry_note(rotated.info.expires_at)
            );
            println!("{}", rotated.token);
        }
        TokenAction::List => {
            for info in store.list_tokens().await? {
                println!("{}", serde_json::to_string(&info)?);
            }
        }
        TokenAction::Revoke { token_id } => match store.revoke_token(token_id).await? {
            Some(info) => println!("revoked {} ({})", info.token_id, info.name),
            None => anyhow::bail!("no token with id {token_id}"),
        },
    }
    Ok(ExitCode::SUCCESS)
}

/// `, expiring at ...` or nothing.
fn expiry_note(expires_at: Option<chrono::DateTime<chrono::Utc>>) -> String {
    expires_at
        .map(|at| {
            format!(
                ", expiring at {}",
                at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            )
        })
        .unwrap_or_default()
}

fn verify_file(file: &std::path::Path, digest: Option<(u64, String)>) -> Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let digest = match digest {
        Some((seq, hash)) => {
            let game_id = text
                .lines()
                .next()
                .and_then(|line| serde_json::from_str::<serde_json::Value>(line).ok())
                .and_then(|v| v["game_id"].as_str().and_then(|s| s.parse().ok()))
                .unwrap_or_default();
            Some(arbiter::integrity::ChainDigest { game_id, seq, hash })
        }
        None => None,
    };
    match arbiter::integrity::verify_export(&text, digest.as_ref()) {
        Ok(verified) => {
            println!(
                "{}: intact, {} events, head seq {} hash {}{}",
                file.display(),
                verified.events,
                verified.head.seq,
                verified.head.hash,
                if digest.is_some() {
                    ", matches the digest"
                } else {
                    " (no digest given: a truncated copy cannot be told apart)"
                }
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(broken) => {
            println!("{}: BROKEN at {broken}", file.display());
            Ok(ExitCode::from(2))
        }
    }
}

async fn rebuild(url: &str) -> Result<ExitCode> {
    migrate(url).await?;
    let store = Store::connect(url, 2).await?;
    let started = std::time::Instant::now();
    let report = arbiter::arbitration::Arbitration::new(store)
        .rebuild_read_model()
        .await
        .context("rebuilding the games read model failed; nothing was changed")?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "rebuilt the games read model from {} events of {} games in {seconds:.2} s \
         ({:.0} events/s): {} rows inserted or corrected, {} rows without a log deleted",
        report.events,
        report.games,
        report.events as f64 / seconds.max(1e-9),
        report.changed,
        report.deleted
    );
    Ok(ExitCode::SUCCESS)
}

async fn verify_all(url: &str) -> Result<ExitCode> {
    let store = Store::connect(url, 2).await?;
    let mut broken = 0usize;
    let ids = store.all_game_ids().await?;
    for id in &ids {
        let report = store.verify_chain(*id).await?;
        match &report.first_break {
            None => println!(
                "{id}: intact, {} events, head seq {} hash {}",
                report.events, report.head_seq, report.head_hash
            ),
            Some(b) => {
                broken += 1;
                println!("{id}: BROKEN at seq {}: {}", b.seq, b.reason);
            }
        }
    }
    println!("{} games checked, {} broken", ids.len(), broken);
    Ok(if broken == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

/// The URL without a password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{}@{}", &url[..scheme + 3], user, &url[at + 1..])
        }
        _ => url.to_string(),
    }
}
