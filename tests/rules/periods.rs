//! Issue 18 wired into the engine: games with a control of periods, and games stored before
//! periods existed.

use arbiter::game::event::{Event, GameSettings, ServiceEvent};
use arbiter::store::EventEnvelope;
use serde_json::Value;

fn fixtures() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/audit is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "jsonl"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("fixture is readable");
            (path.display().to_string(), text)
        })
        .collect();
    files.sort();
    files
}

/// The exact text of the event object on a stored line.
fn event_text(line: &str) -> &str {
    let key = "\"event\":{\"type\"";
    let start = line.find(key).expect("an event") + "\"event\":".len();
    let mut values = serde_json::Deserializer::from_str(&line[start..]).into_iter::<Value>();
    values.next().expect("a value").expect("JSON");
    &line[start..start + values.byte_offset()]
}

#[test]
fn given_games_stored_before_periods_when_their_game_created_is_read_then_it_encodes_again_byte_for_byte()
 {
    let mut compared = 0;
    for (path, text) in fixtures() {
        for (number, line) in text.lines().enumerate() {
            let at = format!("{path}:{}", number + 1);
            let envelope: EventEnvelope = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{at}: the envelope decodes: {e}"));
            let Event::Service(ServiceEvent::GameCreated(settings)) = &envelope.event else {
                continue;
            };
            assert_eq!(settings.time_control.periods.len(), 1, "{at}: one period");
            assert_eq!(
                serde_json::to_string(&envelope.event).expect("encodes"),
                event_text(line),
                "{at}: the same bytes"
            );
            compared += 1;
        }
    }
    assert!(
        compared >= 7,
        "every fixture has a game_created ({compared})"
    );
}

#[test]
fn given_an_old_one_period_control_stated_against_the_laws_when_a_stored_game_is_read_then_it_keeps_its_kind()
 {
    // A 10-minute game recorded as "standard" by an older engine: refused for a new game
    // (B.1: blitz), read as recorded for a stored one, so that its rulings reproduce.
    let stored = serde_json::json!({
        "white": {"name": "W", "fide_id": null}, "black": {"name": "B", "fide_id": null},
        "event": "E", "round": "1", "board": null, "site": null, "start_fen": null,
        "time_control": {"kind": "standard", "base_ms": 600_000, "increment_ms": 0},
        "laws_edition": "2023",
        "regulations": {"draw_offers": "allowed", "earliest_agreement_move": null,
            "quickplay_finish": false, "incorrect_claim_penalty_ms": null}
    });
    let settings: GameSettings = serde_json::from_value(stored.clone()).expect("reads");
    assert!(arbiter::game::Game::new(&settings).is_ok());
    let error = arbiter::game::settings::validate_new(&settings).expect_err("refused when new");
    assert_eq!(error.field(), "time_control.kind");
    assert_eq!(serde_json::to_value(&settings).expect("encodes"), stored);
}

use arbiter::game::event::{
    ClaimKind, ClaimOutcome, ClockBehaviour, GameResult, LawsEdition, Preset, RecordedEvent, Side,
    Termination, TimeControl, TimeControlKind,
};
use arbiter::interchange::time_control_tag::TimeControlTag;
use shakmaty::{Chess, Position, san::San};

use crate::table::{Table, ended, ruling, settings};

const MIN: u64 = 60_000;
const EDITIONS: [LawsEdition; 2] = [LawsEdition::Y2018, LawsEdition::Y2023];

/// A control read from its PGN tag.
fn control(tag: &str) -> TimeControl {
    let tag: TimeControlTag = tag.parse().expect("a PGN TimeControl");
    tag.to_control()
        .expect("a runnable control")
        .expect("a control")
}

/// A table under `control`, the clocks behaving as `behaviour`, the game in `edition`, with
/// Guidelines III announced.
pub(crate) fn table(
    control: TimeControl,
    behaviour: ClockBehaviour,
    edition: LawsEdition,
) -> Table {
    let mut s = settings(None, TimeControlKind::Standard);
    s.time_control = control;
    s.clock_behaviour = behaviour;
    s.laws_edition = edition;
    s.regulations.quickplay_finish = true;
    Table::with_settings(s)
}

