//! Stable text renderings of a game for people: the board with its models, a model roster,
//! and one-line descriptions of actions.

use crate::board::{Cover, Terrain};
use crate::state::{Action, CombatKind, GameState, Health, ModelId, Player, Stance};
use std::fmt::Write;

/// The letter that marks model `m` on the map (see [`GameState::model_letter`]).
pub fn model_letter(state: &GameState, m: ModelId) -> char {
    state.model_letter(m)
}

/// "Nix [A]": a model's name and map letter (see [`GameState::model_name`]).
pub fn model_name(state: &GameState, m: ModelId) -> String {
    state.model_name(m)
}

/// The board as a character map, row 0 at the top. Models are letters; terrain is `.` open
/// ground, `1`-`9` raised ground of that height (`+` above 9), `~` water, `,` rough, `#`
/// impassable, `"` soft cover and `%` hard cover; ambush markers are `?` (passive) and `!`
/// (active).
pub fn render_map(state: &GameState) -> String {
    let board = state.board();
    let mut out = String::new();
    for y in 0..board.depth() {
        for x in 0..board.width() {
            let idx = board.idx(x, y);
            let model = state.models().iter().position(|m| m.cell == idx && m.is_on_table());
            let c = board.cell(idx);
            let marker = state.dynamic().uc.marker_at(idx).map(|i| state.dynamic().uc.markers[i as usize]);
            let ch = if let Some(m) = model {
                model_letter(state, m as ModelId)
            } else if let Some(mk) = marker {
                if mk.active {
                    '!'
                } else {
                    '?'
                }
            } else {
                match (c.terrain, c.cover) {
                    (Terrain::Water, _) => '~',
                    (Terrain::Rough, _) => ',',
                    (Terrain::Impassable, _) => '#',
                    (_, Cover::Soft) => '"',
                    (_, Cover::Hard) => '%',
                    _ if c.height == 0 => '.',
                    _ if c.height <= 9 => (b'0' + c.height) as char,
                    _ => '+',
                }
            };
            out.push(ch);
        }
        out.push('\n');
    }
    out
}

/// One line per model: letter, name, side, wounds, AP, stance and health.
pub fn render_roster(state: &GameState) -> String {
    let mut out = String::new();
    for (i, m) in state.models().iter().enumerate() {
        let p = state.profile(i as ModelId);
        let (x, y) = state.board().xy(m.cell);
        let health = match m.health {
            Health::Conscious if m.wounds < p.wounds => "wounded",
            Health::Conscious => "healthy",
            Health::Down => "down",
            Health::TakenOut => "taken out",
            Health::Remounted => "remounted",
            Health::Reserve => "not deployed",
            Health::LeftTable => "left the table",
        };
        let _ = writeln!(
            out,
            "{} side {} {:<22} W {}/{} AP {}/{} at ({x},{y}) h{} {:<9} {health}{}",
            model_letter(state, i as ModelId),
            ["A", "B", "AI"][m.side.min(2) as usize],
            p.name,
            m.wounds,
            p.wounds,
            m.ap,
            p.ap_max,
            m.z,
            stance_name(m.stance),
            tokens_text(m),
        );
    }
    out
}

/// Tokens and weapon states worth showing next to a model.
fn tokens_text(m: &crate::state::ModelState) -> String {
    let mut t = String::new();
    if m.jammed != 0 {
        t.push_str(" jammed");
    }
    if m.broken != 0 {
        t.push_str(" broken");
    }
    if m.tokens.fire > 0 {
        t.push_str(&format!(" fire×{}", m.tokens.fire));
    }
    if m.tokens.blind {
        t.push_str(" blind");
    }
    if m.tokens.slow != (0, 0) {
        t.push_str(&format!(" slow-{}/{}", m.tokens.slow.0, m.tokens.slow.1));
    }
    t
}

/// The full text view: turn, node, map and roster.
pub fn render(state: &GameState) -> String {
    let d = state.dynamic();
    let node = match state.current_player() {
        Player::Terminal => "game over".to_string(),
        _ => state.describe_node(),
    };
    format!(
        "Turn {} · initiative side {} · pass tokens A {} B {} · {node}\n{}\n{}",
        d.turn,
        side_letter(d.initiative),
        d.pass_tokens[0],
        d.pass_tokens[1],
        render_map(state),
        render_roster(state)
    )
}

fn side_letter(side: u8) -> char {
    (b'A' + side) as char
}

