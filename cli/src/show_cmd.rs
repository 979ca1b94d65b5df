//! `tde show`: the whole state a player may see in a saved game or setup file — turn, the
//! node awaited and who decides, victory points, scenario markers with their carriers and
//! controllers, every model with its tokens, cards left, and the AI side's decks, ambush
//! markers and confusion — with what one side may not know left out when asked.

use crate::game_cmd::{end_reason, load_state};
use crate::play::view::{ambush_json, state_json};
use clap::Args;
use engine::cards::CardKind;
use engine::render::{model_name, render};
use engine::scenario::{MarkerKind, Scenario, ScenarioState};
use engine::state::Side;
use engine::{GameState, Player};
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::PathBuf;

/// `tde show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// A saved state (JSON) or a setup file (TOML), as `tde legal` reads them.
    pub state: PathBuf,
    /// Show the state as side `a` or `b` sees it: the facts hidden from that side (the
    /// enemy's secret grudge, marker numbers it has not seen) are left out. Without it the
    /// whole state is shown, hidden facts included.
    #[arg(long, value_parser = parse_side)]
    pub side: Option<Side>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `a` or `b` (either case) as a side.
fn parse_side(text: &str) -> Result<Side, String> {
    match text.to_ascii_lowercase().as_str() {
        "a" => Ok(0),
        "b" => Ok(1),
        _ => Err(format!("\"{text}\" is no side: give a or b")),
    }
}

/// "side A".
fn side_name(side: Side) -> String {
    format!("side {}", (b'A' + side) as char)
}

/// Show the state in `args.state`, whole or as one side sees it.
pub fn show(args: &ShowArgs) -> Result<String, String> {
    let state = load_state(&args.state)?;
    let d = state.dynamic();
    let scenario = match args.side {
        Some(side) => state.masked(side).scenario,
        None => d.scenario.clone(),
    };
    let view = match args.side {
        Some(side) => format!("as {} sees it: facts hidden from it are left out", side_name(side)),
        None => "the whole state: facts hidden from either side are shown (--side a|b masks them)".into(),
    };
    if args.json {
        return Ok(show_json(&state, &scenario, args, &view).to_string());
    }
    Ok(show_text(&state, &scenario, args, &view))
}

/// The state as one JSON object: the view the table shares ([`state_json`]) with the file,
/// the side and view asked, the board, the node in the engine's words, the chance node's kind,
/// a solo game's score, the cards and the AI side.
fn show_json(state: &GameState, scenario: &ScenarioState, args: &ShowArgs, view: &str) -> Value {
    let stat = state.static_data();
    let solo = state.solo_score().map(|s| {
        json!({
            "score": s.total(), "vp": s.vp,
            "dinosaurs_taken_out": s.dinosaurs_taken_out, "models_lost": s.models_lost,
        })
    });
    let mut out = state_json(state, scenario);
    out["scenario"]["name"] = json!(stat.scenario.name());
    let own = json!({
        "file": args.state.display().to_string(),
        "side": args.side,
        "view": view,
        "board": state.board().name(),
        "max_turns": stat.max_turns,
        "node": state.describe_node(),
        "chance": state.chance_kind(),
        "solo": solo,
        "cards": cards_json(state),
        "ai": ai_json(state),
    });
    out.extend(own.as_object().expect("an object").clone());
    Value::Object(out)
}

/// Each side's leader ability and effect cards: the leader card's standing rule, which effect
/// cards are played, and how many are left to play.
fn cards_json(state: &GameState) -> Value {
    let d = state.dynamic();
    let sides: Vec<Value> = (0..2)
        .map(|side| {
            let cards = state.static_data().cards.get(side).map_or(&[][..], |c| &c[..]);
            let used = |i: usize| d.cards_used[side] & (1 << i) != 0;
            let list: Vec<Value> = cards
                .iter()
                .enumerate()
                .map(|(i, c)| json!({"id": c.id, "name": c.name, "kind": c.kind, "rule": c.rule, "used": used(i)}))
                .collect();
            let left = cards.iter().enumerate().filter(|&(i, c)| c.kind == CardKind::Effect && !used(i)).count();
            json!({"side": side, "cards": list, "left": left})
        })
        .collect();
    json!(sides)
}

/// The AI side of a game with dinosaurs: each action deck's cards left before it is
/// reshuffled, the ambush markers, and the noise that will bring a new AI model; null in other
/// games.
fn ai_json(state: &GameState) -> Value {
    let Some(uc) = &state.static_data().uc else { return Value::Null };
    let d = state.dynamic();
    let decks: Vec<Value> = uc
        .data
        .decks
        .iter()
        .enumerate()
        .map(|(i, deck)| {
            let left = d.uc.drawable(i as u8, deck.cards.len()).count();
            json!({"id": deck.id, "cards": deck.cards.len(), "left": left})
        })
        .collect();
    let noise = d.uc.noise.map(|c| {
        let (x, y) = state.board().xy(c);
        [x, y]
    });
    json!({"decks": decks, "ambush": ambush_json(state), "noise": noise, "solo": state.is_solo()})
}

