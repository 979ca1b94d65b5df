//! Labels from rollouts: at sampled decisions of the learning games ([`super::games`]), the
//! incumbent generation's best few actions and one other legal action, each valued by games
//! the incumbent plays on from the position after it to the end.
//!
//! The candidates share their rollouts' seeds — rollout `r` of every candidate uses the same
//! players' and dice seeds — so the luck of the dice is largely the same for all of them and
//! cancels from their differences (common random numbers). Each candidate keeps the mean
//! return of its rollouts for the deciding side, the variance of that mean, and the variance
//! of its mean's difference from the candidates' average (its "paired" variance, the noise
//! that is left once the shared luck cancels). [`LabelSummary`] measures how much the sharing
//! saves.
//!
//! A label is stored compactly, one JSON line: the game's seed, the decision's number in the
//! game, the candidates and their figures. Its features are not stored: replaying the game
//! from its seed reaches the same position ([`super::features`]).

use super::games::{mix, Games};
use agents::learned::LearnedAgent;
use agents::{Agent, Game};
use engine::state::{Player, Step};
use engine::{Action, GameState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// How decisions are labelled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelConfig {
    /// Chance that a decision of a kind the terms score is labelled.
    pub rate: f64,
    /// Candidates: the incumbent's best this many, plus one other legal action.
    pub top: usize,
    /// Rollouts per candidate.
    pub rollouts: u32,
    /// Share of a rollout's return that is its victory-point margin (see [`rollout_return`]).
    pub margin_share: f64,
}

impl Default for LabelConfig {
    fn default() -> Self {
        LabelConfig { rate: 0.12, top: 3, rollouts: 8, margin_share: 0.5 }
    }
}

/// A finished rollout's return for `side`: (1 − `margin_share`) × its result (+1, 0, −1)
/// plus `margin_share` × tanh(victory-point margin / 4). The margin grades wins and losses,
/// so the candidates' differences show through fewer rollouts (an auxiliary score target,
/// as KataGo's); at 0 the return is the result alone.
pub fn rollout_return(end: &GameState, side: u8, margin_share: f64) -> f64 {
    let result = Game::returns(end)[side as usize];
    let margin = end.outcome().margin(side) as f64;
    (1.0 - margin_share) * result + margin_share * (margin / 4.0).tanh()
}

/// One labelled decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Label {
    /// The game's seed.
    pub game: u64,
    /// The decision's number in the game (decisions of either side, from 0).
    pub ply: u32,
    /// The deciding side.
    pub side: u8,
    /// The candidate actions: the incumbent's best first, the other legal action last.
    pub candidates: Vec<Action>,
    /// Each candidate's mean rollout return for the deciding side (−1 to 1, [`rollout_return`]).
    pub means: Vec<f64>,
    /// The variance of each mean (the returns' sample variance over the rollouts).
    pub variances: Vec<f64>,
    /// The variance of each mean's difference from the candidates' average, with the shared
    /// luck cancelled.
    pub paired: Vec<f64>,
    /// Rollouts per candidate.
    pub rollouts: u32,
}

/// Whether the terms score decisions of this kind (others are not worth labelling: the
/// learned player plays them as the scripted player does).
pub fn labelled_kind(state: &GameState) -> bool {
    matches!(
        state.node(),
        Some(
            Step::ChooseAction(_)
                | Step::ChooseActivation
                | Step::ChooseReaction
                | Step::ChooseReactionBy(_)
                | Step::ChooseNested
                | Step::ChooseFirefight
                | Step::ChooseCommand
                | Step::ChooseCard { .. }
                | Step::ChooseDodgeMove { .. }
        )
    )
}

/// The candidates at a decision: the best `top` by `scorer`'s scores, then one other legal
/// action drawn by `u` among those it might ever play; `None` with fewer than two.
pub fn candidates(scorer: &mut LearnedAgent, state: &GameState, top: usize, u: f64) -> Option<Vec<Action>> {
    let legal = state.legal_actions();
    if legal.len() < 2 {
        return None;
    }
    let scores = scorer.scores(state, &legal)?;
    let mut order: Vec<usize> = (0..legal.len()).filter(|&i| scores[i] > -0.75e6).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(legal[a].cmp(&legal[b])));
    if order.len() < 2 {
        return None;
    }
    let mut out: Vec<Action> = order.iter().take(top).map(|&i| legal[i]).collect();
    let rest = &order[out.len()..];
    if !rest.is_empty() {
        out.push(legal[rest[((u * rest.len() as f64) as usize).min(rest.len() - 1)]]);
    }
    Some(out)
}

