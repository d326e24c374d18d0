//! Group commit: concurrent appends to different games share one statement and one commit.
//!
//! Each append is already one statement (`APPEND_STATEMENT`, in [`super::events`]), but each one
//! is still its own transaction: its own round trip, executor start-up, WAL flush and commit,
//! and its own turn through PostgreSQL's queue of notifying commits (the `NOTIFY` that wakes
//! live streams, migration `0005`). Under load most of a single-move append's database cost
//! is that per-transaction overhead, not the row. Here, appends queued while the previous
//! group was being written go together: one [`GROUP_APPEND_STATEMENT`] guards every game's
//! summary row, inserts every game's events in order, and commits once.
//!
//! Nothing the log promises changes (docs/write-path.md, "Group commit"):
//!
//! * **Per game, all or nothing, under its expected `seq`.** Each game's guard is checked on
//!   its own row; a game whose guard fails (another writer got there first) stores nothing
//!   while the others of the group store, and its writer is told to settle the conflict
//!   exactly as after a single statement.
//! * **A collision anywhere aborts the group, never a game's guarantee.** A reused `event_id`
//!   or a place another instance took fails the whole statement; every append of the group is
//!   then run alone by its own writer through [`Store::append_judged`], which answers each as
//!   before (stored, retry, 409). The same for any other failure of the group's statement: a
//!   lost connection after the commit leaves the appends stored, and the writer's single run
//!   finds them and answers them as retries.
//! * **The chain is computed in the database, from the stored rows**: by the chain trigger,
//!   row by row, or for the long appends' groups by their function
//!   (`events_append_group_linked`, migration `0017`), which reads each game's last stored
//!   hash once and links the group's rows in `seq` order from the same text and `recorded_at` the chain
//!   trigger hashes, checking that they follow one by one; the trigger keeps those links and
//!   computes them itself for every other writer. A link not computed from the stored rows is
//!   found by `arbiter verify` and the audit (docs/trust.md, "Who computes a link").
//! * **Answered only once committed**: a writer gets its rows after the group's transaction
//!   has committed (and, with a synchronous standby, been confirmed), never before.
//! * **Streams and the feed**: the notification trigger sends one wake-up per game of the
//!   statement, delivered at the commit; the feed sees the group's events all at once, in
//!   `position` order within its one transaction id.
//!
//! The games of a group are distinct: an instance holds each game's warm slot for the whole
//! of its append (src/app/arbitration.rs), so two appends of one game are queued at once only
//! for a moment after its warm state was forgotten, and then the second waits for the next
//! group. Two groups of one instance therefore never wait for each other's rows; groups of two
//! instances writing the same games may, and PostgreSQL's deadlock detection then fails one,
//! whose appends run alone.

use super::events::{
    AppendColumns, Appended, EventEnvelope, GameOutcome, JsonText, NewEvent, check_unique_ids,
};
use super::{Store, StoreError, to_i64, to_u64};
use chrono::{DateTime, Utc};
use sqlx::Postgres;
use sqlx::Row;
use sqlx::pool::PoolConnection;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{Mutex, mpsc, oneshot};
use uuid::Uuid;

