//! What the service counts, for `GET /metrics` (Prometheus text format).
//!
//! Counters are recorded through the `metrics` facade, so any module (the application
//! service, the HTTP shell, the live streams) counts with a one-line call and no handle to
//! pass around; [`install`] puts the Prometheus recorder behind the facade once per process
//! and [`render`] writes what it holds. Every label takes values from a closed set (route
//! *patterns*, status codes, problem codes, event kinds), never raw paths or ids, so the
//! number of series stays bounded. The names and their meaning are listed in
//! docs/operations.md.

use crate::game::event::{Event, RecordedEvent, ServiceEvent};
use crate::store::{Appended, ServedBy};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use sqlx::PgPool;
use std::sync::OnceLock;
use std::time::Duration;

/// Requests by method, route pattern and status.
pub const HTTP_REQUESTS: &str = "arbiter_http_requests_total";
/// Request latency by method, route pattern and status, in seconds.
pub const HTTP_DURATION: &str = "arbiter_http_request_duration_seconds";
/// Problem answers (4xx and 5xx) by code and status.
pub const REFUSALS: &str = "arbiter_refusals_total";
/// Appends by outcome: `stored`, or `retry` (answered with what an earlier append stored).
pub const APPENDS: &str = "arbiter_appends_total";
/// Events stored, by origin: `recorded` (sent by clients) or `decision` (appended by the
/// service as a consequence), and `game_created`.
pub const EVENTS_STORED: &str = "arbiter_events_stored_total";
/// Rulings by kind (`claim_ruled`, `penalty_applied`, `game_ended`, `arbiter_decision`,
/// `appeal_decided`) and outcome.
pub const RULINGS: &str = "arbiter_rulings_total";
/// Games whose folded state is kept in memory.
pub const WARM_GAMES: &str = "arbiter_warm_games";
/// Lookups of a game's warm state, by result: `hit` (folded state found) or `miss`.
pub const WARM_LOOKUPS: &str = "arbiter_warm_game_lookups_total";
/// Database connections by pool (`primary`, `replica`) and state (`idle`, `busy`).
pub const POOL_CONNECTIONS: &str = "arbiter_db_pool_connections";
/// The most connections each pool opens.
pub const POOL_MAX: &str = "arbiter_db_pool_max_connections";
/// Live stream subscribers connected to this instance (set by the streams).
pub const STREAM_SUBSCRIBERS: &str = "arbiter_stream_subscribers";
/// Reads by the database that served them: `primary` (no replica), `replica`, or
/// `primary_fallback` (the replica lagged past the wait limit).
pub const READS: &str = "arbiter_reads_total";
/// Bytes of WAL the replica has still to replay, sampled at each scrape.
pub const REPLICA_LAG: &str = "arbiter_replica_lag_bytes";

/// Appends written by a group commit, by whether the statement was shared with other
/// games' appends (`shared`) or ran for this append alone (`alone`).
pub const GROUPED_APPENDS: &str = "arbiter_group_commit_appends_total";

/// Latency buckets, in seconds: from a cached read to a slow append.
const LATENCY_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the Prometheus recorder behind the `metrics` facade (once per process; later
/// calls return the same handle) and describes every metric.
pub fn install() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new();
        let builder = match builder.set_buckets_for_metric(
            metrics_exporter_prometheus::Matcher::Full(HTTP_DURATION.into()),
            LATENCY_BUCKETS,
        ) {
            Ok(builder) => builder,
            Err(error) => {
                tracing::warn!(%error, "latency buckets refused; histograms become summaries");
                PrometheusBuilder::new()
            }
        };
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder is installed; /metrics will stay empty");
        }
        describe();
        handle
    })
}

/// Starts the periodic upkeep of the recorder (draining histogram samples between scrapes).
/// Call once from a tokio runtime that lives as long as the server.
pub fn spawn_upkeep() {
    let handle = install();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(5));
        loop {
            every.tick().await;
            handle.run_upkeep();
        }
    });
}

/// The metrics in the Prometheus text format.
pub fn render() -> String {
    let handle = install();
    handle.run_upkeep();
    handle.render()
}

fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        HTTP_REQUESTS,
        "HTTP requests by method, route pattern and status."
    );
    describe_histogram!(
        HTTP_DURATION,
        Unit::Seconds,
        "HTTP request latency by method, route pattern and status."
    );
    describe_counter!(
        REFUSALS,
        "Problem answers (4xx, 5xx) by problem code and status."
    );
    describe_counter!(
        APPENDS,
        "Appends of events by outcome (stored, or retry answered from the log)."
    );
    describe_counter!(
        EVENTS_STORED,
        "Events stored by origin (recorded, decision, game_created)."
    );
    describe_counter!(
        RULINGS,
        "Rulings stored by kind and outcome (engine and arbiters)."
    );
    describe_gauge!(WARM_GAMES, "Games whose folded state is kept in memory.");
    describe_counter!(
        WARM_LOOKUPS,
        "Lookups of a game's warm state by result (hit, miss)."
    );
    describe_gauge!(
        POOL_CONNECTIONS,
        "Database connections by pool and state (idle, busy)."
    );
    describe_gauge!(POOL_MAX, "The most connections each database pool opens.");
    describe_gauge!(
        STREAM_SUBSCRIBERS,
        "Live stream subscribers connected to this instance."
    );
    describe_counter!(
        READS,
        "Reads by the database that served them (primary, replica, primary_fallback)."
    );
    describe_gauge!(
        REPLICA_LAG,
        Unit::Bytes,
        "WAL bytes the read replica has still to replay, at the last scrape."
    );
    describe_counter!(
        GROUPED_APPENDS,
        "Appends stored, by whether their statement and commit were shared with other games' appends (group commit)."
    );
    // Present from the start, so a dashboard shows 0 rather than nothing.
    metrics::gauge!(STREAM_SUBSCRIBERS).increment(0.0);
}

