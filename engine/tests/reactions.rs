//! Reactions, nested actions, firefights and conditional reactions (pp.23, 28, 32, 36-39),
//! including the six "Reaction" diagrams and the reaction-timing example of p.36.

mod common;

use common::{open_board, Position};

use common::{force_test, force_wounds};
use engine::dice::TestLevel;
use engine::state::{CombatKind, CombatRoll, RollRole, Step};
use engine::{Action, GameState, Player};

const KANEDA: u8 = 0;
const NIX: u8 = 1;
const SLETHSSK: u8 = 2;

/// Kaneda (side A, active) facing Nix and Slethssk (side B) on an open 16" table.
fn diagram() -> GameState {
    Position::on(open_board(16, 16))
        .model(0, "kaneda", (2, 2))
        .model(1, "nix", (2, 9))
        .model(1, "slethssk", (5, 8))
        .active(KANEDA)
}

fn top(s: &GameState) -> Step {
    s.node().cloned().expect("not terminal")
}

fn rolls(s: &GameState) -> Vec<CombatRoll> {
    s.dynamic().sequence.as_ref().expect("sequence").rolls.to_vec()
}

fn roll_of(s: &GameState, m: u8) -> CombatRoll {
    *rolls(s).iter().find(|r| r.model == m).unwrap_or_else(|| panic!("no roll for m{m}"))
}

fn weapon(s: &GameState, m: u8, ranged: bool) -> u8 {
    s.profile(m).weapons.iter().position(|w| w.is_ranged() == ranged).unwrap() as u8
}

/// The first legal reaction of `m` whose kind matches.
fn react(s: &mut GameState, m: u8, shoot: bool) -> Action {
    let a = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::React { model, kind, .. } if *model == m && matches!(kind, CombatKind::Shoot { .. }) == shoot && !matches!(kind, CombatKind::CloseCombat { .. })))
        .unwrap_or_else(|| panic!("no reaction for m{m}: {:?}", s.legal_actions()));
    s.apply_action(a).unwrap();
    a
}

fn end_reactions(s: &mut GameState) {
    assert_eq!(top(s), Step::ChooseReaction);
    s.apply_action(Action::EndReactions).unwrap();
}

fn shoot(s: &GameState, target: u8) -> Action {
    Action::Shoot { weapon: weapon(s, KANEDA, true), target }
}

#[test]
fn reaction_1_a_shot_at_a_moving_model_is_unopposed() {
    let mut s = diagram();
    s.apply_action(Action::Move { dest: s.board().idx(8, 2), prone: false }).unwrap();
    if top(&s) == Step::ChooseNested {
        s.apply_action(Action::NoNested).unwrap();
    }
    assert_eq!(s.current_player(), Player::Side(1), "the reacting player is asked");
    react(&mut s, NIX, true);
    end_reactions(&mut s);
    s.apply_action(Action::NoFirefight).unwrap();
    assert!(!roll_of(&s, NIX).opposed);
    assert!(matches!(top(&s), Step::Test { opposed: false, .. }));
}

#[test]
fn reaction_2_shots_at_each_other_are_opposed() {
    let mut s = diagram();
    s.apply_action(shoot(&s, NIX)).unwrap();
    react(&mut s, NIX, true);
    end_reactions(&mut s);
    assert!(roll_of(&s, KANEDA).opposed && roll_of(&s, NIX).opposed);
}

#[test]
fn reaction_3_a_second_reactor_shooting_the_shooter_is_unopposed() {
    let mut s = diagram();
    s.apply_action(shoot(&s, NIX)).unwrap();
    react(&mut s, NIX, true);
    react(&mut s, SLETHSSK, true);
    assert!(roll_of(&s, KANEDA).opposed && roll_of(&s, NIX).opposed);
    assert!(!roll_of(&s, SLETHSSK).opposed);
}

#[test]
fn reaction_4_without_the_targets_reaction_both_shots_are_unopposed() {
    let mut s = diagram();
    s.apply_action(shoot(&s, NIX)).unwrap();
    react(&mut s, SLETHSSK, true);
    end_reactions(&mut s);
    assert!(!roll_of(&s, KANEDA).opposed && !roll_of(&s, SLETHSSK).opposed);
}

