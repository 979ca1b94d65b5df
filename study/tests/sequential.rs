//! The sequential stopping rule checked by simulation (pure statistics, no game): on options
//! with equal true values the share of verdicts called settled stays at or below the stated α;
//! the old rule (a 95% interval at every doubling) fails the same check; a real difference is
//! settled.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use study::{Paired, Plan};

/// Options as in the cover situation: six reactions and holding the AP.
const OPTIONS: usize = 7;
/// Simulated verdicts per check.
const RUNS: usize = 2000;

/// One sample's returns of every option, +1 win or −1 loss, sharing dice like the study's
/// common random numbers: with chance `shared` an option takes the sample's common outcome,
/// else its own. Option `k` wins with chance `p[k]`.
fn draw(rng: &mut ChaCha8Rng, p: &[f64], shared: f64) -> Vec<f64> {
    let common: f64 = rng.gen();
    p.iter()
        .map(|&pk| {
            let u = if rng.gen::<f64>() < shared { common } else { rng.gen() };
            if u < pk {
                1.0
            } else {
                -1.0
            }
        })
        .collect()
}

/// One verdict under `plan`: the best option by mean is compared with option 0 (holding the
/// AP), or, when holding is best, with the best other option — the fewest comparisons a study
/// makes, so the most lenient case; returns (settled, whether the settled best is the truly
/// best option `truth`).
fn verdict(plan: &Plan, p: &[f64], seed: u64, truth: usize) -> (bool, bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut returns: Vec<Vec<f64>> = vec![Vec::new(); p.len()];
    let mut best = 0;
    let mut settled = false;
    plan.run(|from, to| {
        for _ in from..to {
            for (k, r) in draw(&mut rng, p, 0.5).into_iter().enumerate() {
                returns[k].push(r);
            }
        }
        let mean = |k: usize| returns[k].iter().sum::<f64>() / returns[k].len() as f64;
        best = (0..p.len()).max_by(|&a, &b| mean(a).total_cmp(&mean(b))).expect("options");
        let other = if best == 0 {
            (1..p.len()).max_by(|&a, &b| mean(a).total_cmp(&mean(b))).expect("options")
        } else {
            0
        };
        settled = Paired::of(&returns[best], &returns[other], plan.z).settled();
        Ok::<bool, ()>(settled)
    })
    .expect("no error");
    (settled, best == truth)
}

/// Share of `RUNS` verdicts settled (and settled on the right option) under `plan`.
fn rates(plan: &Plan, p: &[f64], truth: usize) -> (f64, f64) {
    let (mut settled, mut right) = (0, 0);
    for run in 0..RUNS {
        let (s, r) = verdict(plan, p, 1000 + run as u64, truth);
        settled += s as usize;
        right += (s && r) as usize;
    }
    (settled as f64 / RUNS as f64, right as f64 / RUNS as f64)
}

/// The Monte-Carlo margin over α: three standard errors of a share α estimated from `RUNS`
/// runs (a true rate of exactly α exceeds α + margin by chance about once in 700).
fn margin(alpha: f64) -> f64 {
    3.0 * (alpha * (1.0 - alpha) / RUNS as f64).sqrt()
}

#[test]
fn the_looks_are_planned_doublings_up_to_the_budget() {
    assert_eq!(Plan::new(400, Some(3200), 0.95, 7).looks, vec![400, 800, 1600, 3200]);
    assert_eq!(Plan::new(50, Some(400), 0.95, 2).looks, vec![50, 100, 200, 400]);
    assert_eq!(Plan::new(300, Some(1000), 0.95, 2).looks, vec![300, 600, 1000]);
    assert_eq!(Plan::new(64, None, 0.95, 2).looks, vec![64]);
    // One look, two options: the plain 95% interval.
    assert!((Plan::new(64, None, 0.95, 2).z - 1.959_964).abs() < 1e-5);
    // Four looks, 21 pairs: each interval at 1 − 0.05/84.
    let p = Plan::new(400, Some(3200), 0.95, 7);
    assert!((p.per_interval - (1.0 - 0.05 / 84.0)).abs() < 1e-12, "{p:?}");
    assert!((p.z - 3.432).abs() < 0.01, "{p:?}");
    assert!(p.describe().contains("4 planned looks"), "{}", p.describe());
}

#[test]
fn equal_options_are_settled_at_most_alpha_of_the_time() {
    let alpha = 0.05;
    let equal = [0.3; OPTIONS];
    let valid = Plan::new(100, Some(800), 1.0 - alpha, OPTIONS);
    let (settled, _) = rates(&valid, &equal, 0);
    assert!(settled <= alpha + margin(alpha), "valid rule: {settled} of equal verdicts settled");
    // The old rule (95% at every doubling, the best picked among seven) fails the same check.
    let naive = Plan::naive(100, Some(800), 1.0 - alpha, OPTIONS);
    let (naive_settled, _) = rates(&naive, &equal, 0);
    assert!(naive_settled > alpha + margin(alpha), "old rule: only {naive_settled} settled");
    eprintln!("equal options settled: valid {settled:.4}, old rule {naive_settled:.4}");
}

#[test]
fn a_real_difference_is_settled_on_the_right_option() {
    // Option 3 wins 5 points more often (+0.1 in mean return): the budget settles it.
    let mut p = [0.3; OPTIONS];
    p[3] = 0.35;
    let valid = Plan::new(400, Some(3200), 0.95, OPTIONS);
    let (settled, right) = rates(&valid, &p, 3);
    assert!(right >= 0.8, "power: settled {settled}, on the right option {right}");
    eprintln!("a +0.1 difference: settled {settled:.3}, on the right option {right:.3}");
}
