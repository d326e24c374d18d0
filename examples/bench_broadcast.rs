//! The public broadcast under an audience (issue 40, item 3): many public round streams held,
//! the round PGN polled with `If-None-Match`, while a round is recorded through the API.
//!
//! ```sh
//! scripts/bench-broadcast.sh audience 10000 1000 200 2 60
//! # or, against a running service started with --public-broadcast:
//! cargo run --release --example bench_broadcast -- --base http://127.0.0.1:8080 \
//!     --token TOKEN --server-pid PID --streams 1000 --polls-per-s 100 --boards 20
//! ```
//!
//! 1. `--boards` games of one round are created (the first games of `--pgn` with enough
//!    moves), then `--streams` public round streams are opened (`/v1/broadcast/rounds/stream`,
//!    no token) and each reads its snapshots.
//! 2. For `--seconds`, moves are appended at `--moves-per-s` (boards in turn, one move per
//!    append, through `POST /v1/games/{id}/events`), and the public round PGN is polled at
//!    `--polls-per-s` over `--poll-connections` keep-alive connections, each sending the last
//!    `ETag` it got in `If-None-Match`.
//! 3. Every stream counts the messages it gets; one in `--sample-every` also notes when each
//!    move arrives, against the moment its append was answered (the commit) and sent.
//!
//! The client is hyper over tokio (two worker threads); its own CPU time is read from
//! `/proc/self/stat`, the service's from `/proc/PID/stat` and its memory from
//! `/proc/PID/status` (`VmRSS`) before the streams open and while they are held. The last
//! line is a one-line summary for docs/measurements.md.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use arbiter::game::event::RecordedEvent;
use arbiter::interchange::pgn_import::{ReadGame, read_games};
use arbiter::rules::side::Side;
use clap::Parser;
use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::json;
use tokio::net::TcpStream;

#[derive(Parser)]
#[command(about = "Public round streams held and PGN polls while a round is recorded")]
struct Args {
    /// The service, e.g. http://127.0.0.1:8080 (started with --public-broadcast).
    #[arg(long)]
    base: String,
    /// An arbiter's token, for creating the games and appending the moves.
    #[arg(long)]
    token: String,
    /// The service's process id (for its memory and CPU).
    #[arg(long)]
    server_pid: u32,
    /// Public round streams to hold.
    #[arg(long, default_value_t = 1000)]
    streams: usize,
    /// Round PGN polls per second (with If-None-Match).
    #[arg(long, default_value_t = 100.0)]
    polls_per_s: f64,
    /// Keep-alive connections the polls are spread over.
    #[arg(long, default_value_t = 32)]
    poll_connections: usize,
    /// Boards of the round.
    #[arg(long, default_value_t = 20)]
    boards: usize,
    /// Moves appended per second (all boards together).
    #[arg(long, default_value_t = 2.0)]
    moves_per_s: f64,
    /// How long the round is recorded, in seconds.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// One stream in this many notes when each move arrives.
    #[arg(long, default_value_t = 50)]
    sample_every: usize,
    /// Streams being opened at once.
    #[arg(long, default_value_t = 64)]
    connecting: usize,
    /// Games to record.
    #[arg(long, default_value = "tests/shared/data/games/twic1599.pgn")]
    pgn: String,
}

const EVENT: &str = "Audience Bench 2026";
const ROUND: &str = "1";

/// `(game_id, seq)` of a move.
type Key = (String, u64);

#[derive(Default)]
struct Shared {
    /// When each move's append was sent and answered.
    appended: Mutex<HashMap<Key, (Instant, Instant)>>,
    /// When sampled streams received each move.
    arrived: Mutex<Vec<(Key, Instant)>>,
    /// Messages received, all streams together.
    messages: AtomicU64,
    /// Streams open now.
    open: AtomicUsize,
    /// Streams that ended (closed by the service or failed).
    ended: AtomicUsize,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(run(args))
}

