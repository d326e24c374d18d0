//! The game aggregate: pure code that folds a game's events into its state and decides which
//! decision events a new event causes. No database, HTTP, async runtime or clock.
//!
//! One module per part of the Laws (see the table in [`aggregate`]). Each keeps its part of
//! the game state, folds the events it cares about and judges the requests it decides, given
//! one context (`parts`), so that a rule and what it depends on read in one place;
//! [`Game::record`] judges an event and applies it with its decisions in one step, for the
//! service, the audit and the tests alike.

pub mod aggregate;
mod appeals;
mod arbiter;
pub mod audit;
pub mod board_status;
mod claims;
mod clocks;
mod decisions;
mod endings;
pub mod event;
mod illegal_moves;
mod moves;
mod offers;
mod parts;
mod quickplay;
pub mod refusal;
pub mod settings;
mod touch_move;
pub mod view;

pub use aggregate::{CorruptLog, Game};
pub use appeals::retracted_by;
pub use refusal::{Refusal, RefusalCode};
pub use settings::SettingsError;
pub use view::{GameView, PositionOccurrences};

/// The version of the rules engine, carried by every decision (docs/DESIGN.md, Principle 3).
pub const ENGINE_VERSION: &str = concat!("arbiter-rules ", env!("CARGO_PKG_VERSION"));
