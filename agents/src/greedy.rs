//! A one-ply greedy agent: a baseline that fights, so that demos show a battle.
//!
//! At each decision it scores every legal action by looking at the state right after it and
//! takes the best (ties broken by its seeded generator):
//! - attacks (shots, charges, close combat, attacking reactions and firefights) score the
//!   exact expected wounds of the roll's damage at its modified attribute, using the engine's
//!   odds — close enough for a baseline, without enumerating opposed rolls;
//! - moves score how much closer they bring the model to the nearest enemy, so it advances;
//! - dodging costs an AP for little and scores slightly below nothing;
//! - ending an activation, declining and passing score zero.
//!
//! It is not the scripted player of the arena: it neither seeks cover nor plays objectives.

use crate::Agent;
use engine::odds::{armour_target, expected_wounds, level_distribution, wound_distribution};
use engine::state::{CombatKind, CombatRoll, Step};
use engine::{Action, GameState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The greedy baseline.
pub struct GreedyAgent {
    rng: ChaCha8Rng,
    buf: Vec<Action>,
}

impl GreedyAgent {
    /// A greedy agent with its own seeded generator for ties.
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent { rng: ChaCha8Rng::seed_from_u64(seed), buf: Vec::new() }
    }
}

impl Agent<GameState> for GreedyAgent {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn select_action(&mut self, state: &GameState) -> Action {
        state.legal_actions_into(&mut self.buf);
        let mut best = f64::NEG_INFINITY;
        let mut choice = self.buf[0];
        for &a in &self.buf {
            // Random jitter below any real difference breaks ties without a bias.
            let score = score(state, a) + self.rng.gen::<f64>() * 1e-6;
            if score > best {
                best = score;
                choice = a;
            }
        }
        choice
    }
}

/// Expected wounds a combat roll would deal if unopposed.
fn roll_value(state: &GameState, roll: &CombatRoll) -> f64 {
    let (weapon, target) = match (roll.kind, roll.target) {
        (CombatKind::Shoot { weapon } | CombatKind::CloseCombat { weapon }, Some(t)) => (weapon, t),
        _ => return 0.0,
    };
    let w = &state.profile(roll.model).weapons[weapon as usize];
    let tp = state.profile(target);
    let save = armour_target(tp.toughness, tp.total_armour(), w.pierce(), w.sunder(), roll.hard_cover);
    let [_, _, pass, nailed, feat] = level_distribution(roll.attr as i32, false);
    let ranged = matches!(roll.kind, CombatKind::Shoot { .. });
    let (on_pass, on_nailed) =
        if !ranged || roll.pass_range { (w.damage.0, w.damage.1) } else { (0, w.damage.0) };
    pass * expected_wounds(&wound_distribution(on_pass, save))
        + (nailed + feat) * expected_wounds(&wound_distribution(on_nailed, save))
}

/// How good an action looks one step ahead.
fn score(state: &GameState, action: Action) -> f64 {
    match action {
        // A dodge costs an AP for a small chance of a little movement: not worth it here.
        Action::Dodge
        | Action::Nested { kind: CombatKind::Dodge, .. }
        | Action::React { kind: CombatKind::Dodge, .. }
        | Action::Firefight { kind: CombatKind::Dodge, .. } => -0.01,
        Action::Shoot { .. }
        | Action::CloseCombat { .. }
        | Action::Charge { .. }
        | Action::React { .. }
        | Action::Firefight { .. }
        | Action::Nested { .. } => {
            let mut next = state.clone();
            if next.apply_action(action).is_err() {
                return f64::NEG_INFINITY;
            }
            let Some(seq) = next.dynamic().sequence.as_ref() else { return 0.0 };
            // The newest roll is the one this action added; a charge's comes when it arrives.
            let added = seq.rolls.last().map_or(0.0, |r| roll_value(&next, r));
            let charge_bonus = if matches!(action, Action::Charge { .. }) { 1.0 } else { 0.0 };
            added + charge_bonus
        }
        Action::Move { dest, prone } => {
            let Some(Step::ChooseAction(m)) = state.node() else { return 0.0 };
            let before = nearest_enemy(state, *m, state.models()[*m as usize].cell);
            let after = nearest_enemy(state, *m, dest);
            (before - after) * 0.1 - if prone { 0.05 } else { 0.0 }
        }
        _ => 0.0,
    }
}

/// Distance from `cell` to the nearest conscious enemy of model `m`.
fn nearest_enemy(state: &GameState, m: u8, cell: u16) -> f64 {
    let side = state.models()[m as usize].side;
    let board = state.board();
    state
        .models()
        .iter()
        .filter(|o| o.side != side && o.is_conscious())
        .map(|o| board.centre_distance(cell, 0, o.cell, 0) as f64)
        .fold(f64::INFINITY, f64::min)
}
