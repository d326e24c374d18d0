//! Tie-breaks (FIDE C.07) against worked examples: the regulation's own examples of the
//! virtual opponent (rules before 2023), the FIDE Technical Commission's exercise on the 2023
//! unplayed-round rules, and small tournaments worked by hand.

use arbiter::rules::tie_breaks::{
    Field, RoundOutcome, TieBreak, Unplayed, UnplayedRounds, ranks, standings,
    virtual_opponent_score,
};

fn played(opponent: usize, half_points: u32, black: bool) -> RoundOutcome {
    RoundOutcome::Played {
        opponent,
        half_points,
        black,
    }
}

fn unplayed(kind: Unplayed) -> RoundOutcome {
    let half_points = match kind {
        Unplayed::PairingBye | Unplayed::FullPointBye | Unplayed::ForfeitWin => 2,
        Unplayed::HalfPointBye => 1,
        Unplayed::ZeroPointBye | Unplayed::ForfeitLoss | Unplayed::NotPaired => 0,
    };
    RoundOutcome::Unplayed { half_points, kind }
}

fn field<'a>(
    rounds: &'a [Vec<RoundOutcome>],
    ratings: &'a [Option<u32>],
    unplayed: UnplayedRounds,
) -> Field<'a> {
    Field {
        rounds,
        ratings,
        completed: rounds.first().map_or(0, Vec::len),
        unplayed,
    }
}

/// The regulation's examples (C.07 before 2023): "in Round 3 of a nine-round tournament
/// Player P did not show up. Player P's score after 2 rounds is 1.5. ... Svon = 1.5 +
/// (1 - 0) + 0.5 * (3 - 3) = 2.5 after round 3; Svon = 1.5 + (1 - 0) + 0.5 * (9 - 3) = 5.5
/// at the end". "In Round 6 ... player P's opponent does not show up. Player P's score after
/// 5 rounds is 3.5 ... Svon = 3.5 + (1 - 1) + 0.5 * (6 - 6) = 3.5 after round 6; 5.0 at the
/// end of the tournament".
#[test]
fn the_virtual_opponent_scores_as_the_regulations_examples_compute() {
    let mut absent = vec![played(1, 2, false), played(2, 1, true)];
    absent.push(unplayed(Unplayed::ForfeitLoss));
    absent.extend(std::iter::repeat_n(played(3, 0, false), 6));
    assert_eq!(virtual_opponent_score(&absent, 3, 3), 5, "2.5");
    assert_eq!(virtual_opponent_score(&absent, 3, 9), 11, "5.5");

    let mut present = vec![
        played(1, 2, false),
        played(2, 2, true),
        played(3, 1, false),
        played(4, 2, true),
        played(5, 0, false),
    ];
    present.push(unplayed(Unplayed::ForfeitWin));
    present.extend(std::iter::repeat_n(played(6, 0, false), 3));
    assert_eq!(virtual_opponent_score(&present, 6, 6), 7, "3.5");
    assert_eq!(virtual_opponent_score(&present, 6, 9), 10, "5.0");
}