/// `(utime + stime)` in clock ticks of a process's `stat`.
fn cpu_ticks(stat_path: &str) -> Result<u64> {
    let stat = std::fs::read_to_string(stat_path)?;
    let after = stat.rsplit_once(')').context("stat")?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    Ok(fields[11].parse::<u64>()? + fields[12].parse::<u64>()?)
}

fn rss_kib(pid: u32) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .context("VmRSS")?;
    Ok(line
        .split_whitespace()
        .nth(1)
        .context("VmRSS value")?
        .parse()?)
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

/// The moves of the first `boards` games of the file with at least 60 of them.
fn games(path: &str, boards: usize) -> Result<Vec<Vec<(Side, String)>>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
    let mut out = Vec::new();
    for game in read_games(std::io::BufReader::new(file))? {
        let ReadGame::Planned(plan) = game else {
            continue;
        };
        let moves: Vec<(Side, String)> = plan
            .events
            .iter()
            .filter_map(|p| match &p.event {
                RecordedEvent::Move { by, san } => Some((*by, san.clone())),
                _ => None,
            })
            .collect();
        if moves.len() >= 60 {
            out.push(moves);
        }
        if out.len() == boards {
            break;
        }
    }
    if out.len() < boards {
        bail!("{path} has only {} games with 60 moves", out.len());
    }
    Ok(out)
}

fn host_port(base: &str) -> Result<String> {
    Ok(base
        .strip_prefix("http://")
        .context("--base must be http://HOST:PORT")?
        .trim_end_matches('/')
        .to_string())
}

/// Opens one public round stream and reads it until the service closes it.
async fn hold_stream(
    address: String,
    path: String,
    sampled: bool,
    shared: Arc<Shared>,
    opened: tokio::sync::mpsc::Sender<bool>,
) {
    let result = async {
        let tcp = TcpStream::connect(&address).await?;
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(tcp)).await?;
        tokio::spawn(connection);
        let request = hyper::Request::get(&path)
            .header("host", &address)
            .header("accept", "text/event-stream")
            .body(Empty::<Bytes>::new())?;
        let response = sender.send_request(request).await?;
        if response.status() != 200 {
            bail!("stream answered {}", response.status());
        }
        Ok::<_, anyhow::Error>(response.into_body())
    }
    .await;
    let mut body = match result {
        Ok(body) => {
            shared.open.fetch_add(1, Ordering::Relaxed);
            let _ = opened.send(true).await;
            body
        }
        Err(error) => {
            eprintln!("a stream did not open: {error}");
            let _ = opened.send(false).await;
            shared.ended.fetch_add(1, Ordering::Relaxed);
            return;
        }
    };
    drop(opened);
    let mut pending = String::new();
    let mut carry = b"\n".to_vec();
    while let Some(Ok(frame)) = body.frame().await {
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let now = Instant::now();
        // A frame may be split between two reads: count `id: ` at the start of a line
        // over the last bytes of the previous read and this one.
        let mut edge = std::mem::take(&mut carry);
        edge.extend_from_slice(&data[..data.len().min(4)]);
        let count = (edge.windows(5).filter(|w| *w == b"\nid: ").count()
            + data.windows(5).filter(|w| *w == b"\nid: ").count()) as u64;
        carry = if data.len() >= 4 {
            data[data.len() - 4..].to_vec()
        } else {
            edge[edge.len().saturating_sub(4)..].to_vec()
        };
        shared.messages.fetch_add(count, Ordering::Relaxed);
        if !sampled {
            continue;
        }
        pending.push_str(&String::from_utf8_lossy(&data));
        while let Some(end) = pending.find("\n\n") {
            let block: String = pending.drain(..end + 2).collect();
            if !block.contains("event: move") {
                continue;
            }
            let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) else {
                continue;
            };
            let Ok(value) = serde_json::from_str::<serde_json::Value>(data) else {
                continue;
            };
            if let (Some(game), Some(seq)) = (value["game_id"].as_str(), value["seq"].as_u64()) {
                shared
                    .arrived
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(((game.to_string(), seq), now));
            }
        }
    }
    shared.open.fetch_sub(1, Ordering::Relaxed);
    shared.ended.fetch_add(1, Ordering::Relaxed);
}

