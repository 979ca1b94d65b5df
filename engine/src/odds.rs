//! Exact odds of attribute tests, opposed tests and armour rolls.
//!
//! Everything here is computed by enumerating the equally likely die faces, never by sampling:
//! an attribute test has 100 (attribute die, feat die) pairs, an opposed test 100 × 100, and
//! an armour roll is a binomial over independent D10s. Probabilities are computed from integer
//! counts and divided once, so e.g. a 42-in-100 chance is exactly the `f64` nearest to 0.42.
//!
//! The chance nodes of the game state use [`test_outcomes`]; the CLI (`tde rules`) and the
//! agents' heuristics use the other functions.

use crate::dice::{self, OpposedResult, TestLevel, TestOutcome, TestRoll};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Number of equally likely faces of a D10.
const FACES: u8 = 10;

/// Number of equally likely (attribute die, feat die) pairs of one attribute test.
const PAIRS: u32 = (FACES as u32) * (FACES as u32);

/// Every (attribute die, feat die) pair of an attribute test, each with probability 1/100.
pub fn all_rolls() -> impl Iterator<Item = TestRoll> {
    (1..=FACES)
        .flat_map(|attribute_die| (1..=FACES).map(move |feat_die| TestRoll { attribute_die, feat_die }))
}

/// Integer counts (out of 100) of each distinct outcome of a test against `attr`.
fn outcome_counts(attr: i32, narrative_feats: bool) -> BTreeMap<TestOutcome, u32> {
    let mut counts = BTreeMap::new();
    for roll in all_rolls() {
        *counts.entry(dice::evaluate(attr, roll, narrative_feats)).or_insert(0) += 1;
    }
    counts
}

/// The distribution of outcomes of an attribute test against `attr` (clamped to 1..=9 like
/// every modified attribute), grouped by (level, high die) and sorted by [`TestOutcome`]
/// order, worst first. Probabilities are positive and sum to 1. This is the branching of the
/// game's chance nodes for a single test.
pub fn test_outcomes(attr: i32, narrative_feats: bool) -> Vec<(TestOutcome, f64)> {
    outcome_counts(attr, narrative_feats)
        .into_iter()
        .map(|(outcome, n)| (outcome, f64::from(n) / f64::from(PAIRS)))
        .collect()
}

/// Probability of each success level of a test against `attr`, indexed like
/// [`TestLevel::ALL`]: blunder, fail, pass, nailed it, feat.
pub fn level_distribution(attr: i32, narrative_feats: bool) -> [f64; 5] {
    let mut counts = [0u32; 5];
    for roll in all_rolls() {
        let level = dice::evaluate(attr, roll, narrative_feats).level;
        counts[level_index(level)] += 1;
    }
    counts.map(|n| f64::from(n) / f64::from(PAIRS))
}

/// Position of `level` in [`TestLevel::ALL`].
fn level_index(level: TestLevel) -> usize {
    TestLevel::ALL.iter().position(|&l| l == level).expect("TestLevel::ALL lists every level")
}

/// Probabilities of the four results of an opposed test (p.16). The fields sum to 1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpposedOdds {
    /// The first model wins: its action may succeed, the second's fails.
    pub a_wins: f64,
    /// The second model wins: its action may succeed, the first's fails.
    pub b_wins: f64,
    /// Same success level and same highest successful die: both actions succeed.
    pub true_tie: f64,
    /// Both tests fail: neither action succeeds.
    pub both_fail: f64,
}

/// Exact odds of an opposed test between attributes `a` and `b` (each clamped to 1..=9), over
/// all 10,000 pairs of rolls (computed as the cross product of the grouped outcomes).
pub fn opposed_odds(a: i32, b: i32, narrative_feats: bool) -> OpposedOdds {
    let a_counts = outcome_counts(a, narrative_feats);
    let b_counts = outcome_counts(b, narrative_feats);
    let (mut a_wins, mut b_wins, mut true_tie, mut both_fail) = (0u32, 0u32, 0u32, 0u32);
    for (&oa, &na) in &a_counts {
        for (&ob, &nb) in &b_counts {
            let slot = match dice::opposed(oa, ob) {
                OpposedResult::AWins => &mut a_wins,
                OpposedResult::BWins => &mut b_wins,
                OpposedResult::TrueTie => &mut true_tie,
                OpposedResult::BothFail => &mut both_fail,
            };
            *slot += na * nb;
        }
    }
    let total = f64::from(PAIRS * PAIRS);
    OpposedOdds {
        a_wins: f64::from(a_wins) / total,
        b_wins: f64::from(b_wins) / total,
        true_tie: f64::from(true_tie) / total,
        both_fail: f64::from(both_fail) / total,
    }
}

