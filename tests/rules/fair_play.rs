//! Fair play (issue 23): the rulings of 11.3.2, 11.3.2.2, 11.3.3, 11.4 and 12.9 in each
//! edition, checked against the text of the Laws effective 1 January 2018 and 1 January
//! 2023, and the checks a fair-play record must pass. Given a game and a fact, when the
//! arbiter records it, then the Laws rule so.

use arbiter::game::event::{
    GameResult, LawsEdition, RecordedEvent, ServiceEvent, Side, Termination,
};
use arbiter::game::fair_play::{
    ArbiterChoice, DeviceLocation, FairPlayContext, FairPlayFact, FairPlayRecord, FairPlayRole,
    FoundBy, OpponentScore, PenaltyOption, Prior, RulingOutcome, SealedPayload, forfeit_of, ruling,
    time_penalty_of, validate,
};
use arbiter::rules::electronic_devices::{
    DeviceFinding, DeviceRegulations, device_found, fair_play_rules_name, inspection_refused,
};
use arbiter::rules::laws::{Rule, article};

use crate::table::{Table, ended, settings};

const BOTH: [LawsEdition; 2] = [LawsEdition::Y2018, LawsEdition::Y2023];

fn phone(location: DeviceLocation, switched_on: bool) -> FairPlayFact {
    FairPlayFact::DeviceFound {
        device: "phone".into(),
        location,
        switched_on,
        found_by: FoundBy::Sound,
        bag_used_without_permission: false,
        seized: false,
        decision: None,
    }
}

fn record(player: Option<Side>, fact: FairPlayFact) -> FairPlayRecord {
    FairPlayRecord {
        arbiter: "Chief arbiter".into(),
        at: "2026-05-03T15:20:00Z".parse().expect("a time"),
        player,
        witnesses: vec!["Deputy arbiter".into()],
        fact,
    }
}

fn prior(seq: u64, record: FairPlayRecord) -> Prior {
    Prior {
        seq,
        payload: SealedPayload {
            salt: "00".into(),
            record,
            board: Some(3),
            article: "11.3.3".into(),
            recorded_as: FairPlayRole::ChiefArbiter,
            proposal: false,
            ruling: None,
        },
    }
}

fn context<'a>(
    edition: LawsEdition,
    regulations: &'a DeviceRegulations,
    game_over: bool,
    prior: &'a [Prior],
) -> FairPlayContext<'a> {
    FairPlayContext {
        edition,
        regulations,
        game_over,
        prior,
    }
}

#[test]
fn the_prohibition_is_11_3_2_in_2023_and_11_3_2_1_in_2018_and_the_loss_is_11_3_2_2_in_both() {
    assert_eq!(
        article(LawsEdition::Y2023, Rule::DevicesForbidden),
        "11.3.2"
    );
    assert_eq!(
        article(LawsEdition::Y2018, Rule::DevicesForbidden),
        "11.3.2.1"
    );
    for edition in BOTH {
        assert_eq!(article(edition, Rule::DevicesInBag), "11.3.2.1");
        assert_eq!(article(edition, Rule::DeviceOnPerson), "11.3.2.2");
        assert_eq!(article(edition, Rule::Inspection), "11.3.3");
        assert_eq!(article(edition, Rule::Spectators), "11.4");
        assert_eq!(article(edition, Rule::FairPlayRules), "12.2.7");
    }
    assert_eq!(
        fair_play_rules_name(LawsEdition::Y2023),
        "Fair-Play Rules or Guidelines"
    );
    assert_eq!(
        fair_play_rules_name(LawsEdition::Y2018),
        "Anti-Cheating Rules or Guidelines"
    );
}