#[test]
fn reaction_5_the_targets_dodge_opposes_the_shot_and_the_other_shot_stays_unopposed() {
    let mut s = diagram();
    s.apply_action(shoot(&s, NIX)).unwrap();
    react(&mut s, NIX, false);
    react(&mut s, SLETHSSK, true);
    assert_eq!(roll_of(&s, NIX).kind, CombatKind::Dodge);
    assert!(roll_of(&s, KANEDA).opposed && roll_of(&s, NIX).opposed);
    assert!(!roll_of(&s, SLETHSSK).opposed);
}

/// Kaneda moves 6" along row 2; Nix reacts with a shot; Kaneda answers with a firefight.
fn moving_kaneda_shot_by_nix() -> GameState {
    let mut s = diagram();
    s.apply_action(Action::Move { dest: s.board().idx(8, 2), prone: false }).unwrap();
    s.apply_action(Action::NoNested).unwrap();
    react(&mut s, NIX, true);
    end_reactions(&mut s);
    assert_eq!(top(&s), Step::ChooseFirefight);
    s
}

#[test]
fn reaction_6_a_firefight_dodge_turns_the_unopposed_shot_into_an_opposed_test() {
    let mut s = moving_kaneda_shot_by_nix();
    let ap = s.models()[KANEDA as usize].ap;
    s.apply_action(Action::Firefight { kind: CombatKind::Dodge, reactor: NIX }).unwrap();
    assert_eq!(s.models()[KANEDA as usize].ap, ap - 1, "a firefight costs an AP");
    let dodge = *rolls(&s).iter().find(|r| r.role == RollRole::Firefight).unwrap();
    assert_eq!(dodge.kind, CombatKind::Dodge);
    assert!(dodge.opposed && roll_of(&s, NIX).opposed, "Nix's Marksmanship against Kaneda's Agility");
    // Kaneda's dodge wins: Nix's shot fails and Kaneda gets his dodge move.
    force_test(&mut s, TestLevel::Feat);
    force_test(&mut s, TestLevel::Pass);
    assert!(matches!(top(&s), Step::ChooseDodgeMove { model: KANEDA, budget: 20 }), "{:?}", top(&s));
}

#[test]
fn only_one_firefight_and_none_after_a_nested_action() {
    let mut s = moving_kaneda_shot_by_nix();
    s.apply_action(Action::Firefight { kind: CombatKind::Dodge, reactor: NIX }).unwrap();
    assert_ne!(top(&s), Step::ChooseFirefight);
    // With a nested action there is no firefight.
    let mut s = diagram();
    s.apply_action(Action::Move { dest: s.board().idx(8, 2), prone: false }).unwrap();
    let nested = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::Nested { kind: CombatKind::Shoot { .. }, .. }))
        .unwrap();
    s.apply_action(nested).unwrap();
    react(&mut s, SLETHSSK, true);
    end_reactions(&mut s);
    assert_ne!(top(&s), Step::ChooseFirefight, "no firefight after a nested action");
}

#[test]
fn three_reactors_and_one_firefight_only_the_firefight_is_opposed() {
    let mut s = Position::on(open_board(16, 16))
        .model(0, "kaneda", (2, 2))
        .model(1, "nix", (2, 9))
        .model(1, "slethssk", (5, 8))
        .model(1, "venk", (10, 8))
        .active(KANEDA);
    s.apply_action(Action::Move { dest: s.board().idx(8, 2), prone: false }).unwrap();
    s.apply_action(Action::NoNested).unwrap();
    react(&mut s, NIX, true);
    react(&mut s, SLETHSSK, true);
    react(&mut s, 3, true);
    if top(&s) == Step::ChooseReaction {
        s.apply_action(Action::EndReactions).unwrap();
    }
    let firefight =
        Action::Firefight { kind: CombatKind::Shoot { weapon: weapon(&s, KANEDA, true) }, reactor: SLETHSSK };
    assert!(s.legal_actions().contains(&firefight), "{:?}", s.legal_actions());
    s.apply_action(firefight).unwrap();
    assert!(roll_of(&s, SLETHSSK).opposed);
    assert!(!roll_of(&s, NIX).opposed && !roll_of(&s, 3).opposed);
}

