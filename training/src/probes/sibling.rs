//! Whether a value head orders the positions after each action as rollouts do
//! (`tde probe sibling`). Search chooses among a position's actions by the values of the
//! positions they lead to, so what it needs of a value head is less a good guess of who wins
//! than the right order among those siblings: a head whose errors are large but shared by the
//! siblings still steers search well, and one that cannot tell them apart only adds noise.
//!
//! At every `every`-th decision with a choice in games played by an agent on both sides, the
//! network's `actions` most probable actions are each played, dice drawn once, to the next
//! decision (or the end), and each such child is valued twice for the player deciding: by the
//! head, and by the mean return of `rollouts` games played on by the agent. Per scenario the
//! report gives the correlation between the head's and the rollouts' differences between
//! siblings, raw and corrected for the rollouts' own sampling noise, how often the head's
//! favourite child is the rollouts' favourite, and the head's bias where the decider moves
//! next and where the opponent does. The same correlation and agreement are given for the
//! material evaluator that ends MCTS's rollouts (victory points and conscious models), as a
//! handcrafted yardstick: a head worth searching with should order siblings at least as well.
//! With [`SiblingPlan::leaf`] a learned leaf value ([`agents::learned::leaf`]) is judged in the
//! head's place.

use crate::play::rollout::{players, rollout_estimate, Estimate};
use crate::probes::Judge;
use crate::probes::{DecisionSampler, Probe};
use agents::drowned_earth::MaterialEvaluator;
use agents::learned::leaf::LeafValue;
use agents::{Evaluator, Game, PolicyValue, Turn};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::GameState;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// How a sibling check plays and judges its games.
#[derive(Clone, Debug)]
pub struct SiblingPlan {
    /// The agent playing both sides of the games and the rollouts (a spec `make_agent` takes).
    pub agent: String,
    /// Games per scenario.
    pub games: u32,
    /// Judge every this many decisions with a choice.
    pub every: usize,
    /// Children per judged decision: the network's most probable actions.
    pub actions: usize,
    /// Rollouts from each child.
    pub rollouts: u32,
    /// Decisions played on from each child by the agent (dice drawn) before the head and the
    /// material evaluator judge it, as at the end of a short MCTS rollout; 0 judges the child
    /// itself. The rollouts still start from the child.
    pub continuation: u32,
    /// Seed of the games, dice and rollouts.
    pub seed: u64,
    /// A learned leaf value judged in place of the value head (the network still chooses the
    /// children).
    pub leaf: Option<LearnedLeaf>,
    /// Choose the children by the scripted player's order instead of the network's priors,
    /// so that two networks are judged on the same positions.
    pub fixed_children: bool,
}

/// A learned leaf value and the file it was read from.
#[derive(Clone, Debug)]
pub struct LearnedLeaf {
    /// The file (a `tde leaf-value` file).
    pub path: PathBuf,
    /// Its leaf value.
    pub value: LeafValue,
}

impl LearnedLeaf {
    /// Read a `tde leaf-value` file.
    pub fn load(path: &Path) -> Result<LearnedLeaf, String> {
        Ok(LearnedLeaf { path: path.to_path_buf(), value: LeafValue::load(path)? })
    }
}

/// One child of a judged decision, valued for the player deciding there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Child {
    /// The head's value (the result itself where the game ended).
    pub head: f64,
    /// The material evaluator's value (the result itself where the game ended).
    pub material: f64,
    /// The rollouts' estimate.
    pub rollouts: Estimate,
    /// Whether the decider moves at the judged position, the child or where its continuation
    /// stopped (`None` where the game ended).
    pub same_mover: Option<bool>,
}

