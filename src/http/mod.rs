//! The HTTP shell: actix-web handlers that read requests, call the store (and, for rulings,
//! the pure game core), and render answers. No SQL and no chess logic live here.
//!
//! The server and the tests build the app with the same [`app`] function (through
//! [`crate::startup::app`], which mounts the back office beside it), and the OpenAPI
//! document is collected from the same route configuration ([`routes`]), so the document
//! cannot describe routes the server does not have.
//!
//! Around every route: a request id (`tracing-actix-web`) in the `X-Request-Id` header, the
//! request's log line and every 5xx problem body; metrics per route pattern and status;
//! security headers on every answer ([`security_headers`]).

pub mod appeals;
pub mod auth;
pub mod body;
pub mod contract;
pub mod diagrams;
pub mod error;
pub mod fair_play;
pub mod feed;
pub mod follows;
pub mod games;
pub mod health;
pub mod import;
pub mod integrity;
pub mod metrics;
pub mod player_status;
pub mod query;
pub mod streams;
pub mod tokens;
pub mod tournaments;

use crate::problem::RequestCode;
use crate::request as reads;
use crate::state::AppState;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::{StatusCode, header};
use actix_web::middleware::{DefaultHeaders, Next, from_fn};
use actix_web::{App, HttpMessage, HttpRequest, HttpResponse, ResponseError, web};
use error::ApiError;
use utoipa::OpenApi;
use utoipa::openapi::OpenApi as OpenApiDocument;
use utoipa_actix_web::{AppExt, scope, service_config::ServiceConfig};
use utoipa_swagger_ui::SwaggerUi;

/// The fixed parts of the OpenAPI document; paths and schemas are collected from [`routes`].
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Arbiter: arbitration record service for over-the-board chess",
        description = "Keeps every board event of a tournament game in an append-only, \
            hash-chained event log and rules on draw claims and automatic draws under the FIDE \
            Laws of Chess. Every error is `application/problem+json` with a `detail` a person \
            can act on and, for bad input, the `field` that is wrong.",
        license(name = "GPL-3.0-or-later", identifier = "GPL-3.0-or-later"),
    ),
    tags(
        (name = "games", description = "Create, list and fetch games."),
        (name = "events", description = "Record events and read a game's log."),
        (name = "appeals", description = "Positions, audits and rulings: what appeals committees and the chief arbiter read."),
        (name = "records", description = "A game's PGN and its board diagrams (SVG): what people and other programs read and print."),
        (name = "feed", description = "The global feed of every stored event, in commit order."),
        (name = "streams", description = "Live streams (Server-Sent Events) of games and rounds, and the round PGN that broadcast relays poll; under /v1/broadcast the public view, delayed and filtered."),
        (name = "integrity", description = "Chain heads and exports that anyone can verify offline."),
        (name = "tournaments", description = "Tournaments: the settings an event's games are created with, and a round's pairings loaded as games."),
        (name = "fair play", description = "Fair-play events (devices, inspections, complaints, evidence: 11.3, 12.9): recorded and read only with the `fair_play` capability; any other caller gets 404."),
        (name = "tokens", description = "Bearer tokens and their roles (admin only)."),
        (name = "health", description = "Liveness and readiness."),
        (name = "operations", description = "Metrics for the operator (admin, or the separate metrics address)."),
    ),
    modifiers(&BearerScheme)
)]
struct BaseDocument;

/// Declares the bearer-token security scheme used by every `/v1` route.
struct BearerScheme;

impl utoipa::Modify for BearerScheme {
    fn modify(&self, document: &mut OpenApiDocument) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = document.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A token from `arbiter token create` or `POST /v1/tokens`. Roles: \
                         admin (tokens, metrics), arbiter (games, board events, arbiter decisions, \
                         corrections, lodged appeals; optionally limited to named events), \
                         appeals (appeal events), reader (read only).",
                    ))
                    .build(),
            ),
        );
    }
}

/// Registers every documented route. Routes must be added with `.service()`: only those
/// reach the OpenAPI document.
pub fn routes(config: &mut ServiceConfig) {
    routes_with_cors(config, &[]);
}

