//! The TDE engine's tensor encodings ([`engine::encoding`]) behind [`TensorGame`].

use crate::tensor::{Recipe, TensorGame, TensorShape};
use engine::encoding::{self, Geometry, PolicySpace};
use engine::{Action, GameState};
use ndarray::{ArrayViewMut1, ArrayViewMut3};

impl TensorGame for GameState {
    fn tensor_shape(&self) -> TensorShape {
        let geo = Geometry::of(self.board());
        TensorShape {
            planes: encoding::PLANES,
            depth: geo.depth,
            width: geo.width,
            globals: encoding::GLOBALS,
            policy_planes: encoding::POLICY_PLANES,
            policy_globals: encoding::POLICY_GLOBALS,
            policy_size: PolicySpace { geometry: geo }.size(),
        }
    }

    fn encode_observation(&self, player: usize, planes: &mut [f32], globals: &mut [f32]) {
        let geo = Geometry::of(self.board());
        let planes = ArrayViewMut3::from_shape((encoding::PLANES, geo.depth, geo.width), planes)
            .expect("observation planes of the game's shape");
        let globals = ArrayViewMut1::from(globals);
        encoding::encode_observation(self, player as u8, planes, globals);
    }

    /// Victory-point margins (`Outcome::margin`) of a finished two-sided game.
    fn final_margins(&self) -> Vec<f64> {
        if !self.is_terminal() || self.solo_score().is_some() {
            return Vec::new();
        }
        let outcome = self.outcome();
        (0..2u8).map(|side| outcome.margin(side) as f64).collect()
    }

    fn encode_action(&self, action: Action) -> Result<(usize, Recipe), String> {
        let (index, r) = PolicySpace::of(self).encode(self, action).map_err(|e| e.to_string())?;
        Ok((index, Recipe { spatial: r.spatial, global: r.global }))
    }
}
