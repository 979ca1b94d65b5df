//! Where each model is heading: the scenario's objectives first, then the enemy.
//!
//! Objective tasks (an objective to take in Attack and Defend, a dropped prize in Couriers, a
//! marker worth looking at in Scavenger Hunt, the central treasure at the end of Assassinate)
//! are handed out greedily, nearest model first by walking distance, one model per task. A
//! prize carrier heads for the enemy edge. Everyone else hunts: the enemy that is worth the
//! most for the distance (the enemy leader in Assassinate, the grudge target in Grudge Match,
//! carriers), stopping at three quarters of its pass range when it shoots; a grudge holder
//! keeps its distance until its target is down.

use super::fields::{Fields, Mobility, FAR};
use super::view::{can_carry, leader, View};
use engine::board::CellIdx;
use engine::profile::Role;
use engine::scenario::zones::{edge_distance, EDGES};
use engine::scenario::Scenario;
use engine::state::ModelId;
use std::sync::Arc;

/// Where a model is heading and how much getting closer is worth.
#[derive(Clone, Debug)]
pub(super) struct Goal {
    /// Walking distance (tenths of an inch) from every cell to the goal; `None`: no goal.
    pub field: Option<Arc<Vec<u16>>>,
    /// Close enough: no value in getting nearer than this (tenths of an inch).
    pub stop: u16,
    /// Value of each inch of progress.
    pub weight: f64,
}

impl Goal {
    fn none() -> Goal {
        Goal { field: None, stop: 0, weight: 0.0 }
    }

    /// Value of standing on `cell` (never positive: minus the distance still to go).
    pub fn progress(&self, cell: CellIdx) -> f64 {
        let Some(f) = &self.field else { return 0.0 };
        let d = f[cell as usize];
        if d == FAR {
            return -self.weight * 200.0;
        }
        -self.weight * d.saturating_sub(self.stop) as f64 / 10.0
    }
}

/// Weight of an inch toward an objective task.
const TASK_WEIGHT: f64 = 0.08;
/// Weight of an inch toward the enemy when the scenario needs its models hunted down.
const HUNT_WEIGHT: f64 = 0.05;
/// Weight of an inch toward the enemy in a skirmish, where waiting in cover costs nothing.
const SKIRMISH_HUNT_WEIGHT: f64 = 0.02;

/// A cell a model should reach and interact at (or stand by).
struct Task {
    cell: CellIdx,
}

/// The side's objective tasks now.
fn tasks(view: &View) -> Vec<Task> {
    let side = view.side;
    let sc = &view.sc;
    let loose = |k: &engine::scenario::Marker| k.is_loose();
    match view.scenario {
        Scenario::AttackAndDefend => sc
            .markers
            .iter()
            .filter(|k| loose(k) && k.controller != Some(side))
            .map(|k| Task { cell: k.cell })
            .collect(),
        Scenario::Couriers => sc.markers.iter().filter(|k| loose(k)).map(|k| Task { cell: k.cell }).collect(),
        Scenario::ScavengerHunt => sc
            .markers
            .iter()
            .filter(|k| loose(k) && worth_looking(view, k))
            .map(|k| Task { cell: k.cell })
            .collect(),
        Scenario::Assassinate if view.state.turn() + 2 >= end_turn(view) => {
            vec![Task { cell: engine::scenario::zones::centre(view.state.board()) }]
        }
        _ => Vec::new(),
    }
}

/// The turn the game is expected to end on.
pub(super) fn end_turn(view: &View) -> u8 {
    let max = view.state.static_data().max_turns;
    let turn = view.state.turn();
    let early = match view.scenario {
        Scenario::Assassinate => (0..2).any(|s| {
            leader(view.state, s)
                .is_some_and(|l| view.state.models()[l as usize].health == engine::state::Health::TakenOut)
        }),
        Scenario::Couriers => view.sc.markers.iter().any(|m| m.off_table),
        _ => false,
    };
    if early {
        turn.max(4).min(max)
    } else {
        max
    }
}

