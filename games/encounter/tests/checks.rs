//! The odds of D6 checks ("Checks System") against a brute-force enumeration of every die,
//! and each outcome rule quoted from the seed.

use encounter::checks::{
    basic_face, basic_odds, complex_odds, confirm_face, die_marks, extended_odds, extended_step,
    marks_outcome, opposed_obstacle, unopposed_obstacle, Difficulty, Extended, Outcome, Roll,
};

/// Every die of a Basic check enumerated: the one or two dice (kept higher or lower), and the
/// confirmation die always rolled (used only when needed).
fn basic_brute(obstacle: i8, roll: Roll) -> [f64; 5] {
    let ob = obstacle.clamp(2, 7) as u8;
    let mut counts = [0u64; 5];
    let mut total = 0u64;
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            for confirm in 1..=6u8 {
                let face = match roll {
                    Roll::Normal => a,
                    Roll::Favour => a.max(b),
                    Roll::Peril => a.min(b),
                };
                let outcome = basic_face(face, ob).unwrap_or_else(|| confirm_face(confirm, ob));
                counts[outcome as usize] += 1;
                total += 1;
            }
        }
    }
    counts.map(|c| c as f64 / total as f64)
}

/// Every die of a Complex check enumerated: each die with its bonus die (rolled always, read
/// only after a 6), 36^n combinations.
fn complex_brute(dice: u8, target: u8, obstacle: u8) -> [f64; 5] {
    let mut counts = [0u64; 5];
    let combos = 36u64.pow(dice as u32);
    for code in 0..combos {
        let mut c = code;
        let mut marks = 0;
        for _ in 0..dice {
            let (face, bonus) = ((c % 6) as u8 + 1, ((c / 6) % 6) as u8 + 1);
            c /= 36;
            marks += die_marks(face, bonus, target);
        }
        counts[marks_outcome(marks, obstacle as i32) as usize] += 1;
    }
    counts.map(|n| n as f64 / combos as f64)
}

fn close(a: [f64; 5], b: [f64; 5]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
}

