//! The gate a fitted generation passes to be promoted: an arena of the candidate, the
//! incumbent and the scripted player, every pair over the five scenarios with boards and crews
//! drawn per game and sides swapped on each draw.
//!
//! The candidate is promoted when
//! - against the incumbent, the lower end of the 95% interval of its score is above 50%, and
//! - against `scripted` it is no worse than the incumbent: its score there is not below the
//!   incumbent's by more than 1.96 standard errors of the difference.
//!
//! The arena runs in a folder of its own, so a gate stopped part-way resumes where it was.

use eval::lineup::Pool;
use eval::results::{PairRow, Results};
use eval::tde_match::TdeMatch;
use eval::{arena, ArenaOptions, ArenaSettings};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A pair's figures in a gate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairFigures {
    /// Games played.
    pub games: u32,
    /// The first agent's score (draws ½).
    pub score: f64,
    /// Its 95% interval.
    pub ci95: [f64; 2],
    /// Standard error of the score.
    pub se: f64,
}

impl PairFigures {
    fn of(row: &PairRow, flip: bool) -> PairFigures {
        let n = row.games.max(1) as f64;
        let wins = if flip { row.wins_b } else { row.wins_a };
        let score = (wins as f64 + 0.5 * row.draws as f64) / n;
        // Per-game score variance from the wins, draws and losses.
        let second = (wins as f64 + 0.25 * row.draws as f64) / n;
        let se = ((second - score * score).max(0.0) / n).sqrt();
        let ci95 =
            if flip { [1.0 - row.score_a_ci95[1], 1.0 - row.score_a_ci95[0]] } else { row.score_a_ci95 };
        PairFigures { games: row.games, score, ci95, se }
    }
}

/// A gate's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateResult {
    /// The candidate's spec.
    pub candidate: String,
    /// The incumbent's spec.
    pub incumbent: String,
    /// Candidate against incumbent.
    pub vs_incumbent: PairFigures,
    /// Candidate against `scripted`.
    pub candidate_vs_scripted: PairFigures,
    /// Incumbent against `scripted`.
    pub incumbent_vs_scripted: PairFigures,
    /// Whether the candidate is promoted.
    pub promoted: bool,
    /// Why (or why not), in words.
    pub reason: String,
}

/// Decide a gate from its figures (see the module's doc).
pub fn decide(vs_incumbent: &PairFigures, cand: &PairFigures, inc: &PairFigures) -> (bool, String) {
    let beats = vs_incumbent.ci95[0] > 0.5;
    let diff = cand.score - inc.score;
    let se = (cand.se * cand.se + inc.se * inc.se).sqrt();
    let no_worse = diff >= -1.96 * se;
    let reason = format!(
        "against the incumbent {:.1}% ({:.1}-{:.1}%, {} games): {}; against scripted {:.1}% vs the incumbent's {:.1}% (difference {:+.1} ± {:.1} points): {}",
        100.0 * vs_incumbent.score,
        100.0 * vs_incumbent.ci95[0],
        100.0 * vs_incumbent.ci95[1],
        vs_incumbent.games,
        if beats { "the interval is above 50%" } else { "the interval reaches 50%" },
        100.0 * cand.score,
        100.0 * inc.score,
        100.0 * diff,
        196.0 * se,
        if no_worse { "no worse" } else { "worse" },
    );
    (beats && no_worse, reason)
}

/// Run the gate between `candidate` and `incumbent` (generation files) with `games` games per
/// pair, in the arena folder `dir` (resumed when it holds part of the same gate).
pub fn run(
    candidate: &Path,
    incumbent: &Path,
    games: u32,
    seed: u64,
    threads: usize,
    dir: &Path,
) -> Result<GateResult, String> {
    let all = vec!["all".to_string()];
    let maker = TdeMatch::with_pools(Pool::Drawn(all.clone()), Pool::Drawn(all), "standard", 0, 0)?
        .with_factory(crate::play::make_agent);
    let cand = format!("learned:gen={}", candidate.display());
    let inc = format!("learned:gen={}", incumbent.display());
    let agents = vec![cand.clone(), inc.clone(), "scripted".to_string()];
    let per_scenario = games.div_ceil(engine::scenario::Scenario::ALL.len() as u32);
    let settings = ArenaSettings::new(&maker, &agents, &["all".to_string()], per_scenario, seed)?;
    let options = ArenaOptions { threads, out: Some(dir.to_path_buf()), records: false, progress: true };
    let results = arena::run(&maker, &settings, &options)?;
    gate_of(&results, &cand, &inc)
}

/// The gate's figures and decision from an arena's results.
pub fn gate_of(results: &Results, cand: &str, inc: &str) -> Result<GateResult, String> {
    let pair = |a: &str, b: &str| -> Result<PairFigures, String> {
        results
            .pairs
            .iter()
            .find_map(|p| {
                if p.a == a && p.b == b {
                    Some(PairFigures::of(p, false))
                } else if p.a == b && p.b == a {
                    Some(PairFigures::of(p, true))
                } else {
                    None
                }
            })
            .ok_or_else(|| format!("the gate's arena has no pair {a} / {b}"))
    };
    let vs_incumbent = pair(cand, inc)?;
    let candidate_vs_scripted = pair(cand, "scripted")?;
    let incumbent_vs_scripted = pair(inc, "scripted")?;
    let (promoted, reason) = decide(&vs_incumbent, &candidate_vs_scripted, &incumbent_vs_scripted);
    Ok(GateResult {
        candidate: cand.to_string(),
        incumbent: inc.to_string(),
        vs_incumbent,
        candidate_vs_scripted,
        incumbent_vs_scripted,
        promoted,
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(score: f64, lo: f64, se: f64) -> PairFigures {
        PairFigures { games: 10_000, score, ci95: [lo, score + (score - lo)], se }
    }

    #[test]
    fn promotion_needs_both_conditions() {
        let (ok, why) =
            decide(&figures(0.53, 0.52, 0.005), &figures(0.60, 0.59, 0.005), &figures(0.59, 0.58, 0.005));
        assert!(ok, "{why}");
        assert!(
            !decide(&figures(0.505, 0.495, 0.005), &figures(0.6, 0.59, 0.005), &figures(0.6, 0.59, 0.005)).0
        );
        let (ok, why) =
            decide(&figures(0.53, 0.52, 0.005), &figures(0.55, 0.54, 0.005), &figures(0.60, 0.59, 0.005));
        assert!(!ok && why.contains("worse"), "{why}");
    }
}
