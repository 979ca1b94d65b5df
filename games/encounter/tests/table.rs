//! The table a player reads (issue 60, item 2): each prompt names the player's own model and
//! what is at stake, each option shows its odds from the engine's own checks (the very check
//! pushed when it is taken), "prepare" and "reposition" say what they are for, and the board
//! has labelled axes.
//! Models: 0 Brannoc, 1 Isolde, 2 Wat, 3 Garrick; 4 goblin cutter, ..., 7 orc veteran.

use agents::Game;
use encounter::board::Cell;
use encounter::checks::Outcome;
use encounter::odds::OptionOdds;
use encounter::state::Pending;
use encounter::{Action, Encounter, Intent, Node, Phase, PARTY_SIDE};

const BRANNOC: u8 = 0;
const WAT: u8 = 2;
const CUTTER: u8 = 4;
const ORC: u8 = 7;

fn c(x: u8, y: u8) -> Cell {
    Cell::new(x, y)
}

/// Set-up with no surprise, the party declaring first, everyone declaring Fight, and `first`
/// activating first.
fn first_to_act(first: u8) -> Encounter {
    let mut s = Encounter::start();
    for a in [Action::BuyPool(0), Action::Face(3), Action::Face(3), Action::Face(2)] {
        s.act(a).unwrap();
    }
    while s.phase() == Phase::Declare {
        s.act(Action::Declare(Intent::Fight)).unwrap();
    }
    let queue: Vec<u8> = (0..9).filter(|&m| s.models()[m as usize].declared).collect();
    for m in queue {
        s.act(Action::Face(if m == first { 6 } else { 1 })).unwrap();
    }
    assert_eq!(s.activation().map(|a| a.model), Some(first));
    s
}

/// The chance the pending check succeeds.
fn pending_success(s: &Encounter) -> f64 {
    match s.pending().last() {
        Some(Pending::Check(check)) => {
            Outcome::ALL.iter().filter(|o| o.succeeded()).map(|&o| check.odds[o as usize]).sum()
        }
        other => panic!("no check pending: {other:?}"),
    }
}

#[test]
fn the_interrupt_prompt_names_your_model_and_its_odds_are_the_attack_it_makes() {
    // "Interrupts: Performed during another Model's Activation by spending a Reaction.
    // Resolved before interrupted action."
    let mut s = first_to_act(CUTTER);
    s.pose_at(WAT, c(2, 4)).unwrap();
    s.pose_at(CUTTER, c(3, 5)).unwrap();
    s.act(Action::Advance(c(4, 6))).unwrap();
    assert_eq!(s.node(), Node::Decision(PARTY_SIDE));
    let prompt = s.decision_prompt();
    assert!(prompt.starts_with("Wat may Interrupt goblin cutter (advance to (4,6))"), "{prompt}");
    assert!(prompt.contains("for a Reaction (1 left)"), "{prompt}");
    let Some(OptionOdds::Attack { hit, wound, attacks: 1 }) = s.option_odds(Action::Interrupt) else {
        panic!("{:?}", s.option_odds(Action::Interrupt))
    };
    assert!(wound < hit && hit > 0.0);
    assert!(s.describe_option(Action::Interrupt).starts_with("interrupt [hits "));
    s.act(Action::Interrupt).unwrap();
    assert!((pending_success(&s) - hit).abs() < 1e-12, "the shown odds are the check rolled");
}

#[test]
fn the_soak_prompt_says_whose_armour_how_many_wounds_and_the_cost() {
    // "Soak cancels Wound before dealt (no Injury drawn). Using Soak damages armor."
    let mut s = first_to_act(ORC);
    s.pose_at(ORC, c(2, 1)).unwrap();
    s.act(Action::Strike { target: BRANNOC, boost: false, extra: false }).unwrap();
    s.act(Action::Roll(Outcome::Success)).unwrap();
    s.act(Action::Roll(Outcome::Boon)).unwrap();
    assert_eq!(s.node(), Node::Decision(PARTY_SIDE));
    assert_eq!(
        s.decision_prompt(),
        "Brannoc is about to take 2 wound(s) (Wounds left 4): Brannoc's armour (armour 1, Soak 2 left) \
         may soak one; soaking costs 1 armour and 1 Soak, a wound taken draws an Injury card"
    );
    assert_eq!(s.describe_option(Action::Accept), "take the wound(s)");
}

#[test]
fn a_strike_shows_the_odds_of_the_check_it_rolls_with_and_without_momentum() {
    // "1pt: Decrease Check Difficulty by 2": the boosted Strike's odds are better.
    let mut s = first_to_act(BRANNOC);
    s.pose_at(CUTTER, c(2, 1)).unwrap();
    let prompt = s.decision_prompt();
    assert!(prompt.starts_with("Brannoc to act (at "), "{prompt}");
    assert!(prompt.contains("Major action free") && prompt.contains("Momentum to spend"), "{prompt}");
    let odds =
        |s: &Encounter, boost| match s.option_odds(Action::Strike { target: CUTTER, boost, extra: false }) {
            Some(OptionOdds::Attack { hit, .. }) => hit,
            other => panic!("{other:?}"),
        };
    let (plain, boosted) = (odds(&s, false), odds(&s, true));
    assert!(boosted > plain, "{boosted} vs {plain}");
    let text = s.describe_option(Action::Strike { target: CUTTER, boost: false, extra: false });
    assert!(text.starts_with("strike goblin cutter [hits ") && text.contains("wounds "), "{text}");
    s.act(Action::Strike { target: CUTTER, boost: true, extra: false }).unwrap();
    assert!((pending_success(&s) - boosted).abs() < 1e-12);
}

#[test]
fn prepare_and_reposition_say_what_they_are_for_and_an_engaged_advance_warns_of_interrupts() {
    // "Prepare: Reduce single check Difficulty by 1." "Reposition: Move to adjacent square
    // within enemy Danger Zone". "Other Manoeuvres trigger Interrupts."
    let mut s = first_to_act(WAT);
    s.pose_at(WAT, c(2, 4)).unwrap();
    s.pose_at(CUTTER, c(3, 5)).unwrap();
    let legal = s.legal_actions();
    assert_eq!(
        s.describe_option(Action::Prepare),
        "prepare (your next check this activation is one step easier)"
    );
    let reposition = legal.iter().find(|a| matches!(a, Action::Reposition(_))).copied().unwrap();
    assert!(s
        .describe_option(reposition)
        .ends_with("(one step, staying in the enemy's Danger Zone: no Interrupt)"));
    assert_eq!(
        s.describe_option(Action::Advance(c(1, 3))),
        "advance to (1,3) [leaves a Danger Zone: 1 enemy may Interrupt]"
    );
}

#[test]
fn the_board_has_labelled_axes_and_every_model_its_square() {
    let s = Encounter::start();
    let board = s.render();
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(lines[0], "  x0123456789");
    assert_eq!(lines[1], "y");
    assert!(lines[2].starts_with(" 0 ") && lines[9].starts_with(" 7 "), "{board}");
    let brannoc = s.models()[BRANNOC as usize].cell;
    let row = lines[2 + brannoc.y as usize].as_bytes();
    assert_eq!(row[3 + brannoc.x as usize], b'0', "Brannoc stands where the axes say: {board}");
    assert!(board.contains(&format!("Brannoc          at ({},{})", brannoc.x, brannoc.y)), "{board}");
}
