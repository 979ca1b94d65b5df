//! A verdict replicated at independent seeds: the same study (situation, judge, samples, rule)
//! at each seed, whose dice and agent seeds share nothing, and a verdict that is settled only
//! when every seed's study is settled on the same best option against the same options. Each
//! seed's intervals are kept and shown side by side.

use crate::beyond::{AgentFactory, Sampling};
use crate::exact::StudyError;
use crate::timing::{study, Study, StudyOptions};
use engine::GameState;
use serde::Serialize;
use std::fmt::Write;

/// The same study at several seeds.
#[derive(Clone, Debug, Serialize)]
pub struct Replication {
    /// The seeds, in order.
    pub seeds: Vec<u64>,
    /// Each seed's study, in the order of `seeds`.
    pub studies: Vec<Study>,
    /// Whether every seed's study is settled with the same best option and comparisons.
    pub held: bool,
    /// The replicated verdict in words.
    pub verdict: String,
}

/// Study `state` at each of `seeds` (the rest of `sampling` the same) and say whether the
/// verdict held at all of them.
pub fn replicate(
    state: &GameState,
    situation: &str,
    sampling: &Sampling,
    factory: &AgentFactory,
    options: &StudyOptions,
    seeds: &[u64],
) -> Result<Replication, StudyError> {
    let mut studies = Vec::with_capacity(seeds.len());
    for &seed in seeds {
        let at = Sampling { seed, ..sampling.clone() };
        studies.push(study(state, situation, Some((&at, factory)), options)?);
    }
    let held = agree(&studies);
    let verdict = match (&studies.first(), held) {
        (Some(first), true) => format!(
            "held at seeds {}: {}",
            list(seeds),
            first.verdict.split(" [measure").next().unwrap_or(&first.verdict)
        ),
        (Some(_), false) => {
            format!("not replicated: not settled on the same option at every one of seeds {}", list(seeds))
        }
        (None, _) => "no seeds".to_string(),
    };
    Ok(Replication { seeds: seeds.to_vec(), studies, held, verdict })
}

/// Whether every study is settled, on the same best option, against the same options.
pub fn agree(studies: &[Study]) -> bool {
    let Some(first) = studies.first() else { return false };
    let labels = |s: &Study| s.comparisons.iter().map(|c| c.label.clone()).collect::<Vec<_>>();
    studies.iter().all(|s| s.settled && s.best == first.best && labels(s) == labels(first))
}

fn list(seeds: &[u64]) -> String {
    seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

/// The replication as a table: one line per seed with its best option, samples reached, each
/// comparison's difference and interval, and whether it is settled; then the verdict.
pub fn render_replication(r: &Replication) -> String {
    let mut out = String::from(
        "\nreplication (each seed's study on its own; held: settled on the same option at every seed):\n",
    );
    let _ = writeln!(
        out,
        "{:>6} {:>8}  {:<44} {:<8} comparisons (best minus it)",
        "seed", "samples", "best", "settled"
    );
    for (seed, s) in r.seeds.iter().zip(&r.studies) {
        let best = match s.best {
            Some(Some(b)) => {
                let row = &s.exact.rows[b];
                format!("{} {} at point {}", row.reactor_name, row.kind, row.point)
            }
            Some(None) => "hold the AP".to_string(),
            None => "-".to_string(),
        };
        let comparisons: Vec<String> = s
            .comparisons
            .iter()
            .map(|c| format!("{}: {:+.3} [{:+.3}, {:+.3}]", c.label, c.diff.mean, c.diff.low, c.diff.high))
            .collect();
        let _ = writeln!(
            out,
            "{seed:>6} {:>8}  {:<44} {:<8} {}",
            s.hold_beyond.as_ref().map_or(0, |h| h.samples),
            best,
            if s.settled { "yes" } else { "no" },
            comparisons.join("; ")
        );
    }
    if let Some(plan) = r.studies.first().and_then(|s| s.plan.as_ref()) {
        let _ = writeln!(out, "intervals: {}", plan.describe());
    }
    let _ = writeln!(out, "replicated verdict: {}", r.verdict);
    out
}
