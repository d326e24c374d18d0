//! How the engine writes its decisions (docs/DESIGN.md, Principles 3 and 4): every decision
//! carries the engine version and the edition of the Laws it was made under, cites the
//! articles of that edition (from the table in `crate::rules::laws`), and says why in a
//! sentence.

use crate::rules::evidence::EndEvidence;
use crate::rules::laws::{LawsEdition, Rule, citation};
use crate::rules::side::Side;

use super::event::{GameResult, GameSettings, RuledBy, ServiceEvent, Termination};

/// The version of the rules engine, carried by every decision (docs/DESIGN.md, Principle 3).
pub const ENGINE_VERSION: &str = concat!("arbiter-rules ", env!("CARGO_PKG_VERSION"));

/// Writes decisions for one game: its edition of the Laws and its rate of play.
#[derive(Clone, Copy, Debug)]
pub(super) struct Decisions<'a> {
    pub(super) settings: &'a GameSettings,
}

impl<'a> Decisions<'a> {
    /// The edition of the Laws that governs the game.
    pub(super) fn edition(&self) -> LawsEdition {
        self.settings.laws_edition
    }

    /// The article numbers of `rules` in the game's edition.
    pub(super) fn cite(&self, rules: &[Rule]) -> String {
        citation(self.edition(), rules)
    }

    /// Who makes the decision.
    pub(super) fn ruled_by(&self) -> RuledBy {
        RuledBy {
            engine_version: ENGINE_VERSION.to_string(),
            laws_edition: self.edition(),
        }
    }

    /// The game ends.
    pub(super) fn game_ended(
        &self,
        cause_seq: u64,
        result: GameResult,
        termination: Termination,
        rules: &[Rule],
        reason: String,
        evidence: Option<EndEvidence>,
    ) -> ServiceEvent {
        ServiceEvent::GameEnded {
            result,
            termination,
            article: self.cite(rules),
            reason,
            cause_seq,
            ruled_by: self.ruled_by(),
            evidence,
        }
    }

    /// The game ends, citing `article` (already in the game's edition: the articles of the
    /// time control come from their own table, `crate::rules::time_control::articles`).
    pub(super) fn game_ended_citing(
        &self,
        cause_seq: u64,
        result: GameResult,
        termination: Termination,
        article: String,
        reason: String,
    ) -> ServiceEvent {
        ServiceEvent::GameEnded {
            result,
            termination,
            article,
            reason,
            cause_seq,
            ruled_by: self.ruled_by(),
            evidence: None,
        }
    }

    /// Time is added to a player's clock.
    pub(super) fn penalty(
        &self,
        cause_seq: u64,
        side: Side,
        add_ms: u64,
        article: String,
        reason: String,
    ) -> ServiceEvent {
        ServiceEvent::PenaltyApplied {
            side,
            add_ms,
            article,
            reason,
            cause_seq,
            ruled_by: self.ruled_by(),
        }
    }
}

/// "2 minutes", "1 minute", "90 seconds".
pub(super) fn minutes(ms: u64) -> String {
    if ms.is_multiple_of(60_000) {
        let m = ms / 60_000;
        if m == 1 {
            "1 minute".to_string()
        } else {
            format!("{m} minutes")
        }
    } else {
        format!("{} seconds", ms / 1000)
    }
}
