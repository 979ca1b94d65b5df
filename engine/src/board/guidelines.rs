//! Checks a board against the rulebook's advice on building a table ("Initial Game Setup",
//! step 3, and the terrain advice of chapter 5, pp.66-70). The numbers the rulebook leaves
//! open are the constants below; [`GuidelineReport::problems`] lists what a board misses.

use super::{Board, CellIdx, Cover, LosTemplate, Terrain, Volume};

/// A cell at least this many inches above the board's ground level is a LOS-blocking
/// structure (building, ruin, cliff): it hides a standing human-sized model's lower half.
pub const STRUCTURE_HEIGHT: u8 = 2;
/// A structure at least this many inches above ground level is "tall" (guideline 5).
pub const TALL_HEIGHT: u8 = 6;
/// Side in inches of the square areas checked for "death zones" (guideline 4).
pub const DEATH_ZONE_SIDE: u8 = 6;
/// Cells within this many inches of two table edges are "near the corners" (guideline 3).
pub const CORNER_ZONE: u8 = 6;
/// Rows along each deployment edge that should be mostly standable ground.
pub const DEPLOYMENT_ROWS: u8 = 4;
/// Side of the corner squares that should hold some solid ground.
pub const CORNER_SQUARE: u8 = 4;
/// Least water fraction ("Water", ch.5: "at least a third of any TDE board surface should
/// be water").
pub const MIN_WATER: f32 = 1.0 / 3.0;
/// Least fraction of structure cells ("Terrain", ch.5: "at least a third of the table
/// completely covered in terrain" to climb and jump on; "Terrain and Balance" suggests
/// about half).
pub const MIN_BLOCKING: f32 = 1.0 / 3.0;
/// Most fraction of structure cells (guideline 7: not too much terrain).
pub const MAX_BLOCKING: f32 = 0.6;
/// Least standable fraction of each deployment strip.
pub const MIN_DEPLOYMENT_GROUND: f32 = 0.6;
/// Least standable cells in each corner square.
pub const MIN_CORNER_GROUND: usize = 8;
/// Least distinct pairs of raised surfaces with a 4-6" gap ("Nailed It" leaps,
/// "Multi-Levelled Terrain", ch.5).
pub const MIN_LONG_LEAPS: usize = 8;
/// Least distinct pairs of raised surfaces with a 2-3" gap ("Pass" leaps,
/// "Multi-Levelled Terrain", ch.5).
pub const MIN_SHORT_LEAPS: usize = 4;
/// Most fraction of the standable cells a standing model may see in the clear from any one
/// cell (guideline 1: no unobstructed view of more than half the battlefield).
pub const MAX_VIEW: f32 = 0.5;

/// A connected group of tall structure cells (guideline 5). The guideline asks for more
/// than two, spread evenly: each half of the board needs one, and the two halves may differ
/// by at most a quarter of the total (at least 1).
#[derive(Clone, Debug, PartialEq)]
pub struct TallStructure {
    /// Number of cells at least [`TALL_HEIGHT`] above ground.
    pub cells: usize,
    /// Highest surface, in inches.
    pub height: u8,
    /// Mean position of its cells (cell centres, inches from the `x = 0` and `y = 0` edges).
    pub centre: (f32, f32),
    /// Which half of the board its centre lies in: 0 the `y = 0` half, 1 the far half.
    pub half: usize,
}

/// A leap between two raised surfaces along a row or column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeapGap {
    /// Take-off cell.
    pub from: CellIdx,
    /// Landing cell.
    pub to: CellIdx,
    /// Horizontal gap in inches: the cells between the two, in a straight row or column, all
    /// at least [`STRUCTURE_HEIGHT`] below the lower of the two surfaces.
    pub gap: u8,
}

