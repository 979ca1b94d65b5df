//! Where a declared move really ends: a path with a climb or a leap needs an Agility test
//! (p.25), and only "Nailed It" is sure to get there. A Pass stops at the pass distance (back
//! to the last resting point when that is mid-leap), a Fail before the first climb or leap.
//! The path is the engine's own ([`engine::movement::path_to`]), searched with the same
//! occupancy as the legal moves, so the engine's search cache usually answers at once.

use super::estimate::single;
use engine::board::CellIdx;
use engine::movement::{path_to, MoveSpec, Occupancy, ORTHO};
use engine::state::{ModelId, Stance};
use engine::GameState;

/// The engine's movement occupancy for one mover: conscious, unstealthed enemies block;
/// any other model on the table occupies its cell. The key is the engine's, so that searches
/// are shared with legal-move generation.
struct Occ<'a> {
    state: &'a GameState,
    mover: ModelId,
}

impl Occupancy for Occ<'_> {
    fn for_each_blocked(&self, mut f: impl FnMut(CellIdx)) {
        let side = self.state.models()[self.mover as usize].side;
        for o in self.state.models() {
            if o.side != side && o.is_conscious() && !o.tokens.stealth {
                f(o.cell);
            }
        }
    }

    fn occupied(&self, cell: CellIdx) -> bool {
        self.state
            .models()
            .iter()
            .enumerate()
            .any(|(i, o)| i != self.mover as usize && o.cell == cell && o.is_on_table())
    }

    fn key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |v: u64| {
            h ^= v;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        mix(self.mover as u64);
        for m in self.state.models() {
            mix(m.cell as u64
                | (m.side as u64) << 16
                | (m.health as u64) << 24
                | (m.tokens.stealth as u64) << 32);
        }
        h
    }
}

/// The outcome of a standing move (or a charge's move) to `dest`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Landing {
    /// Chance to get to `dest`.
    pub arrive: f64,
    /// Where the model stops otherwise, and how likely each is: a Pass and a failure.
    pub short: [(CellIdx, f64); 2],
}

/// Where model `m`'s standing move to `dest` can end; `None` when it needs no test (or the
/// engine finds no path).
pub(super) fn landing(state: &GameState, m: ModelId, dest: CellIdx) -> Option<Landing> {
    let model = &state.models()[m as usize];
    let p = state.profile(m);
    let (pass, nailed) =
        (p.speed.0.saturating_sub(model.tokens.slow.0), p.speed.1.saturating_sub(model.tokens.slow.1));
    let stance_cost = if model.stance == Stance::Prone { ORTHO } else { 0 };
    let spec = MoveSpec {
        start: model.cell,
        start_z: model.z,
        crawl: false,
        budget_free: (nailed as u16 * ORTHO).saturating_sub(stance_cost),
        budget_restricted: (pass as u16 * ORTHO).saturating_sub(stance_cost),
    };
    let path = path_to(state.board(), &Occ { state, mover: m }, &spec, dest)?;
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
