//! `tde train`: train a policy/value network from expert play (see `training::bootstrap`).

use clap::Args;
use std::path::PathBuf;

/// Arguments of `tde train`.
#[derive(Args)]
pub struct TrainArgs {
    /// Training configuration (TOML), e.g. configs/training/bootstrap.toml.
    #[arg(long, default_value = "configs/training/bootstrap.toml")]
    pub config: PathBuf,
    /// Run folder: shards, checkpoints, metrics.jsonl and tensorboard/ go here.
    #[arg(long)]
    pub run: PathBuf,
    /// Continue the run from its latest checkpoint (and finish its missing shards).
    #[arg(long)]
    pub resume: bool,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// Run `tde train`.
pub fn train(args: &TrainArgs) -> Result<String, String> {
    training::bootstrap::bootstrap(training::bootstrap::BootstrapOptions {
        config: &args.config,
        run: &args.run,
        resume: args.resume,
        progress: !args.quiet,
    })
}
