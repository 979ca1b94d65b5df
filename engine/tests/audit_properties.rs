//! Audit of the weapon properties (issue 38, item 2 (c); docs/rulings.md, "Rules fidelity
//! round 3"): every property of the Weapon Properties table (p.53) by every way a weapon can
//! be used — a shot, a small template, a teardrop, a blow, a charge, a reaction (shot,
//! template, teardrop, blow), a nested action (shot, template, teardrop), a firefight (shot,
//! template, teardrop, blow) — and by an AI model's attack (seed 003, Conversion).
//!
//! Each way is played out on an open table with one attacker (side A's model 0 unless the way
//! makes the victim the active model) and one victim, the attacker's tests rigged to the
//! level wanted and every other test to a Fail. A property the engine dropped on one way makes
//! that way's assertion fail.

mod common;

use common::open_board;

use common::uc::{dino_field, roll, run_until};
use common::{custom, force_test, force_wounds, Position};
use engine::dice::TestLevel;
use engine::profile::{Profile, TemplateKind, Weapon, WeaponProperty as P};
use engine::state::{CombatKind, ModelState, Stance, Step};
use engine::{Action, GameState};
use std::sync::Arc;

/// The attacker (model 0) and the victim (model 1).
const A: u8 = 0;
const V: u8 = 1;

/// The attacker's weapons, by index: a gun (12/18, 2/3), a small template (8/14, 2/3), a
/// teardrop (2/3) and a blade (2/3), each with the properties under test.
const GUN: u8 = 0;
const BOMB: u8 = 1;
const FLAMER: u8 = 2;
const BLADE: u8 = 3;

/// The victim's armour: with Pierce(1) and Sunder(1) its armour roll is at T 6 + (2 − 1) − 1.
const VICTIM_ARMOUR: u8 = 2;

/// Declares `Way` and `WAYS`, every way of using a weapon, from one list.
macro_rules! ways {
    ($($way:ident),* $(,)?) => {
        #[derive(Clone, Copy, Debug, PartialEq)]
        enum Way {
            $($way,)*
        }

        const WAYS: [Way; [$(Way::$way),*].len()] = [$(Way::$way),*];
    };
}

ways![
    Shot,
    Template,
    Teardrop,
    Blow,
    Charge,
    ReactShot,
    ReactTemplate,
    ReactTeardrop,
    ReactBlow,
    NestedShot,
    NestedTemplate,
    NestedTeardrop,
    FirefightShot,
    FirefightTemplate,
    FirefightTeardrop,
    FirefightBlow,
];

use Way::*;

impl Way {
    fn weapon(self) -> u8 {
        match self {
            Shot | ReactShot | NestedShot | FirefightShot => GUN,
            Template | ReactTemplate | NestedTemplate | FirefightTemplate => BOMB,
            Teardrop | ReactTeardrop | NestedTeardrop | FirefightTeardrop => FLAMER,
            Blow | Charge | ReactBlow | FirefightBlow => BLADE,
        }
    }

    /// A teardrop rolls nothing (p.52); every other way tests the attacker.
    fn tests(self) -> bool {
        self.weapon() != FLAMER
    }

    fn ranged(self) -> bool {
        self.weapon() != BLADE
    }

    /// The combat kind of the way's weapon.
    fn kind(self) -> CombatKind {
        match self.weapon() {
            GUN => CombatKind::Shoot { weapon: GUN },
            BLADE => CombatKind::CloseCombat { weapon: BLADE },
            w => CombatKind::Template { weapon: w },
        }
    }
}

fn attacker(props: &[P]) -> Arc<Profile> {
    let with = |mut base: Vec<P>| {
        base.extend_from_slice(props);
        base
    };
    custom("kaneda", |p| {
        p.id = "audit_attacker".into();
        p.skills.clear();
        p.weapons = vec![
            Weapon {
                name: "Audit Gun".into(),
                range: Some((12, 18)),
                damage: (2, 3),
                properties: with(vec![]),
            },
            Weapon {
                name: "Audit Bomb".into(),
                range: Some((8, 14)),
                damage: (2, 3),
                properties: with(vec![P::Template(TemplateKind::Small)]),
            },
            Weapon {
                name: "Audit Flamer".into(),
                range: Some((8, 8)),
                damage: (2, 3),
                properties: with(vec![P::Template(TemplateKind::Teardrop)]),
            },
            Weapon { name: "Audit Blade".into(), range: None, damage: (2, 3), properties: with(vec![]) },
        ];
    })
}

