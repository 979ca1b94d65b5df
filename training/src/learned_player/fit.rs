//! Fitting the next generation: the weights whose softmax over each label's candidates comes
//! closest (cross-entropy) to the policy the rollouts improve, each label weighted by how
//! surely its rollouts tell the candidates apart, regularised toward the incumbent.
//!
//! For a label with candidates c, term values φ_c (rebuilt by replay, [`examples`]) and the
//! incumbent's scores s_c, the new generation's score is s_c + (θ_b − θ_N,b)·φ_c in the
//! label's block b (scenario × phase); its policy is softmax(score / T). The target is
//! softmax(mean return / τ). The change θ_b − θ_N,b is a part shared by every block plus a
//! part of the block's own, each under an L2 penalty, so what the labels of one scenario show
//! is learnt there and what they all show is learnt everywhere. A label's weight is the share
//! of its candidates' spread that is not rollout noise: spread / (spread + paired noise).
//!
//! Adam on the whole batch; the penalty is chosen among a few by the cross-entropy on held-out
//! labels (every tenth game), and the report gives the held-out figures before and after.

use super::games::Games;
use super::labels::Label;
use agents::learned::features::{dot, term_values};
use agents::learned::generation::{block_of, Generation, BLOCKS};
use agents::scripted::terms::TERMS;
use agents::ScriptedAgent;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Temperature of the policy being fitted, in score units.
pub const POLICY_TEMPERATURE: f64 = 0.1;
/// Temperature of the rollout-improved target, in return units.
pub const TARGET_TEMPERATURE: f64 = 0.1;
/// The penalties tried for the blocks' own changes (the shared change's is a tenth).
pub const PENALTIES: [f64; 4] = [1.0, 0.3, 0.1, 0.03];

/// One label with its features.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// The game it comes from.
    pub game: u64,
    /// Its weight block.
    pub block: usize,
    /// Each candidate's term values.
    pub phi: Vec<[f64; TERMS]>,
    /// Each candidate's score under the incumbent.
    pub score: Vec<f64>,
    /// Target probabilities over the candidates.
    pub target: Vec<f64>,
    /// The label's weight (0 to 1).
    pub weight: f64,
}

/// The labels' features, rebuilt by replaying their games with `games`' incumbent (in
/// parallel over games), and the games whose replay no longer reaches their labels' positions
/// (labels made by another version of the engine or the players), each with why; their
/// labels are left out.
pub fn examples(games: &Games, labels: &[Label]) -> Result<(Vec<Example>, Vec<String>), String> {
    let mut by_game: BTreeMap<u64, Vec<&Label>> = BTreeMap::new();
    for l in labels {
        by_game.entry(l.game).or_default().push(l);
    }
    let groups: Vec<(u64, Vec<&Label>)> = by_game.into_iter().collect();
    let done: Vec<Result<Vec<Example>, String>> = groups
        .par_iter()
        .map(|(g, ls)| {
            let plies: BTreeMap<u32, &Label> = ls.iter().map(|l| (l.ply, *l)).collect();
            let last = *plies.keys().next_back().expect("a game has labels");
            let mut scripted = ScriptedAgent::new(0);
            let mut out = Vec::new();
            let mut error = None;
            games.play(*g, |state, ply| {
                if let Some(label) = plies.get(&ply) {
                    let w = games.incumbent.weights_at(state);
                    let legal = state.legal_actions();
                    match term_values(&mut scripted, state, &label.candidates, w) {
                        Some((phi, score)) if label.candidates.iter().all(|a| legal.contains(a)) => {
                            out.push(example(*g, block_of(state), phi, score, label))
                        }
                        _ => {
                            error = Some(format!("game {g}, decision {ply}: the replay does not reach the label's position (labels of another generation?)"));
                            return false;
                        }
                    }
                }
                ply < last
            })?;
            match error {
                Some(e) => Err(e),
                None if out.len() == plies.len() => Ok(out),
                None => Err(format!("game {g}: the replay ended before its labelled decisions")),
            }
        })
        .collect();
    let (mut all, mut diverged) = (Vec::new(), Vec::new());
    for d in done {
        match d {
            Ok(e) => all.extend(e),
            Err(e) if e.contains("replay") => diverged.push(e),
            Err(e) => return Err(e),
        }
    }
    Ok((all, diverged))
}

fn example(game: u64, block: usize, phi: Vec<[f64; TERMS]>, score: Vec<f64>, label: &Label) -> Example {
    let k = label.means.len() as f64;
    let top = label.means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = label.means.iter().map(|m| ((m - top) / TARGET_TEMPERATURE).exp()).collect();
    let total: f64 = e.iter().sum();
    let target = e.iter().map(|x| x / total).collect();
    let avg = label.means.iter().sum::<f64>() / k;
    let spread = label.means.iter().map(|m| (m - avg) * (m - avg)).sum::<f64>() / (k - 1.0).max(1.0);
    let noise = label.paired.iter().sum::<f64>() / k * k / (k - 1.0).max(1.0);
    let weight = if spread + noise > 0.0 { spread / (spread + noise) } else { 0.0 };
    Example { game, block, phi, score, target, weight }
}

