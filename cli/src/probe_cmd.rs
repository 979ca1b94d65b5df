//! `tde probe value|policy|sibling`: the yardsticks of a network (`training::probes`); each
//! command only reads its options, and the old names `tde value-check`, `tde policy-check`
//! and `tde sibling-check` run the same.

use clap::{Args, Subcommand};
use engine::setup::GameConfig;
use std::path::PathBuf;
use training::network::loaded::Network;
use training::probes::policy::PolicyPlan;
use training::probes::sibling::{LearnedLeaf, SiblingPlan};
use training::probes::value::ValuePlan;

/// The probes of `tde probe`.
#[derive(Subcommand)]
pub enum ProbeCommand {
    /// How well a network's value head foresees results, per scenario (error and sign).
    Value(ValueArgs),
    /// How often a network's policy picks an expert's action, by kind of decision and scenario.
    Policy(PolicyArgs),
    /// Whether a network's value head orders the positions after each action as rollouts do.
    Sibling(SiblingArgs),
}

/// Run a probe.
pub fn run(cmd: &ProbeCommand) -> Result<String, String> {
    match cmd {
        ProbeCommand::Value(args) => value(args),
        ProbeCommand::Policy(args) => policy(args),
        ProbeCommand::Sibling(args) => sibling(args),
    }
}

/// Arguments of `tde probe value` (alias `tde value-check`).
#[derive(Args)]
pub struct ValueArgs {
    /// The network whose value head is judged (a checkpoint folder, or a run with a `latest`; or a fast network, a `.fnet` file).
    #[arg(long, default_value = "checkpoints/bootstrap")]
    pub net: PathBuf,
    /// The agent playing both sides of the games (any `--agents` spec).
    #[arg(long, default_value = "scripted")]
    pub agent: String,
    /// Games per scenario (1 to 10000), on the default board and crews.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Judge every this many decisions with a choice (1 to 1000).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub every: u64,
    /// Also play each judged decision on this many times by the same agent (0 to 1000): the
    /// rollouts' mean return beside the result and the head's value.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub rollouts: u32,
    /// Seed of the games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// The network a probe judges (`--net`), once the agent specs it plays with, each named by
/// its option, are known to be good.
fn network_for_check(
    net: &std::path::Path,
    agents: &[(&str, &str)],
) -> Result<Box<training::probes::Judge>, String> {
    let network: Box<training::probes::Judge> = if net.extension().is_some_and(|x| x == "fnet") {
        Box::new(fastnet::agent::FastNet::load(net).map_err(|e| format!("--net: {e}"))?)
    } else {
        Box::new(Network::load_for_tde(net).map_err(|e| format!("--net: {e}"))?)
    };
    for (option, spec) in agents {
        training::play::make_agent(spec, 0).map_err(|e| format!("{option}: {e}"))?;
    }
    Ok(network)
}

/// Run `tde probe value`.
pub fn value(args: &ValueArgs) -> Result<String, String> {
    let network = network_for_check(&args.net, &[("--agent", &args.agent)])?;
    let plan = ValuePlan {
        agent: args.agent.clone(),
        games: args.games,
        every: args.every as usize,
        rollouts: args.rollouts,
        seed: args.seed,
    };
    let net = args.net.display().to_string();
    training::probes::run(&plan, network.as_ref(), &net, &GameConfig::default())?.render(args.json)
}

/// Arguments of `tde probe sibling` (alias `tde sibling-check`).
#[derive(Args)]
pub struct SiblingArgs {
    /// The network whose value head is judged (a checkpoint folder, or a run with a `latest`; or a fast network, a `.fnet` file).
    #[arg(long, default_value = "checkpoints/bootstrap")]
    pub net: PathBuf,
    /// The agent playing both sides of the games and of the rollouts (any `--agents` spec).
    #[arg(long, default_value = "scripted")]
    pub agent: String,
    /// Games per scenario (1 to 10000), on the default board and crews.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Judge every this many decisions with a choice (1 to 1000).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub every: u64,
    /// Children per judged decision, the network's most probable actions (2 to 64).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(2..=64))]
    pub actions: u64,
    /// Rollouts from each child (2 to 1000).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub rollouts: u32,
    /// Decisions played on from each child by the agent before the head and the material
    /// evaluator judge it, as at the end of a short MCTS rollout (0 to 1000; 0: the child).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub continuation: u32,
    /// Seed of the games, dice and rollouts.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Judge a learned leaf value (a `tde leaf-value` file) in place of the value head; the
    /// network still chooses the children.
    #[arg(long)]
    pub leaf: Option<PathBuf>,
    /// Choose each decision's children by the scripted player's order, not the network's
    /// priors: two networks (or a network and the material count) are then judged on the
    /// same positions.
    #[arg(long)]
    pub fixed_children: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Run `tde probe sibling`.
pub fn sibling(args: &SiblingArgs) -> Result<String, String> {
    let network = network_for_check(&args.net, &[("--agent", &args.agent)])?;
    let plan = SiblingPlan {
        agent: args.agent.clone(),
        games: args.games,
        every: args.every as usize,
        actions: args.actions as usize,
        rollouts: args.rollouts,
        continuation: args.continuation,
        seed: args.seed,
        leaf: match &args.leaf {
            Some(p) => Some(LearnedLeaf::load(p).map_err(|e| format!("--leaf: {e}"))?),
            None => None,
        },
        fixed_children: args.fixed_children,
    };
    let net = args.net.display().to_string();
    training::probes::run(&plan, network.as_ref(), &net, &GameConfig::default())?.render(args.json)
}

/// Arguments of `tde probe policy` (alias `tde policy-check`).
#[derive(Args)]
pub struct PolicyArgs {
    /// The network whose policy is judged (a checkpoint folder, or a run with a `latest`; or a fast network, a `.fnet` file).
    #[arg(long, default_value = "checkpoints/bootstrap")]
    pub net: PathBuf,
    /// The expert whose decisions are the answers (any `--agents` spec).
    #[arg(long, default_value = "scripted")]
    pub expert: String,
    /// The expert's opponent (any `--agents` spec).
    #[arg(long, default_value = "random")]
    pub opponent: String,
    /// Games per scenario (1 to 10000), on the default board and crews, the expert on each
    /// side in turn.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Seed of the games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Run `tde probe policy`.
pub fn policy(args: &PolicyArgs) -> Result<String, String> {
    let network =
        network_for_check(&args.net, &[("--expert", &args.expert), ("--opponent", &args.opponent)])?;
    let plan = PolicyPlan {
        expert: args.expert.clone(),
        opponent: args.opponent.clone(),
        games: args.games,
        seed: args.seed,
    };
    let net = args.net.display().to_string();
    training::probes::run(&plan, network.as_ref(), &net, &GameConfig::default())?.render(args.json)
}
