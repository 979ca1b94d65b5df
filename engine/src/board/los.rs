//! Line of sight and cover between cells (rulebook chapter 5, p.64).
//!
//! The model of the table:
//!
//! * Cell `(x, y)` is the square `[x, x+1) x [y, y+1)`; a model's base is centred on its cell.
//! * A viewer's eye is above its cell centre at `from_z + eye.height()` ([`Volume::height`]):
//!   the top of its LOS template when standing, [`BASE_SIGHT_HEIGHT`] when prone, swimming
//!   or climbing (sight is drawn from the base, p.64).
//! * A standing target is sampled at 9 points: heights `to_z + H/3, 2H/3, H` for its template
//!   height `H`, each at lateral offsets `-w, 0, +w` ([`TEMPLATE_HALF_WIDTH`]) perpendicular
//!   to the horizontal direction of sight. Its base is not sampled: "standing models do not
//!   benefit from cover if only the template base is obscured" (p.64). A target drawn to its
//!   base ([`Volume::Base`]) is sampled at 3 points, `to_z + BASE_SIGHT_HEIGHT` at the same
//!   lateral offsets, so a partly hidden base gives cover.
//! * The straight segment from the eye to a sample is walked through the grid exactly
//!   (Amanatides-Woo); in each crossed cell only the segment's lowest point matters. The
//!   segment is blocked if that point is below the cell surface (terrain) or, in a cell with
//!   [`Cover::Hard`](super::Cover::Hard), below surface + [`HARD_COVER_HEIGHT`]. It passes
//!   through soft cover if it is below surface + [`SOFT_COVER_HEIGHT`] in a
//!   [`Cover::Soft`](super::Cover::Soft) cell; soft cover never blocks. In the viewer's own
//!   cell only the point where the segment leaves it counts, and only against the surface:
//!   a model sees out of the rubble or bush it stands in, but not down through the roof it
//!   stands on (from the middle of a roof-edge cell the foot of the wall is hidden). The
//!   target's cell
//!   counts, but only where the segment enters it: a model shares its cell with the scatter
//!   it hides behind, so a standing model in rubble is partly hidden from a viewer at its
//!   level, and a prone one fully, yet neither is hidden from a viewer looking down into
//!   the cell. A segment through the exact corner of four cells touches the two side cells
//!   too, so sight never slips between two cells that meet only at a corner. "Below" means
//!   by more than a millionth of an inch: a segment grazing a top exactly is not blocked.
//! * `visible`: some sample's segment is not blocked. `hard_cover`: visible and some sample
//!   blocked (by terrain or hard cover). `soft_cover`: visible and some unblocked sample's
//!   segment passes through soft cover (a part already hidden by hard cover is not also
//!   counted as hidden by soft cover).
//! * Same cell: always visible without cover. Adjacent cells (base contact) use the normal
//!   rule, so scatter in the target's cell still gives cover and a model pressed against a
//!   wall cannot see one standing on top of it.
//!
//! Water counts as soft cover for a swimming model (p.40, "Model Stance: Swimming"); that
//! is a stance rule the game state applies on top of [`Sight`].
//!
//! When both bases stand on their cells' surfaces, answers come from a table built lazily per
//! (viewer cell, eye volume) over every target cell and target volume, shared by all clones of
//! a game through the board. Other heights (climbing models) are computed directly with the
//! same code, so both paths agree exactly.

use super::{Board, CellIdx, Cover, HARD_COVER_HEIGHT, SOFT_COVER_HEIGHT};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The five LOS templates of the profile cards (p.64), tallest last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum LosTemplate {
    /// Smallest.
    A,
    /// Small.
    B,
    /// Human-sized.
    C,
    /// Large.
    D,
    /// Largest (cavalry, big beasts).
    E,
}

impl LosTemplate {
    /// All templates, smallest first.
    pub const ALL: [LosTemplate; 5] =
        [LosTemplate::A, LosTemplate::B, LosTemplate::C, LosTemplate::D, LosTemplate::E];

    /// Height in inches of the template above its base. The rulebook prints the templates but
    /// gives no sizes; these are our reading of 28-32mm miniatures: A 0.75", B 1", C 1.5"
    /// (a human), D 2", E 3".
    pub fn height(self) -> f32 {
        match self {
            LosTemplate::A => 0.75,
            LosTemplate::B => 1.0,
            LosTemplate::C => 1.5,
            LosTemplate::D => 2.0,
            LosTemplate::E => 3.0,
        }
    }
}

