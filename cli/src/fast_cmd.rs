//! `tde fast data|train|loop`: the fast network's labelled positions, its training runs and
//! expert iteration's generations (the work is in `training::fast`; this module only parses).

use clap::{Args, Subcommand};
use std::path::PathBuf;
use training::fast::branches::{make_branches, BranchRun};
use training::fast::data::{make_data, DataRun};
use training::fast::generations::{run_actor, run_loop, LoopRun, LoopSettings};
use training::fast::trainer::{train, TrainRun};
use training::gate::arena::SequentialGate;
use training::gate::sprt::Sprt;

/// `tde fast` subcommands.
#[derive(Subcommand)]
pub enum FastCommand {
    /// Play the teachers' games and write their labelled positions in shards (resumable).
    Data(DataArgs),
    /// Label sibling positions (a few actions of sampled decisions, each played) by the mean
    /// of rollouts from them: value-only data for the value head (resumable).
    Branches(BranchesArgs),
    /// Train the fast network on data folders (resumable from its run folder).
    Train(TrainArgs),
    /// Expert iteration: rounds of search games, training and a sequential gate; promoted
    /// candidates become the next generations (resumable from its run folder).
    Loop(LoopArgs),
}

/// Arguments of `tde fast loop`.
#[derive(Args)]
pub struct LoopArgs {
    /// Run folder: state.json, round-RRR/ (data, train, gate), generations/.
    #[arg(long)]
    pub run: PathBuf,
    /// The first best network (default: the main line's newest generation).
    #[arg(long, default_value = fastnet::NEWEST_GENERATION)]
    pub start: PathBuf,
    /// The generation number of --start; promotions are numbered on from it (default: NNN of a
    /// start named gen-NNN.fnet, else 0).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=999))]
    pub start_generation: Option<u32>,
    /// Rounds in all (a resumed run goes on to this count).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rounds: u32,
    /// Expert games per round.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub games: u64,
    /// Games per shard.
    #[arg(long, default_value_t = 250, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub shard_games: u64,
    /// The full search: `az` parameters (a Gumbel root with noise for exploration), `mcts-fast:iters=N,width=W[,c=C]` (MCTS on the network: its move and value are the targets), `mcts:...` (MCTS with rollouts), `pg[:lambda=L]` (no search: every move drawn from the policy at --temperature, a --full-share of them targets weighted by their advantage, a policy-gradient step; the line goes on from each round's candidate and the gate only names generations; use --window 1), or `race:rounds=R,width=W` (a --full-share of the decisions race the network's W best actions on R rounds of paired scripted rollouts with common dice, each candidate's advantage over the others its target; a policy-gradient line as pg).
    #[arg(long, default_value = fastnet::expert::DEFAULT_SEARCH)]
    pub search: String,
    /// Share of the learner's decisions searched in full (policy targets).
    #[arg(long, default_value_t = 0.25)]
    pub full_share: f64,
    /// Temperature of the moves played from the policy alone.
    #[arg(long, default_value_t = 0.3)]
    pub temperature: f64,
    /// Weight of the search's value in a searched position's value target (the rest: the result).
    #[arg(long, default_value_t = 0.5)]
    pub value_mix: f64,
    /// Share of games against `scripted` or an older generation.
    #[arg(long, default_value_t = 0.2)]
    pub opponent_share: f64,
    /// Share of other nodes kept as value-only positions.
    #[arg(long, default_value_t = 0.25)]
    pub other_nodes: f64,
    /// Rounds of positions a candidate trains on (the newest).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub window: u32,
    /// Other data in every window (`.fdata` shards or folders), e.g. some teacher shards.
    #[arg(long, value_delimiter = ',')]
    pub base_data: Vec<PathBuf>,
    /// Training steps per candidate.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub steps: u64,
    /// Positions per step.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub batch: u64,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 3e-4)]
    pub lr: f32,
    /// Weight of the margin loss.
    #[arg(long, default_value_t = 0.5)]
    pub margin_weight: f32,
    /// Decoupled weight decay (AdamW).
    #[arg(long, default_value_t = 0.05)]
    pub weight_decay: f32,
    /// The policy loss trains the policy head alone, not the trunk the value head shares
    /// (steadies a policy-gradient line, `--search pg`).
    #[arg(long)]
    pub policy_head_only: bool,
    /// The gate's H1: the candidate's score against the best it must be told from 50%.
    #[arg(long, default_value_t = 0.53)]
    pub gate_p1: f64,
    /// The gate's error rates (α = β).
    #[arg(long, default_value_t = 0.05)]
    pub gate_error: f64,
    /// Games per pair between two looks of the gate.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub gate_look: u32,
    /// The most games per pair of a gate.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub gate_max: u32,
    /// Gate every this many rounds (and the last); only a policy-gradient line (--search pg)
    /// may skip gates, training on between them.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub gate_every: u32,
    /// Each round's training goes on with the round before's optimiser state (Adam's moments
    /// and step), as one long run; only a policy-gradient line (--search pg).
    #[arg(long)]
    pub carry_optimiser: bool,
    /// Delete the play shards of rounds that have left the --window once a round is done (a
    /// round of 6,000 games keeps about 600 MB); gates, training runs and records stay.
    #[arg(long)]
    pub prune_data: bool,
    /// Copy promoted generations and their gate records here (e.g. checkpoints/fast).
    #[arg(long)]
    pub promote_to: Option<PathBuf>,
    /// Seed of everything.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Boards to draw from per game (`all`: every shipped board).
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub boards: Vec<String>,
    /// Crews to draw from per game (`all`); two fix side A's and side B's.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub crews: Vec<String>,
    /// Threads of the gate's arena (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run as an extra actor named ID beside a loop on the same run folder (here or on
    /// another machine sharing it): play the shards of each round the loop has not taken,
    /// with the loop's own settings, until its rounds are done (the other options are ignored).
    #[arg(long)]
    pub actor: Option<String>,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
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
    /// The teachers (each game draws one per side): generation files of the learned player,
    /// whose softmax is the policy target, or `scripted`, whose positions teach the value only.
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
    /// Share of decisions with a choice kept (1: every one; less gives more games, so more
    /// independent results, for the same number of positions).
    #[arg(long, default_value_t = 1.0)]
    pub decisions: f64,
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

/// Arguments of `tde fast branches`.
#[derive(Args)]
pub struct BranchesArgs {
    /// Folder for the shards (`shard-NNNN.fdata`); existing shards are kept.
    #[arg(long)]
    pub out: PathBuf,
    /// Games in all.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub games: u64,
    /// Games per shard.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub shard_games: u64,
    /// Seed of game 0.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The agent playing both sides of the games.
    #[arg(long, default_value = "scripted")]
    pub agent: String,
    /// The agent playing both sides of the rollouts.
    #[arg(long, default_value = "scripted")]
    pub rollout_agent: String,
    /// Rollouts from each child.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub rollouts: u32,
    /// Share of the decisions with a choice whose children are labelled.
    #[arg(long, default_value_t = 0.1)]
    pub share: f64,
    /// Children of the scripted player's first choices per labelled decision.
    #[arg(long, default_value_t = 3)]
    pub ranked_children: usize,
    /// Further children drawn at random from the other legal actions.
    #[arg(long, default_value_t = 1)]
    pub random_children: usize,
    /// Boards to draw from per game (`all`: every shipped board).
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
    /// Validation folders or shards (default: every tenth shard of `--data`).
    #[arg(long, value_delimiter = ',')]
    pub valid: Vec<PathBuf>,
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
    /// Weight of the sibling loss: the value's differences between the children of one
    /// decision against their targets' (data from `tde fast branches`; 0: none).
    #[arg(long, default_value_t = 0.0)]
    pub sibling_weight: f32,
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
            decisions: a.decisions,
            boards: a.boards.clone(),
            crews: a.crews.clone(),
            progress: !a.quiet,
        }),
        FastCommand::Branches(a) => make_branches(&BranchRun {
            out: a.out.clone(),
            games: a.games,
            shard_games: a.shard_games,
            seed: a.seed,
            agent: a.agent.clone(),
            rollout_agent: a.rollout_agent.clone(),
            rollouts: a.rollouts,
            share: a.share,
            ranked_children: a.ranked_children,
            random_children: a.random_children,
            boards: a.boards.clone(),
            crews: a.crews.clone(),
            progress: !a.quiet,
        }),
        FastCommand::Train(a) => train(&TrainRun {
            run: a.run.clone(),
            data: a.data.clone(),
            valid: a.valid.clone(),
            steps: a.steps,
            config: fastnet::train::TrainConfig {
                batch: a.batch as usize,
                learning_rate: a.lr,
                value_weight: 1.0,
                margin_weight: a.margin_weight,
                policy_weight: a.policy_weight,
                weight_decay: a.weight_decay,
                sibling_weight: a.sibling_weight,
                policy_head_only: false,
            },
            init: a.init.clone(),
            init_adam: None,
            prior: a.prior.clone(),
            seed: a.seed,
            every: a.every,
            generation: a.generation,
            progress: !a.quiet,
        }),
        FastCommand::Loop(a) if a.actor.is_some() => {
            run_actor(&a.run, a.actor.as_deref().unwrap_or_default(), !a.quiet)
        }
        FastCommand::Loop(a) => run_loop(&LoopRun {
            run: a.run.clone(),
            settings: LoopSettings {
                start: a.start.clone(),
                first_generation: a.start_generation.unwrap_or_else(|| generation_of(&a.start)),
                rounds: a.rounds,
                games: a.games,
                shard_games: a.shard_games,
                search: a.search.clone(),
                full_share: a.full_share,
                temperature: a.temperature,
                value_mix: a.value_mix,
                opponent_share: a.opponent_share,
                other_nodes: a.other_nodes,
                window: a.window,
                base_data: a.base_data.clone(),
                steps: a.steps,
                train: fastnet::train::TrainConfig {
                    batch: a.batch as usize,
                    learning_rate: a.lr,
                    value_weight: 1.0,
                    margin_weight: a.margin_weight,
                    policy_weight: 1.0,
                    weight_decay: a.weight_decay,
                    sibling_weight: 0.0,
                    policy_head_only: a.policy_head_only,
                },
                gate: SequentialGate {
                    sprt: Sprt { p0: 0.5, p1: a.gate_p1, alpha: a.gate_error, beta: a.gate_error },
                    look_games: a.gate_look,
                    max_games: a.gate_max,
                },
                gate_every: a.gate_every,
                carry_optimiser: a.carry_optimiser,
                seed: a.seed,
                boards: a.boards.clone(),
                crews: a.crews.clone(),
            },
            promote_to: a.promote_to.clone(),
            threads: a.threads.unwrap_or_else(rayon::current_num_threads),
            prune_data: a.prune_data,
            progress: !a.quiet,
        }),
    }
}

/// The generation number in a network's file name `gen-NNN.fnet`, else 0.
fn generation_of(path: &std::path::Path) -> u32 {
    path.file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix("gen-"))
        .and_then(|n| n.strip_suffix(".fnet"))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::generation_of;
    use std::path::Path;

    #[test]
    fn a_start_named_as_a_generation_gives_its_number() {
        assert_eq!(generation_of(Path::new("checkpoints/fast/gen-001.fnet")), 1);
        assert_eq!(generation_of(Path::new("gen-012.fnet")), 12);
        assert_eq!(generation_of(Path::new("runs/pg/round-003/train/latest.fnet")), 0);
        assert_eq!(generation_of(Path::new("gen-one.fnet")), 0);
    }
}
