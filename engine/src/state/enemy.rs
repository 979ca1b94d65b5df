//! The card AI's side of a game with Ulaya Chronicles dinosaurs ("The Drowned Earth
//! Conversion", seed 003): the AI models the players place before deployment.
//!
//! The AI side is part of the environment, never a player: its models belong to
//! [`AI_SIDE`], get no AP and are never activated by a player; its choices are the rules' own,
//! a player's decision (as here, where the players take turns to place the models), or a roll.

use super::steps::Step;
use super::{Action, GameState, Health, ModelId, Side, Stance};
use crate::board::{CellIdx, Terrain};
use crate::uc::game::AI_SIDE;
use serde::{Deserialize, Serialize};

/// The card AI's procedure steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnemyStep {
    /// Chance: the spawn-table roll for the next AI model placed before deployment; `chooser`
    /// then places it. The outcomes are the distinct AI models of the table, in the order of
    /// their first face, each with its share of the ten faces.
    RollPlacement {
        /// The player who places the model rolled.
        chooser: Side,
    },
    /// Decision for `chooser`: the cell AI model `model` is placed on (`Action::Deploy`).
    Place {
        /// The AI model being placed.
        model: ModelId,
        /// The player placing it.
        chooser: Side,
    },
}

impl EnemyStep {
    /// Whether the step is a die roll.
    pub(super) fn is_chance(&self) -> bool {
        matches!(self, EnemyStep::RollPlacement { .. })
    }

    /// One-line description in words.
    pub(super) fn describe(&self, state: &GameState) -> String {
        let side = |s: &Side| format!("side {}", (b'A' + s.min(&25)) as char);
        match self {
            EnemyStep::RollPlacement { .. } => "roll on the spawn table for the next AI model".into(),
            EnemyStep::Place { model, chooser } => {
                format!("{} places {}", side(chooser), crate::render::model_name(state, *model))
            }
        }
    }

    /// The side deciding at this step (chance steps have none).
    pub(super) fn chooser(&self) -> Option<Side> {
        match self {
            EnemyStep::RollPlacement { .. } => None,
            EnemyStep::Place { chooser, .. } => Some(*chooser),
        }
    }
}

/// The placement steps of a game with `dinos` AI models, in the order they happen: a roll on
/// the spawn table then a placement, the players taking turns, side A first
/// (docs/rulings.md).
pub(crate) fn placement_steps(dinos: u8) -> Vec<Step> {
    (0..dinos).map(|i| Step::Enemy(EnemyStep::RollPlacement { chooser: i % 2 })).collect()
}

/// The distinct AI models (indices into the UC data's enemies) of the game's spawn table, with
/// their probabilities.
fn spawn_outcomes(state: &GameState) -> Vec<(u8, f64)> {
    let uc = state.stat.uc.as_ref().expect("placement steps need the UC data");
    let mut out: Vec<(u8, f64)> = Vec::new();
    for e in uc.spawn_faces() {
        match out.iter_mut().find(|(x, _)| *x == e) {
            Some(entry) => entry.1 += 0.1,
            None => out.push((e, 0.1)),
        }
    }
    out
}

/// Outcomes of a chance step of the card AI.
pub(super) fn chance_outcomes(state: &GameState, step: &EnemyStep) -> Vec<(Action, f64)> {
    match step {
        EnemyStep::RollPlacement { .. } => spawn_outcomes(state)
            .iter()
            .enumerate()
            .map(|(i, &(_, p))| (Action::Chance(i as u8), p))
            .collect(),
        EnemyStep::Place { .. } => Vec::new(),
    }
}

/// Apply a chance outcome: the rolled AI model joins the game, off the table until placed.
pub(super) fn chance(state: &mut GameState, step: EnemyStep, outcome: u8) {
    let EnemyStep::RollPlacement { chooser } = step else { unreachable!("only rolls are chance steps") };
    let enemy = spawn_outcomes(state)[outcome as usize].0;
    let uc = state.stat.uc.clone().expect("placement steps need the UC data");
    let profile = uc.profile_of[enemy as usize];
    let p = &state.stat.profiles[profile as usize];
    let mut m = crate::setup::fresh_model(p, profile, AI_SIDE, 0, state.board());
    m.health = Health::Reserve;
    state.dyn_.models.push(m);
    let model = (state.dyn_.models.len() - 1) as ModelId;
    state.dyn_.steps.push(Step::Enemy(EnemyStep::Place { model, chooser }));
}

/// The cells an AI model may be placed on: free open ground at ground level, not touching a
/// model, and more than a deployment zone's depth from every board edge so that it stands in
/// no deployment zone the players choose afterwards (docs/rulings.md). Where the board has no
/// such cell, any free ground cell.
pub(super) fn placement_options(state: &GameState, out: &mut Vec<Action>) {
    let board = state.board();
    let margin = crate::setup::DEPLOYMENT_DEPTH as i32;
    let (w, d) = (board.width() as i32, board.depth() as i32);
    let free = |c: CellIdx| {
        let cell = board.cell(c);
        cell.terrain == Terrain::Open
            && cell.height <= 1
            && !state.models().iter().any(|m| m.is_on_table() && m.cell == c)
            && !state.touches_side(|_| true, c, cell.height, None)
    };
    let inland = |c: CellIdx| {
        let (x, y) = board.xy(c);
        let (x, y) = (x as i32, y as i32);
        x >= margin && y >= margin && x < w - margin && y < d - margin
    };
    for strict in [true, false] {
        out.extend(
            (0..board.len() as CellIdx).filter(|&c| free(c) && (!strict || inland(c))).map(Action::Deploy),
        );
        if !out.is_empty() {
            return;
        }
    }
}

/// Apply a decision of the card AI's steps.
pub(super) fn decide(state: &mut GameState, step: EnemyStep, action: Action) {
    match (step, action) {
        (EnemyStep::Place { model, .. }, Action::Deploy(cell)) => {
            let c = *state.board().cell(cell);
            let m = &mut state.dyn_.models[model as usize];
            m.cell = cell;
            m.z = c.height;
            m.stance = if c.terrain == Terrain::Water { Stance::Swimming } else { Stance::Standing };
            m.health = Health::Conscious;
        }
        (step, action) => unreachable!("validated action {action:?} at {step:?}"),
    }
}
