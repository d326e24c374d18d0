//! The departures found by the review of the engine against the 2023 Laws (and the 2018
//! text), one test each, through the engine.

use arbiter::game::event::{
    ArbiterRuling, ClaimKind, ClaimOutcome, ClockReading, DrawOfferPolicy, GameResult,
    IllegalMoveKind, LawsEdition, RecordedEvent, ServiceEvent, Side, Termination, TimeControlKind,
};

use crate::table::{Table, ended, ruling, settings};

fn penalty(decisions: &[ServiceEvent]) -> Option<(Side, u64, String, String)> {
    decisions.iter().find_map(|d| match d {
        ServiceEvent::PenaltyApplied {
            side,
            add_ms,
            article,
            reason,
            ..
        } => Some((*side, *add_ms, article.clone(), reason.clone())),
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

fn touch(by: Side, square: &str) -> RecordedEvent {
    RecordedEvent::Touch {
        by,
        square: square.into(),
    }
}

fn mv(by: Side, san: &str) -> RecordedEvent {
    RecordedEvent::Move {
        by,
        san: san.into(),
    }
}

fn illegal(by: Side, attempted: Option<&str>, kind: Option<IllegalMoveKind>) -> RecordedEvent {
    RecordedEvent::IllegalMove {
        by,
        description: "as seen by the arbiter".into(),
        completed: true,
        attempted_move: attempted.map(str::to_string),
        kind,
    }
}

fn arbiter(decision: ArbiterRuling, subject_seq: Option<u64>) -> RecordedEvent {
    RecordedEvent::ArbiterDecision {
        subject_seq,
        decision,
        reason: "as the arbiter decided".into(),
        result: None,
        penalty: None,
        attempted_move: None,
        fen: None,
        increment_ms: None,
        move_count: None,
        cause: None,
    }
}

fn table_after(sans: &[&str], kind: TimeControlKind) -> Table {
    let mut t = Table::with_settings(settings(None, kind));
    for san in sans {
        t.play(san);
    }
    t
}

/// After every event, a game in progress has a move its player may make.
fn assert_an_acceptable_move_exists(t: &Table) {
    let view = t.game.view();
    if view.result.is_none() && view.flag_fell_awaiting_arbiter.is_none() {
        assert!(
            !view.obligations.acceptable_moves.is_empty(),
            "no acceptable move in {}: {:?}",
            view.fen,
            view.obligations
        );
    }
}

// 1. Touch-move and the written move (4.3, 9.4, 9.5.3).
#[test]
fn a_claim_after_touching_a_piece_is_incorrect_and_the_touched_piece_not_the_written_move_must_be_moved()
 {
    let mut t = table_after(
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"],
        TimeControlKind::Standard,
    );
    t.record(touch(Side::Black, "b8")).expect("touch");
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, Some("Nf6")))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Rejected);
    assert_eq!(r.article, "9.4");
    assert_eq!(
        r.must_play, None,
        "the written move is not compulsory: {r:?}"
    );
    assert!(r.reason.contains("touched another piece"), "{}", r.reason);
    assert_eq!(
        penalty(&d).map(|p| (p.0, p.1)),
        Some((Side::White, 120_000))
    );
    assert_an_acceptable_move_exists(&t);
    let view = t.game.view();
    assert_eq!(
        view.obligations.touched.as_ref().map(|t| t.square.as_str()),
        Some("b8")
    );
    assert_eq!(view.obligations.must_play, None);
    let refused = t.record(mv(Side::Black, "Nf6")).expect_err("touch binds");
    assert_eq!(refused.code(), "touch_move_obligation");
    t.play("Nc6");
}

#[test]
fn a_written_move_of_the_touched_piece_stays_compulsory_after_the_claim_under_9_4() {
    let mut t = table_after(
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"],
        TimeControlKind::Standard,
    );
    t.record(touch(Side::Black, "g8")).expect("touch");
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, Some("Nf6")))
        .expect("recorded");
    assert_eq!(ruling(&d).must_play.as_deref(), Some("Nf6"));
    assert_eq!(
        t.record(mv(Side::Black, "Nh6"))
            .expect_err("written")
            .code(),
        "must_play_obligation"
    );
    t.play("Nf6");
}

