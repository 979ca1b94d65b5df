//! Round 2, session 9 (issue 60): the seed's remaining conditions ("Conditions & Effects"),
//! what Stress and Corruption do below their limits, Manage Equipment, the Nemesis tier,
//! Follower Obedience and Henchman Morale; each test quotes the seed's sentence, and marks the
//! illustrative rulings where the seed is thin. Models: 0 Brannoc, 1 Isolde (Characters), 2
//! Wat (Follower), 3 Garrick (Henchman); 4 goblin cutter, 5 goblin spearman, 6 goblin archer
//! (Minions), 7 orc veteran (Elite), 8 ogre chieftain (Champion).

use agents::Game;
use encounter::board::Cell;
use encounter::checks::{basic_odds, opposed_obstacle, unopposed_obstacle, Difficulty, Outcome, Roll};
use encounter::conditions::{Conditions, Duration};
use encounter::state::{Pending, Purpose};
use encounter::{Action, Encounter, Intent, Node, Phase, DM_SIDE, PARTY_SIDE};

const BRANNOC: u8 = 0;
const ISOLDE: u8 = 1;
const WAT: u8 = 2;
const GARRICK: u8 = 3;
const CUTTER: u8 = 4;
const ORC: u8 = 7;
const OGRE: u8 = 8;

fn c(x: u8, y: u8) -> Cell {
    Cell::new(x, y)
}

/// Set-up from `s` (at the DM's set-up spending) with no surprise and steady Winds, the party
/// declaring first.
fn set_up(mut s: Encounter) -> Encounter {
    if s.phase() == Phase::BuyPool {
        s.act(Action::BuyPool(0)).unwrap();
    }
    for a in [Action::Face(3), Action::Face(3), Action::Face(2)] {
        s.act(a).unwrap();
    }
    s
}

/// Every declarer declares Fight (Move where it must), and initiative lets `first` act first.
fn to_activation(mut s: Encounter, first: u8) -> Encounter {
    while s.phase() == Phase::Declare {
        let fight = s.legal_actions().contains(&Action::Declare(Intent::Fight));
        s.act(Action::Declare(if fight { Intent::Fight } else { Intent::Move })).unwrap();
    }
    let queue: Vec<u8> = (0..9).filter(|&m| s.models()[m as usize].declared).collect();
    for m in queue {
        s.act(Action::Face(if m == first { 6 } else { 1 })).unwrap();
    }
    assert_eq!(s.activation().map(|a| a.model), Some(first), "{}", s.render());
    s
}

fn started(first: u8) -> Encounter {
    to_activation(set_up(Encounter::start()), first)
}

fn pending_check(s: &Encounter) -> encounter::state::Check {
    match s.pending().last() {
        Some(Pending::Check(c)) => *c,
        other => panic!("no check pending: {other:?}\n{}", s.render()),
    }
}

/// Play on with ends, passes, accepts and the first chance outcome until `stop` holds.
fn play_until(mut s: Encounter, stop: impl Fn(&Encounter) -> bool) -> Encounter {
    while !s.is_terminal() && !stop(&s) {
        let legal = s.legal_actions();
        let a = match s.node() {
            Node::Chance => legal[0],
            _ => *legal
                .iter()
                .find(|a| matches!(a, Action::EndActivation | Action::Pass | Action::Accept))
                .unwrap_or(&legal[0]),
        };
        s.act(a).unwrap();
    }
    s
}

fn morale_pending(s: &Encounter) -> bool {
    matches!(s.pending().last(), Some(Pending::Check(k)) if matches!(k.purpose, Purpose::Morale { .. }))
}

