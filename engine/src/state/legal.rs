//! Legal-action generation: what the side to move may do at each decision node.

use super::sight::cells_touch;
use super::steps::{can_activate, has_eligible, move_spec, other_side, MoverOccupancy, Step};
use super::{Action, GameState, ModelId, Stance};
use crate::movement::{self, MoveSpec, Occupancy};

/// Fill `out` with the actions available at the current node, sorted and without duplicates.
pub(super) fn generate(state: &GameState, out: &mut Vec<Action>) {
    let d = state.dynamic();
    let Some(step) = d.steps.last() else { return };
    match step {
        Step::RollOff | Step::Test { .. } | Step::Armour { .. } => {
            let n = state.chance_outcomes().len();
            out.extend((0..n).map(|i| Action::Chance(i as u8)));
        }
        Step::ChooseInitiative(_) => out.extend([Action::TakeInitiative, Action::GiveInitiative]),
        Step::ChooseActivation => {
            for (i, m) in d.models.iter().enumerate() {
                if m.side == d.active && can_activate(m) {
                    out.push(Action::Activate(i as ModelId));
                }
            }
            if d.pass_tokens[d.active as usize] > 0 && has_eligible(state, other_side(d.active)) {
                out.push(Action::PassToken);
            }
        }
        Step::ChooseAction(m) => model_actions(state, *m, out),
        Step::ChooseMidAir => out.extend([Action::RestBack, Action::Fall]),
        Step::ChooseFallPoint { .. } => {
            let seq = d.sequence.as_ref().expect("sequence");
            let first = seq.path.first_dynamic.unwrap_or(0);
            out.extend((first..seq.path.points.len()).map(|i| Action::FallPoint(i as u8)));
        }
        Step::ChooseDodgeMove { model, budget } => dodge_moves(state, *model, *budget as u16, out),
        _ => {}
    }
    out.sort_unstable();
    out.dedup();
}

/// The actions of the active model (p.22): move, shoot, dodge, charge, close combat or end.
/// A model in base contact with an enemy may only fight or dodge (p.40).
fn model_actions(state: &GameState, m: ModelId, out: &mut Vec<Action>) {
    out.push(Action::EndActivation);
    let model = state.models()[m as usize];
    if model.ap == 0 {
        return;
    }
    let profile = state.profile(m);
    out.push(Action::Dodge);
    let in_contact = state.enemies_in_contact(m).next().is_some();
    if in_contact {
        for (wi, w) in profile.weapons.iter().enumerate() {
            if w.is_ranged() {
                continue;
            }
            for t in 0..state.models().len() as ModelId {
                let tm = &state.models()[t as usize];
                if tm.side != model.side && tm.is_on_table() && state.in_contact(m, t) {
                    out.push(Action::CloseCombat {
                        weapon: wi as u8,
                        target: t,
                    });
                }
            }
        }
        return;
    }
    moves(state, m, out);
    shots(state, m, out);
    charges(state, m, out);
}

fn moves(state: &GameState, m: ModelId, out: &mut Vec<Action>) {
    let model = state.models()[m as usize];
    let board = state.board();
    let occ = MoverOccupancy { state, mover: m };
    let can_go_prone = !matches!(model.stance, Stance::Swimming | Stance::Climbing);
    for prone in [false, true] {
        if prone && !can_go_prone {
            continue;
        }
        let (spec, stance_cost) = move_spec(state, m, prone);
        movement::reachable(board, &occ, &spec, |r| {
            let stays = r.cell == model.cell && r.cost == 0;
            if stays && stance_cost == 0 {
                return; // a move that changes nothing
            }
            if !stays && occ.occupied(r.cell) {
                return;
            }
            // Only a charge may end in base contact with an enemy (p.33).
            if state.touches_enemy(model.side, r.cell, board.cell(r.cell).height, Some(m)) {
                return;
            }
            out.push(Action::Move {
                dest: r.cell,
                prone,
            });
        });
    }
}