/// Whether a loose Scavenger Hunt marker deserves an Interact: its number is unknown to the
/// side (and not publicly ruled out as the number sought), it is the number sought, or it was
/// dropped (revealed) and can be picked up.
pub(super) fn worth_looking(view: &View, k: &engine::scenario::Marker) -> bool {
    let sought = view.sc.sought[view.side as usize];
    if k.known == 0b11 {
        return true;
    }
    if k.known_to(view.side) {
        return k.number.is_some() && k.number == sought;
    }
    sought.is_none_or(|n| k.not & (1 << n) == 0)
}

/// Probability that looking at loose marker `k` finds the number sought.
pub(super) fn find_chance(view: &View, k: &engine::scenario::Marker) -> f64 {
    let side = view.side;
    let Some(n) = view.sc.sought[side as usize] else { return 0.0 };
    if k.known_to(side) {
        return if k.number == Some(n) { 1.0 } else { 0.0 };
    }
    if k.not & (1 << n) != 0 {
        return 0.0;
    }
    // Where is the number sought? Among the markers whose number the side does not know.
    if view.sc.markers.iter().any(|o| o.known_to(side) && o.number == Some(n)) {
        return 0.0;
    }
    let unknown = view.sc.markers.iter().filter(|o| !o.known_to(side) && o.not & (1 << n) == 0).count();
    1.0 / unknown.max(1) as f64
}