/// Height in inches above the base at which sight is drawn to and from a base (prone,
/// swimming, climbing models).
pub const BASE_SIGHT_HEIGHT: f32 = 0.25;

/// Height in inches of the tallest volume, template E: no sample of a target is higher above
/// its base.
const TALLEST: f32 = 3.0;

/// Half the width in inches of a LOS template, used for the lateral target samples.
pub const TEMPLATE_HALF_WIDTH: f32 = 0.35;

/// The volume a model presents to sight, or sees from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Volume {
    /// Prone, swimming or climbing: sight is drawn to and from the base only.
    Base,
    /// Standing: the LOS template of the profile.
    Standing(LosTemplate),
}

impl Volume {
    /// Every volume: the base, then templates A to E.
    pub const ALL: [Volume; 6] = [
        Volume::Base,
        Volume::Standing(LosTemplate::A),
        Volume::Standing(LosTemplate::B),
        Volume::Standing(LosTemplate::C),
        Volume::Standing(LosTemplate::D),
        Volume::Standing(LosTemplate::E),
    ];

    /// Eye height above the base when seeing from this volume, and the top of the volume when
    /// seen: [`BASE_SIGHT_HEIGHT`] for a base, the template height when standing.
    pub fn height(self) -> f32 {
        match self {
            Volume::Base => BASE_SIGHT_HEIGHT,
            Volume::Standing(t) => t.height(),
        }
    }

    /// Position in [`Volume::ALL`] (0 = base, 1..=5 = templates A..E).
    pub fn class(self) -> usize {
        match self {
            Volume::Base => 0,
            Volume::Standing(t) => 1 + t as usize,
        }
    }
}

/// What a viewer sees of a target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Sight {
    /// Some part of the target volume (excluding the base, for standing targets) is visible.
    pub visible: bool,
    /// Part of the target is obscured by hard cover or terrain.
    pub hard_cover: bool,
    /// Part of the target is obscured by soft cover.
    pub soft_cover: bool,
}

const VISIBLE: u32 = 1;
const HARD: u32 = 2;
const SOFT: u32 = 4;
const CLASSES: usize = 6;
/// A segment must pass this far below a top to count as below it.
const Z_EPS: f64 = 1e-6;
/// Crossing times closer than this are one corner crossing.
const TIE_EPS: f64 = 1e-9;

impl Sight {
    fn from_bits(bits: u32) -> Sight {
        Sight { visible: bits & VISIBLE != 0, hard_cover: bits & HARD != 0, soft_cover: bits & SOFT != 0 }
    }
}

/// Lazily filled sight tables, one row per (viewer cell, eye volume), one entry per target
/// cell. A row is allocated on its first query and each entry computed on its first query
/// (a few rays), so a game pays only for the pairs it asks about; entries hold the sight bits
/// of all six target volumes, or [`UNKNOWN`] until computed. Racing threads compute the same
/// value, so relaxed atomics suffice.
pub(super) struct LosCache {
    rows: Vec<OnceLock<Box<[AtomicU32]>>>,
}

/// Marks a cache entry not computed yet (real entries use 18 bits).
const UNKNOWN: u32 = u32::MAX;

impl std::fmt::Debug for LosCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rows = self.rows.iter().filter(|r| r.get().is_some()).count();
        write!(f, "LosCache {{ {rows} of {} rows started }}", self.rows.len())
    }
}

impl LosCache {
    pub(super) fn new(cells: usize) -> LosCache {
        LosCache { rows: (0..cells * CLASSES).map(|_| OnceLock::new()).collect() }
    }

    /// Number of entries computed so far, over all rows.
    pub(super) fn entries_built(&self) -> usize {
        self.rows
            .iter()
            .filter_map(|r| r.get())
            .map(|row| row.iter().filter(|e| e.load(Ordering::Relaxed) != UNKNOWN).count())
            .sum()
    }
}

