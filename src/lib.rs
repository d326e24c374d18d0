//! Arbitration record service for over-the-board chess.
//!
//! `game` and `rules` are the pure core (the FIDE Laws); `analyze` audits PGN records with
//! them; `store` holds all SQL; `arbitration` joins the core and the store; `http` is the thin
//! actix-web shell; `access` and `integrity` are who may write and the offline proof that
//! nothing changed; `telemetry` is what the service counts for `/metrics`.

pub mod access;
pub mod analyze;
pub mod arbitration;
pub mod cluster;
pub mod game;
pub mod http;
pub mod integrity;
pub mod rules;
pub mod store;
pub mod telemetry;