// 2. An illegal written move (9.2.1, 9.5.3).
#[test]
fn an_illegal_written_move_makes_the_claim_incorrect_and_binds_the_claimant_to_move_that_piece() {
    let mut t = table_after(&["e4", "e5"], TimeControlKind::Standard);
    let d = t
        .record(claim(Side::White, ClaimKind::Repetition, Some("Qd5")))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Rejected);
    assert_eq!(r.article, "9.2.1");
    assert_eq!(r.must_play, None);
    assert_eq!(r.must_move_one_of, Some(vec!["d1".to_string()]));
    assert!(r.evidence.intended_move_error.is_some());
    assert_eq!(
        penalty(&d).map(|p| (p.0, p.1)),
        Some((Side::Black, 120_000))
    );
    let view = t.game.view();
    assert_eq!(
        view.obligations
            .must_move_one_of
            .as_ref()
            .map(|m| m.squares.clone()),
        Some(vec!["d1".to_string()])
    );
    assert_eq!(
        t.record(mv(Side::White, "Nf3")).expect_err("bound").code(),
        "must_move_obligation"
    );
    t.play("Qh5");
}

#[test]
fn an_illegal_written_move_whose_piece_cannot_move_leaves_any_legal_move() {
    // The bishop on f1 is blocked by its own pawns: 4.5 by analogy, any legal move.
    let mut t = Table::new(None);
    let d = t
        .record(claim(Side::White, ClaimKind::FiftyMoves, Some("Bb5")))
        .expect("recorded");
    assert_eq!(ruling(&d).must_move_one_of, None);
    assert_an_acceptable_move_exists(&t);
    t.play("Nf3");
}

// 3. An illegal move names its piece (7.5.1, 4.3).
#[test]
fn an_illegal_move_with_its_attempted_move_binds_the_piece_moved_and_the_piece_it_would_have_captured()
 {
    // The knight on d2 is pinned by the bishop on b4; it "captures" the rook on f3.
    let mut t = Table::new(Some("4k3/8/8/8/1b6/5r2/3N2P1/4K3 w - - 0 1"));
    let d = t
        .record(illegal(Side::White, Some("Nxf3"), None))
        .expect("recorded");
    let (side, ms, _, reason) = penalty(&d).expect("first illegal move");
    assert_eq!((side, ms), (Side::Black, 120_000));
    assert!(reason.contains("piece touched"), "{reason}");
    let view = t.game.view();
    let touched: Vec<&str> = view
        .obligations
        .touched_pieces
        .iter()
        .map(|t| t.square.as_str())
        .collect();
    assert_eq!(touched, ["d2", "f3"]);
    // 4.3.3: capturing f3 with d2 is illegal, d2 cannot move, so the rook must be captured.
    assert_eq!(view.obligations.acceptable_moves, ["gxf3"]);
    assert_eq!(
        t.record(mv(Side::White, "Kd1")).expect_err("touch").code(),
        "touch_move_obligation"
    );
    t.play("gxf3");
}

#[test]
fn an_illegal_move_given_as_from_and_to_squares_binds_that_piece() {
    let mut t = table_after(&["e4", "e5", "Nf3", "Nc6"], TimeControlKind::Standard);
    t.record(illegal(Side::White, Some("f3e6"), None))
        .expect("recorded");
    assert_eq!(
        t.record(mv(Side::White, "d4")).expect_err("touch").code(),
        "touch_move_obligation"
    );
    t.play("Nxe5");
}

#[test]
fn an_illegal_move_that_is_in_fact_legal_is_refused_with_what_to_record() {
    let mut t = table_after(&["e4", "e5"], TimeControlKind::Standard);
    let refused = t
        .record(illegal(Side::White, Some("Nf3"), None))
        .expect_err("legal");
    assert_eq!(refused.code(), "legal_attempted_move");
    assert!(refused.message().contains("record it as a move"));
}

#[test]
fn an_illegal_move_recorded_without_its_move_binds_nothing_as_before() {
    let mut t = table_after(&["e4", "e5"], TimeControlKind::Standard);
    t.record(illegal(Side::White, None, None))
        .expect("recorded");
    let view = t.game.view();
    assert!(view.obligations.touched_pieces.is_empty());
    t.play("d4");
}

