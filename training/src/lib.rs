//! Learned agents for TDE (and any [`agents::TensorGame`]): a policy/value network in `burn`
//! ([`net`]), training from expert play ([`expert`], [`learner`]), checkpoints
//! ([`checkpoint`]), metrics for TensorBoard ([`metrics`]), policy iteration of the learned
//! feature player from rollouts ([`learn`]), the agents that play with a
//! trained network ([`play`]; its policy blended with the scripted order, [`blend`]), and
//! yardsticks for a network: its policy against an expert
//! ([`policy_check`]), its value head against results and rollouts ([`value_check`],
//! [`rollout`]) and among the positions after a decision's actions ([`sibling_check`]).
//!
//! Everything runs on burn's `flex` CPU backend by default, so no GPU is needed; a build with
//! the `cuda` feature can run it on a GPU instead ([`compute`]), and one with the `onnx`
//! feature runs the networks that play in ONNX Runtime ([`onnx`]).

pub mod blend;
pub mod bootstrap;
pub mod checkpoint;
pub mod compute;
pub mod config;
pub mod curves;
pub mod expert;
pub mod inference;
pub mod learn;
pub mod learner;
pub mod lock;
pub mod metrics;
pub mod net;
pub mod onnx;
pub mod play;
pub mod policy_check;
pub mod rollout;
pub mod sample;
pub mod selfplay;
pub mod sibling_check;
pub mod speed;
pub mod value_check;

pub use burn::tensor::Device;
pub use config::Config;
pub use net::PolicyValueNet;
pub use sample::Sample;

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
