//! Refusals: recorded events that are not facts about the board (docs/DESIGN.md,
//! Principle 5). Nothing is stored; the message says why and what to record instead.

/// A recorded event the engine will not accept, with a stable [`Refusal::code`] and a
/// [`Refusal::message`] for the person recording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    code: &'static str,
    message: String,
}

impl Refusal {
    /// A refusal with a stable code (snake_case) and an explanation.
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// A stable machine-readable code, e.g. `illegal_move`, `not_your_turn`, `game_over`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// Why the event is refused, and what to record instead.
    pub fn message(&self) -> &str {
        &self.message
    }
}
