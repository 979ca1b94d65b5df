//! The enemy die of Ulaya Chronicles (seed 003, "Basics" and "The Drowned Earth Conversion",
//! "Dice mechanics"): an AI model rolls one black D10 whose 1 face carries the frenzy symbol.
//! It only ever passes, fails or rolls frenzy; frenzy beats everything, even a feat, and an AI
//! model wins ties. Dice are never rolled here: faces come from chance nodes.

use crate::dice::{clamp_attribute, TestLevel, TestOutcome};
use crate::odds::test_outcomes;
use serde::{Deserialize, Serialize};

/// The enemy die face that carries the frenzy symbol instead of a 1 (ruling: the same face as
/// the feat symbol on a feat die).
pub const FRENZY_FACE: u8 = 1;

/// What an AI model's test produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnemyLevel {
    /// The face is over the attribute.
    Fail,
    /// The face is at or under the attribute.
    Pass,
    /// The frenzy symbol: beats every player result.
    Frenzy,
}

/// An AI model's test: its level and the face (the tie-break of equal passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EnemyOutcome {
    /// Success level.
    pub level: EnemyLevel,
    /// The numeric face when it passed, else 0.
    pub face: u8,
}

impl EnemyOutcome {
    /// Whether the AI model succeeds on its own (pass or frenzy).
    pub fn is_success(self) -> bool {
        self.level >= EnemyLevel::Pass
    }
}

/// Evaluate an enemy die face (1..=10) against an (already modified) attribute.
pub fn evaluate_enemy(attribute: i32, face: u8) -> EnemyOutcome {
    let attr = clamp_attribute(attribute);
    if face == FRENZY_FACE {
        EnemyOutcome { level: EnemyLevel::Frenzy, face: 0 }
    } else if face <= attr {
        EnemyOutcome { level: EnemyLevel::Pass, face }
    } else {
        EnemyOutcome { level: EnemyLevel::Fail, face: 0 }
    }
}

/// Who wins an opposed test between a player-controlled model and an AI model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VsEnemy {
    /// The player's model wins; only its action takes effect.
    Player,
    /// The AI model wins; only its action takes effect.
    Enemy,
    /// Both failed: neither action takes effect.
    Neither,
}

/// Rank of a result on the shared ladder Frenzy > Feat > Nailed it > Pass > Fail.
fn player_rank(level: TestLevel) -> u8 {
    match level {
        TestLevel::Blunder | TestLevel::Fail => 0,
        TestLevel::Pass => 1,
        TestLevel::NailedIt => 2,
        TestLevel::Feat => 3,
    }
}

fn enemy_rank(level: EnemyLevel) -> u8 {
    match level {
        EnemyLevel::Fail => 0,
        EnemyLevel::Pass => 1,
        EnemyLevel::Frenzy => 4,
    }
}

/// Compare a player's test with an AI model's: the better result wins; at equal passes the
/// higher successful die wins and equal dice go to the AI model; two failures do nothing.
pub fn opposed_vs_enemy(player: TestOutcome, enemy: EnemyOutcome) -> VsEnemy {
    let (p, e) = (player_rank(player.level), enemy_rank(enemy.level));
    if p == 0 && e == 0 {
        return VsEnemy::Neither;
    }
    match p.cmp(&e) {
        std::cmp::Ordering::Greater => VsEnemy::Player,
        std::cmp::Ordering::Less => VsEnemy::Enemy,
        std::cmp::Ordering::Equal if player.high_die > enemy.face => VsEnemy::Player,
        std::cmp::Ordering::Equal => VsEnemy::Enemy,
    }
}

/// Every enemy die face with its probability (each 1/10).
pub fn enemy_outcomes(attribute: i32) -> Vec<(EnemyOutcome, f64)> {
    (1..=10).map(|face| (evaluate_enemy(attribute, face), 0.1)).collect()
}

/// Exact odds of an opposed test between a player's attribute and an AI model's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct VsEnemyOdds {
    /// The player's model wins.
    pub player: f64,
    /// The AI model wins.
    pub enemy: f64,
    /// Both fail.
    pub neither: f64,
}

/// The exact odds of `player_attr` (two dice) against `enemy_attr` (the enemy die).
pub fn vs_enemy_odds(player_attr: i32, enemy_attr: i32, narrative_feats: bool) -> VsEnemyOdds {
    let mut odds = VsEnemyOdds { player: 0.0, enemy: 0.0, neither: 0.0 };
    for (p, pp) in test_outcomes(player_attr, narrative_feats) {
        for (e, pe) in enemy_outcomes(enemy_attr) {
            match opposed_vs_enemy(p, e) {
                VsEnemy::Player => odds.player += pp * pe,
                VsEnemy::Enemy => odds.enemy += pp * pe,
                VsEnemy::Neither => odds.neither += pp * pe,
            }
        }
    }
    odds
}

