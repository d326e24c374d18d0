//! Followed rounds: the board feed a round is given to follow, how its last poll went, and
//! what the feed said that needs the arbiter (`follow_attentions`). Settings and a worklist,
//! not the event log: what the follower records goes into the log through the engine.

use super::{Store, StoreError};
use crate::interchange::board_feed::FeedMove;
use crate::interchange::dgt::Attention;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use sqlx::postgres::PgRow;
use utoipa::ToSchema;
use uuid::Uuid;

/// The kind of feed a round follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FeedKind {
    /// DGT LiveChess JSON: the round's URL, with `index.json` and one `game-N.json` per board
    /// beside it (board N of the round's pairings).
    DgtJson,
    /// The round's PGN file, as broadcasts publish it for relays: one game per board (its
    /// `Board` tag, the board of a `Round` tag such as `5.3`, or its place in the file).
    Pgn,
}

impl FeedKind {
    fn as_str(self) -> &'static str {
        match self {
            FeedKind::DgtJson => "dgt_json",
            FeedKind::Pgn => "pgn",
        }
    }

    fn parse(text: &str) -> Option<FeedKind> {
        match text {
            "dgt_json" => Some(FeedKind::DgtJson),
            "pgn" => Some(FeedKind::Pgn),
            _ => None,
        }
    }
}

/// Who applies a takeback the board feed shows when nothing the arbiter entered stands on the
/// moves taken back (a takeback that touches a ruling, a claim, an offer, a result or the
/// arbiter's own entries always waits for the arbiter).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TakebackPolicy {
    /// The follower retracts the moves itself, as the board feed, and shows the arbiter a
    /// notice that can undo it (the default: the board's record never waits).
    #[default]
    ByFeed,
    /// Every takeback waits for the arbiter.
    ByArbiter,
}

impl TakebackPolicy {
    fn as_str(self) -> &'static str {
        match self {
            TakebackPolicy::ByFeed => "by_feed",
            TakebackPolicy::ByArbiter => "by_arbiter",
        }
    }

    fn parse(text: &str) -> Option<TakebackPolicy> {
        match text {
            "by_feed" => Some(TakebackPolicy::ByFeed),
            "by_arbiter" => Some(TakebackPolicy::ByArbiter),
            _ => None,
        }
    }
}

/// A round's follow setting, with how its last poll went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RoundFollow {
    /// The follow's id (event ids of the moves it records derive from it).
    pub follow_id: Uuid,
    /// The tournament.
    pub tournament_id: Uuid,
    /// The round.
    pub round: String,
    /// The feed's kind.
    pub kind: FeedKind,
    /// The round's URL (for `dgt_json`, the folder holding `index.json` and `game-N.json`).
    pub url: String,
    /// Whether the round is followed now.
    pub enabled: bool,
    /// Who applies a takeback that nothing the arbiter entered stands on.
    pub takebacks: TakebackPolicy,
    /// Who set it last.
    pub created_by: String,
    /// When it was set last.
    pub updated_at: DateTime<Utc>,
    /// When the feed was last polled.
    pub last_poll_at: Option<DateTime<Utc>>,
    /// When the feed last answered.
    pub last_ok_at: Option<DateTime<Utc>>,
    /// What went wrong at the last poll, if it failed.
    pub last_error: Option<String>,
    /// Polls failed in a row (the follower waits longer after each, up to its limit).
    pub failures: u32,
}

/// How an attention was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttentionResolution {
    /// The arbiter accepted the feed's line as a correction of the stored one.
    Accepted,
    /// The arbiter recorded the board's move as an illegal move.
    IllegalMoveRecorded,
    /// The arbiter recorded the proposed result.
    ResultRecorded,
    /// The arbiter ignored it.
    Ignored,
    /// The feed stopped saying it before anyone decided (the board was put right).
    ClearedByFeed,
    /// The arbiter undid a takeback the board feed had applied (the moves restored).
    Undone,
}

impl AttentionResolution {
    fn as_str(self) -> &'static str {
        match self {
            AttentionResolution::Accepted => "accepted",
            AttentionResolution::IllegalMoveRecorded => "illegal_move_recorded",
            AttentionResolution::ResultRecorded => "result_recorded",
            AttentionResolution::Ignored => "ignored",
            AttentionResolution::ClearedByFeed => "cleared_by_feed",
            AttentionResolution::Undone => "undone",
        }
    }

    fn parse(text: &str) -> Option<AttentionResolution> {
        [
            AttentionResolution::Accepted,
            AttentionResolution::IllegalMoveRecorded,
            AttentionResolution::ResultRecorded,
            AttentionResolution::Ignored,
            AttentionResolution::ClearedByFeed,
            AttentionResolution::Undone,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
    }
}

