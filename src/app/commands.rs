//! What a person or a client sends, decoded into typed commands: the events of an append,
//! a round's pairings, a token's fields. Both faces decode through here, so a form on the
//! back office and a JSON request to the API are read by the same rules, and each face
//! renders a [`CommandError`] its own way (a problem+json answer naming the field, or the
//! form shown again with the message).

use crate::game::event::{
    ClockReading, Event, RECORDED_EVENT_TYPES, RecordedEvent, SERVICE_EVENT_TYPES,
};
use crate::interchange::pairings::{self, Pairing, RoundPairings};
use crate::problem::ProblemCode;
use crate::problem::RequestCode;
use crate::store::{NewEvent, TokenInfo};
use crate::tournament::GameOverrides;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use uuid::Uuid;

/// Why a command cannot be decoded; nothing was stored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    /// A stable machine-readable code: `invalid_field` for a wrong field, or the code of a
    /// refusal (`service_event_submitted`).
    pub code: ProblemCode,
    /// The field that is wrong, as a path (`events[2].san`, `pairings`).
    pub field: Option<String>,
    /// What is wrong and what to do about it, for a person.
    pub message: String,
}

impl CommandError {
    /// A field of a well-formed request is wrong.
    pub fn invalid_field(field: impl Into<String>, message: impl Into<String>) -> Self {
        CommandError {
            code: RequestCode::InvalidField.into(),
            field: Some(field.into()),
            message: message.into(),
        }
    }

    /// A well-formed command that is refused for a reason of its own (`code`).
    pub fn refused(code: impl Into<ProblemCode>, message: impl Into<String>) -> Self {
        CommandError {
            code: code.into(),
            field: None,
            message: message.into(),
        }
    }

    /// Names the field that is wrong.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
}

/// Decodes `value` as `T`; an error names the field as `prefix` followed by the path inside.
pub fn decode_at<T: DeserializeOwned>(value: Value, prefix: &str) -> Result<T, CommandError> {
    serde_path_to_error::deserialize(value).map_err(|error| {
        let inner = error.path().to_string();
        let message = error.into_inner().to_string();
        let mut parts: Vec<String> = Vec::new();
        if !prefix.is_empty() {
            parts.push(prefix.to_string());
        }
        if inner != "." {
            parts.push(inner.clone());
        }
        // serde names a missing field only in its message (the path stops at the object
        // that lacks it): add it. An unknown field is already the path's last segment.
        if let Some(name) = named_field(&message)
            && (message.starts_with("missing field") || !ends_with_segment(&inner, name))
        {
            parts.push(name.to_string());
        }
        let field = parts.join(".");
        CommandError::invalid_field(
            field.clone(),
            format!("Field `{field}` is wrong: {message}. Nothing was stored."),
        )
    })
}

/// The field a serde message names: "missing field `by`", "unknown field `colour`, ...".
fn named_field(message: &str) -> Option<&str> {
    let rest = message
        .strip_prefix("missing field `")
        .or_else(|| message.strip_prefix("unknown field `"))?;
    rest.split('`').next()
}

/// Whether the path `path` (`a.b[0].c`) ends with the segment `name`.
fn ends_with_segment(path: &str, name: &str) -> bool {
    path == name || path.ends_with(&format!(".{name}"))
}

/// Removes `key` from `map` and decodes it, if present and not null.
pub fn take_optional<T: DeserializeOwned>(
    map: &mut Map<String, Value>,
    key: &str,
    prefix: &str,
) -> Result<Option<T>, CommandError> {
    match map.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => {
            let path = if prefix.is_empty() {
                key.to_string()
            } else {
                format!("{prefix}.{key}")
            };
            decode_at(value, &path).map(Some)
        }
    }
}

/// Removes `key` from `map` and decodes it; it must be present.
pub fn take_required<T: DeserializeOwned>(
    map: &mut Map<String, Value>,
    key: &str,
    prefix: &str,
) -> Result<T, CommandError> {
    let path = if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    };
    take_optional(map, key, prefix)?.ok_or_else(|| {
        CommandError::invalid_field(
            path.clone(),
            format!("Field `{path}` is missing; it is required. Nothing was stored."),
        )
    })
}

