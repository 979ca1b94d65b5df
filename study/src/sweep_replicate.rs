//! A sweep replicated at independent seeds (a config's `seeds`, or `--seeds`): the same sweep
//! (situations, judge, samples, stopping rule) is run once per seed, whose dice and agent seeds
//! share nothing, and a cell's verdict **holds** only when every seed's sweep is settled there on
//! the same option (the same class and the same reaction at the same point, or holding the AP).
//! Every other cell is uncertain, however it leans. Each seed's sweep is kept whole, and each
//! seed's best option, samples and intervals are shown side by side for every cell
//! ([`render_replication`], [`replication_csv`]); the replicated verdicts draw the heatmaps and
//! the summary as a single sweep's do ([`replicated_result`]).

use crate::beyond::{AgentFactory, Paired};
use crate::export::{field, Meta};
use crate::plot::err;
use crate::sweep::{self, Best, Export, Outcome, Situation, SweepConfig, SweepResult};
use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// A sweep at several seeds.
#[derive(Clone, Debug, Serialize)]
pub struct SweepReplication {
    /// The seeds, in order.
    pub seeds: Vec<u64>,
    /// Each seed's sweep, in the order of `seeds` (its config's `seed` that seed, no `seeds`).
    pub sweeps: Vec<SweepResult>,
    /// Every situation's replicated verdict, in generation order.
    pub cells: Vec<Cell>,
}

/// One situation at every seed.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// The situation.
    pub situation: Situation,
    /// Whether every seed settled on the same option.
    pub held: bool,
    /// The replicated class: the seeds' class where it held, `none` where nobody can react,
    /// otherwise `uncertain`.
    pub best: Best,
    /// The option every seed settled on, where it held.
    pub option: Option<String>,
    /// Each seed's verdict, in the order of the seeds.
    pub seeds: Vec<SeedVerdict>,
}

/// One seed's verdict in one situation.
#[derive(Clone, Debug, Serialize)]
pub struct SeedVerdict {
    /// The seed.
    pub seed: u64,
    /// Its class (uncertain when not settled).
    pub best: Best,
    /// The class it leans to (the class without "uncertain").
    pub leaning: Best,
    /// Its best option in words ("Nix shoot Recurve at point 2", "hold the AP"); absent when
    /// nobody can react.
    pub option: Option<String>,
    /// The best option's point, when reacting is best.
    pub best_point: Option<u8>,
    /// Samples per option reached.
    pub samples: u32,
    /// The best option minus holding (or, when holding is best, minus the best reaction).
    pub versus_hold: Option<Paired>,
    /// The best option minus reacting at once with the same reaction, when the best is later.
    pub over_at_once: Option<Paired>,
}

impl SeedVerdict {
    fn of(seed: u64, o: &Outcome) -> SeedVerdict {
        SeedVerdict {
            seed,
            best: o.best,
            leaning: o.leaning,
            option: best_option(o),
            best_point: o.best_point,
            samples: o.options.iter().map(|x| x.samples).max().unwrap_or(0),
            versus_hold: o.versus_hold,
            over_at_once: o.gain_over_at_once,
        }
    }

    /// Whether this seed's verdict is settled (not uncertain, somebody can react).
    fn settled(&self) -> bool {
        !matches!(self.best, Best::Uncertain | Best::None)
    }
}

/// The verdict's best option of an outcome in words.
fn best_option(o: &Outcome) -> Option<String> {
    o.options.iter().find(|x| x.best).map(|x| match x.point {
        Some(p) => format!("{} {} at point {p}", x.reactor, x.kind),
        None => x.kind.clone(),
    })
}

/// A cell's replicated verdict from each seed's verdict: held when every seed is settled on
/// the same class and option.
pub fn agree(situation: Situation, seeds: Vec<SeedVerdict>) -> Cell {
    let first = seeds.first();
    let held = first.is_some_and(|f| {
        seeds
            .iter()
            .all(|s| s.settled() && s.best == f.best && s.option == f.option && s.best_point == f.best_point)
    });
    let best = match first {
        Some(f) if held => f.best,
        _ if !seeds.is_empty() && seeds.iter().all(|s| s.best == Best::None) => Best::None,
        _ => Best::Uncertain,
    };
    let option = if held { first.and_then(|f| f.option.clone()) } else { None };
    Cell { situation, held, best, option, seeds }
}

/// Run the sweep of `c` at each of `seeds` (its `seed` and `seeds` replaced) and replicate
/// every cell's verdict.
pub fn run(c: &SweepConfig, factory: &AgentFactory, seeds: &[u64]) -> Result<SweepReplication, String> {
    if seeds.len() < 2 {
        return Err(format!("{}: seeds: needs two or more seeds to replicate", c.file));
    }
    let mut sweeps = Vec::with_capacity(seeds.len());
    for &seed in seeds {
        let at = SweepConfig { seed, seeds: Vec::new(), ..c.clone() };
        sweeps.push(sweep::run(&at, factory)?);
    }
    replicate(seeds, sweeps)
}