#[test]
fn a_phone_on_the_person_in_round_3_loses_under_both_editions_with_the_editions_article() {
    for (edition, cited) in [
        (LawsEdition::Y2018, "11.3.2.1, 11.3.2.2"),
        (LawsEdition::Y2023, "11.3.2, 11.3.2.2"),
    ] {
        // Given round 3 of a game under `edition`, in progress.
        let mut game_settings = settings(None, arbiter::game::event::TimeControlKind::Standard);
        game_settings.round = "3".into();
        game_settings.laws_edition = edition;
        let mut table = Table::with_settings(game_settings.clone());
        table.play("e4");
        // When the arbiter finds a phone on Black's person.
        let regulations = DeviceRegulations::default();
        let ctx = context(edition, &regulations, false, &[]);
        let found = record(Some(Side::Black), phone(DeviceLocation::OnPerson, false));
        validate(&ctx, &found).expect("a complete record");
        let ruled = ruling(&ctx, &found)
            .expect("no choice to check")
            .expect("a ruling");
        // Then Black loses and White wins, citing the edition's articles.
        assert_eq!(ruled.outcome, RulingOutcome::Loss, "{edition:?}");
        assert_eq!(ruled.article, cited, "{edition:?}");
        assert_eq!(ruled.ends_game(), Some(Side::Black));
        // And the public row ends the game with the result and 11.3.2.2 only.
        let forfeit = forfeit_of(edition, &ruled).expect("the ruling ends the game");
        let decisions = table
            .record(RecordedEvent::FairPlay {
                sealed: "a".repeat(64),
                forfeit: Some(forfeit),
                time_penalty: None,
            })
            .expect("accepted");
        let (result, termination, article) = ended(&decisions).expect("the game ends");
        assert_eq!(result, GameResult::WhiteWins);
        assert_eq!(termination, Termination::Arbiter);
        assert_eq!(article, "11.3.2.2");
        let Some(ServiceEvent::GameEnded { reason, .. }) = decisions.first() else {
            panic!("a game_ended");
        };
        assert_eq!(reason, "Article 11.3.2.2.");
    }
}

#[test]
fn the_opponent_wins_even_when_the_opponent_cannot_checkmate() {
    // Given White with king and rook against Black's bare king (Black cannot checkmate:
    // under 6.9 a flag fall would be a draw).
    let mut table = Table::new(Some("4k3/8/8/8/8/8/8/4K2R w - - 0 1"));
    let regulations = DeviceRegulations::default();
    let ctx = context(LawsEdition::Y2023, &regulations, false, &[]);
    // When a device is found on White's person.
    let ruled = ruling(
        &ctx,
        &record(Some(Side::White), phone(DeviceLocation::OnPerson, true)),
    )
    .expect("no choice")
    .expect("a ruling");
    let decisions = table
        .record(RecordedEvent::FairPlay {
            sealed: "b".repeat(64),
            forfeit: forfeit_of(LawsEdition::Y2023, &ruled),
            time_penalty: None,
        })
        .expect("accepted");
    // Then Black wins: "The opponent shall win", with no exception.
    assert_eq!(
        ended(&decisions).map(|(r, _, _)| r),
        Some(GameResult::BlackWins)
    );
}

#[test]
fn a_lesser_penalty_set_in_the_regulations_is_the_ruling_and_is_cited() {
    for edition in BOTH {
        // Given regulations that specify a less severe penalty: a warning (12.9.1).
        let regulations = DeviceRegulations {
            bags_allowed: false,
            lesser_penalty: Some(PenaltyOption::Warning),
            ..DeviceRegulations::default()
        };
        // When a phone is found on the person.
        let ruled = device_found(
            edition,
            &regulations,
            &DeviceFinding {
                player: Side::White,
                location: DeviceLocation::OnPerson,
                switched_on: true,
                bag_used_without_permission: false,
                game_over: false,
            },
        );
        // Then the ruling is the warning, citing 11.3.2.2 and 12.9.1; the game goes on.
        assert_eq!(ruled.outcome, RulingOutcome::LesserPenalty);
        assert!(ruled.article.ends_with("11.3.2.2"), "{}", ruled.article);
        assert_eq!(ruled.penalty, Some(PenaltyOption::Warning));
        assert_eq!(ruled.penalty_article.as_deref(), Some("12.9.1"));
        assert!(ruled.reason.contains("12.9.1"), "{}", ruled.reason);
        assert_eq!(ruled.ends_game(), None);
        assert_eq!(forfeit_of(edition, &ruled), None);
    }
}

