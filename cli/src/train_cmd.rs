//! `tde train`: train a policy/value network, from expert play (a bootstrap configuration,
//! see `training::learning::bootstrap`) or by self-play (a configuration with a `[learner]` table, see
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
    training::learning::bootstrap::bootstrap(training::learning::bootstrap::BootstrapOptions {
        config: &config,
        run: &args.run,
        resume: args.resume,
        progress: !args.quiet,
    })
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
    training::learning::curves::plot_run(&args.run, &out)?;
    Ok(format!("wrote {}", out.display()))
}

/// Arguments of `tde value-check`.
#[derive(Args)]
pub struct ValueCheckArgs {
    /// The network whose value head is judged (a checkpoint folder, or a run with a `latest`).
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

/// The network a check judges (`--net`), once the agent specs it plays with, each named by
/// its option, are known to be good.
fn network_for_check(
    net: &std::path::Path,
    agents: &[(&str, &str)],
) -> Result<training::network::loaded::Network, String> {
    let network = training::network::loaded::Network::load_for_tde(net).map_err(|e| format!("--net: {e}"))?;
    for (option, spec) in agents {
        training::play::make_agent(spec, 0).map_err(|e| format!("{option}: {e}"))?;
    }
    Ok(network)
}

/// Run `tde value-check`.
pub fn value_check(args: &ValueCheckArgs) -> Result<String, String> {
    let network = network_for_check(&args.net, &[("--agent", &args.agent)])?;
    let config = engine::setup::GameConfig::default();
    let plan = training::probes::value::CheckPlan {
        agent: args.agent.clone(),
        games: args.games,
        every: args.every as usize,
        rollouts: args.rollouts,
        seed: args.seed,
    };
    let records = training::probes::value::value_records(&network, &config, &plan)?;
    if args.json {
        let v = serde_json::json!({
            "net": args.net.display().to_string(),
            "agent": args.agent,
            "board": config.board,
            "crews": config.crews,
            "scenarios": records,
        });
        return Ok(v.to_string());
    }
    let mut out = format!(
        "value head of {} on games of {} (both sides), {} per scenario, every {}th decision with a choice:\n",
        args.net.display(),
        args.agent,
        args.games,
        args.every
    );
    out.push_str(
        "  scenario             positions    mse   sign right (decisive)   mean value (result)   mse by third   sign right by third\n",
    );
    let percent = |right: usize, of: usize| 100.0 * right as f64 / of.max(1) as f64;
    for r in &records {
        let thirds: Vec<String> = r.by_third.iter().map(|p| format!("{:.2}", p.mse)).collect();
        let signs: Vec<String> =
            r.by_third.iter().map(|p| format!("{:.0}%", percent(p.sign_right, p.decisive))).collect();
        out.push_str(&format!(
            "  {:<20} {:>9} {:>6.3} {:>6.1}% ({}/{}) {:>13.3} ({:>6.3})   {:<14} {}\n",
            r.scenario,
            r.all.positions,
            r.all.mse,
            percent(r.all.sign_right, r.all.decisive),
            r.all.sign_right,
            r.all.decisive,
            r.mean_value,
            r.mean_result,
            thirds.join(" "),
            signs.join(" ")
        ));
    }
    if args.rollouts > 0 {
        out.push_str(&format!("  {} rollouts from each judged decision by {}:\n", args.rollouts, args.agent));
        out.push_str("  scenario             rollout mse to result   head mse to rollouts\n");
        for (r, rollouts) in records.iter().filter_map(|r| Some((r, r.rollouts.as_ref()?))) {
            out.push_str(&format!(
                "  {:<20} {:>21.3} {:>22.3}\n",
                r.scenario, rollouts.mse_to_result, rollouts.head_mse_to_rollouts
            ));
        }
    }
    out.push_str("  (mse against the mover's result: win 1, draw 0, loss -1; a value of 0 everywhere scores the share of decisive games;\n");
    out.push_str("   mean value beside the movers' mean result: above it, the head is optimistic for the player to move;\n");
    out.push_str("   by third: the first, middle and last third of each game's judged decisions)");
    Ok(out)
}

/// Arguments of `tde sibling-check`.
#[derive(Args)]
pub struct SiblingCheckArgs {
    /// The network whose value head is judged (a checkpoint folder, or a run with a `latest`).
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
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Run `tde sibling-check`.
pub fn sibling_check(args: &SiblingCheckArgs) -> Result<String, String> {
    let network = network_for_check(&args.net, &[("--agent", &args.agent)])?;
    let config = engine::setup::GameConfig::default();
    let plan = training::probes::sibling::SiblingPlan {
        agent: args.agent.clone(),
        games: args.games,
        every: args.every as usize,
        actions: args.actions as usize,
        rollouts: args.rollouts,
        continuation: args.continuation,
        seed: args.seed,
        leaf: match &args.leaf {
            Some(p) => Some(agents::learned::leaf::LeafValue::load(p).map_err(|e| format!("--leaf: {e}"))?),
            None => None,
        },
    };
    let judged = match &args.leaf {
        Some(p) => format!("leaf value {}", p.display()),
        None => format!("value head of {}", args.net.display()),
    };
    let records = training::probes::sibling::sibling_records(&network, &config, &plan)?;
    if args.json {
        let v = serde_json::json!({
            "net": args.net.display().to_string(),
            "leaf": args.leaf.as_ref().map(|p| p.display().to_string()),
            "leaf": args.leaf.as_ref().map(|p| p.display().to_string()),
            "agent": args.agent,
            "board": config.board,
            "crews": config.crews,
            "actions": args.actions,
            "rollouts": args.rollouts,
            "continuation": args.continuation,
            "scenarios": records,
        });
        return Ok(v.to_string());
    }
    let mut out = format!(
        "{} among siblings: at every {}th decision with a choice of {} games per scenario by {},\n\
         the network's {} most probable actions played, each child valued by it and by {} rollouts{}:\n",
        judged,
        args.every,
        args.games,
        args.agent,
        args.actions,
        args.rollouts,
        match args.continuation {
            0 => String::new(),
            d => format!(" (the head and material after {d} more decisions of {})", args.agent),
        }
    );
    out.push_str("  scenario             decisions  pairs  correlation (corrected)  sd head  sd rollouts (noise)  same best (chance)  rollout value of head's / policy's pick  bias: decider / opponent next  material: correlation (corrected), same best\n");
    let corrected = |c: Option<f64>| c.map_or("-".to_string(), |c| format!("{c:.3}"));
    for r in &records {
        out.push_str(&format!(
            "  {:<20} {:>9} {:>6} {:>12.3} ({:>7})  {:>7.3} {:>12.3} ({:.3})  {:>9.1}% ({:.1}%)  {:>21.3} / {:.3}  {:>18.3} / {:.3}  {:>21.3} ({:>7}), {:.1}%\n",
            r.scenario,
            r.decisions,
            r.pairs,
            r.correlation,
            corrected(r.corrected_correlation),
            r.head_sd,
            r.rollout_sd,
            r.rollout_noise_sd,
            100.0 * r.agreement,
            100.0 * r.chance_agreement,
            r.head_pick_value,
            r.policy_pick_value,
            r.bias_same_mover,
            r.bias_other_mover,
            r.material_correlation,
            corrected(r.material_corrected_correlation),
            100.0 * r.material_agreement
        ));
    }
    out.push_str("  (correlation of the head's and the rollouts' differences between siblings; corrected: with the rollouts' sampling noise\n");
    out.push_str("   taken out, the correlation with the value they estimate; same best: the head's best child is the rollouts' best;\n");
    out.push_str(
        "   bias: mean head value minus rollout value where the decider or the opponent moves next;\n",
    );
    out.push_str("   material: the same for the material evaluator that ends MCTS's rollouts, ties going to the network's favourite)");
    Ok(out)
}

/// Arguments of `tde policy-check`.
#[derive(Args)]
pub struct PolicyCheckArgs {
    /// The network whose policy is judged (a checkpoint folder, or a run with a `latest`).
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

/// Run `tde policy-check`.
pub fn policy_check(args: &PolicyCheckArgs) -> Result<String, String> {
    let network =
        network_for_check(&args.net, &[("--expert", &args.expert), ("--opponent", &args.opponent)])?;
    let config = engine::setup::GameConfig::default();
    let records = training::probes::policy::policy_records(
        &network,
        &args.expert,
        &args.opponent,
        &config,
        args.games,
        args.seed,
    )?;
    if args.json {
        let v = serde_json::json!({
            "net": args.net.display().to_string(),
            "expert": args.expert,
            "opponent": args.opponent,
            "board": config.board,
            "crews": config.crews,
            "scenarios": records,
        });
        return Ok(v.to_string());
    }
    let mut all = std::collections::BTreeMap::<String, training::probes::policy::Agreement>::new();
    let mut out = format!(
        "policy of {} against the choices of {} (playing {}), {} games per scenario:\n",
        args.net.display(),
        args.expert,
        args.opponent,
        args.games
    );
    out.push_str("  scenario             decisions   top-1 agreement   probability of the expert's action\n");
    for r in &records {
        out.push_str(&format!(
            "  {:<20} {:>9} {:>16.1}% {:>20.3}\n",
            r.scenario,
            r.all.decisions,
            100.0 * r.all.rate(),
            r.all.expert_probability
        ));
        for (kind, a) in &r.kinds {
            all.entry(kind.clone()).or_default().merge(a);
        }
    }
    out.push_str("  by the kind of the expert's action, every scenario:\n");
    for (kind, a) in &all {
        out.push_str(&format!(
            "  {:<20} {:>9} {:>16.1}% {:>20.3}\n",
            kind,
            a.decisions,
            100.0 * a.rate(),
            a.expert_probability
        ));
    }
    out.push_str("  (decisions with more than one legal action; top-1: the network's most likely action is the expert's)");
    Ok(out)
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

/// Run `tde export-onnx`: the network as an ONNX model any ONNX reader runs.
pub fn export_onnx(args: &ExportOnnxArgs) -> Result<String, String> {
    let device = training::network::compute::device();
    let (net, _, dir) =
        training::network::checkpoint::load_network(&args.net, &device).map_err(|e| format!("--net: {e}"))?;
    let bytes = training::network::onnx::export::to_onnx(&net)?;
    engine::record::write_atomic(&args.out, &bytes).map_err(|e| format!("--out: {e}"))?;
    Ok(format!(
        "wrote {} ({} bytes, {} parameters, from {}): inputs `planes` [batch, {}, depth, width] and `globals`; \
         outputs `policy_planes`, `policy_globals` and `value`",
        args.out.display(),
        bytes.len(),
        net.parameters(),
        dir.display(),
        engine::encoding::PLANES,
    ))
}
