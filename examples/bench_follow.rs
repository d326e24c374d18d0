//! What following a board feed costs (issue 22 item 1): the service's CPU per followed board
//! per poll, and the time from a change of the feed to the stored event.
//!
//! ```sh
//! cargo run --release --example bench_follow -- --boards 20 --polls 50 --changes 10
//! ```
//!
//! A fresh database is created on `--database-url`'s server (and dropped at the end). A round
//! of `--boards` boards follows a DGT LiveChess feed served by a thread of this process on
//! 127.0.0.1 (its own runtime), each board replaying the real game of
//! `tests/data/lichess-ENPo6ReH.pgn`. The follower runs on the main thread (a current-thread
//! runtime: the HTTP client, the engine and the store client all run there), and its CPU
//! time is read from `/proc/thread-self/stat` (user + system, in clock ticks of 10 ms, so the
//! polls are many). PostgreSQL's own CPU is not counted.
//!
//! 1. `idle`: `--polls` polls of a round whose boards did not change (every board fetched,
//!    read against its stored line, nothing recorded).
//! 2. `moving`: polls where every board has one new move (fetched, read, recorded with its
//!    clock through the engine).
//! 3. `latency`: the follower task as the service runs it (`--poll-ms`), one board's feed
//!    changed `--changes` times at unrelated moments; the time until the move is stored.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use arbiter::app::arbitration::Arbitration;
use arbiter::app::follower::{FollowTiming, Followers, Seen};
use arbiter::game::event::RecordedEvent;
use arbiter::interchange::pairings::Pairing;
use arbiter::interchange::pgn_import::{ReadGame, read_games};
use arbiter::rules::side::Side;
use arbiter::store::{FeedKind, Store};
use clap::Parser;
use sqlx::Connection;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Parser)]
#[command(about = "CPU per followed board per poll, and feed-to-log latency")]
struct Cli {
    /// A PostgreSQL server URL of a role that may create databases.
    #[arg(long, default_value = "postgres://postgres@127.0.0.1:5432/postgres")]
    database_url: String,
    /// Boards of the followed round.
    #[arg(long, default_value_t = 20)]
    boards: u32,
    /// Polls measured in each of the idle and moving phases (the moving phase stops before
    /// the game's last `--changes` moves, kept for the latency phase).
    #[arg(long, default_value_t = 40)]
    polls: usize,
    /// The follower's poll interval in the latency phase (the service's default: 3000).
    #[arg(long, default_value_t = 3000)]
    poll_ms: u64,
    /// Feed changes timed in the latency phase (at most 20).
    #[arg(long, default_value_t = 10)]
    changes: usize,
}

const GAME_PGN: &str = include_str!("../tests/data/lichess-ENPo6ReH.pgn");

fn real_game() -> Result<Vec<String>> {
    let games = read_games(std::io::BufReader::new(GAME_PGN.as_bytes()))?;
    let Some(ReadGame::Planned(plan)) = games.into_iter().next() else {
        anyhow::bail!("the game file holds no game");
    };
    Ok(plan
        .events
        .iter()
        .filter_map(|planned| match &planned.event {
            RecordedEvent::Move { san, by } => {
                let ms = planned.clock.as_ref().and_then(|c| match by {
                    Side::White => c.white_ms,
                    Side::Black => c.black_ms,
                });
                Some(match ms {
                    Some(ms) => format!("{san} {}", ms / 1000),
                    None => san.clone(),
                })
            }
            _ => None,
        })
        .collect())
}

/// `game-N.json` by board, served by [`serve_feed`].
type Published = Arc<Mutex<HashMap<u32, String>>>;

fn publish(feed: &Published, board: u32, moves: &[String]) {
    let json = serde_json::json!({"moves": moves, "result": "*"}).to_string();
    feed.lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(board, json);
}

