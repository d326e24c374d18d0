//! Token management, for admins: create (the token is shown once), list, revoke.

use super::AppState;
use super::auth::Caller;
use super::body::{decode_at, json_object, read_limited};
use super::error::{ApiError, Problem};
use crate::access::Role;
use crate::store::TokenInfo;
use actix_web::{HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// The body of `POST /v1/tokens`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Chief arbiter, Open 2026", "role": "arbiter", "events": ["Open Championship 2026"]}))]
pub struct CreateTokenRequest {
    /// Who will hold the token.
    pub name: String,
    /// Its role.
    pub role: Role,
    /// Limit an arbiter token to these events (tournaments); all when absent.
    #[serde(default)]
    pub events: Option<Vec<String>>,
}

/// A new token: the only time the token itself is shown.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CreatedToken {
    /// The bearer token. Store it now: only its hash is kept.
    pub token: String,
    /// Its description.
    pub info: TokenInfo,
}

/// Checks a token name or event name.
pub fn check_token_fields(name: &str, events: Option<&[String]>) -> Result<(), ApiError> {
    if name.trim().is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
        return Err(ApiError::invalid_field(
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
        return Err(ApiError::invalid_field(
            "events",
            "`events` must list 1 to 100 event names of 1 to 200 characters, or be omitted \
             for a token valid for every event.",
        ));
    }
    Ok(())
}

/// Create a token (admin).
#[utoipa::path(
    tag = "tokens",
    security(("bearer" = [])),
    request_body = CreateTokenRequest,
    responses(
        (status = 201, description = "The token; it is shown only now.", body = CreatedToken),
        (status = 400, description = "The body is not JSON.", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid bearer token.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin token.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tokens")]
pub async fn create_token(
    state: web::Data<AppState>,
    caller: Caller,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    caller.0.may_manage_tokens()?;
    let body = read_limited(payload, 64 * 1024).await?;
    let request: CreateTokenRequest =
        decode_at(serde_json::Value::Object(json_object(&body)?), "")?;
    check_token_fields(&request.name, request.events.as_deref())?;
    let (info, token) = state
        .store
        .create_token(
            &request.name,
            request.role,
            request.events.as_deref(),
            &caller.0.recorder(),
        )
        .await?;
    Ok(HttpResponse::Created().json(CreatedToken { token, info }))
}

/// List tokens (admin).
#[utoipa::path(
    tag = "tokens",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Every token, newest first (never the tokens themselves).", body = Vec<TokenInfo>),
        (status = 401, description = "No valid bearer token.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin token.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/tokens")]
pub async fn list_tokens(
    state: web::Data<AppState>,
    caller: Caller,
) -> Result<web::Json<Vec<TokenInfo>>, ApiError> {
    caller.0.may_manage_tokens()?;
    Ok(web::Json(state.store.list_tokens().await?))
}

/// Revoke a token (admin). It stops working at once.
#[utoipa::path(
    tag = "tokens",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The token's id.")),
    responses(
        (status = 200, description = "The revoked token.", body = TokenInfo),
        (status = 400, description = "The id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid bearer token.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin token.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such token.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/tokens/{id}")]
pub async fn revoke_token(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
) -> Result<web::Json<TokenInfo>, ApiError> {
    caller.0.may_manage_tokens()?;
    let id = id.into_inner();
    state
        .store
        .revoke_token(id)
        .await?
        .map(web::Json)
        .ok_or_else(|| {
            ApiError::not_found(
                "token_not_found",
                format!("No token with id {id} exists; GET /v1/tokens lists them."),
            )
        })
}
