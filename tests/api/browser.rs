//! Browser test support: the production app on a real port, and headless Chromium driven
//! through chromedriver (Debian's `chromium` and `chromium-driver`; `.ci/run` installs them
//! and sets `ARBITER_REQUIRE_BROWSER=1`, which makes their absence a failure rather than a
//! skipped test, as for the Swagger UI test).

use crate::support::{TestApp, TestDb};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The service as production builds it, serving a test database on 127.0.0.1 (a free port).
pub type Office = TestApp;

impl TestApp {
    /// Starts the service on `db` with the default configuration ([`TestDb::spawn_app`]).
    pub async fn start(db: &TestDb) -> TestApp {
        db.spawn_app(|_| {}).await
    }
}

/// Whether the browser tests can run: chromedriver is installed. When it is not, a test is
/// skipped (with a message), unless `ARBITER_REQUIRE_BROWSER` is set: then it fails.
pub fn available() -> bool {
    let installed = Command::new("chromedriver")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !installed {
        assert!(
            std::env::var_os("ARBITER_REQUIRE_BROWSER").is_none(),
            "chromedriver is not installed (apt-get install -y chromium chromium-driver)"
        );
        eprintln!(
            "skipped: chromedriver is not installed (apt-get install -y chromium chromium-driver)"
        );
    }
    installed
}

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> u16 {
    TcpListener::bind(("127.0.0.1", 0))
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free port")
}

