//! The Swagger UI at /docs/ still works in a real browser under the security headers
//! (`X-Content-Type-Options: nosniff` refuses scripts and styles served with a wrong type;
//! `Content-Security-Policy: frame-ancestors 'none'` must not block the page's own scripts).
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them and sets
//! `ARBITER_REQUIRE_BROWSER=1`, which makes their absence a failure).

use crate::support::TestDb;
use fantoccini::{ClientBuilder, Locator};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A chromedriver process, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts chromedriver on a free port; `None` when it is not installed.
fn start_driver() -> Option<Driver> {
    let port = TcpListener::bind("127.0.0.1:0")
        .ok()?
        .local_addr()
        .ok()?
        .port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let driver = Driver { child, port };
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(driver)
}

#[actix_web::test]
async fn the_swagger_ui_renders_every_operation_in_a_browser_under_the_security_headers() {
    let Some(driver) = start_driver() else {
        assert!(
            std::env::var_os("ARBITER_REQUIRE_BROWSER").is_none(),
            "chromedriver is not installed (apt-get install -y chromium chromium-driver)"
        );
        eprintln!(
            "skipped: chromedriver is not installed (apt-get install -y chromium chromium-driver)"
        );
        return;
    };
    let db = TestDb::new().await;
    let server = db.spawn_app(|_| {}).await;

    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({"args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run"
        ]}),
    );
    let browser = ClientBuilder::rustls()
        .expect("TLS roots")
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser session");
    browser
        .goto(&server.url("/docs/"))
        .await
        .expect("open /docs/");
    let operation = browser
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css(".opblock"))
        .await;
    let title = browser.title().await.unwrap_or_default();
    let operations = browser
        .find_all(Locator::Css(".opblock"))
        .await
        .map(|found| found.len())
        .unwrap_or(0);
    // The stylesheet applied (a sniffing refusal would leave the page unstyled).
    let styled = browser
        .execute(
            "return getComputedStyle(document.querySelector('.swagger-ui .opblock')).borderStyle;",
            vec![],
        )
        .await
        .ok();
    browser.close().await.ok();
    server.stop().await;
    assert!(
        operation.is_ok(),
        "the UI rendered no operation (title {title:?})"
    );
    assert!(operations >= 15, "{operations} operations rendered");
    assert_eq!(
        styled.as_ref().and_then(|s| s.as_str()),
        Some("solid"),
        "the Swagger UI's stylesheet applied"
    );
}
