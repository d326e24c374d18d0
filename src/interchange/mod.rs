//! Interchange with the tools around the service: pure code (no database, HTTP or clock)
//! that reads and writes the formats arbiters, pairing programs and broadcast relays use.

pub mod broadcast;
pub mod pairings;
pub mod pgn_export;
