//! Issue 36, item 2: a game created from a position counts its moves from the FEN's move
//! number (or from the count the arbiter gives when the FEN's number is not the game's), and
//! its clocks from the readings given at creation. The periods (6.3.1, 6.4), the scoresheet
//! duty (8.4) and Guidelines III then count from there, and the PGN export numbers the
//! position and the moves the same way.

use arbiter::game::event::{
    ClockBehaviour, ClockReading, GameResult, LawsEdition, Preset, RecordedEvent, ServiceEvent,
    Side, StartMoves, TimeControlKind,
};
use arbiter::game::settings::validate;
use arbiter::interchange::pgn_export::{ExportedEvent, export_pgn};

use crate::table::{Table, ended, settings};

const MIN: u64 = 60_000;
/// Both sides castled, move 40 with White to move: 39 moves completed by each player.
const AT_MOVE_40: &str = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 40";
/// The same position at move 41 with White to move: 40 completed by each.
const AT_MOVE_41: &str = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 41";
/// The same position written as a study, `0 1`.
const AS_STUDY: &str = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1";

fn from(
    fen: &str,
    behaviour: ClockBehaviour,
    adjust: impl FnOnce(&mut arbiter::game::event::GameSettings),
) -> Table {
    let mut s = settings(Some(fen), TimeControlKind::Standard);
    s.time_control = Preset::FideStandard.control();
    s.clock_behaviour = behaviour;
    s.laws_edition = LawsEdition::Y2023;
    adjust(&mut s);
    Table::with_settings(s)
}

fn move_and_press(t: &mut Table, san: &str, clock: Option<ClockReading>) {
    let by = t.game.view().side_to_move;
    let seq = t.seq + 1;
    let event = RecordedEvent::Move {
        by,
        san: san.to_string(),
    };
    let decisions = t
        .game
        .record_with_clock(seq, &event, clock.as_ref())
        .unwrap_or_else(|r| panic!("{san}: {r}"));
    t.log
        .push((seq, arbiter::game::event::Event::Recorded(event)));
    t.seq = seq;
    for d in decisions {
        t.seq += 1;
        t.log.push((t.seq, arbiter::game::event::Event::Service(d)));
    }
    if clock.is_none() {
        t.record(RecordedEvent::ClockPress {
            by,
            white_ms: None,
            black_ms: None,
        })
        .expect("the press is recorded");
    }
}

#[test]
fn given_a_game_created_at_move_40_when_white_completes_move_40_then_a_counting_clock_adds_the_second_period()
 {
    let mut t = from(AT_MOVE_40, ClockBehaviour::default(), |_| {});
    let view = t.game.view();
    assert_eq!(view.time_control.white.moves_completed, 39);
    assert_eq!(view.time_control.white.moves_to_control, Some(1));
    assert_eq!(view.time_control.white.period, 1);
    let before = view.clocks.white_ms.expect("a time");
    move_and_press(&mut t, "d3", None);
    let view = t.game.view();
    assert_eq!(view.time_control.white.moves_completed, 40);
    assert_eq!(view.time_control.white.period, 2);
    assert!(view.time_control.white.last_period);
    // 6.3.2: the 30 minutes of the second period come with the press (the engine keeps
    // readings and the time it adds, not the increments a running clock adds).
    assert_eq!(view.clocks.white_ms, Some(before + 30 * MIN));
}

#[test]
fn given_a_game_created_at_move_41_with_the_clocks_readings_when_moves_are_recorded_with_fitting_readings_then_no_discrepancy_is_reported_and_the_players_are_in_the_last_period()
 {
    let start = ClockReading {
        white_ms: Some(25 * MIN),
        black_ms: Some(20 * MIN),
    };
    let mut t = from(AT_MOVE_41, ClockBehaviour::default(), |s| {
        s.start_clocks = Some(start.clone());
    });
    let view = t.game.view();
    assert_eq!(view.clocks.white_ms, Some(25 * MIN));
    assert_eq!(view.clocks.black_ms, Some(20 * MIN));
    assert_eq!(view.time_control.white.moves_completed, 40);
    assert_eq!(view.time_control.black.period, 2);
    // 41. d3 in a minute (+30 s), 41... d6 in two minutes (+30 s).
    move_and_press(
        &mut t,
        "d3",
        Some(ClockReading {
            white_ms: Some(24 * MIN + 30_000),
            black_ms: Some(20 * MIN),
        }),
    );
    move_and_press(
        &mut t,
        "d6",
        Some(ClockReading {
            white_ms: Some(24 * MIN + 30_000),
            black_ms: Some(18 * MIN + 30_000),
        }),
    );
    let view = t.game.view();
    assert!(
        view.time_control.reading_discrepancies.is_empty(),
        "{:?}",
        view.time_control.reading_discrepancies
    );
    assert_eq!(view.time_control.white.moves_completed, 41);
    // A flag in the last period loses (6.4, 6.9): no period was skipped.
    let d = t
        .record(RecordedEvent::Flag { side: Side::White })
        .expect("recorded");
    assert_eq!(ended(&d).map(|e| e.0), Some(GameResult::BlackWins));

    // Without the readings, a reading after move 41 with the second period's time on it
    // (90 min + 30 min less the time used) still fits: the periods reached are credited.
    let mut t = from(AT_MOVE_41, ClockBehaviour::default(), |_| {});
    move_and_press(
        &mut t,
        "d3",
        Some(ClockReading {
            white_ms: Some(105 * MIN),
            black_ms: None,
        }),
    );
    assert!(t.game.view().time_control.reading_discrepancies.is_empty());
}