/// How a board measures up to the rulebook's terrain guidelines; see [`Board::guidelines`].
#[derive(Clone, Debug, PartialEq)]
pub struct GuidelineReport {
    /// Lowest surface on the board, in inches: "ground level".
    pub ground_level: u8,
    /// Fraction of cells that are water.
    pub water_fraction: f32,
    /// Fraction of cells that are LOS-blocking structures ([`STRUCTURE_HEIGHT`] or more above
    /// ground level).
    pub blocking_fraction: f32,
    /// Cells with soft scatter cover.
    pub soft_cover_cells: usize,
    /// Cells with hard scatter cover.
    pub hard_cover_cells: usize,
    /// Connected groups of tall (6"+) structures.
    pub tall_structures: Vec<TallStructure>,
    /// One 4-6" leap per pair of distinct raised surfaces that have one (a surface is a
    /// connected area of standable structure cells of one height).
    pub long_leaps: Vec<LeapGap>,
    /// One 2-3" leap per pair of distinct raised surfaces that have one.
    pub short_leaps: Vec<LeapGap>,
    /// Lowest-x, lowest-y corner of every [`DEATH_ZONE_SIDE`]-inch square holding no
    /// structure and no scatter cover (water does not count as cover here).
    pub death_zones: Vec<(u8, u8)>,
    /// Pairs (viewer, target) of ground-level cells on different table edges, neither near a
    /// corner, where a human-sized model (template C; base when in water) sees the other.
    pub edge_sight_lines: Vec<(CellIdx, CellIdx)>,
    /// Standable (not water, not impassable) fraction of the [`DEPLOYMENT_ROWS`] rows along
    /// the `y = 0` edge and along the far edge.
    pub deployment_ground: [f32; 2],
    /// Standable cells in the [`CORNER_SQUARE`]-inch squares at the corners (x0y0, xMy0,
    /// x0yM, xMyM).
    pub corner_ground: [usize; 4],
    /// The cell with the widest clear view and the fraction of standable cells where a
    /// standing template C model is visible from it with no cover at all (viewers are
    /// standing C models on every standable cell whose x and y are even, and on every tall
    /// structure cell).
    pub widest_view: (CellIdx, f32),
}

impl GuidelineReport {
    /// Every guideline the board misses, in words; empty when it passes.
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if self.water_fraction < MIN_WATER {
            p.push(format!(
                "water covers {:.0}% of the board, want at least a third",
                100.0 * self.water_fraction
            ));
        }
        if self.blocking_fraction < MIN_BLOCKING || self.blocking_fraction > MAX_BLOCKING {
            p.push(format!(
                "structures cover {:.0}% of the board, want {:.0}%-{:.0}%",
                100.0 * self.blocking_fraction,
                100.0 * MIN_BLOCKING,
                100.0 * MAX_BLOCKING
            ));
        }
        if self.soft_cover_cells == 0 || self.hard_cover_cells == 0 {
            p.push("scatter should mix soft and hard cover".into());
        }
        let near = self.tall_structures.iter().filter(|t| t.half == 0).count();
        let far = self.tall_structures.len() - near;
        let total = self.tall_structures.len();
        if total < 3 || near == 0 || far == 0 || near.abs_diff(far) > (total / 4).max(1) {
            p.push(format!(
                "want more than 2 tall (6\"+) structures spread evenly over both halves, have {near} + {far}"
            ));
        }
        if self.long_leaps.len() < MIN_LONG_LEAPS {
            p.push(format!(
                "only {} 4-6\" leaps between raised surfaces, want {MIN_LONG_LEAPS}",
                self.long_leaps.len()
            ));
        }
        if self.short_leaps.len() < MIN_SHORT_LEAPS {
            p.push(format!(
                "only {} 2-3\" leaps between raised surfaces, want {MIN_SHORT_LEAPS}",
                self.short_leaps.len()
            ));
        }
        if !self.death_zones.is_empty() {
            p.push(format!("{} death zones, first at {:?}", self.death_zones.len(), self.death_zones[0]));
        }
        if !self.edge_sight_lines.is_empty() {
            p.push(format!(
                "{} edge-to-edge sight lines, first cells {:?}",
                self.edge_sight_lines.len(),
                self.edge_sight_lines[0]
            ));
        }
        for (i, g) in self.deployment_ground.iter().enumerate() {
            if *g < MIN_DEPLOYMENT_GROUND {
                p.push(format!("deployment strip {i} is only {:.0}% standable ground", 100.0 * g));
            }
        }
        for (i, g) in self.corner_ground.iter().enumerate() {
            if *g < MIN_CORNER_GROUND {
                p.push(format!("corner {i} has only {g} standable cells"));
            }
        }
        if self.widest_view.1 > MAX_VIEW {
            p.push(format!(
                "cell {} sees {:.0}% of the board in the clear",
                self.widest_view.0,
                100.0 * self.widest_view.1
            ));
        }
        p
    }

    /// True when [`GuidelineReport::problems`] is empty.
    pub fn passes(&self) -> bool {
        self.problems().is_empty()
    }
}

impl Board {
    /// Measure the board against the rulebook's terrain guidelines. Builds the sight tables
    /// it needs (template C and base eyes), so the first call on a board takes a moment.
    pub fn guidelines(&self) -> GuidelineReport {
        let g = Geometry::new(self);
        let n = self.len() as f32;
        let cells = self.cells();
        let water = cells.iter().filter(|c| c.terrain == Terrain::Water).count();
        let blocking = (0..self.len()).filter(|&i| g.structure(i)).count();
        GuidelineReport {
            ground_level: g.ground,
            water_fraction: water as f32 / n,
            blocking_fraction: blocking as f32 / n,
            soft_cover_cells: cells.iter().filter(|c| c.cover == Cover::Soft).count(),
            hard_cover_cells: cells.iter().filter(|c| c.cover == Cover::Hard).count(),
            tall_structures: g.tall_structures(),
            long_leaps: g.leaps(4..=6),
            short_leaps: g.leaps(2..=3),
            death_zones: g.death_zones(),
            edge_sight_lines: g.edge_sight_lines(),
            deployment_ground: g.deployment_ground(),
            corner_ground: g.corner_ground(),
            widest_view: g.widest_view(),
        }
    }
}

