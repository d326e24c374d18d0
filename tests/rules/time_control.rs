//! Time controls with periods: validation, the rate of play (A.1, B.1), the period tracker
//! and the rulings that depend on the period (6.4, 6.9, 8.4, 8.6, III.1, III.3.1) under both
//! editions, and the PGN `TimeControl` tag (PGN standard 9.6.1) with the free texts of real
//! files. No database needed.

use arbiter::interchange::time_control_tag::{
    TagError, TagReading, TimeControlTag, describe, read_free_text, read_tag_value, write_tag,
};
use arbiter::rules::laws::{LawsEdition, TimeControlKind};
use arbiter::rules::side::Side;
use arbiter::rules::time_control::articles::{TimeRule, citation};
use arbiter::rules::time_control::tracker::{
    BothFlagsOutcome, ClockBehaviour, FlagOutcome, IncrementCredit, PeriodTimeAdded, PeriodTracker,
};
use arbiter::rules::time_control::{
    Bonus, BonusMode, Period, Preset, TimeControl, TimeControlError, TimeControlSpec,
};
use proptest::prelude::*;
use serde_json::json;

const MIN: u64 = 60_000;
const SEC: u64 = 1000;

fn control(tag: &str) -> TimeControl {
    tag.parse::<TimeControlTag>()
        .expect("a PGN value")
        .to_control()
        .expect("a runnable control")
        .expect("not ? or -")
}

fn spec(value: serde_json::Value) -> TimeControlSpec {
    serde_json::from_value(value).expect("the spec's shape")
}

/// Both players play `moves` moves of `used` each, White first.
fn play(t: &mut PeriodTracker, moves: u32, used: u64) {
    for _ in 0..moves {
        t.press(Side::White, used);
        t.press(Side::Black, used);
    }
}

const COUNTING: ClockBehaviour = ClockBehaviour {
    period_time_added: PeriodTimeAdded::AtControlPress,
    increment_credit: IncrementCredit::AfterPress,
};
const DGT: ClockBehaviour = ClockBehaviour::DGT_3000_MULTI_PERIOD;

// ---------------------------------------------------------------------------------------
// The control and its rate of play.

#[test]
fn every_preset_is_runnable_and_has_the_rate_of_play_its_name_says() {
    let expected = [
        (Preset::FideStandard, TimeControlKind::Standard),
        (Preset::TitleMatch, TimeControlKind::Standard),
        (Preset::Rapid15Plus10, TimeControlKind::Rapid),
        (Preset::Blitz3Plus2, TimeControlKind::Blitz),
    ];
    for (preset, kind) in expected {
        // Given the preset, when it is resolved, then it validates with its rate of play.
        let resolved = preset.control();
        resolved.validate().expect("a preset is runnable");
        assert_eq!(resolved.kind, kind, "{preset:?}");
        // And its PGN tag reads back as the same control and is written the same.
        assert_eq!(write_tag(&resolved).expect("expressible"), preset.pgn());
        assert_eq!(control(preset.pgn()), resolved);
    }
}

#[test]
fn the_rate_of_play_is_the_time_plus_sixty_times_the_increment_by_a1_and_b1() {
    // (tag, kind, time for 60 moves in seconds)
    let table = [
        ("600", TimeControlKind::Blitz, 600), // B.1: "10 minutes or less"
        ("601", TimeControlKind::Rapid, 601), // A.1: "more than 10 minutes"
        ("180+7", TimeControlKind::Blitz, 600),
        ("180+8", TimeControlKind::Rapid, 660),
        ("180+2", TimeControlKind::Blitz, 300),
        ("900+10", TimeControlKind::Rapid, 1500),
        ("3599", TimeControlKind::Rapid, 3599), // A.1: "less than 60 minutes"
        ("3600", TimeControlKind::Standard, 3600),
        ("2999+10", TimeControlKind::Rapid, 3599),
        ("3000+10", TimeControlKind::Standard, 3600),
        // All the periods count: all the moves are completed in their sum.
        ("40/300:300", TimeControlKind::Blitz, 600),
        // An increment that starts with the second period counts for moves 41 to 60 only
        // (the literal "60 times any increment" would say 3600 s, standard; see rate_of).
        ("40/1500:1500+10", TimeControlKind::Rapid, 3200),
        ("40/1500+10:1500+10", TimeControlKind::Standard, 3600),
        ("40/5400+30:1800+30", TimeControlKind::Standard, 9000),
        // The increment from move 61 is given to none of the first 60 moves.
        ("40/7200:20/3600:900+30", TimeControlKind::Standard, 11700),
    ];
    for (tag, kind, seconds) in table {
        let rate = control(tag).rate_of_play();
        assert_eq!(
            (rate.kind, rate.time_for_60_moves_ms),
            (kind, seconds * SEC),
            "{tag}"
        );
    }
}

#[test]
fn the_rate_of_play_cites_a1_for_rapid_b1_for_blitz_and_both_for_standard() {
    for edition in [LawsEdition::Y2018, LawsEdition::Y2023] {
        let cite = |tag: &str| control(tag).rate_of_play().article(edition);
        assert_eq!(cite("900+10"), "A.1");
        assert_eq!(cite("180+2"), "B.1");
        assert_eq!(cite("5400+30"), "A.1, B.1");
    }
}