#[test]
fn given_a_game_from_a_position_with_black_to_move_at_move_40_when_black_completes_move_40_and_blacks_flag_falls_on_a_dgt_clock_then_the_control_is_reached()
 {
    // White completed 40 moves (the clock set for period 2), Black 39.
    let fen = "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 b - - 0 40";
    let mut t = from(fen, ClockBehaviour::DGT_3000_MULTI_PERIOD, |_| {});
    let view = t.game.view();
    assert_eq!(
        (
            view.time_control.white.moves_completed,
            view.time_control.black.moves_completed
        ),
        (40, 39)
    );
    assert_eq!(
        (
            view.time_control.white.period,
            view.time_control.black.period
        ),
        (2, 1)
    );
    // Black's flag before the 40th move loses (6.4, 6.9).
    let mut early = Table {
        game: t.game.clone(),
        seq: t.seq,
        log: t.log.clone(),
    };
    let d = early
        .record(RecordedEvent::Flag { side: Side::Black })
        .expect("recorded");
    assert_eq!(ended(&d).map(|e| e.0), Some(GameResult::WhiteWins));
    // After 40... d6 and its press, the control is reached: the DGT adds the period at 0:00.
    move_and_press(&mut t, "d6", None);
    let d = t
        .record(RecordedEvent::Flag { side: Side::Black })
        .expect("recorded");
    assert!(ended(&d).is_none(), "{d:?}");
    assert!(d.iter().any(|e| matches!(
        e,
        ServiceEvent::PenaltyApplied { side: Side::Black, add_ms, .. } if *add_ms == 30 * MIN
    )));
}

#[test]
fn given_a_study_fen_numbered_1_and_the_arbiters_count_of_40_moves_when_the_game_is_exported_then_the_fen_and_the_movetext_carry_move_41()
 {
    let mut t = from(AS_STUDY, ClockBehaviour::default(), |s| {
        s.start_moves_completed = Some(StartMoves {
            white: 40,
            black: 40,
        });
    });
    let view = t.game.view();
    assert_eq!(view.time_control.white.period, 2);
    assert_eq!(view.time_control.black.moves_completed, 40);
    move_and_press(&mut t, "d3", None);
    move_and_press(&mut t, "d6", None);
    let log: Vec<ExportedEvent<'_>> = t
        .log
        .iter()
        .map(|(seq, event)| ExportedEvent {
            seq: *seq,
            event,
            clock: None,
        })
        .collect();
    let pgn = export_pgn(&log, "2026.11.28").expect("exports");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(
        pgn.contains(
            "[FEN \"r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 41\"]"
        ),
        "{pgn}"
    );
    assert!(pgn.contains("41. d3 d6"), "{pgn}");
}

#[test]
fn given_a_count_that_does_not_fit_the_position_or_no_fen_when_the_settings_are_checked_then_start_moves_completed_is_named()
 {
    let mut s = settings(Some(AS_STUDY), TimeControlKind::Standard);
    s.start_moves_completed = Some(StartMoves {
        white: 41,
        black: 40,
    });
    let error = validate(&s).expect_err("White to move: the counts are equal");
    assert_eq!(error.field(), "start_moves_completed");
    assert!(error.to_string().contains("White to move"), "{error}");
    let mut s = settings(None, TimeControlKind::Standard);
    s.start_moves_completed = Some(StartMoves {
        white: 40,
        black: 40,
    });
    let error = validate(&s).expect_err("no FEN");
    assert_eq!(error.field(), "start_moves_completed");
    let mut s = settings(Some(AT_MOVE_41), TimeControlKind::Standard);
    s.start_clocks = Some(ClockReading {
        white_ms: Some(90_000_000),
        black_ms: None,
    });
    assert_eq!(
        validate(&s).expect_err("over a day").field(),
        "start_clocks"
    );
}