/// The state in words: the text view of `tde legal` (turn, node, map, roster) and below it the
/// victory points, the scenario's markers and secrets, the cards and the AI side.
fn show_text(state: &GameState, scenario: &ScenarioState, args: &ShowArgs, view: &str) -> String {
    let d = state.dynamic();
    let stat = state.static_data();
    let mut out = format!("{}: {view}\n", args.state.display());
    let who = match state.current_player() {
        Player::Side(s) => format!("{} decides", side_name(s)),
        Player::Chance => {
            format!("the dice decide ({})", state.chance_kind().map_or("a roll", |k| k.label()))
        }
        Player::Terminal => format!("the game is over: {}", end_reason(state)),
    };
    let _ = writeln!(
        out,
        "{} on {} · turn {} of {} · {who}",
        stat.scenario.title(),
        state.board().name(),
        d.turn,
        stat.max_turns
    );
    let outcome = state.outcome();
    let _ = writeln!(out, "VP: A {} · B {}", outcome.vp[0], outcome.vp[1]);
    if let Some(s) = state.solo_score() {
        let _ = writeln!(
            out,
            "solo score {} (VP {}, dinosaurs taken out {}, models lost {})",
            s.total(),
            s.vp,
            s.dinosaurs_taken_out,
            s.models_lost
        );
    }
    out.push_str(&render(state));
    scenario_text(state, scenario, args.side, &mut out);
    for (side, cards) in stat.cards.iter().enumerate().take(2) {
        if cards.is_empty() {
            continue;
        }
        let used = |i: usize| d.cards_used[side] & (1 << i) != 0;
        let list: Vec<String> = cards
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}{}", c.name, if used(i) { " (played)" } else { "" }))
            .collect();
        let left = (0..cards.len()).filter(|&i| !used(i)).count();
        let _ = writeln!(out, "{} cards, {left} left: {}", side_name(side as Side), list.join(", "));
    }
    if let Some(uc) = &stat.uc {
        for (i, deck) in uc.data.decks.iter().enumerate() {
            let left = d.uc.drawable(i as u8, deck.cards.len()).count();
            let _ = writeln!(out, "AI deck {}: {left} of {} cards left", deck.id, deck.cards.len());
        }
        for (i, mk) in d.uc.markers_on_table() {
            let (x, y) = state.board().xy(mk.cell);
            let _ = writeln!(
                out,
                "ambush marker {i} at ({x},{y}), {} side up",
                if mk.active { "active" } else { "passive" }
            );
        }
        for m in 0..state.models().len() as u8 {
            let n = d.uc.confusion(m);
            if n > 0 {
                let _ = writeln!(out, "{} holds {n} confusion token(s)", model_name(state, m));
            }
        }
    }
    let stealthed: Vec<String> = (0..state.models().len() as u8)
        .filter(|&m| state.models()[m as usize].tokens.stealth && state.models()[m as usize].is_on_table())
        .map(|m| model_name(state, m))
        .collect();
    if !stealthed.is_empty() {
        let _ = writeln!(out, "stealthed: {}", stealthed.join(", "));
    }
    out
}

/// The scenario's markers (where, carried by whom, controlled by whom, numbers) and secrets as
/// `side` knows them (everything when `side` is `None`).
fn scenario_text(state: &GameState, sc: &ScenarioState, side: Option<Side>, out: &mut String) {
    let scenario = state.static_data().scenario;
    if scenario == Scenario::Skirmish {
        return;
    }
    let _ = writeln!(out, "player A is {}", side_name(sc.player_a));
    for (i, mk) in sc.markers.iter().enumerate() {
        let kind = match mk.kind {
            MarkerKind::Central => "central marker".to_string(),
            MarkerKind::Objective(s) => format!("objective of {}", side_name(s)),
            MarkerKind::Prize(s) => format!("prize of {}", side_name(s)),
            MarkerKind::Numbered => "numbered marker".to_string(),
        };
        let place = match (mk.holder, mk.off_table, mk.placed) {
            (_, true, _) => "carried off the table".to_string(),
            (Some(h), _, _) => format!("carried by {}", model_name(state, h)),
            (None, _, true) => {
                let (x, y) = state.board().xy(mk.cell);
                format!("at ({x},{y})")
            }
            (None, _, false) => "not placed".to_string(),
        };
        let mut line = format!("marker {i}: {kind}, {place}");
        if let Some(s) = mk.controller {
            let _ = write!(line, ", controlled by {}", side_name(s));
        }
        if mk.kind == MarkerKind::Numbered {
            let knowers: Vec<String> = (0..2).filter(|&s| mk.known_to(s)).map(side_name).collect();
            let number = match (mk.number, knowers.is_empty()) {
                (Some(n), _) => format!("number {n}"),
                (None, true) => "number not drawn yet".to_string(),
                (None, false) => "number hidden from you".to_string(),
            };
            let known = if knowers.is_empty() {
                String::new()
            } else {
                format!(", known to {}", knowers.join(" and "))
            };
            let _ = write!(line, ", {number}{known}");
        }
        let _ = writeln!(out, "{line}");
    }
    for (s, grudge) in sc.grudges.iter().enumerate().take(2) {
        match grudge {
            Some(g) => {
                let _ = writeln!(
                    out,
                    "{}'s grudge: {} against {}{}{}",
                    side_name(s as Side),
                    model_name(state, g.holder),
                    model_name(state, g.target),
                    if g.revealed { ", announced" } else { ", secret" },
                    if g.complete { ", complete" } else { "" }
                );
            }
            None if scenario == Scenario::GrudgeMatch && side.is_some_and(|o| o != s as Side) => {
                let _ = writeln!(out, "{}'s grudge: not known to you", side_name(s as Side));
            }
            None => {}
        }
    }
    for (s, courier) in sc.couriers.iter().enumerate().take(2) {
        if let Some(c) = courier {
            let _ = writeln!(out, "{}'s courier: {}", side_name(s as Side), model_name(state, *c));
        }
    }
    for (s, sought) in sc.sought.iter().enumerate().take(2) {
        if let Some(n) = sought {
            let _ = writeln!(out, "{} seeks number {n}", side_name(s as Side));
        }
    }
}
