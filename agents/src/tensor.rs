//! Tensor views of a game for learned agents: a fixed-shape observation (planes over a grid
//! plus global features) and, for every legal action, its index in a fixed policy space and
//! the recipe a network uses to score it. Generic, so a tiny game trains the same network
//! code as TDE does.

use crate::game::Game;

/// Sizes of a game's tensors (for one board size class, in TDE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorShape {
    /// Observation planes.
    pub planes: usize,
    /// Grid rows.
    pub depth: usize,
    /// Grid columns.
    pub width: usize,
    /// Global observation features.
    pub globals: usize,
    /// Policy planes a network outputs over the grid.
    pub policy_planes: usize,
    /// Global policy logits a network outputs.
    pub policy_globals: usize,
    /// Size of the policy index space.
    pub policy_size: usize,
}

impl TensorShape {
    /// Cells of the grid.
    pub fn cells(&self) -> usize {
        self.depth * self.width
    }

    /// Floats of the observation planes.
    pub fn plane_len(&self) -> usize {
        self.planes * self.cells()
    }
}

/// How a network scores one action: the sum of up to two (policy plane, cell) values and up
/// to two global logits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Recipe {
    /// (plane, cell) terms, cells row-major.
    pub spatial: [Option<(u16, u32)>; 2],
    /// Global logit terms.
    pub global: [Option<u16>; 2],
}

/// A game a network can read and act in.
pub trait TensorGame: Game {
    /// The tensor sizes of this state (equal for states of one game).
    fn tensor_shape(&self) -> TensorShape;

    /// Write `player`'s observation: `planes` (`planes × depth × width`, row-major) and
    /// `globals`, both overwritten. Only what `player` may see.
    fn encode_observation(&self, player: usize, planes: &mut [f32], globals: &mut [f32]);

    /// The policy index and scoring recipe of a legal action at this decision.
    fn encode_action(&self, action: Self::Action) -> Result<(usize, Recipe), String>;

    /// Each player's final score margin over the other, in the game's points, once terminal:
    /// the target of a network's auxiliary margin head. Empty (the default) where the game
    /// keeps no score beyond its returns, or before the end.
    fn final_margins(&self) -> Vec<f64> {
        Vec::new()
    }
}
