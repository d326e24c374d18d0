//! The HTTP modes: recording real games move by move (`moves`) and claim rulings in a long
//! game (`claim`), against a running server, each client on one keep-alive connection.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use anyhow::{Context, bail};
use http_body_util::{BodyExt, Full};
use hyper::StatusCode;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HOST, HeaderValue};
use hyper_util::rt::TokioIo;
use serde::Deserialize;

use crate::games::{BenchGame, settings_json};
use crate::stats::{Latencies, cluster_cpu, process_cpu, server_cpu};

/// At most this many error answers are kept to print.
const ERROR_SAMPLES: usize = 5;

/// Where and as whom.
#[derive(Clone, Debug)]
pub struct Target {
    pub base: String,
    pub token: String,
}

/// The measured window: requests that complete inside it are counted.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub start: Instant,
    pub end: Instant,
}

impl Window {
    pub fn new(warmup: Duration, seconds: Duration) -> Window {
        let start = Instant::now() + warmup;
        Window {
            start,
            end: start + seconds,
        }
    }

    fn counts(&self, done: Instant) -> bool {
        done >= self.start && done <= self.end
    }

    fn over(&self) -> bool {
        Instant::now() >= self.end
    }
}

/// One keep-alive HTTP/1.1 connection to the server, driven by hyper's connection API.
///
/// The client's CPU is taken from the same two cores as the service and the database, so it
/// is kept small: no pool, no per-request timer, no redirect policy (reqwest's client cost
/// 38-47 µs a single-move request here, this one 23-25 µs; pgbench's client about 17 µs a
/// transaction). A connection that fails is opened again on the next request; a server that
/// stops answering without closing the connection leaves its client waiting (stop the run).
pub struct Conn {
    address: String,
    authorization: HeaderValue,
    sender: Option<SendRequest<Full<Bytes>>>,
    games_path: Path,
}

/// A request target: the path, parsed once (a request then only clones it).
pub type Path = hyper::Uri;

/// Why a request got no answer.
#[derive(Debug, thiserror::Error)]
pub enum Transport {
    #[error("cannot connect to {0}: {1}")]
    Connect(String, std::io::Error),
    #[error(transparent)]
    Http(#[from] hyper::Error),
    #[error("cannot build the request: {0}")]
    Request(#[from] hyper::http::Error),
}

impl Conn {
    pub fn new(target: &Target) -> anyhow::Result<Conn> {
        let mut authorization = HeaderValue::from_str(&format!("Bearer {}", target.token))
            .context("the token is not a valid header value")?;
        authorization.set_sensitive(true);
        let base = target.base.trim_end_matches('/');
        let address = base
            .strip_prefix("http://")
            .with_context(|| format!("the URL {base} is not http://HOST:PORT"))?
            .to_string();
        Ok(Conn {
            address,
            authorization,
            sender: None,
            games_path: Path::from_static("/v1/games"),
        })
    }

    /// The target of `path`, parsed once (a request then only clones it).
    pub fn url(&self, path: &str) -> anyhow::Result<Path> {
        Ok(path.parse()?)
    }

    /// The connection's sender, connected (again) if needed.
    async fn sender(&mut self) -> Result<&mut SendRequest<Full<Bytes>>, Transport> {
        let sender = match self.sender.take() {
            Some(sender) if !sender.is_closed() => self.sender.insert(sender),
            _ => {
                let stream = tokio::net::TcpStream::connect(&self.address)
                    .await
                    .map_err(|e| Transport::Connect(self.address.clone(), e))?;
                stream
                    .set_nodelay(true)
                    .map_err(|e| Transport::Connect(self.address.clone(), e))?;
                let (sender, connection) = http1::handshake(TokioIo::new(stream)).await?;
                tokio::spawn(async move {
                    let _ = connection.await;
                });
                self.sender.insert(sender)
            }
        };
        sender.ready().await?;
        Ok(sender)
    }

    /// POSTs `body` to `path`; the status and the whole answer.
    pub async fn post(
        &mut self,
        path: &Path,
        body: Vec<u8>,
    ) -> Result<(StatusCode, Bytes), Transport> {
        let request = hyper::Request::post(path.clone())
            .header(HOST, self.address.as_str())
            .header(AUTHORIZATION, self.authorization.clone())
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .body(Full::new(Bytes::from(body)))?;
        let sender = self.sender().await?;
        let answer = sender.send_request(request).await;
        let response = match answer {
            Ok(response) => response,
            Err(error) => {
                self.sender = None;
                return Err(error.into());
            }
        };
        let status = response.status();
        match response.into_body().collect().await {
            Ok(body) => Ok((status, body.to_bytes())),
            Err(error) => {
                self.sender = None;
                Err(error.into())
            }
        }
    }
}

#[derive(Deserialize)]
struct Created<'a> {
    #[serde(borrow)]
    game: CreatedGame<'a>,
}

#[derive(Deserialize)]
struct CreatedGame<'a> {
    game_id: &'a str,
    last_seq: u64,
}