/// [`routes`], with the public broadcast (the scope `/v1/broadcast`) answering CORS for
/// `origins` (none: no CORS at all). Only that scope is wrapped: no route that needs a token
/// or a session ever answers a cross-origin request.
fn routes_with_cors(config: &mut ServiceConfig, origins: &[String]) {
    config
        .service(health::healthz)
        .service(health::readyz)
        .service(metrics::metrics)
        .service(
            scope("/v1")
                .service(import::import_games)
                .service(games::create_game)
                .service(games::list_games)
                .service(games::get_game)
                .service(games::append_events)
                .service(games::read_events)
                .service(fair_play::record_fair_play)
                .service(fair_play::list_fair_play)
                .service(fair_play::fair_play_access)
                .service(fair_play::audit_fair_play)
                .service(fair_play::fair_play_evidence)
                .service(fair_play::read_fair_play)
                .service(fair_play::fair_play_report)
                .service(appeals::positions)
                .service(appeals::audit)
                .service(appeals::pgn)
                .service(appeals::rulings)
                .service(diagrams::board_svg)
                .service(diagrams::occurrences_svg)
                .service(integrity::digest)
                .service(integrity::export)
                .service(feed::read_feed)
                .service(streams::game_stream)
                .service(streams::round_stream)
                .service(streams::round_pgn)
                .service(
                    scope("/broadcast")
                        .wrap(actix_web::middleware::Condition::new(
                            !origins.is_empty(),
                            broadcast_cors(origins),
                        ))
                        .service(streams::public_game_stream)
                        .service(streams::public_round_stream)
                        .service(streams::public_round_pgn),
                )
                .service(tournaments::create_tournament)
                .service(tournaments::list_tournaments)
                .service(tournaments::get_tournament)
                .service(tournaments::update_tournament)
                .service(tournaments::load_pairings)
                .service(tournaments::tournament_trf)
                .service(tournaments::tournament_standings)
                .service(player_status::record_player_status)
                .service(player_status::tournament_log)
                .service(follows::set_follow)
                .service(follows::get_follow)
                .service(follows::stop_follow)
                .service(follows::decide_attention)
                .service(tokens::create_token)
                .service(tokens::list_tokens)
                .service(tokens::revoke_token)
                .service(tokens::rotate_token),
        );
}

/// The CORS policy of the public broadcast: `origins` (`*` for any site, answered with a
/// wildcard) may `GET` its streams and PGN, resume a stream with `Last-Event-ID`, revalidate
/// the PGN with `If-None-Match` and read its `ETag`. No credentials: the public broadcast
/// needs none, and a token is never accepted across origins. A request from an origin not
/// listed is still answered (relays send none), without CORS headers, so the browser keeps
/// the page from reading it.
fn broadcast_cors(origins: &[String]) -> actix_cors::Cors {
    let mut cors = actix_cors::Cors::default()
        .allowed_methods(["GET", "HEAD"])
        .allowed_headers([
            header::HeaderName::from_static("last-event-id"),
            header::IF_NONE_MATCH,
            header::CACHE_CONTROL,
        ])
        .expose_headers([
            header::ETAG,
            header::HeaderName::from_static("x-request-id"),
        ])
        .max_age(3600)
        .block_on_origin_mismatch(false);
    if origins.iter().any(|origin| origin == "*") {
        cors = cors.allow_any_origin().send_wildcard();
    } else {
        for origin in origins {
            cors = cors.allowed_origin(origin);
        }
    }
    cors
}

/// The OpenAPI document of the service, as served at `/api-docs/openapi.json`.
pub fn openapi() -> OpenApiDocument {
    let (_, mut document) = App::new()
        .into_utoipa_app()
        .openapi(BaseDocument::openapi())
        .configure(routes)
        .split_for_parts();
    complete_document(&mut document);
    document
}

/// What is added to the document collected from the routes, for the served and the
/// committed document alike.
fn complete_document(document: &mut OpenApiDocument) {
    use utoipa::Modify;
    document_server_errors(document);
    document_read_your_writes(document);
    headers_are_never_null(document);
    contract::EventContract.modify(document);
    contract::ClosedAllOf.modify(document);
    contract::TextAlternatives.modify(document);
}

