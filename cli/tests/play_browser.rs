//! End to end in a real headless Chromium: open the `tde play` page, play a whole scenario by
//! clicking models, board cells, path points and option buttons with the mouse as a player
//! would, answer reaction prompts, ask for the bot's advice, reload the page mid-game, and save
//! screenshots of the table; and step forward and back through a record with `tde view`.
//!
//! Needs Debian's `chromium` (`apt-get install -y chromium`; `.ci/run` installs it). Without
//! it the test says so and passes: set `TDE_REQUIRE_CHROMIUM=1` to make a missing browser an
//! error. `CHROMIUM=/path` picks another binary; `TDE_UPDATE_SCREENSHOT=1` also writes the
//! screenshot to `docs/play.png`.

mod common;

use common::browser::{eval_json, launch, launch_sized, new_tab};
use common::Server;
use engine::record::{format_hash, GameRecord};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::state::Step;
use engine::{Action, GameState, Player};
use headless_chrome::protocol::cdp::Emulation::SetTouchEmulationEnabled;
use headless_chrome::protocol::cdp::Input::{
    DispatchMouseEvent, DispatchMouseEventTypeOption, DispatchTouchEvent, DispatchTouchEventTypeOption,
    MouseButton, TouchPoint,
};
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, Tab};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What the test reads of a view: the version, the end, the decision's step and options (what
/// each is about), the length of the enemy's declared path.
const SUMMARY: &str = "((v) => v && {
    version: v.version,
    over: v.over,
    path: v.sequence ? v.sequence.path.length : 0,
    decision: v.decision && {
        step: v.decision.step,
        options: v.decision.options.map((o) => ({
            i: o.i, kind: o.kind, cell: o.cell ?? null, model: o.model ?? null,
            point: o.point ?? null, zone: o.zone ?? null,
        })),
    },
})";

/// The view the page last rendered (`window.tdeView`), summarised.
fn page_view(tab: &Tab) -> Value {
    eval_json(tab, &format!("{SUMMARY}(window.tdeView)"))
}

/// Wait until the bot's candidates are listed (or an error is shown): `true` when listed.
const WAIT_FOR_ADVICE: &str = "new Promise((resolve) => {
    const start = performance.now();
    const check = () => {
        if (document.querySelector('#advice ol.advice li')) return resolve(true);
        const error = document.querySelector('#advice .error');
        if (error) return resolve(error.textContent);
        if (performance.now() - start > 30000) return resolve('no advice in 30 s');
        setTimeout(check, 5);
    };
    check();
})";

/// What the page did after a click.
enum After {
    /// It shows a new version of the game (the view).
    Moved(Value),
    /// It shows the option list the click selected, with `then` in it, and waits.
    Listed,
}

/// Wait until the page shows a version other than `version`, or (when `then` is given) lists
/// that option for the cell or model just clicked; fails on an error shown by the page.
fn wait_for_page(tab: &Tab, version: u64, then: Option<&str>) -> After {
    let then = serde_json::to_string(&then).unwrap();
    let script = format!(
        r##"new Promise((resolve) => {{
            const start = performance.now();
            const check = () => {{
                const v = window.tdeView;
                const busy = document.body.classList.contains("busy");
                const error = document.querySelector("#decision .error");
                if (error) return resolve({{error: error.textContent}});
                if (!busy && v && v.version !== {version}) return resolve({{view: {SUMMARY}(v)}});
                if (!busy && {then} && document.querySelector({then})) return resolve({{listed: true}});
                if (performance.now() - start > 60000) return resolve({{error: "nothing happened in a minute"}});
                setTimeout(check, 5);
            }};
            check();
        }})"##
    );
    let answer = eval_json(tab, &script);
    if let Some(error) = answer["error"].as_str() {
        panic!("at version {version}: {error}");
    }
    match answer.get("view") {
        Some(view) => After::Moved(view.clone()),
        None => After::Listed,
    }
}

/// The middle of the element `selector` in the window, scrolled into view. The element must be
/// what the browser hits there (or, when given, an element matching `or_under`: a model
/// standing on a highlighted cell).
fn point_of(tab: &Tab, selector: &str, or_under: Option<&str>) -> (f64, f64) {
    let script = format!(
        r#"(() => {{
            const e = document.querySelector({sel});
            if (!e) return "there is none";
            e.scrollIntoView({{block: "center", inline: "nearest"}});
            const r = e.getBoundingClientRect();
            const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
            const hit = document.elementFromPoint(x, y);
            const cover = {under} && hit && hit.closest({under});
            if (hit && (e.contains(hit) || cover)) return [x, y];
            return "it is covered by " + (hit ? hit.outerHTML.slice(0, 120) : "nothing");
        }})()"#,
        sel = serde_json::to_string(selector).unwrap(),
        under = serde_json::to_string(&or_under).unwrap(),
    );
    let at = eval_json(tab, &script);
    let (Some(x), Some(y)) = (at[0].as_f64(), at[1].as_f64()) else {
        panic!("cannot reach `{selector}`: {at}");
    };
    (x, y)
}

/// The pointer resting a moment: two frames drawn (the hover effects), then 80 ms, more than
/// the page's 60 ms before it asks the server what the cell under the pointer sees.
const REST: &str =
    "new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(true), 80))))";

/// Click the middle of the element `selector` with the mouse, as a person does (see
/// [`point_of`]).
fn click(tab: &Tab, selector: &str, or_under: Option<&str>) {
    // A person points first: the pointer rests on the element (its hover effects drawn, and
    // longer than the page waits before it asks what a cell under the pointer sees), and the
    // click lands where the element is then.
    let (x, y) = point_of(tab, selector, or_under);
    move_mouse(tab, x, y, selector);
    eval_json(tab, REST);
    let (x, y) = point_of(tab, selector, or_under);
    for kind in [DispatchMouseEventTypeOption::MousePressed, DispatchMouseEventTypeOption::MouseReleased] {
        mouse(tab, kind, x, y, true).unwrap_or_else(|e| panic!("cannot click `{selector}`: {e}"));
    }
}

/// Click `selector`, then, if the page lists options rather than moving on, option `i` in
/// the list; returns the new view.
fn click_then_option(tab: &Tab, version: u64, selector: &str, or_under: Option<&str>, i: &Value) -> Value {
    click(tab, selector, or_under);
    let listed = format!("#decision .focus button.opt[data-i=\"{i}\"]");
    match wait_for_page(tab, version, Some(&listed)) {
        After::Moved(view) => view,
        After::Listed => {
            click(tab, &listed, None);
            match wait_for_page(tab, version, None) {
                After::Moved(view) => view,
                After::Listed => unreachable!("waiting for a new version only"),
            }
        }
    }
}