#[test]
fn a_dodge_is_compared_with_every_shot_and_counts_once() {
    // p.32: Kaneda dodges; Nix and Slethssk both shoot him. Each shot is compared with the one
    // dodge roll. Here the dodge (Nailed It, high die 5) beats Nix's Pass and loses to
    // Slethssk's Nailed It with a higher die.
    let mut s = diagram();
    s.apply_action(Action::Dodge).unwrap();
    react(&mut s, NIX, true);
    react(&mut s, SLETHSSK, true);
    assert!(roll_of(&s, KANEDA).opposed && roll_of(&s, NIX).opposed && roll_of(&s, SLETHSSK).opposed);
    // Rolls are made in order: Kaneda's dodge, Nix, Slethssk.
    let pick = |s: &mut GameState, level: TestLevel, high: u8| {
        let table = s.pending_test().expect("a test");
        let i = table.iter().position(|(o, _)| o.level == level && o.high_die == high).expect("outcome");
        s.apply_action(Action::Chance(i as u8)).unwrap();
    };
    pick(&mut s, TestLevel::NailedIt, 5);
    pick(&mut s, TestLevel::Pass, 7);
    pick(&mut s, TestLevel::NailedIt, 6);
    // Slethssk's shot wins: one armour roll for Kaneda, then a single dodge move.
    match top(&s) {
        Step::Armour { model: KANEDA, .. } => {}
        other => panic!("expected Kaneda's armour roll from Slethssk's shot, got {other:?}"),
    }
    force_wounds(&mut s, 0);
    assert!(matches!(top(&s), Step::ChooseDodgeMove { model: KANEDA, .. }));
    let stay = Action::DodgeMove(s.models()[KANEDA as usize].cell);
    s.apply_action(stay).unwrap();
    assert!(
        !matches!(top(&s), Step::ChooseDodgeMove { .. } | Step::Armour { .. }),
        "one dodge move, one hit"
    );
}

#[test]
fn a_reaction_in_the_nailed_it_portion_is_cancelled_with_no_ap_spent_when_the_mover_falls_short() {
    // Kaneda leaps a gap (he must Nail It). Nix reacts at a point beyond his pass distance.
    let rows: Vec<String> = (0..12)
        .map(|y| if y == 1 { "4.4.4.0.0.0.0.4.4.4.4.0.".to_string() } else { "0.".repeat(12) })
        .collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut s =
        Position::on(common::board(&refs)).model(0, "kaneda", (1, 1)).model(1, "nix", (5, 9)).active(KANEDA);
    s.apply_action(Action::Move { dest: s.board().idx(7, 1), prone: false }).unwrap();
    if top(&s) == Step::ChooseNested {
        s.apply_action(Action::NoNested).unwrap();
    }
    // Points 5 and 6 (5" and 6" along) are beyond Kaneda's 4" pass distance.
    let late = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::React { model: NIX, kind: CombatKind::Shoot { .. }, point } if *point >= 5))
        .expect("a reaction in the Nailed It portion");
    let ap = s.models()[NIX as usize].ap;
    s.apply_action(late).unwrap();
    assert_eq!(s.models()[NIX as usize].ap, ap - 1);
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::Pass);
    assert_eq!(top(&s), Step::ChooseMidAir);
    s.apply_action(Action::RestBack).unwrap();
    assert!(matches!(top(&s), Step::ChooseAction(KANEDA)), "Nix's shot was never rolled: {:?}", top(&s));
    assert_eq!(s.models()[NIX as usize].ap, ap, "no AP spent on a cancelled reaction");
}

