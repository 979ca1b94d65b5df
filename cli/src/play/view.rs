//! What the page receives: the fixed parts of a game (board, profile cards, crew cards) once,
//! and at every step a view of the game from one seat, with what that seat may not know (the
//! enemy's secret grudge, marker numbers it has not seen) left out by the engine's own masking.

use super::odds::{test_odds, AnswerBudget, Tested};
use super::table::{Mode, Table};
use engine::analysis::OptionValue;
use engine::board::{Cover, Terrain};
use engine::dice::TestLevel;
use engine::render::{describe_action, model_letter};
use engine::scenario::{in_deployment_zone, MarkerKind, ScenarioState};
use engine::state::{CombatKind, Health, RollRole, Side, Stance, Step};
use engine::{Action, GameState, Player};
use serde_json::{json, Value};

/// Most log lines one view carries (the latest ones).
const LOG_LINES: usize = 400;

/// The fixed parts of the game: board cells, profile cards, crew cards and the scenario.
pub fn fixed_json(state: &GameState) -> Value {
    let board = state.board();
    let stat = state.static_data();
    let mut terrain = String::new();
    let mut cover = String::new();
    let mut height = Vec::with_capacity(board.len());
    for c in board.cells() {
        terrain.push(match c.terrain {
            Terrain::Open => 'o',
            Terrain::Water => 'w',
            Terrain::Rough => 'r',
            Terrain::Impassable => 'x',
        });
        cover.push(match c.cover {
            Cover::None => '.',
            Cover::Soft => 's',
            Cover::Hard => 'h',
        });
        height.push(c.height);
    }
    let profiles: Vec<Value> = stat
        .profiles
        .iter()
        .map(|p| {
            let weapons: Vec<Value> = p
                .weapons
                .iter()
                .map(|w| {
                    json!({
                        "name": w.name,
                        "range": w.range.map(|(a, b)| [a, b]),
                        "damage": [w.damage.0, w.damage.1],
                        "properties": w.properties.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({
                "id": p.id, "name": p.name, "type": format!("{:?}", p.model_type),
                "role": format!("{:?}", p.role), "faction": p.faction, "points": p.points,
                "ap_gain": p.ap_gain, "ap_max": p.ap_max, "speed": [p.speed.0, p.speed.1],
                "wounds": p.wounds, "cc": p.cc, "agility": p.agility, "marksmanship": p.marksmanship,
                "intelligence": p.intelligence, "toughness": p.toughness, "armour": p.total_armour(),
                "skills": p.skills, "base_mm": p.base_mm, "weapons": weapons,
            })
        })
        .collect();
    let cards: Vec<Vec<Value>> = stat
        .cards
        .iter()
        .map(|side| {
            side.iter().map(|c| json!({"name": c.name, "text": c.text, "points": c.points})).collect()
        })
        .collect();
    let scenario = stat.scenario;
    json!({
        "board": {
            "name": board.name(), "width": board.width(), "depth": board.depth(),
            "height": height, "terrain": terrain, "cover": cover,
        },
        "profiles": profiles,
        "cards": cards,
        "scenario": {
            "name": scenario.name(), "title": scenario.title(), "summary": scenario.summary(),
            "page": scenario.page(),
        },
        "max_turns": stat.max_turns,
    })
}

/// The game after `at` actions as `observer` sees it (`None`: a spectator who sees
/// everything, for watching agents and viewing records). The person's options, with their
/// odds, are included when it is their decision at the current state.
pub fn view_json(table: &Table, at: usize, observer: Option<Side>) -> Value {
    let at = at.min(table.version());
    let state = table.state_at(at);
    let d = state.dynamic();
    let scenario = match observer {
        Some(side) => state.masked(side).scenario,
        None => d.scenario.clone(),
    };
    let yours = matches!(state.current_player(), Player::Side(s) if Some(s) == observer);
    let decision =
        (table.mode == Mode::Play && yours && at == table.version()).then(|| decision_json(state, observer));
    let next = table.action_at(at).map(|a| {
        let text = table.log.iter().find(|e| e.at == at).map(|e| e.text_for(observer).to_string());
        text.unwrap_or_else(|| describe_action(state, a))
    });
    let log: Vec<Value> = {
        let entries: Vec<_> = table.log.iter().filter(|e| e.at < at).collect();
        let skip = entries.len().saturating_sub(LOG_LINES);
        entries[skip..]
            .iter()
            .map(|e| json!({"at": e.at, "kind": e.kind, "side": e.side, "text": e.text_for(observer)}))
            .collect()
    };
    let mut view = state_json(state, &scenario);
    let own = json!({
        "mode": table.mode,
        "version": table.version(),
        "at": at,
        "you": observer,
        "seats": [table.seats[0].label(), table.seats[1].label()],
        "bot_level": table.bot_spec().and_then(super::level::Level::of_spec).map(|l| l.name()),
        "node": super::words::seat_words(&state.describe_node(), observer),
        "ambush": ambush_json(state),
        "zones": zones_json(state),
        "decision": decision,
        "next": next,
        "log": log,
        "record": table.record_path.as_ref().map(|p| p.display().to_string()),
        "thinking": table.thinking.as_ref().filter(|_| at == table.version()).map(|t| json!({
            "side": t.side,
            "on": t.on,
            "seconds": t.since.elapsed().as_secs_f64(),
        })),
    });
    view.extend(own.as_object().expect("an object").clone());
    Value::Object(view)
}

/// The state as one seat sees it, the part the table's view and `tde show --json` share:
/// turn, initiative, the active and activating models, pass tokens, victory points, who acts,
/// every model, the scenario (from `scenario`, masked or not), the action sequence and the
/// result once over.
pub(crate) fn state_json(state: &GameState, scenario: &ScenarioState) -> serde_json::Map<String, Value> {
    let d = state.dynamic();
    let outcome = state.outcome();
    let to_act = match state.current_player() {
        Player::Side(s) => json!(s),
        Player::Chance => json!("dice"),
        Player::Terminal => json!("over"),
    };
    let over = state.is_terminal().then(|| {
        json!({
            "winner": outcome.winner,
            "reason": crate::game_cmd::end_reason(state),
            "vp": [outcome.vp[0], outcome.vp[1]],
        })
    });
    let view = json!({
        "turn": d.turn,
        "initiative": d.initiative,
        "active": d.active,
        "activating": d.activating,
        "pass_tokens": [d.pass_tokens[0], d.pass_tokens[1]],
        "vp": [outcome.vp[0], outcome.vp[1]],
        "to_act": to_act,
        "models": (0..state.models().len() as u8).map(|m| model_json(state, scenario, m)).collect::<Vec<_>>(),
        "scenario": scenario_json(state, scenario),
        "sequence": sequence_json(state),
        "over": over,
    });
    match view {
        Value::Object(map) => map,
        _ => unreachable!("json! of an object"),
    }
}

/// One model: where it is and everything on it (`tde show` gives the same).
pub(crate) fn model_json(state: &GameState, scenario: &ScenarioState, m: u8) -> Value {
    let ms = &state.models()[m as usize];
    let p = state.profile(m);
    let (x, y) = state.board().xy(ms.cell);
    let weapons = |mask: u8| -> Vec<&str> {
        p.weapons
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, w)| w.name.as_str())
            .collect()
    };
    let carries: Vec<usize> = scenario
        .markers
        .iter()
        .enumerate()
        .filter(|(_, mk)| mk.holder == Some(m) && !mk.off_table)
        .map(|(i, _)| i)
        .collect();
    json!({
        "id": m,
        "letter": model_letter(state, m).to_string(),
        "name": p.name,
        "profile": ms.profile,
        "profile_id": p.id,
        "side": ms.side,
        "on_table": ms.is_on_table(),
        "at": [x, y],
        "z": ms.z,
        "stance": stance_name(ms.stance),
        "health": health_name(ms.health),
        "wounds": ms.wounds,
        "wounds_max": p.wounds,
        "mount_wounds": ms.mount_wounds,
        "ap": ms.ap,
        "ap_max": p.ap_max,
        "activated": ms.activated,
        "jammed": weapons(ms.jammed),
        "broken": weapons(ms.broken),
        "fire": ms.tokens.fire,
        "blind": ms.tokens.blind,
        "slow": [ms.tokens.slow.0, ms.tokens.slow.1],
        "stealth": ms.tokens.stealth,
        "confusion": state.dynamic().uc.confusion(m),
        "pending": (!ms.pending.is_empty()).then_some(ms.pending),
        "carries": carries,
        // The leader ability card whose standing rule covers the model now (p.74).
        "leader_rule": state.leader_rule_covering(m).map(|c| json!({"name": c.name, "text": c.text})),
    })
}

fn stance_name(s: Stance) -> &'static str {
    match s {
        Stance::Standing => "standing",
        Stance::Prone => "prone",
        Stance::Swimming => "swimming",
        Stance::Climbing => "climbing",
    }
}

fn health_name(h: Health) -> &'static str {
    match h {
        Health::Conscious => "conscious",
        Health::Down => "down",
        Health::TakenOut => "taken out",
        Health::Remounted => "remounted",
        Health::Reserve => "not deployed",
        Health::LeftTable => "left the table",
    }
}