/// Serves `/round/game-N.json` on a thread of its own; returns the port.
fn serve_feed(feed: Published) -> Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    listener.set_nonblocking(true)?;
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("the feed's runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            while let Ok((mut socket, _)) = listener.accept().await {
                let feed = feed.clone();
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buffer = [0u8; 2048];
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                        match socket.read(&mut buffer).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buffer[..n]),
                        }
                    }
                    let text = String::from_utf8_lossy(&request);
                    let board = text
                        .split_whitespace()
                        .nth(1)
                        .and_then(|p| p.strip_prefix("/round/game-"))
                        .and_then(|p| p.strip_suffix(".json"))
                        .and_then(|n| n.parse::<u32>().ok());
                    let body = board.and_then(|b| {
                        feed.lock().unwrap_or_else(|p| p.into_inner()).get(&b).cloned()
                    });
                    let response = match body {
                        Some(body) => format!(
                            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                            body.len()
                        ),
                        None => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_string(),
                    };
                    let _ = socket.write_all(response.as_bytes()).await;
                });
            }
        });
    });
    Ok(port)
}

/// This thread's CPU time (user + system), from `/proc/thread-self/stat`.
fn thread_cpu() -> Result<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat")?;
    let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or(&stat);
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of the line; `after` starts at field 3.
    let ticks: u64 = fields.get(11).context("utime")?.parse::<u64>()?
        + fields.get(12).context("stime")?.parse::<u64>()?;
    Ok(Duration::from_millis(ticks * 10))
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run(cli))
}

async fn run(cli: Cli) -> Result<()> {
    let name = format!("arbiter_bench_follow_{}", uuid::Uuid::new_v4().simple());
    let mut admin = sqlx::PgConnection::connect(&cli.database_url)
        .await
        .context("the database server")?;
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await?;
    let url = match cli.database_url.rfind('/') {
        Some(slash) => format!("{}/{name}", &cli.database_url[..slash]),
        None => anyhow::bail!("the URL needs a database name"),
    };
    let outcome = measure(&cli, &url).await;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
    )))
    .execute(&mut admin)
    .await?;
    outcome
}

