//! The tournament report (FIDE TRF) from the log: what goes back to the pairing program
//! after each round and to the rating officer at the end.
//!
//! * **Players and start ranks.** Loading a round from a TRF file keeps the file's player
//!   lines ([`round_file`], stored with the round's games), so the report numbers the players as the pairing program
//!   does and carries their sex, title, rating, federation, FIDE id and birth date. A game's
//!   player is found among them by FIDE id, else by name; a player of a game who is not among
//!   them (rounds loaded from CSV or a list) gets the next start rank, in the order of first
//!   appearance (round, board), with the name and FIDE id the game has.
//! * **Rounds.** Rounds named by a number (`1`, `2`, ...) are the report's rounds; games of
//!   other rounds (`5.1`) are not reported. A player with two games in one round is reported
//!   with the later board's.
//! * **Results, as the log stands now** (the engine folds each game's log, so a result changed
//!   on appeal is reported as changed, and a retracted end is no end), coded from the cause of
//!   the end ([`crate::game::outcome`]): `+`/`-` only for a forfeit the arbiter recorded
//!   (6.7.1); a reported result (8.7) `1`/`=`/`0`; any other end `1`/`=`/`0`, or `W`/`D`/`L`
//!   (not rated) when it lasted less than one move; a game not ended yet its opponent and
//!   colour with a blank result.
//! * **Byes** are those the TRF file gave for the loaded round (`H`, `F`, `U`, `Z`): a bye is
//!   not a game, so it is kept beside the log, not in it. The players' statuses of the
//!   tournament's log (a withdrawal, an expulsion, a requested bye, a late entry) give the
//!   rounds a player does not play theirs ([`super::player_status`]).
//! * **Points and rank** are computed, with FIDE's default scoring; players on equal points
//!   are ranked by the tie-breaks asked for ([`crate::rules::tie_breaks`]), and share a place
//!   where those are equal too ("ties allowed").
//! * **Header**: `012` the name, `022` the site, `042`/`052` the dates (`YYYY/MM/DD`), `102`
//!   the first of the tournament's arbiters, `112` each other one, as the arbiters list gives
//!   them (with their FIDE ids if written there), `122` and (TRF26) `222` the time control.

use super::arbitration::{Arbitration, RecordError};
use super::rounds::RoundFile;
use crate::game::event::GameResult;
use crate::game::outcome::{Outcome, Played};
use crate::interchange::trf::{
    self, TrfColour, TrfPlayer, TrfReport, TrfResult, TrfRound, TrfTournament, TrfVersion,
};
use crate::rules::tie_breaks::{Field, TieBreak, UnplayedRounds, ranks};
use crate::store::{Store, StoreError};
use crate::tournament::Tournament;
use std::collections::HashMap;