/// The head against the rollouts among siblings, on one scenario.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SiblingRecord {
    /// The scenario's name.
    pub scenario: String,
    /// Judged decisions with two or more children.
    pub decisions: usize,
    /// Pairs of siblings compared.
    pub pairs: usize,
    /// Correlation between the head's and the rollouts' differences of sibling values.
    pub correlation: f64,
    /// The same with the rollouts' sampling noise taken out of their differences' variance:
    /// the correlation with the value the rollouts estimate. None where their differences vary
    /// no more than their noise explains.
    pub corrected_correlation: Option<f64>,
    /// Standard deviation of the head's sibling differences.
    pub head_sd: f64,
    /// Standard deviation of the rollouts' sibling differences, noise included.
    pub rollout_sd: f64,
    /// The part of `rollout_sd` the rollouts' sampling noise explains.
    pub rollout_noise_sd: f64,
    /// Share of decisions at which the head's best child is a best child by the rollouts (one
    /// of the best where their means tie).
    pub agreement: f64,
    /// The share picking a child at random would agree (more than one in the number of
    /// children where the rollouts' means tie).
    pub chance_agreement: f64,
    /// Mean rollout value of the head's best child.
    pub head_pick_value: f64,
    /// Mean rollout value of the child of the network's most probable action.
    pub policy_pick_value: f64,
    /// Mean head value minus rollout value where the decider moves next.
    pub bias_same_mover: f64,
    /// The same where the opponent moves next.
    pub bias_other_mover: f64,
    /// `correlation` for the material evaluator instead of the head.
    pub material_correlation: f64,
    /// `corrected_correlation` for the material evaluator.
    pub material_corrected_correlation: Option<f64>,
    /// `agreement` for the material evaluator (ties go to the network's more probable child).
    pub material_agreement: f64,
}

impl Probe for SiblingPlan {
    type Judged = Vec<Vec<Child>>;
    type Record = SiblingRecord;

    fn games(&self) -> u32 {
        self.games
    }

    fn judge_game(&self, network: &Judge, config: &GameConfig, game: u64) -> Result<Vec<Vec<Child>>, String> {
        let seed = self.seed.wrapping_add(game);
        let state = new_game(config).map_err(|e| e.to_string())?;
        let sampler = DecisionSampler { every: self.every, side: None, opening: false };
        let mut roots = Vec::new();
        sampler.play(state, &mut players(&self.agent, seed)?, seed, |decision| {
            roots.push((decision.state.clone(), decision.mover));
            Ok(())
        })?;
        roots
            .iter()
            .enumerate()
            .map(|(d, (root, mover))| {
                let decision_seed = seed.wrapping_mul(1_000_003).wrapping_add(d as u64);
                children(network, root, *mover, self, decision_seed)
            })
            .collect()
    }

    fn summarize(&self, scenario: Scenario, judged: Vec<Vec<Vec<Child>>>) -> SiblingRecord {
        summarize(scenario.name(), &judged.concat())
    }

    fn settings(&self) -> Vec<(&'static str, Value)> {
        vec![
            ("leaf", serde_json::json!(self.leaf.as_ref().map(|leaf| leaf.path.display().to_string()))),
            ("agent", Value::from(self.agent.as_str())),
            ("actions", Value::from(self.actions)),
            ("rollouts", Value::from(self.rollouts)),
            ("continuation", Value::from(self.continuation)),
            ("fixed_children", Value::from(self.fixed_children)),
        ]
    }

