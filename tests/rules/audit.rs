//! The audit of logs written by an older engine version (tests/fixtures/audit): what the
//! decisions decide reproduces; the engine version and the wording are information only.

use arbiter::app::arbitration::stored_events;
use arbiter::game::ENGINE_VERSION;
use arbiter::game::audit::audit_decisions;
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
fn the_old_citation_of_the_scoresheet_symbol_for_an_agreement_is_reported_as_a_divergence() {
    let audited = audit("agreement");
    let accept = audited
        .decisions
        .iter()
        .find(|d| d.cause_type == "draw_accept")
        .expect("the acceptance was audited");
    assert!(!accept.reproduced);
    let stored = accept.stored.as_ref().expect("stored decisions shown");
    let recomputed = accept
        .recomputed
        .as_ref()
        .expect("recomputed decisions shown");
    assert_eq!(stored[0]["article"], "9.1.2.2, 5.2.3");
    assert_eq!(recomputed[0]["article"], "9.1.2.1, 5.2.3");
    assert_eq!(stored[0]["result"], recomputed[0]["result"]);
    assert_eq!(audited.first_divergence, Some(accept.stored_seqs[0]));
}
