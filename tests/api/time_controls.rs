//! Issue 18 through HTTP: a game's time control in the one-period form, with periods or as a
//! preset, validated with the field named.

use actix_web::test;
use serde_json::{Value, json};

use crate::support::{TestDb, send, standard_game};

fn with_control(control: Value) -> Value {
    let mut settings = standard_game();
    settings["time_control"] = control;
    settings
}

#[actix_web::test]
async fn given_the_old_one_period_form_when_a_game_is_created_then_it_is_accepted_and_stored_as_sent()
 {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let control = json!({"kind": "standard", "base_ms": 5_400_000, "increment_ms": 30_000});
    let (status, body, _) = send(
        &app,
        db.post()
            .uri("/v1/games")
            .set_json(with_control(control.clone())),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["event"]["event"]["time_control"], control);
    assert!(
        body["event"]["event"].get("clock_behaviour").is_none(),
        "the default clock behaviour is not written: {body}"
    );
    db.finish().await;
}

#[actix_web::test]
async fn given_a_control_with_periods_or_a_preset_when_a_game_is_created_then_it_is_stored_with_its_periods()
 {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let periods = json!([
        {"time_ms": 5_400_000, "moves": 40, "bonus": {"mode": "increment", "ms": 30_000}},
        {"time_ms": 1_800_000, "bonus": {"mode": "increment", "ms": 30_000}}
    ]);
    for control in [
        json!({"periods": periods}),
        json!({"kind": "standard", "periods": periods}),
        json!({"preset": "fide_standard"}),
    ] {
        let mut settings = with_control(control.clone());
        settings["clock_behaviour"] =
            json!({"period_time_added": "at_zero_both_clocks", "increment_credit": "before_move"});
        let (status, body, _) = send(&app, db.post().uri("/v1/games").set_json(settings)).await;
        assert_eq!(status, 201, "{control}: {body}");
        let stored = &body["event"]["event"];
        assert_eq!(
            stored["time_control"],
            json!({"kind": "standard", "periods": periods}),
            "{control}"
        );
        assert_eq!(
            stored["clock_behaviour"]["period_time_added"],
            "at_zero_both_clocks"
        );
    }
    db.finish().await;
}

#[actix_web::test]
async fn given_a_control_the_laws_classify_otherwise_or_no_clock_can_run_when_a_game_is_created_then_422_names_the_field()
 {
    let db = TestDb::new().await;
    let app = test::init_service(arbiter::startup::app(db.state())).await;
    let cases = [
        // A 3-minute game entered as standard: blitz by B.1.
        (
            json!({"kind": "standard", "base_ms": 180_000, "increment_ms": 0}),
            "time_control.kind",
            "blitz by B.1",
        ),
        (
            json!({"kind": "rapid", "preset": "fide_standard"}),
            "time_control.kind",
            "standard",
        ),
        (
            json!({"periods": [{"time_ms": 5_400_000, "moves": 0}, {"time_ms": 1_800_000}]}),
            "time_control.periods[0]",
            "0 moves",
        ),
        (
            json!({"periods": [{"time_ms": 5_400_000, "moves": 40}]}),
            "time_control.periods[0]",
            "nothing follows it",
        ),
        (
            json!({"base_ms": 5_400_000, "preset": "fide_standard"}),
            "time_control",
            "mixes forms",
        ),
        (
            json!({"kind": "standard", "base_ms": 0, "increment_ms": 0}),
            "time_control.base_ms",
            "base_ms",
        ),
    ];
    for (control, field, words) in cases {
        let (status, body, _) = send(
            &app,
            db.post()
                .uri("/v1/games")
                .set_json(with_control(control.clone())),
        )
        .await;
        assert_eq!(status, 422, "{control}: {body}");
        assert_eq!(body["field"], field, "{control}: {body}");
        assert!(
            body["detail"].as_str().is_some_and(|d| d.contains(words)),
            "{control}: {body}"
        );
    }
    assert_eq!(db.event_count().await, 0);
    db.finish().await;
}