    fn text(&self, net: &str, records: &[SiblingRecord]) -> String {
        let judged = match &self.leaf {
            Some(leaf) => format!("leaf value {}", leaf.path.display()),
            None => format!("value head of {net}"),
        };
        let mut out = format!(
            "{} among siblings: at every {}th decision with a choice of {} games per scenario by {},\n\
         the network's {} most probable actions played, each child valued by it and by {} rollouts{}:\n",
            judged,
            self.every,
            self.games,
            self.agent,
            self.actions,
            self.rollouts,
            match self.continuation {
                0 => String::new(),
                d => format!(" (the head and material after {d} more decisions of {})", self.agent),
            }
        );
        out.push_str("  scenario             decisions  pairs  correlation (corrected)  sd head  sd rollouts (noise)  same best (chance)  rollout value of head's / policy's pick  bias: decider / opponent next  material: correlation (corrected), same best\n");
        let corrected = |c: Option<f64>| c.map_or("-".to_string(), |c| format!("{c:.3}"));
        for r in records {
            out.push_str(&format!(
            "  {:<20} {:>9} {:>6} {:>12.3} ({:>7})  {:>7.3} {:>12.3} ({:.3})  {:>9.1}% ({:.1}%)  {:>21.3} / {:.3}  {:>18.3} / {:.3}  {:>21.3} ({:>7}), {:.1}%\n",
            r.scenario,
            r.decisions,
            r.pairs,
            r.correlation,
            corrected(r.corrected_correlation),
            r.head_sd,
            r.rollout_sd,
            r.rollout_noise_sd,
            100.0 * r.agreement,
            100.0 * r.chance_agreement,
            r.head_pick_value,
            r.policy_pick_value,
            r.bias_same_mover,
            r.bias_other_mover,
            r.material_correlation,
            corrected(r.material_corrected_correlation),
            100.0 * r.material_agreement
        ));
        }
        out.push_str("  (correlation of the head's and the rollouts' differences between siblings; corrected: with the rollouts' sampling noise\n");
        out.push_str("   taken out, the correlation with the value they estimate; same best: the head's best child is the rollouts' best;\n");
        out.push_str(
            "   bias: mean head value minus rollout value where the decider or the opponent moves next;\n",
        );
        out.push_str("   material: the same for the material evaluator that ends MCTS's rollouts, ties going to the network's favourite)");
        out
    }
}

/// The children of the network's `plan.actions` most probable actions at `root`.
fn children(
    network: &Judge,
    root: &GameState,
    mover: usize,
    plan: &SiblingPlan,
    seed: u64,
) -> Result<Vec<Child>, String> {
    let legal = Game::legal_actions(root);
    let mut order: Vec<usize> = (0..legal.len()).collect();
    if plan.fixed_children {
        let mut ranked = legal.clone();
        agents::Ranker::rank(&mut agents::ScriptedAgent::new(seed), root, &mut ranked);
        order.sort_by_key(|&i| ranked.iter().position(|&a| a == legal[i]));
    } else {
        let priors = PolicyValue::evaluate(network, &[(root, mover)])?.remove(0).priors;
        order.sort_by(|&a, &b| priors[b].total_cmp(&priors[a]));
    }
    order.truncate(plan.actions);
    order
        .iter()
        .enumerate()
        .map(|(c, &i)| {
            let child_seed = seed.wrapping_mul(0x2545_f491).wrapping_add(c as u64);
            let mut state = root.clone();
            Game::apply(&mut state, legal[i]).map_err(|e| e.to_string())?;
            let mut dice = ChaCha8Rng::seed_from_u64(child_seed);
            while Game::turn(&state) == Turn::Chance {
                let outcome =
                    Game::sample_chance(&state, &mut dice).ok_or("a chance node without outcomes")?;
                Game::apply(&mut state, outcome).map_err(|e| e.to_string())?;
            }
            let rollouts = rollout_estimate(&state, mover, &plan.agent, plan.rollouts, child_seed)?;
            play_on(&mut state, &plan.agent, plan.continuation, child_seed)?;
            let (head, material, same_mover) = match Game::turn(&state) {
                Turn::Player(next) => {
                    let material = MaterialEvaluator.evaluate(&state)[mover];
                    let head = match &plan.leaf {
                        Some(leaf) => leaf.value.evaluate(&state)[mover],
                        None => {
                            let value = PolicyValue::evaluate(network, &[(&state, next)])?[0].value as f64;
                            if next == mover {
                                value
                            } else {
                                -value
                            }
                        }
                    };
                    (head, material, Some(next == mover))
                }
                _ => (Game::returns(&state)[mover], Game::returns(&state)[mover], None),
            };
            Ok(Child { head, material, rollouts, same_mover })
        })
        .collect()
}