/// The JSON kind of a value, for messages.
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Decodes one event object of an append.
pub fn decode_event(item: Value, path: &str) -> Result<NewEvent, CommandError> {
    let Value::Object(mut object) = item else {
        return Err(CommandError::invalid_field(
            path,
            format!(
                "`{path}` must be an event object, not {}.",
                json_kind(&item)
            ),
        ));
    };
    let event_id: Option<Uuid> = take_optional(&mut object, "event_id", path)?;
    let occurred_at: Option<DateTime<Utc>> = take_optional(&mut object, "occurred_at", path)?;
    let clock: Option<ClockReading> = take_optional(&mut object, "clock", path)?;
    let type_path = || format!("{path}.type");
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(other) => {
            return Err(CommandError::invalid_field(
                type_path(),
                format!(
                    "`{}` must be a string, not {}.",
                    type_path(),
                    json_kind(other)
                ),
            ));
        }
        None => {
            return Err(CommandError::invalid_field(
                type_path(),
                format!(
                    "`{}` is missing: every event names its type, one of {}.",
                    type_path(),
                    RECORDED_EVENT_TYPES.join(", ")
                ),
            ));
        }
    };
    if SERVICE_EVENT_TYPES.contains(&kind) {
        return Err(CommandError::refused(
            crate::game::RefusalCode::ServiceEventSubmitted,
            format!(
                "`{kind}` events are appended by the service itself as the consequence of \
                 recorded events and cannot be submitted. Record what happened at the board \
                 (for example a `claim`) and the service appends its ruling."
            ),
        )
        .with_field(type_path()));
    }
    if kind == "fair_play" {
        return Err(CommandError::invalid_field(
            type_path(),
            "`fair_play` events are recorded through POST /v1/games/{id}/fair-play, by a token \
             with the fair_play capability: their payload is sealed and kept out of the public \
             log.",
        ));
    }
    if !RECORDED_EVENT_TYPES.contains(&kind) {
        return Err(CommandError::invalid_field(
            type_path(),
            format!(
                "`{kind}` is not an event type. Record one of: {}.",
                RECORDED_EVENT_TYPES.join(", ")
            ),
        ));
    }
    // Decoded from the value by reference, without a copy of the object.
    let object = Value::Object(object);
    let event: RecordedEvent = match RecordedEvent::deserialize(&object) {
        Ok(event) => event,
        Err(error) => return Err(event_error(&object, path, &error.to_string())),
    };
    validate_event_text(&event, path)?;
    Ok(NewEvent {
        event_id: event_id.unwrap_or_else(Uuid::new_v4),
        event: Event::Recorded(event),
        occurred_at,
        clock,
    })
}

/// Checks an event that its caller built typed (the back office's desk reads its forms into
/// events itself) as [`decode_event`] checks one of a request body: the free text bounded,
/// the event id read; the problems name the event by its wire type, as for a body.
pub fn check_recorded(
    event: RecordedEvent,
    event_id: Option<&str>,
) -> Result<NewEvent, CommandError> {
    let path = event.type_name();
    let event_id = match event_id {
        Some(id) => decode_at(Value::String(id.to_owned()), &format!("{path}.event_id"))?,
        None => Uuid::new_v4(),
    };
    validate_event_text(&event, path)?;
    Ok(NewEvent {
        event_id,
        event: Event::Recorded(event),
        occurred_at: None,
        clock: None,
    })
}

/// The problem for an event object that does not decode, naming the wrong field.
///
/// serde names a missing or unknown field in its message, but for a value of the wrong type
/// inside an internally tagged event it cannot say which field it was. The field is found by
/// taking each one out in turn: the culprit is the one whose removal leaves the event valid
/// (an optional field) or reports that very field as missing.
fn event_error(object: &Value, path: &str, message: &str) -> CommandError {
    let empty = Map::new();
    let object = object.as_object().unwrap_or(&empty);
    let named = ["missing field `", "unknown field `"]
        .iter()
        .find_map(|prefix| message.strip_prefix(prefix))
        .and_then(|rest| rest.split('`').next());
    let culprit = named.map(str::to_owned).or_else(|| {
        object
            .keys()
            .filter(|key| key.as_str() != "type")
            .find_map(|key| {
                let mut without = object.clone();
                without.remove(key);
                match serde_json::from_value::<RecordedEvent>(Value::Object(without)) {
                    Ok(_) => Some(key.clone()),
                    Err(e) if e.to_string() == format!("missing field `{key}`") => {
                        Some(key.clone())
                    }
                    Err(_) => None,
                }
            })
    });
    let field = match culprit {
        Some(key) => format!("{path}.{key}"),
        None => path.to_string(),
    };
    CommandError::invalid_field(
        field.clone(),
        format!("Field `{field}` is wrong: {message}. Nothing was stored."),
    )
}