/// Why a report cannot be made or a file's players kept.
#[derive(Debug, thiserror::Error)]
pub enum TrfError {
    /// The TRF file cannot be read.
    #[error("{0}")]
    Unreadable(String),
    /// A game's log cannot be read or folded.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Reads what a TRF file says of its players and of the byes of round `round` (a number),
/// to be kept with the round's games when they are loaded from it (nothing is stored here:
/// a file that cannot be read refuses the load before anything is created).
pub fn round_file(round: &str, trf: &str) -> Result<RoundFile, TrfError> {
    let report = trf::read_report(trf).map_err(|e| TrfError::Unreadable(e.0))?;
    let index = round
        .parse::<usize>()
        .ok()
        .and_then(|r| r.checked_sub(1))
        .ok_or_else(|| TrfError::Unreadable(format!("Round `{round}` is not a TRF round.")))?;
    let byes: Vec<(u32, char)> = report
        .players
        .iter()
        .filter_map(|player| {
            let entry = player.rounds.get(index)?;
            let code = entry.result.code();
            (entry.opponent.is_none() && matches!(code, 'H' | 'F' | 'U' | 'Z'))
                .then_some((player.start_number, code))
        })
        .collect();
    Ok(RoundFile {
        players: report.players,
        byes,
    })
}

/// What a game's end reports for White and for Black: the codes of a game played (`1`, `=`,
/// `0`), of one that lasted less than one move (`W`, `D`, `L`) or of a forfeit (`+`, `-`), as
/// [`crate::game::outcome`] sorts it from the cause; a blank while the game goes on.
fn results_of(outcome: Option<Outcome>) -> (TrfResult, TrfResult) {
    let Some(outcome) = outcome else {
        return (TrfResult::Blank, TrfResult::Blank);
    };
    // A double forfeit (0-0) is each player's `-`; a game lost by both after moves were
    // played (the arbiter's ruling) is each player's `0`. Neither is one result and its
    // opposite.
    if outcome.result == GameResult::BothLose {
        let both = match outcome.played {
            Played::NotPlayed => TrfResult::ForfeitLoss,
            Played::Played => TrfResult::Loss,
            Played::LessThanOneMove => TrfResult::UnratedLoss,
        };
        return (both, both);
    }
    // A game lost by one player whose opponent scores ½ (12.9.6): the loss and a draw.
    let half = match outcome.result {
        GameResult::WhiteLosesBlackHalf => Some((TrfResult::Loss, TrfResult::Draw)),
        GameResult::BlackLosesWhiteHalf => Some((TrfResult::Draw, TrfResult::Loss)),
        _ => None,
    };
    if let Some((white, black)) = half {
        let unrated = |r: TrfResult| match (outcome.played, r) {
            (Played::Played, r) => r,
            (_, TrfResult::Loss) => TrfResult::UnratedLoss,
            (_, _) => TrfResult::UnratedDraw,
        };
        return (unrated(white), unrated(black));
    }
    let (played, forfeit, unrated) = match outcome.result {
        GameResult::WhiteWins => (TrfResult::Win, TrfResult::ForfeitWin, TrfResult::UnratedWin),
        GameResult::BlackWins => (
            TrfResult::Loss,
            TrfResult::ForfeitLoss,
            TrfResult::UnratedLoss,
        ),
        // TRF has no forfeit draw: a drawn game not played is a draw not rated.
        GameResult::Draw
        | GameResult::BothLose
        | GameResult::WhiteLosesBlackHalf
        | GameResult::BlackLosesWhiteHalf => (
            TrfResult::Draw,
            TrfResult::UnratedDraw,
            TrfResult::UnratedDraw,
        ),
    };
    let white = match outcome.played {
        Played::Played => played,
        Played::NotPlayed => forfeit,
        Played::LessThanOneMove => unrated,
    };
    (white, white.opposite())
}

/// The key a player is found by: the FIDE id when there is one, else the name.
fn keys(name: &str, fide_id: Option<u64>) -> Vec<String> {
    let mut keys = Vec::new();
    if let Some(id) = fide_id.filter(|id| *id != 0) {
        keys.push(format!("fide:{id}"));
    }
    keys.push(format!("name:{}", name.trim().to_lowercase()));
    keys
}

/// The time control in words, and encoded for TRF26's line 222 in the PGN standard's form (`5400+30`, `40/5400+30:1800+30`), or in words when the PGN form
/// cannot say it (a delay).
fn time_control(tournament: &Tournament) -> (String, String) {
    let control = &tournament.settings.time_control;
    let encoded = crate::interchange::time_control_tag::write_tag(control)
        .unwrap_or_else(|_| crate::interchange::time_control_tag::describe(control));
    // One period: as pairing programs write it (`90'+30"`); several: the encoded form.
    let words = match control.as_legacy() {
        Some((_, base_ms, increment_ms)) => {
            let seconds = base_ms / 1000;
            let base = if seconds.is_multiple_of(60) {
                format!("{}'", seconds / 60)
            } else {
                format!("{seconds}\"")
            };
            if increment_ms == 0 {
                base
            } else {
                format!("{base}+{}\"", increment_ms / 1000)
            }
        }
        None => encoded.clone(),
    };
    (words, encoded)
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct Standing {
    /// The place (players equal on points and every tie-break share one).
    pub rank: u32,
    /// The start rank.
    pub start_number: u32,
    /// The player's name.
    pub name: String,
    /// The FIDE id, when known.
    pub fide_id: Option<u64>,
    /// The points (FIDE's default scoring).
    pub points: f64,
    /// Each tie-break asked for, in order: its C.07 abbreviation and value.
    pub tie_breaks: Vec<TieBreakValue>,
}

/// A tie-break's value in the standings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct TieBreakValue {
    /// The abbreviation (`BH`, `BH/C1`, `SB`, ...).
    pub code: String,
    /// The value: points for the Buchholz family, SB, PS and KS; for DE the points scored
    /// against the players tied with this one when it was applied (0 when none was); a count
    /// for WIN, WON and BPG; a rating for ARO and ARO/C1 (0 without a rated opponent).
    pub value: f64,
}

/// The standings after a round.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// The rounds the tournament has so far (with a pairing or a bye).
    pub rounds: usize,
    /// The text of C.07 that governed unplayed rounds.
    pub unplayed: UnplayedRounds,
    /// One line per player, by place, then start rank.
    pub lines: Vec<Standing>,
}