// 4. The written move cannot be changed (9.2.1).
#[test]
fn a_second_claim_on_the_same_move_is_judged_on_the_move_written_first() {
    // After ...Nc6 the position (knights f3 and c6, White to move) stood twice (plies 2 and
    // 6); after ...Nf6 it never did; the position on the board stands for the second time.
    let mut t = table_after(
        &[
            "Nf3", "Nc6", "Ng1", "Na5", "Nf3", "Nc6", "Ng1", "Nb8", "Nf3",
        ],
        TimeControlKind::Standard,
    );
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, Some("Nf6")))
        .expect("first claim");
    assert_eq!(ruling(&d).outcome, ClaimOutcome::Rejected);
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, Some("Nc6")))
        .expect("second claim");
    let r = ruling(&d);
    assert_eq!(
        r.outcome,
        ClaimOutcome::Rejected,
        "judged on Nf6, not Nc6: {}",
        r.reason
    );
    assert!(r.reason.contains("cannot be changed"), "{}", r.reason);
    assert_eq!(r.evidence.written_move_kept.as_deref(), Some("Nf6"));
    assert_eq!(r.must_play.as_deref(), Some("Nf6"));
    assert!(t.game.view().result.is_none());
    assert_eq!(
        t.record(mv(Side::Black, "Nc6")).expect_err("bound").code(),
        "must_play_obligation"
    );
    t.play("Nf6");
}

// 5. A claim does not cancel the opponent's offer (9.1.2.1).
#[test]
fn a_claim_does_not_cancel_the_opponents_pending_offer_which_the_claimant_can_still_accept() {
    let mut t = table_after(&["e4", "e5", "Nf3"], TimeControlKind::Standard);
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer");
    let d = t
        .record(claim(Side::Black, ClaimKind::Repetition, None))
        .expect("claim");
    assert_eq!(ruling(&d).outcome, ClaimOutcome::Rejected);
    assert_eq!(
        t.game.view().pending_offers.len(),
        2,
        "both offers are open"
    );
    let d = t
        .record(RecordedEvent::DrawAccept { by: Side::Black })
        .expect("black accepts white's offer");
    assert_eq!(
        ended(&d),
        Some((
            GameResult::Draw,
            Termination::Agreement,
            "9.1.2.1, 5.2.3".into()
        ))
    );
}

// 6. An illegal move rejects a pending offer (9.1.2.1).
#[test]
fn an_illegal_move_with_its_piece_known_rejects_the_opponents_pending_offer() {
    let mut t = table_after(&["e4", "e5", "Nf3"], TimeControlKind::Standard);
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer");
    t.record(illegal(Side::Black, Some("e8e6"), None))
        .expect("illegal move");
    let refused = t
        .record(RecordedEvent::DrawAccept { by: Side::Black })
        .expect_err("lapsed");
    assert_eq!(refused.code(), "no_pending_offer");
    assert!(
        refused.message().contains("illegal move"),
        "{}",
        refused.message()
    );
}

#[test]
fn an_illegal_move_without_its_piece_leaves_the_offer_open_as_before() {
    let mut t = table_after(&["e4", "e5", "Nf3"], TimeControlKind::Standard);
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer");
    t.record(illegal(Side::Black, None, None)).expect("illegal");
    t.record(RecordedEvent::DrawAccept { by: Side::Black })
        .expect("the offer is still open");
}

// 7. A written move that is not needed (9.2.2, 9.3.2).
#[test]
fn a_written_move_is_not_needed_when_the_third_occurrence_already_stands_and_the_claim_is_upheld_under_9_2_2()
 {
    let mut t = table_after(
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"],
        TimeControlKind::Standard,
    );
    let d = t
        .record(claim(Side::White, ClaimKind::Repetition, Some("e4")))
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Upheld, "{}", r.reason);
    assert_eq!(r.article, "9.2.2");
    assert!(r.evidence.written_move_not_needed);
    assert_eq!(t.game.view().ply, 8, "the written move is not played");
    assert_eq!(t.game.view().result, Some(GameResult::Draw));
}

// 8. Quickplay finish (Guidelines III).
fn quickplay(kind: TimeControlKind, increment_ms: u64) -> Table {
    let mut s = settings(None, kind);
    s.regulations.quickplay_finish = true;
    s.time_control = arbiter::game::event::TimeControl::from_legacy(kind, 900_000, increment_ms);
    Table::with_settings(s)
}

