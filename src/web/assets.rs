//! The back office's static files, embedded in the binary: the pages work offline and refer
//! to no other origin.

use super::error::WebError;
use actix_web::http::header;
use actix_web::{HttpResponse, web};

/// One embedded file.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static str,
}

/// Every embedded file.
const ASSETS: &[Asset] = &[
    Asset {
        name: "office.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../../assets/office/office.css"),
    },
    Asset {
        name: "office.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../../assets/office/office.js"),
    },
];

/// `GET /office/assets/{name}`.
pub async fn asset(name: web::Path<String>) -> Result<HttpResponse, WebError> {
    let name = name.into_inner();
    let asset = ASSETS
        .iter()
        .find(|a| a.name == name)
        .ok_or_else(|| WebError::NotFound(format!("There is no asset {name}.")))?;
    Ok(HttpResponse::Ok()
        .content_type(asset.content_type)
        // Short: a new version of the binary may change them; a venue restarts rarely.
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .body(asset.body))
}
