//! Reading request bodies: a size limit enforced while streaming, JSON syntax errors with
//! their line and column, and typed decoding that names the wrong field (`events[2].by`).

use super::error::ApiError;
use crate::app::commands::json_kind;
use crate::problem::RequestCode;
use actix_web::web;
use futures_util::StreamExt;
use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};
use std::cell::RefCell;
use std::fmt;

/// Reads the whole body, refusing it as soon as it exceeds `limit` bytes with a 413 that
/// says what to send instead (`advice`, a sentence for the route: fewer events, one round's
/// pairings, a smaller file).
pub async fn read_limited(
    mut payload: web::Payload,
    limit: usize,
    advice: &str,
) -> Result<Vec<u8>, ApiError> {
    let mut body = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| {
            ApiError::bad_request(
                RequestCode::UnreadableBody,
                format!("The request body could not be read ({e}); send it again."),
            )
        })?;
        if body.len() + chunk.len() > limit {
            return Err(ApiError::too_large(format!(
                "The request body is larger than {limit} bytes; nothing was stored. {advice}"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// Parses a body that must be one JSON object.
pub fn json_object(body: &[u8]) -> Result<Map<String, Value>, ApiError> {
    if body.is_empty() {
        return Err(ApiError::bad_request(
            RequestCode::EmptyBody,
            "The request body is empty; send a JSON object (Content-Type: application/json).",
        ));
    }
    let duplicate = RefCell::new(None);
    let mut reader = serde_json::Deserializer::from_slice(body);
    let parsed = StrictValue {
        duplicate: &duplicate,
    }
    .deserialize(&mut reader)
    .and_then(|value| reader.end().map(|()| value));
    let value = match parsed {
        Ok(value) => value,
        Err(_) if duplicate.borrow().is_some() => {
            let field = duplicate.take().map(joined_path).unwrap_or_default();
            return Err(ApiError::invalid_field(
                field.clone(),
                format!(
                    "`{field}` appears more than once in its object; JSON keys must be unique \
                     (RFC 8259), and which value was meant cannot be told. Send it once; \
                     nothing was stored."
                ),
            ));
        }
        Err(e) => {
            return Err(ApiError::bad_request(
                RequestCode::MalformedJson,
                format!(
                    "The request body is not valid JSON: {e}. Nothing was stored; fix the JSON \
                     and send it again."
                ),
            ));
        }
    };
    if let Some((field, problem)) = unstorable(&value, "") {
        return Err(ApiError::invalid_field(
            field.clone(),
            format!("`{field}` {problem}."),
        ));
    }
    match value {
        Value::Object(map) => Ok(map),
        other => Err(ApiError::invalid_field(
            "",
            format!(
                "The request body must be a JSON object, not {}.",
                json_kind(&other)
            ),
        )),
    }
}

/// The path of the first value that cannot be stored, and why: a string (or key) holding
/// U+0000, which PostgreSQL's jsonb refuses, or an integer beyond the signed 64-bit range
/// that the OpenAPI document (`int64`) and the database allow.
fn unstorable(value: &Value, path: &str) -> Option<(String, &'static str)> {
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match value {
        Value::String(text) if text.contains('\0') => Some((
            path.to_string(),
            "contains the character U+0000, which cannot be stored; remove it",
        )),
        Value::Number(number) if number.is_u64() && number.as_i64().is_none() => Some((
            path.to_string(),
            "is larger than 9223372036854775807, the largest integer the service stores",
        )),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| unstorable(item, &format!("{path}[{i}]"))),
        Value::Object(map) => map.iter().find_map(|(key, item)| {
            if key.contains('\0') {
                Some((join("(a key)"), "is a key containing U+0000; remove it"))
            } else {
                unstorable(item, &join(key))
            }
        }),
        _ => None,
    }
}

/// One step of the path to a value: an object's key or an array's index.
enum Step {
    Key(String),
    Index(usize),
}

/// The path of a value as the problem's `field` names it (`events[2].by`), from its steps
/// innermost first.
fn joined_path(mut steps: Vec<Step>) -> String {
    steps.reverse();
    let mut path = String::new();
    for step in steps {
        match step {
            Step::Key(key) if path.is_empty() => path.push_str(&key),
            Step::Key(key) => {
                path.push('.');
                path.push_str(&key);
            }
            Step::Index(index) => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

/// A JSON value read as `serde_json::Value` reads it, but refusing an object that holds a key
/// twice: `Value` keeps the last, so `{"by": "white", "by": "black"}` would be stored as
/// Black's without a word. On a duplicate, `duplicate` receives the key's path (innermost
/// step first; each enclosing level adds its own step as the error passes through it, so
/// nothing is spent on paths while the body is sound).
struct StrictValue<'a> {
    duplicate: &'a RefCell<Option<Vec<Step>>>,
}

impl StrictValue<'_> {
    /// Adds an enclosing step to the path of a duplicate found below.
    fn on_the_way_out(&self, step: impl FnOnce() -> Step) {
        if let Some(steps) = self.duplicate.borrow_mut().as_mut() {
            steps.push(step());
        }
    }
}

impl<'de> DeserializeSeed<'de> for StrictValue<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictValue<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        let mut values = Vec::with_capacity(items.size_hint().unwrap_or(0));
        loop {
            let item = StrictValue {
                duplicate: self.duplicate,
            };
            match items.next_element_seed(item) {
                Ok(Some(value)) => values.push(value),
                Ok(None) => return Ok(Value::Array(values)),
                Err(error) => {
                    let index = values.len();
                    self.on_the_way_out(|| Step::Index(index));
                    return Err(error);
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            let item = StrictValue {
                duplicate: self.duplicate,
            };
            let value = match entries.next_value_seed(item) {
                Ok(value) => value,
                Err(error) => {
                    self.on_the_way_out(|| Step::Key(key));
                    return Err(error);
                }
            };
            match object.entry(key) {
                Entry::Vacant(vacant) => {
                    vacant.insert(value);
                }
                Entry::Occupied(occupied) => {
                    *self.duplicate.borrow_mut() = Some(vec![Step::Key(occupied.key().clone())]);
                    return Err(A::Error::custom(format_args!(
                        "the key `{}` appears twice in one object",
                        occupied.key()
                    )));
                }
            }
        }
        Ok(Value::Object(object))
    }
}
