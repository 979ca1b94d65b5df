//! The card AI's side of a game with Ulaya Chronicles dinosaurs ("The Drowned Earth
//! Conversion", seed 003): the AI models the players place before deployment, and the enemy
//! phase in which each draws a card and resolves its boxes.
//!
//! A box "move up to N inches towards a target symbol, then act" becomes the TDE actions the
//! rules allow the model (its legal moves, charges, shots and blows, with a move budget of N
//! inches): the move goes to the reachable point nearest by path where the act can be done
//! (or, failing any, nearest the nearest enemy), and the act picks the option worst for the
//! model it is made against. The players react to these actions as to any enemy's.
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
    /// Automatic: the enemy phase begins: the decks are shuffled and every AI model on the
    /// table draws a card, left to right (top to bottom breaking ties).
    Phase,
    /// Chance: the card AI model `model` draws (uniform over its deck's cards not yet drawn);
    /// skipped when the model is no longer conscious.
    Draw {
        /// The AI model.
        model: ModelId,
    },
    /// Automatic: box `index` of card `card` of the model's deck: its move.
    Box {
        /// The AI model.
        model: ModelId,
        /// The card (index in the model's deck).
        card: u8,
        /// The box (index in the card).
        index: u8,
        /// This is the second resolution after a frenzy.
        again: bool,
    },
    /// Automatic: the act of the box, after its move.
    Act {
        /// The AI model.
        model: ModelId,
        /// The card (index in the model's deck).
        card: u8,
        /// The box (index in the card).
        index: u8,
        /// This is the second resolution after a frenzy.
        again: bool,
        /// The move was a charge: its blow was the act.
        charged: bool,
    },
}

impl EnemyStep {
    /// Whether the step is a die roll.
    pub(super) fn is_chance(&self) -> bool {
        matches!(self, EnemyStep::RollPlacement { .. } | EnemyStep::Draw { .. })
    }

    /// Whether the step waits for a roll or a decision (the others run on their own).
    pub(super) fn waits(&self) -> bool {
        matches!(self, EnemyStep::RollPlacement { .. } | EnemyStep::Place { .. } | EnemyStep::Draw { .. })
    }

    /// One-line description in words.
    pub(super) fn describe(&self, state: &GameState) -> String {
        let side = |s: &Side| format!("side {}", (b'A' + s.min(&25)) as char);
        match self {
            EnemyStep::RollPlacement { .. } => "roll on the spawn table for the next AI model".into(),
            EnemyStep::Place { model, chooser } => {
                format!("{} places {}", side(chooser), crate::render::model_name(state, *model))
            }
            EnemyStep::Phase => "the enemy phase".into(),
            EnemyStep::Draw { model } => {
                format!("{} draws an action card", crate::render::model_name(state, *model))
            }
            EnemyStep::Box { model, .. } | EnemyStep::Act { model, .. } => {
                format!("{} resolves its card", crate::render::model_name(state, *model))
            }
        }
    }