/// Replicate the cells of sweeps already run at `seeds` (one sweep per seed, the same
/// situations in the same order); an error when they do not match.
pub fn replicate(seeds: &[u64], sweeps: Vec<SweepResult>) -> Result<SweepReplication, String> {
    let Some(first) = sweeps.first() else { return Err("no sweeps to replicate".into()) };
    if sweeps.len() != seeds.len() {
        return Err(format!("{} sweeps for {} seeds", sweeps.len(), seeds.len()));
    }
    let same = |s: &SweepResult| {
        s.outcomes.len() == first.outcomes.len()
            && s.outcomes.iter().zip(&first.outcomes).all(|(a, b)| a.situation == b.situation)
    };
    if let Some((seed, _)) = seeds.iter().zip(&sweeps).find(|(_, s)| !same(s)) {
        return Err(format!("the sweep at seed {seed} has other situations than the first seed's"));
    }
    let cells = first
        .outcomes
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let per_seed =
                seeds.iter().zip(&sweeps).map(|(&seed, s)| SeedVerdict::of(seed, &s.outcomes[i])).collect();
            agree(o.situation.clone(), per_seed)
        })
        .collect();
    Ok(SweepReplication { seeds: seeds.to_vec(), sweeps, cells })
}

/// The replicated verdicts as one sweep, for the heatmaps and the summary: the first seed's
/// outcomes with each class replaced by the replicated one (uncertain where it did not hold),
/// its config naming every seed; `None` without sweeps.
pub fn replicated_result(r: &SweepReplication) -> Option<SweepResult> {
    let first = r.sweeps.first()?;
    let config = replicated_config(r)?;
    let outcomes = first
        .outcomes
        .iter()
        .zip(&r.cells)
        .map(|(o, cell)| Outcome {
            best: cell.best,
            verdict: format!("{} (seed {}: {})", replicated_words(r, cell), first.config.seed, o.verdict),
            ..o.clone()
        })
        .collect();
    Some(SweepResult { config, outcomes })
}

/// The config of the replicated verdicts: the first seed's, naming every seed.
fn replicated_config(r: &SweepReplication) -> Option<SweepConfig> {
    r.sweeps.first().map(|first| SweepConfig { seeds: r.seeds.clone(), ..first.config.clone() })
}

/// A cell's replicated verdict in words.
fn replicated_words(r: &SweepReplication, cell: &Cell) -> String {
    let seeds = r.seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    match (&cell.option, cell.best) {
        (Some(option), best) if cell.held => format!("held at seeds {seeds}: {} ({option})", best.name()),
        (_, Best::None) => "nobody can react".to_string(),
        _ if cell.seeds.iter().all(|s| !s.settled()) => format!("uncertain at every one of seeds {seeds}"),
        _ => format!("not replicated: not settled on the same option at every one of seeds {seeds}"),
    }
}

fn paired(p: Option<Paired>) -> String {
    match p {
        Some(p) if p.samples > 0 => format!("{:+.3} [{:+.3}, {:+.3}]", p.mean, p.low, p.high),
        Some(p) => format!("{:+.3}", p.mean),
        None => "-".to_string(),
    }
}

/// How many cells held (by class), were uncertain at every seed, settled at some seed but not
/// replicated, and had nobody to react.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Totals {
    /// Held, by class name, in legend order.
    pub held: Vec<(String, usize)>,
    /// Uncertain at every seed.
    pub uncertain_everywhere: usize,
    /// Settled at one seed or more, but not on the same option at every seed.
    pub not_replicated: usize,
    /// Nobody can react.
    pub none: usize,
}

/// The totals of a replication.
pub fn totals(r: &SweepReplication) -> Totals {
    let mut t = Totals::default();
    for b in Best::ALL {
        let n = r.cells.iter().filter(|c| c.held && c.best == b).count();
        if n > 0 {
            t.held.push((b.name().to_string(), n));
        }
    }
    for c in r.cells.iter().filter(|c| !c.held) {
        if c.best == Best::None {
            t.none += 1;
        } else if c.seeds.iter().all(|s| !s.settled()) {
            t.uncertain_everywhere += 1;
        } else {
            t.not_replicated += 1;
        }
    }
    t
}

