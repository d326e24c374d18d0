//! What is marked on a board besides the pieces: arrows and circled squares in PGN's four
//! colours (`[%cal Ge2e4]`, `[%csl Rd5]`), read from requests and PGN comments, and the
//! squares of a move or of an illegal move written in words (7.5). Apart from the drawing,
//! since reading a mark is checking text, and the drawing only paints what was read.

use shakmaty::{Color, Move, Square};

/// The colour of an arrow or a circled square, as PGN's `[%cal]` / `[%csl]` write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum MarkColour {
    /// `G`, the default.
    Green,
    /// `R`.
    Red,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

impl MarkColour {
    /// The colour of a PGN prefix letter (`G`, `R`, `Y`, `B`).
    pub fn from_letter(letter: char) -> Option<MarkColour> {
        match letter {
            'G' => Some(MarkColour::Green),
            'R' => Some(MarkColour::Red),
            'Y' => Some(MarkColour::Yellow),
            'B' => Some(MarkColour::Blue),
            _ => None,
        }
    }

    /// The PGN prefix letter.
    pub fn letter(self) -> char {
        match self {
            MarkColour::Green => 'G',
            MarkColour::Red => 'R',
            MarkColour::Yellow => 'Y',
            MarkColour::Blue => 'B',
        }
    }

    /// The fill and its opacity (the colours lichess and python-chess use).
    pub(super) fn paint(self) -> (&'static str, &'static str) {
        match self {
            MarkColour::Green => ("#15781b", "0.5"),
            MarkColour::Red => ("#882020", "0.5"),
            MarkColour::Yellow => ("#e68f00", "0.7"),
            MarkColour::Blue => ("#003088", "0.5"),
        }
    }

    pub(super) fn name(self) -> &'static str {
        self.into()
    }
}

/// An arrow from one square to another (`Ge2e4` in PGN's `[%cal]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Where the arrow starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
    /// Its colour.
    pub colour: MarkColour,
}

/// A circled square (`Rd5` in PGN's `[%csl]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Circle {
    /// The square.
    pub square: Square,
    /// Its colour.
    pub colour: MarkColour,
}

/// A mark that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not {expected}: write an optional colour letter (G green, R red, Y yellow, B blue) then {example}"
)]
pub struct MarkError {
    /// The text as given.
    pub text: String,
    expected: &'static str,
    example: &'static str,
}

/// Splits an optional colour letter off a mark.
fn colour_and_rest(text: &str) -> (MarkColour, &str) {
    let mut chars = text.chars();
    match chars.next().and_then(MarkColour::from_letter) {
        Some(colour) => (colour, chars.as_str()),
        None => (MarkColour::Green, text),
    }
}

fn square_at(text: &str, at: usize) -> Option<Square> {
    text.get(at..at + 2)?.parse().ok()
}

impl Arrow {
    /// Reads `Ge2e4`, `Re1e3` or `e2e4` (green when no colour is given), as in `[%cal]`;
    /// nothing else, not even spaces, may surround it.
    pub fn parse(text: &str) -> Result<Arrow, MarkError> {
        let error = || MarkError {
            text: text.to_string(),
            expected: "an arrow",
            example: "two squares, e.g. Ge2e4 or e2e4",
        };
        let (colour, rest) = colour_and_rest(text);
        if rest.len() != 4 {
            return Err(error());
        }
        let (from, to) = square_at(rest, 0)
            .zip(square_at(rest, 2))
            .ok_or_else(error)?;
        Ok(Arrow { from, to, colour })
    }

    /// The mark as PGN writes it (`Ge2e4`).
    pub fn pgn(self) -> String {
        format!("{}{}{}", self.colour.letter(), self.from, self.to)
    }
}

impl Circle {
    /// Reads `Rd5` or `d5` (green when no colour is given), as in `[%csl]`; nothing else may
    /// surround it.
    pub fn parse(text: &str) -> Result<Circle, MarkError> {
        let error = || MarkError {
            text: text.to_string(),
            expected: "a circled square",
            example: "a square, e.g. Rd5 or d5",
        };
        let (colour, rest) = colour_and_rest(text);
        if rest.len() != 2 {
            return Err(error());
        }
        let square = square_at(rest, 0).ok_or_else(error)?;
        Ok(Circle { square, colour })
    }

    /// The mark as PGN writes it (`Rd5`).
    pub fn pgn(self) -> String {
        format!("{}{}", self.colour.letter(), self.square)
    }
}

/// The arrows and circles of a PGN comment's `[%cal ...]` and `[%csl ...]` commands; marks
/// that cannot be read are skipped.
pub fn marks_in_pgn_comment(comment: &str) -> (Vec<Arrow>, Vec<Circle>) {
    let mut arrows = Vec::new();
    let mut circles = Vec::new();
    for (command, is_arrow) in [("[%cal", true), ("[%csl", false)] {
        let mut rest = comment;
        while let Some(start) = rest.find(command) {
            let after = &rest[start + command.len()..];
            let end = after.find(']').unwrap_or(after.len());
            for token in after[..end].split(',').map(str::trim) {
                if is_arrow {
                    arrows.extend(Arrow::parse(token).ok());
                } else {
                    circles.extend(Circle::parse(token).ok());
                }
            }
            rest = &after[end..];
        }
    }
    (arrows, circles)
}

/// The two squares of an illegal move written in its description, if it names them: the
/// first pair of squares such as `e2e4`, `e2-e4`, `Ke8-e7` or `Nb1xd4`. (An illegal move is
/// recorded in words, 7.5; it cannot be resolved like a legal one.)
pub fn illegal_move_squares(description: &str) -> Option<(Square, Square)> {
    let bytes = description.as_bytes();
    let is_square = |at: usize| {
        bytes.get(at).is_some_and(|b| (b'a'..=b'h').contains(b))
            && bytes.get(at + 1).is_some_and(|b| (b'1'..=b'8').contains(b))
    };
    for at in 0..bytes.len() {
        if !is_square(at) || (at > 0 && bytes[at - 1].is_ascii_lowercase()) {
            continue;
        }
        let mut to = at + 2;
        if bytes
            .get(to)
            .is_some_and(|b| matches!(b, b'-' | b'x' | b':'))
        {
            to += 1;
        }
        if is_square(to) {
            let from = square_at(description, at)?;
            let target = square_at(description, to)?;
            return Some((from, target));
        }
    }
    None
}

/// The squares a move goes from and to, as a diagram highlights them (the king's squares for
/// castling, whatever the notation).
pub fn move_squares(m: Move, mover: Color) -> Option<(Square, Square)> {
    match m {
        Move::Castle { king, .. } => Some((king, m.castling_side()?.king_to(mover))),
        _ => Some((m.from()?, m.to())),
    }
}
