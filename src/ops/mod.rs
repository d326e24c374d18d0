//! What the operator runs around the service: the private PostgreSQL cluster `arbiter serve`
//! starts when no database is configured ([`cluster`]), and what the service counts for
//! `/metrics` ([`telemetry`]).

pub mod cluster;
pub mod telemetry;
