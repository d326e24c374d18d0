//! Write-path load benchmark of a running arbiter (issue 9): N clients recording real games
//! move by move (or B moves per request) over keep-alive HTTP, claim rulings in a 300-ply
//! game, and a loader that fills the database with history through the store.
//!
//! ```sh
//! cargo run --release --example bench_write -- moves --url http://127.0.0.1:8080 --token T --clients 16 --seconds 20
//! cargo run --release --example bench_write -- moves ... --batch 100
//! cargo run --release --example bench_write -- claim --url ... --token T --clients 16 --seconds 20
//! cargo run --release --example bench_write -- load --database-url postgres://... --events 1000000
//! cargo run --release --example bench_write -- retrying --url ... --token T --clients 8 --seconds 60 --out acks.txt
//! ```
//!
//! `events_per_s` counts the recorded events the clients sent and the service stored (moves;
//! claims in claim mode), not the decisions the engine appended with them (`game_ended`,
//! `claim_ruled`, ...) nor `game_created`; those are in `envelopes_per_s`. Latencies are
//! of the append requests (claim requests in claim mode), end to end as the client sees
//! them; a request counts when it completes inside the measured window, which opens after
//! the warm-up. `scripts/bench-write.sh` runs it all on a fresh database.

mod games;
mod http;
mod load;
mod retrying;
mod stats;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(about = "Write-path load benchmark of a running arbiter")]
struct Cli {
    /// PGN files of real games (default: every .pgn of ../shared/data/games).
    #[arg(long, global = true)]
    pgn: Vec<PathBuf>,
    /// Threads that fold the games through the engine before the run.
    #[arg(long, global = true, default_value_t = 2)]
    engine_threads: usize,
    #[command(subcommand)]
    mode: Mode,
}

#[derive(Args)]
struct Server {
    /// The server's base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// A bearer token with the arbiter role.
    #[arg(long, env = "ARBITER_TOKEN", hide_env_values = true)]
    token: String,
    /// Concurrent clients, each on its own keep-alive connection.
    #[arg(long, default_value_t = 1)]
    clients: usize,
    /// Length of the measured window.
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
    /// Not measured before the window.
    #[arg(long, default_value_t = 2.0)]
    warmup: f64,
    /// Runtime threads of the client (1: everything on one thread, the cheapest).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// A label for the human-readable line.
    #[arg(long)]
    label: Option<String>,
    /// The server's process id: its CPU time over the window is reported (server_cpu_pct).
    #[arg(long)]
    server_pid: Option<u32>,
    /// The PostgreSQL postmaster's process id: the cluster's CPU time over the window
    /// (every process of the cluster, also serving other databases) is reported (db_cpu_pct).
    #[arg(long)]
    postmaster_pid: Option<u32>,
}

impl Server {
    fn watch(&self) -> http::Watch {
        http::Watch {
            server_pid: self.server_pid,
            postmaster_pid: self.postmaster_pid,
        }
    }
}

#[derive(Subcommand)]
enum Mode {
    /// Record real games, one request per move (or --batch moves per request).
    Moves {
        #[command(flatten)]
        server: Server,
        /// Moves per request.
        #[arg(long, default_value_t = 1)]
        batch: usize,
        /// With --batch B: also send a game's last, shorter batch (by default games are cut
        /// to a multiple of B plies and shorter games are left out, so that every request
        /// carries exactly B events).
        #[arg(long)]
        partial_batches: bool,
        /// The `event` setting of the created games.
        #[arg(long, default_value = "Bench write")]
        event: String,
    },
    /// Claim rulings in a long game: one game per client set up to --plies plies, then an
    /// (incorrect) repetition claim by the player to move, measured end to end, and the
    /// opponent's decline of the offer it stands as, again and again.
    Claim {
        #[command(flatten)]
        server: Server,
        /// The game's length before the claims.
        #[arg(long, default_value_t = 300)]
        plies: usize,
        /// The game (FILE#INDEX, 0-based); default twic1599.pgn#1022 (bench_claim.py's), else
        /// the first game that is long enough.
        #[arg(long)]
        game: Option<String>,
        /// Moves per request while setting up the game (not measured).
        #[arg(long, default_value_t = 100)]
        setup_batch: usize,
        /// Games per client, claimed in turn: every claim and decline make a game's log 4
        /// events longer, and the service's cost per append grows with the log, so more
        /// games keep each one closer to a plain 300-ply game.
        #[arg(long, default_value_t = 4)]
        games_per_client: usize,
    },
    /// Store history through the library's store: real games with the engine's decisions,
    /// appended in batches.
    Load {
        #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
        database_url: String,
        /// Stop once at least this many events are stored (`game_created` included).
        #[arg(long)]
        events: u64,
        /// Concurrent loaders.
        #[arg(long, default_value_t = 2)]
        loaders: usize,
        /// Events per append.
        #[arg(long, default_value_t = 100)]
        batch: usize,
        /// The `event` setting of the loaded games.
        #[arg(long, default_value = "Bench history")]
        event: String,
    },
    /// Writers that retry every failed append unchanged (same event_id) until acknowledged,
    /// and write every acknowledged event to --out (scripts/failover-test.sh).
    Retrying {
        /// The server's base URL.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// A bearer token with the arbiter role.
        #[arg(long, env = "ARBITER_TOKEN", hide_env_values = true)]
        token: String,
        /// Concurrent writers.
        #[arg(long, default_value_t = 8)]
        clients: usize,
        /// The longest the run lasts.
        #[arg(long, default_value_t = 60.0)]
        seconds: f64,
        /// The run ends (after the requests under way) once this file exists.
        #[arg(long)]
        stop_file: Option<PathBuf>,
        /// Where the acknowledged events go: `game_id event_id seq unix_ms`, one a line.
        #[arg(long)]
        out: PathBuf,
        /// A writer starts a new game after this many events.
        #[arg(long, default_value_t = 200)]
        events_per_game: u64,
    },
}

