//! A phone-sized Debian Chromium driven through chromedriver (WebDriver, by `fantoccini`): the
//! players' view as a player's phone shows it. `.ci/run` installs chromium and chromium-driver.

use std::path::Path;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

/// A free local port.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Runs `run` in a headless Chromium at a phone's size (390×844 CSS pixels, pixel ratio 2),
/// its profile in `profile`; chromedriver is stopped afterwards, whatever happened. Panics with
/// the error `run` returns.
pub fn phone<T>(profile: &Path, run: impl AsyncFnOnce(Client) -> Result<T, String>) -> T {
    let port = free_port();
    let mut driver = crate::common::tool::command("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("chromedriver (Debian package chromium-driver; .ci/run installs it)");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let outcome = runtime.block_on(async {
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--window-size=390,844",
                    format!("--user-data-dir={}", profile.display()),
                ],
                "mobileEmulation": {
                    "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0, "touch": true},
                },
            }),
        );
        let started = Instant::now();
        let client = loop {
            match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(caps.clone())
                .connect(&format!("http://127.0.0.1:{port}"))
                .await
            {
                Ok(c) => break c,
                Err(e) if started.elapsed() > Duration::from_secs(20) => {
                    return Err(format!("no chromedriver session: {e}"));
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        };
        let out = run(client.clone()).await;
        let _ = client.close().await;
        out
    });
    let _ = driver.kill();
    let _ = driver.wait();
    outcome.unwrap_or_else(|e| panic!("{e}"))
}

/// The text of the page's `main`.
pub async fn main_text(c: &Client) -> Result<String, String> {
    c.find(Locator::Css("main"))
        .await
        .map_err(|e| e.to_string())?
        .text()
        .await
        .map_err(|e| e.to_string())
}

/// Waits (up to `within`) until the page's `main` holds `needle`; its text then.
pub async fn wait_for(c: &Client, needle: &str, within: Duration) -> Result<String, String> {
    let started = Instant::now();
    loop {
        // A page loading after a click has no `main` yet, or the one found goes stale.
        let text = main_text(c)
            .await
            .unwrap_or_else(|e| format!("(no page: {e})"));
        if text.contains(needle) {
            return Ok(text);
        }
        if started.elapsed() > within {
            return Err(format!("'{needle}' never showed: {text}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Chooses the option whose value is `value` in the select named `name`.
pub async fn choose(c: &Client, name: &str, value: &str) -> Result<(), String> {
    let select = c
        .find(Locator::Css(&format!("select[name='{name}']")))
        .await
        .map_err(|e| format!("no select {name}: {e}"))?;
    select
        .select_by_value(value)
        .await
        .map_err(|e| format!("{name} = {value}: {e}"))
}

/// Clicks the first element matching the CSS selector.
pub async fn click(c: &Client, css: &str) -> Result<(), String> {
    c.find(Locator::Css(css))
        .await
        .map_err(|e| format!("no {css}: {e}"))?
        .click()
        .await
        .map_err(|e| format!("clicking {css}: {e}"))
}