/// The parameters of the group statement, named once: each is one array bound to the
/// functions `events_append_group` (migration `0015`) and `events_append_group_linked`
/// (`0017`), whose 16 arguments take them in this order. The macro gives the struct that
/// collects them ([`GroupColumns`]), its binds in this order and the statement's typed
/// parameter list (`$1::uuid[], ...`), so that a column cannot be bound in one place and
/// typed or placed differently in another.
macro_rules! group_columns {
    ($( $(#[$doc:meta])* $field:ident: $rust:ty => $sql:literal, per $per:ident ),* $(,)?) => {
        /// The columns of one group statement: the guards (one entry per game) and the rows
        /// (one entry per event), each a parameter of the statement in declaration order.
        #[derive(Debug)]
        struct GroupColumns {
            $( $(#[$doc])* $field: Vec<$rust>, )*
        }

        impl GroupColumns {
            /// Empty columns for `games` guards and `events` rows.
            fn with_capacity(games: usize, events: usize) -> GroupColumns {
                GroupColumns {
                    $( $field: Vec::with_capacity(match Per::$per {
                        Per::Game => games,
                        Per::Event => events,
                    }), )*
                }
            }

            /// The statement with every column bound, in the functions' argument order.
            fn bind(
                self,
                statement: &'static str,
            ) -> sqlx::query::Query<'static, Postgres, sqlx::postgres::PgArguments> {
                sqlx::query(statement)$( .bind(self.$field) )*
            }
        }

        /// The SQL types of the parameters, in the functions' argument order.
        const GROUP_PARAMETER_TYPES: &[&str] = &[$( $sql ),*];
    };
}

/// Whether a column of the group statement has an entry per game (a guard) or per event (a
/// row).
enum Per {
    Game,
    Event,
}

group_columns! {
    /// Each game of the group, once.
    game_ids: Uuid => "uuid[]", per Game,
    /// Each game's expected `last_seq` (its guard).
    expected: i64 => "bigint[]", per Game,
    /// Each game's `last_seq` once its events are stored.
    last: i64 => "bigint[]", per Game,
    /// Whether the append sets the game's status, result and termination.
    sets_outcome: bool => "boolean[]", per Game,
    /// The game's status when it sets it.
    status: Option<&'static str> => "text[]", per Game,
    /// The game's result when it sets it.
    result: Option<&'static str> => "text[]", per Game,
    /// The game's termination when it sets it.
    termination: Option<&'static str> => "text[]", per Game,
    /// Each row's game.
    event_games: Uuid => "uuid[]", per Event,
    /// Each row's `seq`.
    seqs: i64 => "bigint[]", per Event,
    /// Each row's `event_id`.
    event_ids: Uuid => "uuid[]", per Event,
    /// Each row's `batch_id` (its append's).
    batches: Uuid => "uuid[]", per Event,
    /// Each row's event type.
    types: &'static str => "text[]", per Event,
    /// Each row's payload.
    payloads: JsonText => "jsonb[]", per Event,
    /// Each row's metadata (the clock reading).
    metadata: JsonText => "jsonb[]", per Event,
    /// Each row's `occurred_at`.
    occurred_at: Option<DateTime<Utc>> => "timestamptz[]", per Event,
    /// Each row's recorder.
    recorders: String => "text[]", per Event,
}

/// `SELECT ... FROM function($1::uuid[], ...)` over the group's parameters.
fn group_statement(function: &str) -> String {
    let parameters: Vec<String> = GROUP_PARAMETER_TYPES
        .iter()
        .enumerate()
        .map(|(index, sql_type)| format!("${}::{sql_type}", index + 1))
        .collect();
    format!(
        "SELECT stored_game_id AS game_id, stored_seq AS seq, stored_recorded_at AS recorded_at,\n       \
         stored_prev_hash AS prev_hash, stored_hash AS hash\n  FROM {function}({})",
        parameters.join(", ")
    )
}

/// The appends of several games in one statement: every game's guard (`last_seq` must be its
/// expected `seq`; the row lock serialises the game's writers across instances), then the
/// events of the games whose guard held, as one multi-row insert in the order given (game by
/// game, `seq` order within a game), returning what the database set for each row. A game
/// whose guard fails gets no row back and stores nothing.
///
/// The statement is the function `events_append_group` (migration `0015`), whose plan finds
/// every game by its primary key whatever the size of `games` was when the plan was made, and
/// which keeps that one generic plan for the session (migration `0018`: with the statistics of
/// a million stored events PostgreSQL had planned it afresh on every call). Its parameters
/// are [`GroupColumns`].
pub static GROUP_APPEND_STATEMENT: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| group_statement("events_append_group"));

/// [`GROUP_APPEND_STATEMENT`] through `events_append_group_linked` (migration `0017`), which
/// also links the rows it stores itself: one lookup of each game's last stored hash, then the
/// links in memory, instead of the chain trigger's lookup per row. For groups of long appends,
/// where most rows follow a row of the same statement (docs/write-path.md, "The group links
/// its rows"; docs/trust.md, "Who computes a link").
pub static GROUP_APPEND_LINKED_STATEMENT: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| group_statement("events_append_group_linked"));

/// Who links a group's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupLinks {
    /// The chain trigger, row by row ([`GROUP_APPEND_STATEMENT`]).
    ByTrigger,
    /// The group's own function ([`GROUP_APPEND_LINKED_STATEMENT`]).
    ByGroup,
}

