//! Every case of shared/cases/article9-cases.json, one test per id (named after it).

use arbiter::game::event::{
    ArbiterRuling, ClaimKind, ClaimOutcome, GameResult, LawsEdition, RecordedEvent, ServiceEvent,
    Side, Termination, TimeControlKind,
};

use arbiter::rules::evidence::PositionDifference;

use crate::table::{Table, TurnOf, all_cases, case, ended, ruling, settings};

fn penalty(decisions: &[ServiceEvent]) -> Option<(Side, u64)> {
    decisions.iter().find_map(|d| match d {
        ServiceEvent::PenaltyApplied { side, add_ms, .. } => Some((*side, *add_ms)),
        _ => None,
    })
}

fn claim(by: Side, kind: ClaimKind, intended: Option<&str>) -> RecordedEvent {
    RecordedEvent::Claim {
        by,
        kind,
        intended_move: intended.map(str::to_string),
    }
}

const COVERED: &[&str] = &[
    "REP-01", "REP-02", "REP-04", "REP-07", "REP-09", "REP-12", "REP-15", "REP-17", "FIF-01",
    "FIF-02", "FIF-05", "SEV-02", "DEAD-01", "DEAD-04", "DEAD-05", "DEAD-07", "DEAD-11", "ILL-01",
    "OFF-01", "OFF-02", "QPF-02", "CLM-01",
];

#[test]
fn every_case_in_the_file_has_a_test() {
    for c in all_cases() {
        let id = c["id"].as_str().expect("id");
        assert!(
            COVERED.contains(&id),
            "case {id} has no test in tests/rules/cases.rs"
        );
    }
}

#[test]
fn rep_01_threefold_that_has_just_appeared_is_upheld_for_the_player_to_move() {
    let mut t = Table::from_case("REP-01", TimeControlKind::Standard);
    let d = t
        .record(claim(Side::White, ClaimKind::Repetition, None))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Upheld, "{}", r.reason);
    assert_eq!(r.article, "9.2.2");
    assert_eq!(r.evidence.occurrences, Some(vec![0, 4, 8]));
    assert_eq!(
        ended(&d).map(|e| (e.0, e.1)),
        Some((GameResult::Draw, Termination::RepetitionClaim))
    );
    let positions = t.game.positions();
    assert_eq!(positions[0].plies, vec![0, 4, 8]);
    assert_eq!(positions.len(), 4);
}

#[test]
fn rep_01_in_the_2018_edition_cites_9_2_1_2() {
    let c = case("REP-01");
    let mut s = settings(None, TimeControlKind::Standard);
    s.laws_edition = LawsEdition::Y2018;
    let mut t = Table::with_settings(s);
    t.play_all(&c.sans);
    let d = t
        .record(claim(Side::White, ClaimKind::Repetition, None))
        .expect("recorded");
    assert_eq!(ruling(&d).article, "9.2.1.2");
}

#[test]
fn rep_02_intended_move_making_the_third_occurrence_is_upheld_without_playing_it() {
    let mut t = Table::from_case("REP-02", TimeControlKind::Standard);
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, Some("Ng8")))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Upheld, "{}", r.reason);
    assert_eq!(r.article, "9.2.1");
    assert_eq!(t.game.view().ply, 7, "the written move is not played");
    assert_eq!(t.game.view().result, Some(GameResult::Draw));
}

#[test]
fn rep_04_intended_move_giving_only_a_second_occurrence_is_rejected_and_must_be_played() {
    let mut t = Table::from_case("REP-04", TimeControlKind::Standard);
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, Some("Nf6")))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Rejected, "{}", r.reason);
    assert_eq!(r.must_play.as_deref(), Some("Nf6"));
    assert_eq!(penalty(&d), Some((Side::White, 120_000)));
    assert_eq!(t.game.view().clocks.white_ms, Some(5_400_000 + 120_000));
    let refused = t
        .record(RecordedEvent::Move {
            by: Side::Black,
            san: "e5".into(),
        })
        .expect_err("must play Nf6");
    assert_eq!(refused.code(), "must_play_obligation");
    t.play("Nf6");
    assert!(t.game.view().obligations.must_play.is_none());
}

