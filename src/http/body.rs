//! Reading request bodies: a size limit enforced while streaming, JSON syntax errors with
//! their line and column, and typed decoding that names the wrong field (`events[2].by`).

use super::error::ApiError;
use crate::app::commands::json_kind;
use crate::problem::RequestCode;
use actix_web::web;
use futures_util::StreamExt;
use serde_json::{Map, Value};

/// Reads the whole body, refusing it as soon as it exceeds `limit` bytes.
pub async fn read_limited(mut payload: web::Payload, limit: usize) -> Result<Vec<u8>, ApiError> {
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
                "The request body is larger than {limit} bytes; nothing was stored. Send fewer \
                 events per request."
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
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad_request(
            RequestCode::MalformedJson,
            format!(
                "The request body is not valid JSON: {e}. Nothing was stored; fix the JSON and \
                 send it again."
            ),
        )
    })?;
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
