//! Arbitration record service for over-the-board chess.
//!
//! The layers, from the bottom (each imports only from below it; docs/DESIGN.md draws them):
//!
//! 1. The pure core: `rules` and `game` (the FIDE Laws), `interchange` (the formats in and
//!    out: PGN, SVG diagrams, what streams and broadcasts show, pairing files), `analyze`
//!    (audits PGN records with them), `tournament` (a tournament's settings), `access`
//!    (roles and principals) and `integrity` (the offline proof that nothing changed).
//! 2. `store`: all SQL.
//! 3. `app`: the application services joining core and store (record, import, load a round,
//!    follow games live, decode commands, sessions, the authentication throttle).
//! 4. `config` and `state`: the options and the shared state both faces reach; `problem` and
//!    `request`: the error body and the request plumbing both faces share.
//! 5. The two faces: `http` (the JSON API) and `web` (the back office), siblings that never
//!    import each other.
//! 6. `startup` (the composition root) and `cli` (the subcommands); `ops` holds what the
//!    operator runs around the service (the private cluster, metrics).

#![warn(missing_docs)]

pub mod access;
pub mod analyze;
pub mod app;
pub mod cli;
pub mod config;
pub mod game;
pub mod http;
pub mod integrity;
pub mod interchange;
pub mod ops;
pub mod problem;
pub mod request;
pub mod rules;
pub mod startup;
pub mod state;
pub mod store;
pub mod tournament;
pub mod tournament_log;
pub mod web;