#[test]
fn a_switched_off_phone_in_an_allowed_bag_gets_no_penalty() {
    for edition in BOTH {
        let regulations = DeviceRegulations {
            bags_allowed: true,
            lesser_penalty: None,
            ..DeviceRegulations::default()
        };
        let ctx = context(edition, &regulations, false, &[]);
        let ruled = ruling(
            &ctx,
            &record(Some(Side::Black), phone(DeviceLocation::InBag, false)),
        )
        .expect("no choice")
        .expect("a ruling");
        assert_eq!(ruled.outcome, RulingOutcome::NoPenalty);
        assert_eq!(ruled.article, "11.3.2.1");
        assert_eq!(ruled.ends_game(), None);
    }
}

#[test]
fn a_phone_in_a_bag_the_regulations_do_not_allow_leaves_the_arbiter_the_12_9_list() {
    let regulations = DeviceRegulations::default();
    let ctx = context(LawsEdition::Y2023, &regulations, false, &[]);
    let ruled = ruling(
        &ctx,
        &record(Some(Side::Black), phone(DeviceLocation::InBag, false)),
    )
    .expect("no choice")
    .expect("a ruling");
    assert_eq!(ruled.outcome, RulingOutcome::ArbiterChooses);
    assert_eq!(ruled.options, PenaltyOption::ALL.to_vec());
    assert_eq!(ruled.article, "11.3.2, 11.3.2.1, 12.9");
}

#[test]
fn a_refused_inspection_offers_the_12_9_list() {
    for edition in BOTH {
        let ruled = inspection_refused(edition, Side::White, false);
        assert_eq!(ruled.outcome, RulingOutcome::ArbiterChooses);
        assert_eq!(ruled.article, "11.3.3, 12.9");
        let numbers: Vec<String> = ruled.options.iter().map(|o| o.article(edition)).collect();
        assert_eq!(
            numbers,
            (1..=9).map(|n| format!("12.9.{n}")).collect::<Vec<_>>()
        );
        assert!(ruled.reason.contains("12.9.1") && ruled.reason.contains("12.9.9"));
    }
}

#[test]
fn the_arbiters_choice_needs_a_reason_and_12_9_6_also_the_opponents_score() {
    let regulations = DeviceRegulations::default();
    let request = record(
        Some(Side::White),
        FairPlayFact::InspectionRequested { reason: None },
    );
    let requested = [prior(5, request)];
    let ctx = context(LawsEdition::Y2023, &regulations, false, &requested);
    let refused = |decision: ArbiterChoice| {
        record(
            Some(Side::White),
            FairPlayFact::InspectionRefused {
                request_seq: 5,
                decision: Some(decision),
            },
        )
    };
    let no_reason = ruling(
        &ctx,
        &refused(ArbiterChoice {
            penalty: PenaltyOption::Expulsion,
            reason: None,
            opponent_score: None,
            time_ms: None,
        }),
    )
    .expect_err("a choice without a reason");
    assert_eq!(no_reason.field, "record.fact.decision.reason");
    let no_score = ruling(
        &ctx,
        &refused(ArbiterChoice {
            penalty: PenaltyOption::GameLost,
            reason: Some("refused to turn out the pockets".into()),
            opponent_score: None,
            time_ms: None,
        }),
    )
    .expect_err("12.9.6 without the opponent's score");
    assert_eq!(no_score.field, "record.fact.decision.opponent_score");
    let lost = ruling(
        &ctx,
        &refused(ArbiterChoice {
            penalty: PenaltyOption::GameLost,
            reason: Some("refused to turn out the pockets".into()),
            opponent_score: Some(OpponentScore::Win),
            time_ms: None,
        }),
    )
    .expect("a complete choice")
    .expect("a ruling");
    assert_eq!(lost.outcome, RulingOutcome::ArbiterChose);
    assert_eq!(lost.penalty_article.as_deref(), Some("12.9.6"));
    assert_eq!(lost.ends_game(), Some(Side::White));
    assert_eq!(
        forfeit_of(LawsEdition::Y2023, &lost).map(|f| f.article),
        Some("12.9.6".into())
    );
}

