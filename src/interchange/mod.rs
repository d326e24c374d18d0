//! Interchange with the tools around the service: pure code (no database, HTTP or clock)
//! that reads and writes the formats arbiters and pairing programs use.

pub mod pairings;