#[test]
fn every_condition_the_seed_names_exists_with_its_duration() {
    // "Common Conditions": Staggered (Fleeting), Hidden (Ongoing), Stunned (Fleeting), Surprised
    // (Fleeting), Bleeding (Persistent), Prone (Ongoing), Engaged (Ongoing), Entangled
    // (Ongoing), Ablaze (Ongoing), Broken (Ongoing), Blinded (Ongoing), Frenzied (Ongoing),
    // Hatred (Ongoing), Distressed (Ongoing), Drained (Ongoing), Strained (Ongoing), Animosity
    // (Ongoing), Deafened (Ongoing), Weakened (Persistent), Inspired (Persistent), Demoralized
    // (Persistent), Cowed (Persistent). Surprised is the set-up's surprise (a lost activation)
    // and Engaged the Danger Zones; the other twenty are tracked conditions.
    let seed = [
        ("staggered", Duration::Fleeting),
        ("hidden", Duration::Ongoing),
        ("stunned", Duration::Fleeting),
        ("bleeding", Duration::Persistent),
        ("prone", Duration::Ongoing),
        ("entangled", Duration::Ongoing),
        ("ablaze", Duration::Ongoing),
        ("broken", Duration::Ongoing),
        ("blinded", Duration::Ongoing),
        ("frenzied", Duration::Ongoing),
        ("hatred", Duration::Ongoing),
        ("distressed", Duration::Ongoing),
        ("drained", Duration::Ongoing),
        ("strained", Duration::Ongoing),
        ("animosity", Duration::Ongoing),
        ("deafened", Duration::Ongoing),
        ("weakened", Duration::Persistent),
        ("inspired", Duration::Persistent),
        ("demoralized", Duration::Persistent),
        ("cowed", Duration::Persistent),
    ];
    for condition in seed {
        assert!(Conditions::DURATIONS.contains(&condition), "{condition:?} missing");
    }
}

#[test]
fn staggered_two_limits_the_model_to_one_action() {
    // "Staggered (Fleeting) Cannot perform Manoeuvres. If X > 1: Limited actions." Ruling: one
    // action in the activation, a Major or a Minor; the "dazed" Injury card is Staggered 2.
    let s = started(BRANNOC);
    let mut once = s.clone();
    once.pose_conditions(BRANNOC, Conditions { staggered: 1, ..Conditions::default() }).unwrap();
    assert!(!once.legal_actions().contains(&Action::Pray), "no Manoeuvre");
    once.act(Action::Advance(c(2, 1))).unwrap();
    assert_eq!(once.activation().map(|a| a.model), Some(BRANNOC), "Staggered 1: more actions follow");
    let mut twice = s.clone();
    twice.pose_conditions(BRANNOC, Conditions { staggered: 2, ..Conditions::default() }).unwrap();
    twice.act(Action::Advance(c(2, 1))).unwrap();
    assert_ne!(twice.activation().map(|a| a.model), Some(BRANNOC), "Staggered 2: one action, then the end");
    assert_eq!(twice.models()[BRANNOC as usize].conditions.staggered, 0, "Fleeting: gone at its End Phase");
    let dazed = encounter::data::INJURY_DECK.iter().find(|k| k.name == "dazed").unwrap();
    assert_eq!(dazed.effect, encounter::data::InjuryEffect::Staggered(2));
    // A second Staggered while Staggered raises X.
    let mut x = Conditions { staggered: 1, ..Conditions::default() };
    x.stagger();
    assert_eq!(x.staggered, 2);
}

