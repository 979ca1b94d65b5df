//! `tde learn`: policy iteration of the learned player from rollouts (see `training::learn`):
//! rounds of labelling, fitting and gating, resumable, with promoted generations written to
//! the ladder folder.

use clap::Args;
use std::fmt::Write;
use std::path::PathBuf;
use training::learn::labels::LabelConfig;
use training::learn::{learn, LearnSettings};

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
    let settings = LearnSettings {
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
    };
    let reports = learn(&settings)?;
    let mut out = String::new();
    for r in &reports {
        let _ = writeln!(
            out,
            "round {}: {} labels ({:.0}/h), {} improvable; shared seeds cut the variance of differences {:.1}x",
            r.round, r.labels.labels, r.labels_per_hour, r.labels.improvable, r.labels.variance_saved
        );
        let _ = writeln!(
            out,
            "  fit: held-out cross-entropy {:.4} -> {:.4}, agreement with the rollouts' best {:.1}% -> {:.1}% (penalty {})",
            r.fit.before.cross_entropy,
            r.fit.after.cross_entropy,
            100.0 * r.fit.before.agreement,
            100.0 * r.fit.after.agreement,
            r.fit.penalty
        );
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

/// Arguments of `tde ladder`.
#[derive(Args)]
pub struct LadderArgs {
    /// The folder of committed generations.
    #[arg(long, default_value = "checkpoints/learned")]
    pub ladder: PathBuf,
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
    let settings = training::learn::ladder::LadderSettings {
        ladder: args.ladder.clone(),
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
    let ladder = training::learn::ladder::run_ladder(&settings)?;
    Ok(format!("{}\nwritten to {}", training::learn::ladder::readme(&ladder).trim_end(), args.out.display()))
}