#[derive(Deserialize)]
struct Appended<'a> {
    #[serde(borrow)]
    events: Vec<Envelope<'a>>,
    last_seq: u64,
}

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    event: Kind<'a>,
}

#[derive(Deserialize)]
struct Kind<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
}

/// What one client saw in the window.
#[derive(Debug, Default)]
pub struct Tally {
    /// Recorded events stored (moves, or claims in claim mode).
    pub recorded: u64,
    /// Every stored envelope (recorded events and the decisions they caused).
    pub envelopes: u64,
    /// Append requests answered 2xx.
    pub requests: u64,
    /// Answers 200 (a retry recognised): nothing stored. Must stay 0 here.
    pub replays: u64,
    /// Games created.
    pub creates: u64,
    /// Games recorded to their end (or to the end of their moves).
    pub games_done: u64,
    /// Non-2xx answers and transport errors (also outside the window).
    pub errors: u64,
    /// Of which 409.
    pub conflicts: u64,
    pub samples: Vec<String>,
    /// The longest log the client left (the highest `last_seq` it saw).
    pub longest_log: u64,
    /// Latencies of the measured requests (appends, or claims).
    pub latencies: Latencies,
    /// Latencies of game creations (moves mode) or of the declines (claim mode).
    pub other_latencies: Latencies,
}

impl Tally {
    fn error(&mut self, what: String, status: Option<StatusCode>) {
        self.errors += 1;
        if status == Some(StatusCode::CONFLICT) {
            self.conflicts += 1;
        }
        if self.samples.len() < ERROR_SAMPLES {
            self.samples.push(what);
        }
    }

    fn merge(&mut self, other: Tally) {
        self.recorded += other.recorded;
        self.envelopes += other.envelopes;
        self.requests += other.requests;
        self.replays += other.replays;
        self.creates += other.creates;
        self.games_done += other.games_done;
        self.errors += other.errors;
        self.conflicts += other.conflicts;
        self.longest_log = self.longest_log.max(other.longest_log);
        for s in other.samples {
            if self.samples.len() < ERROR_SAMPLES {
                self.samples.push(s);
            }
        }
        self.latencies.extend(other.latencies);
        self.other_latencies.extend(other.other_latencies);
    }
}

fn describe(status: StatusCode, body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let text: String = text.chars().take(400).collect();
    format!("{status}: {text}")
}

/// A game ready to send: the JSON of each move event.
pub struct Prepared {
    pub create_body: Vec<u8>,
    pub moves: Vec<String>,
}