    /// The side deciding at this step (chance steps have none).
    pub(super) fn chooser(&self) -> Option<Side> {
        match self {
            EnemyStep::Place { chooser, .. } => Some(*chooser),
            _ => None,
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
        EnemyStep::Draw { model } => {
            let n = drawable(state, *model).count();
            (0..n).map(|i| (Action::Chance(i as u8), 1.0 / n as f64)).collect()
        }
        _ => Vec::new(),
    }
}

/// The cards model `m`'s deck can deal now: (deck index, card indices).
fn drawable(state: &GameState, m: ModelId) -> impl Iterator<Item = u8> {
    let uc = state.stat.uc.as_ref().expect("an AI model needs the UC data");
    let deck = uc.deck_of_model(&state.dyn_.models[m as usize]).expect("an AI model has a deck");
    state.dyn_.uc.drawable(deck, uc.data.decks[deck as usize].cards.len())
}

/// Whether an enemy-phase step is void: its model has been taken out or left the table.
pub(super) fn skipped(state: &GameState, step: &EnemyStep) -> bool {
    match step {
        EnemyStep::Draw { model } | EnemyStep::Box { model, .. } | EnemyStep::Act { model, .. } => {
            !state.dyn_.models[*model as usize].is_conscious()
        }
        _ => false,
    }
}

/// Run an automatic step of the card AI.
pub(super) fn run(state: &mut GameState, step: EnemyStep) {
    match step {
        EnemyStep::Phase => phase(state),
        EnemyStep::Box { model, card, index, again } => move_box(state, model, card, index, again),
        EnemyStep::Act { model, card, index, again, charged } => {
            act(state, model, card, index, again, charged)
        }
        other => unreachable!("{other:?} is not automatic"),
    }
}

/// The enemy phase: decks shuffled (the UC start phase; nothing draws between it and this
/// phase), then one draw per AI model on the table, left to right, top to bottom breaking
/// ties (seed 003, "Enemy phase").
fn phase(state: &mut GameState) {
    state.dyn_.uc.shuffle();
    let board = state.board();
    let mut order: Vec<(u8, u8, ModelId)> = state
        .dyn_
        .models
        .iter()
        .enumerate()
        .filter(|(_, m)| m.side == AI_SIDE && m.is_conscious())
        .map(|(i, m)| {
            let (x, y) = board.xy(m.cell);
            (x, y, i as ModelId)
        })
        .collect();
    order.sort_unstable();
    for &(_, _, model) in order.iter().rev() {
        state.dyn_.steps.push(Step::Enemy(EnemyStep::Draw { model }));
    }
}

/// The card's boxes, to resolve in order.
fn card_of(state: &GameState, m: ModelId, card: u8) -> crate::uc::data::ActionCard {
    let uc = state.stat.uc.as_ref().expect("an AI model needs the UC data");
    let deck = uc.deck_of_model(&state.dyn_.models[m as usize]).expect("an AI model has a deck");
    uc.data.decks[deck as usize].cards[card as usize].clone()
}

/// Whether AI model `m` is elite (its card's elite effect applies).
fn elite(state: &GameState, m: ModelId) -> bool {
    let uc = state.stat.uc.as_ref().expect("an AI model needs the UC data");
    uc.enemy(&state.dyn_.models[m as usize]).is_some_and(|e| e.elite)
}

/// Apply a drawn card: it goes to the discard pile and its boxes wait their turn.
fn draw(state: &mut GameState, model: ModelId, outcome: u8) {
    let card = drawable(state, model).nth(outcome as usize).expect("a drawable card");
    let uc = state.stat.uc.clone().expect("an AI model needs the UC data");
    let deck = uc.deck_of_model(&state.dyn_.models[model as usize]).expect("an AI model has a deck");
    state.dyn_.uc.draw(deck, uc.data.decks[deck as usize].cards.len(), card);
    let boxes = uc.data.decks[deck as usize].cards[card as usize].boxes.len();
    for index in (0..boxes as u8).rev() {
        state.dyn_.steps.push(Step::Enemy(EnemyStep::Box { model, card, index, again: false }));
    }
}

/// The nearest conscious player model to `m` (by distance, then index), if any.
fn nearest_enemy(state: &GameState, m: ModelId) -> Option<ModelId> {
    (0..state.dyn_.models.len() as ModelId)
        .filter(|&o| {
            let om = &state.dyn_.models[o as usize];
            om.side != AI_SIDE && om.is_conscious()
        })
        .min_by(|&a, &b| state.distance(m, a).total_cmp(&state.distance(m, b)).then(a.cmp(&b)))
}

/// The move of a box: declared as a TDE move or charge of at most the box's inches, unless the
/// model cannot move or has nowhere to go; its act follows.
fn move_box(state: &mut GameState, model: ModelId, card: u8, index: u8, again: bool) {
    let c = card_of(state, model, card);
    let bx = c.boxes[index as usize];
    let bonus = match c.elite {
        Some(crate::uc::data::EliteEffect::Move(n)) if elite(state, model) => n,
        _ => 0,
    };
    state.dyn_.uc.move_inches = bx.inches.saturating_add(bonus);
    state.dyn_.uc.frenzy = false;
    let mut charged = false;
    if state.dyn_.uc.move_inches > 0 {
        if let Some(action) = choose_move(state, model, bx) {
            charged = matches!(action, Action::Charge { .. });
            state.dyn_.steps.push(Step::Enemy(EnemyStep::Act { model, card, index, again, charged }));
            super::sequence::declare(state, model, action);
            return;
        }
    }
    state.dyn_.steps.push(Step::Enemy(EnemyStep::Act { model, card, index, again, charged }));
}

/// The move a box makes (seed 003, "Movement (enemy)"): towards the nearest position where
/// its act can be done — a charge when the act is close combat and an enemy is in reach —
/// by the shortest route, in cover from the nearest enemy where that ties; nearer the nearest
/// enemy when no reachable position will do. The model must move if it can.
fn choose_move(state: &GameState, m: ModelId, bx: crate::uc::data::ActionBox) -> Option<Action> {
    use crate::uc::data::{BoxAct, TargetSymbol};
    let nearest = nearest_enemy(state, m)?;
    let want =
        super::legal::Want { moves: true, crawls: false, shots: false, charges: true, interacts: false };
    let mut options = Vec::new();
    super::legal::model_actions(state, m, want, &mut options);
    let here = state.dyn_.models[m as usize].cell;
    // Path lengths of the reachable cells.
    let (spec, _) = super::moving::move_spec(state, m, false);
    let occ = super::MoverOccupancy { state, mover: m };
    let mut cost = std::collections::HashMap::new();
    crate::movement::reachable(state.board(), &occ, &spec, |r| {
        cost.insert(r.cell, r.cost);
    });
    if bx.act == BoxAct::CloseCombat && bx.target == TargetSymbol::CloseCombat {
        // The charge worst for its target: the likeliest blow, then the nearest.
        let charge = options
            .iter()
            .filter_map(|&a| match a {
                Action::Charge { target, weapon, dest } => Some((a, target, weapon, dest)),
                _ => None,
            })
            .max_by(|x, y| {
                let attr = |&(_, t, w, _): &(Action, ModelId, u8, CellIdx)| {
                    super::sequence::close_combat_attr(state, m, t, w, true, false)
                };
                attr(x).cmp(&attr(y)).then(cost.get(&y.3).cmp(&cost.get(&x.3))).then(y.0.cmp(&x.0))
            });
        if let Some((action, ..)) = charge {
            return Some(action);
        }
    }
    let dests: Vec<CellIdx> = options
        .iter()
        .filter_map(|&a| match a {
            Action::Move { dest, prone: false } if dest != here => Some(dest),
            _ => None,
        })
        .collect();
    if dests.is_empty() {
        return None;
    }
    let pose_at = |cell: CellIdx| {
        let p = crate::movement::PathPoint {
            cell,
            z: state.board().cell(cell).height,
            cost: 0,
            rest: true,
            kind: crate::movement::StepKind::Normal,
        };
        state.path_pose(m, &p, false)
    };
    let players: Vec<ModelId> = (0..state.dyn_.models.len() as ModelId)
        .filter(|&o| {
            state.dyn_.models[o as usize].side != AI_SIDE && state.dyn_.models[o as usize].is_conscious()
        })
        .collect();
    // How well a cell does what the symbol asks (higher is better), or None when it does not.
    let goal = |cell: CellIdx| -> Option<i32> {
        let pose = pose_at(cell);
        let seen_by = |o: ModelId| state.sight_between(o, state.pose(o), m, pose);
        match bx.target {
            TargetSymbol::Shoot => {
                let weapons = state.profile(m).weapons.len() as u8;
                players
                    .iter()
                    .any(|&t| {
                        (0..weapons).any(|w| {
                            super::sequence::shot(
                                state,
                                m,
                                pose,
                                w,
                                t,
                                state.pose(t),
                                super::RollRole::Main,
                                0,
                            )
                            .is_some()
                        })
                    })
                    .then_some(0)
            }
            TargetSymbol::CloseCombat => {
                state.touches_enemy(AI_SIDE, cell, state.board().cell(cell).height, Some(m)).then_some(0)
            }
            TargetSymbol::BreakLos => {
                let seen = players.iter().filter(|&&o| seen_by(o).is_some_and(|s| s.sight.visible)).count();
                (seen_by(nearest).is_none_or(|s| !s.sight.visible)).then_some(-(seen as i32))
            }
            TargetSymbol::Cover => {
                let covered = |o: ModelId| {
                    seen_by(o).is_none_or(|s| !s.sight.visible || s.sight.hard_cover || s.sight.soft_cover)
                };
                covered(nearest).then(|| players.iter().filter(|&&o| covered(o)).count() as i32)
            }
        }
    };
    let in_cover = |cell: CellIdx| {
        state
            .sight_between(nearest, state.pose(nearest), m, pose_at(cell))
            .is_none_or(|s| s.sight.hard_cover || s.sight.soft_cover)
    };
    let path = |cell: CellIdx| cost.get(&cell).copied().unwrap_or(u16::MAX);
    let best = dests
        .iter()
        .filter_map(|&c| goal(c).map(|g| (c, g)))
        .max_by(|a, b| {
            a.1.cmp(&b.1)
                .then(path(b.0).cmp(&path(a.0)))
                .then(in_cover(a.0).cmp(&in_cover(b.0)))
                .then(b.0.cmp(&a.0))
        })
        .map(|(c, _)| c);
    let target_cell = state.dyn_.models[nearest as usize].cell;
    let toward = || {
        let board = state.board();
        let d = |c: CellIdx| {
            let ((x, y), (tx, ty)) = (board.xy(c), board.xy(target_cell));
            (x as i32 - tx as i32).pow(2) + (y as i32 - ty as i32).pow(2)
        };
        dests.iter().copied().min_by(|&a, &b| d(a).cmp(&d(b)).then(path(a).cmp(&path(b))).then(a.cmp(&b)))
    };
    best.or_else(toward).map(|dest| Action::Move { dest, prone: false })
}

/// The act of a box: a shot or a blow at the model it is worst for, or nothing; after a
/// frenzy in its move the whole box is resolved once more.
fn act(state: &mut GameState, model: ModelId, card: u8, index: u8, again: bool, charged: bool) {
    use crate::uc::data::BoxAct;
    if std::mem::take(&mut state.dyn_.uc.frenzy) && !again {
        state.dyn_.steps.push(Step::Enemy(EnemyStep::Box { model, card, index, again: true }));
    }
    let bx = card_of(state, model, card).boxes[index as usize];
    let mut options = Vec::new();
    let want = match bx.act {
        BoxAct::Shoot => {
            super::legal::Want { moves: false, crawls: false, shots: true, charges: false, interacts: false }
        }
        BoxAct::CloseCombat if !charged => {
            super::legal::Want { moves: false, crawls: false, shots: false, charges: false, interacts: false }
        }
        _ => return,
    };
    super::legal::model_actions(state, model, want, &mut options);
    let chance = |a: &Action| -> i32 {
        match *a {
            Action::Shoot { weapon, target } => super::sequence::shot(
                state,
                model,
                state.pose(model),
                weapon,
                target,
                state.pose(target),
                super::RollRole::Main,
                0,
            )
            .map_or(0, |r| r.attr as i32),
            Action::CloseCombat { weapon, target } => {
                super::sequence::close_combat_attr(state, model, target, weapon, false, false) as i32
            }
            _ => -1,
        }
    };
    let wanted = |a: &Action| match bx.act {
        BoxAct::Shoot => matches!(a, Action::Shoot { .. }),
        _ => matches!(a, Action::CloseCombat { .. }),
    };
    // The most disadvantageous for its target: the likeliest to hit, then the first.
    let best =
        options.iter().filter(|a| wanted(a)).max_by(|a, b| chance(a).cmp(&chance(b)).then(b.cmp(a))).copied();
    if let Some(action) = best {
        super::sequence::declare(state, model, action);
    }
}

/// Apply a chance outcome: a drawn card, or a rolled AI model that joins the game, off the
/// table until placed.
pub(super) fn chance(state: &mut GameState, step: EnemyStep, outcome: u8) {
    let chooser = match step {
        EnemyStep::RollPlacement { chooser } => chooser,
        EnemyStep::Draw { model } => return draw(state, model, outcome),
        other => unreachable!("{other:?} is not a roll"),
    };
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