/// Hosk (T 6) in armour 2 with a plain gun and plain fists.
fn victim() -> Arc<Profile> {
    custom("hosk", |p| {
        p.id = "audit_victim".into();
        p.armour = VICTIM_ARMOUR;
        p.skills.clear();
        p.weapons = vec![
            Weapon { name: "Plain Gun".into(), range: Some((12, 18)), damage: (1, 1), properties: vec![] },
            Weapon { name: "Plain Fists".into(), range: None, damage: (1, 1), properties: vec![] },
        ];
    })
}

/// The table for `way`: attacker and victim cells, and the active model.
fn field(way: Way, props: &[P], blind_attacker: bool) -> GameState {
    let (a, v, active) = match way {
        Blow => ((5, 2), (5, 3), A),
        ReactBlow => ((5, 2), (5, 3), V),
        FirefightBlow => ((5, 2), (6, 4), A),
        ReactShot | ReactTemplate | ReactTeardrop => ((5, 2), (5, 8), V),
        _ => ((5, 2), (5, 8), A),
    };
    let s = Position::on(open_board(12, 16)).with(0, attacker(props), a).with(1, victim(), v).active(active);
    common::edited(&s, |d| d.models[A as usize].tokens.blind = blind_attacker)
}

fn top(s: &GameState) -> Option<Step> {
    s.node().cloned()
}

/// Apply the first legal action `wanted` picks, declining the optional declarations (nested
/// action, command, reactions, firefight) that come before it.
fn act(s: &mut GameState, wanted: impl Fn(&Action) -> bool) {
    for _ in 0..12 {
        if let Some(a) = s.legal_actions().into_iter().find(|a| wanted(a)) {
            s.apply_action(a).unwrap();
            return;
        }
        let decline = match top(s) {
            Some(Step::ChooseNested) => Action::NoNested,
            Some(Step::ChooseReaction | Step::ChooseReactionBy(_)) => Action::EndReactions,
            Some(Step::ChooseFirefight) => Action::NoFirefight,
            Some(Step::ChooseCommand) => Action::NoCommand,
            Some(Step::ChooseCard { .. }) => Action::NoCard,
            _ => panic!("not offered at {}: {:?}", s.describe_node(), s.legal_actions()),
        };
        s.apply_action(decline).unwrap();
    }
    panic!("never offered");
}

/// Declare everything `way` needs.
fn declare(s: &mut GameState, way: Way) {
    let idx = |s: &GameState, x, y| s.board().idx(x, y);
    let at_victim = s.models()[V as usize].cell;
    let kind = way.kind();
    match way {
        Shot => act(s, |a| *a == Action::Shoot { weapon: GUN, target: V }),
        Template | Teardrop => act(s, |a| *a == Action::Template { weapon: way.weapon(), at: at_victim }),
        Blow => act(s, |a| *a == Action::CloseCombat { weapon: BLADE, target: V }),
        Charge => {
            let dest = idx(s, 5, 7);
            act(s, |a| *a == Action::Charge { target: V, weapon: BLADE, dest })
        }
        ReactShot | ReactTemplate | ReactTeardrop => {
            let dest = idx(s, 5, 10);
            act(s, |a| *a == Action::Move { dest, prone: false });
            act(s, |a| matches!(a, Action::React { model: A, kind: k, .. } if *k == kind));
        }
        ReactBlow => {
            act(s, |a| *a == Action::Dodge);
            act(s, |a| matches!(a, Action::React { model: A, kind: k, .. } if *k == kind));
        }
        NestedShot | NestedTemplate | NestedTeardrop => {
            let dest = idx(s, 5, 4);
            act(s, |a| *a == Action::Move { dest, prone: false });
            act(s, |a| matches!(a, Action::Nested { kind: k, target: V, .. } if *k == kind));
        }
        FirefightShot | FirefightTemplate | FirefightTeardrop => {
            let dest = idx(s, 5, 4);
            act(s, |a| *a == Action::Move { dest, prone: false });
            let shot = CombatKind::Shoot { weapon: 0 };
            act(s, |a| matches!(a, Action::React { model: V, kind: k, .. } if *k == shot));
            act(s, |a| *a == Action::Firefight { kind, reactor: V });
        }
        FirefightBlow => {
            let dest = idx(s, 5, 6);
            act(s, |a| *a == Action::Move { dest, prone: false });
            let fists = CombatKind::CloseCombat { weapon: 1 };
            act(s, |a| matches!(a, Action::React { model: V, kind: k, .. } if *k == fists));
            act(s, |a| *a == Action::Firefight { kind, reactor: V });
        }
    }
    common::decline_declarations(s);
}