/// The examples of the 2009 FIDE Congress minutes the older rules come from (Swiss Pairings
/// Programs Committee, Kallithea, "Handling of unplayed games in Swiss tournaments"): "In a
/// 9 round swiss the player A achieves 6 points including a default win in round 3. After
/// round 2 A had 2 points score. The contribution of round 3 for A is 2 + 0 + 6 x 0.5 = 5
/// points Buchholz. The contribution of A for his opponents' Buchholz is 5.5"; "the player B
/// was absent in round 7 and scored 6 points after round 9. After round 6 B had 4 points.
/// The contribution of round 7 for B is 4 + 1 + 2 x 0.5 = 6 points Buchholz. The
/// contribution of B for his opponents' Buchholz is 6.5".
#[test]
fn the_older_rules_give_the_2009_minutes_examples() {
    // Opponents 1.. are placeholders that never play (only their index is read).
    let win = |o| played(o, 2, false);
    let loss = |o| played(o, 0, true);
    let a = vec![
        win(1),
        win(2),
        unplayed(Unplayed::ForfeitWin),
        win(3),
        win(4),
        win(5),
        loss(6),
        loss(7),
        loss(8),
    ];
    let b = vec![
        win(1),
        win(2),
        win(3),
        win(4),
        loss(5),
        loss(6),
        unplayed(Unplayed::ForfeitLoss),
        win(7),
        win(8),
    ];
    assert_eq!(virtual_opponent_score(&a, 3, 9), 10, "5 points");
    assert_eq!(virtual_opponent_score(&b, 7, 9), 12, "6 points");
    let mut rounds = vec![a, b];
    rounds.extend(std::iter::repeat_n(
        vec![unplayed(Unplayed::NotPaired); 9],
        8,
    ));
    let ratings = vec![None; rounds.len()];
    let field = field(&rounds, &ratings, UnplayedRounds::Before2023);
    assert_eq!((field.score(0), field.score(1)), (12, 12), "6 points each");
    assert_eq!(field.score_for_opponents(0), 11, "5.5");
    assert_eq!(field.score_for_opponents(1), 13, "6.5");
    // Under the 2023 rules both count for their opponents with their real 6 points.
    let now = super::tie_breaks::field(&rounds, &ratings, UnplayedRounds::Fide2023);
    assert_eq!(now.score_for_opponents(0), 12);
    assert_eq!(now.score_for_opponents(1), 12);
}