#[test]
fn rep_07_pinned_en_passant_pawn_does_not_make_positions_differ() {
    let mut t = Table::from_case("REP-07", TimeControlKind::Standard);
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, None))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Upheld, "{}", r.reason);
    assert_eq!(r.evidence.occurrences, Some(vec![1, 5, 9]));
}

#[test]
fn rep_09_castling_rights_forfeited_make_earlier_positions_differ() {
    let c = case("REP-09");
    let mut t = Table::new(None);
    t.play_all(&c.sans[..10]);
    let d = t
        .record(claim(Side::White, ClaimKind::Repetition, None))
        .expect("claim A recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Rejected, "{}", r.reason);
    assert_eq!(penalty(&d), Some((Side::Black, 120_000)));
    assert!(
        r.evidence.near_misses.iter().flatten().any(|miss| miss
            .differs_by
            .contains(&PositionDifference::CastlingRights)),
        "evidence names castling rights: {:?}",
        r.evidence.near_misses
    );
    t.play_all(&c.sans[10..]);
    let d = t
        .record(claim(Side::White, ClaimKind::Repetition, None))
        .expect("claim B recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Upheld, "{}", r.reason);
    assert_eq!(r.evidence.occurrences, Some(vec![6, 10, 14]));
}

#[test]
fn rep_12_same_placement_with_the_other_side_to_move_is_not_the_same_position() {
    let mut t = Table::from_case("REP-12", TimeControlKind::Standard);
    let d = t
        .record(claim(Side::White, ClaimKind::Repetition, None))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Rejected, "{}", r.reason);
    assert_eq!(r.evidence.occurrences, Some(vec![0, 12]));
    assert!(
        r.evidence
            .near_misses
            .iter()
            .flatten()
            .any(|miss| miss.differs_by.contains(&PositionDifference::SideToMove))
    );
    assert_eq!(penalty(&d), Some((Side::Black, 120_000)));
}

#[test]
fn rep_15_fivefold_repetition_ends_the_game_and_later_events_are_void() {
    let c = case("REP-15");
    let mut t = Table::new(None);
    t.play_all(&c.sans[..15]);
    assert!(!t.game.is_over());
    let d = t.play(&c.sans[15]);
    assert_eq!(
        ended(&d),
        Some((
            GameResult::Draw,
            Termination::FivefoldRepetition,
            "9.6.1".into()
        ))
    );
    let flag = t
        .record(RecordedEvent::Flag { side: Side::White })
        .expect_err("void");
    assert_eq!(flag.code(), "game_over");
    let mv = t
        .record(RecordedEvent::Move {
            by: Side::White,
            san: "e4".into(),
        })
        .expect_err("void");
    assert_eq!(mv.code(), "game_over");
}

#[test]
fn rep_17_incorrect_claim_accepted_as_a_draw_offer_ends_by_agreement() {
    let mut t = Table::from_case("REP-17", TimeControlKind::Standard);
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, None))
        .expect("recorded");
    assert_eq!(
        ruling(&d).outcome,
        ClaimOutcome::Rejected,
        "{}",
        ruling(&d).reason
    );
    let d = t
        .record(RecordedEvent::DrawAccept { by: Side::White })
        .expect("accepted");
    let (result, termination, article) = ended(&d).expect("ended");
    assert_eq!(
        (result, termination),
        (GameResult::Draw, Termination::Agreement)
    );
    assert!(article.contains("9.1.2.3"), "{article}");
    let clocks = t.game.view().clocks;
    assert_eq!(
        (clocks.white_ms, clocks.black_ms),
        (Some(5_400_000), Some(5_400_000)),
        "no +2 min: the extra time for the incorrect claim is void once it is accepted as an offer"
    );
}

#[test]
fn fif_01_fifty_move_claim_after_one_hundred_half_moves_is_upheld() {
    let mut t = Table::from_case("FIF-01", TimeControlKind::Standard);
    let d = t
        .record(claim(Side::Black, ClaimKind::FiftyMoves, None))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Upheld, "{}", r.reason);
    assert_eq!(r.article, "9.3.2");
    assert_eq!(r.evidence.halfmove_clock, Some(100));
}