fn clock(white_ms: u64, black_ms: u64) -> ClockReading {
    ClockReading {
        white_ms: Some(white_ms),
        black_ms: Some(black_ms),
    }
}

#[test]
fn a_quickplay_claim_needs_less_than_two_minutes_on_the_claimants_clock() {
    let mut t = quickplay(TimeControlKind::Rapid, 0);
    let d = t
        .game
        .record_with_clock(
            2,
            &claim(Side::White, ClaimKind::QuickplayFinish, None),
            Some(&clock(300_000, 100_000)),
        )
        .expect("recorded");
    let r = ruling(&d);
    assert_eq!(r.outcome, ClaimOutcome::Rejected);
    assert_eq!(r.article, "III.5");
    assert!(r.reason.contains("less than two minutes"), "{}", r.reason);
    assert!(r.penalty.is_none());
}

#[test]
fn a_quickplay_claim_is_never_admissible_in_blitz_nor_with_an_increment() {
    for (kind, increment) in [(TimeControlKind::Blitz, 0), (TimeControlKind::Rapid, 2_000)] {
        let mut t = quickplay(kind, increment);
        let d = t
            .record(claim(Side::White, ClaimKind::QuickplayFinish, None))
            .expect("recorded");
        assert_eq!(ruling(&d).article, "III.2.2", "{kind:?} +{increment}");
    }
}

#[test]
fn a_flag_after_a_postponed_quickplay_claim_is_for_the_arbiter_to_decide_under_iii_5_2() {
    let mut t = quickplay(TimeControlKind::Standard, 0);
    t.play("e4");
    t.game
        .record_with_clock(
            t.seq + 1,
            &claim(Side::Black, ClaimKind::QuickplayFinish, None),
            Some(&clock(600_000, 90_000)),
        )
        .expect("claim");
    t.seq += 1;
    let claim_seq = t.seq;
    let d = t
        .record(arbiter(ArbiterRuling::ClaimPostponed, Some(claim_seq)))
        .expect("postponed");
    assert!(d.is_empty(), "III.5.2: the opponent *may* get two minutes");
    assert!(t.game.view().open_claims[0].postponed);
    t.play("e5");
    let d = t
        .record(RecordedEvent::Flag { side: Side::Black })
        .expect("flag recorded");
    assert!(d.is_empty(), "the flag does not end the game by 6.9: {d:?}");
    let view = t.game.view();
    assert_eq!(view.flag_fell_awaiting_arbiter, Some(Side::Black));
    assert_eq!(
        t.record(mv(Side::White, "Nf3"))
            .expect_err("awaiting")
            .code(),
        "awaiting_arbiter"
    );
    let mut decision = arbiter(ArbiterRuling::GameEnded, Some(claim_seq));
    if let RecordedEvent::ArbiterDecision { result, .. } = &mut decision {
        *result = Some(GameResult::Draw);
    }
    let d = t.record(decision).expect("the arbiter declares the result");
    assert_eq!(
        ended(&d),
        Some((GameResult::Draw, Termination::Arbiter, "III.5.2".into()))
    );
}

#[test]
fn a_quickplay_claim_rejected_by_the_arbiter_gives_the_opponent_two_minutes_under_iii_5_3() {
    let mut t = quickplay(TimeControlKind::Rapid, 0);
    t.record(claim(Side::White, ClaimKind::QuickplayFinish, None))
        .expect("claim");
    let claim_seq = t.seq;
    let d = t
        .record(arbiter(ArbiterRuling::ClaimRejected, Some(claim_seq)))
        .expect("rejected");
    let (side, ms, article, _) = penalty(&d).expect("two extra minutes");
    assert_eq!(
        (side, ms, article.as_str()),
        (Side::Black, 120_000, "III.5.3")
    );
}