/// Walks the cells crossed by the horizontal segment from `(x0, y0)` to `(x1, y1)`, skipping
/// the start cell and ending with the end cell; calls `f(cell, t_in, t_out)` with the segment
/// parameters (0 at the start, 1 at the end) where it enters and leaves each. Through an
/// exact corner it also visits the two side cells, with `t_in == t_out`. Both points must
/// lie on the board. The walk stops early where `f` breaks.
fn walk(
    board: &Board,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    mut f: impl FnMut(CellIdx, f64, f64) -> ControlFlow<()>,
) {
    let w = board.width() as i32;
    // Points on the board have non-negative coordinates, so truncation is the floor (and,
    // unlike `f64::floor` on the baseline x86-64 target, needs no library call).
    debug_assert!(x0 >= 0.0 && y0 >= 0.0 && x1 >= 0.0 && y1 >= 0.0);
    let (mut cx, mut cy) = (x0 as i32, y0 as i32);
    let (ex, ey) = (x1 as i32, y1 as i32);
    let (sx, sy) = ((ex - cx).signum(), (ey - cy).signum());
    let (inv_dx, inv_dy) = (1.0 / (x1 - x0), 1.0 / (y1 - y0));
    // Segment parameter of the next column / row boundary, infinite once on the end's.
    let next_x = |cx: i32| {
        if cx != ex {
            ((cx + (sx > 0) as i32) as f64 - x0) * inv_dx
        } else {
            f64::INFINITY
        }
    };
    let next_y = |cy: i32| {
        if cy != ey {
            ((cy + (sy > 0) as i32) as f64 - y0) * inv_dy
        } else {
            f64::INFINITY
        }
    };
    let idx = |x: i32, y: i32| (x + y * w) as CellIdx;
    let (mut tx, mut ty) = (next_x(cx), next_y(cy));
    let mut steps = (ex - cx).abs() + (ey - cy).abs();
    while steps > 0 {
        let t_in;
        if cx != ex && cy != ey && (tx - ty).abs() <= TIE_EPS {
            t_in = tx.min(ty);
            if f(idx(cx + sx, cy), t_in, t_in).is_break() || f(idx(cx, cy + sy), t_in, t_in).is_break() {
                return;
            }
            cx += sx;
            cy += sy;
            steps -= 2;
            tx = next_x(cx);
            ty = next_y(cy);
        } else if tx < ty {
            t_in = tx;
            cx += sx;
            steps -= 1;
            tx = next_x(cx);
        } else {
            t_in = ty;
            cy += sy;
            steps -= 1;
            ty = next_y(cy);
        }
        let t_out = if steps == 0 { 1.0 } else { tx.min(ty).min(1.0) };
        if f(idx(cx, cy), t_in, t_out).is_break() {
            return;
        }
    }
}

pub(super) fn for_each_cell_between(
    board: &Board,
    from: CellIdx,
    to: CellIdx,
    mut f: impl FnMut(CellIdx, f32),
) {
    if from == to {
        return;
    }
    let (ax, ay) = board.xy(from);
    let (bx, by) = board.xy(to);
    walk(board, ax as f64 + 0.5, ay as f64 + 0.5, bx as f64 + 0.5, by as f64 + 0.5, |c, t0, t1| {
        if c != to {
            f(c, ((t0 + t1) * 0.5) as f32)
        }
        ControlFlow::Continue(())
    });
}

/// How high a sample must be (inches) for its segment to clear terrain and hard cover
/// (`block`) and to clear soft cover (`soft`).
#[derive(Clone, Copy)]
struct Limits {
    block: f64,
    soft: f64,
}