/// The replication as a markdown table: a row per situation, a column per seed (its class and
/// leaning, best option, the best minus holding and minus reacting at once with their
/// intervals, samples per option reached), the replicated verdict; then the totals.
pub fn render_replication(r: &SweepReplication) -> String {
    let mut out = String::new();
    if let Some(config) = replicated_config(r) {
        let _ = writeln!(out, "{}\n", sweep::heatmap_measure(&config));
    }
    out.push_str(
        "Each seed: class (leaning), best option; the best minus holding (or, when holding is best, holding \
         minus the best reaction) and minus reacting at once, with their intervals; samples per option \
         reached. Held: settled on the same option at every seed.\n\n",
    );
    let _ = write!(out, "| situation (template, action, reactor, cell, mover AP) |");
    for s in &r.seeds {
        let _ = write!(out, " seed {s} |");
    }
    let _ = writeln!(out, " replicated |");
    let _ = writeln!(out, "|---|{}---|", "---|".repeat(r.seeds.len()));
    for cell in &r.cells {
        let s = &cell.situation;
        let _ = write!(
            out,
            "| {} {} {} ({},{}) ap {} |",
            s.template, s.action, s.reactor, s.cell[0], s.cell[1], s.mover_ap
        );
        for v in &cell.seeds {
            let class = if v.best == v.leaning {
                v.best.name().to_string()
            } else {
                format!("{} ({})", v.best.name(), v.leaning.name())
            };
            let _ = write!(
                out,
                " {class}, {}; vs hold {}; vs once {}; n={} |",
                v.option.as_deref().unwrap_or("-"),
                paired(v.versus_hold),
                paired(v.over_at_once),
                v.samples
            );
        }
        let verdict = if cell.held {
            format!("**held: {}**", cell.best.name())
        } else if cell.best == Best::None {
            "none".to_string()
        } else if cell.seeds.iter().all(|v| !v.settled()) {
            "uncertain at every seed".to_string()
        } else {
            "**not replicated**".to_string()
        };
        let _ = writeln!(out, " {verdict} |");
    }
    let t = totals(r);
    let held: usize = t.held.iter().map(|(_, n)| n).sum();
    let _ = writeln!(
        out,
        "\nTotals: {held} held ({}), {} uncertain at every seed, {} settled at some seed but not replicated, {} with nobody to react.",
        if t.held.is_empty() {
            "none".to_string()
        } else {
            t.held.iter().map(|(b, n)| format!("{n} {b}")).collect::<Vec<_>>().join(", ")
        },
        t.uncertain_everywhere,
        t.not_replicated,
        t.none
    );
    out
}

/// The replication in long format: a line per situation and seed with that seed's class,
/// leaning, best option, samples and intervals, the cell's replicated class and whether it
/// held, and the run's judge and commit.
pub fn replication_csv(r: &SweepReplication, meta: &Meta) -> String {
    let mut out = String::from(
        "template,action,reactor_profile,cell_x,cell_y,mover_ap,reactor_ap,weapons,seed,class,leaning,best_option,best_point,samples,versus_hold,versus_hold_low,versus_hold_high,over_at_once,over_at_once_low,over_at_once_high,replicated_class,held,judge,commit\n",
    );
    let num = |p: Option<Paired>, f: fn(&Paired) -> f64| p.map_or(String::new(), |p| format!("{:.6}", f(&p)));
    for cell in &r.cells {
        let s = &cell.situation;
        for v in &cell.seeds {
            let fields = [
                field(&s.template),
                field(&s.action),
                field(&s.reactor),
                s.cell[0].to_string(),
                s.cell[1].to_string(),
                s.mover_ap.to_string(),
                s.reactor_ap.to_string(),
                field(&s.weapons),
                v.seed.to_string(),
                v.best.name().to_string(),
                v.leaning.name().to_string(),
                field(v.option.as_deref().unwrap_or("")),
                v.best_point.map_or(String::new(), |p| p.to_string()),
                v.samples.to_string(),
                num(v.versus_hold, |p| p.mean),
                num(v.versus_hold.filter(|p| p.samples > 0), |p| p.low),
                num(v.versus_hold.filter(|p| p.samples > 0), |p| p.high),
                num(v.over_at_once, |p| p.mean),
                num(v.over_at_once.filter(|p| p.samples > 0), |p| p.low),
                num(v.over_at_once.filter(|p| p.samples > 0), |p| p.high),
                cell.best.name().to_string(),
                cell.held.to_string(),
                field(&meta.judge),
                field(&meta.commit),
            ];
            let _ = writeln!(out, "{}", fields.join(","));
        }
    }
    out
}

/// Write a replication into `dir`: each seed's whole sweep in `seed-N/` (as
/// [`sweep::write_outputs`] writes one); in `dir` itself the replicated verdicts' heatmaps and
/// summary, `replication.md`, `replication.csv`, and `sweep.json.gz` (the replicated verdicts,
/// from which `--replot` redraws those heatmaps). `meta` names the first seed. Returns the files
/// written.
pub fn write_outputs(r: &SweepReplication, dir: &Path, meta: &Meta) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for (seed, s) in r.seeds.iter().zip(&r.sweeps) {
        let sub = dir.join(format!("seed-{seed}"));
        std::fs::create_dir_all(&sub).map_err(|e| format!("{}: {e}", sub.display()))?;
        files.extend(sweep::write_outputs(s, &sub, &Meta { seed: *seed, ..meta.clone() })?);
    }
    let replicated = replicated_result(r).ok_or("no sweeps to write")?;
    files.extend(sweep::write_figures(&replicated, dir)?);
    let md = dir.join("replication.md");
    engine::record::write_atomic(&md, render_replication(r).as_bytes()).map_err(err)?;
    files.push(md);
    let csv = dir.join("replication.csv");
    engine::record::write_atomic(&csv, replication_csv(r, meta).as_bytes()).map_err(err)?;
    files.push(csv);
    files.push(sweep::write_export(&Export { meta: meta.clone(), sweep: replicated }, dir)?);
    Ok(files)
}
