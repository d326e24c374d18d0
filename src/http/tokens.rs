//! Token management, for admins: create (the token is shown once, optionally expiring),
//! list (with when each was last used), revoke, rotate.

use super::auth::Caller;
use super::body::{json_object, read_limited};
use super::error::{ApiError, Problem};
use crate::access::Role;
use crate::app::commands::{
    MAX_GRACE, check_token_fields, decode_at, expiry_from, parse_duration, rotated_expiry,
};
use crate::problem::RequestCode;
use crate::state::AppState;
use crate::store::{RotateError, TokenInfo};
use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// The body of `POST /v1/tokens`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Chief arbiter, Open 2026", "role": "arbiter", "events": ["Open Championship 2026"], "expires_in": "90d"}))]
pub struct CreateTokenRequest {
    /// Who will hold the token.
    pub name: String,
    /// Its role.
    pub role: Role,
    /// Limit an arbiter token to these events (tournaments); all when absent.
    #[serde(default)]
    pub events: Option<Vec<String>>,
    /// When the token stops working (RFC 3339, in the future). Never when absent (and no
    /// `expires_in`).
    #[serde(default)]
    pub expires_at: Option<DateTime<Utc>>,
    /// How long the token works from now: `90d`, `12h`, `30m`, `2w` (not with `expires_at`).
    #[serde(default)]
    #[schema(example = "90d")]
    pub expires_in: Option<String>,
    /// Give the token the `fair_play` capability, as the chief arbiter, the fair-play arbiter
    /// or a Fair Play Officer: it then reads and records fair-play events.
    #[serde(default)]
    pub fair_play_role: Option<crate::access::FairPlayRole>,
}

/// The body of `POST /v1/tokens/{id}/rotate` (every field optional).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"expires_in": "90d", "grace": "1h"}))]
pub struct RotateTokenRequest {
    /// When the new token stops working. By default it lives as long as the old one did
    /// (from creation to expiry), counted from now; never, if the old one did not expire.
    #[serde(default)]
    pub expires_at: Option<DateTime<Utc>>,
    /// How long the new token works from now (`90d`, `12h`; not with `expires_at`).
    #[serde(default)]
    pub expires_in: Option<String>,
    /// How long the old token keeps working (`10m`, `1h`, at most `30d`). Without it the old
    /// token is revoked at once.
    #[serde(default)]
    pub grace: Option<String>,
}

/// A rotation's answer: the new token (shown only now) and the old one as it stands.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RotatedToken {
    /// The new bearer token. Store it now: only its hash is kept.
    pub token: String,
    /// The new token's description (`rotated_from` names the old one).
    pub info: TokenInfo,
    /// The old token: revoked, or expiring at the end of the grace period.
    pub replaced: TokenInfo,
}

/// A new token: the only time the token itself is shown.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CreatedToken {
    /// The bearer token. Store it now: only its hash is kept.
    pub token: String,
    /// Its description.
    pub info: TokenInfo,
}

/// Create a token (admin).
#[utoipa::path(
    tag = "tokens",
    security(("bearer" = [])),
    request_body = CreateTokenRequest,
    responses(
        (status = 201, description = "The token; it is shown only now.", body = CreatedToken),
        (status = 400, description = "The body is not JSON.", body = Problem, content_type = "application/problem+json"),
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
    let body = read_limited(payload, 64 * 1024, "Send only the token's fields.").await?;
    let request: CreateTokenRequest =
        decode_at(serde_json::Value::Object(json_object(&body)?), "")?;
    check_token_fields(&request.name, request.events.as_deref())?;
    let expires_at = expiry_from(request.expires_at, request.expires_in.as_deref())?;
    let (info, token) = state
        .store
        .create_expiring_token(
            &request.name,
            request.role,
            request.events.as_deref(),
            expires_at,
            &caller.0.recorder(),
        )
        .await?;
    let info = match request.fair_play_role {
        None => info,
        Some(role) => state
            .store
            .set_fair_play_role(info.token_id, Some(role))
            .await?
            .unwrap_or(info),
    };
    Ok(HttpResponse::Created().json(CreatedToken { token, info }))
}

/// List tokens (admin).
#[utoipa::path(
    tag = "tokens",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Every token, newest first (never the tokens themselves), with its expiry and when it was last used.", body = Vec<TokenInfo>),
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
    let revoked = state.store.revoke_token(id).await?;
    state.authenticator.forget(id);
    revoked.map(web::Json).ok_or_else(|| token_not_found(id))
}

/// Rotate a token (admin).
///
/// Creates a token with the same name, role and events (shown only now; `rotated_from` names
/// the old one) and revokes the old one at once, or, with `grace`, lets the old one work
/// until the grace period ends, so its holder can switch without a gap.
#[utoipa::path(
    tag = "tokens",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The token's id.")),
    request_body(content = Option<RotateTokenRequest>, description = "Optional: the new token's expiry and the old one's grace period."),
    responses(
        (status = 201, description = "The new token (shown only now) and the replaced one.", body = RotatedToken),
        (status = 400, description = "The body is not JSON, or the id is not a UUID.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not an admin token.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such token.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The token is revoked; create a new one instead.", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field is wrong; `field` names it.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/tokens/{id}/rotate")]
pub async fn rotate_token(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<Uuid>,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    caller.0.may_manage_tokens()?;
    let id = id.into_inner();
    let body = read_limited(payload, 64 * 1024, "Send only the token's fields.").await?;
    let request: RotateTokenRequest = if body.iter().all(u8::is_ascii_whitespace) {
        RotateTokenRequest::default()
    } else {
        decode_at(serde_json::Value::Object(json_object(&body)?), "")?
    };
    let grace = match request.grace.as_deref() {
        None => std::time::Duration::ZERO,
        Some(text) => {
            let grace = parse_duration("grace", text)?;
            if grace > MAX_GRACE {
                return Err(ApiError::invalid_field(
                    "grace",
                    "`grace` is at most 30 days; the old token should stop working soon.",
                ));
            }
            grace
        }
    };
    let old = state
        .store
        .token(id)
        .await?
        .ok_or_else(|| token_not_found(id))?;
    let expires_at = rotated_expiry(&old, request.expires_at, request.expires_in.as_deref())?;
    let rotated = state
        .store
        .rotate_token(id, expires_at, grace, &caller.0.recorder())
        .await;
    // The old token's new expiry (or revocation) applies at once in this instance.
    state.authenticator.forget(id);
    let rotated = rotated.map_err(|error| match error {
        RotateError::NotFound(id) => token_not_found(id),
        RotateError::Revoked(id) => ApiError::conflict(
            RequestCode::TokenRevoked,
            format!(
                "Token {id} is revoked and is not renewed by a rotation; create a new \
                     token (POST /v1/tokens) if its holder still needs one."
            ),
        ),
        RotateError::Store(store) => store.into(),
    })?;
    Ok(HttpResponse::Created().json(RotatedToken {
        token: rotated.token,
        info: rotated.info,
        replaced: rotated.old,
    }))
}

fn token_not_found(id: Uuid) -> ApiError {
    ApiError::not_found(
        RequestCode::TokenNotFound,
        format!("No token with id {id} exists; GET /v1/tokens lists them."),
    )
}
