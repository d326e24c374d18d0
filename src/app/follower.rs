//! Following a round's electronic boards live: one task per followed round polls the board
//! feed (DGT LiveChess JSON: `game-N.json` is board N of the round's pairings), reads each
//! board against the stored line ([`crate::interchange::dgt::read_against`]) and records the
//! new legal moves, with their clock readings, through [`Arbitration`] exactly as an arbiter's
//! moves are recorded. What the feed says that the engine refuses or that only the arbiter may
//! decide is never stored as if it were true: it is kept as an open attention ("needs the
//! arbiter") with the feed's moves and the reason, until the arbiter decides
//! ([`Followers::decide`]) or the feed stops saying it.
//!
//! Event ids derive from the feed (UUID v5 of the follow, the board, the ply, the move and
//! the `seq` it extends), so a restart, a replayed feed or two instances polling the same
//! round store nothing twice: a retried append is answered from the store. The setting is
//! stored, so [`Followers::resume_enabled`] at start-up resumes every followed round. While the
//! source fails, the follower waits twice as long after each failure, up to a limit, and
//! resumes where the log stands.

use crate::access::Principal;
use crate::app::arbitration::{Arbitration, RecordError};
use crate::app::feed_source::{AddressPolicy, DEFAULT_TIMEOUT, FeedClient, Fetched};
use crate::game::Game;
use crate::game::event::{
    ArbiterRuling, ClockReading, Event, GameResult, RecordedEvent, ServiceEvent,
};
use crate::interchange::board_feed::{
    BoardMemory, Frame, Settled, admissible_rise_ms, move_number, reading_admissible,
};
use crate::interchange::dgt::{self, Attention, FeedMove, ResultSignal};
use crate::interchange::pgn_feed;
use crate::rules::side::Side;
use crate::store::{
    AttentionResolution, FeedKind, FollowAttention, NewEvent, PollOutcome, RoundFollow,
    RoundGameHead, Store, StoreError, TakebackPolicy,
};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use utoipa::ToSchema;
use uuid::Uuid;

mod decisions;
pub use decisions::{Decided, attention_kind, choice_name, describe, fitting_choices};
use decisions::{feed_evidence, merged_notice, taken_back_text, truncation};

/// The namespace of the event ids the follower derives from the feed.
const FEED_EVENT_NAMESPACE: Uuid = Uuid::from_u128(0x6f1c_2b7e_94d3_4c1a_8e55_0d2f_a7b3_c911);

/// How many boards' files a poll fetches at once.
const FETCHES_AT_ONCE: usize = 16;

/// How many boards a poll syncs at once (each its own game's append).
const SYNCS_AT_ONCE: usize = 8;

/// Who the follower records as (the `recorded_by` of its events).
pub const FEED_RECORDER: &str = "board feed";

/// How often a followed round is polled, and how long the follower waits at most while its
/// source fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FollowTiming {
    /// Between two polls of a source that answers.
    pub poll: Duration,
    /// The longest wait after failures (the wait doubles after each failure up to it).
    pub max_backoff: Duration,
    /// How soon a board whose feed changed is fetched again, to see whether the change
    /// stands; at [`FollowTiming::poll`] or above, the next poll does it.
    pub confirm: Duration,
}

impl FollowTiming {
    /// The timing the service's settings give (`--follow-poll-ms`, at least 100 ms;
    /// `--follow-max-backoff-ms`; `--follow-confirm-ms`, at least 100 ms).
    pub fn of(config: &crate::config::ServeConfig) -> FollowTiming {
        FollowTiming {
            poll: Duration::from_millis(config.follow_poll_ms.max(100)),
            max_backoff: Duration::from_millis(config.follow_max_backoff_ms),
            confirm: Duration::from_millis(config.follow_confirm_ms.max(100)),
        }
    }

    /// The wait after `failures` polls failed in a row: the poll interval doubled per
    /// failure, at most [`FollowTiming::max_backoff`].
    pub fn wait_after(&self, failures: u32) -> Duration {
        let factor = 2u32.saturating_pow(failures.min(16));
        self.poll
            .saturating_mul(factor)
            .min(self.max_backoff.max(self.poll))
    }
}

