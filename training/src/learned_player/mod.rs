//! Policy iteration from rollouts (`tde learn --run DIR`): generation after generation of the
//! learned player ([`agents::learned`]), each fitted to labels its predecessor's rollouts give
//! and promoted only through a gate of thousands of games.
//!
//! A round proposes a candidate and gates it, each step leaving files in `DIR/round-NNN/` that
//! the next run picks up, so a run killed at any moment resumes where it was. The candidate
//! comes from one of two proposers ([`Proposer`]):
//! - **rollouts**: 1. **label** ([`labels`]): games of the incumbent ([`games`]) in shards of
//!   [`LearnSettings::shard_games`] games, `labels/shard-NNNN.jsonl` each; 2. **fit**
//!   ([`fit`]): the next generation from every label of the incumbent's rounds (features rebuilt
//!   by replay), `gen-NNN.json` and `fit.json`;
//! - **games**: a self-play search of the term weights by whole games' results ([`tune`]), its
//!   state in `tune/`, its report in `tune.json` and the candidate in `gen-NNN.json`;
//! - **average**: the geometric mean of earlier searches' candidates from the same incumbent
//!   ([`average`]), the candidate in `gen-NNN.json`.
//!
//! Then the **gate** ([`gate`]): an arena in `gate/`, its decision in `gate.json`.
//!
//! A promoted generation is copied to the ladder folder (`checkpoints/learned/` by default)
//! with its gate and fit figures (`gen-NNN.gate.json`), and becomes the incumbent; a candidate
//! that fails leaves the incumbent in place, and the next round labels more games for it.
//! The run starts from the newest generation in the ladder folder (generation 0, the scripted
//! player's weights, when it holds none).

pub mod average;
pub mod fit;
pub mod games;
pub mod labels;
pub mod ladder;
pub mod leaf;
pub mod tune;

use agents::learned::generation::{file_name, newest_in, Generation};
use games::Games;
use labels::{label_game, parse_labels, to_lines, LabelConfig, LabelSummary};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Where a round's candidate comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Proposer {
    /// Fitted to rollout labels of the incumbent's decisions ([`labels`], [`fit`]).
    Rollouts,
    /// Searched by self-play games between perturbed players ([`tune`]).
    Games(tune::TuneConfig),
    /// The average of these candidates, each searched from the incumbent ([`average`]).
    Average(Vec<PathBuf>),
}

/// What a run does.
#[derive(Clone, Debug)]
pub struct LearnSettings {
    /// Where each round's candidate comes from.
    pub proposer: Proposer,
    /// The run folder.
    pub run: PathBuf,
    /// Where promoted generations go, and the run starts from.
    pub ladder: PathBuf,
    /// Rounds to run (label, fit, gate each).
    pub rounds: u32,
    /// Labelled games per round.
    pub label_games: u32,
    /// Games per shard of labels.
    pub shard_games: u32,
    /// How decisions are labelled.
    pub labels: LabelConfig,
    /// Optimiser steps of a fit.
    pub fit_steps: usize,
    /// Games per pair in the gate.
    pub gate_games: u32,
    /// Worker threads.
    pub threads: usize,
    /// Show progress bars.
    pub progress: bool,
    /// The run's seed: every round's games, labels, search and gate draw from it and the
    /// round's number (0 gives the seeds runs had before the option existed).
    pub seed: u64,
}

/// The run's state between rounds (`DIR/learn.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// The incumbent generation's file.
    pub incumbent: PathBuf,
    /// Rounds started so far.
    pub rounds: u32,
    /// Each round's incumbent (labels of a round are the incumbent's of that time).
    pub round_incumbents: Vec<PathBuf>,
    /// The run's seed (a resumed run must be given the same).
    #[serde(default)]
    pub seed: u64,
}

