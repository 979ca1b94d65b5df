//! Movement paths on the grid (rulebook "The Movement Action", pp.24-28, and the Terrain and
//! Movement Types table, p.28).
//!
//! A declared Move or Charge names a destination cell; the declared Movement Path is the
//! cheapest path to it found here. Each step between cells is classified as normal,
//! restricted (swim, crawl) or dynamic (climb, leap), costs are kept in tenths of an inch so
//! that search is exact and deterministic, and the path is expanded into [`PathPoint`]s so
//! that a test result can stop the model part-way (mid-climb, or mid-leap where it cannot
//! rest).

use crate::board::{Board, CellIdx, Terrain};
use std::cell::RefCell;

/// Cost of one orthogonal step, in tenths of an inch.
pub const ORTHO: u16 = 10;
/// Cost of one diagonal step (√2 inches, rounded), in tenths of an inch.
pub const DIAG: u16 = 14;
/// The longest horizontal gap a leap may cross, in cells.
pub const MAX_LEAP_CELLS: u8 = 6;
/// The largest height difference a leap may span, in inches (p.25).
pub const MAX_LEAP_RISE: u8 = 3;

/// How one step of a path is performed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// Running over even ground, stairs or a gap of 1" or less.
    Normal,
    /// Swimming in water: restricted.
    Swim,
    /// Crawling while prone: restricted.
    Crawl,
    /// Climbing up or down a vertical obstacle over 1": dynamic.
    Climb,
    /// Leaping a gap, onto rough terrain or into water from height: dynamic.
    Leap,
}

impl StepKind {
    /// Dynamic movement needs an Agility test.
    pub fn is_dynamic(self) -> bool {
        matches!(self, StepKind::Climb | StepKind::Leap)
    }

    /// Restricted movement limits the whole action to pass speed.
    pub fn is_restricted(self) -> bool {
        matches!(self, StepKind::Swim | StepKind::Crawl)
    }
}

/// A point along an expanded movement path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct PathPoint {
    /// Cell the base is over (for a climb, the cell at the bottom of the climb).
    pub cell: CellIdx,
    /// Height of the base in inches.
    pub z: u8,
    /// Distance from the start of the path, in tenths of an inch.
    pub cost: u16,
    /// Whether a model may end its movement here (ground, water or mid-climb; not mid-leap).
    pub rest: bool,
    /// How the model got to this point.
    pub kind: StepKind,
}

/// A whole declared movement path.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MovePath {
    /// Points after the start, in order; the last one is the destination.
    pub points: crate::inline_vec::InlineVec<PathPoint, 24>,
    /// Whether any step is restricted (the action is then limited to pass speed).
    pub restricted: bool,
    /// Index of the first dynamic point, if the path needs a movement test.
    pub first_dynamic: Option<usize>,
}

impl MovePath {
    /// Total length in tenths of an inch.
    pub fn cost(&self) -> u16 {
        self.points.last().map_or(0, |p| p.cost)
    }
}

/// Where a model starts and how it may move.
#[derive(Clone, Copy, Debug)]
pub struct MoveSpec {
    /// Starting cell.
    pub start: CellIdx,
    /// Starting base height (above the cell surface when climbing).
    pub start_z: u8,
    /// Crawl (prone) for the whole move: every step restricted, no climbing or leaping.
    pub crawl: bool,
    /// Budget for unrestricted paths, tenths of an inch (nailed-it speed less stance costs).
    pub budget_free: u16,
    /// Budget for restricted paths, tenths of an inch (pass speed less stance costs).
    pub budget_restricted: u16,
    /// Move over the terrain as though it were open ground (an AI model's red movement
    /// symbol, seed 003 Conversion): every step is normal movement of its plain length, over
    /// heights, water, rough ground and impassable cells alike, resting only where a model can
    /// stand.
    pub ignore_terrain: bool,
}

