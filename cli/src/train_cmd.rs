//! `tde train`: train a policy/value network, from expert play (a bootstrap configuration,
//! see `training::network_training::bootstrap`) or by self-play (a configuration with a `[learner]` table, see
//! `training::selfplay`); and `tde selfplay`, one self-play actor.

use clap::Args;
use std::path::PathBuf;
use training::selfplay::run::{tde_selfplay, Role};

/// Arguments of `tde train`.
#[derive(Args)]
pub struct TrainArgs {
    /// Training configuration (TOML): configs/training/bootstrap.toml (expert play, the
    /// default) or configs/training/selfplay.toml (self-play). A resumed self-play run, or
    /// `--learner`, may leave it out and use the run's own.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Run folder: shards, checkpoints, metrics.jsonl and tensorboard/ go here.
    #[arg(long)]
    pub run: PathBuf,
    /// Continue the run from its latest checkpoint (and finish its missing shards).
    #[arg(long)]
    pub resume: bool,
    /// Self-play: run only the learner, training on the shards of separate `tde selfplay`
    /// actors.
    #[arg(long)]
    pub learner: bool,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `tde selfplay`.
#[derive(Args)]
pub struct SelfPlayArgs {
    /// Run folder of a self-play run (started by `tde train --config ... --run DIR`, or by
    /// `--config` here).
    #[arg(long)]
    pub run: PathBuf,
    /// Self-play configuration for a run that has none yet.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// This actor's ID: its shards are named after it (letters, digits, `_`, `-`); give each
    /// actor its own.
    #[arg(long, default_value = "actor0")]
    pub actor: String,
    /// Stop after this many shards (default: when the learner is done).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub shards: Option<u64>,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// Run `tde train`.
pub fn train(args: &TrainArgs) -> Result<String, String> {
    let selfplay = match &args.config {
        Some(path) => training::selfplay::config::is_selfplay_file(path)?,
        None => args.learner || args.run.join("learner.json").is_file(),
    };
    if selfplay {
        if !args.resume && !args.learner && args.run.join("learner.json").is_file() {
            return Err(format!(
                "{} already has a learner state: add --resume, or choose a new run folder",
                args.run.display()
            ));
        }
        let role = if args.learner { Role::Learner } else { Role::Single };
        return tde_selfplay(&args.run, args.config.as_deref(), role, !args.quiet);
    }
    if args.learner {
        return Err("--learner is for self-play configurations (with a [learner] table)".into());
    }
    let config = args.config.clone().unwrap_or_else(|| PathBuf::from("configs/training/bootstrap.toml"));
    training::network_training::bootstrap::bootstrap(
        training::network_training::bootstrap::BootstrapOptions {
            config: &config,
            run: &args.run,
            resume: args.resume,
            progress: !args.quiet,
        },
    )
}

/// Run `tde selfplay`.
pub fn selfplay(args: &SelfPlayArgs) -> Result<String, String> {
    let role = Role::Actor { id: args.actor.clone(), shards: args.shards };
    tde_selfplay(&args.run, args.config.as_deref(), role, !args.quiet)
}

/// Arguments of `tde curves`.
#[derive(Args)]
pub struct CurvesArgs {
    /// Run folder whose `metrics.jsonl` is plotted.
    #[arg(long)]
    pub run: PathBuf,
    /// PNG file to write (default: RUN/curves.png).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Run `tde curves`.
pub fn curves(args: &CurvesArgs) -> Result<String, String> {
    let out = args.out.clone().unwrap_or_else(|| args.run.join("curves.png"));
    training::network_training::curves::plot_run(&args.run, &out)?;
    Ok(format!("wrote {}", out.display()))
}

/// Arguments of `tde export-onnx`.
#[derive(Args)]
pub struct ExportOnnxArgs {
    /// The network to export (a checkpoint folder, or a run with a `latest`).
    #[arg(long, default_value = "checkpoints/bootstrap_value")]
    pub net: PathBuf,
    /// The ONNX file to write (written whole or not at all).
    #[arg(long)]
    pub out: PathBuf,
}

/// Run `tde export-onnx`: the network (either architecture) as an ONNX model any ONNX reader
/// runs.
pub fn export_onnx(args: &ExportOnnxArgs) -> Result<String, String> {
    let device = training::network::compute::device();
    let (net, _, dir) =
        training::network::checkpoint::load_network(&args.net, &device).map_err(|e| format!("--net: {e}"))?;
    let bytes = training::network::onnx::export::to_onnx(&net)?;
    engine::record::write_atomic(&args.out, &bytes).map_err(|e| format!("--out: {e}"))?;
    let outputs = if net.has_margin() {
        "`policy_planes`, `policy_globals`, `value` and `margin`"
    } else {
        "`policy_planes`, `policy_globals` and `value`"
    };
    Ok(format!(
        "wrote {} ({} bytes, {} parameters, from {}): inputs `planes` [batch, {}, depth, width] and `globals`; \
         outputs {outputs}",
        args.out.display(),
        bytes.len(),
        net.parameters(),
        dir.display(),
        engine::encoding::PLANES,
    ))
}
