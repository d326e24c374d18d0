//! A real game replayed as a DGT LiveChess feed, move by move, read against what is stored:
//! each poll records exactly the new moves with their clocks; a misread move, a move taken
//! back, a reset board and the kings put in the centre are shown to the arbiter instead.

use crate::shared::shared;
use arbiter::game::event::RecordedEvent;
use arbiter::interchange::dgt::{Attention, FeedMove, read_against, read_game};
use arbiter::interchange::pgn_import::{ReadGame, read_games};
use shakmaty::Chess;

/// The moves and clock readings (seconds) of the first real games of the shared lichess file
/// that carry `[%clk]` and start from the standard position.
fn real_games(count: usize) -> Vec<Vec<(String, Option<u64>)>> {
    let file = std::fs::File::open(shared("data/games/lichess-2025-05.pgn")).expect("games");
    read_games(std::io::BufReader::new(file))
        .expect("readable")
        .into_iter()
        .filter_map(|game| match game {
            ReadGame::Planned(plan) if plan.settings.start_fen.is_none() && plan.moves > 20 => {
                Some(
                    plan.events
                        .iter()
                        .filter_map(|planned| match &planned.event {
                            RecordedEvent::Move { san, by } => Some((
                                san.clone(),
                                planned.clock.as_ref().and_then(|c| {
                                    match by {
                                        arbiter::rules::side::Side::White => c.white_ms,
                                        arbiter::rules::side::Side::Black => c.black_ms,
                                    }
                                    .map(|ms| ms / 1000)
                                }),
                            )),
                            _ => None,
                        })
                        .collect(),
                )
            }
            _ => None,
        })
        .take(count)
        .collect()
}

/// The game as LiveChess would publish it after `plies` moves.
fn feed_json(game: &[(String, Option<u64>)], plies: usize) -> String {
    let moves: Vec<String> = game[..plies]
        .iter()
        .map(|(san, seconds)| match seconds {
            Some(s) => format!("{san} {s}"),
            None => san.clone(),
        })
        .collect();
    serde_json::json!({"moves": moves, "result": "*"}).to_string()
}

#[test]
fn given_a_real_game_polled_move_by_move_each_poll_records_exactly_the_new_move_with_its_clock() {
    for game in real_games(5) {
        let mut stored: Vec<String> = Vec::new();
        for plies in 1..=game.len() {
            let feed = read_game(&feed_json(&game, plies)).expect("readable feed");
            let reading = read_against(
                &Chess::default(),
                &stored,
                &feed.feed_moves(),
                None,
                feed.result.as_deref(),
            );
            assert_eq!(reading.attention, None, "after {plies} plies");
            assert_eq!(reading.to_record.len(), 1, "after {plies} plies");
            let recorded = &reading.to_record[0];
            assert_eq!(recorded.san, game[plies - 1].0);
            assert_eq!(recorded.seconds_left, game[plies - 1].1);
            stored.push(recorded.san.clone());
        }
        // Polled again with nothing new: nothing to record, nothing to decide.
        let feed = read_game(&feed_json(&game, game.len())).expect("readable");
        let again = read_against(&Chess::default(), &stored, &feed.feed_moves(), None, None);
        assert!(again.to_record.is_empty() && again.attention.is_none());
    }
}

#[test]
fn given_a_real_game_when_the_board_misreads_takes_back_or_is_reset_the_arbiter_decides() {
    let game = &real_games(1)[0];
    let stored: Vec<String> = game[..10].iter().map(|(san, _)| san.clone()).collect();
    let feed = |sans: Vec<String>| -> Vec<FeedMove> {
        sans.into_iter()
            .map(|san| FeedMove {
                san,
                seconds_left: None,
                seconds_used: None,
            })
            .collect()
    };

    // A misread: the legal new move is recorded, the misread one is shown.
    let mut misread: Vec<String> = game[..11].iter().map(|(san, _)| san.clone()).collect();
    misread.push("Qh9".into());
    let reading = read_against(&Chess::default(), &stored, &feed(misread), None, None);
    assert_eq!(reading.to_record.len(), 1);
    assert!(matches!(
        reading.attention,
        Some(Attention::IllegalMove { ply: 12, .. })
    ));

    // A move taken back on the board: truncate, never branch.
    let taken_back: Vec<String> = game[..9].iter().map(|(san, _)| san.clone()).collect();
    let reading = read_against(&Chess::default(), &stored, &feed(taken_back), None, None);
    assert_eq!(
        reading.attention,
        Some(Attention::TakenBack {
            keep_plies: 9,
            stored_plies: 10
        })
    );

    // A reset board: the line no longer extends the stored one.
    let reading = read_against(&Chess::default(), &stored, &feed(vec![]), None, None);
    assert!(matches!(
        reading.attention,
        Some(Attention::TakenBack { keep_plies: 0, .. })
    ));
    let other_opening = if game[0].0 == "d4" { "e4" } else { "d4" };
    let reading = read_against(
        &Chess::default(),
        &stored,
        &feed(vec![other_opening.to_string()]),
        None,
        None,
    );
    assert!(matches!(
        reading.attention,
        Some(Attention::Diverges { ply: 1, .. })
    ));
}
