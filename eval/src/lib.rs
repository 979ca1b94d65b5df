//! Evaluation of agents: the arena (`tde arena`), a round robin in which every pair of agents
//! meets on every scenario with the sides swapped, and its statistics.
//!
//! The arena core ([`arena`], [`results`], [`stats`], [`ratings`], [`report`]) works with any
//! two-player game behind [`agents::Game`] and any [`agents::Agent`]; only [`tde_match`] knows
//! The Drowned Earth, through the [`arena::MatchMaker`] trait, with [`lineup`] building each
//! game from its board and crews, fixed or drawn per game. [`solo`] rates agents that play one
//! crew alone against the card AI's dinosaurs.

pub mod arena;
pub mod lineup;
pub mod ratings;
pub mod report;
pub mod results;
mod run_folder;
pub mod solo;
pub mod stats;
pub mod tde_match;

pub use arena::{run, ArenaOptions, ArenaSettings, Lineup, MatchMaker};
pub use results::{GameResult, Results};
pub use tde_match::TdeMatch;
