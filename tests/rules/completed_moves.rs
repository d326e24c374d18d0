//! Issue 36, item 1: a move is completed by its press (6.2.1). The control of 90 minutes
//! for 40 moves is reached only by the press that completes the 40th move, under both clock
//! behaviours; a flag between the move and its press falls in the period before, since the
//! time until the press is the player's (6.2.2). The exceptions of 6.2.1: a move that ends
//! the game (6.2.1.1), and the player's next move made without having pressed (6.2.1.2).
//!
//! 2023 text (6.2.1): "This 'completes' the move. A move is also completed if: 6.2.1.1 the
//! move ends the game ..., or 6.2.1.2 the player has made his/her next move, when his/her
//! previous move was not completed." 6.2.2: "A player must be allowed to pause his/her
//! clock after making his/her move, even after the opponent has made his/her next move. The
//! time between making the move on the chessboard and pressing the clock is regarded as part
//! of the time allotted to the player." The 2018 edition numbers both the same ("stop his
//! clock"); see docs/time-controls.md for where each was read.

use arbiter::game::event::{
    ClockBehaviour, ClockReading, GameResult, LawsEdition, Preset, RecordedEvent, ServiceEvent,
    Side, Termination,
};

use crate::periods::{quiet_game, table};
use crate::table::{Table, ended};

const MIN: u64 = 60_000;
const EDITIONS: [LawsEdition; 2] = [LawsEdition::Y2018, LawsEdition::Y2023];
const BEHAVIOURS: [ClockBehaviour; 2] = [
    ClockBehaviour::DGT_3000_MULTI_PERIOD,
    ClockBehaviour {
        period_time_added: arbiter::rules::time_control::tracker::PeriodTimeAdded::AtControlPress,
        increment_credit: arbiter::rules::time_control::tracker::IncrementCredit::AfterPress,
    },
];

/// Each ply of `sans` played and its press recorded (the clock not read).
fn play_and_press(t: &mut Table, sans: &[String]) {
    for san in sans {
        let by = t.game.view().side_to_move;
        t.play(san);
        press(t, by);
    }
}

fn press(t: &mut Table, by: Side) {
    t.record(RecordedEvent::ClockPress {
        by,
        white_ms: None,
        black_ms: None,
    })
    .expect("the press is recorded");
}

fn fide_standard(behaviour: ClockBehaviour, edition: LawsEdition) -> Table {
    table(Preset::FideStandard.control(), behaviour, edition)
}

fn time_added(decisions: &[ServiceEvent]) -> Vec<(Side, u64)> {
    decisions
        .iter()
        .filter_map(|d| match d {
            ServiceEvent::PenaltyApplied { side, add_ms, .. } => Some((*side, *add_ms)),
            _ => None,
        })
        .collect()
}

#[test]
fn given_whites_40th_move_on_the_board_and_the_clock_not_pressed_when_whites_flag_falls_then_white_loses_in_period_1_under_both_clock_behaviours_citing_6_2_1_6_2_2_6_4_6_9()
 {
    let sans = quiet_game(79);
    for edition in EDITIONS {
        for behaviour in BEHAVIOURS {
            let mut t = fide_standard(behaviour, edition);
            play_and_press(&mut t, &sans[..78]);
            let white_before = t.game.view().clocks.white_ms;
            // 40.: made on the board, not pressed.
            t.play(&sans[78]);
            let view = t.game.view();
            let white = &view.time_control.white;
            assert_eq!(white.moves_completed, 39, "{edition:?} {behaviour:?}");
            assert_eq!(white.move_awaiting_press, Some(40));
            assert_eq!(white.period, 1, "the 40th move is still to complete");
            assert!(!white.control_reached);
            // A counting clock has not added the 30 minutes: no press reached the control.
            assert_eq!(view.clocks.white_ms, white_before);
            let d = t
                .record(RecordedEvent::Flag { side: Side::White })
                .expect("recorded");
            let (result, termination, article) = ended(&d).expect("the game ends");
            assert_eq!(
                (result, termination),
                (GameResult::BlackWins, Termination::Flag)
            );
            assert_eq!(
                article, "6.2.1, 6.2.2, 6.4, 6.9",
                "{edition:?} {behaviour:?}"
            );
            assert!(time_added(&d).is_empty(), "no period is added: {d:?}");
            let reason = d
                .iter()
                .find_map(|e| match e {
                    ServiceEvent::GameEnded { reason, .. } => Some(reason.clone()),
                    _ => None,
                })
                .expect("a reason");
            assert!(
                reason.contains("white's move 40 was on the board but the clock was not pressed")
                    && reason.contains("after 39 completed moves; the period required 40"),
                "{reason}"
            );
        }
    }
}