/// What one round did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundReport {
    /// The round's number.
    pub round: u32,
    /// Its labels' summary (rollout proposals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<LabelSummary>,
    /// Labels per hour of this round's labelling (0 when resumed with nothing left to label).
    #[serde(default)]
    pub labels_per_hour: f64,
    /// The fit (rollout proposals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit: Option<fit::FitReport>,
    /// The self-play search (game proposals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tune: Option<tune::TuneReport>,
    /// The candidates averaged (average proposals).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub averaged: Vec<PathBuf>,
    /// The gate.
    pub gate: crate::gate::arena::GateResult,
    /// The promoted generation's file in the ladder, if any.
    pub promoted: Option<PathBuf>,
}

fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The ladder's newest generation, writing generation 0 there first when it holds none.
pub fn newest_generation(ladder: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(ladder).map_err(|e| format!("{}: {e}", ladder.display()))?;
    if let Some(p) = newest_in(ladder)? {
        return Ok(p);
    }
    let path = ladder.join(file_name(0));
    Generation::scripted().save(&path, false)?;
    Ok(path)
}

/// Every generation in the ladder older than `incumbent`, oldest first.
fn older_generations(ladder: &Path, incumbent: &Generation) -> Result<Vec<Arc<Generation>>, String> {
    let mut out = Vec::new();
    for n in 0..incumbent.generation {
        let p = ladder.join(file_name(n));
        if p.exists() {
            out.push(Arc::new(Generation::load(&p)?));
        }
    }
    Ok(out)
}