#[test]
fn a_device_after_the_game_is_recorded_with_no_ruling() {
    for edition in BOTH {
        let regulations = DeviceRegulations::default();
        let ctx = context(edition, &regulations, true, &[]);
        let ruled = ruling(
            &ctx,
            &record(Some(Side::Black), phone(DeviceLocation::OnPerson, true)),
        )
        .expect("no choice")
        .expect("a ruling");
        assert_eq!(ruled.outcome, RulingOutcome::Spectator);
        assert_eq!(ruled.article, "11.4");
        assert_eq!(ruled.ends_game(), None);
    }
    // And the engine accepts the sealed row after the end, with no decision.
    let mut table = Table::new(None);
    table
        .record(RecordedEvent::Resign { by: Side::White })
        .expect("resignation");
    let decisions = table
        .record(RecordedEvent::FairPlay {
            sealed: "c".repeat(64),
            forfeit: None,
            time_penalty: None,
        })
        .expect("a fair-play fact after the end is kept");
    assert!(decisions.is_empty());
}

#[test]
fn an_inspection_done_with_no_inspector_is_refused_naming_the_field() {
    let regulations = DeviceRegulations::default();
    let requested = [prior(
        4,
        record(
            Some(Side::Black),
            FairPlayFact::InspectionRequested { reason: None },
        ),
    )];
    let ctx = context(LawsEdition::Y2023, &regulations, false, &requested);
    let done = |inspector: Option<&str>| {
        record(
            Some(Side::Black),
            FairPlayFact::InspectionDone {
                request_seq: 4,
                inspector: inspector.map(str::to_string),
                same_gender_confirmed: true,
                private_room: true,
                witness: None,
                outcome: "nothing found".into(),
            },
        )
    };
    let refused = validate(&ctx, &done(None)).expect_err("no inspector");
    assert_eq!(refused.field, "record.fact.inspector");
    validate(&ctx, &done(Some("Deputy arbiter"))).expect("a complete inspection");
}

#[test]
fn a_refusal_after_a_completed_inspection_is_refused_naming_the_field() {
    let regulations = DeviceRegulations::default();
    let history = [
        prior(
            4,
            record(
                Some(Side::Black),
                FairPlayFact::InspectionRequested { reason: None },
            ),
        ),
        prior(
            5,
            record(
                Some(Side::Black),
                FairPlayFact::InspectionDone {
                    request_seq: 4,
                    inspector: Some("Deputy arbiter".into()),
                    same_gender_confirmed: true,
                    private_room: true,
                    witness: None,
                    outcome: "nothing found".into(),
                },
            ),
        ),
    ];
    let ctx = context(LawsEdition::Y2023, &regulations, false, &history);
    let refusal = record(
        Some(Side::Black),
        FairPlayFact::InspectionRefused {
            request_seq: 4,
            decision: None,
        },
    );
    let refused = validate(&ctx, &refusal).expect_err("the inspection was completed");
    assert_eq!(refused.field, "record.fact.request_seq");
    assert!(
        refused.message.contains("already done"),
        "{}",
        refused.message
    );
}

