//! Sight between models (terrain from the board's cached tables, plus intervening models),
//! base contact and the targeting rules that depend on them (pp.30, 40, 64). A model can be
//! looked at where it stands or at a point of its declared movement path (reactions choose
//! such a point, p.36), so sight works on [`Pose`]s.

use super::{GameState, ModelId, ModelState, Side, Stance};
use crate::board::{CellIdx, Sight, Terrain, Volume};
use crate::movement::PathPoint;

/// Where a model is (or would be) and what it presents to sight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pose {
    /// Cell its base is over.
    pub cell: CellIdx,
    /// Height of its base.
    pub z: u8,
    /// Sight volume: its template standing, its base when low.
    pub volume: Volume,
    /// Swimming (soft cover, p.40).
    pub swimming: bool,
}

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

    /// A model's pose where it stands.
    pub fn pose(&self, m: ModelId) -> Pose {
        let model = &self.dyn_.models[m as usize];
        Pose {
            cell: model.cell,
            z: model.z,
            volume: self.volume(model),
            swimming: model.stance == Stance::Swimming,
        }
    }

    /// Model `m`'s pose at a point of its movement path, crawling or not.
    pub fn path_pose(&self, m: ModelId, p: &PathPoint, prone: bool) -> Pose {
        let cell = self.board().cell(p.cell);
        let climbing = p.z > cell.height;
        let swimming = !climbing && cell.terrain == Terrain::Water;
        let low = prone || climbing || swimming;
        let template = self.profile(m).los_template;
        Pose {
            cell: p.cell,
            z: p.z,
            volume: if low { Volume::Base } else { Volume::Standing(template) },
            swimming,
        }
    }

    /// Sight from `viewer` to `target` where they stand, or `None` when there is none.
    pub fn model_sight(&self, viewer: ModelId, target: ModelId) -> Option<ModelSight> {
        self.sight_between(viewer, self.pose(viewer), target, self.pose(target))
    }

    /// Sight from `viewer` at `vp` to `target` at `tp`. No sight can be drawn to a stealthed
    /// model (p.48), except to the active model of an action sequence in which it initiated
    /// combat, which may be reacted to (p.49).
    pub fn sight_between(&self, viewer: ModelId, vp: Pose, target: ModelId, tp: Pose) -> Option<ModelSight> {
        if self.dyn_.models[target as usize].tokens.stealth && !self.stealthed_in_combat(target) {
            return None;
        }
        self.sight_ignoring_stealth(viewer, vp, target, tp)
    }

    /// Whether `m` is the active model of a sequence in which it initiated combat.
    fn stealthed_in_combat(&self, m: ModelId) -> bool {
        self.dyn_.sequence.as_ref().is_some_and(|s| {
            s.actor == m
                && matches!(
                    s.declared,
                    super::Action::Shoot { .. }
                        | super::Action::CloseCombat { .. }
                        | super::Action::Charge { .. }
                )
        })
    }

    /// Sight as if no model were stealthed (a Reveal needs sight "if it was not in stealth",
    /// p.49). Friendly models of the viewer in the way block sight; enemy models in the way
    /// screen the target; down, prone and swimming models never block (only their bases are
    /// there).
    pub fn sight_ignoring_stealth(
        &self,
        viewer: ModelId,
        vp: Pose,
        target: ModelId,
        tp: Pose,
    ) -> Option<ModelSight> {
        let board = self.board();
        let mut sight = board.sight(vp.cell, vp.z, vp.volume, tp.cell, tp.z, tp.volume);
        if !sight.visible {
            return None;
        }
        if tp.swimming {
            sight.soft_cover = true;
        }
        let side = self.dyn_.models[viewer as usize].side;
        // The models that may stand in the way: the cells between two cells lie within the
        // rectangle they span. Most lines have none, and need no walk.
        let (vx, vy) = board.xy(vp.cell);
        let (tx, ty) = board.xy(tp.cell);
        let (xs, ys) = (vx.min(tx)..=vx.max(tx), vy.min(ty)..=vy.max(ty));
        // (cell, bottom, top, friend of the viewer), in place up to the models of a state.
        let mut in_way =
            crate::inline_vec::InlineVec::<(CellIdx, f32, f32, bool), { super::INLINE_MODELS }>::default();
        for (i, o) in self.dyn_.models.iter().enumerate() {
            if i == viewer as usize
                || i == target as usize
                || !o.is_conscious()
                || matches!(o.stance, Stance::Prone | Stance::Swimming)
            {
                continue;
            }
            let (ox, oy) = board.xy(o.cell);
            if xs.contains(&ox) && ys.contains(&oy) {
                in_way.push((o.cell, o.z as f32, o.z as f32 + self.volume(o).height(), o.side == side));
            }
        }
        if in_way.is_empty() {
            return Some(ModelSight { sight, screened_by_enemy: false });
        }
        let eye = vp.z as f32 + vp.volume.height();
        let aim = tp.z as f32 + tp.volume.height() * 0.5;
        let mut blocked = false;
        let mut screened = false;
        board.for_each_cell_between(vp.cell, tp.cell, |cell, frac| {
            if blocked {
                return;
            }
            let z = eye + (aim - eye) * frac;
            for &(at, bottom, top, friend) in in_way.iter() {
                if at == cell && z >= bottom && z <= top {
                    if friend {
                        blocked = true;
                    } else {
                        screened = true;
                    }
                }
            }
        });
        (!blocked).then_some(ModelSight { sight, screened_by_enemy: screened })
    }

    /// Whether `shooter` at `sp` may pick `target` at `tp` despite enemy models in the way:
    /// a screened target must be the nearest visible conscious enemy (p.65).
    pub(super) fn nearest_rule_allows(
        &self,
        shooter: ModelId,
        sp: Pose,
        target: ModelId,
        tp: Pose,
        screened: bool,
    ) -> bool {
        if !screened {
            return true;
        }
        let side = self.dyn_.models[shooter as usize].side;
        let board = self.board();
        let dist = board.edge_distance(sp.cell, sp.z, tp.cell, tp.z);
        !self.dyn_.models.iter().enumerate().any(|(o, om)| {
            o != target as usize
                && om.side != side
                && om.is_conscious()
                && board.edge_distance(sp.cell, sp.z, om.cell, om.z) < dist
                && self.model_sight(shooter, o as ModelId).is_some()
        })
    }

    /// Base contact (p.40): adjacent cells (diagonals included) with bases within 1" of height
    /// of each other (a base extends 1" upwards).
    pub fn in_contact(&self, a: ModelId, b: ModelId) -> bool {
        let ma = &self.dyn_.models[a as usize];
        let mb = &self.dyn_.models[b as usize];
        ma.is_on_table() && mb.is_on_table() && a != b && cells_touch(self, ma.cell, ma.z, mb.cell, mb.z)
    }

    /// Whether a base at (`cell`, `z`) would touch a conscious enemy of `side`, ignoring `skip`.
    pub fn touches_enemy(&self, side: Side, cell: CellIdx, z: u8, skip: Option<ModelId>) -> bool {
        self.touches_side(|s| s != side, cell, z, skip)
    }

    /// Whether a base at (`cell`, `z`) would touch a conscious model whose side passes `which`,
    /// ignoring `skip`.
    pub(super) fn touches_side(
        &self,
        which: impl Fn(Side) -> bool,
        cell: CellIdx,
        z: u8,
        skip: Option<ModelId>,
    ) -> bool {
        self.dyn_.models.iter().enumerate().any(|(i, o)| {
            Some(i as ModelId) != skip
                && which(o.side)
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

/// Two bases touch: neighbouring cells and heights within 1".
pub(super) fn cells_touch(state: &GameState, a: CellIdx, az: u8, b: CellIdx, bz: u8) -> bool {
    let board = state.board();
    let (ax, ay) = board.xy(a);
    let (bx, by) = board.xy(b);
    let dx = (ax as i32 - bx as i32).abs();
    let dy = (ay as i32 - by as i32).abs();
    dx.max(dy) == 1 && (az as i32 - bz as i32).abs() <= 1
}
