//! Identifying the caller from `Authorization: Bearer <token>`. Every `/v1` route takes a
//! [`Caller`]; health, readiness, the OpenAPI document and `/docs` do not. A token is looked
//! up on every request, so a revoked token stops working at once. A GET request without a
//! token may carry a back-office session cookie instead (see [`crate::web::session`]).

use super::AppState;
use super::error::ApiError;
use crate::access::Principal;
use actix_web::dev::Payload;
use actix_web::http::header::AUTHORIZATION;
use actix_web::{FromRequest, HttpRequest, web};
use futures_util::future::LocalBoxFuture;

/// The authenticated caller of a request.
#[derive(Clone, Debug)]
pub struct Caller(pub Principal);

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = request.app_data::<web::Data<AppState>>().cloned();
        let header = request
            .headers()
            .get(AUTHORIZATION)
            .map(|value| value.to_str().map(str::to_owned));
        let cookie_request = header.is_none().then(|| request.clone());
        Box::pin(async move {
            let token = match header {
                None => {
                    if let (Some(state), Some(request)) = (state.as_ref(), cookie_request.as_ref())
                        && let Some(principal) =
                            crate::web::session::principal_from_cookie(state, request).await?
                    {
                        return Ok(Caller(principal));
                    }
                    return Err(ApiError::unauthenticated(
                        "missing_token",
                        "This route needs a bearer token: send `Authorization: Bearer <token>`. An \
                     admin creates tokens with `arbiter token create`.",
                    ));
                }
                Some(Err(_)) => {
                    return Err(ApiError::unauthenticated(
                        "invalid_token",
                        "The Authorization header is not readable text; send `Authorization: \
                     Bearer <token>`.",
                    ));
                }
                Some(Ok(value)) => match value
                    .strip_prefix("Bearer ")
                    .or_else(|| value.strip_prefix("bearer "))
                {
                    Some(token) if !token.trim().is_empty() && token.len() <= 200 => {
                        token.trim().to_string()
                    }
                    _ => {
                        return Err(ApiError::unauthenticated(
                            "invalid_token",
                            "The Authorization header must be `Bearer <token>`.",
                        ));
                    }
                },
            };
            let state = state.ok_or_else(|| ApiError::internal(anyhow::anyhow!("no app state")))?;
            match state.store.principal_for(&token).await? {
                Some(principal) => Ok(Caller(principal)),
                None => Err(ApiError::unauthenticated(
                    "invalid_token",
                    "The bearer token is not known or has been revoked; ask an admin for a \
                     valid token.",
                )),
            }
        })
    }
}
