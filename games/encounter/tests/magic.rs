//! Magic (issue 60, round 2; seed 004 "Magic Systems", "Turn Sequence: 2. Determine Winds of
//! Magic"): the Winds of Magic, arcane casting as an Extended check of the Magic Pool with
//! Miscasts counted over all its rolls, a blast template, prayers as Manoeuvres, the odds at
//! the prompt and the scripted players' use. Each test quotes the seed; the numbers are the
//! illustrative ones of `data.rs` (docs/rulings-encounter.md, "Magic").
//! Models: 0 Brannoc, 1 Isolde (Mag 2), 2 Wat, 3 Garrick; 4 goblin cutter, 5 goblin spearman,
//! 6 goblin archer, 7 orc veteran (a prayer), 8 ogre chieftain.

use agents::{Agent, Game};
use encounter::board::Cell;
use encounter::checks::{marks_odds, ones_odds, rest_marks_odds, Outcome};
use encounter::conditions::Conditions;
use encounter::data::{CAST_ROLLS, CAST_TARGET, SPELLS};
use encounter::magic::{cast_odds, miscast, Miscast};
use encounter::state::{Casting, Pending, Purpose};
use encounter::{Action, Encounter, Intent, Phase};

const BRANNOC: u8 = 0;
const ISOLDE: u8 = 1;
const WAT: u8 = 2;
const CUTTER: u8 = 4;
const SPEARMAN: u8 = 5;
const ORC: u8 = 7;

fn c(x: u8, y: u8) -> Cell {
    Cell::new(x, y)
}