/// The standings after round `after_round` (all rounds when `None`), from the log as it
/// stands now (appeals included), ranked by points then by `tie_breaks` in order.
pub async fn standings(
    arbitration: &Arbitration,
    tournament: &Tournament,
    tie_breaks: &[TieBreak],
    after_round: Option<usize>,
) -> Result<Standings, TrfError> {
    let mut players = report(arbitration, tournament, &[]).await?.players;
    let rounds = players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    if let Some(round) = after_round {
        for player in players.iter_mut() {
            player.rounds.truncate(round);
        }
    }
    trf::score(&mut players);
    let all = outcomes(&players);
    let ratings: Vec<Option<u32>> = players
        .iter()
        .map(|p| p.rating.filter(|r| *r > 0))
        .collect();
    let unplayed = unplayed_rounds(tournament);
    let field = Field {
        rounds: &all,
        ratings: &ratings,
        completed: all.first().map_or(0, Vec::len),
        unplayed,
    };
    let computed = crate::rules::tie_breaks::standings(&field, tie_breaks);
    let mut lines: Vec<Standing> = players
        .iter()
        .zip(computed)
        .map(|(player, line)| Standing {
            rank: line.rank,
            start_number: player.start_number,
            name: player.name.clone(),
            fide_id: player.fide_id,
            points: f64::from(player.half_points) / 2.0,
            tie_breaks: tie_breaks
                .iter()
                .zip(line.values)
                .map(|(tb, value)| TieBreakValue {
                    code: tb.code().to_string(),
                    value: f64::from(value) / 4.0,
                })
                .collect(),
        })
        .collect();
    lines.sort_by_key(|line| (line.rank, line.start_number));
    Ok(Standings {
        rounds,
        unplayed,
        lines,
    })
}

