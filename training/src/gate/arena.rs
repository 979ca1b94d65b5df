//! The gate a candidate passes to be promoted, for every pipeline: an arena of the candidate,
//! the incumbent and the scripted player, every pair over the five scenarios with boards and
//! crews drawn per game and sides swapped on each draw.
//!
//! The candidate is promoted when
//! - against the incumbent, the lower end of the 95% interval of its score is above 50%
//!   ([`run`], a fixed number of games), or Wald's sequential test accepts that it is better
//!   ([`run_sequential`], the fast network's generations), and
//! - against `scripted` it is no worse than the incumbent: its score there is not below the
//!   incumbent's by more than 1.96 standard errors of the difference.
//!
//! The arena runs in a folder of its own, so a gate stopped part-way resumes where it was.

use crate::gate::sprt::{Decision, Sprt};
use eval::games::drowned_earth::TdeMatch;
use eval::lineup::Pool;
use eval::results::{PairRow, Results};
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

/// Whether the candidate's score against `scripted` is not below the incumbent's by more
/// than 1.96 standard errors of the difference.
pub fn no_worse_against_scripted(cand: &PairFigures, inc: &PairFigures) -> bool {
    let se = (cand.se * cand.se + inc.se * inc.se).sqrt();
    cand.score - inc.score >= -1.96 * se
}

/// Decide a gate from its figures (see the module's doc).
pub fn decide(vs_incumbent: &PairFigures, cand: &PairFigures, inc: &PairFigures) -> (bool, String) {
    let beats = vs_incumbent.ci95[0] > 0.5;
    let diff = cand.score - inc.score;
    let se = (cand.se * cand.se + inc.se * inc.se).sqrt();
    let no_worse = no_worse_against_scripted(cand, inc);
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
    gate_of(&results, &cand, &inc, "scripted")
}

/// A sequential gate: Wald's test ([`Sprt`]) of the candidate's score against the incumbent,
/// looked at every `look_games` games of each pair, stopped at `max_games`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SequentialGate {
    /// The test (H0: score `p0`, H1: `p1`, error rates α and β).
    pub sprt: Sprt,
    /// Games per pair between two looks (rounded up to a multiple of ten: every scenario,
    /// both sides).
    pub look_games: u32,
    /// The most games per pair; an undecided test then keeps the incumbent.
    pub max_games: u32,
}

/// One look of a sequential gate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Look {
    /// Games between candidate and incumbent so far.
    pub games: u32,
    /// The candidate's score in them.
    pub score: f64,
    /// The log-likelihood ratio of H1 over H0.
    pub llr: f64,
}

/// The looks of a gate under way (`looks.json` in its arena folder).
#[derive(Serialize, Deserialize)]
struct SavedLooks {
    /// Games per pair and scenario at the last look.
    per_scenario: u32,
    /// Every look so far.
    looks: Vec<Look>,
}

/// A sequential gate's outcome: the last look's figures and decision, and every look.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SequentialResult {
    /// The figures at the last look; `promoted` is the gate's decision.
    pub gate: GateResult,
    /// The test's settings.
    pub settings: SequentialGate,
    /// Every look, in order.
    pub looks: Vec<Look>,
    /// What the test said at the last look: `promote`, `keep` or `undecided` (stopped at
    /// `max_games`).
    pub test: String,
}

