//! The network learns: trained on the scripted player's games, its value head predicts held-out
//! results better than the best constant, and its policy head, without the prior, finds the
//! scripted player's choices more often than an untrained one (which picks the first action).

use agents::learned::Generation;
use engine::setup::GameConfig;
use eval::lineup::{Lineups, Pool};
use fastnet::data::{generate, DataPlan, Dataset, Teacher};
use fastnet::features::POSITION_FEATURES;
use fastnet::network::{Params, ALPHA};
use fastnet::train::{evaluate, sibling_correlation, Adam, TrainConfig, Trainer};
use std::sync::Arc;

fn games(seed: u64, n: u64) -> Dataset {
    let scripted = Arc::new(Generation::scripted());
    let plan = DataPlan {
        games: n,
        seed,
        teachers: vec![Teacher::Learned(scripted.clone())],
        temperature: 0.05,
        prior: scripted,
        other_nodes: 0.2,
        decisions: 1.0,
    };
    let c = GameConfig::default();
    let lineups =
        Lineups::new(c.clone(), Pool::Fixed(c.board.clone()), Pool::Fixed(c.crews.clone())).unwrap();
    let mut d = generate(&plan, &lineups, &|| {}).unwrap();
    // Without the prior: the policy must come from the features.
    for a in &mut d.actions {
        a.prior = 0.0;
    }
    d
}

/// Training steps of 128 positions: few for 600 games, whose positions share a result each (more
/// steps learn the games by heart: the proximity features tell one game's positions apart).
const STEPS: usize = 120;

#[test]
fn value_and_policy_are_learned_from_games() {
    let train = games(100, 600);
    let valid = games(9_000, 60);
    assert!(train.policy_positions() > 1000, "{} policy positions", train.policy_positions());
    let config = TrainConfig { batch: 128, learning_rate: 2e-3, ..TrainConfig::default() };
    let mut params = Params::init(1);
    params.data[ALPHA] = 0.0;
    let before = evaluate(&params, &valid, &config);
    // The best constant value: the held-out results' mean, as a probability.
    let p = valid.positions.iter().map(|p| (p.value as f64 + 1.0) / 2.0).sum::<f64>()
        / valid.positions.len() as f64;
    let constant = valid
        .positions
        .iter()
        .map(|q| {
            let t = (q.value as f64 + 1.0) / 2.0;
            -(t * p.max(1e-9).ln() + (1.0 - t) * (1.0 - p).max(1e-9).ln())
        })
        .sum::<f64>()
        / valid.positions.len() as f64;
    let mut trainer = Trainer::new(params, Adam::default(), config.clone(), 3);
    // Few games: a game's positions share its result, so longer training only memorises
    // the games (the real runs learn from tens of thousands).
    for _ in 0..STEPS {
        trainer.step(&train, 2e-3);
    }
    let after = evaluate(&trainer.params, &valid, &config);
    println!(
        "value cross-entropy {:.4} (constant {constant:.4}), top-1 {:.3} -> {:.3}",
        after.value, before.top1, after.top1
    );
    assert!(
        after.value < constant - 0.02,
        "value cross-entropy {} against the constant's {constant}",
        after.value
    );
    assert!(after.top1 > before.top1 + 0.08, "top-1 {} → {}", before.top1, after.top1);
}

/// Groups of four siblings: each group a level of its own (features no other group has, a
/// target level drawn at random, as a game's result is to a network that cannot foresee it)
/// and each sibling one of eight moves, whose effect on the target is small and the same in
/// every group.
fn sibling_groups(seed: u64, groups: usize) -> Dataset {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let effect = |k: u16| (k as f32 - 3.5) * 0.04;
    let mut d = Dataset::default();
    for _ in 0..groups {
        let level: f32 = rng.gen_range(-0.8..0.8);
        let mut own: Vec<u16> = (0..12).map(|_| rng.gen_range(100..POSITION_FEATURES as u16)).collect();
        own.sort_unstable();
        own.dedup();
        let group = d.new_group();
        for _ in 0..4 {
            let k = rng.gen_range(0..8u16);
            let mut features = own.clone();
            features.insert(0, k);
            let target = (level + effect(k) + rng.gen_range(-0.2..0.2f32)).clamp(-1.0, 1.0);
            d.push_in_group(&features, &[], target, 0.0, group);
        }
    }
    d
}