#[test]
fn a_conditional_nested_action_is_refunded_when_the_mover_fails() {
    let rows: Vec<String> = (0..12)
        .map(|y| if y == 1 { "4.4.4.0.0.0.0.4.4.4.4.0.".to_string() } else { "0.".repeat(12) })
        .collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut s =
        Position::on(common::board(&refs)).model(0, "kaneda", (1, 1)).model(1, "nix", (9, 8)).active(KANEDA);
    let ap = s.models()[KANEDA as usize].ap;
    s.apply_action(Action::Move { dest: s.board().idx(7, 1), prone: false }).unwrap();
    let nested = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::Nested { kind: CombatKind::Shoot { .. }, point, .. } if *point >= 5))
        .expect("a nested shot from the Nailed It portion");
    s.apply_action(nested).unwrap();
    assert_eq!(s.models()[KANEDA as usize].ap, ap - 2, "the move and the nested shot");
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::Fail);
    assert!(matches!(top(&s), Step::ChooseAction(KANEDA)), "no shot was rolled: {:?}", top(&s));
    assert_eq!(s.models()[KANEDA as usize].ap, ap - 1, "the nested action's AP comes back");
}

#[test]
fn the_reacting_player_picks_the_point_where_the_mover_is_not_in_cover() {
    // p.36 Reaction Timing: Venk waits for Corian, who moves from A to C; near the end of the
    // path two crates give Corian hard cover, so Venk reacts at B where the view is clear.
    let mut rows: Vec<String> = (0..14).map(|_| "0.".repeat(14)).collect();
    rows[3] = "0.0.0.0.0.0h0h0h0.0.0.0.0.0.".to_string();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut s =
        Position::on(common::board(&refs)).model(0, "corian", (1, 2)).model(1, "venk", (6, 10)).active(0);
    s.apply_action(Action::Move { dest: s.board().idx(7, 2), prone: false }).unwrap();
    common::decline_nested(&mut s);
    let attrs: Vec<(u8, u8)> = s
        .legal_actions()
        .iter()
        .filter_map(|a| match a {
            Action::React { model: 1, kind: CombatKind::Shoot { .. }, point } => Some(*point),
            _ => None,
        })
        .map(|point| {
            let mut t = s.clone();
            t.apply_action(Action::React { model: 1, kind: CombatKind::Shoot { weapon: 0 }, point }).unwrap();
            (point, roll_of(&t, 1).attr)
        })
        .collect();
    let venk_m = s.profile(1).marksmanship;
    assert!(attrs.iter().any(|&(_, a)| a == venk_m), "a clear point: {attrs:?}");
    assert!(attrs.iter().any(|&(_, a)| a == venk_m - 1), "a point behind the crates: {attrs:?}");
}

#[test]
fn a_charge_target_may_fight_back_and_a_bystander_may_only_shoot() {
    let mut s = Position::on(open_board(12, 12))
        .model(0, "kaneda", (2, 2))
        .model(1, "hosk", (2, 6))
        .model(1, "slethssk", (8, 6))
        .active(KANEDA);
    let charge = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::Charge { target: 1, dest, .. } if s.board().xy(*dest) == (2, 5)))
        .expect("charge Hosk from the front");
    s.apply_action(charge).unwrap();
    let options = s.legal_actions();
    assert!(options
        .iter()
        .any(|a| matches!(a, Action::React { model: 1, kind: CombatKind::CloseCombat { .. }, .. })));
    assert!(options
        .iter()
        .any(|a| matches!(a, Action::React { model: 2, kind: CombatKind::Shoot { .. }, .. })));
    assert!(
        !options.iter().any(|a| matches!(
            a,
            Action::React { model: 2, kind: CombatKind::CloseCombat { .. } | CombatKind::Dodge, .. }
        )),
        "the bystander is not in the charge's path"
    );
    let fight_back = *options
        .iter()
        .find(|a| matches!(a, Action::React { model: 1, kind: CombatKind::CloseCombat { .. }, .. }))
        .unwrap();
    s.apply_action(fight_back).unwrap();
    react(&mut s, 2, true);
    common::decline_declarations(&mut s);
    // The charger arrives; its close combat is opposed by Hosk's, the bystander's shot is not.
    assert!(roll_of(&s, KANEDA).opposed && roll_of(&s, 1).opposed);
    assert!(!roll_of(&s, 2).opposed);
}