/// What the database set for one stored row: its place, time and chain link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredLink {
    /// The row's `seq`.
    pub seq: u64,
    /// When it was stored (the transaction's time).
    pub recorded_at: DateTime<Utc>,
    /// The previous row's hash.
    pub prev_hash: Vec<u8>,
    /// This row's hash.
    pub hash: Vec<u8>,
}

/// One game's append, serialised by its writer and waiting for a group.
#[derive(Debug)]
pub struct PreparedAppend {
    game_id: Uuid,
    expected_seq: u64,
    recorded_by: String,
    outcome: Option<GameOutcome>,
    columns: AppendColumns,
}

impl PreparedAppend {
    /// Serialises `events` (to be stored after `expected_seq`) for a group; refuses a request
    /// naming one `event_id` twice.
    pub fn new(
        game_id: Uuid,
        expected_seq: u64,
        events: &[NewEvent],
        recorded_by: &str,
        outcome: Option<&GameOutcome>,
    ) -> Result<Self, StoreError> {
        check_unique_ids(events)?;
        Ok(PreparedAppend {
            game_id,
            expected_seq,
            recorded_by: recorded_by.to_string(),
            outcome: outcome.copied(),
            columns: AppendColumns::of(game_id, expected_seq, events)?,
        })
    }

    /// How many events it stores.
    fn len(&self) -> usize {
        self.columns.len()
    }

    /// The batch id its events are stored under.
    pub fn batch_id(&self) -> Uuid {
        self.columns.batch_id()
    }
}

/// What a group did with one of its appends.
#[derive(Debug)]
pub enum GroupedOutcome {
    /// Stored, committed: the database's part of each row, in `seq` order.
    Stored(Vec<StoredLink>),
    /// The game's guard did not hold (its `last_seq` is not the expected one): nothing of it
    /// was stored; the writer settles the conflict as after a single statement.
    GuardFailed,
}

impl Store {
    /// Stores the appends of `group` (distinct games) in one statement and one transaction:
    /// for each append, in order, whether it was stored. An error means nothing of the group
    /// was stored, or (a connection lost after the commit) that it is unknown: the writers
    /// then append alone, which finds what was stored.
    pub async fn append_group(
        &self,
        group: Vec<PreparedAppend>,
    ) -> Result<Vec<GroupedOutcome>, StoreError> {
        self.append_group_linked_by(group, GroupLinks::ByTrigger)
            .await
    }

    /// [`Store::append_group`], its rows linked by `links`: the same rows, the same links.
    pub async fn append_group_linked_by(
        &self,
        group: Vec<PreparedAppend>,
        links: GroupLinks,
    ) -> Result<Vec<GroupedOutcome>, StoreError> {
        let mut connection = self.pool.acquire().await?;
        append_group_on(&mut connection, group, links).await
    }
}

/// [`Store::append_group_linked_by`] on `connection`, which must be one of the store's pool
/// (a writer keeps one for the groups that follow each other without a pause).
async fn append_group_on(
    connection: &mut sqlx::PgConnection,
    group: Vec<PreparedAppend>,
    links: GroupLinks,
) -> Result<Vec<GroupedOutcome>, StoreError> {
    let events: usize = group.iter().map(PreparedAppend::len).sum();
    // Each append's game and number of events, to tell the rows apart afterwards.
    let shape: Vec<(Uuid, usize)> = group.iter().map(|a| (a.game_id, a.len())).collect();
    let mut columns = GroupColumns::with_capacity(group.len(), events);
    for append in group {
        let (status, result, termination) = append.columns.summary(append.outcome.as_ref());
        let count = append.len();
        columns.game_ids.push(append.game_id);
        columns.expected.push(to_i64(append.expected_seq));
        columns
            .last
            .push(to_i64(append.expected_seq + count as u64));
        columns.sets_outcome.push(append.outcome.is_some());
        columns.status.push(status);
        columns.result.push(result);
        columns.termination.push(termination);
        for offset in 0..count {
            columns.event_games.push(append.game_id);
            columns
                .seqs
                .push(to_i64(append.expected_seq + 1 + offset as u64));
            columns.batches.push(append.batch_id());
            columns.recorders.push(append.recorded_by.clone());
        }
        append.columns.extend_into(
            &mut columns.event_ids,
            &mut columns.types,
            &mut columns.payloads,
            &mut columns.metadata,
            &mut columns.occurred_at,
        );
    }
    let statement = match links {
        GroupLinks::ByTrigger => GROUP_APPEND_STATEMENT.as_str(),
        GroupLinks::ByGroup => GROUP_APPEND_LINKED_STATEMENT.as_str(),
    };
    let rows = columns.bind(statement).fetch_all(&mut *connection).await?;
    let mut links: std::collections::HashMap<Uuid, Vec<StoredLink>> =
        std::collections::HashMap::with_capacity(shape.len());
    for row in &rows {
        let game_id: Uuid = row.try_get("game_id")?;
        links.entry(game_id).or_default().push(StoredLink {
            seq: to_u64(row.try_get("seq")?),
            recorded_at: row.try_get("recorded_at")?,
            prev_hash: row.try_get("prev_hash")?,
            hash: row.try_get("hash")?,
        });
    }
    Ok(shape
        .iter()
        .map(|(game_id, count)| match links.remove(game_id) {
            Some(mut stored) if stored.len() == *count => {
                stored.sort_by_key(|link| link.seq);
                GroupedOutcome::Stored(stored)
            }
            // The statement stores a game's events all or none (its guard).
            _ => GroupedOutcome::GuardFailed,
        })
        .collect())
}