/// The number an armour die must roll at or under to prevent one damage (p.30, p.42, weapon
/// properties p.53): `toughness + max(armour - sunder, 0) - pierce + 1 for hard cover`,
/// clamped to 1..=9 because a modifier never takes an attribute above 9 or below 1 (p.14).
///
/// Armour(X) adds X to toughness; Sunder(X) reduces only the defender's Armour, never below
/// 0 and never the toughness itself or the hard cover bonus; Pierce(X) deducts X from the
/// total. Soft cover does not change the armour roll.
pub fn armour_target(toughness: u8, armour: u8, pierce: u8, sunder: u8, hard_cover: bool) -> u8 {
    let worn = (i32::from(armour) - i32::from(sunder)).max(0);
    let total = i32::from(toughness) + worn - i32::from(pierce) + i32::from(hard_cover);
    dice::clamp_attribute(total)
}

/// Exact distribution of the wounds caused by `damage` points of damage: the defender rolls
/// `damage` D10s and each die at or under `target` saves one damage (p.42). Index `w` holds
/// the probability of exactly `w` wounds, for `w` in `0..=damage`; the entries sum to 1.
///
/// `target` is normally an [`armour_target`] (1..=9); 0 means no die saves, 10 or more that
/// every die saves.
pub fn wound_distribution(damage: u8, target: u8) -> Vec<f64> {
    let n = i32::from(damage);
    let saves = target.min(FACES);
    let p_save = f64::from(saves) / f64::from(FACES);
    let p_wound = f64::from(FACES - saves) / f64::from(FACES);
    let mut out = Vec::with_capacity(usize::from(damage) + 1);
    // C(n, w), updated multiplicatively; exact in f64 for every n up to 255 that matters here.
    let mut binom = 1.0f64;
    for w in 0..=n {
        if w > 0 {
            binom = binom * f64::from(n - w + 1) / f64::from(w);
        }
        out.push(binom * p_wound.powi(w) * p_save.powi(n - w));
    }
    out
}