/// The games as request fragments. With `batch` > 1 and not `partial`, every game is cut to
/// a multiple of `batch` plies (shorter games are left out) so that every append carries
/// exactly `batch` events.
pub fn prepare(
    games: &[BenchGame],
    batch: usize,
    partial: bool,
    event: &str,
) -> anyhow::Result<Vec<Prepared>> {
    let mut out = Vec::new();
    for game in games {
        let mut plies = game.sans.len();
        if batch > 1 && !partial {
            plies -= plies % batch;
        }
        if plies == 0 {
            continue;
        }
        let moves = game.sans[..plies]
            .iter()
            .enumerate()
            .map(|(index, san)| {
                serde_json::json!({"type": "move", "by": BenchGame::side(index), "san": san})
                    .to_string()
            })
            .collect();
        let create_body = serde_json::to_vec(&settings_json(&game.white, &game.black, event, "1"))?;
        out.push(Prepared { create_body, moves });
    }
    if out.is_empty() {
        bail!("no game has {batch} plies or more");
    }
    Ok(out)
}

fn append_body(expected_seq: u64, events: &[String]) -> Vec<u8> {
    let len: usize = events.iter().map(|e| e.len() + 1).sum();
    let mut body = String::with_capacity(40 + len);
    let _ = write!(body, "{{\"expected_seq\":{expected_seq},\"events\":[");
    for (i, event) in events.iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push_str(event);
    }
    body.push_str("]}");
    body.into_bytes()
}

/// Creates a game; its id and last seq.
async fn create(
    conn: &mut Conn,
    body: Vec<u8>,
) -> Result<(String, u64), (String, Option<StatusCode>)> {
    let games = conn.games_path.clone();
    match conn.post(&games, body).await {
        Ok((status, bytes)) if status == StatusCode::CREATED => {
            let created: Created<'_> = serde_json::from_slice(&bytes)
                .map_err(|e| (format!("creation answer unreadable: {e}"), None))?;
            Ok((created.game.game_id.to_string(), created.game.last_seq))
        }
        Ok((status, bytes)) => Err((describe(status, &bytes), Some(status))),
        Err(e) => Err((format!("transport: {e}"), None)),
    }
}

async fn moves_client(
    mut conn: Conn,
    games: Arc<Vec<Prepared>>,
    first: usize,
    step: usize,
    batch: usize,
    window: Window,
) -> Tally {
    let mut tally = Tally::default();
    let mut next = first;
    'games: while !window.over() {
        let game = &games[next % games.len()];
        next += step;
        let started = Instant::now();
        let (game_id, mut seq) = match create(&mut conn, game.create_body.clone()).await {
            Ok(created) => created,
            Err((what, status)) => {
                tally.error(format!("POST /v1/games {what}"), status);
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let done = Instant::now();
        if window.counts(done) {
            tally.creates += 1;
            tally.other_latencies.push(done - started);
        }
        let path = format!("/v1/games/{game_id}/events");
        let url = match conn.url(&path) {
            Ok(url) => url,
            Err(e) => {
                tally.error(format!("POST {path}: {e}"), None);
                continue;
            }
        };
        for chunk in game.moves.chunks(batch) {
            if window.over() {
                break 'games;
            }
            let body = append_body(seq, chunk);
            let started = Instant::now();
            let answer = conn.post(&url, body).await;
            let done = Instant::now();
            let (status, bytes) = match answer {
                Ok(answer) => answer,
                Err(e) => {
                    tally.error(format!("POST {path} transport: {e}"), None);
                    continue 'games;
                }
            };
            if !status.is_success() {
                tally.error(
                    format!("POST {path} at seq {seq}: {}", describe(status, &bytes)),
                    Some(status),
                );
                continue 'games;
            }
            let appended: Appended<'_> = match serde_json::from_slice(&bytes) {
                Ok(a) => a,
                Err(e) => {
                    tally.error(format!("POST {path}: answer unreadable: {e}"), None);
                    continue 'games;
                }
            };
            seq = appended.last_seq;
            tally.longest_log = tally.longest_log.max(seq);
            let ended = appended.events.iter().any(|e| e.event.kind == "game_ended");
            if window.counts(done) {
                tally.requests += 1;
                tally.latencies.push(done - started);
                if status == StatusCode::OK {
                    tally.replays += 1;
                } else {
                    tally.envelopes += appended.events.len() as u64;
                    tally.recorded += appended
                        .events
                        .iter()
                        .filter(|e| e.event.kind == "move")
                        .count() as u64;
                }
            }
            if ended {
                break;
            }
        }
        if window.counts(Instant::now()) {
            tally.games_done += 1;
        }
    }
    tally
}

