//! The arbiter's words for a game's events (`arbiter::game::narration`): names and numbered
//! moves, never a `seq`, a UUID or an API name.

use arbiter::game::narration::Narrator;
use arbiter::store::EventEnvelope;

fn fixture(name: &str) -> Vec<EventEnvelope> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/audit")
        .join(format!("{name}.jsonl"));
    std::fs::read_to_string(path)
        .expect("fixture is readable")
        .lines()
        .map(|line| serde_json::from_str(line).expect("an envelope per line"))
        .collect()
}

/// Every event of the log told by a narrator made from the whole log.
fn told(name: &str) -> Vec<String> {
    let log = fixture(name);
    let narrator = Narrator::for_log(log.iter().map(|e| (e.seq, &e.event)));
    log.iter()
        .map(|e| narrator.sentence(Some(e.seq), &e.event))
        .collect()
}

fn assert_no_internals(sentences: &[String]) {
    for sentence in sentences {
        assert!(!sentence.contains('#'), "no seq: {sentence}");
        assert!(!sentence.contains("seq"), "no seq: {sentence}");
        assert!(
            !sentence.split_whitespace().any(|w| w.contains('_')),
            "no API name: {sentence}"
        );
    }
}

#[test]
fn given_a_repetition_claim_when_told_then_the_ruling_names_the_claimant_and_the_move_it_followed()
{
    let sentences = told("repetition-claim-upheld");
    assert_eq!(sentences[1], "White, W plays 1. Nf3");
    assert_eq!(sentences[2], "Black, B plays 1... Nf6");
    assert_eq!(sentences[8], "Black, B plays 4... Ng8");
    assert_eq!(
        sentences[9],
        "White, W claims a draw by threefold repetition (9.2)"
    );
    assert!(
        sentences[10].starts_with("White, W's claim after 4... Ng8 is upheld (9.2.2): "),
        "{}",
        sentences[10]
    );
    assert!(
        sentences[11].starts_with("Game over, ½-½ by a repetition claim (9.2.2)"),
        "{}",
        sentences[11]
    );
    assert_no_internals(&sentences);
}

#[test]
fn given_a_correction_when_told_then_it_names_what_it_retracted_and_the_moves_keep_their_numbers() {
    let sentences = told("touch-correction-flag");
    assert_eq!(sentences[3], "White, W touches the piece on g1 (4.3)");
    assert!(
        sentences[4].starts_with("Correction: White, W's touch after 1... e5 is retracted"),
        "{}",
        sentences[4]
    );
    assert_eq!(sentences[5], "White, W plays 2. d4");
    assert_eq!(sentences[6], "Black, B's flag falls");
    assert_no_internals(&sentences);
}

#[test]
fn given_an_illegal_move_when_told_then_it_cites_7_5_and_the_penalty_reads_as_time_added() {
    let sentences = told("illegal-moves");
    assert!(
        sentences[3].starts_with("An illegal move by White, W") && sentences[3].contains("(7.5)"),
        "{}",
        sentences[3]
    );
    assert!(
        sentences[4].starts_with("2 minutes added to Black, B's clock (7.5.5)"),
        "{}",
        sentences[4]
    );
    assert_no_internals(&sentences);
}

#[test]
fn given_no_log_when_a_move_is_told_then_it_reads_without_number_and_a_reference_is_generic() {
    let narrator = Narrator::with_names("Carlsen", "");
    let event =
        serde_json::from_value(serde_json::json!({"type": "move", "by": "black", "san": "Nf6"}))
            .unwrap();
    assert_eq!(narrator.sentence(None, &event), "Black plays Nf6");
    assert_eq!(narrator.reference(12), "an earlier event");
    assert_eq!(narrator.position_after_ply(0), "the starting position");
}
