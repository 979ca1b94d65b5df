//! Headless Chromium for the browser tests: started (or the test skipped where there is none),
//! a tab that answers at once, and JavaScript run in the page.
//!
//! Needs Debian's `chromium` (`apt-get install -y chromium`). Without it a test says so and
//! passes: set `TDE_REQUIRE_CHROMIUM=1` to make a missing browser an error. `CHROMIUM=/path`
//! picks another binary.

use headless_chrome::protocol::cdp::Page::AddScriptToEvaluateOnNewDocument;
use headless_chrome::protocol::cdp::Runtime;
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The Chromium binary: `CHROMIUM`, else the first of the usual paths that exists.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// Chromium started headless, or `None` (the test is then skipped) when there is none and
/// `TDE_REQUIRE_CHROMIUM` is not set.
pub fn launch() -> Option<Browser> {
    launch_sized(1500, 950)
}

/// [`launch`] with a window of `width` × `height` pixels.
pub fn launch_sized(width: u32, height: u32) -> Option<Browser> {
    let Some(path) = chromium() else {
        let message =
            "no chromium found (apt-get install -y chromium, or set CHROMIUM=/path): browser test skipped";
        assert!(std::env::var_os("TDE_REQUIRE_CHROMIUM").is_none(), "{message}");
        eprintln!("{message}");
        return None;
    };
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .headless(true)
        .sandbox(false)
        .window_size(Some((width, height)))
        .idle_browser_timeout(Duration::from_secs(120))
        .build()
        .expect("launch options");
    Some(Browser::new(options).expect("chromium starts"))
}

/// A new tab of `browser` whose commands are answered at once. The test's connection to the
/// browser (headless_chrome's) holds its socket while it waits up to 100 ms for a message, so
/// each command the test sends waits that long unless a message arrives meanwhile; the page's
/// heartbeat (a console event every 4 ms, in every document the tab loads) keeps messages
/// arriving, and a command is answered in milliseconds.
pub fn new_tab(browser: &Browser) -> Arc<Tab> {
    let tab = browser.new_tab().expect("a tab");
    tab.call_method(AddScriptToEvaluateOnNewDocument {
        source: "setInterval(() => console.debug(''), 4);".into(),
        world_name: None,
        include_command_line_api: None,
        run_immediately: None,
    })
    .expect("the heartbeat is installed");
    tab.call_method(Runtime::Enable(None)).expect("console events are reported");
    tab
}

/// Run `body` (a JavaScript expression, awaited) in the page and parse the JSON of its value.
pub fn eval_json(tab: &Tab, body: &str) -> Value {
    let expression = format!("(async () => JSON.stringify(await ({body})))()");
    let result =
        tab.evaluate(&expression, true).unwrap_or_else(|e| panic!("the page cannot run {body}: {e}"));
    let text = result.value.and_then(|v| v.as_str().map(String::from)).unwrap_or_else(|| "null".into());
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}
