//! End to end in a real headless Chromium: open the `tde encounter play --web` page, see the
//! board drawn as a labelled grid, click options with the mouse and see the log grow, pick out
//! a square's options by clicking it, and quit with the page's button.
//!
//! Needs Debian's `chromium` (`apt-get install -y chromium`). Without it the test says so and
//! passes: set `TDE_REQUIRE_CHROMIUM=1` to make a missing browser an error. `CHROMIUM=/path`
//! picks another binary; `TDE_UPDATE_SCREENSHOT=1` also writes the screenshot to
//! `docs/play-encounter.png`.

mod common;

use common::browser::{eval_json, launch, new_tab};
use common::{temp_dir, Server};
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::Tab;
use serde_json::Value;
use std::path::PathBuf;

/// Wait until `condition` (a JavaScript expression) holds, for at most a minute; fails on an
/// error the page shows.
fn wait_until(tab: &Tab, condition: &str) {
    let script = format!(
        r##"new Promise((resolve) => {{
            const start = performance.now();
            const check = () => {{
                const error = document.querySelector("#decision .error");
                if (error) return resolve(error.textContent);
                if (!document.body.classList.contains("busy") && ({condition})) return resolve(true);
                if (performance.now() - start > 60000) return resolve("not in a minute: " + {quoted});
                setTimeout(check, 5);
            }};
            check();
        }})"##,
        quoted = serde_json::to_string(condition).unwrap()
    );
    let answer = eval_json(tab, &script);
    assert_eq!(answer, Value::Bool(true), "{answer}");
}

/// Click the middle of `selector` with the mouse.
fn click(tab: &Tab, selector: &str) {
    tab.find_element(selector)
        .unwrap_or_else(|e| panic!("no `{selector}`: {e}"))
        .click()
        .unwrap_or_else(|e| panic!("cannot click `{selector}`: {e}"));
}

#[test]
fn the_encounter_is_played_by_clicking_options_in_chromium() {
    let Some(browser) = launch() else { return };
    let dir = temp_dir("encounter-browser");
    let record = dir.join("record.json");
    let server =
        Server::start(&["encounter", "play", "--web", "--seed", "9", "--record", record.to_str().unwrap()]);
    let tab = new_tab(&browser);
    tab.navigate_to(&format!("{}/", server.base)).unwrap().wait_until_navigated().unwrap();
    wait_until(&tab, "window.tdeView && document.querySelectorAll('#decision button.opt').length > 0");

    // The board: 10 × 8 squares with their axes labelled, every model drawn, the model deciding
    // ringed, and the prompt naming it.
    let board = eval_json(
        &tab,
        "({squares: document.querySelectorAll('#grid .sq').length,
          axes: [...document.querySelectorAll('#grid .axis')].map((a) => a.textContent),
          models: document.querySelectorAll('#grid .model').length,
          ringed: document.querySelector('#grid .model.active b')?.textContent,
          prompt: document.querySelector('#decision .prompt').textContent})",
    );
    assert_eq!(board["squares"], 80, "{board}");
    let axes: Vec<&str> = board["axes"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert_eq!(&axes[..11], ["y\\x", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"], "x across the top");
    assert!(axes.contains(&"7"), "y down the left");
    assert_eq!(board["models"], 9, "{board}");
    assert_eq!(board["ringed"], "0", "the first declarer, Brannoc (0), is ringed: {board}");
    assert!(board["prompt"].as_str().unwrap().contains("Brannoc to declare"), "{board}");

    // Click options until one with odds is offered; the log grows with every click.
    let mut seen_odds = false;
    let mut grown = false;
    for step in 0..200 {
        let before = eval_json(
            &tab,
            "({version: window.tdeView.version, log: document.querySelectorAll('#log li').length,
              n: window.tdeView.decision.options.length, phase: window.tdeView.phase})",
        );
        let options = before["n"].as_u64().unwrap();
        // The last option ends an activation or passes: the game moves on through its rounds.
        let pick = if step % 3 == 0 { 0 } else { options - 1 };
        click(&tab, &format!("#decision button.opt[data-i=\"{pick}\"]"));
        wait_until(&tab, &format!("window.tdeView.version !== {} || window.tdeView.over", before["version"]));
        let after = eval_json(
            &tab,
            "({log: document.querySelectorAll('#log li').length, over: window.tdeView.over})",
        );
        // A declaration stays hidden until both sides have declared; anything else is logged.
        if before["phase"] != "Declare" {
            assert!(after["log"].as_u64() > before["log"].as_u64(), "the log grows: {before} {after}");
        }
        grown |= after["log"].as_u64() > before["log"].as_u64();
        if !after["over"].is_null() {
            break;
        }
        let odds = eval_json(
            &tab,
            "[...document.querySelectorAll('#decision .opt')].filter((b) => b.querySelector('.odds')).map((b) =>
                [b.querySelector('.odds').textContent, window.tdeView.decision.options[+b.dataset.i].odds])",
        );
        if let Some(pair) = odds.as_array().unwrap().first() {
            assert_eq!(pair[0], pair[1], "the button shows the engine's odds");
            seen_odds = true;
            break;
        }
    }
    assert!(seen_odds, "an option with odds was offered");
    assert!(grown, "the log grew");

    // A square with options picks them out.
    if eval_json(&tab, "!!document.querySelector('#grid .sq.target')") == Value::Bool(true) {
        click(&tab, "#grid .sq.target");
        wait_until(&tab, "document.querySelector('#decision .opt.picked') !== null");
    }
    let png =
        tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true).expect("screenshot");
    assert!(png.len() > 10_000, "the screenshot has content");
    std::fs::write(dir.join("encounter.png"), &png).unwrap();
    if std::env::var_os("TDE_UPDATE_SCREENSHOT").is_some() {
        let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/play-encounter.png");
        let temp = docs.with_extension("png.tmp");
        std::fs::write(&temp, &png).unwrap();
        std::fs::rename(&temp, &docs).unwrap();
    }

    // Quit: the page says where the game is kept and how to resume it.
    click(&tab, "#quit");
    wait_until(&tab, "document.querySelector('#notice').textContent.includes('Resume with')");
    let notice = eval_json(&tab, "document.querySelector('#notice').textContent");
    assert!(notice.as_str().unwrap().contains(record.to_str().unwrap()), "{notice}");
}
