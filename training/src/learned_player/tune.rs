//! Self-play search for the next generation by its games' results: simultaneous-perturbation
//! stochastic approximation (SPSA, the method chess engines such as Stockfish tune their
//! evaluation with by self-play games) over one log-multiplier per term of the incumbent's
//! weights, shared by every scenario and phase, and optionally one more per scenario and one
//! more per phase of the game (early, mid, late), and optionally the parameters of a standing
//! model ([`agents::learned::standing`]: the term weights scaled by how the deciding side
//! stands), added to the incumbent's (or to a neutral model's, which changes nothing).
//!
//! At iteration `i` every multiplier is moved by ±cᵢ at once (a random sign each), giving two
//! players θ⁺ and θ⁻; they play [`TuneConfig::games`] games against each other, in pairs that
//! share the scenario, board, crews and dice with the sides swapped. The difference of their
//! scores `d = s⁺ − s⁻` estimates the slope of the score along the signs, so each multiplier
//! moves by `aᵢ · d · Δₖ / (2cᵢ)`; a scenario's own multipliers see only that scenario's
//! games, a phase's own all games (every game has all three phases). Step and perturbation shrink as the standard gains do (aᵢ = a / (i + 1 + A)^0.602,
//! cᵢ = c / (i + 1)^0.101). The candidate is the average of the multipliers over the second half
//! of the iterations (Polyak–Ruppert), which cancels much of the last steps' noise.
//!
//! The rollout labels ([`super::labels`]) judge single decisions; this judges whole games, which
//! with a few dozen parameters and cheap games is the more direct signal. The gate
//! ([`super::gate`]) decides either way.
//!
//! The search writes its state after every iteration (`tune-state.json` in its folder), so a
//! run stopped at any moment resumes where it was, and gives the same result as one that was not.

use super::games::{mix, Games};
use agents::learned::generation::{Generation, BLOCKS, MAX_WEIGHT, PHASES, SCENARIOS};
use agents::learned::standing::{StandingModel, MAX_HIDDEN};
use agents::scripted::terms::{Term, TERMS};
use agents::{Agent, LearnedAgent};
use engine::GameState;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Largest multiplier's logarithm (a weight moves at most e³ ≈ 20-fold either way).
const MAX_LOG: f64 = 3.0;

/// How the search runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    /// Iterations.
    pub iterations: u32,
    /// Games per iteration (rounded up to whole pairs).
    pub games: u32,
    /// Perturbation c, in log units (0.2 moves every weight by about 20%).
    pub perturbation: f64,
    /// Step a.
    pub step: f64,
    /// Also a multiplier per scenario and term.
    pub per_scenario: bool,
    /// Also a multiplier per phase of the game and term.
    #[serde(default)]
    pub per_phase: bool,
    /// The terms searched, by name (empty: every term the incumbent uses or the search brings
    /// in); the others keep the incumbent's weights.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terms: Vec<String>,
    /// Also the parameters of a standing model with this many hidden units (0: linear in the
    /// standing features).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standing: Option<usize>,
    /// Terms the search brings in, by name, with the weight each starts from wherever the
    /// incumbent weighs it 0 (an added term the incumbent never used, see
    /// [`Term::is_added`]); a weight of 0 no multiplier could move.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub introduce: BTreeMap<String, f64>,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            iterations: 200,
            games: 400,
            perturbation: 0.25,
            step: 0.5,
            per_scenario: false,
            per_phase: false,
            terms: Vec::new(),
            standing: None,
            introduce: BTreeMap::new(),
        }
    }
}

impl TuneConfig {
    /// Refuse settings the search cannot run with, naming the setting as `tde learn` spells it
    /// (without its `--`).
    pub fn check(&self) -> Result<(), String> {
        if self.iterations < 2 {
            return Err(format!("tune-iterations {} must be at least 2", self.iterations));
        }
        if self.games < 2 {
            return Err(format!("tune-games {} (per iteration) must be at least 2", self.games));
        }
        if !(self.perturbation > 0.0 && self.perturbation <= 1.0) {
            return Err(format!("tune-perturbation {} is not in (0, 1]", self.perturbation));
        }
        if !(self.step > 0.0 && self.step <= 100.0) {
            return Err(format!("tune-step {} is not in (0, 100]", self.step));
        }
        if let Some(h) = self.standing.filter(|&h| h > MAX_HIDDEN) {
            return Err(format!("tune-standing {h} (hidden units) is more than {MAX_HIDDEN}"));
        }
        let unknown = |setting: &str, name: &str| {
            let names: Vec<&str> = Term::ALL.iter().map(|t| t.name()).collect();
            format!("{setting}: no term `{name}` (the terms: {})", names.join(", "))
        };
        if let Some(bad) = self.terms.iter().find(|t| Term::from_name(t).is_none()) {
            return Err(unknown("tune-terms", bad));
        }
        for (name, &w) in &self.introduce {
            if Term::from_name(name).is_none() {
                return Err(unknown("tune-introduce", name));
            }
            if !(w.is_finite() && w != 0.0 && w.abs() <= MAX_WEIGHT) {
                return Err(format!("tune-introduce: {name}={w}: the starting weight must be a number other than 0 within ±{MAX_WEIGHT}"));
            }
        }
        Ok(())
    }