/// The cells from which a model touches a marker on `cell`: the cell itself when it can stand
/// there and its neighbours at most 1" above it (a marker on a statue can still be reached,
/// one below a roof cannot be reached from the roof).
fn touching(board: &engine::board::Board, cell: CellIdx) -> Vec<CellIdx> {
    let (x, y) = board.xy(cell);
    let top = board.cell(cell).height + 1;
    let mut out = Vec::with_capacity(9);
    for dy in -1..=1 {
        for dx in -1..=1 {
            if let Some(c) = board.checked_idx(x as i32 + dx, y as i32 + dy) {
                let here = board.cell(c);
                if here.terrain != engine::board::Terrain::Impassable && here.height <= top {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// The cells along the enemy's deployment edge (Couriers).
fn enemy_edge(view: &View) -> Vec<CellIdx> {
    let board = view.state.board();
    let edge = view.sc.zones[1 - view.side as usize][0];
    if edge >= EDGES {
        return Vec::new();
    }
    (0..board.len() as CellIdx).filter(|&c| edge_distance(board, c, edge) == 0).collect()
}

/// The goal of model `m`.
pub(super) fn goal(view: &View, fields: &mut Fields, m: ModelId) -> Goal {
    let state = view.state;
    let board = state.board();
    let mob = Mobility::of(state.profile(m).speed);
    if view.scenario == Scenario::Couriers && view.carries_prize(m) {
        // Leave where the enemy is not: edge cells near enemies cost up to a foot more.
        let edge: Vec<(CellIdx, u16)> = enemy_edge(view)
            .into_iter()
            .map(|c| {
                let near = view
                    .enemies(true)
                    .map(|e| board.centre_distance(c, 0, state.models()[e as usize].cell, 0))
                    .fold(12.0f32, f32::min);
                (c, ((12.0 - near) * 10.0) as u16)
            })
            .collect();
        if !edge.is_empty() {
            return Goal { field: Some(fields.get_weighted(board, mob, &edge)), stop: 0, weight: 0.2 };
        }
    }
    // On the last turn characters near the enemy edge leave by it for a point each.
    if view.scenario == Scenario::Couriers
        && view.last_turn
        && super::view::is_character(state, m)
        && view.sc.markers.iter().all(|k| !k.is_loose())
    {
        let edge = enemy_edge(view);
        let f = fields.get(board, mob, &edge);
        let reach =
            state.profile(m).speed.1 as u16 * 10 * state.models()[m as usize].ap.saturating_sub(1) as u16;
        if f[state.models()[m as usize].cell as usize] <= reach {
            return Goal { field: Some(f), stop: 0, weight: 0.2 };
        }
    }
    if view.scenario == Scenario::ScavengerHunt && view.carried(m) > 0 {
        return Goal::none();
    }
    if let Some(cell) = assigned_task(view, fields, m) {
        return Goal {
            field: Some(fields.get(board, mob, &touching(board, cell))),
            stop: 0,
            weight: TASK_WEIGHT,
        };
    }
    if view.scenario == Scenario::Assassinate && state.profile(m).role == Role::Leader {
        return Goal::none();
    }
    hunt(view, fields, m)
}

/// The task assigned to `m`, if any: tasks go to the nearest free model in turn.
fn assigned_task(view: &View, fields: &mut Fields, m: ModelId) -> Option<CellIdx> {
    let state = view.state;
    let tasks = tasks(view);
    if tasks.is_empty() {
        return None;
    }
    let workers: Vec<ModelId> = view
        .friends()
        .filter(|&f| {
            can_carry(state, f)
                && !(view.scenario == Scenario::Couriers && view.carries_prize(f))
                && !(view.scenario == Scenario::Assassinate && state.profile(f).role == Role::Leader)
        })
        .collect();
    if !workers.contains(&m) {
        return None;
    }
    let mut pairs: Vec<(u16, usize, ModelId)> = Vec::new();
    for (t, task) in tasks.iter().enumerate() {
        for &w in &workers {
            let f = fields.get(
                state.board(),
                Mobility::of(state.profile(w).speed),
                &touching(state.board(), task.cell),
            );
            let mut d = f[state.models()[w as usize].cell as usize];
            // Carriers look for more only when nobody else can.
            if view.carried(w) > 0 {
                d = d.saturating_add(400);
            }
            pairs.push((d, t, w));
        }
    }
    pairs.sort_unstable();
    let (mut taken_t, mut taken_w) = (Vec::new(), Vec::new());
    for (d, t, w) in pairs {
        if d == FAR || taken_t.contains(&t) || taken_w.contains(&w) {
            continue;
        }
        if w == m {
            return Some(tasks[t].cell);
        }
        taken_t.push(t);
        taken_w.push(w);
    }
    None
}

/// Hunt the enemy worth the most for its distance.
fn hunt(view: &View, fields: &mut Fields, m: ModelId) -> Goal {
    let state = view.state;
    let board = state.board();
    let me = &state.models()[m as usize];
    // In Couriers, clearing the way of the own prize carrier matters most.
    let carrier = view.friends().find(|&f| f != m && view.carries_prize(f));
    let mut best: Option<(f64, ModelId)> = None;
    for e in view.enemies(false) {
        let em = &state.models()[e as usize];
        // Worth hunting: what putting it down and then taking it out would score.
        let out = view.value_out(Some(m), e);
        let value = if em.is_conscious() { view.value_down(e) + out } else { out };
        if value < 0.3 && !em.is_conscious() {
            continue;
        }
        let d = board.centre_distance(me.cell, me.z, em.cell, em.z) as f64;
        let escort = carrier.map_or(0.0, |c| {
            let cm = &state.models()[c as usize];
            1.5 / (1.0 + board.centre_distance(cm.cell, cm.z, em.cell, em.z) as f64 / 6.0)
        });
        let score = (value + escort + 0.5) / (1.0 + d / 8.0);
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, e));
        }
    }
    let Some((_, e)) = best else { return Goal::none() };
    let range = best_range(view, m);
    let mut stop = if range > 0 { (range as u16 * 10 * 3 / 4).max(14) } else { 10 };
    // A grudge holder keeps its distance until the target is down, then closes to finish it.
    let holding = view.scenario == Scenario::GrudgeMatch
        && view
            .grudge()
            .is_some_and(|g| g.holder == m && !g.complete && state.models()[e as usize].is_conscious());
    if holding {
        stop = stop.max(range as u16 * 10).max(100);
    }
    let target = state.models()[e as usize].cell;
    let weight = if view.scenario == Scenario::Skirmish { SKIRMISH_HUNT_WEIGHT } else { HUNT_WEIGHT };
    Goal { field: Some(fields.get(board, Mobility::of(state.profile(m).speed), &[target])), stop, weight }
}

/// The longest pass range of `m`'s usable ranged weapons that shoot at models (0: none).
pub(super) fn best_range(view: &View, m: ModelId) -> u8 {
    let state = view.state;
    let mm = &state.models()[m as usize];
    state
        .profile(m)
        .weapons
        .iter()
        .enumerate()
        .filter(|(i, w)| {
            w.range.is_some()
                && engine::state::template::template_of(w).is_none()
                && mm.can_use(*i as u8, w.scarce())
        })
        .map(|(_, w)| w.range.map_or(0, |r| r.0))
        .max()
        .unwrap_or(0)
}