/// Polls the public round PGN on one keep-alive connection until `until`; returns
/// `(status, latency)` per poll.
async fn poll_pgn(
    address: String,
    path: String,
    period: Duration,
    start_at: Instant,
    until: Instant,
) -> Result<Vec<(u16, f64)>> {
    let mut results = Vec::new();
    let mut etag: Option<String> = None;
    let mut sender = None;
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::from_std(start_at), period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        ticks.tick().await;
        if Instant::now() >= until {
            return Ok(results);
        }
        if sender.is_none() {
            let tcp = TcpStream::connect(&address).await?;
            let (s, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tcp)).await?;
            tokio::spawn(connection);
            sender = Some(s);
        }
        let Some(s) = sender.as_mut() else { continue };
        let mut request = hyper::Request::get(&path).header("host", &address);
        if let Some(etag) = &etag {
            request = request.header("if-none-match", etag);
        }
        let started = Instant::now();
        match s.send_request(request.body(Empty::<Bytes>::new())?).await {
            Ok(response) => {
                let status = response.status().as_u16();
                if let Some(value) = response.headers().get("etag").and_then(|v| v.to_str().ok()) {
                    etag = Some(value.to_string());
                }
                let _ = response.into_body().collect().await;
                results.push((status, started.elapsed().as_secs_f64() * 1000.0));
            }
            Err(_) => sender = None,
        }
    }
}

