//! One test per rule of seed 004's "Encounters & Combat", each quoting the seed's sentence.
//! Models: 0 Brannoc, 1 Isolde (Characters), 2 Wat (Follower), 3 Garrick (Henchman); 4 goblin
//! cutter, 5 goblin spearman, 6 goblin archer (Minions), 7 orc veteran (Elite), 8 ogre
//! chieftain (Champion).

use agents::{Agent, Game};
use encounter::board::{Board, Cell};
use encounter::checks::Outcome;
use encounter::conditions::{Conditions, Duration};
use encounter::data::Reach;
use encounter::state::Pending;
use encounter::{Action, Encounter, Intent, Node, Phase, DM_SIDE, PARTY_SIDE};

const WAT: u8 = 2;
const ISOLDE: u8 = 1;
const BRANNOC: u8 = 0;
const GARRICK: u8 = 3;
const CUTTER: u8 = 4;
const SPEARMAN: u8 = 5;
const ARCHER: u8 = 6;
const ORC: u8 = 7;
const OGRE: u8 = 8;

fn c(x: u8, y: u8) -> Cell {
    Cell::new(x, y)
}

/// Set-up with no surprise (and `pool` Threat bought), the party declaring first.
fn started(pool: u8) -> Encounter {
    set_up(Encounter::start(), pool)
}

/// The same, keeping the log.
fn started_logged(pool: u8) -> Encounter {
    set_up(Encounter::start_with_log(), pool)
}

/// Set-up with no Threat bought, the surprise die showing `die` (1: the Company is surprised,
/// 6: the Adversaries are) and steady Winds of Magic.
fn surprised(die: u8) -> Encounter {
    let mut s = Encounter::start();
    s.act(Action::BuyPool(0)).unwrap();
    s.act(Action::Face(die)).unwrap();
    s.act(Action::Face(3)).unwrap(); // steady Winds of Magic
    s
}

fn set_up(mut s: Encounter, pool: u8) -> Encounter {
    s.act(Action::BuyPool(pool)).unwrap();
    s.act(Action::Face(3)).unwrap(); // nobody surprised
    s.act(Action::Face(3)).unwrap(); // the Winds of Magic are steady
    s.act(Action::Face(2)).unwrap(); // even: the party declares first
    s
}

/// Declare (`intent` for every declarer, Shoot where it can) and roll initiative so that
/// `first` activates first.
fn to_activation(mut s: Encounter, first: u8, shoot: bool) -> Encounter {
    while s.phase() == Phase::Declare {
        let legal = s.legal_actions();
        let want = if shoot && legal.contains(&Action::Declare(Intent::Shoot)) {
            Intent::Shoot
        } else {
            Intent::Fight
        };
        s.act(Action::Declare(want)).unwrap();
    }
    let queue: Vec<u8> = (0..9).filter(|&m| s.models()[m as usize].declared).collect();
    for m in queue {
        s.act(Action::Face(if m == first { 6 } else { 1 })).unwrap();
    }
    assert_eq!(s.activation().map(|a| a.model), Some(first), "{}", s.render());
    s
}

/// [`to_activation`] after set-up with no Threat bought, then each model of `places` posed on
/// its square.
fn activation_with(first: u8, shoot: bool, places: &[(u8, Cell)]) -> Encounter {
    let mut s = to_activation(started(0), first, shoot);
    for &(model, at) in places {
        s.pose_at(model, at).unwrap();
    }
    s
}

fn legal(s: &Encounter) -> Vec<Action> {
    s.legal_actions()
}

fn sorted(mut actions: Vec<Action>) -> Vec<Action> {
    actions.sort();
    actions
}

fn pending_odds(s: &Encounter) -> [f64; 5] {
    match s.pending().last() {
        Some(Pending::Check(c)) => c.odds,
        other => panic!("no check pending: {other:?}"),
    }
}

fn success(odds: [f64; 5]) -> f64 {
    odds[2..].iter().sum()
}

/// The odds of Brannoc's plain Strike (he acts first) at the orc next to him at (2,1), with
/// the conditions of `model` (Brannoc or the orc) posed as `conditions`.
fn brannoc_strike_odds(model: u8, conditions: Conditions) -> [f64; 5] {
    let mut s = activation_with(BRANNOC, false, &[(ORC, c(2, 1))]);
    s.pose_conditions(model, conditions).unwrap();
    s.act(Action::Strike { target: ORC, boost: false, extra: false }).unwrap();
    pending_odds(&s)
}

/// How far Wat's longest Advance goes, if he has one.
fn wats_longest_advance(s: &Encounter) -> Option<u8> {
    let here = s.models()[WAT as usize].cell;
    legal(s)
        .iter()
        .filter_map(|a| if let Action::Advance(to) = a { Some(here.distance(*to)) } else { None })
        .max()
}

#[test]
fn danger_zones_follow_reach() {
    // "Reach M: Ring of fields directly adjacent to Model - Reach P: Squares directly front,
    // back, left, right of Model - Reach R: Reach M plus additional adjacent ring"
    let at = c(4, 4);
    assert!(Board::in_zone(Reach::M, at, c(5, 5)) && !Board::in_zone(Reach::M, at, c(6, 4)));
    assert!(Board::in_zone(Reach::P, at, c(5, 4)) && !Board::in_zone(Reach::P, at, c(5, 5)));
    assert!(Board::in_zone(Reach::R, at, c(6, 6)) && Board::in_zone(Reach::R, at, c(5, 4)));
    assert!(!Board::in_zone(Reach::R, at, c(7, 4)) && !Board::in_zone(Reach::M, at, at));
}

#[test]
fn set_up_gives_momentum_from_fortune_and_the_pool_from_the_adversaries() {
    // "Starting Momentum equals Company's current Fortune Pool." "Prepare Adversary Pool by
    // summing A/C/E values of each Model" "Spend Threat for ... additional Pool values"
    let s = started(2);
    assert_eq!(s.momentum(), encounter::data::FORTUNE);
    let sum: u8 = encounter::data::ADVERSARIES.iter().map(|p| p.pool).sum();
    assert_eq!(s.pool(), sum + 2);
    assert_eq!(s.threat(), encounter::data::THREAT - 2);
}

#[test]
fn a_surprised_company_has_no_momentum_and_its_hirelings_no_activation() {
    // "Company Surprised: No Momentum in first round - Henchmen and Followers receive no
    // Activation - Declare all actions before Adversaries"
    let mut s = surprised(1);
    let mut party_declared = Vec::new();
    while s.phase() == Phase::Declare {
        let Node::Decision(side) = s.node() else { panic!() };
        if side == PARTY_SIDE {
            assert!(party_declared.len() < 2, "the party declares all first, then the DM");
            party_declared.extend(s.next_declarer(side));
        } else {
            assert_eq!(
                party_declared,
                vec![BRANNOC, ISOLDE],
                "only the Characters declare, all before the DM"
            );
        }
        s.act(Action::Declare(Intent::Fight)).unwrap();
    }
    assert!(!s.models()[WAT as usize].declared && !s.models()[GARRICK as usize].declared);
    let mut s = to_activation_after_declared(s, BRANNOC);
    s.pose_at(CUTTER, c(2, 1)).unwrap();
    // No boosted strike: Momentum is held but cannot be spent in round 1.
    assert!(s.momentum() > 0);
    assert!(legal(&s).iter().all(|a| !matches!(a, Action::Strike { boost: true, .. })));
    assert!(legal(&s).contains(&Action::Strike { target: CUTTER, boost: false, extra: false }));
    s.act(Action::EndActivation).unwrap();
}

fn to_activation_after_declared(mut s: Encounter, first: u8) -> Encounter {
    let queue: Vec<u8> = (0..9).filter(|&m| s.models()[m as usize].declared).collect();
    for m in queue {
        s.act(Action::Face(if m == first { 6 } else { 1 })).unwrap();
    }
    assert_eq!(s.activation().map(|a| a.model), Some(first));
    s
}

#[test]
fn surprised_adversaries_have_no_pool_and_their_minions_no_activation() {
    // "Adversaries Surprised: No Adversary Pool in first round - Common Adversaries lose
    // Activation - Elite and Champion Adversaries use Basic Actions only - Declare all actions
    // after Company"
    let mut s = surprised(6);
    assert_eq!(s.pool(), 0);
    while s.phase() == Phase::Declare {
        s.act(Action::Declare(Intent::Fight)).unwrap();
    }
    for m in [CUTTER, SPEARMAN, ARCHER] {
        assert!(!s.models()[m as usize].declared);
    }
    assert!(s.models()[ORC as usize].declared && s.models()[OGRE as usize].declared);
    let mut s = to_activation_after_declared(s, ORC);
    s.pose_at(ORC, c(2, 5)).unwrap(); // next to Wat (1,4) and Garrick (1,5)
    s.pose_resources(3, 3, 3);
    let l = legal(&s);
    assert!(l.contains(&Action::Strike { target: WAT, boost: false, extra: false }));
    assert!(l.iter().all(|a| !matches!(
        a,
        Action::Strike { boost: true, .. } | Action::Disengage { .. } | Action::Prepare
    )));
}

#[test]
fn an_even_die_lets_the_party_declare_first_an_odd_one_the_dm_and_they_alternate() {
    // "Roll D6: Even = Explorers declare first, Odd = DM declares first - Alternate declaring
    // actions - DM declares Adversary actions in Groups"
    for (face, first) in [(4, PARTY_SIDE), (5, DM_SIDE)] {
        let mut s = Encounter::start();
        s.act(Action::BuyPool(0)).unwrap();
        s.act(Action::Face(3)).unwrap();
        s.act(Action::Face(3)).unwrap(); // steady Winds of Magic
        s.act(Action::Face(face)).unwrap();
        let mut sides = Vec::new();
        while let Node::Decision(side) = s.node() {
            if s.phase() != Phase::Declare {
                break;
            }
            sides.push((side, s.next_declarer(side)));
            s.act(Action::Declare(Intent::Fight)).unwrap();
        }
        assert_eq!(sides[0].0, first);
        // Four party models and four DM groups (the two goblin melee minions together).
        assert_eq!(sides.len(), 8);
        assert!(sides.windows(2).all(|w| w[0].0 != w[1].0), "they alternate");
        assert!(sides.iter().any(|(side, models)| *side == DM_SIDE && models == &vec![CUTTER, SPEARMAN]));
    }
}

#[test]
fn declarations_are_hidden_from_the_other_side_until_all_are_made() {
    // "Alternate declaring actions" after a die: each side decides without seeing the other's.
    let mut s = started(0);
    assert!(s.is_visible(PARTY_SIDE) && !s.is_visible(DM_SIDE), "the party's declaration is secret");
    s.act(Action::Declare(Intent::Move)).unwrap();
    assert!(!s.observation(DM_SIDE).contains("Some(Move)"));
    assert!(s.observation(PARTY_SIDE).contains("Some(Move)"));
    // A determinization for the DM draws the party's declaration anew, keeping what it sees.
    let mut rng = rand::rngs::mock::StepRng::new(0, 0x9e37_79b9_7f4a_7c15);
    let drawn: Vec<Option<Intent>> =
        (0..12).map(|_| s.determinize(DM_SIDE, &mut rng).models()[BRANNOC as usize].intent).collect();
    assert!(drawn.iter().any(|&i| i != Some(Intent::Move)), "{drawn:?}");
    for _ in 0..4 {
        assert_eq!(s.determinize(DM_SIDE, &mut rng).observation(DM_SIDE), s.observation(DM_SIDE));
    }
    while s.phase() == Phase::Declare {
        s.act(Action::Declare(Intent::Fight)).unwrap();
    }
    // Revealed once all have declared.
    assert!(s.observation(DM_SIDE).contains("Some(Move)"));
}