    /// The starting weight of each term the search brings in ([`Term::ALL`] order).
    fn introduced(&self) -> [Option<f64>; TERMS] {
        let mut out = [None; TERMS];
        for (name, &w) in &self.introduce {
            if let Some(t) = Term::from_name(name) {
                out[t as usize] = Some(w);
            }
        }
        out
    }

    /// Whether term `k` ([`Term::ALL`] order) is searched.
    fn searches(&self, k: usize) -> bool {
        self.terms.is_empty() || self.terms.iter().any(|t| t == Term::ALL[k].name())
    }

    fn pairs(&self) -> u32 {
        self.games.div_ceil(2)
    }
}

/// The search's state between iterations (`tune-state.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    /// The settings it runs with (a resumed search must be given the same).
    pub config: TuneConfig,
    /// Its seed.
    pub seed: u64,
    /// Iterations done.
    pub done: u32,
    /// The log-multipliers: the shared ones, then (with `per_scenario`) each scenario's in
    /// [`SCENARIOS`] order, then (with `per_phase`) each phase's in [`PHASES`] order, then
    /// (with `standing`) the change of each standing-model parameter.
    pub log: Vec<f64>,
    /// Sum of the log-multipliers over the averaged iterations.
    pub sum: Vec<f64>,
    /// Iterations summed.
    pub summed: u32,
    /// Each iteration's score difference d = s⁺ − s⁻.
    pub differences: Vec<f64>,
    /// Games played.
    pub games: u64,
    /// Seconds spent playing them.
    pub seconds: f64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneReport {
    /// Its settings.
    pub config: TuneConfig,
    /// Games played.
    pub games: u64,
    /// Games per hour while it played.
    pub games_per_hour: f64,
    /// The shared multiplier of each term (the candidate's weights are the incumbent's times
    /// these, and times the scenario's own where there are).
    pub multipliers: BTreeMap<String, f64>,
    /// Each scenario's own multipliers, when searched.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub scenario_multipliers: BTreeMap<String, BTreeMap<String, f64>>,
    /// Each phase's own multipliers, when searched.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub phase_multipliers: BTreeMap<String, BTreeMap<String, f64>>,
    /// The change found for each standing-model parameter, when searched (as
    /// [`StandingModel::params`] lays them out; the candidate's file holds the model).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standing: Vec<f64>,
    /// Mean |d| over the first and the last quarter of the iterations: how far apart the two
    /// perturbed players played.
    pub mean_abs_difference: [f64; 2],
}

/// Where each group of multipliers starts in the log vector: the shared ones at 0, then
/// (when searched) each scenario's in [`SCENARIOS`] order, then each phase's in [`PHASES`]
/// order; and the vector's length.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    scenarios: Option<usize>,
    phases: Option<usize>,
    standing: Option<usize>,
    len: usize,
}

impl Layout {
    fn of(config: &TuneConfig) -> Layout {
        let mut len = TERMS;
        let scenarios = config.per_scenario.then(|| {
            len += TERMS * SCENARIOS.len();
            len - TERMS * SCENARIOS.len()
        });
        let phases = config.per_phase.then(|| {
            len += TERMS * PHASES.len();
            len - TERMS * PHASES.len()
        });
        let standing = config.standing.map(|h| {
            len += StandingModel::param_count(h);
            len - StandingModel::param_count(h)
        });
        Layout { scenarios, phases, standing, len }
    }

