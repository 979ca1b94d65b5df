//! The Drowned Earth (the [`engine`]) behind the generic interfaces: [`game`] implements
//! [`Game`](crate::Game) for `engine::GameState` (with the material count that judges a
//! search's leaves), [`tensor`] its tensor encodings behind [`TensorGame`](crate::TensorGame),
//! and [`agents`] the registry of TDE agents, their constructors from specs and the game driver
//! that records TDE games.

pub mod agents;
pub mod game;
mod tensor;

pub use game::{MaterialEvaluator, ROLLOUT_DEPTH};
