//! Sight between models (terrain from the board's cached tables, plus intervening models),
//! base contact and the targeting rules that depend on them (pp.30, 40, 64).

use super::{GameState, ModelId, ModelState, Stance};
use crate::board::{Sight, Terrain, Volume};

/// What a shooter sees of a target, models included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelSight {
    /// Terrain sight and cover (swimming targets always have soft cover).
    pub sight: Sight,
    /// An enemy of the shooter partly obscures the target: only the nearest model may then
    /// be targeted (p.65).
    pub screened_by_enemy: bool,
}

impl GameState {
    /// The volume a model sees from and is seen as.
    pub fn volume(&self, m: &ModelState) -> Volume {
        if m.is_low() || !m.is_conscious() {
            Volume::Base
        } else {
            Volume::Standing(self.stat.profiles[m.profile as usize].los_template)
        }
    }

    /// Sight from `viewer` to `target`, or `None` when there is none. Friendly models of the
    /// viewer in the way block sight; enemy models in the way screen the target; down,
    /// prone and swimming models never block (only their bases are there).
    pub fn model_sight(&self, viewer: ModelId, target: ModelId) -> Option<ModelSight> {
        let v = &self.dyn_.models[viewer as usize];
        let t = &self.dyn_.models[target as usize];
        let board = self.board();
        let mut sight = board.sight(v.cell, v.z, self.volume(v), t.cell, t.z, self.volume(t));
        if !sight.visible {
            return None;
        }
        if t.stance == Stance::Swimming {
            sight.soft_cover = true;
        }
        let eye = v.z as f32 + eye_height(self, v);
        let aim = t.z as f32 + eye_height(self, t) * 0.5;
        let mut blocked = false;
        let mut screened = false;
        board.for_each_cell_between(v.cell, t.cell, |cell, frac| {
            if blocked {
                return;
            }
            let z = eye + (aim - eye) * frac;
            for (i, o) in self.dyn_.models.iter().enumerate() {
                if i == viewer as usize || i == target as usize || o.cell != cell {
                    continue;
                }
                if !o.is_conscious() || matches!(o.stance, Stance::Prone | Stance::Swimming) {
                    continue;
                }
                let top = o.z as f32 + eye_height(self, o);
                if z >= o.z as f32 && z <= top {
                    if o.side == v.side {
                        blocked = true;
                    } else {
                        screened = true;
                    }
                }
            }
        });
        (!blocked).then_some(ModelSight { sight, screened_by_enemy: screened })
    }

    /// Base contact (p.40): adjacent cells (diagonals included) with bases within 1" of height
    /// of each other (a base extends 1" upwards).
    pub fn in_contact(&self, a: ModelId, b: ModelId) -> bool {
        let ma = &self.dyn_.models[a as usize];
        let mb = &self.dyn_.models[b as usize];
        ma.is_on_table() && mb.is_on_table() && a != b && cells_touch(self, ma.cell, ma.z, mb.cell, mb.z)
    }

    /// Whether a base at (`cell`, `z`) would touch a conscious enemy of `side`, ignoring `skip`.
    pub fn touches_enemy(&self, side: u8, cell: u16, z: u8, skip: Option<ModelId>) -> bool {
        self.dyn_.models.iter().enumerate().any(|(i, o)| {
            Some(i as ModelId) != skip
                && o.side != side
                && o.is_conscious()
                && cells_touch(self, cell, z, o.cell, o.z)
        })
    }

    /// Conscious enemies in base contact with `m`.
    pub fn enemies_in_contact(&self, m: ModelId) -> impl Iterator<Item = ModelId> + '_ {
        let side = self.dyn_.models[m as usize].side;
        (0..self.dyn_.models.len() as ModelId).filter(move |&o| {
            let om = &self.dyn_.models[o as usize];
            om.side != side && om.is_conscious() && self.in_contact(m, o)
        })
    }

    /// Edge-to-edge distance between two models, in inches.
    pub fn distance(&self, a: ModelId, b: ModelId) -> f32 {
        let ma = &self.dyn_.models[a as usize];
        let mb = &self.dyn_.models[b as usize];
        self.board().edge_distance(ma.cell, ma.z, mb.cell, mb.z)
    }

    /// Whether a model's base is in water at the surface (it swims there).
    pub fn in_water(&self, m: &ModelState) -> bool {
        let c = self.board().cell(m.cell);
        c.terrain == Terrain::Water && m.z <= c.height
    }
}

/// Height of a model's sight volume above its base.
fn eye_height(state: &GameState, m: &ModelState) -> f32 {
    match state.volume(m) {
        Volume::Base => 0.25,
        Volume::Standing(t) => t.height(),
    }
}

/// Two bases touch: neighbouring cells and heights within 1".
pub(super) fn cells_touch(state: &GameState, a: u16, az: u8, b: u16, bz: u8) -> bool {
    let board = state.board();
    let (ax, ay) = board.xy(a);
    let (bx, by) = board.xy(b);
    let dx = (ax as i32 - bx as i32).abs();
    let dy = (ay as i32 - by as i32).abs();
    dx.max(dy) == 1 && (az as i32 - bz as i32).abs() <= 1
}
