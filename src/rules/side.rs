//! The two players (Article 1.1: "the player with the light-coloured pieces (White) and the
//! player with the dark-coloured pieces (Black)").
//!
//! The type lives with the rules because every article speaks of "the player" and "the
//! opponent"; the event vocabulary in `crate::game::event` re-exports it for the wire.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A player colour (`white` or `black`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The player of the white pieces.
    White,
    /// The player of the black pieces.
    Black,
}

impl Side {
    /// Both sides, White first.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// The other player.
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The lower-case English name used on the wire and in rulings.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// 0 for White, 1 for Black: an index into per-side arrays.
    pub fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
}

impl From<shakmaty::Color> for Side {
    fn from(color: shakmaty::Color) -> Self {
        match color {
            shakmaty::Color::White => Side::White,
            shakmaty::Color::Black => Side::Black,
        }
    }
}

impl From<Side> for shakmaty::Color {
    fn from(side: Side) -> Self {
        match side {
            Side::White => shakmaty::Color::White,
            Side::Black => shakmaty::Color::Black,
        }
    }
}

/// A value for each player, indexed by [`Side`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySide<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> BySide<T> {
    /// Both values set to what `make` gives for each side.
    pub fn new(mut make: impl FnMut(Side) -> T) -> BySide<T> {
        BySide {
            white: make(Side::White),
            black: make(Side::Black),
        }
    }

    /// The value of `side`.
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }

    /// The value of `side`, to change.
    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        }
    }
}
