//! Retrying writers for the failover test (`scripts/failover-test.sh`, issue 20): N clients
//! each record `clock_adjust` events into games of their own, one event per request. A
//! request that fails (503, 5xx, a lost connection, a timeout) is sent again unchanged (same
//! `expected_seq`, same `event_id`) until the service acknowledges it (201 stored, or 200: an
//! earlier attempt was stored) or the run ends. Every acknowledged event is written to the
//! output file as `game_id event_id seq acknowledged_at_unix_ms`, so that the script can check
//! that each one is stored exactly once after the primary was killed.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue};
use serde_json::{Value, json};
use uuid::Uuid;

/// The run's settings.
pub struct RetryingRun {
    pub base: String,
    pub token: String,
    pub clients: usize,
    /// The run ends after this long, or earlier when `stop_file` exists.
    pub seconds: Duration,
    pub stop_file: Option<PathBuf>,
    pub out: PathBuf,
    /// Events per game before a writer starts a new one.
    pub events_per_game: u64,
}

/// One acknowledged event.
struct Ack {
    game_id: Uuid,
    event_id: Uuid,
    seq: u64,
    at_ms: u128,
}

#[derive(Default)]
struct Writer {
    acks: Vec<Ack>,
    attempts: u64,
    failures: u64,
    refusals: Vec<String>,
    longest_outage: Duration,
}

fn unix_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default()
}

fn client(token: &str) -> anyhow::Result<reqwest::Client> {
    let mut headers = HeaderMap::new();
    let mut auth = HeaderValue::from_str(&format!("Bearer {token}"))
        .context("the token is not a valid header value")?;
    auth.set_sensitive(true);
    headers.insert(AUTHORIZATION, auth);
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(reqwest::Client::builder()
        .default_headers(headers)
        .timeout(Duration::from_secs(10))
        .connect_timeout(Duration::from_secs(2))
        .build()?)
}

/// What one attempt came to.
enum Attempt {
    /// Stored now (201) or before (200): the answer.
    Acknowledged(Value),
    /// Worth sending again.
    Failed,
    /// Refused for good (a 4xx other than 429): the answer, for the report.
    Refused(StatusCode, String),
}

async fn attempt(client: &reqwest::Client, url: &str, body: &Value) -> Attempt {
    let response = match client.post(url).json(body).send().await {
        Ok(response) => response,
        Err(_) => return Attempt::Failed,
    };
    let status = response.status();
    let text = match response.text().await {
        Ok(text) => text,
        Err(_) => return Attempt::Failed,
    };
    match status.as_u16() {
        200 | 201 => match serde_json::from_str(&text) {
            Ok(value) => Attempt::Acknowledged(value),
            Err(_) => Attempt::Failed,
        },
        429 | 500..=599 => Attempt::Failed,
        _ => Attempt::Refused(status, text),
    }
}

impl Writer {
    /// Sends `body` until acknowledged, refused, or `deadline`/stop.
    async fn until_acknowledged(
        &mut self,
        client: &reqwest::Client,
        url: &str,
        body: &Value,
        run: &RetryingRun,
        deadline: Instant,
    ) -> Option<Value> {
        let mut pause = Duration::from_millis(50);
        let mut failing_since: Option<Instant> = None;
        loop {
            self.attempts += 1;
            match attempt(client, url, body).await {
                Attempt::Acknowledged(value) => {
                    if let Some(since) = failing_since {
                        self.longest_outage = self.longest_outage.max(since.elapsed());
                    }
                    return Some(value);
                }
                Attempt::Refused(status, text) => {
                    if self.refusals.len() < 5 {
                        self.refusals.push(format!("{status}: {text}"));
                    }
                    return None;
                }
                Attempt::Failed => {
                    self.failures += 1;
                    failing_since.get_or_insert_with(Instant::now);
                }
            }
            if Instant::now() >= deadline || stopped(run) {
                return None;
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(500));
        }
    }
}

fn stopped(run: &RetryingRun) -> bool {
    run.stop_file.as_ref().is_some_and(|file| file.exists())
}

async fn write(run: &RetryingRun, index: usize, deadline: Instant) -> anyhow::Result<Writer> {
    let client = client(&run.token)?;
    let base = run.base.trim_end_matches('/');
    let mut writer = Writer::default();
    let mut board = 0u64;
    'games: while Instant::now() < deadline && !stopped(run) {
        board += 1;
        let game_id = Uuid::new_v4();
        let create = json!({
            "game_id": game_id,
            "white": {"name": format!("Writer {index}")},
            "black": {"name": format!("Board {board}")},
            "event": "Failover test",
            "round": "1",
            "board": board,
            "time_control": {"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000}
        });
        let games_url = format!("{base}/v1/games");
        if writer
            .until_acknowledged(&client, &games_url, &create, run, deadline)
            .await
            .is_none()
        {
            continue;
        }
        let events_url = format!("{base}/v1/games/{game_id}/events");
        let mut last_seq = 1u64;
        while last_seq < run.events_per_game {
            if Instant::now() >= deadline || stopped(run) {
                break 'games;
            }
            let event_id = Uuid::new_v4();
            let body = json!({"expected_seq": last_seq, "events": [{
                "type": "clock_adjust", "event_id": event_id, "side": "white",
                "delta_ms": 1000, "reason": format!("failover test, writer {index}")
            }]});
            let Some(answer) = writer
                .until_acknowledged(&client, &events_url, &body, run, deadline)
                .await
            else {
                // Not acknowledged: it may or may not be stored; a new game keeps the check exact.
                continue 'games;
            };
            let seq = answer["last_seq"].as_u64().unwrap_or(last_seq + 1);
            writer.acks.push(Ack {
                game_id,
                event_id,
                seq,
                at_ms: unix_ms(),
            });
            last_seq = seq;
        }
    }
    Ok(writer)
}

/// Runs the writers and writes every acknowledged event to `run.out`.
pub async fn run_retrying(run: RetryingRun) -> anyhow::Result<()> {
    let started = Instant::now();
    let deadline = started + run.seconds;
    let run = std::sync::Arc::new(run);
    let mut tasks = Vec::new();
    for index in 0..run.clients {
        let run = std::sync::Arc::clone(&run);
        tasks.push(tokio::spawn(
            async move { write(&run, index, deadline).await },
        ));
    }
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(&run.out)
            .with_context(|| format!("cannot write {}", run.out.display()))?,
    );
    let (mut acknowledged, mut attempts, mut failures) = (0usize, 0u64, 0u64);
    let mut longest = Duration::ZERO;
    for task in tasks {
        let writer = task.await??;
        for ack in &writer.acks {
            writeln!(
                out,
                "{} {} {} {}",
                ack.game_id, ack.event_id, ack.seq, ack.at_ms
            )?;
        }
        for refusal in &writer.refusals {
            eprintln!("retrying writers: refused: {refusal}");
        }
        acknowledged += writer.acks.len();
        attempts += writer.attempts;
        failures += writer.failures;
        longest = longest.max(writer.longest_outage);
    }
    out.flush()?;
    println!(
        "RESULT retrying clients={} acknowledged={acknowledged} attempts={attempts} failed_attempts={failures} longest_outage_ms={} seconds={:.1}",
        run.clients,
        longest.as_millis(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
