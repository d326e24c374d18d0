//! Fetching and reading a round's boards (what lichess's relay calls `RelayFetch` and
//! `RelayFormat`): the round's source (a DGT LiveChess folder, one `game-N.json` per board, or
//! the round's PGN), the boards' texts fetched a few at a time, each frame read against the
//! board's memory ([`BoardMemory`]) so that only what stood is acted on, and the boards to
//! sync handed to [`Followers::sync_board`] a few at a time.

use super::sync::BoardView;
use super::*;

/// How many boards' files a poll fetches at once.
const FETCHES_AT_ONCE: usize = 16;

/// How many boards a poll syncs at once (each its own game's append).
const SYNCS_AT_ONCE: usize = 8;

/// The text at `url`; `None` when the source has not published it (404).
async fn fetch_text(client: &FeedClient, url: &str) -> Result<Option<String>, FollowError> {
    match client.fetch(url).await.map_err(FollowError::Source)? {
        Fetched::Text(text) => Ok(Some(text)),
        Fetched::NotFound => Ok(None),
    }
}

/// A board a poll syncs: its frame as far as it settled, and what the poll notes after.
struct BoardJob {
    board: u32,
    game_id: Uuid,
    key: (u64, Option<u64>),
    settled: Settled,
    result: Option<String>,
    termination: Option<String>,
    /// When the poll read the frame (a frame that did not stand is read again `confirm`
    /// after it).
    read_at: std::time::Instant,
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
    /// The boards whose last frame changed (did not stand), with when it was read: read again
    /// `confirm` after it, before the next poll where there is time.
    pub(super) unsettled: HashMap<u32, std::time::Instant>,
}

/// A board's frame as a poll reads it from the round's source (`text`: its fetched
/// `game-N.json`, for a DGT source): its fingerprint, the frame and the termination the
/// source states. `None` when the source has nothing for the board (yet).
#[allow(clippy::type_complexity)]
fn read_board(
    source: &RoundSource,
    board: u32,
    text: Option<Result<Option<String>, FollowError>>,
) -> Result<Option<(u64, Frame, Option<String>)>, FollowError> {
    match source {
        RoundSource::Dgt(base) => {
            let Some(text) = text.transpose()?.flatten() else {
                return Ok(None);
            };
            let game = dgt::read_game(&text)
                .map_err(|e| FollowError::Source(format!("{base}/game-{board}.json: {e}")))?;
            Ok(Some((fingerprint(&text), game.frame(), None)))
        }
        RoundSource::Pgn(games) => Ok(games.iter().find(|g| g.board == board).map(|game| {
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
                game.termination.clone(),
            )
        })),
    }
}

fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

impl Followers {
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
    pub(super) async fn poll_round_with(
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
        // A pipeline, so that no board waits for the whole round: the boards' files are
        // fetched a few at a time (a round of hundreds of boards would otherwise wait for each
        // answer in turn); each frame is read against its board's memory as soon as its
        // answer is in (in board order); the boards to sync are synced a few at a time as
        // they come (different games: their appends do not wait for each other, and a slow
        // append holds one place only, not a batch); what was seen is noted after.
        use futures_util::StreamExt;
        let base = match &source {
            RoundSource::Dgt(base) => Some(base.as_str()),
            RoundSource::Pgn(_) => None,
        };
        let client = &self.client;
        let mut failure = None;
        let outcomes: Vec<(BoardJob, Result<BoardSync, FollowError>)> =
            futures_util::stream::iter(boards)
                .map(|(board, head)| async move {
                    let text = match base {
                        Some(base) => {
                            Some(fetch_text(client, &format!("{base}/game-{board}.json")).await)
                        }
                        None => None,
                    };
                    (board, head, text)
                })
                .buffered(FETCHES_AT_ONCE)
                .map(|(board, head, text)| {
                    if failure.is_some() {
                        return None;
                    }
                    let read = read_board(&source, board, text);
                    let (fingerprint, frame, termination) = match read {
                        Ok(Some(read)) => read,
                        Ok(None) => return None,
                        Err(error) => {
                            failure = Some(error);
                            return None;
                        }
                    };
                    let key = (fingerprint, head.seq);
                    let settled = match seen.as_deref_mut() {
                        Some(seen) => {
                            if seen.boards.get(&board) == Some(&key) {
                                return None;
                            }
                            seen.memories.entry(board).or_default().read(&frame)
                        }
                        None => Settled {
                            moves: frame.moves.clone(),
                            stood: true,
                        },
                    };
                    Some(BoardJob {
                        board,
                        game_id: head.game_id,
                        key,
                        settled,
                        result: frame.result,
                        termination,
                        read_at: std::time::Instant::now(),
                    })
                })
                .filter_map(std::future::ready)
                .map(|job| async move {
                    let sync = self
                        .sync_board(
                            follow.follow_id,
                            job.board,
                            job.game_id,
                            BoardView {
                                feed: &job.settled.moves,
                                feed_result: job.result.as_deref(),
                                feed_termination: job.termination.as_deref(),
                                stood: job.settled.stood,
                                takebacks: follow.takebacks,
                            },
                        )
                        .await;
                    (job, sync)
                })
                .buffer_unordered(SYNCS_AT_ONCE)
                .collect()
                .await;
        let mut recorded = 0;
        let mut first_error = None;
        for (job, sync) in outcomes {
            let sync = match sync {
                Ok(sync) => sync,
                Err(error) => {
                    first_error.get_or_insert(error);
                    continue;
                }
            };
            recorded += sync.recorded;
            if let Some(seen) = seen.as_deref_mut() {
                if job.settled.stood {
                    seen.unsettled.remove(&job.board);
                } else {
                    seen.unsettled.insert(job.board, job.read_at);
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
        match first_error.or(failure) {
            Some(error) => Err(error),
            None => Ok(recorded),
        }
    }

    /// The text at `url`; `None` when the source has not published it (404). The address is
    /// checked before connecting, the answer bounded ([`FeedClient::fetch`]).
    async fn fetch_text(&self, url: &str) -> Result<Option<String>, FollowError> {
        fetch_text(&self.client, url).await
    }
}