#[test]
fn in_an_opposed_close_combat_only_the_winner_deals_damage() {
    let mut s =
        Position::on(open_board(6, 6)).model(0, "kaneda", (2, 2)).model(1, "hosk", (2, 3)).active(KANEDA);
    let cc = Action::CloseCombat { weapon: weapon(&s, KANEDA, false), target: 1 };
    s.apply_action(cc).unwrap();
    let back = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::React { model: 1, kind: CombatKind::CloseCombat { .. }, .. }))
        .unwrap();
    s.apply_action(back).unwrap();
    common::decline_declarations(&mut s);
    force_test(&mut s, TestLevel::Pass); // Kaneda
    force_test(&mut s, TestLevel::NailedIt); // Hosk wins
    match top(&s) {
        Step::Armour { model: KANEDA, .. } => {}
        other => panic!("only Hosk hits: {other:?}"),
    }
    force_wounds(&mut s, 0);
    assert!(!matches!(top(&s), Step::Armour { .. }), "Kaneda lost and deals no damage");
}

#[test]
fn only_the_inactive_side_reacts_once_per_model_and_never_by_charging() {
    let mut s = diagram();
    s.apply_action(shoot(&s, NIX)).unwrap();
    for a in s.legal_actions() {
        match a {
            Action::React { model, .. } => assert!(model == NIX || model == SLETHSSK),
            Action::EndReactions => {}
            other => panic!("not a reaction: {other:?}"),
        }
    }
    react(&mut s, NIX, true);
    assert!(
        !s.legal_actions().iter().any(|a| matches!(a, Action::React { model: NIX, .. })),
        "one reaction per model"
    );
}

/// Whether the mover at path point `k` (0 = its start) touches the model standing on `cell`,
/// on a flat board: their 1" cells are neighbours.
fn mover_touches(s: &GameState, k: u8, cell: u16) -> bool {
    let seq = s.dynamic().sequence.as_ref().expect("sequence");
    let at = if k == 0 { s.models()[seq.actor as usize].cell } else { seq.path.points[k as usize - 1].cell };
    let ((ax, ay), (bx, by)) = (s.board().xy(at), s.board().xy(cell));
    (ax as i32 - bx as i32).abs().max((ay as i32 - by as i32).abs()) <= 1
}

/// p.40: "Models which are in Base to Base Contact with an enemy Model may only perform a CC
/// or Dodge Action." A reactor may not shoot at a point of the mover's path where the mover
/// touches it, but may shoot where it does not; it may fight or dodge where it touches.
#[test]
fn no_shot_is_offered_where_the_mover_passes_in_base_contact_with_the_reactor() {
    // Crates give Kaneda hard cover from Nix until he comes round them, into base contact, so
    // the first clear point of his path touches Nix.
    let mut rows: Vec<String> = (0..12).map(|_| "0.".repeat(12)).collect();
    rows[3] = "0.0.0h0h0.0.0.0.0.0.0.0.".to_string();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut s =
        Position::on(common::board(&refs)).model(0, "kaneda", (1, 2)).model(1, "nix", (5, 3)).active(KANEDA);
    s.apply_action(Action::Move { dest: s.board().idx(7, 2), prone: false }).unwrap();
    common::decline_nested(&mut s);
    let nix_cell = s.models()[NIX as usize].cell;
    let mut shots_apart = 0;
    let mut fights_in_contact = 0;
    for a in s.legal_actions() {
        let Action::React { model: NIX, kind, point } = a else { continue };
        let touching = mover_touches(&s, point, nix_cell);
        match kind {
            CombatKind::Shoot { .. } | CombatKind::Template { .. } | CombatKind::Reveal => {
                assert!(!touching, "a shot offered at point {point}, in base contact");
                shots_apart += 1;
            }
            CombatKind::CloseCombat { .. } => {
                assert!(touching, "close combat only where the mover touches Nix");
                fights_in_contact += 1;
            }
            CombatKind::Dodge => {}
        }
    }
    assert!(shots_apart > 0, "Nix may shoot where Kaneda is not touching him");
    assert!(fights_in_contact > 0, "Nix may fight as Kaneda passes him");
}