/// Options of the `moves` mode.
pub struct MovesRun {
    pub watch: Watch,
    pub clients: usize,
    pub batch: usize,
    pub warmup: Duration,
    pub seconds: Duration,
}

/// Options of the `claim` mode.
pub struct ClaimRun {
    pub watch: Watch,
    /// Games per client, claimed in turn (each claim makes the log 4 events longer).
    pub games_per_client: usize,
    pub clients: usize,
    pub warmup: Duration,
    pub seconds: Duration,
    pub setup_batch: usize,
}

/// Runs `clients` tasks until the window ends, then prints the result.
pub async fn run_moves(
    target: &Target,
    games: Vec<Prepared>,
    run: &MovesRun,
    label: &str,
) -> anyhow::Result<()> {
    let games = Arc::new(games);
    let mut conns = Vec::with_capacity(run.clients);
    for _ in 0..run.clients {
        conns.push(Conn::new(target)?);
    }
    let window = Window::new(run.warmup, run.seconds);
    let mut tasks = tokio::task::JoinSet::new();
    for (index, conn) in conns.into_iter().enumerate() {
        tasks.spawn(moves_client(
            conn,
            Arc::clone(&games),
            index,
            run.clients,
            run.batch,
            window,
        ));
    }
    let cpu = CpuWindow::start(window, run.watch);
    let mut tally = Tally::default();
    while let Some(result) = tasks.join_next().await {
        tally.merge(result?);
    }
    let cpu = cpu.finish().await;
    report(
        &format!("mode=moves clients={} batch={}", run.clients, run.batch),
        label,
        tally,
        run.seconds,
        cpu,
        "moves",
    );
    Ok(())
}

/// Other processes whose CPU time is measured over the window.
#[derive(Clone, Copy, Debug, Default)]
pub struct Watch {
    /// The server process.
    pub server_pid: Option<u32>,
    /// The PostgreSQL postmaster (the whole cluster is measured).
    pub postmaster_pid: Option<u32>,
}

/// CPU time used over the window.
#[derive(Clone, Copy, Debug, Default)]
struct CpuUsage {
    client: Option<Duration>,
    server: Option<Duration>,
    db: Option<Duration>,
}

/// CPU times sampled when the window opens and when it closes.
struct CpuWindow {
    handle: tokio::task::JoinHandle<CpuUsage>,
}

impl CpuWindow {
    fn start(window: Window, watch: Watch) -> CpuWindow {
        let sample = move || {
            (
                process_cpu(),
                watch.server_pid.and_then(server_cpu),
                watch.postmaster_pid.and_then(cluster_cpu),
            )
        };
        let handle = tokio::spawn(async move {
            tokio::time::sleep_until(window.start.into()).await;
            let before = sample();
            tokio::time::sleep_until(window.end.into()).await;
            let after = sample();
            let delta = |a: Option<Duration>, b: Option<Duration>| Some(a?.saturating_sub(b?));
            CpuUsage {
                client: delta(after.0, before.0),
                server: delta(after.1, before.1),
                db: delta(after.2, before.2),
            }
        });
        CpuWindow { handle }
    }

    async fn finish(self) -> CpuUsage {
        self.handle.await.unwrap_or_default()
    }
}