async fn measure(cli: &Cli, url: &str) -> Result<()> {
    let owner = Store::connect(url, 2).await?;
    owner.migrate().await?;
    owner.pool().close().await;
    let store = Store::connect_as_service(url, 8, "arbiter_service").await?;
    let settings: arbiter::tournament::TournamentSettings =
        serde_json::from_value(serde_json::json!({
            "name": "Bench Open",
            "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000},
            "laws_edition": "2023",
            "regulations": {"draw_offers": "allowed", "quickplay_finish": false},
            "arbiters": []
        }))?;
    let tournament = store.create_tournament(&settings, "bench").await?;
    let pairings: Vec<Pairing> = (1..=cli.boards)
        .map(|board| {
            serde_json::from_value(serde_json::json!({
                "board": board,
                "white": {"name": format!("White {board}")},
                "black": {"name": format!("Black {board}")}
            }))
        })
        .collect::<Result<_, _>>()?;
    let games = arbiter::app::rounds::load_round(
        &store,
        &tournament,
        "1",
        &pairings,
        &HashMap::new(),
        None,
        "bench",
    )
    .await?;
    let line = real_game()?;
    let feed: Published = Arc::default();
    let port = serve_feed(feed.clone())?;
    let follow = store
        .set_round_follow(
            tournament.tournament_id,
            "1",
            FeedKind::DgtJson,
            &format!("http://127.0.0.1:{port}/round/"),
            true,
            arbiter::store::TakebackPolicy::ByFeed,
            "bench",
        )
        .await?;
    let timing = FollowTiming {
        poll: Duration::from_millis(cli.poll_ms),
        max_backoff: Duration::from_secs(60),
        confirm: Duration::from_millis(500),
    };
    let followers = Followers::new(Arbitration::new(store.clone()), timing)
        .allowing_hosts(&["127.0.0.1".to_string()]);

    // The first moves, recorded before measuring (the games warm, as in a running round).
    for board in 1..=cli.boards {
        publish(&feed, board, &line[..2]);
    }
    followers.poll_round(&follow).await?;

    let per_board = |total: Duration, polls: usize| {
        total.as_secs_f64() * 1e6 / (polls as f64 * f64::from(cli.boards))
    };
    // Idle polls: nothing new on any board. As the service's task polls (a board whose feed
    // and log are unchanged is fetched, not read again), and reading every board again.
    let mut seen = Seen::default();
    followers.poll_round_seen(&follow, &mut seen).await?;
    for (label, remember) in [("idle", true), ("idle, every board read again", false)] {
        let cpu = thread_cpu()?;
        let wall = Instant::now();
        for _ in 0..cli.polls {
            let recorded = if remember {
                followers.poll_round_seen(&follow, &mut seen).await?
            } else {
                followers.poll_round(&follow).await?
            };
            anyhow::ensure!(recorded == 0, "an idle poll recorded {recorded}");
        }
        let idle_cpu = thread_cpu()? - cpu;
        let idle_wall = wall.elapsed();
        println!(
            "{label}: {} polls x {} boards: {:.0} µs CPU per board per poll ({:.0} µs wall)",
            cli.polls,
            cli.boards,
            per_board(idle_cpu, cli.polls),
            per_board(idle_wall, cli.polls)
        );
    }

    // Moving polls: one new move on every board per poll.
    // The game's last moves are kept for the latency phase.
    let changes = cli.changes.min(20);
    let moving_polls = cli.polls.min(line.len() - 2 - changes);
    let cpu = thread_cpu()?;
    let wall = Instant::now();
    for poll in 0..moving_polls {
        for board in 1..=cli.boards {
            publish(&feed, board, &line[..3 + poll]);
        }
        let recorded = followers.poll_round_seen(&follow, &mut seen).await?;
        // A new last move is stored once it has stood (or has a successor): the first poll
        // of the run holds it, each later poll stores the move before its new one.
        let expected = if poll == 0 { 0 } else { cli.boards as usize };
        anyhow::ensure!(
            recorded == expected,
            "poll {poll} recorded {recorded} moves"
        );
    }
    let moving_cpu = thread_cpu()? - cpu;
    let moving_wall = wall.elapsed();
    println!(
        "moving: {moving_polls} polls x {} boards, one new move each: {:.0} µs CPU per board per poll ({:.0} µs wall)",
        cli.boards,
        per_board(moving_cpu, moving_polls),
        per_board(moving_wall, moving_polls)
    );

    // Latency: the follower task as the service runs it; board 1 of a fresh round.
    let game = games
        .iter()
        .find(|g| g.board == 1)
        .context("board 1")?
        .game_id;
    let stored = |store: Store| async move {
        store
            .read_events(game, 0, None, None)
            .await
            .map(|events| events.len())
    };
    let mut plies = 2 + moving_polls;
    let mut latencies = Vec::new();
    followers.start(follow.follow_id);
    tokio::time::sleep(Duration::from_millis(200)).await;
    for change in 0..changes.min(line.len() - plies) {
        // Unrelated to the poll's phase: a prime number of milliseconds on.
        tokio::time::sleep(Duration::from_millis(
            (cli.poll_ms * 7 / 13 + 211 * change as u64) % cli.poll_ms.max(1) + 50,
        ))
        .await;
        let before = stored(store.clone()).await?;
        plies += 1;
        publish(&feed, 1, &line[..plies]);
        let changed = Instant::now();
        loop {
            if stored(store.clone()).await? > before {
                break;
            }
            anyhow::ensure!(
                changed.elapsed() < Duration::from_secs(120),
                "the move was not stored"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        latencies.push(changed.elapsed());
    }
    followers.stop_all();
    latencies.sort();
    if let (Some(first), Some(last)) = (latencies.first(), latencies.last()) {
        let median = latencies[latencies.len() / 2];
        let mean = latencies.iter().sum::<Duration>() / latencies.len() as u32;
        println!(
            "latency: {} feed changes, polls every {} ms: feed change to stored event min {:.0} ms, median {:.0} ms, mean {:.0} ms, max {:.0} ms",
            latencies.len(),
            cli.poll_ms,
            first.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3,
            mean.as_secs_f64() * 1e3,
            last.as_secs_f64() * 1e3
        );
    }
    store.pool().close().await;
    Ok(())
}