#[test]
fn a_complaint_with_no_respondent_or_facts_is_refused_naming_the_field() {
    let regulations = DeviceRegulations::default();
    let ctx = context(LawsEdition::Y2023, &regulations, false, &[]);
    let complaint = |respondent: bool, facts: Option<&str>| {
        record(
            None,
            FairPlayFact::ComplaintLodged {
                stage: arbiter::game::fair_play::ComplaintStage::InTournament,
                complainant: Some(arbiter::game::fair_play::Party {
                    name: "White, Wanda".into(),
                    fide_id: Some(1),
                }),
                respondent: respondent.then(|| arbiter::game::fair_play::Party {
                    name: "Black, Bob".into(),
                    fide_id: Some(2),
                }),
                facts: facts.map(str::to_string),
                attachments: vec![],
                signed_at: Some("2026-05-03T16:00:00Z".parse().expect("a time")),
            },
        )
    };
    assert_eq!(
        validate(&ctx, &complaint(false, Some("left the hall often")))
            .expect_err("no respondent")
            .field,
        "record.fact.respondent"
    );
    assert_eq!(
        validate(&ctx, &complaint(true, Some("  ")))
            .expect_err("no facts")
            .field,
        "record.fact.facts"
    );
    validate(&ctx, &complaint(true, Some("left the hall often"))).expect("a complete complaint");
}

#[test]
fn a_custody_change_for_an_item_never_seized_is_refused_naming_the_field() {
    let regulations = DeviceRegulations::default();
    let history = [prior(
        6,
        record(Some(Side::White), phone(DeviceLocation::OnPerson, true)),
    )];
    let ctx = context(LawsEdition::Y2023, &regulations, false, &history);
    let custody = |item_seq| {
        record(
            None,
            FairPlayFact::CustodyChanged {
                item_seq,
                action: arbiter::game::fair_play::CustodyAction::Stored,
                from: "Chief arbiter".into(),
                to: "Arbiters' safe".into(),
                witness: None,
            },
        )
    };
    for item_seq in [6, 99] {
        assert_eq!(
            validate(&ctx, &custody(item_seq))
                .expect_err("nothing seized there")
                .field,
            "record.fact.item_seq"
        );
    }
}

#[test]
fn a_lesser_time_penalty_of_the_regulations_adds_the_opponents_time_under_both_editions() {
    for edition in BOTH {
        // Given regulations whose lesser penalty is 12.9.2, two minutes.
        let regulations = DeviceRegulations {
            lesser_penalty: Some(PenaltyOption::OpponentTimeIncreased),
            lesser_penalty_ms: Some(120_000),
            ..DeviceRegulations::default()
        };
        let ctx = context(edition, &regulations, false, &[]);
        // When a phone is found on Black's person.
        let ruled = ruling(
            &ctx,
            &record(Some(Side::Black), phone(DeviceLocation::OnPerson, true)),
        )
        .expect("no choice")
        .expect("a ruling");
        assert_eq!(ruled.outcome, RulingOutcome::LesserPenalty);
        assert_eq!(ruled.penalty_article.as_deref(), Some("12.9.2"));
        assert!(ruled.reason.contains("2 minutes"), "{}", ruled.reason);
        // Then the public row carries the change, and the engine adds the time to White's
        // clock as a penalty_applied citing 12.9.2, as any time the Laws give.
        let time_penalty = time_penalty_of(edition, &ruled).expect("a clock change");
        assert_eq!(
            (time_penalty.side, time_penalty.delta_ms),
            (Side::White, 120_000)
        );
        let mut table = Table::new(None);
        let decisions = table
            .record(RecordedEvent::FairPlay {
                sealed: "d".repeat(64),
                forfeit: forfeit_of(edition, &ruled),
                time_penalty: Some(time_penalty),
            })
            .expect("accepted");
        match decisions.as_slice() {
            [
                ServiceEvent::PenaltyApplied {
                    side,
                    add_ms,
                    article,
                    ..
                },
            ] => {
                assert_eq!((*side, *add_ms), (Side::White, 120_000), "{edition:?}");
                assert_eq!(article, "12.9.2");
            }
            other => panic!("one penalty_applied, not {other:?}"),
        }
        let clocks = table.game.view().clocks;
        assert_eq!(clocks.white_ms, Some(5_400_000 + 120_000), "{edition:?}");
        assert_eq!(clocks.black_ms, Some(5_400_000), "{edition:?}");
    }
}