/// Every operation may answer 500 (a failure, logged, nothing stored) and, where it needs
/// the database, 503; one that needs a token may answer 401 (no valid token), 403 (its role
/// or events do not allow this; a route may say more precisely why) and 429 (repeated failed
/// authentications); all are problem bodies. Added once here rather than on each route.
fn document_server_errors(document: &mut OpenApiDocument) {
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    let problem = |description: &str| {
        ResponseBuilder::new()
            .description(description)
            .content(
                error::PROBLEM_JSON,
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("Problem")))
                    .build(),
            )
            .build()
    };
    for (path, operation) in operations_mut(document) {
        let needs_token = operation.security.as_ref().is_some_and(|s| !s.is_empty());
        let responses = &mut operation.responses.responses;
        if needs_token {
            responses
                .entry("401".into())
                .or_insert_with(|| problem("No valid bearer token.").into());
            responses
                .entry("403".into())
                .or_insert_with(|| problem("The token's role or events do not allow this.").into());
            responses.entry("429".into()).or_insert_with(|| {
                problem(
                    "Too many failed authentications from this address: its requests \
                         without a valid token are refused until Retry-After has passed. A \
                         valid token is never refused this way.",
                )
                .into()
            });
        }
        responses.entry("500".into()).or_insert_with(|| {
            problem("The service failed; nothing was stored. Retry with the same event_ids.").into()
        });
        if path != "/healthz" {
            responses.entry("503".into()).or_insert_with(|| {
                problem("The database cannot be reached; nothing was stored.").into()
            });
        }
    }
}

