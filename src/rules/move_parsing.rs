//! Reading moves as recorders write them: SAN (`Nf3`, `O-O`, `e8=Q+`) or UCI (`g1f3`).
//!
//! A move is accepted only if it is legal in the position (Article 3). Chess960 castling
//! (king onto rook in UCI, `O-O` in SAN) applies when the start position's castling rights
//! are not the standard ones.

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role, Square};

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

/// The legal position `fen` describes, read in the game's `castling_mode` (an en passant
/// square no capture can use is dropped, as FIDE identity ignores it, 9.2.3.1).
pub fn position_in_mode(fen: &str, castling_mode: CastlingMode) -> Result<Chess, String> {
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e| format!("`{fen}` is not a FEN: {e}"))?;
    parsed
        .into_position::<Chess>(castling_mode)
        .or_else(shakmaty::PositionError::ignore_invalid_ep_square)
        .map_err(|e| format!("`{fen}` is not a legal chess position: {e}"))
}

/// Whether `text` is written in a notation a move can be read from, whatever the position:
/// SAN (`Nf3`, `exd5+`, `O-O`), UCI (`g1f3`) or from-to squares (`g1-f3`, `Ng1xf3`). A text
/// that is notation may still be an illegal move (a matter for the Laws); one that is not
/// (`Qxq9`, `hello`) names no move at all.
pub fn is_move_notation(text: &str) -> bool {
    let trimmed = text.trim();
    if SanPlus::from_ascii(trimmed.as_bytes()).is_ok() || trimmed.parse::<UciMove>().is_ok() {
        return true;
    }
    let bytes = trimmed.as_bytes();
    let squares = (0..bytes.len().saturating_sub(1))
        .filter(|&i| (b'a'..=b'h').contains(&bytes[i]) && (b'1'..=b'8').contains(&bytes[i + 1]))
        .count();
    squares == 2
        && trimmed.len() >= 4
        && trimmed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-x:+#=".contains(&b))
        && trimmed.bytes().filter(u8::is_ascii_digit).count() == 2
}

/// A move as a player wrote or attempted it, read in the position where it was written: the
/// written move of a claim (9.2.1, 9.3.1) or the attempted move of an illegal move (7.5.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WrittenMove {
    /// A legal move.
    Legal(Move),
    /// Not a legal move, but it names the piece that was to move (4.3, 4.4.2): the squares of
    /// the pieces it can have meant (several when the text does not tell them apart), and
    /// the square it was going to, with the opponent's piece standing there if any.
    Illegal {
        /// Own pieces the text can mean, by square.
        pieces: Vec<Square>,
        /// The square the piece was to go to (the king's square for castling).
        to: Option<Square>,
        /// The opponent's piece on `to`, which the move would have captured.
        captured: Option<Square>,
    },
    /// The text is not a move, or names no piece of the player.
    Unreadable,
}

/// Read `text` (SAN, UCI, or from-to squares such as `g8-f6`) as written by the player having
/// the move in `position`. A legal move is [`WrittenMove::Legal`] (an ambiguous SAN is not:
/// it does not say which piece moves); otherwise the pieces it names are found the way an
/// arbiter reads a scoresheet: by the origin square when given, else by the piece type and
/// whatever file or rank the SAN gives.
pub fn read_written_move(position: &Chess, text: &str, castling_mode: CastlingMode) -> WrittenMove {
    if let Ok(m) = parse_move(position, text, castling_mode) {
        return WrittenMove::Legal(m);
    }
    let trimmed = text.trim();
    let own = position.us();
    let them = position.them();
    let board = position.board();
    let captured_on = |to: Square| them.contains(to).then_some(to);
    // From-to squares: UCI `g8f6`, long algebraic `g8-f6`, `Ng8-f6`, `Ng8xf6`.
    let squares: Vec<Square> = {
        let bytes = trimmed.as_bytes();
        (0..bytes.len().saturating_sub(1))
            .filter_map(|i| {
                let (file, rank) = (bytes[i], bytes[i + 1]);
                ((b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank))
                    .then(|| Square::from_ascii(&bytes[i..i + 2]).ok())
                    .flatten()
            })
            .collect()
    };
    let long_form = trimmed.len() >= 4
        && squares.len() == 2
        && trimmed
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-x:+#=".contains(&b));
    if long_form && own.contains(squares[0]) {
        return WrittenMove::Illegal {
            pieces: vec![squares[0]],
            to: Some(squares[1]),
            captured: captured_on(squares[1]),
        };
    }
    match San::from_ascii(trimmed.as_bytes()) {
        Ok(San::Normal {
            role,
            file,
            rank,
            to,
            ..
        }) => {
            let mut pieces: Vec<Square> = (board.by_role(role) & own)
                .into_iter()
                .filter(|sq| file.is_none_or(|f| sq.file() == f))
                .filter(|sq| rank.is_none_or(|r| sq.rank() == r))
                .filter(|&sq| sq != to)
                .collect();
            if role == Role::Pawn && file.is_none() {
                // A pawn move without a capture names the pawn of the destination's file.
                pieces.retain(|sq| sq.file() == to.file());
            }
            if pieces.is_empty() {
                return WrittenMove::Unreadable;
            }
            // Where the SAN was legal but ambiguous, the pieces that can make it.
            let legal_ones: Vec<Square> = position
                .legal_moves()
                .iter()
                .filter(|m| m.to() == to && m.role() == role)
                .filter_map(|m| m.from())
                .filter(|from| pieces.contains(from))
                .collect();
            if legal_ones.len() > 1 {
                pieces = legal_ones;
            }
            WrittenMove::Illegal {
                pieces,
                to: Some(to),
                captured: captured_on(to),
            }
        }
        Ok(San::Castle(_)) => match position.board().king_of(position.turn()) {
            Some(king) => WrittenMove::Illegal {
                pieces: vec![king],
                to: None,
                captured: None,
            },
            None => WrittenMove::Unreadable,
        },
        _ => WrittenMove::Unreadable,
    }
}