/// The cells a move may pass through and end on, supplied by the game state.
pub trait Occupancy {
    /// Call `f` with every cell an enemy model blocks movement through.
    fn for_each_blocked(&self, f: impl FnMut(CellIdx));
    /// A model may not end its move here (another model, friendly, enemy or down, stands on it).
    fn occupied(&self, cell: CellIdx) -> bool;
    /// A signature of everything `blocks` depends on: two searches with the same board, spec
    /// and key give the same result, so the second reuses the first.
    fn key(&self) -> u64;
}

/// One reachable destination and the kind of path that reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Destination cell.
    pub cell: CellIdx,
    /// Path length in tenths of an inch.
    pub cost: u16,
    /// Whether reaching it needs a movement test.
    pub dynamic: bool,
    /// Whether the path is restricted movement.
    pub restricted: bool,
}

// Search labels: a cell is reached with or without restricted movement and with or without
// dynamic movement; the preferred label for a destination is the first in this order that
// fits its budget (normal movement may not be replaced by dynamic movement, p.25).
const LABELS: usize = 4;
const fn label(restricted: bool, dynamic: bool) -> usize {
    (restricted as usize) | ((dynamic as usize) << 1)
}
const LABEL_ORDER: [usize; 4] =
    [label(false, false), label(true, false), label(false, true), label(true, true)];

/// Cells blocked by enemy models, one bit each.
#[derive(Default)]
struct Blocked(Vec<u64>);

impl Blocked {
    fn blocks(&self, cell: CellIdx) -> bool {
        self.0[cell as usize / 64] & (1 << (cell % 64)) != 0
    }

    fn fill(&mut self, cells: usize, occ: &impl Occupancy) {
        self.0.clear();
        self.0.resize(cells.div_ceil(64), 0);
        occ.for_each_blocked(|c| self.0[c as usize / 64] |= 1 << (c % 64));
    }
}

/// Reusable search buffers, two sets per thread, so that searches allocate nothing once warm.
#[derive(Default)]
struct Scratch {
    /// Enemy-blocked cells of the current search.
    blocked: Blocked,
    /// Board id, spec and occupancy key of the search whose results the buffers hold.
    last: Option<(u64, [u16; 5], u64)>,
    dist: Vec<u16>,
    pred: Vec<u32>,
    touched: Vec<u32>,
    /// Cells with a reached node, one bit each, so results come out in cell order unsorted.
    reached: Vec<u64>,
    /// Nodes to expand by distance (a bucket queue: costs are small whole numbers).
    buckets: Vec<Vec<u32>>,
    /// Entries in the buckets not yet taken out: the search ends when none is left.
    pending: usize,
    /// The largest distance the current search expands (its larger budget).
    limit: u16,
    /// The movement edges of the last board searched.
    graph: MoveGraph,
}

thread_local! {
    /// Walking searches in the first, crawling ones in the second: a model's action choice
    /// searches both, and the move then chosen finds its walk still there.
    static SCRATCH: [RefCell<Scratch>; 2] = Default::default();
}

const UNSEEN: u16 = u16::MAX;
const NO_PRED: u32 = u32::MAX;

/// An edge out of a node: destination cell, cost in tenths of an inch, and how it is moved.
#[derive(Clone, Copy)]
struct Edge {
    to: CellIdx,
    cost: u16,
    kind: StepKind,
}

const DIRS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

fn standable(board: &Board, c: CellIdx) -> bool {
    board.cell(c).terrain != Terrain::Impassable
}