/// The limits on one eye-to-sample segment, given the sample's horizontal position. The walk
/// stops once `block` rises above `top`, the highest sample asked about: every sample is then
/// blocked whatever lies further on, and a blocked sample's soft cover does not count.
fn limits(board: &Board, from: CellIdx, eye: (f64, f64, f64), tx: f64, ty: f64, top: f64) -> Limits {
    let (ex, ey, ez) = eye;
    let mut block = f64::NEG_INFINITY;
    let mut soft = f64::NEG_INFINITY;
    let mut left_viewer_cell = false;
    walk(board, ex, ey, tx, ty, |c, t0, t1| {
        if !left_viewer_cell {
            // The segment leaves the viewer's own cell at t0: it must not pass below that
            // cell's surface (looking down over a roof edge), whatever scatter stands there.
            left_viewer_cell = true;
            let h = board.cell(from).height as f64;
            block = block.max(ez + (h - ez) / t0);
        }
        // z(t) = ez + t (s - ez) is lowest at t0 or t1; both must be at or above `top`. In
        // the target's own cell (the last, t1 = 1) only the entry point counts: the model
        // lies or stands behind what shares its cell, so it is not hidden from above.
        let t_low = if t1 >= 1.0 { t0 } else { t1 };
        let need = |top: f64| ez + (top - ez) / if top > ez { t0 } else { t_low };
        let cell = board.cell(c);
        let h = cell.height as f64;
        match cell.cover {
            Cover::Hard => block = block.max(need(h + HARD_COVER_HEIGHT as f64)),
            Cover::Soft => {
                block = block.max(need(h));
                soft = soft.max(need(h + SOFT_COVER_HEIGHT as f64));
            }
            Cover::None => block = block.max(need(h)),
        }
        if top < block - Z_EPS {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    Limits { block, soft }
}

/// The limits for the three lateral samples of a target in cell `to`, none of whose samples
/// is higher than `top`.
fn target_limits(board: &Board, from: CellIdx, eye_z: f64, to: CellIdx, top: f64) -> [Limits; 3] {
    let (fx, fy) = board.xy(from);
    let (tx, ty) = board.xy(to);
    let (ex, ey) = (fx as f64 + 0.5, fy as f64 + 0.5);
    let (cx, cy) = (tx as f64 + 0.5, ty as f64 + 0.5);
    let (dx, dy) = (cx - ex, cy - ey);
    let len = (dx * dx + dy * dy).sqrt();
    let w = TEMPLATE_HALF_WIDTH as f64;
    let (px, py) = (-dy / len * w, dx / len * w);
    [
        limits(board, from, (ex, ey, eye_z), cx - px, cy - py, top),
        limits(board, from, (ex, ey, eye_z), cx, cy, top),
        limits(board, from, (ex, ey, eye_z), cx + px, cy + py, top),
    ]
}

/// Sight bits for a target of volume class `class` whose base is at `base_z`.
fn classify(limits: &[Limits; 3], base_z: f64, class: usize) -> u32 {
    let h = Volume::ALL[class].height() as f64;
    let standing = [h / 3.0, h * 2.0 / 3.0, h];
    let base = [h];
    let heights: &[f64] = if class == 0 { &base } else { &standing };
    let (mut seen, mut blocked, mut soft) = (false, false, false);
    for l in limits {
        for dz in heights {
            let s = base_z + dz;
            if s < l.block - Z_EPS {
                blocked = true;
            } else {
                seen = true;
                soft |= s < l.soft - Z_EPS;
            }
        }
    }
    if !seen {
        return 0;
    }
    VISIBLE | if blocked { HARD } else { 0 } | if soft { SOFT } else { 0 }
}

/// One cache entry: 3 bits per target volume class for the target cell `to`.
fn entry(board: &Board, from: CellIdx, eye: Volume, to: CellIdx) -> u32 {
    if to == from {
        return (0..CLASSES).map(|c| VISIBLE << (3 * c)).sum();
    }
    let eye_z = board.cell(from).height as f64 + eye.height() as f64;
    let base_z = board.cell(to).height as f64;
    let lim = target_limits(board, from, eye_z, to, base_z + TALLEST as f64);
    (0..CLASSES).map(|c| classify(&lim, base_z, c) << (3 * c)).sum()
}

/// Uncached sight with explicit base heights.
fn compute(
    board: &Board,
    from: CellIdx,
    from_z: u8,
    eye: Volume,
    to: CellIdx,
    to_z: u8,
    target: Volume,
) -> Sight {
    if from == to {
        return Sight { visible: true, ..Sight::default() };
    }
    let top = to_z as f64 + target.height() as f64;
    let lim = target_limits(board, from, from_z as f64 + eye.height() as f64, to, top);
    Sight::from_bits(classify(&lim, to_z as f64, target.class()))
}

pub(super) fn sight(
    board: &Board,
    from: CellIdx,
    from_z: u8,
    eye: Volume,
    to: CellIdx,
    to_z: u8,
    target: Volume,
) -> Sight {
    if from_z != board.cell(from).height || to_z != board.cell(to).height {
        return compute(board, from, from_z, eye, to, to_z, target);
    }
    let row = board.los.rows[from as usize * CLASSES + eye.class()]
        .get_or_init(|| (0..board.len()).map(|_| AtomicU32::new(UNKNOWN)).collect());
    let slot = &row[to as usize];
    let mut bits = slot.load(Ordering::Relaxed);
    if bits == UNKNOWN {
        bits = entry(board, from, eye, to);
        slot.store(bits, Ordering::Relaxed);
    }
    Sight::from_bits(bits >> (3 * target.class()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cell, Terrain};

    fn board(rows: &[&str]) -> Board {
        let text = format!("name: t\nsize: {}x{}\n{}\n", rows[0].len() / 2, rows.len(), rows.join("\n"));
        Board::parse(&text, "test").unwrap()
    }

    /// A small board with heights, water, soft and hard cover.
    fn mixed_board() -> Board {
        board(&[
            "0.0.0.0s0.0.0.0~",
            "0.3.0.0.0h0.0.0~",
            "0.3.0h0.0.0.2.0~",
            "0.0.0.0.5.0.0.0.",
            "1.1.0s0.5.0.0h0.",
            "0.0.0.0.0,0.0.0.",
        ])
    }

    #[test]
    fn tallest_is_template_e() {
        let heights = Volume::ALL.map(|v| v.height());
        assert_eq!(heights.iter().copied().fold(0.0, f32::max), TALLEST);
    }

    #[test]
    fn cached_and_direct_agree_everywhere() {
        let b = mixed_board();
        for from in 0..b.len() as CellIdx {
            let fz = b.cell(from).height;
            for eye in Volume::ALL {
                for to in 0..b.len() as CellIdx {
                    let tz = b.cell(to).height;
                    for target in Volume::ALL {
                        assert_eq!(
                            b.sight(from, fz, eye, to, tz, target),
                            compute(&b, from, fz, eye, to, tz, target),
                            "{from} {eye:?} -> {to} {target:?}"
                        );
                    }
                }
            }
        }
        assert_eq!(b.los.entries_built(), b.len() * b.len() * CLASSES);
    }

    #[test]
    fn stopping_a_blocked_walk_early_changes_no_answer() {
        let b = mixed_board();
        let mut stopped = 0;
        for from in 0..b.len() as CellIdx {
            for eye in Volume::ALL {
                for to in (0..b.len() as CellIdx).filter(|&t| t != from) {
                    let eye_z = b.cell(from).height as f64 + eye.height() as f64;
                    let base_z = b.cell(to).height as f64;
                    let full = target_limits(&b, from, eye_z, to, f64::INFINITY);
                    let early = target_limits(&b, from, eye_z, to, base_z + TALLEST as f64);
                    stopped += full.iter().zip(&early).filter(|(f, e)| f.block != e.block).count();
                    for class in 0..CLASSES {
                        assert_eq!(classify(&full, base_z, class), classify(&early, base_z, class));
                    }
                }
            }
        }
        assert!(stopped > 0, "some walk stops early on this board");
    }

    #[test]
    fn walk_visits_monotone_contiguous_cells() {
        let b = Board::from_cells(
            "open",
            20,
            20,
            vec![Cell { height: 0, terrain: Terrain::Open, cover: Cover::None }; 400],
        );
        let pts: [(f64, f64, f64, f64); 4] =
            [(0.5, 0.5, 19.5, 7.5), (10.2, 3.7, 1.1, 18.9), (4.5, 4.5, 4.5, 15.5), (3.3, 9.9, 17.8, 2.2)];
        for (x0, y0, x1, y1) in pts {
            let mut last = (x0.floor() as i32, y0.floor() as i32);
            let mut t_last = 0.0;
            let mut n = 0;
            walk(&b, x0, y0, x1, y1, |c, t0, t1| {
                let (x, y) = b.xy(c);
                let (x, y) = (x as i32, y as i32);
                assert!((x - last.0).abs() + (y - last.1).abs() <= 2);
                assert!(t0 >= t_last - 1e-12 && t1 >= t0 && t1 <= 1.0);
                t_last = t0;
                last = (x, y);
                n += 1;
                ControlFlow::Continue(())
            });
            assert_eq!(last, (x1.floor() as i32, y1.floor() as i32));
            assert!(n > 0);
        }
    }
}
