//! What players' statuses give the tournament report (issue 35, item 6): the codes of the
//! rounds a player does not play, and late entrants added. Pure over the report's players and
//! the tournament's log, so that the report (`super::trf`) takes it without importing the
//! recording of statuses (`super::player_status`), which reads the report.
//!
//! * A **withdrawal** or an **expulsion** from round R: every round from R on in which the
//!   player has no game is `Z` (TRF26's "zero-point-bye (known absence)"; TRF's blank is
//!   "equivalent to `Z`", the code is written so the reader sees the absence was known).
//! * A **requested bye** in round R: `H` (half-point bye) or `Z` (zero-point bye), once round
//!   R is in the report (a round is in the report once a game or a bye of it is); a game the
//!   player has in that round wins over it.
//! * A **late entry** from round R: the player is added with the start rank recorded (the
//!   next free one, unless another was asked for and is free), and the rounds before R in
//!   which the player has no game are `Z`.
//!
//! Rounds the player plays are never overwritten: the log of the games is the truth of what
//! was played. `U` (pairing-allocated bye) and `F` (full-point bye) are the pairing program's
//! to give: they come with a loaded TRF file, not from a status.

use crate::interchange::trf::{TrfPlayer, TrfResult, TrfRound};
use crate::tournament_log::{ByePoints, LoggedEntry, PlayerStatus, TournamentEntry};

/// The statuses of a tournament's log, with who recorded each and when.
pub fn statuses(log: &[LoggedEntry]) -> Vec<(&LoggedEntry, &PlayerStatus)> {
    log.iter()
        .filter_map(|logged| match &logged.entry {
            TournamentEntry::PlayerStatus { status } => Some((logged, status)),
            _ => None,
        })
        .collect()
}

/// Sets `round` (1-based) of `player` to `code` when the player has nothing there.
fn unplayed(player: &mut TrfPlayer, round: usize, code: TrfResult) {
    if let Some(entry) = round
        .checked_sub(1)
        .and_then(|at| player.rounds.get_mut(at))
        && *entry == TrfRound::BLANK
    {
        *entry = TrfRound::bye(code);
    }
}

/// Gives the report's players the codes of the rounds their statuses leave unplayed (see the
/// module documentation), adding late entrants. Points are counted afterwards.
pub fn apply(players: &mut Vec<TrfPlayer>, log: &[LoggedEntry]) {
    let rounds = players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    for (_, status) in statuses(log) {
        if let PlayerStatus::LateEntry {
            name,
            fide_id,
            rating,
            federation,
            start_number,
            ..
        } = status
        {
            let found = players.iter().any(|p| same_player(p, name, *fide_id));
            if !found {
                let taken = |n: u32| players.iter().any(|p| p.start_number == n);
                let next = players.iter().map(|p| p.start_number).max().unwrap_or(0) + 1;
                let start_number = start_number.filter(|n| !taken(*n)).unwrap_or(next);
                players.push(TrfPlayer {
                    start_number,
                    name: name.trim().to_string(),
                    fide_id: *fide_id,
                    rating: *rating,
                    federation: federation.clone().unwrap_or_default(),
                    rounds: vec![TrfRound::BLANK; rounds],
                    ..TrfPlayer::default()
                });
            }
        }
        let at = match status {
            PlayerStatus::LateEntry { name, fide_id, .. } => {
                players.iter().position(|p| same_player(p, name, *fide_id))
            }
            _ => status
                .start_number()
                .and_then(|n| players.iter().position(|p| p.start_number == n)),
        };
        let Some(player) = at.map(|at| &mut players[at]) else {
            continue;
        };
        match status {
            PlayerStatus::Withdrawal { from_round, .. }
            | PlayerStatus::Expulsion { from_round, .. } => {
                for round in *from_round as usize..=rounds {
                    unplayed(player, round, TrfResult::ZeroPointBye);
                }
            }
            PlayerStatus::ByeRequest { round, points, .. } => {
                let code = match points {
                    ByePoints::Half => TrfResult::HalfPointBye,
                    ByePoints::Zero => TrfResult::ZeroPointBye,
                };
                unplayed(player, *round as usize, code);
            }
            PlayerStatus::LateEntry { from_round, .. } => {
                for round in 1..(*from_round as usize) {
                    unplayed(player, round, TrfResult::ZeroPointBye);
                }
            }
        }
    }
}

/// Whether `player` is the one named: the same FIDE id when both have one, else the same name.
pub(super) fn same_player(player: &TrfPlayer, name: &str, fide_id: Option<u64>) -> bool {
    match (player.fide_id.filter(|id| *id != 0), fide_id) {
        (Some(theirs), Some(ours)) => theirs == ours,
        _ => player.name.trim().eq_ignore_ascii_case(name.trim()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interchange::trf::TrfColour;

    fn logged(status: PlayerStatus) -> LoggedEntry {
        LoggedEntry {
            entry_id: 1,
            recorded_by: "Chief (arbiter)".into(),
            recorded_at: "2026-11-21T10:00:00Z".parse().expect("time"),
            entry: TournamentEntry::PlayerStatus { status },
        }
    }

    fn player(start_number: u32, rounds: Vec<TrfRound>) -> TrfPlayer {
        TrfPlayer {
            start_number,
            name: format!("Player {start_number}"),
            rounds,
            ..TrfPlayer::default()
        }
    }

    fn played(opponent: u32) -> TrfRound {
        TrfRound {
            opponent: Some(opponent),
            colour: TrfColour::White,
            result: TrfResult::Win,
        }
    }

    #[test]
    fn a_withdrawal_leaves_zero_point_byes_where_no_game_was_played_and_keeps_the_games() {
        let mut players = vec![
            player(1, vec![played(2), played(2), TrfRound::BLANK]),
            player(2, vec![played(1), TrfRound::BLANK, TrfRound::BLANK]),
        ];
        apply(
            &mut players,
            &[logged(PlayerStatus::Withdrawal {
                start_number: 2,
                from_round: 2,
                reason: "ill".into(),
            })],
        );
        assert_eq!(players[1].rounds[0], played(1));
        assert_eq!(
            players[1].rounds[1..],
            [TrfRound::bye(TrfResult::ZeroPointBye); 2]
        );
        assert_eq!(players[0].rounds[2], TrfRound::BLANK, "player 1 untouched");
    }

    #[test]
    fn a_requested_bye_is_h_or_z_and_a_late_entrant_is_added_with_zero_point_byes_before() {
        let mut players = vec![
            player(1, vec![played(2), TrfRound::BLANK]),
            player(2, vec![played(1), TrfRound::BLANK]),
        ];
        apply(
            &mut players,
            &[
                logged(PlayerStatus::ByeRequest {
                    start_number: 1,
                    round: 2,
                    points: ByePoints::Half,
                    reason: "exam".into(),
                }),
                logged(PlayerStatus::LateEntry {
                    name: "Doe, Jane".into(),
                    fide_id: None,
                    rating: Some(1800),
                    federation: Some("IRL".into()),
                    start_number: Some(3),
                    from_round: 2,
                    reason: "arrived on day 2".into(),
                }),
            ],
        );
        assert_eq!(players[0].rounds[1], TrfRound::bye(TrfResult::HalfPointBye));
        assert_eq!(players[2].start_number, 3);
        assert_eq!(players[2].name, "Doe, Jane");
        assert_eq!(
            players[2].rounds,
            vec![TrfRound::bye(TrfResult::ZeroPointBye), TrfRound::BLANK]
        );
    }
}
