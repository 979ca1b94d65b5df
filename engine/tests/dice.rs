//! Rulebook checks of `engine::dice` and `engine::odds`: the Attribute Test Results Table
//! (p.14), the opposed-test examples (p.16), the French v1.4 true-tie example and exact odds
//! worked out by hand in the comments.

use engine::dice::{
    clamp_attribute, d5_from_d10, evaluate, opposed, OpposedResult, RerollState, TestLevel, TestOutcome,
    TestRoll, FEAT_SYMBOL,
};
use engine::odds::{
    all_rolls, armour_target, expected_wounds, level_distribution, opposed_odds, test_outcomes,
    wound_distribution,
};

const EPS: f64 = 1e-12;

/// The roll with attribute die `a` and feat die `f` (1 on the feat die is the feat symbol).
fn roll(a: u8, f: u8) -> TestRoll {
    TestRoll { attribute_die: a, feat_die: f }
}

fn outcome(level: TestLevel, high_die: u8) -> TestOutcome {
    TestOutcome { level, high_die }
}

fn std_eval(attr: i32, a: u8, f: u8) -> TestOutcome {
    evaluate(attr, roll(a, f), false)
}

fn assert_close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < EPS, "{what}: got {got}, want {want}");
}

// ---------------------------------------------------------------------------------------
// Attribute Test Results Table (p.14), one test per row.
// ---------------------------------------------------------------------------------------

/// Row 1: "Any result | Is a Q | Feat".
#[test]
fn table_row_feat_symbol_is_feat_for_any_attribute_die() {
    for attr in 1..=9 {
        for a in 1..=10 {
            let o = std_eval(attr, a, FEAT_SYMBOL);
            assert_eq!(o.level, TestLevel::Feat, "attr {attr}, attribute die {a}");
            assert!(o.is_success() && o.level.is_nailed());
        }
    }
}

/// Row 2: "Is equal or under the Attribute | Is equal or under Attribute | Nailed It".
#[test]
fn table_row_both_dice_under_is_nailed_it() {
    assert_eq!(std_eval(6, 5, 3), outcome(TestLevel::NailedIt, 5));
    assert_eq!(std_eval(6, 2, 6), outcome(TestLevel::NailedIt, 6));
    // Equal to the attribute counts as under it.
    assert_eq!(std_eval(6, 6, 6), outcome(TestLevel::NailedIt, 6));
}

/// Row 3: "Is equal or under Attribute | Is over Attribute | Pass".
#[test]
fn table_row_attribute_die_only_is_pass() {
    assert_eq!(std_eval(6, 5, 9), outcome(TestLevel::Pass, 5));
    assert_eq!(std_eval(6, 6, 7), outcome(TestLevel::Pass, 6));
    assert_eq!(std_eval(1, 1, 10), outcome(TestLevel::Pass, 1));
}

/// Row 4: "Is over Attribute | Any result except Q | Fail" — even when the feat die is under.
#[test]
fn table_row_attribute_die_over_is_fail() {
    assert_eq!(std_eval(6, 7, 3), outcome(TestLevel::Fail, 0));
    assert_eq!(std_eval(6, 10, 9), outcome(TestLevel::Fail, 0));
    assert_eq!(std_eval(6, 7, 2), outcome(TestLevel::Fail, 0));
}