#[test]
fn fif_02_fifty_move_claim_with_a_quiet_intended_move_is_upheld() {
    let mut t = Table::from_case("FIF-02", TimeControlKind::Standard);
    let d = t
        .record(claim(Side::White, ClaimKind::FiftyMoves, Some("Ne7")))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Upheld, "{}", r.reason);
    assert_eq!(r.article, "9.3.1");
    assert_eq!(t.game.view().ply, 99);
}

#[test]
fn fif_05_castling_does_not_reset_the_fifty_move_count() {
    let mut t = Table::from_case("FIF-05", TimeControlKind::Standard);
    assert_eq!(t.game.view().halfmove_clock, 100);
    let by = t.game.position_turn();
    let d = t
        .record(claim(by, ClaimKind::FiftyMoves, None))
        .expect("recorded");
    assert_eq!(
        ruling(&d).outcome,
        ClaimOutcome::Upheld,
        "{}",
        ruling(&d).reason
    );
}

#[test]
fn sev_02_checkmate_on_the_150th_half_move_takes_precedence_over_the_75_move_rule() {
    let c = case("SEV-02");
    let mut t = Table::new(c.fen.as_deref());
    t.play_all(&c.sans[..149]);
    assert!(!t.game.is_over());
    let d = t.play(&c.sans[149]);
    assert_eq!(
        ended(&d).map(|e| (e.0, e.1)),
        Some((GameResult::WhiteWins, Termination::Checkmate))
    );
}

#[test]
fn sev_02_variant_a_quiet_150th_half_move_ends_the_game_by_the_75_move_rule() {
    let c = case("SEV-02");
    let mut t = Table::new(c.fen.as_deref());
    t.play_all(&c.sans[..149]);
    let d = t.play("Rh7");
    assert_eq!(
        ended(&d).map(|e| (e.0, e.1)),
        Some((GameResult::Draw, Termination::SeventyFiveMoves))
    );
}

#[test]
fn dead_01_capture_leaving_king_against_king_is_a_dead_position() {
    let mut t = Table::from_case("DEAD-01", TimeControlKind::Standard);
    assert_eq!(t.game.view().termination, Some(Termination::DeadPosition));
    assert_eq!(t.game.view().article.as_deref(), Some("5.2.2"));
    assert_eq!(
        t.record(RecordedEvent::Resign { by: Side::Black })
            .expect_err("over")
            .code(),
        "game_over"
    );
}

#[test]
fn dead_04_bishops_on_the_same_colour_are_a_dead_position() {
    let t = Table::from_case("DEAD-04", TimeControlKind::Standard);
    assert_eq!(t.game.view().termination, Some(Termination::DeadPosition));
    assert_eq!(t.game.view().result, Some(GameResult::Draw));
}

#[test]
fn dead_05_flag_with_opposite_coloured_bishops_loses_because_mate_is_possible() {
    let mut t = Table::from_case("DEAD-05", TimeControlKind::Standard);
    let d = t
        .record(RecordedEvent::Flag { side: Side::Black })
        .expect("recorded");
    assert_eq!(
        ended(&d),
        Some((GameResult::WhiteWins, Termination::Flag, "6.9".into()))
    );
}

#[test]
fn dead_07_flag_against_a_lone_king_is_a_draw() {
    let mut t = Table::from_case("DEAD-07", TimeControlKind::Standard);
    let d = t
        .record(RecordedEvent::Flag { side: Side::White })
        .expect("recorded");
    assert_eq!(
        ended(&d),
        Some((GameResult::Draw, Termination::Flag, "6.9".into()))
    );
}

#[test]
fn dead_11_locked_pawn_chains_are_a_dead_position_and_a_later_flag_is_void() {
    let mut t = Table::from_case("DEAD-11", TimeControlKind::Standard);
    assert_eq!(t.game.view().termination, Some(Termination::DeadPosition));
    let refused = t
        .record(RecordedEvent::Flag { side: Side::Black })
        .expect_err("void");
    assert_eq!(refused.code(), "game_over");
    assert!(refused.message().contains("6.9"), "{}", refused.message());
}

