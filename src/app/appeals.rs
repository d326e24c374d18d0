//! The deadline for lodging an appeal (issue 37): the one check of the appeals procedure that
//! needs times the engine does not hold (when the game, or the round, ended, and when the
//! appeal was lodged). The rule itself is pure (`crate::rules::appeals::check_deadline`);
//! this module finds the times in the log.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::game::Game;
use crate::game::event::{Event, GameSettings, RecordedEvent, ServiceEvent};
use crate::rules::appeals::{DeadlineFrom, check_deadline};
use crate::store::{EventEnvelope, GameFilter, NewEvent, Store, StoreError};

/// When the game folded from `log` ended (the `recorded_at` of its standing `game_ended`),
/// or `None` while it is in progress.
fn ended_at(game: &Game, log: &[EventEnvelope]) -> Option<DateTime<Utc>> {
    let seq = game.view().ended_at_seq?;
    log.iter().find(|e| e.seq == seq).map(|e| e.recorded_at)
}

/// The game folded from its stored `log`, or `None` if it cannot be folded.
fn folded(log: &[EventEnvelope]) -> Option<Game> {
    let Event::Service(ServiceEvent::GameCreated(settings)) = &log.first()?.event else {
        return None;
    };
    let mut game = Game::new(settings).ok()?;
    for envelope in log {
        game.apply_with_clock(envelope.seq, &envelope.event, envelope.clock.as_ref())
            .ok()?;
    }
    Some(game)
}

/// When the round of `settings` ended: the latest end among its games, or `None` while one
/// of them is still in progress.
async fn round_ended_at(
    store: &Store,
    settings: &GameSettings,
) -> Result<Option<DateTime<Utc>>, StoreError> {
    // A round has far fewer than 1000 boards: one page holds them all.
    let page = store
        .list_games(&GameFilter {
            event: Some(settings.event.clone()),
            round: Some(settings.round.clone()),
            status: None,
            after: None,
            limit: 1000,
        })
        .await?;
    let mut latest: Option<DateTime<Utc>> = None;
    for summary in &page.items {
        let log = store.game_log(summary.game_id).await?;
        let Some(end) = folded(&log).and_then(|game| ended_at(&game, &log)) else {
            return Ok(None);
        };
        latest = latest.max(Some(end));
    }
    Ok(latest)
}

/// The first appeal of `events` (with its index) lodged after the deadline the game's
/// regulations set, with the sentence that says so; `None` when every appeal is in time (or
/// the regulations set no deadline, or the game or round has not ended). `game` is the game
/// as it stands before the events; `now` is when the request came.
pub async fn late_appeal(
    store: &Store,
    game_id: Uuid,
    game: &Game,
    events: &[NewEvent],
    now: DateTime<Utc>,
) -> Result<Option<(usize, String)>, StoreError> {
    let regulations = &game.settings().regulations.appeals;
    if regulations.deadline_minutes.is_none() {
        return Ok(None);
    }
    let Some(index) = events
        .iter()
        .position(|e| matches!(e.event, Event::Recorded(RecordedEvent::AppealLodged { .. })))
    else {
        return Ok(None);
    };
    let from = match regulations.deadline_from {
        DeadlineFrom::GameEnd => {
            let Some(seq) = game.view().ended_at_seq else {
                return Ok(None);
            };
            store
                .read_events(game_id, seq.saturating_sub(1), Some(seq), None)
                .await?
                .first()
                .map(|e| e.recorded_at)
        }
        DeadlineFrom::RoundEnd => round_ended_at(store, game.settings()).await?,
    };
    let Some(from) = from else {
        return Ok(None);
    };
    // An appeal handed in writing is lodged when it was handed in (`occurred_at`), if the
    // recorder says so; else when it is recorded.
    let lodged_at = events[index].occurred_at.unwrap_or(now);
    Ok(check_deadline(regulations, from, lodged_at)
        .err()
        .map(|message| (index, message)))
}
