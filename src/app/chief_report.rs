//! The chief arbiter's report of a tournament, from the log: what FIDE asks the chief arbiter
//! to report at the end of an event (the arbiters who served, the rounds and their results,
//! the incidents with the rulings made on them, the appeals and their decisions).
//!
//! Everything in it is read from the event log as it stands: a result changed on appeal is
//! reported as changed, a retracted decision is reported as retracted (never hidden), and
//! "who served" is who recorded events in the tournament's games (the envelope's
//! `recorded_by`), beside the arbiters the tournament's settings name.

use super::arbitration::{Arbitration, RecordError};
use crate::game::event::{Event, GameResult, RecordedEvent, Termination};
use crate::store::{Recorder, RulingItem, StoreError};
use crate::tournament::Tournament;
use uuid::Uuid;

/// The event types the report lists as incidents: every ruling and penalty, illegal move,
/// arbiter's decision, clock adjustment and correction (the appeals have their own part).
pub const INCIDENT_TYPES: &[&str] = &[
    "claim_ruled",
    "penalty_applied",
    "illegal_move",
    "arbiter_decision",
    "clock_adjust",
    "correction",
];

/// The chief arbiter's report.
#[derive(Clone, Debug)]
pub struct ChiefArbiterReport {
    /// The tournament, with its settings (site, dates, time control, edition, arbiters).
    pub tournament: Tournament,
    /// Who recorded events in its games, with how many and when.
    pub recorders: Vec<Recorder>,
    /// The rounds, in order, with each board's result.
    pub rounds: Vec<RoundReport>,
    /// The incidents and the rulings on them, in the order they were recorded.
    pub incidents: Vec<RulingItem>,
    /// The appeals, each with its decision when there is one.
    pub appeals: Vec<AppealReport>,
    /// The standings after the last round, ranked by the tournament's tie-breaks.
    pub standings: super::trf::Standings,
    /// The integrity trail: what changed a result, the boards without one (the report is
    /// provisional while there are any), and the seal over every game's chain head.
    pub trail: super::trail::Trail,
}

/// One round of the report.
#[derive(Clone, Debug)]
pub struct RoundReport {
    /// The round's name (`1`, `2`, ... or `5.1`).
    pub round: String,
    /// Its boards, in board order.
    pub boards: Vec<BoardResult>,
}

impl RoundReport {
    /// How many boards ended with each result, and how many have none yet:
    /// (white wins, draws, black wins, double forfeits, unfinished).
    pub fn tally(&self) -> (usize, usize, usize, usize, usize) {
        let count =
            |result: Option<GameResult>| self.boards.iter().filter(|b| b.result == result).count();
        (
            count(Some(GameResult::WhiteWins)),
            count(Some(GameResult::Draw)),
            count(Some(GameResult::BlackWins)),
            count(Some(GameResult::BothLose)),
            count(None),
        )
    }
}

/// A board's result as the log stands.
#[derive(Clone, Debug)]
pub struct BoardResult {
    /// The game.
    pub game_id: Uuid,
    /// The board number.
    pub board: Option<u32>,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result, once ended.
    pub result: Option<GameResult>,
    /// How it ended.
    pub termination: Option<Termination>,
    /// The article the end was decided under.
    pub article: Option<String>,
    /// The half-moves played.
    pub plies: usize,
    /// Whether the game was not played: the arbiter recorded a forfeit (6.7.1), as the TRF
    /// report counts it.
    pub forfeit: bool,
    /// What the end rests on and whether the game counts as played, once ended.
    pub outcome: Option<crate::game::outcome::Outcome>,
}

/// An appeal and its decision.
#[derive(Clone, Debug)]
pub struct AppealReport {
    /// The lodging.
    pub lodged: RulingItem,
    /// The committee's decision, when made.
    pub decided: Option<RulingItem>,
}

/// Why the report cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum ChiefReportError {
    /// A game's log cannot be read or folded.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The standings cannot be computed.
    #[error(transparent)]
    Standings(#[from] super::trf::TrfError),
}

/// Builds the chief arbiter's report of `tournament` from the log.
pub async fn chief_arbiter_report(
    arbitration: &Arbitration,
    tournament: &Tournament,
) -> Result<ChiefArbiterReport, ChiefReportError> {
    let store = arbitration.store();
    let event = tournament.settings.name.as_str();
    let mut rounds: Vec<RoundReport> = Vec::new();
    for game in store.event_games(event).await? {
        let (state, _) = arbitration.state_at(game.game_id, None).await?;
        let settings = state.settings();
        let view = state.view();
        let board = BoardResult {
            game_id: game.game_id,
            board: game.board,
            white: settings.white.name.clone(),
            black: settings.black.name.clone(),
            result: state.result(),
            termination: state.termination(),
            article: view.article.clone(),
            plies: state.moves().len(),
            forfeit: view.outcome.is_some_and(|o| o.is_forfeit()),
            outcome: view.outcome,
        };
        match rounds.last_mut() {
            Some(last) if last.round == game.round => last.boards.push(board),
            _ => rounds.push(RoundReport {
                round: game.round.clone(),
                boards: vec![board],
            }),
        }
    }
    let incidents = store
        .event_log_of_types(event, None, INCIDENT_TYPES)
        .await?;
    let appeal_items = store
        .event_log_of_types(event, None, &["appeal_lodged", "appeal_decided"])
        .await?;
    let against = |item: &RulingItem| match &item.decision.event {
        Event::Recorded(RecordedEvent::AppealLodged { against_seq, .. })
        | Event::Recorded(RecordedEvent::AppealDecided { against_seq, .. }) => {
            Some((item.decision.game_id, *against_seq))
        }
        _ => None,
    };
    let appeals = appeal_items
        .iter()
        .filter(|item| item.decision.event.type_name() == "appeal_lodged")
        .map(|lodged| AppealReport {
            lodged: lodged.clone(),
            decided: appeal_items
                .iter()
                .filter(|d| d.decision.event.type_name() == "appeal_decided")
                .filter(|d| d.retracted_by.is_none())
                .find(|d| against(d) == against(lodged))
                .cloned(),
        })
        .collect();
    Ok(ChiefArbiterReport {
        tournament: tournament.clone(),
        recorders: store.event_recorders(event).await?,
        rounds,
        incidents,
        appeals,
        standings: super::trf::standings(
            arbitration,
            tournament,
            &tournament.settings.tie_breaks,
            None,
        )
        .await?,
        trail: super::trail::trail(
            arbitration,
            tournament,
            &super::trf::report(arbitration, tournament, &[])
                .await
                .map_err(|e| match e {
                    super::trf::TrfError::Record(e) => ChiefReportError::Record(e),
                    super::trf::TrfError::Store(e) => ChiefReportError::Store(e),
                    super::trf::TrfError::Unreadable(m) => {
                        ChiefReportError::Store(StoreError::Undecodable {
                            game_id: tournament.tournament_id,
                            seq: 0,
                            message: m,
                        })
                    }
                })?
                .players,
        )
        .await?,
    })
}
