//! Liveness and readiness, for load balancers and container health checks.

use super::error::{ApiError, Problem};
use crate::state::AppState;
use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A health answer.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: String,
}

/// Liveness: the process answers.
#[utoipa::path(tag = "health", responses((status = 200, description = "The service is running.", body = Health)))]
#[get("/healthz")]
pub async fn healthz() -> web::Json<Health> {
    web::Json(Health {
        status: "ok".into(),
    })
}

/// Readiness: the database answers.
#[utoipa::path(
    tag = "health",
    responses(
        (status = 200, description = "The service can serve requests.", body = Health),
        (status = 503, description = "The database cannot be reached.", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> Result<web::Json<Health>, ApiError> {
    state
        .store
        .ping()
        .await
        .map_err(|e| ApiError::unavailable(e.into()))?;
    Ok(web::Json(Health {
        status: "ok".into(),
    }))
}