#[test]
fn frenzied_doubles_the_attacks_at_the_nearest_enemy_only_and_tires_after() {
    // "Frenzied (Ongoing) Attacks ×2. Attack nearest Model. Only Melee Strike actions and
    // Advance manoeuvres. Immune to Psychology. After removal: Fatigue [X]." Ruling: it ends at
    // the End Phase of an activation without an attack.
    let frenzied = Conditions { frenzied: 1, ..Conditions::default() };
    let mut s = started(OGRE);
    s.pose_at(OGRE, c(4, 5)).unwrap();
    s.pose_at(BRANNOC, c(3, 5)).unwrap();
    s.pose_at(WAT, c(6, 5)).unwrap(); // also in the great club's Reach R, but farther
    let plain = s.legal_actions();
    assert!(plain.contains(&Action::Strike { target: WAT, boost: false, extra: false }));
    s.pose_conditions(OGRE, frenzied).unwrap();
    let legal = s.legal_actions();
    assert!(
        legal.iter().all(|a| matches!(
            a,
            Action::Strike { target: BRANNOC, .. } | Action::Advance(_) | Action::EndActivation
        )),
        "{legal:?}"
    );
    assert!(legal.contains(&Action::Strike { target: BRANNOC, boost: false, extra: false }));
    // Attacks ×2: the ogre's 2 attacks become 4.
    s.act(Action::Strike { target: BRANNOC, boost: false, extra: false }).unwrap();
    let mut attacks = 0;
    while let Some(Pending::Check(k)) = s.pending().last() {
        assert!(matches!(k.purpose, Purpose::Attack { .. }));
        attacks += 1;
        s.act(Action::Roll(Outcome::Failure)).unwrap();
    }
    assert_eq!(attacks, 4);
    assert_eq!(s.models()[OGRE as usize].conditions.frenzied, 1, "it attacked: the frenzy lasts");
    // An activation without an attack ends it, with Fatigue X.
    let mut s = started(ORC);
    s.pose_conditions(ORC, frenzied).unwrap();
    assert_eq!(s.legal_actions().iter().filter(|a| matches!(a, Action::Pray | Action::Prepare)).count(), 0);
    s.act(Action::EndActivation).unwrap();
    let orc = &s.models()[ORC as usize];
    assert_eq!((orc.conditions.frenzied, orc.fatigue), (0, 1));
    // Immune to Psychology: the Dread of the ogre's club does not Demoralize, its Fear does
    // not Cow.
    let mut s = started(OGRE);
    s.pose_at(OGRE, c(3, 5)).unwrap();
    s.pose_at(GARRICK, c(2, 5)).unwrap();
    s.pose_conditions(GARRICK, frenzied).unwrap();
    s.act(Action::Strike { target: GARRICK, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap();
    let g = s.models()[GARRICK as usize].conditions;
    assert_eq!((g.demoralized, g.cowed), (0, 0), "{g:?}");
    // Illustrative source: the orc's War-god's Fury on a Boon frenzies it.
    let mut s = started(ORC);
    s.act(Action::Pray).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap();
    assert_eq!(s.models()[ORC as usize].conditions.frenzied, 1);
    assert!(s
        .legal_actions()
        .iter()
        .all(|a| matches!(a, Action::Strike { .. } | Action::Advance(_) | Action::EndActivation)));
}

#[test]
fn a_frenzied_declarer_may_declare_only_fight() {
    // "Frenzied (Ongoing) [...] Only Melee Strike actions and Advance manoeuvres."
    let mut s = Encounter::start();
    s.pose_conditions(BRANNOC, Conditions { frenzied: 1, ..Conditions::default() }).unwrap();
    let s = set_up(s);
    assert_eq!(s.legal_actions(), vec![Action::Declare(Intent::Fight)]);
}

#[test]
fn hatred_gives_favour_on_opposed_checks_against_its_target_and_no_fear_of_it() {
    // "Hatred (Ongoing) Against specified target: Favour on Opposed checks. Immunity to Fear of
    // target." Illustrative: Wat hates the ogre chieftain from the start, until it leaves play.
    let s = started(WAT);
    assert_eq!(s.models()[WAT as usize].conditions.hatred, Some(OGRE));
    let strike = |hatred: Option<u8>| {
        let mut x = s.clone();
        x.pose_at(OGRE, c(2, 4)).unwrap();
        x.pose_conditions(WAT, Conditions { hatred, ..Conditions::default() }).unwrap();
        x.act(Action::Strike { target: OGRE, boost: false, extra: false }).unwrap();
        pending_check(&x).odds
    };
    // Wat's Melee 3 against the ogre's Defense 3, one step easier for its Large size.
    assert_eq!(strike(Some(OGRE)), basic_odds(opposed_obstacle(3, 3, -1), Roll::Favour));
    assert_eq!(strike(None), basic_odds(opposed_obstacle(3, 3, -1), Roll::Normal));
    // The ogre's Fear Cows whom it hits, but not Wat.
    let mut s = started(OGRE);
    s.pose_at(OGRE, c(2, 4)).unwrap();
    s.act(Action::Strike { target: WAT, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    assert_eq!(s.models()[WAT as usize].conditions.cowed, 0);
    // It ends when the ogre leaves play.
    let mut s = started(WAT);
    s.pose_at(OGRE, c(2, 4)).unwrap();
    s.pose_wounds(OGRE, 1).unwrap();
    s.act(Action::Strike { target: OGRE, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Accept).unwrap(); // the ogre's armour does not soak it
    assert!(!s.models()[OGRE as usize].in_play());
    assert_eq!(s.models()[WAT as usize].conditions.hatred, None);
}

#[test]
fn cowed_makes_opposed_checks_against_its_source_harder_and_loses_a_counter() {
    // "Cowed (Persistent) Against specified source: Opposed checks +[X] Difficulty."
    // Illustrative source: the ogre chieftain's Fear 1 Cows a model its attack hits.
    let mut s = started(OGRE);
    s.pose_at(OGRE, c(2, 5)).unwrap();
    s.act(Action::Strike { target: GARRICK, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Complication)).unwrap();
    let g = s.models()[GARRICK as usize].conditions;
    assert_eq!((g.cowed, g.cowed_by), (1, OGRE));
    let s = started(GARRICK);
    let strike = |target: u8, at: Cell, cowed: u8| {
        let mut x = s.clone();
        x.pose_at(target, at).unwrap();
        x.pose_conditions(GARRICK, Conditions { cowed, cowed_by: OGRE, ..Conditions::default() }).unwrap();
        x.act(Action::Strike { target, boost: false, extra: false }).unwrap();
        pending_check(&x).odds
    };
    assert_eq!(strike(OGRE, c(2, 5), 1), basic_odds(opposed_obstacle(3, 3, -1 + 1), Roll::Normal));
    assert_eq!(strike(ORC, c(2, 5), 1), strike(ORC, c(2, 5), 0), "only against its source");
    let mut x = Conditions { cowed: 1, cowed_by: OGRE, ..Conditions::default() };
    x.end_phase();
    assert_eq!(x.cowed, 0, "Persistent: a counter off at the End Phase");
}

#[test]
fn stress_at_two_distresses_a_character_peril_on_its_mental_checks() {
    // "Distressed (Ongoing) Mental checks: Peril." Illustrative: what Stress does below its
    // limit: at 2 Stress (the limit is 3) a Character is Distressed until it recovers.
    let mut s = Encounter::start();
    s.pose_tracks(BRANNOC, 0, 2, 0).unwrap();
    assert!(s.models()[BRANNOC as usize].conditions.distressed);
    let s = to_activation(set_up(s), BRANNOC);
    let mut pray = s.clone();
    pray.act(Action::Pray).unwrap();
    // The prayer: a Routine Cool check (Cool 3), a mental check: Peril.
    let cool = unopposed_obstacle(3, Difficulty::Routine.steps());
    assert_eq!(pending_check(&pray).odds, basic_odds(cool, Roll::Peril));
    // The attack is not a mental check.
    let mut strike = s.clone();
    strike.pose_at(ORC, c(2, 1)).unwrap();
    strike.act(Action::Strike { target: ORC, boost: false, extra: false }).unwrap();
    assert_eq!(pending_check(&strike).odds, basic_odds(opposed_obstacle(4, 3, 0), Roll::Normal));
    // Recuperating 1 Stress ends it.
    let mut rest = s.clone();
    rest.act(Action::Recuperate { stress: true }).unwrap();
    rest.act(Action::Roll(Outcome::Complication)).unwrap();
    let b = &rest.models()[BRANNOC as usize];
    assert_eq!((b.stress, b.conditions.distressed), (1, false));
}

#[test]
fn corruption_at_two_strains_a_character_peril_and_a_cool_check_or_broken() {
    // "Strained (Ongoing) All checks: Peril. Start Phase: Cool check or gain Broken." "Broken
    // (Ongoing) Move away from enemies. Cannot use Actions." Illustrative: what Corruption does
    // below its Threshold: at 2 (the Threshold is 3) a Character is Strained; a Broken Company
    // model only advances away from the enemies and makes no Interrupt; a passed check at a
    // later Start Phase ends it.
    let mut s = Encounter::start();
    s.pose_tracks(BRANNOC, 0, 0, 2).unwrap();
    let mut s = to_activation(set_up(s), BRANNOC);
    let check = pending_check(&s);
    assert!(matches!(check.purpose, Purpose::Strain { model: BRANNOC }));
    assert_eq!(check.odds, basic_odds(unopposed_obstacle(3, Difficulty::Routine.steps()), Roll::Peril));
    let mut held = s.clone();
    held.act(Action::Roll(Outcome::Success)).unwrap();
    assert!(!held.models()[BRANNOC as usize].conditions.broken);
    // Peril on all checks: its attack too.
    held.pose_at(ORC, c(2, 1)).unwrap();
    held.act(Action::Strike { target: ORC, boost: false, extra: false }).unwrap();
    assert_eq!(pending_check(&held).odds, basic_odds(opposed_obstacle(4, 3, 0), Roll::Peril));
    s.pose_at(BRANNOC, c(4, 4)).unwrap(); // out of the corner, with room to flee
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    s.act(Action::Accept).unwrap(); // no Luck spent on it
    assert!(s.models()[BRANNOC as usize].conditions.broken);
    assert_eq!(s.activation().map(|a| a.model), Some(BRANNOC));
    let legal = s.legal_actions();
    let from = s.models()[BRANNOC as usize].cell;
    let nearest = |at: Cell| {
        s.models().iter().filter(|e| e.side() == DM_SIDE && e.in_play()).map(|e| e.cell.distance(at)).min()
    };
    // Ruling: it must move away before it may stop, while it can.
    assert!(!legal.contains(&Action::EndActivation), "{legal:?}");
    assert!(!legal.is_empty());
    for a in &legal {
        match a {
            Action::Advance(to) => assert!(nearest(*to) > nearest(from), "{a:?} is not away"),
            other => panic!("Broken, yet {other:?} is legal"),
        }
    }
    s.act(legal[0]).unwrap();
    while matches!(s.pending().last(), Some(Pending::Interrupt { .. })) {
        s.act(Action::Pass).unwrap();
    }
    assert!(s.legal_actions().contains(&Action::EndActivation), "having moved away it may stop");
    // Next round it declares Move alone.
    s.act(Action::EndActivation).unwrap();
    let s = play_until(s, |s| {
        s.round() == 2 && s.phase() == Phase::Declare && s.node() == Node::Decision(PARTY_SIDE)
    });
    assert_eq!(s.legal_actions(), vec![Action::Declare(Intent::Move)]);
}

#[test]
fn animosity_forbids_teamwork_with_its_target() {
    // "Animosity (Ongoing) Against specified target: Cannot use Teamwork actions." Illustrative:
    // Garrick, the hired sword, bears Wat Animosity: no Assist or Change Place with him.
    let mut s = started(GARRICK);
    assert_eq!(s.models()[GARRICK as usize].conditions.animosity, Some(WAT));
    s.pose_at(ISOLDE, c(2, 5)).unwrap();
    let legal = s.legal_actions();
    assert!(s.models()[WAT as usize].cell.adjacent(s.models()[GARRICK as usize].cell));
    assert!(legal.contains(&Action::Assist { ally: ISOLDE }));
    assert!(!legal.contains(&Action::Assist { ally: WAT }), "{legal:?}");
    let mut free = s.clone();
    free.pose_conditions(GARRICK, Conditions::default()).unwrap();
    assert!(free.legal_actions().contains(&Action::Assist { ally: WAT }));
}

#[test]
fn deafened_models_do_not_hear_a_rally_and_the_ringing_fades_at_bookkeeping() {
    // "Deafened (Ongoing) Immune to Social actions." Ruling: a Rally, another's prayer and the
    // Menacing Talent are Social; Deafened (from the Fireball's blast) ends at Bookkeeping.
    let mut s = started(BRANNOC);
    s.pose_conditions(ISOLDE, Conditions { deafened: true, ..Conditions::default() }).unwrap();
    s.pose_at(CUTTER, c(2, 1)).unwrap();
    s.act(Action::Strike { target: CUTTER, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    assert!(!s.models()[CUTTER as usize].in_play());
    assert_eq!(s.models()[WAT as usize].conditions.inspired, 1, "Brannoc's Rally");
    assert_eq!(s.models()[ISOLDE as usize].conditions.inspired, 0, "Deafened: not heard");
    let s = play_until(s, |s| s.round() == 2);
    assert!(!s.models()[ISOLDE as usize].conditions.deafened);
}

#[test]
fn manage_equipment_drinks_a_healing_draught() {
    // "Manage Equipment: Switch weapon, sling/unsling shield, drink potion, draw from
    // container." Illustrative: each Character carries one healing draught, a Minor action
    // that restores 1 Wound.
    let mut s = started(BRANNOC);
    assert!(!s.legal_actions().contains(&Action::DrinkDraught), "unhurt: nothing to heal");
    s.pose_wounds(BRANNOC, 2).unwrap();
    s.act(Action::DrinkDraught).unwrap();
    let b = &s.models()[BRANNOC as usize];
    assert_eq!((b.wounds, b.draughts), (3, 0));
    s.pose_wounds(BRANNOC, 2).unwrap();
    assert!(!s.legal_actions().contains(&Action::DrinkDraught), "the draught is drunk");
    assert_eq!(s.activation().map(|a| a.minors), Some(1), "a Minor action");
}

#[test]
fn a_nemesis_is_bought_with_threat_re_rolls_escapes_death_and_is_worth_five_momentum() {
    // "Nemesis [⋇]: Returning adversary; evolves like Characters" "Champion [⁂]: [...] can
    // become Nemesis" "Spend Threat for Talents, better models, or additional Pool values"
    // "+5 Nemesis Adversary defeated". Illustrative: 1 Threat fields the ogre chieftain as a
    // Nemesis, a Wound more and a Character's Luck and Fate Points.
    let mut s = Encounter::start();
    assert!(s.legal_actions().contains(&Action::BuyNemesis));
    s.act(Action::BuyNemesis).unwrap();
    assert!(!s.legal_actions().contains(&Action::BuyNemesis), "once");
    let ogre = &s.models()[OGRE as usize];
    assert!(ogre.profile.nemesis);
    assert_eq!((ogre.wounds, ogre.luck, ogre.fate, s.threat()), (5, 1, 1, 2));
    let s = to_activation(set_up(s), OGRE);
    // Its failed check may be re-rolled with Luck: the DM decides (no Push, no Dark Deal).
    let mut strike = s.clone();
    strike.pose_at(OGRE, c(2, 1)).unwrap();
    strike.act(Action::Strike { target: BRANNOC, boost: false, extra: false }).unwrap();
    strike.act(Action::Roll(Outcome::Failure)).unwrap();
    assert_eq!(strike.node(), Node::Decision(DM_SIDE));
    assert_eq!(strike.legal_actions(), vec![Action::Reroll, Action::Accept]);
    // It escapes death with its Fate Point (it leaves the board alive, to return) and its
    // defeat is worth +5 Momentum at Bookkeeping.
    let mut s = started(BRANNOC);
    let mut nemesis = Encounter::start();
    nemesis.act(Action::BuyNemesis).unwrap();
    nemesis.act(Action::BuyPool(0)).unwrap();
    let mut n = to_activation(set_up(nemesis), BRANNOC);
    for x in [&mut s, &mut n] {
        x.pose_at(OGRE, c(2, 1)).unwrap();
        x.pose_wounds(OGRE, 1).unwrap();
        x.act(Action::Strike { target: OGRE, boost: false, extra: false }).unwrap();
        x.act(Action::Roll(Outcome::Success)).unwrap();
        x.act(Action::Roll(Outcome::Boon)).unwrap(); // 2 wounds: below 0
        x.act(Action::Accept).unwrap(); // not soaked
    }
    assert!(s.models()[OGRE as usize].dead);
    assert_eq!(n.node(), Node::Decision(DM_SIDE), "the Nemesis's Fate Point");
    n.act(Action::SpendFate).unwrap();
    let ogre = &n.models()[OGRE as usize];
    assert!(ogre.out && !ogre.dead && ogre.fate == 0);
    let momentum = |x: Encounter| {
        let mut x = play_until(x, |x| x.round() == 2 || morale_pending(x));
        while morale_pending(&x) {
            x.act(Action::Roll(Outcome::Success)).unwrap();
        }
        x.momentum()
    };
    assert_eq!(momentum(n) - momentum(s), encounter::data::NEMESIS_MOMENTUM - 2);
}

/// Brannoc knocked out by the orc in round 1 (the orc acting first), then on to Bookkeeping's
/// Morale checks.
fn brannoc_falls() -> Encounter {
    let mut s = started(ORC);
    s.pose_at(ORC, c(2, 1)).unwrap();
    s.pose_wounds(BRANNOC, 1).unwrap();
    s.act(Action::Strike { target: BRANNOC, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Accept).unwrap(); // no Soak
    assert!(s.models()[BRANNOC as usize].body());
    play_until(s, morale_pending)
}

#[test]
fn a_follower_whose_character_falls_checks_obedience_and_may_flee() {
    // "Followers: Follow a single Character; use Obedience to track loyalty". Illustrative:
    // at Bookkeeping a Follower whose Character is out of play takes a Basic Routine check of
    // its Obedience (Wat: 3, Brannoc's); a Failure breaks it ("Broken (Ongoing) Move away
    // from enemies"): off the party's edge of the board it stays on it, Broken; on that edge
    // (the west column) it leaves the board: it routs.
    let mut s = brannoc_falls();
    let check = pending_check(&s);
    assert!(matches!(check.purpose, Purpose::Morale { model: WAT }), "{check:?}");
    assert_eq!(check.odds, basic_odds(unopposed_obstacle(3, Difficulty::Routine.steps()), Roll::Normal));
    let mut off_edge = s.clone();
    assert_eq!(s.models()[WAT as usize].cell.x, 1, "Wat stands on the party's edge");
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    let wat = &s.models()[WAT as usize];
    assert!(wat.conditions.broken && wat.routed && wat.out && !wat.dead);
    off_edge.pose_at(WAT, c(3, 5)).unwrap();
    off_edge.act(Action::Roll(Outcome::Failure)).unwrap();
    let wat = &off_edge.models()[WAT as usize];
    assert!(wat.conditions.broken && wat.in_play() && !wat.routed);
    // With Brannoc standing, Wat does not check.
    let s = play_until(started(BRANNOC), |s| s.round() == 2 || morale_pending(s));
    assert!(!morale_pending(&s));
}

#[test]
fn a_henchman_checks_morale_when_a_character_falls_or_half_the_company() {
    // "Henchmen: Specialized hired help; use Morale to track loyalty". Illustrative: once a
    // Character is out of play or fewer than half the Company is in play, each Henchman takes
    // the Adversaries' Morale check (Routine Cool) at Bookkeeping; Broken on the party's edge
    // of the board, it flees it (routs).
    let mut s = brannoc_falls();
    s.act(Action::Roll(Outcome::Success)).unwrap(); // Wat obeys
    let check = pending_check(&s);
    assert!(matches!(check.purpose, Purpose::Morale { model: GARRICK }), "{check:?}");
    assert_eq!(s.models()[GARRICK as usize].cell.x, 1, "Garrick stands on the party's edge");
    s.act(Action::Roll(Outcome::Bane)).unwrap();
    assert!(s.models()[GARRICK as usize].conditions.broken && s.models()[GARRICK as usize].routed);
    assert_eq!(s.in_play(PARTY_SIDE), 2);
}
