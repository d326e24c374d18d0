//! A stored log the engine cannot fold is reported as `CorruptLog`, never folded partly or
//! silently (issue 17): a decision on a claim that was never made, a written move or a square
//! in a ruling that does not read, a touch that names no square. A log the service wrote
//! folds again to the same state.

use arbiter::game::Game;
use arbiter::game::event::{ClaimKind, Event, RecordedEvent, ServiceEvent, Side, TimeControlKind};

use crate::table::{Table, settings};

/// A rejected repetition claim with a written move: Black must play Nf6 (9.5.3).
fn incorrect_claim() -> Table {
    let mut t = Table::with_settings(settings(None, TimeControlKind::Standard));
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"] {
        t.play(san);
    }
    t.record(RecordedEvent::Claim {
        by: Side::Black,
        kind: ClaimKind::Repetition,
        intended_move: Some("Nf6".into()),
    })
    .expect("the claim is recorded");
    t
}

/// Folds `log` into a fresh game; the first error, if any.
fn fold(log: &[(u64, Event)]) -> Result<Game, arbiter::game::CorruptLog> {
    let Event::Service(ServiceEvent::GameCreated(settings)) = &log[0].1 else {
        panic!("the log starts with game_created");
    };
    let mut game = Game::new(settings).expect("valid settings");
    for (seq, event) in log {
        game.apply(*seq, event)?;
    }
    Ok(game)
}

/// The `seq` of the stored `claim_ruled`, and a copy of the log with it changed by `change`.
fn with_ruling_changed(
    t: &Table,
    change: impl Fn(&mut arbiter::game::event::ClaimRuling),
) -> (u64, Vec<(u64, Event)>) {
    let mut log = t.log.clone();
    let (seq, event) = log
        .iter_mut()
        .find(|(_, e)| matches!(e, Event::Service(ServiceEvent::ClaimRuled(_))))
        .expect("a claim_ruled is stored");
    let Event::Service(ServiceEvent::ClaimRuled(ruling)) = event else {
        unreachable!()
    };
    change(ruling);
    (*seq, log)
}

#[test]
fn the_log_of_an_incorrect_claim_folds_again_to_the_same_obligation() {
    let t = incorrect_claim();
    let folded = fold(&t.log).expect("the stored log folds");
    assert_eq!(folded.view(), t.game.view());
    assert_eq!(
        folded.view().obligations.must_play.map(|m| m.san),
        Some("Nf6".to_string())
    );
}

#[test]
fn a_written_move_that_is_not_legal_is_a_corrupt_log() {
    let t = incorrect_claim();
    let (seq, log) = with_ruling_changed(&t, |ruling| ruling.must_play = Some("Qxh7".into()));
    let corrupt = fold(&log).expect_err("must_play Qxh7 cannot be read");
    assert_eq!(corrupt.seq, seq);
    assert!(corrupt.problem.contains("Qxh7"), "{}", corrupt.problem);
}

#[test]
fn a_piece_to_move_that_is_no_square_is_a_corrupt_log() {
    let t = incorrect_claim();
    let (seq, log) = with_ruling_changed(&t, |ruling| {
        ruling.must_play = None;
        ruling.must_move_one_of = Some(vec!["z9".into()]);
    });
    let corrupt = fold(&log).expect_err("z9 is no square");
    assert_eq!(corrupt.seq, seq);
    assert!(corrupt.problem.contains("z9"), "{}", corrupt.problem);
}

#[test]
fn a_ruling_on_an_event_that_is_no_claim_is_a_corrupt_log_and_changes_nothing() {
    let t = incorrect_claim();
    let (seq, log) = with_ruling_changed(&t, |ruling| ruling.claim_seq = 2);
    let mut game = fold(&log[..log.iter().position(|(s, _)| *s == seq).unwrap()])
        .expect("the log before the ruling folds");
    let before = game.view();
    let corrupt = game.apply(seq, &log.iter().find(|(s, _)| *s == seq).unwrap().1);
    assert_eq!(corrupt.expect_err("event 2 is a move").seq, seq);
    assert_eq!(game.view(), before, "the state is unchanged");
}

#[test]
fn a_touch_that_names_no_square_is_a_corrupt_log() {
    let t = Table::with_settings(settings(None, TimeControlKind::Standard));
    let mut log = t.log.clone();
    log.push((
        2,
        Event::Recorded(RecordedEvent::Touch {
            by: Side::White,
            square: "e9".into(),
        }),
    ));
    let corrupt = fold(&log).expect_err("e9 is no square");
    assert_eq!(corrupt.seq, 2);
}
