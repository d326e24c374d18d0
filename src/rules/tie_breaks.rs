//! Tie-breaks (FIDE Handbook C.07), the Buchholz family and the scores that need no
//! convention for unplayed rounds: a first, pure part of issue 35's item 4. Not yet wired to
//! the standings, the TRF rank column or the API (docs/interchange.md says what is missing).
//!
//! The definitions, in the regulations' words:
//!
//! * **Buchholz (BH)**: "the sum of the scores of each of the opponents of a participant";
//!   **cut-1** leaves out the least significant value, **median** the highest and the lowest.
//! * **Sonneborn-Berger (SB)**: "calculated by adding, for each round, a value given by
//!   multiplying the final score of the opponents by the points scored against them".
//! * **Progressive score (PS)**: "after each round a participant has a certain tournament
//!   score. This tie-break is calculated adding the score of the participant at the end of
//!   each round".
//! * **Koya (KS)**: "the number of points achieved against all participants who have scored at
//!   least 50% of the maximum possible tournament score".
//! * **Games won over the board** and **games played with Black**: counts of played games.
//!
//! **Unplayed rounds** follow the rules in force until the 2023 revision (C.07 as published
//! up to 2022), quoted: "For tie-break purposes all unplayed games in which players are
//! indirectly involved (results by forfeit of opponents) are considered to have been drawn.
//! For tie-break purposes a player who has no opponent will be considered as having played
//! against a virtual opponent who has the same number of points at the beginning of the
//! round and who draws in all the following rounds. For the round itself the result by
//! forfeit will be considered as a normal result", which gives
//! `Svon = SPR + (1 - SfPR) + 0.5 * (n - R)`. The 2023 revision's own treatment of unplayed
//! rounds is not implemented: its text was not available to check here.
//!
//! All values are in quarter points, so that products of half points stay exact.

/// One round of a participant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundOutcome {
    /// A game played over the board against `opponent` (an index into the participants),
    /// scoring `half_points` (2 a win, 1 a draw, 0 a loss).
    Played {
        /// The opponent.
        opponent: usize,
        /// The points scored, in half points.
        half_points: u32,
        /// Whether the participant had Black.
        black: bool,
    },
    /// No game played: a forfeit (won or lost), a bye, an absence; `half_points` is what the
    /// round gave.
    Unplayed {
        /// The points the round gave, in half points.
        half_points: u32,
    },
}

impl TieBreak {
    /// Every tie-break implemented, with its abbreviation in C.07.
    pub const ALL: [(TieBreak, &'static str); 8] = [
        (TieBreak::Buchholz, "BH"),
        (TieBreak::BuchholzCut1, "BH/C1"),
        (TieBreak::MedianBuchholz, "BH/M1"),
        (TieBreak::SonnebornBerger, "SB"),
        (TieBreak::Progressive, "PS"),
        (TieBreak::Koya, "KS"),
        (TieBreak::GamesWon, "WON"),
        (TieBreak::GamesWithBlack, "BPG"),
    ];

    /// The abbreviation.
    pub fn code(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(t, _)| *t == self)
            .map_or("", |(_, c)| *c)
    }

    /// The tie-break of an abbreviation (any case); `None` for one not implemented.
    pub fn parse(code: &str) -> Option<TieBreak> {
        Self::ALL
            .iter()
            .find(|(_, c)| c.eq_ignore_ascii_case(code.trim()))
            .map(|(t, _)| *t)
    }
}

impl RoundOutcome {
    fn half_points(self) -> u32 {
        match self {
            RoundOutcome::Played { half_points, .. } | RoundOutcome::Unplayed { half_points } => {
                half_points
            }
        }
    }
}

/// The tie-breaks implemented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// Buchholz.
    Buchholz,
    /// Buchholz cut-1.
    BuchholzCut1,
    /// Median Buchholz (the highest and the lowest left out).
    MedianBuchholz,
    /// Sonneborn-Berger.
    SonnebornBerger,
    /// Progressive score.
    Progressive,
    /// Koya.
    Koya,
    /// Games won over the board.
    GamesWon,
    /// Games played with Black.
    GamesWithBlack,
}

/// A participant's score after `rounds` rounds, in half points.
fn score(rounds: &[RoundOutcome], upto: usize) -> u32 {
    rounds.iter().take(upto).map(|r| r.half_points()).sum()
}

/// A participant's score for the Buchholz of its opponents, in half points: its unplayed
/// rounds counted as draws ("considered to have been drawn").
fn adjusted_score(rounds: &[RoundOutcome], upto: usize) -> u32 {
    rounds
        .iter()
        .take(upto)
        .map(|r| match r {
            RoundOutcome::Played { half_points, .. } => *half_points,
            RoundOutcome::Unplayed { .. } => 1,
        })
        .sum()
}

/// The score of the virtual opponent of a participant who had no opponent in round `round`
/// (1-based), after `completed` rounds, in half points: `Svon = SPR + (1 - SfPR) + 0.5 * (n -
/// R)`.
pub fn virtual_opponent_score(rounds: &[RoundOutcome], round: usize, completed: usize) -> u32 {
    let before = score(rounds, round - 1);
    let forfeit = rounds.get(round - 1).map_or(0, |r| r.half_points());
    before + (2 - forfeit.min(2)) + (completed.saturating_sub(round)) as u32
}

