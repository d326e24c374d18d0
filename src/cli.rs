//! The subcommands of `arbiter` (the binary, `src/main.rs`, parses the global flags and
//! calls [`run`]).
//!
//! `serve` runs the HTTP service (on a private PostgreSQL cluster when no `DATABASE_URL` is
//! set), `migrate` applies migrations, `openapi` prints the OpenAPI document, `verify --all`
//! checks every game's hash chain, `import` records a PGN file through the engine.

use crate::config::{DatabaseConfig, ServeConfig};
use crate::store::Store;
use anyhow::{Context, Result};
use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;

/// What `arbiter` is asked to do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service.
    Serve(ServeConfig),
    /// Apply pending database migrations and exit.
    Migrate {
        /// Where the database is.
        #[command(flatten)]
        database: DatabaseConfig,
    },
    /// Print the OpenAPI document (regenerate the committed one with
    /// `cargo run -- openapi > openapi/openapi.json`).
    Openapi,
    /// Verify hash chains: an exported game offline (`arbiter verify FILE`), or every game in
    /// the database (`arbiter verify --all`).
    Verify {
        /// Where the database is.
        #[command(flatten)]
        database: DatabaseConfig,
        /// Check every game in the database.
        #[arg(long, conflicts_with_all = ["files", "report"])]
        all: bool,
        /// An export (`GET /v1/games/{id}/export`) to check without a database; with
        /// `--report`, the exports of a tournament's games (files, or folders of `.jsonl`).
        files: Vec<PathBuf>,
        /// A tournament's final report (`GET /v1/tournaments/{id}/trf?version=26&final=true`):
        /// each game's export is checked against the chain head the report's `### Seal` lines
        /// hold, and each game that changed after the report was written is named.
        #[arg(long, conflicts_with = "digest_seq")]
        report: Option<PathBuf>,
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
        /// Where the database is.
        #[command(flatten)]
        database: DatabaseConfig,
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
        /// Where the database is.
        #[command(flatten)]
        database: DatabaseConfig,
        /// The PGN file.
        file: PathBuf,
        /// Events recorded per append.
        #[arg(long, default_value_t = crate::app::import::DEFAULT_BATCH)]
        batch_size: usize,
        /// The database role the import records as (as `serve`).
        #[arg(long, env = "ARBITER_SERVICE_ROLE", default_value = "arbiter_service")]
        service_role: String,
    },
    /// Manage bearer tokens.
    Token {
        /// Where the database is.
        #[command(flatten)]
        database: DatabaseConfig,
        /// What to do with tokens.
        #[command(subcommand)]
        action: TokenAction,
    },
}

