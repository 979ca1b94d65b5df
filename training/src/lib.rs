//! Learned agents for TDE (and any [`agents::TensorGame`]), in rooms:
//!
//! - [`encounter`]: the Encounter's network agents and its training (`tde encounter train`);
//! - [`fast`]: the main line: the fast network's data and training runs (`tde fast`);
//! - [`network`]: the policy/value network in `burn`, where it computes, checkpoints, ONNX,
//!   and [`network::loaded::Network`], a trained network ready to evaluate positions;
//! - [`network_training`]: teaching the network from expert play (`tde train`), with its metrics;
//! - [`play`]: the agents that play with a network (alone, blended with the scripted order,
//!   inside MCTS or AlphaZero-style search) and rollouts by any agent;
//! - [`games`]: every registered game's agents with the network ones (`tde games`, `tde arena --game`);
//! - [`gate`]: the promotion gate of every pipeline (a sequential test or a fixed number of
//!   games, played through the arena);
//! - [`probes`]: yardsticks of a network (`tde probe value|policy|sibling`), one shared
//!   decision sampler and report shape;
//! - [`selfplay`]: AlphaZero-style self-play (`tde train` with a `[learner]` table, `tde
//!   selfplay`);
//! - [`learned_player`]: policy iteration of the learned feature player from rollouts (`tde learn`,
//!   `tde ladder`, `tde leaf-value`), which needs no network.
//!
//! Everything runs on burn's `flex` CPU backend by default, so no GPU is needed; a build with
//! the `cuda` feature can run it on a GPU instead ([`network::compute`]), and one with the
//! `onnx` feature runs the networks that play in ONNX Runtime ([`network::onnx`]).

pub mod bench;
pub mod encounter;
pub mod fast;
pub mod games;
pub mod gate;
pub mod learned_player;
pub mod network;
pub mod network_training;
pub mod play;
pub mod probes;
pub mod selfplay;

pub use burn::tensor::Device;
pub use network::net::PolicyValueNet;
pub use network_training::config::Config;
pub use network_training::sample::Sample;

/// A progress bar on standard error (hidden when `show` is false or stderr is no terminal).
pub fn progress_bar(show: bool, len: u64, what: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !show || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    let style = indicatif::ProgressStyle::with_template(&format!(
        "{what} {{bar:30}} {{pos}}/{{len}} [{{elapsed_precise}}, eta {{eta}}] {{msg}}"
    ))
    .expect("valid template");
    bar.set_style(style);
    bar
}
