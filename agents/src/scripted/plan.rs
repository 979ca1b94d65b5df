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
use super::goal::{best_range, expected_end, Goal};
use super::view::{can_carry, View};
use engine::board::CellIdx;
use engine::state::ModelId;

/// Weight of an inch toward an objective task.
const TASK_WEIGHT: f64 = 0.08;
/// The turn the game is expected to end on.
pub(super) fn end_turn(view: &View) -> u8 {
    expected_end(view, view.plan().ends_early(view.state, &view.sc))
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

/// The goal of model `m`.
pub(super) fn goal(view: &View, fields: &mut Fields, m: ModelId) -> Goal {
    let state = view.state;
    let board = state.board();
    if let Some(goal) = view.plan().own_goal(view, fields, m) {
        return goal;
    }
    if let Some(cell) = assigned_task(view, fields, m) {
        return Goal {
            field: Some(fields.get(board, Mobility::of(state.profile(m).speed), &touching(board, cell))),
            stop: 0,
            weight: TASK_WEIGHT,
        };
    }
    hunt(view, fields, m)
}

/// The task assigned to `m`, if any: tasks go to the nearest free model in turn.
fn assigned_task(view: &View, fields: &mut Fields, m: ModelId) -> Option<CellIdx> {
    let state = view.state;
    let tasks = view.plan().tasks(view);
    if tasks.is_empty() {
        return None;
    }
    let workers: Vec<ModelId> =
        view.friends().filter(|&f| can_carry(state, f) && view.plan().takes_tasks(view, f)).collect();
    if !workers.contains(&m) {
        return None;
    }
    let mut pairs: Vec<(u16, usize, ModelId)> = Vec::new();
    for (t, &task) in tasks.iter().enumerate() {
        for &w in &workers {
            let f = fields.get(
                state.board(),
                Mobility::of(state.profile(w).speed),
                &touching(state.board(), task),
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
            return Some(tasks[t]);
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
    let holding = view.plan().keeps_distance(view, m, e);
    if holding {
        stop = stop.max(range as u16 * 10).max(100);
    }
    let target = state.models()[e as usize].cell;
    let weight = view.plan().hunt_weight();
    Goal { field: Some(fields.get(board, Mobility::of(state.profile(m).speed), &[target])), stop, weight }
}