/// The players' rounds as the tie-breaks read them.
fn outcomes(players: &[TrfPlayer]) -> Vec<Vec<crate::rules::tie_breaks::RoundOutcome>> {
    use crate::rules::tie_breaks::{RoundOutcome, Unplayed};
    let index: HashMap<u32, usize> = players
        .iter()
        .enumerate()
        .map(|(at, p)| (p.start_number, at))
        .collect();
    let completed = players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    players
        .iter()
        .map(|player| {
            (0..completed)
                .map(|round| {
                    let entry = player.rounds.get(round).copied().unwrap_or(TrfRound::BLANK);
                    let half_points = entry.result.half_points();
                    // A game played, also one of less than one move (`W`, `D`, `L`); a
                    // forfeit, a bye or nothing is a round not played.
                    let kind = match entry.result {
                        TrfResult::Win
                        | TrfResult::Draw
                        | TrfResult::Loss
                        | TrfResult::UnratedWin
                        | TrfResult::UnratedDraw
                        | TrfResult::UnratedLoss => None,
                        TrfResult::ForfeitWin => Some(Unplayed::ForfeitWin),
                        TrfResult::ForfeitLoss => Some(Unplayed::ForfeitLoss),
                        TrfResult::HalfPointBye => Some(Unplayed::HalfPointBye),
                        TrfResult::FullPointBye => Some(Unplayed::FullPointBye),
                        TrfResult::PairingBye => Some(Unplayed::PairingBye),
                        TrfResult::ZeroPointBye => Some(Unplayed::ZeroPointBye),
                        TrfResult::Blank => Some(Unplayed::NotPaired),
                    };
                    match (entry.opponent.and_then(|o| index.get(&o)), kind) {
                        (Some(opponent), None) => RoundOutcome::Played {
                            opponent: *opponent,
                            half_points,
                            black: entry.colour == TrfColour::Black,
                        },
                        (_, kind) => RoundOutcome::Unplayed {
                            half_points,
                            kind: kind.unwrap_or(Unplayed::NotPaired),
                        },
                    }
                })
                .collect()
        })
        .collect()
}

/// The ranks of `players` by points, then by `order` (C.07), as the rank column writes them.
fn rank_by(players: &mut [TrfPlayer], order: &[TieBreak], unplayed: UnplayedRounds) {
    let all = outcomes(players);
    let ratings: Vec<Option<u32>> = players
        .iter()
        .map(|p| p.rating.filter(|r| *r > 0))
        .collect();
    let field = Field {
        rounds: &all,
        ratings: &ratings,
        completed: all.first().map_or(0, Vec::len),
        unplayed,
    };
    for (player, rank) in players.iter_mut().zip(ranks(&field, order)) {
        player.rank = Some(rank);
    }
}

/// The text of C.07 that governs a tournament's unplayed rounds: its setting, else by its
/// first day ([`UnplayedRounds::for_start`]).
pub fn unplayed_rounds(tournament: &Tournament) -> UnplayedRounds {
    use chrono::Datelike;
    if let Some(chosen) = tournament.settings.unplayed_rounds {
        return chosen;
    }
    UnplayedRounds::for_start(
        tournament
            .settings
            .starts_on
            .map(|d| (d.year(), d.month(), d.day())),
    )
}