/// Shoot actions (p.30): a ranged weapon that is not jammed, an enemy in sight and within
/// "Nailed It" range that is not in base contact with a friend of the shooter; a target
/// screened by an enemy model may be shot only if it is the nearest visible enemy (p.65).
fn shots(state: &GameState, m: ModelId, out: &mut Vec<Action>) {
    let model = state.models()[m as usize];
    let profile = state.profile(m);
    if !profile
        .weapons
        .iter()
        .enumerate()
        .any(|(i, w)| w.is_ranged() && !model.is_jammed(i as u8))
    {
        return;
    }
    let mut nearest = f32::INFINITY;
    let mut candidates: [(ModelId, f32, bool); 32] = [(0, 0.0, false); 32];
    let mut n = 0;
    for t in 0..state.models().len() as ModelId {
        let tm = state.models()[t as usize];
        if tm.side == model.side || !tm.is_on_table() || n == candidates.len() {
            continue;
        }
        let Some(sight) = state.model_sight(m, t) else {
            continue;
        };
        let dist = state.distance(m, t);
        if tm.is_conscious() {
            nearest = nearest.min(dist);
        }
        let engaged_with_friend = state.models().iter().enumerate().any(|(f, fm)| {
            fm.side == model.side
                && fm.is_conscious()
                && f as ModelId != m
                && state.in_contact(f as ModelId, t)
        });
        if !engaged_with_friend {
            candidates[n] = (t, dist, sight.screened_by_enemy);
            n += 1;
        }
    }
    for &(t, dist, screened) in &candidates[..n] {
        if screened && dist > nearest {
            continue;
        }
        for (wi, w) in profile.weapons.iter().enumerate() {
            let Some((_, nailed_range)) = w.range else {
                continue;
            };
            if !model.is_jammed(wi as u8) && dist <= nailed_range as f32 {
                out.push(Action::Shoot {
                    weapon: wi as u8,
                    target: t,
                });
            }
        }
    }
}

/// Charge actions (p.33): a path ending in base contact with a conscious enemy target.
fn charges(state: &GameState, m: ModelId, out: &mut Vec<Action>) {
    let model = state.models()[m as usize];
    let profile = state.profile(m);
    let board = state.board();
    let targets: Vec<ModelId> = (0..state.models().len() as ModelId)
        .filter(|&t| {
            let tm = &state.models()[t as usize];
            tm.side != model.side && tm.is_conscious()
        })
        .collect();
    if targets.is_empty() {
        return;
    }
    let occ = MoverOccupancy { state, mover: m };
    let (spec, _) = move_spec(state, m, false);
    movement::reachable(board, &occ, &spec, |r| {
        if occ.occupied(r.cell) || (r.cell == model.cell && r.cost == 0) {
            return;
        }
        let z = board.cell(r.cell).height;
        for &t in &targets {
            let tm = &state.models()[t as usize];
            if cells_touch(state, r.cell, z, tm.cell, tm.z) {
                for (wi, w) in profile.weapons.iter().enumerate() {
                    if !w.is_ranged() {
                        out.push(Action::Charge {
                            target: t,
                            weapon: wi as u8,
                            dest: r.cell,
                        });
                    }
                }
            }
        }
    });
}

/// Dodge-move destinations (p.32): normal or restricted movement within the allowance, not
/// into base contact with an enemy (a dodge move may not charge); staying put is allowed.
fn dodge_moves(state: &GameState, m: ModelId, budget: u16, out: &mut Vec<Action>) {
    let model = state.models()[m as usize];
    let board = state.board();
    out.push(Action::DodgeMove(model.cell));
    let occ = MoverOccupancy { state, mover: m };
    let spec = MoveSpec {
        start: model.cell,
        start_z: model.z,
        crawl: model.stance == Stance::Prone,
        budget_free: budget,
        budget_restricted: budget,
    };
    movement::reachable(board, &occ, &spec, |r| {
        if r.dynamic || occ.occupied(r.cell) {
            return;
        }
        if state.touches_enemy(model.side, r.cell, board.cell(r.cell).height, Some(m)) {
            return;
        }
        out.push(Action::DodgeMove(r.cell));
    });
}
