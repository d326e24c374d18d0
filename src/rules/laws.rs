//! The editions of the FIDE Laws of Chess and the table of what they say where.
//!
//! A ruling cites the articles of the edition that governs the game (DESIGN.md: "Articles
//! cited in rulings follow that edition"), and some consequences differ between editions
//! (the extra time of an incorrect claim or an illegal move in rapid and blitz, resignation
//! when the opponent cannot checkmate). Both live here, in one table, so that no article
//! number is written anywhere else in the engine: the engine names a [`Rule`] by what it
//! says, and [`article`] gives its number in the game's edition.
//!
//! The editions: the Laws effective 1 January 2018 and the Laws effective 1 January 2023.
//! The 2023 edition renumbered Article 9.2 (2018 9.2.1.1 = 2023 9.2.1, 2018 9.2.1.2 =
//! 2023 9.2.2, 2018 9.2.2 = 2023 9.2.3), and rewrote Appendix A.3 so that the one-minute
//! penalty of rapid also governs blitz (through B.3).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The edition of the FIDE Laws of Chess that governs a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum LawsEdition {
    /// The Laws effective from 1 January 2018.
    #[serde(rename = "2018")]
    Y2018,
    /// The Laws effective from 1 January 2023 (the default).
    #[default]
    #[serde(rename = "2023")]
    Y2023,
}

/// The rate of play, which decides the penalties (Appendix A applies to rapid, Appendix B to
/// blitz).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    ToSchema,
    strum::IntoStaticStr,
    strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum TimeControlKind {
    /// Standard play.
    Standard,
    /// Rapid play (Appendix A).
    Rapid,
    /// Blitz (Appendix B).
    Blitz,
}

/// A rule of the Laws the engine applies or cites, named by what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A piece deliberately touched must be moved or captured.
    TouchMove,
    /// If no touched piece can be moved or captured, any legal move may be made.
    TouchedPieceCannotMove,
    /// A piece released on a square cannot be moved to another square.
    PieceReleased,
    /// Checkmate wins.
    Checkmate,
    /// Resignation ends the game.
    Resignation,
    /// Stalemate draws.
    Stalemate,
    /// A dead position draws.
    DeadPosition,
    /// A draw by agreement.
    Agreement,
    /// A fallen flag loses, unless the opponent cannot checkmate.
    FlagFall,
    /// An illegal move: the position before it is reinstated.
    IllegalMove,
    /// A pawn moved to the last rank without being replaced: it becomes a queen.
    PromotionWithoutPiece,
    /// The clock pressed without a move is penalised as an illegal move.
    ClockWithoutMove,
    /// A move made with two hands is penalised as an illegal move.
    TwoHands,
    /// The extra time for the first completed illegal move, the loss for the second.
    IllegalMovePenalty,
    /// The regulations may restrict draw agreements.
    AgreementRestricted,
    /// How and when a draw is offered.
    DrawOffer,
    /// The offer is marked `(=)` on the scoresheet.
    DrawOfferRecorded,
    /// A claim under 9.2 or 9.3 counts as a draw offer.
    ClaimIsOffer,
    /// A repetition claim with the move written that will make the third occurrence.
    RepetitionAboutToAppear,
    /// A repetition claim on a third occurrence that has just appeared.
    RepetitionHasAppeared,
    /// When two positions are the same.
    SamePosition,
    /// A fifty-move claim with the move written that will complete them.
    FiftyMovesAboutToBeMade,
    /// A fifty-move claim on fifty moves just completed.
    FiftyMovesMade,
    /// A touched piece loses the right to claim on that move.
    ClaimAfterTouch,
    /// An incorrect claim: extra time for the opponent, the written move must be made.
    IncorrectClaim,
    /// Fivefold repetition ends the game.
    FivefoldRepetition,
    /// Seventy-five moves end the game.
    SeventyFiveMoves,
    /// The arbiter's penalties.
    ArbiterPenalties,
    /// A player may appeal against any decision of the arbiter.
    Appeal,
    /// The arbiter's duty to see that the Laws are observed.
    ArbiterDuties,
    /// Penalties of one minute in rapid instead of two (2023 only).
    RapidPenalties,
    /// Penalties of one minute in blitz instead of two (2018 only; 2023 reaches it through
    /// the rules of rapid that blitz follows).
    BlitzPenalties,
    /// Rapid not fully supervised: an illegal move neither the opponent nor the arbiter
    /// acted on before the opponent's next move stands.
    IllegalMoveStands,
    /// Blitz not fully supervised follows these rules of rapid.
    BlitzFollowsRapid,
    /// Guidelines III apply only where announced.
    QuickplayAnnounced,
    /// Guidelines III apply only without increment and never in blitz.
    QuickplayScope,
    /// An increment of five seconds requested for both players.
    QuickplayIncrement,
    /// A quickplay-finish claim: the opponent cannot win by normal means.
    QuickplayClaim,
    /// The arbiter declares a quickplay-finish claim drawn, postpones or rejects it.
    QuickplayClaimDecided,
    /// A postponed quickplay-finish claim, decided later or after a flag.
    QuickplayClaimPostponed,
    /// A rejected quickplay-finish claim: two extra minutes for the opponent.
    QuickplayClaimRejected,
    /// Only with the arbiter's permission may a player leave the playing venue, or the
    /// player having the move the playing area.
    LeavingTheVenue,
    /// During a game a player is forbidden to have an electronic device not approved by the
    /// arbiter in the playing venue (2023: 11.3.2; 2018: the first sentence of 11.3.2.1).
    DevicesForbidden,
    /// The regulations may allow devices in a player's bag, completely switched off, placed
    /// as agreed with the arbiter; neither player may use the bag without permission.
    DevicesInBag,
    /// A device evidently on the player's person in the venue: the player loses, the
    /// opponent wins; the regulations may specify a less severe penalty.
    DeviceOnPerson,
    /// The arbiter may have the player inspected in private by someone of the same gender;
    /// a refusal is dealt with under 12.9.
    Inspection,
    /// Players who have finished their games are spectators.
    Spectators,
    /// The arbiter follows the Fair-Play Rules or Guidelines (2023; 2018: the
    /// "Anti-Cheating Rules or Guidelines").
    FairPlayRules,
    /// Pieces restored to a previous position: the arbiter determines the clock times and
    /// adjusts the clock's move counter.
    ClockAfterRestoration,
    /// A piece found displaced: the position before the irregularity is reinstated, or the
    /// last identifiable one, and the game continues from it.
    DisplacedPiecesReinstated,
    /// No complete scoresheet: the game is reconstructed on a second chessboard under the
    /// arbiter's control (2023 only here: the 2018 number was not read, see
    /// docs/time-controls.md).
    GameReconstructed,
}

