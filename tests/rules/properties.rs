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
