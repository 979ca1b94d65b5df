//! Where a card box's target symbol holds (seed 003, "Movement (enemy)"), for the active
//! crew model:
//! - shoot: a position from which it can shoot a conscious enemy (in range of a usable
//!   weapon and in sight, terrain only);
//! - close combat: base contact with a conscious enemy;
//! - break LOS: out of the nearest enemy's sight (then seen by as few enemies as possible);
//! - cover: in cover from the nearest enemy — obscured by cover or out of its sight — then
//!   from as many other enemies as possible.
//!
//! "The nearest enemy" is the conscious, unstealthed enemy nearest to the model where it
//! stands (a stealthed model is ignored, as in UC's enemy phase). Positions are judged with
//! the model standing on the cell's surface, seen from each enemy's pose.

use crate::scripted::estimate::{shot, Spot};
use crate::scripted::fields::{Fields, Mobility};
use engine::board::{CellIdx, Terrain};
use engine::state::ModelId;
use engine::uc::data::TargetSymbol;
use engine::GameState;

/// How far (inches) from the model break-LOS and cover positions are looked for when none is
/// within its move: a few moves' worth.
const SEARCH_RADIUS: f32 = 24.0;

/// The active model and the enemies it judges positions by.
pub(crate) struct Judge<'a> {
    /// The state.
    pub state: &'a GameState,
    /// The active model.
    pub m: ModelId,
    /// Conscious, unstealthed enemies, nearest first.
    pub enemies: Vec<ModelId>,
}

impl<'a> Judge<'a> {
    /// The judge of model `m`.
    pub fn new(state: &'a GameState, m: ModelId) -> Judge<'a> {
        let me = &state.models()[m as usize];
        let board = state.board();
        let mut enemies: Vec<(f32, ModelId)> = state
            .models()
            .iter()
            .enumerate()
            .filter(|(_, o)| o.side != me.side && o.is_conscious() && o.is_on_table() && !o.tokens.stealth)
            .map(|(i, o)| (board.centre_distance(me.cell, me.z, o.cell, o.z), i as ModelId))
            .collect();
        enemies.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        Judge { state, m, enemies: enemies.into_iter().map(|(_, e)| e).collect() }
    }

    /// The nearest enemy.
    pub fn nearest(&self) -> Option<ModelId> {
        self.enemies.first().copied()
    }

    /// The model standing on `cell`.
    pub fn spot(&self, cell: CellIdx) -> Spot {
        Spot::at(self.state, self.m, cell, false)
    }

    /// Whether enemy `e` sees `spot`, and whether it is in cover from `e` (obscured or unseen).
    pub fn seen(&self, e: ModelId, spot: Spot) -> (bool, bool) {
        let ep = self.state.pose(e);
        let s = self.state.board().sight(ep.cell, ep.z, ep.volume, spot.cell, spot.z, spot.volume);
        let covered = !s.visible || s.hard_cover || s.soft_cover || spot.swimming;
        (s.visible, covered)
    }

    /// Whether `spot` is in cover from the nearest enemy.
    pub fn in_cover(&self, spot: Spot) -> bool {
        self.nearest().is_none_or(|e| self.seen(e, spot).1)
    }

    /// Whether the model could shoot some enemy from `spot`.
    pub fn can_shoot_from(&self, spot: Spot) -> bool {
        let weapons = self.state.profile(self.m).weapons.len() as u8;
        self.enemies.iter().any(|&e| {
            let to = Spot::of(self.state, e);
            (0..weapons).any(|w| shot(self.state, self.m, w, e, spot, to, false).is_some())
        })
    }

    /// Whether `symbol` holds for the model at `spot`.
    pub fn holds(&self, symbol: TargetSymbol, spot: Spot) -> bool {
        match symbol {
            TargetSymbol::Shoot => self.can_shoot_from(spot),
            TargetSymbol::CloseCombat => self.state.touches_enemy(
                self.state.models()[self.m as usize].side,
                spot.cell,
                spot.z,
                Some(self.m),
            ),
            TargetSymbol::BreakLos => self.nearest().is_none_or(|e| !self.seen(e, spot).0),
            TargetSymbol::Cover => self.in_cover(spot),
        }
    }

    /// How well `spot` meets `symbol` beyond holding it (higher is better): for break LOS the
    /// enemies that do not see it, for cover the enemies it is in cover from, for shoot and
    /// close combat cover from the nearest enemy.
    pub fn extra(&self, symbol: TargetSymbol, spot: Spot) -> i32 {
        match symbol {
            TargetSymbol::BreakLos => self.enemies.iter().filter(|&&e| !self.seen(e, spot).0).count() as i32,
            TargetSymbol::Cover => self.enemies.iter().filter(|&&e| self.seen(e, spot).1).count() as i32,
            TargetSymbol::Shoot | TargetSymbol::CloseCombat => self.in_cover(spot) as i32,
        }
    }

    /// Walking distance (tenths of an inch, [`crate::scripted::fields::FAR`] when
    /// unreachable) from every cell to the nearest position where `symbol` holds; `None`
    /// when it holds nowhere the model could look.
    pub fn approach(&self, fields: &mut Fields, symbol: TargetSymbol) -> Option<std::sync::Arc<Vec<u16>>> {
        let state = self.state;
        let board = state.board();
        let me = &state.models()[self.m as usize];
        let mut goals: Vec<CellIdx> = Vec::new();
        match symbol {
            TargetSymbol::CloseCombat => {
                goals.extend(self.enemies.iter().map(|&e| state.models()[e as usize].cell))
            }
            _ => {
                // Shoot positions lie within the longest range of an enemy; the others near
                // the model.
                let range = state.profile(self.m).weapons.iter().filter_map(|w| w.range.map(|r| r.1)).max();
                for c in 0..board.len() as CellIdx {
                    let cell = board.cell(c);
                    if cell.terrain == Terrain::Impassable {
                        continue;
                    }
                    let near = match symbol {
                        TargetSymbol::Shoot => range.is_some_and(|r| {
                            self.enemies.iter().any(|&e| {
                                let em = &state.models()[e as usize];
                                board.centre_distance(c, cell.height, em.cell, em.z) <= r as f32 + 1.0
                            })
                        }),
                        _ => board.centre_distance(c, cell.height, me.cell, me.z) <= SEARCH_RADIUS,
                    };
                    if near && self.holds(symbol, self.spot(c)) {
                        goals.push(c);
                    }
                }
            }
        }
        if goals.is_empty() {
            return None;
        }
        Some(fields.get(board, Mobility::of(state.profile(self.m).speed), &goals))
    }
}
