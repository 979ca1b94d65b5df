//! The engine's fixed limits and the rulebook measures the set-up shares, in one leaf module
//! every other module may read.
//!
//! Two model limits, for two kinds of game:
//! - [`MAX_MODELS`] (64) bounds every state the engine accepts (setup files, saved games,
//!   [`crate::validate`]): model sets are kept in 64-bit masks.
//! - [`MAX_GAME_MODELS`] (32) bounds a game [`crate::setup::new_game`] builds from crews, AI
//!   dinosaurs and the models they spawn: the scenario state keeps its sets of models in
//!   32-bit masks, and a spawn that would pass it does not happen.

/// The most models a state may hold (setup files and saved games).
pub const MAX_MODELS: usize = 64;
/// The most models a game built from crews holds, AI dinosaurs and their spawns included.
pub const MAX_GAME_MODELS: usize = 32;
/// Most AI dinosaurs a game may start with.
pub const MAX_DINOS: u8 = 12;
/// The most turns a game may last.
pub const MAX_TURNS: u8 = 20;
/// How far from its board edge a crew deploys, in inches (p.20, step 5).
pub const DEPLOYMENT_DEPTH: u8 = 4;