#[test]
fn an_increment_granted_under_iii_4_gives_the_opponent_two_minutes_and_changes_the_clocks_kept() {
    let mut t = quickplay(TimeControlKind::Standard, 0);
    t.play("e4");
    t.play("e5");
    let d = t
        .game
        .record_with_clock(
            t.seq + 1,
            &claim(Side::White, ClaimKind::IncrementRequest, None),
            Some(&clock(100_000, 400_000)),
        )
        .expect("request");
    assert!(d.is_empty(), "it awaits the arbiter: {d:?}");
    t.seq += 1;
    let request = t.seq;
    assert_eq!(
        t.game
            .view()
            .pending_offer
            .as_ref()
            .and_then(|o| o.from_claim),
        Some(ClaimKind::IncrementRequest),
        "the request constitutes a draw offer"
    );
    t.record(RecordedEvent::DrawDecline { by: Side::Black })
        .expect("offer refused");
    let d = t
        .record(arbiter(ArbiterRuling::IncrementGranted, Some(request)))
        .expect("granted");
    let (side, ms, article, _) = penalty(&d).expect("two minutes");
    assert_eq!(
        (side, ms, article.as_str()),
        (Side::Black, 120_000, "III.4")
    );
    let view = t.game.view();
    assert_eq!(view.increment_ms, 5_000);
    assert_eq!(view.clocks.black_ms, Some(520_000));
    assert!(view.open_claims.is_empty());
    // With an increment in force, Guidelines III no longer apply (III.2.2).
    let d = t
        .record(claim(Side::White, ClaimKind::QuickplayFinish, None))
        .expect("claim");
    assert_eq!(ruling(&d).article, "III.2.2");
}

#[test]
fn a_request_for_an_increment_accepted_as_a_draw_offer_ends_the_game_by_agreement() {
    let mut t = quickplay(TimeControlKind::Standard, 0);
    t.play("e4");
    t.play("e5");
    t.record(claim(Side::White, ClaimKind::IncrementRequest, None))
        .expect("request");
    let d = t
        .record(RecordedEvent::DrawAccept { by: Side::Black })
        .expect("accepted");
    assert_eq!(
        ended(&d),
        Some((
            GameResult::Draw,
            Termination::Agreement,
            "III.4, 5.2.3".into()
        ))
    );
}

// 9. Edition-aware consequences.
#[test]
fn the_extra_time_for_an_incorrect_claim_follows_the_edition_and_the_rate_of_play() {
    let cases = [
        (
            LawsEdition::Y2023,
            TimeControlKind::Standard,
            120_000,
            "9.5.3",
        ),
        (
            LawsEdition::Y2023,
            TimeControlKind::Rapid,
            60_000,
            "9.5.3, A.3",
        ),
        (
            LawsEdition::Y2023,
            TimeControlKind::Blitz,
            60_000,
            "9.5.3, B.3, A.3",
        ),
        (
            LawsEdition::Y2018,
            TimeControlKind::Standard,
            120_000,
            "9.5.3",
        ),
        (LawsEdition::Y2018, TimeControlKind::Rapid, 120_000, "9.5.3"),
        (
            LawsEdition::Y2018,
            TimeControlKind::Blitz,
            60_000,
            "9.5.3, B.2",
        ),
    ];
    for (edition, kind, expected_ms, expected_article) in cases {
        let mut s = settings(None, kind);
        s.laws_edition = edition;
        let mut t = Table::with_settings(s);
        let d = t
            .record(claim(Side::White, ClaimKind::Repetition, None))
            .expect("claim");
        let (_, ms, article, _) = penalty(&d).expect("extra time");
        assert_eq!(
            (ms, article.as_str()),
            (expected_ms, expected_article),
            "{edition:?} {kind:?}"
        );
    }
}

#[test]
fn the_extra_time_for_an_illegal_move_follows_the_edition_and_the_rate_of_play() {
    let cases = [
        (
            LawsEdition::Y2023,
            TimeControlKind::Rapid,
            60_000,
            "7.5.5, A.3",
        ),
        (LawsEdition::Y2018, TimeControlKind::Rapid, 120_000, "7.5.5"),
        (
            LawsEdition::Y2018,
            TimeControlKind::Blitz,
            60_000,
            "7.5.5, B.2",
        ),
    ];
    for (edition, kind, expected_ms, expected_article) in cases {
        let mut s = settings(None, kind);
        s.laws_edition = edition;
        let mut t = Table::with_settings(s);
        let d = t.record(illegal(Side::White, None, None)).expect("illegal");
        let (_, ms, article, _) = penalty(&d).expect("extra time");
        assert_eq!((ms, article.as_str()), (expected_ms, expected_article));
    }
}