#[test]
fn basic_check_odds_equal_an_enumeration_of_every_die() {
    for ob in 0..=9 {
        for roll in [Roll::Normal, Roll::Favour, Roll::Peril] {
            let exact = basic_odds(ob, roll);
            assert!(close(exact, basic_brute(ob, roll)), "Ob {ob} {roll:?}: {exact:?}");
            assert!((exact.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn complex_check_odds_equal_an_enumeration_of_every_die() {
    for dice in 1..=4 {
        for target in 2..=6 {
            for ob in 0..=5 {
                let exact = complex_odds(dice, target, ob);
                assert!(
                    close(exact, complex_brute(dice, target, ob)),
                    "{dice}d vs {target}, Ob {ob}: {exact:?}"
                );
            }
        }
    }
}

#[test]
fn basic_outcomes_follow_the_seed() {
    // "Bane: Roll = 1 - Failure: Roll < Obstacle - Complication: Roll = Obstacle - Success:
    // Roll > Obstacle - Boon: Roll = 6"
    assert_eq!(basic_face(1, 3), Some(Outcome::Bane));
    assert_eq!(basic_face(2, 3), Some(Outcome::Failure));
    assert_eq!(basic_face(3, 3), Some(Outcome::Complication));
    assert_eq!(basic_face(4, 3), Some(Outcome::Success));
    assert_eq!(basic_face(6, 3), Some(Outcome::Boon));
    // "For Obstacle ≥6, Boon requires confirmation by rolling success again."
    assert_eq!(basic_face(6, 6), None);
    assert_eq!(confirm_face(6, 6), Outcome::Boon);
    assert_eq!(confirm_face(5, 6), Outcome::Complication);
    assert_eq!(confirm_face(5, 7), Outcome::Failure);
    // Normal odds at Ob 4: Bane 1/6, Failure 2/6, Complication 1/6, Success 1/6, Boon 1/6.
    let odds = basic_odds(4, Roll::Normal);
    assert!(close(odds, [1.0 / 6.0, 2.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0]));
}

#[test]
fn favour_raises_and_peril_lowers_the_chance_of_success() {
    // "Favour: Increases chances of success. Peril: Reduces chances of success."
    // "Multiple instances cancel each other: Peril > Favour: Roll is perilous; Peril = Favour:
    // Normal roll; Favour > Peril: Roll is favourable"
    let success = |r: Roll| basic_odds(4, r)[2..].iter().sum::<f64>();
    assert!(success(Roll::Favour) > success(Roll::Normal));
    assert!(success(Roll::Peril) < success(Roll::Normal));
    assert_eq!(Roll::net(2, 1), Roll::Favour);
    assert_eq!(Roll::net(1, 1), Roll::Normal);
    assert_eq!(Roll::net(0, 2), Roll::Peril);
}

#[test]
fn complex_checks_count_marks_with_ones_and_sixes() {
    // "Each die ≥ Target generates one Mark. Rolling 1: -1 Mark. Rolling 6: Roll again for
    // bonus Mark."
    assert_eq!(die_marks(4, 1, 4), 1);
    assert_eq!(die_marks(3, 1, 4), 0);
    assert_eq!(die_marks(1, 6, 4), -1);
    assert_eq!(die_marks(6, 5, 4), 2);
    assert_eq!(die_marks(6, 2, 4), 1);
    // "Compare total Marks to Obstacle for Outcome."
    assert_eq!(marks_outcome(1, 2), Outcome::Failure);
    assert_eq!(marks_outcome(2, 2), Outcome::Complication);
    assert_eq!(marks_outcome(3, 2), Outcome::Success);
}

#[test]
fn difficulty_modifies_the_reference_value_not_the_obstacle_rule() {
    // "Difficulty: Always modifies Reference Value, never Obstacle": a harder check lowers
    // the Reference Value the Obstacle is read from (ruling), one step per level.
    assert_eq!(unopposed_obstacle(4, Difficulty::Routine.steps()), 3);
    assert_eq!(unopposed_obstacle(4, Difficulty::Challenging.steps()), 4);
    assert_eq!(unopposed_obstacle(4, Difficulty::Easy.steps()), 2);
    // "Opposed: Reference Value based on Target's skill"
    assert_eq!(opposed_obstacle(3, 3, 0), 4);
    assert_eq!(opposed_obstacle(3, 5, 0), 6);
}

/// Every die of every roll of an Extended check enumerated (each die with its bonus die,
/// 36^(dice·rolls) combinations), the seed's procedure followed literally: add each roll's
/// Marks, stop at the Obstacle (its Complex outcome) or at 0 or below (Bane), Failure when
/// the rolls run out.
fn extended_brute(dice: u8, target: u8, obstacle: u8, rolls: u8) -> [f64; 5] {
    let mut counts = [0u64; 5];
    let combos = 36u64.pow(dice as u32 * rolls as u32);
    let ob = obstacle as i32;
    for code in 0..combos {
        let mut c = code;
        let mut total = 0;
        let mut outcome = Outcome::Failure;
        for _ in 0..rolls {
            for _ in 0..dice {
                let (face, bonus) = ((c % 6) as u8 + 1, ((c / 6) % 6) as u8 + 1);
                c /= 36;
                total += die_marks(face, bonus, target);
            }
            if total >= ob {
                outcome = marks_outcome(total, ob);
                break;
            }
            if total <= 0 {
                outcome = Outcome::Bane;
                break;
            }
        }
        counts[outcome as usize] += 1;
    }
    counts.map(|n| n as f64 / combos as f64)
}

#[test]
fn extended_check_odds_equal_an_enumeration_of_every_die_of_every_roll() {
    for (dice, rolls) in [(1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 2), (3, 1)] {
        for target in [3, 4, 6] {
            for ob in 1..=4 {
                let exact = extended_odds(dice, target, ob, rolls);
                let brute = extended_brute(dice, target, ob, rolls);
                assert!(
                    close(exact, brute),
                    "{dice}d vs {target}, Ob {ob}, {rolls} rolls: {exact:?} {brute:?}"
                );
                assert!((exact.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
        }
    }
    // One roll is a Complex check, but for the Bane at 0 Marks.
    let one = extended_odds(3, 4, 2, 1);
    let complex = complex_odds(3, 4, 2);
    assert!((one[2..].iter().sum::<f64>() - complex[2..].iter().sum::<f64>()).abs() < 1e-12);
    assert!(one[0] > complex[0]);
}

#[test]
fn extended_checks_roll_again_until_the_obstacle_or_a_bane() {
    // "Extended Checks - Procedure: Use Complex Check rules. Multiple rolls allowed until
    // Obstacle reached. Time Cost: Each roll consumes 1 unit of Time. Failure Condition: If
    // Marks reach 0 or below, Check ends as Bane."
    assert_eq!(extended_step(0, 2, 5, false), Extended::Going(2));
    assert_eq!(extended_step(2, 2, 5, false), Extended::Going(4));
    assert_eq!(extended_step(4, 1, 5, false), Extended::Done(Outcome::Complication));
    assert_eq!(extended_step(4, 2, 5, false), Extended::Done(Outcome::Success));
    assert_eq!(extended_step(4, 4, 5, false), Extended::Done(Outcome::Boon));
    assert_eq!(extended_step(2, -2, 5, false), Extended::Done(Outcome::Bane));
    assert_eq!(extended_step(0, 0, 5, false), Extended::Done(Outcome::Bane));
    assert_eq!(extended_step(2, 1, 5, true), Extended::Done(Outcome::Failure));
    // More time helps: each further roll raises the chance of reaching the Obstacle.
    let success = |rolls| extended_odds(3, 4, 4, rolls)[2..].iter().sum::<f64>();
    assert!(success(1) < success(2) && success(2) < success(4) && success(4) < success(8));
    // Without a last roll nothing is a plain Failure; with many rolls nearly all ends.
    assert!(extended_odds(3, 4, 4, 1)[Outcome::Failure as usize] > 0.0);
    assert!(extended_odds(3, 4, 4, 60)[Outcome::Failure as usize] < 1e-6);
}
