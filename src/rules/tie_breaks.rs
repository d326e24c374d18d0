//! Tie-breaks (FIDE Handbook C.07, "Play-off and Tie-Break Regulations") and the ranks they
//! give. Pure: the participants' rounds in, values and ranks out.
//!
//! The definitions, in the regulations' words (2023 revision; the older text where it differs):
//!
//! * **Buchholz (BH)**: "the sum of the scores of each of the opponents of a participant";
//!   the modifiers **Cut-1**/**Cut-2** leave out the one or two least significant values,
//!   **Median-1**/**Median-2** also the one or two most significant (C.07 14.1 to 14.4).
//! * **Sonneborn-Berger (SB)**: "calculated by adding, for each round, a value given by
//!   multiplying the final score of the opponents by the points scored against them".
//! * **Progressive score (PS)**: "after each round a participant has a certain tournament
//!   score. This tie-break is calculated adding the score of the participant at the end of
//!   each round".
//! * **Koya (KS)**: "the number of points achieved against all participants who have scored at
//!   least 50% of the maximum possible tournament score".
//! * **Direct encounter (DE)** (C.07 6): among participants still tied, the points they scored
//!   in the games between them; when not all of them have met, a participant is placed above
//!   the others only if none of them could reach its points by winning the encounters that
//!   were not played (the Swiss case); a subgroup still tied is compared again among itself.
//! * **Number of wins (WIN)** (7.1): the rounds in which the participant obtained, with or
//!   without playing, as many points as a win; **games won over the board (WON)** (7.2): only
//!   the games played; **games played with Black (BPG)** (7.3).
//! * **Average rating of opponents (ARO)** (10.1): the mean FIDE rating of the opponents met
//!   over the board, rounded to the nearest unit (forfeits are not games, 15.2; an unrated
//!   opponent gives no rating); **ARO/C1** leaves out the least significant one (an unrated
//!   opponent's missing rating first, else the lowest).
//!
//! **Unplayed rounds** (a forfeit, a bye, an absence) follow one of two texts, chosen per
//! tournament ([`UnplayedRounds`]):
//!
//! * **2023** (C.07 approved on 1 August 2023, "applied from 1st September 2023 for all FIDE
//!   competitions under the aegis of EVE and GSC; from 1st April 2024 for all FIDE-rated
//!   competitions", Article 16 "Unplayed Rounds Management"): each unplayed round is sorted
//!   into a category of 16.2 (16.2.1 a pairing-allocated or full-point bye, 16.2.2 a forfeit
//!   win, 16.2.3 a half- or zero-point bye, 16.2.4 a forfeit loss, 16.2.5 the rounds without
//!   an opponent after the participant's last round played or won without playing). For its
//!   opponents a participant's score is its real score, except that rounds of 16.2.5 count as
//!   draws (16.3). For the participant itself each unplayed round counts as a game against a
//!   dummy opponent "that concluded the tournament with the same number of points as the
//!   participant themself" (16.4). The rounds a participant chose not to play (categories
//!   16.2.3 to 16.2.5, "voluntarily unplayed rounds", VUR) are the first cut by Cut modifiers.
//!   Read as the FIDE Technical Commission's own reference program computes it (the
//!   TieBreakServer, `tiebreak.py`, whose comments cite 16.2.1 to 16.2.5 and 16.3.2), and
//!   checked against the Commission's published exercise (tests/rules/tie_breaks.rs). The
//!   March 2026 revision's caps on the dummy's score (its 16.4.1, 16.4.2) are not applied.
//! * **Before 2023** (C.07 as published up to 2022), quoted: "For tie-break purposes all
//!   unplayed games in which players are indirectly involved (results by forfeit of
//!   opponents) are considered to have been drawn. For tie-break purposes a player who has no
//!   opponent will be considered as having played against a virtual opponent who has the same
//!   number of points at the beginning of the round and who draws in all the following
//!   rounds. For the round itself the result by forfeit will be considered as a normal
//!   result", which gives `Svon = SPR + (1 - SfPR) + 0.5 * (n - R)`.
//!
//! All values are in quarter points, so that products of half points stay exact (counts and
//! ratings are multiplied by 4 too, so that every value compares alike).

/// Which text of C.07 governs unplayed rounds.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
)]
pub enum UnplayedRounds {
    /// The 2023 revision (Article 16: the dummy opponent with the participant's own score).
    #[default]
    #[serde(rename = "2023")]
    Fide2023,
    /// The rules before the 2023 revision (the virtual opponent, opponents' forfeits drawn).
    #[serde(rename = "before_2023")]
    Before2023,
}