/// Held-out figures of a set of weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// Weighted cross-entropy to the rollout-improved targets.
    pub cross_entropy: f64,
    /// Share of labels (weighted) whose best-scored candidate is the rollouts' best.
    pub agreement: f64,
}

/// What a fit did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitReport {
    /// Labels fitted on.
    pub train: usize,
    /// Labels held out.
    pub held_out: usize,
    /// The penalty chosen.
    pub penalty: f64,
    /// Held-out figures of the incumbent.
    pub before: Figures,
    /// Held-out figures of the new weights.
    pub after: Figures,
    /// Held-out cross-entropy of each penalty tried.
    pub tried: Vec<(f64, f64)>,
    /// Games left out because their replay no longer reaches their labels.
    #[serde(default)]
    pub diverged_games: usize,
}

/// The change from the incumbent: a shared part and each block's own; and the scale of the
/// scores in the fitted softmax (it takes up how sharp the targets are, so that the change
/// is about which candidate is best; play takes the best and ignores it).
#[derive(Clone, Debug)]
struct Delta {
    shared: [f64; TERMS],
    own: Vec<[f64; TERMS]>,
    scale: f64,
}

impl Delta {
    fn zero() -> Delta {
        Delta { shared: [0.0; TERMS], own: vec![[0.0; TERMS]; BLOCKS], scale: 1.0 }
    }

    fn of_block(&self, b: usize) -> [f64; TERMS] {
        let mut d = self.shared;
        for (x, y) in d.iter_mut().zip(&self.own[b]) {
            *x += y;
        }
        d
    }
}

fn logits(e: &Example, d: &[f64; TERMS], scale: f64) -> Vec<f64> {
    let w = agents::scripted::terms::TermWeights(*d);
    e.score.iter().zip(&e.phi).map(|(s, phi)| scale * (s + dot(&w, phi)) / POLICY_TEMPERATURE).collect()
}

fn softmax(z: &[f64]) -> Vec<f64> {
    let top = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = z.iter().map(|x| (x - top).exp()).collect();
    let t: f64 = e.iter().sum();
    e.into_iter().map(|x| x / t).collect()
}

fn figures(examples: &[&Example], delta: &Delta) -> Figures {
    let (mut ce, mut agree, mut total) = (0.0, 0.0, 0.0);
    for e in examples {
        let p = softmax(&logits(e, &delta.of_block(e.block), delta.scale));
        ce -= e.weight * e.target.iter().zip(&p).map(|(t, q)| t * q.max(1e-12).ln()).sum::<f64>();
        let best = |xs: &[f64]| (0..xs.len()).max_by(|&a, &b| xs[a].total_cmp(&xs[b])).unwrap_or(0);
        agree += e.weight * (best(&p) == best(&e.target)) as u8 as f64;
        total += e.weight;
    }
    let total = total.max(1e-12);
    Figures { cross_entropy: ce / total, agreement: agree / total }
}