/// The envelopes of `events` as a group stored them: what the
/// writer sent, and what the database set for each row (`links`, in `seq` order).
fn envelopes_linked(
    game_id: Uuid,
    events: &[NewEvent],
    recorded_by: &str,
    batch_id: Uuid,
    links: Vec<StoredLink>,
) -> Vec<EventEnvelope> {
    events
        .iter()
        .zip(links)
        .map(|(new, link)| EventEnvelope {
            game_id,
            seq: link.seq,
            event_id: new.event_id,
            batch_id,
            recorded_at: link.recorded_at,
            recorded_by: recorded_by.to_string(),
            occurred_at: new.occurred_at,
            clock: new.clock.clone(),
            prev_hash: hex::encode(link.prev_hash),
            hash: hex::encode(link.hash),
            event: new.event.clone(),
        })
        .collect()
}

/// One append waiting in the queue, and where its answer goes.
struct Queued {
    append: PreparedAppend,
    answer: oneshot::Sender<GroupAnswer>,
}

/// The answer to one queued append.
#[derive(Debug)]
enum GroupAnswer {
    /// The group's statement ran: what it did with this append, and how many appends the
    /// group held.
    Done {
        /// This append's outcome.
        outcome: GroupedOutcome,
        /// How many appends shared the statement.
        group_size: usize,
    },
    /// The group's statement failed (a collision somewhere in it, or the database): this
    /// append must be run alone, which tells what, if anything, was stored.
    RunAlone,
}

/// The group committer of one service instance: a queue and its writer tasks. Cheap to clone.
///
/// Each writer takes every append queued at that moment (up to `max_events` events), writes
/// them with [`Store::append_group`], answers each, and starts again; appends that arrive
/// while a group is being written wait for the next one. With one writer, the group size
/// follows the load by itself: one append alone when there is no contention, the whole queue
/// when many writers wait. A writer keeps the pooled connection it took while groups follow
/// each other without a pause (for at most [`HOLD_AT_MOST`]) and gives it back as soon as
/// nothing is queued: one backend, its caches warm, writes a busy stretch instead of a
/// different one of the pool for every group (docs/write-path.md, "Seventh pass").
///
/// Long appends (a relay's or an import's many moves) can have queues and writers of their
/// own ([`GroupCommitter::with_bulk`]): their statements then run beside the short appends'
/// groups instead of ahead of them, on another connection, and short appends keep the one
/// writer that suits them (docs/write-path.md, "Long appends have writers of their own").
#[derive(Clone, Debug)]
pub struct GroupCommitter {
    store: Store,
    queue: Option<mpsc::UnboundedSender<Queued>>,
    /// The queue of appends of at least this many events, and its sender.
    bulk: Option<(usize, mpsc::UnboundedSender<Queued>)>,
}

impl std::fmt::Debug for Queued {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queued")
            .field("game_id", &self.append.game_id)
            .finish_non_exhaustive()
    }
}