#[test]
fn stepping_through_a_record_in_chromium() {
    let Some(browser) = launch() else { return };
    let dir = common::temp_dir("browser-view");
    let record = dir.join("demo.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tde"))
        .args(["demo", "--json", "--seed", "4", "--scenario", "assassinate", "--record"])
        .arg(&record)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let server = Server::start(&["view", record.to_str().unwrap()]);
    let tab = new_tab(&browser);
    tab.navigate_to(&format!("{}/", server.base)).unwrap().wait_until_navigated().unwrap();
    tab.wait_for_element("#where").unwrap();
    let at = |tab: &Tab| eval_json(tab, "window.tdeView.at");
    let wait_at = |tab: &Tab, expected: u64| {
        let script = format!(
            "new Promise((resolve) => {{
                const start = performance.now();
                const check = () => {{
                    if (window.tdeView && window.tdeView.at === {expected}) return resolve(true);
                    if (performance.now() - start > 10000) return resolve(window.tdeView && window.tdeView.at);
                    setTimeout(check, 5);
                }};
                check();
            }})"
        );
        assert_eq!(eval_json(tab, &script), Value::Bool(true), "the page steps to {expected}");
    };
    assert_eq!(at(&tab), 0, "a record opens at its start");
    for expected in 1..=3 {
        click(&tab, "#forward", None);
        wait_at(&tab, expected);
    }
    click(&tab, "#back", None);
    wait_at(&tab, 2);
    let next = eval_json(&tab, "document.querySelector('#decision').textContent");
    assert!(next.as_str().is_some_and(|t| t.contains("Next:")), "the page says what comes next: {next}");
    click(&tab, "#last", None);
    let end = eval_json(&tab, "window.tdeView.version").as_u64().unwrap();
    wait_at(&tab, end);
    let banner = eval_json(&tab, "document.querySelector('#over').textContent");
    assert!(
        banner.as_str().is_some_and(|t| t.contains("VP")),
        "the end of the record gives the result: {banner}"
    );
    click(&tab, "#first", None);
    wait_at(&tab, 0);
}

#[test]
fn a_whole_scenario_is_played_by_clicking_in_chromium() {
    let Some(browser) = launch() else { return };
    let server = Server::play(&[
        "--bot",
        "mcts:iters=20,depth=4",
        "--scenario",
        "attack_and_defend",
        "--side",
        "B",
        "--seed",
        "21",
    ]);
    let tab = new_tab(&browser);
    tab.navigate_to(&format!("{}/", server.base)).unwrap().wait_until_navigated().unwrap();
    tab.wait_for_element("#status .pill.now").expect("the page shows whose decision it is");
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let (mut reactions, mut points_clicked, mut board_clicks, mut decisions) = (0, 0, 0, 0);
    let (mut reloaded, mut screenshot) = (false, false);
    let mut view = page_view(&tab);
    while view["over"].is_null() {
        decisions += 1;
        assert!(decisions < 5_000, "the game did not end");
        let version = view["version"].as_u64().unwrap();
        let options = view["decision"]["options"].as_array().expect("the person decides").clone();
        let step = view["decision"]["step"].as_str().unwrap_or("").to_string();
        let reacts: Vec<&Value> = options.iter().filter(|o| o["kind"] == "react").collect();
        if step == "reaction" && !reacts.is_empty() && (reactions < 3 || rng.gen_bool(0.3)) {
            // Answer the prompt the way a player does: pick the point of the enemy's path (or
            // the reacting model), see the reactions there with their odds, click one.
            let o = reacts[rng.gen_range(0..reacts.len())];
            let has_path = view["path"].as_u64().is_some_and(|n| n > 0);
            let (what, under) = if has_path && (points_clicked == 0 || reactions % 2 == 0) {
                points_clicked += 1;
                // The start of the path is under the enemy's mover, which picks it too.
                (format!("#board circle.pt.offered[data-point=\"{}\"]", o["point"]), Some("#board g.model"))
            } else {
                (format!("#board g.model[data-model=\"{}\"] circle.hit", o["model"]), None)
            };
            click(&tab, &what, under);
            let listed = format!("#decision .focus button.opt[data-i=\"{}\"]", o["i"]);
            assert!(
                matches!(wait_for_page(&tab, version, Some(&listed)), After::Listed),
                "{what} lists the reactions"
            );
            if !screenshot && (view["path"].as_u64() >= Some(3) || reactions == 2) {
                // Ask the bot what it would do, and keep the picture of the whole prompt.
                click(&tab, "#ask", None);
                let shown = eval_json(&tab, WAIT_FOR_ADVICE);
                assert_eq!(shown, Value::Bool(true), "the bot's candidates are shown");
                save_screenshot(&tab, &server, "reaction");
                screenshot = true;
            }
            click(&tab, &listed, None);
            let After::Moved(next) = wait_for_page(&tab, version, None) else { unreachable!() };
            view = next;
            reactions += 1;
        } else {
            // A kind of option first (move, shoot, end the activation...), then one of that kind:
            // a person does not spend the game walking about. Half the time the activation ends
            // or the nested action is skipped where it may be, which keeps the test short.
            let mut kinds: Vec<&Value> = options.iter().map(|o| &o["kind"]).collect();
            kinds.dedup();
            let quick =
                kinds.iter().find(|k| ["end_activation", "no_nested"].contains(&k.as_str().unwrap_or("")));
            let kind = match quick {
                Some(k) if rng.gen_bool(0.5) => k,
                _ => kinds[rng.gen_range(0..kinds.len())],
            };
            let of_kind: Vec<&Value> = options.iter().filter(|o| &o["kind"] == kind).collect();
            let o = of_kind[rng.gen_range(0..of_kind.len())];
            let on_board = o["cell"].is_array() && o["zone"].is_null();
            view = if step == "activation" && o["kind"] == "activate" {
                let what = format!("#board g.model[data-model=\"{}\"] circle.hit", o["model"]);
                click_then_option(&tab, version, &what, None, &o["i"])
            } else if on_board {
                board_clicks += 1;
                let [x, y] = [&o["cell"][0], &o["cell"][1]];
                let what = format!("#board rect.target-cell[data-x=\"{x}\"][data-y=\"{y}\"]");
                click_then_option(&tab, version, &what, Some("#board g.model"), &o["i"])
            } else {
                click(&tab, &format!("#decision button.opt[data-i=\"{}\"]", o["i"]), None);
                let After::Moved(next) = wait_for_page(&tab, version, None) else { unreachable!() };
                next
            };
        }
        if !reloaded && reactions > 0 && view["over"].is_null() {
            // A game in progress survives a reload: same version, same decision.
            reloaded = true;
            tab.reload(true, None).unwrap().wait_until_navigated().unwrap();
            tab.wait_for_element("#status .pill.now").unwrap();
            let again = page_view(&tab);
            assert_eq!(again["version"], view["version"], "the reloaded page shows the same game");
            assert_eq!(again["decision"], view["decision"]);
            view = again;
        }
    }
    eprintln!("{decisions} decisions, {reactions} reactions ({points_clicked} at path points), {board_clicks} board clicks");
    assert!(!view["over"].is_null(), "the game ended");
    assert!(reactions > 0, "a reaction prompt was answered");
    assert!(points_clicked > 0, "a reaction was chosen at a point of the enemy's path");
    assert!(screenshot, "the reaction prompt was photographed");
    assert!(board_clicks > 0, "moves were made by clicking the board");
    let banner = tab.find_element("#over").unwrap().get_inner_text().unwrap();
    assert!(banner.contains("VP"), "the end banner gives the result: {banner}");
    save_screenshot(&tab, &server, "end");
}

