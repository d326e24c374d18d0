//! Problem details (RFC 9457): the body every 4xx and 5xx of the API carries, with a
//! sentence a person can act on and, for bad input, the field that is wrong. The API's
//! error type ([`crate::http::error::ApiError`]) and the extractors both faces share
//! ([`crate::request`]) answer with it.

use crate::game::RefusalCode;
use serde::{Deserialize, Serialize};
use strum::IntoEnumIterator;
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
    /// A stable machine-readable code (`stale_seq`, `invalid_field`, `illegal_move`, ...).
    pub code: ProblemCode,
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

/// A stable machine-readable code of a problem that is not a refusal of the Laws: the request,
/// the token, the store.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::EnumIter,
)]
#[strum(serialize_all = "snake_case")]
pub enum RequestCode {
    /// The request body is larger than the service takes.
    BodyTooLarge,
    /// The database cannot be reached (failover): retry after `Retry-After`.
    DatabaseUnavailable,
    /// A body was required and none was sent.
    EmptyBody,
    /// An `event_id` already names another event.
    EventIdReused,
    /// The token's role or events do not allow this.
    Forbidden,
    /// A game id already used with other settings.
    GameIdTaken,
    /// No game with that id.
    GameNotFound,
    /// The service failed; nothing was stored.
    InternalError,
    /// A paging cursor this service did not give out.
    InvalidCursor,
    /// A field of a well-formed request is wrong (`field` names it).
    InvalidField,
    /// A `Last-Event-ID` that is not a message id of the stream.
    InvalidLastEventId,
    /// A page size out of range.
    InvalidLimit,
    /// A read-your-writes position that is not a WAL position.
    InvalidLsn,
    /// A path parameter that cannot be read.
    InvalidPath,
    /// A query parameter that cannot be read.
    InvalidQuery,
    /// A bearer token that is not valid.
    InvalidToken,
    /// A body that is not JSON.
    MalformedJson,
    /// A method the route does not answer.
    MethodNotAllowed,
    /// No bearer token was sent.
    MissingToken,
    /// A PGN body with no game in it.
    NoGames,
    /// No claim at that `seq`.
    NoSuchClaim,
    /// No such route.
    NoSuchRoute,
    /// A diagram of repetitions for a claim that is not a repetition claim.
    NotARepetitionClaim,
    /// A ply beyond the game's last.
    PlyBeyondGame,
    /// Any other refusal of the request, with its HTTP status.
    RequestRefused,
    /// The final report was asked for while boards have no result (they are named).
    ResultsMissing,
    /// A round loaded again with other pairings.
    RoundConflict,
    /// No such round.
    RoundNotFound,
    /// A `seq` beyond the game's last.
    SeqBeyondLog,
    /// Someone recorded first: read the log and send `expected_seq` again.
    StaleSeq,
    /// The token has expired.
    TokenExpired,
    /// No token with that id.
    TokenNotFound,
    /// The token was revoked.
    TokenRevoked,
    /// Too many failed authentications from this address.
    TooManyFailedAuthentications,
    /// A tournament name already used.
    TournamentNameTaken,
    /// No tournament with that id.
    TournamentNotFound,
    /// A body that cannot be read as text.
    UnreadableBody,
}

/// The `code` of every problem answer: a problem of the request, or a refusal of the Laws or
/// of the record ([`RefusalCode`]). On the wire it is one string (`stale_seq`,
/// `illegal_move`), and the OpenAPI document lists every value, so that a client can switch
/// on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemCode {
    /// A problem of the request, the token or the store.
    Request(RequestCode),
    /// A recorded event the engine refuses.
    Refused(RefusalCode),
}

impl From<RequestCode> for ProblemCode {
    fn from(code: RequestCode) -> ProblemCode {
        ProblemCode::Request(code)
    }
}

impl From<RefusalCode> for ProblemCode {
    fn from(code: RefusalCode) -> ProblemCode {
        ProblemCode::Refused(code)
    }
}

impl ProblemCode {
    /// The code as on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemCode::Request(code) => code.into(),
            ProblemCode::Refused(code) => code.as_str(),
        }
    }

    /// The code of that wire name, if there is one.
    pub fn parse(name: &str) -> Option<ProblemCode> {
        name.parse::<RequestCode>()
            .map(ProblemCode::Request)
            .or_else(|_| name.parse::<RefusalCode>().map(ProblemCode::Refused))
            .ok()
    }

    /// Every code, the request's first.
    pub fn all() -> impl Iterator<Item = ProblemCode> {
        RequestCode::iter()
            .map(ProblemCode::Request)
            .chain(RefusalCode::iter().map(ProblemCode::Refused))
    }

    /// The problem's title in words a person reads (`stale_seq` → "Someone recorded
    /// first"), for the API's problem bodies and the back office's refusals alike; `None`
    /// for a code without a title of its own, whose problem keeps the general one of its
    /// status ("Bad request", "Request refused").
    pub fn title(self) -> Option<&'static str> {
        title_for(self.as_str())
    }
}

impl Serialize for ProblemCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ProblemCode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<ProblemCode, D::Error> {
        let name = String::deserialize(deserializer)?;
        ProblemCode::parse(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown problem code `{name}`")))
    }
}

impl utoipa::PartialSchema for ProblemCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::Type::String)
            .description(Some(
                "A stable machine-readable code: a problem of the request (`stale_seq`, \
                 `invalid_field`, `game_not_found`, ...) or a refusal of the Laws or of the \
                 record (`illegal_move`, `not_your_turn`, ...).",
            ))
            .enum_values(Some(ProblemCode::all().map(ProblemCode::as_str)))
            .build()
            .into()
    }
}

impl utoipa::ToSchema for ProblemCode {}

/// The title of a problem or a refusal with the stable `code`, in words a person reads
/// (`stale_seq` → "Someone recorded first"); `None` for a code without a title of its own.
fn title_for(code: &str) -> Option<&'static str> {
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
    use super::*;

    #[test]
    fn titles_are_words_not_codes() {
        assert_eq!(
            ProblemCode::from(RequestCode::StaleSeq).title(),
            Some("Someone recorded first")
        );
        assert_eq!(
            ProblemCode::from(RefusalCode::TouchMoveObligation).title(),
            Some("The touched piece must be moved")
        );
        assert_eq!(ProblemCode::from(RequestCode::NoSuchRoute).title(), None);
    }

    #[test]
    fn every_code_has_one_wire_name_that_reads_back_as_itself() {
        let mut seen = std::collections::HashSet::new();
        for code in ProblemCode::all() {
            assert!(
                seen.insert(code.as_str()),
                "`{}` named twice",
                code.as_str()
            );
            assert_eq!(ProblemCode::parse(code.as_str()), Some(code));
            let json = serde_json::to_value(code).expect("written");
            assert_eq!(serde_json::from_value::<ProblemCode>(json).ok(), Some(code));
        }
        assert_eq!(ProblemCode::parse("no_such_code"), None);
    }
}
