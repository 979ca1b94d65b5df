//! `tde learn`: policy iteration of the learned player (see `training::learned_player`): rounds that
//! propose a candidate (fitted to rollout labels, or searched by self-play games) and gate it,
//! resumable, with promoted generations written to the ladder folder.

use clap::Args;
use std::fmt::Write;
use std::path::PathBuf;
use training::learned_player::labels::LabelConfig;
use training::learned_player::tune::TuneConfig;
use training::learned_player::{learn, LearnSettings, Proposer};

/// Arguments of `tde learn`.
#[derive(Args)]
pub struct LearnArgs {
    /// Run folder (created, or resumed where a run left it).
    #[arg(long)]
    pub run: PathBuf,
    /// Where promoted generations are written, and the run starts from its newest.
    #[arg(long, default_value = "checkpoints/learned")]
    pub ladder: PathBuf,
    /// Rounds to run (label, fit, gate), 1 to 1000.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub rounds: u32,
    /// Where each round's candidate comes from: `rollouts` (fitted to rollout labels of the
    /// incumbent's decisions) or `games` (searched by self-play games between perturbed
    /// players, SPSA) or `average` (the geometric mean of `--average`'s candidates).
    #[arg(long, default_value = "rollouts", value_parser = ["rollouts", "games", "average"])]
    pub proposer: String,
    /// `average`: the candidates to average, comma-separated generation files, each searched
    /// from the incumbent (e.g. other runs' `round-NNN/gen-NNN.json`).
    #[arg(long, default_value = "")]
    pub average: String,
    /// `games`: search iterations, 2 to 100,000.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub tune_iterations: u32,
    /// `games`: games per search iteration, 2 to 100,000.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub tune_games: u32,
    /// `games`: how far each weight's logarithm is moved to compare two players, in (0, 1].
    #[arg(long, default_value_t = 0.25)]
    pub tune_perturbation: f64,
    /// `games`: the search's step, in (0, 100].
    #[arg(long, default_value_t = 0.5)]
    pub tune_step: f64,
    /// `games`: also search a multiplier per scenario and term.
    #[arg(long)]
    pub tune_per_scenario: bool,
    /// `games`: also search a multiplier per phase of the game (early, mid, late) and term.
    #[arg(long)]
    pub tune_per_phase: bool,
    /// `games`: also search a standing model with this many hidden units, 0 to 16 (0: linear):
    /// the term weights scaled by the deciding side's victory-point margin, points still
    /// standing and turn.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=16))]
    pub tune_standing: Option<u32>,
    /// `games`: the terms searched, comma-separated names (default: every term).
    #[arg(long, default_value = "")]
    pub tune_terms: String,
    /// `games`: terms the search brings in, as comma-separated `name=weight`: each starts at
    /// that weight wherever the incumbent weighs it 0 (e.g. `guard=1`, a term added to the
    /// scripted player's after the incumbent was made).
    #[arg(long, default_value = "")]
    pub tune_introduce: String,
    /// Labelled games per round, 1 to 1,000,000.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub label_games: u32,
    /// Games per shard of labels (a killed run loses at most one shard), 1 to 10,000.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub shard_games: u32,
    /// Chance that a decision is labelled, in (0, 1].
    #[arg(long, default_value_t = 0.12)]
    pub rate: f64,
    /// Candidates per label: the incumbent's best this many (1 to 16), plus one other.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub top: u32,
    /// Rollouts per candidate, 2 to 1000.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub rollouts: u32,
    /// Share of a rollout's return that is its victory-point margin (0: the result alone), 0 to 1.
    #[arg(long, default_value_t = 0.5)]
    pub margin_share: f64,
    /// Optimiser steps of a fit, 1 to 100,000.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub fit_steps: u32,
    /// Gate games per pair (candidate, incumbent, scripted), 10 to 10,000,000.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(10..=10_000_000))]
    pub gate_games: u32,
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
    /// The run's seed: rounds draw their games, labels, search and gate from it (0 gives the
    /// seeds of runs made before this option; a resumed run must be given its own).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Run `tde learn`.
pub fn learn_cmd(args: &LearnArgs) -> Result<String, String> {
    if !(args.rate > 0.0 && args.rate <= 1.0) {
        return Err(format!("--rate {} is not in (0, 1]", args.rate));
    }
    if !(0.0..=1.0).contains(&args.margin_share) {
        return Err(format!("--margin-share {} is not in [0, 1]", args.margin_share));
    }
    let threads = match args.threads {
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let proposer = if args.proposer == "games" {
        let config = TuneConfig {
            iterations: args.tune_iterations,
            games: args.tune_games,
            perturbation: args.tune_perturbation,
            step: args.tune_step,
            per_scenario: args.tune_per_scenario,
            per_phase: args.tune_per_phase,
            standing: args.tune_standing.map(|h| h as usize),
            terms: args
                .tune_terms
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(String::from)
                .collect(),
            introduce: introduced_terms(&args.tune_introduce)?,
        };
        config.check().map_err(|e| format!("--{e}"))?;
        Proposer::Games(config)
    } else if args.proposer == "average" {
        let files: Vec<PathBuf> =
            args.average.split(',').map(str::trim).filter(|f| !f.is_empty()).map(PathBuf::from).collect();
        if files.len() < 2 {
            return Err("--proposer average needs --average with at least two generation files".into());
        }
        Proposer::Average(files)
    } else {
        if !args.average.is_empty() {
            return Err("--average is for --proposer average".into());
        }
        Proposer::Rollouts
    };
    let settings = LearnSettings {
        proposer,
        run: args.run.clone(),
        ladder: args.ladder.clone(),
        rounds: args.rounds,
        label_games: args.label_games,
        shard_games: args.shard_games,
        labels: LabelConfig {
            rate: args.rate,
            top: args.top as usize,
            rollouts: args.rollouts,
            margin_share: args.margin_share,
        },
        fit_steps: args.fit_steps as usize,
        gate_games: args.gate_games,
        threads,
        progress: !args.quiet,
        seed: args.seed,
    };
    announce_fresh_ladder(&settings)?;
    let reports = learn(&settings)?;
    let mut out = String::new();
    for r in &reports {
        if let Some(l) = &r.labels {
            let _ = writeln!(
                out,
                "round {}: {} labels ({:.0}/h), {} improvable; shared seeds cut the variance of differences {:.1}x",
                r.round, l.labels, r.labels_per_hour, l.improvable, l.variance_saved
            );
        }
        if let Some(f) = &r.fit {
            let _ = writeln!(
                out,
                "  fit: held-out cross-entropy {:.4} -> {:.4}, agreement with the rollouts' best {:.1}% -> {:.1}% (penalty {})",
                f.before.cross_entropy,
                f.after.cross_entropy,
                100.0 * f.before.agreement,
                100.0 * f.after.agreement,
                f.penalty
            );
        }
        if let Some(t) = &r.tune {
            let moved: Vec<String> = t
                .multipliers
                .iter()
                .filter(|(_, m)| (**m - 1.0).abs() >= 0.1)
                .map(|(k, m)| format!("{k} x{m:.2}"))
                .collect();
            let _ = writeln!(
                out,
                "round {}: self-play search, {} games ({:.0}/h); weights moved: {}",
                r.round,
                t.games,
                t.games_per_hour,
                if moved.is_empty() { "none by 10% or more".to_string() } else { moved.join(", ") }
            );
        }
        let _ = writeln!(out, "  gate: {}", r.gate.reason);
        match &r.promoted {
            Some(p) => {
                let _ = writeln!(out, "  promoted: {}", p.display());
            }
            None => {
                let _ = writeln!(out, "  not promoted: the incumbent stays");
            }
        }
    }
    Ok(out.trim_end().to_string())
}

/// Say on standard error when a new run's ladder folder holds no generation: the run then
/// writes generation 0 (the scripted player) there and starts from it, which a mistyped
/// `--ladder` would otherwise do silently.
fn announce_fresh_ladder(settings: &LearnSettings) -> Result<(), String> {
    if settings.run.join("learn.json").exists() {
        return Ok(());
    }
    let held = if settings.ladder.is_dir() {
        agents::learned::generation::newest_in(&settings.ladder)?
    } else {
        None
    };
    if held.is_none() {
        eprintln!(
            "tde learn: --ladder {} holds no generation: starting from generation 0 (the scripted player), written there",
            settings.ladder.display()
        );
    }
    Ok(())
}

/// Arguments of `tde ladder`.
#[derive(Args)]
pub struct LadderArgs {
    /// The folder of committed generations.
    #[arg(long, default_value = "checkpoints/learned")]
    pub ladder: PathBuf,
    /// The folder of the fast network's committed generations (`gen-NNN.fnet`), each rated
    /// alone; `none` leaves them out.
    #[arg(long, default_value = "checkpoints/fast")]
    pub fast: PathBuf,
    /// Other agents to rate beside the generations and `scripted` (comma-separated specs, e.g.
    /// `mcts:ms=20,rollout=scripted,width=4`).
    #[arg(long, default_value = "")]
    pub with: String,
    /// Games per pair, 2 to 1,000,000.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub games: u32,
    /// The arena's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Where the arenas run (resumable).
    #[arg(long, default_value = "runs/ladder")]
    pub run: PathBuf,
    /// Where the ladder is written: README.md, ladder.json, ratings.png.
    #[arg(long, default_value = "docs/results/ladder")]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Run `tde ladder`.
pub fn ladder_cmd(args: &LadderArgs) -> Result<String, String> {
    let settings = training::learned_player::ladder::LadderSettings {
        ladder: args.ladder.clone(),
        fast: (args.fast.as_os_str() != "none").then(|| args.fast.clone()),
        extra: agents::split_agent_list(&args.with),
        games: args.games,
        seed: args.seed,
        threads: match args.threads {
            Some(t) => t as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        },
        run: args.run.clone(),
        out: args.out.clone(),
        progress: !args.quiet,
    };
    let ladder = training::learned_player::ladder::run_ladder(&settings)?;
    Ok(format!(
        "{}\nwritten to {}",
        training::learned_player::ladder::readme(&ladder).trim_end(),
        args.out.display()
    ))
}

/// Arguments of `tde leaf-value`.
#[derive(Args)]
pub struct LeafValueArgs {
    /// The generation whose games and rollouts the value is fitted to (a file, or a folder whose
    /// newest `gen-NNN.json` is taken).
    #[arg(long, default_value = "checkpoints/learned")]
    pub gen: PathBuf,
    /// Games whose positions are valued, 10 to 1,000,000.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(10..=1_000_000))]
    pub games: u32,
    /// Chance that a decision's position is kept, in (0, 1].
    #[arg(long, default_value_t = 0.05)]
    pub rate: f64,
    /// Rollouts from each kept position, 1 to 1000.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub rollouts: u32,
    /// Weight of the penalty on the distance from the material count's weights, 0 to 100.
    #[arg(long, default_value_t = 1e-3)]
    pub penalty: f64,
    /// Gradient steps of the fit, 1 to 1,000,000.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub steps: u32,
    /// Seed of the games and rollouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where the leaf value is written (default: `leaf-NNN.json` beside the generation, NNN its
    /// number), with its report beside it (`.report.json`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// Run `tde leaf-value`.
pub fn leaf_value_cmd(args: &LeafValueArgs) -> Result<String, String> {
    use agents::learned::generation::{resolve, Generation};
    use training::learned_player::leaf::{fit, positions, LeafSettings};
    if !(args.rate > 0.0 && args.rate <= 1.0) {
        return Err(format!("--rate {} is not in (0, 1]", args.rate));
    }
    if !(0.0..=100.0).contains(&args.penalty) {
        return Err(format!("--penalty {} is not in [0, 100]", args.penalty));
    }
    let file = resolve(&args.gen).map_err(|e| format!("--gen: {e}"))?;
    let generation = Generation::load(&file).map_err(|e| format!("--gen: {e}"))?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| file.with_file_name(format!("leaf-{:03}.json", generation.generation)));
    let report_file = out.with_extension("report.json");
    if !args.force {
        for f in [&out, &report_file] {
            if f.exists() {
                return Err(format!("{}: already exists (give --force to replace it)", f.display()));
            }
        }
    }
    let settings = LeafSettings {
        games: args.games,
        rate: args.rate,
        rollouts: args.rollouts,
        penalty: args.penalty,
        seed: args.seed,
    };
    let threads = match args.threads {
        Some(t) => t as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let games = training::learned_player::games::Games::new(std::sync::Arc::new(generation), Vec::new())?;
    let valued = positions(&games, &settings, threads)?;
    let (mut leaf, report) = fit(&valued, &settings, args.steps as usize);
    leaf.note = format!(
        "fitted to {} positions of {} ({} games, {} rollouts each)",
        valued.len(),
        file.display(),
        args.games,
        args.rollouts
    );
    leaf.save(&out, args.force)?;
    let text = serde_json::to_string_pretty(&report).expect("report serialises");
    let tmp = report_file.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &report_file).map_err(|e| format!("{}: {e}", report_file.display()))?;
    let line = |name: &str, e: &training::learned_player::leaf::Errors| {
        format!(
            "  {name}: {} positions, mean squared error against the rollouts' means: leaf value {:.4}, material count {:.4}, constant 0 {:.4}",
            e.positions, e.leaf, e.material, e.zero
        )
    };
    Ok(format!(
        "{}\n{}\n{}\nwritten: {} ({})",
        leaf.note,
        line("fitted", &report.fitted),
        line("held out (every tenth game)", &report.held_out),
        out.display(),
        report_file.display()
    ))
}

/// The `name=weight` pairs of `--tune-introduce`.
fn introduced_terms(text: &str) -> Result<std::collections::BTreeMap<String, f64>, String> {
    let mut out = std::collections::BTreeMap::new();
    for item in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let (name, weight) =
            item.split_once('=').ok_or_else(|| format!("--tune-introduce: `{item}` is not name=weight"))?;
        let weight: f64 = weight
            .trim()
            .parse()
            .map_err(|_| format!("--tune-introduce: `{item}`: `{}` is not a number", weight.trim()))?;
        if out.insert(name.trim().to_string(), weight).is_some() {
            return Err(format!("--tune-introduce: `{}` is named twice", name.trim()));
        }
    }
    Ok(out)
}