#[test]
fn ill_01_first_completed_illegal_move_gives_two_minutes_and_the_touched_knight_frees_the_player() {
    let mut t = Table::from_case("ILL-01", TimeControlKind::Standard);
    let refused = t
        .record(RecordedEvent::Move {
            by: Side::Black,
            san: "Nf6".into(),
        })
        .expect_err("illegal");
    assert_eq!(refused.code(), "illegal_move");
    assert!(refused.message().contains("illegal_move"));
    let d = t
        .record(RecordedEvent::IllegalMove {
            by: Side::Black,
            description: "2...Nf6 leaving the king in check".into(),
            completed: true,
            attempted_move: None,
            kind: None,
        })
        .expect("recorded");
    assert_eq!(penalty(&d), Some((Side::White, 120_000)));
    assert_eq!(t.game.view().illegal_moves.black, 1);
    t.record(RecordedEvent::Touch {
        by: Side::Black,
        square: "g8".into(),
    })
    .expect("touch recorded");
    t.play("g6");
}

#[test]
fn ill_01_in_rapid_the_first_illegal_move_gives_one_minute_and_the_second_loses() {
    let mut t = Table::from_case("ILL-01", TimeControlKind::Rapid);
    let illegal = || RecordedEvent::IllegalMove {
        by: Side::Black,
        description: "Nf6".into(),
        completed: true,
        attempted_move: None,
        kind: None,
    };
    let d = t.record(illegal()).expect("recorded");
    assert_eq!(penalty(&d), Some((Side::White, 60_000)));
    let d = t.record(illegal()).expect("recorded");
    assert_eq!(
        ended(&d).map(|e| (e.0, e.1)),
        Some((GameResult::WhiteWins, Termination::IllegalMoves))
    );
}

#[test]
fn an_offer_made_before_moving_is_marked_on_the_offerers_next_move_not_on_the_opponents_last() {
    // Given 1. e4 e5, when White offers a draw while having the move (before 2. Nf3, 9.1.2.1:
    // irregular but valid), then nothing is marked yet; when White then plays 2. Nf3, the
    // `(=)` follows Nf3, White's move, never Black's 1... e5.
    let mut t = Table::new(None);
    t.play("e4");
    t.play("e5");
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer");
    let view = t.game.view();
    assert!(view.pending_offer.as_ref().expect("pending").irregular);
    assert_eq!(view.scoresheet, vec!["e4".to_string(), "e5".to_string()]);
    t.play("Nf3");
    let view = t.game.view();
    assert_eq!(
        view.scoresheet,
        vec!["e4".to_string(), "e5".to_string(), "Nf3 (=)".to_string()]
    );
}

#[test]
fn off_01_offer_after_moving_accepted_is_a_draw_by_agreement() {
    let mut t = Table::from_case("OFF-01", TimeControlKind::Standard);
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer");
    let view = t.game.view();
    assert_eq!(view.scoresheet.last().map(String::as_str), Some("Nf3 (=)"));
    assert!(!view.pending_offer.as_ref().expect("pending").irregular);
    let d = t
        .record(RecordedEvent::DrawAccept { by: Side::Black })
        .expect("accepted");
    assert_eq!(
        ended(&d).map(|e| (e.0, e.1)),
        Some((GameResult::Draw, Termination::Agreement))
    );
}

#[test]
fn off_02_touching_a_piece_declines_the_offer_and_binds_the_player_to_move_it() {
    let mut t = Table::from_case("OFF-02", TimeControlKind::Standard);
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer");
    t.record(RecordedEvent::Touch {
        by: Side::Black,
        square: "b8".into(),
    })
    .expect("touch");
    let refused = t
        .record(RecordedEvent::DrawAccept { by: Side::Black })
        .expect_err("lapsed");
    assert_eq!(refused.code(), "no_pending_offer");
    assert!(
        refused.message().contains("touched"),
        "{}",
        refused.message()
    );
    let refused = t
        .record(RecordedEvent::Move {
            by: Side::Black,
            san: "d6".into(),
        })
        .expect_err("touch move");
    assert_eq!(refused.code(), "touch_move_obligation");
    t.play("Nc6");
}