#[test]
fn a_stated_kind_that_contradicts_the_control_is_refused_with_the_article_that_decides() {
    // Given a 3-minute game stated as standard (accepted before, with standard penalties),
    let three_minutes = spec(json!({"kind": "standard", "base_ms": 180_000, "increment_ms": 0}));
    // when it is validated, then it is refused: it is blitz by B.1.
    let error = three_minutes.validate().expect_err("contradiction");
    assert!(
        matches!(error, TimeControlError::KindContradicts { .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(message.contains("blitz by B.1"), "{message}");
    assert!(message.contains("send kind `blitz`"), "{message}");
    // And 90 minutes stated as rapid is standard (A.1: rapid is less than 60 minutes).
    let ninety = spec(json!({"kind": "rapid", "base_ms": 5_400_000}));
    let message = ninety.validate().expect_err("contradiction").to_string();
    assert!(message.contains("standard by A.1"), "{message}");
    // Without a kind, the kind follows from the control.
    let derived = spec(json!({"base_ms": 180_000, "increment_ms": 2_000}))
        .validate()
        .expect("valid");
    assert_eq!(derived.kind, TimeControlKind::Blitz);
}

#[test]
fn what_no_clock_can_run_is_refused_with_a_message_that_says_what_to_do() {
    let period = |time_ms: u64, moves: Option<u32>| json!({"time_ms": time_ms, "moves": moves});
    // (the spec, a fragment of the message)
    let table = [
        (json!({"periods": []}), "has no period"),
        (json!({}), "gives no time"),
        (
            json!({"base_ms": 60_000, "periods": [period(60_000, None)]}),
            "mixes forms (base_ms, periods)",
        ),
        (
            json!({"increment_ms": 2_000}),
            "`increment_ms` needs `base_ms`",
        ),
        (
            json!({"periods": [period(0, None)]}),
            "period 1 gives no time and no bonus",
        ),
        (
            json!({"periods": [period(5_400_000, None), period(1_800_000, Some(20)), period(60_000, None)]}),
            "period 2 comes after period 1, which is already for the rest of the game",
        ),
        (
            json!({"periods": [period(5_400_000, Some(40))]}),
            "the last period (period 1) requires 40 moves",
        ),
        (
            json!({"periods": [period(5_400_000, Some(0)), period(60_000, None)]}),
            "period 1 requires 0 moves",
        ),
        (
            json!({"periods": [period(5_400_000, Some(201)), period(60_000, None)]}),
            "requires 201 moves",
        ),
        (
            json!({"periods": [period(86_400_001, None)]}),
            "more than 24 hours",
        ),
        (
            json!({"periods": [{"time_ms": 60_000, "bonus": {"mode": "increment", "ms": 3_600_001}}]}),
            "more than an hour",
        ),
        (
            json!({"periods": [{"time_ms": 60_000, "bonus": {"mode": "delay", "ms": 0}}]}),
            "a bonus of 0 ms",
        ),
        (
            json!({"periods": [{"time_ms": 5_400_000, "bonus": {"mode": "increment", "ms": 30_000, "from_move": 301}}]}),
            "starts at move 301, beyond any game",
        ),
        (
            json!({"periods": [
                {"time_ms": 5_400_000, "moves": 40, "bonus": {"mode": "increment", "ms": 30_000, "from_move": 41}},
                {"time_ms": 1_800_000}
            ]}),
            "starts at move 41, but the period covers moves 1 to 40",
        ),
        (
            json!({"periods": [
                {"time_ms": 5_400_000, "moves": 40},
                {"time_ms": 1_800_000, "bonus": {"mode": "increment", "ms": 30_000, "from_move": 1}}
            ]}),
            "starts at move 1, but the period covers moves 41 to the end of the game",
        ),
        (
            json!({"periods": vec![period(60_000, Some(10)); 8].into_iter().chain([period(60_000, None)]).collect::<Vec<_>>()}),
            "9 periods",
        ),
    ];
    for (value, fragment) in table {
        // Given the spec, when it is validated, then the message names the fault.
        let error = spec(value.clone())
            .validate()
            .expect_err("refused")
            .to_string();
        assert!(error.contains(fragment), "{value}: {error}");
    }
}

#[test]
fn the_old_one_period_api_form_is_accepted_unchanged_and_written_back_as_it_came() {
    // Given the README's request body control,
    let old = json!({"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000});
    // when it is validated, then it is one period for the whole game with 30 s from move 1,
    let control = spec(old.clone()).validate().expect("valid");
    assert_eq!(
        control.periods,
        vec![Period {
            time_ms: 5_400_000,
            moves: None,
            bonus: Some(Bonus::increment(30_000)),
        }]
    );
    // and it is stored and shown in the same form.
    assert_eq!(serde_json::to_value(&control).expect("json"), old);
    // A stored game reads back as the same control.
    let stored: TimeControl = serde_json::from_value(old).expect("reads");
    assert_eq!(stored, control);
    // And the one-period form converts losslessly both ways.
    assert_eq!(
        TimeControl::from_legacy(TimeControlKind::Rapid, 900_000, 10_000).as_legacy(),
        Some((TimeControlKind::Rapid, 900_000, 10_000))
    );
}

#[test]
fn a_control_with_periods_or_a_preset_is_written_with_its_periods() {
    // Given the FIDE standard control by its preset name,
    let by_name = spec(json!({"preset": "fide_standard"}))
        .validate()
        .expect("valid");
    // when written, then it carries its two periods and its kind.
    let written = serde_json::to_value(&by_name).expect("json");
    assert_eq!(
        written,
        json!({"kind": "standard", "periods": [
            {"time_ms": 5_400_000, "moves": 40, "bonus": {"mode": "increment", "ms": 30_000}},
            {"time_ms": 1_800_000, "bonus": {"mode": "increment", "ms": 30_000}}
        ]})
    );
    // And that form reads back as the same control.
    let back: TimeControl = serde_json::from_value(written).expect("reads");
    assert_eq!(back, by_name);
    assert_eq!(back, Preset::FideStandard.control());
}

// ---------------------------------------------------------------------------------------
// The period tracker: clocks, increments and delays.

#[test]
fn a_dgt_clock_credits_the_first_increment_before_move_one() {
    // Given 90/40 + 30 + 30 s from move 1 on a DGT 3000,
    let mut t = PeriodTracker::new(Preset::FideStandard.control(), DGT);
    // the clock shows 1:30:30 before the first move,
    assert_eq!(t.display_ms(Side::White), 90 * MIN + 30 * SEC);
    // and after a five-second 1.e4 White's clock reads 1:30:55 (the World Cup 2025 reading).
    let press = t.press(Side::White, 5 * SEC);
    assert_eq!(press.display_ms, 90 * MIN + 55 * SEC);
    // A clock that credits after the press shows 1:30:25 instead.
    let mut after = PeriodTracker::new(Preset::FideStandard.control(), COUNTING);
    assert_eq!(after.display_ms(Side::White), 90 * MIN);
    assert_eq!(
        after.press(Side::White, 5 * SEC).display_ms,
        90 * MIN + 25 * SEC
    );
}

#[test]
fn a_counting_clock_adds_the_second_period_at_the_press_that_completes_move_forty() {
    // Given 90/40 + 30 + 30 s on a clock that counts presses, both players at two minutes a
    // move,
    let mut t = PeriodTracker::new(Preset::FideStandard.control(), COUNTING);
    play(&mut t, 39, 2 * MIN);
    let before = t.display_ms(Side::White);
    assert_eq!(before, 90 * MIN - 39 * (2 * MIN - 30 * SEC));
    // when White completes move 40, then 30 minutes are added with the increment (6.3.2),
    let press = t.press(Side::White, 2 * MIN);
    assert_eq!(press.completed_period, Some(0));
    assert_eq!(press.period_time_ms, 30 * MIN);
    assert_eq!(
        press.display_ms,
        before - 2 * MIN + 30 * SEC + 30 * MIN,
        "[%clk] after move 40 jumps by 30 minutes"
    );
    let status = t.status(Side::White);
    assert_eq!((status.period, status.clock_period), (1, 1));
    assert!(status.last_period);
    assert_eq!(status.moves_to_control, None);
    // while Black, still to complete move 40, is in the first period with one move to go.
    let black = t.status(Side::Black);
    assert_eq!((black.period, black.moves_to_control), (0, Some(1)));
}

#[test]
fn a_dgt_clock_adds_thirty_minutes_to_both_displays_when_black_passes_zero_during_move_41() {
    // Given 90/40 + 30 + 30 s on a DGT 3000 that cannot count moves: Black spends his time
    // and both players complete move 40, then White move 41,
    let mut t = PeriodTracker::new(Preset::FideStandard.control(), DGT);
    for _ in 0..40 {
        t.press(Side::White, 60 * SEC);
        t.press(Side::Black, 150 * SEC);
    }
    t.press(Side::White, 60 * SEC);
    // no period time was added at move 40: the display still counts the first period,
    let black = t.status(Side::Black);
    assert_eq!((black.period, black.clock_period), (1, 0));
    assert!(black.control_reached_on_clock, "the control-reached marker");
    assert_eq!(black.time_left_ms, black.display_ms + 30 * MIN);
    // when Black's display reaches 0:00 during move 41, the arbiter finds 40 moves completed
    // (6.4): no loss, and the 30 minutes appear on both clocks.
    let white_before = t.display_ms(Side::White);
    let flag = t.display_reached_zero(Side::Black);
    assert_eq!(
        flag.outcome,
        FlagOutcome::ControlReached {
            time_added_ms: 30 * MIN,
            added_to_opponent: true
        }
    );
    assert_eq!((flag.moves_completed, flag.moves_required), (40, Some(40)));
    assert_eq!(flag.article(LawsEdition::Y2023), "6.4, 6.3.2");
    assert_eq!(flag.article(LawsEdition::Y2018), "6.4, 6.3.2");
    assert!(
        flag.reason().contains("the control was reached"),
        "{}",
        flag.reason()
    );
    assert_eq!(t.display_ms(Side::Black), 30 * MIN);
    assert_eq!(t.display_ms(Side::White), white_before + 30 * MIN);
    assert_eq!(t.status(Side::White).clock_period, 1);
}

#[test]
fn flags_at_moves_39_40_and_41_are_ruled_by_the_moves_completed_under_both_editions() {
    struct Row {
        /// What happened, for the failure message.
        case: &'static str,
        /// Moves White completed by a press before the flag.
        completed: u32,
        behaviour: ClockBehaviour,
        /// The press count of a counting clock, when it missed one.
        counter: Option<u32>,
        loses: bool,
        article: &'static str,
    }
    let rows = [
        Row {
            case: "flag while playing move 39",
            completed: 38,
            behaviour: DGT,
            counter: None,
            loses: true,
            article: "6.4, 6.9",
        },
        Row {
            case: "move 40 made on the board, clock not pressed (6.2.1)",
            completed: 39,
            behaviour: DGT,
            counter: None,
            loses: true,
            article: "6.4, 6.9",
        },
        Row {
            case: "move 40 made, clock not pressed, counting clock",
            completed: 39,
            behaviour: COUNTING,
            counter: None,
            loses: true,
            article: "6.4, 6.9",
        },
        Row {
            case: "flag during move 41 on a clock that adds the period at 0:00",
            completed: 40,
            behaviour: DGT,
            counter: None,
            loses: false,
            article: "6.4, 6.3.2",
        },
        Row {
            case: "flag during move 41 on a counting clock whose counter missed a press",
            completed: 40,
            behaviour: COUNTING,
            counter: Some(39),
            loses: false,
            article: "6.4, 6.3.2, 6.10.2",
        },
    ];
    for row in rows {
        for edition in [LawsEdition::Y2018, LawsEdition::Y2023] {
            // Given 40/7200:1800 (no increment), White having completed the moves,
            let mut t = PeriodTracker::new(control("40/7200:1800"), row.behaviour);
            for _ in 0..row.completed {
                t.press(Side::White, 3 * MIN);
                t.press(Side::Black, MIN);
            }
            if let Some(counter) = row.counter {
                // the clock's counter shows one press less, so it never added the period,
                t.record_clock_counter(Side::White, counter);
                t.record_reading(Side::White, 0);
            }
            // when White's display reaches 0:00,
            let flag = t.display_reached_zero(Side::White);
            // then the ruling follows the moves completed, citing the edition's articles.
            assert_eq!(
                flag.outcome == FlagOutcome::LossUnlessOpponentCannotMate,
                row.loses,
                "{}: {flag:?}",
                row.case
            );
            assert_eq!(
                flag.article(edition),
                row.article,
                "{} {edition:?}",
                row.case
            );
            if !row.loses {
                assert_eq!(t.display_ms(Side::White), 30 * MIN, "{}", row.case);
                assert_eq!(t.period(Side::White), 1);
            }
        }
    }
}

/// The `[%clk]` readings of Xiong, Jeffery - Li, Yiheng, FIDE World Cup 2025, round 1.2,
/// 1-0 in 53 moves, in move order (White, Black, White, ...), as the lichess.org broadcast
/// gave them (https://lichess.org/broadcast/fide-world-cup-2025--round-1/game-1/t8DzIZPc/
/// vLMnoCct). Its TimeControl tag is the free text in [`WORLD_CUP_TAG`].
pub(crate) const WORLD_CUP_CLOCKS: [&str; 105] = [
    "1:30:55", "1:30:52", "1:31:10", "1:31:14", "1:31:22", "1:31:33", "1:31:37", "1:31:54",
    "1:31:46", "1:32:15", "1:31:51", "1:32:28", "1:32:02", "1:32:39", "1:32:07", "1:32:30",
    "1:32:03", "1:32:14", "1:31:54", "1:32:01", "1:32:18", "1:32:19", "1:32:17", "1:32:16",
    "1:32:11", "1:30:53", "1:32:26", "1:28:18", "1:31:39", "1:22:44", "1:31:26", "1:02:20",
    "1:31:43", "0:53:15", "1:32:02", "0:51:33", "1:29:09", "0:46:22", "1:24:44", "0:40:04",
    "1:16:36", "0:36:27", "1:00:56", "0:33:03", "1:00:52", "0:26:37", "0:51:37", "0:24:56",
    "0:52:03", "0:19:43", "0:48:00", "0:18:03", "0:47:57", "0:11:32", "0:47:32", "0:09:52",
    "0:47:47", "0:06:49", "0:47:16", "0:05:35", "0:47:37", "0:04:45", "0:40:17", "0:05:09",
    "0:40:45", "0:05:29", "0:41:10", "0:03:29", "0:39:42", "0:01:52", "0:39:33", "0:00:55",
    "0:34:25", "0:00:40", "0:34:51", "0:00:38", "0:33:21", "0:00:33", "0:32:21", "0:00:35",
    "0:28:48", "0:17:14", "0:58:08", "0:13:11", "0:52:41", "0:12:15", "0:49:50", "0:04:19",
    "0:44:12", "0:00:34", "0:41:09", "0:00:32", "0:36:42", "0:00:34", "0:35:38", "0:00:33",
    "0:35:51", "0:00:32", "0:33:30", "0:00:33", "0:29:53", "0:00:31", "0:30:07", "0:00:08",
    "0:30:29",
];

/// The TimeControl tag of the World Cup 2025 broadcast, verbatim (with its missing space).
const WORLD_CUP_TAG: &str = ": 90 minutes for the first 40 moves, followed by 30 minutes for \
     the rest of the gamewith an increment of 30 seconds per move starting from move 1";

fn clock_ms(text: &str) -> u64 {
    let parts: Vec<u64> = text
        .split(':')
        .map(|p| p.parse().expect("digits"))
        .collect();
    (parts[0] * 3600 + parts[1] * 60 + parts[2]) * SEC
}

#[test]
fn the_world_cup_2025_broadcast_tag_reads_as_the_fide_standard_control() {
    // Given the free-text tag of a real broadcast, when it is read as a tag value,
    let reading = read_tag_value(WORLD_CUP_TAG).expect("readable");
    // then it is 90/40 + 30 + 30 s from move 1.
    assert_eq!(
        reading,
        TagReading::FreeText(Preset::FideStandard.control())
    );
}

#[test]
fn a_real_world_cup_game_fits_the_dgt_clock_that_adds_the_period_when_a_display_passes_zero() {
    // Given the control of the broadcast and a DGT 3000 in its multi-period mode,
    let mut t = PeriodTracker::new(Preset::FideStandard.control(), DGT);
    let mut zero_events = Vec::new();
    let mut misfits = Vec::new();
    let mut used_times = Vec::new();
    for (index, reading) in WORLD_CUP_CLOCKS.iter().enumerate() {
        let side = if index % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let move_number = (index / 2 + 1) as u32;
        let read = clock_ms(reading);
        let next_increment = t
            .control()
            .bonus_for_move(move_number + 1)
            .map_or(0, |b| b.ms);
        // The time used on the move is what the reading leaves of the display and the next
        // move's increment (the DGT credits it at the press).
        let mut before = t.display_ms(side);
        if before + next_increment < read {
            // More than the display could give: the display passed 0:00 during the move and
            // the clock added the next period (6.4: the arbiter checks the moves).
            zero_events.push((side, move_number, t.display_reached_zero(side)));
            before = t.display_ms(side);
        }
        let used = before + next_increment - read;
        used_times.push(used);
        let press = t.press(side, used);
        let check = t.record_reading(side, read);
        if press.reached_zero {
            misfits.push((
                side,
                move_number,
                reading.to_string(),
                check.difference_ms(),
            ));
        } else {
            assert_eq!(check.difference_ms(), 0, "move {move_number} {side:?}");
        }
    }
    // The first increment was on the clock before move 1: 1.e4 took five seconds.
    assert_eq!(used_times[0], 5 * SEC);
    // The 30 minutes came once, when Black's display passed 0:00 during move 41, after 40
    // completed moves: no loss (6.4), and they appeared on both clocks.
    assert_eq!(zero_events.len(), 1, "{zero_events:?}");
    let (side, move_number, finding) = &zero_events[0];
    assert_eq!((*side, *move_number), (Side::Black, 41));
    assert_eq!(
        finding.outcome,
        FlagOutcome::ControlReached {
            time_added_ms: 30 * MIN,
            added_to_opponent: true
        }
    );
    assert_eq!(
        (finding.moves_completed, finding.moves_required),
        (40, Some(40))
    );
    assert_eq!(finding.article(LawsEdition::Y2023), "6.4, 6.3.2");
    // One reading does not fit: after 52...Re8 Black's clock shows 0:00:08, which with the
    // 30 seconds of move 53 means 53 seconds used out of the 31 Black had. The clock is the
    // fact: the reading is kept, and the model reports that the display would have reached
    // 0:00 and that the reading is 22 seconds below the most it could show (0:00:30).
    assert_eq!(
        misfits,
        vec![(Side::Black, 52, "0:00:08".to_string(), -22_000)]
    );
    assert_eq!(t.display_ms(Side::Black), 8 * SEC);
    // Both players end in the last period.
    assert!(t.is_last_period(Side::White) && t.is_last_period(Side::Black));
}

#[test]
fn a_clock_that_adds_the_period_at_move_forty_would_have_shown_thirty_minutes_more() {
    // Given the same readings up to White's 40th move on a clock that counts presses,
    let behaviour = ClockBehaviour {
        period_time_added: PeriodTimeAdded::AtControlPress,
        increment_credit: IncrementCredit::BeforeMove,
    };
    let mut counting = PeriodTracker::new(Preset::FideStandard.control(), behaviour);
    for (index, reading) in WORLD_CUP_CLOCKS.iter().enumerate().take(78) {
        let side = if index % 2 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let read = clock_ms(reading);
        let used = counting.display_ms(side) + 30 * SEC - read;
        counting.press(side, used);
        counting.record_reading(side, read);
    }
    // when White completes move 40 in the broadcast's 90 seconds,
    let press = counting.press(Side::White, 90 * SEC);
    assert_eq!(press.completed_period, Some(0));
    // then that clock shows 1:02:21 where the broadcast shows 0:32:21: the readings show a
    // clock that did not add the period at move 40.
    let check = counting.record_reading(Side::White, clock_ms(WORLD_CUP_CLOCKS[78]));
    assert_eq!(check.expected_ms, clock_ms("1:02:21"));
    assert_eq!(check.difference_ms(), -(30 * MIN as i64));
}

#[test]
fn a_press_inside_the_delay_keeps_the_main_time() {
    for mode in [BonusMode::Delay, BonusMode::Bronstein] {
        // Given 90 minutes with a 30-second delay,
        let periods = vec![Period {
            time_ms: 90 * MIN,
            moves: None,
            bonus: Some(Bonus {
                mode,
                ms: 30 * SEC,
                from_move: None,
            }),
        }];
        let mut t = PeriodTracker::new(
            TimeControl::from_periods(periods).expect("valid"),
            ClockBehaviour::default(),
        );
        // the delay is not on the clock before the move,
        assert_eq!(t.display_ms(Side::White), 90 * MIN);
        // when White presses after 20 seconds, the main time does not change (6.3.2),
        let press = t.press(Side::White, 20 * SEC);
        assert_eq!(
            (press.charged_ms, press.display_ms),
            (0, 90 * MIN),
            "{mode:?}"
        );
        assert!(press.rules.contains(&TimeRule::TimeSavedCarriesOver));
        // and after 50 seconds it loses the 20 seconds beyond the delay; nothing is saved.
        let press = t.press(Side::Black, 50 * SEC);
        assert_eq!(press.display_ms, 90 * MIN - 20 * SEC, "{mode:?}");
    }
}

#[test]
fn a_simple_delay_flags_later_than_a_bronstein_delay_with_little_main_time_left() {
    let delay = |mode| {
        let periods = vec![Period {
            time_ms: 10 * SEC,
            moves: None,
            bonus: Some(Bonus {
                mode,
                ms: 5 * SEC,
                from_move: None,
            }),
        }];
        PeriodTracker::new(
            TimeControl::from_periods(periods).expect("valid"),
            ClockBehaviour::default(),
        )
    };
    // Given ten seconds of main time and a five-second delay, after 12 seconds on the move:
    // the simple delay waited 5 s, so 7 s came off the main time; the Bronstein display ran
    // all 12 s down from 10 and reached 0:00.
    assert!(!delay(BonusMode::Delay).would_flag(Side::White, 12 * SEC));
    assert!(delay(BonusMode::Bronstein).would_flag(Side::White, 12 * SEC));
    assert!(delay(BonusMode::Delay).would_flag(Side::White, 16 * SEC));
}

#[test]
fn the_title_match_control_gives_the_increment_only_from_move_61() {
    // Given 120/40 + 60/20 + 15 min + 30 s from move 61 on a counting clock,
    let mut t = PeriodTracker::new(Preset::TitleMatch.control(), COUNTING);
    play(&mut t, 40, MIN);
    // after move 40 each has 120 - 40 + 60 minutes and no increment,
    assert_eq!(t.display_ms(Side::White), 140 * MIN);
    play(&mut t, 20, MIN);
    // after move 60, 15 more minutes,
    assert_eq!(t.display_ms(Side::White), 135 * MIN);
    assert_eq!(t.period(Side::White), 2);
    // and move 61 is the first with 30 seconds.
    let press = t.press(Side::White, MIN);
    assert_eq!(press.increment_ms, 30 * SEC);
    assert_eq!(press.display_ms, 134 * MIN + 30 * SEC);
}

#[test]
fn a_reading_that_does_not_fit_is_kept_as_read_and_reported() {
    // Given a rapid game, when the clock reads 14:40 where the model expects 14:55,
    let mut t = PeriodTracker::new(Preset::Rapid15Plus10.control(), ClockBehaviour::default());
    t.press(Side::White, 15 * SEC);
    let check = t.record_reading(Side::White, 14 * MIN + 40 * SEC);
    // then the difference is reported and the reading is the fact from now on.
    assert_eq!(check.expected_ms, 14 * MIN + 55 * SEC);
    assert_eq!(check.difference_ms(), -15_000);
    assert!(check.is_discrepancy(2 * SEC));
    assert!(!check.is_discrepancy(20 * SEC));
    assert_eq!(t.display_ms(Side::White), 14 * MIN + 40 * SEC);
}

// ---------------------------------------------------------------------------------------
// Rulings that depend on the period.

#[test]
fn both_flags_down_in_the_first_period_continue_and_in_the_last_are_drawn_under_both_editions() {
    for edition in [LawsEdition::Y2018, LawsEdition::Y2023] {
        // Given 40/7200:1800 without increment and both flags down, order unknown,
        let mut first = PeriodTracker::new(control("40/7200:1800"), DGT);
        play(&mut first, 40, MIN);
        // in the first period (the DGT clock still counts it): the game continues,
        let finding = first.both_flags_order_unknown();
        assert_eq!(finding.outcome, BothFlagsOutcome::GameContinues);
        assert!(finding.within_guidelines);
        assert!(finding.control_reached.white);
        assert_eq!(finding.article(edition), "III.3.1.1, III.2.2");
        // in the last period: drawn.
        let mut last = PeriodTracker::new(control("40/7200:1800"), COUNTING);
        play(&mut last, 45, MIN);
        let finding = last.both_flags_order_unknown();
        assert_eq!(finding.outcome, BothFlagsOutcome::Drawn);
        assert_eq!(finding.article(edition), "III.3.1.2, III.2.2");
    }
    // With an increment the game is outside Guidelines III (III.2.2).
    let with_increment = PeriodTracker::new(Preset::FideStandard.control(), COUNTING);
    assert!(!with_increment.both_flags_order_unknown().within_guidelines);
    // Flags in different periods are for the arbiter.
    let mut apart = PeriodTracker::new(control("40/7200:1800"), COUNTING);
    play(&mut apart, 39, MIN);
    apart.press(Side::White, MIN);
    assert_eq!(
        apart.both_flags_order_unknown().outcome,
        BothFlagsOutcome::ArbiterDecides
    );
}

#[test]
fn the_quickplay_finish_applies_only_in_the_last_period_without_increment_and_not_in_blitz() {
    // Given 40/7200:1800 without increment,
    let mut t = PeriodTracker::new(control("40/7200:1800"), COUNTING);
    play(&mut t, 39, MIN);
    // before move 40 is completed a III.5 claim is out of scope (III.1),
    let scope = t.quickplay_scope(Side::White);
    assert!(!scope.applies);
    assert_eq!(scope.article(LawsEdition::Y2023), "III.1, III.2.2");
    // and after it, in the last period, it applies.
    t.press(Side::White, MIN);
    assert!(t.quickplay_scope(Side::White).applies);
    assert!(!t.quickplay_scope(Side::Black).applies);
    // Never with an increment, never in blitz.
    let standard = PeriodTracker::new(Preset::FideStandard.control(), COUNTING);
    assert!(!standard.quickplay_scope(Side::White).applies);
    let blitz = PeriodTracker::new(control("300"), COUNTING);
    assert!(!blitz.quickplay_scope(Side::White).applies);
    let rapid = PeriodTracker::new(control("1500"), COUNTING);
    assert!(rapid.quickplay_scope(Side::White).applies);
}

#[test]
fn the_scoresheet_duty_lapses_under_five_minutes_without_thirty_seconds_for_the_rest_of_the_period()
{
    // Given 40/7200:1800 without increment, White at 4:59 before move 40,
    let mut t = PeriodTracker::new(control("40/7200:1800"), COUNTING);
    play(&mut t, 38, MIN);
    assert!(t.scoresheet_duty(Side::White).must_record);
    t.record_reading(Side::White, 4 * MIN + 59 * SEC);
    // then White need not record for the rest of the period (8.4),
    let duty = t.scoresheet_duty(Side::White);
    assert!(!duty.must_record);
    assert_eq!(duty.article(LawsEdition::Y2018), "8.4");
    assert_eq!(duty.article(LawsEdition::Y2023), "8.4");
    // even when a later reading shows more (an arbiter's adjustment),
    t.record_reading(Side::White, 6 * MIN);
    assert!(!t.scoresheet_duty(Side::White).must_record);
    // but from the next period on the duty is back.
    t.press(Side::White, 10 * SEC);
    t.press(Side::White, 10 * SEC);
    assert_eq!(t.period(Side::White), 1);
    assert!(t.scoresheet_duty(Side::White).must_record);
    // Black, who never went under five minutes, always had to record.
    assert!(t.scoresheet_duty(Side::Black).must_record);

    // With 30 seconds a move the duty never lapses.
    let mut fide = PeriodTracker::new(Preset::FideStandard.control(), COUNTING);
    fide.record_reading(Side::White, MIN);
    assert!(fide.scoresheet_duty(Side::White).must_record);
    // A press whose move went under five minutes also counts as "some stage in a period".
    let mut low = PeriodTracker::new(control("40/360:1800"), COUNTING);
    low.press(Side::White, 61 * SEC);
    assert!(!low.scoresheet_duty(Side::White).must_record);
}

#[test]
fn rapid_and_blitz_players_need_not_record_the_moves_under_both_editions() {
    let rapid = PeriodTracker::new(Preset::Rapid15Plus10.control(), COUNTING);
    let blitz = PeriodTracker::new(Preset::Blitz3Plus2.control(), COUNTING);
    let duty = |t: &PeriodTracker, e| {
        let duty = t.scoresheet_duty(Side::White);
        (duty.must_record, duty.article(e))
    };
    assert_eq!(duty(&rapid, LawsEdition::Y2023), (false, "A.2".into()));
    assert_eq!(duty(&blitz, LawsEdition::Y2023), (false, "B.3, A.2".into()));
    assert_eq!(duty(&blitz, LawsEdition::Y2018), (false, "B.4, A.2".into()));
}

#[test]
fn when_the_count_is_unknown_the_next_move_is_the_first_of_the_following_period() {
    // Given 40/7200:1800 on a DGT clock, White flagged with 37 moves on the scoresheets
    // that cannot be brought up to date (neither player kept score under 8.4),
    let mut t = PeriodTracker::new(control("40/7200:1800"), DGT);
    play(&mut t, 37, MIN);
    // when 8.6 is applied, the next move is the first of the second period,
    let ruling = t
        .move_count_unknown(Side::White, None)
        .expect("a following period");
    assert_eq!((ruling.moves_completed, ruling.period), (40, 1));
    assert_eq!(ruling.time_added_ms, 30 * MIN);
    assert_eq!(ruling.article(LawsEdition::Y2023), "8.6");
    assert_eq!(ruling.article(LawsEdition::Y2018), "8.6");
    assert_eq!(t.status(Side::White).clock_period, 1);
    // unless there is evidence that more moves were completed.
    let mut evidence = PeriodTracker::new(control("40/7200:1800"), DGT);
    play(&mut evidence, 37, MIN);
    let ruling = evidence
        .move_count_unknown(Side::White, Some(42))
        .expect("a following period");
    assert_eq!(ruling.moves_completed, 42);
    // In the last period there is no following period.
    let mut last = PeriodTracker::new(control("40/7200:1800"), COUNTING);
    play(&mut last, 41, MIN);
    let error = last
        .move_count_unknown(Side::White, None)
        .expect_err("last period");
    assert!(error.to_string().contains("8.6 does not apply"), "{error}");
}

#[test]
fn every_time_rule_cites_the_same_number_in_both_editions_except_blitz_following_rapid() {
    use TimeRule::*;
    let rules = [
        ClockPressCompletesMove,
        PeriodsSpecifiedInAdvance,
        TimeSavedCarriesOver,
        FlagChecksMoves,
        FlagFall,
        ClockSettingCorrected,
        ScoresheetDutyLapses,
        ScoresheetsUpdatedAfterFlag,
        UnknownMoveCount,
        RapidDefinition,
        RapidNoScoresheet,
        BlitzDefinition,
        QuickplayFinishDefinition,
        GuidelinesScope,
        BothFlagsContinue,
        BothFlagsDrawn,
    ];
    for rule in rules {
        assert_eq!(
            citation(LawsEdition::Y2018, &[rule]),
            citation(LawsEdition::Y2023, &[rule]),
            "{rule:?}"
        );
    }
    assert_eq!(citation(LawsEdition::Y2023, &[BlitzFollowsRapid]), "B.3");
    assert_eq!(citation(LawsEdition::Y2018, &[BlitzFollowsRapid]), "B.4");
}

// ---------------------------------------------------------------------------------------
// The PGN TimeControl tag (PGN standard 9.6.1) and free text.

#[test]
fn every_form_of_the_pgn_standard_is_read_and_written_back_unchanged() {
    // (value, what it reads as in the service, or why not)
    let table: [(&str, Result<&str, &str>); 10] = [
        ("?", Ok("unknown")),
        ("-", Ok("no control")),
        ("40/9000", Err("repeats")),
        ("300", Ok("5 min for the game")),
        (
            "4500+60",
            Ok("1 h 15 min for the game + 1 min a move from move 1"),
        ),
        ("*180", Err("sandclock")),
        (
            "40/9000:1800",
            Ok("2 h 30 min for 40 moves, then 30 min for the rest of the game"),
        ),
        (
            "40/5400+30:1800+30",
            Ok(
                "1 h 30 min for 40 moves + 30 s a move from move 1, then 30 min for the rest \
                 of the game + 30 s a move from move 41",
            ),
        ),
        (
            "40/7200:20/3600:900+30",
            Ok(
                "2 h for 40 moves, then 1 h for 20 moves, then 15 min for the rest of the \
                 game + 30 s a move from move 61",
            ),
        ),
        (
            "900+10",
            Ok("15 min for the game + 10 s a move from move 1"),
        ),
    ];
    for (value, expected) in table {
        // Given the value, when it is read and written, then it is unchanged,
        let tag: TimeControlTag = value.parse().expect("a standard form");
        assert_eq!(tag.to_string(), value);
        // and it reads as the expected control (or is refused with the reason).
        let read = match tag.to_control() {
            Ok(Some(control)) => Ok(describe(&control)),
            Ok(None) if value == "?" => Ok("unknown".to_string()),
            Ok(None) => Ok("no control".to_string()),
            Err(error) => Err(error.to_string()),
        };
        match (read, expected) {
            (Ok(text), Ok(expected)) => assert_eq!(text, expected, "{value}"),
            (Err(error), Err(fragment)) => assert!(error.contains(fragment), "{value}: {error}"),
            (read, expected) => panic!("{value}: read {read:?}, expected {expected:?}"),
        }
        // A control written back gives the same value.
        if let Ok(Some(control)) = tag.to_control() {
            assert_eq!(write_tag(&control).expect("expressible"), value);
        }
    }
}

#[test]
fn malformed_values_are_refused_with_the_forms_of_the_standard() {
    for value in ["40/", "+30", "40/9000:?", "ab", "40//9000", "*", "300+"] {
        let error = value
            .parse::<TimeControlTag>()
            .expect_err(value)
            .to_string();
        assert!(
            error.contains("PGN standard") || error.contains("only descriptor"),
            "{value}: {error}"
        );
    }
    assert_eq!("".parse::<TimeControlTag>(), Err(TagError::Empty));
}

#[test]
fn every_time_control_tag_in_the_real_game_files_reads_round_trips_and_converts() {
    let mut seen = 0;
    for file in ["data/games/lichess-2025-05.pgn", "data/games/twic1599.pgn"] {
        let text = std::fs::read_to_string(crate::shared::shared(file)).expect("readable");
        for line in text.lines() {
            let Some(value) = line
                .strip_prefix("[TimeControl \"")
                .and_then(|rest| rest.strip_suffix("\"]"))
            else {
                continue;
            };
            seen += 1;
            // Given a real value, when it is read, then it is the standard form,
            let tag: TimeControlTag = value.parse().expect(value);
            assert_eq!(tag.to_string(), value);
            // it is not mistaken for the shorthand, and it converts to a runnable control
            // that is written back the same.
            match read_tag_value(value).expect(value) {
                TagReading::Standard(read) => {
                    read.validate().expect(value);
                    // Written back in the canonical form (`600+0` is `600`: no increment),
                    // which reads as the same control.
                    let written = write_tag(&read).expect(value);
                    assert_eq!(control(&written), read, "{value} -> {written}");
                    assert!(
                        written == value || value.ends_with("+0"),
                        "{value} -> {written}"
                    );
                }
                other => panic!("{value}: {other:?}"),
            }
        }
    }
    assert!(
        seen >= 438,
        "the lichess file has a TimeControl per game ({seen})"
    );
}

#[test]
fn real_free_text_controls_are_read_when_they_mean_one_control() {
    // (free text as written in invitations and files, the control as a PGN tag)
    let table = [
        (
            "90 min/40 moves + 30 min, 30 s per move from move 1",
            "40/5400+30:1800+30",
        ),
        ("90+30", "5400+30"),
        ("15 min + 10 sec", "900+10"),
        ("3 min + 2 s", "180+2"),
        (
            "90 minutes for the first 40 moves, then 30 minutes for the rest of the game, with \
             30 seconds added per move from move 1",
            "40/5400+30:1800+30",
        ),
        (
            "120 min/40 moves + 60 min/20 moves + 15 min, 30 s per move from move 61",
            "40/7200:20/3600:900+30",
        ),
        ("90'/40 + 30' + 30''", "40/5400+30:1800+30"),
        ("1h30 + 30s/move", "5400+30"),
        (
            "40 moves in 2 hours, then 1 hour for the rest of the game",
            "40/7200:3600",
        ),
        ("Standard: 90 min. + 30 sec./each move", "5400+30"),
        ("Standard: 100' + 30 \" bonus", "6000+30"),
        (
            "Rapid: 25 minutes for game with 15 seconds increment from move 1",
            "1500+15",
        ),
        ("Standard: 1h + 30''", "3600+30"),
    ];
    for (text, expected) in table {
        // Given the text, when it is read, then it is the expected control.
        let control = read_free_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            write_tag(&control).expect("expressible"),
            expected,
            "{text}"
        );
        // And as a TimeControl value in a file it is read as free text.
        if text != "90+30" {
            assert_eq!(
                read_tag_value(text).expect(text),
                TagReading::FreeText(control),
                "{text}"
            );
        }
    }
}

#[test]
fn a_free_text_increment_from_a_later_move_goes_on_the_period_that_contains_it() {
    // Given 90 minutes for the game with 30 seconds from move 41,
    let control = read_free_text("90 min + 30 s per move from move 41").expect("reads");
    // then the increment starts at move 41 inside the one period,
    assert_eq!(control.bonus_for_move(40), None);
    assert_eq!(control.bonus_for_move(41).map(|b| b.ms), Some(30 * SEC));
    // which the PGN tag cannot say.
    let error = write_tag(&control)
        .expect_err("not expressible")
        .to_string();
    assert!(error.contains("starts at move 41"), "{error}");
}

#[test]
fn ambiguous_controls_are_reported_with_both_readings() {
    // (text, a fragment of the reason)
    let table = [
        (
            "90 min/40 + 30",
            "30 minutes for the rest of the game or 30 seconds a move",
        ),
        ("40 in 90, all in 30", "has no unit"),
        ("90 min + 30", "`30` has no unit"),
        ("G/90;inc30", "gives no time"),
        (
            "90 min + 30 min",
            "only the last can be for the rest of the game",
        ),
        ("90 min + 30 s + 10 s delay", "two per-move bonuses"),
        ("90 min/40 moves", "requires 40 moves and nothing follows"),
        ("fast", "no period of time"),
    ];
    for (text, fragment) in table {
        let error = read_free_text(text).expect_err(text).to_string();
        assert!(error.contains(fragment), "{text}: {error}");
    }
    // A value the standard reads in seconds but people write in minutes.
    for (value, fragment) in [
        ("90+30", "90 seconds plus 30 seconds a move"),
        ("15+10", "write `900+10`"),
        ("40/90", "40 moves in 90 minutes"),
    ] {
        let error = read_tag_value(value).expect_err(value).to_string();
        assert!(error.contains("ambiguous"), "{value}: {error}");
        assert!(error.contains(fragment), "{value}: {error}");
    }
    // The lichess ultrabullet and bullet values stay standard.
    for value in ["15+0", "60+0", "120+1", "180+2"] {
        assert!(matches!(
            read_tag_value(value).expect(value),
            TagReading::Standard(_)
        ));
    }
}

#[test]
fn a_delay_has_no_pgn_form_and_says_so() {
    let periods = vec![Period {
        time_ms: 90 * MIN,
        moves: None,
        bonus: Some(Bonus {
            mode: BonusMode::Delay,
            ms: 5 * SEC,
            from_move: None,
        }),
    }];
    let control = TimeControl::from_periods(periods).expect("valid");
    let error = write_tag(&control).expect_err("delay").to_string();
    assert!(error.contains("simple delay"), "{error}");
    // A delay read from free text.
    let read = read_free_text("90 min + 5 s delay").expect("reads");
    assert_eq!(read, control);
}

// ---------------------------------------------------------------------------------------
// Properties.

/// A runnable control expressible as a PGN tag: 1 to 4 periods of whole seconds, each but
/// the last with a number of moves, each with or without an increment from its first move.
fn tag_controls() -> impl Strategy<Value = TimeControl> {
    prop::collection::vec((1u64..=7200, 1u32..=60, 0u64..=60), 1..=4).prop_map(|raw| {
        let last = raw.len() - 1;
        let periods = raw
            .into_iter()
            .enumerate()
            .map(|(index, (seconds, moves, increment))| Period {
                time_ms: seconds * SEC,
                moves: (index < last).then_some(moves),
                bonus: (increment > 0).then_some(Bonus::increment(increment * SEC)),
            })
            .collect();
        TimeControl::from_periods(periods).expect("runnable by construction")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn every_expressible_control_round_trips_through_the_tag_and_json(control in tag_controls()) {
        // Given a control, when its tag is written and read back, then it is the same control,
        let tag = write_tag(&control).expect("expressible");
        let back: TimeControlTag = tag.parse().expect("a standard value");
        prop_assert_eq!(back.to_string(), tag.clone());
        prop_assert_eq!(back.to_control().expect("runnable"), Some(control.clone()));
        // its JSON reads back the same and validates with its derived kind,
        let json = serde_json::to_value(&control).expect("json");
        let read: TimeControl = serde_json::from_value(json).expect("reads");
        prop_assert_eq!(&read, &control);
        prop_assert!(read.validate().is_ok());
        // and the rate of play is the one A.1 and B.1 give for its time for 60 moves.
        let rate = control.rate_of_play();
        let expected = if rate.time_for_60_moves_ms <= 600_000 {
            TimeControlKind::Blitz
        } else if rate.time_for_60_moves_ms < 3_600_000 {
            TimeControlKind::Rapid
        } else {
            TimeControlKind::Standard
        };
        prop_assert_eq!(rate.kind, expected);
    }

    #[test]
    fn a_counting_clock_shows_the_periods_and_increments_given_less_the_time_used(
        control in tag_controls(),
        used in prop::collection::vec(0u64..=20 * SEC, 1..120),
    ) {
        // Given a counting clock that credits after the press, when White completes moves
        // without reaching 0:00,
        let mut t = PeriodTracker::new(control.clone(), COUNTING);
        let mut given = control.periods[0].time_ms;
        let mut spent = 0;
        for (index, &used_ms) in used.iter().enumerate() {
            if t.would_flag(Side::White, used_ms) {
                break;
            }
            let number = index as u32 + 1;
            given += control.bonus_for_move(number).map_or(0, |b| b.ms);
            if let Some(period) = t.press(Side::White, used_ms).completed_period {
                given += control.periods.get(period + 1).map_or(0, |p| p.time_ms);
            }
            spent += used_ms;
            // then the display is everything the control gave so far less the time used
            // (6.3.1, 6.3.2), and the period is the one of the next move.
            prop_assert_eq!(t.display_ms(Side::White), given - spent);
            prop_assert_eq!(t.period(Side::White), control.period_of_move(number + 1));
        }
    }
}