/// The exercise the FIDE Technical Commission published on 18 March 2024 for the 2023 rules
/// (tec.fide.com, "Tie-break exercise"): a five-round Swiss of 16 players, each round written
/// as the result, the colour (`F` a forfeit) and the opponent; `BYE` a bye (`+` the
/// pairing-allocated one, `=` a half-point bye), `--` not paired. Player 12 lost to 4, had
/// round 2's pairing-allocated bye (the only player of 16 left unpaired), won by forfeit
/// against 14 and was not paired again.
fn tec_exercise() -> Vec<Vec<RoundOutcome>> {
    let rows = [
        "+W9 =B13 =W2 +B15 =W4",
        "+B10 +W7 =B1 +W16 =B3",
        "=W11 +B6 +W8 =B4 =W2",
        "+B12 =BYE +W13 =W3 =B1",
        "-W13 -B15 +W11 =B7 +W10",
        "-B14 -W3 +BYE +W10 +B8",
        "+W15 -B2 -B16 =W5 -B11",
        "=B16 +W14 -B3 +W13 -W6",
        "-B1 -W10 =BYE -F11 +BYE",
        "-W2 +B9 -W15 -B6 -B5",
        "=B3 -W16 -B5 +F9 +W7",
        "-W4 +BYE +F14 -- --",
        "+B5 =W1 -B4 -B8 -W14",
        "+W6 -B8 -F12 -- +B13",
        "-B7 +W5 +B10 -W1 -B16",
        "=W8 +B11 +W7 -B2 +W15",
    ];
    rows.iter()
        .map(|row| {
            row.split_whitespace()
                .map(|cell| {
                    let half_points = match &cell[..1] {
                        "+" => 2,
                        "=" => 1,
                        _ => 0,
                    };
                    match &cell[1..] {
                        "-" => unplayed(Unplayed::NotPaired),
                        "BYE" if half_points == 2 => unplayed(Unplayed::PairingBye),
                        "BYE" => unplayed(Unplayed::HalfPointBye),
                        rest => {
                            let opponent = rest[1..].parse::<usize>().expect("a number") - 1;
                            match &rest[..1] {
                                "F" if half_points == 2 => unplayed(Unplayed::ForfeitWin),
                                "F" => unplayed(Unplayed::ForfeitLoss),
                                colour => played(opponent, half_points, colour == "B"),
                            }
                        }
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_2023_rules_give_the_buchholz_of_the_technical_commissions_exercise() {
    let rounds = tec_exercise();
    let ratings = vec![None; rounds.len()];
    let field = field(&rounds, &ratings, UnplayedRounds::Fide2023);
    // Quarter points; players by their number.
    let bh = |player: usize| f64::from(field.value(player - 1, TieBreak::Buchholz)) / 4.0;
    let cut = |player: usize| f64::from(field.value(player - 1, TieBreak::BuchholzCut1)) / 4.0;
    assert_eq!(bh(2), 13.0);
    assert_eq!((bh(1), bh(3)), (12.5, 15.5));
    // Player 4's half-point bye counts as a game against a dummy with 4's own 3.5 (16.4);
    // player 12, absent after its forfeit win, counts its last two rounds as draws for its
    // opponents (16.3): 0 + 1 + 1 + ½ + ½ = 3.
    assert_eq!((bh(16), bh(4)), (12.5, 15.0));
    // Player 11's forfeit win counts the dummy's 2.5 (its own score), not the absent
    // player 9's 1.5.
    assert_eq!((bh(5), bh(8), bh(11)), (8.5, 13.5, 13.5));
    assert_eq!((cut(5), cut(8), cut(11)), (7.5, 12.0, 12.0));
}

#[test]
fn the_older_rules_give_the_same_exercise_other_values_through_the_virtual_opponent() {
    let rounds = tec_exercise();
    let ratings = vec![None; rounds.len()];
    let field = field(&rounds, &ratings, UnplayedRounds::Before2023);
    let bh = |player: usize| f64::from(field.value(player - 1, TieBreak::Buchholz)) / 4.0;
    // Player 11 (2.5 points): opponents 3 (3.5, all played), 16 (3.5), 5 (2.5), 7 (1.5), and
    // in round 4 (a forfeit win) a virtual opponent with 0.5 + (1 - 1) + 0.5 × (5 - 4) = 1.
    assert_eq!(bh(11), 3.5 + 3.5 + 2.5 + 1.5 + 1.0);
    // Player 4's opponent 12 counts its unplayed rounds (2 to 5) as draws: 0 + 4 × ½ = 2; its
    // own half-point bye of round 2, a virtual opponent with 1 + (1 - ½) + 3 × ½ = 3.
    assert_eq!(bh(4), 2.0 + 3.0 + 1.5 + 3.5 + 3.5);
}

/// With a voluntarily unplayed round, Cut-1 leaves that round out first even when a real
/// opponent scored less (2023).
#[test]
fn a_cut_leaves_out_a_voluntarily_unplayed_round_first_under_the_2023_rules() {
    // Four players, three rounds. A: draws B, half-point bye, beats C (2). B: draws A, beats
    // C, beats D (2.5). C: beats D, loses to B and A (1). D: loses to C, pairing-allocated
    // bye, loses to B (1).
    let (a, b, c, d) = (0, 1, 2, 3);
    let rounds = vec![
        vec![
            played(b, 1, false),
            unplayed(Unplayed::HalfPointBye),
            played(c, 2, false),
        ],
        vec![played(a, 1, true), played(c, 2, false), played(d, 2, true)],
        vec![played(d, 2, true), played(b, 0, true), played(a, 0, true)],
        vec![
            played(c, 0, false),
            unplayed(Unplayed::PairingBye),
            played(b, 0, false),
        ],
    ];
    let ratings = vec![None; 4];
    let now = field(&rounds, &ratings, UnplayedRounds::Fide2023);
    // A: 2 points; opponents B 2.5, dummy 2 (A's own), C 1. BH 5.5; Cut-1 drops the bye's 2
    // (a VUR), not C's 1: 3.5.
    assert_eq!(now.value(a, TieBreak::Buchholz), 22);
    assert_eq!(now.value(a, TieBreak::BuchholzCut1), 14);
    // Cut-2 drops the bye, then C: 2.5; Median-1 drops the bye and B: 1.
    assert_eq!(now.value(a, TieBreak::BuchholzCut2), 10);
    assert_eq!(now.value(a, TieBreak::MedianBuchholz), 4);
    // Before 2023 the lowest goes: the virtual opponent has 0.5 + (1 - 0.5) + 0.5 × (3 - 2)
    // = 1.5, B 2.5 and C 1: BH 5, Cut-1 drops C: 4.
    let before = field(&rounds, &ratings, UnplayedRounds::Before2023);
    assert_eq!(before.value(a, TieBreak::Buchholz), 4 * 5);
    assert_eq!(before.value(a, TieBreak::BuchholzCut1), 4 * 4);
    // Median-2 of three values leaves nothing.
    assert_eq!(now.value(a, TieBreak::MedianBuchholz2), 0);
}

/// A four-player all-play-all worked by hand. Results: A-B 1-0, C-D ½-½ (round 1); A-C
/// ½-½, B-D 1-0 (round 2); A-D 1-0, B-C 0-1 (round 3). Scores: A 2.5, C 2, B 1, D 0.5.
fn round_robin() -> Vec<Vec<RoundOutcome>> {
    let (a, b, c, d) = (0, 1, 2, 3);
    vec![
        vec![played(b, 2, false), played(c, 1, true), played(d, 2, false)],
        vec![played(a, 0, true), played(d, 2, false), played(c, 0, true)],
        vec![
            played(d, 1, false),
            played(a, 1, false),
            played(b, 2, false),
        ],
        vec![played(c, 1, true), played(b, 0, true), played(a, 0, true)],
    ]
}

#[test]
fn buchholz_sonneborn_berger_and_the_counts_of_a_hand_worked_round_robin() {
    let all = round_robin();
    let ratings = [Some(2200), Some(2000), None, Some(1800)];
    let field = field(&all, &ratings, UnplayedRounds::Fide2023);
    let v = |who, tb| field.value(who, tb);
    // A's opponents: B 1, C 2, D 0.5: BH 3.5 = 14 quarters; cut-1 drops D: 3; median 2.
    assert_eq!(v(0, TieBreak::Buchholz), 14);
    assert_eq!(v(0, TieBreak::BuchholzCut1), 12);
    assert_eq!(v(0, TieBreak::MedianBuchholz), 4);
    // SB of A: B 1 × 1 + C 2 × ½ + D 0.5 × 1 = 2.5.
    assert_eq!(v(0, TieBreak::SonnebornBerger), 10);
    // SB of C: D 0.5 × ½ + A 2.5 × ½ + B 1 × 1 = 2.5.
    assert_eq!(v(2, TieBreak::SonnebornBerger), 10);
    // Progressive of A: 1 + 1.5 + 2.5 = 5.
    assert_eq!(v(0, TieBreak::Progressive), 20);
    // Koya (at least 1.5 of 3): A scored ½ against C; C scored ½ against A.
    assert_eq!(v(0, TieBreak::Koya), 2);
    assert_eq!(v(2, TieBreak::Koya), 2);
    assert_eq!(v(0, TieBreak::GamesWon), 8);
    assert_eq!(v(1, TieBreak::GamesWithBlack), 8);
    // ARO of A: B 2000, C unrated, D 1800: (2000 + 1800) / 2 = 1900; cut-1 leaves the
    // unrated one out first: still 1900. ARO of C: D 1800, A 2200, B 2000 = 2000; cut-1
    // drops 1800: 2100. ARO of B: A 2200, D 1800, C unrated: 2000.
    assert_eq!(v(0, TieBreak::AverageRating), 4 * 1900);
    assert_eq!(v(0, TieBreak::AverageRatingCut1), 4 * 1900);
    assert_eq!(v(2, TieBreak::AverageRating), 4 * 2000);
    assert_eq!(v(2, TieBreak::AverageRatingCut1), 4 * 2100);
    assert_eq!(v(1, TieBreak::AverageRating), 4 * 2000);
}

#[test]
fn the_average_rating_is_rounded_to_the_nearest_unit() {
    // D met A 2200, B 2000 and C 1801: 6001 / 3 = 2000.33, 2000; A met B 2000 and D 1995
    // (and C unrated): 1997.5, 1998.
    let all = round_robin();
    let ratings = [Some(2200), Some(2000), Some(1801), Some(1995)];
    let field = field(&all, &ratings, UnplayedRounds::Fide2023);
    assert_eq!(field.value(3, TieBreak::AverageRating), 4 * 2000);
    let no_c = [Some(2200), Some(2000), None, Some(1995)];
    let field = super::tie_breaks::field(&all, &no_c, UnplayedRounds::Fide2023);
    assert_eq!(field.value(0, TieBreak::AverageRating), 4 * 1998);
}

#[test]
fn wins_count_a_forfeit_win_and_a_bye_and_games_won_only_the_games_played() {
    let rounds = vec![
        vec![
            played(1, 2, false),
            unplayed(Unplayed::ForfeitWin),
            unplayed(Unplayed::PairingBye),
            unplayed(Unplayed::HalfPointBye),
        ],
        vec![
            played(0, 0, true),
            unplayed(Unplayed::ForfeitLoss),
            unplayed(Unplayed::NotPaired),
            unplayed(Unplayed::ZeroPointBye),
        ],
    ];
    let ratings = [None, None];
    let field = field(&rounds, &ratings, UnplayedRounds::Fide2023);
    assert_eq!(field.value(0, TieBreak::Wins), 4 * 3);
    assert_eq!(field.value(0, TieBreak::GamesWon), 4);
    assert_eq!(field.value(1, TieBreak::Wins), 0);
}

#[test]
fn the_ranks_break_ties_by_the_order_given_and_share_what_stays_equal() {
    // A beats B, C beats D, then A-C and B-D drawn: A and C 1.5, B and D 0.5.
    let (a, b, c, d) = (0, 1, 2, 3);
    let all = vec![
        vec![played(b, 2, false), played(c, 1, false)],
        vec![played(a, 0, true), played(d, 1, false)],
        vec![played(d, 2, false), played(a, 1, true)],
        vec![played(c, 0, true), played(b, 1, true)],
    ];
    let ratings = [None; 4];
    let field = field(&all, &ratings, UnplayedRounds::Fide2023);
    // Without tie-breaks ties share a rank.
    assert_eq!(ranks(&field, &[]), vec![1, 3, 1, 3]);
    // BH: A's opponents B 0.5 + C 1.5 = 2; C's D 0.5 + A 1.5 = 2: still equal; B's and
    // D's 2 each too. Games with Black: C once, A never; D twice, B once.
    assert_eq!(
        ranks(&field, &[TieBreak::Buchholz, TieBreak::GamesWithBlack]),
        vec![2, 4, 1, 3]
    );
    // Direct encounter: A and C drew, B and D drew: nothing separates them.
    assert_eq!(
        ranks(&field, &[TieBreak::DirectEncounter]),
        vec![1, 3, 1, 3]
    );
}

#[test]
fn direct_encounter_ranks_the_tied_by_their_games_among_themselves_when_all_have_met() {
    // A single round robin of four, everyone on 1.5.
    let (a, b, c, d) = (0, 1, 2, 3);
    let all = vec![
        // A: beats B, draws C, loses to D: 1.5.
        vec![played(b, 2, false), played(c, 1, true), played(d, 0, false)],
        // B: loses to A, beats C, draws D: 1.5.
        vec![played(a, 0, true), played(c, 2, false), played(d, 1, true)],
        // C: beats D, draws A, loses to B: 1.5.
        vec![played(d, 2, false), played(a, 1, false), played(b, 0, true)],
        // D: loses to C, draws B, beats A: 1.5.
        vec![played(c, 0, true), played(b, 1, false), played(a, 2, true)],
    ];
    let ratings = [None; 4];
    let field = field(&all, &ratings, UnplayedRounds::Fide2023);
    // All four tied and all have met: A 1.5, B 1.5, C 1.5, D 1.5 among themselves: equal.
    assert_eq!(
        ranks(&field, &[TieBreak::DirectEncounter]),
        vec![1, 1, 1, 1]
    );
    let lines = standings(&field, &[TieBreak::DirectEncounter]);
    assert_eq!(lines[0].values, vec![6], "1.5 points among the tied");

    // Two pairs of tied players.
    let all = vec![
        vec![played(b, 2, false), played(c, 2, true), played(d, 0, false)],
        vec![played(a, 0, true), played(c, 2, false), played(d, 2, true)],
        vec![played(d, 2, false), played(a, 0, false), played(b, 0, true)],
        vec![played(c, 0, true), played(b, 0, false), played(a, 2, true)],
    ];
    let field = super::tie_breaks::field(&all, &ratings, UnplayedRounds::Fide2023);
    // Points: A 2, B 2, C 1, D 1. Among A and B: A beat B. Among C and D: C beat D.
    assert_eq!(
        ranks(&field, &[TieBreak::DirectEncounter]),
        vec![1, 2, 3, 4]
    );
}

#[test]
fn direct_encounter_in_a_swiss_places_a_player_above_only_if_the_others_cannot_reach_it() {
    // Three players tied on 2 of 3 in a Swiss, with outsiders X and Y. A beat B; neither met
    // C. A has 1 point among the tied; B 0 and could reach 1 by beating C; C 0 and could
    // reach 2: A cannot be placed above C, so nobody is separated.
    let (a, b, c, x, y) = (0, 1, 2, 3, 4);
    let all = vec![
        vec![played(b, 2, false), played(x, 0, true), played(y, 2, false)],
        vec![played(a, 0, true), played(y, 2, false), played(x, 2, true)],
        vec![played(x, 2, false), played(y, 2, true), played(x, 0, true)],
        vec![played(c, 0, true), played(a, 2, false), played(b, 0, false)],
        vec![played(x, 0, false), played(b, 0, true), played(a, 0, true)],
    ];
    let ratings = [None; 5];
    let field = field(&all, &ratings, UnplayedRounds::Fide2023);
    assert_eq!(field.score(a), 4);
    assert_eq!(field.score(b), 4);
    assert_eq!(field.score(c), 4);
    let ranked = ranks(&field, &[TieBreak::DirectEncounter]);
    assert_eq!((ranked[a], ranked[b], ranked[c]), (1, 1, 1));
    // Two tied, who met: A beat B and goes above.
    let two = vec![
        vec![played(b, 2, false), played(x, 0, true), played(y, 2, false)],
        vec![played(a, 0, true), played(y, 2, false), played(x, 2, true)],
        vec![played(x, 2, false), played(y, 0, true), played(x, 0, true)],
        vec![played(c, 0, true), played(a, 2, false), played(b, 0, false)],
        vec![played(a, 0, true), played(b, 0, true), played(c, 2, false)],
    ];
    let field = super::tie_breaks::field(&two, &ratings, UnplayedRounds::Fide2023);
    let ranked = ranks(&field, &[TieBreak::DirectEncounter]);
    assert_eq!((ranked[a], ranked[b]), (1, 2));
}

#[test]
fn the_2023_rules_apply_by_default_to_events_from_1_april_2024() {
    assert_eq!(
        UnplayedRounds::for_start(Some((2024, 3, 31))),
        UnplayedRounds::Before2023
    );
    assert_eq!(
        UnplayedRounds::for_start(Some((2024, 4, 1))),
        UnplayedRounds::Fide2023
    );
    assert_eq!(UnplayedRounds::for_start(None), UnplayedRounds::Fide2023);
}

#[test]
fn every_abbreviation_reads_back_as_its_tie_break() {
    for (tie_break, code) in TieBreak::ALL {
        assert_eq!(TieBreak::parse(code), Some(tie_break));
        assert_eq!(TieBreak::parse(&code.to_lowercase()), Some(tie_break));
    }
    assert_eq!(TieBreak::parse("TPR"), None);
}