/// Builds the report of a tournament from the log (see the module documentation), ranking
/// players on equal points by `tie_breaks` in order (none: they share a rank).
pub async fn report(
    arbitration: &Arbitration,
    tournament: &Tournament,
    tie_breaks: &[TieBreak],
) -> Result<TrfReport, TrfError> {
    let store = arbitration.store();
    let mut players = store.tournament_players(tournament.tournament_id).await?;
    let mut index: HashMap<String, usize> = HashMap::new();
    for (at, player) in players.iter().enumerate() {
        for key in keys(&player.name, player.fide_id) {
            index.entry(key).or_insert(at);
        }
    }
    let mut find_or_add = |players: &mut Vec<TrfPlayer>, name: &str, fide_id: Option<u64>| {
        let keys = keys(name, fide_id);
        if let Some(at) = keys.iter().find_map(|k| index.get(k)) {
            return *at;
        }
        let start_number = players.iter().map(|p| p.start_number).max().unwrap_or(0) + 1;
        players.push(TrfPlayer {
            start_number,
            name: name.trim().to_string(),
            fide_id,
            ..TrfPlayer::default()
        });
        let at = players.len() - 1;
        for key in keys {
            index.insert(key, at);
        }
        at
    };
    let round_number = |round: &str| round.parse::<usize>().ok().filter(|r| *r >= 1);
    let mut entries: Vec<(usize, usize, TrfRound)> = Vec::new();
    for game in store.event_games(&tournament.settings.name).await? {
        let Some(round) = round_number(&game.round) else {
            continue;
        };
        let (state, _) = arbitration.state_at(game.game_id, None).await?;
        let settings = state.settings();
        let white = find_or_add(&mut players, &settings.white.name, settings.white.fide_id);
        let black = find_or_add(&mut players, &settings.black.name, settings.black.fide_id);
        let (white_result, black_result) = results_of(state.outcome());
        entries.push((
            white,
            round,
            TrfRound {
                opponent: Some(players[black].start_number),
                colour: TrfColour::White,
                result: white_result,
            },
        ));
        entries.push((
            black,
            round,
            TrfRound {
                opponent: Some(players[white].start_number),
                colour: TrfColour::Black,
                result: black_result,
            },
        ));
    }
    let by_number: HashMap<u32, usize> = players
        .iter()
        .enumerate()
        .map(|(at, p)| (p.start_number, at))
        .collect();
    let mut byes = Vec::new();
    for bye in store.tournament_byes(tournament.tournament_id).await? {
        if let (Some(round), Some(at), Some(result)) = (
            round_number(&bye.round),
            by_number.get(&bye.start_number),
            TrfResult::from_code(bye.code),
        ) {
            byes.push((*at, round, TrfRound::bye(result)));
        }
    }
    let rounds = entries
        .iter()
        .chain(&byes)
        .map(|(_, round, _)| *round)
        .max()
        .unwrap_or(0);
    for player in players.iter_mut() {
        player.rounds = vec![TrfRound::BLANK; rounds];
    }
    for (at, round, entry) in byes.into_iter().chain(entries) {
        players[at].rounds[round - 1] = entry;
    }
    // Withdrawals, expulsions, requested byes and late entries (issue 35, item 6).
    let log = store.tournament_log(tournament.tournament_id).await?;
    super::status_codes::apply(&mut players, &log);
    trf::score(&mut players);
    rank_by(&mut players, tie_breaks, unplayed_rounds(tournament));
    let settings = &tournament.settings;
    let date = |d: Option<chrono::NaiveDate>| d.map(|d| d.format("%Y/%m/%d").to_string());
    let (words, encoded) = time_control(tournament);
    Ok(TrfReport {
        tournament: TrfTournament {
            name: settings.name.clone(),
            city: settings.site.clone(),
            federation: None,
            starts_on: date(settings.starts_on),
            ends_on: date(settings.ends_on),
            kind: None,
            chief_arbiter: settings.arbiters.first().cloned(),
            deputies: settings.arbiters.iter().skip(1).cloned().collect(),
            time_control: Some(words),
            tie_breaks: (!tie_breaks.is_empty()).then(|| {
                let codes: Vec<&str> = tie_breaks.iter().map(|t| t.code()).collect();
                codes.join(",")
            }),
            encoded_time_control: Some(encoded),
            rounds: (rounds > 0).then_some(rounds as u32),
        },
        players,
    })
}

/// The tournament's report as a file in `version`.
pub async fn export(
    arbitration: &Arbitration,
    tournament: &Tournament,
    version: TrfVersion,
    tie_breaks: &[TieBreak],
) -> Result<String, TrfError> {
    Ok(trf::write_report(
        &report(arbitration, tournament, tie_breaks).await?,
        version,
    ))
}

/// The days the chief arbiter has to send the tournament report (the TRF file) to the rating
/// officer of the federation after the end of the tournament: FIDE Rating Regulations 9.1
/// ("within 7 days after the end of the tournament"; the rating officer then has until 30
/// days after the end to upload it).
pub const REPORT_DAYS: u64 = 7;

/// The date the report is due, from the tournament's last day; `None` when the end date is not
/// set.
pub fn report_due_on(tournament: &Tournament) -> Option<chrono::NaiveDate> {
    tournament
        .settings
        .ends_on
        .and_then(|end| end.checked_add_days(chrono::Days::new(REPORT_DAYS)))
}

/// An appeal lodged and not decided yet: the report would carry the result as it stands now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndecidedAppeal {
    /// The game.
    pub game_id: uuid::Uuid,
    /// Its round.
    pub round: String,
    /// Its board.
    pub board: Option<u32>,
    /// The `seq` of the decision appealed against.
    pub against_seq: u64,
    /// Who appealed.
    pub by: String,
}