/// Adam on the weighted cross-entropy plus `penalty` × |own|² + `penalty`/10 × |shared|²;
/// with `scale_only` the weights stay the incumbent's and only the scale is fitted.
fn optimise(examples: &[&Example], penalty: f64, steps: usize, scale_only: bool) -> Delta {
    let n = TERMS * (BLOCKS + 1) + 1;
    let mut x = vec![0.0; n];
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let total: f64 = examples.iter().map(|e| e.weight).sum::<f64>().max(1e-12);
    let (lr, b1, b2) = (0.02, 0.9, 0.999);
    let delta_of = |x: &[f64]| {
        let mut d = Delta::zero();
        d.shared.copy_from_slice(&x[..TERMS]);
        for b in 0..BLOCKS {
            d.own[b].copy_from_slice(&x[TERMS * (b + 1)..TERMS * (b + 2)]);
        }
        d.scale = x[n - 1].exp();
        d
    };
    for t in 1..=steps {
        let d = delta_of(&x);
        let grads: Vec<f64> = examples
            .par_iter()
            .fold(
                || vec![0.0; n],
                |mut g, e| {
                    let z = logits(e, &d.of_block(e.block), d.scale);
                    let p = softmax(&z);
                    for c in 0..p.len() {
                        let dz = e.weight * (p[c] - e.target[c]) / total;
                        if dz == 0.0 {
                            continue;
                        }
                        g[n - 1] += dz * z[c];
                        if scale_only {
                            continue;
                        }
                        let coef = dz * d.scale / POLICY_TEMPERATURE;
                        for k in 0..TERMS {
                            let gk = coef * e.phi[c][k];
                            g[k] += gk;
                            g[TERMS * (e.block + 1) + k] += gk;
                        }
                    }
                    g
                },
            )
            .reduce(|| vec![0.0; n], |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect());
        for i in 0..n {
            let reg = if i == n - 1 {
                0.0
            } else if i < TERMS {
                penalty / 10.0
            } else {
                penalty
            };
            let g = grads[i] + 2.0 * reg * x[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            x[i] -= lr * mh / (vh.sqrt() + 1e-8);
        }
    }
    delta_of(&x)
}

/// Fit the generation after `incumbent` on `examples`: returns it (numbered one more, its
/// parent named `parent`) and the report.
pub fn fit(
    incumbent: &Generation,
    parent: &str,
    examples: &[Example],
    steps: usize,
) -> Result<(Generation, FitReport), String> {
    if examples.is_empty() {
        return Err("no labels to fit".into());
    }
    let held: BTreeSet<u64> = examples.iter().map(|e| e.game).filter(|g| g % 10 == 7).collect();
    let (test, train): (Vec<&Example>, Vec<&Example>) = examples.iter().partition(|e| held.contains(&e.game));
    // The incumbent's figures, its scale fitted like every candidate's.
    let before = figures(&test, &optimise(&train, 0.0, steps, true));
    let mut best: Option<(f64, f64, Delta)> = None;
    let mut tried = Vec::new();
    for &penalty in &PENALTIES {
        let d = optimise(&train, penalty, steps, false);
        let f = figures(&test, &d);
        tried.push((penalty, f.cross_entropy));
        if best.as_ref().is_none_or(|(ce, _, _)| f.cross_entropy < *ce) {
            best = Some((f.cross_entropy, penalty, d));
        }
    }
    let (_, penalty, delta) = best.expect("a penalty was tried");
    let after = figures(&test, &delta);
    let mut flat = incumbent.flat();
    for b in 0..BLOCKS {
        let d = delta.of_block(b);
        for k in 0..TERMS {
            let w = &mut flat[b * TERMS + k];
            *w = (*w + d[k])
                .clamp(-agents::learned::generation::MAX_WEIGHT, agents::learned::generation::MAX_WEIGHT);
        }
    }
    let note = format!(
        "fitted on {} rollout labels (penalty {penalty}); held-out cross-entropy {:.4} -> {:.4}, agreement with the rollouts' best {:.1}% -> {:.1}%",
        train.len(),
        before.cross_entropy,
        after.cross_entropy,
        100.0 * before.agreement,
        100.0 * after.agreement
    );
    let next = Generation::from_flat(incumbent.generation + 1, Some(parent.to_string()), note, &flat);
    let report = FitReport {
        train: train.len(),
        held_out: test.len(),
        penalty,
        before,
        after,
        tried,
        diverged_games: 0,
    };
    Ok((next, report))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels where the rollouts prefer the candidate with the larger first term, though the
    /// incumbent's scores prefer the other: the fit raises that term's weight.
    #[test]
    fn the_fit_learns_which_term_the_rollouts_reward() {
        let mut examples = Vec::new();
        for g in 0..200u64 {
            let mut a = [0.0; TERMS];
            let mut b = [0.0; TERMS];
            a[0] = 1.0 + (g % 3) as f64 * 0.1;
            b[1] = 1.0;
            examples.push(Example {
                game: g,
                block: (g % BLOCKS as u64) as usize,
                phi: vec![a, b],
                score: vec![a[0] - 0.05 * (g % 2) as f64, 1.2],
                target: vec![0.9, 0.1],
                weight: 1.0,
            });
        }
        let incumbent = Generation::scripted();
        let (next, report) = fit(&incumbent, "gen-000.json", &examples, 300).unwrap();
        assert!(report.after.cross_entropy < report.before.cross_entropy, "{report:?}");
        assert!(report.after.agreement > report.before.agreement, "{report:?}");
        assert!(next.blocks[0].0[0] > 1.0 && next.blocks[0].0[1] < 1.0, "{:?}", &next.blocks[0].0[..2]);
        assert_eq!(next.generation, 1);
        assert_eq!(next.parent.as_deref(), Some("gen-000.json"));
    }

    #[test]
    fn a_label_is_weighted_by_how_surely_its_rollouts_differ() {
        let label = |means: Vec<f64>, paired: f64| Label {
            game: 0,
            ply: 0,
            side: 0,
            candidates: vec![engine::Action::EndActivation; means.len()],
            variances: vec![0.1; means.len()],
            paired: vec![paired; means.len()],
            means,
            rollouts: 8,
        };
        let sure = example(0, 0, vec![[0.0; TERMS]; 2], vec![0.0; 2], &label(vec![0.5, -0.5], 0.001));
        let noisy = example(0, 0, vec![[0.0; TERMS]; 2], vec![0.0; 2], &label(vec![0.05, -0.05], 0.1));
        assert!(sure.weight > 0.99 && noisy.weight < 0.05, "{} {}", sure.weight, noisy.weight);
        assert!(sure.target[0] > 0.99);
    }
}