/// One row of the table: the article in each edition (empty where the edition has none).
struct Row {
    rule: Rule,
    y2023: &'static str,
    y2018: &'static str,
}

const fn row(rule: Rule, y2023: &'static str, y2018: &'static str) -> Row {
    Row { rule, y2023, y2018 }
}

/// Marks a rule an edition does not have.
const NONE: &str = "";

/// What each edition numbers each rule. One row per rule (a test checks it).
const TABLE: &[Row] = &[
    row(Rule::TouchMove, "4.3", "4.3"),
    row(Rule::TouchedPieceCannotMove, "4.5", "4.5"),
    row(Rule::PieceReleased, "4.7", "4.7"),
    row(Rule::Checkmate, "5.1.1", "5.1.1"),
    row(Rule::Resignation, "5.1.2", "5.1.2"),
    row(Rule::Stalemate, "5.2.1", "5.2.1"),
    row(Rule::DeadPosition, "5.2.2", "5.2.2"),
    row(Rule::Agreement, "5.2.3", "5.2.3"),
    row(Rule::FlagFall, "6.9", "6.9"),
    row(Rule::IllegalMove, "7.5.1", "7.5.1"),
    row(Rule::PromotionWithoutPiece, "7.5.2", "7.5.2"),
    row(Rule::ClockWithoutMove, "7.5.3", "7.5.3"),
    row(Rule::TwoHands, "7.5.4", "7.5.4"),
    row(Rule::IllegalMovePenalty, "7.5.5", "7.5.5"),
    row(Rule::AgreementRestricted, "9.1.1", "9.1.1"),
    row(Rule::DrawOffer, "9.1.2.1", "9.1.2.1"),
    row(Rule::DrawOfferRecorded, "9.1.2.2", "9.1.2.2"),
    row(Rule::ClaimIsOffer, "9.1.2.3", "9.1.2.3"),
    row(Rule::RepetitionAboutToAppear, "9.2.1", "9.2.1.1"),
    row(Rule::RepetitionHasAppeared, "9.2.2", "9.2.1.2"),
    row(Rule::SamePosition, "9.2.3", "9.2.2"),
    row(Rule::FiftyMovesAboutToBeMade, "9.3.1", "9.3.1"),
    row(Rule::FiftyMovesMade, "9.3.2", "9.3.2"),
    row(Rule::ClaimAfterTouch, "9.4", "9.4"),
    row(Rule::IncorrectClaim, "9.5.3", "9.5.3"),
    row(Rule::FivefoldRepetition, "9.6.1", "9.6.1"),
    row(Rule::SeventyFiveMoves, "9.6.2", "9.6.2"),
    row(Rule::ArbiterPenalties, "12.9", "12.9"),
    row(Rule::Appeal, "11.10", "11.10"),
    row(Rule::ArbiterDuties, "12.2", "12.2"),
    row(Rule::RapidPenalties, "A.3", NONE),
    row(Rule::BlitzPenalties, NONE, "B.2"),
    row(Rule::IllegalMoveStands, "A.5.2", "A.4.2"),
    row(Rule::BlitzFollowsRapid, "B.3", "B.4"),
    row(Rule::QuickplayAnnounced, "III.2.1", "III.2.1"),
    row(Rule::QuickplayScope, "III.2.2", "III.2.2"),
    row(Rule::QuickplayIncrement, "III.4", "III.4"),
    row(Rule::QuickplayClaim, "III.5", "III.5"),
    row(Rule::QuickplayClaimDecided, "III.5.1", "III.5.1"),
    row(Rule::QuickplayClaimPostponed, "III.5.2", "III.5.2"),
    row(Rule::QuickplayClaimRejected, "III.5.3", "III.5.3"),
    row(Rule::LeavingTheVenue, "11.2.3", "11.2.3"),
    row(Rule::DevicesForbidden, "11.3.2", "11.3.2.1"),
    row(Rule::DevicesInBag, "11.3.2.1", "11.3.2.1"),
    row(Rule::DeviceOnPerson, "11.3.2.2", "11.3.2.2"),
    row(Rule::Inspection, "11.3.3", "11.3.3"),
    row(Rule::Spectators, "11.4", "11.4"),
    row(Rule::FairPlayRules, "12.2.7", "12.2.7"),
    row(Rule::ClockAfterRestoration, "7.1", "7.1"),
    row(Rule::DisplacedPiecesReinstated, "7.6", "7.6"),
    row(Rule::GameReconstructed, "8.5.3", NONE),
];

