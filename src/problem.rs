//! Problem details (RFC 9457): the body every 4xx and 5xx of the API carries, with a
//! sentence a person can act on and, for bad input, the field that is wrong. The API's
//! error type ([`crate::http::error::ApiError`]) and the extractors both faces share
//! ([`crate::request`]) answer with it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// An error response body (RFC 9457 problem details).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Problem {
    /// A URI naming the kind of problem (`urn:arbiter:problem:<code>`).
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind of problem.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What went wrong and what to do about it.
    pub detail: String,
    /// A stable machine-readable code (`stale_seq`, `invalid_field`, `game_not_found`, ...).
    pub code: String,
    /// The field of the request that is wrong, as a path (`events[2].san`), for bad input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The game's last stored `seq`, when an append was refused because it was stale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_seq: Option<u64>,
    /// The request's id (also in the `X-Request-Id` header and the service's log line for
    /// the request), on every 5xx: give it to the operator to find what failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

/// The title of a problem or a refusal with the stable `code`, in words a person reads
/// (`stale_seq` → "Someone recorded first"), for the API's problem bodies and the back
/// office's refusals alike; `None` for a code without a title of its own, whose problem
/// keeps its general one ("Bad request", "Request refused").
pub fn title_for(code: &str) -> Option<&'static str> {
    Some(match code {
        // The store and the request.
        "stale_seq" => "Someone recorded first",
        "event_id_reused" => "Event id already used",
        "game_not_found" => "No such game",
        "game_id_taken" => "Game id already used",
        "tournament_name_taken" => "Tournament name already used",
        "invalid_field" => "Invalid field",
        "invalid_query" => "Invalid query parameter",
        "seq_beyond_log" => "Beyond the end of the log",
        // Refusals of the Laws and of the record.
        "ambiguous_move" => "Ambiguous move",
        "appeal_already_decided" => "Appeal already decided",
        "arbiter_consent_required" => "The arbiter's consent is needed",
        "awaiting_arbiter" => "Awaiting the arbiter's decision",
        "bad_fen" => "Not a valid position (FEN)",
        "bad_square" => "Not a square",
        "both_must_have_moved" => "Both players must have moved",
        "draw_agreement_forbidden" => "Draw agreement forbidden",
        "empty_square" => "No piece on that square",
        "game_over" => "The game is over",
        "illegal_move" => "Illegal move",
        "illegal_move_cannot_stand" => "The illegal move cannot stand",
        "internal_inconsistency" => "Inconsistent record",
        "legal_attempted_move" => "The attempted move is legal",
        "missing_penalty" => "Penalty missing",
        "missing_result" => "Result missing",
        "must_move_obligation" => "A piece must be moved",
        "must_play_obligation" => "The written move must be played",
        "no_appeal_lodged" => "No appeal lodged",
        "no_increment_request" => "No request for an increment",
        "no_legal_move_after_illegal_move" => "No legal move after the illegal move",
        "no_pending_offer" => "No draw offer to answer",
        "not_a_promotion" => "Not a promotion",
        "not_latest_standing" => "Not the latest event",
        "not_your_turn" => "Not this player's turn",
        "own_offer" => "The player's own offer",
        "position_needed" => "The position is needed",
        "promotion_not_completed" => "Promotion not completed",
        "service_event_submitted" => "Recorded by the service only",
        "too_early_for_agreement" => "Too early for a draw agreement",
        "touch_move_obligation" => "The touched piece must be moved",
        "unexpected_attempted_move" => "No attempted move expected",
        "unknown_seq" => "No such event",
        "unreadable_attempted_move" => "Unreadable attempted move",
        "unreadable_move" => "Unreadable move",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::title_for;

    #[test]
    fn titles_are_words_not_codes() {
        assert_eq!(title_for("stale_seq"), Some("Someone recorded first"));
        assert_eq!(
            title_for("touch_move_obligation"),
            Some("The touched piece must be moved")
        );
        assert_eq!(title_for("no_such_code"), None);
    }
}