/// Open the page of `server` in a new tab and wait until it shows whose decision it is.
fn open(browser: &Browser, server: &Server) -> std::sync::Arc<Tab> {
    let tab = new_tab(browser);
    tab.navigate_to(&format!("{}/", server.base)).unwrap().wait_until_navigated().unwrap();
    tab.wait_for_element("#status .pill.now").expect("the page shows whose decision it is");
    tab
}

/// Wait until `condition` (a JavaScript expression) is true in the page, up to a minute; the
/// value it had last otherwise.
fn wait_until(tab: &Tab, condition: &str) -> Value {
    let script = format!(
        "new Promise((resolve) => {{
            const start = performance.now();
            const check = () => {{
                let ok = false;
                try {{ ok = ({condition}); }} catch (e) {{}}
                if (ok) return resolve(true);
                if (performance.now() - start > 60000) return resolve('not within a minute: {}');
                setTimeout(check, 10);
            }};
            check();
        }})",
        condition.replace('\'', "")
    );
    eval_json(tab, &script)
}

/// Take the first option of the page's decision the way a person does: a place on the board
/// by clicking its cell, an activation by clicking the model, anything else by its button.
fn take_first(tab: &Tab, view: &Value) -> Value {
    let version = view["version"].as_u64().unwrap();
    let o = &view["decision"]["options"][0];
    if o["cell"].is_array() && o["zone"].is_null() {
        let what =
            format!("#board rect.target-cell[data-x=\"{}\"][data-y=\"{}\"]", o["cell"][0], o["cell"][1]);
        click_then_option(tab, version, &what, Some("#board g.model"), &o["i"])
    } else if o["kind"] == "activate" {
        click_then_option(
            tab,
            version,
            &format!("#board g.model[data-model=\"{}\"] circle.hit", o["model"]),
            None,
            &o["i"],
        )
    } else {
        click(tab, &format!("#decision button.opt[data-i=\"{}\"]", o["i"]), None);
        let After::Moved(next) = wait_for_page(tab, version, None) else { unreachable!() };
        next
    }
}

/// Over the API, play on from the current decision (first the quick options: end the
/// activation, no nested action; else a seeded random one) until an `action` decision
/// offers a move, a shot or a charge some enemy model answers in the samples of `/api/risk`;
/// returns that option's index.
fn play_until_an_answered_attack(server: &Server, seed: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut view = server.get("/api/state").ok();
    for _ in 0..3000 {
        assert!(view["over"].is_null(), "the game ended before an attack could be answered");
        let version = view["version"].as_u64().unwrap();
        let options = view["decision"]["options"].as_array().unwrap().clone();
        if view["decision"]["step"] == "action" {
            let attacks =
                options.iter().filter(|o| ["shoot", "charge"].contains(&o["kind"].as_str().unwrap_or("")));
            let moves = options.iter().filter(|o| o["kind"] == "move").step_by(7).take(6);
            for o in attacks.chain(moves) {
                let risk =
                    server.post("/api/risk", serde_json::json!({"version": version, "index": o["i"]})).ok();
                if risk["reactors"].as_array().is_some_and(|r| !r.is_empty()) {
                    return o["i"].as_u64().unwrap();
                }
            }
        }
        // Move towards the fight: moves and activations rather than ending at once.
        let kinds = ["move", "activate", "charge", "shoot"];
        let good: Vec<&Value> =
            options.iter().filter(|o| kinds.contains(&o["kind"].as_str().unwrap_or(""))).collect();
        let pick = if !good.is_empty() && rng.gen_bool(0.8) {
            good[rng.gen_range(0..good.len())]["i"].as_u64().unwrap()
        } else {
            rng.gen_range(0..options.len()) as u64
        };
        view = server.post("/api/action", serde_json::json!({"version": version, "index": pick})).ok();
    }
    panic!("no attack an enemy answers in 3000 decisions");
}

