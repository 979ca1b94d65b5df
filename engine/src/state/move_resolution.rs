//! Moving the active model along its declared path (Test A and Apply A, p.39; the movement
//! rules of pp.24-28): how far the movement test lets it go, legal resting points, the
//! mid-air choice, falls and falling damage.

use super::actors::other_side;
use super::damage::{add_damage, self_armour};
use super::model::{ModelId, Stance};
use super::sequence::Sequence;
use super::step::Step;
use super::{Action, GameState};
use crate::board::{CellIdx, Terrain};
use crate::dice::TestLevel;
use crate::movement::{MoveSpec, Occupancy, ORTHO};

/// The movement rules for `m` crawling (`prone`) or not.
pub(super) fn move_spec(state: &GameState, m: ModelId, prone: bool) -> (MoveSpec, u16) {
    let model = &state.dyn_.models[m as usize];
    // An AI model moves as far as its card's box says (seed 003, "Movement (enemy)"), less
    // its Slow (the Nailed It X, p.53; ruling 140) and 1" to stand up from prone (p.25, 003
    // "Prone"; ruling 141).
    if model.side == crate::uc::AI_SIDE {
        let stance_cost = if model.stance == Stance::Prone { ORTHO } else { 0 };
        let inches = state.dyn_.uc.move_inches.saturating_sub(model.tokens.slow.1);
        let budget = (inches as u16 * ORTHO).saturating_sub(stance_cost);
        let spec = MoveSpec {
            start: model.cell,
            start_z: model.z,
            crawl: false,
            budget_free: budget,
            budget_restricted: budget,
            ignore_terrain: state.dyn_.uc.red,
        };
        return (spec, stance_cost);
    }
    let (pass, nailed) = state.profile(m).speed;
    // Slow(X/X) takes X off both speeds (p.53).
    let (pass, nailed) =
        (pass.saturating_sub(model.tokens.slow.0), nailed.saturating_sub(model.tokens.slow.1));
    let was_prone = model.stance == Stance::Prone;
    let stance_cost = if prone != was_prone { ORTHO } else { 0 };
    let spec = MoveSpec {
        start: model.cell,
        start_z: model.z,
        crawl: prone,
        budget_free: (nailed as u16 * ORTHO).saturating_sub(stance_cost),
        budget_restricted: (pass as u16 * ORTHO).saturating_sub(stance_cost),
        ignore_terrain: false,
    };
    (spec, stance_cost)
}

/// Movement occupancy for one mover: conscious enemies block; any other model on the table
/// occupies its cell.
pub struct MoverOccupancy<'a> {
    /// The game.
    pub state: &'a GameState,
    /// The moving model.
    pub mover: ModelId,
}

impl Occupancy for MoverOccupancy<'_> {
    fn for_each_blocked(&self, mut f: impl FnMut(CellIdx)) {
        let side = self.state.dyn_.models[self.mover as usize].side;
        for o in &self.state.dyn_.models {
            // Stealthed models are moved through (p.48).
            if o.side != side && o.is_conscious() && !o.tokens.stealth {
                f(o.cell);
            }
        }
    }

    fn key(&self) -> u64 {
        // FNV-1a over the mover and every model's cell, side and health.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |v: u64| {
            h ^= v;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        mix(self.mover as u64);
        for m in &self.state.dyn_.models {
            mix(m.cell as u64
                | (m.side as u64) << 16
                | (m.health as u64) << 24
                | (m.tokens.stealth as u64) << 32);
        }
        h
    }

    fn occupied(&self, cell: CellIdx) -> bool {
        // No model may stand on an ambush marker (seed 003, "Ambush markers").
        self.state.dyn_.uc.marker_at(cell).is_some()
            || self
                .state
                .dyn_
                .models
                .iter()
                .enumerate()
                .any(|(i, o)| i != self.mover as usize && o.cell == cell && o.is_on_table())
    }
}