#[test]
fn qpf_02_quickplay_claim_awaits_the_arbiter_who_decides_with_reasons() {
    let mut s = settings(None, TimeControlKind::Rapid);
    s.regulations.quickplay_finish = true;
    let mut t = Table::with_settings(s);
    let d = t
        .record(claim(Side::White, ClaimKind::QuickplayFinish, None))
        .expect("recorded");
    assert!(d.is_empty(), "the engine does not decide III.5: {d:?}");
    let claim_seq = t.seq;
    let d = t
        .record(RecordedEvent::ArbiterDecision {
            subject_seq: Some(claim_seq),
            decision: ArbiterRuling::GameEnded,
            reason: "Black is making no effort to win by normal means (III.5.1)".into(),
            result: Some(GameResult::Draw),
            penalty: None,
            attempted_move: None,
            fen: None,
            increment_ms: None,
            move_count: None,
            cause: None,
        })
        .expect("recorded");
    assert_eq!(
        ended(&d),
        Some((GameResult::Draw, Termination::Arbiter, "III.5".into()))
    );
}

#[test]
fn qpf_02_quickplay_claim_is_rejected_when_guidelines_iii_are_not_in_force() {
    let mut t = Table::new(None);
    let d = t
        .record(claim(Side::White, ClaimKind::QuickplayFinish, None))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Rejected);
    assert_eq!(
        r.article, "III.2.1",
        "Guidelines III not announced: III.2.1, not the definition III.1"
    );
    assert!(r.penalty.is_none());
}

#[test]
fn clm_01_incorrect_claim_in_rapid_gives_one_minute_and_binds_the_written_move() {
    let mut t = Table::from_case("CLM-01", TimeControlKind::Rapid);
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, Some("Nf6")))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Rejected, "{}", r.reason);
    assert_eq!(penalty(&d), Some((Side::White, 60_000)));
    assert_eq!(r.must_play.as_deref(), Some("Nf6"));
    t.play("Nf6");
}

#[test]
fn claim_after_having_moved_is_rejected() {
    let mut t = Table::from_case("REP-01", TimeControlKind::Standard);
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, None))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Rejected);
    assert!(r.reason.contains("already moved"), "{}", r.reason);
}

#[test]
fn claim_after_touching_a_piece_is_rejected_under_9_4() {
    let mut t = Table::from_case("REP-01", TimeControlKind::Standard);
    t.record(RecordedEvent::Touch {
        by: Side::White,
        square: "g1".into(),
    })
    .expect("touch");
    let d = t
        .record(claim(Side::White, ClaimKind::Repetition, None))
        .expect("recorded");
    assert_eq!(ruling(&d).outcome, ClaimOutcome::Rejected);
    assert_eq!(ruling(&d).article, "9.4");
}

#[test]
fn move_by_the_side_not_having_the_move_is_refused() {
    let mut t = Table::new(None);
    let refused = t
        .record(RecordedEvent::Move {
            by: Side::Black,
            san: "e5".into(),
        })
        .expect_err("refused");
    assert_eq!(refused.code(), "not_your_turn");
}

#[test]
fn flag_after_an_accepted_draw_changes_nothing() {
    let mut t = Table::from_case("OFF-01", TimeControlKind::Standard);
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer");
    t.record(RecordedEvent::DrawAccept { by: Side::Black })
        .expect("accept");
    let refused = t
        .record(RecordedEvent::Flag { side: Side::White })
        .expect_err("refused");
    assert_eq!(refused.code(), "game_over");
    assert!(
        refused.message().contains("agreement"),
        "{}",
        refused.message()
    );
}

#[test]
fn correction_retracts_the_latest_standing_event_and_its_decisions() {
    let mut t = Table::from_case("REP-04", TimeControlKind::Standard);
    t.record(claim(Side::Black, ClaimKind::Repetition, Some("Nf6")))
        .expect("recorded");
    let claim_seq = t.seq - 2;
    let refused = t
        .record(RecordedEvent::Correction {
            retracts_seq: 2,
            reason: "typo".into(),
        })
        .expect_err("not latest");
    assert_eq!(refused.code(), "not_latest_standing");
    t.record(RecordedEvent::Correction {
        retracts_seq: claim_seq,
        reason: "not a claim".into(),
    })
    .expect("correction");
    let view = t.game.view();
    assert_eq!(view.clocks.white_ms, Some(5_400_000));
    assert!(view.obligations.must_play.is_none());
    t.play("e5");
}