fn stance_name(s: Stance) -> &'static str {
    match s {
        Stance::Standing => "standing",
        Stance::Prone => "prone",
        Stance::Swimming => "swimming",
        Stance::Climbing => "climbing",
    }
}

/// Describe `action` as taken in `state` (before it is applied), with names and coordinates.
pub fn describe_action(state: &GameState, action: Action) -> String {
    let board = state.board();
    let at = |c: u16| {
        let (x, y) = board.xy(c);
        format!("({x},{y})")
    };
    let d = state.dynamic();
    let actor = d.activating.or(d.sequence.as_ref().map(|s| s.actor));
    let who = |m: Option<ModelId>| m.map_or_else(|| "?".to_string(), |m| model_name(state, m));
    // The side choosing, for the decisions that name no model.
    let side = match state.current_player() {
        Player::Side(s) => format!("side {}", side_letter(s)),
        _ => "nobody".to_string(),
    };
    let weapon = |m: Option<ModelId>, w: u8| {
        m.and_then(|m| state.profile(m).weapons.get(w as usize).map(|w| w.name.clone())).unwrap_or_default()
    };
    match action {
        Action::Chance(i) => crate::state::describe_outcome(state, i),
        Action::TakeInitiative => format!("{side} takes the initiative"),
        Action::GiveInitiative => format!("{side} gives the initiative"),
        Action::Activate(m) => format!("{side} activates {}", model_name(state, m)),
        Action::PassToken => format!("side {} discards a pass token", side_letter(d.active)),
        Action::Move { dest, prone } => {
            format!("{} {} towards {}", who(actor), if prone { "crawls" } else { "moves" }, at(dest))
        }
        Action::Dismount { dest, at_end } => format!(
            "{} dismounts {} and the mount goes on to {}",
            who(actor),
            if at_end { "at the end of the move" } else { "at once" },
            at(dest)
        ),
        Action::Remount { dest } => format!("{} remounts from {}", who(actor), at(dest)),
        Action::Shoot { weapon: w, target } => {
            format!("{} shoots {} with {}", who(actor), model_name(state, target), weapon(actor, w))
        }
        Action::Reveal { target } => format!("{} tries to reveal {}", who(actor), model_name(state, target)),
        Action::Template { weapon: w, at: c } => {
            format!("{} fires {} at {}", who(actor), weapon(actor, w), at(c))
        }
        Action::Dodge => format!("{} dodges", who(actor)),
        Action::Charge { target, weapon: w, dest } => format!(
            "{} charges {} with {} to {}",
            who(actor),
            model_name(state, target),
            weapon(actor, w),
            at(dest)
        ),
        Action::CloseCombat { weapon: w, target } => {
            format!("{} fights {} with {}", who(actor), model_name(state, target), weapon(actor, w))
        }
        Action::Interact { kind: crate::state::InteractKind::FirstAid, target } => {
            format!("{} gives first aid to {}", who(actor), model_name(state, target))
        }
        Action::Interact { kind: crate::state::InteractKind::Repair { weapon: w }, target } => {
            format!("{} repairs {}'s {}", who(actor), model_name(state, target), weapon(Some(target), w))
        }
        Action::Interact { kind: crate::state::InteractKind::Marker { marker }, .. } => {
            format!("{} interacts with marker {}", who(actor), marker as u16 + 1)
        }
        Action::Interact { kind: crate::state::InteractKind::Give { marker }, target } => {
            format!("{} passes prize {} to {}", who(actor), marker as u16 + 1, model_name(state, target))
        }
        Action::Interact { kind: crate::state::InteractKind::Take { marker }, target } => {
            format!("{} takes prize {} from {}", who(actor), marker as u16 + 1, model_name(state, target))
        }
        Action::Interact { kind: crate::state::InteractKind::Recognise { marker }, .. } => {
            let at_cell = state.dynamic().uc.markers[marker as usize].cell;
            format!("{} recognises the ambush marker at {}", who(actor), at(at_cell))
        }
        Action::EndActivation => format!("{} ends its activation", who(actor)),
        Action::NoNested => format!("{} nests no action", who(actor)),
        Action::Nested { kind, target, point } => {
            format!(
                "{} nests {} at {}",
                who(actor),
                combat(state, actor, kind, Some(target)),
                path_point(state, point)
            )
        }
        Action::React { model, kind, point } => format!(
            "{} reacts: {} at {}",
            model_name(state, model),
            combat(state, Some(model), kind, actor),
            path_point(state, point)
        ),
        Action::EndReactions => format!("{side} makes no more reactions"),
        Action::Firefight { kind: CombatKind::Dodge, reactor } => {
            format!("{} starts a firefight: dodges {}'s reaction", who(actor), model_name(state, reactor))
        }
        Action::Firefight { kind, reactor } => {
            format!("{} starts a firefight: {}", who(actor), combat(state, actor, kind, Some(reactor)))
        }
        Action::NoFirefight => format!("{} starts no firefight", who(actor)),
        Action::Command { donor, recipient } => format!(
            "{} orders an AP from {} to {}",
            who(actor),
            model_name(state, donor),
            model_name(state, recipient)
        ),
        Action::CommandAp(n) => format!("{} has the order move {n} AP", who(actor)),
        Action::NoCommand => format!("{} gives no command order", who(actor)),
        Action::PlayCard { card, target } => {
            let owner = state.models()[target as usize].side as usize;
            let cards = state.static_data().cards.get(owner);
            let name = cards.and_then(|c| c.get(card as usize)).map_or("?", |c| c.name.as_str());
            format!("{side} plays {name} on {}", model_name(state, target))
        }
        Action::NoCard => format!("{side} plays no card"),
        Action::AllocateRider => format!("{side} sends the damage to the rider"),
        Action::AllocateMount => format!("{side} sends the damage to the mount"),
        Action::RestBack => format!("{} stops at the last resting point", who(actor)),
        Action::Fall => format!("{} lets itself fall", who(actor)),
        Action::FallPoint(i) => {
            // Path points are numbered as reactions name them: 0 is the start.
            format!("{side} makes {} fall from path point {}", who(actor), i as u16 + 1)
        }
        Action::DodgeMove(c) => match d.steps.last() {
            Some(crate::state::Step::ChooseDodgeMove { model, .. }) => {
                format!("{} dodges to {}", model_name(state, *model), at(c))
            }
            _ => format!("dodge move to {}", at(c)),
        },
        Action::PlayerA(s) => format!("side {} becomes the scenario's player A", side_letter(s)),
        Action::Grudge { holder, target } => {
            format!("{} swears a grudge against {}", model_name(state, holder), model_name(state, target))
        }
        Action::Nominate(m) => format!("{side} nominates {}", model_name(state, m)),
        Action::Zone(z) => format!("{side} {}", crate::scenario::describe_zone_choice(state, z)),
        Action::Deploy(c) => match d.steps.last() {
            Some(crate::state::Step::Scenario(crate::scenario::ScenarioStep::Deploy { model, .. })) => {
                format!("{} deploys at {}", model_name(state, *model), at(c))
            }
            _ => format!("{side} places a marker at {}", at(c)),
        },
        Action::Reserve => match d.steps.last() {
            Some(crate::state::Step::Scenario(crate::scenario::ScenarioStep::Deploy { model, .. })) => {
                format!("{} waits to arrive later", model_name(state, *model))
            }
            _ => format!("{side} keeps the model back"),
        },
        Action::LeaveTable => format!("{} leaves the table", who(actor)),
    }
}