/// Enumerate the edges out of `cell` standing at its surface, ignoring models: each with its
/// gate, the adjacent cell in its direction. An edge may be taken only if neither its gate
/// nor its destination is blocked by an enemy model (a blocked neighbour also stops every
/// leap in that direction).
fn static_edges(board: &Board, cell: CellIdx, crawl: bool, mut f: impl FnMut(Edge, CellIdx)) {
    let (x, y) = board.xy(cell);
    let here = *board.cell(cell);
    let ha = here.height as i32;
    let in_water = here.terrain == Terrain::Water;
    for &(dx, dy) in &DIRS {
        let diagonal = dx != 0 && dy != 0;
        let horiz = if diagonal { DIAG } else { ORTHO };
        let Some(to) = board.checked_idx(x as i32 + dx as i32, y as i32 + dy as i32) else {
            continue;
        };
        if !standable(board, to) {
            continue;
        }
        if diagonal && cuts_corner(board, x, y, dx, dy, ha.max(board.cell(to).height as i32)) {
            continue;
        }
        let there = *board.cell(to);
        let hb = there.height as i32;
        let dh = hb - ha;
        let step = if there.terrain == Terrain::Water {
            if in_water || dh >= -1 {
                Some((if crawl && !in_water { StepKind::Crawl } else { StepKind::Swim }, horiz))
            } else if crawl {
                None
            } else {
                // Leaping into water from height is always allowed (no falling damage, p.40).
                Some((StepKind::Leap, horiz))
            }
        } else if dh.abs() <= 1 {
            if there.terrain == Terrain::Rough && !crawl {
                if in_water {
                    None // swimmers may climb but not leap out of the water (p.40)
                } else {
                    Some((StepKind::Leap, horiz))
                }
            } else if crawl {
                Some((StepKind::Crawl, horiz))
            } else if in_water {
                Some((StepKind::Swim, horiz))
            } else {
                Some((StepKind::Normal, horiz))
            }
        } else if crawl {
            None
        } else {
            Some((StepKind::Climb, horiz + dh.unsigned_abs() as u16 * ORTHO))
        };
        if let Some((kind, cost)) = step {
            f(Edge { to, cost, kind }, to);
        }
        if !crawl && !in_water {
            leap_edges(board, x, y, dx, dy, ha, &mut |e| f(e, to));
        }
    }
}

/// The edges out of `cell` for a move that ignores the terrain: a normal step of its plain
/// length to each of the eight neighbours on the board.
fn open_ground_edges(board: &Board, cell: CellIdx, mut f: impl FnMut(Edge)) {
    let (x, y) = board.xy(cell);
    for &(dx, dy) in &DIRS {
        if let Some(to) = board.checked_idx(x as i32 + dx as i32, y as i32 + dy as i32) {
            let cost = if dx != 0 && dy != 0 { DIAG } else { ORTHO };
            f(Edge { to, cost, kind: StepKind::Normal });
        }
    }
}

/// The movement edges of every cell of one board, for walking and for crawling, computed once
/// per board and thread: a search then only checks them against the models in the way.
#[derive(Default)]
struct MoveGraph {
    /// The board they belong to.
    board: Option<u64>,
    /// Edges of cell `c` (walking) are `walk[walk_start[c]..walk_start[c + 1]]`.
    walk_start: Vec<u32>,
    walk: Vec<(Edge, CellIdx)>,
    /// The same for crawling.
    crawl_start: Vec<u32>,
    crawl: Vec<(Edge, CellIdx)>,
}

impl MoveGraph {
    fn build(&mut self, board: &Board) {
        if self.board == Some(board.id()) {
            return;
        }
        self.board = Some(board.id());
        for (crawl, start, edges) in
            [(false, &mut self.walk_start, &mut self.walk), (true, &mut self.crawl_start, &mut self.crawl)]
        {
            start.clear();
            edges.clear();
            for c in 0..board.len() {
                let first = edges.len();
                start.push(first as u32);
                static_edges(board, c as CellIdx, crawl, |e, gate| edges.push((e, gate)));
                // Cheapest first, so a search stops at the first edge beyond its budget.
                edges[first..].sort_by_key(|(e, _)| e.cost);
            }
            start.push(edges.len() as u32);
        }
    }

    /// The edges out of `cell`, with their gates.
    fn edges(&self, cell: CellIdx, crawl: bool) -> &[(Edge, CellIdx)] {
        let (start, edges) =
            if crawl { (&self.crawl_start, &self.crawl) } else { (&self.walk_start, &self.walk) };
        &edges[start[cell as usize] as usize..start[cell as usize + 1] as usize]
    }
}