/// What a way did: the armour rolls (model, damage, target), the attacker's first test's
/// attribute, and the victim's AP once everything was declared.
struct Played {
    s: GameState,
    armour: Vec<(u8, u8, u8)>,
    attr: Option<u8>,
    victim_ap: u8,
}

/// Play `way` out: the attacker's tests come out at `level`, every other test fails, no armour
/// die saves nothing (0 wounds), dodge moves stay put.
fn play(way: Way, props: &[P], blind_attacker: bool, level: TestLevel) -> Played {
    let mut s = field(way, props, blind_attacker);
    declare(&mut s, way);
    let victim_ap = s.models()[V as usize].ap;
    let mut armour = Vec::new();
    let mut attr = None;
    for _ in 0..100 {
        if s.dynamic().sequence.is_none() {
            return Played { s, armour, attr, victim_ap };
        }
        match top(&s) {
            Some(Step::Test { model, attr: a, .. }) => {
                if model == A {
                    attr = attr.or(Some(a));
                    force_test(&mut s, level);
                } else {
                    force_test(&mut s, TestLevel::Fail);
                }
            }
            Some(Step::Armour { model, damage, target, .. }) => {
                armour.push((model, damage, target));
                force_wounds(&mut s, 0);
            }
            Some(Step::ChooseDodgeMove { model, .. }) => {
                let stay = Action::DodgeMove(s.models()[model as usize].cell);
                s.apply_action(stay).unwrap();
            }
            Some(Step::ChooseCard { .. }) => s.apply_action(Action::NoCard).unwrap(),
            other => panic!("{way:?}: unexpected {other:?} at {}", s.describe_node()),
        }
    }
    panic!("{way:?}: the sequence never ended");
}

/// The properties a hit delivers (p.53), and Scarce, whose use every way counts.
fn hit_properties() -> Vec<P> {
    vec![
        P::Blind,
        P::Fire(2),
        P::Knockdown,
        P::Slow(1, 1),
        P::Stun(1),
        P::Pierce(1),
        P::Sunder(1),
        P::Scarce(5),
    ]
}

#[test]
fn every_hit_property_reaches_the_model_hit_by_every_way_a_weapon_is_used() {
    // p.53: Blind "Place a Blind Token next to any Model hit by this Weapon"; Fire(X) "Place X
    // Fire Tokens on any Model hit"; Knockdown "A Model hit by this Weapon is knocked Prone";
    // Slow(X/X) "Place a Slow Token next to any Model hit"; Stun(X) "you may remove up to XAP
    // from that Model"; Pierce(X) "deduct X from the defending Model's Toughness"; Sunder(X)
    // "reduce the defending Model's Armour by (X)"; Scarce(X) "may only use it X times per
    // game". p.50: "unless otherwise stated Weapon Properties apply only to Actions in which
    // that Weapon is being used" — whichever Action that is (p.51: a template is a Shoot
    // Action; p.28 nested, p.36 reactions, p.38 firefights).
    let expected_target = common::profile("hosk").toughness + (VICTIM_ARMOUR - 1) - 1;
    for way in WAYS {
        let p = play(way, &hit_properties(), false, TestLevel::NailedIt);
        let v = p.s.models()[V as usize];
        assert!(v.tokens.blind, "{way:?}: Blind");
        assert_eq!(v.tokens.fire, 2, "{way:?}: Fire(2)");
        assert_eq!(v.stance, Stance::Prone, "{way:?}: Knockdown");
        assert_eq!(v.tokens.slow, (1, 1), "{way:?}: Slow(1/1)");
        assert_eq!(v.ap, p.victim_ap.saturating_sub(1), "{way:?}: Stun(1)");
        let rolls: Vec<_> = p.armour.iter().filter(|r| r.0 == V).collect();
        assert_eq!(rolls.len(), 1, "{way:?}: one armour roll for the victim: {:?}", p.armour);
        assert_eq!(rolls[0].2, expected_target, "{way:?}: Pierce(1) and Sunder(1) in the armour roll");
        assert_eq!(p.s.models()[A as usize].uses[way.weapon() as usize], 1, "{way:?}: Scarce counts the use");
    }
    // The control: the same ways without properties leave none of these marks.
    for way in [Shot, ReactTeardrop, FirefightBlow] {
        let p = play(way, &[], false, TestLevel::NailedIt);
        let v = p.s.models()[V as usize];
        assert!(!v.tokens.blind && v.tokens.fire == 0 && v.stance == Stance::Standing, "{way:?}");
        assert_eq!(p.armour.iter().find(|r| r.0 == V).unwrap().2, expected_target + 2, "{way:?}");
    }
}