/// Run a sequential gate between two agent specs in the arena folder `dir` (every pair of
/// candidate, incumbent and `scripted`, boards and crews drawn per game, sides swapped):
/// after each look Wald's test decides on the candidate against the incumbent. Promoted
/// when the test accepts H1 and the candidate is no worse against `scripted` (see
/// [`decide`]). Wald's bounds hold at every look, so looking often does not inflate the
/// error rates (looking less often than every game only makes the test a little more
/// conservative). A gate stopped part-way resumes from its folder.
pub fn run_sequential(
    candidate: &str,
    incumbent: &str,
    gate: &SequentialGate,
    seed: u64,
    threads: usize,
    dir: &Path,
    progress: bool,
) -> Result<SequentialResult, String> {
    gate.sprt.check().map_err(|(field, why)| format!("gate: {field}: {why}"))?;
    if gate.look_games == 0 || gate.max_games < gate.look_games {
        return Err(format!(
            "gate: {} games a look and at most {}: a look needs games, and the most at least one look",
            gate.look_games, gate.max_games
        ));
    }
    let scenarios = engine::scenario::Scenario::ALL.len() as u32;
    let all = vec!["all".to_string()];
    let maker = TdeMatch::with_pools(Pool::Drawn(all.clone()), Pool::Drawn(all), "standard", 0, 0)?
        .with_factory(crate::play::make_agent);
    // The scripted player is the third agent, entered under another name when it is one of
    // the two.
    let scripted =
        if [candidate, incumbent].contains(&"scripted") { "scripted#reference" } else { "scripted" };
    let agents = vec![candidate.to_string(), incumbent.to_string(), scripted.to_string()];
    let step = gate.look_games.div_ceil(2 * scenarios) * 2;
    let most = gate.max_games.div_ceil(2 * scenarios) * 2;
    // The looks so far, kept beside the arena so that a gate stopped part-way goes on
    // from its last look (taken again: the arena then plays no new game for it).
    let looks_file = dir.join("looks.json");
    let (mut per_scenario, mut looks): (u32, Vec<Look>) = match std::fs::read_to_string(&looks_file) {
        Ok(text) => {
            let saved: SavedLooks =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", looks_file.display()))?;
            let mut looks = saved.looks;
            looks.pop();
            (saved.per_scenario.saturating_sub(step), looks)
        }
        Err(_) => (0, Vec::new()),
    };
    loop {
        per_scenario = (per_scenario + step).min(most);
        let settings = ArenaSettings::new(&maker, &agents, &["all".to_string()], per_scenario, seed)?;
        let options = ArenaOptions { threads, out: Some(dir.to_path_buf()), records: false, progress };
        let results = arena::run(&maker, &settings, &options)?;
        let mut figures = gate_of(&results, candidate, incumbent, scripted)?;
        let vs = &figures.vs_incumbent;
        let points = vs.score * vs.games as f64;
        looks.push(Look { games: vs.games, score: vs.score, llr: gate.sprt.llr(points, vs.games as f64) });
        let saved = SavedLooks { per_scenario, looks: looks.clone() };
        let text = serde_json::to_string_pretty(&saved).map_err(|e| e.to_string())?;
        fastnet::write_atomically(&looks_file, text.as_bytes())?;
        let test = match gate.sprt.decide(points, vs.games as f64) {
            Decision::Promote => "promote",
            Decision::Keep => "keep",
            Decision::Continue if per_scenario >= most => "undecided",
            Decision::Continue => continue,
        };
        let no_worse =
            no_worse_against_scripted(&figures.candidate_vs_scripted, &figures.incumbent_vs_scripted);
        figures.promoted = test == "promote" && no_worse;
        let (low, high) = gate.sprt.bounds();
        let last = looks.last().expect("a look");
        figures.reason = format!(
            "{}: {test} after {} looks, the candidate scoring {:.1}% ({:.1}-{:.1}%) over {} games against the incumbent \
             (H0 {:.0}%, H1 {:.1}%, α {} β {}: log-likelihood ratio {:.2} against bounds {:.2} and {:.2}); against scripted \
             {:.1}% vs the incumbent's {:.1}%: {}",
            if figures.promoted { "promoted" } else { "not promoted" },
            looks.len(),
            100.0 * last.score,
            100.0 * figures.vs_incumbent.ci95[0],
            100.0 * figures.vs_incumbent.ci95[1],
            last.games,
            100.0 * gate.sprt.p0,
            100.0 * gate.sprt.p1,
            gate.sprt.alpha,
            gate.sprt.beta,
            last.llr,
            low,
            high,
            100.0 * figures.candidate_vs_scripted.score,
            100.0 * figures.incumbent_vs_scripted.score,
            if no_worse { "no worse" } else { "worse" },
        );
        return Ok(SequentialResult { gate: figures, settings: *gate, looks, test: test.to_string() });
    }
}

/// The gate's figures and decision from an arena's results; `scripted` names the scripted
/// player in the arena.
pub fn gate_of(results: &Results, cand: &str, inc: &str, scripted: &str) -> Result<GateResult, String> {
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
    let candidate_vs_scripted = pair(cand, scripted)?;
    let incumbent_vs_scripted = pair(inc, scripted)?;
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
