//! What the Encounter page shows, as JSON: the board's squares, the models with their state,
//! the party's decision (the prompt and every option in the engine's own words and odds,
//! `Encounter::decision_prompt`, `describe_option` and `option_odds`), the log and the result.

use super::table::EncounterTable;
use agents::Game;
use encounter::board::{Cell, Terrain, HEIGHT, WIDTH};
use encounter::state::Pending;
use encounter::{Action, Encounter, Phase, DM_SIDE, PARTY_SIDE};
use serde_json::{json, Value};

/// The whole view of the table now.
pub fn view_json(table: &EncounterTable) -> Value {
    let state = table.state();
    let options = table.options();
    let decision = (!options.is_empty()).then(|| {
        json!({
            "prompt": state.decision_prompt(),
            "no_shot": state.why_no_shot(),
            "model": decider(state),
            "options": options.iter().enumerate().map(|(i, &a)| option_json(state, i, a)).collect::<Vec<_>>(),
        })
    });
    let over =
        state.winner().map(|w| if w == PARTY_SIDE { "the party wins" } else { "the Dungeon Master wins" });
    let over = state.is_terminal().then(|| {
        json!({
            "result": format!("{} after {} round(s)", over.unwrap_or("a draw"), state.round()),
            "winner": state.winner().map(|w| if w == PARTY_SIDE { "party" } else { "dm" }),
        })
    });
    let setup = table.setup();
    json!({
        "version": table.version(),
        "round": state.round(),
        "phase": format!("{:?}", state.phase()),
        "momentum": state.momentum_left(),
        "pool": state.pool(),
        "threat": state.threat(),
        "winds": state.winds(),
        "seed": setup.seed,
        "dm": setup.dm,
        "record": table.record_path().display().to_string(),
        "quit": table.has_quit(),
        "board": board_json(state),
        "models": models_json(state),
        "decision": decision,
        "log": state.log(),
        "over": over,
    })
}

/// The squares, row by row (`y` from 0), as terrain names.
fn board_json(state: &Encounter) -> Value {
    let stuck = |c: Cell| state.stuck_doors().iter().any(|d| d.cell == c);
    let rows: Vec<Vec<&str>> = (0..HEIGHT as u8)
        .map(|y| {
            (0..WIDTH as u8)
                .map(|x| {
                    let c = Cell::new(x, y);
                    match state.board().at(c) {
                        Terrain::Floor => "floor",
                        Terrain::Wall => "wall",
                        Terrain::Obstacle => "obstacle",
                        Terrain::Door { open: true } => "open door",
                        Terrain::Door { open: false } if stuck(c) => "stuck door",
                        Terrain::Door { open: false } => "door",
                    }
                })
                .collect()
        })
        .collect();
    json!({"width": WIDTH, "height": HEIGHT, "rows": rows})
}

/// Every model: where it stands (while on the board), its state, and the letter the text
/// board gives it (`0`–`3` the party, `a`–`e` the adversaries).
fn models_json(state: &Encounter) -> Value {
    let party = encounter::data::PARTY.len() as u8;
    let active = state.activation().map(|a| a.model);
    let models: Vec<Value> = state
        .models()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let i = i as u8;
            let status = if m.dead {
                "slain"
            } else if m.body() {
                "out of play, lying on the board (drag or abandon)"
            } else if m.routed {
                "Broken, routed off the board"
            } else if m.out {
                "out of play"
            } else {
                "in play"
            };
            let on_board = m.in_play() || m.body();
            let side = m.side();
            let intent = match side {
                DM_SIDE if state.phase() == Phase::Declare => None,
                _ => m.intent.map(|t| format!("{t:?}")),
            };
            json!({
                "i": i,
                "name": m.profile.name,
                "letter": if i < party { ((b'0' + i) as char).to_string() } else { ((b'a' + i - party) as char).to_string() },
                "side": if side == PARTY_SIDE { "party" } else { "dm" },
                "kind": format!("{:?}", m.profile.kind),
                "cell": on_board.then_some([m.cell.x, m.cell.y]),
                "wounds": m.wounds,
                "max_wounds": m.profile.wounds,
                "armour": m.armour,
                "soak": m.soak,
                "luck": m.luck,
                "fate": m.fate,
                "conditions": m.conditions.names(),
                "status": status,
                "intent": intent,
                "active": active == Some(i),
            })
        })
        .collect();
    Value::Array(models)
}

/// The model whose decision it is, where a pending question names one.
fn decider(state: &Encounter) -> Option<u8> {
    match state.pending().last() {
        Some(&Pending::Interrupt { by }) => Some(by),
        Some(&Pending::Soak { target, .. }) => Some(target),
        Some(&Pending::Fate { model, .. }) => Some(model),
        Some(Pending::Channel(c)) => Some(c.caster),
        Some(Pending::Reroll(check, _)) => check.luck,
        _ => match state.activation() {
            Some(a) => Some(a.model),
            None if state.phase() == Phase::Declare => state.next_declarer(PARTY_SIDE).first().copied(),
            None => None,
        },
    }
}

/// One option: the engine's words (without the odds) and its odds apart, and the square or
/// model it is about, for the board.
fn option_json(state: &Encounter, i: usize, action: Action) -> Value {
    let label = state.describe_option(action);
    let odds = state.option_odds(action).map(|o| o.to_string());
    let text = match &odds {
        Some(o) => label.strip_suffix(&format!(" [{o}]")).unwrap_or(&label).to_string(),
        None => label.clone(),
    };
    let model_cell = |m: u8| state.models().get(m as usize).map(|x| x.cell);
    let (cell, model) = match action {
        Action::Advance(c)
        | Action::Reposition(c)
        | Action::Disengage { to: c, .. }
        | Action::Drag { to: c, .. }
        | Action::OpenDoor(c)
        | Action::ForceDoor(c) => (Some(c), None),
        Action::Cast { at, .. } => (Some(at), state.model_at(at)),
        Action::Strike { target: m, .. }
        | Action::Shoot { target: m, .. }
        | Action::ChangePlace { ally: m, .. }
        | Action::Assist { ally: m } => (model_cell(m), Some(m)),
        _ => (None, None),
    };
    json!({
        "i": i,
        "text": text,
        "label": label,
        "odds": odds,
        "cell": cell.map(|c| [c.x, c.y]),
        "model": model,
    })
}
