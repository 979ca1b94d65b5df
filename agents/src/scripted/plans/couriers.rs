//! Couriers (p.82): the prize carrier heads for the enemy edge where enemies are fewest and is
//! guarded; dropped prizes are picked up; on the last turn characters near the enemy edge
//! leave by it.

use super::{Guarded, ScenarioPlan};
use crate::scripted::fields::{Fields, Mobility};
use crate::scripted::goal::Goal;
use crate::scripted::places::{edge_cells, goal_toward};
use crate::scripted::view::{is_character, View};
use engine::board::CellIdx;
use engine::scenario::ScenarioState;
use engine::state::ModelId;
use engine::GameState;

/// The scripted player's plan for Couriers.
pub(super) struct Couriers;

/// The cells along the enemy's deployment edge.
fn enemy_edge(view: &View) -> Vec<CellIdx> {
    edge_cells(view, view.sc.zones[1 - view.side as usize][0])
}

impl ScenarioPlan for Couriers {
    /// From turn 4, once a prize has left the table.
    fn ends_early(&self, _state: &GameState, sc: &ScenarioState) -> bool {
        sc.markers.iter().any(|m| m.off_table)
    }

    fn importance(&self, view: &View, m: ModelId) -> f64 {
        if view.carries_prize(m) {
            2.5
        } else {
            1.0
        }
    }

    fn bonus_down(&self, view: &View, m: ModelId) -> f64 {
        if view.carries_prize(m) {
            3.0
        } else {
            0.0
        }
    }

    /// Dropped prizes.
    fn tasks(&self, view: &View) -> Vec<CellIdx> {
        view.sc.markers.iter().filter(|k| k.is_loose()).map(|k| k.cell).collect()
    }

    fn takes_tasks(&self, view: &View, f: ModelId) -> bool {
        !view.carries_prize(f)
    }

    /// A carrier heads for the enemy edge where enemies are fewest; on the last turn a
    /// character that can reach the enemy edge leaves by it for a point.
    fn own_goal(&self, view: &View, fields: &mut Fields, m: ModelId) -> Option<Goal> {
        let state = view.state;
        let board = state.board();
        let mob = Mobility::of(state.profile(m).speed);
        if view.carries_prize(m) {
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
                return Some(Goal {
                    field: Some(fields.get_weighted(board, mob, &edge)),
                    stop: 0,
                    weight: 0.2,
                });
            }
        }
        if view.last_turn && is_character(state, m) && view.sc.markers.iter().all(|k| !k.is_loose()) {
            let edge = enemy_edge(view);
            let f = fields.get(board, mob, &edge);
            let reach =
                state.profile(m).speed.1 as u16 * 10 * state.models()[m as usize].ap.saturating_sub(1) as u16;
            if f[state.models()[m as usize].cell as usize] <= reach {
                return Some(Goal { field: Some(f), stop: 0, weight: 0.2 });
            }
        }
        None
    }

    /// Friends carrying a prize.
    fn wards(&self, view: &View, m: ModelId, out: &mut Vec<Guarded>) {
        for f in view.friends().filter(|&f| f != m && view.carries_prize(f)) {
            let fm = &view.state.models()[f as usize];
            out.push(Guarded { cell: fm.cell, z: fm.z, stake: 1.0, who: Some(f) });
        }
    }

    /// A prize picked up.
    fn marker_value(&self, _view: &View, _m: ModelId, _marker: u8) -> f64 {
        3.0
    }

    /// Player A picks the deployment edge.
    fn wants_player_a(&self) -> bool {
        true
    }

    /// Toward the enemy edge, the courier most.
    fn deploy_goal(&self, view: &View, fields: &mut Fields, m: ModelId) -> Goal {
        let w = if view.sc.couriers[view.side as usize] == Some(m) { 0.1 } else { 0.03 };
        goal_toward(view, fields, m, &enemy_edge(view), w, 0)
    }
}
