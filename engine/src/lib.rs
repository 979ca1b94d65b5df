//! The Drowned Earth rules engine: a deterministic, clone-able game state in which every
//! player choice is a decision node and every die roll a chance node.

pub mod analysis;
pub mod board;
pub mod cards;
pub mod crew;
pub mod data;
pub mod dice;
pub mod encoding;
pub mod event_counts;
pub mod fuzz;
pub mod inline_vec;
pub mod invariants;
pub mod limits;
pub mod movement;
pub mod odds;
pub mod profile;
pub mod record;
pub mod render;
pub mod risk;
pub mod rules;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod uc;
pub mod validate;

pub use state::{Action, GameState, IllegalAction, Player};