/// The models the pending damage checks are against, in the order they are pending.
fn damage_targets(s: &Encounter) -> Vec<u8> {
    s.pending()
        .iter()
        .filter_map(|p| match p {
            Pending::Check(k) => match k.purpose {
                Purpose::Damage { target, .. } => Some(target),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Set-up with no surprise, the Winds of Magic rolled `winds`, the party declaring first;
/// Isolde declares Cast, everyone else Fight; `first` activates first.
fn to_activation(winds: u8, first: u8) -> Encounter {
    let mut s = Encounter::start();
    for a in [Action::BuyPool(0), Action::Face(3)] {
        s.act(a).unwrap();
    }
    assert_eq!(s.phase(), Phase::Winds, "\"2. Determine Winds of Magic\" comes before the declarations");
    s.act(Action::Face(winds)).unwrap();
    s.act(Action::Face(2)).unwrap();
    while s.phase() == Phase::Declare {
        let cast = s.legal_actions().contains(&Action::Declare(Intent::Cast));
        s.act(Action::Declare(if cast { Intent::Cast } else { Intent::Fight })).unwrap();
    }
    assert_eq!(s.models()[ISOLDE as usize].intent, Some(Intent::Cast));
    let queue: Vec<u8> = (0..9).filter(|&m| s.models()[m as usize].declared).collect();
    for m in queue {
        s.act(Action::Face(if m == first { 6 } else { 1 })).unwrap();
    }
    assert_eq!(s.activation().map(|a| a.model), Some(first), "{}", s.render());
    s
}

/// Isolde at (2,5) with the goblin cutter at (5,5) in her sight.
fn isolde_facing_the_cutter(winds: u8) -> Encounter {
    let mut s = to_activation(winds, ISOLDE);
    s.pose_at(ISOLDE, c(2, 5)).unwrap();
    s.pose_at(CUTTER, c(5, 5)).unwrap();
    s
}

/// Roll one casting roll: `ones` dice show a 1, the rest score `rest` Marks.
fn roll(s: &mut Encounter, ones: u8, rest: u8) {
    assert!(matches!(s.pending().last(), Some(Pending::CastOnes(_))), "{:?}", s.pending());
    s.act(Action::Face(ones)).unwrap();
    assert!(matches!(s.pending().last(), Some(Pending::CastMarks(..))), "{:?}", s.pending());
    s.act(Action::Face(rest)).unwrap();
}

#[test]
fn a_roll_of_the_magic_pool_splits_exactly_into_its_ones_and_the_marks_of_the_rest() {
    // "Count total 1s rolled across all attempts = Miscast Number": a casting roll is rolled
    // as two chance nodes, the 1s and then the other dice; together they are the Complex roll
    // ("Rolling 1: -1 Mark - Rolling 6: Roll again for bonus Mark").
    for dice in 1..=4u8 {
        let whole = marks_odds(dice, CAST_TARGET);
        let mut split = vec![0.0; whole.len()];
        for (k, pk) in ones_odds(dice).into_iter().enumerate() {
            for (m, pm) in rest_marks_odds(dice - k as u8, CAST_TARGET).into_iter().enumerate() {
                split[(m as i64 - k as i64 + dice as i64) as usize] += pk * pm;
            }
        }
        for (a, b) in whole.iter().zip(&split) {
            assert!((a - b).abs() < 1e-12, "{dice} dice: {whole:?} against {split:?}");
        }
    }
    // Against every face of two dice and their bonus dice.
    let mut brute = [[0.0f64; 5]; 3];
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            for ba in 1..=6u8 {
                for bb in 1..=6u8 {
                    let ones = (a == 1) as usize + (b == 1) as usize;
                    let m = encounter::checks::die_marks(a, ba, CAST_TARGET)
                        + encounter::checks::die_marks(b, bb, CAST_TARGET)
                        + ones as i32;
                    brute[ones][m as usize] += 1.0 / 1296.0;
                }
            }
        }
    }
    for (ones, row) in brute.iter().enumerate() {
        let rest = rest_marks_odds(2 - ones as u8, CAST_TARGET);
        for (m, &p) in row.iter().enumerate() {
            let q = ones_odds(2)[ones] * rest.get(m).copied().unwrap_or(0.0);
            assert!((p - q).abs() < 1e-12, "{ones} ones, {m} marks: {p} against {q}");
        }
    }
}

#[test]
fn the_winds_of_magic_are_rolled_each_round_and_change_the_magic_pool() {
    // "2. Determine Winds of Magic: See Magic Systems section" (illustrative: 1 ebbing, 6
    // surging); "Magic (Mag): Wizard level; determines Magic Pool for spellcasting".
    let mag = encounter::data::PARTY[ISOLDE as usize].magic;
    for (face, pool) in [(1, mag - 1), (3, mag), (6, mag + 1)] {
        let s = to_activation(face, ISOLDE);
        assert_eq!(s.magic_pool(ISOLDE), pool, "winds roll {face}");
    }
    // Each round: round 2 rolls them again.
    let mut s = to_activation(3, ISOLDE);
    while s.round() == 1 {
        let legal = s.legal_actions();
        let a = *legal
            .iter()
            .find(|a| matches!(a, Action::EndActivation | Action::Pass | Action::Accept))
            .unwrap_or(&legal[0]);
        s.act(a).unwrap();
    }
    assert_eq!(s.phase(), Phase::Winds);
}

#[test]
fn casting_is_an_extended_check_of_the_magic_pool_against_the_casting_number() {
    // "Casting Procedure: Extended Check using Magic Pool. Magic Pool = number of dice equal to
    // Mag attribute. Obstacle: Casting Number of spell."
    let mut s = isolde_facing_the_cutter(3);
    let dart = Action::Cast { spell: 0, at: c(5, 5) };
    assert!(s.legal_actions().contains(&dart), "{:?}", s.legal_actions());
    s.act(dart).unwrap();
    assert_eq!(s.chance_outcomes().len(), 3, "0, 1 or 2 of the 2 dice show a 1");
    roll(&mut s, 0, 1); // 1 Mark of 2: the check goes on
    let Some(Pending::Channel(casting)) = s.pending().last().cloned() else { panic!("{:?}", s.pending()) };
    assert_eq!((casting.marks, casting.rolls, casting.ones), (1, 1, 0));
    assert_eq!(s.legal_actions(), vec![Action::Accept, Action::Channel]);
    s.act(Action::Channel).unwrap();
    roll(&mut s, 0, 2); // 3 Marks: the Casting Number is reached, a Success
    let bolt = match SPELLS[0].effect {
        encounter::data::SpellEffect::Bolt(d) => d,
        _ => panic!(),
    };
    assert!(
        matches!(s.pending().last(), Some(Pending::Check(k)) if k.purpose == Purpose::Damage { target: CUTTER, dice: bolt, obstacle: 1, bleeding: false }),
        "{:?}",
        s.pending()
    );
    // "If Marks reach 0 or below, Check ends as Bane": the spell fails, nothing is hit.
    let mut s = isolde_facing_the_cutter(3);
    s.act(dart).unwrap();
    roll(&mut s, 1, 1); // 1 − 1 = 0 Marks
    assert!(s.pending().is_empty(), "{:?}", s.pending());
    assert!(s.activation().unwrap().major, "the cast took the Major action");
    // Letting the spell go is a Failure.
    let mut s = isolde_facing_the_cutter(3);
    s.act(dart).unwrap();
    roll(&mut s, 0, 1);
    s.act(Action::Accept).unwrap();
    assert!(s.pending().is_empty());
}

#[test]
fn miscasts_count_the_ones_of_all_the_rolls_against_mag() {
    // "Miscasts: Count total 1s rolled across all attempts = Miscast Number. Miscast Severity -
    // Miscast Number = Mag: Minor Miscast - Miscast Number > Mag: Major Miscast - Miscast
    // Number ≥ Mag×2: Catastrophic Miscast"
    assert_eq!(miscast(2, 1), None);
    assert_eq!(miscast(2, 2), Some(Miscast::Minor));
    assert_eq!(miscast(2, 3), Some(Miscast::Major));
    assert_eq!(miscast(2, 4), Some(Miscast::Catastrophic));
    assert_eq!(miscast(3, 5), Some(Miscast::Major));
    // A 1 on each of two rolls: a Minor Miscast (Staggered), the spell still cast.
    let mut s = isolde_facing_the_cutter(3);
    s.act(Action::Cast { spell: 0, at: c(5, 5) }).unwrap();
    roll(&mut s, 1, 2); // 2 − 1 = 1 Mark
    s.act(Action::Channel).unwrap();
    roll(&mut s, 1, 2); // 1 + 1 = 2 Marks: cast, with 2 ones in all
    assert!(s.models()[ISOLDE as usize].conditions.staggered > 0);
    assert!(
        matches!(s.pending().last(), Some(Pending::Check(k)) if matches!(k.purpose, Purpose::Damage { target: CUTTER, .. }))
    );
    // Three 1s over the rolls: a Major Miscast, the magic strikes the caster too.
    let mut s = isolde_facing_the_cutter(6); // surging: 3 dice
    s.act(Action::Cast { spell: 0, at: c(5, 5) }).unwrap();
    roll(&mut s, 1, 2); // 1 Mark, 1 one
    s.act(Action::Channel).unwrap();
    roll(&mut s, 2, 2); // 1 Mark, 3 ones
    s.act(Action::Channel).unwrap();
    roll(&mut s, 0, 1); // 2 Marks: cast
    let hits = damage_targets(&s);
    assert_eq!(hits, vec![CUTTER, ISOLDE], "the caster's hit first, then the spell's");
    // Four 1s: Catastrophic: the spell fails, the caster is Stunned and hit.
    let mut s = isolde_facing_the_cutter(6);
    s.act(Action::Cast { spell: 0, at: c(5, 5) }).unwrap();
    roll(&mut s, 1, 2);
    s.act(Action::Channel).unwrap();
    roll(&mut s, 2, 2);
    s.act(Action::Channel).unwrap();
    roll(&mut s, 1, 2); // 2 Marks, 4 ones
    let x = s.models()[ISOLDE as usize].conditions;
    assert!(x.stunned && x.stun_held, "{x:?}");
    assert!(
        matches!(s.pending(), [Pending::Check(k)] if matches!(k.purpose, Purpose::Damage { target: ISOLDE, .. })),
        "only the caster is hit: {:?}",
        s.pending()
    );
}

#[test]
fn a_fireball_is_a_template_attack_on_every_model_in_it() {
    // "Template Attacks: All Models in template affected unless specified otherwise."
    let mut s = isolde_facing_the_cutter(3);
    s.pose_at(SPEARMAN, c(6, 4)).unwrap();
    s.pose_at(WAT, c(4, 6)).unwrap();
    assert_eq!(s.spell_victims(1, c(5, 5)), vec![WAT, CUTTER, SPEARMAN]);
    let option = s.describe_option(Action::Cast { spell: 1, at: c(5, 5) });
    assert!(option.contains("Wat, goblin cutter, goblin spearman"), "{option}");
    s.act(Action::Cast { spell: 1, at: c(5, 5) }).unwrap();
    roll(&mut s, 0, 4); // 4 Marks against Casting Number 3: a Success
    let mut hit = damage_targets(&s);
    hit.reverse();
    assert_eq!(hit, vec![WAT, CUTTER, SPEARMAN], "friend and foe alike");
    // Illustrative: the Fireball sets them Ablaze ("Ablaze (Ongoing): Start Phase: Automatic
    // S[varies] hit").
    // Illustrative: and Deafened by its thunder ("Deafened (Ongoing): Immune to Social
    // actions"), until Bookkeeping.
    for m in [WAT, CUTTER, SPEARMAN] {
        assert_eq!(s.models()[m as usize].conditions.ablaze, encounter::data::FIREBALL_ABLAZE);
        assert!(s.models()[m as usize].conditions.deafened);
    }
    assert_eq!(s.models()[ISOLDE as usize].conditions.ablaze, 0);
    assert!(!s.models()[ISOLDE as usize].conditions.deafened);
}

#[test]
fn ablaze_hits_at_each_start_phase_until_a_minor_action_beats_out_the_flames() {
    // "Ablaze (Ongoing): Start Phase: Automatic S[varies] hit." "Ongoing: Lasts until specific
    // condition met" (ruling: a Minor action beats the flames out).
    let mut s = Encounter::start();
    s.act(Action::BuyPool(0)).unwrap();
    s.pose_conditions(BRANNOC, Conditions { ablaze: 1, ..Conditions::default() }).unwrap();
    let mut s = {
        for a in [Action::Face(3), Action::Face(3), Action::Face(2)] {
            s.act(a).unwrap();
        }
        while s.phase() == Phase::Declare {
            s.act(Action::Declare(Intent::Fight)).unwrap();
        }
        let queue: Vec<u8> = (0..9).filter(|&m| s.models()[m as usize].declared).collect();
        for m in queue {
            s.act(Action::Face(if m == BRANNOC { 6 } else { 1 })).unwrap();
        }
        s
    };
    assert!(
        matches!(s.pending().last(), Some(Pending::Check(k)) if matches!(k.purpose, Purpose::Damage { target: BRANNOC, dice: 1, .. })),
        "the flames' S[1] hit at the Start Phase: {:?}",
        s.pending()
    );
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    assert_eq!(s.models()[BRANNOC as usize].conditions.ablaze, 1, "Ongoing: the End Phase keeps it");
    assert!(s.legal_actions().contains(&Action::Extinguish));
    assert_eq!(encounter::ScriptedAgent.select_action(&s), Action::Extinguish);
    s.act(Action::Extinguish).unwrap();
    assert_eq!(s.models()[BRANNOC as usize].conditions.ablaze, 0);
}

#[test]
fn the_cast_option_shows_the_odds_of_the_casting_check_it_rolls() {
    // The odds at the prompt come from the engine's own casting check: with a Mag no Miscast
    // can reach, they are the Extended check's exact odds over CAST_ROLLS rolls.
    let sure = Casting { caster: ISOLDE, spell: 0, at: c(0, 0), dice: 2, marks: 0, ones: 0, rolls: 0 };
    let odds = cast_odds(&sure, 99, 2);
    let ext = encounter::checks::extended_odds(2, CAST_TARGET, 2, CAST_ROLLS);
    let success: f64 = Outcome::ALL.iter().filter(|o| o.succeeded()).map(|&o| ext[o as usize]).sum();
    assert!((odds.cast - success).abs() < 1e-12 && odds.miscast == 0.0, "{odds:?} {success}");
    // With Mag 2, a Monte Carlo of the script "roll on while the check goes on".
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let (mut cast, mut mis, n) = (0u32, 0u32, 200_000u32);
    for _ in 0..n {
        let (mut total, mut ones) = (0i32, 0u8);
        for r in 1..=CAST_ROLLS {
            for _ in 0..2 {
                let f: u8 = rng.gen_range(1..=6);
                let b: u8 = rng.gen_range(1..=6);
                ones += (f == 1) as u8;
                total += encounter::checks::die_marks(f, b, CAST_TARGET);
            }
            let done = total >= 2 || total <= 0 || r == CAST_ROLLS;
            if done {
                if total >= 2 && miscast(2, ones) != Some(Miscast::Catastrophic) {
                    cast += 1;
                }
                mis += miscast(2, ones).is_some() as u32;
                break;
            }
        }
    }
    let real = cast_odds(&sure, 2, 2);
    assert!((real.cast - cast as f64 / n as f64).abs() < 0.005, "{real:?} against {cast}/{n}");
    assert!((real.miscast - mis as f64 / n as f64).abs() < 0.005, "{real:?} against {mis}/{n}");
    // The prompt shows them.
    let s = isolde_facing_the_cutter(3);
    let shown = s.describe_option(Action::Cast { spell: 0, at: c(5, 5) });
    let pct = format!("cast {:.0}%", 100.0 * real.cast);
    assert!(shown.contains(&pct) && shown.contains("Miscast"), "{shown} (expected {pct})");
}

#[test]
fn a_prayer_is_a_manoeuvre_whose_cool_check_inspires_the_models_near() {
    // "Divine Magic: Handled as Manoeuvres. Specific mechanics vary by deity and prayer."
    // Illustrative: a Routine Cool check; on a success the model and its side within 2
    // squares become Inspired 1 ("Inspired (Persistent): All checks: -[X] Difficulty").
    let mut s = to_activation(3, BRANNOC);
    s.pose_at(BRANNOC, c(2, 3)).unwrap();
    s.pose_at(WAT, c(3, 5)).unwrap(); // two squares away
    s.pose_at(ISOLDE, c(6, 6)).unwrap(); // too far
    assert!(s.legal_actions().contains(&Action::Pray));
    let mut staggered = s.clone();
    staggered.pose_conditions(BRANNOC, Conditions { staggered: 1, ..Conditions::default() }).unwrap();
    assert!(!staggered.legal_actions().contains(&Action::Pray), "Staggered: \"Cannot perform Manoeuvres\"");
    s.act(Action::Pray).unwrap();
    assert!(
        matches!(s.pending().last(), Some(Pending::Check(k)) if k.purpose == Purpose::Prayer { model: BRANNOC })
    );
    s.act(Action::Roll(Outcome::Complication)).unwrap();
    let inspired = |m: u8| s.models()[m as usize].conditions.inspired;
    assert_eq!((inspired(BRANNOC), inspired(WAT), inspired(ISOLDE)), (1, 1, 0));
    assert!(!s.legal_actions().contains(&Action::Pray), "one prayer an activation");
    // A Bane leaves it Staggered.
    let mut s = to_activation(3, BRANNOC);
    s.act(Action::Pray).unwrap();
    s.act(Action::Roll(Outcome::Bane)).unwrap();
    if s.legal_actions().contains(&Action::Reroll) {
        s.act(Action::Accept).unwrap();
    }
    assert!(s.models()[BRANNOC as usize].conditions.staggered > 0);
}

#[test]
fn the_scripted_caster_blasts_two_enemies_and_rolls_on_only_while_no_catastrophe_can_come() {
    let mut s = isolde_facing_the_cutter(3);
    s.pose_at(SPEARMAN, c(6, 4)).unwrap();
    let blast = encounter::ScriptedAgent.select_action(&s);
    let Action::Cast { spell: 1, at } = blast else { panic!("{blast:?}") };
    let caught = s.spell_victims(1, at);
    assert!(caught.len() >= 2 && caught.iter().all(|&v| s.is_adversary(v)), "{caught:?}");
    s.act(blast).unwrap();
    roll(&mut s, 1, 2); // 1 Mark, 1 one: another roll of 2 dice cannot reach 4 ones
    assert_eq!(encounter::ScriptedAgent.select_action(&s), Action::Channel);
    s.act(Action::Channel).unwrap();
    roll(&mut s, 1, 2); // 2 Marks, 2 ones: the next roll could be Catastrophic
    assert_eq!(encounter::ScriptedAgent.select_action(&s), Action::Accept);
    // Never with a friend in the template: Wat next to the cutter moves the blast elsewhere.
    let mut s = isolde_facing_the_cutter(3);
    s.pose_at(SPEARMAN, c(6, 4)).unwrap();
    s.pose_at(WAT, c(4, 6)).unwrap();
    let a = encounter::ScriptedAgent.select_action(&s);
    let Action::Cast { spell: 1, at } = a else { panic!("{a:?}") };
    assert!(!s.spell_victims(1, at).contains(&WAT) && at != c(5, 5), "{a:?}");
}

#[test]
fn the_scripted_orc_prays_before_it_strikes() {
    let mut s = to_activation(3, ORC);
    s.pose_at(ORC, c(2, 5)).unwrap(); // next to Wat (1,4)
    assert!(s.legal_actions().contains(&Action::Pray));
    assert_eq!(encounter::ScriptedAgent.select_action(&s), Action::Pray);
    s.act(Action::Pray).unwrap();
    s.act(Action::Roll(Outcome::Complication)).unwrap();
    assert!(matches!(encounter::ScriptedAgent.select_action(&s), Action::Strike { .. }));
}
