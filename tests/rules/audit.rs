//! The audit of logs written by an older engine version (tests/fixtures/audit): what the
//! decisions decide reproduces; the engine version, the citation and the wording are
//! information only.

use arbiter::app::arbitration::stored_events;
use arbiter::game::ENGINE_VERSION;
use arbiter::game::audit::{AuditVerdict, audit_decisions};
use arbiter::store::EventEnvelope;

fn fixture(name: &str) -> Vec<EventEnvelope> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/audit")
        .join(format!("{name}.jsonl"));
    let text = std::fs::read_to_string(&path).expect("fixture is readable");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("an envelope per line"))
        .collect()
}

fn audit(name: &str) -> arbiter::game::audit::DecisionsAudit {
    let events = fixture(name);
    audit_decisions(&stored_events(&events))
}

const REPRODUCING: &[&str] = &[
    "repetition-claim-upheld",
    "written-move-claim-rejected",
    "rapid-claim-and-resignation",
    "fivefold",
    "illegal-moves",
    "touch-correction-flag",
];

#[test]
fn logs_written_by_the_previous_engine_version_reproduce() {
    assert_ne!(
        ENGINE_VERSION, "arbiter-rules 0.1.0",
        "the fixtures were written by 0.1.0; this test is about an older version"
    );
    for name in REPRODUCING {
        let audited = audit(name);
        assert_eq!(
            audited.first_divergence, None,
            "{name} reproduces: {:#?}",
            audited.decisions
        );
        assert!(
            audited.decisions.iter().any(|d| !d.stored_seqs.is_empty()),
            "{name} has decisions to check"
        );
    }
}

#[test]
fn an_older_engine_version_is_reported_as_information_not_as_a_divergence() {
    let audited = audit("written-move-claim-rejected");
    let claim = audited
        .decisions
        .iter()
        .find(|d| d.cause_type == "claim")
        .expect("the claim was audited");
    assert!(claim.reproduced);
    assert!(
        claim
            .notes
            .iter()
            .any(|n| n.contains("arbiter-rules 0.1.0") && n.contains(ENGINE_VERSION)),
        "{:?}",
        claim.notes
    );
}

#[test]
fn reasons_worded_differently_today_are_noted_and_still_reproduce() {
    let audited = audit("illegal-moves");
    let first = audited
        .decisions
        .iter()
        .find(|d| d.cause_type == "illegal_move")
        .expect("the first illegal move was audited");
    assert!(first.reproduced, "{first:?}");
    assert!(
        first.notes.iter().any(|n| n.contains("worded differently")),
        "{:?}",
        first.notes
    );
}

#[test]
fn the_old_citation_of_the_scoresheet_symbol_for_an_agreement_is_a_note_not_a_difference() {
    let audited = audit("agreement");
    let accept = audited
        .decisions
        .iter()
        .find(|d| d.cause_type == "draw_accept")
        .expect("the acceptance was audited");
    assert!(accept.reproduced, "{accept:#?}");
    assert_eq!(audited.first_divergence, None);
    assert_eq!(
        accept.stored_engine_version.as_deref(),
        Some("arbiter-rules 0.1.0")
    );
    assert!(
        accept
            .notes
            .iter()
            .any(|n| n.contains("arbiter-rules 0.1.0 citing 9.1.2.2, 5.2.3")
                && n.contains(&format!("{ENGINE_VERSION} cites 9.1.2.1, 5.2.3"))),
        "{:?}",
        accept.notes
    );
    assert!(accept.stored.is_none() && accept.recomputed.is_none());
}

#[test]
fn every_fixture_written_by_the_previous_engine_version_reproduces() {
    for name in REPRODUCING.iter().chain(&["agreement"]) {
        let events = fixture(name);
        let audited = audit_decisions(&stored_events(&events));
        assert_eq!(
            AuditVerdict::of(true, audited.first_divergence),
            AuditVerdict::Reproduced,
            "{name}: {:#?}",
            audited.decisions
        );
    }
}

#[test]
fn a_decision_decided_differently_is_ruled_differently_and_an_altered_chain_is_tampered() {
    // Make the stored acceptance decide something else: a different result.
    let mut events = fixture("agreement");
    let ended = events
        .iter_mut()
        .find(|e| e.event.type_name() == "game_ended")
        .expect("the agreement ended the game");
    let mut value = serde_json::to_value(&ended.event).expect("serialises");
    value["result"] = serde_json::json!("1-0");
    ended.event = serde_json::from_value(value).expect("still an event");
    let audited = audit_decisions(&stored_events(&events));
    let differing = audited
        .decisions
        .iter()
        .find(|d| !d.reproduced)
        .expect("the altered decision is named");
    assert_eq!(
        differing.stored_engine_version.as_deref(),
        Some("arbiter-rules 0.1.0")
    );
    assert_eq!(
        AuditVerdict::of(true, audited.first_divergence),
        AuditVerdict::RuledDifferently
    );
    assert_eq!(
        AuditVerdict::of(false, audited.first_divergence),
        AuditVerdict::Tampered
    );
    assert_eq!(AuditVerdict::of(false, None), AuditVerdict::Tampered);
    assert_eq!(
        serde_json::to_value(AuditVerdict::RuledDifferently).unwrap(),
        "ruled_differently"
    );
}