impl GroupCommitter {
    /// A committer whose `writers` tasks (on the current tokio runtime) write groups of up to
    /// `max_events` events through `store`. Without a runtime, or with no writer, there is
    /// no queue: `GroupCommitter::submit` answers `GroupAnswer::RunAlone` at once.
    pub fn new(store: Store, writers: usize, max_events: usize) -> Self {
        let queue = spawn_writers(&store, writers, max_events, GroupLinks::ByTrigger);
        GroupCommitter {
            store,
            queue,
            bulk: None,
        }
    }

    /// The same committer, with a queue of its own for appends of at least `from_events`
    /// events, written by `writers` more tasks in groups of up to `max_events` events. With
    /// no writer (or no runtime, or a committer that groups nothing) long appends share the
    /// one queue as before.
    pub fn with_bulk(mut self, writers: usize, from_events: usize, max_events: usize) -> Self {
        if self.queue.is_some() {
            self.bulk = spawn_writers(&self.store, writers, max_events, GroupLinks::ByGroup)
                .map(|sender| (from_events.max(1), sender));
        }
        self
    }

    /// A committer that groups nothing: every append runs alone, as [`Store::append_judged`].
    pub fn disabled(store: Store) -> Self {
        GroupCommitter {
            store,
            queue: None,
            bulk: None,
        }
    }

    /// [`Store::append_judged`] through the next group: the same answers (stored, a retry,
    /// 409, 404), stored in one statement and one commit with the other games' appends
    /// queued at the same time. Returns how many appends shared the statement (1 when the
    /// append ran alone).
    pub async fn append_judged(
        &self,
        game_id: Uuid,
        expected_seq: u64,
        events: &[NewEvent],
        recorded_by: &str,
        outcome: Option<&GameOutcome>,
    ) -> Result<(Appended, usize), StoreError> {
        if self.queue.is_none() || events.is_empty() {
            let appended = self
                .store
                .append_judged(game_id, expected_seq, events, recorded_by, outcome)
                .await?;
            return Ok((appended, 1));
        }
        let append = PreparedAppend::new(game_id, expected_seq, events, recorded_by, outcome)?;
        let batch_id = append.batch_id();
        match self.submit(append).await {
            GroupAnswer::Done {
                outcome: GroupedOutcome::Stored(links),
                group_size,
            } => Ok((
                Appended {
                    envelopes: envelopes_linked(game_id, events, recorded_by, batch_id, links),
                    newly_stored: true,
                },
                group_size,
            )),
            GroupAnswer::Done {
                outcome: GroupedOutcome::GuardFailed,
                group_size,
            } => Ok((
                self.store
                    .settle_conflict(game_id, expected_seq, events)
                    .await?,
                group_size,
            )),
            GroupAnswer::RunAlone => Ok((
                self.store
                    .append_judged(game_id, expected_seq, events, recorded_by, outcome)
                    .await?,
                1,
            )),
        }
    }

    /// Queues `append` for the next group and waits for its answer.
    async fn submit(&self, append: PreparedAppend) -> GroupAnswer {
        let queue = match &self.bulk {
            Some((from_events, bulk)) if append.len() >= *from_events => Some(bulk),
            _ => self.queue.as_ref(),
        };
        let Some(queue) = queue else {
            return GroupAnswer::RunAlone;
        };
        let (answer, answered) = oneshot::channel();
        if queue.send(Queued { append, answer }).is_err() {
            return GroupAnswer::RunAlone;
        }
        // A writer that stopped (its runtime ended) drops the sender: run alone.
        answered.await.unwrap_or(GroupAnswer::RunAlone)
    }
}

/// A queue and `writers` tasks writing it (on the current tokio runtime) in groups of up to
/// `max_events` events, their rows linked by `links`; `None` without a runtime or a writer.
fn spawn_writers(
    store: &Store,
    writers: usize,
    max_events: usize,
    links: GroupLinks,
) -> Option<mpsc::UnboundedSender<Queued>> {
    let runtime = tokio::runtime::Handle::try_current().ok()?;
    if writers == 0 {
        return None;
    }
    let (sender, receiver) = mpsc::unbounded_channel();
    let receiver = Arc::new(Mutex::new(receiver));
    for _ in 0..writers {
        runtime.spawn(write_groups(
            store.clone(),
            receiver.clone(),
            max_events.max(1),
            links,
        ));
    }
    Some(sender)
}