/// A request answered.
pub fn request_finished(method: &str, route: &str, status: u16, elapsed: Duration) {
    let labels = [
        ("method", method.to_string()),
        ("route", route.to_string()),
        ("status", status.to_string()),
    ];
    metrics::counter!(HTTP_REQUESTS, &labels).increment(1);
    metrics::histogram!(HTTP_DURATION, &labels).record(elapsed.as_secs_f64());
}

/// A problem answer.
pub fn refused(code: &'static str, status: u16) {
    metrics::counter!(REFUSALS, "code" => code, "status" => status.to_string()).increment(1);
}

/// A game created (its `game_created` event stored), or a creation answered as a retry.
pub fn game_created(newly: bool) {
    if newly {
        metrics::counter!(EVENTS_STORED, "origin" => "game_created").increment(1);
    }
}

/// An append answered: what it stored, and the rulings among it (the engine's decisions
/// and the judgement rulings recorded by arbiters and appeals committees). A retry counts
/// as an append answered from the log and stores nothing.
pub fn appended(appended: &Appended) {
    if !appended.newly_stored {
        metrics::counter!(APPENDS, "outcome" => "retry").increment(1);
        return;
    }
    metrics::counter!(APPENDS, "outcome" => "stored").increment(1);
    let mut recorded = 0u64;
    let mut decisions = 0u64;
    for envelope in &appended.envelopes {
        match envelope.event {
            Event::Service(_) => decisions += 1,
            Event::Recorded(_) => recorded += 1,
        }
        if let Some((kind, outcome)) = ruling_of(&envelope.event) {
            metrics::counter!(RULINGS, "kind" => kind, "outcome" => outcome).increment(1);
        }
    }
    metrics::counter!(EVENTS_STORED, "origin" => "recorded").increment(recorded);
    metrics::counter!(EVENTS_STORED, "origin" => "decision").increment(decisions);
}

/// The kind and outcome of a ruling, if the event is one.
fn ruling_of(event: &Event) -> Option<(&'static str, String)> {
    let name = |value: serde_json::Result<serde_json::Value>| {
        value
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| "other".into())
    };
    match event {
        Event::Service(ServiceEvent::ClaimRuled(ruling)) => {
            Some(("claim_ruled", name(serde_json::to_value(ruling.outcome))))
        }
        Event::Service(ServiceEvent::PenaltyApplied { .. }) => {
            Some(("penalty_applied", "applied".into()))
        }
        Event::Service(ServiceEvent::GameEnded { termination, .. }) => {
            Some(("game_ended", name(serde_json::to_value(termination))))
        }
        Event::Recorded(RecordedEvent::ArbiterDecision { decision, .. }) => {
            Some(("arbiter_decision", name(serde_json::to_value(decision))))
        }
        Event::Recorded(RecordedEvent::AppealDecided { upheld, .. }) => Some((
            "appeal_decided",
            if *upheld { "upheld" } else { "rejected" }.into(),
        )),
        _ => None,
    }
}

/// An append written, in a statement shared by `group_size` appends (1: alone).
pub fn append_grouped(group_size: usize) {
    let shared = if group_size > 1 { "shared" } else { "alone" };
    metrics::counter!(GROUPED_APPENDS, "statement" => shared).increment(1);
}

/// A game's warm state looked up: found folded (`hit`) or not (`miss`).
pub fn warm_lookup(hit: bool) {
    metrics::counter!(WARM_LOOKUPS, "result" => if hit { "hit" } else { "miss" }).increment(1);
}

/// The number of games kept warm.
pub fn warm_games(count: usize) {
    metrics::gauge!(WARM_GAMES).set(count as f64);
}

/// The number of live streams open in this instance.
pub fn stream_subscribers(count: i64) {
    metrics::gauge!(STREAM_SUBSCRIBERS).set(count as f64);
}

/// A read served.
pub fn read_served(served_by: ServedBy) {
    metrics::counter!(READS, "served_by" => served_by.as_str()).increment(1);
}

/// Samples a pool's connections (called when /metrics is scraped).
pub fn pool_sampled(name: &'static str, pool: &PgPool) {
    let size = pool.size();
    let idle = u32::try_from(pool.num_idle()).unwrap_or(u32::MAX).min(size);
    metrics::gauge!(POOL_CONNECTIONS, "pool" => name, "state" => "idle").set(f64::from(idle));
    metrics::gauge!(POOL_CONNECTIONS, "pool" => name, "state" => "busy")
        .set(f64::from(size - idle));
    metrics::gauge!(POOL_MAX, "pool" => name).set(f64::from(pool.options().get_max_connections()));
}

/// The replica's replay lag, sampled at a scrape.
pub fn replica_lag(bytes: u64) {
    metrics::gauge!(REPLICA_LAG).set(bytes as f64);
}