/// The number of `rule` in `edition`; empty when the edition has no such rule (the engine
/// never cites one: see [`extra_time`]).
pub fn article(edition: LawsEdition, rule: Rule) -> &'static str {
    let row = TABLE.iter().find(|row| row.rule == rule);
    match (row, edition) {
        (Some(row), LawsEdition::Y2023) => row.y2023,
        (Some(row), LawsEdition::Y2018) => row.y2018,
        // Every rule has a row (tested); this arm only keeps the function total.
        (None, _) => NONE,
    }
}

/// The numbers of several rules in `edition`, as cited in a ruling: `"9.5.3, A.3"`.
pub fn citation(edition: LawsEdition, rules: &[Rule]) -> String {
    rules
        .iter()
        .map(|&rule| article(edition, rule))
        .filter(|number| !number.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rules under which an illegal move stands in a game at `rate` (Appendix A for rapid,
/// B through A for blitz); `None` in standard play, where an illegal move found during the
/// game is always corrected (7.5.1).
pub fn illegal_move_stands(rate: TimeControlKind) -> Option<Vec<Rule>> {
    match rate {
        TimeControlKind::Standard => None,
        TimeControlKind::Rapid => Some(vec![Rule::IllegalMoveStands]),
        TimeControlKind::Blitz => Some(vec![Rule::BlitzFollowsRapid, Rule::IllegalMoveStands]),
    }
}

/// What the extra time is given for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtraTimeCause {
    /// An incorrect claim (9.5.3).
    IncorrectClaim,
    /// A completed illegal move, or an irregularity penalised as one (7.5.5).
    IllegalMove,
}

/// The extra time the opponent receives, and the rules that set it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtraTime {
    /// Milliseconds added to the opponent's clock.
    pub ms: u64,
    /// The rules to cite, the general one first.
    pub rules: Vec<Rule>,
}

/// The extra time for `cause` at `rate` under `edition`:
///
/// * standard play: two minutes (7.5.5, 9.5.3) in both editions;
/// * 2023: one minute in rapid (A.3) and in blitz (B.3 applies A.3);
/// * 2018: two minutes in rapid (Appendix A changed nothing), one minute in blitz (B.2).
pub fn extra_time(edition: LawsEdition, rate: TimeControlKind, cause: ExtraTimeCause) -> ExtraTime {
    let general = match cause {
        ExtraTimeCause::IncorrectClaim => Rule::IncorrectClaim,
        ExtraTimeCause::IllegalMove => Rule::IllegalMovePenalty,
    };
    let (ms, appendix): (u64, &[Rule]) = match (edition, rate) {
        (_, TimeControlKind::Standard) => (120_000, &[]),
        (LawsEdition::Y2023, TimeControlKind::Rapid) => (60_000, &[Rule::RapidPenalties]),
        (LawsEdition::Y2023, TimeControlKind::Blitz) => {
            (60_000, &[Rule::BlitzFollowsRapid, Rule::RapidPenalties])
        }
        (LawsEdition::Y2018, TimeControlKind::Rapid) => (120_000, &[]),
        (LawsEdition::Y2018, TimeControlKind::Blitz) => (60_000, &[Rule::BlitzPenalties]),
    };
    let mut rules = vec![general];
    rules.extend_from_slice(appendix);
    ExtraTime { ms, rules }
}

/// Whether a resignation is a draw when the opponent cannot checkmate by any series of
/// legal moves: the 2023 edition's 5.1.2 says so; under 2018 a resignation always loses.
pub fn resignation_draws_when_opponent_cannot_mate(edition: LawsEdition) -> bool {
    edition == LawsEdition::Y2023
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_2018_edition_renumbers_article_9_2() {
        assert_eq!(
            article(LawsEdition::Y2018, Rule::RepetitionAboutToAppear),
            "9.2.1.1"
        );
        assert_eq!(
            article(LawsEdition::Y2018, Rule::RepetitionHasAppeared),
            "9.2.1.2"
        );
        assert_eq!(article(LawsEdition::Y2018, Rule::SamePosition), "9.2.2");
        assert_eq!(
            citation(
                LawsEdition::Y2018,
                &[Rule::RepetitionHasAppeared, Rule::IncorrectClaim]
            ),
            "9.2.1.2, 9.5.3"
        );
        assert_eq!(
            article(LawsEdition::Y2023, Rule::RepetitionHasAppeared),
            "9.2.2"
        );
        assert_eq!(
            article(LawsEdition::Y2018, Rule::FiftyMovesAboutToBeMade),
            "9.3.1"
        );
    }

    #[test]
    fn every_rule_has_exactly_one_row_in_the_table() {
        for row in TABLE {
            let rows = TABLE.iter().filter(|other| other.rule == row.rule).count();
            assert_eq!(rows, 1, "{:?} has {rows} rows", row.rule);
        }
        for row in TABLE {
            assert!(
                !(row.y2018.is_empty() && row.y2023.is_empty()),
                "{:?} is in no edition",
                row.rule
            );
        }
    }

    #[test]
    fn extra_time_follows_the_edition_and_the_rate_of_play() {
        use ExtraTimeCause::*;
        use LawsEdition::*;
        use TimeControlKind::*;
        let cited = |e, r, c| {
            let extra = extra_time(e, r, c);
            (extra.ms, citation(e, &extra.rules))
        };
        assert_eq!(
            cited(Y2023, Standard, IncorrectClaim),
            (120_000, "9.5.3".into())
        );
        assert_eq!(
            cited(Y2023, Rapid, IncorrectClaim),
            (60_000, "9.5.3, A.3".into())
        );
        assert_eq!(
            cited(Y2023, Blitz, IllegalMove),
            (60_000, "7.5.5, B.3, A.3".into())
        );
        assert_eq!(cited(Y2018, Rapid, IllegalMove), (120_000, "7.5.5".into()));
        assert_eq!(
            cited(Y2018, Blitz, IncorrectClaim),
            (60_000, "9.5.3, B.2".into())
        );
    }
}
