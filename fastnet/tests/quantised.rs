//! The 16-bit play form of the shipped network against its f32 form on the positions of real
//! games: every value within the stated tolerance, the same best action at almost every
//! decision, and accumulators far inside the 16-bit range.

use engine::setup::GameConfig;
use eval::lineup::{Lineups, Pool};
use fastnet::agent::FastNet;
use fastnet::data::{generate, DataPlan, Teacher};
use fastnet::network::{action_logit, trunk, value};
use fastnet::quantised::{QuantisedLayer, SCALE, VALUE_TOLERANCE};
use std::path::Path;
use std::sync::Arc;

#[test]
fn the_sixteen_bit_first_layer_plays_within_the_stated_tolerance() {
    let net = Arc::new(
        FastNet::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../checkpoints/fast/gen-000.fnet"))
            .unwrap(),
    );
    let params = net.params();
    let layer = QuantisedLayer::new(params).unwrap();
    let plan = DataPlan {
        games: 24,
        seed: 4_100,
        teachers: vec![Teacher::Learned(net.prior.clone())],
        temperature: 0.05,
        prior: net.prior.clone(),
        other_nodes: 0.25,
        decisions: 1.0,
    };
    let c = GameConfig::default();
    let lineups = Lineups::new(c, Pool::Drawn(vec!["all".into()]), Pool::Drawn(vec!["all".into()])).unwrap();
    let data = generate(&plan, &lineups, &|| {}).unwrap();
    assert!(data.positions.len() > 2_000, "{} positions", data.positions.len());
    let (mut worst, mut total, mut largest, mut decisions, mut same_best) = (0.0f32, 0.0f64, 0.0f32, 0, 0);
    for p in &data.positions {
        let features = data.features_of(p);
        let exact = trunk(params, features);
        let played = layer.trunk(params, features);
        let difference = (value(params, &exact) - value(params, &played)).abs();
        worst = worst.max(difference);
        total += difference as f64;
        largest = exact.acc.iter().fold(largest, |m, a| m.max(a.abs()));
        let actions = data.actions_of(p);
        if actions.len() >= 2 {
            let best = |t| {
                let logits: Vec<f32> =
                    actions.iter().map(|a| action_logit(params, t, &a.features, a.prior)).collect();
                (0..logits.len()).max_by(|&i, &j| logits[i].total_cmp(&logits[j])).unwrap()
            };
            decisions += 1;
            same_best += usize::from(best(&exact) == best(&played));
        }
    }
    println!(
        "{} positions: value difference {:.5} on average, {worst:.5} at worst; largest |accumulator| {largest:.2}, \
         same best action at {same_best} of {decisions} decisions",
        data.positions.len(),
        total / data.positions.len() as f64
    );
    assert!(worst <= VALUE_TOLERANCE, "worst value difference {worst}");
    assert!(
        largest < 0.5 * i16::MAX as f32 / SCALE,
        "an accumulator of {largest} comes near the 16-bit range"
    );
    assert!(same_best as f64 >= 0.99 * decisions as f64, "same best action at {same_best} of {decisions}");
}