/// A headless Chromium session.
pub struct Browser {
    pub client: Client,
    driver: Child,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a window of `width` × `height`.
    pub async fn open(width: u32, height: u32) -> Browser {
        let port = free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect(
                "chromedriver runs (Debian: apt-get install -y chromium chromium-driver; \
                 .ci/run installs them)",
            );
        let url = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        loop {
            if reqwest::get(format!("{url}/status")).await.is_ok() {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not answer on port {port}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut options = json!({
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--hide-scrollbars",
                format!("--window-size={width},{height}")
            ]
        });
        if std::path::Path::new("/usr/bin/chromium").exists() {
            options["binary"] = json!("/usr/bin/chromium");
        }
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("goog:chromeOptions".into(), options);
        let client = ClientBuilder::rustls()
            .expect("TLS set up")
            .capabilities(capabilities)
            .connect(&url)
            .await
            .expect("a Chromium session");
        client
            .set_window_size(width, height)
            .await
            .expect("window size");
        Browser { client, driver }
    }

    /// Signs in at `office` with `token` and lands on the events page.
    pub async fn sign_in(&self, office: &Office, token: &str) {
        self.client
            .goto(&office.url("/office/"))
            .await
            .expect("open the office");
        let field = self
            .client
            .wait()
            .for_element(Locator::Id("token"))
            .await
            .expect("the sign-in form");
        field.send_keys(token).await.expect("type the token");
        self.click(Locator::Css("form button[type=submit]")).await;
        self.client
            .wait()
            .for_element(Locator::Css("header.top nav"))
            .await
            .expect("signed in");
    }

    /// Clicks an element. Live pages (the round floor, the desk) may draw an element again
    /// between finding and clicking it: a stale element is found again, a few times.
    pub async fn click(&self, locator: Locator<'_>) {
        for attempt in 1..=5 {
            let element = self
                .client
                .find(locator)
                .await
                .unwrap_or_else(|e| panic!("find {locator:?}: {e}"));
            match element.click().await {
                Ok(()) => return,
                Err(e) if attempt < 5 && e.to_string().contains("stale element") => {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("click {locator:?}: {e}"),
            }
        }
    }

    /// Types into a field (clearing it first).
    pub async fn fill(&self, locator: Locator<'_>, text: &str) {
        let field = self
            .client
            .find(locator)
            .await
            .unwrap_or_else(|e| panic!("find {locator:?}: {e}"));
        field.clear().await.expect("clear");
        field.send_keys(text).await.expect("type");
    }

    /// Chooses an option of a select by its value.
    pub async fn choose(&self, locator: Locator<'_>, value: &str) {
        self.client
            .find(locator)
            .await
            .unwrap_or_else(|e| panic!("find {locator:?}: {e}"))
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("choose {value} in {locator:?}: {e}"));
    }

    /// The text of the first element matching `locator` (as rendered). A page whose script
    /// replaces the element between finding it and reading it (the floor's rows when the
    /// round's stream reports an event) is read again, up to a few times.
    pub async fn text(&self, locator: Locator<'_>) -> String {
        let mut attempts = 0;
        loop {
            let element = self
                .client
                .find(locator)
                .await
                .unwrap_or_else(|e| panic!("find {locator:?}: {e}"));
            match element.text().await {
                Ok(text) => return text,
                Err(fantoccini::error::CmdError::Standard(error))
                    if error.error == fantoccini::error::ErrorStatus::StaleElementReference
                        && attempts < 5 =>
                {
                    attempts += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(error) => panic!("text of {locator:?}: {error}"),
            }
        }
    }

    /// The text of the first element matching `css` as the page holds it now, read in one
    /// step (no stale element when a script replaces it meanwhile); `None` when absent.
    pub async fn text_now(&self, css: &str) -> Option<String> {
        self.client
            .execute(
                "const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
                vec![Value::String(css.to_string())],
            )
            .await
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
    }

    /// Waits until the page shows an element matching `css`.
    pub async fn wait_for(&self, css: &str) -> fantoccini::elements::Element {
        self.client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("waiting for {css}: {e}"))
    }

    /// The page's HTML.
    pub async fn source(&self) -> String {
        self.client.source().await.expect("page source")
    }

    /// The value of the session cookie.
    pub async fn session_cookie(&self) -> String {
        self.client
            .get_named_cookie("arbiter_session")
            .await
            .expect("the session cookie")
            .value()
            .to_string()
    }

    /// Saves a screenshot of the viewport under `docs/screens/NAME.png` when
    /// `ARBITER_SCREENSHOTS=1`, so that test runs do not rewrite the committed images; with
    /// `full`, the window is first stretched to the page's height.
    pub async fn screenshot(&self, name: &str, width: u32, height: u32, full: bool) {
        if std::env::var("ARBITER_SCREENSHOTS").as_deref() != Ok("1") {
            return;
        }
        let mut shot_height = height;
        self.client
            .set_window_size(width, height)
            .await
            .expect("window size");
        if full {
            let page_height = self
                .client
                .execute("return document.documentElement.scrollHeight;", vec![])
                .await
                .ok()
                .and_then(|v: Value| v.as_u64())
                .unwrap_or(u64::from(height));
            shot_height = u32::try_from(page_height)
                .unwrap_or(height)
                .clamp(height, 6000);
        }
        self.client
            .set_window_size(width, shot_height)
            .await
            .expect("window size");
        tokio::time::sleep(Duration::from_millis(300)).await;
        let png = self.client.screenshot().await.expect("screenshot");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screens");
        std::fs::create_dir_all(&dir).expect("docs/screens");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("write the screenshot");
        self.client
            .set_window_size(width, height)
            .await
            .expect("window size");
    }

    /// Saves the page as printed (print media, an A4-wide window) under
    /// `docs/screens/NAME.png` when `ARBITER_SCREENSHOTS=1`.
    pub async fn print_screenshot(&self, name: &str) {
        if std::env::var("ARBITER_SCREENSHOTS").as_deref() != Ok("1") {
            return;
        }
        let media = |media: &'static str| ChromeDevTools {
            command: "Emulation.setEmulatedMedia",
            params: json!({ "media": media }),
        };
        self.client
            .issue_cmd(media("print"))
            .await
            .expect("print media");
        // 210 mm at 96 dpi, the width of an A4 page.
        self.screenshot(name, 794, 1123, true).await;
        self.client
            .issue_cmd(media(""))
            .await
            .expect("screen media");
    }

    pub async fn close(mut self) {
        let _ = self.client.clone().close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
    }
}

/// A Chrome DevTools command sent through chromedriver (`goog/cdp/execute`).
#[derive(Debug)]
struct ChromeDevTools {
    command: &'static str,
    params: Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for ChromeDevTools {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({ "cmd": self.command, "params": self.params }).to_string()),
        )
    }
}
