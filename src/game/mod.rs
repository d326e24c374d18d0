//! The game aggregate: pure code that folds a game's events into its state and decides which
//! decision events a new event causes. No database, HTTP, async runtime or clock.

pub mod event;
