//! The pure FIDE rules engine: the Laws of Chess as functions over shakmaty positions.
//!
//! One flat module per concept. Nothing here does I/O, reads a clock or draws random
//! numbers, so every ruling can be reproduced from the same inputs (Principle 3).
//!
//! * [`laws`]: article numbering in the game's edition of the Laws (2023 default, 2018).
//! * [`position_identity`]: when two positions are "the same" (9.2.3) and how often a
//!   position has occurred (9.2, 9.6.1).
//! * [`move_parsing`]: SAN or UCI moves, Chess960 castling where the start position needs it.
//! * [`move_counting`]: the 50- and 75-move counts (9.3, 9.6.2).
//! * [`mating_potential`]: whether a side can still checkmate by any series of legal moves
//!   (5.2.2 dead position, 6.9, 7.5.5), by helpmate search with `chasolver`.
//! * [`claims`]: judgement of 9.2 and 9.3 claims for the claimant.

pub mod claims;
pub mod laws;
pub mod mating_potential;
pub mod move_counting;
pub mod move_parsing;
pub mod position_identity;
