//! The tournament's own log (`tournament_log`, migration 0024): typed entries, appended only,
//! with who recorded them and when ([`crate::tournament_log`]).

use super::{Store, StoreError};
use crate::tournament_log::{LoggedEntry, TournamentEntry};
use sqlx::Row;
use uuid::Uuid;

/// The `type` of an entry, as stored beside its payload.
fn entry_type(entry: &TournamentEntry) -> &'static str {
    match entry {
        TournamentEntry::ReportExported { .. } => "report_exported",
        TournamentEntry::PairingsLoaded { .. } => "pairings_loaded",
        TournamentEntry::SettingsChanged { .. } => "settings_changed",
        TournamentEntry::PlayerStatus { .. } => "player_status",
    }
}

impl Store {
    /// Appends an entry to the log of `tournament_id`.
    pub async fn append_tournament_entry(
        &self,
        tournament_id: Uuid,
        entry: &TournamentEntry,
        recorded_by: &str,
    ) -> Result<LoggedEntry, StoreError> {
        let row = sqlx::query(
            "INSERT INTO tournament_log (tournament_id, entry_type, payload, recorded_by) \
             VALUES ($1, $2, $3, $4) RETURNING entry_id, recorded_at",
        )
        .bind(tournament_id)
        .bind(entry_type(entry))
        .bind(serde_json::json!(entry))
        .bind(recorded_by)
        .fetch_one(&self.pool)
        .await?;
        Ok(LoggedEntry {
            entry_id: super::to_u64(row.try_get("entry_id")?),
            recorded_by: recorded_by.to_string(),
            recorded_at: row.try_get("recorded_at")?,
            entry: entry.clone(),
        })
    }

    /// The log of `tournament_id`, in the order it was recorded.
    pub async fn tournament_log(
        &self,
        tournament_id: Uuid,
    ) -> Result<Vec<LoggedEntry>, StoreError> {
        let rows = sqlx::query(
            "SELECT entry_id, payload, recorded_by, recorded_at FROM tournament_log \
             WHERE tournament_id = $1 ORDER BY entry_id",
        )
        .bind(tournament_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let entry_id = super::to_u64(row.try_get("entry_id")?);
                let entry = serde_json::from_value(row.try_get("payload")?).map_err(|e| {
                    StoreError::Undecodable {
                        game_id: tournament_id,
                        seq: entry_id,
                        message: format!("tournament_log entry {entry_id}: {e}"),
                    }
                })?;
                Ok(LoggedEntry {
                    entry_id,
                    recorded_by: row.try_get("recorded_by")?,
                    recorded_at: row.try_get("recorded_at")?,
                    entry,
                })
            })
            .collect()
    }
}