/// The ambush markers on the table (games with AI dinosaurs; both players see them): index,
/// cell and side up.
pub(crate) fn ambush_json(state: &GameState) -> Value {
    let board = state.board();
    state
        .dynamic()
        .uc
        .markers_on_table()
        .map(|(i, mk)| {
            let (x, y) = board.xy(mk.cell);
            json!({"index": i, "at": [x, y], "active": mk.active})
        })
        .collect()
}

/// The scenario as the observer knows it: markers, grudges, couriers, numbers sought.
pub(crate) fn scenario_json(state: &GameState, sc: &ScenarioState) -> Value {
    let board = state.board();
    let markers: Vec<Value> = sc
        .markers
        .iter()
        .enumerate()
        .map(|(i, mk)| {
            let (x, y) = board.xy(mk.cell);
            let kind = match mk.kind {
                MarkerKind::Central => "central".to_string(),
                MarkerKind::Objective(s) => format!("objective {}", (b'A' + s) as char),
                MarkerKind::Prize(s) => format!("prize {}", (b'A' + s) as char),
                MarkerKind::Numbered => "numbered".to_string(),
            };
            json!({
                "index": i, "kind": kind, "at": [x, y], "placed": mk.placed, "loose": mk.is_loose(),
                "holder": mk.holder, "controller": mk.controller, "number": mk.number,
                "shown": mk.shown, "off_table": mk.off_table,
                "known_by": (0..2u8).filter(|s| mk.known & (1 << s) != 0).collect::<Vec<_>>(),
            })
        })
        .collect();
    let grudges: Vec<Value> = sc.grudges[..2]
        .iter()
        .map(|g| g.map_or(Value::Null, |g| json!({"holder": g.holder, "target": g.target, "complete": g.complete, "revealed": g.revealed})))
        .collect();
    json!({
        "player_a": sc.player_a,
        "markers": markers,
        "grudges": grudges,
        "couriers": [sc.couriers[0], sc.couriers[1]],
        "sought": [sc.sought[0], sc.sought[1]],
    })
}

