//! Attack and Defend (p.81): take the objectives the side does not control, guard those it
//! does, place its own objective deep in its band.

use super::{near_centre, Guarded, ScenarioPlan};
use crate::scripted::fields::Fields;
use crate::scripted::goal::Goal;
use crate::scripted::places::{goal_toward, shelter};
use crate::scripted::view::View;
use engine::board::CellIdx;
use engine::scenario::zones::{edge_distance, EDGES};
use engine::scenario::MarkerKind;
use engine::state::ModelId;

/// The scripted player's plan for Attack and Defend.
pub(super) struct AttackAndDefend;

impl ScenarioPlan for AttackAndDefend {
    /// The objectives on the table the side does not control.
    fn tasks(&self, view: &View) -> Vec<CellIdx> {
        let side = view.side;
        view.sc
            .markers
            .iter()
            .filter(|k| k.is_loose() && k.controller != Some(side))
            .map(|k| k.cell)
            .collect()
    }

    /// The objectives the side controls.
    fn wards(&self, view: &View, _m: ModelId, out: &mut Vec<Guarded>) {
        let board = view.state.board();
        for k in view.sc.markers.iter().filter(|k| k.is_loose() && k.controller == Some(view.side)) {
            out.push(Guarded { cell: k.cell, z: board.cell(k.cell).height, stake: 0.7, who: None });
        }
    }

    /// The objective's points on each scoring turn left, doubled when taken from the enemy.
    fn marker_value(&self, view: &View, _m: ModelId, marker: u8) -> f64 {
        let k = &view.sc.markers[marker as usize];
        let turn = view.state.turn();
        let left = [2u8, 4, 6].iter().filter(|&&t| t >= turn).count().max(1) as f64;
        let vp = match k.kind {
            MarkerKind::Objective(owner) if owner != view.side => 3.0,
            _ => 1.0,
        };
        // Taking it from the enemy also denies it.
        let denied = if k.controller.is_some() { vp } else { 0.0 };
        (vp + denied) * left
    }

    /// The side's objective as deep in its band as allowed, central along its edge.
    fn marker_spot<'v>(&self, view: &'v View<'v>) -> Box<dyn Fn(CellIdx) -> f64 + 'v> {
        let board = view.state.board();
        let own_edge = view.sc.zones[view.side as usize][0];
        if own_edge >= EDGES {
            return Box::new(|cell| near_centre(view, cell));
        }
        let (w, d) = (board.width() as f64, board.depth() as f64);
        Box::new(move |cell| {
            let (x, y) = board.xy(cell);
            -(edge_distance(board, cell, own_edge) as f64) * 0.3
                - (x as f64 - w / 2.0).abs().min((y as f64 - d / 2.0).abs()) * 0.02
                + shelter(view, cell)
        })
    }

    /// Toward the objectives, stopping 4" short.
    fn deploy_goal(&self, view: &View, fields: &mut Fields, m: ModelId) -> Goal {
        let cells: Vec<CellIdx> = view.sc.markers.iter().filter(|k| k.is_loose()).map(|k| k.cell).collect();
        goal_toward(view, fields, m, &cells, 0.05, 40)
    }
}
