//! The discretised 3-D table: a grid of 1" cells, each with a surface height, a terrain kind
//! and the scatter cover standing on it (rulebook chapter 5, pp.64-70).
//!
//! Models stand on cell surfaces. LOS-blocking structures (buildings, cliffs, walls) are cells
//! whose surface is raised: their sides block sight and must be climbed or leapt, and their
//! tops can be stood on. Static line of sight and cover between cells is computed once per
//! board, lazily per viewing cell, and shared by every clone of a game through `Arc<Board>`.

mod format;
mod guidelines;
mod los;

pub use format::BoardError;
pub use guidelines::{
    GuidelineReport, LeapGap, TallStructure, CORNER_SQUARE, CORNER_ZONE, DEATH_ZONE_SIDE, DEPLOYMENT_ROWS,
    MAX_BLOCKING, MAX_VIEW, MIN_BLOCKING, MIN_CORNER_GROUND, MIN_DEPLOYMENT_GROUND, MIN_LONG_LEAPS,
    MIN_SHORT_LEAPS, MIN_WATER, STRUCTURE_HEIGHT, TALL_HEIGHT,
};
pub use los::{LosTemplate, Sight, Volume, BASE_SIGHT_HEIGHT, TEMPLATE_HALF_WIDTH};

use los::LosCache;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Index of a cell: `x + y * width`.
pub type CellIdx = u16;

/// What the ground of a cell is made of (p.66 "Terrain and Movement").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Even ground, walkways, roofs: normal movement.
    Open,
    /// Water whose surface is the cell height: models in it swim.
    Water,
    /// Swamp, dense forest, rubble: must be leapt or crawled.
    Rough,
    /// Blocks all movement, including climbing and leaping.
    Impassable,
}

/// Scatter terrain standing on a cell (p.70): it gives cover but does not fill the cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    /// Nothing on the cell.
    None,
    /// Vegetation, wicker, hedges: soft cover, [`SOFT_COVER_HEIGHT`] tall, does not stop sight
    /// but breaks up the outline.
    Soft,
    /// Rubble, crates, low walls: hard cover, [`HARD_COVER_HEIGHT`] tall.
    Hard,
}

/// Height in inches of soft scatter cover above its cell's surface.
pub const SOFT_COVER_HEIGHT: f32 = 2.0;
/// Height in inches of hard scatter cover above its cell's surface.
pub const HARD_COVER_HEIGHT: f32 = 1.0;

/// One 1" square of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cell {
    /// Surface height in whole inches (for water, the water surface).
    pub height: u8,
    /// Ground kind.
    pub terrain: Terrain,
    /// Scatter cover on the cell.
    pub cover: Cover,
}

/// A whole table. Immutable once built; games share it behind an `Arc`.
#[derive(Debug)]
pub struct Board {
    id: u64,
    name: String,
    width: u8,
    depth: u8,
    cells: Vec<Cell>,
    /// Each cell's column and row, looked up instead of divided out on every query.
    coords: Box<[(u8, u8)]>,
    los: LosCache,
}

impl Board {
    /// Build a board from its cells (row-major, `width * depth` of them).
    ///
    /// # Panics
    /// If `cells.len() != width * depth`; the text parser checks this and reports it instead.
    pub fn from_cells(name: impl Into<String>, width: u8, depth: u8, cells: Vec<Cell>) -> Board {
        assert_eq!(cells.len(), width as usize * depth as usize, "cell count");
        let los = LosCache::new(cells.len());
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Board {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            name: name.into(),
            width,
            depth,
            cells,
            coords: (0..depth).flat_map(|y| (0..width).map(move |x| (x, y))).collect(),
            los,
        }
    }

    /// Parse the plain-text board format (see `configs/boards/README.md`); `source` names the
    /// file in error messages.
    pub fn parse(text: &str, source: &str) -> Result<Board, BoardError> {
        format::parse(text, source)
    }

    /// Read and parse a board file.
    pub fn load(path: &Path) -> Result<Board, BoardError> {
        format::load(path)
    }