#[test]
fn risk_with_the_enemys_answers_fresh_advice_and_the_layout_at_1366x768_in_chromium() {
    let Some(browser) = launch_sized(1366, 768) else { return };
    let server = Server::play(&["--bot", "greedy", "--scenario", "skirmish", "--seed", "41"]);
    let index = play_until_an_answered_attack(&server, 41);
    let tab = open(&browser, &server);
    let view = page_view(&tab);
    let version = view["version"].as_u64().unwrap();
    let option = eval_json(&tab, &format!("window.tdeView.decision.options[{index}]"));
    let target = &option["target"];

    // The layout: nothing wider than the window, the prompt's title and the board in sight,
    // models big enough to read.
    let layout = eval_json(
        &tab,
        "(() => {
            const r = (s) => document.querySelector(s).getBoundingClientRect();
            const body = document.querySelector('#board g.model .body').getBoundingClientRect();
            return { width: innerWidth, height: innerHeight, scroll: document.documentElement.scrollWidth,
                board: r('#board'), title: r('#decision h2'), side: r('#side'), model: body.width };
        })()",
    );
    assert!(layout["scroll"].as_f64() <= layout["width"].as_f64(), "no sideways scrolling: {layout}");
    assert!(
        layout["board"]["right"].as_f64() <= layout["side"]["left"].as_f64(),
        "board beside the panel: {layout}"
    );
    assert!(
        layout["board"]["bottom"].as_f64().unwrap() <= layout["height"].as_f64().unwrap() + 1.0,
        "the whole board in sight: {layout}"
    );
    assert!(
        layout["title"]["top"].as_f64().unwrap() >= 0.0
            && layout["title"]["bottom"].as_f64() <= layout["height"].as_f64(),
        "the prompt's title in sight: {layout}"
    );
    assert!(layout["model"].as_f64().unwrap() >= 14.0, "a model is at least 14 px across: {layout}");
    // Every model, rings, AP pips and wound bar included, lies within the board's picture: no
    // base is cut off at the edge.
    let clipped = eval_json(
        &tab,
        "(() => {
            const b = document.querySelector('#board').getBoundingClientRect();
            return [...document.querySelectorAll('#board g.model')].filter((g) => {
                const r = g.getBoundingClientRect();
                return r.left < b.left - 0.5 || r.top < b.top - 0.5 || r.right > b.right + 0.5 || r.bottom > b.bottom + 0.5;
            }).map((g) => g.dataset.model);
        })()",
    );
    assert_eq!(clipped, serde_json::json!([]), "models cut off at the board's edge");

    // The risk: pick the target (or the place); its options show the odds with the enemy's
    // answers.
    if target.is_null() {
        let what = format!(
            "#board rect.target-cell[data-x=\"{}\"][data-y=\"{}\"]",
            option["cell"][0], option["cell"][1]
        );
        click(&tab, &what, Some("#board g.model"));
    } else {
        click(&tab, &format!("#board g.model[data-model=\"{target}\"] circle.hit"), None);
    }
    let listed = format!("#decision .focus button.opt[data-i=\"{index}\"] .risk b");
    assert_eq!(
        wait_until(&tab, &format!("document.querySelector('{listed}')")),
        Value::Bool(true),
        "the risk line is shown for {option}: {}",
        eval_json(&tab, "document.querySelector('#decision').textContent.slice(0, 1500)")
    );
    let line = eval_json(
        &tab,
        &format!("document.querySelector('#decision .focus button.opt[data-i=\"{index}\"]').textContent"),
    );
    let line = line.as_str().unwrap().to_string();
    assert!(
        line.contains("If the enemy answers as the bot would")
            && line.contains("may answer:")
            && line.contains("AP"),
        "{line}"
    );
    if !target.is_null() || option["dynamic"] == true {
        assert!(
            line.contains("needs Pass")
                || line.contains("needs Nailed It")
                || line.contains("reaches the cell on a"),
            "the level needed is named: {line}"
        );
        assert!(
            ["Marksmanship", "Close Combat", "Agility"].iter().any(|a| line.contains(a)),
            "the attribute is named: {line}"
        );
    }
    assert!(
        eval_json(&tab, "document.querySelectorAll('#board line.threat').length").as_u64() > Some(0),
        "the threat is drawn"
    );
    // Pointing at a cell (the option's, else where its target stands) shows who sees it, from
    // cover or not, and who could shoot or charge it.
    let spot = eval_json(
        &tab,
        "(() => {
            const free = (x, y) => !window.tdeView.models.some((m) => m.on_table && m.at[0] === x && m.at[1] === y);
            const o = window.tdeView.decision.options.find((o) => o.kind === 'move' && free(o.cell[0], o.cell[1]));
            return o ? o.cell : null;
        })()",
    );
    assert!(spot.is_array(), "a free cell to move to");
    hover(&tab, &format!("#board rect.target-cell[data-x=\"{}\"][data-y=\"{}\"]", spot[0], spot[1]));
    assert_eq!(
        wait_until(&tab, "document.querySelector('#sight').textContent.includes('could shoot it')"),
        Value::Bool(true),
        "the sight overlay of the cell is shown"
    );
    let sight = eval_json(&tab, "document.querySelector('#sight').textContent").as_str().unwrap().to_string();
    assert!(sight.contains(&format!("({},{})", spot[0], spot[1])), "{sight}");
    let lines = eval_json(&tab, "document.querySelectorAll('#board .sight-line').length").as_u64().unwrap();
    let seeing = sight.matches("sees it").count() as u64;
    assert!(lines >= seeing, "a line from each enemy that sees the cell: {lines} lines, {sight}");
    save_screenshot(&tab, &server, "risk");

    // Advice belongs to one decision: asked here, gone when the game moves on.
    click(&tab, "#ask", None);
    assert_eq!(eval_json(&tab, WAIT_FOR_ADVICE), Value::Bool(true), "the bot's candidates are shown");
    let advice = eval_json(&tab, "document.querySelector('#advice').textContent");
    assert!(
        advice.as_str().is_some_and(|t| t.contains("you win") && t.contains(&format!("step {version}"))),
        "advice with reasons: {advice}"
    );
    click(&tab, &format!("#decision .focus button.opt[data-i=\"{index}\"]"), None);
    let After::Moved(next) = wait_for_page(&tab, version, None) else { unreachable!() };
    let left = eval_json(&tab, "document.querySelector('#advice').textContent");
    assert_eq!(left, Value::String(String::new()), "no stale advice after the step");
    // Kept on, the advice is asked again at each decision, about that decision.
    if next["over"].is_null() {
        click(&tab, "#keep-advising", None);
        let now = next["version"].as_u64().unwrap();
        let fresh = format!("document.querySelector('#advice h3') && document.querySelector('#advice h3').textContent.includes('step {now}')");
        assert_eq!(wait_until(&tab, &fresh), Value::Bool(true), "advice about step {now}");
    }
    // The log names dice, attributes and levels in words, never engine names.
    let log = eval_json(&tab, "document.querySelector('#log').textContent").as_str().unwrap().to_string();
    assert!(log.contains("rolled ") && log.contains("needs "), "dice in the log: {log}");
    for leak in ["nailed_it", "side A", "side B", "(rolled against"] {
        assert!(!log.contains(leak), "the log says `{leak}`: {log}");
    }
}

#[test]
fn a_game_resumes_in_chromium_after_a_server_restart() {
    let Some(browser) = launch() else { return };
    let server = Server::play(&["--bot", "greedy", "--scenario", "grudge_match", "--seed", "43"]);
    let record = server.record.clone();
    let tab = open(&browser, &server);
    let mut view = page_view(&tab);
    for _ in 0..6 {
        view = take_first(&tab, &view);
    }
    let log = eval_json(&tab, "document.querySelector('#log').textContent");
    let saved = std::fs::read(&record).unwrap();
    drop(tab);
    drop(server);
    // The same record again, alone: the same game, at the same step, nothing rewritten.
    let (server, said) = Server::start_in(None, &["play", "--record", record.to_str().unwrap()]);
    assert!(said.contains("Resuming"), "{said}");
    let tab = open(&browser, &server);
    let again = page_view(&tab);
    assert_eq!(again["version"], view["version"]);
    assert_eq!(again["decision"], view["decision"]);
    assert_eq!(eval_json(&tab, "document.querySelector('#log').textContent"), log, "the same log");
    assert_eq!(std::fs::read(&record).unwrap(), saved, "the record is not overwritten");
    let status = eval_json(&tab, "document.querySelector('#status').textContent");
    assert!(
        status.as_str().is_some_and(|s| s.contains("record.json")),
        "the page names the record: {status}"
    );
}

