//! The test harness itself: what a failing test leaves behind.

use crate::support::{TestDb, admin_url};
use sqlx::postgres::PgPoolOptions;

#[test]
fn a_test_database_is_dropped_when_its_test_panics() {
    let (sender, names) = std::sync::mpsc::channel();
    let failed = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let db = TestDb::new().await;
            sender.send(db.name.clone()).expect("the name is sent");
            panic!("a test fails with its database open");
        })
    })
    .join();
    assert!(failed.is_err(), "the test failed");
    let name = names.recv().expect("the database was made");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let left: i64 = runtime.block_on(async {
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .connect(&admin_url())
            .await
            .expect("admin connection");
        sqlx::query_scalar("SELECT count(*) FROM pg_database WHERE datname = $1")
            .bind(&name)
            .fetch_one(&pool)
            .await
            .expect("count")
    });
    assert_eq!(left, 0, "{name} was left behind");
}
