//! Reading moves as recorders write them: SAN (`Nf3`, `O-O`, `e8=Q+`) or UCI (`g1f3`).
//!
//! A move is accepted only if it is legal in the position (Article 3). Chess960 castling
//! (king onto rook in UCI, `O-O` in SAN) applies when the start position's castling rights
//! are not the standard ones.

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

/// Why a written move could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// The text is neither SAN nor UCI.
    #[error("`{text}` is not a move in SAN (like Nf3, exd5, O-O, e8=Q) or UCI (like g1f3)")]
    Unreadable {
        /// The text as written.
        text: String,
    },
    /// The text is a move, but not a legal one here.
    #[error("`{text}` is not a legal move in this position ({fen})")]
    Illegal {
        /// The text as written.
        text: String,
        /// The position, as FEN.
        fen: String,
    },
    /// The SAN fits several legal moves.
    #[error("`{text}` is ambiguous in this position: say which piece moves (e.g. Nbd2)")]
    Ambiguous {
        /// The text as written.
        text: String,
    },
}

/// Parse `text` as SAN, else UCI, and return the legal move it denotes in `position`.
pub fn parse_move(
    position: &Chess,
    text: &str,
    castling_mode: CastlingMode,
) -> Result<Move, MoveParseError> {
    let trimmed = text.trim();
    let illegal = || MoveParseError::Illegal {
        text: trimmed.to_string(),
        fen: fen_of(position),
    };
    if let Ok(san_plus) = SanPlus::from_ascii(trimmed.as_bytes()) {
        return match san_plus.san.to_move(position) {
            Ok(m) => Ok(m),
            Err(shakmaty::san::SanError::AmbiguousSan) => Err(MoveParseError::Ambiguous {
                text: trimmed.to_string(),
            }),
            Err(_) => match uci_move(position, trimmed, castling_mode) {
                Some(m) => Ok(m),
                None => Err(illegal()),
            },
        };
    }
    if trimmed.parse::<UciMove>().is_ok() {
        return uci_move(position, trimmed, castling_mode).ok_or_else(illegal);
    }
    Err(MoveParseError::Unreadable {
        text: trimmed.to_string(),
    })
}

fn uci_move(position: &Chess, text: &str, castling_mode: CastlingMode) -> Option<Move> {
    let uci: UciMove = text.parse().ok()?;
    if let Ok(m) = uci.to_move(position) {
        return Some(m);
    }
    // Accept the other castling notation too (e1g1 in Chess960, e1h1 in standard chess).
    position.legal_moves().into_iter().find(|m| {
        m.is_castle() && UciMove::from_move(*m, castling_mode) != uci && {
            let other = match castling_mode {
                CastlingMode::Standard => CastlingMode::Chess960,
                CastlingMode::Chess960 => CastlingMode::Standard,
            };
            UciMove::from_move(*m, other) == uci
        }
    })
}

/// The SAN of a legal move, with `+`/`#` suffix.
pub fn san_of(position: &Chess, m: Move) -> String {
    SanPlus::from_move(position.clone(), m).to_string()
}

/// The SAN of a legal move, without check suffix (for matching).
pub fn plain_san_of(position: &Chess, m: Move) -> String {
    San::from_move(position, m).to_string()
}

/// The FEN of a position, with an en passant square only where the capture is legal.
pub fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

/// Read a start FEN; Chess960 castling is used where the castling rights are not the
/// standard ones (king on e1/e8 with rooks on the a- and h-files).
pub fn position_from_fen(fen: &str) -> Result<(Chess, CastlingMode), String> {
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e| format!("`{fen}` is not a FEN: {e}"))?;
    let mode = CastlingMode::detect(parsed.as_setup());
    let position: Chess = parsed
        .into_position(mode)
        .map_err(|e| format!("`{fen}` is not a legal chess position: {e}"))?;
    Ok((position, mode))
}