/// How long a writer keeps one pooled connection for groups that follow each other without a
/// pause before it takes one from the pool again (which closes a connection made before a
/// failover instead of handing it out, `src/store/failover.rs`).
const HOLD_AT_MOST: Duration = Duration::from_millis(50);

/// A writer's connection, and since when it has kept it.
struct Held {
    connection: PoolConnection<Postgres>,
    since: Instant,
}

/// A writer: takes what is queued, writes it as one group, answers, again; ends when every
/// committer handle is gone.
async fn write_groups(
    store: Store,
    queue: Arc<Mutex<mpsc::UnboundedReceiver<Queued>>>,
    max_events: usize,
    links: GroupLinks,
) {
    // An append taken from the queue but left for the next group (its game was already in
    // this one).
    let mut carried: Option<Queued> = None;
    // The connection of the groups that follow each other without a pause.
    let mut held: Option<Held> = None;
    loop {
        let mut group: Vec<Queued> = Vec::new();
        {
            let mut receiver = queue.lock().await;
            let first = match carried.take() {
                Some(first) => first,
                None => match receiver.try_recv() {
                    Ok(first) => first,
                    Err(mpsc::error::TryRecvError::Disconnected) => return,
                    Err(mpsc::error::TryRecvError::Empty) => {
                        // Nothing waits: the connection goes back to the pool until something does.
                        held = None;
                        match receiver.recv().await {
                            Some(first) => first,
                            None => return,
                        }
                    }
                },
            };
            let mut events = first.append.len();
            group.push(first);
            while events < max_events {
                match receiver.try_recv() {
                    // Two appends of one game never share a statement: each game's guard is
                    // one row. (An instance serialises a game's writers, but for a moment
                    // after its warm state was forgotten two may run.)
                    Ok(next)
                        if group
                            .iter()
                            .any(|q| q.append.game_id == next.append.game_id) =>
                    {
                        carried = Some(next);
                        break;
                    }
                    Ok(next) => {
                        events += next.append.len();
                        group.push(next);
                    }
                    Err(_) => break,
                }
            }
        }
        let (appends, answers): (Vec<PreparedAppend>, Vec<oneshot::Sender<GroupAnswer>>) = group
            .into_iter()
            .map(|queued| (queued.append, queued.answer))
            .unzip();
        let group_size = appends.len();
        // A connection kept too long goes back to the pool before another is taken from it.
        let kept = held
            .take()
            .filter(|kept| kept.since.elapsed() < HOLD_AT_MOST);
        let connection = match kept {
            Some(kept) => Ok(kept),
            None => store.pool.acquire().await.map(|connection| Held {
                connection,
                since: Instant::now(),
            }),
        };
        let written = match connection {
            Ok(mut kept) => {
                let written = append_group_on(&mut kept.connection, appends, links).await;
                if written.is_ok() {
                    held = Some(kept);
                }
                written
            }
            Err(error) => Err(error.into()),
        };
        match written {
            Ok(outcomes) => {
                for (answer, outcome) in answers.into_iter().zip(outcomes) {
                    // A writer that gave up waiting (its request was dropped) is not told.
                    let _ = answer.send(GroupAnswer::Done {
                        outcome,
                        group_size,
                    });
                }
            }
            Err(error) => {
                tracing::debug!(error = %error, group_size, "a group append failed; its appends run alone");
                for answer in answers {
                    let _ = answer.send(GroupAnswer::RunAlone);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_group_statement_types_each_of_the_functions_sixteen_arguments_in_order() {
        assert_eq!(GROUP_PARAMETER_TYPES.len(), 16);
        for statement in [
            GROUP_APPEND_STATEMENT.as_str(),
            GROUP_APPEND_LINKED_STATEMENT.as_str(),
        ] {
            assert!(
                statement.contains(
                    "($1::uuid[], $2::bigint[], $3::bigint[], $4::boolean[], $5::text[], \
                     $6::text[], $7::text[], $8::uuid[], $9::bigint[], $10::uuid[], \
                     $11::uuid[], $12::text[], $13::jsonb[], $14::jsonb[], \
                     $15::timestamptz[], $16::text[])"
                ),
                "{statement}"
            );
        }
        assert!(GROUP_APPEND_LINKED_STATEMENT.contains("FROM events_append_group_linked("));
    }
}