/// What a board's feed said that needs the arbiter ("needs the arbiter").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FollowAttention {
    /// Its id.
    pub attention_id: Uuid,
    /// The follow that saw it.
    pub follow_id: Uuid,
    /// The game.
    pub game_id: Uuid,
    /// The board.
    pub board: u32,
    /// What the feed says against the log, and why it was not stored.
    pub attention: Attention,
    /// The board's moves as the feed gave them when it was seen (the evidence).
    pub feed_moves: Vec<FeedMove>,
    /// The feed's result field then.
    pub feed_result: Option<String>,
    /// When it was seen first.
    pub opened_at: DateTime<Utc>,
    /// How it was settled (none while open).
    pub resolution: Option<AttentionResolution>,
    /// Who settled it.
    pub resolved_by: Option<String>,
    /// When.
    pub resolved_at: Option<DateTime<Utc>>,
}

/// The outcome of one poll, for [`Store::note_poll`].
#[derive(Clone, Debug)]
pub enum PollOutcome {
    /// The feed answered.
    Answered,
    /// It failed, with what went wrong.
    Failed(String),
}

fn undecodable(id: Uuid, message: String) -> StoreError {
    StoreError::Undecodable {
        game_id: id,
        seq: 0,
        message,
    }
}

fn follow_from_row(row: &PgRow) -> Result<RoundFollow, StoreError> {
    let follow_id: Uuid = row.try_get("follow_id")?;
    let kind: String = row.try_get("kind")?;
    let failures: i32 = row.try_get("failures")?;
    Ok(RoundFollow {
        follow_id,
        tournament_id: row.try_get("tournament_id")?,
        round: row.try_get("round")?,
        kind: FeedKind::parse(&kind)
            .ok_or_else(|| undecodable(follow_id, format!("feed kind {kind}")))?,
        url: row.try_get("url")?,
        enabled: row.try_get("enabled")?,
        takebacks: {
            let takebacks: String = row.try_get("takebacks")?;
            TakebackPolicy::parse(&takebacks)
                .ok_or_else(|| undecodable(follow_id, format!("takebacks {takebacks}")))?
        },
        created_by: row.try_get("created_by")?,
        updated_at: row.try_get("updated_at")?,
        last_poll_at: row.try_get("last_poll_at")?,
        last_ok_at: row.try_get("last_ok_at")?,
        last_error: row.try_get("last_error")?,
        failures: u32::try_from(failures).unwrap_or_default(),
    })
}

fn attention_from_row(row: &PgRow) -> Result<FollowAttention, StoreError> {
    let attention_id: Uuid = row.try_get("attention_id")?;
    let board: i32 = row.try_get("board")?;
    let resolution: Option<String> = row.try_get("resolution")?;
    Ok(FollowAttention {
        attention_id,
        follow_id: row.try_get("follow_id")?,
        game_id: row.try_get("game_id")?,
        board: u32::try_from(board).unwrap_or_default(),
        attention: serde_json::from_value(row.try_get("attention")?)
            .map_err(|e| undecodable(attention_id, format!("attention: {e}")))?,
        feed_moves: serde_json::from_value(row.try_get("feed_moves")?)
            .map_err(|e| undecodable(attention_id, format!("feed_moves: {e}")))?,
        feed_result: row.try_get("feed_result")?,
        opened_at: row.try_get("opened_at")?,
        resolution: resolution
            .map(|text| {
                AttentionResolution::parse(&text)
                    .ok_or_else(|| undecodable(attention_id, format!("resolution {text}")))
            })
            .transpose()?,
        resolved_by: row.try_get("resolved_by")?,
        resolved_at: row.try_get("resolved_at")?,
    })
}

impl Store {
    /// Sets a round's follow (created, or changed in place keeping its id).
    #[allow(clippy::too_many_arguments)]
    pub async fn set_round_follow(
        &self,
        tournament_id: Uuid,
        round: &str,
        kind: FeedKind,
        url: &str,
        enabled: bool,
        takebacks: TakebackPolicy,
        by: &str,
    ) -> Result<RoundFollow, StoreError> {
        let row = sqlx::query(
            "INSERT INTO round_follows (follow_id, tournament_id, round, kind, url, enabled, \
             created_by, takebacks) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (tournament_id, round) DO UPDATE SET kind = EXCLUDED.kind, \
             url = EXCLUDED.url, enabled = EXCLUDED.enabled, created_by = EXCLUDED.created_by, \
             takebacks = EXCLUDED.takebacks, updated_at = now(), failures = 0, \
             last_error = NULL RETURNING *",
        )
        .bind(Uuid::new_v4())
        .bind(tournament_id)
        .bind(round)
        .bind(kind.as_str())
        .bind(url)
        .bind(enabled)
        .bind(by)
        .bind(takebacks.as_str())
        .fetch_one(&self.pool)
        .await?;
        follow_from_row(&row)
    }

