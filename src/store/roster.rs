//! A tournament's players as its pairing program numbers them, and the byes of its rounds
//! (`tournament_players`, `tournament_byes`): what a FIDE tournament report needs besides
//! the games. Kept when a round is loaded from a TRF file; not part of the event log.

use super::{Store, StoreError};
use crate::interchange::trf::TrfPlayer;
use sqlx::Row;
use uuid::Uuid;

/// A bye of a round: a player without a game who was given `H`, `F`, `U` or `Z`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundBye {
    /// The round.
    pub round: String,
    /// The player's start rank.
    pub start_number: u32,
    /// `H`, `F`, `U` or `Z`.
    pub code: char,
}

/// A game of a tournament: its id, round, board and players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGame {
    /// The game.
    pub game_id: Uuid,
    /// Its round.
    pub round: String,
    /// Its board.
    pub board: Option<u32>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
}

/// What a round's pairing file (a TRF file) says besides the boards: its players and the
/// round's byes, kept with the round's games in one transaction ([`Store::create_round`]).
#[derive(Clone, Copy, Debug)]
pub struct RoundRoster<'a> {
    /// The tournament.
    pub tournament_id: Uuid,
    /// The round.
    pub round: &'a str,
    /// The file's players (their static columns).
    pub players: &'a [TrfPlayer],
    /// The round's byes: start rank and code.
    pub byes: &'a [(u32, char)],
}

type Tx<'c> = sqlx::Transaction<'c, sqlx::Postgres>;

/// Keeps `roster` inside `tx`.
pub(super) async fn keep_round_roster(
    tx: &mut Tx<'_>,
    roster: &RoundRoster<'_>,
    recorded_by: &str,
) -> Result<(), StoreError> {
    keep_players(tx, roster.tournament_id, roster.players).await?;
    replace_byes(
        tx,
        roster.tournament_id,
        roster.round,
        roster.byes,
        recorded_by,
    )
    .await
}

async fn keep_players(
    tx: &mut Tx<'_>,
    tournament_id: Uuid,
    players: &[TrfPlayer],
) -> Result<(), StoreError> {
    for player in players {
        sqlx::query(
            "INSERT INTO tournament_players (tournament_id, start_number, name, fide_id, sex, \
             title, rating, federation, birth_date) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (tournament_id, start_number) DO UPDATE SET name = $3, \
             fide_id = $4, sex = $5, title = $6, rating = $7, federation = $8, \
             birth_date = $9, updated_at = now()",
        )
        .bind(tournament_id)
        .bind(to_i32(player.start_number))
        .bind(&player.name)
        .bind(player.fide_id.and_then(|id| i64::try_from(id).ok()))
        .bind(&player.sex)
        .bind(&player.title)
        .bind(player.rating.map(to_i32))
        .bind(&player.federation)
        .bind(&player.birth_date)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

async fn replace_byes(
    tx: &mut Tx<'_>,
    tournament_id: Uuid,
    round: &str,
    byes: &[(u32, char)],
    recorded_by: &str,
) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM tournament_byes WHERE tournament_id = $1 AND round = $2")
        .bind(tournament_id)
        .bind(round)
        .execute(&mut **tx)
        .await?;
    for (start_number, code) in byes {
        sqlx::query(
            "INSERT INTO tournament_byes (tournament_id, round, start_number, code, \
             recorded_by) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(tournament_id)
        .bind(round)
        .bind(to_i32(*start_number))
        .bind(code.to_string())
        .bind(recorded_by)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

fn to_i32(value: u32) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

impl Store {
    /// Keeps the players of a pairing file (their static columns: start rank to birth date),
    /// replacing what an earlier file gave for the same start ranks.
    pub async fn keep_tournament_players(
        &self,
        tournament_id: Uuid,
        players: &[TrfPlayer],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        keep_players(&mut tx, tournament_id, players).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The players kept for a tournament, by start rank (their rounds empty).
    pub async fn tournament_players(
        &self,
        tournament_id: Uuid,
    ) -> Result<Vec<TrfPlayer>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM tournament_players WHERE tournament_id = $1 ORDER BY start_number",
        )
        .bind(tournament_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let start: i32 = row.try_get("start_number")?;
                let fide_id: Option<i64> = row.try_get("fide_id")?;
                let rating: Option<i32> = row.try_get("rating")?;
                Ok(TrfPlayer {
                    start_number: u32::try_from(start).unwrap_or_default(),
                    sex: row.try_get("sex")?,
                    title: row.try_get("title")?,
                    name: row.try_get("name")?,
                    rating: rating.and_then(|r| u32::try_from(r).ok()),
                    federation: row.try_get("federation")?,
                    fide_id: fide_id.and_then(|id| u64::try_from(id).ok()),
                    birth_date: row.try_get("birth_date")?,
                    ..TrfPlayer::default()
                })
            })
            .collect()
    }

    /// Replaces the byes of a round with `byes` (start rank and code).
    pub async fn replace_round_byes(
        &self,
        tournament_id: Uuid,
        round: &str,
        byes: &[(u32, char)],
        recorded_by: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        replace_byes(&mut tx, tournament_id, round, byes, recorded_by).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Every bye of a tournament.
    pub async fn tournament_byes(&self, tournament_id: Uuid) -> Result<Vec<RoundBye>, StoreError> {
        let rows = sqlx::query(
            "SELECT round, start_number, code FROM tournament_byes WHERE tournament_id = $1 \
             ORDER BY round, start_number",
        )
        .bind(tournament_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let start: i32 = row.try_get("start_number")?;
                let code: String = row.try_get("code")?;
                Ok(RoundBye {
                    round: row.try_get("round")?,
                    start_number: u32::try_from(start).unwrap_or_default(),
                    code: code.chars().next().unwrap_or('Z'),
                })
            })
            .collect()
    }

    /// Every game of an event, by round and board.
    pub async fn event_games(&self, event: &str) -> Result<Vec<TournamentGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, round, board, white, black FROM games WHERE event_name = $1 \
             ORDER BY length(round), round, board NULLS LAST, created_at, game_id",
        )
        .bind(event)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let board: Option<i32> = row.try_get("board")?;
                Ok(TournamentGame {
                    game_id: row.try_get("game_id")?,
                    round: row.try_get("round")?,
                    board: board.and_then(|b| u32::try_from(b).ok()),
                    white: row.try_get("white")?,
                    black: row.try_get("black")?,
                })
            })
            .collect()
    }
}
