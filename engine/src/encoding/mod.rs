//! Tensor encodings for learned agents: what a side sees as fixed-shape planes and globals
//! ([`observe`]), and every decision's legal actions as distinct indices of a fixed policy
//! space, with the recipe a network uses to score each one ([`actions`]).
//!
//! Shapes depend only on the board's [`Geometry`] (its size class): smaller boards are padded,
//! so one network serves every board of a class (and, being convolutional, every class).

pub mod actions;
pub mod observe;

pub use actions::{PolicySpace, Recipe, POLICY_GLOBALS, POLICY_PLANES};
pub use observe::{encode_observation, GLOBALS, PLANES};

use crate::board::{Board, CellIdx};

/// The most models a game may have for its actions to be encoded (model slots).
pub const MODEL_SLOTS: usize = 64;
/// The most points of a declared path (the start included) reactions and nested actions
/// may name.
pub const POINT_SLOTS: usize = 64;

/// The padded board shape of a size class: 36"×36" (3'×3'), 48"×36" (4'×3'), 48"×48", or
/// the board rounded up to whole feet beyond that.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Columns (x).
    pub width: usize,
    /// Rows (y).
    pub depth: usize,
}

impl Geometry {
    /// The size class a board belongs to.
    pub fn of(board: &Board) -> Geometry {
        let (w, d) = (board.width() as usize, board.depth() as usize);
        for (cw, cd) in [(36, 36), (48, 36), (48, 48)] {
            if w <= cw && d <= cd {
                return Geometry { width: cw, depth: cd };
            }
        }
        Geometry { width: w.div_ceil(12) * 12, depth: d.div_ceil(12) * 12 }
    }

    /// Number of cells of the padded board.
    pub fn cells(&self) -> usize {
        self.width * self.depth
    }

    /// Index in the padded board (row-major, `y * width + x`) of a board cell.
    pub fn cell(&self, board: &Board, c: CellIdx) -> usize {
        let (x, y) = board.xy(c);
        y as usize * self.width + x as usize
    }

    /// The board cell at padded index `i`, if it is on the board.
    pub fn board_cell(&self, board: &Board, i: usize) -> Option<CellIdx> {
        let (x, y) = (i % self.width, i / self.width);
        board.checked_idx(x as i32, y as i32)
    }
}