#[test]
fn initiative_is_a_d6_plus_initiative_less_the_action_modifier_highest_first() {
    // "Roll 1D6 + Initiative Characteristic - Action modifier. Resolve in descending order
    // (highest first)."
    let mut s = started(0);
    while s.phase() == Phase::Declare {
        s.act(Action::Declare(Intent::Fight)).unwrap();
    }
    let queue: Vec<u8> = (0..9).filter(|&m| s.models()[m as usize].declared).collect();
    for (k, &m) in queue.iter().enumerate() {
        s.act(Action::Face(1 + (k as u8 % 6))).unwrap();
        let p = s.models()[m as usize].profile;
        assert_eq!(s.models()[m as usize].initiative, Some(1 + (k as i8 % 6) + p.initiative as i8 - 1));
    }
    // The first to act has the highest score.
    let first = s.activation().unwrap().model;
    let best = s.models().iter().filter_map(|m| m.initiative).max();
    assert_eq!(s.models()[first as usize].initiative, best);
}

#[test]
fn an_activation_is_one_major_or_two_minor_plus_a_free_minor() {
    // "Perform one Major Action OR gain 2 free Minor Actions - Perform one free Minor Action
    // (before or after Major Action)"
    let mut s = activation_with(WAT, false, &[(WAT, c(2, 4))]);
    let advances =
        |s: &Encounter| legal(s).into_iter().filter(|a| matches!(a, Action::Advance(_))).collect::<Vec<_>>();
    // Three minors in a row (no Major): after the third nothing is left and it ends.
    for step in 0..2 {
        let a = advances(&s)[0];
        s.act(a).unwrap();
        assert_eq!(s.activation().map(|a| (a.model, a.minors)), Some((WAT, step + 1)));
        assert!(legal(&s).iter().any(|a| matches!(a, Action::Advance(_))));
    }
    let a = advances(&s)[0];
    s.act(a).unwrap();
    assert_ne!(s.activation().map(|a| a.model), Some(WAT), "its activation ended");
    // A Major after one minor leaves no minor: the strike ends the choice.
    let mut s = activation_with(BRANNOC, false, &[(CUTTER, c(3, 1))]);
    s.act(Action::Advance(c(2, 1))).unwrap();
    s.act(Action::Strike { target: CUTTER, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    s.act(Action::Accept).unwrap();
    // Nothing free is left after a Major and a minor: a Main Character may go on only with
    // additional Minors for Fatigue ("Main Characters: Additional Minor Actions cost 1
    // Fatigue each"), and the scripted party ends there.
    assert!(s.extra_minor(BRANNOC), "{}", s.render());
    assert_eq!(encounter::ScriptedAgent.select_action(&s), Action::EndActivation);
    s.act(Action::EndActivation).unwrap();
    assert_ne!(s.activation().map(|a| a.model), Some(BRANNOC));
}

#[test]
fn a_model_stops_on_entering_an_enemy_danger_zone() {
    // "Model stops when entering enemy DZ regardless of remaining Movement."
    let mut s = to_activation(started(0), WAT, false);
    assert!(legal(&s).contains(&Action::Advance(c(5, 4))), "four squares away, reachable");
    s.pose_at(CUTTER, c(4, 6)).unwrap();
    let l = legal(&s);
    assert!(l.contains(&Action::Advance(c(3, 5))), "it may enter the Danger Zone");
    assert!(!l.contains(&Action::Advance(c(5, 4))), "but not pass through it");
}

#[test]
fn leaving_a_danger_zone_by_advancing_offers_an_interrupt_resolved_first() {
    // "Only Disengage, Change Place, or Reposition allowed in DZ. Other Manoeuvres trigger
    // Interrupts." "Performed during another Model's Activation by spending a Reaction.
    // Resolved before interrupted action."
    let mut s = activation_with(WAT, false, &[(WAT, c(2, 4)), (CUTTER, c(3, 5))]);
    let l = legal(&s);
    assert!(l.iter().any(|a| matches!(a, Action::Disengage { .. })));
    assert!(l.iter().any(|a| matches!(a, Action::Reposition(_))));
    s.act(Action::Advance(c(1, 3))).unwrap();
    assert_eq!(s.node(), Node::Decision(DM_SIDE));
    assert_eq!(s.models()[WAT as usize].cell, c(2, 4), "not moved before the Interrupt");
    s.act(Action::Interrupt).unwrap();
    let x = &s.models()[CUTTER as usize];
    assert_eq!(x.reactions, x.profile.interrupts() - 1, "a Reaction spent");
    assert_eq!(s.node(), Node::Chance);
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    assert_eq!(s.models()[WAT as usize].cell, c(1, 3), "then the move");
}

#[test]
fn disengage_and_change_place_are_checks_or_momentum() {
    // "Disengage: Challenging Opposed Athletics vs WS to leave enemy Danger Zone" "2pt:
    // Automatically perform Disengage Manoeuvre" "1pt: Automatically perform Change Place"
    let mut s = activation_with(WAT, false, &[(WAT, c(2, 4)), (CUTTER, c(3, 5)), (GARRICK, c(2, 5))]);
    let l = legal(&s);
    let to = l.iter().find_map(|a| match a {
        Action::Disengage { to, momentum: true } => Some(*to),
        _ => None,
    });
    let to = to.expect("a paid Disengage with 3 Momentum");
    assert!(l.contains(&Action::ChangePlace { ally: GARRICK, momentum: true }));
    let mut paid = s.clone();
    paid.act(Action::Disengage { to, momentum: true }).unwrap();
    assert_eq!(paid.momentum_spent(), s.momentum_spent() + 2);
    assert_eq!(paid.models()[WAT as usize].cell, to);
    assert!(!paid.engaged(WAT));
    s.act(Action::Disengage { to, momentum: false }).unwrap();
    // Challenging (+1) against the goblin's WS 3 with Athletics 3: Obstacle 5.
    let odds = pending_odds(&s);
    assert!(
        (odds[Outcome::Success as usize] - 0.0).abs() < 1e-12
            && (odds[Outcome::Boon as usize] - 1.0 / 6.0).abs() < 1e-12
    );
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    assert_eq!(s.models()[WAT as usize].cell, c(2, 4), "a failed Disengage stays");
}

#[test]
fn minions_use_basic_actions_elites_situational_champions_threat() {
    // "Minion: Basic Activities - Elite: Situational Activities - Champion: ... can use Threat
    // directly"
    let mut s = started(0);
    while s.phase() == Phase::Declare {
        s.act(Action::Declare(Intent::Fight)).unwrap();
    }
    let s0 = s.clone();
    let mut s = to_activation_after_declared(s, SPEARMAN);
    s.pose_at(SPEARMAN, c(3, 5)).unwrap();
    s.pose_at(WAT, c(2, 4)).unwrap();
    s.pose_resources(0, 5, 3);
    let l = legal(&s);
    assert!(l.contains(&Action::Strike { target: WAT, boost: false, extra: false }));
    assert!(l.iter().all(|a| !matches!(
        a,
        Action::Strike { boost: true, .. }
            | Action::Disengage { .. }
            | Action::Reposition(_)
            | Action::Prepare
    )));
    let mut s = to_activation_after_declared(s0.clone(), ORC);
    s.pose_at(ORC, c(3, 5)).unwrap();
    s.pose_at(WAT, c(2, 4)).unwrap();
    s.pose_resources(0, 5, 3);
    let l = legal(&s);
    assert!(
        l.contains(&Action::Strike { target: WAT, boost: true, extra: false }),
        "the Pool eases an elite's attack"
    );
    assert!(l.iter().all(|a| !matches!(a, Action::Strike { extra: true, .. })), "no Threat for an elite");
    assert!(l.iter().any(|a| matches!(a, Action::Disengage { .. })));
    let mut s = to_activation_after_declared(s0, OGRE);
    s.pose_at(OGRE, c(3, 5)).unwrap();
    s.pose_at(WAT, c(2, 4)).unwrap();
    s.pose_resources(0, 5, 3);
    s.act(Action::Strike { target: WAT, boost: true, extra: true }).unwrap();
    assert_eq!((s.pool(), s.threat()), (4, 2), "a Pool point and a Threat spent");
}

#[test]
fn ranged_attacks_need_line_of_sight_and_no_engagement_unless_a_pistol() {
    // "Cannot attack when Engaged unless weapon has Pistol Quality." "Line must not cross
    // walls, obstacles, or models."
    let mut s = to_activation(started(0), ISOLDE, true);
    // The goblins of the far room are behind the wall and the closed door.
    assert!(legal(&s).iter().all(|a| !matches!(a, Action::Shoot { target: CUTTER | SPEARMAN | ARCHER, .. })));
    s.pose_at(ORC, c(6, 4)).unwrap();
    s.pose_at(ISOLDE, c(2, 5)).unwrap();
    assert!(legal(&s).iter().any(|a| matches!(a, Action::Shoot { target: ORC, .. })));
    // A model in the line blocks it.
    s.pose_at(WAT, c(4, 5)).unwrap();
    s.pose_at(ORC, c(6, 5)).unwrap();
    assert!(!s.shot_possible(ISOLDE, ORC));
    // Engaged: no shot with a bow; a pistol may.
    s.pose_at(CUTTER, c(2, 6)).unwrap();
    s.pose_at(ORC, c(6, 4)).unwrap();
    assert!(!s.shot_possible(ISOLDE, ORC));
    s.pose_at(WAT, c(1, 4)).unwrap();
    s.pose_at(GARRICK, c(3, 6)).unwrap();
    s.pose_at(ORC, c(5, 4)).unwrap();
    assert!(s.engaged(GARRICK) && s.shot_possible(GARRICK, ORC));
}

#[test]
fn shooting_into_melee_is_harder_and_a_miss_hits_a_random_model() {
    // "Shooting into Melee: Each Model target is engaged with: Difficulty +1. On miss:
    // Randomly determine hit model."
    let mut s = activation_with(ISOLDE, true, &[(ISOLDE, c(1, 6)), (ORC, c(6, 4))]);
    let mut clear = s.clone();
    clear.act(Action::Shoot { target: ORC, boost: false }).unwrap();
    s.pose_at(WAT, c(6, 5)).unwrap();
    s.act(Action::Shoot { target: ORC, boost: false }).unwrap();
    assert!(success(pending_odds(&s)) < success(pending_odds(&clear)));
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    s.act(Action::Accept).unwrap();
    assert_eq!(s.node(), Node::Chance);
    assert_eq!(s.chance_outcomes(), vec![(Action::Face(0), 0.5), (Action::Face(1), 0.5)]);
    let mut target_drawn = s.clone();
    s.act(Action::Face(1)).unwrap();
    assert!(
        matches!(s.pending().last(), Some(Pending::Check(c)) if matches!(c.purpose, encounter::state::Purpose::Damage { target: WAT, .. }))
    );
    // Ruling: the random draw may pick the intended target, which is then hit (not a clean
    // miss).
    target_drawn.act(Action::Face(0)).unwrap();
    assert!(
        matches!(target_drawn.pending().last(), Some(Pending::Check(c)) if matches!(c.purpose, encounter::state::Purpose::Damage { target: ORC, .. })),
        "{:?}",
        target_drawn.pending()
    );
}

#[test]
fn larger_targets_are_easier_to_hit() {
    // "Size Modifiers (Attack Difficulty) - Small: +1 - Average: 0 - Large: -1"
    let s = to_activation(started(0), BRANNOC, false);
    let odds_against = |t: u8| {
        let mut x = s.clone();
        x.pose_at(t, c(2, 1)).unwrap();
        x.act(Action::Strike { target: t, boost: false, extra: false }).unwrap();
        success(pending_odds(&x))
    };
    // The goblin (Small, Defense 2), the orc (Average, Defense 3), the ogre (Large, Defense 3).
    assert!(odds_against(OGRE) > odds_against(ORC));
    assert!((odds_against(CUTTER) - odds_against(ORC)).abs() < 1e-12, "Small +1 offsets Defense 2 vs 3");
}

#[test]
fn prone_targets_give_favour_in_melee_and_peril_at_range_and_stand_with_a_major() {
    // "Prone (Ongoing): Melee attacks against: Favour. Ranged attacks against: Peril. Remove:
    // Spend Major Action to stand."
    let strike =
        |prone: bool| success(brannoc_strike_odds(ORC, Conditions { prone, ..Conditions::default() }));
    assert!(strike(true) > strike(false));
    let s = to_activation(started(0), ISOLDE, true);
    let shoot = |prone: bool| {
        let mut x = s.clone();
        x.pose_at(ISOLDE, c(1, 6)).unwrap();
        x.pose_at(ORC, c(6, 4)).unwrap();
        x.pose_conditions(ORC, Conditions { prone, ..Conditions::default() }).unwrap();
        x.act(Action::Shoot { target: ORC, boost: false }).unwrap();
        success(pending_odds(&x))
    };
    assert!(shoot(true) < shoot(false));
    let mut x = s.clone();
    x.pose_conditions(ISOLDE, Conditions { prone: true, ..Conditions::default() }).unwrap();
    let l = legal(&x);
    assert!(l.contains(&Action::StandUp) && l.iter().all(|a| !matches!(a, Action::Advance(_))));
    x.act(Action::StandUp).unwrap();
    assert!(!x.models()[ISOLDE as usize].conditions.prone);
}

#[test]
fn bleeding_hits_at_the_start_phase_and_stunned_misses_the_activation() {
    // "Bleeding (Persistent): Start Phase: Automatic S[X] hit." "Stunned (Fleeting): Miss next
    // Activation." "Fleeting: Ends at character's next End Phase." "Persistent: ... Reduce by 1
    // each End Phase."
    let mut s = Encounter::start();
    s.act(Action::BuyPool(0)).unwrap();
    s.pose_conditions(BRANNOC, Conditions { bleeding: 2, ..Conditions::default() }).unwrap();
    s.pose_conditions(WAT, Conditions { stunned: true, ..Conditions::default() }).unwrap();
    s.act(Action::Face(3)).unwrap();
    s.act(Action::Face(3)).unwrap(); // steady Winds of Magic
    s.act(Action::Face(2)).unwrap();
    while s.phase() == Phase::Declare {
        s.act(Action::Declare(Intent::Fight)).unwrap();
    }
    assert!(!s.models()[WAT as usize].declared, "a Stunned model declares nothing");
    let queue: Vec<u8> = (0..9).filter(|&m| s.models()[m as usize].declared).collect();
    for m in queue {
        s.act(Action::Face(if m == BRANNOC { 6 } else { 1 })).unwrap();
    }
    assert_eq!(s.node(), Node::Chance, "the bleeding hit before Brannoc acts");
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Accept).unwrap(); // no Soak: the wound is dealt
    s.act(Action::Face(0)).unwrap(); // its Injury card: bruised ribs
    assert_eq!(s.models()[BRANNOC as usize].wounds, s.models()[BRANNOC as usize].profile.wounds - 1);
    s.act(Action::EndActivation).unwrap();
    assert_eq!(s.models()[BRANNOC as usize].conditions.bleeding, 1);
    assert_eq!(Conditions::DURATIONS[3], ("bleeding", Duration::Persistent));
    // Play the round out with nothing but ends and failures: Wat's Stunned ends at its End Phase.
    while s.round() == 1 && !s.is_terminal() {
        s.act(idle_action(&s)).unwrap();
    }
    assert!(!s.models()[WAT as usize].conditions.stunned);
}

#[test]
fn the_end_phase_gives_interrupts_equal_to_attacks() {
    // "End Phase: ... Gain Interrupts equal to Attacks Characteristic"
    let mut s = activation_with(WAT, false, &[(WAT, c(2, 4)), (OGRE, c(3, 5))]);
    s.act(Action::Advance(c(1, 3))).unwrap();
    s.act(Action::Interrupt).unwrap();
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    assert_eq!(s.models()[OGRE as usize].reactions, 1, "one of the ogre's two Interrupts spent");
    let mut x = s.clone();
    while x.activation().map(|a| a.model) != Some(OGRE) && !x.is_terminal() {
        x.act(idle_action(&x)).unwrap();
    }
    x.act(Action::EndActivation).unwrap();
    assert_eq!(x.models()[OGRE as usize].reactions, 2);
}

#[test]
fn a_wound_at_zero_puts_the_model_out_of_play_and_removes_it() {
    // "Wounds = 0 = Out-of-play" "Adversaries: Removed from board" "Opposed Damage vs Toughness
    // check to cause a Wound."
    let mut s = activation_with(BRANNOC, false, &[(CUTTER, c(2, 1))]);
    s.act(Action::Strike { target: CUTTER, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    // The damage check: S 3 + sword 1 = 4 dice against Toughness 1 + armour 0.
    let odds = pending_odds(&s);
    assert_eq!(odds, encounter::checks::complex_odds(4, encounter::DAMAGE_TARGET, 1));
    s.act(Action::Roll(Outcome::Success)).unwrap();
    assert!(s.models()[CUTTER as usize].out);
    assert_eq!(s.model_at(c(2, 1)), None);
}

#[test]
fn luck_re_rolls_a_check_once_and_the_re_roll_is_final() {
    // "Luck Points: Re-roll checks" "One attempt per check ... Re-rolled result is always final."
    let mut s = activation_with(BRANNOC, false, &[(ORC, c(2, 1))]);
    s.act(Action::Strike { target: ORC, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    assert_eq!(s.node(), Node::Decision(PARTY_SIDE));
    s.act(Action::Reroll).unwrap();
    assert_eq!(s.models()[BRANNOC as usize].luck, 0);
    assert_eq!(s.node(), Node::Chance);
    s.act(Action::Roll(Outcome::Bane)).unwrap();
    // Only a Dark Deal re-rolls a re-rolled check ("except Dark Deal").
    assert_eq!(legal(&s), sorted(vec![Action::DarkDeal, Action::Accept]));
}

#[test]
fn momentum_pays_for_an_easier_attack_and_an_extra_one() {
    // "1pt: Decrease Check Difficulty by 2" "4pt: Increase Attacks by 1 for next Action"
    let mut s = activation_with(BRANNOC, false, &[(ORC, c(2, 1))]);
    s.pose_resources(5, 0, 0);
    let mut plain = s.clone();
    plain.act(Action::Strike { target: ORC, boost: false, extra: false }).unwrap();
    s.act(Action::Strike { target: ORC, boost: true, extra: true }).unwrap();
    assert_eq!((s.momentum(), s.momentum_spent()), (5, 5), "paid at Bookkeeping");
    assert!(success(pending_odds(&s)) > success(pending_odds(&plain)));
    assert!(matches!(s.pending()[s.pending().len() - 2], Pending::Attacks { left: 1, .. }), "two attacks");
}

#[test]
fn the_encounter_ends_when_no_adversary_remains() {
    // "Combat ends when no Adversaries remain on Board Section."
    let mut wins = 0;
    for seed in 0..40 {
        let mut agents = vec![
            encounter::make_agent("scripted", seed).unwrap(),
            encounter::make_agent("random", seed).unwrap(),
        ];
        let end = agents::play_game(Encounter::start(), &mut agents, seed, |_, _| {});
        if end.winner() == Some(PARTY_SIDE) {
            wins += 1;
            assert_eq!(end.in_play(DM_SIDE), 0);
            assert_eq!(end.returns(), vec![1.0, -1.0]);
        }
    }
    assert!(wins > 0);
}

/// The goblin archer next to the stuck door at (5,3), in its activation, having rolled to
/// force it with `marks` Marks (its Strength in dice against Target 4).
fn archer_forces(marks: i32) -> Encounter {
    let mut s = to_activation(started(0), ARCHER, false);
    s.act(Action::Advance(c(6, 3))).unwrap();
    let l = legal(&s);
    assert!(l.contains(&Action::ForceDoor(c(5, 3))) && !l.contains(&Action::OpenDoor(c(5, 3))), "{l:?}");
    assert!(l.contains(&Action::OpenDoor(c(5, 2))), "the other door opens as before");
    s.act(Action::ForceDoor(c(5, 3))).unwrap();
    assert_eq!(s.node(), Node::Chance);
    let dice = s.models()[ARCHER as usize].profile.strength;
    let exact = encounter::checks::marks_odds(dice, encounter::FORCE_TARGET);
    for (a, p) in s.chance_outcomes() {
        let Action::Face(k) = a else { panic!("{a:?}") };
        assert_eq!(p, exact[k as usize]);
    }
    s.act(Action::Face((marks + dice as i32) as u8)).unwrap();
    s
}

#[test]
fn a_stuck_door_is_forced_by_an_extended_check_one_roll_per_activation() {
    // "Extended Checks - Procedure: Use Complex Check rules. Multiple rolls allowed until
    // Obstacle reached. Time Cost: Each roll consumes 1 unit of Time." (ruling: a unit of Time
    // is an activation; the door keeps its Marks, Obstacle 3).
    assert_eq!(encounter::FORCE_OBSTACLE, 3);
    let s = archer_forces(2);
    assert_eq!(s.stuck_doors()[0].marks, 2);
    assert!(!s.stuck_doors()[0].jammed);
    assert_eq!(s.board().at(c(5, 3)), encounter::board::Terrain::Door { open: false });
    assert!(!legal(&s).contains(&Action::ForceDoor(c(5, 3))), "one roll per activation");
    assert!(legal(&s).contains(&Action::OpenDoor(c(5, 2))), "a Minor action is left");
    // Reaching the Obstacle opens it.
    let s = archer_forces(3);
    assert_eq!(s.board().at(c(5, 3)), encounter::board::Terrain::Door { open: true });
    assert_eq!(s.stuck_doors()[0].marks, 3);
}

#[test]
fn a_stuck_door_whose_marks_reach_zero_is_jammed() {
    // "Failure Condition: If Marks reach 0 or below, Check ends as Bane." (ruling: the door
    // cannot be forced again in this Encounter).
    for marks in [0, -1] {
        let s = archer_forces(marks);
        assert!(s.stuck_doors()[0].jammed);
        assert_eq!(s.board().at(c(5, 3)), encounter::board::Terrain::Door { open: false });
        assert!(!legal(&s).iter().any(|a| matches!(a, Action::ForceDoor(_))));
    }
}

/// Brannoc (first to act) has hit the model on `target_at` and the damage check is pending.
fn brannoc_hits(target: u8, at: Cell, conditions: Conditions) -> Encounter {
    let mut s = activation_with(BRANNOC, false, &[(target, at)]);
    s.pose_conditions(BRANNOC, conditions).unwrap();
    s.act(Action::Strike { target, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s
}

#[test]
fn a_wound_draws_an_injury_card_with_exact_odds_and_its_effect() {
    // "When Wound caused, draw Injury card with Severity rating and effects." "Severity =
    // Obstacle for healing"
    use encounter::data::{InjuryEffect, INJURY_DECK};
    let mut s = brannoc_hits(ORC, c(2, 1), Conditions::default());
    s.act(Action::Roll(Outcome::Success)).unwrap();
    assert_eq!(s.node(), Node::Decision(DM_SIDE), "the orc's armour may soak");
    s.act(Action::Accept).unwrap();
    assert_eq!(s.models()[ORC as usize].wounds, 1);
    assert_eq!(s.node(), Node::Chance, "the Injury draw");
    assert!(matches!(s.pending().last(), Some(Pending::Injury { target: ORC })));
    // Exact odds against an enumeration of every card of the deck.
    let deck: Vec<u8> = INJURY_DECK
        .iter()
        .enumerate()
        .flat_map(|(k, card)| std::iter::repeat_n(k as u8, card.copies as usize))
        .collect();
    let odds = s.chance_odds();
    assert_eq!(odds.len(), INJURY_DECK.len());
    for (a, p) in &odds {
        let Action::Face(k) = *a else { panic!("{a:?}") };
        let n = deck.iter().filter(|&&d| d == k).count();
        assert!((p - n as f64 / deck.len() as f64).abs() < 1e-12, "card {k}: {p}");
    }
    assert!((odds.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
    for (k, card) in INJURY_DECK.iter().enumerate() {
        assert!((1..=3).contains(&card.severity), "a Severity, the Obstacle of healing");
        let mut x = s.clone();
        x.act(Action::Face(k as u8)).unwrap();
        let orc = &x.models()[ORC as usize];
        assert_eq!(orc.injuries[k], 1, "the card is kept");
        let c = orc.conditions;
        match card.effect {
            InjuryEffect::Nothing => assert_eq!(c, Conditions::default()),
            InjuryEffect::Bleeding(b) => assert_eq!(c.bleeding, b),
            InjuryEffect::Prone => assert!(c.prone),
            InjuryEffect::Staggered(x) => assert_eq!(c.staggered, x),
            InjuryEffect::Drained => assert!(c.drained),
            InjuryEffect::Blinded => assert!(c.blinded),
            InjuryEffect::Weakened(w) => assert_eq!((c.weakened, orc.strength()), (w, 3 - w)),
            InjuryEffect::LoseMelee => assert_eq!(orc.melee(), orc.profile.melee - 1),
        }
    }
}

#[test]
fn wounds_at_zero_put_a_model_out_of_play_and_below_zero_kill_it() {
    // "Wounds < 0 = Death" "Wounds = 0 = Out-of-play"
    let s = brannoc_hits(CUTTER, c(2, 1), Conditions::default());
    let mut out = s.clone();
    out.act(Action::Roll(Outcome::Success)).unwrap();
    let cutter = &out.models()[CUTTER as usize];
    assert!(cutter.out && !cutter.dead && cutter.wounds == 0);
    let line = |s: &Encounter| s.render().lines().find(|l| l.contains("goblin cutter")).unwrap().to_string();
    assert!(line(&out).ends_with("Minion out of play"), "{}", line(&out));
    assert_ne!(out.node(), Node::Chance, "a model out of play draws no Injury");
    let mut dead = s.clone();
    dead.act(Action::Roll(Outcome::Boon)).unwrap();
    let cutter = &dead.models()[CUTTER as usize];
    assert!(cutter.out && cutter.dead, "two wounds on one left: below 0");
    assert!(line(&dead).ends_with("Minion slain"), "{}", line(&dead));
    assert_eq!(dead.model_at(c(2, 1)), None);
}

#[test]
fn soak_cancels_a_wound_before_it_is_dealt_and_damages_the_armour() {
    // "Certain actions/armor provide Soak. Soak cancels Wound before dealt (no Injury drawn).
    // Using Soak damages armor."
    let mut s = activation_with(ORC, false, &[(ORC, c(2, 1))]);
    s.act(Action::Strike { target: BRANNOC, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap();
    let b = |s: &Encounter| {
        let m = &s.models()[BRANNOC as usize];
        (m.wounds, m.armour, m.soak)
    };
    assert_eq!(b(&s), (4, 1, 2));
    assert_eq!(s.node(), Node::Decision(PARTY_SIDE), "the wounded side decides");
    assert_eq!(legal(&s), vec![Action::Accept, Action::Soak]);
    s.act(Action::Soak).unwrap();
    assert_eq!(b(&s), (4, 0, 1), "one wound soaked; the armour loses a point");
    let mut taken = s.clone();
    taken.act(Action::Accept).unwrap();
    assert_eq!(b(&taken), (3, 0, 1));
    assert!(matches!(taken.pending().last(), Some(Pending::Injury { target: BRANNOC })));
    s.act(Action::Soak).unwrap();
    assert_eq!(b(&s), (4, 0, 0), "both wounds soaked, the armour never below 0");
    assert!(s.pending().iter().all(|p| !matches!(p, Pending::Injury { .. })), "no Injury drawn");
    assert_eq!(s.node(), Node::Decision(DM_SIDE));
}

#[test]
fn entangled_slows_movement_and_an_athletics_check_removes_it() {
    // "Entangled (Ongoing) Movement -X. Remove: Athletics check [X]."
    let mut s = activation_with(SPEARMAN, false, &[(SPEARMAN, c(3, 5)), (WAT, c(2, 4))]);
    s.act(Action::Strike { target: WAT, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap();
    assert_eq!(s.models()[WAT as usize].conditions.entangled, 2, "the barbed spear's Critical Hit");
    assert_eq!(Conditions::DURATIONS[4], ("entangled", Duration::Ongoing));
    let s = to_activation(started(0), WAT, false);
    assert_eq!(wats_longest_advance(&s), Some(4));
    let mut x = s.clone();
    x.pose_conditions(WAT, Conditions { entangled: 2, ..Conditions::default() }).unwrap();
    assert_eq!(wats_longest_advance(&x), Some(2), "Movement 4 − 2");
    x.act(Action::BreakFree).unwrap();
    assert_eq!(pending_odds(&x), encounter::checks::complex_odds(3, encounter::BREAK_FREE_TARGET, 2));
    let mut failed = x.clone();
    failed.act(Action::Roll(Outcome::Failure)).unwrap();
    assert_eq!(failed.models()[WAT as usize].conditions.entangled, 2);
    x.act(Action::Roll(Outcome::Success)).unwrap();
    assert_eq!(x.models()[WAT as usize].conditions.entangled, 0);
    assert!(!legal(&x).contains(&Action::BreakFree));
}

#[test]
fn blinded_gives_peril_on_all_checks_and_no_ranged_attacks() {
    // "Blinded (Ongoing) All checks: Peril. Cannot use Ranged actions."
    use encounter::checks::{basic_odds, opposed_obstacle, Roll};
    let blinded = Conditions { blinded: true, ..Conditions::default() };
    assert_eq!(brannoc_strike_odds(BRANNOC, blinded), basic_odds(opposed_obstacle(4, 3, 0), Roll::Peril));
    let mut s = activation_with(ISOLDE, true, &[(ISOLDE, c(1, 6)), (ORC, c(6, 4))]);
    assert!(legal(&s).contains(&Action::Shoot { target: ORC, boost: false }));
    s.pose_conditions(ISOLDE, blinded).unwrap();
    assert!(legal(&s).iter().all(|a| !matches!(a, Action::Shoot { .. })));
    assert_eq!(Conditions::DURATIONS[5], ("blinded", Duration::Ongoing));
    // Ruling: a Minor action clears the model's sight.
    s.act(Action::ClearSight).unwrap();
    assert!(!s.models()[ISOLDE as usize].conditions.blinded);
    assert!(legal(&s).contains(&Action::Shoot { target: ORC, boost: false }));
}

#[test]
fn drained_gives_peril_on_physical_checks_only() {
    // "Drained (Ongoing) Physical checks: Peril."
    use encounter::checks::{basic_odds, opposed_obstacle, Roll};
    let drained = Conditions { drained: true, ..Conditions::default() };
    assert_eq!(brannoc_strike_odds(BRANNOC, drained), basic_odds(opposed_obstacle(4, 3, 0), Roll::Peril));
    let s = to_activation(started(0), ISOLDE, true);
    let shoot = |conditions: Conditions| {
        let mut x = s.clone();
        x.pose_at(ISOLDE, c(1, 6)).unwrap();
        x.pose_at(ORC, c(6, 4)).unwrap();
        x.pose_conditions(ISOLDE, conditions).unwrap();
        x.act(Action::Shoot { target: ORC, boost: false }).unwrap();
        pending_odds(&x)
    };
    assert_eq!(shoot(drained), shoot(Conditions::default()), "Shooting is not a physical check");
    assert_eq!(Conditions::DURATIONS[6], ("drained", Duration::Ongoing));
}

#[test]
fn weakened_lowers_strength_and_loses_a_counter_each_end_phase() {
    // "Weakened (Persistent) Strength -[X]." "Persistent: Has X counters. Reduce by 1 each End
    // Phase."
    let mut s = brannoc_hits(CUTTER, c(2, 1), Conditions { weakened: 2, ..Conditions::default() });
    // Strength 3 − 2 + sword 1 = 2 dice against Toughness 1 + armour 0.
    assert_eq!(pending_odds(&s), encounter::checks::complex_odds(2, encounter::DAMAGE_TARGET, 1));
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    s.act(Action::EndActivation).unwrap();
    assert_eq!(s.models()[BRANNOC as usize].conditions.weakened, 1);
    assert_eq!(Conditions::DURATIONS[7], ("weakened", Duration::Persistent));
}

#[test]
fn inspired_and_demoralized_shift_the_difficulty_of_all_checks() {
    // "Inspired (Persistent) All checks: -[X] Difficulty." "Demoralized (Persistent) All
    // checks: +[X] Difficulty."
    use encounter::checks::{basic_odds, opposed_obstacle, Roll};
    let strike = |conditions: Conditions| brannoc_strike_odds(BRANNOC, conditions);
    let odds = |steps: i8| basic_odds(opposed_obstacle(4, 3, steps), Roll::Normal);
    assert_eq!(strike(Conditions { inspired: 1, ..Conditions::default() }), odds(-1));
    assert_eq!(strike(Conditions { demoralized: 2, ..Conditions::default() }), odds(2));
    assert_eq!(Conditions::DURATIONS[8], ("inspired", Duration::Persistent));
    assert_eq!(Conditions::DURATIONS[9], ("demoralized", Duration::Persistent));
    // In play: Brannoc's Rally 1 Inspires the party when an adversary goes out of play ...
    let mut s = brannoc_hits(CUTTER, c(2, 1), Conditions::default());
    s.act(Action::Roll(Outcome::Success)).unwrap();
    for m in [BRANNOC, ISOLDE, WAT, GARRICK] {
        assert_eq!(s.models()[m as usize].conditions.inspired, 1);
    }
    s.act(Action::EndActivation).unwrap();
    assert_eq!(s.models()[BRANNOC as usize].conditions.inspired, 0, "a counter lost at the End Phase");
    // ... and the ogre's great club (Dread) Demoralizes on a Critical Hit.
    let mut s = activation_with(OGRE, false, &[(OGRE, c(3, 5)), (WAT, c(2, 4))]);
    s.act(Action::Strike { target: WAT, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap();
    assert_eq!(s.models()[WAT as usize].conditions.demoralized, 2);
}

#[test]
fn an_injury_draw_is_described_by_its_card() {
    // "When Wound caused, draw Injury card with Severity rating and effects."
    let mut s = brannoc_hits(ORC, c(2, 1), Conditions::default());
    assert_eq!(s.describe(Action::Face(1)), "die 1");
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Accept).unwrap();
    assert_eq!(s.describe(Action::Face(1)), "Injury card deep cut (Severity 1)");
}

#[test]
fn hidden_halves_movement_blinds_its_attackers_and_ends_after_it_attacks() {
    // "Hidden (Ongoing) Movement: ½M Attacks vs ▷Hidden Model: Attacker treated as [*Blinded*]
    // [▷Hidden attacks] ⇒ Remove *Hidden* @End Phase"
    use encounter::checks::{basic_odds, opposed_obstacle, Roll};
    let hidden = Conditions { hidden: true, ..Conditions::default() };
    assert_eq!(Conditions::DURATIONS[10], ("hidden", Duration::Ongoing));
    // Ruling: a Minor action hides a model no enemy sees (behind the wall, the doors shut).
    let mut s = to_activation(started(0), WAT, false);
    assert!(!legal(&s).contains(&Action::Hide), "in sight of the adversaries");
    s.pose_at(WAT, c(2, 1)).unwrap();
    assert_eq!(wats_longest_advance(&s), Some(4));
    assert!(legal(&s).contains(&Action::Hide));
    s.act(Action::Hide).unwrap();
    assert!(s.models()[WAT as usize].conditions.hidden && !legal(&s).contains(&Action::Hide));
    assert_eq!(wats_longest_advance(&s), Some(2), "½ of Movement 4");
    s.act(Action::EndActivation).unwrap();
    assert!(s.models()[WAT as usize].conditions.hidden, "Ongoing: it stays while it does not attack");
    // Attacks against it: Peril in melee, no ranged attack.
    assert_eq!(brannoc_strike_odds(ORC, hidden), basic_odds(opposed_obstacle(4, 3, 0), Roll::Peril));
    let mut s = activation_with(ISOLDE, true, &[(ISOLDE, c(1, 6)), (ORC, c(6, 4))]);
    s.pose_conditions(ORC, hidden).unwrap();
    assert!(legal(&s).iter().all(|a| !matches!(a, Action::Shoot { target: ORC, .. })));
    // A Hidden model that attacks loses Hidden at its End Phase.
    let mut s = brannoc_hits(CUTTER, c(2, 1), hidden);
    assert!(s.models()[BRANNOC as usize].conditions.hidden);
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    s.act(Action::EndActivation).unwrap();
    assert!(!s.models()[BRANNOC as usize].conditions.hidden);
}

// ---- Round 2 (issue 60): small correctness fixes ----

#[test]
fn shoot_is_declared_only_by_a_shooter_that_could_shoot_this_round() {
    // "Engagement Restriction: Cannot attack when Engaged unless weapon has Pistol Quality."
    // Ruling: Shoot is offered to an Engaged shooter only with a Pistol or a way out of every
    // Danger Zone by one Minor action (Disengage, or an Advance) before its Major.
    let mut s = started(0);
    for _ in 0..3 {
        s.act(Action::Declare(Intent::Fight)).unwrap(); // Brannoc, goblins of group 0, Isolde
    }
    assert!(legal(&s).contains(&Action::Declare(Intent::Shoot)), "the archer's group declares");
    // Wat's spear (Reach R) holds the archer (a Minion: no Disengage): every square it could
    // step to is in Wat's Danger Zone.
    let mut boxed = s.clone();
    boxed.pose_at(WAT, c(6, 3)).unwrap();
    assert!(boxed.engaged(ARCHER) && !boxed.way_out(ARCHER));
    assert!(!legal(&boxed).contains(&Action::Declare(Intent::Shoot)), "{:?}", legal(&boxed));
    // Brannoc's sword (Reach M) leaves it a square out of reach: it may declare Shoot.
    let mut held = s.clone();
    held.pose_at(BRANNOC, c(6, 3)).unwrap();
    assert!(held.engaged(ARCHER) && held.way_out(ARCHER));
    assert!(legal(&held).contains(&Action::Declare(Intent::Shoot)));
    // A Pistol shoots while Engaged.
    let mut pistol = s.clone();
    pistol.pose_at(GARRICK, c(7, 4)).unwrap();
    assert!(pistol.engaged(GARRICK) && pistol.may_declare_shoot(GARRICK));
}

#[test]
fn an_engaged_shooter_is_told_why_it_cannot_shoot_and_may_disengage() {
    // "Engaged (Ongoing): Cannot use Ranged actions. Remove: Leave Danger Zone."
    let mut s = to_activation(started(0), ISOLDE, true);
    assert_eq!(s.models()[ISOLDE as usize].intent, Some(Intent::Shoot));
    s.pose_at(ORC, c(2, 2)).unwrap();
    assert!(s.engaged(ISOLDE));
    assert!(legal(&s).iter().all(|a| !matches!(a, Action::Shoot { .. })));
    assert!(legal(&s).iter().any(|a| matches!(a, Action::Disengage { .. })));
    let why = s.why_no_shot().expect("a reason");
    assert!(why.contains("Isolde is Engaged") && why.contains("Disengage"), "{why}");
    s.act(Action::Disengage { to: legal_disengage(&s), momentum: true }).unwrap();
    assert!(!s.engaged(ISOLDE));
    assert_eq!(s.why_no_shot(), None, "out of the Danger Zone it may shoot");
}

fn legal_disengage(s: &Encounter) -> Cell {
    legal(s)
        .iter()
        .find_map(|a| match a {
            Action::Disengage { to, momentum: true } => Some(*to),
            _ => None,
        })
        .expect("a Disengage with Momentum")
}

#[test]
fn the_log_shows_the_damage_roll_that_wounds_and_labels_bleeding() {
    // "Dealing Damage: Opposed Damage vs Toughness check to cause a Wound." "Bleeding
    // (Persistent): Start Phase: Automatic S[X] hit."
    let mut s = Encounter::start_with_log();
    s.act(Action::BuyPool(0)).unwrap();
    s.pose_conditions(BRANNOC, Conditions { bleeding: 2, ..Conditions::default() }).unwrap();
    s.act(Action::Face(3)).unwrap();
    s.act(Action::Face(3)).unwrap(); // steady Winds of Magic
    s.act(Action::Face(2)).unwrap();
    while s.phase() == Phase::Declare {
        s.act(Action::Declare(Intent::Fight)).unwrap();
    }
    let s = to_activation_after_declared(s, BRANNOC);
    let mut failed = s.clone();
    failed.act(Action::Roll(Outcome::Failure)).unwrap();
    let last = failed.log().last().unwrap().clone();
    assert!(
        last.contains("Bleeding at Brannoc's Start Phase (2 dice") && last.contains("Failure, no wound"),
        "{last}"
    );
    let mut wounded = s;
    wounded.act(Action::Roll(Outcome::Success)).unwrap();
    assert!(wounded
        .log()
        .iter()
        .any(|l| l.contains("Bleeding at Brannoc's Start Phase") && l.contains("Success, 1 wound")));
    // A hit's damage roll is logged when it wounds.
    let mut logged = brannoc_hits_logged(ORC, c(2, 1));
    logged.act(Action::Roll(Outcome::Success)).unwrap();
    assert!(
        logged
            .log()
            .iter()
            .any(|l| l.contains("damage roll against orc veteran") && l.contains("Success, 1 wound")),
        "{:?}",
        logged.log()
    );
}

/// As [`brannoc_hits`], with a log.
fn brannoc_hits_logged(target: u8, at: Cell) -> Encounter {
    let mut s = to_activation(started_logged(0), BRANNOC, false);
    s.pose_at(target, at).unwrap();
    s.act(Action::Strike { target, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s
}

#[test]
fn the_scripted_archer_held_in_melee_steps_out_to_shoot_instead_of_ending() {
    // "Only Disengage, Change Place, or Reposition allowed in DZ. Other Manoeuvres trigger
    // Interrupts." A Minion cannot Disengage; it Advances out, taking the Interrupt.
    use agents::Agent;
    let mut s = to_activation(started(0), ARCHER, true);
    assert_eq!(s.models()[ARCHER as usize].intent, Some(Intent::Shoot));
    s.pose_at(BRANNOC, c(6, 3)).unwrap();
    assert!(s.engaged(ARCHER));
    let a = encounter::ScriptedAgent.select_action(&s);
    match a {
        Action::Advance(to) => assert!(s.zone_enemies(ARCHER, to).is_empty(), "{to:?}"),
        other => panic!("the archer should step out of the Danger Zone, not {other:?}"),
    }
}

#[test]
fn the_scripted_champion_spends_threat_on_a_target_it_can_finish() {
    // "Champion: Wide array of Activities; can use Threat directly". The script's rule: an
    // extra attack (1 Threat) on a target with no more Wounds left than its attacks with
    // the extra one.
    use agents::Agent;
    let mut s = started(0);
    while s.phase() == Phase::Declare {
        s.act(Action::Declare(Intent::Fight)).unwrap();
    }
    let mut s = to_activation_after_declared(s, OGRE);
    s.pose_resources(0, 0, 2);
    let mut fresh = s.clone();
    fresh.pose_at(BRANNOC, c(7, 4)).unwrap(); // 4 Wounds: more than 2 attacks + 1
    let a = encounter::ScriptedAgent.select_action(&fresh);
    assert!(matches!(a, Action::Strike { target: BRANNOC, extra: false, .. }), "{a:?}");
    let mut hurt = s.clone();
    hurt.pose_at(BRANNOC, c(7, 4)).unwrap();
    hurt.pose_wounds(BRANNOC, 3).unwrap();
    let a = encounter::ScriptedAgent.select_action(&hurt);
    assert!(matches!(a, Action::Strike { target: BRANNOC, extra: true, .. }), "{a:?}");
}

// ---- Round 2 (issue 60): survival ----

/// The goblin archer (first to act, Shoot declared) has shot Isolde, down to 1 Wound at
/// (4,4) with Brannoc next to her at (3,5), and its damage roll is a Boon: two wounds.
fn isolde_shot_down() -> Encounter {
    let mut s = activation_with(ARCHER, true, &[(ISOLDE, c(4, 4)), (BRANNOC, c(3, 5))]);
    s.pose_wounds(ISOLDE, 1).unwrap();
    s.act(Action::Shoot { target: ISOLDE, boost: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap();
    assert_eq!(s.legal_actions(), vec![Action::Accept, Action::SpendFate], "the party decides");
    s.act(Action::SpendFate).unwrap();
    s
}

#[test]
fn a_fate_point_escapes_certain_death() {
    // "Fate Points: Escape certain death" "Wounds < 0 = Death - Wounds = 0 = Out-of-play"
    let s = isolde_shot_down();
    let isolde = &s.models()[ISOLDE as usize];
    assert!(isolde.out && !isolde.dead && isolde.fate == 0, "{isolde:?}");
    assert!(isolde.body() && s.body_at(c(4, 4)) == Some(ISOLDE), "she lies on the board");
    // Without a Fate Point (Wat, a Follower) the same hit kills.
    let mut s = activation_with(ARCHER, true, &[(WAT, c(4, 4))]);
    s.pose_wounds(WAT, 1).unwrap();
    s.act(Action::Shoot { target: WAT, boost: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap();
    let wat = &s.models()[WAT as usize];
    assert!(wat.dead && !wat.body() && s.body_at(c(4, 4)).is_none(), "{wat:?}");
}

#[test]
fn a_knocked_out_character_is_dragged_by_an_adjacent_ally() {
    // "Characters: Must be dragged or abandoned (dire consequences)" "Drag: Move adjacent
    // prone Model up to ½M"
    let mut s = isolde_shot_down();
    s.act(Action::EndActivation).unwrap();
    assert_eq!(s.activation().map(|a| a.model), Some(BRANNOC));
    let drags: Vec<Action> = legal(&s).into_iter().filter(|a| matches!(a, Action::Drag { .. })).collect();
    assert!(!drags.is_empty(), "{:?}", legal(&s));
    // ½M: Brannoc (Movement 4) drags her up to 2 squares.
    for a in &drags {
        let Action::Drag { body, to } = *a else { unreachable!() };
        assert_eq!(body, ISOLDE);
        assert!(c(3, 5).distance(to) <= 2, "{to:?}");
    }
    // She cannot be walked over: no Advance onto her square.
    assert!(!legal(&s).contains(&Action::Advance(c(4, 4))));
    let to = drags
        .iter()
        .find_map(|a| match *a {
            Action::Drag { to, .. } if c(3, 5).distance(to) == 2 => Some(to),
            _ => None,
        })
        .expect("a drag of two squares");
    s.act(Action::Drag { body: ISOLDE, to }).unwrap();
    let (b, i) = (s.models()[BRANNOC as usize].cell, s.models()[ISOLDE as usize].cell);
    assert_eq!(b, to);
    assert!(i.adjacent(b) && i != c(4, 4), "dragged along to {i:?}");
    assert_eq!(s.body_at(i), Some(ISOLDE));
}

#[test]
fn an_abandoned_character_in_an_adversarys_danger_zone_is_slain() {
    // "Characters: Must be dragged or abandoned (dire consequences)"; illustrative ruling: an
    // Adversary slays a knocked-out Character lying in its Danger Zone at its End Phase.
    let mut s = isolde_shot_down();
    s.act(Action::EndActivation).unwrap();
    assert!(!s.models()[ISOLDE as usize].dead, "the archer's dagger does not reach her");
    // The orc standing over her at its End Phase.
    let mut s = activation_with(ORC, false, &[(ISOLDE, c(6, 4))]);
    s.pose_wounds(ISOLDE, 1).unwrap();
    s.act(Action::Strike { target: ISOLDE, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap();
    s.act(Action::SpendFate).unwrap();
    assert!(s.models()[ISOLDE as usize].body());
    s.act(Action::EndActivation).unwrap();
    let isolde = &s.models()[ISOLDE as usize];
    assert!(isolde.dead && !isolde.body(), "{isolde:?}");
}

// ---- Round 2 (issue 60): Morale ----

/// The move that lets the game run on without doing anything: the first chance outcome, else
/// an end, pass or acceptance where one is offered, else the first legal action.
fn idle_action(s: &Encounter) -> Action {
    let legal = s.legal_actions();
    match s.node() {
        Node::Chance => legal[0],
        _ => *legal
            .iter()
            .find(|a| matches!(a, Action::EndActivation | Action::Pass | Action::Accept))
            .unwrap_or(&legal[0]),
    }
}

/// Play on with ends, passes, accepts and the first chance outcome until a Morale check is
/// pending or the round is over.
fn to_morale(mut s: Encounter) -> Encounter {
    let morale = |s: &Encounter| matches!(s.pending().last(), Some(Pending::Check(c)) if matches!(c.purpose, encounter::state::Purpose::Morale { .. }));
    while s.round() == 1 && !s.is_terminal() && !morale(&s) {
        s.act(idle_action(&s)).unwrap();
    }
    s
}

#[test]
fn adversaries_whose_champion_falls_check_morale_and_the_failed_are_broken() {
    // "Check Morale: See Psychology & Leadership rules" "Broken (Ongoing): Move away from
    // enemies. Cannot use Actions." "Sum A/C/E values of remaining non-routed Adversaries".
    // Illustrative ruling: with their Champion out of play (or fewer than half of them left)
    // each Adversary takes a Routine Cool check at Bookkeeping; a Failure or Bane leaves it
    // Broken, on the board: it routs only when it flees off the board at its edge.
    let plain = to_morale(to_activation(started(0), BRANNOC, false));
    assert!(plain.round() == 2 || plain.is_terminal(), "no Morale check while they are whole");
    let mut s = to_activation(started_logged(0), BRANNOC, false);
    s.pose_at(CUTTER, c(6, 2)).unwrap(); // off the Adversaries' edge of the board
    s.pose_at(OGRE, c(2, 1)).unwrap();
    s.pose_wounds(OGRE, 1).unwrap();
    s.act(Action::Strike { target: OGRE, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Accept).unwrap(); // the ogre's armour does not soak it
    assert!(!s.models()[OGRE as usize].in_play());
    let mut s = to_morale(s);
    assert_eq!(s.round(), 1);
    // The first Adversary's check: the cutter's Cool 3, Routine: Obstacle 4, half the faces.
    let odds = pending_odds(&s);
    assert!((success(odds) - 0.5).abs() < 1e-12, "{odds:?}");
    let before = s.in_play(DM_SIDE);
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    let cutter = &s.models()[CUTTER as usize];
    assert!(cutter.conditions.broken && cutter.in_play() && !cutter.routed, "{cutter:?}");
    assert_eq!(s.in_play(DM_SIDE), before, "Broken, it stays on the Board Section");
    assert!(s.log().iter().any(|l| l.contains("goblin cutter is Broken")), "{:?}", s.log());
    s.act(Action::Roll(Outcome::Complication)).unwrap();
    assert!(!s.models()[SPEARMAN as usize].conditions.broken, "a Complication holds");
    while matches!(s.node(), Node::Chance) && s.round() == 1 {
        s.act(Action::Roll(Outcome::Bane)).unwrap();
    }
    assert_eq!(s.round(), 2);
    let broken: Vec<u8> = (4..9).filter(|&m| s.models()[m as usize].conditions.broken).collect();
    assert_eq!(broken, [CUTTER, ARCHER, ORC], "the spearman alone holds");
    // None routed: the Pool still sums them all, Broken or not.
    let non_routed: u8 = (4..8).map(|m| s.models()[m as usize].profile.pool).sum();
    assert_eq!(s.pool(), non_routed, "the Pool sums the non-routed Adversaries");
}

/// The goblin cutter Broken at (`x`, `y`) as it activates (its Start Phase check failed
/// when `check` is `Some(Failure)`, passed with `Some(Success)`).
fn broken_cutter_activates(x: u8, y: u8, check: Outcome) -> Encounter {
    let mut s = started_logged(0);
    s.pose_at(CUTTER, c(x, y)).unwrap();
    s.pose_conditions(CUTTER, Conditions { broken: true, ..Conditions::default() }).unwrap();
    let mut s = to_activation(s, CUTTER, false);
    // "Start Phase: Apply condition effects": the Broken cutter takes its Morale check again
    // (ruling), the same Routine Cool check.
    let odds = pending_odds(&s);
    assert!((success(odds) - 0.5).abs() < 1e-12, "{odds:?}");
    s.act(Action::Roll(check)).unwrap();
    s
}

#[test]
fn a_broken_adversary_only_moves_away_from_its_enemies_and_cannot_use_actions() {
    // "Broken (Ongoing): Move away from enemies. Cannot use Actions." Ruling: it must move
    // away while it has not moved and can; no Strike, Shoot, Interrupt or other action.
    let mut s = broken_cutter_activates(3, 1, Outcome::Failure);
    assert!(s.models()[CUTTER as usize].conditions.broken);
    s.pose_at(BRANNOC, c(2, 1)).unwrap();
    let near = |s: &Encounter, at: Cell| {
        s.models().iter().filter(|e| e.in_play() && e.side() == PARTY_SIDE).map(|e| e.cell.distance(at)).min()
    };
    let here = near(&s, c(3, 1));
    let moves = legal(&s);
    assert!(!moves.is_empty());
    for a in &moves {
        match a {
            Action::Advance(to) => assert!(near(&s, *to) > here, "{a:?} does not lead away"),
            other => panic!("a Broken model may {other:?}"),
        }
    }
    // After it has moved away it may stop.
    let away = moves[0];
    s.act(away).unwrap();
    while let Some(Pending::Interrupt { .. }) = s.pending().last() {
        s.act(Action::Pass).unwrap();
    }
    if s.activation().is_some_and(|a| a.model == CUTTER) {
        assert!(legal(&s).contains(&Action::EndActivation));
    }
}

#[test]
fn a_broken_adversary_that_passes_its_start_phase_check_fights_again() {
    // Ruling for "Broken (Ongoing)": it ends with a passed Cool check at its Start Phase.
    let s = broken_cutter_activates(3, 1, Outcome::Success);
    assert!(!s.models()[CUTTER as usize].conditions.broken);
    assert!(s.log().iter().any(|l| l.contains("rallies: no longer Broken")), "{:?}", s.log());
    assert!(legal(&s).contains(&Action::EndActivation), "it may act as it likes");
}

#[test]
fn a_broken_adversary_that_reaches_its_edge_of_the_board_routs() {
    // "Sum A/C/E values of remaining non-routed Adversaries"; "Combat ends when no
    // Adversaries remain on Board Section". Ruling: a Broken Adversary, Follower or Henchman
    // that moves onto its side's edge of the board (the Adversaries': the east column along
    // the outer wall) flees it and routs.
    let mut s = broken_cutter_activates(6, 6, Outcome::Failure);
    assert!(legal(&s).contains(&Action::Advance(c(8, 6))), "{:?}", legal(&s));
    s.act(Action::Advance(c(8, 6))).unwrap();
    let cutter = &s.models()[CUTTER as usize];
    assert!(cutter.routed && cutter.out && !cutter.dead && cutter.wounds > 0, "{cutter:?}");
    assert!(s.log().iter().any(|l| l.contains("flees the Board Section")), "{:?}", s.log());
    // The scripted DM flees there too.
    let mut t = broken_cutter_activates(6, 6, Outcome::Failure);
    let chosen = encounter::dm::ScriptedAgent.select_action(&t);
    assert!(matches!(chosen, Action::Advance(to) if to.x == 8), "{chosen:?}");
    t.act(chosen).unwrap();
    assert!(t.models()[CUTTER as usize].routed);
}

#[test]
fn the_encounter_ends_when_every_adversary_routs() {
    // "Combat ends when no Adversaries remain on Board Section": with their Champion slain the
    // others all fail their Morale checks (and every check again), flee to their edge of the
    // board under the scripted DM and rout; the party, idle, wins.
    let mut s = to_activation(started_logged(0), BRANNOC, false);
    s.pose_at(OGRE, c(2, 1)).unwrap();
    s.pose_wounds(OGRE, 1).unwrap();
    s.act(Action::Strike { target: OGRE, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Accept).unwrap();
    let mut s = to_morale(s);
    while !s.is_terminal() {
        let a = match (s.node(), s.pending().last()) {
            (_, Some(Pending::Check(k))) if matches!(k.purpose, encounter::state::Purpose::Morale { .. }) => {
                Action::Roll(Outcome::Failure)
            }
            (Node::Decision(side), _) if side == DM_SIDE => encounter::dm::ScriptedAgent.select_action(&s),
            _ => idle_action(&s),
        };
        s.act(a).unwrap();
    }
    assert_eq!(s.winner(), Some(PARTY_SIDE), "{}", s.log().join("\n"));
    let fled: Vec<u8> = (4..8).filter(|&m| s.models()[m as usize].routed).collect();
    assert_eq!(fled, [CUTTER, SPEARMAN, ARCHER, ORC], "{:?}", s.log());
}

#[test]
fn a_leaders_rally_ends_broken_for_those_who_hear_it() {
    // "Broken (Ongoing)": ruling: it ends when a leader of its side rallies (Rally X:
    // whenever an enemy goes out of play); a Broken leader does not rally.
    let mut s = to_activation(started_logged(0), BRANNOC, false);
    s.pose_at(CUTTER, c(2, 1)).unwrap();
    s.pose_wounds(CUTTER, 1).unwrap();
    s.pose_conditions(WAT, Conditions { broken: true, ..Conditions::default() }).unwrap();
    let mut deaf = s.clone();
    s.act(Action::Strike { target: CUTTER, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    assert!(!s.models()[CUTTER as usize].in_play());
    assert!(!s.models()[WAT as usize].conditions.broken, "Brannoc's Rally steadies Wat");
    assert!(s.log().iter().any(|l| l.contains("the Broken stand again")), "{:?}", s.log());
    // Deafened, Wat does not hear it.
    deaf.pose_conditions(WAT, Conditions { broken: true, deafened: true, ..Conditions::default() }).unwrap();
    deaf.act(Action::Strike { target: CUTTER, boost: false, extra: false }).unwrap();
    deaf.act(Action::Roll(Outcome::Success)).unwrap();
    deaf.act(Action::Roll(Outcome::Success)).unwrap();
    assert!(deaf.models()[WAT as usize].conditions.broken);
}

// ---- Round 2 (issue 60): Momentum paid at Bookkeeping ----

#[test]
fn momentum_is_paid_at_bookkeeping_and_a_deficit_gives_every_company_model_banes() {
    // "Update Momentum: ... 2. Subtract Action costs from Pool 3. Result is Momentum Pool for
    // next turn 4. If below 0: All Company Models gain Banes equal to deficit; set Pool to 0".
    // Ruling: the party may spend MOMENTUM_CREDIT more than it holds; a Bane X gives Peril on
    // the model's Basic checks and loses a counter each End Phase.
    let mut s = activation_with(BRANNOC, false, &[(ORC, c(2, 1))]);
    s.pose_resources(0, 0, 0);
    assert_eq!(s.momentum_left(), encounter::MOMENTUM_CREDIT);
    let plain = s.clone();
    s.act(Action::Strike { target: ORC, boost: true, extra: false }).unwrap();
    assert_eq!((s.momentum(), s.momentum_spent(), s.momentum_left()), (0, 1, 1));
    let s = to_morale(s);
    assert_eq!(s.round(), 2, "{}", s.render());
    assert_eq!(s.momentum(), 0, "set Pool to 0");
    for m in s.models().iter().filter(|m| m.side() == PARTY_SIDE && m.in_play()) {
        assert_eq!(m.conditions.banes, 1, "{}: {:?}", m.profile.name, m.conditions);
    }
    assert_eq!(Conditions::DURATIONS[11], ("banes", Duration::Persistent));
    // A Bane gives Peril: the same attack is harder.
    let mut baned = plain.clone();
    baned.pose_conditions(BRANNOC, Conditions { banes: 1, ..Conditions::default() }).unwrap();
    let mut clean = plain;
    clean.act(Action::Strike { target: ORC, boost: false, extra: false }).unwrap();
    baned.act(Action::Strike { target: ORC, boost: false, extra: false }).unwrap();
    assert!(success(pending_odds(&baned)) < success(pending_odds(&clean)));
    // Spent within what it holds, nothing is owed: 3 + 0 − 1.
    let mut s = activation_with(BRANNOC, false, &[(ORC, c(2, 1))]);
    s.act(Action::Strike { target: ORC, boost: true, extra: false }).unwrap();
    let s = to_morale(s);
    assert_eq!(s.momentum(), encounter::data::FORTUNE - 1);
    assert!(s.models().iter().all(|m| m.conditions.banes == 0));
}

#[test]
fn a_surprised_scripted_elite_strikes_plainly_rather_than_not_at_all() {
    // "Adversaries Surprised: ... Elite and Champion Adversaries use Basic Actions only": the
    // Pool cannot ease its attack, so the script strikes without it (round 1 found no Strike
    // to its liking and walked on).
    use agents::Agent;
    let mut s = surprised(6); // the Adversaries are surprised
    while s.phase() == Phase::Declare {
        s.act(Action::Declare(Intent::Fight)).unwrap();
    }
    let mut s = to_activation_after_declared(s, ORC);
    s.pose_at(ORC, c(3, 5)).unwrap();
    s.pose_at(WAT, c(2, 4)).unwrap();
    s.pose_resources(3, 2, 0);
    assert!(!legal(&s).contains(&Action::Strike { target: WAT, boost: true, extra: false }));
    let a = encounter::ScriptedAgent.select_action(&s);
    assert_eq!(a, Action::Strike { target: WAT, boost: false, extra: false });
}

#[test]
fn a_model_stunned_by_an_interrupt_during_its_own_activation_misses_its_next_one() {
    // "Stunned (Fleeting): Miss next Activation." "Fleeting: Ends at character's next End
    // Phase." Ruling (docs/rulings-encounter.md): stunned during its own activation, the stun
    // outlasts that End Phase, so the model still misses its next Activation.
    let mut s = activation_with(CUTTER, false, &[(GARRICK, c(2, 4)), (CUTTER, c(3, 5))]);
    s.act(Action::Advance(c(4, 6))).unwrap();
    // Others in reach (Wat's spear) pass; Garrick interrupts.
    while let Some(&Pending::Interrupt { by }) = s.pending().last() {
        if by == GARRICK {
            break;
        }
        s.act(Action::Pass).unwrap();
    }
    assert!(matches!(s.pending().last(), Some(Pending::Interrupt { by: GARRICK })), "{:?}", s.pending());
    s.act(Action::Interrupt).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap(); // a Critical Hit with the club: Stun
    s.act(Action::Roll(Outcome::Failure)).unwrap(); // no wound
    let cutter = |s: &Encounter| s.models()[CUTTER as usize].conditions;
    assert!(cutter(&s).stunned && cutter(&s).stun_held);
    assert_eq!(s.activation().map(|a| a.model), Some(CUTTER), "its activation goes on");
    s.act(Action::EndActivation).unwrap();
    assert!(cutter(&s).stunned && !cutter(&s).stun_held, "kept through its own End Phase");
    while s.round() == 1 && !s.is_terminal() {
        s.act(idle_action(&s)).unwrap();
    }
    while s.round() == 2 && !s.is_terminal() {
        assert!(!s.models()[CUTTER as usize].declared, "a Stunned model declares nothing");
        assert_ne!(s.activation().map(|a| a.model), Some(CUTTER), "it misses round 2's activation");
        s.act(idle_action(&s)).unwrap();
    }
    assert!(!cutter(&s).stunned, "the missed activation's End Phase ends it");
}

#[test]
fn the_scripted_party_drags_a_threatened_comrade_out_of_the_danger_zone() {
    // "Characters: Must be dragged or abandoned (dire consequences)" "Drag: Move adjacent
    // prone Model up to ½M": the scripted party drags a knocked-out comrade lying in an
    // Adversary's Danger Zone (where it would be slain at that Adversary's End Phase) out of it.
    use agents::Agent;
    let mut s = isolde_shot_down();
    s.act(Action::EndActivation).unwrap();
    assert_eq!(s.activation().map(|a| a.model), Some(BRANNOC));
    s.pose_at(CUTTER, c(5, 4)).unwrap();
    assert!(s.threatens(CUTTER, c(4, 4)), "the cutter stands over her");
    let choice = encounter::ScriptedAgent.select_action(&s);
    let Action::Drag { body: ISOLDE, .. } = choice else { panic!("{choice:?}") };
    s.act(choice).unwrap();
    while s.node() == Node::Decision(DM_SIDE) {
        s.act(Action::Pass).unwrap();
    }
    let lies = s.models()[ISOLDE as usize].cell;
    assert!(!s.threatens(CUTTER, lies), "dragged out of the cutter's Danger Zone to {lies:?}");
}

#[test]
fn a_fate_point_is_the_players_choice() {
    // "Fate Points: Escape certain death": spending one is the Character's side's decision,
    // both against wounds below 0 and against the killing blow on an abandoned Character.
    let mut s = activation_with(ARCHER, true, &[(ISOLDE, c(4, 4))]);
    s.pose_wounds(ISOLDE, 1).unwrap();
    s.act(Action::Shoot { target: ISOLDE, boost: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap();
    assert_eq!(s.node(), Node::Decision(PARTY_SIDE));
    assert!(s
        .decision_prompt()
        .starts_with("Isolde faces certain death (its wounds take it below 0 Wounds)"));
    assert_eq!(s.describe(Action::SpendFate), "spend a Fate Point to escape certain death");
    let mut declined = s.clone();
    declined.act(Action::Accept).unwrap();
    let isolde = &declined.models()[ISOLDE as usize];
    assert!(isolde.dead && isolde.fate == 1, "she meets death keeping her Fate Point");
    s.act(Action::SpendFate).unwrap();
    let isolde = &s.models()[ISOLDE as usize];
    assert!(isolde.body() && isolde.fate == 0);
    // Abandoned with a Fate Point left (Brannoc): the orc's killing blow is a decision too.
    let mut s = activation_with(ORC, false, &[(BRANNOC, c(6, 4))]);
    s.pose_wounds(BRANNOC, 1).unwrap();
    s.act(Action::Strike { target: BRANNOC, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    while s.node() == Node::Decision(PARTY_SIDE) {
        s.act(Action::Accept).unwrap(); // no Soak: the wound is dealt, Wounds 0
    }
    assert!(s.models()[BRANNOC as usize].body() && s.models()[BRANNOC as usize].fate == 1);
    s.act(Action::EndActivation).unwrap();
    assert!(s.decision_prompt().contains("orc veteran is about to slay it where it lies abandoned"));
    s.act(Action::SpendFate).unwrap();
    let brannoc = &s.models()[BRANNOC as usize];
    assert!(brannoc.body() && brannoc.fate == 0);
}

#[test]
fn momentum_buys_a_reaction_for_an_interrupt_when_none_is_left() {
    // "2pt: Gain 1 additional Reaction until start of next Model's activation". Ruling: it is
    // offered with an Interrupt to a party model that has no Reaction left, and spent at once.
    let mut s = activation_with(CUTTER, false, &[(WAT, c(2, 4)), (CUTTER, c(3, 5))]);
    s.pose_reactions(WAT, 0).unwrap();
    let away = *legal(&s).iter().find(|a| matches!(a, Action::Advance(_))).unwrap();
    s.act(away).unwrap();
    assert!(matches!(s.pending().last(), Some(Pending::Interrupt { by: WAT })), "{:?}", s.pending());
    assert!(s.interrupt_costs_momentum(WAT));
    assert!(s.decision_prompt().contains("for 2 Momentum"), "{}", s.decision_prompt());
    assert_eq!(
        encounter::ScriptedAgent.select_action(&s),
        Action::Pass,
        "the scripted party keeps its Momentum"
    );
    let spent = s.momentum_spent();
    s.act(Action::Interrupt).unwrap();
    assert_eq!(s.momentum_spent(), spent + 2, "paid at Bookkeeping");
    assert!(
        matches!(s.pending().last(), Some(Pending::Check(c)) if matches!(c.purpose, encounter::state::Purpose::Attack { attacker: WAT, .. }))
    );
    // With a Reaction left, the Interrupt costs nothing.
    let mut s = activation_with(CUTTER, false, &[(WAT, c(2, 4)), (CUTTER, c(3, 5))]);
    s.act(away).unwrap();
    let spent = s.momentum_spent();
    s.act(Action::Interrupt).unwrap();
    assert_eq!((s.momentum_spent(), s.models()[WAT as usize].reactions), (spent, 0));
}

#[test]
fn momentum_decreases_the_difficulty_of_a_manoeuvre_check_by_two() {
    // "1pt: Decrease Check Difficulty by 2" (Strike and Shoot take it as their boost; Ease
    // gives it to the model's next check, here a Disengage).
    let mut s = activation_with(WAT, false, &[(WAT, c(2, 4)), (CUTTER, c(3, 5))]);
    assert!(legal(&s).contains(&Action::Ease));
    let to = legal_disengage(&s);
    let mut plain = s.clone();
    plain.act(Action::Disengage { to, momentum: false }).unwrap();
    let spent = s.momentum_spent();
    s.act(Action::Ease).unwrap();
    assert_eq!(s.momentum_spent(), spent + 1);
    assert_eq!(s.activation().unwrap().minors, 0, "no action spent");
    assert!(!legal(&s).contains(&Action::Ease), "once per check");
    s.act(Action::Disengage { to, momentum: false }).unwrap();
    // Challenging (+1) against WS 3 with Athletics 3: Obstacle 5; two steps easier: 3.
    assert!((success(pending_odds(&plain)) - 2.0 / 6.0).abs() < 1e-12);
    assert!((success(pending_odds(&s)) - 4.0 / 6.0).abs() < 1e-12);
}

#[test]
fn momentum_activates_the_weapons_critical_hit_quality_on_a_hit() {
    // "2pt: Activate Weapon Quality requiring Critical Hit": Brannoc's sword has Rend (a
    // Critical Hit leaves Bleeding 2); paid, a plain Success triggers it.
    let mut s = activation_with(BRANNOC, false, &[(ORC, c(2, 1))]);
    assert!(legal(&s).contains(&Action::Empower));
    let mut plain = s.clone();
    let spent = s.momentum_spent();
    s.act(Action::Empower).unwrap();
    assert_eq!(s.momentum_spent(), spent + 2);
    for x in [&mut s, &mut plain] {
        x.act(Action::Strike { target: ORC, boost: false, extra: false }).unwrap();
        x.act(Action::Roll(Outcome::Success)).unwrap();
    }
    assert_eq!(s.models()[ORC as usize].conditions.bleeding, 2);
    assert_eq!(plain.models()[ORC as usize].conditions.bleeding, 0, "no Boon, no quality unpaid");
}

#[test]
fn threat_buys_a_talent_or_an_effect_at_set_up_not_only_pool() {
    // "Spend Threat for Talents, better models, or additional Pool values"; "DM spends Threat
    // to modify duration/severity or buy additional Effects". Illustrative: the Menacing
    // Talent and the Gloom Effect, 1 Threat each, within the set-up's 2 Threat.
    let mut s = Encounter::start();
    let l = legal(&s);
    assert!(
        l.contains(&Action::BuyTalent) && l.contains(&Action::BuyEffect) && l.contains(&Action::BuyPool(2))
    );
    s.act(Action::BuyTalent).unwrap();
    assert_eq!((s.phase(), s.threat(), s.menacing()), (Phase::BuyPool, encounter::data::THREAT - 1, true));
    assert!(!legal(&s).contains(&Action::BuyTalent) && !legal(&s).contains(&Action::BuyPool(2)));
    s.act(Action::BuyEffect).unwrap();
    assert_eq!(s.phase(), Phase::Surprise, "the set-up's Threat is spent");
    assert_eq!(s.gloom(), encounter::data::GLOOM_DURATION);
}

/// Set-up with the Menacing Talent (or not) and the ogre next to Brannoc, to Brannoc's
/// activation.
fn menaced(talent: bool) -> Encounter {
    let mut s = Encounter::start();
    if talent {
        s.act(Action::BuyTalent).unwrap();
    }
    let mut s = set_up(s, 0);
    s.pose_at(OGRE, c(2, 1)).unwrap();
    to_activation(s, BRANNOC, false)
}

#[test]
fn the_menacing_champion_demoralizes_a_company_model_starting_in_its_danger_zone() {
    // Illustrative Talent (bought with Threat): a Company model that starts its activation in
    // the Menacing Champion's Danger Zone is Demoralized 1 ("Demoralized (Persistent): All
    // checks: +[X] Difficulty").
    let s = menaced(true);
    assert!(s.threatens(OGRE, s.models()[BRANNOC as usize].cell));
    assert_eq!(s.models()[BRANNOC as usize].conditions.demoralized, encounter::data::MENACE);
    assert_eq!(menaced(false).models()[BRANNOC as usize].conditions.demoralized, 0);
}

#[test]
fn the_gloom_makes_shots_harder_until_its_duration_runs_out_at_bookkeeping() {
    // Illustrative Effect (bought with Threat): ranged attacks +1 difficulty while it lasts;
    // "Apply Global Effects: ... Reduce Duration trackers by 1. Remove effects with Duration 0
    // after applying."
    let gloomy = |effect: bool| {
        let mut s = Encounter::start();
        if effect {
            s.act(Action::BuyEffect).unwrap();
        }
        let mut s = to_activation(set_up(s, 0), ISOLDE, true);
        s.pose_at(ISOLDE, c(1, 6)).unwrap();
        s.pose_at(ORC, c(6, 4)).unwrap();
        s
    };
    let shot = |mut s: Encounter| {
        s.act(Action::Shoot { target: ORC, boost: false }).unwrap();
        success(pending_odds(&s))
    };
    assert!(shot(gloomy(true)) < shot(gloomy(false)));
    let s = to_morale(gloomy(true));
    assert_eq!(s.round(), 2);
    assert_eq!(s.gloom(), encounter::data::GLOOM_DURATION - 1);
}

/// An Advance of `m` that stays out of every enemy Danger Zone (from outside them).
fn quiet_advance(s: &Encounter, m: u8) -> Action {
    *legal(s)
        .iter()
        .find(|a| matches!(a, Action::Advance(to) if !s.in_enemy_zone(m, *to)))
        .expect("a quiet Advance")
}

#[test]
fn a_character_takes_additional_minor_actions_for_fatigue() {
    // "Perform one Major Action OR gain 2 free Minor Actions - Perform one free Minor Action
    // (before or after Major Action) - Main Characters: Additional Minor Actions cost 1
    // Fatigue each". Ruling: up to FATIGUE_LIMIT; exhausted, Peril on physical checks.
    let mut s = to_activation(started(0), BRANNOC, false);
    for _ in 0..3 {
        assert!(!s.extra_minor(BRANNOC));
        s.act(quiet_advance(&s, BRANNOC)).unwrap();
    }
    assert_eq!(s.models()[BRANNOC as usize].fatigue, 0, "three free Minors");
    assert!(s.extra_minor(BRANNOC));
    assert!(s.decision_prompt().contains("another costs 1 Fatigue"), "{}", s.decision_prompt());
    assert_eq!(
        encounter::ScriptedAgent.select_action(&s),
        Action::EndActivation,
        "the scripted party spends none"
    );
    s.act(quiet_advance(&s, BRANNOC)).unwrap();
    assert_eq!((s.models()[BRANNOC as usize].fatigue, s.activation().unwrap().minors), (1, 4));
    // Not a Main Character: Wat's activation ends with its three Minors.
    let mut s = to_activation(started(0), WAT, false);
    for _ in 0..3 {
        s.act(quiet_advance(&s, WAT)).unwrap();
    }
    assert_ne!(s.activation().map(|a| a.model), Some(WAT), "Wat has no additional Minor");
    // Exhausted (Fatigue at the limit): no more, and Peril on a physical check.
    let mut s = activation_with(BRANNOC, false, &[(ORC, c(2, 1))]);
    let mut fresh = s.clone();
    s.pose_tracks(BRANNOC, encounter::data::FATIGUE_LIMIT, 0, 0).unwrap();
    let strike = Action::Strike { target: ORC, boost: false, extra: false };
    fresh.act(strike).unwrap();
    s.act(strike).unwrap();
    assert!(success(pending_odds(&s)) < success(pending_odds(&fresh)));
    s.act(Action::Roll(Outcome::Success)).unwrap();
    while s.node() == Node::Chance || s.node() == Node::Decision(DM_SIDE) {
        s.act(idle_action(&s)).unwrap();
    }
    assert!(!s.extra_minor(BRANNOC));
}

#[test]
fn push_and_dark_deal_re_roll_a_failed_check_and_only_a_dark_deal_re_rolls_twice() {
    // "Re-Rolls - Limitation: One attempt per check (except Dark Deal). Re-rolled result is
    // always final. - Sources: Luck Points: Spend 1 LP - Dark Deal: Suffer 1 Corruption -
    // Push: Suffer 1 Stress or Fatigue"
    let mut s = activation_with(BRANNOC, false, &[(ORC, c(2, 1))]);
    s.act(Action::Strike { target: ORC, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    let all = sorted(vec![
        Action::Accept,
        Action::Reroll,
        Action::Push { stress: false },
        Action::Push { stress: true },
        Action::DarkDeal,
    ]);
    assert_eq!(legal(&s), all);
    assert!(s.decision_prompt().contains("Fatigue 0/"), "{}", s.decision_prompt());
    let mut stressed = s.clone();
    stressed.act(Action::Push { stress: true }).unwrap();
    assert_eq!(stressed.models()[BRANNOC as usize].stress, 1);
    s.act(Action::Push { stress: false }).unwrap();
    assert_eq!(s.models()[BRANNOC as usize].fatigue, 1);
    assert_eq!(s.node(), Node::Chance, "the check is rolled again");
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    assert_eq!(legal(&s), sorted(vec![Action::DarkDeal, Action::Accept]), "after a re-roll only a Dark Deal");
    for corruption in 1..=encounter::data::CORRUPTION_THRESHOLD {
        s.act(Action::DarkDeal).unwrap();
        assert_eq!(s.models()[BRANNOC as usize].corruption, corruption);
        s.act(Action::Roll(Outcome::Failure)).unwrap();
    }
    assert!(s.pending().iter().all(|p| !matches!(p, Pending::Reroll(..))), "at the Threshold, no more");
    assert_eq!(s.models()[BRANNOC as usize].luck, 1, "no Luck spent");
}

#[test]
fn recuperate_recovers_fatigue_or_stress_with_a_challenging_check() {
    // "Recuperate - Recover Stress: Challenging Cool check to recover 1 Stress - Recover
    // Fatigue: Challenging Endurance check to recover 1 Fatigue"
    let mut s = to_activation(started(0), BRANNOC, false);
    assert!(!legal(&s).iter().any(|a| matches!(a, Action::Recuperate { .. })), "nothing to recover");
    s.pose_tracks(BRANNOC, 2, 1, 0).unwrap();
    let l = legal(&s);
    assert!(
        l.contains(&Action::Recuperate { stress: false }) && l.contains(&Action::Recuperate { stress: true })
    );
    let mut cool = s.clone();
    s.act(Action::Recuperate { stress: false }).unwrap();
    assert_eq!(s.activation().unwrap().minors, 1, "a Minor action");
    // Challenging (+1) Endurance 3, unopposed: Obstacle 7 − (3 − 1) = 5.
    assert!((success(pending_odds(&s)) - 2.0 / 6.0).abs() < 1e-12);
    s.act(Action::Roll(Outcome::Complication)).unwrap();
    assert_eq!(s.models()[BRANNOC as usize].fatigue, 1);
    cool.act(Action::Recuperate { stress: true }).unwrap();
    cool.act(Action::Roll(Outcome::Failure)).unwrap();
    cool.act(Action::Accept).unwrap();
    assert_eq!(cool.models()[BRANNOC as usize].stress, 1, "a failure recovers nothing");
}

// ---- Round 2 (issue 60): Assist ----

#[test]
fn assist_gives_an_adjacent_ally_favour_on_its_next_check() {
    // "Minor Actions: Assist: Aid another Model." Illustrative ruling: a Minor action for an
    // adjacent ally in play, whose next Basic check has Favour ("Favour: Increases chances of
    // success"); it ends with that check or at the ally's End Phase.
    let mut s = activation_with(WAT, false, &[(WAT, c(2, 3)), (BRANNOC, c(2, 4))]);
    assert!(legal(&s).contains(&Action::Assist { ally: BRANNOC }));
    assert!(!legal(&s).contains(&Action::Assist { ally: GARRICK }), "only an adjacent ally");
    s.act(Action::Assist { ally: BRANNOC }).unwrap();
    assert!(s.models()[BRANNOC as usize].conditions.assisted);
    assert!(!legal(&s).contains(&Action::Assist { ally: BRANNOC }), "once");
    // Brannoc's attack on the cutter, assisted, rolls with Favour: better odds.
    let mut s = activation_with(BRANNOC, false, &[(BRANNOC, c(2, 4)), (CUTTER, c(3, 5))]);
    let strike = Action::Strike { target: CUTTER, boost: false, extra: false };
    let hit = |s: &Encounter| match s.option_odds(strike) {
        Some(encounter::odds::OptionOdds::Attack { hit, .. }) => hit,
        other => panic!("{other:?}"),
    };
    let unaided = hit(&s);
    s.pose_conditions(BRANNOC, Conditions { assisted: true, ..Conditions::default() }).unwrap();
    assert!(hit(&s) > unaided + 0.05, "{} against {unaided}", hit(&s));
    // The Favour is spent by the check that takes it.
    s.act(strike).unwrap();
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    if legal(&s).contains(&Action::Reroll) {
        s.act(Action::Accept).unwrap();
    }
    assert!(!s.models()[BRANNOC as usize].conditions.assisted);
    // Unused, it ends at the ally's End Phase.
    let mut unused = Conditions { assisted: true, ..Conditions::default() };
    unused.end_phase();
    assert!(!unused.assisted);
}

// ---- Round 2 (issue 60): Two-Weapon Fighting ----

#[test]
fn two_weapon_fighting_adds_an_off_hand_attack_at_plus_two_and_an_interrupt() {
    // "Two-Weapon Fighting - Use 1-H Melee Weapon, Shield, or Pistol in off-hand - Off-hand
    // actions: Difficulty +2 - Gain +1 additional Interrupt". The goblin cutter fights with a
    // sword and a dagger (illustrative): its Strike ends with an off-hand dagger attack.
    let cutter = &encounter::data::ADVERSARIES[0];
    assert_eq!(cutter.off_hand.map(|w| w.name), Some("dagger"));
    assert_eq!(cutter.interrupts(), cutter.attacks + 1);
    let mut s = to_activation(started(0), CUTTER, false);
    assert_eq!(s.models()[CUTTER as usize].reactions, cutter.attacks + 1, "from the start");
    s.pose_at(CUTTER, c(2, 4)).unwrap();
    s.pose_at(WAT, c(2, 3)).unwrap(); // in front: in the dagger's Reach P too
    s.act(Action::Strike { target: WAT, boost: false, extra: false }).unwrap();
    let main = pending_odds(&s);
    s.act(Action::Roll(Outcome::Failure)).unwrap(); // the sword misses
    match s.pending().last() {
        Some(Pending::Check(k)) => {
            assert!(matches!(
                k.purpose,
                encounter::state::Purpose::Attack { off_hand: true, target: WAT, .. }
            ));
            assert!(success(k.odds) < success(main), "Difficulty +2: {:?} against {main:?}", k.odds);
        }
        other => panic!("no off-hand attack: {other:?}"),
    }
    s.act(Action::Roll(Outcome::Complication)).unwrap(); // a hit
                                                         // The dagger's damage: Strength + its damage (0).
    let dice = cutter.strength + cutter.off_hand.unwrap().damage;
    assert!(
        matches!(s.pending().last(), Some(Pending::Check(k)) if matches!(k.purpose, encounter::state::Purpose::Damage { target: WAT, dice: d, .. } if d == dice))
    );
    // A target out of the dagger's reach (Reach P: not diagonal) gets no off-hand attack.
    let mut s = activation_with(CUTTER, false, &[(CUTTER, c(2, 4)), (WAT, c(3, 5))]);
    s.act(Action::Strike { target: WAT, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Failure)).unwrap();
    assert!(!matches!(s.pending().last(), Some(Pending::Check(_))), "{:?}", s.pending());
    // The End Phase gives it Interrupts equal to its Attacks and one more.
    s.pose_reactions(CUTTER, 0).unwrap();
    s.act(Action::EndActivation).unwrap();
    assert_eq!(s.models()[CUTTER as usize].reactions, cutter.attacks + 1);
}
