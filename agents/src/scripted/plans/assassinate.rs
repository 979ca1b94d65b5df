//! Assassinate (p.78): keep the own leader safe and guarded, hunt the enemy leader, take the
//! central treasure from two turns before the end.

use super::{Guarded, ScenarioPlan};
use crate::scripted::fields::Fields;
use crate::scripted::goal::{expected_end, Goal};
use crate::scripted::places::{corner_point, goal_toward};
use crate::scripted::view::{leader, View};
use engine::board::CellIdx;
use engine::profile::Role;
use engine::scenario::ScenarioState;
use engine::state::{Health, ModelId, Side};
use engine::GameState;

/// The scripted player's plan for Assassinate.
pub(super) struct Assassinate;

fn is_leader(view: &View, m: ModelId) -> bool {
    view.state.profile(m).role == Role::Leader
}

/// The enemy leader, not yet taken out by the side (it scores once).
fn leader_to_take(view: &View, m: ModelId) -> bool {
    view.is_enemy_leader(m) && !view.sc.done[view.side as usize]
}

impl ScenarioPlan for Assassinate {
    /// From turn 4, once a leader is taken out.
    fn ends_early(&self, state: &GameState, _sc: &ScenarioState) -> bool {
        (0..2)
            .any(|s| leader(state, s).is_some_and(|l| state.models()[l as usize].health == Health::TakenOut))
    }

    fn importance(&self, view: &View, m: ModelId) -> f64 {
        if is_leader(view, m) {
            4.0
        } else {
            1.0
        }
    }

    fn bonus_down(&self, view: &View, m: ModelId) -> f64 {
        if leader_to_take(view, m) {
            3.0
        } else {
            0.0
        }
    }

    fn bonus_out(&self, view: &View, _attacker: Option<ModelId>, m: ModelId) -> f64 {
        if leader_to_take(view, m) {
            6.0
        } else {
            0.0
        }
    }

    /// The central treasure, from two turns before the end.
    fn tasks(&self, view: &View) -> Vec<CellIdx> {
        let end = expected_end(view, self.ends_early(view.state, &view.sc));
        if view.state.turn() + 2 >= end {
            vec![engine::scenario::zones::centre(view.state.board())]
        } else {
            Vec::new()
        }
    }

    fn takes_tasks(&self, view: &View, f: ModelId) -> bool {
        !is_leader(view, f)
    }

    /// The leader keeps safe.
    fn own_goal(&self, view: &View, _fields: &mut Fields, m: ModelId) -> Option<Goal> {
        is_leader(view, m).then(Goal::none)
    }

    /// The own leader (down or not).
    fn wards(&self, view: &View, m: ModelId, out: &mut Vec<Guarded>) {
        let state = view.state;
        if let Some(l) = leader(state, view.side) {
            let lm = &state.models()[l as usize];
            if l != m && lm.is_on_table() {
                out.push(Guarded { cell: lm.cell, z: lm.z, stake: 1.0, who: Some(l) });
            }
        }
    }

    /// Toward the enemy leader (its corner until it is deployed); the leader nowhere.
    fn deploy_goal(&self, view: &View, fields: &mut Fields, m: ModelId) -> Goal {
        let state = view.state;
        if is_leader(view, m) {
            return Goal::none();
        }
        let enemy = 1 - view.side as usize;
        let target = leader(state, enemy as Side)
            .filter(|&l| state.models()[l as usize].is_on_table())
            .map_or_else(|| corner_point(view, view.sc.zones[enemy][1]), |l| state.models()[l as usize].cell);
        goal_toward(view, fields, m, &[target], 0.04, 0)
    }

    fn precious(&self, view: &View, m: ModelId) -> bool {
        is_leader(view, m)
    }
}
