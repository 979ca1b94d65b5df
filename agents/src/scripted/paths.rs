//! Where a declared move really ends: a path with a climb or a leap needs an Agility test
//! (p.25), and only "Nailed It" is sure to get there. A Pass stops at the pass distance (back
//! to the last resting point when that is mid-leap), a Fail before the first climb or leap.
//! The path is the engine's own ([`engine::movement::path_to`]), searched with the same
//! occupancy as the legal moves, so the engine's search cache usually answers at once.

use super::estimate::single;
use engine::board::CellIdx;
use engine::movement::{path_to, MoveSpec, ORTHO};
use engine::state::{ModelId, MoverOccupancy, Stance};
use engine::GameState;

/// The outcome of a standing move (or a charge's move) to `dest`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Landing {
    /// Chance to get to `dest`.
    pub arrive: f64,
    /// Where the model stops otherwise, and how likely each is: a Pass and a failure.
    pub short: [(CellIdx, f64); 2],
}

/// Where model `m`'s standing move to `dest` can end; `None` when it needs no test (or the
/// engine finds no path).
pub(crate) fn landing(state: &GameState, m: ModelId, dest: CellIdx) -> Option<Landing> {
    let model = &state.models()[m as usize];
    let p = state.profile(m);
    let spec = standing_spec(state, m);
    let pass = p.speed.0.saturating_sub(model.tokens.slow.0);
    let stance_cost = if model.stance == Stance::Prone { ORTHO } else { 0 };
    let path = path_to(state.board(), &MoverOccupancy { state, mover: m }, &spec, dest)?;
    let first = path.first_dynamic?;
    let blind = if model.tokens.blind { 2 } else { 0 };
    let eff =
        single((p.agility as i32 - blind).clamp(1, 9) as u8, state.static_data().variant.narrative_feats);
    let cell_at = |i: Option<usize>| i.map_or(model.cell, |i| path.points[i].cell);
    let budget = (pass as u16 * ORTHO).saturating_sub(stance_cost);
    let mut on_pass = path.points.iter().rposition(|q| q.cost <= budget);
    // Left in mid-leap, the model rests back at the last point where it may stop.
    while let Some(i) = on_pass {
        if path.points[i].rest {
            break;
        }
        on_pass = i.checked_sub(1);
    }
    let last = path.points.len() - 1;
    let (arrive, pass_short) = if on_pass == Some(last) { (eff.any(), 0.0) } else { (eff.nailed, eff.pass) };
    Some(Landing {
        arrive,
        short: [(cell_at(on_pass), pass_short), (cell_at(first.checked_sub(1)), 1.0 - eff.any())],
    })
}

/// The movement search of model `m`'s standing move from where it stands: its speeds less
/// Slow tokens, and 1" to stand up when prone (the search behind the engine's legal moves).
pub(crate) fn standing_spec(state: &GameState, m: ModelId) -> MoveSpec {
    let model = &state.models()[m as usize];
    let p = state.profile(m);
    let (pass, nailed) =
        (p.speed.0.saturating_sub(model.tokens.slow.0), p.speed.1.saturating_sub(model.tokens.slow.1));
    let stance_cost = if model.stance == Stance::Prone { ORTHO } else { 0 };
    MoveSpec {
        start: model.cell,
        start_z: model.z,
        crawl: false,
        budget_free: (nailed as u16 * ORTHO).saturating_sub(stance_cost),
        budget_restricted: (pass as u16 * ORTHO).saturating_sub(stance_cost),
        ignore_terrain: false,
    }
}
