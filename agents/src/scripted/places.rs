//! Places on the table as the scripted player weighs them: the cover a cell offers, the open
//! ground and cover of a zone, the corners' deployment squares and the diagonal to aim for,
//! the cells of an edge, and a goal toward a set of cells. Shared by the set-up choices
//! ([`super::setup`]) and the scenarios' plans ([`super::plans`]).

use super::fields::{Fields, Mobility};
use super::goal::Goal;
use super::view::View;
use engine::board::{CellIdx, Cover, Terrain};
use engine::scenario::zones::{corner_edges, edge_distance, in_corner, is_ground, opposite_corner, EDGES};
use engine::state::ModelId;

/// Centre cell of a corner's deployment square.
pub(crate) fn corner_point(view: &View, corner: u8) -> CellIdx {
    let board = view.state.board();
    let (xe, ye) = corner_edges(corner);
    let x = if xe == 2 { 4 } else { board.width().saturating_sub(5) };
    let y = if ye == 0 { 4 } else { board.depth().saturating_sub(5) };
    board.idx(x, y)
}

/// Open ground and cover available in a zone.
pub(crate) fn ground_value(view: &View, inside: impl Fn(CellIdx) -> bool) -> f64 {
    let board = view.state.board();
    let mut v = 0.0;
    for c in 0..board.len() as CellIdx {
        if inside(c) && is_ground(board, c) {
            v += 1.0 + shelter(view, c) * 10.0;
        }
    }
    v
}

/// Cover a cell offers: scatter on it and walls beside it.
pub(crate) fn shelter(view: &View, cell: CellIdx) -> f64 {
    let board = view.state.board();
    let c = board.cell(cell);
    let mut v = match c.cover {
        Cover::Hard => 0.1,
        Cover::Soft => 0.05,
        Cover::None => 0.0,
    };
    let (x, y) = board.xy(cell);
    let mut walls = 0;
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        if let Some(n) = board.checked_idx(x as i32 + dx, y as i32 + dy) {
            let nc = board.cell(n);
            if nc.height >= c.height + 2 || nc.terrain == Terrain::Impassable {
                walls += 1;
            }
        }
    }
    v += 0.03 * walls.min(2) as f64;
    v
}

/// The diagonal (first corner 0 or 1) a side placing Scavenger Hunt markers first aims for.
pub(crate) fn planned_diagonal(view: &View) -> u8 {
    let board = view.state.board();
    let v = |c: u8| {
        ground_value(view, |x| in_corner(board, x, c, 8) || in_corner(board, x, opposite_corner(c), 8))
    };
    if v(0) >= v(1) {
        0
    } else {
        1
    }
}

/// A goal toward the nearest of `cells` for model `m`, stopping `stop` short (tenths of an
/// inch); no goal when there are no cells.
pub(crate) fn goal_toward(
    view: &View,
    fields: &mut Fields,
    m: ModelId,
    cells: &[CellIdx],
    weight: f64,
    stop: u16,
) -> Goal {
    if cells.is_empty() {
        return Goal::none();
    }
    let state = view.state;
    Goal { field: Some(fields.get(state.board(), Mobility::of(state.profile(m).speed), cells)), stop, weight }
}

/// The cells along board edge `e` (none for an edge not yet chosen).
pub(crate) fn edge_cells(view: &View, e: u8) -> Vec<CellIdx> {
    let board = view.state.board();
    if e >= EDGES {
        return Vec::new();
    }
    (0..board.len() as CellIdx).filter(|&c| edge_distance(board, c, e) == 0).collect()
}
