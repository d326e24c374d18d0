//! The back office: server-rendered pages for the chief arbiter, the arbiters on the floor
//! and an appeals committee, served by the same binary under `/office`, offline.
//!
//! The pages are thin like the JSON API: they read through the store and the application
//! service ([`crate::app::arbitration::Arbitration`]) and record through
//! [`crate::app::arbitration::Arbitration::record`], so the engine judges a form exactly as it
//! judges an API request, and the same role rules ([`crate::access`]) decide who may do what.
//! There is no SQL and no chess logic here.
//!
//! Every asset (style sheet, script) is embedded in the binary; pages refer to no other
//! origin and are served with a `Content-Security-Policy` of `'self'` (no inline script or
//! style). Sessions, CSRF protection and the session cookie are in [`session`].

pub mod appeals_procedure;
pub mod assets;
pub mod chief_report;
pub mod desk;
pub mod error;
pub mod events;
pub mod fair_play;
pub mod fair_play_forms;
pub mod floor;
pub mod follow;
pub mod forms;
pub mod layout;
pub mod measures;
pub mod periods;
pub mod players;
pub mod reports;
pub mod session;
pub mod sign_in;
pub mod standings;
pub mod tie_break_form;
pub mod tokens;
pub mod viewer;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::{Next, from_fn};
use actix_web::web;

/// Where the back office lives.
pub const PREFIX: &str = crate::state::OFFICE_PREFIX;

/// The policy of every page: only this origin, no inline code, no framing.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; \
     frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/// Registers the pages (not part of the OpenAPI document).
pub fn routes(config: &mut web::ServiceConfig) {
    config
        .route(
            "/",
            web::get().to(|| async { layout::see_other(&format!("{PREFIX}/")) }),
        )
        .service(web::redirect(PREFIX, format!("{PREFIX}/")))
        .service(
            web::scope(PREFIX)
                .wrap(from_fn(page_headers))
                .route("/", web::get().to(events::home))
                .route("/assets/{name}", web::get().to(assets::asset))
                .route("/sign-in", web::get().to(sign_in::form))
                .route("/sign-in", web::post().to(sign_in::submit))
                .route("/sign-out", web::post().to(sign_in::sign_out))
                .route("/events", web::post().to(events::create))
                .route("/events/new", web::get().to(events::new_form))
                .route("/events/{id}", web::get().to(events::show))
                .route("/events/{id}", web::post().to(events::update))
                .route("/events/{id}/rounds", web::post().to(events::load_round))
                .route("/events/{id}/players", web::post().to(players::record))
                .route(
                    "/events/{id}/fair-play-measures",
                    web::post().to(measures::save),
                )
                .route(
                    "/events/{id}/appeals-procedure",
                    web::post().to(appeals_procedure::save),
                )
                .route(
                    "/events/{id}/rounds/{round}/follow",
                    web::post().to(follow::set),
                )
                .route("/attentions/{id}/decision", web::post().to(follow::decide))
                .route("/events/{id}/report", web::get().to(chief_report::page))
                .route("/events/{id}/standings", web::get().to(standings::page))
                .route("/floor", web::get().to(floor::page))
                .route("/floor/rows", web::get().to(floor::rows_fragment))
                .route("/games/{id}", web::get().to(desk::page))
                .route("/games/{id}/record", web::post().to(desk::record))
                .route(
                    "/games/{id}/decisions/{seq}",
                    web::get().to(reports::decision),
                )
                .route("/incidents", web::get().to(reports::incidents))
                .route("/fair-play", web::get().to(fair_play::report))
                .route("/fair-play/games/{id}", web::get().to(fair_play::desk))
                .route("/fair-play/games/{id}", web::post().to(fair_play::record))
                .route(
                    "/fair-play/games/{id}/evidence/{seq}",
                    web::get().to(fair_play::download_evidence),
                )
                .route(
                    "/fair-play/games/{id}/evidence",
                    web::post().to(fair_play::upload_evidence),
                )
                .route("/appeals", web::get().to(reports::appeals))
                .route("/results", web::get().to(reports::results))
                .route("/tokens", web::get().to(tokens::page))
                .route("/tokens", web::post().to(tokens::create))
                .route("/tokens/{id}/revoke", web::post().to(tokens::revoke))
                .default_service(web::to(error::not_found)),
        );
}

/// Headers of every back-office response: the content security policy, no sniffing, no
/// framing, a referrer only to this origin (the CSRF check reads `Origin`, which browsers
/// blank under `no-referrer`), and no caching of pages that show the log as it was.
async fn page_headers(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let is_asset = request.path().starts_with(&format!("{PREFIX}/assets/"));
    let mut response = next.call(request).await?;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if !is_asset && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    Ok(response)
}