/// Expected number of wounds of a [`wound_distribution`].
pub fn expected_wounds(distribution: &[f64]) -> f64 {
    distribution.iter().enumerate().map(|(w, p)| w as f64 * p).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    const EPS: f64 = 1e-12;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < EPS
    }

    #[test]
    fn there_are_one_hundred_distinct_rolls() {
        let rolls: std::collections::HashSet<TestRoll> = all_rolls().collect();
        assert_eq!(rolls.len(), 100);
    }

    #[test]
    fn level_distribution_matches_closed_form_standard() {
        // Against n in 1..=9 (standard rules), out of 100 pairs:
        // feat = 10 (feat symbol), nailed = n*(n-1) (attr die <= n, feat die 2..=n),
        // pass = n*(10-n), blunder = 10-n (doubles over n), fail = 9*(10-n) - (10-n).
        for n in 1..=9 {
            let d = level_distribution(n, false);
            let m = n as f64;
            let expect = [
                (10.0 - m) / 100.0,
                8.0 * (10.0 - m) / 100.0,
                m * (10.0 - m) / 100.0,
                m * (m - 1.0) / 100.0,
                0.10,
            ];
            for i in 0..5 {
                assert!(close(d[i], expect[i]), "attr {n} level {i}: {d:?}");
            }
        }
    }

    #[test]
    fn narrative_feats_move_low_doubles_to_feat() {
        // Doubles 2-2 ..= n-n become feats (1 is the feat symbol, already a feat).
        for n in 1..=9 {
            let d = level_distribution(n, true);
            let m = n as f64;
            assert!(close(d[4], (10.0 + m - 1.0) / 100.0), "attr {n}");
            assert!(close(d[3], (m - 1.0) * (m - 1.0) / 100.0), "attr {n}");
        }
    }

    #[test]
    fn test_outcomes_sorted_positive_and_sum_to_one() {
        for attr in -2..=12 {
            for nf in [false, true] {
                let out = test_outcomes(attr, nf);
                assert!(out.windows(2).all(|w| w[0].0 < w[1].0));
                assert!(out.iter().all(|&(_, p)| p > 0.0));
                let sum: f64 = out.iter().map(|&(_, p)| p).sum();
                assert!(close(sum, 1.0));
            }
        }
    }

    #[test]
    fn test_outcomes_agree_with_levels() {
        for attr in 1..=9 {
            let levels = level_distribution(attr, false);
            let mut from_outcomes = [0.0; 5];
            for (o, p) in test_outcomes(attr, false) {
                from_outcomes[level_index(o.level)] += p;
            }
            for i in 0..5 {
                assert!(close(levels[i], from_outcomes[i]));
            }
        }
    }

    #[test]
    fn opposed_attr_one_by_hand() {
        // Attribute 1: Feat(high 1) = 1-Q, 1/100; Feat(high 0) = {2..10}-Q, 9/100;
        // Pass(high 1) = 1-{2..10}, 9/100; the remaining 81/100 fail.
        // both_fail = 0.81^2; true_tie = 0.01^2 + 0.09^2 + 0.09^2 = 0.0163;
        // a_wins = 0.19*0.81 + (0.01*0.09 + 0.01*0.09 + 0.09*0.09) = 0.1539 + 0.0099.
        let o = opposed_odds(1, 1, false);
        assert!(close(o.both_fail, 0.6561));
        assert!(close(o.true_tie, 0.0163));
        assert!(close(o.a_wins, 0.1638));
        assert!(close(o.b_wins, 0.1638));
    }

    #[test]
    fn opposed_is_symmetric_and_sums_to_one() {
        for a in 1..=9 {
            for b in 1..=9 {
                for nf in [false, true] {
                    let ab = opposed_odds(a, b, nf);
                    let ba = opposed_odds(b, a, nf);
                    assert!(close(ab.a_wins, ba.b_wins));
                    assert!(close(ab.true_tie, ba.true_tie));
                    assert!(close(ab.a_wins + ab.b_wins + ab.true_tie + ab.both_fail, 1.0));
                }
            }
        }
    }

    #[test]
    fn higher_attribute_wins_more_often() {
        for a in 1..9 {
            let o = opposed_odds(a + 1, a, false);
            assert!(o.a_wins > o.b_wins, "attr {} vs {a}", a + 1);
        }
    }

    #[test]
    fn armour_target_modifiers() {
        assert_eq!(armour_target(5, 0, 0, 0, false), 5);
        assert_eq!(armour_target(5, 2, 0, 0, false), 7);
        assert_eq!(armour_target(5, 2, 1, 0, false), 6);
        assert_eq!(armour_target(5, 2, 0, 1, false), 6);
        // Sunder never takes armour below 0, so it cannot reduce toughness itself.
        assert_eq!(armour_target(5, 1, 0, 3, false), 5);
        // Sunder does not remove the hard cover bonus.
        assert_eq!(armour_target(5, 0, 0, 2, true), 6);
        assert_eq!(armour_target(5, 0, 0, 0, true), 6);
        // Clamped to 1..=9.
        assert_eq!(armour_target(8, 3, 0, 0, true), 9);
        assert_eq!(armour_target(2, 0, 4, 0, false), 1);
    }

    #[test]
    fn wound_distribution_by_hand() {
        // 3 dice, each saving on 1..=5 (p = 1/2): 1/8, 3/8, 3/8, 1/8.
        let d = wound_distribution(3, 5);
        assert_eq!(d.len(), 4);
        for (got, want) in d.iter().zip([0.125, 0.375, 0.375, 0.125]) {
            assert!(close(*got, want));
        }
        assert!(close(expected_wounds(&d), 1.5));
        // 2 dice saving on 1..=7: wound chance 0.3 each.
        let d = wound_distribution(2, 7);
        assert!(close(d[0], 0.49) && close(d[1], 0.42) && close(d[2], 0.09));
    }

    #[test]
    fn wound_distribution_edges() {
        assert_eq!(wound_distribution(0, 5), vec![1.0]);
        assert_eq!(wound_distribution(2, 0), vec![0.0, 0.0, 1.0]);
        assert_eq!(wound_distribution(2, 10), vec![1.0, 0.0, 0.0]);
        for damage in 0..=20 {
            for target in 1..=9 {
                let sum: f64 = wound_distribution(damage, target).iter().sum();
                assert!((sum - 1.0).abs() < 1e-9);
            }
        }
    }
}
