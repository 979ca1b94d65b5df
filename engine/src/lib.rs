//! The Drowned Earth rules engine: a deterministic, clone-able game state in which every
//! player choice is a decision node and every die roll a chance node.

pub mod board;
pub mod crew;
pub mod data;
pub mod dice;
pub mod odds;
pub mod profile;
pub mod rules;