impl UnplayedRounds {
    /// The text that applies to an event starting on `(year, month, day)` when its settings
    /// name none: the 2023 revision from 1 April 2024, the date from which it applies to all
    /// FIDE-rated competitions; the older rules before.
    pub fn for_start(start: Option<(i32, u32, u32)>) -> UnplayedRounds {
        match start {
            Some(date) if date < (2024, 4, 1) => UnplayedRounds::Before2023,
            _ => UnplayedRounds::Fide2023,
        }
    }
}

/// Why a round was not played, as C.07 (2023) 16.2 sorts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unplayed {
    /// A pairing-allocated bye (TRF `U`; 16.2.1).
    PairingBye,
    /// A full-point bye (TRF `F`; 16.2.1).
    FullPointBye,
    /// A forfeit win (TRF `+`; 16.2.2).
    ForfeitWin,
    /// A half-point bye (TRF `H`; 16.2.3).
    HalfPointBye,
    /// A zero-point bye (TRF `Z`; 16.2.3).
    ZeroPointBye,
    /// A forfeit loss, a double forfeit too (TRF `-`; 16.2.4).
    ForfeitLoss,
    /// Not paired, nothing recorded (a blank TRF round).
    NotPaired,
}

impl Unplayed {
    /// A round the participant chose not to play: not won without playing (VUR).
    fn voluntary(self) -> bool {
        !matches!(
            self,
            Unplayed::PairingBye | Unplayed::FullPointBye | Unplayed::ForfeitWin
        )
    }

    /// A forfeit: the round had a scheduled opponent.
    fn scheduled(self) -> bool {
        matches!(self, Unplayed::ForfeitWin | Unplayed::ForfeitLoss)
    }
}

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
    /// No game played; `half_points` is what the round gave.
    Unplayed {
        /// The points the round gave, in half points.
        half_points: u32,
        /// Why it was not played.
        kind: Unplayed,
    },
}

impl RoundOutcome {
    fn half_points(self) -> u32 {
        match self {
            RoundOutcome::Played { half_points, .. }
            | RoundOutcome::Unplayed { half_points, .. } => half_points,
        }
    }