fn report(
    keys: &str,
    label: &str,
    tally: Tally,
    seconds: Duration,
    cpu: CpuUsage,
    recorded_name: &str,
) {
    let secs = seconds.as_secs_f64();
    let events_per_s = tally.recorded as f64 / secs;
    let requests_per_s = tally.requests as f64 / secs;
    let envelopes_per_s = tally.envelopes as f64 / secs;
    let creates_per_s = tally.creates as f64 / secs;
    let n = tally.latencies.len();
    let others = tally.other_latencies.len();
    let sorted = tally.latencies.sorted();
    let other = tally.other_latencies.sorted();
    // Every request of the client: the measured ones and the creations or declines.
    let all_requests = (tally.requests as usize + others).max(1);
    let pct = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() / secs * 100.0);
    let (server_pct, db_pct) = (pct(cpu.server), pct(cpu.db));
    let (cpu_ms, cpu_pct, cpu_us_per_req) = match cpu.client {
        Some(cpu) => (
            cpu.as_secs_f64() * 1000.0,
            cpu.as_secs_f64() / secs * 100.0,
            cpu.as_secs_f64() * 1e6 / all_requests as f64,
        ),
        None => (f64::NAN, f64::NAN, f64::NAN),
    };
    println!(
        "RESULT {keys} seconds={secs:.1} events_per_s={events_per_s:.1} requests_per_s={requests_per_s:.1} \
         envelopes_per_s={envelopes_per_s:.1} creates_per_s={creates_per_s:.1} n={n} \
         p50_ms={:.2} p90_ms={:.2} p99_ms={:.2} max_ms={:.2} mean_ms={:.2} other_p50_ms={:.2} other_p99_ms={:.2} \
         errors={} conflicts={} replays={} games_done={} longest_log={} client_cpu_ms={cpu_ms:.0} client_cpu_pct={cpu_pct:.1} \
         client_cpu_us_per_req={cpu_us_per_req:.0} server_cpu_pct={server_pct:.0} db_cpu_pct={db_pct:.0}",
        sorted.ms(0.50),
        sorted.ms(0.90),
        sorted.ms(0.99),
        sorted.max_ms(),
        sorted.mean_ms(),
        other.ms(0.50),
        other.ms(0.99),
        tally.errors,
        tally.conflicts,
        tally.replays,
        tally.games_done,
        tally.longest_log,
    );
    println!(
        "{label}: {events_per_s:.0} {recorded_name}/s in {requests_per_s:.0} requests/s ({envelopes_per_s:.0} envelopes/s stored), \
         p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms over {n} requests in {secs:.0} s; \
         {} errors; client CPU {cpu_pct:.1}% of one core, {cpu_us_per_req:.0} us per request",
        sorted.ms(0.50),
        sorted.ms(0.99),
        sorted.max_ms(),
        tally.errors,
    );
    for sample in &tally.samples {
        println!("  error: {sample}");
    }
}

/// Sets up one claim game: created, then `game.moves` recorded in batches of
/// `setup_batch`; the events URL and the last seq.
async fn claim_setup(
    conn: &mut Conn,
    game: &Prepared,
    setup_batch: usize,
) -> anyhow::Result<(Path, u64)> {
    let (game_id, mut seq) = create(conn, game.create_body.clone())
        .await
        .map_err(|(what, _)| anyhow::anyhow!("creating the claim game: {what}"))?;
    let url = conn.url(&format!("/v1/games/{game_id}/events"))?;
    for chunk in game.moves.chunks(setup_batch.max(1)) {
        let (status, bytes) = conn.post(&url, append_body(seq, chunk)).await?;
        if status != StatusCode::CREATED {
            bail!("setting up the claim game: {}", describe(status, &bytes));
        }
        let appended: Appended<'_> = serde_json::from_slice(&bytes)?;
        seq = appended.last_seq;
        if appended.events.iter().any(|e| e.event.kind == "game_ended") {
            bail!("the claim game ended during its set-up");
        }
    }
    Ok((url, seq))
}

