//! The common FIDE controls by name (the standard control of most rated play, the
//! title-match control, the World Rapid and Blitz controls), each as its periods and its PGN
//! tag. Apart from the model, since a preset is a table of known controls and not a rule.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Bonus, BonusMode, Period, TimeControl, normalise, rate_of};

/// The common FIDE controls, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// 90 minutes for 40 moves, then 30 minutes for the rest of the game, 30 seconds a move
    /// from move 1 (PGN `40/5400+30:1800+30`): the control of most FIDE-rated standard play.
    FideStandard,
    /// 120 minutes for 40 moves, 60 minutes for the next 20, 15 minutes for the rest of the
    /// game with 30 seconds a move from move 61 (PGN `40/7200:20/3600:900+30`).
    TitleMatch,
    /// 15 minutes plus 10 seconds a move from move 1 (PGN `900+10`), the World Rapid control.
    #[serde(rename = "rapid_15_plus_10")]
    Rapid15Plus10,
    /// 3 minutes plus 2 seconds a move from move 1 (PGN `180+2`), the World Blitz control.
    #[serde(rename = "blitz_3_plus_2")]
    Blitz3Plus2,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 4] = [
        Preset::FideStandard,
        Preset::TitleMatch,
        Preset::Rapid15Plus10,
        Preset::Blitz3Plus2,
    ];

    /// The periods of the preset.
    pub fn periods(self) -> Vec<Period> {
        match self {
            Preset::FideStandard => vec![
                Period {
                    time_ms: 5_400_000,
                    moves: Some(40),
                    bonus: Some(Bonus::increment(30_000)),
                },
                Period {
                    time_ms: 1_800_000,
                    moves: None,
                    bonus: Some(Bonus::increment(30_000)),
                },
            ],
            Preset::TitleMatch => vec![
                Period {
                    time_ms: 7_200_000,
                    moves: Some(40),
                    bonus: None,
                },
                Period {
                    time_ms: 3_600_000,
                    moves: Some(20),
                    bonus: None,
                },
                Period {
                    time_ms: 900_000,
                    moves: None,
                    bonus: Some(Bonus {
                        mode: BonusMode::Increment,
                        ms: 30_000,
                        from_move: Some(61),
                    }),
                },
            ],
            Preset::Rapid15Plus10 => vec![Period {
                time_ms: 900_000,
                moves: None,
                bonus: Some(Bonus::increment(10_000)),
            }],
            Preset::Blitz3Plus2 => vec![Period {
                time_ms: 180_000,
                moves: None,
                bonus: Some(Bonus::increment(2_000)),
            }],
        }
    }

    /// The resolved control of the preset, with its rate of play.
    pub fn control(self) -> TimeControl {
        let periods = normalise(self.periods());
        let kind = rate_of(&periods).kind;
        TimeControl { kind, periods }
    }

    /// The PGN `TimeControl` tag of the preset (PGN standard 9.6.1 with the usual `+`
    /// increment on a moves period).
    pub fn pgn(self) -> &'static str {
        match self {
            Preset::FideStandard => "40/5400+30:1800+30",
            Preset::TitleMatch => "40/7200:20/3600:900+30",
            Preset::Rapid15Plus10 => "900+10",
            Preset::Blitz3Plus2 => "180+2",
        }
    }
}
