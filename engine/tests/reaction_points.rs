//! Which points of a declared move a reaction is offered at (p.36 "When Can a Model React?",
//! rulings 41 and 147): one point per class of equivalent points, where equivalent means that
//! nothing that follows the reaction differs — not the reactor's odds alone, but also the
//! mover's firefight answers there (p.38).

mod common;

use common::Position;
use engine::state::{CombatKind, Step};
use engine::{Action, GameState};

const KANEDA: u8 = 0;
const NIX: u8 = 1;

/// Kaneda (Lagoon Revolver 8/14) walks 6" along row 2 towards Nix (Recurve 12/18), who waits at
/// the far end of the row: along the whole walk Nix's bow is in its long band (over 12"), while
/// Kaneda's revolver reaches Nix (14") only for the last steps.
fn walk_towards_nix() -> GameState {
    let rows: Vec<String> = (0..6).map(|_| "0.".repeat(24)).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut s =
        Position::on(common::board(&refs)).model(0, "kaneda", (1, 2)).model(1, "nix", (21, 2)).active(KANEDA);
    s.apply_action(Action::Move { dest: s.board().idx(7, 2), prone: false }).unwrap();
    common::decline_nested(&mut s);
    assert_eq!(s.node(), Some(&Step::ChooseReaction), "Nix may react");
    s
}

/// Whether, after Nix shoots at `point`, Kaneda may shoot back in a firefight.
fn kaneda_may_shoot_back(s: &GameState, point: u8) -> bool {
    let mut t = s.clone();
    t.apply_reaction_anywhere(Action::React { model: NIX, kind: CombatKind::Shoot { weapon: 0 }, point })
        .unwrap_or_else(|e| panic!("{e}"));
    while t.node() == Some(&Step::ChooseReaction) {
        t.apply_action(Action::EndReactions).unwrap();
    }
    assert_eq!(t.node(), Some(&Step::ChooseFirefight), "Kaneda chooses a firefight");
    t.legal_actions().iter().any(|a| matches!(a, Action::Firefight { kind: CombatKind::Shoot { .. }, .. }))
}

#[test]
fn points_where_the_mover_can_answer_and_where_it_cannot_are_both_offered() {
    // p.36: "The Reacting Model may choose for the Reaction to happen during any part of the
    // Active Model's Action provided they have Line of Sight. In this way you may choose to
    // react at whichever point of the Action is most favourable to you." p.38: "In response to
    // a Reaction declared against a Move or Interact Action the Active player may initiate a
    // Nested Action called a "Firefight" by immediately spending an AP to declare a Combat
    // Action in response." Where Kaneda can shoot back and where he cannot is a difference a
    // player wants, even though Nix's own odds are the same at both.
    let s = walk_towards_nix();
    let shots: Vec<_> = s
        .reaction_points()
        .into_iter()
        .filter(|p| matches!(p.action, Action::React { model: NIX, kind: CombatKind::Shoot { .. }, .. }))
        .collect();
    let point = |a: Action| match a {
        Action::React { point, .. } => point,
        _ => unreachable!("reactions only"),
    };
    let offered: Vec<(u8, bool)> = shots
        .iter()
        .filter(|p| p.offered)
        .map(|p| (point(p.action), kaneda_may_shoot_back(&s, point(p.action))))
        .collect();
    assert!(
        offered.iter().any(|&(_, back)| back),
        "a point where Kaneda shoots back is offered: {offered:?}"
    );
    assert!(offered.iter().any(|&(_, back)| !back), "a point where he cannot is offered: {offered:?}");
    // Nix's own odds are the same at both: the same class but for what follows.
    let odds = |p: &engine::state::ReactionPoint| {
        (p.class.reach, p.class.attr, p.class.pass_range, p.class.hard_cover)
    };
    let with = shots.iter().find(|p| p.offered && kaneda_may_shoot_back(&s, point(p.action))).unwrap();
    let without = shots.iter().find(|p| p.offered && !kaneda_may_shoot_back(&s, point(p.action))).unwrap();
    assert_eq!(odds(with), odds(without), "Nix's test is the same at both points");
    assert_ne!(with.class.follow, without.class.follow);
    // Every point left out answers like the offered point of its class.
    for p in shots.iter().filter(|p| !p.offered) {
        let rep =
            shots.iter().find(|q| q.offered && q.class == p.class).expect("a class has an offered point");
        assert_eq!(
            kaneda_may_shoot_back(&s, point(p.action)),
            kaneda_may_shoot_back(&s, point(rep.action)),
            "point {} is merged with point {}",
            point(p.action),
            point(rep.action)
        );
    }
    // What is offered is what `legal_actions` lists.
    let legal = s.legal_actions();
    for p in &shots {
        assert_eq!(legal.contains(&p.action), p.offered, "{:?}", p.action);
    }
}
