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
