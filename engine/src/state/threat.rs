//! The table's sight and threat overlay: what one enemy model could do to a model at a
//! place (its sight, the shots the rules allow it and whether it could charge there), from
//! where the enemy stands now. Read-only; the rules' own checks (`declare`) answer it.

use super::declare::{reaches, shot};
use super::move_resolution::{move_spec, MoverOccupancy};
use super::sequence::{CombatRoll, RollRole};
use super::{GameState, ModelId};
use crate::movement::{self, PathPoint, StepKind};

/// One modifier of a test's attribute: its reason and its amount.
pub type Modifier = (&'static str, i32);

/// What one enemy model could do to a model at a place, from where the enemy stands now: for a
/// table's sight and threat overlay.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Threat {
    /// What the enemy sees of that place, if anything.
    pub sight: Option<crate::board::Sight>,
    /// The shots it could make there, by weapon: the roll (attribute after modifiers, within
    /// short range or not) and each modifier with its reason.
    pub shots: Vec<(u8, CombatRoll, Vec<Modifier>)>,
    /// Whether a standing move of its full speed could bring one of its close-combat weapons
    /// to bear there (a charge).
    pub charge: bool,
}

impl GameState {
    /// What enemy model `enemy` could do to model `m` if `m` stood at `cell` on the ground
    /// there, standing: its sight and cover (p.64), the shots the rules allow it from where
    /// it stands (p.30, nearest-target rule included), and whether it could charge there.
    pub fn threat_to(&self, enemy: ModelId, m: ModelId, cell: crate::board::CellIdx) -> Threat {
        let z = self.board().cell(cell).height;
        let at = PathPoint { cell, z, cost: 0, rest: true, kind: StepKind::Normal };
        let tp = self.path_pose(m, &at, false);
        let ep = self.pose(enemy);
        let sight = self.sight_between(enemy, ep, m, tp).map(|s| s.sight);
        let mut shots = Vec::new();
        let em = &self.models()[enemy as usize];
        for (wi, w) in self.profile(enemy).weapons.iter().enumerate() {
            if let Some(roll) = shot(self, enemy, ep, wi as u8, m, tp, RollRole::Reaction, 0) {
                let mut mods = Vec::new();
                if let Some(seen) = self.sight_between(enemy, ep, m, tp) {
                    super::declare::shot_modifiers(
                        self,
                        enemy,
                        ep,
                        w,
                        m,
                        tp,
                        seen.sight,
                        roll.pass_range,
                        |why, d| mods.push((why, d)),
                    );
                }
                shots.push((wi as u8, roll, mods));
            }
        }
        let melee: Vec<u8> = (0..self.profile(enemy).weapons.len() as u8)
            .filter(|&wi| {
                let w = &self.profile(enemy).weapons[wi as usize];
                !w.is_ranged() && em.can_use(wi, w.scarce())
            })
            .collect();
        let mut charge = false;
        if em.is_conscious() && !melee.is_empty() {
            let (spec, _) = move_spec(self, enemy, false);
            let occ = MoverOccupancy { state: self, mover: enemy };
            movement::reachable(self.board(), &occ, &spec, |r| {
                if charge || (r.cell == cell && r.cell != em.cell) {
                    return;
                }
                let from = PathPoint {
                    cell: r.cell,
                    z: self.board().cell(r.cell).height,
                    cost: r.cost,
                    rest: true,
                    kind: StepKind::Normal,
                };
                let fp = self.path_pose(enemy, &from, false);
                charge = melee.iter().any(|&wi| reaches(self, enemy, fp, wi, m, tp));
            });
        }
        Threat { sight, shots, charge }
    }
}
