//! The model's rulings on presets, rates of play and periods, checked by example.

use super::*;
use serde_json::json;

#[test]
fn the_old_one_period_form_reads_as_one_period_and_writes_back_unchanged() {
    let old = json!({"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000});
    let control: TimeControl = serde_json::from_value(old.clone()).expect("reads");
    assert_eq!(control.periods.len(), 1);
    assert_eq!(control.periods[0].bonus, Some(Bonus::increment(30_000)));
    assert_eq!(serde_json::to_value(&control).expect("writes"), old);
}

#[test]
fn a_stored_three_minute_standard_game_still_reads_but_is_refused_for_a_new_game() {
    let old = json!({"kind": "standard", "base_ms": 180_000, "increment_ms": 0});
    let control: TimeControl = serde_json::from_value(old).expect("stored games read");
    assert_eq!(control.kind, TimeControlKind::Standard);
    let error = control.validate().expect_err("contradiction");
    assert!(error.to_string().contains("blitz by B.1"), "{error}");
}

#[test]
fn unknown_fields_are_refused() {
    let wrong = json!({"kind": "rapid", "base_ms": 900_000, "bonus_ms": 10});
    assert!(serde_json::from_value::<TimeControlSpec>(wrong).is_err());
}

#[test]
fn the_increment_from_move_61_falls_on_the_third_period_of_the_title_match_control() {
    let control = Preset::TitleMatch.control();
    assert_eq!(control.bonus_for_move(60), None);
    assert_eq!(control.bonus_for_move(61).map(|b| b.ms), Some(30_000));
    assert_eq!(control.period_of_move(40), 0);
    assert_eq!(control.period_of_move(41), 1);
    assert_eq!(control.period_of_move(61), 2);
    assert_eq!(control.period_of_move(200), 2);
    assert_eq!(control.last_move_of_period(1), Some(60));
    assert_eq!(control.last_move_of_period(2), None);
}

#[test]
fn the_openapi_schemas_carry_their_examples_and_the_preset_names() {
    use utoipa::PartialSchema;
    let spec = serde_json::to_value(TimeControlSpec::schema()).expect("schema");
    assert!(spec.to_string().contains("5400000"), "{spec}");
    let period = serde_json::to_value(Period::schema()).expect("schema");
    assert!(period.to_string().contains("time_ms"), "{period}");
    let presets = serde_json::to_value(Preset::schema()).expect("schema");
    for name in [
        "fide_standard",
        "title_match",
        "rapid_15_plus_10",
        "blitz_3_plus_2",
    ] {
        assert!(presets.to_string().contains(name), "{presets}");
        let preset: Preset = serde_json::from_value(json!(name)).expect("a preset name");
        assert!(Preset::ALL.contains(&preset));
    }
}

#[test]
fn minutes_are_written_for_people() {
    assert_eq!(minutes_text(5_400_000), "1 h 30 min");
    assert_eq!(minutes_text(300_000), "5 min");
    assert_eq!(minutes_text(0), "0 s");
    assert_eq!(minutes_text(150_000), "2 min 30 s");
}