/// Read the position as it stands on the board after an irregularity that stood (Appendix
/// A.4.2: an illegal move neither the opponent nor the arbiter corrected in time). Such a
/// position may hold more material than a legal game can reach or a check no legal move can
/// give, and is accepted with them; a position where the player *not* having the move is in
/// check is refused, because no game can continue from it (the king would be captured).
pub fn position_as_it_stands(fen: &str, castling_mode: CastlingMode) -> Result<Chess, String> {
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e| format!("`{fen}` is not a FEN: {e}"))?;
    parsed
        .into_position::<Chess>(castling_mode)
        .or_else(shakmaty::PositionError::ignore_invalid_castling_rights)
        .or_else(shakmaty::PositionError::ignore_invalid_ep_square)
        .or_else(shakmaty::PositionError::ignore_too_much_material)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .map_err(|e| format!("`{fen}` is not a position the game can continue from: {e}"))
}

/// Move the piece on `from` to `to` without checking that the move is legal, as an illegal
/// move that stood was played on the board (a pawn reaching the last rank becomes a queen,
/// as 7.5.2 has it): `None` when there is no piece of the player having the move on `from`,
/// or when the result is not a position the game can continue from.
pub fn play_as_it_stood(
    position: &Chess,
    from: Square,
    to: Square,
    castling_mode: CastlingMode,
) -> Option<Chess> {
    let mut setup = position.to_setup(EnPassantMode::Legal);
    let piece = setup.board.piece_at(from)?;
    if piece.color != position.turn() {
        return None;
    }
    let captured = setup.board.piece_at(to).is_some();
    setup.board.discard_piece_at(from);
    let last_rank = match piece.color {
        shakmaty::Color::White => shakmaty::Rank::Eighth,
        shakmaty::Color::Black => shakmaty::Rank::First,
    };
    let placed = if piece.role == Role::Pawn && to.rank() == last_rank {
        shakmaty::Piece {
            role: Role::Queen,
            ..piece
        }
    } else {
        piece
    };
    setup.board.set_piece_at(to, placed);
    setup.ep_square = None;
    setup.halfmoves = if captured || piece.role == Role::Pawn {
        0
    } else {
        setup.halfmoves.saturating_add(1)
    };
    if setup.turn == shakmaty::Color::Black {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup.turn = !setup.turn;
    <Chess as shakmaty::FromSetup>::from_setup(setup, castling_mode)
        .or_else(shakmaty::PositionError::ignore_invalid_castling_rights)
        .or_else(shakmaty::PositionError::ignore_too_much_material)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::is_move_notation;

    #[test]
    fn move_notation_is_san_uci_or_from_to_squares_and_nothing_else() {
        for text in [
            "Nf3", "exd5+", "O-O", "e8=Q", "g1f3", "g1-f3", "Ng1xf3", "Qh5", "Kxa1",
        ] {
            assert!(is_move_notation(text), "{text}");
        }
        for text in ["Qxq9", "e9", "hello", "", "Nf", "a1-q9", "a1-h22"] {
            assert!(!is_move_notation(text), "{text}");
        }
    }
}