/// While models are being deployed, each side's deployment zone: one character a cell (`1` in
/// the zone, `0` not), row by row; `null` at other times (the zones may not be chosen yet).
fn zones_json(state: &GameState) -> Value {
    use engine::scenario::ScenarioStep;
    let deploying =
        state.dynamic().steps.iter().any(|s| matches!(s, Step::Scenario(ScenarioStep::Deploy { .. })));
    if !deploying {
        return Value::Null;
    }
    let cells = state.board().len() as u16;
    let zone = |side: Side| -> String {
        (0..cells).map(|c| if in_deployment_zone(state, side, c) { '1' } else { '0' }).collect()
    };
    json!([zone(0), zone(1)])
}

/// The action sequence under way: the declared action, the path and every combat roll.
pub(crate) fn sequence_json(state: &GameState) -> Value {
    let Some(seq) = state.dynamic().sequence.as_ref() else { return Value::Null };
    let board = state.board();
    let (ox, oy) = board.xy(seq.origin);
    let path: Vec<Value> = seq
        .path
        .points
        .iter()
        .map(|p| {
            let (x, y) = board.xy(p.cell);
            json!([x, y, p.z, p.cost, p.rest])
        })
        .collect();
    let rolls: Vec<Value> = seq
        .rolls
        .iter()
        .map(|r| {
            json!({
                "model": r.model,
                "role": match r.role {
                    RollRole::Main => "main",
                    RollRole::Nested => "nested",
                    RollRole::Firefight => "firefight",
                    RollRole::Reaction => "reaction",
                },
                "kind": combat_name(r.kind),
                "target": r.target,
                "point": r.point,
                "attr": r.attr,
                "outcome": r.outcome.map(|o| o.level.name()),
                "cancelled": r.cancelled,
            })
        })
        .collect();
    json!({
        "actor": seq.actor,
        "declared": describe_action(state, seq.declared),
        "origin": [ox, oy],
        "path": path,
        "prone": seq.prone,
        "reached": seq.reached,
        "first_dynamic": seq.path.first_dynamic,
        "rolls": rolls,
    })
}