/// p.40 again, for a charge that ends touching its target: the target may shoot at the
/// charger on its way in, but not at the last point, where they are in base contact.
#[test]
fn a_charge_target_may_not_shoot_where_the_charge_ends_in_base_contact() {
    let mut s =
        Position::on(open_board(16, 16)).model(0, "kaneda", (2, 2)).model(1, "nix", (2, 9)).active(KANEDA);
    let charge = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::Charge { target: NIX, dest, .. } if s.board().xy(*dest) == (2, 8)))
        .expect("charge Nix from the front");
    s.apply_action(charge).unwrap();
    let last = s.dynamic().sequence.as_ref().unwrap().path.points.len() as u8;
    let nix_cell = s.models()[NIX as usize].cell;
    assert!(mover_touches(&s, last, nix_cell));
    let shots: Vec<u8> = s
        .legal_actions()
        .iter()
        .filter_map(|a| match a {
            Action::React { model: NIX, kind: CombatKind::Shoot { .. }, point } => Some(*point),
            _ => None,
        })
        .collect();
    assert!(!shots.is_empty(), "Nix may shoot the charger before it arrives");
    assert!(shots.iter().all(|&k| !mover_touches(&s, k, nix_cell)), "no shot in base contact: {shots:?}");
}

#[test]
fn a_charges_blow_is_declared_with_the_charge_before_the_reactions() {
    // p.33 "Declaring a Charge Action", 1. Declare: "Declare your Charge Action by spending an
    // Action Point, indicating your desired Movement Path, your Point of Destination, and your
    // Target Model"; 2. Test: "If successful now take a Close Combat Test"; p.39 "1. Declare":
    // "A. Active Model declares Action and Target of Action ... D. Reacting Player declares any
    // Reactions" (ruling 149). Kaneda, prone, charges Hosk; Slethssk stands beside the
    // destination, so the blow there is at +1 (charging) and -1 (a second enemy in contact),
    // standing (it stands up as it sets off).
    let s = Position::on(open_board(12, 12))
        .model(0, "kaneda", (2, 2))
        .model(1, "hosk", (2, 6))
        .model(1, "slethssk", (3, 6))
        .active(KANEDA);
    let mut s = common::edited(&s, |d| d.models[KANEDA as usize].stance = engine::state::Stance::Prone);
    let charge = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::Charge { target: 1, dest, .. } if s.board().xy(*dest) == (2, 5)))
        .expect("charge Hosk from the front");
    let Action::Charge { weapon, .. } = charge else { unreachable!() };
    s.apply_action(charge).unwrap();
    assert_eq!(top(&s), Step::ChooseReaction);
    let last = s.dynamic().sequence.as_ref().unwrap().path.points.len() as u8;
    let blow = roll_of(&s, KANEDA);
    assert_eq!(
        (blow.role, blow.kind, blow.target, blow.point),
        (RollRole::Main, CombatKind::CloseCombat { weapon }, Some(1), last),
        "the reacting player sees the charger's blow, at the charge's destination"
    );
    assert_eq!(blow.attr, s.profile(KANEDA).cc, "+1 charging, -1 for Slethssk beside the destination");
    assert_eq!(s.models()[KANEDA as usize].cell, s.board().idx(2, 2), "before the charger moves");
    // Hosk fights back: opposed to the declared blow, which the charger strikes on arriving.
    let fight_back = *s
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::React { model: 1, kind: CombatKind::CloseCombat { .. }, .. }))
        .expect("the target may fight back");
    s.apply_action(fight_back).unwrap();
    common::decline_declarations(&mut s);
    let blow = roll_of(&s, KANEDA);
    assert!(blow.opposed && !blow.cancelled && roll_of(&s, 1).opposed);
    assert_eq!(blow.attr, s.profile(KANEDA).cc, "the blow struck is the one declared");
    assert_eq!(s.board().xy(s.models()[KANEDA as usize].cell), (2, 5));
}