/// Bounds the free-text fields of an event.
fn validate_event_text(event: &RecordedEvent, path: &str) -> Result<(), CommandError> {
    let (field, text, max) = match event {
        RecordedEvent::Move { san, .. } => ("san", san, 16),
        RecordedEvent::Touch { square, .. } => ("square", square, 2),
        RecordedEvent::IllegalMove { description, .. } => ("description", description, 2000),
        RecordedEvent::ClockAdjust { reason, .. }
        | RecordedEvent::ArbiterDecision { reason, .. }
        | RecordedEvent::AppealDecided { reason, .. }
        | RecordedEvent::Correction { reason, .. } => ("reason", reason, 2000),
        RecordedEvent::AppealLodged { grounds, .. } => ("grounds", grounds, 4000),
        RecordedEvent::Claim {
            intended_move: Some(intended),
            ..
        } => ("intended_move", intended, 16),
        _ => return Ok(()),
    };
    let field_path = format!("{path}.{field}");
    if text.trim().is_empty() {
        return Err(CommandError::invalid_field(
            field_path.clone(),
            format!("`{field_path}` is empty; give it a value."),
        ));
    }
    if text.chars().count() > max {
        return Err(CommandError::invalid_field(
            field_path.clone(),
            format!("`{field_path}` is longer than {max} characters."),
        ));
    }
    if let RecordedEvent::AppealLodged { by, .. } = event
        && (by.trim().is_empty() || by.chars().count() > 200)
    {
        return Err(CommandError::invalid_field(
            format!("{path}.by"),
            format!("`{path}.by` must name who appeals, in 1 to 200 characters."),
        ));
    }
    Ok(())
}

/// Reads the pairings of `round` from whichever form was given.
pub fn pairings_from(
    round: &str,
    pairings: Option<Vec<Pairing>>,
    csv: Option<&str>,
    trf: Option<&str>,
) -> Result<RoundPairings, CommandError> {
    let given = [pairings.is_some(), csv.is_some(), trf.is_some()]
        .iter()
        .filter(|g| **g)
        .count();
    if given != 1 {
        return Err(CommandError::invalid_field(
            "pairings",
            "Give the round's pairings in exactly one of `pairings` (a list), `csv` or `trf`.",
        ));
    }
    let read = |result: Result<RoundPairings, pairings::PairingFileError>, field: &str| {
        result.map_err(|e| CommandError::invalid_field(field.to_string(), e.0))
    };
    if let Some(list) = pairings {
        let mut boards = list;
        boards.sort_by_key(|p| p.board);
        read(
            pairings::check_boards(&boards).map(|()| RoundPairings {
                boards,
                unpaired: Vec::new(),
                notes: Vec::new(),
            }),
            "pairings",
        )
    } else if let Some(csv) = csv {
        read(pairings::parse_csv(csv), "csv")
    } else {
        let number: u32 = round.parse().map_err(|_| {
            CommandError::invalid_field(
                "round",
                format!(
                    "A TRF file numbers its rounds 1, 2, 3...; load it into a round named by \
                     its number, not `{round}`."
                ),
            )
        })?;
        read(
            pairings::parse_trf_round(trf.unwrap_or_default(), number),
            "trf",
        )
    }
}

/// Parses the board keys of `overrides`.
pub fn overrides_by_board(
    overrides: BTreeMap<String, GameOverrides>,
) -> Result<HashMap<u32, GameOverrides>, CommandError> {
    overrides
        .into_iter()
        .map(|(board, value)| {
            board.parse::<u32>().map(|b| (b, value)).map_err(|_| {
                CommandError::invalid_field(
                    format!("overrides.{board}"),
                    "`overrides` is keyed by board number, e.g. {\"3\": {...}}.",
                )
            })
        })
        .collect()
}

/// The longest grace period a rotation gives the old token.
pub const MAX_GRACE: std::time::Duration = std::time::Duration::from_secs(30 * 86_400);