fn combat_name(kind: CombatKind) -> &'static str {
    match kind {
        CombatKind::Shoot { .. } => "shoot",
        CombatKind::Dodge => "dodge",
        CombatKind::CloseCombat { .. } => "close combat",
        CombatKind::Reveal => "reveal",
        CombatKind::Template { .. } => "template",
    }
}

/// The person's decision: the question, and every legal option with what it is about (model,
/// target, cell, path point), its path for moves, the test it makes and the exact expected
/// outcome over the rest of the action sequence where the engine can work it out.
fn decision_json(state: &GameState, observer: Option<Side>) -> Value {
    let words = |text: String| super::words::seat_words(&text, observer);
    let legal = state.legal_actions();
    let step = state.node();
    let chooser_model = match step {
        Some(Step::ChooseAction(m)) => Some(*m),
        Some(Step::Scenario(engine::scenario::ScenarioStep::Deploy { model, .. })) => Some(*model),
        _ => None,
    };
    // Exact odds where an option starts or changes an action sequence: here where they are
    // quick to work out, else when the page asks for them (`/api/odds`).
    let sequence_odds = has_sequence_odds(step);
    let mut budget = AnswerBudget::default();
    let options: Vec<Value> = legal
        .iter()
        .enumerate()
        .map(|(i, &action)| {
            let mut o = option_json(state, action, chooser_model);
            o["i"] = json!(i);
            o["text"] =
                json!(words(super::words::decision_line(state, action, describe_action(state, action))));
            if sequence_odds {
                match budget.sequence_odds(state, action) {
                    Some(v) => o["odds"] = odds_json(&v),
                    None => o["odds_later"] = json!(true),
                }
            }
            if let Some(test) = test_of(state, action) {
                let modifiers: Vec<Value> = super::words::itemised(test.base, test.attr, &test.modifiers)
                    .iter()
                    .map(|(why, by)| json!({"why": why, "by": by}))
                    .collect();
                let odds = test_odds(state, action, test.tested);
                let short: Vec<Value> = odds
                    .iter()
                    .flat_map(|o| &o.short)
                    .map(|(level, at, p)| json!({"result": level.words(), "at": at, "p": p}))
                    .collect();
                o["test"] = json!({
                    "attr": test.attr, "name": test.name, "base": test.base, "modifiers": modifiers,
                    "movement": test.tested == Tested::Movement,
                    "needed": odds.as_ref().map(|o| o.needed.map_or("no result", |l| l.words())),
                    "why": test.why, "success": odds.as_ref().map(|o| o.success), "short": short,
                });
            }
            if let Some(note) = downed_target(state, action) {
                o["downed"] = json!(note);
            }
            if let Action::PlayCard { card, target } = action {
                let side = state.models()[target as usize].side as usize;
                let text = state.static_data().cards.get(side).and_then(|c| c.get(card as usize));
                o["card"] = json!(text.map(|c| format!("{}: {}", c.name, c.text)));
            }
            o
        })
        .collect();
    json!({
        "prompt": words(state.describe_node()),
        "step": step.map(step_name),
        "options": options,
    })
}