/// The tournament's appeals lodged and not decided yet (a lodging retracted as a data-entry
/// error is no appeal).
pub async fn undecided_appeals(
    store: &Store,
    tournament: &Tournament,
) -> Result<Vec<UndecidedAppeal>, StoreError> {
    use crate::game::event::{Event, RecordedEvent};
    let items = store
        .event_log_of_types(
            &tournament.settings.name,
            None,
            &["appeal_lodged", "appeal_decided"],
        )
        .await?;
    let decided: std::collections::HashSet<(uuid::Uuid, u64)> = items
        .iter()
        .filter(|item| item.retracted_by.is_none())
        .filter_map(|item| match &item.decision.event {
            Event::Recorded(RecordedEvent::AppealDecided { against_seq, .. }) => {
                Some((item.decision.game_id, *against_seq))
            }
            _ => None,
        })
        .collect();
    Ok(items
        .iter()
        .filter(|item| item.retracted_by.is_none())
        .filter_map(|item| match &item.decision.event {
            Event::Recorded(RecordedEvent::AppealLodged {
                by, against_seq, ..
            }) if !decided.contains(&(item.decision.game_id, *against_seq)) => {
                Some(UndecidedAppeal {
                    game_id: item.decision.game_id,
                    round: item.round.clone(),
                    board: item.board,
                    against_seq: *against_seq,
                    by: by.clone(),
                })
            }
            _ => None,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::EndedAs;

    fn ended(result: GameResult, ended_as: EndedAs, played: Played) -> Option<Outcome> {
        Some(Outcome {
            result,
            ended_as,
            played,
        })
    }

    #[test]
    fn results_follow_whether_the_game_was_played() {
        use EndedAs::*;
        let white = GameResult::WhiteWins;
        let for_white = |outcome| results_of(outcome).0;
        assert_eq!(
            for_white(ended(white, OverTheBoard, Played::Played)),
            TrfResult::Win
        );
        assert_eq!(
            for_white(ended(white, Forfeit, Played::NotPlayed)),
            TrfResult::ForfeitWin
        );
        assert_eq!(
            for_white(ended(white, RulesInfraction, Played::LessThanOneMove)),
            TrfResult::UnratedWin
        );
        assert_eq!(
            for_white(ended(
                GameResult::Draw,
                OverTheBoard,
                Played::LessThanOneMove
            )),
            TrfResult::UnratedDraw
        );
        assert_eq!(
            results_of(ended(GameResult::BlackWins, Forfeit, Played::NotPlayed)),
            (TrfResult::ForfeitLoss, TrfResult::ForfeitWin)
        );
        assert_eq!(results_of(None), (TrfResult::Blank, TrfResult::Blank));
    }

    #[test]
    fn a_double_forfeit_is_each_players_forfeit_loss_and_a_game_lost_by_both_each_ones_loss() {
        let both = GameResult::BothLose;
        assert_eq!(
            results_of(ended(both, EndedAs::Forfeit, Played::NotPlayed)),
            (TrfResult::ForfeitLoss, TrfResult::ForfeitLoss)
        );
        assert_eq!(
            results_of(ended(both, EndedAs::Adjudication, Played::Played)),
            (TrfResult::Loss, TrfResult::Loss)
        );
    }

    #[test]
    fn a_game_lost_with_half_for_the_opponent_is_the_losers_loss_and_the_opponents_draw() {
        assert_eq!(
            results_of(ended(
                GameResult::WhiteLosesBlackHalf,
                EndedAs::RulesInfraction,
                Played::Played
            )),
            (TrfResult::Loss, TrfResult::Draw)
        );
        assert_eq!(
            results_of(ended(
                GameResult::BlackLosesWhiteHalf,
                EndedAs::RulesInfraction,
                Played::LessThanOneMove
            )),
            (TrfResult::UnratedDraw, TrfResult::UnratedLoss)
        );
    }
}
