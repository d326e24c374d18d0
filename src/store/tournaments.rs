//! Tournaments: the settings games of an event are created with. Not part of the event log
//! (a game's own settings are in its `game_created`), so a tournament row may be updated.

use super::events::violates;
use super::{Store, StoreError};
use crate::game::event::{ClockBehaviour, LawsEdition, Regulations, TimeControl};
use crate::rules::tie_breaks::{TieBreak, UnplayedRounds};
use crate::tournament::{TimeZone, Tournament, TournamentSettings};
use sqlx::Row;
use sqlx::postgres::PgRow;
use uuid::Uuid;

fn edition_text(edition: LawsEdition) -> &'static str {
    match edition {
        LawsEdition::Y2018 => "2018",
        LawsEdition::Y2023 => "2023",
    }
}

/// The tie-breaks as stored: their C.07 abbreviations.
fn codes(tie_breaks: &[TieBreak]) -> Vec<&'static str> {
    tie_breaks.iter().map(|t| t.code()).collect()
}

fn unplayed_text(unplayed: UnplayedRounds) -> &'static str {
    match unplayed {
        UnplayedRounds::Fide2023 => "2023",
        UnplayedRounds::Before2023 => "before_2023",
    }
}

fn tournament_from_row(row: &PgRow) -> Result<Tournament, StoreError> {
    let tournament_id: Uuid = row.try_get("tournament_id")?;
    let undecodable = |message: String| StoreError::Undecodable {
        game_id: tournament_id,
        seq: 0,
        message,
    };
    let time_control: TimeControl = serde_json::from_value(row.try_get("time_control")?)
        .map_err(|e| undecodable(format!("time_control: {e}")))?;
    let regulations: Regulations = serde_json::from_value(row.try_get("regulations")?)
        .map_err(|e| undecodable(format!("regulations: {e}")))?;
    let clock_behaviour: ClockBehaviour =
        serde_json::from_value(row.try_get("clock_behaviour")?)
            .map_err(|e| undecodable(format!("clock_behaviour: {e}")))?;
    let time_zone: Option<String> = row.try_get("time_zone")?;
    let time_zone = time_zone
        .map(|name| name.parse::<TimeZone>())
        .transpose()
        .map_err(|e| undecodable(format!("time_zone: {e}")))?;
    let tie_breaks: Vec<String> = row.try_get("tie_breaks")?;
    let tie_breaks = tie_breaks
        .iter()
        .map(|code| {
            TieBreak::parse(code).ok_or_else(|| undecodable(format!("tie_breaks: `{code}`")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let unplayed_rounds: Option<String> = row.try_get("unplayed_rounds")?;
    let unplayed_rounds = unplayed_rounds
        .map(|text| serde_json::from_value(serde_json::Value::String(text)))
        .transpose()
        .map_err(|e| undecodable(format!("unplayed_rounds: {e}")))?;
    let edition: String = row.try_get("laws_edition")?;
    let laws_edition: LawsEdition = serde_json::from_value(serde_json::Value::String(edition))
        .map_err(|e| undecodable(format!("laws_edition: {e}")))?;
    Ok(Tournament {
        tournament_id,
        settings: TournamentSettings {
            name: row.try_get("name")?,
            site: row.try_get("site")?,
            starts_on: row.try_get("starts_on")?,
            ends_on: row.try_get("ends_on")?,
            time_control,
            clock_behaviour,
            laws_edition,
            regulations,
            arbiters: row.try_get("arbiters")?,
            time_zone,
            tie_breaks,
            unplayed_rounds,
        },
        created_at: row.try_get("created_at")?,
        created_by: row.try_get("created_by")?,
        updated_at: row.try_get("updated_at")?,
    })
}

impl Store {
    /// Creates a tournament; its name must not be taken.
    pub async fn create_tournament(
        &self,
        settings: &TournamentSettings,
        created_by: &str,
    ) -> Result<Tournament, StoreError> {
        let result = sqlx::query(
            "INSERT INTO tournaments (tournament_id, name, site, starts_on, ends_on, \
             time_control, laws_edition, regulations, arbiters, created_by, clock_behaviour, \
             time_zone, tie_breaks, unplayed_rounds) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING *",
        )
        .bind(Uuid::new_v4())
        .bind(&settings.name)
        .bind(&settings.site)
        .bind(settings.starts_on)
        .bind(settings.ends_on)
        .bind(serde_json::json!(settings.time_control))
        .bind(edition_text(settings.laws_edition))
        .bind(serde_json::json!(settings.regulations))
        .bind(&settings.arbiters)
        .bind(created_by)
        .bind(serde_json::json!(settings.clock_behaviour))
        .bind(settings.time_zone.map(TimeZone::name))
        .bind(codes(&settings.tie_breaks))
        .bind(settings.unplayed_rounds.map(unplayed_text))
        .fetch_one(&self.pool)
        .await;
        match result {
            Ok(row) => tournament_from_row(&row),
            Err(error) if violates(&error, "tournaments_name_key") => {
                Err(StoreError::TournamentNameTaken(settings.name.clone()))
            }
            Err(error) => Err(error.into()),
        }
    }

    /// Replaces a tournament's settings (not its name); `None` if there is no such tournament.
    /// The settings that changed are logged (`settings_changed`, with `recorded_by`) in the
    /// same transaction; nothing is logged when nothing changed.
    pub async fn update_tournament(
        &self,
        tournament_id: Uuid,
        settings: &TournamentSettings,
        recorded_by: &str,
    ) -> Result<Option<Tournament>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let before = sqlx::query("SELECT * FROM tournaments WHERE tournament_id = $1 FOR UPDATE")
            .bind(tournament_id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(before) = before.as_ref().map(tournament_from_row).transpose()? else {
            return Ok(None);
        };
        let row = sqlx::query(
            "UPDATE tournaments SET site = $2, starts_on = $3, ends_on = $4, time_control = $5, \
             laws_edition = $6, regulations = $7, arbiters = $8, clock_behaviour = $9, \
             time_zone = $10, tie_breaks = $11, unplayed_rounds = $12, \
             updated_at = now() \
             WHERE tournament_id = $1 RETURNING *",
        )
        .bind(tournament_id)
        .bind(&settings.site)
        .bind(settings.starts_on)
        .bind(settings.ends_on)
        .bind(serde_json::json!(settings.time_control))
        .bind(edition_text(settings.laws_edition))
        .bind(serde_json::json!(settings.regulations))
        .bind(&settings.arbiters)
        .bind(serde_json::json!(settings.clock_behaviour))
        .bind(settings.time_zone.map(TimeZone::name))
        .bind(codes(&settings.tie_breaks))
        .bind(settings.unplayed_rounds.map(unplayed_text))
        .fetch_one(&mut *tx)
        .await?;
        let after = tournament_from_row(&row)?;
        let fields = crate::tournament_log::changed_fields(&before.settings, &after.settings);
        if !fields.is_empty() {
            let entry = crate::tournament_log::TournamentEntry::SettingsChanged { fields };
            sqlx::query(
                "INSERT INTO tournament_log (tournament_id, entry_type, payload, recorded_by) \
                 VALUES ($1, 'settings_changed', $2, $3)",
            )
            .bind(tournament_id)
            .bind(serde_json::json!(entry))
            .bind(recorded_by)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(Some(after))
    }

    /// The tournament, or `None`.
    pub async fn tournament(&self, tournament_id: Uuid) -> Result<Option<Tournament>, StoreError> {
        let row = sqlx::query("SELECT * FROM tournaments WHERE tournament_id = $1")
            .bind(tournament_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(tournament_from_row).transpose()
    }

    /// The tournament of that name, or `None`.
    pub async fn tournament_named(&self, name: &str) -> Result<Option<Tournament>, StoreError> {
        let row = sqlx::query("SELECT * FROM tournaments WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(tournament_from_row).transpose()
    }

    /// Every tournament, the latest first.
    pub async fn tournaments(&self) -> Result<Vec<Tournament>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM tournaments \
             ORDER BY coalesce(starts_on, created_at::date) DESC, created_at DESC",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_from_row).collect()
    }

    /// Who recorded events in the games of `event`, most events first: the recorded events
    /// only (the decisions and ends the service appended are not anyone's recording).
    pub async fn event_recorders(&self, event: &str) -> Result<Vec<Recorder>, StoreError> {
        let rows = sqlx::query(
            "SELECT e.recorded_by, count(*) AS events, \
               array_agg(DISTINCT g.round) AS rounds, \
               min(e.recorded_at) AS first_at, max(e.recorded_at) AS last_at \
             FROM events e JOIN games g ON g.game_id = e.game_id \
             WHERE g.event_name = $1 \
               AND e.event_type NOT IN ('claim_ruled', 'penalty_applied', 'game_ended') \
             GROUP BY e.recorded_by ORDER BY count(*) DESC, e.recorded_by",
        )
        .bind(event)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let mut rounds: Vec<String> = row.try_get("rounds")?;
                rounds.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
                Ok(Recorder {
                    recorded_by: row.try_get("recorded_by")?,
                    events: super::to_u64(row.try_get("events")?),
                    rounds,
                    first_at: row.try_get("first_at")?,
                    last_at: row.try_get("last_at")?,
                })
            })
            .collect()
    }

    /// The events games were created for and their rounds, with how many games each round has
    /// and how many have ended: what the back office lists, tournaments or not.
    pub async fn event_rounds(&self) -> Result<Vec<EventRound>, StoreError> {
        let rows = sqlx::query(
            "SELECT event_name, round, count(*) AS games, \
               count(*) FILTER (WHERE status = 'ended') AS ended, max(updated_at) AS updated_at \
             FROM games GROUP BY event_name, round \
             ORDER BY event_name, length(round), round",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(EventRound {
                    event: row.try_get("event_name")?,
                    round: row.try_get("round")?,
                    games: super::to_u64(row.try_get("games")?),
                    ended: super::to_u64(row.try_get("ended")?),
                    updated_at: row.try_get("updated_at")?,
                })
            })
            .collect()
    }
}

/// Someone who recorded events in an event's games: the envelope's `recorded_by` (a token's
/// name and role, or a session's), with what and when.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorder {
    /// As stored in the envelope (`Name (role, ...)`).
    pub recorded_by: String,
    /// The events recorded (decisions the service appended in consequence not counted).
    pub events: u64,
    /// The rounds recorded in, in order.
    pub rounds: Vec<String>,
    /// The first event recorded.
    pub first_at: chrono::DateTime<chrono::Utc>,
    /// The last event recorded.
    pub last_at: chrono::DateTime<chrono::Utc>,
}

/// A round of an event, as the games table knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRound {
    /// The event's name.
    pub event: String,
    /// The round.
    pub round: String,
    /// Games created for it.
    pub games: u64,
    /// Games that have ended.
    pub ended: u64,
    /// When an event was last stored in one of its games.
    pub updated_at: chrono::DateTime<chrono::Utc>,
}
