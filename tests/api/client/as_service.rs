//! The client as an actix [`Service`], so that helpers written generic over the app (the
//! back office's `signed_in` and `page_text` of office.rs) take it until they move to the
//! client: a request in, the app's response out, with no token added.

use super::Api;
use actix_http::Request;
use actix_web::Error;
use actix_web::dev::{Service, ServiceResponse};
use futures_util::future::LocalBoxFuture;

impl Service<Request> for Api<'_> {
    type Response = ServiceResponse;
    type Error = Error;
    type Future = LocalBoxFuture<'static, Result<ServiceResponse, Error>>;

    actix_web::dev::always_ready!();

    fn call(&self, request: Request) -> Self::Future {
        (self.call)(request)
    }
}
