//! The typed evidence of rulings (`ClaimEvidence`, `EndEvidence`) keeps the JSON the engine
//! has always written: every log stored by an earlier engine version decodes, and its
//! evidence encodes again to the same JSON, value for value and byte for byte.

use arbiter::game::event::{
    ClaimEvidence, ClaimKind, EndEvidence, Event, RecordedEvent, ServiceEvent, Side,
};
use arbiter::rules::evidence::ClaimForm;
use arbiter::store::EventEnvelope;
use serde_json::{Value, json};

use crate::table::{Table, ruling};

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

/// The exact text of the `evidence` object on a stored line, as the fixture holds it.
fn evidence_text(line: &str) -> Option<&str> {
    let key = "\"evidence\":";
    let start = line.find(key)? + key.len();
    let mut values = serde_json::Deserializer::from_str(&line[start..]).into_iter::<Value>();
    values.next()?.ok()?;
    Some(&line[start..start + values.byte_offset()])
}

/// The typed evidence of a decoded event, encoded again.
fn typed_evidence(event: &Event) -> Option<(Value, String)> {
    let encode = |value: Value, text: String| Some((value, text));
    match event {
        Event::Service(ServiceEvent::ClaimRuled(ruling)) => encode(
            serde_json::to_value(&ruling.evidence).expect("claim evidence encodes"),
            serde_json::to_string(&ruling.evidence).expect("claim evidence encodes"),
        ),
        Event::Service(ServiceEvent::GameEnded {
            evidence: Some(evidence),
            ..
        }) => encode(
            serde_json::to_value(evidence).expect("end evidence encodes"),
            serde_json::to_string(evidence).expect("end evidence encodes"),
        ),
        _ => None,
    }
}

#[test]
fn every_stored_log_decodes_and_its_evidence_encodes_again_identically() {
    let mut compared = 0;
    for (path, text) in fixtures() {
        for (number, line) in text.lines().enumerate() {
            let at = format!("{path}:{}", number + 1);
            let stored: Value = serde_json::from_str(line).expect("a JSON line");
            let envelope: EventEnvelope = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{at}: the envelope decodes: {e}"));
            let stored_evidence = &stored["event"]["evidence"];
            match typed_evidence(&envelope.event) {
                Some((value, text)) => {
                    assert_eq!(&value, stored_evidence, "{at}: the same evidence");
                    assert_eq!(
                        Some(text.as_str()),
                        evidence_text(line),
                        "{at}: the same bytes"
                    );
                    compared += 1;
                }
                None => assert!(stored_evidence.is_null(), "{at}: evidence not read"),
            }
        }
    }
    assert!(
        compared >= 4,
        "the fixtures hold evidence to compare ({compared})"
    );
}

#[test]
fn evidence_lacking_fields_or_with_fields_unknown_today_decodes() {
    // A Guidelines III rejection as an engine before `time_control` and
    // `claimant_clock_ms` wrote it.
    let older = json!({
        "claim": "quickplay_finish",
        "claimant": "white",
        "fen": "8/8/4k3/8/8/4K3/8/8 w - - 0 60",
        "increment_ms": 0,
        "quickplay_finish_in_force": false,
        "side_to_move": "white",
    });
    let evidence: ClaimEvidence = serde_json::from_value(older.clone()).expect("decodes");
    assert_eq!(evidence.claim, ClaimKind::QuickplayFinish);
    assert_eq!(evidence.time_control, None);
    assert_eq!(evidence.claimant_clock_ms, None);
    assert_eq!(serde_json::to_value(&evidence).expect("encodes"), older);

    // A field this version does not know is ignored.
    let mut extra = older.clone();
    extra["arbiter_note"] = json!("written by a later version");
    let evidence: ClaimEvidence = serde_json::from_value(extra).expect("decodes");
    assert_eq!(serde_json::to_value(&evidence).expect("encodes"), older);

    let end = json!({"fen": "7k/6Q1/6K1/8/8/8/8/8 b - - 1 50", "halfmove_clock": 1, "move": "Qg7#", "ply": 98, "seen_by": "x"});
    let evidence: EndEvidence = serde_json::from_value(end).expect("decodes");
    assert_eq!(evidence.san, "Qg7#");
    assert_eq!(evidence.occurrences, None);
}

#[test]
fn a_clock_not_read_stays_null_and_an_absent_field_stays_absent() {
    // Guidelines III not announced: the rejection carries the clock as last read, here none.
    let mut t = Table::new(None);
    let d = t
        .record(RecordedEvent::Claim {
            by: Side::White,
            kind: ClaimKind::QuickplayFinish,
            intended_move: None,
        })
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.evidence.claimant_clock_ms, Some(None));
    let wire = serde_json::to_string(&r.evidence).expect("encodes");
    assert_eq!(
        wire,
        r#"{"claim":"quickplay_finish","claimant":"white","claimant_clock_ms":null,"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","increment_ms":0,"quickplay_finish_in_force":false,"side_to_move":"white","time_control":"standard"}"#
    );
    let back: ClaimEvidence = serde_json::from_str(&wire).expect("decodes");
    assert_eq!(back, r.evidence);
}

#[test]
fn a_claim_with_a_written_move_writes_the_evidence_of_9_2_1() {
    let mut t = Table::new(None);
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        t.play(san);
    }
    let d = t
        .record(RecordedEvent::Claim {
            by: Side::Black,
            kind: ClaimKind::Repetition,
            intended_move: Some("Ng8".into()),
        })
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.evidence.form, Some(ClaimForm::IntendedMove));
    assert_eq!(
        serde_json::to_value(&r.evidence).expect("encodes"),
        json!({
            "claim": "repetition",
            "claimant": "black",
            "fen": "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4",
            "fen_after_intended_move": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5",
            "form": "intended_move",
            "halfmove_clock": 7,
            "halfmove_clock_after_intended_move": 8,
            "intended_move": "Ng8",
            "near_misses": [],
            "occurrence_after_intended_move": 8,
            "occurrences": [0, 4],
            "ply": 7,
            "side_to_move": "black",
        })
    );
}