/// An AI model's result as the engine's tests carry it: frenzy as a Feat, a pass with its
/// face as the highest die, a fail as a Fail. [`from_test_outcome`] reverses it.
pub fn as_test_outcome(e: EnemyOutcome) -> TestOutcome {
    match e.level {
        EnemyLevel::Frenzy => TestOutcome { level: TestLevel::Feat, high_die: 0 },
        EnemyLevel::Pass => TestOutcome { level: TestLevel::Pass, high_die: e.face },
        EnemyLevel::Fail => TestOutcome { level: TestLevel::Fail, high_die: 0 },
    }
}

/// The AI model's result a test outcome made by [`as_test_outcome`] stands for.
pub fn from_test_outcome(t: TestOutcome) -> EnemyOutcome {
    match t.level {
        TestLevel::Feat => EnemyOutcome { level: EnemyLevel::Frenzy, face: 0 },
        TestLevel::Pass | TestLevel::NailedIt => EnemyOutcome { level: EnemyLevel::Pass, face: t.high_die },
        TestLevel::Fail | TestLevel::Blunder => EnemyOutcome { level: EnemyLevel::Fail, face: 0 },
    }
}

/// The chance outcomes of an AI model's test against `attr` (1..=10) as the engine's tests
/// carry them: for an opposed test every face apart (ties need it), for an unopposed one only
/// frenzy, pass and fail.
pub fn enemy_test_table(attr: u8, opposed: bool) -> &'static [(TestOutcome, f64)] {
    static TABLES: std::sync::OnceLock<Vec<Vec<(TestOutcome, f64)>>> = std::sync::OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        let mut all = Vec::new();
        for opposed in [false, true] {
            for attr in 1..=10 {
                let mut table: Vec<(TestOutcome, f64)> = Vec::new();
                for (e, p) in enemy_outcomes(attr) {
                    let mut t = as_test_outcome(e);
                    if !opposed {
                        t.high_die = 0;
                    }
                    match table.iter_mut().find(|(x, _)| *x == t) {
                        Some(entry) => entry.1 += p,
                        None => table.push((t, p)),
                    }
                }
                all.push(table);
            }
        }
        all
    });
    &tables[usize::from(opposed) * 10 + clamp_attribute(attr as i32) as usize - 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{evaluate, TestRoll};

    fn player(attr: i32, a: u8, f: u8) -> TestOutcome {
        evaluate(attr, TestRoll { attribute_die: a, feat_die: f }, false)
    }

    #[test]
    fn frenzy_beats_even_a_feat() {
        let feat = player(7, 3, 1);
        assert_eq!(feat.level, TestLevel::Feat);
        assert_eq!(opposed_vs_enemy(feat, evaluate_enemy(5, FRENZY_FACE)), VsEnemy::Enemy);
        // Frenzy succeeds whatever the attribute.
        assert_eq!(evaluate_enemy(1, FRENZY_FACE).level, EnemyLevel::Frenzy);
    }

    #[test]
    fn the_ai_model_wins_ties_and_better_levels_win() {
        // Pass 6 against pass 6: the AI model wins the tie.
        let pass6 = player(7, 6, 9);
        assert_eq!(pass6.level, TestLevel::Pass);
        assert_eq!(opposed_vs_enemy(pass6, evaluate_enemy(7, 6)), VsEnemy::Enemy);
        // A higher successful die wins at equal levels.
        assert_eq!(opposed_vs_enemy(pass6, evaluate_enemy(7, 5)), VsEnemy::Player);
        assert_eq!(opposed_vs_enemy(pass6, evaluate_enemy(7, 7)), VsEnemy::Enemy);
        // Nailed it beats any enemy pass.
        let nailed = player(7, 2, 3);
        assert_eq!(nailed.level, TestLevel::NailedIt);
        assert_eq!(opposed_vs_enemy(nailed, evaluate_enemy(9, 9)), VsEnemy::Player);
        // Two failures: nothing happens; one failure loses.
        let fail = player(4, 8, 9);
        assert_eq!(opposed_vs_enemy(fail, evaluate_enemy(4, 8)), VsEnemy::Neither);
        assert_eq!(opposed_vs_enemy(fail, evaluate_enemy(4, 3)), VsEnemy::Enemy);
        assert_eq!(opposed_vs_enemy(pass6, evaluate_enemy(4, 8)), VsEnemy::Player);
    }

    #[test]
    fn odds_sum_to_one_and_match_a_hand_count() {
        for p in 1..=9 {
            for e in 1..=9 {
                let o = vs_enemy_odds(p, e, false);
                assert!((o.player + o.enemy + o.neither - 1.0).abs() < 1e-12);
            }
        }
        // Enemy attribute 1: it succeeds only on frenzy (1 in 10); its pass faces are empty.
        // Against a player with attribute 9 the player loses exactly when frenzy comes up or
        // the player fails (attribute die 10 without the feat symbol: 9 in 100).
        let o = vs_enemy_odds(9, 1, false);
        let player_fails = 0.09;
        assert!((o.neither - 0.9 * player_fails).abs() < 1e-12, "{o:?}");
        assert!((o.enemy - 0.1).abs() < 1e-12, "{o:?}");
    }
}
