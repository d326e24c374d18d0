//! "Undo the last entry": what an arbiter who typed something wrong at the desk expects, in
//! one action. The last entry is what the last form recorded: the standing recorded events of
//! the latest append that still has any (a move with its clock press; a resignation, whose
//! `game_ended` goes with it). Undoing it records one correction per event, newest first,
//! each retracting the latest standing event and the decisions it caused (Principle 1: the
//! log keeps everything; a correction is appended, nothing is deleted).
//!
//! Corrections and appeals are not entries to undo: a correction cannot be retracted, and an
//! appeal is decided on its own page. The API keeps its precise corrections.

use crate::game::event::{Event, RecordedEvent};
use crate::store::EventEnvelope;
use std::collections::HashSet;

/// The last entry of `log`, newest first, given the `standing` events' seqs: every standing
/// recorded event of the latest append that has one, with the decisions each caused in the
/// same append. Empty when there is nothing to undo (no board event yet, or the latest
/// standing recorded event is a correction or an appeal).
pub fn last_entry<'a>(log: &'a [EventEnvelope], standing: &HashSet<u64>) -> LastEntry<'a> {
    let latest = log.iter().rev().find(|envelope| {
        standing.contains(&envelope.seq) && matches!(envelope.event, Event::Recorded(_))
    });
    let Some(latest) = latest.filter(|envelope| undoable(&envelope.event)) else {
        return LastEntry::default();
    };
    let batch: Vec<&EventEnvelope> = log
        .iter()
        .rev()
        .filter(|envelope| envelope.batch_id == latest.batch_id && standing.contains(&envelope.seq))
        .collect();
    LastEntry {
        retracted: batch
            .iter()
            .copied()
            .filter(|envelope| matches!(envelope.event, Event::Recorded(_)))
            .collect(),
        caused: batch
            .into_iter()
            .filter(|envelope| matches!(envelope.event, Event::Service(_)))
            .collect(),
    }
}

/// What undoing the last entry retracts.
#[derive(Clone, Debug, Default)]
pub struct LastEntry<'a> {
    /// The recorded events, newest first: one correction each, in this order.
    pub retracted: Vec<&'a EventEnvelope>,
    /// The decisions they caused, which their corrections retract with them.
    pub caused: Vec<&'a EventEnvelope>,
}

impl LastEntry<'_> {
    /// Whether there is nothing to undo.
    pub fn is_empty(&self) -> bool {
        self.retracted.is_empty()
    }
}

/// Whether a recorded event can be undone at the desk (not a correction, not an appeal).
fn undoable(event: &Event) -> bool {
    !matches!(
        event,
        Event::Recorded(
            RecordedEvent::Correction { .. }
                | RecordedEvent::AppealLodged { .. }
                | RecordedEvent::AppealDecided { .. }
        )
    )
}
