//! Rulebook geometry and small helpers for the scenario tests, computed independently of the
//! engine's own zone code (edges 0 = row 0, 1 = last row, 2 = column 0, 3 = last column).

use engine::board::{Board, CellIdx, Terrain};
use engine::state::{Side, Step};
use engine::{Action, GameState};

/// Inches from `cell` to board edge `edge` (0 for a cell touching it).
pub fn to_edge(b: &Board, cell: CellIdx, edge: u8) -> i32 {
    let (x, y) = b.xy(cell);
    let (x, y) = (x as i32, y as i32);
    match edge {
        0 => y,
        1 => b.depth() as i32 - 1 - y,
        2 => x,
        3 => b.width() as i32 - 1 - x,
        _ => unreachable!(),
    }
}

/// The opposite board edge.
pub fn opposite(edge: u8) -> u8 {
    [1, 0, 3, 2][edge as usize]
}

/// Cells between two cells, diagonals counting one (touching cells are 1 apart).
pub fn chebyshev(b: &Board, a: CellIdx, c: CellIdx) -> i32 {
    let (ax, ay) = b.xy(a);
    let (cx, cy) = b.xy(c);
    (ax as i32 - cx as i32).abs().max((ay as i32 - cy as i32).abs())
}

/// "Models must deploy at ground level" (p.76): open ground, not on top of terrain.
pub fn ground(b: &Board, c: CellIdx) -> bool {
    let cell = b.cell(c);
    cell.terrain == Terrain::Open && cell.height <= 1
}

/// The regular deployment zone: within 4" of the edge.
pub fn in_strip(b: &Board, c: CellIdx, edge: u8) -> bool {
    to_edge(b, c, edge) < 4
}

/// The deployment edge of `side`.
pub fn edge_of(s: &GameState, side: Side) -> u8 {
    s.dynamic().scenario.zones[side as usize][0]
}

/// Closer to the own edge than to the opposite one.
pub fn own_half(b: &Board, c: CellIdx, edge: u8) -> bool {
    to_edge(b, c, edge) < to_edge(b, c, opposite(edge))
}

/// Decline a re-roll card offered after a test.
pub fn no_cards(s: &mut GameState) {
    while matches!(s.node(), Some(Step::ChooseCard { .. })) {
        s.apply_action(Action::NoCard).unwrap();
    }
}

/// A cell a model may be put on at all: ground, empty, not touching a conscious enemy.
pub fn free(s: &GameState, side: Side, c: CellIdx) -> bool {
    let b = s.board();
    ground(b, c)
        && !s.models().iter().any(|m| m.is_on_table() && m.cell == c)
        && !s.models().iter().any(|m| {
            m.side != side
                && m.is_conscious()
                && chebyshev(b, m.cell, c) == 1
                && (m.z as i32 - b.cell(c).height as i32).abs() <= 1
        })
}

/// The side that is player A.
pub fn player_a(s: &GameState) -> Side {
    s.dynamic().scenario.player_a
}

/// The step on top of the stack (the current node).
pub fn top(s: &GameState) -> Step {
    s.node().cloned().expect("not terminal")
}
