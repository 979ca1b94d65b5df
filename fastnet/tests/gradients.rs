//! The hand-written gradient against finite differences of the loss, on positions with
//! random features, actions, priors and targets.

use fastnet::action_features::{ActionFeatures, ACTION_FEATURES};
use fastnet::data::{ActionSample, Dataset};
use fastnet::features::POSITION_FEATURES;
use fastnet::network::{self, Params, ALPHA, B1, B3, BM, BV, C, E, H1, H3, PARAMS, W1, W2, W3, WM, WV};
use fastnet::train::{position_gradient, Gradient, Losses, TrainConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_dataset(rng: &mut ChaCha8Rng) -> Dataset {
    let mut d = Dataset::default();
    for _ in 0..4 {
        let mut features: Vec<u16> = (0..40).map(|_| rng.gen_range(0..POSITION_FEATURES as u16)).collect();
        features.sort_unstable();
        let n = rng.gen_range(2..6);
        let mut targets: Vec<f32> = (0..n).map(|_| rng.gen::<f32>()).collect();
        let total: f32 = targets.iter().sum();
        targets.iter_mut().for_each(|t| *t /= total);
        let actions: Vec<ActionSample> = targets
            .iter()
            .map(|&target| {
                let mut f = ActionFeatures { len: 3, ..Default::default() };
                for id in &mut f.ids[..3] {
                    *id = rng.gen_range(0..ACTION_FEATURES as u16);
                }
                ActionSample { features: f, prior: -rng.gen::<f32>() * 3.0, target }
            })
            .collect();
        d.push(&features, &actions, rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0));
    }
    // Policy-gradient positions: the played move weighted by its advantage, of either sign.
    for advantage in [-0.7f32, 1.3] {
        let mut features: Vec<u16> = (0..40).map(|_| rng.gen_range(0..POSITION_FEATURES as u16)).collect();
        features.sort_unstable();
        let actions: Vec<ActionSample> = (0..4)
            .map(|k| {
                let mut f = ActionFeatures { len: 2, ..Default::default() };
                for id in &mut f.ids[..2] {
                    *id = rng.gen_range(0..ACTION_FEATURES as u16);
                }
                ActionSample {
                    features: f,
                    prior: -rng.gen::<f32>() * 3.0,
                    target: if k == 1 { advantage } else { 0.0 },
                }
            })
            .collect();
        d.push(&features, &actions, rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0));
    }
    // A sibling group of three value-only positions.
    let group = d.new_group();
    for _ in 0..3 {
        let mut features: Vec<u16> = (0..40).map(|_| rng.gen_range(0..POSITION_FEATURES as u16)).collect();
        features.sort_unstable();
        d.push_in_group(&features, &[], rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), group);
    }
    d
}

/// The other positions of position `i`'s sibling group as (value, target), with `params`.
fn siblings(params: &Params, data: &Dataset, i: usize) -> Vec<(f32, f32)> {
    let value = |j: usize| {
        let t = network::trunk(params, data.features_of(&data.positions[j]));
        network::value(params, &t)
    };
    data.siblings_of(i).filter(|&j| j != i).map(|j| (value(j), data.positions[j].value)).collect()
}

/// Every position's loss, and the sibling groups' pairwise loss: half the sum of the
/// positions' sibling losses (each pair is in two of them), every value moving with `params`.
fn total_loss(params: &Params, data: &Dataset, config: &TrainConfig) -> f64 {
    let mut grad = Gradient::default();
    let mut sum = 0.0;
    for (i, p) in data.positions.iter().enumerate() {
        let mut l = Losses::default();
        position_gradient(params, data, p, &siblings(params, data, i), config, 0.0, &mut grad, &mut l);
        sum += config.value_weight as f64 * l.value
            + config.margin_weight as f64 * l.margin
            + config.policy_weight as f64 * l.policy
            + config.sibling_weight as f64 * 0.5 * l.sibling * l.sibling_positions as f64;
    }
    sum
}

/// Fresh parameters with bigger random dense weights, heads and action rows, so that every
/// part carries gradient.
fn lively_params(rng: &mut ChaCha8Rng) -> Params {
    let mut params = Params::init(5);
    for i in WV..PARAMS {
        params.data[i] = rng.gen_range(-0.5..0.5);
    }
    params.data[ALPHA] = 0.8;
    for i in E..B1 {
        params.data[i] = rng.gen_range(-0.3..0.3);
    }
    params
}

