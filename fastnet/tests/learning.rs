//! The network learns: trained on the scripted player's games, its value head predicts held-out
//! results better than the best constant, and its policy head, without the prior, finds the
//! scripted player's choices more often than an untrained one (which picks the first action).

use agents::learned::Generation;
use engine::setup::GameConfig;
use eval::lineup::{Lineups, Pool};
use fastnet::data::{generate, DataPlan, Dataset, Teacher};
use fastnet::network::{Params, ALPHA};
use fastnet::train::{evaluate, Adam, TrainConfig, Trainer};
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
