//! The typed evidence of rulings (`ClaimEvidence`, `EndEvidence`) keeps the JSON the engine
//! has always written: every log stored by an earlier engine version decodes, and its
//! evidence encodes again to the same JSON, value for value and byte for byte.

use arbiter::game::event::{
    ClaimEvidence, ClaimKind, EndEvidence, Event, RecordedEvent, ServiceEvent, Side,
};
use arbiter::integrity::{canonical_jsonb, verify_export};
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

    // A field this version does not know is kept as stored and written again.
    let mut extra = older.clone();
    extra["arbiter_note"] = json!({"written_by": "another version"});
    let evidence: ClaimEvidence = serde_json::from_value(extra.clone()).expect("decodes");
    assert_eq!(
        evidence.other_fields.get("arbiter_note"),
        Some(&extra["arbiter_note"])
    );
    assert_eq!(serde_json::to_value(&evidence).expect("encodes"), extra);

    let end = json!({"fen": "7k/6Q1/6K1/8/8/8/8/8 b - - 1 50", "halfmove_clock": 1, "move": "Qg7#", "ply": 98, "seen_by": "x"});
    let evidence: EndEvidence = serde_json::from_value(end.clone()).expect("decodes");
    assert_eq!(evidence.san, "Qg7#");
    assert_eq!(evidence.occurrences, None);
    assert_eq!(serde_json::to_value(&evidence).expect("encodes"), end);

    let mut repetition = json!({
        "claim": "repetition", "claimant": "white", "fen": "8/8/8/8/8/8/8/K6k w - - 0 1",
        "side_to_move": "white",
        "near_misses": [{"differs_by": ["castling_rights"], "fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "ply": 2, "castling": "K"}],
    });
    let evidence: ClaimEvidence = serde_json::from_value(repetition.clone()).expect("decodes");
    assert_eq!(
        serde_json::to_value(&evidence).expect("encodes"),
        repetition
    );
    // An optional field absent in an older log stays absent; a new one is decoded.
    repetition["form"] = json!("has_just_appeared");
    let evidence: ClaimEvidence = serde_json::from_value(repetition.clone()).expect("decodes");
    assert_eq!(evidence.form, Some(ClaimForm::HasJustAppeared));
    assert_eq!(
        serde_json::to_value(&evidence).expect("encodes"),
        repetition
    );
}

#[test]
fn every_stored_log_read_through_the_typed_events_exports_a_chain_that_still_verifies() {
    for (path, text) in fixtures() {
        verify_export(&text, None).unwrap_or_else(|e| panic!("{path} verifies as stored: {e}"));
        let mut reencoded = String::new();
        for line in text.lines() {
            let envelope: EventEnvelope = serde_json::from_str(line).expect("the envelope decodes");
            reencoded.push_str(&serde_json::to_string(&envelope).expect("encodes"));
            reencoded.push('\n');
        }
        verify_export(&reencoded, None)
            .unwrap_or_else(|e| panic!("{path} read and written again verifies: {e}"));
    }
}

#[test]
fn a_field_unknown_today_in_stored_evidence_keeps_the_chain_verifiable() {
    // The fivefold fixture's automatic end, as if written with one more field: the hash is
    // the stored one, so only a re-encoding that keeps the field verifies. The line is
    // rehashed the way the database does (canonical jsonb), from the same prefix.
    let (_, text) = fixtures()
        .into_iter()
        .find(|(path, _)| path.ends_with("fivefold.jsonl"))
        .expect("the fivefold fixture");
    let mut lines: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    let last = lines.len() - 1;
    assert_eq!(lines[last]["event"]["type"], "game_ended");
    lines[last]["event"]["evidence"]["seen_by"] = json!("the deputy arbiter");
    let hash = rehash(&lines[last]);
    lines[last]["hash"] = json!(hash);
    let stored: String = lines.iter().map(|line| format!("{line}\n")).collect();
    verify_export(&stored, None).expect("the altered copy is consistent");
    let envelope: EventEnvelope =
        serde_json::from_value(lines[last].clone()).expect("the envelope decodes");
    let Event::Service(ServiceEvent::GameEnded {
        evidence: Some(evidence),
        ..
    }) = &envelope.event
    else {
        panic!("a game_ended with evidence");
    };
    assert_eq!(
        evidence.other_fields.get("seen_by"),
        Some(&json!("the deputy arbiter"))
    );
    let mut reencoded: String = lines[..last]
        .iter()
        .map(|line| format!("{line}\n"))
        .collect();
    reencoded.push_str(&serde_json::to_string(&envelope).expect("encodes"));
    verify_export(&reencoded, None).expect("the typed copy verifies");
}

/// The hash the database gives an exported line after its `prev_hash`.
fn rehash(line: &Value) -> String {
    use sha2::{Digest, Sha256};
    let mut metadata = serde_json::Map::new();
    if !line["clock"].is_null() {
        metadata.insert("clock".into(), line["clock"].clone());
    }
    let input = json!({
        "game_id": line["game_id"],
        "seq": line["seq"],
        "event_id": line["event_id"],
        "type": line["event"]["type"],
        "payload": line["event"],
        "metadata": Value::Object(metadata),
        "recorded_at": line["recorded_at"],
        "occurred_at": line["occurred_at"],
        "recorded_by": line["recorded_by"],
    });
    let mut text = String::new();
    canonical_jsonb(&input, &mut text);
    let mut hasher = Sha256::new();
    hasher.update(hex::decode(line["prev_hash"].as_str().expect("prev_hash")).expect("hex"));
    hasher.update(text.as_bytes());
    hex::encode(hasher.finalize())
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