#[test]
fn given_the_press_that_completes_move_40_when_the_flag_falls_on_a_clock_that_adds_the_period_at_zero_then_the_control_is_reached_and_on_a_counting_clock_the_30_minutes_came_with_the_press()
 {
    let sans = quiet_game(79);
    for edition in EDITIONS {
        // The DGT adds the period at 0:00: the flag after the press is the control (6.4).
        let mut t = fide_standard(ClockBehaviour::DGT_3000_MULTI_PERIOD, edition);
        play_and_press(&mut t, &sans[..79]);
        let white = t.game.view().time_control.white;
        assert_eq!(
            (white.moves_completed, white.move_awaiting_press),
            (40, None)
        );
        assert!(white.control_reached);
        let d = t
            .record(RecordedEvent::Flag { side: Side::White })
            .expect("recorded");
        assert!(ended(&d).is_none(), "{d:?}");
        assert_eq!(
            time_added(&d),
            vec![(Side::White, 30 * MIN), (Side::Black, 30 * MIN)]
        );

        // A counting clock adds the 30 minutes at the press itself, not at the move.
        let mut t = fide_standard(BEHAVIOURS[1], edition);
        play_and_press(&mut t, &sans[..78]);
        t.play(&sans[78]);
        let at_move = t.game.view().clocks.white_ms.expect("a time");
        press(&mut t, Side::White);
        let view = t.game.view();
        assert_eq!(view.clocks.white_ms, Some(at_move + 30 * MIN));
        assert_eq!(view.time_control.white.period, 2);
    }
}

#[test]
fn given_a_move_recorded_with_the_clocks_reading_when_it_is_folded_then_the_reading_is_its_press_and_the_move_is_completed()
 {
    let sans = quiet_game(79);
    let mut t = fide_standard(BEHAVIOURS[1], LawsEdition::Y2023);
    play_and_press(&mut t, &sans[..78]);
    let reading = ClockReading {
        white_ms: Some(10 * MIN),
        black_ms: Some(12 * MIN),
    };
    let seq = t.seq + 1;
    t.game
        .record_with_clock(
            seq,
            &RecordedEvent::Move {
                by: Side::White,
                san: sans[78].clone(),
            },
            Some(&reading),
        )
        .expect("recorded");
    t.seq = seq;
    let white = t.game.view().time_control.white;
    assert_eq!(
        (
            white.moves_completed,
            white.move_awaiting_press,
            white.period
        ),
        (40, None, 2)
    );
}

#[test]
fn given_whites_40th_move_not_pressed_when_black_replies_then_whites_flag_still_loses_and_whites_late_press_or_next_move_completes_it()
 {
    let sans = quiet_game(81);
    for behaviour in BEHAVIOURS {
        // 6.2.2: Black may reply before White presses; the reply does not complete White's
        // move, and the time until the press is still White's.
        let mut t = fide_standard(behaviour, LawsEdition::Y2023);
        play_and_press(&mut t, &sans[..78]);
        t.play(&sans[78]);
        t.play(&sans[79]);
        assert_eq!(
            t.game.view().time_control.white.move_awaiting_press,
            Some(40)
        );
        let mut flagged = t.clone();
        let d = flagged
            .record(RecordedEvent::Flag { side: Side::White })
            .expect("recorded");
        assert_eq!(ended(&d).map(|e| e.0), Some(GameResult::BlackWins));

        // White presses after Black's reply (6.2.2 allows it): the 40th move is completed.
        let mut pressed = t.clone();
        press(&mut pressed, Side::White);
        let white = pressed.game.view().time_control.white;
        assert_eq!(
            (white.moves_completed, white.move_awaiting_press),
            (40, None)
        );

        // 6.2.1.2: White makes the 41st move without having pressed: the 40th is completed
        // by it, the 41st awaits its press.
        t.play(&sans[80]);
        let white = t.game.view().time_control.white;
        assert_eq!(
            (
                white.moves_completed,
                white.move_awaiting_press,
                white.period
            ),
            (40, Some(41), 2),
            "{behaviour:?}"
        );
    }
}

#[test]
fn given_a_move_that_checkmates_when_the_game_ends_then_the_move_is_completed_without_a_press() {
    let mut t = fide_standard(BEHAVIOURS[1], LawsEdition::Y2023);
    play_and_press(&mut t, &["f3".to_string(), "e5".to_string()]);
    t.play("g4");
    let d = t.play("Qh4#");
    assert_eq!(
        ended(&d).map(|e| e.1),
        Some(Termination::Checkmate),
        "{d:?}"
    );
    let view = t.game.view();
    // 6.2.1.1: the mating move is completed; White's g4, followed by Black's reply in a
    // record that shows presses, still awaits its press.
    assert_eq!(view.time_control.black.moves_completed, 2);
    assert_eq!(view.time_control.black.move_awaiting_press, None);
    assert_eq!(view.time_control.white.move_awaiting_press, Some(2));
}

#[test]
fn given_a_record_of_moves_only_when_the_opponent_replies_then_the_reply_is_taken_to_show_the_press_but_the_last_move_awaits_it()
 {
    let sans = quiet_game(80);
    let mut t = fide_standard(ClockBehaviour::DGT_3000_MULTI_PERIOD, LawsEdition::Y2023);
    t.play_all(&sans[..79]);
    let view = t.game.view();
    assert_eq!(
        (
            view.time_control.white.moves_completed,
            view.time_control.white.move_awaiting_press
        ),
        (39, Some(40))
    );
    assert_eq!(
        (
            view.time_control.black.moves_completed,
            view.time_control.black.move_awaiting_press
        ),
        (39, None)
    );
    t.play(&sans[79]);
    let view = t.game.view();
    assert_eq!(view.time_control.white.moves_completed, 40);
    assert_eq!(view.time_control.black.move_awaiting_press, Some(40));
}
