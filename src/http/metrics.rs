//! `GET /metrics`: what the service counts, in the Prometheus text format
//! ([`crate::ops::telemetry`] lists the metrics).
//!
//! On the service's own address it needs an admin token. An operator who would rather not
//! give Prometheus a token starts the service with `--metrics-bind ADDRESS:PORT`, where
//! [`metrics_app`] serves the same text without a token: bind it to an address only the
//! scraper can reach.

use super::auth::Caller;
use super::error::{ApiError, Problem};
use crate::problem::RequestCode;
use crate::state::AppState;
use actix_web::{App, HttpResponse, get, web};

/// The media type of the Prometheus text format.
pub const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The service's metrics (admin).
///
/// Requests by route pattern and status with latency histograms, appends and events stored,
/// refusals by code, rulings by kind and outcome, the warm-game cache, database pool use,
/// read replica use and lag, stream subscribers. Prometheus text format.
#[utoipa::path(
    tag = "operations",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The metrics, Prometheus text format 0.0.4.", body = String, content_type = "text/plain"),
        (status = 403, description = "Not an admin token.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/metrics")]
pub async fn metrics(state: web::Data<AppState>, caller: Caller) -> Result<HttpResponse, ApiError> {
    caller.0.may_read_metrics()?;
    Ok(render(&state).await)
}

/// The metrics without a token, for the separate metrics address.
async fn open_metrics(state: web::Data<AppState>) -> HttpResponse {
    render(&state).await
}

/// Samples what is read at scrape time (pools, replica lag) and renders everything.
async fn render(state: &AppState) -> HttpResponse {
    crate::ops::telemetry::pool_sampled("primary", state.store.pool());
    if let Some(replica) = state.store.replica_pool() {
        crate::ops::telemetry::pool_sampled("replica", replica);
    }
    match state.store.replica_lag_bytes().await {
        Ok(Some(lag)) => crate::ops::telemetry::replica_lag(lag),
        Ok(None) => {}
        Err(error) => tracing::warn!(%error, "cannot measure the read replica's lag"),
    }
    HttpResponse::Ok()
        .content_type(PROMETHEUS_TEXT)
        .body(crate::ops::telemetry::render())
}

/// The app served on `--metrics-bind`: `GET /metrics` without a token, nothing else.
pub fn metrics_app(
    state: AppState,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    crate::ops::telemetry::install();
    App::new()
        .app_data(web::Data::new(state))
        .route("/metrics", web::get().to(open_metrics))
        .default_service(web::to(|| async {
            Err::<HttpResponse, _>(ApiError::not_found(
                RequestCode::NoSuchRoute,
                "This address serves only GET /metrics (the service's metrics address).",
            ))
        }))
        .wrap(super::security_headers())
}
