//! Arbitration record service for over-the-board chess.
//!
//! `game` and `rules` are the pure core (the FIDE Laws); `interchange` holds the pure formats
//! in and out (PGN export and import, SVG diagrams, what streams and broadcasts show, pairing
//! files); `analyze` audits PGN records with them; `store` holds all SQL; `arbitration` joins
//! the core and the store; `import` records PGN files through it; `streams` follows games live
//! for streams and broadcasts; `http` is the thin actix-web shell and `web` the back office's
//! pages over the same services; `tournament` turns a round's pairings into games; `access`
//! and `integrity` are who may write and the offline proof that nothing changed; `telemetry`
//! is what the service counts for `/metrics`.

pub mod access;
pub mod analyze;
pub mod arbitration;
pub mod cluster;
pub mod game;
pub mod http;
pub mod import;
pub mod integrity;
pub mod interchange;
pub mod rules;
pub mod store;
pub mod streams;
pub mod telemetry;
pub mod tournament;
pub mod web;
