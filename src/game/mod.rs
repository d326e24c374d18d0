//! The game aggregate: pure code that folds a game's events into its state and decides which
//! decision events a new event causes. No database, HTTP, async runtime or clock.
//!
//! One module per part of the Laws (see the table in [`aggregate`]). Each keeps its part of
//! the game state, folds the events it cares about and judges the requests it decides, given
//! one context (`parts`), so that a rule and what it depends on read in one place;
//! [`Game::record`] judges an event and applies it with its decisions in one step, for the
//! service, the audit and the tests alike.
//!
//! The modules are layered, and each imports only from the layers below it (docs/DESIGN.md
//! draws them): the vocabulary (`event`, `refusal`, `view`, `settings`, `decisions`,
//! `prepared`, `reads`), then what every part shares (`parts`: the contexts, [`CorruptLog`]),
//! then the parts, then the state that runs them all (`state`), then [`Game`] (`aggregate`)
//! and what reads a game (`audit`, `board_status`). A part never reads another's state but
//! through the narrow views of `reads`, so no part depends on the state above it.

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
pub mod fair_play;
mod illegal_moves;
mod moves;
pub mod narration;
mod offers;
pub mod outcome;
mod parts;
mod prepared;
mod quickplay;
mod reads;
pub mod refusal;
pub mod settings;
mod state;
mod touch_move;
pub mod view;

pub use aggregate::Game;
pub use appeals::retracted_by;
pub use decisions::ENGINE_VERSION;
pub use parts::CorruptLog;
pub use refusal::{Refusal, RefusalCode};
pub use settings::SettingsError;
pub use view::{GameView, PositionOccurrences};
