//! `tde fast data|train`: the fast network's labelled positions and its training runs (the
//! work is in `training::fast`; this module only parses).

use clap::{Args, Subcommand};
use std::path::PathBuf;
use training::fast::data::{make_data, DataRun};
use training::fast::trainer::{train, TrainRun};

/// `tde fast` subcommands.
#[derive(Subcommand)]
pub enum FastCommand {
    /// Play the teachers' games and write their labelled positions in shards (resumable).
    Data(DataArgs),
    /// Train the fast network on data folders (resumable from its run folder).
    Train(TrainArgs),
}

/// Arguments of `tde fast data`.
#[derive(Args)]
pub struct DataArgs {
    /// Folder for the shards (`shard-NNNN.fdata`); existing shards are kept.
    #[arg(long)]
    pub out: PathBuf,
    /// Games in all.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub games: u64,
    /// Games per shard.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub shard_games: u64,
    /// Seed of game 0.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The teachers: generation files of the learned player (each game draws one per side).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "checkpoints/learned/gen-000.json,checkpoints/learned/gen-004.json"
    )]
    pub teachers: Vec<PathBuf>,
    /// The prior's generation file (the policy head's starting point).
    #[arg(long, default_value = "checkpoints/learned/gen-004.json")]
    pub prior: PathBuf,
    /// The temperature the teachers play at and their policy targets are taken at.
    #[arg(long, default_value_t = 0.05)]
    pub temperature: f64,
    /// Share of chance nodes and one-action decisions kept as value-only positions.
    #[arg(long, default_value_t = 0.25)]
    pub other_nodes: f64,
    /// Boards to draw from per game (`all`: every shipped board); default: the default board.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub boards: Vec<String>,
    /// Crews to draw from per game (`all`); two fix side A's and side B's.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub crews: Vec<String>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `tde fast train`.
#[derive(Args)]
pub struct TrainArgs {
    /// Run folder: latest.fnet, adam.bin, state.json, metrics.jsonl, tensorboard/.
    #[arg(long)]
    pub run: PathBuf,
    /// Data folders made by `tde fast data`.
    #[arg(long, value_delimiter = ',', required = true)]
    pub data: Vec<PathBuf>,
    /// Training steps in all.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub steps: u64,
    /// Positions per step.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub batch: u64,
    /// Adam's learning rate (warm-up, then cosine decay to a tenth).
    #[arg(long, default_value_t = 1e-3)]
    pub lr: f32,
    /// Weight of the policy loss.
    #[arg(long, default_value_t = 1.0)]
    pub policy_weight: f32,
    /// Weight of the margin loss.
    #[arg(long, default_value_t = 0.5)]
    pub margin_weight: f32,
    /// Decoupled weight decay (AdamW).
    #[arg(long, default_value_t = 0.05)]
    pub weight_decay: f32,
    /// Start from this checkpoint instead of fresh weights.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// The prior's generation file, for fresh weights.
    #[arg(long, default_value = "checkpoints/learned/gen-004.json")]
    pub prior: PathBuf,
    /// Seed of the weights and batches.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Steps between validations and checkpoints.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub every: u64,
    /// The generation number written into the checkpoint.
    #[arg(long, default_value_t = 0)]
    pub generation: u32,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Run a `tde fast` subcommand.
pub fn run(cmd: &FastCommand) -> Result<String, String> {
    match cmd {
        FastCommand::Data(a) => make_data(&DataRun {
            out: a.out.clone(),
            games: a.games,
            shard_games: a.shard_games,
            seed: a.seed,
            teachers: a.teachers.clone(),
            prior: a.prior.clone(),
            temperature: a.temperature,
            other_nodes: a.other_nodes,
            boards: a.boards.clone(),
            crews: a.crews.clone(),
            progress: !a.quiet,
        }),
        FastCommand::Train(a) => train(&TrainRun {
            run: a.run.clone(),
            data: a.data.clone(),
            steps: a.steps,
            config: fastnet::train::TrainConfig {
                batch: a.batch as usize,
                learning_rate: a.lr,
                value_weight: 1.0,
                margin_weight: a.margin_weight,
                policy_weight: a.policy_weight,
                weight_decay: a.weight_decay,
            },
            init: a.init.clone(),
            prior: a.prior.clone(),
            seed: a.seed,
            every: a.every,
            generation: a.generation,
            progress: !a.quiet,
        }),
    }
}