/// `plies` quiet legal moves from the start: no capture while one can be avoided, never a
/// position seen before, never mate or stalemate, so that nothing ends the game.
pub(crate) fn quiet_game(plies: usize) -> Vec<String> {
    let mut position = Chess::default();
    let mut seen = std::collections::HashSet::new();
    seen.insert(position.board().clone().to_string() + &format!("{:?}", position.turn()));
    let mut sans = Vec::new();
    for _ in 0..plies {
        let legal = position.legal_moves();
        let fresh = |m: &shakmaty::Move| {
            let mut next = position.clone();
            next.play_unchecked(*m);
            let key = next.board().clone().to_string() + &format!("{:?}", next.turn());
            (!seen.contains(&key) && !next.is_game_over() && !next.is_insufficient_material())
                .then_some((next, key))
        };
        let (chosen, next, key) = legal
            .iter()
            .filter(|m| !m.is_capture())
            .chain(legal.iter().filter(|m| m.is_capture()))
            .find_map(|m| fresh(m).map(|(next, key)| (*m, next, key)))
            .expect("a quiet move");
        sans.push(San::from_move(&position, chosen).to_string());
        seen.insert(key);
        position = next;
    }
    sans
}

/// Both players make `moves` moves, recorded without presses (a record of moves only:
/// each move counts as completed once the opponent replies).
fn play_moves(t: &mut Table, moves: usize) {
    t.play_all(&quiet_game(2 * moves));
}

/// Both players complete `moves` moves, each move followed by its press (6.2.1), the clock
/// not read.
fn play_moves_pressed(t: &mut Table, moves: usize) {
    for san in quiet_game(2 * moves) {
        let by = t.game.view().side_to_move;
        t.play(&san);
        t.record(RecordedEvent::ClockPress {
            by,
            white_ms: None,
            black_ms: None,
        })
        .expect("the press is recorded");
    }
}

#[test]
fn given_90_40_plus_30_when_whites_flag_falls_during_move_39_then_white_loses_citing_6_4_and_6_9() {
    for edition in EDITIONS {
        for behaviour in [
            ClockBehaviour::default(),
            ClockBehaviour::DGT_3000_MULTI_PERIOD,
        ] {
            let mut t = table(Preset::FideStandard.control(), behaviour, edition);
            play_moves(&mut t, 38);
            let d = t
                .record(RecordedEvent::Flag { side: Side::White })
                .expect("recorded");
            let (result, termination, article) = ended(&d).expect("the game ends");
            assert_eq!(
                (result, termination),
                (GameResult::BlackWins, Termination::Flag)
            );
            assert_eq!(article, "6.4, 6.9", "{edition:?} {behaviour:?}");
        }
    }
}

#[test]
fn given_90_40_plus_30_on_a_clock_that_adds_the_period_at_zero_when_a_flag_falls_after_move_40_then_the_game_goes_on_with_30_minutes_more()
 {
    for edition in EDITIONS {
        let mut t = table(
            Preset::FideStandard.control(),
            ClockBehaviour::DGT_3000_MULTI_PERIOD,
            edition,
        );
        play_moves(&mut t, 40);
        let before = t.game.view().clocks;
        let d = t
            .record(RecordedEvent::Flag { side: Side::White })
            .expect("recorded");
        assert!(ended(&d).is_none(), "no loss: {d:?}");
        let added: Vec<(Side, u64, String)> = d
            .iter()
            .filter_map(|e| match e {
                arbiter::game::event::ServiceEvent::PenaltyApplied {
                    side,
                    add_ms,
                    article,
                    ..
                } => Some((*side, *add_ms, article.clone())),
                _ => None,
            })
            .collect();
        // 6.4: the moves were completed; 6.3.2: the 30 minutes of the second period are
        // added, on both displays (the clock adds them to both at 0:00).
        assert_eq!(added[0], (Side::White, 30 * MIN, "6.4, 6.3.2".to_string()));
        assert_eq!(added[1].0, Side::Black);
        let view = t.game.view();
        assert_eq!(
            view.clocks.white_ms,
            before.white_ms.map(|ms| ms + 30 * MIN)
        );
        assert_eq!(view.time_control.white.period, 2);
        assert!(view.time_control.white.last_period);
        assert_eq!(view.status, arbiter::game::view::GameStatus::InProgress);
    }
}