/// Play `decisions` decisions on from `state` by `agent` on both sides (dice drawn; fewer where
/// the game ends), seeded from `seed`.
fn play_on(state: &mut GameState, agent: &str, decisions: u32, seed: u64) -> Result<(), String> {
    if decisions == 0 {
        return Ok(());
    }
    let mut players = players(agent, seed.wrapping_add(0x0c0f_fee5))?;
    let mut dice = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_0c0f);
    let mut played = 0;
    loop {
        let action = match Game::turn(state) {
            Turn::Chance => Game::sample_chance(state, &mut dice).ok_or("a chance node without outcomes")?,
            Turn::Player(p) if played < decisions => {
                played += 1;
                players[p].select_action(state)
            }
            _ => return Ok(()),
        };
        Game::apply(state, action).map_err(|e| e.to_string())?;
    }
}

/// How one judge of children (the head, or the material evaluator) orders siblings against
/// the rollouts.
struct Ordering {
    correlation: f64,
    corrected_correlation: Option<f64>,
    sd: f64,
    rollout_sd: f64,
    rollout_noise_sd: f64,
    agreement: f64,
    picks: Vec<usize>,
}

/// The mean of `xs` (0 for none).
fn mean(xs: &mut dyn Iterator<Item = f64>) -> f64 {
    let (sum, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    sum / n.max(1) as f64
}

/// The index of `d`'s best child by `value` (the first of equals: the network's favourite).
fn best(d: &[Child], value: &dyn Fn(&Child) -> f64) -> usize {
    (0..d.len()).rev().max_by(|&a, &b| value(&d[a]).total_cmp(&value(&d[b]))).unwrap_or(0)
}

/// The highest rollout mean among `d`'s children.
fn best_mean(d: &[Child]) -> f64 {
    d.iter().map(|c| c.rollouts.mean).fold(f64::NEG_INFINITY, f64::max)
}

/// The correlation of `judge`'s and the rollouts' differences between siblings, and how often
/// their best children agree.
fn ordering(decisions: &[&Vec<Child>], judge: &dyn Fn(&Child) -> f64) -> Ordering {
    // Sibling differences: (judge, rollouts, the rollouts' noise variance).
    let mut pairs = Vec::new();
    for d in decisions {
        for (i, a) in d.iter().enumerate() {
            for b in &d[i + 1..] {
                let noise = a.rollouts.variance + b.rollouts.variance;
                pairs.push((judge(a) - judge(b), a.rollouts.mean - b.rollouts.mean, noise));
            }
        }
    }
    let (mh, mr) = (mean(&mut pairs.iter().map(|p| p.0)), mean(&mut pairs.iter().map(|p| p.1)));
    let var_h = mean(&mut pairs.iter().map(|p| (p.0 - mh).powi(2)));
    let var_r = mean(&mut pairs.iter().map(|p| (p.1 - mr).powi(2)));
    let cov = mean(&mut pairs.iter().map(|p| (p.0 - mh) * (p.1 - mr)));
    let noise = mean(&mut pairs.iter().map(|p| p.2));
    let correlation = if var_h > 0.0 && var_r > 0.0 { cov / (var_h * var_r).sqrt() } else { 0.0 };
    let corrected_correlation =
        (var_h > 0.0 && var_r > noise).then(|| (cov / (var_h * (var_r - noise)).sqrt()).clamp(-1.0, 1.0));
    let picks: Vec<usize> = decisions.iter().map(|d| best(d, judge)).collect();
    let agreed = decisions.iter().zip(&picks).filter(|(d, &h)| d[h].rollouts.mean == best_mean(d)).count();
    Ordering {
        correlation,
        corrected_correlation,
        sd: var_h.sqrt(),
        rollout_sd: var_r.sqrt(),
        rollout_noise_sd: noise.sqrt(),
        agreement: agreed as f64 / decisions.len().max(1) as f64,
        picks,
    }
}

/// The figures of one scenario's judged decisions (children in the network's order).
pub fn summarize(scenario: &str, decisions: &[Vec<Child>]) -> SiblingRecord {
    let decisions: Vec<&Vec<Child>> = decisions.iter().filter(|d| d.len() >= 2).collect();
    let head = ordering(&decisions, &|c| c.head);
    let material = ordering(&decisions, &|c| c.material);
    let pairs = decisions.iter().map(|d| d.len() * (d.len() - 1) / 2).sum();
    let bias = |same: bool| {
        let children = decisions.iter().flat_map(|d| d.iter()).filter(|c| c.same_mover == Some(same));
        mean(&mut children.map(|c| c.head - c.rollouts.mean))
    };
    SiblingRecord {
        scenario: scenario.to_string(),
        decisions: decisions.len(),
        pairs,
        correlation: head.correlation,
        corrected_correlation: head.corrected_correlation,
        head_sd: head.sd,
        rollout_sd: head.rollout_sd,
        rollout_noise_sd: head.rollout_noise_sd,
        agreement: head.agreement,
        chance_agreement: mean(
            &mut decisions.iter().map(|d| {
                d.iter().filter(|c| c.rollouts.mean == best_mean(d)).count() as f64 / d.len() as f64
            }),
        ),
        head_pick_value: mean(&mut decisions.iter().zip(&head.picks).map(|(d, &h)| d[h].rollouts.mean)),
        policy_pick_value: mean(&mut decisions.iter().map(|d| d[0].rollouts.mean)),
        bias_same_mover: bias(true),
        bias_other_mover: bias(false),
        material_correlation: material.correlation,
        material_corrected_correlation: material.corrected_correlation,
        material_agreement: material.agreement,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(head: f64, mean: f64, variance: f64, same_mover: Option<bool>) -> Child {
        Child { head, material: head, rollouts: Estimate { mean, variance }, same_mover }
    }

    #[test]
    fn a_summary_gives_the_hand_computed_figures() {
        // Two decisions; a one-child decision is left out.
        let decisions = vec![
            vec![child(0.2, 0.5, 0.01, Some(true)), child(0.0, -0.5, 0.01, Some(false))],
            vec![child(-0.4, 0.0, 0.02, Some(true)), child(0.4, -1.0, 0.0, None)],
            vec![child(0.9, 0.9, 0.0, Some(true))],
        ];
        let r = summarize("x", &decisions);
        assert_eq!((r.decisions, r.pairs), (2, 2));
        // Differences (head, rollouts): (0.2, 1.0) and (-0.8, 1.0): the rollouts' do not vary.
        assert!((r.head_sd - 0.5).abs() < 1e-12 && r.rollout_sd.abs() < 1e-12);
        assert_eq!((r.correlation, r.corrected_correlation), (0.0, None));
        assert!((r.rollout_noise_sd - ((0.02 + 0.02) / 2.0f64).sqrt()).abs() < 1e-12);
        // The head picks the first child, then the second; the rollouts the first both times.
        assert_eq!((r.agreement, r.chance_agreement), (0.5, 0.5));
        assert!((r.head_pick_value - (0.5 + -1.0) / 2.0).abs() < 1e-12);
        assert!((r.policy_pick_value - (0.5 + 0.0) / 2.0).abs() < 1e-12);
        assert!((r.bias_same_mover - (-0.3 + -0.4) / 2.0).abs() < 1e-12);
        assert!((r.bias_other_mover - 0.5).abs() < 1e-12);
    }

    #[test]
    fn playing_on_is_seeded_stops_at_a_decision_and_at_the_end() {
        let start = new_game(&GameConfig::default()).unwrap();
        let key = |s: &GameState| (Game::information_state_key(s, 0), Game::information_state_key(s, 1));
        let mut same = start.clone();
        play_on(&mut same, "scripted", 0, 9).unwrap();
        assert_eq!(key(&same), key(&start));
        let (mut a, mut b) = (start.clone(), start.clone());
        play_on(&mut a, "scripted", 5, 9).unwrap();
        play_on(&mut b, "scripted", 5, 9).unwrap();
        assert_eq!(key(&a), key(&b));
        assert_ne!(key(&a), key(&start));
        assert!(matches!(Game::turn(&a), Turn::Player(_)));
        // Asked for more decisions than the game has, it plays to the end.
        play_on(&mut a, "scripted", 1_000_000, 9).unwrap();
        assert_eq!(Game::turn(&a), Turn::Terminal);
    }

    #[test]
    fn agreement_counts_any_of_the_rollouts_tied_best_children() {
        // The rollouts tie the first two children; the head picks the second, material ties
        // everywhere and so picks the network's favourite, the first.
        let mut d = vec![
            child(0.0, 0.5, 0.0, Some(true)),
            child(0.3, 0.5, 0.0, Some(true)),
            child(-0.2, -1.0, 0.0, Some(false)),
        ];
        for c in &mut d {
            c.material = 0.1;
        }
        let r = summarize("x", &[d.clone()]);
        assert_eq!((r.agreement, r.material_agreement), (1.0, 1.0));
        assert!((r.chance_agreement - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(r.head_pick_value, 0.5);
        // Without the tie the head's pick is no longer a best child.
        d[0].rollouts.mean = 0.6;
        let r = summarize("x", &[d]);
        assert_eq!((r.agreement, r.material_agreement), (0.0, 1.0));
        assert!((r.chance_agreement - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn a_head_that_orders_siblings_as_noiseless_rollouts_do_correlates_fully() {
        let decisions: Vec<Vec<Child>> = (0..4)
            .map(|d| {
                (0..3)
                    .map(|c| child(0.1 * (c + d) as f64, 0.3 * (c + d) as f64 - 0.5, 0.0, Some(true)))
                    .collect()
            })
            .collect();
        let r = summarize("x", &decisions);
        assert!((r.correlation - 1.0).abs() < 1e-9, "{r:?}");
        assert!((r.corrected_correlation.unwrap() - 1.0).abs() < 1e-9, "{r:?}");
        assert_eq!(r.agreement, 1.0);
        assert!((r.chance_agreement - 1.0 / 3.0).abs() < 1e-12);
        // The material evaluator is judged the same way: here it orders as the head does, and
        // reversed it anti-correlates and never picks the rollouts' best.
        assert!((r.material_correlation - 1.0).abs() < 1e-9 && r.material_agreement == 1.0, "{r:?}");
        let reversed: Vec<Vec<Child>> = decisions
            .iter()
            .map(|cs| cs.iter().map(|c| Child { material: -c.head, ..*c }).collect())
            .collect();
        let m = summarize("x", &reversed);
        assert!((m.material_correlation + 1.0).abs() < 1e-9 && m.material_agreement == 0.0, "{m:?}");
        assert_eq!((m.correlation, m.agreement), (r.correlation, r.agreement));
        // With noise in the rollouts, the raw correlation stays and the corrected one rises.
        let noisy: Vec<Vec<Child>> = decisions
            .iter()
            .enumerate()
            .map(|(d, cs)| {
                cs.iter()
                    .enumerate()
                    .map(|(c, x)| {
                        child(
                            x.head,
                            x.rollouts.mean + if (c + d) % 2 == 0 { 0.2 } else { -0.2 },
                            0.01,
                            x.same_mover,
                        )
                    })
                    .collect()
            })
            .collect();
        let r = summarize("x", &noisy);
        assert!(r.correlation < 1.0 && r.corrected_correlation.unwrap() > r.correlation, "{r:?}");
    }
}