    /// Load a board file once per process: later loads of the same file with the same text
    /// share the first board, and with it its sight cache and every search cache keyed on
    /// its id, so games on one board stop recomputing line of sight from scratch.
    pub fn load_shared(path: &Path) -> Result<Arc<Board>, BoardError> {
        type Loaded = Mutex<HashMap<(PathBuf, String), Arc<Board>>>;
        static LOADED: OnceLock<Loaded> = OnceLock::new();
        let (text, source) = format::read(path)?;
        let key = (path.to_path_buf(), text);
        let loaded = LOADED.get_or_init(Loaded::default);
        if let Some(board) = loaded.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return Ok(board.clone());
        }
        let board = Arc::new(format::parse(&key.1, &source)?);
        let mut map = loaded.lock().unwrap_or_else(|p| p.into_inner());
        Ok(map.entry(key).or_insert(board).clone())
    }

    /// Render the board back into the text format; `parse(render())` gives the same cells.
    pub fn to_text(&self) -> String {
        format::render(self)
    }

    /// A number unique to this board in this process (caches key on it).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The board's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of columns (x).
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Number of rows (y).
    pub fn depth(&self) -> u8 {
        self.depth
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// A board always has cells; provided for API completeness.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cell at an index.
    pub fn cell(&self, idx: CellIdx) -> &Cell {
        &self.cells[idx as usize]
    }

    /// All cells, row-major.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Index of the cell at column `x`, row `y`.
    pub fn idx(&self, x: u8, y: u8) -> CellIdx {
        x as CellIdx + y as CellIdx * self.width as CellIdx
    }

    /// Column and row of a cell.
    pub fn xy(&self, idx: CellIdx) -> (u8, u8) {
        self.coords[idx as usize]
    }

    /// The cell at signed coordinates, if on the board.
    pub fn checked_idx(&self, x: i32, y: i32) -> Option<CellIdx> {
        (x >= 0 && y >= 0 && x < self.width as i32 && y < self.depth as i32)
            .then(|| self.idx(x as u8, y as u8))
    }

    /// Static sight from a viewer to a target, terrain only (models are the game state's
    /// business). `from_z`/`to_z` are the heights of the two bases in inches; when they equal
    /// the cells' surfaces the answer comes from the per-board cache.
    pub fn sight(
        &self,
        from: CellIdx,
        from_z: u8,
        eye: Volume,
        to: CellIdx,
        to_z: u8,
        target: Volume,
    ) -> Sight {
        los::sight(self, from, from_z, eye, to, to_z, target)
    }

    /// Centre-to-centre 3-D distance in inches between two bases.
    pub fn centre_distance(&self, a: CellIdx, az: u8, b: CellIdx, bz: u8) -> f32 {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        let dx = ax as f32 - bx as f32;
        let dy = ay as f32 - by as f32;
        let dz = az as f32 - bz as f32;
        (dx * dx + dy * dy + dz * dz).sqrt()
    }

    /// Distance in inches between two cells at ground level (their surfaces), base edge to
    /// base edge.
    pub fn ground_distance(&self, a: CellIdx, b: CellIdx) -> f32 {
        self.edge_distance(a, self.cell(a).height, b, self.cell(b).height)
    }

    /// Distance base edge to base edge (p.9) between two 1" bases: centre distance less one
    /// base width, never negative.
    pub fn edge_distance(&self, a: CellIdx, az: u8, b: CellIdx, bz: u8) -> f32 {
        (self.centre_distance(a, az, b, bz) - 1.0).max(0.0)
    }

    /// Calls `f(cell, fraction)` for each cell whose square the straight segment between the
    /// two cell centres crosses, in order from `from` to `to`, both excluded. `fraction` (0..1)
    /// is where along the segment the middle of that cell's crossing lies. A segment through
    /// the exact corner of four cells (any diagonal) also reports the two side cells meeting
    /// at that corner, at the corner's fraction, so a line never slips between two cells that
    /// touch only at a corner. Allocates nothing.
    pub fn for_each_cell_between(&self, from: CellIdx, to: CellIdx, f: impl FnMut(CellIdx, f32)) {
        los::for_each_cell_between(self, from, to, f)
    }

    /// How many (viewer cell, eye volume, target cell) sight entries have been computed so far
    /// (for tests and measurements; at most `6 * len()²`).
    pub fn sight_entries_built(&self) -> usize {
        self.los.entries_built()
    }
}
