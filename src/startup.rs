//! The composition root: the one place that joins the configuration, the store, the
//! application services and the two faces into a running service.
//!
//! [`Application::build`] is what `arbiter serve` runs and what the tests start
//! (`spawn_app` in `tests/api/support.rs`), so the tests run the wiring production runs: the
//! warm-game bound, the broadcast delay, the authentication throttle, the read replica and the
//! metrics listener are all set here from one [`ServeConfig`]. [`app`] is the actix
//! application itself (the API with the back office mounted beside it), which the in-process
//! tests drive without a socket.

use crate::config::{DatabaseConfig, ServeConfig};
use crate::ops::cluster::Cluster;
use crate::state::AppState;
use crate::store::Store;
use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServerHandle, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::{App, HttpServer};
use anyhow::{Context, Result};
use std::net::TcpListener;
use std::path::PathBuf;

/// The application, as the server runs it and the tests drive it: the JSON API with the
/// back office mounted beside it.
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
    crate::http::app(state, crate::web::routes)
}

/// A built service: listening, not yet serving until [`Application::run_until_stopped`].
pub struct Application {
    handle_signals: bool,
    port: u16,
    metrics_port: Option<u16>,
    server: Server,
    metrics_server: Option<Server>,
    state: AppState,
}

impl Application {
    /// Connects to the database (migrating it first), builds the shared state from
    /// `config` and binds the listeners (port 0 takes any free port).
    pub async fn build(config: &ServeConfig, database_url: &str) -> Result<Application> {
        config.check().map_err(anyhow::Error::msg)?;
        // Closed at once: a multi-host URL's pool has a watcher that runs until then.
        migrate(database_url).await?.pool().close().await;
        let store = connect_service(database_url, config.db_connections, config).await?;
        let store = match &config.read_database_url {
            Some(read_url) => {
                let replica =
                    connect_service(read_url, config.read_db_connections(), config).await?;
                tracing::info!(replica = %redact(read_url), wait_ms = config.replica_wait_ms, "reads go to the read replica");
                store.with_read_replica(replica.pool().clone(), config.replica_wait())
            }
            None => store,
        };
        let state = AppState::from_config(store, config);
        let followed = state
            .followers
            .resume_enabled()
            .await
            .context("cannot read the followed rounds")?;
        if followed > 0 {
            tracing::info!(followed, "following the board feeds of the followed rounds");
        }
        crate::ops::telemetry::install();
        let (metrics_server, metrics_port) = match &config.metrics_bind {
            Some(address) => {
                let listener = TcpListener::bind(address.as_str())
                    .with_context(|| format!("cannot listen on {address} for metrics"))?;
                let port = listener.local_addr()?.port();
                let metrics_state = state.clone();
                let server = HttpServer::new(move || {
                    crate::http::metrics::metrics_app(metrics_state.clone())
                })
                .workers(1)
                .listen(listener)?
                .run();
                tracing::info!(address = %format!("http://{address}/metrics"), "metrics are served without a token");
                (Some(server), Some(port))
            }
            None => (None, None),
        };
        let listener = TcpListener::bind((config.bind.as_str(), config.port))
            .with_context(|| format!("cannot listen on {}:{}", config.bind, config.port))?;
        let port = listener.local_addr()?.port();
        let served = state.clone();
        let mut server = HttpServer::new(move || app(served.clone()));
        if let Some(workers) = config.workers {
            server = server.workers(workers.get());
        }
        // Signals are handled here, not by actix: open streams must be told to end first, or
        // a graceful stop waits for them (see `shut_down`).
        let server = server.disable_signals().listen(listener)?.run();
        let bind = &config.bind;
        tracing::info!(address = %format!("http://{bind}:{port}"), docs = %format!("http://{bind}:{port}/docs/"), office = %format!("http://{bind}:{port}/office/"), "arbiter is serving");
        Ok(Application {
            handle_signals: config.handle_signals,
            port,
            metrics_port,
            server,
            metrics_server,
            state,
        })
    }

    /// The port the service listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The port of the token-free metrics listener, when one was configured.
    pub fn metrics_port(&self) -> Option<u16> {
        self.metrics_port
    }