    /// The group (0: shared, 1 + s: scenario s, `None`: a phase's or the standing model's) log
    /// index `j` belongs to.
    fn scenario_group(&self, j: usize) -> Option<usize> {
        if self.standing.is_some_and(|t| j >= t) {
            return None;
        }
        match (self.scenarios, self.phases) {
            (_, Some(p)) if j >= p => None,
            (Some(s), _) if j >= s => Some(1 + (j - s) / TERMS),
            _ => Some(0),
        }
    }
}

/// The standing model a search with `hidden` units starts from: the incumbent's, or a neutral
/// one (which plays as the incumbent does); an error when the incumbent's has another size.
pub fn starting_standing(incumbent: &Generation, hidden: usize) -> Result<StandingModel, String> {
    match &incumbent.standing {
        Some(m) if m.hidden == hidden => Ok(m.clone()),
        Some(m) => Err(format!(
            "tune-standing {hidden}: the incumbent's standing model has {} hidden units; search it with those",
            m.hidden
        )),
        None => Ok(StandingModel::neutral(hidden, 0x57a4_d1e6)),
    }
}

/// Which terms ([`Term::ALL`] order) the search moves: those `config` names (every term by
/// default), less any the incumbent weighs 0 in every block and the search does not bring in
/// (an added term left out), whose multiplier could change nothing.
fn searched_terms(config: &TuneConfig, incumbent: &Generation) -> [bool; TERMS] {
    let introduced = config.introduced();
    let mut out = [false; TERMS];
    for (k, searched) in out.iter_mut().enumerate() {
        let inert = introduced[k].is_none() && incumbent.blocks.iter().all(|b| b.0[k] == 0.0);
        *searched = config.searches(k) && !inert;
    }
    out
}

/// The generation whose weights are `incumbent`'s times e^`log` (see [`TuneState::log`]),
/// each weight kept within ±[`MAX_WEIGHT`], and (with `standing`) whose standing model is the
/// starting one's ([`starting_standing`]) plus its part of `log`.
pub fn apply(incumbent: &Generation, log: &[f64], config: &TuneConfig) -> Generation {
    let layout = Layout::of(config);
    let introduced = config.introduced();
    let mut flat = incumbent.flat();
    for b in 0..BLOCKS {
        let scenario = b / PHASES.len();
        let phase = b % PHASES.len();
        for k in 0..TERMS {
            let mut l = log[k];
            if let Some(s) = layout.scenarios {
                l += log[s + TERMS * scenario + k];
            }
            if let Some(p) = layout.phases {
                l += log[p + TERMS * phase + k];
            }
            let w = &mut flat[b * TERMS + k];
            if *w == 0.0 {
                *w = introduced[k].unwrap_or(0.0);
            }
            *w = (*w * l.exp()).clamp(-MAX_WEIGHT, MAX_WEIGHT);
        }
    }
    let mut next = Generation::from_flat(incumbent.generation + 1, None, String::new(), &flat);
    next.standing = incumbent.standing.clone();
    if let (Some(offset), Some(hidden)) = (layout.standing, config.standing) {
        // `tune` checks the sizes agree before it plays; a neutral model where they do not.
        let start =
            starting_standing(incumbent, hidden).unwrap_or_else(|_| StandingModel::neutral(hidden, 0));
        let params: Vec<f64> = start.params().iter().zip(&log[offset..]).map(|(p, d)| p + d).collect();
        next.standing = Some(StandingModel::from_params(hidden, &params));
    }
    next
}