/// Every operation of the document (GET, POST, PUT and DELETE are the methods the API has),
/// with its path.
fn operations_mut(
    document: &mut OpenApiDocument,
) -> impl Iterator<Item = (&String, &mut utoipa::openapi::path::Operation)> {
    document.paths.paths.iter_mut().flat_map(|(path, item)| {
        [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        .map(move |operation| (&*path, operation))
    })
}

/// An optional header is absent or a string; it is never JSON `null` (which a client would
/// send as the text `null`). utoipa describes an `Option<String>` header as `string | null`;
/// this leaves `string`, with its pattern.
fn headers_are_never_null(document: &mut OpenApiDocument) {
    use utoipa::openapi::path::ParameterIn;
    use utoipa::openapi::schema::{Schema, SchemaType, Type};
    for (_, operation) in operations_mut(document) {
        for parameter in operation.parameters.iter_mut().flatten() {
            let utoipa::openapi::RefOr::T(parameter) = parameter else {
                continue;
            };
            if parameter.parameter_in != ParameterIn::Header {
                continue;
            }
            if let Some(utoipa::openapi::RefOr::T(Schema::Object(object))) =
                parameter.schema.as_mut()
                && let SchemaType::Array(types) = &object.schema_type
                && types.contains(&Type::String)
            {
                object.schema_type = SchemaType::Type(Type::String);
            }
        }
    }
}

/// The routes that read through [`reads::Reads`], and so take `min_lsn`/`X-Arbiter-LSN`.
const READ_ROUTES: &[&str] = &[
    "/v1/games",
    "/v1/games/{id}",
    "/v1/games/{id}/events",
    "/v1/games/{id}/positions",
    "/v1/games/{id}/audit",
    "/v1/games/{id}/pgn",
    "/v1/games/{id}/digest",
    "/v1/games/{id}/export",
    "/v1/rulings",
    "/v1/feed",
];

/// The writes whose answer carries `X-Arbiter-LSN` when a read replica is configured.
const LSN_WRITES: &[&str] = &["/v1/games", "/v1/games/{id}/events"];

/// Documents read-your-writes once for every read and write that takes part.
fn document_read_your_writes(document: &mut OpenApiDocument) {
    use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
    use utoipa::openapi::{HeaderBuilder, ObjectBuilder, Required, Type};
    let lsn_schema = || {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .pattern(Some("^[0-9A-Fa-f]{1,8}/[0-9A-Fa-f]{1,8}$"))
            .build()
    };
    let parameter = |location: ParameterIn, name: &str| {
        ParameterBuilder::new()
            .name(name)
            .parameter_in(location)
            .required(Required::False)
            .description(Some(
                "Read-your-writes: the `X-Arbiter-LSN` of a write's answer. With a read \
                 replica, the read waits (at most the configured limit) until the replica \
                 has replayed it, or is served by the primary. Ignored without a replica.",
            ))
            .schema(Some(lsn_schema()))
            .build()
    };
    for (path, item) in document.paths.paths.iter_mut() {
        if READ_ROUTES.contains(&path.as_str())
            && let Some(get) = item.get.as_mut()
        {
            let parameters = get.parameters.get_or_insert_with(Vec::new);
            parameters.push(parameter(ParameterIn::Query, reads::MIN_LSN_PARAMETER).into());
            parameters.push(parameter(ParameterIn::Header, reads::LSN_HEADER).into());
            for (status, response) in get.responses.responses.iter_mut() {
                if let (true, utoipa::openapi::RefOr::T(response)) =
                    (status.starts_with('2'), response)
                {
                    response.headers.insert(
                        reads::READ_FROM_HEADER.into(),
                        HeaderBuilder::new()
                            .schema(Some(ObjectBuilder::new().schema_type(Type::String).build()))
                            .description(Some(
                                "Which database served the read: `primary`, `replica` or \
                                 `primary_fallback` (the replica lagged past the limit).",
                            ))
                            .build()
                            .into(),
                    );
                }
            }
        }
        if LSN_WRITES.contains(&path.as_str())
            && let Some(post) = item.post.as_mut()
        {
            for (status, response) in post.responses.responses.iter_mut() {
                if let (true, utoipa::openapi::RefOr::T(response)) =
                    (status.starts_with('2'), response)
                {
                    response.headers.insert(
                        reads::LSN_HEADER.into(),
                        HeaderBuilder::new()
                            .schema(Some(lsn_schema()))
                            .description(Some(
                                "Only with a read replica: the primary's WAL position after \
                                 this write. Send it back on reads (header or `min_lsn`) to \
                                 read what you wrote.",
                            ))
                            .build()
                            .into(),
                    );
                }
            }
        }
    }
}

/// The headers every answer carries: no MIME sniffing, no referrer, and no framing by other
/// sites (`frame-ancestors 'none'`, with `X-Frame-Options` for older browsers). The CSP
/// restricts framing only, so the Swagger UI at `/docs/` keeps its scripts and styles; a
/// page that must be framed can set its own `Content-Security-Policy`, which these defaults
/// never overwrite.
pub fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::REFERRER_POLICY, "no-referrer"))
        .add((header::CONTENT_SECURITY_POLICY, "frame-ancestors 'none'"))
        .add((header::X_FRAME_OPTIONS, "DENY"))
}

/// The application with the API and the pages that `pages` mounts (the back office, given
/// by [`crate::startup::app`], so that this face never imports the other).
pub fn app(
    state: AppState,
    pages: impl FnOnce(&mut web::ServiceConfig),
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let state_origins = state.broadcast_cors_origins.clone();
    let (app, document) = App::new()
        .into_utoipa_app()
        .openapi(BaseDocument::openapi())
        .app_data(web::Data::new(state))
        .app_data(
            web::PathConfig::default()
                .error_handler(|error, request| path_error(error.to_string(), request)),
        )
        .app_data(web::QueryConfig::default().error_handler(|error, _| {
            ApiError::bad_request(
                RequestCode::InvalidQuery,
                format!("A query parameter is wrong: {error}. Nothing was changed."),
            )
            .into()
        }))
        .configure(|config| routes_with_cors(config, &state_origins))
        .split_for_parts();
    let mut document = document;
    complete_document(&mut document);
    crate::ops::telemetry::install();
    app.service(SwaggerUi::new("/docs/{_:.*}").url("/api-docs/openapi.json", document))
        .service(web::redirect("/docs", "/docs/"))
        .configure(pages)
        .default_service(web::to(unknown_route))
        .wrap(from_fn(problems_only))
        .wrap(from_fn(text_on_request))
        .wrap(from_fn(observe))
        .wrap(security_headers())
        .wrap(tracing_actix_web::TracingLogger::default())
}

