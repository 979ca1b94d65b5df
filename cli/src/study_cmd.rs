//! `tde study`: studies of decisions. `reaction-timing` studies one situation (or, with
//! `--sweep`, families of them); `agent-reactions` reads arena records to see when agents react.

use clap::{Args, Subcommand};
use std::fmt::Write;
use std::path::PathBuf;
use study::{Horizon, Sampling};

/// The studies.
#[derive(Subcommand, Debug)]
pub enum StudyCommand {
    /// When along a declared move to react, with what, or whether to keep the AP: exact odds at
    /// every point, values beyond the sequence, the best timing, pictures; or a sweep.
    ReactionTiming(ReactionTimingArgs),
    /// From arena game records: how often each agent reacts, at which point relative to the
    /// best one, what it costs; the same for firefights.
    AgentReactions(AgentReactionsArgs),
}

/// `tde study reaction-timing`.
#[derive(Args, Debug)]
pub struct ReactionTimingArgs {
    /// A setup file (TOML) with a declared move or charge and its possible reactors (format
    /// in engine/src/setup.rs). Not with --sweep.
    #[arg(required_unless_present_any = ["sweep", "replot"], conflicts_with_all = ["sweep", "replot"])]
    pub setup: Option<PathBuf>,
    /// A sweep config (TOML, see configs/studies/) generating families of situations.
    #[arg(long, conflicts_with = "replot")]
    pub sweep: Option<PathBuf>,
    /// Redraw a sweep's heatmaps and summary from its export (sweep.json.gz, or an older
    /// sweep.json) into --out, without re-running anything.
    #[arg(long, requires = "out")]
    pub replot: Option<PathBuf>,
    /// The judge: the agent playing both sides of the continuations beyond the sequence (any
    /// spec `tde arena` takes, e.g. scripted, learned:gen=checkpoints/learned/gen-003.json,
    /// mcts-fast:net=checkpoints/fast/gen-000.fnet,iters=50); named in every table. Default:
    /// the fast network's newest generation, fast:net=checkpoints/fast/gen-002.fnet (run from the repository
    /// root). A sweep takes its own from its config unless given here.
    #[arg(long, alias = "agent")]
    pub judge: Option<String>,
    /// Continuations per option (0: exact values only; at most 100000); with --until-settled,
    /// the first batch. A sweep takes its own from its config.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub samples: u32,
    /// Keep sampling (doubling) until every comparison of the verdict is settled at
    /// --confidence, or --budget samples per option are spent.
    #[arg(long)]
    pub until_settled: bool,
    /// Most samples per option with --until-settled.
    #[arg(long, default_value_t = 3200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub budget: u32,
    /// Confidence of the paired intervals (0.5 to 0.999).
    #[arg(long, default_value_t = 0.95)]
    pub confidence: f64,
    /// Wounds per AP in the AP-counted net (the exact measure): what a kept AP is worth; a
    /// number (stated; 0.5 when not given), or `rollouts` to derive it from rollouts of the
    /// situation by the judge (with its interval; needs --samples). A sweep takes its own from
    /// its config unless given here.
    #[arg(long)]
    pub ap_value: Option<study::ApValue>,
    /// The measure the verdict decides by: return (the value beyond the sequence, when
    /// --samples is above 0) or exact (the AP-counted net, at the --ap-value rate; samples then
    /// value the options and the rate without deciding).
    #[arg(long, default_value = "return")]
    pub measure: study::Measure,
    /// Seed of the continuations' dice and agents (0 when not given); for a sweep, replaces
    /// its config's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Replicate the study at these independent seeds (comma-separated, e.g. 0,777): the
    /// verdict holds only when every seed's study is settled on the same option; the table
    /// shows each seed's intervals. The pictures and exports are the first seed's. With
    /// --sweep: every seed's sweep (in --out/seed-N/), a cell's verdict held only when every
    /// seed settles on the same option there; replaces its config's seeds.
    #[arg(long, value_delimiter = ',', num_args = 1.., conflicts_with = "seed")]
    pub seeds: Vec<u64>,
    /// How far continuations are played: game (to the end) or turn (to the end of the turn).
    #[arg(long, default_value = "game")]
    pub horizon: Horizon,
    /// Folder for the pictures (board.png/svg, curves.png/svg), study.json and the long-format
    /// options.csv; a sweep writes its heatmaps, summary.md, sweep.json and sweep.csv there.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// `tde study agent-reactions`.
#[derive(Args, Debug)]
pub struct AgentReactionsArgs {
    /// Game record files (JSON) or folders of them (e.g. an arena's OUT/records).
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// At most this many records are read (in name order).
    #[arg(long, default_value_t = 200)]
    pub max_records: usize,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Run a study command.
pub fn run(cmd: &StudyCommand) -> Result<String, String> {
    match cmd {
        StudyCommand::ReactionTiming(args) => reaction_timing(args),
        StudyCommand::AgentReactions(args) => agent_reactions(args),
    }
}

/// The agents the continuations may use, learned ones included.
fn factory(spec: &str, seed: u64) -> Result<Box<dyn agents::Agent<engine::GameState>>, String> {
    training::play::make_agent(spec, seed)
}

/// The run's metadata for the exports.
fn meta(judge: &str, seed: u64) -> study::export::Meta {
    study::export::Meta {
        judge: judge.to_string(),
        seed,
        commit: study::export::git_commit(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
    }
}

fn reaction_timing(args: &ReactionTimingArgs) -> Result<String, String> {
    if !(0.5..1.0).contains(&args.confidence) {
        return Err(format!("--confidence {}: must be at least 0.5 and below 1", args.confidence));
    }
    let seed = args.seeds.first().copied().or(args.seed).unwrap_or(0);
    if let Some(judge) = &args.judge {
        factory(judge, seed).map_err(|e| format!("--judge `{judge}`: {e}"))?;
    }
    if let Some(export) = &args.replot {
        let dir = args.out.as_ref().ok_or("--replot needs --out")?;
        let e = study::sweep::read_export(export)?;
        let files = study::sweep::write_figures(&e.sweep, dir)?;
        return Ok(format!(
            "{}redrew from {} (made by: {}; commit {}): {}\n",
            study::sweep::render_summary(&e.sweep),
            export.display(),
            e.meta.command,
            e.meta.commit,
            files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")
        ));
    }
    if let Some(config) = &args.sweep {
        let mut config = study::sweep::SweepConfig::load(config)?;
        if let Some(judge) = &args.judge {
            config.judge = judge.clone();
        }
        if let Some(seed) = args.seed {
            config.seed = seed;
            config.seeds.clear();
        }
        match args.seeds.as_slice() {
            [] => {}
            [one] => {
                config.seed = *one;
                config.seeds.clear();
            }
            many => config.seeds = many.to_vec(),
        }
        if let Some(ap) = args.ap_value {
            config.ap_value = ap;
        }
        config.check().map_err(|e| if args.seeds.len() > 1 { format!("--seeds: {e}") } else { e })?;
        if !config.seeds.is_empty() {
            return sweep_replicated(&config, args);
        }
        let result = study::sweep::run(&config, &factory)?;
        let judge = if config.samples > 0 { config.judge.clone() } else { "exact".to_string() };
        let mut out = String::new();
        if let Some(dir) = &args.out {
            let files = study::sweep::write_outputs(&result, dir, &meta(&judge, config.seed))?;
            let _ = writeln!(
                out,
                "wrote {}",
                files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")
            );
        }
        if args.json {
            return serde_json::to_string(&result).map_err(|e| e.to_string());
        }
        return Ok(format!("{}{out}", study::sweep::render_summary(&result)));
    }
    let path = args.setup.as_ref().ok_or("a setup file is needed without --sweep")?;
    let state = study::load_situation(path).map_err(|e| e.to_string())?;
    let judge = match &args.judge {
        Some(j) => j.clone(),
        None if args.samples == 0 => study::DEFAULT_JUDGE.to_string(),
        None => {
            factory(study::DEFAULT_JUDGE, seed).map_err(|e| {
                format!(
                    "the default judge `{}`: {e} (run from the repository root, or give --judge)",
                    study::DEFAULT_JUDGE
                )
            })?;
            study::DEFAULT_JUDGE.to_string()
        }
    };
    let sampling = Sampling { agent: judge.clone(), samples: args.samples, seed, horizon: args.horizon };
    let ap = args.ap_value.unwrap_or(study::ApValue::Stated(study::DEFAULT_AP_VALUE));
    if ap == study::ApValue::Rollouts && args.samples < 2 {
        return Err("--ap-value rollouts: needs --samples of at least 2 (the rollouts that derive it)".into());
    }
    let options = study::StudyOptions {
        ap_value: match ap {
            study::ApValue::Stated(v) => v,
            study::ApValue::Rollouts => study::DEFAULT_AP_VALUE,
        },
        ap_from_rollouts: ap == study::ApValue::Rollouts,
        exact_verdict: args.measure == study::Measure::Exact,
        confidence: args.confidence,
        until_settled: args.until_settled.then_some(args.budget.max(args.samples)),
    };
    let name =
        path.file_stem().map_or_else(|| path.display().to_string(), |s| s.to_string_lossy().into_owned());
    let replication = if args.seeds.len() > 1 {
        if args.samples == 0 {
            return Err("--seeds: replication needs --samples above 0".into());
        }
        Some(
            study::replicate::replicate(&state, &name, &sampling, &factory, &options, &args.seeds)
                .map_err(|e| e.to_string())?,
        )
    } else {
        None
    };
    let s = match &replication {
        Some(r) => r.studies[0].clone(),
        None => {
            study::study(&state, &name, Some((&sampling, &factory)), &options).map_err(|e| e.to_string())?
        }
    };
    let mut written = Vec::new();
    if let Some(dir) = &args.out {
        written = study::plot::write_figures(&s, &state, dir)?;
        let m = meta(if args.samples > 0 { &judge } else { "exact" }, seed);
        let json = dir.join("study.json");
        let text = serde_json::to_string_pretty(
            &serde_json::json!({ "meta": m, "study": s, "replication": replication }),
        )
        .map_err(|e| e.to_string())?;
        engine::record::write_atomic(&json, text.as_bytes()).map_err(|e| e.to_string())?;
        written.push(json);
        let csv = dir.join("options.csv");
        engine::record::write_atomic(&csv, study::export::study_csv(&s, &m).as_bytes())
            .map_err(|e| e.to_string())?;
        written.push(csv);
    }
    if args.json {
        return match &replication {
            Some(r) => serde_json::to_string(r),
            None => serde_json::to_string(&s),
        }
        .map_err(|e| e.to_string());
    }
    let mut out = study::render_table(&s);
    if let Some(r) = &replication {
        out.push_str(&study::replicate::render_replication(r));
    }
    if !written.is_empty() {
        let _ = writeln!(
            out,
            "wrote {}",
            written.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(out)
}

/// A sweep replicated at its config's seeds: each seed's sweep, the replicated verdicts.
fn sweep_replicated(config: &study::sweep::SweepConfig, args: &ReactionTimingArgs) -> Result<String, String> {
    let r = study::sweep_replicate::run(config, &factory, &config.seeds)?;
    let mut written = String::new();
    if let Some(dir) = &args.out {
        let files = study::sweep_replicate::write_outputs(&r, dir, &meta(&config.judge, config.seeds[0]))?;
        let _ = writeln!(
            written,
            "wrote {}",
            files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    if args.json {
        return serde_json::to_string(&r).map_err(|e| e.to_string());
    }
    let mut out = String::new();
    if let Some(replicated) = study::sweep_replicate::replicated_result(&r) {
        out.push_str(&study::sweep::render_summary(&replicated));
    }
    out.push('\n');
    out.push_str(&study::sweep_replicate::render_replication(&r));
    out.push_str(&written);
    Ok(out)
}

fn agent_reactions(args: &AgentReactionsArgs) -> Result<String, String> {
    let files = study::records::record_files(&args.records, args.max_records)?;
    let report = study::records::survey(&files)?;
    if args.json {
        return serde_json::to_string(&report).map_err(|e| e.to_string());
    }
    Ok(study::records::render(&report))
}
