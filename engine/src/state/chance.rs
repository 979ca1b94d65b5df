//! Exact outcome tables for chance nodes, built once per process and shared.
//!
//! A test's outcomes are grouped by what matters to the rules (success level and highest
//! successful die, which breaks opposed ties); an armour roll's by the number of wounds.

use crate::dice::{TestLevel, TestOutcome};
use crate::odds;
use std::sync::OnceLock;

/// Most damage dice one armour roll can ask for; larger rolls are computed on demand.
const TABLED_DAMAGE: usize = 16;

type TestTable = Vec<(TestOutcome, f64)>;

/// Grouped outcomes of an attribute test against `attr` (already modified; clamped 1..=9).
pub fn test_table(attr: u8, narrative_feats: bool) -> &'static [(TestOutcome, f64)] {
    static TABLES: OnceLock<[Vec<TestTable>; 2]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let build = |narrative: bool| (0..=9).map(|a| odds::test_outcomes(a.max(1), narrative)).collect();
        [build(false), build(true)]
    });
    &tables[narrative_feats as usize][attr.clamp(1, 9) as usize]
}

/// Outcomes of an unopposed test against `attr`, grouped by level only (the highest
/// successful die only matters in opposed tests); impossible levels are left out.
pub fn level_table(attr: u8, narrative_feats: bool) -> &'static [(TestOutcome, f64)] {
    static TABLES: OnceLock<[Vec<TestTable>; 2]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let build = |narrative: bool| {
            (0..=9)
                .map(|a| {
                    let dist = odds::level_distribution(a.max(1), narrative);
                    TestLevel::ALL
                        .iter()
                        .zip(dist)
                        .filter(|&(_, p)| p > 0.0)
                        .map(|(&level, p)| (TestOutcome { level, high_die: 0 }, p))
                        .collect()
                })
                .collect()
        };
        [build(false), build(true)]
    });
    &tables[narrative_feats as usize][attr.clamp(1, 9) as usize]
}

/// Probability of each number of wounds (index) when rolling `damage` armour dice that save on
/// `target` or less.
pub fn wound_table(damage: u8, target: u8) -> std::borrow::Cow<'static, [f64]> {
    static TABLES: OnceLock<Vec<Vec<f64>>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        (0..=TABLED_DAMAGE)
            .flat_map(|d| (0..=10u8).map(move |t| odds::wound_distribution(d as u8, t)))
            .collect()
    });
    if (damage as usize) <= TABLED_DAMAGE && target <= 10 {
        std::borrow::Cow::Borrowed(&tables[damage as usize * 11 + target as usize])
    } else {
        std::borrow::Cow::Owned(odds::wound_distribution(damage, target))
    }
}