fn read_state(path: &Path) -> Result<TuneState, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Run (or resume, from `dir/tune-state.json`) the search from `incumbent`; returns the
/// candidate generation and the report. `games` draws each game's scenario, board and crews.
pub fn tune(
    games: &Games,
    config: &TuneConfig,
    seed: u64,
    dir: &Path,
    progress: bool,
) -> Result<(Generation, TuneReport), String> {
    config.check()?;
    if let Some(hidden) = config.standing {
        starting_standing(&games.incumbent, hidden)?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let state_file = dir.join("tune-state.json");
    let layout = Layout::of(config);
    let n = layout.len;
    let mut state = if state_file.exists() {
        let s = read_state(&state_file)?;
        if s.config != *config || s.seed != seed || s.log.len() != n {
            return Err(format!(
                "{}: a search with other settings is stored there; use another run folder",
                state_file.display()
            ));
        }
        s
    } else {
        TuneState {
            config: config.clone(),
            seed,
            done: 0,
            log: vec![0.0; n],
            sum: vec![0.0; n],
            summed: 0,
            differences: Vec::new(),
            games: 0,
            seconds: 0.0,
        }
    };
    let incumbent = &games.incumbent;
    let bar = crate::progress_bar(progress, config.iterations as u64, "search");
    bar.set_position(state.done as u64);
    let big_a = config.iterations as f64 / 10.0;
    let searched = searched_terms(config, incumbent);
    while state.done < config.iterations {
        let i = state.done;
        let a = config.step / (i as f64 + 1.0 + big_a).powf(0.602);
        let c = config.perturbation / (i as f64 + 1.0).powf(0.101);
        let mut rng = ChaCha8Rng::seed_from_u64(mix(seed ^ mix(i as u64 + 1)));
        let signs: Vec<f64> = (0..n)
            .map(|j| {
                let sign = if rng.gen::<bool>() { 1.0 } else { -1.0 };
                if layout.standing.is_some_and(|t| j >= t) || searched[j % TERMS] {
                    sign
                } else {
                    0.0
                }
            })
            .collect();
        let moved = |sign: f64| -> Vec<f64> {
            state.log.iter().zip(&signs).map(|(l, d)| (l + sign * c * d).clamp(-MAX_LOG, MAX_LOG)).collect()
        };
        let plus = Arc::new(apply(incumbent, &moved(1.0), config));
        let minus = Arc::new(apply(incumbent, &moved(-1.0), config));
        let start = Instant::now();
        let results: Vec<Result<(usize, f64), String>> = (0..config.pairs())
            .into_par_iter()
            .map(|p| {
                let g = mix(seed.wrapping_add(0x7e5e)) ^ (((i as u64) << 24) | p as u64);
                duel_pair(games, g, &plus, &minus)
            })
            .collect();
        state.seconds += start.elapsed().as_secs_f64();
        // Score difference overall and per scenario (each pair's two games).
        let mut total = 0.0;
        let mut per = vec![(0.0, 0u32); SCENARIOS.len()];
        for r in results {
            let (scenario, diff) = r?;
            total += diff;
            per[scenario].0 += diff;
            per[scenario].1 += 1;
        }
        let d = total / config.pairs() as f64;
        state.games += 2 * config.pairs() as u64;
        // The shared and the phases' multipliers follow every game; a scenario's own, its
        // games only.
        for (j, (l, sign)) in state.log.iter_mut().zip(&signs).enumerate() {
            let slope = match layout.scenario_group(j) {
                None | Some(0) => d,
                Some(s) => match per[s - 1] {
                    (_, 0) => 0.0,
                    (sum, count) => sum / count as f64,
                },
            };
            *l = (*l + a * slope * sign / (2.0 * c)).clamp(-MAX_LOG, MAX_LOG);
        }
        state.differences.push(d);
        state.done += 1;
        if state.done > config.iterations / 2 {
            for (s, l) in state.sum.iter_mut().zip(&state.log) {
                *s += l;
            }
            state.summed += 1;
        }
        super::write_atomic(&state_file, &serde_json::to_string(&state).expect("state serialises"))?;
        bar.inc(1);
        bar.set_message(format!("d {d:+.3}"));
    }
    bar.finish_and_clear();
    let average: Vec<f64> = state.sum.iter().map(|s| s / state.summed.max(1) as f64).collect();
    let candidate = apply(incumbent, &average, config);
    Ok((candidate, report(&state, &average)))
}

fn report(state: &TuneState, average: &[f64]) -> TuneReport {
    let named = |offset: usize| -> BTreeMap<String, f64> {
        Term::ALL.iter().map(|t| (t.name().to_string(), average[offset + *t as usize].exp())).collect()
    };
    let layout = Layout::of(&state.config);
    let mut scenario_multipliers = BTreeMap::new();
    if let Some(offset) = layout.scenarios {
        for (s, scenario) in SCENARIOS.iter().enumerate() {
            scenario_multipliers.insert(scenario.name().to_string(), named(offset + TERMS * s));
        }
    }
    let mut phase_multipliers = BTreeMap::new();
    if let Some(offset) = layout.phases {
        for (p, phase) in PHASES.iter().enumerate() {
            phase_multipliers.insert(phase.to_string(), named(offset + TERMS * p));
        }
    }
    let standing = match layout.standing {
        Some(offset) => average[offset..].to_vec(),
        None => Vec::new(),
    };
    let q = (state.differences.len() / 4).max(1);
    let mean_abs = |d: &[f64]| d.iter().map(|x| x.abs()).sum::<f64>() / d.len().max(1) as f64;
    let n = state.differences.len();
    TuneReport {
        config: state.config.clone(),
        games: state.games,
        games_per_hour: state.games as f64 / (state.seconds / 3600.0).max(1e-9),
        multipliers: named(0),
        scenario_multipliers,
        phase_multipliers,
        standing,
        mean_abs_difference: [
            mean_abs(&state.differences[..q.min(n)]),
            mean_abs(&state.differences[n - q.min(n)..]),
        ],
    }
}

/// Game `g` twice, `plus` on side A then on side B (same scenario, board, crews and dice):
/// the game's scenario block and `plus`'s score less `minus`'s over the two, in [-1, 1].
fn duel_pair(
    games: &Games,
    g: u64,
    plus: &Arc<Generation>,
    minus: &Arc<Generation>,
) -> Result<(usize, f64), String> {
    let mut diff = 0.0;
    let mut scenario = 0;
    for plus_side in 0..2u8 {
        let start = games.start(g)?;
        scenario = SCENARIOS.iter().position(|&s| s == start.static_data().scenario).unwrap_or(0);
        let seed = mix(g ^ 0x5eed);
        let a: Box<dyn Agent<GameState>> = Box::new(LearnedAgent::new(plus.clone(), 0.0, "plus", seed));
        let b: Box<dyn Agent<GameState>> = Box::new(LearnedAgent::new(minus.clone(), 0.0, "minus", seed ^ 1));
        let mut players = if plus_side == 0 { vec![a, b] } else { vec![b, a] };
        let end = agents::play_game(start, &mut players, mix(g ^ 0xd1ce), |_, _| {});
        let r = end.returns();
        // Returns are ±1 (0 for a draw): half their difference is the score difference.
        diff += 0.5 * (r[plus_side as usize] - r[1 - plus_side as usize]) / 2.0;
    }
    Ok((scenario, diff))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multipliers_scale_the_incumbents_weights_by_block() {
        let inc = Generation::scripted();
        let config = TuneConfig { per_scenario: true, ..TuneConfig::default() };
        let mut log = vec![0.0; Layout::of(&config).len];
        log[Term::Risk as usize] = 2f64.ln();
        log[TERMS * 2 + Term::Cover as usize] = 0.5f64.ln(); // second scenario's own
        let g = apply(&inc, &log, &config);
        assert_eq!(g.generation, 1);
        for b in 0..BLOCKS {
            let w = g.blocks[b];
            assert!((w.get(Term::Risk) - 2.0).abs() < 1e-12);
            let cover = if b / PHASES.len() == 1 { 0.5 } else { 1.0 };
            assert!((w.get(Term::Cover) - cover).abs() < 1e-12, "block {b}");
            assert!((w.get(Term::Progress) - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn phase_multipliers_scale_their_phase_in_every_scenario() {
        let inc = Generation::scripted();
        let config = TuneConfig { per_scenario: true, per_phase: true, ..TuneConfig::default() };
        let layout = Layout::of(&config);
        assert_eq!(layout.len, TERMS * (1 + SCENARIOS.len() + PHASES.len()));
        let mut log = vec![0.0; layout.len];
        let late = layout.phases.unwrap() + TERMS * 2;
        log[late + Term::Keep as usize] = 3f64.ln();
        log[TERMS + Term::Keep as usize] = 2f64.ln(); // first scenario's own
        let g = apply(&inc, &log, &config);
        for b in 0..BLOCKS {
            let phase_factor = if b % PHASES.len() == 2 { 3.0 } else { 1.0 };
            let scenario_factor = if b / PHASES.len() == 0 { 2.0 } else { 1.0 };
            let keep = g.blocks[b].get(Term::Keep);
            assert!((keep - phase_factor * scenario_factor).abs() < 1e-9, "block {b}: {keep}");
        }
        // A phase's multipliers learn from every game; a scenario's from its own.
        assert_eq!(layout.scenario_group(0), Some(0));
        assert_eq!(layout.scenario_group(TERMS), Some(1));
        assert_eq!(layout.scenario_group(late), None);
        let phases_only = Layout::of(&TuneConfig { per_phase: true, ..TuneConfig::default() });
        assert_eq!(phases_only.phases, Some(TERMS));
        assert_eq!(phases_only.scenario_group(TERMS), None);
    }

    #[test]
    fn a_standing_search_adds_its_part_of_the_vector_to_the_model() {
        let inc = Generation::scripted();
        for hidden in [0, 3] {
            let config = TuneConfig { standing: Some(hidden), ..TuneConfig::default() };
            let layout = Layout::of(&config);
            assert_eq!(layout.standing, Some(TERMS));
            assert_eq!(layout.len, TERMS + StandingModel::param_count(hidden));
            assert_eq!(layout.scenario_group(TERMS + 1), None);
            // Nothing moved: a neutral model, the incumbent's weights.
            let same = apply(&inc, &vec![0.0; layout.len], &config);
            let model = same.standing.clone().unwrap();
            assert_eq!(model.log_multipliers(&[1.0, 1.0, 1.0, 1.0, 1.0]), [0.0; TERMS]);
            assert_eq!(same.blocks, inc.blocks);
            // The last parameter is the last term's last output weight.
            let mut log = vec![0.0; layout.len];
            *log.last_mut().unwrap() = 0.5;
            let moved = apply(&inc, &log, &config).standing.unwrap();
            let start = starting_standing(&inc, hidden).unwrap();
            assert_eq!(
                moved.output[TERMS - 1].last().copied().unwrap(),
                start.output[TERMS - 1].last().unwrap() + 0.5
            );
            // A resumed search from a generation with another model size is refused.
            let mut with = inc.clone();
            with.standing = Some(StandingModel::neutral(hidden + 1, 0));
            assert!(starting_standing(&with, hidden).unwrap_err().contains("hidden units"));
        }
    }

    #[test]
    fn an_introduced_term_starts_where_the_incumbent_weighs_it_zero() {
        let mut inc = Generation::scripted();
        assert_eq!(inc.blocks[0].get(Term::Guard), 0.0);
        inc.blocks[4].0[Term::Guard as usize] = 3.0;
        let config = TuneConfig { introduce: [("guard".to_string(), 0.5)].into(), ..TuneConfig::default() };
        let mut log = vec![0.0; Layout::of(&config).len];
        log[Term::Guard as usize] = 2f64.ln();
        let g = apply(&inc, &log, &config);
        for b in 0..BLOCKS {
            // Brought in at 0.5, then moved by its multiplier; a weight the incumbent has is kept.
            let expected = if b == 4 { 6.0 } else { 1.0 };
            assert!((g.blocks[b].get(Term::Guard) - expected).abs() < 1e-9, "block {b}");
        }
        // Without it, no multiplier moves a weight of 0, and the search leaves the term alone.
        let plain = apply(&inc, &log, &TuneConfig::default());
        assert_eq!(plain.blocks[0].get(Term::Guard), 0.0);
        let scripted = Generation::scripted();
        let searched = searched_terms(&TuneConfig::default(), &scripted);
        assert!(!searched[Term::Guard as usize] && !searched[Term::ReactLate as usize]);
        assert!(searched[Term::Risk as usize]);
        assert!(searched_terms(&config, &scripted)[Term::Guard as usize]);
        assert!(searched_terms(&TuneConfig::default(), &inc)[Term::Guard as usize], "used in one block");
        let only_risk = TuneConfig { terms: vec!["risk".into()], ..TuneConfig::default() };
        assert_eq!(searched_terms(&only_risk, &scripted).iter().filter(|&&s| s).count(), 1);
    }

    #[test]
    fn settings_are_checked_by_name() {
        let bad = TuneConfig { perturbation: 0.0, ..TuneConfig::default() };
        assert!(bad.check().unwrap_err().contains("perturbation"));
        let bad = TuneConfig { games: 1, ..TuneConfig::default() };
        assert!(bad.check().unwrap_err().contains("games"));
        let bad = TuneConfig { terms: vec!["risk".into(), "luck".into()], ..TuneConfig::default() };
        assert!(bad.check().unwrap_err().contains("`luck`"));
        let bad = TuneConfig { introduce: [("luck".to_string(), 1.0)].into(), ..TuneConfig::default() };
        assert!(bad.check().unwrap_err().contains("tune-introduce: no term `luck`"));
        let bad = TuneConfig { introduce: [("guard".to_string(), 0.0)].into(), ..TuneConfig::default() };
        assert!(bad.check().unwrap_err().contains("guard=0"));
        let bad = TuneConfig { standing: Some(MAX_HIDDEN + 1), ..TuneConfig::default() };
        assert!(bad.check().unwrap_err().contains("tune-standing"));
    }
}