#[derive(Debug, Subcommand)]
/// What `arbiter token` does.
pub enum TokenAction {
    /// Create a token and print it (only once: only its hash is stored).
    Create {
        /// The role.
        #[arg(long, value_enum)]
        role: crate::access::Role,
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
        /// Give the token the `fair_play` capability: `chief_arbiter`, `fair_play_arbiter`
        /// or `fpo` (a Fair Play Officer, whose entries are proposals).
        #[arg(long, value_parser = parse_fair_play_role)]
        fair_play: Option<crate::access::FairPlayRole>,
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

/// What the command line prints when a command fails: the error and its causes joined by
/// `: `, as anyhow's `{:#}` does, but as a person reads it. A cause whose words the text
/// already holds is left out (sqlx repeats its database error as its own source), and a
/// database error gives PostgreSQL's message alone (its "at line N" is the line of
/// PostgreSQL's own source code, which tells the reader nothing).
pub fn error_message(error: &anyhow::Error) -> String {
    let mut text = String::new();
    let mut hint = None;
    let mut last = String::new();
    for cause in error.chain() {
        let database = match cause.downcast_ref::<sqlx::Error>() {
            Some(sqlx::Error::Database(database)) => Some(&**database),
            _ => cause
                .downcast_ref::<sqlx::postgres::PgDatabaseError>()
                .map(|database| database as &dyn sqlx::error::DatabaseError),
        };
        let part = match database {
            Some(database) => {
                hint = hint.or(match database.code().as_deref() {
                    // invalid_catalog_name
                    Some("3D000") => Some(
                        "create that database (`createdb NAME` as a role that may) or point \
                         DATABASE_URL at one that exists",
                    ),
                    // invalid_authorization_specification, invalid_password
                    Some("28000" | "28P01") => Some(
                        "check the user and password in DATABASE_URL, and that pg_hba.conf \
                         lets that user in from this host",
                    ),
                    _ => None,
                });
                database.message().to_string()
            }
            None => cause.to_string(),
        };
        // A cause that repeats what is said already, or the last part with more words
        // after it (PostgreSQL's error under sqlx's, with its source line), adds nothing.
        if part.is_empty() || text.contains(&part) || (!last.is_empty() && part.starts_with(&last))
        {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
        last = part;
    }
    if let Some(hint) = hint {
        text.push_str("; ");
        text.push_str(hint);
    }
    text
}

/// Runs a subcommand.
pub async fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Openapi => {
            println!("{}", serde_json::to_string_pretty(&crate::http::openapi())?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Migrate { database } => {
            let database = crate::startup::Database::open(&database).await?;
            let outcome = crate::startup::migrate(&database.url).await;
            database.close()?;
            outcome?;
            println!("migrations applied");
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve(config) => {
            crate::startup::serve(&config).await?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify {
            database,
            all,
            files,
            report,
            digest_seq,
            digest_hash,
        } => {
            if let Some(report) = report {
                return verify_report(&report, &files);
            }
            if let [file] = &files[..] {
                return verify_file(file, digest_seq.zip(digest_hash));
            }
            if !all || !files.is_empty() {
                anyhow::bail!(
                    "say what to verify: `arbiter verify FILE` checks an export offline, \
                     `arbiter verify --report REPORT FILES...` a tournament's exports against \
                     its final report's seal, `arbiter verify --all` every game in the database"
                );
            }
            let database = crate::startup::Database::open(&database).await?;
            let outcome = verify_all(&database.url).await;
            database.close()?;
            outcome
        }
        Command::Rebuild { database } => {
            let database = crate::startup::Database::open(&database).await?;
            let outcome = rebuild(&database.url).await;
            database.close()?;
            outcome
        }
        Command::Analyze { file } => {
            let input = std::fs::File::open(&file)
                .with_context(|| format!("cannot open {}", file.display()))?;
            let stdout = std::io::stdout().lock();
            let summary = crate::analyze::analyze_pgn(
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
            let database = crate::startup::Database::open(&database).await?;
            let outcome = import_file(&database.url, &file, batch_size, &service_role).await;
            database.close()?;
            outcome
        }
        Command::Token { database, action } => {
            let database = crate::startup::Database::open(&database).await?;
            let outcome = manage_tokens(&database.url, action).await;
            database.close()?;
            outcome
        }
    }
}

async fn import_file(
    url: &str,
    file: &std::path::Path,
    batch_size: usize,
    service_role: &str,
) -> Result<ExitCode> {
    let input =
        std::fs::File::open(file).with_context(|| format!("cannot open {}", file.display()))?;
    let games = crate::interchange::pgn_import::read_games(std::io::BufReader::new(input))
        .with_context(|| format!("cannot read {}", file.display()))?;
    crate::startup::migrate(url).await?;
    let store = Store::connect_as_service(url, 4, service_role)
        .await
        .with_context(|| {
            format!(
                "cannot connect to the database at {} as {service_role}",
                crate::startup::redact(url)
            )
        })?;
    let importer =
        crate::app::import::Importer::new(crate::app::arbitration::Arbitration::new(store))
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

/// Parses `--fair-play`.
fn parse_fair_play_role(text: &str) -> Result<crate::access::FairPlayRole, String> {
    crate::access::FairPlayRole::parse(text).ok_or_else(|| {
        format!("`{text}` is no fair-play role: chief_arbiter, fair_play_arbiter or fpo")
    })
}

async fn manage_tokens(url: &str, action: TokenAction) -> Result<ExitCode> {
    let store = crate::startup::migrate(url).await?;
    match action {
        TokenAction::Create {
            role,
            name,
            events,
            expires_in,
            expires_at,
            fair_play,
        } => {
            let events = (!events.is_empty()).then_some(events);
            crate::app::commands::check_token_fields(&name, events.as_deref())
                .map_err(|e| anyhow::anyhow!("{}", e.message))?;
            let expires_at = crate::app::commands::expiry_from(expires_at, expires_in.as_deref())
                .map_err(|e| anyhow::anyhow!("{}", e.message))?;
            let (info, token) = store
                .create_expiring_token(
                    &name,
                    role,
                    events.as_deref(),
                    expires_at,
                    "arbiter token create",
                )
                .await?;
            let info = match fair_play {
                None => info,
                Some(role) => store
                    .set_fair_play_role(info.token_id, Some(role))
                    .await?
                    .unwrap_or(info),
            };
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
            let detail = |e: crate::app::commands::CommandError| anyhow::anyhow!("{}", e.message);
            let grace = match grace.as_deref() {
                None => std::time::Duration::ZERO,
                Some(text) => {
                    let grace =
                        crate::app::commands::parse_duration("--grace", text).map_err(detail)?;
                    if grace > crate::app::commands::MAX_GRACE {
                        anyhow::bail!("--grace is at most 30 days");
                    }
                    grace
                }
            };
            let Some(old) = store.token(token_id).await? else {
                anyhow::bail!("no token with id {token_id}");
            };
            let expires_at =
                crate::app::commands::rotated_expiry(&old, expires_at, expires_in.as_deref())
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
            Some(crate::integrity::ChainDigest { game_id, seq, hash })
        }
        None => None,
    };
    match crate::integrity::verify_export(&text, digest.as_ref()) {
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

/// The export files `paths` name: files, and the `.jsonl` files of folders.
fn export_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read the folder {}", path.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// `arbiter verify --report REPORT FILES...`: every game the report seals against its export.
fn verify_report(report: &std::path::Path, paths: &[PathBuf]) -> Result<ExitCode> {
    let text = std::fs::read_to_string(report)
        .with_context(|| format!("cannot read {}", report.display()))?;
    let sealed = match crate::interchange::trf_trail::read_seal(&text) {
        Ok(sealed) => sealed,
        Err(reason) => {
            println!("{}: BROKEN: {reason}", report.display());
            return Ok(ExitCode::from(2));
        }
    };
    let mut faults = 0usize;
    let mut exported = std::collections::HashMap::new();
    for file in export_files(paths)? {
        let export = std::fs::read_to_string(&file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        match crate::integrity::verify_export(&export, None) {
            Ok(verified) => {
                exported.insert(verified.head.game_id, (file, verified.head));
            }
            Err(broken) => {
                faults += 1;
                println!("{}: BROKEN at {broken}", file.display());
            }
        }
    }
    for (place, head) in &sealed.games {
        match exported.remove(&head.game_id) {
            None => {
                faults += 1;
                println!(
                    "{place}, game {}: MISSING: no export of this game was given",
                    head.game_id
                );
            }
            Some((file, found))
                if found.seq != head.seq || !found.hash.eq_ignore_ascii_case(&head.hash) =>
            {
                faults += 1;
                println!(
                    "{place}, game {}: CHANGED after the report was sealed: the report sealed \
                     seq {} hash {}, the export {} ends at seq {} hash {}",
                    head.game_id,
                    head.seq,
                    head.hash,
                    file.display(),
                    found.seq,
                    found.hash
                );
            }
            Some(_) => println!(
                "{place}, game {}: as sealed, seq {}",
                head.game_id, head.seq
            ),
        }
    }
    for (game_id, (file, _)) in &exported {
        faults += 1;
        println!(
            "{}: game {game_id} is not among the games the report seals",
            file.display()
        );
    }
    if faults == 0 {
        println!(
            "{}: seal {} holds: {} games as sealed",
            report.display(),
            sealed.seal,
            sealed.games.len()
        );
        Ok(ExitCode::SUCCESS)
    } else {
        println!(
            "{}: seal {} BROKEN: {faults} fault{}",
            report.display(),
            sealed.seal,
            if faults == 1 { "" } else { "s" }
        );
        Ok(ExitCode::from(2))
    }
}

async fn rebuild(url: &str) -> Result<ExitCode> {
    crate::startup::migrate(url).await?;
    let store = Store::connect(url, 2).await?;
    let started = std::time::Instant::now();
    let report = crate::app::arbitration::Arbitration::new(store)
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
