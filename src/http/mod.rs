//! The HTTP shell: actix-web handlers that read requests, call the store (and, for rulings,
//! the pure game core), and render answers. No SQL and no chess logic live here.
//!
//! The server and the tests build the app with the same [`app`] function, and the OpenAPI
//! document is collected from the same route configuration ([`routes`]), so the document
//! cannot describe routes the server does not have.

pub mod appeals;
pub mod auth;
pub mod body;
pub mod diagrams;
pub mod error;
pub mod feed;
pub mod games;
pub mod health;
pub mod import;
pub mod integrity;
pub mod streams;
pub mod tokens;
pub mod tournaments;

use crate::arbitration::Arbitration;
use crate::store::Store;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::{StatusCode, header};
use actix_web::middleware::{Next, from_fn};
use actix_web::{App, HttpRequest, HttpResponse, ResponseError, web};
use error::ApiError;
use utoipa::OpenApi;
use utoipa::openapi::OpenApi as OpenApiDocument;
use utoipa_actix_web::{AppExt, scope, service_config::ServiceConfig};
use utoipa_swagger_ui::SwaggerUi;

/// Request limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The largest request body accepted, in bytes.
    pub body_bytes: usize,
    /// The most events accepted in one append.
    pub events_per_append: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 1024 * 1024,
            events_per_append: 1000,
        }
    }
}

/// What every handler can reach.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The event store.
    pub store: Store,
    /// Records events with the engine's rulings; keeps warm games.
    pub arbitration: Arbitration,
    /// Request limits.
    pub limits: Limits,
    /// Live streams and broadcasts (holds the instance's one `LISTEN` connection).
    pub streams: crate::streams::Streams,
    /// Back-office sessions.
    pub web: crate::web::WebSettings,
}

impl AppState {
    /// The state of a service over `store` with default limits.
    pub fn new(store: Store) -> Self {
        AppState {
            arbitration: Arbitration::new(store.clone()),
            streams: crate::streams::Streams::new(store.clone()),
            store,
            limits: Limits::default(),
            web: crate::web::WebSettings::default(),
        }
    }
}

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
        (name = "appeals", description = "Positions, audits, rulings and PGN: what appeals committees and the chief arbiter read."),
        (name = "feed", description = "The global feed of every stored event, in commit order."),
        (name = "streams", description = "Live streams (Server-Sent Events) of games and rounds, and the round PGN that broadcast relays poll; under /v1/broadcast the public view, delayed and filtered."),
        (name = "integrity", description = "Chain heads and exports that anyone can verify offline."),
        (name = "tournaments", description = "Tournaments: the settings an event's games are created with, and a round's pairings loaded as games."),
        (name = "tokens", description = "Bearer tokens and their roles (admin only)."),
        (name = "health", description = "Liveness and readiness."),
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
                         admin (tokens), arbiter (games, board events, arbiter decisions, \
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
    config
        .service(health::healthz)
        .service(health::readyz)
        .service(
            scope("/v1")
                .service(import::import_games)
                .service(games::create_game)
                .service(games::list_games)
                .service(games::get_game)
                .service(games::append_events)
                .service(games::read_events)
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
                .service(streams::public_game_stream)
                .service(streams::public_round_stream)
                .service(streams::public_round_pgn)
                .service(tournaments::create_tournament)
                .service(tournaments::list_tournaments)
                .service(tournaments::get_tournament)
                .service(tournaments::update_tournament)
                .service(tournaments::load_pairings)
                .service(tokens::create_token)
                .service(tokens::list_tokens)
                .service(tokens::revoke_token),
        );
}

/// The OpenAPI document of the service, as served at `/api-docs/openapi.json`.
pub fn openapi() -> OpenApiDocument {
    let (_, mut document) = App::new()
        .into_utoipa_app()
        .openapi(BaseDocument::openapi())
        .configure(routes)
        .split_for_parts();
    document_server_errors(&mut document);
    document
}

/// Every operation may answer 500 (a failure, logged, nothing stored) and, where it needs
/// the database, 503; both are problem bodies. Added once here rather than on each route.
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
    for (path, item) in document.paths.paths.iter_mut() {
        for operation in [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        {
            let responses = &mut operation.responses.responses;
            responses.entry("500".into()).or_insert_with(|| {
                problem("The service failed; nothing was stored. Retry with the same event_ids.")
                    .into()
            });
            if path != "/healthz" {
                responses.entry("503".into()).or_insert_with(|| {
                    problem("The database cannot be reached; nothing was stored.").into()
                });
            }
        }
    }
}

/// The application, as the server runs it and the tests drive it.
pub fn app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
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
                "invalid_query",
                format!("A query parameter is wrong: {error}. Nothing was changed."),
            )
            .into()
        }))
        .configure(routes)
        .split_for_parts();
    let mut document = document;
    document_server_errors(&mut document);
    app.service(SwaggerUi::new("/docs/{_:.*}").url("/api-docs/openapi.json", document))
        .service(web::redirect("/docs", "/docs/"))
        .configure(crate::web::routes)
        .default_service(web::to(unknown_route))
        .wrap(from_fn(problems_only))
        .wrap(actix_web::middleware::Logger::new("%r %s %b bytes %D ms"))
}

/// A path segment that does not parse (in practice: a game id that is not a UUID), or a
/// literal route asked with another method (`GET /v1/games/import` reaches `/games/{id}`).
fn path_error(message: String, request: &HttpRequest) -> actix_web::Error {
    if let Some(methods) = allowed_methods(request.path())
        && !methods.iter().any(|m| m == request.method().as_str())
    {
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
        return actix_web::error::InternalError::from_response(problem, response).into();
    }
    ApiError::bad_request(
        "invalid_path",
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
        let allow = methods.join(", ");
        let mut response = ApiError::method_not_allowed(format!(
            "{} is not allowed on {}; use {allow}.",
            request.method(),
            request.path()
        ))
        .error_response();
        if let Ok(value) = header::HeaderValue::from_str(&allow) {
            response.headers_mut().insert(header::ALLOW, value);
        }
        return response;
    }
    ApiError::not_found(
        "no_such_route",
        format!(
            "There is no {} {} route. The routes are listed at /docs and in \
             /api-docs/openapi.json.",
            request.method(),
            request.path()
        ),
    )
    .error_response()
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
    let is_page = response.request().path().starts_with(crate::web::PREFIX);
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
                "The request was refused ({status}). The routes and what they accept are                  described at /docs."
            ),
        )
    };
    let (request, _) = response.into_parts();
    Ok(ServiceResponse::new(request, problem.error_response()).map_into_right_body())
}