fn save_screenshot(tab: &Tab, server: &Server, name: &str) {
    let png =
        tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true).expect("screenshot");
    assert!(png.len() > 10_000, "the screenshot has content");
    let dir = server.record.parent().unwrap().to_path_buf();
    let file = dir.join(format!("play_{name}.png"));
    std::fs::write(&file, &png).unwrap();
    eprintln!("screenshot: {}", file.display());
    let shown = match name {
        "risk" => Some("play.png"),
        "melee" => Some("play-melee.png"),
        "thinking" => Some("play-thinking.png"),
        _ => None,
    };
    if let Some(shown) = shown.filter(|_| std::env::var_os("TDE_UPDATE_SCREENSHOT").is_some()) {
        let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs").join(shown);
        let temp = docs.with_extension("png.tmp");
        std::fs::write(&temp, &png).unwrap();
        std::fs::rename(&temp, &docs).unwrap();
    }
}

/// Tap the middle of the element `selector` with a finger, as a touch screen does: a touch
/// start and a touch end through Chromium's DevTools (`Input.dispatchTouchEvent`), no mouse.
fn tap(tab: &Tab, selector: &str, or_under: Option<&str>) {
    let (x, y) = point_of(tab, selector, or_under);
    let finger = TouchPoint {
        x,
        y,
        radius_x: None,
        radius_y: None,
        rotation_angle: None,
        force: None,
        tangential_pressure: None,
        tilt_x: None,
        tilt_y: None,
        twist: None,
        id: None,
    };
    for (kind, points) in [
        (DispatchTouchEventTypeOption::TouchStart, vec![finger]),
        (DispatchTouchEventTypeOption::TouchEnd, vec![]),
    ] {
        tab.call_method(DispatchTouchEvent {
            Type: kind,
            touch_points: points,
            modifiers: None,
            timestamp: None,
        })
        .unwrap_or_else(|e| panic!("cannot tap `{selector}`: {e}"));
    }
}

#[test]
fn on_a_touch_screen_a_tap_shows_the_odds_and_a_second_tap_commits_in_chromium() {
    let Some(browser) = launch_sized(1366, 768) else { return };
    let server = Server::play(&["--bot", "greedy", "--scenario", "skirmish", "--seed", "41"]);
    // On over the API to a move the board offers alone on its cell (no model there), a
    // dynamic one (amber, with a movement test) when there is one.
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut view = server.get("/api/state").ok();
    let option = loop {
        let options = view["decision"]["options"].as_array().unwrap().clone();
        if view["decision"]["step"] == "action" {
            let models = view["models"].as_array().unwrap();
            let alone: Vec<&Value> = options
                .iter()
                .filter(|o| o["kind"] == "move")
                .filter(|o| options.iter().filter(|p| p["cell"] == o["cell"]).count() == 1)
                .filter(|o| !models.iter().any(|m| m["on_table"] == true && m["at"] == o["cell"]))
                .collect();
            if let Some(o) = alone.iter().find(|o| o["dynamic"] == true && view["turn"].as_u64() > Some(1)) {
                break (*o).clone();
            }
            if view["turn"].as_u64() > Some(2) && !alone.is_empty() {
                break alone[0].clone();
            }
        }
        let version = view["version"].as_u64().unwrap();
        let kinds = ["move", "activate"];
        let good: Vec<&Value> =
            options.iter().filter(|o| kinds.contains(&o["kind"].as_str().unwrap_or(""))).collect();
        let pick = if !good.is_empty() && rng.gen_bool(0.8) {
            good[rng.gen_range(0..good.len())]["i"].clone()
        } else {
            serde_json::json!(rng.gen_range(0..options.len()))
        };
        view = server.post("/api/action", serde_json::json!({"version": version, "index": pick})).ok();
        assert!(view["over"].is_null(), "the game ended before a move could be tapped");
    };
    let tab = open(&browser, &server);
    tab.call_method(SetTouchEmulationEnabled { enabled: true, max_touch_points: Some(2) }).unwrap();
    eval_json(
        &tab,
        "(() => { window.tdeTouches = 0; document.addEventListener('touchend', () => window.tdeTouches++, true); return true; })()",
    );
    let version = view["version"].as_u64().unwrap();
    let cell = format!(
        "#board rect.target-cell[data-x=\"{}\"][data-y=\"{}\"]",
        option["cell"][0], option["cell"][1]
    );
    // The first tap: the option with its odds, the enemy's answers and the cell's threats; the
    // game does not move.
    tap(&tab, &cell, Some("#board g.model"));
    let listed = format!("#decision .focus button.opt[data-i=\"{}\"]", option["i"]);
    assert_eq!(
        wait_until(&tab, &format!("document.querySelector('{listed} .risk b') && !document.querySelector('{listed} .risk.muted')")),
        Value::Bool(true),
        "a tap lists the option with its risk"
    );
    assert_eq!(
        eval_json(&tab, "window.tdeView.version"),
        serde_json::json!(version),
        "one tap commits nothing"
    );
    let text = eval_json(&tab, &format!("document.querySelector('{listed}').textContent"));
    let text = text.as_str().unwrap();
    assert!(text.contains("If the enemy answers as the bot would"), "{text}");
    if option["dynamic"] == true {
        assert!(
            text.contains("Agility") && text.contains("reaches the cell on a"),
            "the movement test's odds: {text}"
        );
    }
    assert_eq!(
        wait_until(&tab, "document.querySelector('#sight').textContent.includes('could shoot it')"),
        Value::Bool(true),
        "a tap shows the cell's sight and threats"
    );
    save_screenshot(&tab, &server, "touch");
    // The second tap on the same cell takes it.
    tap(&tab, &cell, Some("#board g.model"));
    let After::Moved(next) = wait_for_page(&tab, version, None) else { unreachable!() };
    assert!(next["version"].as_u64() > Some(version), "the second tap commits");
    assert!(eval_json(&tab, "window.tdeTouches").as_u64() >= Some(2), "the taps came as touch events");
}

#[test]
fn profile_cards_open_while_nominating_the_courier_or_swearing_a_grudge_in_chromium() {
    let Some(browser) = launch() else { return };
    for (scenario, kind) in [("grudge_match", "grudge"), ("couriers", "nominate")] {
        let server = Server::play(&["--bot", "greedy", "--scenario", scenario, "--seed", "43"]);
        let tab = open(&browser, &server);
        let mut view = page_view(&tab);
        for _ in 0..40 {
            let options = view["decision"]["options"].as_array().unwrap();
            if options.iter().any(|o| o["kind"] == kind) {
                break;
            }
            view = take_first(&tab, &view);
        }
        let options = view["decision"]["options"].as_array().unwrap();
        let o = options
            .iter()
            .find(|o| o["kind"] == kind)
            .unwrap_or_else(|| panic!("{scenario}: no {kind} prompt"));
        let model = if o["target"].is_null() { &o["model"] } else { &o["target"] };
        let name = eval_json(&tab, &format!("window.tdeView.models[{model}].name"));
        let button = format!("#decision .cardlinks button.cardlink[data-model=\"{model}\"]");
        click(&tab, &button, None);
        let card = eval_json(
            &tab,
            "document.querySelector('#card h3') && document.querySelector('#card').textContent",
        );
        let card = card.as_str().unwrap_or_default().to_string();
        assert!(card.contains(name.as_str().unwrap()), "{scenario}: the card of {name}: {card}");
        assert!(card.contains("Wounds") && card.contains("weapon"), "{scenario}: a whole card: {card}");
        if scenario == "grudge_match" {
            save_screenshot(&tab, &server, "grudge");
        }
    }
}