/// Run (or resume) policy iteration; returns each round's report.
pub fn learn(settings: &LearnSettings) -> Result<Vec<RoundReport>, String> {
    let s = settings;
    if s.label_games == 0 || s.shard_games == 0 || s.gate_games < 2 || s.threads == 0 {
        return Err(
            "--label-games, --shard-games and --threads must be at least 1, --gate-games at least 2".into()
        );
    }
    std::fs::create_dir_all(&s.run).map_err(|e| format!("--run {}: {e}", s.run.display()))?;
    let state_file = s.run.join("learn.json");
    let mut state: RunState = if state_file.exists() {
        read_json(&state_file)?
    } else {
        RunState {
            incumbent: newest_generation(&s.ladder)?,
            rounds: 0,
            round_incumbents: Vec::new(),
            seed: s.seed,
        }
    };
    if state.seed != s.seed {
        return Err(format!(
            "--seed {}: the run in {} was started with seed {}; resume it with that seed or use another run folder",
            s.seed,
            s.run.display(),
            state.seed
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(s.threads).build().map_err(|e| e.to_string())?;
    let mut reports = Vec::new();
    // A round started but not finished (its gate.json missing) is finished first, and counts
    // as one of the rounds asked for.
    let unfinished = state.rounds > 0 && !round_dir(s, state.rounds - 1).join("gate.json").exists();
    let first = if unfinished { state.rounds - 1 } else { state.rounds };
    for round in first..first + s.rounds {
        if round == state.rounds {
            state.rounds += 1;
            state.round_incumbents.push(state.incumbent.clone());
            write_atomic(&state_file, &serde_json::to_string_pretty(&state).expect("state serialises"))?;
        }
        let report = pool.install(|| run_round(s, &mut state, round))?;
        write_atomic(&state_file, &serde_json::to_string_pretty(&state).expect("state serialises"))?;
        reports.push(report);
    }
    Ok(reports)
}

/// The number a round's seeds are drawn from: the round's own, moved by the run's seed.
fn round_key(s: &LearnSettings, round: u32) -> u64 {
    (round as u64).wrapping_add(s.seed.wrapping_shl(16))
}

fn round_dir(s: &LearnSettings, round: u32) -> PathBuf {
    s.run.join(format!("round-{round:03}"))
}

/// The candidate's figures from whichever proposer made it.
struct Proposal {
    labels: Option<LabelSummary>,
    labels_per_hour: f64,
    fit: Option<fit::FitReport>,
    tune: Option<tune::TuneReport>,
    averaged: Vec<PathBuf>,
}

/// One round: propose, gate, promote.
fn run_round(s: &LearnSettings, state: &mut RunState, round: u32) -> Result<RoundReport, String> {
    let dir = round_dir(s, round);
    let incumbent_file = state.round_incumbents[round as usize].clone();
    let incumbent = Arc::new(Generation::load(&incumbent_file)?);
    let games = Games::new(incumbent.clone(), older_generations(&s.ladder, &incumbent)?)?;
    let candidate_file = dir.join(file_name(incumbent.generation + 1));
    let proposal = match &s.proposer {
        Proposer::Rollouts => propose_by_rollouts(s, state, round, &games, &incumbent_file, &candidate_file)?,
        Proposer::Games(config) => {
            propose_by_games(s, round, &games, config, &incumbent_file, &candidate_file)?
        }
        Proposer::Average(files) => {
            if !candidate_file.exists() {
                std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                average::average(files, &incumbent, &incumbent_file)?.save(&candidate_file, true)?;
            }
            Proposal { labels: None, labels_per_hour: 0.0, fit: None, tune: None, averaged: files.clone() }
        }
    };

    // Gate.
    let gate_file = dir.join("gate.json");
    let gate: crate::gate::arena::GateResult = if gate_file.exists() {
        read_json(&gate_file)?
    } else {
        let seed = 0x6a7e_0000u64.wrapping_add(round_key(s, round));
        let g = crate::gate::arena::run(
            &candidate_file,
            &incumbent_file,
            s.gate_games,
            seed,
            s.threads,
            &dir.join("gate"),
        )?;
        write_atomic(&gate_file, &serde_json::to_string_pretty(&g).expect("gate serialises"))?;
        g
    };

    // Promotion.
    let mut promoted = None;
    if gate.promoted {
        let target = s.ladder.join(file_name(incumbent.generation + 1));
        if !target.exists() {
            let mut next = Generation::load(&candidate_file)?;
            next.parent =
                Some(state.incumbent.file_name().map_or(String::new(), |n| n.to_string_lossy().to_string()));
            next.save(&target, false)?;
            let record = serde_json::json!({
                "round": round,
                "fit": proposal.fit,
                "tune": proposal.tune,
                "averaged": proposal.averaged,
                "gate": gate,
            });
            write_atomic(
                &target.with_extension("gate.json"),
                &serde_json::to_string_pretty(&record).expect("record serialises"),
            )?;
        }
        state.incumbent = target.clone();
        promoted = Some(target);
    }
    let report = RoundReport {
        round,
        labels: proposal.labels,
        labels_per_hour: proposal.labels_per_hour,
        fit: proposal.fit,
        tune: proposal.tune,
        averaged: proposal.averaged,
        gate,
        promoted,
    };
    write_atomic(
        &dir.join("round.json"),
        &serde_json::to_string_pretty(&report).expect("report serialises"),
    )?;
    Ok(report)
}

/// A candidate fitted to rollout labels of the incumbent's decisions: label this round's games,
/// then fit on every label of the rounds with this incumbent.
fn propose_by_rollouts(
    s: &LearnSettings,
    state: &RunState,
    round: u32,
    games: &Games,
    incumbent_file: &Path,
    candidate_file: &Path,
) -> Result<Proposal, String> {
    // Labels, shard by shard.
    let dir = round_dir(s, round);
    let labels_dir = dir.join("labels");
    std::fs::create_dir_all(&labels_dir).map_err(|e| format!("{}: {e}", labels_dir.display()))?;
    let shards = s.label_games.div_ceil(s.shard_games);
    let bar = crate::progress_bar(s.progress, shards as u64, &format!("round {round} labels"));
    let start = Instant::now();
    let mut fresh = 0usize;
    for shard in 0..shards {
        let file = labels_dir.join(format!("shard-{shard:04}.jsonl"));
        if !file.exists() {
            let first = shard * s.shard_games;
            let last = (first + s.shard_games).min(s.label_games);
            let seeds: Vec<u64> =
                (first..last).map(|i| (round_key(s, round).wrapping_add(1) << 32) | i as u64).collect();
            let done: Vec<Result<Vec<labels::Label>, String>> =
                seeds.par_iter().map(|&g| label_game(games, g, &s.labels)).collect();
            let mut shard_labels = Vec::new();
            for d in done {
                shard_labels.extend(d?);
            }
            fresh += shard_labels.len();
            write_atomic(&file, &to_lines(&shard_labels))?;
            let hours = start.elapsed().as_secs_f64() / 3600.0;
            bar.set_message(format!("{:.0} labels/h", fresh as f64 / hours.max(1e-9)));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let labels_per_hour = fresh as f64 / (start.elapsed().as_secs_f64() / 3600.0).max(1e-9);
    let round_labels = read_labels(&labels_dir)?;

    // Fit, on every label of the rounds with this incumbent.
    let fit_file = dir.join("fit.json");
    let fit_report: fit::FitReport = if fit_file.exists() && candidate_file.exists() {
        read_json(&fit_file)?
    } else {
        let mut all = Vec::new();
        for (r, inc) in state.round_incumbents.iter().enumerate().take(round as usize + 1) {
            if inc == incumbent_file {
                all.extend(read_labels(&round_dir(s, r as u32).join("labels"))?);
            }
        }
        eprintln!("round {round}: fitting on {} labels (replaying their games)", all.len());
        let (examples, diverged) = fit::examples(games, &all)?;
        if let Some(first) = diverged.first() {
            eprintln!(
                "round {round}: {} games left out, their replay diverged (the first: {first})",
                diverged.len()
            );
        }
        let parent = incumbent_file.file_name().map_or(String::new(), |n| n.to_string_lossy().to_string());
        let (next, mut report) = fit::fit(&games.incumbent, &parent, &examples, s.fit_steps)?;
        report.diverged_games = diverged.len();
        next.save(candidate_file, true)?;
        write_atomic(&fit_file, &serde_json::to_string_pretty(&report).expect("report serialises"))?;
        report
    };

    Ok(Proposal {
        labels: Some(LabelSummary::of(&round_labels)),
        labels_per_hour,
        fit: Some(fit_report),
        tune: None,
        averaged: Vec::new(),
    })
}

/// A candidate searched by self-play games ([`tune`]), resumed from the round's `tune/` folder.
fn propose_by_games(
    s: &LearnSettings,
    round: u32,
    games: &Games,
    config: &tune::TuneConfig,
    incumbent_file: &Path,
    candidate_file: &Path,
) -> Result<Proposal, String> {
    let dir = round_dir(s, round);
    let tune_file = dir.join("tune.json");
    let report: tune::TuneReport = if tune_file.exists() && candidate_file.exists() {
        read_json(&tune_file)?
    } else {
        let seed = 0x7e4e_0000u64.wrapping_add(round_key(s, round));
        let (mut next, report) = tune::tune(games, config, seed, &dir.join("tune"), s.progress)?;
        next.parent = incumbent_file.file_name().map(|n| n.to_string_lossy().to_string());
        next.note = format!(
            "searched by self-play: {} iterations of {} games (SPSA, perturbation {}, step {}{})",
            config.iterations,
            config.games,
            config.perturbation,
            config.step,
            match (config.per_scenario, config.per_phase) {
                (true, true) => ", per scenario and per phase",
                (true, false) => ", per scenario",
                (false, true) => ", per phase",
                (false, false) => "",
            }
        );
        if let Some(hidden) = config.standing {
            next.note += &format!(", with a standing model of {hidden} hidden units");
        }
        next.save(candidate_file, true)?;
        write_atomic(&tune_file, &serde_json::to_string_pretty(&report).expect("report serialises"))?;
        report
    };
    Ok(Proposal { labels: None, labels_per_hour: 0.0, fit: None, tune: Some(report), averaged: Vec::new() })
}

/// Every label in a folder of shards, in shard order.
pub fn read_labels(dir: &Path) -> Result<Vec<labels::Label>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        out.extend(parse_labels(&text, &f.display().to_string())?);
    }
    Ok(out)
}