async fn run(args: Args) -> Result<()> {
    let address = host_port(&args.base)?;
    let client = reqwest::Client::new();
    let auth = format!("Bearer {}", args.token);
    let games = games(&args.pgn, args.boards)?;
    let mut ids = Vec::new();
    for board in 1..=args.boards {
        let settings = json!({
            "white": {"name": format!("White, Board{board}"), "fide_id": 5_100_000 + board},
            "black": {"name": format!("Black, Board{board}"), "fide_id": 5_200_000 + board},
            "event": EVENT, "round": ROUND, "board": board,
            "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000}
        });
        let answer: serde_json::Value = client
            .post(format!("{}/v1/games", args.base))
            .header("authorization", &auth)
            .json(&settings)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        ids.push(
            answer["game"]["game_id"]
                .as_str()
                .context("a game id")?
                .to_string(),
        );
    }
    let query = format!("event={}&round={ROUND}", EVENT.replace(' ', "%20"));
    let stream_path = format!("/v1/broadcast/rounds/stream?{query}");
    let pgn_path = format!("/v1/broadcast/rounds/pgn?{query}");
    let shared = Arc::new(Shared::default());
    let rss_before = rss_kib(args.server_pid)?;
    let self_before = cpu_ticks("/proc/self/stat")?;
    let server_before = cpu_ticks(&format!("/proc/{}/stat", args.server_pid))?;

    // 1. Open the streams, `connecting` at a time.
    let opening = Instant::now();
    let (opened_tx, mut opened_rx) = tokio::sync::mpsc::channel::<bool>(args.streams.max(1));
    let gate = Arc::new(tokio::sync::Semaphore::new(args.connecting));
    for i in 0..args.streams {
        let permit = gate.clone().acquire_owned().await?;
        let (tx, mut rx) = tokio::sync::mpsc::channel::<bool>(1);
        let opened_tx = opened_tx.clone();
        tokio::spawn(hold_stream(
            address.clone(),
            stream_path.clone(),
            i % args.sample_every == 0,
            shared.clone(),
            tx,
        ));
        tokio::spawn(async move {
            let ok = rx.recv().await.unwrap_or(false);
            drop(permit);
            let _ = opened_tx.send(ok).await;
        });
    }
    drop(opened_tx);
    let mut opened = 0;
    while let Some(ok) = opened_rx.recv().await {
        opened += usize::from(ok);
    }
    // Every stream's snapshots (one per board) before the round goes on.
    let snapshots = (opened * args.boards) as u64;
    let deadline = Instant::now() + Duration::from_secs(300);
    while shared.messages.load(Ordering::Relaxed) < snapshots && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let open_seconds = opening.elapsed().as_secs_f64();
    let rss_held = rss_kib(args.server_pid)?;
    eprintln!(
        "opened {opened} streams in {open_seconds:.1} s ({} snapshots received); service RSS {rss_before} -> {rss_held} KiB",
        shared.messages.load(Ordering::Relaxed)
    );

    // 2. Record the round and poll its PGN.
    let recording = Instant::now();
    let until = recording + Duration::from_secs(args.seconds);
    let mut pollers = Vec::new();
    if args.polls_per_s > 0.0 {
        let period = Duration::from_secs_f64(args.poll_connections as f64 / args.polls_per_s);
        for c in 0..args.poll_connections {
            let offset = period.mul_f64(c as f64 / args.poll_connections as f64);
            pollers.push(tokio::spawn(poll_pgn(
                address.clone(),
                pgn_path.clone(),
                period,
                recording + offset,
                until,
            )));
        }
    }
    let mut next_move = vec![0usize; args.boards];
    let mut ticks = tokio::time::interval(Duration::from_secs_f64(1.0 / args.moves_per_s));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut appends = Vec::new();
    let mut board = 0;
    let mut appended_moves = 0u64;
    while Instant::now() < until {
        ticks.tick().await;
        let ply = next_move[board];
        let Some((by, san)) = games[board].get(ply).cloned() else {
            board = (board + 1) % args.boards;
            continue;
        };
        next_move[board] += 1;
        appended_moves += 1;
        let (client, auth, shared) = (client.clone(), auth.clone(), shared.clone());
        let url = format!("{}/v1/games/{}/events", args.base, ids[board]);
        let game_id = ids[board].clone();
        appends.push(tokio::spawn(async move {
            let seq = ply as u64 + 1;
            let by = match by {
                Side::White => "white",
                Side::Black => "black",
            };
            let body =
                json!({"expected_seq": seq, "events": [{"type": "move", "by": by, "san": san}]});
            let sent = Instant::now();
            let answer = client
                .post(url)
                .header("authorization", auth)
                .json(&body)
                .send()
                .await;
            let answered = Instant::now();
            match answer {
                Ok(a) if a.status().is_success() => {
                    shared
                        .appended
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .insert((game_id, seq + 1), (sent, answered));
                }
                Ok(a) => eprintln!("an append answered {}", a.status()),
                Err(e) => eprintln!("an append failed: {e}"),
            }
        }));
        board = (board + 1) % args.boards;
    }
    for append in appends {
        append.await?;
    }
    let record_seconds = recording.elapsed().as_secs_f64();
    let mut polls = Vec::new();
    for poller in pollers {
        match poller.await? {
            Ok(results) => polls.extend(results),
            Err(error) => eprintln!("a poller failed: {error}"),
        }
    }
    // The last moves reach the streams.
    let wanted = snapshots + appended_moves * opened as u64;
    let tail = Instant::now() + Duration::from_secs(30);
    while shared.messages.load(Ordering::Relaxed) < wanted && Instant::now() < tail {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let rss_after = rss_kib(args.server_pid)?;
    let self_cpu = cpu_ticks("/proc/self/stat")? - self_before;
    let server_cpu = cpu_ticks(&format!("/proc/{}/stat", args.server_pid))? - server_before;
    let wall = opening.elapsed().as_secs_f64();

    // 3. Figures.
    let appended = shared
        .appended
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let arrived = shared
        .arrived
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    let mut from_answer = Vec::new();
    let mut from_send = Vec::new();
    for (key, at) in &arrived {
        if let Some((sent, answered)) = appended.get(key) {
            from_send.push(at.duration_since(*sent).as_secs_f64() * 1000.0);
            // Signed: the message may reach a viewer before the answer reaches the writer.
            let ms = if at >= answered {
                at.duration_since(*answered).as_secs_f64() * 1000.0
            } else {
                -(answered.duration_since(*at).as_secs_f64() * 1000.0)
            };
            from_answer.push(ms);
        }
    }
    from_answer.sort_by(f64::total_cmp);
    from_send.sort_by(f64::total_cmp);
    let not_modified = polls.iter().filter(|(s, _)| *s == 304).count();
    let ok = polls.iter().filter(|(s, _)| *s == 200).count();
    let mut latencies: Vec<f64> = polls.iter().map(|(_, ms)| *ms).collect();
    latencies.sort_by(f64::total_cmp);
    let received = shared.messages.load(Ordering::Relaxed);
    let held = shared.open.load(Ordering::Relaxed);
    let ticks_per_s = 100.0; // CLK_TCK on Linux
    let per_stream = (rss_held.saturating_sub(rss_before)) as f64 / opened.max(1) as f64;
    let per_stream_after = (rss_after.saturating_sub(rss_before)) as f64 / opened.max(1) as f64;
    println!(
        "streams opened {opened} in {open_seconds:.1} s, held at the end {held}, ended {}",
        shared.ended.load(Ordering::Relaxed)
    );
    println!(
        "service RSS: {rss_before} KiB before, {rss_held} KiB with the streams, {rss_after} KiB at the end: {per_stream:.1} KiB per stream ({per_stream_after:.1} at the end)"
    );
    println!(
        "appends: {appended_moves} moves in {record_seconds:.1} s = {:.2}/s ({} answered)",
        appended_moves as f64 / record_seconds,
        appended.len()
    );
    println!("messages received: {received} of {wanted} expected (snapshots + moves x streams)");
    println!(
        "delay to the viewer ({} samples from {} streams): from the append's answer p50 {:.1} ms p99 {:.1} ms max {:.1} ms; from its sending p50 {:.1} ms p99 {:.1} ms",
        from_answer.len(),
        opened.div_ceil(args.sample_every),
        percentile(&from_answer, 50.0),
        percentile(&from_answer, 99.0),
        from_answer.last().copied().unwrap_or(f64::NAN),
        percentile(&from_send, 50.0),
        percentile(&from_send, 99.0),
    );
    println!(
        "PGN polls: {} in {record_seconds:.1} s = {:.0}/s, 304 {:.1} %, 200 {ok}, latency p50 {:.2} ms p99 {:.2} ms",
        polls.len(),
        polls.len() as f64 / record_seconds,
        100.0 * not_modified as f64 / polls.len().max(1) as f64,
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0),
    );
    println!(
        "CPU over {wall:.0} s: service {:.0} % of a core, this client {:.0} % of a core; load {}",
        100.0 * server_cpu as f64 / ticks_per_s / wall,
        100.0 * self_cpu as f64 / ticks_per_s / wall,
        load()
    );
    println!(
        "SUMMARY broadcast: streams {opened} held {held} | {per_stream:.1} KiB/stream | delay p50 {:.0} ms p99 {:.0} ms (from answer) | appends {:.2}/s | polls {:.0}/s 304 {:.0} % p50 {:.1} ms p99 {:.1} ms | msgs {received}/{wanted} | client CPU {:.0} % service CPU {:.0} % | load {}",
        percentile(&from_answer, 50.0),
        percentile(&from_answer, 99.0),
        appended_moves as f64 / record_seconds,
        polls.len() as f64 / record_seconds,
        100.0 * not_modified as f64 / polls.len().max(1) as f64,
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0),
        100.0 * self_cpu as f64 / ticks_per_s / wall,
        100.0 * server_cpu as f64 / ticks_per_s / wall,
        load()
    );
    Ok(())
}