/// The gradient of every position's loss, summed, and the losses.
fn summed_gradient(params: &Params, data: &Dataset, config: &TrainConfig) -> (Gradient, Losses) {
    let mut grad = Gradient::default();
    let mut l = Losses::default();
    for (i, p) in data.positions.iter().enumerate() {
        position_gradient(params, data, p, &siblings(params, data, i), config, 1.0, &mut grad, &mut l);
    }
    (grad, l)
}

#[test]
fn the_gradient_matches_finite_differences() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let data = random_dataset(&mut rng);
    let mut params = lively_params(&mut rng);
    let config = TrainConfig {
        batch: 4,
        learning_rate: 0.0,
        value_weight: 1.0,
        margin_weight: 0.7,
        policy_weight: 1.3,
        sibling_weight: 2.0,
        ..TrainConfig::default()
    };
    let (grad, l) = summed_gradient(&params, &data, &config);
    assert_eq!(l.sibling_positions, 3, "the group's three positions");
    // Parameters of every block: a used W1 row, E rows and biases, dense layers, heads, α.
    let used_w1 = data.features[0] as usize;
    // A row only the sibling group's last position uses: its gradient comes from the value and
    // sibling losses alone.
    let last = data.positions.last().expect("positions");
    let sibling_w1 = *data
        .features_of(last)
        .iter()
        .find(|&&f| {
            data.positions[..data.positions.len() - 1].iter().all(|p| !data.features_of(p).contains(&f))
        })
        .expect("a feature of the last position alone") as usize;
    let used_e = data.actions[0].features.ids[0] as usize;
    // The feature of the move a policy-gradient position played with a negative advantage.
    let played_e = data.actions_of(&data.positions[4])[1].features.ids[0] as usize;
    let mut probes: Vec<usize> =
        vec![ALPHA, BV, BM, WV + 3, WM + 5, B3 + 1, W3 + 40, W2 + 200, B1 + 7, C + used_e];
    probes.extend((0..8).map(|k| W1 + used_w1 * H1 + k * 16));
    probes.extend((0..8).map(|k| W1 + sibling_w1 * H1 + k * 16));
    probes.extend((0..4).map(|k| E + used_e * H3 + k * 8));
    probes.extend([C + played_e, E + played_e * H3 + 2]);
    let mut checked = 0;
    for &i in &probes {
        let eps = 1e-3f32;
        let keep = params.data[i];
        params.data[i] = keep + eps;
        let up = total_loss(&params, &data, &config);
        params.data[i] = keep - eps;
        let down = total_loss(&params, &data, &config);
        params.data[i] = keep;
        let numeric = (up - down) / (2.0 * eps as f64);
        let analytic = grad.data[i] as f64;
        // A clipped ReLU's kink inside ±eps breaks the difference quotient: skip those.
        if (numeric - analytic).abs() > 2e-2 * analytic.abs().max(0.05) {
            let near_kink = {
                params.data[i] = keep + 0.1 * eps;
                let a = total_loss(&params, &data, &config);
                params.data[i] = keep - 0.1 * eps;
                let b = total_loss(&params, &data, &config);
                params.data[i] = keep;
                ((a - b) / (0.2 * eps as f64) - numeric).abs() > 1e-2 * numeric.abs().max(0.05)
            };
            assert!(near_kink, "parameter {i}: analytic {analytic}, numeric {numeric}");
            continue;
        }
        checked += 1;
    }
    assert!(checked >= probes.len() - 3, "only {checked} of {} parameters could be checked", probes.len());
}

#[test]
fn a_policy_loss_on_the_head_alone_leaves_the_trunk_to_the_value() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let data = random_dataset(&mut rng);
    let params = lively_params(&mut rng);
    let gradient = |config: &TrainConfig| summed_gradient(&params, &data, config).0.data;
    let full = TrainConfig { batch: 4, ..TrainConfig::default() };
    let head_only = gradient(&TrainConfig { policy_head_only: true, ..full.clone() });
    let no_policy = gradient(&TrainConfig { policy_weight: 0.0, ..full.clone() });
    let with_policy = gradient(&full);
    let used_w1 = data.features[0] as usize;
    // The trunk: as if there were no policy loss.
    for i in [W2 + 200, W3 + 40, B3 + 1, B1 + 7, W1 + used_w1 * H1 + 5] {
        assert_eq!(head_only[i], no_policy[i], "trunk parameter {i}");
        assert_ne!(with_policy[i], no_policy[i], "the full loss moves trunk parameter {i}");
    }
    // The head: as with the full loss.
    let used_e = data.actions[0].features.ids[0] as usize;
    for i in [ALPHA, C + used_e, E + used_e * H3 + 3, WV + 2, BM] {
        assert_eq!(head_only[i], with_policy[i], "head parameter {i}");
    }
}