/// Move the mouse over the middle of `selector`, whatever lies on top of it there.
fn hover(tab: &Tab, selector: &str) {
    let at = eval_json(
        tab,
        &format!(
            "(() => {{ const r = document.querySelector({}).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            serde_json::to_string(selector).unwrap()
        ),
    );
    let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    move_mouse(tab, x, y, selector);
}

/// Move the mouse to (`x`, `y`), over `selector`.
fn move_mouse(tab: &Tab, x: f64, y: f64, selector: &str) {
    mouse(tab, DispatchMouseEventTypeOption::MouseMoved, x, y, false)
        .unwrap_or_else(|e| panic!("cannot move the mouse over `{selector}`: {e}"));
}

/// One mouse event at (`x`, `y`): with the left button (`left`, one click) or none.
fn mouse(tab: &Tab, kind: DispatchMouseEventTypeOption, x: f64, y: f64, left: bool) -> Result<(), String> {
    tab.call_method(DispatchMouseEvent {
        Type: kind,
        x,
        y,
        modifiers: None,
        timestamp: None,
        button: left.then_some(MouseButton::Left),
        buttons: None,
        click_count: left.then_some(1),
        force: None,
        tangential_pressure: None,
        tilt_x: None,
        tilt_y: None,
        twist: None,
        delta_x: None,
        delta_y: None,
        pointer_Type: None,
    })
    .map(|_| ())
    .map_err(|e| e.to_string())
}

/// `true` when the newest line of the log is the view's latest entry, whole in the window and
/// not covered by anything; else what is wrong.
const LOG_IN_SIGHT: &str = "(() => {
    const items = document.querySelectorAll('#log li');
    if (!items.length) return 'no log lines';
    const last = items[items.length - 1];
    const r = last.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight + 0.5 || r.left < 0 || r.right > innerWidth + 0.5)
        return `the newest line is at ${Math.round(r.top)}-${Math.round(r.bottom)} px of a ${innerHeight} px window`;
    const hit = document.elementFromPoint(r.left + Math.min(30, r.width / 2), r.top + r.height / 2);
    if (!hit || !last.contains(hit)) return 'the newest line is covered by ' + (hit ? hit.outerHTML.slice(0, 100) : 'nothing');
    const log = window.tdeView.log;
    if (last.textContent !== log[log.length - 1].text) return 'the newest line is not the latest entry';
    return true;
})()";

#[test]
fn the_newest_log_line_is_in_sight_after_every_kind_of_step_at_1366x768_and_390x844_in_chromium() {
    for (width, height) in [(1366, 768), (390, 844)] {
        let Some(browser) = launch_sized(width, height) else { return };
        let server = Server::play(&["--bot", "greedy", "--scenario", "couriers", "--seed", "51"]);
        let tab = open(&browser, &server);
        let mut view = page_view(&tab);
        let mut kinds = std::collections::BTreeSet::new();
        for _ in 0..24 {
            if !view["over"].is_null() {
                break;
            }
            kinds.insert(view["decision"]["step"].as_str().unwrap_or("").to_string());
            view = take_first(&tab, &view);
            assert_eq!(
                eval_json(&tab, LOG_IN_SIGHT),
                Value::Bool(true),
                "{width}x{height} at step {}",
                view["version"]
            );
        }
        eprintln!("{width}x{height}: the log was in sight after {kinds:?}");
        assert!(kinds.len() >= 3, "several kinds of step: {kinds:?}");
        if width == 390 {
            save_screenshot(&tab, &server, "phone");
        }
    }
}

#[test]
fn the_bot_shows_what_it_is_thinking_about_and_no_click_is_dropped_silently_in_chromium() {
    let Some(browser) = launch_sized(1366, 768) else { return };
    let server = Server::play(&["--bot", "mcts:ms=1500,depth=4", "--scenario", "skirmish", "--seed", "52"]);
    let tab = open(&browser, &server);
    let mut view = page_view(&tab);
    let mut seen = false;
    for _ in 0..30 {
        let version = view["version"].as_u64().unwrap();
        // The first option in sight; places on the board sit in a folded list, opened first
        // when there is nothing else to choose.
        let first_in_sight = "(() => { const b = [...document.querySelectorAll('#decision button.opt')].find((b) => !b.closest('details:not([open])')); return b ? Number(b.dataset.i) : null; })()";
        let mut i = eval_json(&tab, first_in_sight);
        if i.is_null() {
            click(&tab, "#decision details.cells > summary", None);
            i = eval_json(&tab, first_in_sight);
        }
        assert!(i.is_u64(), "an option in sight at version {version}: {i}");
        click(&tab, &format!("#decision button.opt[data-i=\"{i}\"]"), None);
        // The bot at work: said, with what it thinks about; no option to click meanwhile.
        let thinking = wait_until(
            &tab,
            &format!("document.querySelector('#decision .thinking[data-thinking=\"bot\"]') || (window.tdeView.version !== {version} && window.tdeView.decision && !document.body.classList.contains('busy'))"),
        );
        assert_eq!(thinking, Value::Bool(true));
        if eval_json(&tab, "Boolean(document.querySelector('#decision .thinking[data-thinking=\"bot\"]'))")
            == Value::Bool(true)
        {
            seen = true;
            let text = eval_json(&tab, "document.querySelector('#decision').textContent")
                .as_str()
                .unwrap()
                .to_string();
            assert!(
                text.contains("The bot is thinking about") && !text.contains("side (B)"),
                "what it thinks about: {text}"
            );
            let status = eval_json(&tab, "document.querySelector('#status .pill.now').textContent");
            assert_eq!(status, Value::String("the bot is thinking…".into()));
            assert_eq!(
                eval_json(&tab, "document.querySelectorAll('#decision button.opt').length"),
                serde_json::json!(0)
            );
            assert_eq!(eval_json(&tab, "document.querySelector('#advice-bar').hidden"), Value::Bool(true));
            // A click that cannot be taken is answered in words, on the page and by the server.
            eval_json(&tab, "(choose(0), true)");
            let notice = eval_json(&tab, "document.querySelector('#notice').hidden ? '' : document.querySelector('#notice').textContent");
            assert!(
                notice.as_str().is_some_and(|t| t.contains("not taken")),
                "the refused click is explained: {notice}"
            );
            let now = eval_json(&tab, "window.tdeView.version").as_u64().unwrap();
            let refused = server.post("/api/action", serde_json::json!({"version": now, "index": 0}));
            assert_eq!(refused.status, 409, "{}", refused.body);
            assert!(
                refused.body.contains("thinking") || refused.body.contains("not your decision"),
                "{}",
                refused.body
            );
            save_screenshot(&tab, &server, "thinking");
            break;
        }
        view = page_view(&tab);
    }
    assert!(seen, "the page showed the bot thinking");
    // The bot moves on, and the page comes back to the person's decision by itself.
    assert_eq!(
        wait_until(&tab, "window.tdeView.decision && !window.tdeView.thinking && !document.body.classList.contains('busy')"),
        Value::Bool(true)
    );
}

