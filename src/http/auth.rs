//! Identifying the caller from `Authorization: Bearer <token>`. Every `/v1` route takes a
//! [`Caller`]; health, readiness, the OpenAPI document and `/docs` do not. A token is looked
//! up on every request (one round trip, which also stamps its `last_used_at`), so a revoked
//! token stops working at once and an expired one is refused with `token_expired`. A GET
//! request without a token may carry a back-office session cookie instead (see
//! [`crate::web::session`]).
//!
//! Repeated failed authentications from one address are slowed down: after
//! [`FailedAuthentications`]' limit within its window, a request from that address whose
//! token is not valid is answered 429 with `Retry-After` instead of 401. A valid token is
//! always looked up and always works, whatever its address did before.

use super::AppState;
use super::error::ApiError;
use crate::access::Principal;
use crate::store::TokenCheck;
use actix_web::dev::Payload;
use actix_web::http::header::AUTHORIZATION;
use actix_web::{FromRequest, HttpRequest, web};
use futures_util::future::LocalBoxFuture;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

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
            .map(|state| state.failed_authentications.address_of(request));
        let cookie_request = header.is_none().then(|| request.clone());
        Box::pin(async move {
            let state = state.ok_or_else(|| ApiError::internal(anyhow::anyhow!("no app state")))?;
            let failed = &state.failed_authentications;
            let address = address.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
            let token = match header {
                None => {
                    if let Some(request) = cookie_request.as_ref()
                        && let Some(principal) =
                            crate::web::session::principal_from_cookie(&state, request).await?
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
                    return Err(failed.refuse(
                        address,
                        ApiError::unauthenticated(
                            "invalid_token",
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
                        return Err(failed.refuse(
                            address,
                            ApiError::unauthenticated(
                                "invalid_token",
                                "The Authorization header must be `Bearer <token>`.",
                            ),
                        ));
                    }
                },
            };
            match state.store.authenticate(&token).await? {
                TokenCheck::Valid(principal) => Ok(Caller(principal)),
                TokenCheck::Expired {
                    token_id,
                    expired_at,
                } => Err(failed.refuse(
                    address,
                    ApiError::unauthenticated(
                        "token_expired",
                        format!(
                            "This token (id {token_id}) expired at {}; ask an admin for a new \
                             one (`arbiter token rotate {token_id}` gives its holder a fresh \
                             token with the same role and events).",
                            expired_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                        ),
                    ),
                )),
                TokenCheck::Unknown => Err(failed.refuse(
                    address,
                    ApiError::unauthenticated(
                        "invalid_token",
                        "The bearer token is not known or has been revoked; ask an admin for a \
                         valid token.",
                    ),
                )),
            }
        })
    }
}

/// The bookkeeping of failed authentications per client address: a fixed window per
/// address, opened by its first failure, in a bounded cache (`moka`) that forgets an address
/// when its window ends and never holds more than [`FailedAuthentications::ADDRESSES`].
/// IPv6 addresses are counted per /64, the block one client usually holds.
#[derive(Clone)]
pub struct FailedAuthentications {
    windows: moka::sync::Cache<IpAddr, Arc<FailureWindow>>,
    limit: u32,
    window: Duration,
    trust_forwarded_for: bool,
}

/// The failures of one address since its window opened.
#[derive(Debug)]
struct FailureWindow {
    opened: Instant,
    failures: AtomicU32,
}

impl std::fmt::Debug for FailedAuthentications {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FailedAuthentications")
            .field("addresses", &self.windows.entry_count())
            .field("limit", &self.limit)
            .field("window", &self.window)
            .field("trust_forwarded_for", &self.trust_forwarded_for)
            .finish()
    }
}

impl Default for FailedAuthentications {
    /// 10 failures a minute per address.
    fn default() -> Self {
        FailedAuthentications::new(10, Duration::from_secs(60), false)
    }
}

impl FailedAuthentications {
    /// The most addresses remembered at once.
    pub const ADDRESSES: u64 = 100_000;

    /// After `limit` failed authentications from one address within `window`, that
    /// address's failing requests are answered 429 until the window ends. With
    /// `trust_forwarded_for`, the client address is taken from `Forwarded`/`X-Forwarded-For`
    /// (only behind a proxy that sets them), else from the connection.
    pub fn new(limit: u32, window: Duration, trust_forwarded_for: bool) -> Self {
        FailedAuthentications {
            windows: moka::sync::Cache::builder()
                .max_capacity(Self::ADDRESSES)
                .time_to_live(window)
                .build(),
            limit: limit.max(1),
            window,
            trust_forwarded_for,
        }
    }

    /// The address a request's failures are counted under.
    pub fn address_of(&self, request: &HttpRequest) -> IpAddr {
        let forwarded = self
            .trust_forwarded_for
            .then(|| {
                let info = request.connection_info();
                info.realip_remote_addr().and_then(parse_address)
            })
            .flatten();
        let address = forwarded
            .or_else(|| request.peer_addr().map(|peer| peer.ip()))
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        counted_as(address)
    }

    /// Answers a failed authentication from `address`: 429 if the address is over its
    /// limit, else `refusal` (and the failure is counted).
    pub fn refuse(&self, address: IpAddr, refusal: ApiError) -> ApiError {
        if let Some(wait) = self.throttled(address) {
            return ApiError::too_many_failed_authentications(
                u32::try_from(wait.as_secs().max(1)).unwrap_or(u32::MAX),
            );
        }
        let window = self.windows.get_with(address, || {
            Arc::new(FailureWindow {
                opened: Instant::now(),
                failures: AtomicU32::new(0),
            })
        });
        window.failures.fetch_add(1, Ordering::Relaxed);
        refusal
    }

    /// How long `address` must wait, if it is over its limit.
    fn throttled(&self, address: IpAddr) -> Option<Duration> {
        let window = self.windows.get(&address)?;
        (window.failures.load(Ordering::Relaxed) >= self.limit).then(|| {
            self.window
                .saturating_sub(window.opened.elapsed())
                .max(Duration::from_secs(1))
        })
    }
}

/// Parses `1.2.3.4`, `1.2.3.4:5678`, `[::1]:5678` or `::1`.
fn parse_address(text: &str) -> Option<IpAddr> {
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
}

/// IPv4 as it is; IPv4-mapped IPv6 as IPv4; other IPv6 by its /64 prefix.
fn counted_as(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let segments = v6.segments();
                IpAddr::V6(Ipv6Addr::new(
                    segments[0],
                    segments[1],
                    segments[2],
                    segments[3],
                    0,
                    0,
                    0,
                    0,
                ))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::counted_as;
    use std::net::IpAddr;

    #[test]
    fn ipv6_clients_are_counted_per_64_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(counted_as(a), counted_as(b));
        assert_ne!(counted_as(a), counted_as(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(counted_as(mapped), "192.0.2.7".parse::<IpAddr>().unwrap());
    }
}
