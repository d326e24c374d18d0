//! The `load` mode: history for the growth measurements, stored through the library's store
//! (`Store::create_game`, then `Store::append` of up to `batch` events), so that the
//! database's trigger computes every hash of the chain exactly as for the service's own
//! appends. Each game is a real game with the decisions the engine takes on it (the
//! `game_ended` of a mate, for example), as the service would have stored them.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use arbiter::store::{NewEvent, Store};

use crate::games::{BenchGame, settings};

/// Who the loaded events are recorded by.
const RECORDED_BY: &str = "bench load (arbiter, token none)";

/// Options of the `load` mode.
pub struct LoadRun {
    /// Stop once at least this many events (`game_created` included) are stored.
    pub events: u64,
    /// Concurrent loaders.
    pub loaders: usize,
    /// Events per append.
    pub batch: usize,
    /// The `event` setting of the loaded games.
    pub event: String,
}

async fn loader(
    store: Store,
    games: Arc<Vec<BenchGame>>,
    next: Arc<AtomicUsize>,
    loaded: Arc<AtomicU64>,
    run: Arc<LoadRun>,
) -> anyhow::Result<()> {
    while loaded.load(Ordering::Relaxed) < run.events {
        let index = next.fetch_add(1, Ordering::Relaxed);
        let game = &games[index % games.len()];
        let round = (index / games.len() + 1).to_string();
        let settings = settings(&game.white, &game.black, &run.event, &round);
        let created = store
            .create_game(None, None, &settings, RECORDED_BY)
            .await
            .with_context(|| format!("creating a game for {}", game.origin))?;
        let game_id = created.summary.game_id;
        loaded.fetch_add(1, Ordering::Relaxed);
        let mut seq = 1u64;
        for chunk in game.stored.chunks(run.batch.max(1)) {
            let events: Vec<NewEvent> = chunk.iter().cloned().map(NewEvent::generated).collect();
            let appended = store
                .append(game_id, seq, &events, RECORDED_BY)
                .await
                .with_context(|| format!("appending to {game_id} ({}) after {seq}", game.origin))?;
            seq += appended.envelopes.len() as u64;
            loaded.fetch_add(appended.envelopes.len() as u64, Ordering::Relaxed);
        }
    }
    Ok(())
}

/// Stores at least `run.events` events of history, printing progress every 5 s.
pub async fn run_load(
    database_url: &str,
    games: Vec<BenchGame>,
    run: LoadRun,
) -> anyhow::Result<()> {
    let loaders = run.loaders.max(1);
    let store = Store::connect(database_url, u32::try_from(loaders)? + 1)
        .await
        .context("connecting to the database")?;
    let games = Arc::new(games);
    let next = Arc::new(AtomicUsize::new(0));
    let loaded = Arc::new(AtomicU64::new(0));
    let run = Arc::new(run);
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..loaders {
        tasks.spawn(loader(
            store.clone(),
            Arc::clone(&games),
            Arc::clone(&next),
            Arc::clone(&loaded),
            Arc::clone(&run),
        ));
    }
    let progress = {
        let loaded = Arc::clone(&loaded);
        let target = run.events;
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(5));
            tick.tick().await;
            loop {
                tick.tick().await;
                let n = loaded.load(Ordering::Relaxed);
                let secs = started.elapsed().as_secs_f64();
                eprintln!(
                    "load: {n} of {target} events in {secs:.0} s ({:.0} events/s)",
                    n as f64 / secs
                );
            }
        })
    };
    let mut outcome = Ok(());
    while let Some(result) = tasks.join_next().await {
        if let Err(e) = result? {
            outcome = Err(e);
            tasks.abort_all();
        }
    }
    progress.abort();
    outcome?;
    let n = loaded.load(Ordering::Relaxed);
    let games_created = next.load(Ordering::Relaxed);
    let secs = started.elapsed().as_secs_f64();
    println!(
        "RESULT mode=load events={n} games={games_created} loaders={loaders} batch={} seconds={secs:.1} events_per_s={:.0}",
        run.batch,
        n as f64 / secs
    );
    Ok(())
}