#[test]
fn the_arbiters_choice_to_reduce_the_offenders_time_needs_the_time_and_takes_it_off_the_clock() {
    for edition in BOTH {
        let regulations = DeviceRegulations::default();
        let ctx = context(edition, &regulations, false, &[]);
        let refused_inspection = |time_ms: Option<u64>| {
            record(
                Some(Side::White),
                FairPlayFact::InspectionRefused {
                    request_seq: 2,
                    decision: Some(ArbiterChoice {
                        penalty: PenaltyOption::OffenderTimeReduced,
                        reason: Some("refused to show the left pocket".into()),
                        opponent_score: None,
                        time_ms,
                    }),
                },
            )
        };
        // Without the time, the choice names the field to fill in.
        let refused = ruling(&ctx, &refused_inspection(None)).expect_err("the time is needed");
        assert_eq!(refused.field, "record.fact.decision.time_ms", "{edition:?}");
        assert!(refused.message.contains("12.9.3"), "{}", refused.message);
        // With it, 12.9.3 takes five minutes from White's clock.
        let ruled = ruling(&ctx, &refused_inspection(Some(300_000)))
            .expect("a choice")
            .expect("a ruling");
        assert_eq!(ruled.outcome, RulingOutcome::ArbiterChose);
        let time_penalty = time_penalty_of(edition, &ruled).expect("a clock change");
        assert_eq!(
            (
                time_penalty.side,
                time_penalty.delta_ms,
                time_penalty.article.as_str()
            ),
            (Side::White, -300_000, "12.9.3"),
            "{edition:?}"
        );
        let mut table = Table::new(None);
        let decisions = table
            .record(RecordedEvent::FairPlay {
                sealed: "e".repeat(64),
                forfeit: None,
                time_penalty: Some(time_penalty),
            })
            .expect("accepted");
        assert!(
            decisions.is_empty(),
            "the row itself takes the time: {decisions:?}"
        );
        let clocks = table.game.view().clocks;
        assert_eq!(clocks.white_ms, Some(5_400_000 - 300_000), "{edition:?}");
        assert_eq!(clocks.black_ms, Some(5_400_000), "{edition:?}");
        // A time with any other option is refused, naming the field.
        let mut warning = refused_inspection(Some(60_000));
        if let FairPlayFact::InspectionRefused {
            decision: Some(choice),
            ..
        } = &mut warning.fact
        {
            choice.penalty = PenaltyOption::Warning;
        }
        let refused = ruling(&ctx, &warning).expect_err("no time with a warning");
        assert_eq!(refused.field, "record.fact.decision.time_ms");
    }
}

#[test]
fn a_lesser_penalty_of_12_9_6_with_the_opponent_scoring_half_ends_the_game_0_to_half() {
    for (edition, cited) in [
        (LawsEdition::Y2018, "11.3.2.1, 11.3.2.2"),
        (LawsEdition::Y2023, "11.3.2, 11.3.2.2"),
    ] {
        // Given regulations that write "loss, the opponent scores ½" (12.9.6 as the lesser
        // penalty of 11.3.2.2, the opponent's score set at a draw).
        let regulations = DeviceRegulations {
            lesser_penalty: Some(PenaltyOption::GameLost),
            lesser_penalty_opponent_score: Some(OpponentScore::Draw),
            ..DeviceRegulations::default()
        };
        let ctx = context(edition, &regulations, false, &[]);
        // When a phone is found on White's person.
        let ruled = ruling(
            &ctx,
            &record(Some(Side::White), phone(DeviceLocation::OnPerson, false)),
        )
        .expect("no choice")
        .expect("a ruling");
        // Then the ruling is that lesser penalty, citing 11.3.2.2 and 12.9.6 with the score.
        assert_eq!(ruled.outcome, RulingOutcome::LesserPenalty, "{edition:?}");
        assert_eq!(ruled.article, cited);
        assert_eq!(ruled.penalty, Some(PenaltyOption::GameLost));
        assert_eq!(ruled.penalty_article.as_deref(), Some("12.9.6"));
        assert_eq!(ruled.opponent_score, Some(OpponentScore::Draw));
        assert!(
            ruled.reason.contains("12.9.6") && ruled.reason.contains("½"),
            "{}",
            ruled.reason
        );
        assert_eq!(ruled.ends_game(), Some(Side::White));
        // And the public row ends the game with White's loss and ½ for Black.
        let forfeit = forfeit_of(edition, &ruled).expect("the ruling ends the game");
        assert_eq!(forfeit.opponent_score, Some(OpponentScore::Draw));
        assert_eq!(forfeit.article, "11.3.2.2, 12.9.6");
        let mut table = Table::new(None);
        table.play("e4");
        let decisions = table
            .record(RecordedEvent::FairPlay {
                sealed: "e".repeat(64),
                forfeit: Some(forfeit),
                time_penalty: None,
            })
            .expect("accepted");
        let (result, termination, article) = ended(&decisions).expect("the game ends");
        assert_eq!(result, GameResult::WhiteLosesBlackHalf, "{edition:?}");
        assert_eq!(result.pgn(), "0-1/2");
        assert_eq!(termination, Termination::Arbiter);
        assert_eq!(article, "11.3.2.2, 12.9.6");
    }
}