/// What can go wrong while following or deciding.
#[derive(Debug, thiserror::Error)]
pub enum FollowError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Recording failed for another reason than the engine's refusal.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The feed did not answer, or answered something that cannot be read.
    #[error("the board feed failed: {0}")]
    Source(String),
    /// The attention is not open (settled already, or unknown).
    #[error("{0}")]
    NotOpen(String),
    /// The choice does not fit the attention.
    #[error("{0}")]
    Choice(String),
    /// The round's tournament is gone.
    #[error("the tournament {0} of the followed round does not exist")]
    NoTournament(Uuid),
}

/// What the arbiter decides about what the feed said. Named `FollowDecision` in the OpenAPI
/// document: the 12.9 penalty choice is its `ArbiterChoice`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = FollowDecision)]
pub enum ArbiterChoice {
    /// For a move taken back or a line that no longer extends the stored one: the stored
    /// line is corrected to the board's (the moves after the common part are retracted by
    /// `correction` events, never branched), then the board's moves are recorded.
    AcceptCorrection,
    /// For a move the engine finds illegal: recorded as an `illegal_move` (7.5).
    RecordIllegalMove,
    /// For a proposed result: recorded as the arbiter's decision ending the game.
    RecordResult,
    /// Nothing is recorded; the same attention is not raised again. For a takeback the board
    /// feed applied: kept as it is.
    Ignore,
    /// For a takeback the board feed applied (`corrected_by_feed`): undone, the moves it
    /// retracted recorded again (after retracting what the feed recorded since).
    UndoCorrection,
}

/// What one board's poll did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardSync {
    /// Moves recorded.
    pub recorded: usize,
    /// Whether the board needs the arbiter now.
    pub needs_arbiter: bool,
}

/// What a board's feed shows at a poll, for [`Followers::sync_board`].
#[derive(Clone, Copy, Debug)]
pub struct BoardView<'a> {
    /// The board's moves, each with the reading that belongs to its ply.
    pub feed: &'a [FeedMove],
    /// The feed's result field.
    pub feed_result: Option<&'a str>,
    /// How the feed says the game ended (a round PGN's `Termination`), given with its result.
    pub feed_termination: Option<&'a str>,
    /// Whether the frame stood (the previous poll showed the same line): when not, only its
    /// moves with a successor are recorded and nothing else is acted on.
    pub stood: bool,
    /// Who applies a takeback that nothing the arbiter entered stands on.
    pub takebacks: TakebackPolicy,
}

/// The running followers of this instance, one task per followed round. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Followers {
    arbitration: Arbitration,
    timing: FollowTiming,
    client: FeedClient,
    running: Arc<Mutex<HashMap<Uuid, watch::Sender<bool>>>>,
}

impl Followers {
    /// Followers recording through `arbitration`, polling as `timing` says.
    /// Internal addresses are refused (see [`crate::app::feed_source`]);
    /// [`Followers::allowing_hosts`] lets an operator's hosts through.
    pub fn new(arbitration: Arbitration, timing: FollowTiming) -> Followers {
        install_tls_provider();
        Followers {
            arbitration,
            timing,
            client: FeedClient::new(AddressPolicy::default(), DEFAULT_TIMEOUT),
            running: Arc::default(),
        }
    }

    /// The same followers, fetching from `hosts` although they are internal
    /// (`--follow-allow-hosts`).
    pub fn allowing_hosts(self, hosts: &[String]) -> Followers {
        self.fetching(hosts, DEFAULT_TIMEOUT)
    }

    /// The same followers, fetching from `hosts` although they are internal
    /// (`--follow-allow-hosts`) and waiting at most `timeout` for a feed's answer
    /// (`--follow-timeout-ms`).
    pub fn fetching(mut self, hosts: &[String], timeout: Duration) -> Followers {
        self.client = FeedClient::new(AddressPolicy::allowing(hosts), timeout);
        self
    }

    /// Refuses a feed URL the follower would not fetch: not `http(s)`, or naming (or
    /// resolving to) an internal address the operator has not allowed. The message says how
    /// to allow it.
    pub async fn check_source(&self, url: &str) -> Result<(), String> {
        self.client.policy().check_url(url).await
    }

    fn store(&self) -> &Store {
        self.arbitration.store()
    }

    /// The polling timing.
    pub fn timing(&self) -> FollowTiming {
        self.timing
    }

    /// Starts a task for every enabled follow (start-up); returns how many.
    pub async fn resume_enabled(&self) -> Result<usize, StoreError> {
        let follows = self.store().enabled_follows().await?;
        for follow in &follows {
            self.start(follow.follow_id);
        }
        Ok(follows.len())
    }