/// Whether the options of `step` get figures over the whole rest of the action sequence: those
/// that start or change one.
pub(crate) fn has_sequence_odds(step: Option<&Step>) -> bool {
    matches!(
        step,
        Some(Step::ChooseAction(_) | Step::ChooseReaction | Step::ChooseNested | Step::ChooseFirefight)
    )
}

/// An option's figures over the whole rest of the action sequence, for the page.
pub(crate) fn odds_json(v: &OptionValue) -> Value {
    json!({
        "active_hit": v.p_active_hit,
        "active_down": v.p_active_down,
        "dealt": v.expected_wounds_dealt,
        "taken": v.expected_wounds_taken,
        "ap": v.expected_ap_spent,
    })
}

/// What an option is about, for the board: its kind, model, target, cell, path point, path.
fn option_json(state: &GameState, action: Action, chooser: Option<u8>) -> Value {
    let board = state.board();
    let xy = |c: u16| {
        let (x, y) = board.xy(c);
        json!([x, y])
    };
    let kind = match serde_json::to_value(action) {
        Ok(Value::String(s)) => s,
        Ok(Value::Object(map)) => map.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let mut o = json!({"text": describe_action(state, action), "kind": kind, "model": chooser});
    match action {
        Action::Activate(m) | Action::Nominate(m) => o["model"] = json!(m),
        Action::Move { dest, prone } => {
            o["cell"] = xy(dest);
            o["prone"] = json!(prone);
        }
        Action::Dismount { dest, .. } | Action::Remount { dest } => o["cell"] = xy(dest),
        Action::Charge { target, dest, .. } => {
            o["cell"] = xy(dest);
            o["target"] = json!(target);
        }
        Action::Shoot { target, .. }
        | Action::CloseCombat { target, .. }
        | Action::Reveal { target }
        | Action::Interact { target, .. } => o["target"] = json!(target),
        Action::Template { at, .. } => o["cell"] = xy(at),
        Action::Deploy(c) | Action::DodgeMove(c) => o["cell"] = xy(c),
        Action::Nested { target, point, .. } => {
            o["target"] = json!(target);
            o["point"] = json!(point);
        }
        Action::React { model, point, .. } => {
            o["model"] = json!(model);
            o["point"] = json!(point);
        }
        Action::Firefight { reactor, .. } => o["target"] = json!(reactor),
        Action::FallPoint(i) => o["point"] = json!(i as u16 + 1),
        Action::Grudge { holder, target } => {
            o["model"] = json!(holder);
            o["target"] = json!(target);
        }
        Action::Command { donor, recipient } => {
            o["model"] = json!(donor);
            o["target"] = json!(recipient);
        }
        Action::PlayCard { target, .. } => o["target"] = json!(target),
        Action::Zone(z) => o["zone"] = zone_json(state, z),
        _ => {}
    }
    if let Some(path) = state.declared_path(action) {
        let points: Vec<Value> = path.points.iter().map(|p| xy(p.cell)).collect();
        o["path"] = json!(points);
        o["length"] = json!(path.cost() as f64 / 10.0);
        o["dynamic"] = json!(path.first_dynamic.is_some());
    }
    o
}

/// A zone choice for the board: an edge (0 row 0, 1 the last row, 2 column 0, 3 the last
/// column) or a corner cell.
fn zone_json(state: &GameState, z: u8) -> Value {
    use engine::scenario::{ScenarioStep, ZoneKind};
    let board = state.board();
    let is_edge =
        matches!(state.node(), Some(Step::Scenario(ScenarioStep::ChooseZone { zone: ZoneKind::Edge, .. })));
    if is_edge {
        json!({"edge": z % 4})
    } else {
        let (xe, ye) = engine::scenario::zones::corner_edges(z);
        let x = if xe == 2 { 0 } else { board.width() - 1 };
        let y = if ye == 0 { 0 } else { board.depth() - 1 };
        json!({"corner": [x, y]})
    }
}

/// An option's own test: the attribute tested (modified, and its name and profile value) and
/// the result it needs.
pub(crate) struct TestInfo {
    /// The attribute after modifiers.
    pub attr: u8,
    /// Its name ("Marksmanship").
    pub name: &'static str,
    /// Its value on the profile card.
    pub base: u8,
    /// What the test is: the movement test, or which combat roll and the result it needs.
    pub tested: Tested,
    /// Why that level is needed, when it is not a plain Pass.
    pub why: Option<&'static str>,
    /// Each modifier from the profile's value, with its reason.
    pub modifiers: Vec<(&'static str, i32)>,
}

/// For an attack on a downed model, what a success does: any damage to a downed model takes
/// it out, with no armour roll (p.42).
fn downed_target(state: &GameState, action: Action) -> Option<String> {
    let target = match action {
        Action::Shoot { target, .. } | Action::CloseCombat { target, .. } | Action::Charge { target, .. } => {
            target
        }
        Action::Nested { kind: CombatKind::Shoot { .. }, target, .. } => target,
        Action::Firefight { kind: CombatKind::Shoot { .. } | CombatKind::CloseCombat { .. }, reactor } => {
            reactor
        }
        Action::React { kind: CombatKind::Shoot { .. } | CombatKind::CloseCombat { .. }, .. } => {
            state.dynamic().sequence.as_ref()?.actor
        }
        _ => return None,
    };
    let tm = state.models().get(target as usize)?;
    (tm.health == Health::Down).then(|| {
        format!(
            "{} is down: success takes it out (any damage to a downed model does, with no armour roll)",
            engine::render::model_name(state, target)
        )
    })
}

/// The test an option makes: the combat roll it adds to the sequence, or the movement test
/// its path needs.
pub(crate) fn test_of(state: &GameState, action: Action) -> Option<TestInfo> {
    let combat = matches!(
        action,
        Action::Shoot { .. }
            | Action::CloseCombat { .. }
            | Action::Reveal { .. }
            | Action::Template { .. }
            | Action::Dodge
            | Action::Nested { .. }
            | Action::React { .. }
            | Action::Firefight { .. }
    );
    let moves = state.declared_path(action).is_some_and(|p| p.first_dynamic.is_some());
    if !combat && !moves {
        return None;
    }
    let before = state.dynamic().sequence.as_ref().map_or(0, |s| s.rolls.len());
    let mut after = state.clone();
    after.apply_action(action).ok()?;
    let d = after.dynamic();
    if combat {
        let roll = d.sequence.as_ref()?.rolls.get(before)?;
        if roll.automatic {
            return None;
        }
        let (name, base, long, why) = super::words::attribute_of(state, roll);
        // Worked out where the option is chosen: once taken, the mover may already stand up.
        let modifiers = if state.dynamic().sequence.is_some() {
            state.roll_modifiers(roll)
        } else {
            after.roll_modifiers(roll)
        };
        let needed = if long { TestLevel::NailedIt } else { TestLevel::Pass };
        let tested = Tested::Combat { roll: before, needed };
        return Some(TestInfo { attr: roll.attr, name, base, tested, why, modifiers });
    }
    d.steps.iter().rev().find_map(|s| match s {
        Step::Test { purpose: engine::state::Purpose::Movement, attr, model, .. } => Some(TestInfo {
            attr: *attr,
            name: "Agility",
            base: state.profile(*model).agility,
            tested: Tested::Movement,
            why: None,
            modifiers: super::words::movement_modifiers(state, *model),
        }),
        _ => None,
    })
}

/// The decision's kind, for the page's wording.
fn step_name(step: &Step) -> &'static str {
    match step {
        Step::ChooseInitiative(_) => "initiative",
        Step::ChooseActivation => "activation",
        Step::ChooseAction(_) => "action",
        Step::ChooseNested => "nested",
        Step::ChooseReaction | Step::ChooseReactionBy(_) => "reaction",
        Step::ChooseFirefight => "firefight",
        Step::ChooseCard { .. } => "card",
        Step::ChooseAllocation { .. } => "allocation",
        Step::ChooseMidAir => "mid_air",
        Step::ChooseFallPoint { .. } => "fall_point",
        Step::ChooseContinuer { .. } => "continuer",
        Step::ChooseCommand => "command",
        Step::ChooseCommandAp { .. } => "command_ap",
        Step::ChooseDodgeMove { .. } => "dodge_move",
        Step::Scenario(_) => "setup",
        _ => "other",
    }
}