fn read_games(cli: &Cli, keep_stored: bool) -> anyhow::Result<Vec<games::BenchGame>> {
    let files = if cli.pgn.is_empty() {
        games::default_pgn_files()?
    } else {
        cli.pgn.clone()
    };
    let started = Instant::now();
    let games = games::load(&files, keep_stored, cli.engine_threads)?;
    let plies: usize = games.iter().map(|g| g.sans.len()).sum();
    let ended = games.iter().filter(|g| g.ends).count();
    eprintln!(
        "games: {} ({plies} plies, {ended} ended by the engine) from {} file(s), folded through the engine in {:.1} s",
        games.len(),
        files.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(games)
}

fn runtime(threads: usize) -> anyhow::Result<tokio::runtime::Runtime> {
    let runtime = if threads <= 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()?
    };
    Ok(runtime)
}

fn seconds(value: f64, what: &str) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(value).with_context(|| format!("--{what} {value}"))
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match &cli.mode {
        Mode::Moves {
            server,
            batch,
            partial_batches,
            event,
        } => {
            if *batch == 0 || server.clients == 0 {
                bail!("--batch and --clients must be at least 1");
            }
            let games = read_games(&cli, false)?;
            let prepared = http::prepare(&games, *batch, *partial_batches, event)?;
            drop(games);
            let target = http::Target {
                base: server.url.clone(),
                token: server.token.clone(),
            };
            let run = http::MovesRun {
                watch: server.watch(),
                clients: server.clients,
                batch: *batch,
                warmup: seconds(server.warmup, "warmup")?,
                seconds: seconds(server.seconds, "seconds")?,
            };
            let label = server.label.clone().unwrap_or_else(|| {
                format!("moves, {} client(s), {batch} per request", server.clients)
            });
            runtime(server.threads)?.block_on(http::run_moves(&target, prepared, &run, &label))
        }
        Mode::Claim {
            server,
            plies,
            game,
            setup_batch,
            games_per_client,
        } => {
            let games = read_games(&cli, false)?;
            let wanted = game.as_deref().unwrap_or("twic1599.pgn#1022");
            let chosen = games
                .iter()
                .find(|g| g.origin == wanted && g.sans.len() >= *plies)
                .or_else(|| {
                    if game.is_some() {
                        None
                    } else {
                        games.iter().find(|g| g.sans.len() >= *plies)
                    }
                })
                .with_context(|| format!("no game {wanted} with {plies} plies or more"))?;
            let mut cut = chosen.clone();
            cut.sans.truncate(*plies);
            eprintln!("claim game: {} cut to {plies} plies", cut.origin);
            let prepared = http::prepare(&[cut], 1, true, "Bench claim")?
                .pop()
                .context("no claim game")?;
            let target = http::Target {
                base: server.url.clone(),
                token: server.token.clone(),
            };
            let run = http::ClaimRun {
                watch: server.watch(),
                clients: server.clients,
                warmup: seconds(server.warmup, "warmup")?,
                seconds: seconds(server.seconds, "seconds")?,
                setup_batch: *setup_batch,
                games_per_client: *games_per_client,
            };
            let label = server.label.clone().unwrap_or_else(|| {
                format!("claims in a {plies}-ply game, {} client(s)", server.clients)
            });
            runtime(server.threads)?.block_on(http::run_claim(&target, prepared, &run, &label))
        }
        Mode::Load {
            database_url,
            events,
            loaders,
            batch,
            event,
        } => {
            let games = read_games(&cli, true)?;
            let run = load::LoadRun {
                events: *events,
                loaders: *loaders,
                batch: *batch,
                event: event.clone(),
            };
            runtime(2)?.block_on(load::run_load(database_url, games, run))
        }
        Mode::Retrying {
            url,
            token,
            clients,
            seconds: total,
            stop_file,
            out,
            events_per_game,
        } => {
            let run = retrying::RetryingRun {
                base: url.clone(),
                token: token.clone(),
                clients: *clients,
                seconds: seconds(*total, "seconds")?,
                stop_file: stop_file.clone(),
                out: out.clone(),
                events_per_game: (*events_per_game).max(2),
            };
            runtime(2)?.block_on(retrying::run_retrying(run))
        }
    }
}