/// Counts and logs every request under its route pattern, returns its id in `X-Request-Id`
/// (and in the body of a 5xx problem), and says which database served a read.
async fn observe(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let started = std::time::Instant::now();
    let request_id = request
        .extensions()
        .get::<tracing_actix_web::RequestId>()
        .map(|id| id.to_string())
        .unwrap_or_default();
    let mut response = next.call(request).await?;
    let status = response.status();
    let route = response
        .request()
        .match_pattern()
        .unwrap_or_else(|| "unmatched".into());
    let method = response.request().method().clone();
    let elapsed = started.elapsed();
    crate::ops::telemetry::request_finished(method.as_str(), &route, status.as_u16(), elapsed);
    let duration_ms = elapsed.as_secs_f64() * 1000.0;
    let path = response.request().path().to_string();
    if status.is_server_error() {
        tracing::warn!(request_id, %method, route, path, status = status.as_u16(), duration_ms, "request failed");
    } else {
        tracing::info!(request_id, %method, route, path, status = status.as_u16(), duration_ms, "request");
    }
    let served_by = reads::served_by(response.request());
    let headers = response.headers_mut();
    if let Ok(value) = header::HeaderValue::from_str(&request_id) {
        headers.insert(header::HeaderName::from_static("x-request-id"), value);
    }
    if let Some(served_by) = served_by {
        headers.insert(
            header::HeaderName::from_static("x-arbiter-read-from"),
            header::HeaderValue::from_static(served_by.as_str()),
        );
    }
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == error::PROBLEM_JSON.as_bytes());
    if !(status.is_server_error() && is_problem) {
        return Ok(response.map_into_left_body());
    }
    // A 5xx problem: name the request in its body, so the operator finds the log line.
    let (request, response) = response.into_parts();
    let (response, body) = response.into_parts();
    let bytes = actix_web::body::to_bytes(body).await.unwrap_or_default();
    let body = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Object(mut problem)) => {
            problem.insert("request_id".into(), request_id.into());
            serde_json::to_vec(&problem).unwrap_or_else(|_| bytes.to_vec())
        }
        _ => bytes.to_vec(),
    };
    Ok(
        ServiceResponse::new(request, response.set_body(body).map_into_boxed_body())
            .map_into_right_body(),
    )
}

/// A path segment that does not parse (in practice: a game id that is not a UUID), or a
/// literal route asked with another method (`GET /v1/games/import` reaches `/games/{id}`).
fn path_error(message: String, request: &HttpRequest) -> actix_web::Error {
    if let Some(methods) = allowed_methods(request.path())
        && !methods.iter().any(|m| m == request.method().as_str())
    {
        let (problem, response) = method_not_allowed(request, methods);
        return actix_web::error::InternalError::from_response(problem, response).into();
    }
    ApiError::bad_request(
        RequestCode::InvalidPath,
        format!(
            "The path {} is wrong: {message}. Game ids are UUIDs such as \
             123e4567-e89b-42d3-a456-426614174000.",
            request.path()
        ),
    )
    .with_field("id")
    .into()
}

/// The documented paths (as segment templates) and their methods, for 405 answers.
fn route_table() -> &'static [(Vec<String>, Vec<String>)] {
    static TABLE: std::sync::OnceLock<Vec<(Vec<String>, Vec<String>)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let document = serde_json::to_value(openapi()).unwrap_or_default();
        let Some(paths) = document.get("paths").and_then(|p| p.as_object()) else {
            return Vec::new();
        };
        paths
            .iter()
            .map(|(path, item)| {
                let segments = path.split('/').map(str::to_owned).collect();
                let methods = item
                    .as_object()
                    .map(|ops| ops.keys().map(|m| m.to_uppercase()).collect())
                    .unwrap_or_default();
                (segments, methods)
            })
            .collect()
    })
}