#[test]
fn given_90_40_plus_30_on_a_counting_clock_when_move_40_is_completed_then_the_view_shows_the_control_reached_and_the_next_period()
 {
    let mut t = table(
        Preset::FideStandard.control(),
        ClockBehaviour::default(),
        LawsEdition::Y2023,
    );
    play_moves(&mut t, 39);
    let view = t.game.view();
    assert_eq!(view.time_control.white.period, 1);
    assert_eq!(view.time_control.white.moves_to_control, Some(1));
    assert_eq!(
        view.time_control.white.if_count_unknown_next_period,
        Some(2)
    );
    t.play_all(&quiet_game(80)[78..]);
    let view = t.game.view();
    // The counting clock added the 30 minutes at the press that completed move 40 (6.3.2).
    assert_eq!(view.time_control.white.period, 2);
    assert_eq!(view.time_control.white.moves_to_control, None);
    assert_eq!(view.clocks.white_ms, Some(90 * MIN + 30 * MIN));
    // A flag now is in the last period: all the remaining moves, so it loses (6.9).
    let d = t
        .record(RecordedEvent::Flag { side: Side::White })
        .expect("recorded");
    assert_eq!(ended(&d).map(|e| e.0), Some(GameResult::BlackWins));
}

#[test]
fn given_a_control_without_increment_when_both_flags_fall_in_the_first_period_the_game_goes_on_and_in_the_last_it_is_drawn_under_both_editions()
 {
    for edition in EDITIONS {
        // First period: III.3.1.1, the game continues, each with the next period's time.
        let mut t = table(control("40/7200:1800"), ClockBehaviour::default(), edition);
        play_moves(&mut t, 20);
        let d = t.record(RecordedEvent::BothFlags {}).expect("recorded");
        assert!(ended(&d).is_none(), "{d:?}");
        assert_eq!(d.len(), 2, "both get 30 minutes: {d:?}");
        for e in &d {
            match e {
                arbiter::game::event::ServiceEvent::PenaltyApplied {
                    add_ms, article, ..
                } => {
                    assert_eq!(*add_ms, 30 * MIN);
                    assert_eq!(article, "III.3.1.1, III.2.2", "{edition:?}");
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(
            t.game.view().status,
            arbiter::game::view::GameStatus::InProgress
        );

        // Last period: III.3.1.2, drawn.
        let mut t = table(control("40/7200:1800"), ClockBehaviour::default(), edition);
        play_moves(&mut t, 41);
        let d = t.record(RecordedEvent::BothFlags {}).expect("recorded");
        let (result, termination, article) = ended(&d).expect("drawn");
        assert_eq!((result, termination), (GameResult::Draw, Termination::Flag));
        assert_eq!(article, "III.3.1.2, III.2.2", "{edition:?}");
    }
}

#[test]
fn given_an_increment_when_both_flags_are_recorded_then_it_is_refused_because_the_clock_shows_which_fell_first()
 {
    let mut t = table(
        Preset::FideStandard.control(),
        ClockBehaviour::default(),
        LawsEdition::Y2023,
    );
    let refusal = t
        .record(RecordedEvent::BothFlags {})
        .expect_err("outside Guidelines III");
    assert!(refusal.to_string().contains("record a `flag`"), "{refusal}");
}

#[test]
fn given_a_control_of_periods_without_increment_when_a_quickplay_finish_is_claimed_before_the_last_period_then_it_is_rejected_citing_iii_1()
 {
    for edition in EDITIONS {
        let mut t = table(control("40/7200:1800"), ClockBehaviour::default(), edition);
        play_moves(&mut t, 10);
        let d = t
            .game
            .record_with_clock(
                t.seq + 1,
                &RecordedEvent::Claim {
                    by: Side::White,
                    kind: ClaimKind::QuickplayFinish,
                    intended_move: None,
                },
                Some(&arbiter::game::event::ClockReading {
                    white_ms: Some(MIN),
                    black_ms: Some(30 * MIN),
                }),
            )
            .expect("recorded");
        t.seq += d.len() as u64 + 1;
        let r = ruling(&d);
        assert_eq!(r.outcome, ClaimOutcome::Rejected);
        assert_eq!(r.article, "III.1, III.2.2", "{edition:?}");
        assert!(r.reason.contains("period 1 of 2"), "{}", r.reason);
    }
    // In the last period the claim awaits the arbiter, as it always did.
    let mut t = table(
        control("40/7200:1800"),
        ClockBehaviour::default(),
        LawsEdition::Y2023,
    );
    play_moves(&mut t, 40);
    let d = t
        .game
        .record_with_clock(
            t.seq + 1,
            &RecordedEvent::Claim {
                by: Side::White,
                kind: ClaimKind::QuickplayFinish,
                intended_move: None,
            },
            Some(&arbiter::game::event::ClockReading {
                white_ms: Some(MIN),
                black_ms: Some(30 * MIN),
            }),
        )
        .expect("recorded");
    assert!(d.is_empty(), "awaits the arbiter: {d:?}");
}

#[test]
fn given_a_standard_period_without_thirty_seconds_when_a_reading_shows_under_five_minutes_then_the_view_says_the_player_need_not_keep_score()
 {
    let mut t = table(
        control("40/7200:1800"),
        ClockBehaviour::default(),
        LawsEdition::Y2023,
    );
    play_moves(&mut t, 10);
    assert!(t.game.view().time_control.white.must_keep_score);
    t.record(RecordedEvent::ClockPress {
        by: Side::Black,
        white_ms: Some(4 * MIN),
        black_ms: Some(60 * MIN),
    })
    .expect("recorded");
    let view = t.game.view();
    assert!(!view.time_control.white.must_keep_score);
    assert_eq!(
        view.time_control.white.scoresheet_article.as_deref(),
        Some("8.4")
    );
    assert!(view.time_control.black.must_keep_score);
}

#[test]
fn given_a_one_period_game_when_a_flag_falls_then_it_is_ruled_as_before_citing_6_9() {
    let mut t = Table::new(None);
    t.play("e4");
    let d = t
        .record(RecordedEvent::Flag { side: Side::Black })
        .expect("recorded");
    let (result, _, article) = ended(&d).expect("ends");
    assert_eq!(result, GameResult::WhiteWins);
    assert_eq!(article, "6.9");
}

#[test]
fn given_a_90_40_plus_30_game_when_it_is_exported_then_the_time_control_tag_has_both_periods_and_the_clock_after_move_40_has_the_added_30_minutes()
 {
    use arbiter::interchange::broadcast::Audience;
    use arbiter::interchange::pgn_export::{ExportedEvent, export_broadcast_pgn, export_pgn};
    let mut t = table(
        Preset::FideStandard.control(),
        ClockBehaviour::default(),
        LawsEdition::Y2023,
    );
    play_moves_pressed(&mut t, 41);
    let log: Vec<ExportedEvent<'_>> = t
        .log
        .iter()
        .map(|(seq, event)| ExportedEvent {
            seq: *seq,
            event,
            clock: None,
        })
        .collect();
    let archive = export_pgn(&log, "2026.11.25").expect("exports");
    assert!(
        archive.contains("[TimeControl \"40/5400+30:1800+30\"]"),
        "{archive}"
    );
    let broadcast = export_broadcast_pgn(&log, "2026.11.25", Audience::Full).expect("exports");
    // No reading was recorded: the clock as the engine keeps it, with the second period
    // added at the press that completed move 40 (6.3.2), so a relay never shows 0:00.
    let after_40 = broadcast
        .split("40. ")
        .nth(1)
        .expect("move 40 is in the movetext");
    let first_clock = after_40
        .split("[%clk ")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("a clock after 40.");
    assert_eq!(first_clock, "2:00:00", "{broadcast}");
    let before_40 = broadcast.split("39. ").nth(1).expect("move 39");
    assert!(before_40.contains("[%clk 1:30:00]"), "{broadcast}");
}

#[test]
fn given_a_90_40_plus_30_game_when_a_stream_snapshot_is_taken_then_it_shows_the_control_the_period_and_the_moves_to_the_control()
 {
    let mut t = table(
        Preset::FideStandard.control(),
        ClockBehaviour::default(),
        LawsEdition::Y2023,
    );
    play_moves(&mut t, 30);
    let snapshot = arbiter::interchange::broadcast::snapshot(uuid::Uuid::nil(), t.seq, &t.game);
    assert_eq!(snapshot.time_control, "40/5400+30:1800+30");
    assert_eq!(snapshot.periods.periods, 2);
    assert_eq!(snapshot.periods.white.period, 1);
    assert_eq!(snapshot.periods.white.moves_to_control, Some(10));
    assert!(!snapshot.periods.white.control_reached);
}

fn move_count(side: Side, moves: Option<u32>) -> RecordedEvent {
    RecordedEvent::ArbiterDecision {
        subject_seq: None,
        decision: arbiter::game::event::ArbiterRuling::MoveCountSet,
        reason: "reconstructed from the scoresheets after the time scramble".into(),
        result: None,
        penalty: None,
        attempted_move: None,
        fen: None,
        increment_ms: None,
        move_count: Some(arbiter::game::event::MoveCount { side, moves }),
        cause: None,
    }
}

#[test]
fn given_moves_left_unrecorded_in_a_scramble_when_the_arbiter_records_the_reconstructed_count_then_the_next_period_is_credited_and_a_flag_is_ruled_on_it()
 {
    for edition in EDITIONS {
        // 90/40+30 on a clock that adds the period at 0:00; 36 moves each on the record,
        // 40 completed by White at the board (8.5: the arbiter reconstructs the count).
        let mut t = table(
            Preset::FideStandard.control(),
            ClockBehaviour::DGT_3000_MULTI_PERIOD,
            edition,
        );
        play_moves(&mut t, 36);
        let refused = t
            .record(move_count(Side::White, Some(30)))
            .expect_err("fewer moves than the record holds");
        assert!(refused.to_string().contains("36"), "{refused}");
        let d = t
            .record(move_count(Side::White, Some(40)))
            .expect("recorded");
        // 6.10.2: the arbiter sets the clock to the count; the 30 minutes of period 2 the
        // clock had not added are credited.
        let credited: Vec<(Side, u64, String)> = d
            .iter()
            .filter_map(|e| match e {
                arbiter::game::event::ServiceEvent::PenaltyApplied {
                    side,
                    add_ms,
                    article,
                    ..
                } => Some((*side, *add_ms, article.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            credited,
            vec![(Side::White, 30 * MIN, "6.10.2".to_string())]
        );
        let view = t.game.view();
        assert_eq!(view.time_control.white.moves_completed, 40);
        assert_eq!(view.time_control.white.period, 2);
        // Black's 36th move is on the board, its press not recorded (6.2.1).
        assert_eq!(view.time_control.black.moves_completed, 35);
        assert_eq!(view.time_control.black.move_awaiting_press, Some(36));
        // A flag now is in the last period: all the remaining moves, so it loses (6.9).
        let d = t
            .record(RecordedEvent::Flag { side: Side::White })
            .expect("recorded");
        assert_eq!(ended(&d).map(|e| e.0), Some(GameResult::BlackWins));
    }
}

#[test]
fn given_a_count_that_cannot_be_established_when_the_arbiter_applies_8_6_then_the_next_move_is_the_first_of_the_next_period_and_its_time_is_credited()
 {
    let mut t = table(
        control("40/7200:1800"),
        ClockBehaviour::default(),
        LawsEdition::Y2023,
    );
    play_moves(&mut t, 35);
    let d = t.record(move_count(Side::Black, None)).expect("recorded");
    let article = d.iter().find_map(|e| match e {
        arbiter::game::event::ServiceEvent::PenaltyApplied {
            side,
            add_ms,
            article,
            ..
        } => Some((*side, *add_ms, article.clone())),
        _ => None,
    });
    assert_eq!(article, Some((Side::Black, 30 * MIN, "8.6".to_string())));
    let view = t.game.view();
    assert_eq!(view.time_control.black.period, 2);
    assert_eq!(view.time_control.black.moves_completed, 40);
    // The next recorded move counts as move 41 of Black, not 36 (on the board, its press
    // not yet recorded: 6.2.1).
    t.play_all(&quiet_game(72)[70..]);
    let black = t.game.view().time_control.black;
    assert_eq!(black.move_awaiting_press, Some(41));
    assert_eq!(black.moves_completed, 40);
    // In the last period 8.6 has no following period.
    let refused = t
        .record(move_count(Side::Black, None))
        .expect_err("last period");
    assert!(refused.to_string().contains("8.6"), "{refused}");
}

use arbiter::game::view::DiscrepancyKind;

const SEC: u64 = 1_000;

/// `by` completes a move (`san`) and presses the clock, which reads `ms` for the mover.
fn move_and_press(t: &mut Table, san: &str, ms: u64) {
    let by = t.game.view().side_to_move;
    t.play(san);
    let (white_ms, black_ms) = match by {
        Side::White => (Some(ms), None),
        Side::Black => (None, Some(ms)),
    };
    t.record(RecordedEvent::ClockPress {
        by,
        white_ms,
        black_ms,
    })
    .expect("recorded");
}

#[test]
fn given_a_counting_clock_under_90_40_plus_30_when_the_reading_after_move_40_lacks_the_30_minutes_then_the_clocks_count_is_behind_the_logs_and_a_flag_during_move_41_does_not_lose()
 {
    for edition in EDITIONS {
        let mut t = table(
            Preset::FideStandard.control(),
            ClockBehaviour::default(),
            edition,
        );
        let sans = quiet_game(82);
        t.play_all(&sans[..78]);
        assert!(t.game.view().time_control.reading_discrepancies.is_empty());
        // White completes move 40; the clock shows 4:10, not the 34:10 a counting clock
        // shows: its counter missed a press and did not add the period (6.10.2).
        move_and_press(&mut t, &sans[78], 4 * MIN + 10 * SEC);
        let view = t.game.view();
        let found = &view.time_control.reading_discrepancies;
        assert_eq!(found.len(), 1, "{found:?}");
        let d = &found[0];
        assert_eq!(d.kind, DiscrepancyKind::ClockCountBehind);
        assert_eq!((d.side, d.moves_completed), (Side::White, 40));
        assert_eq!(d.period_time_added_ms, 30 * MIN);
        assert_eq!(d.bound_ms, 30 * MIN + 30 * SEC);
        assert_eq!(d.seq, t.seq);
        let count = d.clock_count.expect("the clock's count");
        assert_eq!(
            (count.clock_moves, count.clock_period, count.period_to_show),
            (39, 1, 2)
        );
        // The clock is the fact: the reading is kept. The Laws count the log: period 2,
        // while the clock still counts period 1.
        assert_eq!(view.clocks.white_ms, Some(4 * MIN + 10 * SEC));
        assert_eq!(view.time_control.white.period, 2);
        assert_eq!(view.time_control.white.clock_period, 1);
        assert!(view.time_control.white.control_reached);

        // Black replies; White's display reaches 0:00 during move 41: 40 moves were
        // completed, so the flag does not lose; the 30 minutes are added (6.4, 6.3.2, 6.10.2).
        let mut flagged = t.clone();
        move_and_press(&mut flagged, &sans[79], 50 * MIN);
        let d = flagged
            .record(RecordedEvent::Flag { side: Side::White })
            .expect("recorded");
        assert!(ended(&d).is_none(), "{edition:?}: {d:?}");
        let added: Vec<(Side, u64, String)> = d
            .iter()
            .filter_map(|e| match e {
                arbiter::game::event::ServiceEvent::PenaltyApplied {
                    side,
                    add_ms,
                    article,
                    ..
                } => Some((*side, *add_ms, article.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            added,
            vec![(Side::White, 30 * MIN, "6.4, 6.3.2, 6.10.2".to_string())]
        );

        // Or the clock adds the period one press late, at the press of move 41: the reading
        // with the 30 minutes is what it should show, not more than possible.
        move_and_press(&mut t, &sans[79], 50 * MIN);
        move_and_press(&mut t, &sans[80], 33 * MIN);
        let view = t.game.view();
        assert_eq!(view.time_control.reading_discrepancies.len(), 1);
        assert_eq!(view.time_control.white.clock_period, 2);
    }
}

#[test]
fn given_a_one_period_game_when_a_reading_shows_more_than_the_clock_can_or_less_than_the_increment_then_each_is_reported_with_its_bound()
 {
    let mut t = table(
        control("5400+30"),
        ClockBehaviour::default(),
        LawsEdition::Y2023,
    );
    // 1.e4 with the clock at 1:35:00: more than the 1:30:30 it can show after one move.
    move_and_press(&mut t, "e4", 95 * MIN);
    // 1...e5 with 0:00:20 left after the press: below the 30 s increment it added, so Black's
    // display would have reached 0:00 during the move.
    move_and_press(&mut t, "e5", 20 * SEC);
    let found = t.game.view().time_control.reading_discrepancies;
    let summary: Vec<(Side, DiscrepancyKind, u64, u64)> = found
        .iter()
        .map(|d| (d.side, d.kind, d.read_ms, d.bound_ms))
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                Side::White,
                DiscrepancyKind::MoreThanPossible,
                95 * MIN,
                90 * MIN + 30 * SEC
            ),
            (
                Side::Black,
                DiscrepancyKind::DisplayWouldHaveReachedZero,
                20 * SEC,
                30 * SEC
            ),
        ]
    );
}

#[test]
fn given_readings_that_fit_the_dgt_clock_and_an_adjustment_when_they_are_recorded_then_no_discrepancy_is_reported()
 {
    let mut t = table(
        Preset::FideStandard.control(),
        ClockBehaviour::DGT_3000_MULTI_PERIOD,
        LawsEdition::Y2023,
    );
    // The World Cup game's first reading: 1:30:30 before move 1, five seconds used, 30 s for
    // move 2 credited at the press.
    move_and_press(&mut t, "e4", 90 * MIN + 55 * SEC);
    // Black is given two minutes (e.g. 7.5.5 on the floor, entered as an adjustment).
    t.record(RecordedEvent::ClockAdjust {
        side: Side::Black,
        delta_ms: 120_000,
        reason: "two minutes for an illegal move by White".into(),
    })
    .expect("recorded");
    move_and_press(&mut t, "c5", 92 * MIN + 50 * SEC);
    move_and_press(&mut t, "Nf3", 90 * MIN + 25 * SEC);
    let view = t.game.view();
    assert!(
        view.time_control.reading_discrepancies.is_empty(),
        "{:?}",
        view.time_control.reading_discrepancies
    );
    // A third reading a minute above the most White's display can show (1:31:25) does not.
    let mut wrong = table(
        Preset::FideStandard.control(),
        ClockBehaviour::DGT_3000_MULTI_PERIOD,
        LawsEdition::Y2023,
    );
    move_and_press(&mut wrong, "e4", 90 * MIN + 55 * SEC);
    move_and_press(&mut wrong, "c5", 90 * MIN + 50 * SEC);
    move_and_press(&mut wrong, "Nf3", 92 * MIN + 25 * SEC);
    assert_eq!(
        wrong.game.view().time_control.reading_discrepancies.len(),
        1
    );
}