    /// Played, or won without playing: not a VUR (2023, 16.2).
    fn counts_as_present(self) -> bool {
        match self {
            RoundOutcome::Played { .. } => true,
            RoundOutcome::Unplayed { kind, .. } => !kind.voluntary(),
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
    /// Buchholz cut-2.
    BuchholzCut2,
    /// Median Buchholz (the highest and the lowest left out).
    MedianBuchholz,
    /// Median-2 Buchholz (the two highest and the two lowest left out).
    MedianBuchholz2,
    /// Sonneborn-Berger.
    SonnebornBerger,
    /// Progressive score.
    Progressive,
    /// Koya.
    Koya,
    /// Direct encounter.
    DirectEncounter,
    /// Number of wins, with or without playing.
    Wins,
    /// Games won over the board.
    GamesWon,
    /// Games played with Black.
    GamesWithBlack,
    /// Average rating of opponents.
    AverageRating,
    /// Average rating of opponents, cut-1.
    AverageRatingCut1,
}

impl TieBreak {
    /// Every tie-break implemented, with its abbreviation in C.07.
    pub const ALL: [(TieBreak, &'static str); 14] = [
        (TieBreak::Buchholz, "BH"),
        (TieBreak::BuchholzCut1, "BH/C1"),
        (TieBreak::BuchholzCut2, "BH/C2"),
        (TieBreak::MedianBuchholz, "BH/M1"),
        (TieBreak::MedianBuchholz2, "BH/M2"),
        (TieBreak::SonnebornBerger, "SB"),
        (TieBreak::Progressive, "PS"),
        (TieBreak::Koya, "KS"),
        (TieBreak::DirectEncounter, "DE"),
        (TieBreak::Wins, "WIN"),
        (TieBreak::GamesWon, "WON"),
        (TieBreak::GamesWithBlack, "BPG"),
        (TieBreak::AverageRating, "ARO"),
        (TieBreak::AverageRatingCut1, "ARO/C1"),
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
        let code = code.trim();
        Self::ALL
            .iter()
            .find(|(_, c)| c.eq_ignore_ascii_case(code))
            .map(|(t, _)| *t)
    }

    /// Every abbreviation, comma-separated (for messages).
    pub fn codes() -> String {
        Self::ALL
            .iter()
            .map(|(_, c)| *c)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl serde::Serialize for TieBreak {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for TieBreak {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<TieBreak, D::Error> {
        let code = String::deserialize(deserializer)?;
        TieBreak::parse(&code).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{code}` is not a tie-break this service computes; give C.07's abbreviations: \
                 {}.",
                TieBreak::codes()
            ))
        })
    }
}

/// The tournament as the tie-breaks read it.
#[derive(Clone, Copy, Debug)]
pub struct Field<'a> {
    /// Each participant's rounds, in order.
    pub rounds: &'a [Vec<RoundOutcome>],
    /// Each participant's FIDE rating, `None` when unrated.
    pub ratings: &'a [Option<u32>],
    /// The rounds counted (the standings after this round).
    pub completed: usize,
    /// The text governing unplayed rounds.
    pub unplayed: UnplayedRounds,
}

/// One round's contribution to the Buchholz family and to Sonneborn-Berger.
#[derive(Clone, Copy, Debug)]
struct Contribution {
    /// The (real, virtual or dummy) opponent's score, in half points.
    opponent: u32,
    /// What the participant scored, in half points.
    scored: u32,
    /// A voluntarily unplayed round (2023): cut first.
    voluntary: bool,
}

impl Field<'_> {
    fn of(&self, who: usize) -> &[RoundOutcome] {
        let rounds = &self.rounds[who];
        &rounds[..self.completed.min(rounds.len())]
    }

    /// A participant's score after `upto` rounds, in half points.
    pub fn score_after(&self, who: usize, upto: usize) -> u32 {
        self.of(who)
            .iter()
            .take(upto)
            .map(|r| r.half_points())
            .sum()
    }

    /// A participant's score, in half points.
    pub fn score(&self, who: usize) -> u32 {
        self.score_after(who, self.completed)
    }

    /// A participant's score as its opponents' tie-breaks read it, in half points.
    pub fn score_for_opponents(&self, who: usize) -> u32 {
        let rounds = self.of(who);
        match self.unplayed {
            // "considered to have been drawn".
            UnplayedRounds::Before2023 => rounds
                .iter()
                .map(|r| match r {
                    RoundOutcome::Played { half_points, .. } => *half_points,
                    RoundOutcome::Unplayed { .. } => 1,
                })
                .sum(),
            // 16.3: the real score, the rounds of 16.2.5 (no opponent, after the last round
            // played or won without playing) as draws.
            UnplayedRounds::Fide2023 => {
                let last_present = rounds
                    .iter()
                    .rposition(|r| r.counts_as_present())
                    .map_or(0, |at| at + 1);
                rounds
                    .iter()
                    .enumerate()
                    .map(|(at, r)| match r {
                        RoundOutcome::Unplayed { kind, .. }
                            if at >= last_present && !kind.scheduled() =>
                        {
                            1
                        }
                        other => other.half_points(),
                    })
                    .sum()
            }
        }
    }

    fn contributions(&self, who: usize) -> Vec<Contribution> {
        let rounds = self.of(who);
        rounds
            .iter()
            .enumerate()
            .map(|(at, round)| match *round {
                RoundOutcome::Played {
                    opponent,
                    half_points,
                    ..
                } => Contribution {
                    opponent: self.score_for_opponents(opponent),
                    scored: half_points,
                    voluntary: false,
                },
                RoundOutcome::Unplayed { half_points, kind } => match self.unplayed {
                    UnplayedRounds::Fide2023 => Contribution {
                        opponent: self.score(who),
                        scored: half_points,
                        voluntary: kind.voluntary(),
                    },
                    UnplayedRounds::Before2023 => Contribution {
                        opponent: virtual_opponent_score(rounds, at + 1, self.completed),
                        scored: half_points,
                        voluntary: false,
                    },
                },
            })
            .collect()
    }

    /// The Buchholz of `who` with `low` least and `high` most significant values cut, in
    /// quarter points. 2023: the voluntarily unplayed rounds are the first cut from below.
    fn buchholz(&self, who: usize, low: usize, high: usize) -> u32 {
        let mut values = self.contributions(who);
        let first_cut = |c: &Contribution| match self.unplayed {
            UnplayedRounds::Fide2023 => !c.voluntary,
            UnplayedRounds::Before2023 => true,
        };
        values.sort_by_key(|c| (first_cut(c), c.opponent));
        let low = low.min(values.len());
        let mut kept: Vec<u32> = values[low..].iter().map(|c| c.opponent).collect();
        kept.sort_unstable();
        let high = high.min(kept.len());
        kept.truncate(kept.len() - high);
        kept.iter().sum::<u32>() * 2
    }

    /// The ratings of the opponents met over the board (`None`: unrated).
    fn opponents_ratings(&self, who: usize) -> Vec<Option<u32>> {
        self.of(who)
            .iter()
            .filter_map(|round| match round {
                RoundOutcome::Played { opponent, .. } => {
                    Some(self.ratings.get(*opponent).copied().flatten())
                }
                RoundOutcome::Unplayed { .. } => None,
            })
            .collect()
    }

    /// The value of `tie_break` for participant `who`, in quarter points (direct encounter
    /// depends on who is tied: 0 here, [`standings`] gives it).
    pub fn value(&self, who: usize, tie_break: TieBreak) -> u32 {
        let rounds = self.of(who);
        let count = |f: &dyn Fn(&RoundOutcome) -> bool| -> u32 {
            4 * rounds.iter().filter(|r| f(r)).count() as u32
        };
        match tie_break {
            TieBreak::Buchholz => self.buchholz(who, 0, 0),
            TieBreak::BuchholzCut1 => self.buchholz(who, 1, 0),
            TieBreak::BuchholzCut2 => self.buchholz(who, 2, 0),
            TieBreak::MedianBuchholz => self.buchholz(who, 1, 1),
            TieBreak::MedianBuchholz2 => self.buchholz(who, 2, 2),
            // The opponent's score (half points) times the points scored (half points): a
            // quarter point each.
            TieBreak::SonnebornBerger => self
                .contributions(who)
                .iter()
                .map(|c| c.opponent * c.scored)
                .sum(),
            TieBreak::Progressive => (1..=rounds.len())
                .map(|upto| self.score_after(who, upto) * 2)
                .sum(),
            // At least 50% of the maximum: a score of at least `completed` half points.
            TieBreak::Koya => rounds
                .iter()
                .filter_map(|round| match round {
                    RoundOutcome::Played {
                        opponent,
                        half_points,
                        ..
                    } if self.score(*opponent) as usize >= self.completed => Some(*half_points * 2),
                    _ => None,
                })
                .sum(),
            // Only among the participants tied: see [`standings`].
            TieBreak::DirectEncounter => 0,
            TieBreak::Wins => count(&|r| r.half_points() == 2),
            TieBreak::GamesWon => {
                count(&|r| matches!(r, RoundOutcome::Played { half_points: 2, .. }))
            }
            TieBreak::GamesWithBlack => {
                count(&|r| matches!(r, RoundOutcome::Played { black: true, .. }))
            }
            TieBreak::AverageRating => 4 * average(self.opponents_ratings(who).into_iter()),
            TieBreak::AverageRatingCut1 => {
                let mut ratings = self.opponents_ratings(who);
                // The least significant value: an unrated opponent's (no rating), else the
                // lowest rating.
                if let Some(at) = ratings.iter().position(Option::is_none) {
                    ratings.remove(at);
                } else if let Some(at) = ratings
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, r)| **r)
                    .map(|(at, _)| at)
                {
                    ratings.remove(at);
                }
                4 * average(ratings.into_iter())
            }
        }
    }

    /// For each member of `group`: the points (quarter points) scored in the games played
    /// against the other members (a pair that met more than once: the average, C.07 6), and
    /// the most it could have with the encounters not played won.
    fn encounters(&self, group: &[usize]) -> Vec<(u32, u32)> {
        group
            .iter()
            .map(|&who| {
                let mut scored = 0;
                let mut unmet = 0;
                for &other in group.iter().filter(|o| **o != who) {
                    let games: Vec<u32> = self
                        .of(who)
                        .iter()
                        .filter_map(|r| match r {
                            RoundOutcome::Played {
                                opponent,
                                half_points,
                                ..
                            } if *opponent == other => Some(*half_points),
                            _ => None,
                        })
                        .collect();
                    if games.is_empty() {
                        unmet += 1;
                    } else {
                        scored += games.iter().sum::<u32>() * 2 / games.len() as u32;
                    }
                }
                (scored, scored + 4 * unmet)
            })
            .collect()
    }

    /// The places (0 = first; equals share the better one) direct encounter gives the
    /// members of a tied `group` (C.07 6): by the points among them when all have met; else
    /// a member goes above the rest only if none of them could reach its points. A subgroup
    /// still tied is compared again among itself.
    fn direct_encounter_places(&self, group: &[usize]) -> Vec<u32> {
        let results = self.encounters(group);
        let all_met = results.iter().all(|(scored, most)| scored == most);
        let mut order: Vec<usize> = (0..group.len()).collect();
        order.sort_by_key(|at| std::cmp::Reverse(results[*at].0));
        let mut places = vec![0u32; group.len()];
        let mut tiers: Vec<Vec<usize>> = Vec::new();
        let mut separated = true;
        for (position, &at) in order.iter().enumerate() {
            let new_tier = match position.checked_sub(1).map(|p| order[p]) {
                None => true,
                Some(above) if all_met => results[above].0 != results[at].0,
                // Not all have met: the one above stands alone only if no one from here down
                // could reach its points, and so did everyone above it.
                Some(above) => {
                    let best_below = order[position..]
                        .iter()
                        .map(|o| results[*o].1)
                        .max()
                        .unwrap_or(0);
                    separated = separated && results[above].0 > best_below;
                    separated
                }
            };
            match tiers.last_mut() {
                Some(tier) if !new_tier => tier.push(at),
                _ => tiers.push(vec![at]),
            }
        }
        let mut offset = 0u32;
        for tier in &tiers {
            if tier.len() > 1 && tier.len() < group.len() {
                let members: Vec<usize> = tier.iter().map(|at| group[*at]).collect();
                for (sub, place) in tier.iter().zip(self.direct_encounter_places(&members)) {
                    places[*sub] = offset + place;
                }
            } else {
                for at in tier {
                    places[*at] = offset;
                }
            }
            offset += tier.len() as u32;
        }
        places
    }
}

/// The mean of the ratings given, rounded to the nearest unit (half up); 0 when none.
fn average(ratings: impl Iterator<Item = Option<u32>>) -> u32 {
    let rated: Vec<u32> = ratings.flatten().collect();
    if rated.is_empty() {
        return 0;
    }
    let sum: u32 = rated.iter().sum();
    let n = rated.len() as u32;
    (2 * sum + n) / (2 * n)
}

/// The score of the virtual opponent (rules before 2023) of a participant who had no
/// opponent in round `round` (1-based), after `completed` rounds, in half points:
/// `Svon = SPR + (1 - SfPR) + 0.5 * (n - R)`.
pub fn virtual_opponent_score(rounds: &[RoundOutcome], round: usize, completed: usize) -> u32 {
    let before: u32 = rounds.iter().take(round - 1).map(|r| r.half_points()).sum();
    let forfeit = rounds.get(round - 1).map_or(0, |r| r.half_points());
    before + (2 - forfeit.min(2)) + (completed.saturating_sub(round)) as u32
}

/// One participant's line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The place (1 = first); participants equal on points and every tie-break share one.
    pub rank: u32,
    /// Each tie-break's value, in the order asked, in quarter points (direct encounter: the
    /// points scored against the participants tied with this one when it was applied).
    pub values: Vec<u32>,
}

/// The standings: each participant's place, by points, then by each tie-break of `order` in
/// turn; participants equal on all of them share a place (the TRF rank column allows ties).
pub fn standings(field: &Field, order: &[TieBreak]) -> Vec<Line> {
    let players = field.rounds.len();
    // Keys compare lexicographically, greater first.
    let mut keys: Vec<Vec<i64>> = (0..players)
        .map(|who| vec![i64::from(field.score(who))])
        .collect();
    let mut values: Vec<Vec<u32>> = vec![Vec::new(); players];
    for tie_break in order {
        if *tie_break == TieBreak::DirectEncounter {
            let mut groups: std::collections::BTreeMap<Vec<i64>, Vec<usize>> =
                std::collections::BTreeMap::new();
            for (who, key) in keys.iter().enumerate() {
                groups.entry(key.clone()).or_default().push(who);
            }
            let mut places = vec![0u32; players];
            let mut shown = vec![0u32; players];
            for group in groups.values().filter(|g| g.len() > 1) {
                let results = field.encounters(group);
                for ((who, place), (scored, _)) in group
                    .iter()
                    .zip(field.direct_encounter_places(group))
                    .zip(results)
                {
                    places[*who] = place;
                    shown[*who] = scored;
                }
            }
            for ((key, value), (place, shown)) in keys
                .iter_mut()
                .zip(&mut values)
                .zip(places.iter().zip(&shown))
            {
                key.push(-i64::from(*place));
                value.push(*shown);
            }
        } else {
            for (who, (key, values)) in keys.iter_mut().zip(&mut values).enumerate() {
                let value = field.value(who, *tie_break);
                key.push(i64::from(value));
                values.push(value);
            }
        }
    }
    (0..players)
        .map(|who| Line {
            rank: 1 + keys.iter().filter(|other| **other > keys[who]).count() as u32,
            values: std::mem::take(&mut values[who]),
        })
        .collect()
}

/// The places of [`standings`] alone.
pub fn ranks(field: &Field, order: &[TieBreak]) -> Vec<u32> {
    standings(field, order)
        .into_iter()
        .map(|l| l.rank)
        .collect()
}
