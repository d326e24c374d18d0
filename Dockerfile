# Multi-stage build of the arbiter service. The build stage compiles exactly as
# `cargo build --release --locked` does on a development machine; the runtime image holds the
# binary (migrations are embedded in it and also shipped for reference) and runs as a
# non-root user. The image has no PostgreSQL server: set DATABASE_URL.

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock build.rs ./
COPY src src
COPY migrations migrations
COPY assets assets
COPY tests tests
COPY benches benches
COPY vendor vendor
RUN cargo build --release --locked --bin arbiter

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/arbiter --create-home arbiter
COPY --from=build /src/target/release/arbiter /usr/local/bin/arbiter
COPY migrations /usr/share/arbiter/migrations
COPY openapi /usr/share/arbiter/openapi
USER arbiter
ENV ARBITER_BIND=0.0.0.0 \
    ARBITER_PORT=8080 \
    ARBITER_LOG_JSON=true
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/readyz || exit 1
ENTRYPOINT ["arbiter"]
CMD ["serve"]