/// Test A (p.39): how far the movement test result takes the mover.
pub(super) fn resolve_move(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let actor = seq.actor;
    let last = seq.path.points.len().checked_sub(1);
    let Some(test) = seq.move_test else {
        reach(state, last);
        place_on_path(state, actor, last);
        return;
    };
    match test.level {
        TestLevel::Fail => {
            let first = seq.path.first_dynamic.expect("tested path has a dynamic step");
            reach(state, first.checked_sub(1));
            place_on_path(state, actor, first.checked_sub(1));
        }
        TestLevel::Blunder => {
            let chooser = other_side(state.dyn_.models[actor as usize].side);
            state.dyn_.steps.push(Step::ChooseFallPoint { chooser });
        }
        TestLevel::Pass => {
            let budget = pass_budget(state, seq);
            let reached = seq.path.points.iter().rposition(|p| p.cost <= budget);
            reach(state, reached);
            let seq = state.dyn_.sequence.as_ref().expect("sequence");
            match reached {
                Some(i) if !seq.path.points[i].rest => {
                    state.dyn_.sequence.as_mut().expect("sequence").mid_air = Some(i as u8);
                    state.dyn_.steps.push(Step::ChooseMidAir);
                }
                other => place_on_path(state, actor, other),
            }
        }
        TestLevel::NailedIt | TestLevel::Feat => {
            if super::actors::is_ai(state, actor) {
                // Frenzy: the full move as nailed it, then the whole box again (seed 003,
                // Conversion, "Terrain and dynamic movement").
                state.dyn_.uc.frenzy = test.level == TestLevel::Feat;
            } else if test.level == TestLevel::Feat {
                state.dyn_.models[actor as usize].pending.feat_ap += 1;
            }
            reach(state, last);
            place_on_path(state, actor, last);
        }
    }
}

/// Record the last path index the mover reached (`None`: it never left its start). A burning
/// mover that entered water anywhere on the way has lost its Fire tokens there, even if the
/// move carries it out again (p.40 "When Models enter water they will automatically lose any
/// and all Fire Tokens"; Fire(X), p.53).
pub(super) fn reach(state: &mut GameState, idx: Option<usize>) {
    let seq = state.dyn_.sequence.as_mut().expect("sequence");
    seq.reached = idx.map_or(0, |i| i as u8 + 1);
    let actor = seq.actor;
    if water_on_path(state, 0) {
        state.dyn_.models[actor as usize].tokens.fire = 0;
    }
}

/// Whether the mover of the sequence is in water at path point `from` (0 = its start) or
/// enters water at any later point it reached: what it then carries of fire is put out
/// (p.40, p.53). Points mid-leap or mid-climb above the water do not count.
pub(super) fn water_on_path(state: &GameState, from: u8) -> bool {
    let Some(seq) = state.dyn_.sequence.as_ref() else { return false };
    let board = state.board();
    let wet = |cell: crate::board::CellIdx, z: u8| {
        let c = board.cell(cell);
        c.terrain == Terrain::Water && z <= c.height
    };
    if from == 0 && wet(seq.origin, board.cell(seq.origin).height) {
        return true;
    }
    let reached = (seq.reached as usize).min(seq.path.points.len());
    let first = (from as usize).saturating_sub(1);
    seq.path.points.get(first..reached).is_some_and(|points| points.iter().any(|p| wet(p.cell, p.z)))
}

/// Put the mover at path point `idx` (or leave it at its start for `None`) and set its stance.
/// A point where it may not stop — mid-leap, on another model or an ambush marker, or (for a
/// move, not a charge) in base contact with an enemy — sends it back along its path to the
/// last point where it may (p.28 "Legal Resting Point").
pub(super) fn place_on_path(state: &mut GameState, m: ModelId, idx: Option<usize>) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let prone = seq.prone;
    let charge = matches!(seq.declared, Action::Charge { .. });
    let side = state.dyn_.models[m as usize].side;
    let stop = idx.and_then(|i| {
        (0..=i).rev().find(|&j| {
            let p = seq.path.points[j];
            let taken = state
                .dyn_
                .models
                .iter()
                .enumerate()
                .any(|(o, om)| o != m as usize && om.cell == p.cell && om.is_on_table())
                || state.dyn_.uc.marker_at(p.cell).is_some();
            p.rest && !taken && (charge || !state.touches_enemy(side, p.cell, p.z, Some(m)))
        })
    });
    if let Some(p) = stop.map(|i| seq.path.points[i]) {
        let model = &mut state.dyn_.models[m as usize];
        model.cell = p.cell;
        model.z = p.z;
    }
    settle_stance(state, m, prone);
}

