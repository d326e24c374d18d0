//! The pure FIDE rules engine: the Laws of Chess as functions over shakmaty positions.
//!
//! One flat module per concept. Nothing here does I/O, reads a clock or draws random
//! numbers, so every ruling can be reproduced from the same inputs (docs/DESIGN.md,
//! Principle 3). Nothing here imports the game aggregate: the vocabulary the Laws speak in
//! (the players, the editions, the rates of play, the kinds of claim) is defined here and
//! re-exported by `crate::game::event` for the wire.
//!
//! * [`side`]: the players (Article 1).
//! * [`laws`]: the editions of the Laws (2023 default, 2018), the table of article numbers
//!   and the edition-dependent consequences (extra time, resignation).
//! * [`position_identity`]: when two positions are "the same" (9.2.3) and how often a
//!   position has occurred (9.2, 9.6.1).
//! * [`move_parsing`]: SAN or UCI moves (Article 3), Chess960 castling where the start
//!   position needs it, the piece a written or attempted illegal move names (4.3, 7.5.1).
//! * [`move_counting`]: the 50- and 75-move counts (9.3, 9.6.2).
//! * [`mating_potential`]: whether a side can still checkmate by any series of legal moves
//!   (5.2.2 dead position, 6.9, 7.5.5), by helpmate search with `chasolver`.
//! * [`automatic_end`]: the ends without a claim (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2), in
//!   one order for the live engine and the analyser.
//! * [`claims`]: judgement of 9.2 and 9.3 claims for the claimant.
//! * [`evidence`]: the typed evidence a ruling rests on (claims, automatic ends).
//! * [`electronic_devices`]: devices found and inspections refused (11.3.2, 11.3.3, 11.4,
//!   12.9), the rulings of each edition.
//! * [`appeals`]: the appeals procedure of an event's regulations (11.10; FIDE Handbook
//!   C.11, ECU Tournament Rules): the deadline, the deposit, who may sit on the committee.
//! * [`tie_breaks`]: tie-breaks of FIDE Handbook C.07 (the Buchholz family and its cuts,
//!   Sonneborn-Berger, progressive score, Koya, direct encounter, wins and games won, games
//!   with Black, average rating of opponents), unplayed rounds by the 2023 revision or the
//!   rules before it, and the ranks they give.
//! * [`time_control`]: time controls with periods (6.3), their rate of play (A.1, B.1) and
//!   the per-game period tracker behind the rulings that depend on the period.

pub mod appeals;
pub mod automatic_end;
pub mod claims;
pub mod electronic_devices;
pub mod evidence;
pub mod laws;
pub mod mating_potential;
pub mod move_counting;
pub mod move_parsing;
pub mod position_identity;
pub mod side;
pub mod tie_breaks;
pub mod time_control;