    /// The shared state the service runs with.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// A handle that stops the service (gracefully, or not).
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// Serves until the server stops (SIGINT/SIGTERM when the configuration handles signals,
    /// or [`shut_down`] through [`Application::handle`]); the metrics listener stops with it.
    pub async fn run_until_stopped(self) -> Result<()> {
        if self.handle_signals {
            let (state, handle) = (self.state.clone(), self.server.handle());
            tokio::spawn(async move {
                stop_signal().await;
                tracing::info!("stopping: open streams are ended, requests in flight finish");
                shut_down(&state, &handle).await;
            });
        }
        match self.metrics_server {
            Some(metrics_server) => {
                // Both servers are polled together: an actix server that is not polled
                // accepts connections but never answers them.
                let metrics_handle = metrics_server.handle();
                let main = async {
                    let outcome = self.server.await;
                    metrics_handle.stop(true).await;
                    outcome
                };
                let (outcome, _) = futures_util::future::join(main, metrics_server).await;
                self.state.followers.stop_all();
                outcome.context("the HTTP server failed")?;
            }
            None => {
                let outcome = self.server.await;
                self.state.followers.stop_all();
                outcome.context("the HTTP server failed")?;
            }
        }
        self.state.followers.stop_all();
        tracing::info!("arbiter stopped");
        Ok(())
    }
}

/// Stops a service gracefully and soon: its open streams are told to end (a client resumes
/// with `Last-Event-ID`), then the server stops accepting and lets the requests in flight
/// finish. What SIGTERM and SIGINT do.
pub async fn shut_down(state: &AppState, handle: &ServerHandle) {
    state.streams.close_all();
    state.followers.stop_all();
    handle.stop(true).await;
}

/// Resolves on SIGINT or SIGTERM.
async fn stop_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM; only SIGINT stops the service");
                let _ = interrupt.await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}

/// `arbiter serve`: the database as configured (or a private cluster), the service on it
/// until it is stopped, then the private cluster stopped.
pub async fn serve(config: &ServeConfig) -> Result<()> {
    let database = Database::open(&config.database).await?;
    let outcome = async {
        Application::build(config, &database.url)
            .await?
            .run_until_stopped()
            .await
    }
    .await;
    let closed = database.close();
    outcome?;
    closed
}

/// The store as the service works: `DATABASE_URL`'s user taking the service role.
async fn connect_service(url: &str, connections: u32, config: &ServeConfig) -> Result<Store> {
    let role = &config.service_role;
    Store::connect_as_service(url, connections, role)
        .await
        .with_context(|| {
            format!(
                "cannot connect to the database at {} as the role {role} (the role \
                 DATABASE_URL's user must be able to SET ROLE to)",
                redact(url)
            )
        })
}

/// Connects as `url`'s own user and applies pending migrations.
pub async fn migrate(url: &str) -> Result<Store> {
    let store = Store::connect(url, 2)
        .await
        .with_context(|| format!("cannot connect to the database at {}", redact(url)))?;
    store
        .migrate()
        .await
        .context("applying migrations failed")?;
    Ok(store)
}

/// The database to use: the given URL, or a private cluster started for the purpose.
pub struct Database {
    /// Where it is.
    pub url: String,
    cluster: Option<Cluster>,
}

impl Database {
    /// The configured database, or a private cluster started from the installed PostgreSQL
    /// (with an `arbiter` database in it).
    pub async fn open(config: &DatabaseConfig) -> Result<Database> {
        if let Some(url) = &config.database_url {
            return Ok(Database {
                url: url.clone(),
                cluster: None,
            });
        }
        let base = config.data_dir.clone().unwrap_or_else(default_data_dir);
        let cluster = tokio::task::spawn_blocking(move || Cluster::start(&base)).await??;
        Store::ensure_arbiter_database(&cluster.admin_url())
            .await
            .context("cannot create the `arbiter` database in the private cluster")?;
        Ok(Database {
            url: cluster.database_url(),
            cluster: Some(cluster),
        })
    }

    /// Stops the private cluster, if one was started.
    pub fn close(self) -> Result<()> {
        match self.cluster {
            Some(cluster) => cluster.stop(),
            None => Ok(()),
        }
    }
}

fn default_data_dir() -> PathBuf {
    if crate::ops::cluster::running_as_root() {
        return PathBuf::from("/var/lib/arbiter");
    }
    std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."))
        .join("arbiter")
}

/// The URL without a password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{}@{}", &url[..scheme + 3], user, &url[at + 1..])
        }
        _ => url.to_string(),
    }
}