#[test]
fn upheld_appeal_with_a_result_changes_the_result() {
    let mut t = Table::from_case("DEAD-05", TimeControlKind::Standard);
    t.record(RecordedEvent::Flag { side: Side::Black })
        .expect("flag");
    let decision_seq = t.seq;
    t.record(RecordedEvent::AppealLodged {
        by: "black".into(),
        against_seq: decision_seq,
        grounds: "g".into(),
    })
    .expect("lodged");
    let d = t
        .record(RecordedEvent::AppealDecided {
            against_seq: decision_seq,
            upheld: true,
            result: Some(GameResult::Draw),
            resume: None,
            committee: Vec::new(),
            reason: "r".into(),
        })
        .expect("decided");
    assert_eq!(
        ended(&d).map(|e| (e.0, e.1)),
        Some((GameResult::Draw, Termination::Appeal))
    );
    assert_eq!(t.game.view().result, Some(GameResult::Draw));
}

#[test]
fn agreement_before_the_regulations_earliest_move_is_refused() {
    let mut s = settings(None, TimeControlKind::Standard);
    s.regulations.earliest_agreement_move = Some(30);
    let mut t = Table::with_settings(s);
    t.play("e4");
    t.play("e5");
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer");
    assert_eq!(
        t.record(RecordedEvent::DrawAccept { by: Side::Black })
            .expect_err("early")
            .code(),
        "too_early_for_agreement"
    );
}

#[test]
fn a_bad_start_fen_names_the_field() {
    let s = settings(Some("not a fen"), TimeControlKind::Standard);
    let error = arbiter::game::Game::new(&s).expect_err("bad fen");
    assert_eq!(error.field(), "start_fen");
}

#[test]
fn chess960_castling_is_read_from_the_start_fen() {
    let mut t = Table::new(Some(
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
    ));
    t.play("Ng3");
    t.play("Ng6");
    t.play("O-O");
    assert_eq!(t.game.view().moves.last().map(String::as_str), Some("O-O"));
}

#[test]
fn second_illegal_move_is_a_draw_when_the_opponent_cannot_checkmate() {
    let mut t = Table::from_case("DEAD-07", TimeControlKind::Blitz);
    let illegal = || RecordedEvent::IllegalMove {
        by: Side::White,
        description: "king moved into check".into(),
        completed: true,
        attempted_move: None,
        kind: None,
    };
    let d = t.record(illegal()).expect("first");
    assert_eq!(penalty(&d), Some((Side::Black, 60_000)));
    let d = t.record(illegal()).expect("second");
    assert_eq!(
        ended(&d).map(|e| (e.0, e.1)),
        Some((GameResult::Draw, Termination::IllegalMoves))
    );
}

#[test]
fn resignation_against_a_lone_king_is_a_draw_as_the_issue_asks() {
    let mut t = Table::from_case("DEAD-07", TimeControlKind::Standard);
    let d = t
        .record(RecordedEvent::Resign { by: Side::White })
        .expect("resign");
    assert_eq!(
        ended(&d).map(|e| (e.0, e.1)),
        Some((GameResult::Draw, Termination::Resignation))
    );
    let mut t = Table::from_case("DEAD-07", TimeControlKind::Standard);
    let d = t
        .record(RecordedEvent::Resign { by: Side::Black })
        .expect("resign");
    assert_eq!(
        ended(&d).map(|e| (e.0, e.1)),
        Some((GameResult::WhiteWins, Termination::Resignation))
    );
}

#[test]
fn a_fivefold_repetition_ends_the_game_with_the_plies_as_evidence() {
    let mut t = Table::new(None);
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut last = Vec::new();
    for _ in 0..4 {
        for san in shuffle {
            last = t.play(san);
        }
    }
    let evidence = last
        .iter()
        .find_map(|d| match d {
            ServiceEvent::GameEnded {
                termination: Termination::FivefoldRepetition,
                article,
                evidence,
                ..
            } => {
                assert_eq!(article, "9.6.1");
                evidence.clone()
            }
            _ => None,
        })
        .expect("the fifth occurrence ends the game with evidence");
    assert_eq!(evidence.occurrences, Some(vec![0, 4, 8, 12, 16]));
    assert_eq!(evidence.ply, 16);
    assert_eq!(evidence.san, "Ng8");
    assert_eq!(
        evidence.fen,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 16 9"
    );
}