#[test]
fn a_resignation_when_the_opponent_cannot_checkmate_is_a_draw_under_2023_and_a_loss_under_2018() {
    let fen = "8/8/8/4k3/8/8/8/4K2R w K - 0 1";
    for (edition, expected) in [
        (LawsEdition::Y2023, GameResult::Draw),
        (LawsEdition::Y2018, GameResult::BlackWins),
    ] {
        let mut s = settings(Some(fen), TimeControlKind::Standard);
        s.laws_edition = edition;
        let mut t = Table::with_settings(s);
        // Black has a lone king: it cannot checkmate White.
        let d = t
            .record(RecordedEvent::Resign { by: Side::White })
            .expect("resigned");
        assert_eq!(
            ended(&d).map(|e| (e.0, e.1, e.2)),
            Some((expected, Termination::Resignation, "5.1.2".into())),
            "{edition:?}"
        );
    }
}

// 10. Citations and reasons.
#[test]
fn an_agreement_cites_9_1_2_1_and_5_2_3_not_the_scoresheet_symbol() {
    let mut t = table_after(&["e4", "e5", "Nf3"], TimeControlKind::Standard);
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer");
    let d = t
        .record(RecordedEvent::DrawAccept { by: Side::Black })
        .expect("accept");
    assert_eq!(ended(&d).map(|e| e.2), Some("9.1.2.1, 5.2.3".into()));
}