#[test]
fn the_sibling_loss_alone_learns_the_order_among_siblings() {
    let (train, valid) = (sibling_groups(1, 4000), sibling_groups(2, 500));
    // Only the sibling loss: no value, margin or policy loss pulls on the network.
    let config = TrainConfig {
        batch: 64,
        value_weight: 0.0,
        margin_weight: 0.0,
        policy_weight: 0.0,
        sibling_weight: 4.0,
        ..TrainConfig::default()
    };
    let before = sibling_correlation(&Params::init(4), &valid).map_or(0.0, |c| c.0);
    let mut trainer = Trainer::new(Params::init(4), Adam::default(), config, 5);
    for _ in 0..100 {
        trainer.step(&train, 1e-3);
    }
    let (after, pairs) = sibling_correlation(&trainer.params, &valid).expect("pairs");
    println!("correlation of sibling differences over {pairs} held-out pairs: {before:.3} -> {after:.3}");
    assert_eq!(pairs, 500 * 6, "six pairs in each group of four");
    // The targets' noise leaves about 0.63 to find.
    assert!(after > 0.5 && after > before + 0.3, "{before} -> {after}");
}

/// The network's logits over a position's actions.
fn logits(params: &Params, d: &Dataset, p: &fastnet::data::Position) -> Vec<f32> {
    let t = fastnet::network::trunk(params, d.features_of(p));
    d.actions_of(p).iter().map(|a| fastnet::network::action_logit(params, &t, &a.features, a.prior)).collect()
}

/// Situations of a contextual bandit: each has features of its own and one of four kinds (a
/// feature); its four moves are the same four actions everywhere, and the one whose number is
/// the kind pays 1, the others 0, with noise. The move played is drawn from the policy of
/// `params` and kept with its advantage (its pay less `baseline`) as its only target, as a
/// policy-gradient game keeps the move it played: no target says which move is best. Also
/// the situations' kinds and the mean pay.
fn bandit(seed: u64, situations: usize, params: &Params, baseline: f32) -> (Dataset, Vec<u16>, f32) {
    use fastnet::action_features::ActionFeatures;
    use fastnet::data::ActionSample;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut d = Dataset::default();
    let (mut kinds, mut paid) = (Vec::new(), 0.0);
    for _ in 0..situations {
        let kind = rng.gen_range(0..4u16);
        let mut features: Vec<u16> = (0..10).map(|_| rng.gen_range(100..POSITION_FEATURES as u16)).collect();
        features.push(kind);
        features.sort_unstable();
        features.dedup();
        let mut actions: Vec<ActionSample> = (0..4u16)
            .map(|k| {
                let mut f = ActionFeatures { len: 1, ..Default::default() };
                f.ids[0] = 10 + k;
                ActionSample { features: f, prior: 0.0, target: 0.0 }
            })
            .collect();
        d.push(&features, &actions, 0.0, 0.0);
        let p = d.positions.pop().expect("the position");
        let scores: Vec<f64> = logits(params, &d, &p).iter().map(|&l| l as f64).collect();
        let played = agents::learned::sample_softmax(&scores, 1.0, rng.gen());
        let pay = if played == kind as usize { 1.0 } else { 0.0 } + rng.gen_range(-0.5..0.5f32);
        paid += pay;
        actions[played].target = pay - baseline;
        d.actions.truncate(p.action_start as usize);
        d.features.truncate(p.feature_start as usize);
        d.push(&features, &actions, 0.0, 0.0);
        kinds.push(kind);
    }
    (d, kinds, paid / situations as f32)
}

#[test]
fn a_policy_gradient_step_learns_the_better_move_from_advantages_alone() {
    let config = TrainConfig { batch: 64, value_weight: 0.0, margin_weight: 0.0, ..TrainConfig::default() };
    let best_moves = |params: &Params| {
        let (valid, kinds, _) = bandit(1, 400, params, 0.0);
        let mut right = 0;
        for (p, &kind) in valid.positions.iter().zip(&kinds) {
            let l = logits(params, &valid, p);
            let best = (0..4).max_by(|&i, &j| l[i].total_cmp(&l[j])).unwrap();
            right += usize::from(best == kind as usize);
        }
        right as f64 / valid.positions.len() as f64
    };
    let before = best_moves(&Params::init(6));
    let mut trainer = Trainer::new(Params::init(6), Adam::default(), config, 7);
    // On-policy: each step's moves are drawn from the policy so far, and the baseline is the
    // mean pay of the step before (the value head's part in the real games).
    let (mut baseline, all) = (0.25, (0..64).collect::<Vec<usize>>());
    for step in 0..600 {
        let (batch, _, paid) = bandit(100 + step, 64, &trainer.params, baseline);
        trainer.step_on(&batch, &all, 3e-3);
        baseline = paid;
    }
    let after = best_moves(&trainer.params);
    println!(
        "the best move first in {before:.3} -> {after:.3} of held-out situations; mean pay {baseline:.2}"
    );
    assert!(after > 0.9 && before < 0.5, "{before} -> {after}");
}
