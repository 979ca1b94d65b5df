//! Board geometry for the scenarios: board edges and corners, deployment strips, corner
//! squares, board halves, and distances in inches between cells (pp.76–85).
//!
//! Edges are numbered 0 (row 0), 1 (the last row), 2 (column 0) and 3 (the last column), so
//! that `e ^ 1` is the opposite edge. Corners are numbered 0 (column 0, row 0), 1 (last
//! column, row 0), 2 (column 0, last row) and 3 (last column, last row), so that `3 - c` is
//! the diagonally opposite corner.

use crate::board::{Board, CellIdx, Terrain};

/// Number of board edges (and of corners).
pub const EDGES: u8 = 4;

/// The edge opposite `edge`.
pub fn opposite_edge(edge: u8) -> u8 {
    edge ^ 1
}

/// The corner diagonally opposite `corner`.
pub fn opposite_corner(corner: u8) -> u8 {
    3 - corner
}

/// Whether the two corners share an edge (they are neither equal nor diagonal).
pub fn corners_adjacent(a: u8, b: u8) -> bool {
    a != b && a != opposite_corner(b)
}

/// The edge joining two adjacent corners.
pub fn edge_between(a: u8, b: u8) -> u8 {
    debug_assert!(corners_adjacent(a, b));
    // Corners 0,1 share row 0 (edge 0); 2,3 the last row (edge 1); 0,2 column 0 (edge 2);
    // 1,3 the last column (edge 3).
    match (a.min(b), a.max(b)) {
        (0, 1) => 0,
        (2, 3) => 1,
        (0, 2) => 2,
        _ => 3,
    }
}

/// Whether `edge` is one of the board's long edges (every edge of a square board). On a
/// 3'×4' board the long edges are the deployment edges (p.76).
pub fn is_long_edge(board: &Board, edge: u8) -> bool {
    let (w, d) = (board.width(), board.depth());
    match edge {
        0 | 1 => w >= d,
        _ => d >= w,
    }
}

/// Distance in whole inches from `cell` to `edge` (0 for a cell touching it).
pub fn edge_distance(board: &Board, cell: CellIdx, edge: u8) -> u8 {
    let (x, y) = board.xy(cell);
    match edge {
        0 => y,
        1 => board.depth() - 1 - y,
        2 => x,
        _ => board.width() - 1 - x,
    }
}

/// Whether `cell` lies within `depth` inches of `edge` (its base wholly inside the strip).
pub fn in_strip(board: &Board, cell: CellIdx, edge: u8, depth: u8) -> bool {
    edge_distance(board, cell, edge) < depth
}

/// Whether `cell` is at least `from` and less than `to` inches from `edge`.
pub fn in_band(board: &Board, cell: CellIdx, edge: u8, from: u8, to: u8) -> bool {
    let d = edge_distance(board, cell, edge);
    d >= from && d < to
}

/// Whether `cell` lies in the `size`-inch square in `corner`.
pub fn in_corner(board: &Board, cell: CellIdx, corner: u8, size: u8) -> bool {
    let (xe, ye) = corner_edges(corner);
    in_strip(board, cell, xe, size) && in_strip(board, cell, ye, size)
}

/// The two edges meeting at `corner`: (the column edge, the row edge).
pub fn corner_edges(corner: u8) -> (u8, u8) {
    let xe = if corner.is_multiple_of(2) { 2 } else { 3 };
    let ye = if corner < 2 { 0 } else { 1 };
    (xe, ye)
}

/// Whether `cell` is in the half of the board on `edge`'s side.
pub fn in_half(board: &Board, cell: CellIdx, edge: u8) -> bool {
    let extent = if edge < 2 { board.depth() } else { board.width() };
    (edge_distance(board, cell, edge) as u16) * 2 < extent as u16
}

/// Whether `cell` touches any board edge.
pub fn on_board_edge(board: &Board, cell: CellIdx) -> bool {
    (0..EDGES).any(|e| edge_distance(board, cell, e) == 0)
}

/// The cell at the centre of the board, or the nearest ground cell when the centre is not
/// ground (a statue, water): where a central marker lies (docs/rulings.md).
pub fn centre(board: &Board) -> CellIdx {
    let middle = board.idx(board.width() / 2, board.depth() / 2);
    (0..board.len() as CellIdx)
        .filter(|&c| is_ground(board, c))
        .min_by(|&a, &b| {
            let (da, db) = (board.centre_distance(middle, 0, a, 0), board.centre_distance(middle, 0, b, 0));
            da.total_cmp(&db).then(a.cmp(&b))
        })
        .unwrap_or(middle)
}

/// Whether models may deploy on `cell`: open ground at ground level (p.76, "Scenario
/// Deployment Rules"; docs/rulings.md).
pub fn is_ground(board: &Board, cell: CellIdx) -> bool {
    let c = board.cell(cell);
    c.terrain == Terrain::Open && c.height <= 1
}

/// Whether `cell` is a model's cell or touches it (a 30mm marker "in base contact").
pub fn touches(board: &Board, a: CellIdx, b: CellIdx) -> bool {
    let (ax, ay) = board.xy(a);
    let (bx, by) = board.xy(b);
    (ax as i32 - bx as i32).abs().max((ay as i32 - by as i32).abs()) <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cell, Cover};

    fn open(w: u8, d: u8) -> Board {
        let cell = Cell { height: 0, terrain: Terrain::Open, cover: Cover::None };
        Board::from_cells("t", w, d, vec![cell; w as usize * d as usize])
    }

    #[test]
    fn corners_and_edges_pair_up() {
        assert_eq!(opposite_corner(0), 3);
        assert_eq!(opposite_corner(1), 2);
        assert!(corners_adjacent(0, 1) && corners_adjacent(0, 2) && !corners_adjacent(0, 3));
        assert_eq!(edge_between(1, 0), 0);
        assert_eq!(edge_between(2, 3), 1);
        assert_eq!(edge_between(2, 0), 2);
        assert_eq!(edge_between(3, 1), 3);
        assert_eq!(opposite_edge(0), 1);
        assert_eq!(opposite_edge(3), 2);
    }

    #[test]
    fn strips_halves_and_corners() {
        let b = open(48, 36);
        assert!(is_long_edge(&b, 0) && is_long_edge(&b, 1));
        assert!(!is_long_edge(&b, 2));
        let c = b.idx(10, 3);
        assert!(in_strip(&b, c, 0, 4) && !in_strip(&b, c, 0, 3));
        assert!(in_half(&b, b.idx(0, 17), 0) && !in_half(&b, b.idx(0, 18), 0));
        assert!(in_half(&b, b.idx(0, 18), 1));
        assert!(in_corner(&b, b.idx(47, 35), 3, 8) && in_corner(&b, b.idx(40, 28), 3, 8));
        assert!(!in_corner(&b, b.idx(39, 35), 3, 8));
        assert!(in_band(&b, b.idx(5, 30), 1, 4, 8) && !in_band(&b, b.idx(5, 32), 1, 4, 8));
        assert_eq!(centre(&b), b.idx(24, 18));
        assert!(on_board_edge(&b, b.idx(0, 5)) && !on_board_edge(&b, b.idx(1, 5)));
    }
}
