//! The test support on a machine where no PostgreSQL server answers: it starts the private
//! cluster `arbiter serve` starts, and the cluster is stopped (and its directory removed)
//! when the process that started it exits.

use crate::support::{TestServer, answers};
use arbiter::store::Store;
use std::time::{Duration, Instant};

#[test]
fn with_no_server_answering_the_tests_run_on_a_private_cluster_stopped_when_the_run_ends() {
    // Nothing listens on port 1; the test run's process is played by a child we can end.
    let closed = "postgres://postgres@127.0.0.1:1/postgres";
    assert!(!answers(closed));
    let mut run = std::process::Command::new("sleep")
        .arg("600")
        .spawn()
        .expect("a stand-in for the test process");
    let server = TestServer::find(None, closed, run.id());
    let (cluster, dir) = server
        .cluster
        .as_ref()
        .expect("a private cluster was started");
    assert!(dir.join("pgdata/PG_VERSION").exists());
    assert!(answers(&server.admin_url), "{}", server.admin_url);

    // It is a server the tests can use: create a database, migrate it as the service needs.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let admin = Store::connect(&server.admin_url, 1).await.unwrap();
        sqlx::query("CREATE DATABASE arbiter_probe")
            .execute(admin.pool())
            .await
            .unwrap();
        let url = server.admin_url.replace("/postgres", "/arbiter_probe");
        let store = Store::connect(&url, 2).await.unwrap();
        store.migrate().await.expect("migrations apply");
        Store::connect_as_service(&url, 1, "arbiter_service")
            .await
            .expect("the service role exists");
        store.pool().close().await;
        admin.pool().close().await;
    });

    // The run ends: the watcher stops the cluster and removes its directory.
    run.kill().unwrap();
    run.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while (dir.exists() || answers(&server.admin_url)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(250));
    }
    assert!(
        !answers(&server.admin_url),
        "the cluster on port {} still answers",
        cluster.port()
    );
    assert!(!dir.exists(), "{} was not removed", dir.display());
}

#[test]
fn a_configured_server_is_used_as_it_is_and_an_answering_default_is_used_without_a_cluster() {
    let configured = TestServer::find(
        Some("postgres://someone@db.example:5432/postgres".into()),
        "postgres://postgres@127.0.0.1:1/postgres",
        std::process::id(),
    );
    assert_eq!(
        configured.admin_url,
        "postgres://someone@db.example:5432/postgres"
    );
    assert!(configured.cluster.is_none());
    let found = crate::support::admin_url();
    let again = TestServer::find(None, &found, std::process::id());
    assert_eq!(again.admin_url, found);
    assert!(again.cluster.is_none(), "an answering server is used");
}