    /// Starts (or restarts, with its stored setting) the task of a follow.
    pub fn start(&self, follow_id: Uuid) {
        let (stop, stopped) = watch::channel(false);
        if let Some(previous) = self.lock().insert(follow_id, stop) {
            let _ = previous.send(true);
        }
        let followers = self.clone();
        tokio::spawn(async move { followers.run(follow_id, stopped).await });
    }

    /// Stops the task of a follow, if it runs here.
    pub fn stop(&self, follow_id: Uuid) {
        if let Some(stop) = self.lock().remove(&follow_id) {
            let _ = stop.send(true);
        }
    }

    /// Stops every task (the service stops).
    pub fn stop_all(&self) {
        for (_, stop) in self.lock().drain() {
            let _ = stop.send(true);
        }
    }

    /// Whether a follow's task runs in this instance.
    pub fn is_running(&self, follow_id: Uuid) -> bool {
        self.lock().contains_key(&follow_id)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, watch::Sender<bool>>> {
        self.running
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The task: poll, note how it went, wait (longer while the source fails); ends when the
    /// follow is disabled or the task is stopped.
    async fn run(self, follow_id: Uuid, mut stopped: watch::Receiver<bool>) {
        let mut failures = 0u32;
        let mut seen = Seen::default();
        loop {
            if *stopped.borrow() {
                return;
            }
            let follow = match self.store().follow_by_id(follow_id).await {
                Ok(Some(follow)) if follow.enabled => follow,
                Ok(_) => break,
                Err(error) => {
                    tracing::warn!(%follow_id, %error, "cannot read the follow setting");
                    failures = failures.saturating_add(1);
                    if wait(self.timing.wait_after(failures), &mut stopped).await {
                        return;
                    }
                    continue;
                }
            };
            let started = std::time::Instant::now();
            let outcome = match self.poll_round_seen(&follow, &mut seen).await {
                Ok(recorded) => {
                    if failures > 0 {
                        tracing::info!(%follow_id, failures, "the board feed answers again");
                    }
                    if recorded > 0 {
                        tracing::debug!(%follow_id, recorded, "moves recorded from the board feed");
                    }
                    failures = 0;
                    PollOutcome::Answered
                }
                Err(error) => {
                    failures = failures.saturating_add(1);
                    tracing::warn!(%follow_id, failures, %error, "polling the board feed failed");
                    PollOutcome::Failed(error.to_string())
                }
            };
            if let Err(error) = self.store().note_poll(follow_id, &outcome).await {
                tracing::warn!(%follow_id, %error, "cannot note the poll");
            }
            // Polls keep their interval from start to start (a round of many boards takes a
            // while to read), with at least a tenth of it between two polls.
            let mut rest = if failures == 0 {
                self.timing
                    .poll
                    .saturating_sub(started.elapsed())
                    .max(self.timing.poll / 10)
            } else {
                self.timing.wait_after(failures)
            };
            if failures == 0 && self.timing.confirm < rest && !seen.unsettled.is_empty() {
                // The boards whose feed changed are read again soon, so that a move that
                // stands is stored without waiting for the next poll.
                if wait(self.timing.confirm, &mut stopped).await {
                    return;
                }
                rest = rest.saturating_sub(self.timing.confirm);
                let changed = seen.unsettled.clone();
                if let Err(error) = self
                    .poll_round_with(&follow, Some(&mut seen), Some(&changed))
                    .await
                {
                    tracing::debug!(%follow_id, %error, "reading the changed boards again failed; the next poll reads them");
                }
            }
            if wait(rest, &mut stopped).await {
                return;
            }
        }
        // Not stopped: the entry is this task's (a replacement would have stopped it).
        if !*stopped.borrow() {
            self.lock().remove(&follow_id);
        }
    }

    /// One poll of a followed round: every board of the round's pairings with a published
    /// `game-N.json` is read against its stored line. Returns the moves recorded.
    /// Without a memory of earlier polls, each frame is taken as it stands (as if it had
    /// stood) and the moves keep their own times.
    pub async fn poll_round(&self, follow: &RoundFollow) -> Result<usize, FollowError> {
        self.poll_round_with(follow, None, None).await
    }

    /// [`Followers::poll_round`], skipping the boards whose feed and log are both as they
    /// were at the last poll (`seen`, kept by the task between polls).
    pub async fn poll_round_seen(
        &self,
        follow: &RoundFollow,
        seen: &mut Seen,
    ) -> Result<usize, FollowError> {
        self.poll_round_with(follow, Some(seen), None).await
    }

    /// A poll of the round's boards, or of the boards `only` names.
    async fn poll_round_with(
        &self,
        follow: &RoundFollow,
        mut seen: Option<&mut Seen>,
        only: Option<&HashSet<u32>>,
    ) -> Result<usize, FollowError> {
        let tournament = self
            .store()
            .tournament(follow.tournament_id)
            .await?
            .ok_or(FollowError::NoTournament(follow.tournament_id))?;
        let heads = self
            .store()
            .round_heads(&tournament.settings.name, &follow.round, None)
            .await?;
        let source = match follow.kind {
            FeedKind::DgtJson => RoundSource::Dgt(round_base(&follow.url)),
            FeedKind::Pgn => {
                let url = follow.url.trim();
                let text = self
                    .fetch_text(url)
                    .await?
                    .ok_or_else(|| FollowError::Source(format!("{url} answered 404 Not Found")))?;
                RoundSource::Pgn(
                    pgn_feed::read_round_pgn(&text)
                        .map_err(|e| FollowError::Source(format!("{url}: {e}")))?,
                )
            }
        };
        let boards: Vec<(u32, RoundGameHead)> = heads
            .into_iter()
            .filter_map(|head| head.board.map(|board| (board, head)))
            .filter(|(board, _)| only.is_none_or(|only| only.contains(board)))
            .collect();
        // The boards' files are fetched a few at a time (a round of hundreds of boards would
        // otherwise wait for each answer in turn), then read in board order.
        let mut texts = match &source {
            RoundSource::Dgt(base) => {
                use futures_util::StreamExt;
                let urls: Vec<String> = boards
                    .iter()
                    .map(|(board, _)| format!("{base}/game-{board}.json"))
                    .collect();
                let client = &self.client;
                futures_util::stream::iter(urls)
                    .map(|url| async move { fetch_text(client, &url).await })
                    .buffered(FETCHES_AT_ONCE)
                    .collect::<Vec<_>>()
                    .await
            }
            RoundSource::Pgn(_) => Vec::new(),
        }
        .into_iter();
        // Each board's frame is read against its memory in board order; the boards to sync
        // are then synced a few at a time (different games: their appends do not wait for
        // each other), and what was seen is noted in board order.
        let mut jobs: Vec<BoardJob<'_>> = Vec::new();
        let mut failure = None;
        for (board, head) in boards {
            let (fingerprint, frame, termination) = match &source {
                RoundSource::Dgt(base) => {
                    let text = match texts.next().unwrap_or(Ok(None)) {
                        Ok(Some(text)) => text,
                        Ok(None) => continue,
                        Err(error) => {
                            failure = Some(error);
                            break;
                        }
                    };
                    match dgt::read_game(&text) {
                        Ok(game) => (fingerprint(&text), game.frame(), None),
                        Err(e) => {
                            failure = Some(FollowError::Source(format!(
                                "{base}/game-{board}.json: {e}"
                            )));
                            break;
                        }
                    }
                }
                RoundSource::Pgn(games) => {
                    let Some(game) = games.iter().find(|g| g.board == board) else {
                        continue;
                    };
                    (
                        fingerprint(&format!(
                            "{:?}{:?}{:?}",
                            game.moves, game.result, game.termination
                        )),
                        Frame {
                            moves: game.moves.clone(),
                            result: game.result.clone(),
                            clock: None,
                        },
                        game.termination.as_deref(),
                    )
                }
            };
            let key = (fingerprint, head.seq);
            let settled = match seen.as_deref_mut() {
                Some(seen) => {
                    if seen.boards.get(&board) == Some(&key) {
                        continue;
                    }
                    seen.memories.entry(board).or_default().read(&frame)
                }
                None => Settled {
                    moves: frame.moves.clone(),
                    stood: true,
                },
            };
            jobs.push(BoardJob {
                board,
                game_id: head.game_id,
                key,
                settled,
                result: frame.result,
                termination,
            });
        }
        let mut synced = Vec::with_capacity(jobs.len());
        for chunk in jobs.chunks(SYNCS_AT_ONCE) {
            let mut syncs = Vec::with_capacity(chunk.len());
            for job in chunk {
                syncs.push(self.sync_board(
                    follow.follow_id,
                    job.board,
                    job.game_id,
                    BoardView {
                        feed: &job.settled.moves,
                        feed_result: job.result.as_deref(),
                        feed_termination: job.termination,
                        stood: job.settled.stood,
                        takebacks: follow.takebacks,
                    },
                ));
            }
            synced.extend(futures_util::future::join_all(syncs).await);
        }
        let mut recorded = 0;
        for (job, sync) in jobs.iter().zip(synced) {
            let sync = sync?;
            recorded += sync.recorded;
            if let Some(seen) = seen.as_deref_mut() {
                if job.settled.stood {
                    seen.unsettled.remove(&job.board);
                } else {
                    seen.unsettled.insert(job.board);
                }
                if sync.recorded == 0 && job.settled.stood {
                    // Stood and unchanged since: nothing to read again until the feed or the
                    // log moves.
                    seen.boards.insert(job.board, job.key);
                } else {
                    seen.boards.remove(&job.board);
                }
            }
        }
        match failure {
            Some(error) => Err(error),
            None => Ok(recorded),
        }
    }

    /// The text at `url`; `None` when the source has not published it (404). The address is
    /// checked before connecting, the answer bounded ([`FeedClient::fetch`]).
    async fn fetch_text(&self, url: &str) -> Result<Option<String>, FollowError> {
        fetch_text(&self.client, url).await
    }

    /// Reads a board's feed against its stored line: records the new legal moves with their
    /// clock readings, and opens (or clears) the board's attention. A frame that has not
    /// `stood` (the previous poll showed another line) settles only its moves that have a
    /// successor: those are recorded, and nothing else is acted on until it stands.
    pub async fn sync_board(
        &self,
        follow_id: Uuid,
        board: u32,
        game_id: Uuid,
        view: BoardView<'_>,
    ) -> Result<BoardSync, FollowError> {
        let BoardView {
            feed,
            feed_result,
            feed_termination,
            stood,
            takebacks,
        } = view;
        let (game, seq) = self.arbitration.state_at(game_id, None).await?;
        let Some(start) = game.position_at_ply(0).cloned() else {
            return Ok(BoardSync::default());
        };
        let stored = game.moves().to_vec();
        let mut reading = dgt::read_against(&start, &stored, feed, game.result(), feed_result);
        if let Some(Attention::ProposedResult {
            signal: ResultSignal::FeedResult,
            termination,
            ..
        }) = &mut reading.attention
        {
            *termination = feed_termination.map(str::to_owned);
        }
        if !stood {
            // Only the plies with a successor have settled (a last move may yet be read
            // differently, a takeback put back): record those, decide nothing else yet.
            let settled = feed.len().saturating_sub(1).saturating_sub(stored.len());
            reading.to_record.truncate(settled);
            reading.attention = None;
        }
        let mut recorded = 0;
        let mut attention = reading.attention;
        if !reading.to_record.is_empty() {
            let first_ply = stored.len() + 1;
            let (checked, set_aside) =
                with_admissible_readings(&game, &start, first_ply, &reading.to_record);
            if set_aside > 0 {
                tracing::info!(
                    %game_id,
                    board,
                    set_aside,
                    "board feed readings that would make a clock go up set aside"
                );
            }
            reading.to_record = checked;
            let recording = self
                .record_moves(
                    &start,
                    follow_id,
                    board,
                    game_id,
                    seq,
                    first_ply,
                    &reading.to_record,
                )
                .await;
            let (done, refused) = match recording {
                // Someone recorded in the game meanwhile (an arbiter's decision): the board is
                // read again against the new log at the next poll.
                Err(FollowError::Record(RecordError::Store(StoreError::StaleSeq { .. }))) => {
                    return Ok(BoardSync::default());
                }
                other => other?,
            };
            recorded = done;
            if let Some(refused) = refused {
                attention = Some(refused);
            }
        }
        // A result the log already holds (or holds now, after the moves just recorded: a
        // mate ends the game by itself) needs nobody.
        let mut stored_result = game.result();
        if recorded > 0 && matches!(attention, Some(Attention::ProposedResult { .. })) {
            stored_result = self.arbitration.state_at(game_id, None).await?.0.result();
        }
        let attention = attention.filter(|attention| match attention {
            Attention::ProposedResult { result, .. } => stored_result != Some(*result),
            _ => true,
        });
        if !stood {
            return Ok(BoardSync {
                recorded,
                needs_arbiter: false,
            });
        }
        // A takeback (or another line from a ply on) that stood, over moves nothing the
        // arbiter entered stands on: applied by the feed itself when the round says so.
        let taken_back_to = match &attention {
            Some(Attention::TakenBack { keep_plies, .. }) => Some(*keep_plies),
            Some(Attention::Diverges { ply, .. }) => Some(ply.saturating_sub(1)),
            _ => None,
        };
        if let Some(keep) = taken_back_to
            && takebacks == TakebackPolicy::ByFeed
            && recorded == 0
            && let Some(retracted) = self.feed_owns_after(&game, game_id, keep).await?
        {
            let attention = attention.unwrap_or(Attention::TakenBack {
                keep_plies: keep,
                stored_plies: stored.len(),
            });
            let evidence = feed_evidence(board, &attention, feed, feed_result);
            let reason = format!(
                "{}; applied by the board feed, as nothing the arbiter entered stands on the \
                 moves taken back (the arbiter may undo it). {evidence}",
                taken_back_text(&game, keep)
            );
            let events = truncation(
                &game,
                seq,
                keep,
                &format!("{follow_id}/board/{board}/after/{seq}/keep/{keep}"),
                &reason,
            )?;
            match self
                .arbitration
                .record(game_id, seq, events, FEED_RECORDER)
                .await
            {
                Ok(_) => {}
                // Someone recorded meanwhile: read again at the next poll.
                Err(RecordError::Store(StoreError::StaleSeq { .. })) => {
                    return Ok(BoardSync::default());
                }
                Err(other) => return Err(other.into()),
            }
            // A notice still open for an earlier takeback takes this one in, so that one undo
            // restores the line as it stood before both.
            let earlier = self.store().game_notice(game_id).await?;
            let notice = merged_notice(
                earlier.as_ref().map(|open| &open.attention),
                keep,
                retracted,
            );
            self.store()
                .open_attention(follow_id, game_id, board, &notice, feed, feed_result)
                .await?;
            return Ok(BoardSync {
                recorded: 0,
                needs_arbiter: false,
            });
        }
        let needs_arbiter = match &attention {
            Some(attention) => self
                .store()
                .open_attention(follow_id, game_id, board, attention, feed, feed_result)
                .await?
                .is_some(),
            None => {
                self.store().clear_attention(game_id).await?;
                false
            }
        };
        Ok(BoardSync {
            recorded,
            needs_arbiter,
        })
    }

    /// The moves after ply `keep` with their stored readings, when nothing but the board
    /// feed's own moves (and its corrections) stands after that ply: no ruling, claim, offer,
    /// result or entry of the arbiter's. `None` when something does (the takeback waits for
    /// the arbiter).
    async fn feed_owns_after(
        &self,
        game: &Game,
        game_id: Uuid,
        keep: usize,
    ) -> Result<Option<Vec<FeedMove>>, FollowError> {
        if game.is_over() {
            return Ok(None);
        }
        let keep_seq = match keep {
            0 => 0,
            _ => match game.move_seqs().get(keep - 1) {
                Some(seq) => *seq,
                None => return Ok(None),
            },
        };
        let envelopes = self
            .store()
            .read_events(game_id, keep_seq, None, None)
            .await?;
        let recorders: HashMap<u64, &str> = envelopes
            .iter()
            .map(|e| (e.seq, e.recorded_by.as_str()))
            .collect();
        let mut retracted = Vec::new();
        for (seq, event, reading) in game.standing_events_with_readings() {
            if seq <= keep_seq || matches!(event, Event::Service(ServiceEvent::GameCreated(_))) {
                continue;
            }
            if recorders.get(&seq) != Some(&FEED_RECORDER) {
                return Ok(None);
            }
            match event {
                Event::Recorded(RecordedEvent::Move { by, san }) => retracted.push(FeedMove {
                    san: san.clone(),
                    seconds_left: reading
                        .and_then(|r| match by {
                            Side::White => r.white_ms,
                            Side::Black => r.black_ms,
                        })
                        .map(|ms| ms / 1000),
                    seconds_used: None,
                }),
                Event::Recorded(RecordedEvent::Correction { .. }) => {}
                _ => return Ok(None),
            }
        }
        Ok(Some(retracted))
    }

    /// Records `moves` (plies `first_ply`, ...) after `seq` in one append; when the engine
    /// refuses one, the moves before it are recorded and the refusal returned as an attention.
    #[allow(clippy::too_many_arguments)]
    async fn record_moves(
        &self,
        start: &shakmaty::Chess,
        follow_id: Uuid,
        board: u32,
        game_id: Uuid,
        seq: u64,
        first_ply: usize,
        moves: &[FeedMove],
    ) -> Result<(usize, Option<Attention>), FollowError> {
        let events: Vec<NewEvent> = moves
            .iter()
            .enumerate()
            .map(|(index, feed_move)| {
                move_event(
                    start,
                    follow_id,
                    board,
                    seq + index as u64,
                    first_ply + index,
                    feed_move,
                )
            })
            .collect();
        match self
            .arbitration
            .record(game_id, seq, events, FEED_RECORDER)
            .await
        {
            Ok(_) => Ok((moves.len(), None)),
            Err(RecordError::Refused { index, refusal, .. }) => {
                let refused = Attention::Refused {
                    ply: first_ply + index,
                    san: moves.get(index).map(|m| m.san.clone()).unwrap_or_default(),
                    reason: refusal.message().to_string(),
                };
                if index == 0 {
                    return Ok((0, Some(refused)));
                }
                let prefix = &moves[..index];
                let events: Vec<NewEvent> = prefix
                    .iter()
                    .enumerate()
                    .map(|(i, feed_move)| {
                        move_event(
                            start,
                            follow_id,
                            board,
                            seq + i as u64,
                            first_ply + i,
                            feed_move,
                        )
                    })
                    .collect();
                match self
                    .arbitration
                    .record(game_id, seq, events, FEED_RECORDER)
                    .await
                {
                    Ok(_) => Ok((index, Some(refused))),
                    Err(RecordError::Refused { .. }) => Ok((0, Some(refused))),
                    Err(other) => Err(other.into()),
                }
            }
            Err(other) => Err(other.into()),
        }
    }
}

/// The text at `url`; `None` when the source has not published it (404).
async fn fetch_text(client: &FeedClient, url: &str) -> Result<Option<String>, FollowError> {
    match client.fetch(url).await.map_err(FollowError::Source)? {
        Fetched::Text(text) => Ok(Some(text)),
        Fetched::NotFound => Ok(None),
    }
}

/// A board a poll syncs: its frame as far as it settled, and what the poll notes after.
struct BoardJob<'a> {
    board: u32,
    game_id: Uuid,
    key: (u64, Option<u64>),
    settled: Settled,
    result: Option<String>,
    termination: Option<&'a str>,
}

/// Where a poll reads a round's boards from.
enum RoundSource {
    /// DGT LiveChess JSON: the round's folder URL, one `game-N.json` per board.
    Dgt(String),
    /// The round's PGN, read once per poll, its games by board.
    Pgn(Vec<pgn_feed::PgnFeedGame>),
}

/// What a follower task saw at its last polls, per board: the feed's text (a fingerprint) and
/// the game's last `seq` of a frame that stood and left nothing to do (a board whose both are
/// unchanged is not read again), and the board's memory of its frames
/// ([`BoardMemory`]: whether a frame stood, which clock object is current).
#[derive(Clone, Debug, Default)]
pub struct Seen {
    boards: HashMap<u32, (u64, Option<u64>)>,
    memories: HashMap<u32, BoardMemory>,
    /// The boards whose last frame changed (did not stand): read again before the next poll.
    unsettled: HashSet<u32>,
}

fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// Makes ring (the provider of the follower's HTTPS client) the process's TLS crypto
/// provider, once: where another library of the process brings another provider (the
/// browser driver of the tests brings aws-lc-rs), rustls would otherwise refuse to choose.
fn install_tls_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Err: a provider was installed already, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Waits `duration`; true when the task was stopped meanwhile.
async fn wait(duration: Duration, stopped: &mut watch::Receiver<bool>) -> bool {
    tokio::select! {
        () = tokio::time::sleep(duration) => *stopped.borrow(),
        changed = stopped.changed() => changed.is_err() || *stopped.borrow(),
    }
}

/// The round's folder URL: the setting without a trailing `/` or `/index.json`.
pub fn round_base(url: &str) -> String {
    let url = url.trim();
    let url = url.strip_suffix("/index.json").unwrap_or(url);
    url.trim_end_matches('/').to_string()
}

/// The player who makes ply `ply` (1 = the first move) of a game that started from `start`.
fn side_of_ply(start: &shakmaty::Chess, ply: usize) -> Side {
    use shakmaty::Position;
    let first = match start.turn() {
        shakmaty::Color::White => Side::White,
        shakmaty::Color::Black => Side::Black,
    };
    if ply % 2 == 1 {
        first
    } else {
        first.opponent()
    }
}

/// The event id of the board's move at `ply`, appended after `after_seq`: derived from the
/// feed, so the same move of the same board appended at the same place always has the same
/// id (a move played again after a correction is appended elsewhere, as a new event).
pub fn feed_event_id(follow_id: Uuid, board: u32, after_seq: u64, ply: usize, san: &str) -> Uuid {
    Uuid::new_v5(
        &FEED_EVENT_NAMESPACE,
        format!("{follow_id}/board/{board}/after/{after_seq}/ply/{ply}/{san}").as_bytes(),
    )
}

/// The moves to record with every reading set aside that would make its side's clock go up
/// by more than the move may add (its increment, and the next period's time after the move
/// that completes a period, 6.3.2): such a frame is evidence of a fault, not a reading.
/// Returns the moves and how many readings were set aside.
fn with_admissible_readings(
    game: &Game,
    start: &shakmaty::Chess,
    first_ply: usize,
    moves: &[FeedMove],
) -> (Vec<FeedMove>, usize) {
    let control = &game.settings().time_control;
    let clocks = game.clocks();
    let (mut white, mut black) = (clocks.white_ms, clocks.black_ms);
    let first = side_of_ply(start, 1);
    let mut set_aside = 0;
    let checked = moves
        .iter()
        .enumerate()
        .map(|(index, feed_move)| {
            let ply = first_ply + index;
            let by = side_of_ply(start, ply);
            let previous = match by {
                Side::White => &mut white,
                Side::Black => &mut black,
            };
            let mut feed_move = feed_move.clone();
            if let Some(seconds) = feed_move.seconds_left {
                let ms = seconds.saturating_mul(1000);
                let rise = admissible_rise_ms(control, move_number(ply, by, first));
                if reading_admissible(*previous, ms, rise) {
                    *previous = Some(ms);
                } else {
                    feed_move.seconds_left = None;
                    set_aside += 1;
                }
            }
            feed_move
        })
        .collect();
    (checked, set_aside)
}

fn move_event(
    start: &shakmaty::Chess,
    follow_id: Uuid,
    board: u32,
    after_seq: u64,
    ply: usize,
    feed_move: &FeedMove,
) -> NewEvent {
    let by = side_of_ply(start, ply);
    let ms = feed_move.seconds_left.map(|s| s.saturating_mul(1000));
    let clock = ms.map(|ms| match by {
        Side::White => ClockReading {
            white_ms: Some(ms),
            black_ms: None,
        },
        Side::Black => ClockReading {
            white_ms: None,
            black_ms: Some(ms),
        },
    });
    NewEvent {
        event_id: feed_event_id(follow_id, board, after_seq, ply, &feed_move.san),
        event: Event::Recorded(RecordedEvent::Move {
            by,
            san: feed_move.san.clone(),
        }),
        occurred_at: None,
        clock,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_after_each_failure_up_to_the_limit() {
        let timing = FollowTiming {
            poll: Duration::from_secs(3),
            max_backoff: Duration::from_secs(60),
            confirm: Duration::from_millis(500),
        };
        assert_eq!(timing.wait_after(0), Duration::from_secs(3));
        assert_eq!(timing.wait_after(1), Duration::from_secs(6));
        assert_eq!(timing.wait_after(3), Duration::from_secs(24));
        assert_eq!(timing.wait_after(5), Duration::from_secs(60));
        assert_eq!(timing.wait_after(40), Duration::from_secs(60));
    }

    #[test]
    fn a_round_url_is_read_with_or_without_its_index() {
        assert_eq!(round_base("http://h/r/index.json"), "http://h/r");
        assert_eq!(round_base("http://h/r/"), "http://h/r");
    }

    #[test]
    fn a_move_appended_at_another_place_gets_another_id() {
        let follow = Uuid::from_u128(7);
        assert_eq!(
            feed_event_id(follow, 1, 1, 1, "e4"),
            feed_event_id(follow, 1, 1, 1, "e4")
        );
        assert_ne!(
            feed_event_id(follow, 1, 1, 1, "e4"),
            feed_event_id(follow, 1, 5, 1, "e4")
        );
    }
}