/// Value `candidates` at `state` by `config.rollouts` games each, played on by the incumbent
/// of `games` on both sides with seeds shared between the candidates; `seed` picks the seeds.
pub fn rollouts(
    games: &Games,
    state: &GameState,
    candidates: &[Action],
    config: &LabelConfig,
    seed: u64,
) -> Label {
    let rollouts = config.rollouts;
    let Player::Side(side) = state.current_player() else { panic!("rollouts at a decision only") };
    let k = candidates.len();
    let mut returns = vec![vec![0.0; rollouts as usize]; k];
    for r in 0..rollouts as usize {
        let seed = mix(seed ^ mix(r as u64 + 1));
        for (&a, row) in candidates.iter().zip(returns.iter_mut()) {
            let mut s = state.clone();
            s.apply_action(a).expect("candidates are legal");
            let mut players: Vec<Box<dyn Agent<GameState>>> = vec![
                Box::new(LearnedAgent::new(games.incumbent.clone(), 0.0, "", mix(seed ^ 0xa))),
                Box::new(LearnedAgent::new(games.incumbent.clone(), 0.0, "", mix(seed ^ 0xb))),
            ];
            let end = agents::play_game(s, &mut players, seed, |_, _| {});
            row[r] = rollout_return(&end, side, config.margin_share);
        }
    }
    let n = rollouts as f64;
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / n;
    let var_of_mean = |xs: &[f64]| {
        if rollouts < 2 {
            return 0.0;
        }
        let m = mean(xs);
        xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0) / n
    };
    let means: Vec<f64> = returns.iter().map(|x| mean(x)).collect();
    let variances: Vec<f64> = returns.iter().map(|x| var_of_mean(x)).collect();
    let paired: Vec<f64> = (0..k)
        .map(|c| {
            let centred: Vec<f64> = (0..rollouts as usize)
                .map(|r| returns[c][r] - returns.iter().map(|x| x[r]).sum::<f64>() / k as f64)
                .collect();
            var_of_mean(&centred)
        })
        .collect();
    Label { game: 0, ply: 0, side, candidates: candidates.to_vec(), means, variances, paired, rollouts }
}

/// Label game `g`: play it and, at each sampled decision of the learning generation, find the
/// candidates and value them. Deterministic in `g`.
pub fn label_game(games: &Games, g: u64, config: &LabelConfig) -> Result<Vec<Label>, String> {
    let mut scorer = LearnedAgent::new(games.incumbent.clone(), 0.0, "", 0);
    let mut labels = Vec::new();
    games.play(g, |state, ply| {
        let Player::Side(side) = state.current_player() else { return true };
        if !games.learns(g, side) || !labelled_kind(state) {
            return true;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(mix(g ^ mix(ply as u64 ^ 0x1abe1)));
        if rng.gen::<f64>() >= config.rate {
            return true;
        }
        if let Some(cands) = candidates(&mut scorer, state, config.top, rng.gen()) {
            let mut label = rollouts(games, state, &cands, config, rng.gen());
            label.game = g;
            label.ply = ply;
            labels.push(label);
        }
        true
    })?;
    Ok(labels)
}

/// Figures of a set of labels.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LabelSummary {
    /// Labels.
    pub labels: usize,
    /// Candidates over all labels.
    pub candidates: usize,
    /// Labels whose best candidate by the rollouts is not the incumbent's first choice.
    pub improvable: usize,
    /// Mean variance of a candidate's mean (independent rollouts would leave this much noise
    /// in each mean, and twice as much in a difference).
    pub mean_variance: f64,
    /// Mean paired variance (the noise left in the differences with shared seeds).
    pub mean_paired: f64,
    /// How many times less variance the differences carry with shared seeds than with
    /// independent rollouts: 2 × `mean_variance` (a difference's variance with independent
    /// rollouts) over the variance of a difference with shared seeds, 2 × `mean_paired` ×
    /// k / (k − 1) for k candidates (their centred means sum to 0).
    pub variance_saved: f64,
}

impl LabelSummary {
    /// The summary of `labels`.
    pub fn of(labels: &[Label]) -> LabelSummary {
        let mut s = LabelSummary { labels: labels.len(), ..Default::default() };
        let (mut var, mut paired, mut diff) = (0.0, 0.0, 0.0);
        for l in labels {
            let k = l.candidates.len();
            s.candidates += k;
            var += l.variances.iter().sum::<f64>();
            paired += l.paired.iter().sum::<f64>();
            diff += l.paired.iter().sum::<f64>() * k as f64 / (k as f64 - 1.0).max(1.0);
            let best = l.means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if l.means[0] < best {
                s.improvable += 1;
            }
        }
        let n = s.candidates.max(1) as f64;
        s.mean_variance = var / n;
        s.mean_paired = paired / n;
        s.variance_saved = if diff > 0.0 { var / diff } else { 0.0 };
        s
    }
}

/// Read a JSON-lines file of labels; `file` names it in errors.
pub fn parse_labels(text: &str, file: &str) -> Result<Vec<Label>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let label: Label = serde_json::from_str(l).map_err(|e| format!("{file}:{}: {e}", i + 1))?;
            let k = label.candidates.len();
            if k < 2 || label.means.len() != k || label.variances.len() != k || label.paired.len() != k {
                return Err(format!(
                    "{file}:{}: a label needs two or more candidates, each with its figures",
                    i + 1
                ));
            }
            Ok(label)
        })
        .collect()
}

/// Labels as JSON lines.
pub fn to_lines(labels: &[Label]) -> String {
    labels.iter().map(|l| serde_json::to_string(l).expect("labels serialise") + "\n").collect()
}