/// A diagonal step may not squeeze between two cells that are impassable or more than 1"
/// above both ends.
fn cuts_corner(board: &Board, x: u8, y: u8, dx: i8, dy: i8, top: i32) -> bool {
    let a = board.idx((x as i32 + dx as i32) as u8, y);
    let b = board.idx(x, (y as i32 + dy as i32) as u8);
    let blocks = |c: CellIdx| {
        let cell = board.cell(c);
        cell.terrain == Terrain::Impassable || cell.height as i32 > top + 1
    };
    blocks(a) && blocks(b)
}

/// Gap crossings in one direction (the landing's models are checked by the search): over void, rough ground or water onto a surface at most
/// 3" higher or lower, up to [`MAX_LEAP_CELLS`] cells away. A gap of a single cell (1") is
/// crossed with normal movement (p.28 table).
#[allow(clippy::too_many_arguments)]
fn leap_edges(board: &Board, x: u8, y: u8, dx: i8, dy: i8, ha: i32, f: &mut impl FnMut(Edge)) {
    let diagonal = dx != 0 && dy != 0;
    let horiz = if diagonal { DIAG } else { ORTHO };
    // Highest intermediate cell of solid ground, and of rough ground or water, so far. A leap
    // needs every cell in between to be a gap relative to the lower of take-off and landing:
    // solid ground more than 1" below it, or rough ground or water not above it.
    let mut max_solid = i32::MIN;
    let mut max_soft = i32::MIN;
    for span in 2..=MAX_LEAP_CELLS as i32 {
        let Some(mid) =
            board.checked_idx(x as i32 + dx as i32 * (span - 1), y as i32 + dy as i32 * (span - 1))
        else {
            return;
        };
        let mid = board.cell(mid);
        let h = mid.height as i32;
        // Nothing can be leapt over this cell, nor past it (the take-off is the highest the
        // floor can be).
        if mid.terrain == Terrain::Impassable || h > ha + 1 {
            return;
        }
        if matches!(mid.terrain, Terrain::Rough | Terrain::Water) {
            max_soft = max_soft.max(h);
        } else {
            max_solid = max_solid.max(h);
        }
        if max_solid >= ha - 1 || max_soft > ha {
            return;
        }
        let Some(to) = board.checked_idx(x as i32 + dx as i32 * span, y as i32 + dy as i32 * span) else {
            return;
        };
        let there = *board.cell(to);
        let hb = there.height as i32;
        let floor = ha.min(hb);
        let gap = max_solid < floor - 1 && max_soft <= floor;
        let landable = there.terrain != Terrain::Water
            && there.terrain != Terrain::Impassable
            && (hb - ha).unsigned_abs() <= MAX_LEAP_RISE as u32;
        if gap && landable {
            // A gap of 1" is crossed normally; landing on rough ground is always a leap (p.66).
            let kind =
                if span == 2 && there.terrain != Terrain::Rough { StepKind::Normal } else { StepKind::Leap };
            f(Edge { to, cost: horiz * span as u16, kind });
        }
    }
}

/// Run the search from `spec`, then call `f` for each reachable destination (in cell order)
/// with its preferred path label. The start cell itself is reported with cost 0.
pub fn reachable(board: &Board, occ: &impl Occupancy, spec: &MoveSpec, mut f: impl FnMut(Reach)) {
    SCRATCH.with(|slots| {
        let mut s = slots[spec.crawl as usize].borrow_mut();
        search(board, occ, spec, &mut s);
        for (w, &word) in s.reached.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let cell = (w * 64 + bits.trailing_zeros() as usize) as CellIdx;
                bits &= bits - 1;
                if let Some(r) = best_label(board, &s, spec, cell) {
                    f(r);
                }
            }
        }
    });
}

/// The declared path to `dest`, if `dest` is reachable under `spec`.
pub fn path_to(board: &Board, occ: &impl Occupancy, spec: &MoveSpec, dest: CellIdx) -> Option<MovePath> {
    SCRATCH.with(|slots| {
        let mut s = slots[spec.crawl as usize].borrow_mut();
        search(board, occ, spec, &mut s);
        let reach = best_label(board, &s, spec, dest)?;
        let lab = label(reach.restricted, reach.dynamic);
        Some(expand(board, spec, &s, dest as u32 * LABELS as u32 + lab as u32))
    })
}

