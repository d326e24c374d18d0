//! Identifying the caller from `Authorization: Bearer <token>`. Every `/v1` route takes a
//! [`Caller`]; health, readiness, the OpenAPI document and `/docs` do not. A token is looked
//! up in the database (one round trip, which also stamps its `last_used_at`), and a valid one
//! is then trusted for `--token-cache-ms` ([`crate::app::authentication`]): a token revoked
//! through this instance stops working at once, elsewhere within that time; an expired one
//! is refused with `token_expired`. A GET
//! request without a token may carry a back-office session cookie instead (see
//! [`crate::app::sessions`]).
//!
//! Repeated failed authentications from one address are slowed down: after
//! [`FailedAuthentications`]' limit within its window, a request from that address whose
//! token is not valid is answered 429 with `Retry-After` instead of 401. A valid token is
//! always looked up and always works, whatever its address did before.

use super::error::ApiError;
use crate::access::Principal;
use crate::app::throttle::FailedAuthentications;
use crate::problem::RequestCode;
use crate::state::AppState;
use crate::store::TokenCheck;
use actix_web::dev::Payload;
use actix_web::http::header::AUTHORIZATION;
use actix_web::{FromRequest, HttpRequest, web};
use futures_util::future::LocalBoxFuture;
use std::net::{IpAddr, Ipv4Addr};

/// The authenticated caller of a request.
#[derive(Clone, Debug)]
pub struct Caller(pub Principal);

/// Who reads a public broadcast (routes under `/v1/broadcast/`): anyone, when the service
/// runs with `--public-broadcast` (relays such as lichess poll a URL and cannot send a
/// token); otherwise a caller with a valid token, as every other route. A token that is sent
/// is always checked.
#[derive(Clone, Debug)]
pub struct BroadcastReader(pub Option<Principal>);

impl FromRequest for BroadcastReader {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let public = request
            .app_data::<web::Data<AppState>>()
            .is_some_and(|state| state.public_broadcast);
        let anonymous = public && request.headers().get(AUTHORIZATION).is_none();
        let caller = Caller::from_request(request, payload);
        Box::pin(async move {
            if anonymous {
                return Ok(BroadcastReader(None));
            }
            Ok(BroadcastReader(Some(caller.await?.0)))
        })
    }
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = request.app_data::<web::Data<AppState>>().cloned();
        let header = request
            .headers()
            .get(AUTHORIZATION)
            .map(|value| value.to_str().map(str::to_owned));
        let address = state
            .as_ref()
            .map(|state| crate::request::client_address(state, request));
        let cookie_request = header.is_none().then(|| request.clone());
        Box::pin(async move {
            let state = state.ok_or_else(|| ApiError::internal(anyhow::anyhow!("no app state")))?;
            let failed = &state.failed_authentications;
            let address = address.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
            let token = match header {
                None => {
                    if let Some(request) = cookie_request.as_ref()
                        && let Some(principal) = principal_from_cookie(&state, request).await?
                    {
                        return Ok(Caller(principal));
                    }
                    return Err(ApiError::unauthenticated(
                        RequestCode::MissingToken,
                        "This route needs a bearer token: send `Authorization: Bearer <token>`. An \
                     admin creates tokens with `arbiter token create`.",
                    ));
                }
                Some(Err(_)) => {
                    return Err(refuse(
                        failed,
                        address,
                        ApiError::unauthenticated(
                            RequestCode::InvalidToken,
                            "The Authorization header is not readable text; send \
                             `Authorization: Bearer <token>`.",
                        ),
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
                        return Err(refuse(
                            failed,
                            address,
                            ApiError::unauthenticated(
                                RequestCode::InvalidToken,
                                "The Authorization header must be `Bearer <token>`.",
                            ),
                        ));
                    }
                },
            };
            match state.authenticator.authenticate(&token).await? {
                TokenCheck::Valid(principal) => Ok(Caller(principal)),
                TokenCheck::Expired {
                    token_id,
                    expired_at,
                } => Err(refuse(
                    failed,
                    address,
                    ApiError::unauthenticated(
                        RequestCode::TokenExpired,
                        format!(
                            "This token (id {token_id}) expired at {}; ask an admin for a new \
                             one (`arbiter token rotate {token_id}` gives its holder a fresh \
                             token with the same role and events).",
                            expired_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                        ),
                    ),
                )),
                TokenCheck::Unknown => Err(refuse(
                    failed,
                    address,
                    ApiError::unauthenticated(
                        RequestCode::InvalidToken,
                        "The bearer token is not known or has been revoked; ask an admin for a \
                         valid token.",
                    ),
                )),
            }
        })
    }
}

/// Answers a failed authentication from `address`: 429 if the address is over its limit,
/// else `refusal` (and the failure is counted).
fn refuse(failed: &FailedAuthentications, address: IpAddr, refusal: ApiError) -> ApiError {
    match failed.count_failure(address) {
        Ok(()) => refusal,
        Err(wait) => ApiError::too_many_failed_authentications(
            u32::try_from(wait.as_secs().max(1)).unwrap_or(u32::MAX),
        ),
    }
}

/// The principal of the back-office session whose cookie a GET request carries (see the
/// module documentation); `None` for other methods or when there is no such live session.
async fn principal_from_cookie(
    state: &AppState,
    request: &HttpRequest,
) -> Result<Option<Principal>, crate::store::StoreError> {
    if request.method() != actix_web::http::Method::GET {
        return Ok(None);
    }
    let Some(session_id) = crate::request::session_id_of(request) else {
        return Ok(None);
    };
    crate::app::sessions::principal_of_session(&state.store, &state.sessions, &session_id).await
}