/// The 405 answer to `request` on a route that allows only `methods`, with its `Allow`
/// header (and the error, for handlers that must return one).
fn method_not_allowed(request: &HttpRequest, methods: &[String]) -> (ApiError, HttpResponse) {
    let allow = methods.join(", ");
    let problem = ApiError::method_not_allowed(format!(
        "{} is not allowed on {}; use {allow}.",
        request.method(),
        request.path()
    ));
    let mut response = problem.error_response();
    if let Ok(value) = header::HeaderValue::from_str(&allow) {
        response.headers_mut().insert(header::ALLOW, value);
    }
    (problem, response)
}

/// The methods allowed on `path`, if it is a documented route (the most literal template
/// wins: `/v1/games/import` over `/v1/games/{id}`).
fn allowed_methods(path: &str) -> Option<&'static [String]> {
    let segments: Vec<&str> = path.split('/').collect();
    let is_parameter = |t: &String| t.starts_with('{') && t.ends_with('}');
    route_table()
        .iter()
        .filter(|(template, _)| {
            template.len() == segments.len()
                && template
                    .iter()
                    .zip(&segments)
                    .all(|(t, s)| (is_parameter(t) && !s.is_empty()) || t == s)
        })
        .max_by_key(|(template, _)| template.iter().filter(|t| !is_parameter(t)).count())
        .map(|(_, methods)| methods.as_slice())
}

/// Any route the service does not have.
async fn unknown_route(request: HttpRequest) -> HttpResponse {
    if let Some(methods) = allowed_methods(request.path()) {
        return method_not_allowed(&request, methods).1;
    }
    ApiError::not_found(
        RequestCode::NoSuchRoute,
        format!(
            "There is no {} {} route. The routes are listed at /docs and in \
             /api-docs/openapi.json.",
            request.method(),
            request.path()
        ),
    )
    .error_response()
}

/// Serves a file answer (PGN, SVG, JSON lines) as `text/plain` when the request's `Accept`
/// asks for `text/plain` and not for the file's own media type (nor `*/*`): the document
/// declares both (`contract::TextAlternatives`).
async fn text_on_request(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let accept = request
        .headers()
        .get(header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .map(str::to_ascii_lowercase);
    let mut response = next.call(request).await?;
    let Some(accept) = accept else {
        return Ok(response);
    };
    let media_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(|value| value.trim().to_ascii_lowercase());
    let Some(media_type) = media_type.filter(|m| contract::FILE_MEDIA_TYPES.contains(&m.as_str()))
    else {
        return Ok(response);
    };
    let accepted: Vec<&str> = accept
        .split(',')
        .filter(|range| !range.contains("q=0") || range.contains("q=0."))
        .filter_map(|range| range.split(';').next())
        .map(str::trim)
        .collect();
    if accepted.contains(&"text/plain")
        && !accepted.contains(&media_type.as_str())
        && !accepted.contains(&"*/*")
    {
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static(contract::TEXT_ALTERNATIVE),
        );
    }
    Ok(response)
}

/// Turns any error response that is not already a problem body (a 405 from a resource, an
/// extractor's plain-text error) into one, so that every 4xx and 5xx is problem+json.
async fn problems_only(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let response = next.call(request).await?;
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == error::PROBLEM_JSON.as_bytes());
    let is_page = response
        .request()
        .path()
        .starts_with(crate::state::OFFICE_PREFIX);
    if !(status.is_client_error() || status.is_server_error()) || is_problem || is_page {
        return Ok(response.map_into_left_body());
    }
    let problem = if status == StatusCode::METHOD_NOT_ALLOWED {
        ApiError::method_not_allowed(format!(
            "{} is not allowed on {}. The routes and their methods are listed at /docs.",
            response.request().method(),
            response.request().path()
        ))
    } else if status.is_server_error() {
        ApiError::internal(anyhow::anyhow!("bare {status} response from a handler"))
    } else {
        ApiError::with_status(
            status,
            format!(
                "The request was refused ({status}). The routes and what they accept are \
                 described at /docs."
            ),
        )
    };
    let (request, _) = response.into_parts();
    Ok(ServiceResponse::new(request, problem.error_response()).map_into_right_body())
}
