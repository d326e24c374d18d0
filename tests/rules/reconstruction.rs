//! Issue 36, item 5: positions reconstructed by the arbiter. The arbiter records the position
//! the board should show (`arbiter_decision` with `decision: position_reconstructed` and the
//! `fen`): the position before an irregularity reinstated (7.5.1, 7.6: "the game shall then
//! continue from this reinstated position"), or the game reconstructed on a second board when
//! no complete scoresheet is available (2023 8.5.3). Play continues from it, its move number
//! is each player's count of completed moves (the periods, 6.4, follow it; the arbiter sets
//! the clock, 7.1), repetitions are counted as the game's positions (9.2), and the stored
//! log replays to the same game.

use arbiter::game::Game;
use arbiter::game::event::{
    ArbiterRuling, ClockReading, Event, LawsEdition, RecordedEvent, ServiceEvent, Side,
    TimeControl, TimeControlKind,
};
use arbiter::game::refusal::RefusalCode;
use arbiter::rules::time_control::TimeControlSpec;

use crate::table::{Table, ended, settings};

const MIN: u64 = 60_000;

/// Both sides castled at move 30, White to move: 29 moves completed by each.
const AT_MOVE_30: &str = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 30";
/// The position after 30. d3 d6 31. h3 h6 32. a3 a6, as the second board shows it after the
/// reconstruction: the players went on without recording, and 40 moves were completed by
/// each (the pieces stand as after move 32: the other moves went back and forth).
const RECONSTRUCTED_AT_41: &str =
    "r1bq1rk1/1pp2pp1/p1np1n1p/2b1p3/2B1P3/P1NP1N1P/1PP2PP1/R1BQ1RK1 w - - 16 41";

fn arbiter_decision(fen: &str, reason: &str) -> RecordedEvent {
    RecordedEvent::ArbiterDecision {
        subject_seq: None,
        decision: ArbiterRuling::PositionReconstructed,
        reason: reason.to_string(),
        result: None,
        penalty: None,
        attempted_move: None,
        fen: Some(fen.to_string()),
        increment_ms: None,
        move_count: None,
        cause: None,
    }
}

/// Records `event` with the clock `reading`, as the service does, keeping the log.
fn record_read(
    t: &mut Table,
    event: RecordedEvent,
    reading: Option<ClockReading>,
) -> Vec<ServiceEvent> {
    let seq = t.seq + 1;
    let decisions = t
        .game
        .record_with_clock(seq, &event, reading.as_ref())
        .unwrap_or_else(|r| panic!("{event:?} is recorded: {r}"));
    t.log.push((seq, Event::Recorded(event)));
    t.seq = seq;
    for d in &decisions {
        t.seq += 1;
        t.log.push((t.seq, Event::Service(d.clone())));
    }
    decisions
}

/// 40 moves in 90 minutes, then 30 minutes for the rest of the game, no increment: under
/// five minutes the players need not keep score (8.4).
fn forty_in_ninety_then_thirty() -> TimeControl {
    serde_json::from_value::<TimeControlSpec>(serde_json::json!({"periods": [
        {"time_ms": 90 * MIN, "moves": 40},
        {"time_ms": 30 * MIN}
    ]}))
    .expect("a control")
    .validate()
    .expect("a valid control")
}

fn game_at_move_30(edition: LawsEdition) -> Table {
    let mut s = settings(Some(AT_MOVE_30), TimeControlKind::Standard);
    s.time_control = forty_in_ninety_then_thirty();
    s.laws_edition = edition;
    let mut t = Table::with_settings(s);
    for san in ["d3", "d6", "h3", "h6", "a3", "a6"] {
        t.play(san);
    }
    t
}

