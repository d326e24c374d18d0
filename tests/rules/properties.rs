//! Property tests over random legal games: folding the whole log equals folding it event by
//! event, a position's count never depends on events that are not moves, and decisions are
//! deterministic.

use arbiter::game::Game;
use arbiter::game::event::{ClaimKind, Event, RecordedEvent, Side, TimeControlKind};
use proptest::prelude::*;
use shakmaty::Position;

use crate::table::{Table, settings};

/// A step of a random game: which legal move to play, and which non-move event (if any) to
/// record before it.
fn steps() -> impl Strategy<Value = Vec<(u16, u8)>> {
    prop::collection::vec((any::<u16>(), 0u8..8), 0..60)
}

fn non_move_event(kind: u8, to_move: Side) -> Option<RecordedEvent> {
    match kind {
        0 => Some(RecordedEvent::ClockPress {
            by: to_move.opponent(),
            white_ms: Some(60_000),
            black_ms: None,
        }),
        1 => Some(RecordedEvent::DrawOffer {
            by: to_move.opponent(),
        }),
        2 => Some(RecordedEvent::DrawDecline { by: to_move }),
        3 => Some(RecordedEvent::Claim {
            by: to_move,
            kind: ClaimKind::Repetition,
            intended_move: None,
        }),
        4 => Some(RecordedEvent::ClockPause { by: Some(to_move) }),
        _ => None,
    }
}

/// Play the steps: a table with the extra events, and one with the moves only.
fn play(steps: &[(u16, u8)]) -> (Table, Table) {
    let mut full = Table::new(None);
    let mut moves_only = Table::new(None);
    for &(choice, kind) in steps {
        if full.game.is_over() {
            break;
        }
        let position = full.game.position().clone();
        let to_move: Side = position.turn().into();
        if let Some(event) = non_move_event(kind, to_move) {
            // Refusals (e.g. declining when nothing is offered) are fine: nothing is stored.
            let _ = full.record(event);
        }
        if full.game.is_over() || full.game.view().obligations.must_play.is_some() {
            break;
        }
        let legal = position.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[choice as usize % legal.len()];
        let san = shakmaty::san::San::from_move(&position, m).to_string();
        full.play(&san);
        moves_only.play(&san);
    }
    (full, moves_only)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn folding_the_whole_log_equals_folding_it_event_by_event(steps in steps()) {
        let (full, _) = play(&steps);
        let mut refolded = Game::new(&settings(None, TimeControlKind::Standard)).expect("settings");
        for (seq, event) in &full.log {
            refolded.apply(*seq, event).expect("stored events apply");
        }
        prop_assert_eq!(refolded.view(), full.game.view());
        prop_assert_eq!(refolded.positions(), full.game.positions());
    }

    #[test]
    fn a_positions_count_never_depends_on_events_that_are_not_moves(steps in steps()) {
        let (full, moves_only) = play(&steps);
        prop_assert_eq!(full.game.positions(), moves_only.game.positions());
        prop_assert_eq!(full.game.view().repetition_count, moves_only.game.view().repetition_count);
        prop_assert_eq!(full.game.view().fen, moves_only.game.view().fen);
    }

    #[test]
    fn decisions_are_deterministic(steps in steps()) {
        let (full, _) = play(&steps);
        let copy = full.game.clone();
        let to_move: Side = full.game.position().turn().into();
        let seq = full.seq + 1;
        for event in [
            RecordedEvent::Claim { by: to_move, kind: ClaimKind::Repetition, intended_move: None },
            RecordedEvent::Claim { by: to_move, kind: ClaimKind::FiftyMoves, intended_move: None },
            RecordedEvent::Flag { side: to_move },
            RecordedEvent::Resign { by: to_move.opponent() },
        ] {
            let first = full.game.decide(seq, &event);
            let second = copy.decide(seq, &event);
            prop_assert_eq!(first, second);
        }
        let json = serde_json::to_string(&full.log.iter().map(|(_, e)| e.clone()).collect::<Vec<Event>>()).expect("json");
        let again: Vec<Event> = serde_json::from_str(&json).expect("round trip");
        prop_assert_eq!(again.len(), full.log.len());
    }
}

/// An irregular event at the board: touches, claims with written moves (legal, illegal or
/// unreadable), illegal moves with their attempted move, offers.
fn irregular_event(kind: u8, pick: u16, position: &shakmaty::Chess) -> RecordedEvent {
    let to_move: Side = position.turn().into();
    let squares: Vec<shakmaty::Square> = position.board().occupied().into_iter().collect();
    let square = squares[pick as usize % squares.len()];
    let target = shakmaty::Square::new(u32::from(pick) % 64);
    let legal = position.legal_moves();
    let written = match pick % 3 {
        0 if !legal.is_empty() => {
            shakmaty::san::San::from_move(position, legal[pick as usize % legal.len()]).to_string()
        }
        1 => format!("{square}{target}"),
        _ => "Qz9".to_string(),
    };
    match kind % 5 {
        0 => RecordedEvent::Touch {
            by: to_move,
            square: square.to_string(),
        },
        1 => RecordedEvent::Claim {
            by: to_move,
            kind: if pick.is_multiple_of(2) {
                ClaimKind::Repetition
            } else {
                ClaimKind::FiftyMoves
            },
            intended_move: Some(written),
        },
        2 => RecordedEvent::IllegalMove {
            by: to_move,
            description: "random".into(),
            completed: pick.is_multiple_of(4),
            attempted_move: Some(format!("{square}{target}")),
            kind: None,
        },
        3 => RecordedEvent::DrawOffer {
            by: to_move.opponent(),
        },
        _ => RecordedEvent::Claim {
            by: to_move,
            kind: ClaimKind::Repetition,
            intended_move: None,
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn no_sequence_of_events_leaves_a_game_in_progress_without_an_acceptable_move(
        steps in prop::collection::vec((any::<u16>(), 0u8..10, any::<u16>()), 0..80)
    ) {
        let mut t = Table::new(None);
        for (choice, kind, pick) in steps {
            if t.game.is_over() {
                break;
            }
            let position = t.game.position().clone();
            if kind < 6 {
                // Refusals are fine: nothing is stored.
                let _ = t.record(irregular_event(kind, pick, &position));
            }
            if t.game.is_over() {
                break;
            }
            let acceptable = t.game.view().obligations.acceptable_moves;
            prop_assert!(!acceptable.is_empty(), "stuck in {}", t.game.view().fen);
            let san = acceptable[choice as usize % acceptable.len()].clone();
            t.play(&san);
        }
        let mut refolded = Game::new(&settings(None, TimeControlKind::Standard)).expect("settings");
        for (seq, event) in &t.log {
            refolded.apply(*seq, event).expect("stored events apply");
        }
        prop_assert_eq!(refolded.view(), t.game.view());
    }
}
