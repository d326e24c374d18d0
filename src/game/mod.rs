//! The game aggregate: pure code that folds a game's events into its state and decides which
//! decision events a new event causes. No database, HTTP, async runtime or clock.

pub mod aggregate;
pub mod event;
pub mod refusal;
pub mod settings;
pub mod view;

pub use aggregate::{CorruptLog, Game};
pub use refusal::Refusal;
pub use settings::SettingsError;
pub use view::{GameView, PositionOccurrences};

/// The version of the rules engine, carried by every decision (Principle 3).
pub const ENGINE_VERSION: &str = concat!("arbiter-rules ", env!("CARGO_PKG_VERSION"));