#[test]
fn a_lesser_penalty_of_12_9_6_with_the_opponents_win_or_no_score_is_the_loss_itself() {
    for score in [None, Some(OpponentScore::Win)] {
        let regulations = DeviceRegulations {
            lesser_penalty: Some(PenaltyOption::GameLost),
            lesser_penalty_opponent_score: score,
            ..DeviceRegulations::default()
        };
        let ctx = context(LawsEdition::Y2023, &regulations, false, &[]);
        let ruled = ruling(
            &ctx,
            &record(Some(Side::Black), phone(DeviceLocation::OnPerson, false)),
        )
        .expect("no choice")
        .expect("a ruling");
        assert_eq!(ruled.outcome, RulingOutcome::Loss, "{score:?}");
        let forfeit = forfeit_of(LawsEdition::Y2023, &ruled).expect("the loss");
        assert_eq!(forfeit.opponent_score, None, "the opponent wins");
        assert_eq!(forfeit.article, "11.3.2.2");
    }
}

#[test]
fn the_arbiters_12_9_6_with_a_draw_or_a_loss_for_the_opponent_ends_the_game_with_that_score() {
    let regulations = DeviceRegulations::default();
    let ctx = context(LawsEdition::Y2023, &regulations, false, &[]);
    for (score, loser, expected) in [
        (
            OpponentScore::Draw,
            Side::Black,
            GameResult::BlackLosesWhiteHalf,
        ),
        (
            OpponentScore::Draw,
            Side::White,
            GameResult::WhiteLosesBlackHalf,
        ),
        (OpponentScore::Loss, Side::White, GameResult::BothLose),
        (OpponentScore::Win, Side::White, GameResult::BlackWins),
    ] {
        // Given a device in a bag the regulations do not allow: the arbiter chooses 12.9.6.
        let mut found = phone(DeviceLocation::InBag, true);
        if let FairPlayFact::DeviceFound { decision, .. } = &mut found {
            *decision = Some(ArbiterChoice {
                penalty: PenaltyOption::GameLost,
                reason: Some("the phone rang twice".into()),
                opponent_score: Some(score),
                time_ms: None,
            });
        }
        let ruled = ruling(&ctx, &record(Some(loser), found))
            .expect("a complete choice")
            .expect("a ruling");
        assert_eq!(ruled.ends_game(), Some(loser), "{score:?}");
        let mut table = Table::new(None);
        let decisions = table
            .record(RecordedEvent::FairPlay {
                sealed: "f".repeat(64),
                forfeit: forfeit_of(LawsEdition::Y2023, &ruled),
                time_penalty: None,
            })
            .expect("accepted");
        let (result, _, article) = ended(&decisions).expect("the game ends");
        assert_eq!(result, expected, "{score:?} for {loser:?}'s opponent");
        assert_eq!(article, "12.9.6");
    }
}
