//! Evaluation of agents: the arena (`tde arena`), a round robin in which every pair of agents
//! meets on every scenario with the sides swapped, and its statistics.
//!
//! The arena core ([`arena`], its [`settings`], [`results`], [`win_draw_loss`], [`ratings`], [`report`]) works with any
//! two-player game behind [`agents::Game`] and any [`agents::Agent`]; only [`games::drowned_earth`] knows
//! The Drowned Earth, through the [`MatchMaker`] trait, with [`lineup`] building each
//! game from its board and crews, fixed or drawn per game. [`solo`] rates agents that play one
//! crew alone against the card AI's dinosaurs. [`plot`] is the look every figure of the workspace
//! shares.

pub mod arena;
pub mod games;
pub mod lineup;
pub mod matchmaker;
pub mod move_times;
pub mod plot;
pub mod ratings;
pub mod report;
pub mod results;
mod run_folder;
pub mod settings;
pub mod solo;
pub mod win_draw_loss;

pub use arena::{run, ArenaOptions};
pub use games::drowned_earth::TdeMatch;
pub use matchmaker::{Lineup, MatchMaker, RecordAbout};
pub use results::{GameResult, Results};
pub use settings::ArenaSettings;
