//! Walking distances over the board: for a set of goal cells, how far every cell is from the
//! nearest of them, so that a move is scored by the progress it makes along real paths
//! (around buildings and canals) rather than as the crow flies.
//!
//! The cost model is a cheap reading of the movement rules (p.28): 1" per orthogonal step and
//! 1.4" per diagonal one; swimming and rough ground count double (restricted or dynamic
//! movement); a climb costs well over its height (an Agility test, often a whole move), a
//! drop little more than its height, and neither can exceed what one move allows (its
//! "Nailed It" speed, or its pass speed out of the water), except a leap down into water;
//! diagonal steps never squeeze between two blocking cells; impassable cells are never
//! entered, nor rough ground straight from the water. Other leaps are ignored. Fields are
//! cached per board, mobility and goal set.

use engine::board::{Board, CellIdx, Terrain};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::Arc;

/// Distance of an unreachable cell.
pub(crate) const FAR: u16 = u16::MAX;

/// Most fields kept before the cache is emptied.
const CACHE_LIMIT: usize = 512;

/// How high a model can climb in one move: from the ground (a move's whole budget is its
/// "Nailed It" speed) and out of the water (a swim limits the move to its pass speed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Mobility {
    /// Highest climb (up or down) between two cells of solid ground, in inches.
    pub land: u8,
    /// Highest climb out of the water, in inches.
    pub water: u8,
}

impl Mobility {
    /// The mobility of a model with `speed` (pass, "Nailed It").
    pub fn of(speed: (u8, u8)) -> Mobility {
        Mobility { land: speed.1.saturating_sub(1), water: speed.0.saturating_sub(1) }
    }
}

/// Cached distance fields of one board.
#[derive(Default)]
pub(crate) struct Fields {
    board: u64,
    cache: HashMap<(Mobility, Vec<u32>), Arc<Vec<u16>>>,
}

impl Fields {
    /// Tenths of an inch from every cell to the nearest of `goals` (in any order) for a
    /// model of mobility `mob`.
    pub fn get(&mut self, board: &Board, mob: Mobility, goals: &[CellIdx]) -> Arc<Vec<u16>> {
        let weighted: Vec<(CellIdx, u16)> = goals.iter().map(|&g| (g, 0)).collect();
        self.get_weighted(board, mob, &weighted)
    }

    /// Like [`get`](Self::get), with a starting cost (tenths of an inch) for each goal cell:
    /// the distance to a goal is the walk plus its cost, so costly goals attract less.
    pub fn get_weighted(&mut self, board: &Board, mob: Mobility, goals: &[(CellIdx, u16)]) -> Arc<Vec<u16>> {
        if self.board != board.id() || self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
            self.board = board.id();
        }
        let mut key: Vec<u32> = goals.iter().map(|&(g, c)| (g as u32) << 16 | c as u32).collect();
        key.sort_unstable();
        key.dedup();
        let key = (mob, key);
        if let Some(f) = self.cache.get(&key) {
            return f.clone();
        }
        let f = Arc::new(build(board, mob, goals));
        self.cache.insert(key, f.clone());
        f
    }
}

/// Dijkstra from the goals over 8-connected cells.
fn build(board: &Board, mob: Mobility, goals: &[(CellIdx, u16)]) -> Vec<u16> {
    let mut dist = vec![FAR; board.len()];
    let mut heap = BinaryHeap::new();
    for &(g, cost) in goals {
        if (g as usize) < dist.len() && cost < dist[g as usize] {
            dist[g as usize] = cost;
            heap.push(Reverse((cost, g)));
        }
    }
    let (w, d) = (board.width() as i32, board.depth() as i32);
    while let Some(Reverse((cost, cell))) = heap.pop() {
        if cost > dist[cell as usize] {
            continue;
        }
        let (x, y) = board.xy(cell);
        let here = board.cell(cell);
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let (nx, ny) = (x as i32 + dx, y as i32 + dy);
            if nx < 0 || ny < 0 || nx >= w || ny >= d {
                continue;
            }
            let next = board.idx(nx as u8, ny as u8);
            let there = board.cell(next);
            // The field runs from the goals outward: the walker steps from `there` to `here`.
            let from_water = there.terrain == Terrain::Water;
            let into_water = here.terrain == Terrain::Water;
            // Swimmers may climb but not leap out onto rough ground (p.40).
            if there.terrain == Terrain::Impassable || (from_water && here.terrain == Terrain::Rough) {
                continue;
            }
            let rise = here.height as i32 - there.height as i32;
            // One move climbs at most its budget; a drop into water is a leap from any height.
            let limit = if from_water { mob.water } else { mob.land } as i32;
            if rise > limit.max(1) || (rise < -limit.max(1) && !into_water) {
                continue;
            }
            let diagonal = dx != 0 && dy != 0;
            // A diagonal step may not squeeze between two blocking cells.
            if diagonal {
                let top = here.height.max(there.height) as i32 + 1;
                let blocks = |c: CellIdx| {
                    let c = board.cell(c);
                    c.terrain == Terrain::Impassable || c.height as i32 > top
                };
                if blocks(board.idx(nx as u8, y)) && blocks(board.idx(x, ny as u8)) {
                    continue;
                }
            }
            let mut step: u32 = if diagonal { 14 } else { 10 };
            if matches!(there.terrain, Terrain::Water | Terrain::Rough)
                || matches!(here.terrain, Terrain::Water | Terrain::Rough)
            {
                step *= 2;
            }
            if rise > 1 {
                step += rise as u32 * 30 + 60;
            } else if rise < -1 {
                step += rise.unsigned_abs() * 10 + 10;
            }
            let total = (cost as u32 + step).min(FAR as u32 - 1) as u16;
            if total < dist[next as usize] {
                dist[next as usize] = total;
                heap.push(Reverse((total, next)));
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::board::{Cell, Cover};

    #[test]
    fn walls_make_detours() {
        let open = Cell { height: 0, terrain: Terrain::Open, cover: Cover::None };
        let mut cells = vec![open; 25];
        for y in 0..4 {
            cells[2 + y * 5] = Cell { terrain: Terrain::Impassable, ..open };
        }
        let board = Board::from_cells("t", 5, 5, cells);
        let mut fields = Fields::default();
        let mob = Mobility::of((4, 6));
        let f = fields.get(&board, mob, &[board.idx(0, 0)]);
        assert_eq!(f[board.idx(1, 0) as usize], 10);
        assert_eq!(f[board.idx(2, 0) as usize], FAR);
        // Around the wall's end at row 4.
        assert!(f[board.idx(4, 0) as usize] > 60);
        assert!(Arc::ptr_eq(&f, &fields.get(&board, mob, &[board.idx(0, 0)])));
    }
}