fn best_label(board: &Board, s: &Scratch, spec: &MoveSpec, cell: CellIdx) -> Option<Reach> {
    // A move over the terrain passes over impassable cells but cannot end on one.
    if spec.ignore_terrain && !standable(board, cell) {
        return None;
    }
    LABEL_ORDER.iter().find_map(|&lab| {
        let d = s.dist[cell as usize * LABELS + lab];
        let restricted = lab & 1 == 1;
        let budget = if restricted { spec.budget_restricted } else { spec.budget_free };
        (d != UNSEEN && d <= budget).then_some(Reach { cell, cost: d, dynamic: lab & 2 == 2, restricted })
    })
}

fn search(board: &Board, occ: &impl Occupancy, spec: &MoveSpec, s: &mut Scratch) {
    let key = (
        board.id(),
        [
            spec.start,
            spec.start_z as u16,
            spec.crawl as u16 | (spec.ignore_terrain as u16) << 1,
            spec.budget_free,
            spec.budget_restricted,
        ],
        occ.key(),
    );
    if s.last == Some(key) {
        return;
    }
    s.last = Some(key);
    s.blocked.fill(board.len(), occ);
    let n = board.len() * LABELS;
    if s.dist.len() != n {
        s.dist = vec![UNSEEN; n];
        s.pred = vec![NO_PRED; n];
        s.touched.clear();
    }
    for &t in &s.touched {
        s.dist[t as usize] = UNSEEN;
        s.pred[t as usize] = NO_PRED;
    }
    s.touched.clear();
    s.reached.clear();
    s.reached.resize(board.len().div_ceil(64), 0);
    let max_budget = spec.budget_free.max(spec.budget_restricted);
    if s.buckets.len() <= max_budget as usize {
        s.buckets.resize_with(max_budget as usize + 1, Vec::new);
    }
    // Every search empties the buckets it fills (it runs until none is pending), so they start
    // empty.
    debug_assert!(s.pending == 0 && s.buckets.iter().all(Vec::is_empty));
    s.limit = max_budget;
    s.graph.build(board);
    let start_water = board.cell(spec.start).terrain == Terrain::Water && !spec.ignore_terrain;
    let start_restricted = spec.crawl || start_water;
    let surface = board.cell(spec.start).height;
    // A climbing model starts part-way up: it first finishes or reverses its climb.
    let start_label = label(start_restricted, false);
    let start_node = spec.start as u32 * LABELS as u32 + start_label as u32;
    if spec.start_z <= surface || spec.ignore_terrain {
        relax(s, start_node, 0, NO_PRED);
    } else {
        // Climbing down to the surface of its own cell, or up onto an adjacent higher cell.
        let down = (spec.start_z - surface) as u16 * ORTHO;
        relax(s, spec.start as u32 * LABELS as u32 + label(start_restricted, true) as u32, down, NO_PRED);
        let (x, y) = board.xy(spec.start);
        for &(dx, dy) in &DIRS[..4] {
            let Some(to) = board.checked_idx(x as i32 + dx as i32, y as i32 + dy as i32) else {
                continue;
            };
            let top = board.cell(to).height;
            if top >= spec.start_z && standable(board, to) && !s.blocked.blocks(to) {
                let cost = (top - spec.start_z) as u16 * ORTHO + ORTHO;
                relax(s, to as u32 * LABELS as u32 + label(start_restricted, true) as u32, cost, NO_PRED);
            }
        }
    }
    let blocked = std::mem::take(&mut s.blocked);
    let graph = std::mem::take(&mut s.graph);
    let mut bucket = Vec::new();
    // Expand nodes by increasing distance and, at equal distance, increasing node number:
    // the order a priority queue of (distance, node) gives, so ties resolve as they always did.
    for d in 0..=max_budget {
        if s.pending == 0 {
            break;
        }
        if s.buckets[d as usize].is_empty() {
            continue;
        }
        std::mem::swap(&mut bucket, &mut s.buckets[d as usize]);
        s.pending -= bucket.len();
        bucket.sort_unstable();
        for &node in &bucket {
            if d != s.dist[node as usize] {
                continue;
            }
            let cell = (node / LABELS as u32) as CellIdx;
            let lab = (node % LABELS as u32) as usize;
            if dominated(&s.dist, cell, lab, d) {
                continue;
            }
            let restricted = lab & 1 == 1;
            let dynamic = lab & 2 == 2;
            let visit = |s: &mut Scratch, e: Edge, gate: CellIdx| {
                if blocked.blocks(gate) || blocked.blocks(e.to) {
                    return;
                }
                let r = restricted || e.kind.is_restricted();
                let dy = dynamic || e.kind.is_dynamic();
                let nd = d.saturating_add(e.cost);
                let budget = if r { spec.budget_restricted } else { spec.budget_free };
                if nd > budget || nd > max_budget {
                    return;
                }
                let to = e.to as u32 * LABELS as u32 + label(r, dy) as u32;
                relax(s, to, nd, node);
            };
            if spec.ignore_terrain {
                open_ground_edges(board, cell, |e| visit(s, e, e.to));
            } else {
                // Past the node's own budget no edge fits (a restricted node stays restricted);
                // edges come cheapest first.
                let reach = if restricted { spec.budget_restricted } else { max_budget };
                for &(e, gate) in graph.edges(cell, spec.crawl) {
                    if d.saturating_add(e.cost) > reach {
                        break;
                    }
                    visit(s, e, gate);
                }
            }
        }
        bucket.clear();
        std::mem::swap(&mut bucket, &mut s.buckets[d as usize]);
    }
    s.graph = graph;
    s.blocked = blocked;
}

