//! Line of sight and cover between cells (rulebook chapter 5, p.64). HELPER TO IMPLEMENT.

use super::{Board, CellIdx};
use serde::{Deserialize, Serialize};

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

/// The volume a model presents to sight, or sees from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Volume {
    /// Prone, swimming or climbing: sight is drawn to and from the base only.
    Base,
    /// Standing: the LOS template of the profile.
    Standing(LosTemplate),
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

#[derive(Debug)]
pub(super) struct LosCache;

impl LosCache {
    pub(super) fn new(_cells: usize) -> LosCache {
        LosCache
    }
}

pub(super) fn sight(_board: &Board, _from: CellIdx, _from_z: u8, _eye: Volume, _to: CellIdx, _to_z: u8, _target: Volume) -> Sight {
    todo!("helper")
}

pub(super) fn cells_between(_board: &Board, _from: CellIdx, _to: CellIdx) -> Vec<CellIdx> {
    todo!("helper")
}