    /// Stops following a round (the setting is kept, disabled). `None` when it has none.
    pub async fn stop_round_follow(
        &self,
        tournament_id: Uuid,
        round: &str,
        by: &str,
    ) -> Result<Option<RoundFollow>, StoreError> {
        let row = sqlx::query(
            "UPDATE round_follows SET enabled = false, created_by = $3, updated_at = now() \
             WHERE tournament_id = $1 AND round = $2 RETURNING *",
        )
        .bind(tournament_id)
        .bind(round)
        .bind(by)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(follow_from_row).transpose()
    }

    /// A round's follow setting, if it has one.
    pub async fn round_follow(
        &self,
        tournament_id: Uuid,
        round: &str,
    ) -> Result<Option<RoundFollow>, StoreError> {
        let row =
            sqlx::query("SELECT * FROM round_follows WHERE tournament_id = $1 AND round = $2")
                .bind(tournament_id)
                .bind(round)
                .fetch_optional(&self.pool)
                .await?;
        row.as_ref().map(follow_from_row).transpose()
    }

    /// A follow by its id.
    pub async fn follow_by_id(&self, follow_id: Uuid) -> Result<Option<RoundFollow>, StoreError> {
        let row = sqlx::query("SELECT * FROM round_follows WHERE follow_id = $1")
            .bind(follow_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(follow_from_row).transpose()
    }

    /// Every enabled follow (what start-up resumes).
    pub async fn enabled_follows(&self) -> Result<Vec<RoundFollow>, StoreError> {
        let rows = sqlx::query("SELECT * FROM round_follows WHERE enabled ORDER BY updated_at")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(follow_from_row).collect()
    }

    /// Notes how a poll went.
    pub async fn note_poll(
        &self,
        follow_id: Uuid,
        outcome: &PollOutcome,
    ) -> Result<(), StoreError> {
        match outcome {
            PollOutcome::Answered => {
                sqlx::query(
                    "UPDATE round_follows SET last_poll_at = now(), last_ok_at = now(), \
                     last_error = NULL, failures = 0 WHERE follow_id = $1",
                )
                .bind(follow_id)
                .execute(&self.pool)
                .await?;
            }
            PollOutcome::Failed(error) => {
                sqlx::query(
                    "UPDATE round_follows SET last_poll_at = now(), last_error = $2, \
                     failures = failures + 1 WHERE follow_id = $1",
                )
                .bind(follow_id)
                .bind(error)
                .execute(&self.pool)
                .await?;
            }
        }
        Ok(())
    }

    /// Opens an attention on a game, or refreshes the open one with the feed's latest
    /// evidence when it says the same; an open one that says something else is settled as
    /// cleared by the feed first. Nothing is opened when the arbiter already settled the
    /// same attention (ignored it, or recorded it). Returns the open attention, if any.
    ///
    /// A game has at most one open attention that needs the arbiter and, beside it, at most
    /// one open notice of a takeback the board feed applied (`corrected_by_feed`): the two
    /// are decided each on its own, so an attention never settles the notice. A new notice
    /// takes in the earlier one (see the follower's `merged_notice`) and settles every open
    /// row of the game, as the line the feed corrected is what the feed says now.
    pub async fn open_attention(
        &self,
        follow_id: Uuid,
        game_id: Uuid,
        board: u32,
        attention: &Attention,
        feed_moves: &[FeedMove],
        feed_result: Option<&str>,
    ) -> Result<Option<FollowAttention>, StoreError> {
        let attention_json = serde_json::json!(attention);
        let moves_json = serde_json::json!(feed_moves);
        let notice = matches!(attention, Attention::CorrectedByFeed { .. });
        let mut tx = self.pool.begin().await?;
        let settled: Option<i32> = sqlx::query_scalar(
            "SELECT 1 FROM follow_attentions WHERE game_id = $1 AND attention = $2 \
             AND resolution IS NOT NULL AND resolution <> 'cleared_by_feed' LIMIT 1",
        )
        .bind(game_id)
        .bind(&attention_json)
        .fetch_optional(&mut *tx)
        .await?;
        if settled.is_some() {
            // Settled already: the open attention (not the notice) says something older.
            sqlx::query(
                "UPDATE follow_attentions SET resolution = 'cleared_by_feed', \
                 resolved_at = now(), resolved_by = 'board feed' \
                 WHERE game_id = $1 AND resolution IS NULL AND NOT notice",
            )
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            return Ok(None);
        }
        // An attention replaces the open attention that says something else, never the
        // notice; a notice replaces both (it took the earlier notice in).
        sqlx::query(
            "UPDATE follow_attentions SET resolution = 'cleared_by_feed', resolved_at = now(), \
             resolved_by = 'board feed' WHERE game_id = $1 AND resolution IS NULL \
             AND attention <> $2 AND ($3 OR NOT notice)",
        )
        .bind(game_id)
        .bind(&attention_json)
        .bind(notice)
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(
            "INSERT INTO follow_attentions (attention_id, follow_id, game_id, board, attention, \
             feed_moves, feed_result) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (game_id, notice) WHERE resolution IS NULL DO UPDATE SET \
             feed_moves = EXCLUDED.feed_moves, feed_result = EXCLUDED.feed_result \
             RETURNING *",
        )
        .bind(Uuid::new_v4())
        .bind(follow_id)
        .bind(game_id)
        .bind(i32::try_from(board).unwrap_or(i32::MAX))
        .bind(&attention_json)
        .bind(&moves_json)
        .bind(feed_result)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        attention_from_row(&row).map(Some)
    }

    /// Settles a game's open attention as cleared by the feed (the feed no longer says it);
    /// a notice of a takeback the feed applied stays open until the arbiter reads it.
    pub async fn clear_attention(&self, game_id: Uuid) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE follow_attentions SET resolution = 'cleared_by_feed', resolved_at = now(), \
             resolved_by = 'board feed' WHERE game_id = $1 AND resolution IS NULL \
             AND NOT notice",
        )
        .bind(game_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Settles an open attention as the arbiter decided; `None` when it is not open (settled
    /// already, or unknown).
    pub async fn settle_attention(
        &self,
        attention_id: Uuid,
        resolution: AttentionResolution,
        by: &str,
    ) -> Result<Option<FollowAttention>, StoreError> {
        let row = sqlx::query(
            "UPDATE follow_attentions SET resolution = $2, resolved_by = $3, resolved_at = now() \
             WHERE attention_id = $1 AND resolution IS NULL RETURNING *",
        )
        .bind(attention_id)
        .bind(resolution.as_str())
        .bind(by)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(attention_from_row).transpose()
    }

    /// Opens again an attention whose decision could not be recorded (unless another of its
    /// kind, attention or notice, was opened on the game meanwhile).
    pub async fn reopen_attention(&self, attention_id: Uuid) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE follow_attentions SET resolution = NULL, resolved_by = NULL, \
             resolved_at = NULL WHERE attention_id = $1 AND NOT EXISTS (SELECT 1 FROM \
             follow_attentions o WHERE o.game_id = follow_attentions.game_id AND \
             o.notice = follow_attentions.notice AND o.resolution IS NULL)",
        )
        .bind(attention_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// An attention by its id.
    pub async fn attention(
        &self,
        attention_id: Uuid,
    ) -> Result<Option<FollowAttention>, StoreError> {
        let row = sqlx::query("SELECT * FROM follow_attentions WHERE attention_id = $1")
            .bind(attention_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(attention_from_row).transpose()
    }

    /// The open attentions of a follow's games, by board (a board's attention that needs
    /// the arbiter before its notice of a takeback the feed applied).
    pub async fn open_attentions(
        &self,
        follow_id: Uuid,
    ) -> Result<Vec<FollowAttention>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM follow_attentions WHERE follow_id = $1 AND resolution IS NULL \
             ORDER BY board, notice, opened_at",
        )
        .bind(follow_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(attention_from_row).collect()
    }

    /// The open attentions of `games` (the floor's boards), each game's attention that needs
    /// the arbiter before its notice.
    pub async fn open_attentions_of(
        &self,
        games: &[Uuid],
    ) -> Result<Vec<FollowAttention>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM follow_attentions WHERE game_id = ANY($1) AND resolution IS NULL \
             ORDER BY game_id, notice, opened_at",
        )
        .bind(games)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(attention_from_row).collect()
    }

    /// A game's open attentions: the one that needs the arbiter, if any, then the notice of a
    /// takeback the feed applied, if any.
    pub async fn game_open_attentions(
        &self,
        game_id: Uuid,
    ) -> Result<Vec<FollowAttention>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM follow_attentions WHERE game_id = $1 AND resolution IS NULL \
             ORDER BY notice",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(attention_from_row).collect()
    }

    /// A game's open notice of a takeback the board feed applied, if any.
    pub async fn game_notice(&self, game_id: Uuid) -> Result<Option<FollowAttention>, StoreError> {
        let row = sqlx::query(
            "SELECT * FROM follow_attentions WHERE game_id = $1 AND resolution IS NULL \
             AND notice",
        )
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(attention_from_row).transpose()
    }

    /// Every attention of a game, settled or not, the first first (the history the arbiter
    /// and an appeal read).
    pub async fn game_attentions(&self, game_id: Uuid) -> Result<Vec<FollowAttention>, StoreError> {
        let rows =
            sqlx::query("SELECT * FROM follow_attentions WHERE game_id = $1 ORDER BY opened_at")
                .bind(game_id)
                .fetch_all(&self.pool)
                .await?;
        rows.iter().map(attention_from_row).collect()
    }
}
