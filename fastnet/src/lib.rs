//! The fast network: a small sparse network in the manner of Stockfish's NNUE that judges
//! TDE positions and orders their actions at engine speed on the CPU, and everything that
//! makes and uses it.
//!
//! - [`features`]: the position features of what a side may see; [`action_features`]: what
//!   the policy head reads of each action; [`prior`]: the cheap player's score it starts
//!   from.
//! - [`layout`]: the shape; [`network`]: the weights and the forward pass, with the
//!   incremental [`network::Accumulator`]; [`quantised`]: its 16-bit first layer for
//!   play; [`kernel`]: the hand-written inner loops.
//! - [`train`]: gradients and the optimiser; [`data`]: labelled positions from games and
//!   their files; [`expert`]: expert iteration's games, labelled by the network's own
//!   search; [`checkpoint`]: the network's file.
//! - [`agent`]: the network alone, inside MCTS, and as a [`agents::PolicyValue`].
//! - [`speed`]: the figures `tde bench` prints.

pub mod action_features;
pub mod agent;
pub mod checkpoint;
pub mod data;
pub mod expert;
pub mod features;
mod files;
pub mod kernel;
pub mod layout;
pub mod network;
pub mod prior;
pub mod quantised;
pub mod speed;
pub mod train;

pub use files::write_atomically;

/// The main line's newest promoted generation, relative to the repository root: the network
/// the strongest levels, the advice button and the study's default judge read, and where
/// `tde fast loop` goes on from by default.
pub const NEWEST_GENERATION: &str = "checkpoints/fast/gen-002.fnet";