#[test]
fn a_pawn_promoted_without_a_new_piece_becomes_a_queen_and_the_move_stands() {
    let mut t = Table::new(Some("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"));
    let d = t
        .record(illegal(
            Side::White,
            Some("b7b8"),
            Some(IllegalMoveKind::PromotionWithoutPiece),
        ))
        .expect("recorded");
    let (_, _, _, reason) = penalty(&d).expect("first illegal move");
    assert!(
        reason.contains("becomes a queen and the move stands"),
        "{reason}"
    );
    assert!(reason.contains("7.5.2"), "{reason}");
    let view = t.game.view();
    assert_eq!(view.fen, "1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(view.moves, ["b8=Q+"]);
    assert_eq!(view.illegal_moves.white, 1);
}

#[test]
fn a_clock_pressed_without_a_move_is_penalised_and_says_so() {
    let mut t = table_after(&["e4"], TimeControlKind::Standard);
    let d = t
        .record(illegal(
            Side::Black,
            None,
            Some(IllegalMoveKind::ClockWithoutMove),
        ))
        .expect("recorded");
    let (side, _, _, reason) = penalty(&d).expect("penalty");
    assert_eq!(side, Side::White);
    assert!(
        reason.contains("pressed the clock without making a move"),
        "{reason}"
    );
    assert!(reason.contains("7.5.3"), "{reason}");
    assert_eq!(t.game.view().ply, 1, "the position stays as it is");
}

#[test]
fn a_move_made_with_two_hands_is_penalised_and_the_piece_must_move_again() {
    let mut t = table_after(
        &["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"],
        TimeControlKind::Standard,
    );
    let d = t
        .record(illegal(
            Side::White,
            Some("O-O"),
            Some(IllegalMoveKind::TwoHands),
        ))
        .expect("recorded");
    let (_, _, _, reason) = penalty(&d).expect("penalty");
    assert!(reason.contains("7.5.4"), "{reason}");
    let view = t.game.view();
    assert_eq!(view.ply, 6, "the position before it is reinstated");
    assert_eq!(
        view.obligations.touched.as_ref().map(|t| t.square.as_str()),
        Some("e1")
    );
    t.play("O-O");
}

// 11. Draw agreements before a minimum number of moves (9.1.1).
#[test]
fn agreement_needs_both_players_to_have_completed_the_regulations_number_of_moves() {
    let mut s = settings(
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 29"),
        TimeControlKind::Standard,
    );
    s.regulations.earliest_agreement_move = Some(30);
    let mut t = Table::with_settings(s);
    t.play("e4");
    t.play("e5");
    t.play("Nf3");
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer recorded");
    let view = t.game.view();
    assert!(view.offers[0].forbidden, "made during the forbidden period");
    assert_eq!(
        t.record(RecordedEvent::DrawAccept { by: Side::Black })
            .expect_err("black has completed 29 moves")
            .code(),
        "too_early_for_agreement"
    );
    t.play("Nc6");
    t.play("Bc4");
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("offer");
    assert!(!t.game.view().offers[1].forbidden);
    let d = t
        .record(RecordedEvent::DrawAccept { by: Side::Black })
        .expect("both have completed 30 moves");
    assert_eq!(ended(&d).map(|e| e.1), Some(Termination::Agreement));
}

#[test]
fn an_offer_made_where_the_regulations_forbid_agreement_is_recorded_and_marked() {
    let mut s = settings(None, TimeControlKind::Standard);
    s.regulations.draw_offers = DrawOfferPolicy::Forbidden;
    let mut t = Table::with_settings(s);
    t.play("e4");
    t.record(RecordedEvent::DrawOffer { by: Side::White })
        .expect("recorded");
    assert!(t.game.view().offers[0].forbidden);
}

// 12. Arbiter rulings the vocabulary lacked.
#[test]
fn an_illegal_move_that_stood_in_rapid_moves_the_game_on_from_the_position_on_the_board() {
    let mut t = table_after(&["e4", "e5", "Nf3"], TimeControlKind::Rapid);
    let mut stands = arbiter(ArbiterRuling::IllegalMoveStands, None);
    if let RecordedEvent::ArbiterDecision { attempted_move, .. } = &mut stands {
        *attempted_move = Some("e8e6".into());
    }
    let d = t.record(stands).expect("recorded");
    assert!(d.is_empty(), "no penalty: nobody claimed in time");
    let view = t.game.view();
    assert_eq!(
        view.fen,
        "rnbq1bnr/pppp1ppp/4k3/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQ - 2 3"
    );
    assert_eq!(view.stood_illegal_moves.len(), 1);
    assert_eq!(view.moves.last().map(String::as_str), Some("e8e6"));
    assert_eq!(view.illegal_moves.black, 0);
    t.play("Nxe5");
    assert_an_acceptable_move_exists(&t);
}

#[test]
fn an_illegal_move_that_stood_can_be_given_as_the_position_on_the_board() {
    let mut t = table_after(&["e4", "e5"], TimeControlKind::Blitz);
    let mut stands = arbiter(ArbiterRuling::IllegalMoveStands, None);
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 1 2";
    if let RecordedEvent::ArbiterDecision { fen: f, .. } = &mut stands {
        *f = Some(fen.into());
    }
    t.record(stands).expect("recorded");
    assert_eq!(t.game.view().fen, fen);
    t.play("Nc6");
}

#[test]
fn an_illegal_move_cannot_stand_in_standard_play() {
    let mut t = table_after(&["e4"], TimeControlKind::Standard);
    let mut stands = arbiter(ArbiterRuling::IllegalMoveStands, None);
    if let RecordedEvent::ArbiterDecision { attempted_move, .. } = &mut stands {
        *attempted_move = Some("e8e6".into());
    }
    assert_eq!(
        t.record(stands).expect_err("standard").code(),
        "illegal_move_cannot_stand"
    );
}

// The invariant: no sequence of events leaves a game in progress without an acceptable move.
#[test]
fn touches_claims_and_illegal_moves_in_any_order_never_leave_the_player_without_a_move() {
    let sequences: Vec<Vec<RecordedEvent>> = vec![
        vec![
            claim(Side::Black, ClaimKind::Repetition, Some("Nf6")),
            touch(Side::Black, "b8"),
            illegal(Side::Black, Some("b8b6"), None),
        ],
        vec![
            touch(Side::Black, "b8"),
            claim(Side::Black, ClaimKind::FiftyMoves, Some("Qh4")),
            illegal(Side::Black, Some("g8g5"), None),
            touch(Side::Black, "e2"),
        ],
        vec![
            illegal(Side::Black, Some("d8h4"), None),
            claim(Side::Black, ClaimKind::Repetition, Some("Nf6")),
            claim(Side::Black, ClaimKind::Repetition, Some("Bb4")),
        ],
    ];
    for events in sequences {
        let mut t = table_after(
            &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"],
            TimeControlKind::Standard,
        );
        for event in events {
            let _ = t.record(event);
            assert_an_acceptable_move_exists(&t);
        }
        let view = t.game.view();
        let first = view.obligations.acceptable_moves[0].clone();
        t.play(&first);
    }
}