/// Whether node (`cell`, `lab`) at distance `d` need not be expanded: the same cell is reached
/// no farther with a label of strictly fewer flags. Flags only accumulate along a path, edges
/// do not depend on the label, and fewer flags mean an equal or larger budget and an earlier
/// place in [`LABEL_ORDER`]; so every path on from the dominated node is matched, step for
/// step, by one from the dominating node that is no longer, fits its budget whenever the
/// original does, and is expanded first (smaller distance, or the same distance and a smaller
/// node number). No destination's preferred label, length or declared path changes.
fn dominated(dist: &[u16], cell: CellIdx, lab: usize, d: u16) -> bool {
    let base = cell as usize * LABELS;
    // The strict subsets of `lab`'s flags, largest first.
    let mut sub = lab;
    while sub != 0 {
        sub = (sub - 1) & lab;
        if dist[base + sub] <= d {
            return true;
        }
    }
    false
}

fn relax(s: &mut Scratch, node: u32, d: u16, pred: u32) {
    let i = node as usize;
    if d < s.dist[i] {
        if s.dist[i] == UNSEEN {
            s.touched.push(node);
            let cell = i / LABELS;
            s.reached[cell / 64] |= 1 << (cell % 64);
        }
        s.dist[i] = d;
        s.pred[i] = pred;
        // A start beyond the budget (a long climb down) is recorded but never expanded.
        if d <= s.limit {
            s.buckets[d as usize].push(node);
            s.pending += 1;
        }
    }
}

/// Rebuild the chain of nodes ending at `node` and expand each step into path points.
fn expand(board: &Board, spec: &MoveSpec, s: &Scratch, node: u32) -> MovePath {
    let mut chain = Vec::with_capacity(16);
    let mut cur = node;
    loop {
        chain.push(cur);
        let p = s.pred[cur as usize];
        if p == NO_PRED {
            break;
        }
        cur = p;
    }
    chain.reverse();
    let mut path = MovePath::default();
    let mut prev_cell = spec.start;
    let mut prev_z = spec.start_z;
    let mut prev_cost = 0u16;
    for &n in &chain {
        let cell = (n / LABELS as u32) as CellIdx;
        let cost = s.dist[n as usize];
        if cell == prev_cell && cost == 0 {
            continue; // the start node
        }
        if spec.ignore_terrain {
            let z = board.cell(cell).height;
            path.points.push(PathPoint {
                cell,
                z,
                cost,
                rest: standable(board, cell),
                kind: StepKind::Normal,
            });
        } else {
            push_step(board, spec, &mut path, prev_cell, prev_z, prev_cost, cell, cost);
        }
        prev_cell = cell;
        prev_z = board.cell(cell).height;
        prev_cost = cost;
    }
    path.restricted = path.points.iter().any(|p| p.kind.is_restricted())
        || spec.crawl
        || (board.cell(spec.start).terrain == Terrain::Water && !spec.ignore_terrain);
    path.first_dynamic = path.points.iter().position(|p| p.kind.is_dynamic());
    path
}