/// Row 5: "Is a double, over Attribute | Is a double, over Attribute | Blunder".
#[test]
fn table_row_double_over_is_blunder() {
    for attr in 1..=9u8 {
        for face in 2..=10u8 {
            let o = std_eval(i32::from(attr), face, face);
            if face > attr {
                assert_eq!(o, outcome(TestLevel::Blunder, 0), "attr {attr} double {face}");
                assert!(!o.is_success());
            } else {
                assert_eq!(o, outcome(TestLevel::NailedIt, face), "attr {attr} double {face}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Feats, doubles and the high die.
// ---------------------------------------------------------------------------------------

/// With the feat symbol the only numeric die is the attribute die: it counts for ties only
/// when it is at or under the attribute ("highest successful die", p.16); otherwise the Feat
/// has no successful numeric die (high die 0).
#[test]
fn feat_symbol_high_die_is_attribute_die_only_if_successful() {
    assert_eq!(std_eval(6, 4, FEAT_SYMBOL), outcome(TestLevel::Feat, 4));
    assert_eq!(std_eval(6, 6, FEAT_SYMBOL), outcome(TestLevel::Feat, 6));
    assert_eq!(std_eval(6, 7, FEAT_SYMBOL), outcome(TestLevel::Feat, 0));
    assert_eq!(std_eval(6, 10, FEAT_SYMBOL), outcome(TestLevel::Feat, 0));
    // 1 on the attribute die with the feat symbol: a feat, not a double.
    assert_eq!(std_eval(6, 1, FEAT_SYMBOL), outcome(TestLevel::Feat, 1));
    assert_eq!(evaluate(6, roll(1, FEAT_SYMBOL), true), outcome(TestLevel::Feat, 1));
}

/// A Feat always beats a "Nailed It", whatever the dice (p.16: higher success level wins).
#[test]
fn feat_without_numeric_die_beats_any_nailed_it() {
    let feat = std_eval(6, 9, FEAT_SYMBOL);
    let nailed = std_eval(9, 9, 8);
    assert_eq!(feat.high_die, 0);
    assert_eq!(opposed(feat, nailed), OpposedResult::AWins);
    assert_eq!(opposed(nailed, feat), OpposedResult::BWins);
}

/// Narrative Feats (optional, p.14): doubles at or under the attribute are Feats; doubles
/// over it are still Blunders.
#[test]
fn narrative_feats_doubles() {
    assert_eq!(evaluate(6, roll(4, 4), true), outcome(TestLevel::Feat, 4));
    assert_eq!(evaluate(6, roll(6, 6), true), outcome(TestLevel::Feat, 6));
    assert_eq!(evaluate(6, roll(4, 4), false), outcome(TestLevel::NailedIt, 4));
    assert_eq!(evaluate(6, roll(7, 7), true), outcome(TestLevel::Blunder, 0));
    // Non-doubles are unaffected by the option.
    for r in all_rolls() {
        if r.attribute_die != r.feat_die {
            assert_eq!(evaluate(5, r, true), evaluate(5, r, false), "{r:?}");
        }
    }
}

/// "A modifier may never raise an attribute to more than 9 or less than 1" (p.14).
#[test]
fn modified_attributes_are_clamped() {
    assert_eq!(clamp_attribute(12), 9);
    assert_eq!(clamp_attribute(-3), 1);
    assert_eq!(clamp_attribute(0), 1);
    assert_eq!(clamp_attribute(5), 5);
    for nf in [false, true] {
        for r in all_rolls() {
            assert_eq!(evaluate(12, r, nf), evaluate(9, r, nf), "{r:?}");
            assert_eq!(evaluate(10, r, nf), evaluate(9, r, nf), "{r:?}");
            assert_eq!(evaluate(-3, r, nf), evaluate(1, r, nf), "{r:?}");
        }
        assert_eq!(test_outcomes(12, nf), test_outcomes(9, nf));
        assert_eq!(test_outcomes(-3, nf), test_outcomes(1, nf));
    }
    // "There's always a chance!": a 10 always fails, a 1 on the attribute die always passes.
    assert_eq!(std_eval(12, 10, 5).level, TestLevel::Fail);
    assert_eq!(std_eval(12, 10, 10).level, TestLevel::Blunder);
    assert_eq!(std_eval(-3, 1, 5).level, TestLevel::Pass);
}

// ---------------------------------------------------------------------------------------
// Opposed tests (p.16).
// ---------------------------------------------------------------------------------------

/// Nix (CC 6) and Lissz (CC 7) both pass on the attribute die, feat dice over the attribute:
/// "Lissz wins with a highest successful die result of 7" (vs Nix's 5).
#[test]
fn english_example_both_pass_lissz_wins_seven_to_five() {
    let nix = std_eval(6, 5, 9);
    let lissz = std_eval(7, 7, 8);
    assert_eq!(nix, outcome(TestLevel::Pass, 5));
    assert_eq!(lissz, outcome(TestLevel::Pass, 7));
    assert_eq!(opposed(nix, lissz), OpposedResult::BWins);
    assert_eq!(opposed(lissz, nix), OpposedResult::AWins);
}

/// Both Nail It: "Nix wins, as her Attribute roll of 5 is higher than Lissz's successful die
/// rolls of 1 and 4." (Lissz's 1 is on the attribute die: a 1 on the feat die is the symbol.)
#[test]
fn english_example_both_nailed_nix_wins_with_five() {
    let nix = std_eval(6, 5, 3);
    let lissz = std_eval(7, 1, 4);
    assert_eq!(nix, outcome(TestLevel::NailedIt, 5));
    assert_eq!(lissz, outcome(TestLevel::NailedIt, 4));
    assert_eq!(opposed(nix, lissz), OpposedResult::AWins);
}

/// "True Tie (4 highest)": only the highest successful die counts; the second die does not
/// break ties, whichever die shows the 4. Both actions succeed.
#[test]
fn english_example_true_tie_on_fours() {
    let nix = std_eval(6, 4, 3);
    let lissz = std_eval(7, 2, 4);
    assert_eq!(nix, outcome(TestLevel::NailedIt, 4));
    assert_eq!(lissz, outcome(TestLevel::NailedIt, 4));
    assert_eq!(opposed(nix, lissz), OpposedResult::TrueTie);
    // Same at Pass level.
    assert_eq!(opposed(std_eval(6, 4, 9), std_eval(7, 4, 8)), OpposedResult::TrueTie);
}

/// French v1.4 example (Narrative Feats standard there): one player's Feat comes from a double
/// 4-4, the other's from the feat symbol with attribute die 4. The feat symbol has no numeric
/// value, so the highest successful die is 4 on both sides: a true tie.
#[test]
fn french_example_feat_double_vs_feat_symbol_is_true_tie() {
    let double = evaluate(6, roll(4, 4), true);
    let symbol = evaluate(7, roll(4, FEAT_SYMBOL), true);
    assert_eq!(double, outcome(TestLevel::Feat, 4));
    assert_eq!(symbol, outcome(TestLevel::Feat, 4));
    assert_eq!(opposed(double, symbol), OpposedResult::TrueTie);
    // Under the standard rules the 4-4 is only a "Nailed It" and loses to the feat.
    let double_std = evaluate(6, roll(4, 4), false);
    let symbol_std = evaluate(7, roll(4, FEAT_SYMBOL), false);
    assert_eq!(opposed(double_std, symbol_std), OpposedResult::BWins);
}

/// "If both Models Fail neither Action is successful", Blunders included; a success beats any
/// failure; a higher level beats a lower one whatever the dice.
#[test]
fn opposed_failures_and_levels() {
    let fail = std_eval(5, 8, 3);
    let blunder = std_eval(5, 9, 9);
    let pass = std_eval(5, 1, 9);
    let nailed = std_eval(5, 2, 2);
    let feat = std_eval(5, 9, FEAT_SYMBOL);
    assert_eq!(opposed(fail, blunder), OpposedResult::BothFail);
    assert_eq!(opposed(blunder, blunder), OpposedResult::BothFail);
    assert_eq!(opposed(fail, fail), OpposedResult::BothFail);
    assert_eq!(opposed(pass, blunder), OpposedResult::AWins);
    assert_eq!(opposed(fail, pass), OpposedResult::BWins);
    // Pass with 1 loses to Nailed It with 2, which loses to a Feat with no numeric die.
    assert_eq!(opposed(pass, nailed), OpposedResult::BWins);
    assert_eq!(opposed(nailed, feat), OpposedResult::BWins);
    assert_eq!(opposed(feat, feat), OpposedResult::TrueTie);
}

// ---------------------------------------------------------------------------------------
// Re-rolls and D5 (p.9).
// ---------------------------------------------------------------------------------------

#[test]
fn reroll_bookkeeping() {
    let pass = std_eval(5, 3, 8);
    let fail = std_eval(5, 8, 3);
    let feat = std_eval(5, 8, FEAT_SYMBOL);
    let blunder = std_eval(5, 8, 8);
    let mut state = RerollState::default();
    assert!(state.may_reroll(pass));
    assert!(state.may_reroll(fail));
    // A Feat or Blunder may never be re-rolled.
    assert!(!state.may_reroll(feat));
    assert!(!state.may_reroll(blunder));
    // A re-roll may never be re-rolled.
    state.mark_rerolled();
    assert!(!state.may_reroll(pass));
    assert!(!state.may_reroll(fail));
}

#[test]
fn d5_halves_rounding_up() {
    let got: Vec<u8> = (1..=10).map(d5_from_d10).collect();
    assert_eq!(got, vec![1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
}

// ---------------------------------------------------------------------------------------
// Exact odds.
// ---------------------------------------------------------------------------------------

/// Attribute 7, standard rules, out of 100 (attribute die, feat die) pairs:
/// - feat: feat symbol on the feat die, any attribute die: 10 -> 0.10
/// - blunder: doubles over 7, faces 8, 9, 10 (the feat symbol is never a double over 7): 3
/// - nailed it: attribute die 1..=7 (7) x feat die 2..=7 (6) = 42
/// - pass: attribute die 1..=7 (7) x feat die 8..=10 (3) = 21
/// - fail: attribute die 8..=10 (3) x feat die 2..=10 (9) = 27, minus the 3 blunders = 24
#[test]
fn attribute_seven_standard_levels() {
    let d = level_distribution(7, false);
    let want = [0.03, 0.24, 0.21, 0.42, 0.10];
    for (i, level) in TestLevel::ALL.iter().enumerate() {
        assert_close(d[i], want[i], level.name());
    }
}

/// Attribute 7 with Narrative Feats: the doubles 2-2 ..= 7-7 (6 pairs) move from "Nailed It"
/// to Feat: feat 16, nailed it 36, the rest unchanged.
#[test]
fn attribute_seven_narrative_levels() {
    let d = level_distribution(7, true);
    let want = [0.03, 0.24, 0.21, 0.36, 0.16];
    for (i, level) in TestLevel::ALL.iter().enumerate() {
        assert_close(d[i], want[i], level.name());
    }
}

/// Attribute 7 grouped outcomes (standard):
/// - Feat with high die 0: attribute die 8..=10 with the symbol, 3 -> 0.03
/// - Feat with high die k (1..=7): attribute die k with the symbol -> 0.01 each
/// - Pass with high die k: attribute die k, feat die 8..=10 -> 0.03 each
/// - Nailed it with high die k: pairs with max(a, f) = k, a in 1..=7, f in 2..=7: either
///   a = k and f in 2..=k (k - 1 pairs) or f = k and a in 1..k (k - 1 pairs), disjoint, so
///   2(k - 1) pairs: none for k = 1, 12 for k = 7; the sum over k = 2..=7 is 42 as above.
/// - Fail (high die 0): 24 pairs; Blunder: 3 pairs.
#[test]
fn attribute_seven_grouped_outcomes() {
    let out = test_outcomes(7, false);
    let p = |level, high| out.iter().find(|(o, _)| *o == outcome(level, high)).map_or(0.0, |&(_, p)| p);
    assert_close(p(TestLevel::Feat, 0), 0.03, "feat 0");
    for k in 1..=7 {
        assert_close(p(TestLevel::Feat, k), 0.01, "feat k");
        assert_close(p(TestLevel::Pass, k), 0.03, "pass k");
        assert_close(p(TestLevel::NailedIt, k), 2.0 * (f64::from(k) - 1.0) / 100.0, "nailed k");
    }
    assert_close(p(TestLevel::Fail, 0), 0.24, "fail");
    assert_close(p(TestLevel::Blunder, 0), 0.03, "blunder");
    // 1 + 7 feats, 7 passes, 6 nailed (k = 2..=7), fail, blunder.
    assert_eq!(out.len(), 8 + 7 + 6 + 2);
    assert!(out.windows(2).all(|w| w[0].0 < w[1].0), "sorted");
    assert_close(out.iter().map(|&(_, p)| p).sum(), 1.0, "sum");
}

/// Every distribution sums to 1, and the grouped outcomes agree with a direct enumeration.
#[test]
fn distributions_sum_to_one() {
    for attr in -3..=12 {
        for nf in [false, true] {
            assert_close(level_distribution(attr, nf).iter().sum(), 1.0, "levels");
            let out = test_outcomes(attr, nf);
            assert_close(out.iter().map(|&(_, p)| p).sum(), 1.0, "outcomes");
            for &(o, p) in &out {
                let n = all_rolls().filter(|&r| evaluate(attr, r, nf) == o).count();
                assert_close(p, n as f64 / 100.0, "outcome count");
            }
        }
    }
}

/// CC 6 against CC 7: both fail only if both attribute dice are over the attribute (fail or
/// blunder, no feat symbol): 4 x 9 = 36/100 and 3 x 9 = 27/100 -> 0.36 x 0.27 = 0.0972.
#[test]
fn opposed_six_vs_seven_both_fail() {
    for nf in [false, true] {
        let o = opposed_odds(6, 7, nf);
        assert_close(o.both_fail, 0.0972, "both fail");
        assert_close(o.a_wins + o.b_wins + o.true_tie + o.both_fail, 1.0, "sum");
        assert!(o.b_wins > o.a_wins);
    }
}

/// The odds agree with a direct enumeration of all 10,000 pairs of rolls.
#[test]
fn opposed_odds_match_brute_force() {
    for (a, b, nf) in [(6, 7, false), (3, 8, true), (9, 9, false), (1, 5, true)] {
        let mut counts = [0u32; 4];
        for ra in all_rolls() {
            for rb in all_rolls() {
                let i = match opposed(evaluate(a, ra, nf), evaluate(b, rb, nf)) {
                    OpposedResult::AWins => 0,
                    OpposedResult::BWins => 1,
                    OpposedResult::TrueTie => 2,
                    OpposedResult::BothFail => 3,
                };
                counts[i] += 1;
            }
        }
        let o = opposed_odds(a, b, nf);
        let got = [o.a_wins, o.b_wins, o.true_tie, o.both_fail];
        for i in 0..4 {
            assert_close(got[i], f64::from(counts[i]) / 10_000.0, "opposed");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Armour rolls (p.30, p.42, weapon properties p.53).
// ---------------------------------------------------------------------------------------

/// 3 damage against toughness 5: each die saves on 1..=5 (1/2), so P(0 wounds) = 1/8.
#[test]
fn armour_three_damage_toughness_five() {
    let t = armour_target(5, 0, 0, 0, false);
    assert_eq!(t, 5);
    let d = wound_distribution(3, t);
    assert_eq!(d.len(), 4);
    assert_close(d[0], 0.125, "0 wounds");
    assert_close(d[1], 0.375, "1 wound");
    assert_close(d[2], 0.375, "2 wounds");
    assert_close(d[3], 0.125, "3 wounds");
    assert_close(expected_wounds(&d), 1.5, "expected");
}

/// Toughness 4, Armour(1), hard cover (+1): target 6, wound chance 0.4 per die.
/// 2 damage: 0.6^2 = 0.36, 2 x 0.6 x 0.4 = 0.48, 0.4^2 = 0.16.
#[test]
fn armour_with_armour_and_hard_cover() {
    let t = armour_target(4, 1, 0, 0, true);
    assert_eq!(t, 6);
    let d = wound_distribution(2, t);
    assert_close(d[0], 0.36, "0");
    assert_close(d[1], 0.48, "1");
    assert_close(d[2], 0.16, "2");
}

/// Pierce deducts from toughness, Sunder from worn armour only, and the target stays in
/// 1..=9: a 10 always wounds, a 1 always saves.
#[test]
fn armour_pierce_sunder_and_clamping() {
    assert_eq!(armour_target(5, 2, 1, 0, false), 6);
    assert_eq!(armour_target(5, 2, 0, 1, false), 6);
    assert_eq!(armour_target(5, 1, 0, 2, false), 5);
    assert_eq!(armour_target(5, 1, 0, 2, true), 6);
    assert_eq!(armour_target(5, 5, 0, 0, true), 9);
    assert_eq!(armour_target(3, 0, 5, 0, false), 1);
    assert_close(wound_distribution(1, 9)[1], 0.1, "10 always wounds");
    assert_close(wound_distribution(1, 1)[0], 0.1, "1 always saves");
}

#[test]
fn wound_distributions_sum_to_one() {
    for damage in 0..=12 {
        for target in 1..=9 {
            let d = wound_distribution(damage, target);
            assert_eq!(d.len(), usize::from(damage) + 1);
            assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(d.iter().all(|&p| p >= 0.0));
        }
    }
}