/// Each round's value for the Buchholz of `who` (quarter points), and what `who` scored in
/// that round (half points), after `completed` rounds.
fn opponents_scores(all: &[Vec<RoundOutcome>], who: usize, completed: usize) -> Vec<(u32, u32)> {
    let rounds = &all[who];
    rounds
        .iter()
        .take(completed)
        .enumerate()
        .map(|(index, round)| match round {
            RoundOutcome::Played {
                opponent,
                half_points,
                ..
            } => (adjusted_score(&all[*opponent], completed) * 2, *half_points),
            RoundOutcome::Unplayed { half_points } => (
                virtual_opponent_score(rounds, index + 1, completed) * 2,
                *half_points,
            ),
        })
        .collect()
}

/// The value of `tie_break` for participant `who` after `completed` rounds, in quarter
/// points (counts are multiplied by 4 too, so that every value compares alike).
pub fn value(all: &[Vec<RoundOutcome>], who: usize, tie_break: TieBreak, completed: usize) -> u32 {
    let rounds = &all[who];
    let buchholz = || -> Vec<u32> {
        opponents_scores(all, who, completed)
            .into_iter()
            .map(|(value, _)| value)
            .collect()
    };
    match tie_break {
        TieBreak::Buchholz => buchholz().iter().sum(),
        TieBreak::BuchholzCut1 => {
            let values = buchholz();
            values.iter().sum::<u32>() - values.iter().min().copied().unwrap_or(0)
        }
        TieBreak::MedianBuchholz => {
            let values = buchholz();
            if values.len() < 2 {
                return 0;
            }
            values.iter().sum::<u32>()
                - values.iter().min().copied().unwrap_or(0)
                - values.iter().max().copied().unwrap_or(0)
        }
        // Quarter points: the opponent's score (in quarter points) times the points scored
        // (a whole point 1, a draw ½).
        TieBreak::SonnebornBerger => opponents_scores(all, who, completed)
            .into_iter()
            .map(|(opponent, half_points)| opponent * half_points / 2)
            .sum(),
        TieBreak::Progressive => (1..=completed.min(rounds.len()))
            .map(|upto| score(rounds, upto) * 2)
            .sum(),
        TieBreak::Koya => {
            // At least 50% of the maximum: a score of at least `completed` half points.
            rounds
                .iter()
                .take(completed)
                .filter_map(|round| match round {
                    RoundOutcome::Played {
                        opponent,
                        half_points,
                        ..
                    } if score(&all[*opponent], completed) as usize >= completed => {
                        Some(*half_points * 2)
                    }
                    _ => None,
                })
                .sum()
        }
        TieBreak::GamesWon => {
            4 * rounds
                .iter()
                .take(completed)
                .filter(|r| matches!(r, RoundOutcome::Played { half_points: 2, .. }))
                .count() as u32
        }
        TieBreak::GamesWithBlack => {
            4 * rounds
                .iter()
                .take(completed)
                .filter(|r| matches!(r, RoundOutcome::Played { black: true, .. }))
                .count() as u32
        }
    }
}

/// The standings after `completed` rounds: each participant's rank (1 = first), by points,
/// then by each tie-break of `order` in turn; participants equal on all of them share a rank
/// (the TRF rank column allows ties).
pub fn ranks(all: &[Vec<RoundOutcome>], order: &[TieBreak], completed: usize) -> Vec<u32> {
    let key = |who: usize| -> Vec<u32> {
        std::iter::once(score(&all[who], completed))
            .chain(order.iter().map(|tb| value(all, who, *tb, completed)))
            .collect()
    };
    let keys: Vec<Vec<u32>> = (0..all.len()).map(key).collect();
    (0..all.len())
        .map(|who| 1 + keys.iter().filter(|other| **other > keys[who]).count() as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(opponent: usize, half_points: u32, black: bool) -> RoundOutcome {
        RoundOutcome::Played {
            opponent,
            half_points,
            black,
        }
    }

    /// The regulations' example 1: "in Round 3 of a nine-round tournament Player P did not
    /// show up. Player P's score after 2 rounds is 1.5. ... Svon = 1.5 + (1 - 0) + 0.5 * (3 -
    /// 3) = 2.5 after round 3; Svon = 1.5 + (1 - 0) + 0.5 * (9 - 3) = 5.5 at the end". Example
    /// 2: "in Round 6 ... player P's opponent does not show up. Player P's score after 5
    /// rounds is 3.5 ... Svon = 3.5 + (1 - 1) + 0.5 * (6 - 6) = 3.5 after round 6; 5.0 at the
    /// end of the tournament".
    #[test]
    fn the_virtual_opponent_scores_as_the_regulations_examples_compute() {
        let mut absent = vec![played(1, 2, false), played(2, 1, true)];
        absent.push(RoundOutcome::Unplayed { half_points: 0 });
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
        present.push(RoundOutcome::Unplayed { half_points: 2 });
        present.extend(std::iter::repeat_n(played(6, 0, false), 3));
        assert_eq!(score(&present, 5), 7, "3.5 after 5 rounds");
        assert_eq!(virtual_opponent_score(&present, 6, 6), 7, "3.5");
        assert_eq!(virtual_opponent_score(&present, 6, 9), 10, "5.0");
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
        let v = |who, tb| value(&all, who, tb, 3);
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
        // Without tie-breaks ties share a rank.
        assert_eq!(ranks(&all, &[], 2), vec![1, 3, 1, 3]);
        // BH: A's opponents B 0.5 + C 1.5 = 2; C's D 0.5 + A 1.5 = 2: still equal; B's and
        // D's 2 each too. Games with Black: C once, A never; D twice, B once.
        assert_eq!(
            ranks(&all, &[TieBreak::Buchholz, TieBreak::GamesWithBlack], 2),
            vec![2, 4, 1, 3]
        );
    }
}