/// Expand one search step from (`from`, `from_z`) to `to` into path points.
#[allow(clippy::too_many_arguments)]
fn push_step(
    board: &Board,
    spec: &MoveSpec,
    path: &mut MovePath,
    from: CellIdx,
    from_z: u8,
    from_cost: u16,
    to: CellIdx,
    to_cost: u16,
) {
    let there = *board.cell(to);
    let hb = there.height;
    if from == to {
        // Climbing down to the surface of the starting cell.
        for z in (hb..from_z).rev() {
            let cost = from_cost + (from_z - z) as u16 * ORTHO;
            path.points.push(PathPoint { cell: to, z, cost, rest: true, kind: StepKind::Climb });
        }
        return;
    }
    let (fx, fy) = board.xy(from);
    let (tx, ty) = board.xy(to);
    let span = (fx as i32 - tx as i32).abs().max((fy as i32 - ty as i32).abs()) as u8;
    let crawl = spec.crawl;
    let water_to = there.terrain == Terrain::Water;
    if span > 1 {
        // A leap (or a 1" gap crossed normally): mid-air points over the gap cells.
        let kind =
            if span == 2 && there.terrain != Terrain::Rough { StepKind::Normal } else { StepKind::Leap };
        let per = (to_cost - from_cost) / span as u16;
        for i in 1..span {
            let cx = fx as i32 + (tx as i32 - fx as i32) / span as i32 * i as i32;
            let cy = fy as i32 + (ty as i32 - fy as i32) / span as i32 * i as i32;
            let c = board.idx(cx as u8, cy as u8);
            let z = (from_z as i32 + (hb as i32 - from_z as i32) * i as i32 / span as i32) as u8;
            let z = z.max(board.cell(c).height);
            path.points.push(PathPoint { cell: c, z, cost: from_cost + per * i as u16, rest: false, kind });
        }
        path.points.push(PathPoint { cell: to, z: hb, cost: to_cost, rest: true, kind });
        return;
    }
    let dh = hb as i32 - from_z as i32;
    let in_water = board.cell(from).terrain == Terrain::Water && from_z == board.cell(from).height;
    if water_to || dh.abs() <= 1 {
        let kind = if water_to && dh < -1 && !in_water {
            StepKind::Leap
        } else if crawl {
            StepKind::Crawl
        } else if water_to || in_water {
            StepKind::Swim
        } else if there.terrain == Terrain::Rough {
            StepKind::Leap
        } else {
            StepKind::Normal
        };
        path.points.push(PathPoint { cell: to, z: hb, cost: to_cost, rest: true, kind });
        return;
    }
    // Climbing: the model stays over the cell at the bottom of the climb while it climbs.
    let horiz = if fx != tx && fy != ty { DIAG } else { ORTHO };
    if dh > 0 {
        for (i, z) in (from_z + 1..hb).enumerate() {
            let cost = from_cost + (i as u16 + 1) * ORTHO;
            path.points.push(PathPoint { cell: from, z, cost, rest: true, kind: StepKind::Climb });
        }
    } else {
        for (i, z) in (hb + 1..from_z).rev().enumerate() {
            let cost = from_cost + horiz + (i as u16 + 1) * ORTHO;
            path.points.push(PathPoint { cell: to, z, cost, rest: true, kind: StepKind::Climb });
        }
    }
    path.points.push(PathPoint { cell: to, z: hb, cost: to_cost, rest: true, kind: StepKind::Climb });
}