struct Geometry<'a> {
    b: &'a Board,
    ground: u8,
    w: usize,
    d: usize,
}

impl<'a> Geometry<'a> {
    fn new(b: &'a Board) -> Self {
        let ground = b.cells().iter().map(|c| c.height).min().unwrap_or(0);
        Geometry { b, ground, w: b.width() as usize, d: b.depth() as usize }
    }

    fn above(&self, i: usize) -> u8 {
        self.b.cells()[i].height - self.ground
    }

    fn structure(&self, i: usize) -> bool {
        self.above(i) >= STRUCTURE_HEIGHT
    }

    fn standable(&self, i: usize) -> bool {
        !matches!(self.b.cells()[i].terrain, Terrain::Impassable)
    }

    fn land(&self, i: usize) -> bool {
        !matches!(self.b.cells()[i].terrain, Terrain::Impassable | Terrain::Water)
    }

    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (x, y) = (i % self.w, i / self.w);
        [
            (x > 0, i.wrapping_sub(1)),
            (x + 1 < self.w, i + 1),
            (y > 0, i.wrapping_sub(self.w)),
            (y + 1 < self.d, i + self.w),
        ]
        .into_iter()
        .filter_map(|(ok, j)| ok.then_some(j))
    }

    /// Connected components of the cells where `member` holds, grouped by `same`.
    fn components(&self, member: impl Fn(usize) -> bool, same: impl Fn(usize, usize) -> bool) -> Vec<usize> {
        let mut comp = vec![usize::MAX; self.b.len()];
        let mut next = 0;
        let mut stack = Vec::new();
        for start in 0..self.b.len() {
            if comp[start] != usize::MAX || !member(start) {
                continue;
            }
            comp[start] = next;
            stack.push(start);
            while let Some(i) = stack.pop() {
                for j in self.neighbours(i) {
                    if comp[j] == usize::MAX && member(j) && same(i, j) {
                        comp[j] = next;
                        stack.push(j);
                    }
                }
            }
            next += 1;
        }
        comp
    }

    fn tall_structures(&self) -> Vec<TallStructure> {
        let tall = |i: usize| self.above(i) >= TALL_HEIGHT;
        let comp = self.components(tall, |_, _| true);
        let count = comp.iter().filter(|&&c| c != usize::MAX).max().map_or(0, |m| m + 1);
        let mut out = vec![TallStructure { cells: 0, height: 0, centre: (0.0, 0.0), half: 0 }; count];
        for (i, &c) in comp.iter().enumerate() {
            if c == usize::MAX {
                continue;
            }
            let t = &mut out[c];
            t.cells += 1;
            t.height = t.height.max(self.b.cells()[i].height);
            t.centre.0 += (i % self.w) as f32 + 0.5;
            t.centre.1 += (i / self.w) as f32 + 0.5;
        }
        for t in &mut out {
            t.centre.0 /= t.cells as f32;
            t.centre.1 /= t.cells as f32;
            t.half = (t.centre.1 >= self.d as f32 / 2.0) as usize;
        }
        out
    }

    /// One representative leap per unordered pair of surfaces with a gap in `range`.
    fn leaps(&self, range: std::ops::RangeInclusive<u8>) -> Vec<LeapGap> {
        let cells = self.b.cells();
        let surface = |i: usize| self.structure(i) && self.land(i);
        let comp = self.components(surface, |i, j| cells[i].height == cells[j].height);
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for a in 0..self.b.len() {
            if !surface(a) {
                continue;
            }
            let (ax, ay) = (a % self.w, a / self.w);
            for (dx, dy) in [(1i32, 0i32), (-1, 0), (0, 1), (0, -1)] {
                let mut gap = 0u8;
                let (mut x, mut y) = (ax as i32 + dx, ay as i32 + dy);
                while let Some(j) = self.b.checked_idx(x, y).map(|j| j as usize) {
                    if cells[j].height + STRUCTURE_HEIGHT <= cells[a].height {
                        gap += 1;
                        x += dx;
                        y += dy;
                        continue;
                    }
                    let lower = cells[a].height.min(cells[j].height);
                    let clear = gap > 0 && surface(j) && {
                        (1..=gap as i32).all(|k| {
                            let g = (ax as i32 + k * dx) as usize + (ay as i32 + k * dy) as usize * self.w;
                            cells[g].height + STRUCTURE_HEIGHT <= lower
                        })
                    };
                    if clear && range.contains(&gap) {
                        let key = (comp[a].min(comp[j]), comp[a].max(comp[j]));
                        if seen.insert(key) {
                            out.push(LeapGap { from: a as CellIdx, to: j as CellIdx, gap });
                        }
                    }
                    break;
                }
            }
        }
        out
    }

    fn death_zones(&self) -> Vec<(u8, u8)> {
        let s = DEATH_ZONE_SIDE as usize;
        let cells = self.b.cells();
        let open = |i: usize| !self.structure(i) && cells[i].cover == Cover::None;
        let mut out = Vec::new();
        if self.w < s || self.d < s {
            return out;
        }
        for y in 0..=self.d - s {
            for x in 0..=self.w - s {
                if (y..y + s).all(|yy| (x..x + s).all(|xx| open(xx + yy * self.w))) {
                    out.push((x as u8, y as u8));
                }
            }
        }
        out
    }

    fn near_corner(&self, i: usize) -> bool {
        let (x, y) = (i % self.w, i / self.w);
        let c = CORNER_ZONE as usize;
        (x < c || x + c >= self.w) && (y < c || y + c >= self.d)
    }

    /// Which table edges a cell lies on: bit 0 `y = 0`, 1 `x = max`, 2 `y = max`, 3 `x = 0`.
    fn edges(&self, i: usize) -> u8 {
        let (x, y) = (i % self.w, i / self.w);
        (y == 0) as u8
            | ((x + 1 == self.w) as u8) << 1
            | ((y + 1 == self.d) as u8) << 2
            | ((x == 0) as u8) << 3
    }

    fn volume(&self, i: usize) -> Volume {
        if self.b.cells()[i].terrain == Terrain::Water {
            Volume::Base
        } else {
            Volume::Standing(LosTemplate::C)
        }
    }

    fn edge_sight_lines(&self) -> Vec<(CellIdx, CellIdx)> {
        let ends: Vec<usize> = (0..self.b.len())
            .filter(|&i| {
                self.edges(i) != 0 && !self.near_corner(i) && !self.structure(i) && self.standable(i)
            })
            .collect();
        let mut out = Vec::new();
        for &a in &ends {
            for &t in &ends {
                if self.edges(a) & self.edges(t) != 0 {
                    continue;
                }
                let (a16, t16) = (a as CellIdx, t as CellIdx);
                let cells = self.b.cells();
                let s =
                    self.b.sight(a16, cells[a].height, self.volume(a), t16, cells[t].height, self.volume(t));
                if s.visible {
                    out.push((a16, t16));
                }
            }
        }
        out
    }

    fn deployment_ground(&self) -> [f32; 2] {
        let rows = (DEPLOYMENT_ROWS as usize).min(self.d);
        let frac = |ys: std::ops::Range<usize>| {
            let n = ys.len() * self.w;
            let land =
                ys.flat_map(|y| (0..self.w).map(move |x| x + y * self.w)).filter(|&i| self.land(i)).count();
            land as f32 / n as f32
        };
        [frac(0..rows), frac(self.d - rows..self.d)]
    }

    fn corner_ground(&self) -> [usize; 4] {
        let s = (CORNER_SQUARE as usize).min(self.w).min(self.d);
        let count = |x0: usize, y0: usize| {
            (y0..y0 + s)
                .flat_map(|y| (x0..x0 + s).map(move |x| (x, y)))
                .filter(|&(x, y)| self.land(x + y * self.w))
                .count()
        };
        [count(0, 0), count(self.w - s, 0), count(0, self.d - s), count(self.w - s, self.d - s)]
    }

    fn widest_view(&self) -> (CellIdx, f32) {
        let cells = self.b.cells();
        let c = Volume::Standing(LosTemplate::C);
        let targets: Vec<usize> = (0..self.b.len()).filter(|&i| self.standable(i)).collect();
        let mut best = (0, 0.0);
        for v in 0..self.b.len() {
            let (x, y) = (v % self.w, v / self.w);
            let sampled = x % 2 == 0 && y % 2 == 0;
            if !self.standable(v) || !(sampled || self.above(v) >= TALL_HEIGHT) {
                continue;
            }
            let clear = targets
                .iter()
                .filter(|&&t| {
                    let s = self.b.sight(v as CellIdx, cells[v].height, c, t as CellIdx, cells[t].height, c);
                    s.visible && !s.hard_cover && !s.soft_cover
                })
                .count();
            let f = clear as f32 / targets.len().max(1) as f32;
            if f > best.1 {
                best = (v as CellIdx, f);
            }
        }
        best
    }
}
