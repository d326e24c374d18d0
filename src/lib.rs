//! Arbitration record service for over-the-board chess.
//!
//! `game` and `rules` are the pure core (the FIDE Laws); `analyze` audits PGN records with
//! them; `store` holds all SQL; `arbitration` joins the core and the store; `http` is the thin
//! actix-web shell; `access` and `integrity` are who may write and the offline proof that
//! nothing changed. `interchange` holds the pure formats in and out (SVG diagrams, PGN read
//! for import); `import` records PGN files through the engine.

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
