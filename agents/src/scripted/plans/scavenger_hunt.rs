//! Scavenger Hunt (p.84): look at the markers worth looking at, keep carriers safe and
//! guarded, place markers near the corners the side means to take.

use super::{near_centre, Guarded, ScenarioPlan};
use crate::scripted::fields::Fields;
use crate::scripted::goal::Goal;
use crate::scripted::places::{corner_point, goal_toward, planned_diagonal, shelter};
use crate::scripted::view::View;
use engine::board::CellIdx;
use engine::scenario::zones::opposite_corner;
use engine::scenario::Marker;
use engine::state::ModelId;

/// The scripted player's plan for Scavenger Hunt.
pub(super) struct ScavengerHunt;

/// Whether a loose marker deserves an Interact: its number is unknown to the side (and not
/// publicly ruled out as the number sought), it is the number sought, or it was dropped
/// (revealed) and can be picked up.
pub(crate) fn worth_looking(view: &View, k: &Marker) -> bool {
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
pub(crate) fn find_chance(view: &View, k: &Marker) -> f64 {
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

/// The loose markers worth looking at.
fn markers_to_look_at(view: &View) -> Vec<CellIdx> {
    view.sc.markers.iter().filter(|k| k.is_loose() && worth_looking(view, k)).map(|k| k.cell).collect()
}

impl ScenarioPlan for ScavengerHunt {
    fn importance(&self, view: &View, m: ModelId) -> f64 {
        1.0 + 1.5 * view.carried(m) as f64
    }

    fn bonus_down(&self, view: &View, m: ModelId) -> f64 {
        1.5 * view.carried(m) as f64
    }

    fn tasks(&self, view: &View) -> Vec<CellIdx> {
        markers_to_look_at(view)
    }

    /// A carrier keeps safe.
    fn own_goal(&self, view: &View, _fields: &mut Fields, m: ModelId) -> Option<Goal> {
        (view.carried(m) > 0).then(Goal::none)
    }

    /// Friends carrying markers, by how many.
    fn wards(&self, view: &View, m: ModelId, out: &mut Vec<Guarded>) {
        for f in view.friends().filter(|&f| f != m && view.carried(f) > 0) {
            let fm = &view.state.models()[f as usize];
            out.push(Guarded { cell: fm.cell, z: fm.z, stake: 0.5 * view.carried(f) as f64, who: Some(f) });
        }
    }

    /// A revealed marker picked up, or the chance of finding the number sought.
    fn marker_value(&self, view: &View, _m: ModelId, marker: u8) -> f64 {
        let k = &view.sc.markers[marker as usize];
        if k.known == 0b11 {
            2.0
        } else {
            2.5 * find_chance(view, k) + 0.3
        }
    }

    /// Player A places the first markers and picks its diagonal.
    fn wants_player_a(&self) -> bool {
        true
    }

    /// Player A: near the corners of the diagonal it means to take; player B near the centre.
    fn marker_spot<'v>(&self, view: &'v View<'v>) -> Box<dyn Fn(CellIdx) -> f64 + 'v> {
        if view.sc.player_a != view.side {
            return Box::new(|cell| near_centre(view, cell));
        }
        let board = view.state.board();
        let diagonal = planned_diagonal(view);
        let (p, q) = (corner_point(view, diagonal), corner_point(view, opposite_corner(diagonal)));
        Box::new(move |cell| {
            let dp = board.centre_distance(p, 0, cell, 0) as f64;
            let dq = board.centre_distance(q, 0, cell, 0) as f64;
            -dp.min(dq) * 0.1 + shelter(view, cell)
        })
    }

    /// Toward the markers worth looking at, stopping in reach.
    fn deploy_goal(&self, view: &View, fields: &mut Fields, m: ModelId) -> Goal {
        goal_toward(view, fields, m, &markers_to_look_at(view), 0.05, 14)
    }
}
