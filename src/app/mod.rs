//! The application services: what both faces (the JSON API in [`crate::http`] and the back
//! office in [`crate::web`]) call, and the only place where the pure core and the store meet.
//!
//! [`fair_play`] records and reads the restricted fair-play events (issue 23);
//! [`arbitration`] judges events with the engine and appends them with their decisions
//! (grouping the appends of different games into one commit); [`authentication`] checks
//! bearer tokens, trusting a valid one for a short while;
//! [`import`] records PGN files through it; [`rounds`] turns a round's pairings into games;
//! [`streams`] follows games and rounds live; [`commands`] decodes what a person or a client
//! sends into typed commands, with a [`commands::CommandError`] that each face renders its
//! own way; [`sessions`] turns a back-office session into the principal it signs in;
//! [`throttle`] counts failed authentications per address; [`undo`] finds what the last form
//! recorded, for "undo the last entry"; [`trf`] builds the FIDE tournament report from the
//! log; [`follower`] follows a round's electronic boards live (DGT LiveChess feeds);
//! [`confirmations`] says what the clock's or the board's evidence holds against an entered
//! end of the game, for the desk to confirm.

pub mod appeals;
pub mod arbitration;
pub mod authentication;
pub mod chief_report;
pub mod commands;
pub mod confirmations;
pub mod fair_play;
pub mod feed_source;
pub mod follower;
pub mod import;
pub mod player_status;
pub mod rounds;
pub mod seals;
pub mod sessions;
pub mod status_codes;
pub mod streams;
pub mod throttle;
pub mod trail;
pub mod trf;
pub mod undo;