#[test]
fn a_blunder_jams_or_loses_the_weapon_or_hurts_its_user_by_every_way_it_is_tested() {
    // p.30: a Shoot Blunder "misses and the Weapon used in the shot Jams"; Finite (p.53): "If a
    // Blunder is rolled it cannot be Repaired, and may not be used for the remainder of the
    // game"; p.33 Close Combat Blunder: "Take 1 Damage"; Natural (p.53): "When this Weapon
    // Blunders it causes 1 Wound to the owning Model, instead of the usual 1 Damage".
    for way in WAYS.into_iter().filter(|w| w.tests()) {
        let bit = 1u8 << way.weapon();
        for special in [false, true] {
            let props: Vec<P> = match (special, way.ranged()) {
                (false, _) => vec![],
                (true, true) => vec![P::Finite],
                (true, false) => vec![P::Natural],
            };
            let p = play(way, &props, false, TestLevel::Blunder);
            let a: ModelState = p.s.models()[A as usize];
            let own_rolls: Vec<_> = p.armour.iter().filter(|r| r.0 == A).collect();
            if way.ranged() {
                assert!(own_rolls.is_empty(), "{way:?}: a ranged blunder does no damage");
                assert_eq!(a.broken & bit != 0, special, "{way:?} {props:?}: lost for the game");
                assert_eq!(a.jammed & bit != 0, !special, "{way:?} {props:?}: jammed");
            } else if special {
                assert!(own_rolls.is_empty(), "{way:?}: Natural makes no armour roll");
                assert_eq!(a.wounds, common::profile("kaneda").wounds - 1, "{way:?}: Natural's wound");
            } else {
                assert_eq!(own_rolls.len(), 1, "{way:?}: the blunder's 1 damage");
                assert_eq!(own_rolls[0].1, 1, "{way:?}");
            }
        }
    }
}

#[test]
fn spray_and_a_blinded_user_change_every_test_the_weapon_makes() {
    // Spray (p.53): "+1 Marksmanship when Shooting at Pass Range" (a template's pass range is
    // measured to its centre, docs/rulings.md 96); Blind (p.53): "This Model is at -2
    // Marksmanship, CC and Agility while it has one or more Blind tokens".
    for way in WAYS.into_iter().filter(|w| w.tests()) {
        let plain = play(way, &[], false, TestLevel::Fail).attr.expect("the attacker tests");
        let blinded = play(way, &[], true, TestLevel::Fail).attr.unwrap();
        assert_eq!(blinded, plain - 2, "{way:?}: blinded");
        if way.ranged() {
            let spray = play(way, &[P::Spray], false, TestLevel::Fail).attr.unwrap();
            assert_eq!(spray, plain + 1, "{way:?}: Spray at pass range");
        }
    }
}

/// The state with model `m`'s profile's first weapon given `props`.
fn with_weapon(s: &GameState, m: usize, props: Vec<P>) -> GameState {
    common::with_profile(s, m, |p| p.weapons[0].properties = props)
}