/// One client of the claim mode: claims by the player to move (measured), each followed
/// by the opponent's decline of the draw offer that the claim stands as (not measured).
async fn claim_client(
    mut conn: Conn,
    mut games: Vec<(Path, u64)>,
    plies: usize,
    window: Window,
) -> anyhow::Result<Tally> {
    let mut tally = Tally::default();
    let (to_move, other) = if plies.is_multiple_of(2) {
        ("white", "black")
    } else {
        ("black", "white")
    };
    let claim = format!(r#"{{"type":"claim","by":"{to_move}","kind":"repetition"}}"#);
    let decline = format!(r#"{{"type":"draw_decline","by":"{other}"}}"#);
    let count = games.len();
    let mut turn = 0;
    while !window.over() {
        let (url, seq) = &mut games[turn % count];
        turn += 1;
        let started = Instant::now();
        let answer = conn
            .post(url, append_body(*seq, std::slice::from_ref(&claim)))
            .await;
        let done = Instant::now();
        let (status, bytes) = match answer {
            Ok(a) => a,
            Err(e) => {
                tally.error(format!("claim transport: {e}"), None);
                break;
            }
        };
        if status != StatusCode::CREATED {
            tally.error(
                format!("claim at seq {seq}: {}", describe(status, &bytes)),
                Some(status),
            );
            break;
        }
        let appended: Appended<'_> = serde_json::from_slice(&bytes)?;
        let kinds: Vec<&str> = appended.events.iter().map(|e| e.event.kind).collect();
        if kinds.len() < 2 || kinds[0] != "claim" || kinds[1] != "claim_ruled" {
            bail!("a claim was not ruled: {kinds:?}");
        }
        if kinds.contains(&"game_ended") {
            bail!("a claim ended the game: {kinds:?}");
        }
        *seq = appended.last_seq;
        if window.counts(done) {
            tally.requests += 1;
            tally.recorded += 1;
            tally.envelopes += kinds.len() as u64;
            tally.latencies.push(done - started);
        }
        let started = Instant::now();
        let (status, bytes) = conn
            .post(url, append_body(*seq, std::slice::from_ref(&decline)))
            .await?;
        let done = Instant::now();
        if status != StatusCode::CREATED {
            tally.error(
                format!("decline at seq {seq}: {}", describe(status, &bytes)),
                Some(status),
            );
            break;
        }
        let appended: Appended<'_> = serde_json::from_slice(&bytes)?;
        *seq = appended.last_seq;
        tally.longest_log = tally.longest_log.max(*seq);
        if window.counts(done) {
            tally.envelopes += appended.events.len() as u64;
            tally.other_latencies.push(done - started);
        }
    }
    Ok(tally)
}

/// Sets up `games_per_client` games of `game.moves` plies per client (all before the
/// window), then measures claim rulings until the window ends.
pub async fn run_claim(
    target: &Target,
    game: Prepared,
    run: &ClaimRun,
    label: &str,
) -> anyhow::Result<()> {
    let game = Arc::new(game);
    let plies = game.moves.len();
    let mut setups = tokio::task::JoinSet::new();
    for _ in 0..run.clients {
        let mut conn = Conn::new(target)?;
        let game = Arc::clone(&game);
        let setup_batch = run.setup_batch;
        let count = run.games_per_client.max(1);
        setups.spawn(async move {
            let mut games = Vec::with_capacity(count);
            for _ in 0..count {
                games.push(claim_setup(&mut conn, &game, setup_batch).await?);
            }
            anyhow::Ok((conn, games))
        });
    }
    let mut ready = Vec::with_capacity(run.clients);
    while let Some(result) = setups.join_next().await {
        ready.push(result??);
    }
    let window = Window::new(run.warmup, run.seconds);
    let mut tasks = tokio::task::JoinSet::new();
    for (conn, games) in ready {
        tasks.spawn(claim_client(conn, games, plies, window));
    }
    let cpu = CpuWindow::start(window, run.watch);
    let mut tally = Tally::default();
    while let Some(result) = tasks.join_next().await {
        tally.merge(result??);
    }
    let cpu = cpu.finish().await;
    report(
        &format!(
            "mode=claim clients={} plies={plies} games_per_client={}",
            run.clients, run.games_per_client
        ),
        label,
        tally,
        run.seconds,
        cpu,
        "claims",
    );
    Ok(())
}
