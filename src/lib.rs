//! Arbitration record service for over-the-board chess.
//!
//! `game` and `rules` are the pure core (the FIDE Laws); `store` holds all SQL; `http` is the
//! thin actix-web shell.

pub mod analyze;
pub mod game;
pub mod rules;