#[test]
fn given_scoresheets_that_stop_at_move_32_when_the_game_reconstructed_on_a_second_board_shows_40_moves_then_the_flag_of_white_reached_the_control_and_does_not_lose()
 {
    // The ruling: both players had under five minutes and stopped recording (8.4). White's
    // flag falls. The arbiter pauses the clock; no complete scoresheet is available, so the
    // game is reconstructed on a second board (2023 8.5.3): 40 moves completed by each.
    // White's flag fell after the control was reached: it does not lose (6.4), and the
    // second period's 30 minutes are added.
    for edition in [LawsEdition::Y2023, LawsEdition::Y2018] {
        let mut t = game_at_move_30(edition);
        assert_eq!(t.game.view().time_control.white.moves_completed, 32);

        // Without the reconstruction, the log's 32 moves: the flag loses (6.4, 6.9).
        let mut unreconstructed = t.clone();
        let lost = unreconstructed
            .record(RecordedEvent::Flag { side: Side::White })
            .expect("the flag is recorded");
        assert_eq!(
            ended(&lost).map(|(r, _, _)| r.pgn().to_string()),
            Some("0-1".into())
        );

        let decisions = record_read(
            &mut t,
            arbiter_decision(
                RECONSTRUCTED_AT_41,
                "No complete scoresheet after White's flag fell: reconstructed on a second board, 40 moves each",
            ),
            Some(ClockReading {
                white_ms: Some(0),
                black_ms: Some(2 * MIN),
            }),
        );
        assert!(decisions.is_empty(), "{decisions:?}");
        let view = t.game.view();
        assert_eq!(view.fen, RECONSTRUCTED_AT_41);
        assert_eq!(view.time_control.white.moves_completed, 40);
        assert_eq!(view.time_control.black.moves_completed, 40);
        assert_eq!(view.time_control.white.period, 2, "the Laws' period");
        assert_eq!(view.time_control.white.clock_period, 1, "the clock's");
        assert_eq!(view.reconstructed_positions.len(), 1);
        assert_eq!(view.reconstructed_positions[0].fen, RECONSTRUCTED_AT_41);

        let flag = t
            .record(RecordedEvent::Flag { side: Side::White })
            .expect("the flag is recorded");
        assert_eq!(ended(&flag), None, "{flag:?}");
        let added: Vec<(Side, u64)> = flag
            .iter()
            .filter_map(|d| match d {
                ServiceEvent::PenaltyApplied { side, add_ms, .. } => Some((*side, *add_ms)),
                _ => None,
            })
            .collect();
        assert_eq!(added, vec![(Side::White, 30 * MIN)], "{flag:?}");
        assert!(t.game.view().time_control.white.last_period);

        // Play continues from the reconstructed position, numbered from move 41.
        t.play("Kh1");
        let view = t.game.view();
        assert!(view.fen.ends_with(" b - - 17 41"), "{}", view.fen);
    }
}

#[test]
fn given_a_knight_found_displaced_when_the_arbiter_reinstates_the_position_before_it_then_moves_are_judged_from_it_and_the_positions_on_the_wrong_board_do_not_count_for_repetition()
 {
    // The ruling (7.6): after 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 the arbiter finds that Black's
    // knight stood on h5, not f6, since Black's third move. The position before the
    // irregularity (after 3.Nf3) is reinstated and Black plays his third move again. The
    // position after 2...Ng8 (= the start) then occurred twice; the one after 3.Nf3 is the
    // same occurrence as before (reinstated), not a new one.
    let mut t = Table::new(None);
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"] {
        t.play(san);
    }
    let after_3_nf3 = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 5 3";
    t.record(arbiter_decision(
        after_3_nf3,
        "A knight displaced since Black's third move; the position before it reinstated",
    ))
    .expect("the reconstruction is recorded");
    let view = t.game.view();
    assert_eq!(view.fen, after_3_nf3);
    assert_eq!(view.side_to_move, Side::Black);
    assert_eq!(
        view.repetition_count, 2,
        "after 3.Nf3 as after 1.Nf3: the same occurrence reinstated"
    );
    // A move is judged from the reinstated position: Black's knight is on g8 again, so
    // ...Ng4 (from f6 in the log's position) is not legal.
    let refused = t
        .record(RecordedEvent::Move {
            by: Side::Black,
            san: "Ng4".into(),
        })
        .expect_err("Ng4 is not legal from the reinstated position");
    assert_eq!(refused.code(), RefusalCode::IllegalMove);
    t.play("Nf6");
    assert_eq!(
        t.game.view().repetition_count,
        2,
        "after 3...Nf6 as after 1...Nf6; the 3...Nf6 on the wrong board is set aside"
    );
    t.play("Ng1");
    t.play("Ng8");
    // The start position now occurs a third time (plies 0, 4 and now): 9.2 counts over the
    // game's positions, those before the irregularity included.
    assert_eq!(t.game.view().repetition_count, 3);

    // The stored log replays to the same game (the audit re-runs it).
    let mut replayed = Game::new(&settings(None, TimeControlKind::Standard)).expect("valid");
    for (seq, event) in &t.log {
        replayed.apply(*seq, event).expect("the stored log folds");
    }
    assert_eq!(replayed.view(), t.game.view());
}

#[test]
fn given_a_reconstruction_the_log_does_not_hold_when_it_is_recorded_then_it_is_a_new_occurrence_and_a_position_without_a_legal_move_or_without_a_fen_is_refused()
 {
    let mut t = game_at_move_30(LawsEdition::Y2023);
    t.record(arbiter_decision(
        RECONSTRUCTED_AT_41,
        "8.5.3 reconstruction",
    ))
    .expect("recorded");
    assert_eq!(t.game.view().repetition_count, 1);

    let mut no_fen = arbiter_decision(RECONSTRUCTED_AT_41, "no position");
    if let RecordedEvent::ArbiterDecision { fen, .. } = &mut no_fen {
        *fen = None;
    }
    let refused = t.record(no_fen).expect_err("a FEN is needed");
    assert_eq!(refused.code(), RefusalCode::PositionNeeded);
    assert!(refused.message().contains("8.5.3"), "{}", refused.message());

    // Fool's mate: White has no legal move; the game is over, the arbiter records a result.
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let refused = t
        .record(arbiter_decision(mated, "mate on the board"))
        .expect_err("no game continues from a mate");
    assert_eq!(refused.code(), RefusalCode::BadFen);
    assert!(
        refused.message().contains("game_ended"),
        "{}",
        refused.message()
    );
}