/// Parses a duration such as `90d`, `12h`, `30m`, `2w` or `1h 30m` (`field` names it in
/// the error).
pub fn parse_duration(field: &str, text: &str) -> Result<std::time::Duration, CommandError> {
    humantime::parse_duration(text.trim()).map_err(|error| {
        CommandError::invalid_field(
            field,
            format!(
                "`{field}` is not a duration ({error}); write it like `90d`, `12h`, `30m` or \
                 `2w`."
            ),
        )
    })
}

/// The expiry from `expires_at` or `expires_in` (at most one), which must lie in the future
/// and within 10 years. `None` when neither is given.
pub fn expiry_from(
    expires_at: Option<DateTime<Utc>>,
    expires_in: Option<&str>,
) -> Result<Option<DateTime<Utc>>, CommandError> {
    let now = Utc::now();
    let expiry = match (expires_at, expires_in) {
        (Some(_), Some(_)) => {
            return Err(CommandError::invalid_field(
                "expires_in",
                "Give `expires_at` or `expires_in`, not both.",
            ));
        }
        (Some(at), None) => at,
        (None, Some(text)) => {
            let lifetime = parse_duration("expires_in", text)?;
            chrono::Duration::from_std(lifetime)
                .ok()
                .and_then(|lifetime| now.checked_add_signed(lifetime))
                .ok_or_else(|| {
                    CommandError::invalid_field("expires_in", "`expires_in` is too long.")
                })?
        }
        (None, None) => return Ok(None),
    };
    let field = if expires_at.is_some() {
        "expires_at"
    } else {
        "expires_in"
    };
    if expiry <= now {
        return Err(CommandError::invalid_field(
            field,
            format!(
                "The expiry {} is not in the future; give a later time, or none for a token \
                 that does not expire.",
                expiry.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            ),
        ));
    }
    if expiry > now + chrono::Duration::days(3653) {
        return Err(CommandError::invalid_field(
            field,
            "An expiry more than 10 years ahead is refused; omit it for a token that does not \
             expire.",
        ));
    }
    Ok(Some(expiry))
}

/// Checks a token name or event name.
pub fn check_token_fields(name: &str, events: Option<&[String]>) -> Result<(), CommandError> {
    if name.trim().is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
        return Err(CommandError::invalid_field(
            "name",
            "`name` must say who holds the token, in 1 to 200 characters without control \
             characters.",
        ));
    }
    if let Some(events) = events
        && (events.is_empty()
            || events.len() > 100
            || events
                .iter()
                .any(|e| e.trim().is_empty() || e.chars().count() > 200))
    {
        return Err(CommandError::invalid_field(
            "events",
            "`events` must list 1 to 100 event names of 1 to 200 characters, or be omitted \
             for a token valid for every event.",
        ));
    }
    Ok(())
}

/// The expiry of a rotation's new token: the one asked for, else the old token's lifetime
/// counted from now, else none.
pub fn rotated_expiry(
    old: &TokenInfo,
    expires_at: Option<DateTime<Utc>>,
    expires_in: Option<&str>,
) -> Result<Option<DateTime<Utc>>, CommandError> {
    if expires_at.is_some() || expires_in.is_some() {
        return expiry_from(expires_at, expires_in);
    }
    Ok(old
        .expires_at
        .map(|expiry| Utc::now() + (expiry - old.created_at)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        name: String,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        white: Inner,
    }

    fn field_of(value: serde_json::Value, prefix: &str) -> Option<String> {
        decode_at::<Outer>(value, prefix)
            .err()
            .and_then(|error| error.field)
    }

    #[test]
    fn a_nested_unknown_field_is_named_once() {
        let field = field_of(json!({"white": {"name": "A", "rating": 1}}), "");
        assert_eq!(field.as_deref(), Some("white.rating"));
        let field = field_of(json!({"white": {"name": "A", "rating": 1}}), "events[0]");
        assert_eq!(field.as_deref(), Some("events[0].white.rating"));
    }

    #[test]
    fn a_nested_missing_field_is_added_to_the_path_of_its_object() {
        let field = field_of(json!({"white": {}}), "");
        assert_eq!(field.as_deref(), Some("white.name"));
        let field = field_of(json!({}), "");
        assert_eq!(field.as_deref(), Some("white"));
    }
}