/// "shoots Kaneda [a] with Recurve", "dodges", "fights Nix [B] with Machete".
fn combat(state: &GameState, model: Option<ModelId>, kind: CombatKind, target: Option<ModelId>) -> String {
    let weapon = |w: u8| {
        model
            .and_then(|m| state.profile(m).weapons.get(w as usize).map(|w| w.name.clone()))
            .unwrap_or_default()
    };
    let target = target.map_or_else(|| "?".to_string(), |t| model_name(state, t));
    match kind {
        CombatKind::Shoot { weapon: w } => format!("shoots {target} with {}", weapon(w)),
        CombatKind::Dodge => "dodges".into(),
        CombatKind::Reveal => format!("tries to reveal {target}"),
        CombatKind::Template { weapon: w } => format!("fires {}", weapon(w)),
        CombatKind::CloseCombat { weapon: w } => format!("fights {target} with {}", weapon(w)),
    }
}

/// "the start", or "path point 3" (the numbered circles on a table's declared path).
fn path_point(state: &GameState, point: u8) -> String {
    let seq = state.dynamic().sequence.as_ref();
    match seq.filter(|s| point > 0 && (point as usize) <= s.path.points.len()) {
        Some(_) => format!("path point {point}"),
        None => "the start".into(),
    }
}
