//! How `generate` keeps positions: a share of the decisions, and the scripted player as a
//! teacher whose positions teach the value only.

use agents::learned::Generation;
use engine::setup::GameConfig;
use eval::lineup::{Lineups, Pool};
use fastnet::data::{generate, DataPlan, Dataset, Teacher};
use std::sync::Arc;

fn games(teachers: Vec<Teacher>, decisions: f64) -> Dataset {
    let prior = Arc::new(Generation::scripted());
    let plan =
        DataPlan { games: 6, seed: 31, teachers, temperature: 0.05, prior, other_nodes: 0.0, decisions };
    let c = GameConfig::default();
    let lineups =
        Lineups::new(c.clone(), Pool::Fixed(c.board.clone()), Pool::Fixed(c.crews.clone())).unwrap();
    generate(&plan, &lineups, &|| {}).unwrap()
}

#[test]
fn a_share_of_the_decisions_keeps_about_that_share_of_the_positions() {
    let learned = || vec![Teacher::Learned(Arc::new(Generation::scripted()))];
    let all = games(learned(), 1.0);
    let some = games(learned(), 0.25);
    let ratio = some.policy_positions() as f64 / all.policy_positions() as f64;
    // Six games of a few hundred decisions each: a quarter within a wide margin (the games
    // themselves differ, since drawing the share moves the dice).
    assert!((0.15..0.35).contains(&ratio), "kept {ratio:.3} of the decisions, asked 0.25");
    // Every kept decision gives the mover's view with its policy and the other side's view.
    assert_eq!(some.positions.len(), 2 * some.policy_positions());
}

#[test]
fn the_scripted_teacher_teaches_the_value_only() {
    let d = games(vec![Teacher::Scripted], 1.0);
    assert!(d.positions.len() > 500, "{} positions", d.positions.len());
    assert_eq!(d.policy_positions(), 0, "the scripted player has no softmax to learn from");
    assert!(d.positions.iter().all(|p| p.value.abs() <= 1.0));
    // Both sides' views of each decision: the results seen from the two sides sum to zero.
    let total: f32 = d.positions.iter().map(|p| p.value).sum();
    assert!(total.abs() < 1e-3, "values sum to {total}");
}
