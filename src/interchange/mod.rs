//! Interchange: the formats in which games leave and enter the service other than our own
//! JSON: PGN out (archive and broadcast), what live streams and broadcasts show, board
//! diagrams (SVG) for arbiters, appeals committees and notice boards, and PGN read from
//! tournament files; the pairing files of pairing programs; and the DGT LiveChess feed of
//! electronic boards, read against the stored line.
//!
//! Everything here is pure (no database, HTTP, async runtime or clock): it turns positions and
//! game states into text and text into events, so the same code serves the HTTP routes, the
//! command line and the tests.

pub mod board_feed;
pub mod broadcast;
pub mod clock_readings;
pub mod dgt;
pub mod diagram;
pub mod pairings;
pub mod pgn_clock;
pub mod pgn_export;
pub mod pgn_feed;
pub mod pgn_import;
pub mod time_control_tag;
pub mod trf;
pub mod trf_trail;