/// Stance after moving: climbing above the surface, swimming in water, else prone or
/// standing as chosen.
pub(super) fn settle_stance(state: &mut GameState, m: ModelId, prone: bool) {
    let model = state.dyn_.models[m as usize];
    let cell = *state.board().cell(model.cell);
    // Cavalry models are never prone (p.61).
    let prone = prone && state.profile(m).model_type != crate::profile::ModelType::Cavalry;
    let stance = if model.z > cell.height {
        Stance::Climbing
    } else if cell.terrain == Terrain::Water {
        Stance::Swimming
    } else if prone {
        Stance::Prone
    } else {
        Stance::Standing
    };
    let model = &mut state.dyn_.models[m as usize];
    model.stance = stance;
    if stance == Stance::Swimming {
        model.tokens.fire = 0; // entering water puts out every fire (p.40)
    }
}

/// A fall from (`cell`, `z`) (p.42): land below, never in base contact with an enemy; falling
/// damage is the drop in whole inches less one, none into water. A movement Blunder also
/// costs 1 wound and leaves the model prone (p.25).
pub(super) fn fall(state: &mut GameState, m: ModelId, cell: CellIdx, z: u8, blunder: bool) {
    let (landing, surface, damage) = fall_landing(state, m, cell, z);
    {
        let model = &mut state.dyn_.models[m as usize];
        model.cell = landing;
        model.z = surface;
        if blunder {
            // A blundered movement test hurts a cavalry model's mount (p.58).
            if model.mount_wounds > 0 {
                model.pending.mount_wounds = model.pending.mount_wounds.saturating_add(1);
            } else {
                model.pending.wounds = model.pending.wounds.saturating_add(1);
            }
        }
    }
    settle_stance(state, m, blunder);
    if damage > 0 {
        let target = self_armour(state, m);
        add_damage(state, m, damage, target);
    }
}

/// Where model `m` falling from `cell` at height `z` lands, the surface height there and the
/// damage of the fall (its drop less 1, none into water), without moving it.
pub(super) fn fall_landing(state: &GameState, m: ModelId, cell: CellIdx, z: u8) -> (CellIdx, u8, u8) {
    let board = state.board();
    let mut from = cell;
    // A fall from a point on solid ground topples off its lowest neighbouring edge.
    if z <= board.cell(cell).height {
        let (x, y) = board.xy(cell);
        let mut lowest = board.cell(cell).height;
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            if let Some(n) = board.checked_idx(x as i32 + dx, y as i32 + dy) {
                let c = board.cell(n);
                if c.terrain != Terrain::Impassable && c.height + 1 < lowest {
                    lowest = c.height;
                    from = n;
                }
            }
        }
    }
    let landing = landing_cell(state, m, from);
    let surface = state.board().cell(landing).height;
    let water = state.board().cell(landing).terrain == Terrain::Water;
    let drop = z.saturating_sub(surface);
    let damage = if !water && drop > 1 { drop - 1 } else { 0 };
    (landing, surface, damage)
}

/// The nearest cell to `cell` where a falling model may land: on the table, not impassable,
/// free of other models and not in base contact with an enemy.
fn landing_cell(state: &GameState, m: ModelId, cell: CellIdx) -> CellIdx {
    let board = state.board();
    let side = state.dyn_.models[m as usize].side;
    let (x, y) = board.xy(cell);
    let free = |c: CellIdx| {
        board.cell(c).terrain != Terrain::Impassable
            && !state
                .dyn_
                .models
                .iter()
                .enumerate()
                .any(|(i, o)| i != m as usize && o.cell == c && o.is_on_table())
            && state.dyn_.uc.marker_at(c).is_none()
            && !state.touches_enemy(side, c, board.cell(c).height, Some(m))
    };
    let max_r = board.width().max(board.depth()) as i32;
    for r in 0..=max_r {
        for dy in -r..=r {
            for dx in -r..=r {
                if dx.abs().max(dy.abs()) != r {
                    continue;
                }
                if let Some(c) = board.checked_idx(x as i32 + dx, y as i32 + dy) {
                    if free(c) {
                        return c;
                    }
                }
            }
        }
    }
    cell
}

/// Pass budget of the mover, tenths of an inch (pass speed less stance changes). An AI model's
/// Pass continues its full movement (seed 003, Conversion, "Terrain and dynamic movement").
pub(super) fn pass_budget(state: &GameState, seq: &Sequence) -> u16 {
    if super::actors::is_ai(state, seq.actor) {
        return u16::MAX;
    }
    let slow = state.models()[seq.actor as usize].tokens.slow.0;
    (state.profile(seq.actor).speed.0.saturating_sub(slow) as u16 * ORTHO).saturating_sub(seq.stance_cost)
}