/// Wait up to a minute until `condition` (a JavaScript expression) is true in the page, while
/// the page may reload itself meanwhile.
fn wait_across_reloads(tab: &Tab, condition: &str) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        let value = tab.evaluate(condition, false).ok().and_then(|r| r.value);
        if value == Some(Value::Bool(true)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    false
}

#[test]
fn a_tab_open_across_a_restart_recovers_with_a_plain_message_in_chromium() {
    let Some(browser) = launch() else { return };
    let mut server = Server::play(&["--bot", "greedy", "--scenario", "skirmish", "--seed", "53"]);
    let (record, port) = (server.record.clone(), server.port().to_string());
    let args = ["play", "--record", record.to_str().unwrap(), "--port", port.as_str()];
    let tab = open(&browser, &server);
    let mut view = page_view(&tab);
    for _ in 0..3 {
        view = take_first(&tab, &view);
    }
    let version = view["version"].clone();
    // The server stops: the page says so in plain words, and rejoins by itself once it is back.
    server.stop();
    eval_json(&tab, "load().then(() => true, () => true)");
    let away = eval_json(&tab, "document.querySelector('#notice').textContent");
    assert!(away.as_str().is_some_and(|t| t.contains("not answering")), "{away}");
    let (again, said) = Server::start_in(None, &args);
    assert!(said.contains("Resuming"), "{said}");
    let back = "Boolean(window.tdeView && document.querySelector('#notice') && !document.querySelector('#notice').hidden && document.querySelector('#notice').textContent.includes('restarted'))";
    assert!(wait_across_reloads(&tab, back), "the page rejoined the server");
    assert_eq!(eval_json(&tab, "window.tdeView.version"), version, "the same game at the same step");
    // Restarted behind its back: the old session token is refused, and the page reloads for
    // the new one instead of showing "wrong session token".
    drop(again);
    let (_third, _) = Server::start_in(None, &args);
    eval_json(&tab, "load().then(() => true, () => true)");
    assert!(wait_across_reloads(&tab, back), "the page reloaded for the new session");
    assert_eq!(eval_json(&tab, "window.tdeView.version"), version);
    let text = eval_json(&tab, "document.body.textContent").as_str().unwrap().to_string();
    assert!(!text.contains("x-tde-token"), "no engine words about tokens: {}", &text[..200.min(text.len())]);
}

#[test]
fn unfinished_games_are_offered_when_a_new_one_starts_in_chromium() {
    let Some(browser) = launch() else { return };
    let dir = common::temp_dir("unfinished");
    let (first, _) =
        Server::start_in(Some(&dir), &["play", "--bot", "greedy", "--scenario", "skirmish", "--seed", "54"]);
    let view = first.get("/api/state").ok();
    first.post("/api/action", serde_json::json!({"version": view["version"], "index": 0})).ok();
    drop(first);
    let (second, said) =
        Server::start_in(Some(&dir), &["play", "--bot", "greedy", "--scenario", "skirmish", "--seed", "55"]);
    let command = "tde play --record saved-games/tde_play_54.json";
    assert!(said.contains("Unfinished games") && said.contains(command), "{said}");
    let tab = open(&browser, &second);
    let offered = eval_json(&tab, "document.querySelector('#unfinished').hidden ? '' : document.querySelector('#unfinished').textContent");
    assert!(offered.as_str().is_some_and(|t| t.contains(command) && t.contains("Skirmish")), "{offered}");
}

/// A 12 x 9 board of open ground: the deployment zones one row apart, so the crews meet at once.
const SMALL_BOARD: &str = "name: Small Yard\nsize: 12x9\n";

/// The kind of an action as the page names it (`move`, `charge`, `end_activation`...).
fn kind_of(action: Action) -> String {
    match serde_json::to_value(action) {
        Ok(Value::String(s)) => s,
        Ok(Value::Object(map)) => map.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    }
}

/// A `tde play` record (the person on side A against `greedy`, seed 56) of a Skirmish on
/// `board` that reaches a melee: at least `pairs` pairs of models next to each other, a pair
/// of enemies among them, at the person's action decision. The games are played in this
/// process (see [`melee_game`]) rather than over the API so that the server, which works out
/// the exact odds of every option of each of the person's decisions on the way (minutes at
/// some reaction prompts), only resumes the game at the melee.
fn record_into_a_melee(board: &Path, pairs: usize) -> PathBuf {
    let config = GameConfig {
        board: board.to_str().unwrap().to_string(),
        scenario: Scenario::Skirmish,
        ..GameConfig::default()
    };
    let initial = new_game(&config).expect("a Skirmish on the small board");
    let settings = serde_json::json!({"human": "A", "bot": "greedy", "seed": 56});
    let mut record = GameRecord::new(&initial, format!("tde play {settings}"));
    let (state, actions) = (0..40)
        .find_map(|seed| melee_game(initial.clone(), pairs, seed))
        .expect("a melee in one of 40 games");
    record.actions = actions;
    record.final_hash = format_hash(state.state_hash());
    let path = board.with_file_name("melee.json");
    record.save(&path).unwrap();
    path
}

