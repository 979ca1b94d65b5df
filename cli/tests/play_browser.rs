//! End to end in a real headless Chromium: open the `tde play` page, play a whole scenario by
//! clicking models, board cells, path points and option buttons as a player would, answer at
//! least one reaction prompt, and save a screenshot of the table.
//!
//! Needs Debian's `chromium` (`apt-get install -y chromium`; `.ci/run` installs it). Without
//! it the test says so and passes: set `TDE_REQUIRE_CHROMIUM=1` to make a missing browser an
//! error. `CHROMIUM=/path` picks another binary; `TDE_UPDATE_SCREENSHOT=1` also writes the
//! screenshot to `docs/play.png`.

mod common;

use common::Server;
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// The view the page last rendered (`window.tdeView`).
fn page_view(tab: &Tab) -> Value {
    let result = tab.evaluate("JSON.stringify(window.tdeView || null)", false).expect("evaluate");
    let text = result.value.and_then(|v| v.as_str().map(String::from)).unwrap_or_else(|| "null".into());
    serde_json::from_str(&text).expect("the view is JSON")
}

/// Wait until the page shows a version other than `version`.
fn wait_for_change(tab: &Tab, version: u64) -> Value {
    let start = Instant::now();
    loop {
        let view = page_view(tab);
        if view["version"].as_u64().is_some_and(|v| v != version) {
            return view;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "the page did not move on from version {version}");
        std::thread::sleep(Duration::from_millis(15));
    }
}

fn click(tab: &Tab, selector: &str) {
    tab.wait_for_element(selector).unwrap_or_else(|e| panic!("no `{selector}` on the page: {e}")).click().unwrap_or_else(|e| panic!("cannot click `{selector}`: {e}"));
}

#[test]
fn a_whole_scenario_is_played_by_clicking_in_chromium() {
    let Some(path) = chromium() else {
        let message = "no chromium found (apt-get install -y chromium, or set CHROMIUM=/path): browser test skipped";
        assert!(std::env::var_os("TDE_REQUIRE_CHROMIUM").is_none(), "{message}");
        eprintln!("{message}");
        return;
    };
    let server = Server::play(&["--bot", "random", "--scenario", "attack_and_defend", "--side", "B", "--seed", "21"]);
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .headless(true)
        .sandbox(false)
        .window_size(Some((1500, 950)))
        .idle_browser_timeout(Duration::from_secs(120))
        .build()
        .expect("launch options");
    let browser = Browser::new(options).expect("chromium starts");
    let tab = browser.new_tab().expect("a tab");
    tab.navigate_to(&format!("{}/", server.base)).unwrap().wait_until_navigated().unwrap();
    tab.wait_for_element("#board .model").expect("the board is drawn");
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut reactions = 0;
    let mut board_clicks = 0;
    let mut screenshot = None;
    let mut view = page_view(&tab);
    for _ in 0..20_000 {
        if !view["over"].is_null() {
            break;
        }
        let version = view["version"].as_u64().unwrap();
        let options = view["decision"]["options"].as_array().expect("the person decides").clone();
        let step = view["decision"]["step"].as_str().unwrap_or("").to_string();
        let reacts: Vec<&Value> = options.iter().filter(|o| o["kind"] == "react").collect();
        if step == "reaction" && !reacts.is_empty() && (reactions < 3 || rng.gen_bool(0.3)) {
            // Answer the prompt the way a player does: the reacting model, then its reaction.
            let o = reacts[rng.gen_range(0..reacts.len())];
            click(&tab, &format!("#board g.model[data-model=\"{}\"]", o["model"]));
            if screenshot.is_none() {
                screenshot = Some(());
                save_screenshot(&tab, &server, "reaction");
            }
            click(&tab, &format!("#decision .focus button.opt[data-i=\"{}\"]", o["i"]));
            reactions += 1;
        } else {
            let o = &options[rng.gen_range(0..options.len())];
            let on_board = o["cell"].is_array() && o["zone"].is_null();
            if step == "activation" && o["kind"] == "activate" {
                click(&tab, &format!("#board g.model[data-model=\"{}\"]", o["model"]));
            } else if on_board {
                let [x, y] = [&o["cell"][0], &o["cell"][1]];
                click(&tab, &format!("#board rect.target-cell[data-x=\"{x}\"][data-y=\"{y}\"]"));
                board_clicks += 1;
                if page_view(&tab)["version"].as_u64() == Some(version) {
                    // Several options on that cell (standing or prone): pick ours from the list.
                    click(&tab, &format!("#decision .focus button.opt[data-i=\"{}\"]", o["i"]));
                }
            } else {
                click(&tab, &format!("#decision button.opt[data-i=\"{}\"]", o["i"]));
            }
        }
        view = wait_for_change(&tab, version);
    }
    assert!(!view["over"].is_null(), "the game ended");
    assert!(reactions > 0, "a reaction prompt was answered");
    assert!(board_clicks > 0, "moves were made by clicking the board");
    let banner = tab.find_element("#over").unwrap().get_inner_text().unwrap();
    assert!(banner.contains("VP"), "the end banner gives the result: {banner}");
    save_screenshot(&tab, &server, "end");
}

fn save_screenshot(tab: &Tab, server: &Server, name: &str) {
    let png = tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true).expect("screenshot");
    assert!(png.len() > 10_000, "the screenshot has content");
    let dir = server.record.parent().unwrap().to_path_buf();
    let file = dir.join(format!("play_{name}.png"));
    std::fs::write(&file, &png).unwrap();
    eprintln!("screenshot: {}", file.display());
    if name == "reaction" && std::env::var_os("TDE_UPDATE_SCREENSHOT").is_some() {
        let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/play.png");
        std::fs::write(docs, &png).unwrap();
    }
}