#[test]
fn an_ai_models_blow_delivers_every_property_of_its_weapon() {
    // Seed 003, Conversion: "When controlling AI models use the UC rules; for everything else
    // use the TDE rules" — its weapon's properties (p.53) act as any weapon's; Stun is Stun on a
    // player's model (only Stun on an AI model becomes Confusion).
    let (s, a0, raptor) = dino_field(0, (12, 6), (12, 7), |_| {});
    let mut props = hit_properties();
    props.retain(|p| *p != P::Scarce(5));
    props.push(P::Natural);
    let mut s = with_weapon(&s, raptor, props);
    assert!(s.in_contact(a0 as u8, raptor as u8));
    run_until(&mut s, |s| matches!(s.node(), Some(Step::Test { model, .. }) if *model as usize == raptor));
    let ap = s.models()[a0].ap;
    roll(&mut s, |t| t.level == TestLevel::Pass);
    let Some(Step::Armour { model, target, .. }) = top(&s) else {
        panic!("an armour roll: {}", s.describe_node())
    };
    assert_eq!(model as usize, a0);
    let tp = s.profile(a0 as u8);
    assert_eq!(
        target,
        engine::odds::armour_target(tp.toughness, tp.total_armour(), 1, 1, false),
        "Pierce, Sunder"
    );
    // What the hit will do at the end of the sequence (p.39 Apply H): this is the last
    // sequence of the enemy phase, and the cleanup that follows at once removes blind tokens
    // and unspent AP, so the effects are read where they wait.
    let v = s.models()[a0].pending;
    assert!(v.blind, "Blind");
    assert_eq!(v.fire, 2, "Fire(2)");
    assert!(v.knockdown, "Knockdown");
    assert_eq!(v.slow, (1, 1), "Slow(1/1)");
    assert_eq!(v.stun, 1, "Stun(1) takes an AP from a player's model");
    assert!(ap > 0, "it has an AP to lose");
    force_wounds(&mut s, 0);
    assert_eq!(s.models()[a0].tokens.fire, 2, "the fire tokens stay on");
}

/// The path length of the first move AI model `dino` makes in the enemy phase (its first card,
/// the hunter deck's Pounce: up to 9", amber).
fn first_ai_move(mut s: GameState, dino: usize) -> u16 {
    run_until(&mut s, |s| s.dynamic().sequence.as_ref().is_some_and(|q| q.actor as usize == dino));
    let seq = s.dynamic().sequence.as_ref().unwrap();
    assert!(matches!(seq.declared, Action::Move { .. }), "a move towards its prey: {:?}", seq.declared);
    seq.path.cost()
}

#[test]
fn a_dinosaurs_free_move_is_nine_inches_without_slow_or_knockdown() {
    // The control for the two tests below: a raptor 13" from its prey moves the Pounce's 9".
    let (s, _, raptor) = dino_field(0, (12, 0), (12, 14), |_| {});
    assert_eq!(first_ai_move(s, raptor), 90);
}

#[test]
fn slow_on_a_dinosaur_shortens_its_next_moves() {
    // Slow(X/X) (p.53): "Until the end of that Model's next Activation, it will suffer a -X/-X
    // modifier to its Speed"; seed 003, Conversion: only Stun is exchanged (for Confusion), so
    // Slow acts on an AI model too: its box's move (its speed for that action) is X" shorter
    // until the end of its next card (ruling 140).
    let (s, _, raptor) = dino_field(0, (12, 0), (12, 14), |m| {
        m.tokens.slow = (2, 2);
        m.tokens.slow_activations = 1;
    });
    let cost = first_ai_move(s, raptor);
    assert!(cost <= 70, "a 9\" box less Slow(2/2): {cost}");
}

#[test]
fn a_knocked_down_dinosaur_pays_an_inch_to_stand_up() {
    // Knockdown (p.53): "A Model hit by this Weapon is knocked Prone"; p.25: "the Model must
    // apply a Speed Modifier of -1/-1 to either enter or exit the Prone State"; seed 003,
    // "Prone": "It may get up again during a move action at a cost of 1" of movement".
    let (s, _, raptor) = dino_field(0, (12, 0), (12, 14), |m| m.stance = Stance::Prone);
    let cost = first_ai_move(s, raptor);
    assert!(cost <= 80, "a 9\" box less 1\" to stand: {cost}");
}
