//! `tde encounter train`: its arguments and its summary; the training and the Encounter's
//! network agents are [`training::encounter`]'s.

use std::path::PathBuf;

pub use training::encounter::make_agent as encounter_agent;

/// `tde encounter train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// The training configuration (the TOML `tde train` reads; of `[data]` the Encounter uses
    /// `games`, `agents` (the experts), `opponents`, `value_from_opponents`, `every` and
    /// `validation`).
    #[arg(long, default_value = "configs/training/encounter.toml")]
    pub config: PathBuf,
    /// Run folder: checkpoints, metrics and TensorBoard logs.
    #[arg(long, default_value = "runs/encounter")]
    pub run: PathBuf,
    /// Continue the run's training from its latest checkpoint (the games are played again
    /// from the same seeds, so they are the same).
    #[arg(long)]
    pub resume: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Run `tde encounter train`.
pub fn train_cmd(args: &TrainArgs) -> Result<String, String> {
    let trained = training::encounter::train(&args.config, &args.run, args.resume, !args.quiet)?;
    let v = trained.outcome.validation;
    Ok(format!(
        "{} training and {} validation positions from {} games; {} steps.\n\
         validation: policy cross-entropy {:.3}, agreement with the experts {:.1}%, value error {:.3}\n\
         checkpoint: {} (play it: tde encounter arena --party policy:checkpoint={})",
        trained.train_positions,
        trained.valid_positions,
        trained.games,
        trained.outcome.step,
        v.policy_loss,
        100.0 * v.accuracy,
        v.value_error,
        trained.outcome.checkpoint.display(),
        args.run.display()
    ))
}