/// Game `seed` from `initial`: the bot `greedy` on side B, the dice drawn, and the person
/// (side A) deploying close to the middle and playing on towards the enemy (charges first);
/// the state and the actions once [`record_into_a_melee`]'s melee stands at the person's action
/// decision, `None` when the game ends first.
fn melee_game(initial: GameState, pairs: usize, seed: u64) -> Option<(GameState, Vec<Action>)> {
    let mut bot = agents::make_agent("greedy", seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = initial;
    let mut actions = Vec::new();
    let xy = |state: &GameState, cell: u16| {
        let (x, y) = state.board().xy(cell);
        (i64::from(x), i64::from(y))
    };
    while !state.is_terminal() {
        let on_table: Vec<(u8, (i64, i64))> =
            state.models().iter().filter(|m| m.is_on_table()).map(|m| (m.side, xy(&state, m.cell))).collect();
        let near = |a: (i64, i64), b: (i64, i64)| (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1;
        let mut close = 0;
        let mut melee = false;
        for (i, a) in on_table.iter().enumerate() {
            for b in &on_table[i + 1..] {
                if near(a.1, b.1) {
                    close += 1;
                    melee |= a.0 != b.0;
                }
            }
        }
        let action = match state.current_player() {
            Player::Side(0)
                if close >= pairs && melee && matches!(state.node(), Some(Step::ChooseAction(_))) =>
            {
                return Some((state, actions));
            }
            Player::Side(0) => {
                let enemies: Vec<(i64, i64)> = on_table.iter().filter(|m| m.0 != 0).map(|m| m.1).collect();
                // Distance from a cell to the nearest enemy (to the middle while none stands).
                let distance = |cell: u16| -> i64 {
                    let (x, y) = xy(&state, cell);
                    if enemies.is_empty() {
                        return (x - 6).abs() + (y - 4).abs() * 3;
                    }
                    enemies.iter().map(|e| (e.0 - x).abs().max((e.1 - y).abs())).min().unwrap()
                };
                let legal = state.legal_actions();
                let charge =
                    legal.iter().find(|a| matches!(a, Action::Charge { .. } | Action::CloseCombat { .. }));
                let placed = legal
                    .iter()
                    .filter_map(|&a| match a {
                        Action::Deploy(cell) | Action::Move { dest: cell, .. } => Some((a, cell)),
                        _ => None,
                    })
                    .min_by_key(|&(_, cell)| distance(cell));
                match (charge, placed) {
                    (Some(&a), _) => a,
                    (None, Some((a, _))) if rng.gen_bool(0.9) => a,
                    _ => {
                        let quiet: Vec<Action> = legal
                            .iter()
                            .copied()
                            .filter(|&a| !["end_activation", "discard_pass"].contains(&kind_of(a).as_str()))
                            .collect();
                        if quiet.is_empty() {
                            legal[0]
                        } else {
                            quiet[rng.gen_range(0..quiet.len())]
                        }
                    }
                }
            }
            Player::Chance => {
                let outcomes = state.chance_outcomes();
                let mut r = rng.gen::<f64>();
                outcomes
                    .iter()
                    .find(|(_, p)| {
                        r -= p;
                        r < 0.0
                    })
                    .unwrap_or(outcomes.last().unwrap())
                    .0
            }
            _ => bot.select_action(&state),
        };
        state.apply_action(action).unwrap();
        actions.push(action);
    }
    None
}

#[test]
fn in_a_crowded_melee_every_model_is_readable_and_picked_by_mouse_and_by_touch_in_chromium() {
    let dir = common::temp_dir("melee-board");
    let board = dir.join("small.board");
    let rows: String = (0..9).map(|_| format!("{}\n", "0.".repeat(12))).collect();
    std::fs::write(&board, format!("{SMALL_BOARD}{rows}")).unwrap();
    let record = record_into_a_melee(&board, 4);
    let Some(browser) = launch_sized(1366, 768) else { return };
    let (mut server, said) = Server::start_in(None, &["play", "--record", record.to_str().unwrap()]);
    assert!(said.contains("Resuming"), "{said}");
    server.record = record;
    let view = server.get("/api/state").ok();
    let tab = open(&browser, &server);
    assert_eq!(page_view(&tab)["version"], view["version"]);
    // Nothing drawn for one model lies over another's base: letters, AP pips and wound bars
    // stay within their own model's cell.
    let overlaps = eval_json(
        &tab,
        "(() => {
            const bodies = [...document.querySelectorAll('#board g.model')].map((g) => [g.dataset.model, g.querySelector('.body').getBoundingClientRect()]);
            const letters = [...document.querySelectorAll('#board .labels text.letter')].map((t) => [t.dataset.model, t.getBoundingClientRect()]);
            const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
            const out = [];
            for (const [m, r] of letters) for (const [n, b] of bodies) if (m !== n && meet(r, b)) out.push(`letter of ${m} on the base of ${n}`);
            for (const [m, r] of bodies) for (const [n, b] of bodies) if (m < n && meet(r, b)) out.push(`bases of ${m} and ${n}`);
            return out;
        })()",
    );
    assert_eq!(overlaps, serde_json::json!([]), "a readable crowd");
    save_screenshot(&tab, &server, "melee");
    let models: Vec<Value> =
        view["models"].as_array().unwrap().iter().filter(|m| m["on_table"] == true).cloned().collect();
    // By mouse, then by touch: every model is picked where it stands (its card shown), and a
    // model several options are about opens a menu of them at the spot.
    for touch in [false, true] {
        if touch {
            tab.call_method(SetTouchEmulationEnabled { enabled: true, max_touch_points: Some(2) }).unwrap();
        }
        for m in &models {
            let what = format!("#board g.model[data-model=\"{}\"] circle.hit", m["id"]);
            if touch {
                tap(&tab, &what, None)
            } else {
                click(&tab, &what, None)
            }
            let name = m["name"].as_str().unwrap();
            let card = wait_until(&tab, &format!("document.querySelector('#card h3') && document.querySelector('#card h3').textContent.includes('[{}]')", m["letter"].as_str().unwrap()));
            assert_eq!(card, Value::Bool(true), "touch {touch}: {name} [{}] picked", m["letter"]);
            assert_eq!(
                eval_json(&tab, "window.tdeView.version"),
                view["version"],
                "picking a model takes no action"
            );
            let about: Vec<&Value> = view["decision"]["options"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|o| o["target"] == m["id"])
                .collect();
            if touch && (2..=12).contains(&about.len()) {
                let menu = eval_json(&tab, "document.querySelector('#picker').hidden ? 0 : document.querySelectorAll('#picker .pick').length");
                assert!(
                    menu.as_u64() >= Some(about.len() as u64),
                    "a menu of the {} options about {name}: {menu}",
                    about.len()
                );
            }
            eval_json(&tab, "(closePicker(), true)");
        }
    }
}

#[test]
fn figures_left_for_later_are_asked_for_by_the_page_and_a_choice_meanwhile_is_played_in_chromium() {
    let Some(browser) = launch() else { return };
    let server = Server::heavy_reaction_prompt();
    let tab = open(&browser, &server);
    let view = page_view(&tab);
    let version = view["version"].as_u64().unwrap();
    let options = view["decision"]["options"].as_array().unwrap().len();
    // The page asks by itself for the figures the step's answer left for later...
    let asked = format!("[...window.tdeLaterOdds.keys()].some((k) => k.startsWith('{version}:'))");
    assert_eq!(wait_until(&tab, &asked), Value::Bool(true));
    // ...and a choice made while the server works them out is played (no more reactions).
    eval_json(&tab, &format!("choose({})", options - 1));
    let After::Moved(next) = wait_for_page(&tab, version, None) else { unreachable!() };
    assert!(next["version"].as_u64().unwrap() > version);
}