#[test]
fn a_charge_that_does_not_reach_its_target_strikes_no_blow() {
    // p.33: "Make any Dynamic Movement Tests if any are necessary. If successful now take a
    // Close Combat Test" (ruling 26): the blow declared with the charge is cancelled when a
    // failed movement test stops the charger short of its target.
    let rows: Vec<String> =
        (0..12).map(|y| if y == 4 || y == 5 { "0,".repeat(12) } else { "0.".repeat(12) }).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut s =
        Position::on(common::board(&refs)).model(0, "kaneda", (3, 2)).model(1, "hosk", (3, 8)).active(KANEDA);
    let charge = s
        .legal_actions()
        .into_iter()
        .find(|&a| {
            matches!(a, Action::Charge { target: 1, .. })
                && s.declared_path(a).is_some_and(|p| p.first_dynamic.is_some())
        })
        .expect("a charge across the rough ground, which needs a movement test");
    s.apply_action(charge).unwrap();
    assert!(!roll_of(&s, KANEDA).cancelled, "declared with the charge");
    common::decline_declarations(&mut s);
    let hosk = s.models()[1];
    force_test(&mut s, TestLevel::Fail);
    // The charger stops before the rough ground; no close combat test is rolled, and the
    // sequence is over.
    assert_eq!(s.board().xy(s.models()[KANEDA as usize].cell), (3, 3));
    assert!(s.dynamic().sequence.is_none(), "no test is rolled: {:?}", s.node());
    assert_eq!(s.models()[1], hosk, "Hosk is untouched");
}

#[test]
fn a_prone_mover_standing_up_is_standing_at_every_point_of_its_path_its_start_included() {
    // p.25: "Entering or exiting the Prone State may only be achieved during a Movement Action.
    // Additionally the Model must apply a Speed Modifier of -1/-1 to either enter or exit the
    // Prone State" (ruling 16: at the start of the move); p.40: "Line of Sight should be drawn
    // to and from a Prone Model's base". The start of the path follows the rule of its other
    // points (ruling 150): the mover's stance there is the move's, its cover and height those
    // of the point.
    let s = diagram();
    let prone = common::edited(&s, |d| d.models[KANEDA as usize].stance = engine::state::Stance::Prone);
    let standing = engine::board::Volume::Standing(s.profile(KANEDA).los_template);
    // A prone Kaneda stands up and walks: standing at the start as on the way.
    let mut walk = prone.clone();
    walk.apply_action(Action::Move { dest: s.board().idx(2, 5), prone: false }).unwrap();
    assert_eq!(walk.mover_pose(0).unwrap().volume, standing);
    assert_eq!(walk.mover_pose(1).unwrap().volume, standing);
    // Its nested dodge at the start is a standing model's: no -1 Agility (p.33).
    walk.apply_action(Action::Nested { kind: CombatKind::Dodge, target: KANEDA, point: 0 }).unwrap();
    assert_eq!(roll_of(&walk, KANEDA).attr, s.profile(KANEDA).agility);
    // A standing Kaneda going prone to crawl: prone at the start as on the way.
    let mut crawl = s.clone();
    crawl.apply_action(Action::Move { dest: s.board().idx(2, 4), prone: true }).unwrap();
    assert_eq!(crawl.mover_pose(0).unwrap().volume, engine::board::Volume::Base);
    assert_eq!(crawl.mover_pose(1).unwrap().volume, engine::board::Volume::Base);
    // A prone Kaneda crawling on stays prone.
    let mut on = prone.clone();
    on.apply_action(Action::Move { dest: s.board().idx(2, 3), prone: true }).unwrap();
    assert_eq!(on.mover_pose(0).unwrap().volume, engine::board::Volume::Base);
}
