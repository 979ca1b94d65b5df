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

use super::action::CombatKind;
use super::dinosaur_step::EnemyStep;
use super::spawning::{new_ai_model, place_model, spawn_cell, table_outcomes, NOISE_RANGE};
use super::step::Step;
use super::{Action, GameState, ModelId, Side};
use crate::board::CellIdx;
use crate::uc::game::AI_SIDE;

/// The placement steps of a game with `dinos` AI models and `ambush` ambush markers, in the
/// order they happen: for each, a roll (on the spawn table, or for the marker's kind) then a
/// placement, the players taking turns, side A first, the AI models before the markers
/// (docs/rulings.md).
pub(crate) fn placement_steps(dinos: u8, ambush: u8) -> Vec<Step> {
    (0..dinos as u16 + ambush as u16)
        .map(|i| {
            let chooser = (i % 2) as Side;
            Step::Enemy(if i < dinos as u16 {
                EnemyStep::RollPlacement { chooser }
            } else {
                EnemyStep::RollMarker { chooser }
            })
        })
        .collect()
}

/// Outcomes of a chance step of the card AI.
pub(super) fn chance_outcomes(state: &GameState, step: &EnemyStep) -> Vec<(Action, f64)> {
    match step {
        EnemyStep::RollPlacement { .. } | EnemyStep::Spawn { .. } | EnemyStep::Ambush { .. } => {
            table_outcomes(state, step_table(state, step))
                .iter()
                .enumerate()
                .map(|(i, &(_, p))| (Action::Chance(i as u8), p))
                .collect()
        }
        EnemyStep::RollMarker { .. } => super::ambush::kind_outcomes(state),
        EnemyStep::Draw { model } => {
            let n = drawable(state, *model).count();
            (0..n).map(|i| (Action::Chance(i as u8), 1.0 / n as f64)).collect()
        }
        _ => Vec::new(),
    }
}

/// The spawn table a spawning step rolls on: an ambush marker's own, else the game's.
pub(super) fn step_table(state: &GameState, step: &EnemyStep) -> u8 {
    match step {
        EnemyStep::Ambush { table, .. } => *table,
        _ => state.stat.uc.as_ref().expect("spawns need the UC data").spawn_table,
    }
}

/// The cards model `m`'s deck can deal now: (deck index, card indices).
pub(super) fn drawable(state: &GameState, m: ModelId) -> impl Iterator<Item = u8> {
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
        EnemyStep::MoveReaction { model, trigger } => {
            !state.dyn_.models[*model as usize].is_conscious()
                || !state.dyn_.models[*trigger as usize].is_conscious()
        }
        EnemyStep::NoiseReaction { model, .. } => !state.dyn_.models[*model as usize].is_conscious(),
        // Spawns made impossible since they were due (the collection used up, the cell taken).
        EnemyStep::Spawn { near } => spawn_cell(state, *near).is_none(),
        EnemyStep::Ambush { cell, .. } => super::ambush::spawn_blocked(state, *cell),
        EnemyStep::AmbushReaction { model, trigger } => {
            !state.dyn_.models[*model as usize].is_conscious()
                || !state.dyn_.models[*trigger as usize].is_conscious()
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
        EnemyStep::AnswerAttack => answer_attack(state),
        EnemyStep::MoveReaction { model, trigger } => move_reaction(state, model, trigger),
        EnemyStep::NoiseReaction { model, maker, source } => noise_reaction(state, model, maker, source),
        EnemyStep::AmbushReaction { model, trigger } => ambush_reaction(state, model, trigger),
        EnemyStep::ReactionAct { model, trigger, charged } => {
            state.dyn_.uc.reacting = false;
            if !charged {
                strike(
                    state,
                    model,
                    |a| matches!(a, Action::CloseCombat { target, .. } if *target == trigger),
                );
            }
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
    // The noise's spawn comes first, after the order is fixed: it draws no card this phase.
    let spawn = state.dyn_.uc.noise.take().filter(|&near| spawn_cell(state, near).is_some());
    for &(_, _, model) in order.iter().rev() {
        // A confused model discards a token instead of drawing (seed 003, "Negative
        // conditions").
        if !state.dyn_.uc.discard_confusion(model) {
            state.dyn_.steps.push(Step::Enemy(EnemyStep::Draw { model }));
        }
    }
    if let Some(near) = spawn {
        state.dyn_.steps.push(Step::Enemy(EnemyStep::Spawn { near }));
    }
    // Markers that heard a noise flip (or spring) before the noise's spawn.
    super::ambush::enemy_phase(state);
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
    // The card's elite `heal N`: N wounds back as it is drawn, never above the model's
    // starting wounds (seed 003, "Enemy phase"; ruling 134).
    if let Some(crate::uc::data::EliteEffect::Heal(n)) =
        uc.data.decks[deck as usize].cards[card as usize].elite
    {
        if elite(state, model) {
            let max = state.profile(model).wounds;
            let m = &mut state.dyn_.models[model as usize];
            m.wounds = m.wounds.saturating_add(n).min(max);
        }
    }
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
    // The card's elite `damage +N` on its charge (seed 003, "Enemy phase"; ruling 134).
    state.dyn_.uc.card_damage = match c.elite {
        Some(crate::uc::data::EliteEffect::Damage(n)) if elite(state, model) => n,
        _ => 0,
    };
    state.dyn_.uc.frenzy = false;
    state.dyn_.uc.amber = bx.colour == crate::uc::data::MoveColour::Amber;
    state.dyn_.uc.red = bx.colour == crate::uc::data::MoveColour::Red;
    let mut charged = false;
    if state.dyn_.uc.move_inches > 0 {
        if let Some(action) = choose_move(state, model, bx, None) {
            charged = matches!(action, Action::Charge { .. });
            state.dyn_.steps.push(Step::Enemy(EnemyStep::Act { model, card, index, again, charged }));
            super::declare::declare(state, model, action);
            return;
        }
    }
    state.dyn_.steps.push(Step::Enemy(EnemyStep::Act { model, card, index, again, charged }));
}

/// The move a box makes (seed 003, "Movement (enemy)"): towards the nearest position where
/// its act can be done — a charge when the act is close combat and an enemy is in reach —
/// by the shortest route, in cover from the nearest enemy where that ties; nearer the nearest
/// enemy when no reachable position will do. The model must move if it can.
/// `focus` replaces the nearest player model as the one to move against (a reaction's
/// trigger).
fn choose_move(
    state: &GameState,
    m: ModelId,
    bx: crate::uc::data::ActionBox,
    focus: Option<ModelId>,
) -> Option<Action> {
    use crate::uc::data::{BoxAct, TargetSymbol};
    let nearest = focus.or_else(|| nearest_enemy(state, m))?;
    let want =
        super::legal::Want { moves: true, crawls: false, shots: false, charges: true, interacts: false };
    let mut options = Vec::new();
    super::legal::model_actions(state, m, want, &mut options);
    let here = state.dyn_.models[m as usize].cell;
    // Path lengths of the reachable cells.
    let (spec, _) = super::move_resolution::move_spec(state, m, false);
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
                    super::declare::close_combat_attr(state, m, t, w, true, false)
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
                            super::declare::shot(
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
    let c = card_of(state, model, card);
    let bx = c.boxes[index as usize];
    // The card's elite `damage +N` on its attacks (seed 003, "Enemy phase"; ruling 134).
    state.dyn_.uc.card_damage = match c.elite {
        Some(crate::uc::data::EliteEffect::Damage(n)) if elite(state, model) => n,
        _ => 0,
    };
    match bx.act {
        BoxAct::Shoot => strike(state, model, |a| matches!(a, Action::Shoot { .. })),
        BoxAct::CloseCombat if !charged => strike(state, model, |a| matches!(a, Action::CloseCombat { .. })),
        _ => {}
    }
}

/// Declare the shot or blow among those `wanted` that is worst for its target (the
/// likeliest to land, then the first in action order), if there is one.
fn strike(state: &mut GameState, model: ModelId, wanted: impl Fn(&Action) -> bool) {
    let mut options = Vec::new();
    let want =
        super::legal::Want { moves: false, crawls: false, shots: true, charges: false, interacts: false };
    super::legal::model_actions(state, model, want, &mut options);
    let chance = |a: &Action| -> i32 {
        match *a {
            Action::Shoot { weapon, target } => {
                let (sp, tp) = (state.pose(model), state.pose(target));
                super::declare::shot(state, model, sp, weapon, target, tp, super::RollRole::Main, 0)
                    .map_or(0, |r| r.attr as i32)
            }
            Action::CloseCombat { weapon, target } => {
                super::declare::close_combat_attr(state, model, target, weapon, false, false) as i32
            }
            _ => -1,
        }
    };
    let best =
        options.iter().filter(|a| wanted(a)).max_by(|a, b| chance(a).cmp(&chance(b)).then(b.cmp(a))).copied();
    if let Some(action) = best {
        super::declare::declare(state, model, action);
    }
}

/// An AI model attacked by a player's model answers (no AP needed, one answer per action):
/// shot at, it shoots back if its profile says so and it can, else dodges; struck or
/// charged, it fights back if it can reach, else dodges (seed 003, "Shoot (player)", "Close
/// combat (player)": "they will close combat if able; otherwise they will dodge").
fn answer_attack(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("an attack under way");
    let Some(ai) = super::declare::attacked_ai(state, seq.declared) else { return };
    if !state.dyn_.models[ai as usize].is_conscious() || seq.has_reacted(ai) {
        return;
    }
    // A confused model discards a token instead of reacting.
    if state.dyn_.uc.discard_confusion(ai) {
        return;
    }
    let shot_at = matches!(seq.declared, Action::Shoot { .. });
    let uc = state.stat.uc.clone().expect("an AI model needs the UC data");
    let shoots_back = uc
        .enemy(&state.dyn_.models[ai as usize])
        .is_some_and(|e| e.when_shot == crate::uc::data::WhenShot::ShootBack);
    let mut options = Vec::new();
    super::legal::reaction_options(state, AI_SIDE, Some(ai), false, &mut options, None);
    let kind = |a: &Action| match a {
        Action::React { kind, .. } => Some(*kind),
        _ => None,
    };
    let answer =
        |pred: &dyn Fn(CombatKind) -> bool| options.iter().copied().find(|a| kind(a).is_some_and(pred));
    let choice = if shot_at {
        shoots_back.then(|| answer(&|k| matches!(k, CombatKind::Shoot { .. }))).flatten()
    } else {
        answer(&|k| matches!(k, CombatKind::CloseCombat { .. }))
    }
    .or_else(|| answer(&|k| k == CombatKind::Dodge));
    if let Some(action) = choice {
        super::declare::add_combat(state, action);
    }
}

/// After a player's move: the AI models whose movement reaction range the mover entered at
/// some point of its path react, left to right (seed 003, "Enemy reactions vs movement": the
/// order is the players' choice in UC). Models in base contact with a player model, and
/// movers with a stealth token, trigger nothing; a reaction is never reacted to.
pub(super) fn movement_reactions(state: &mut GameState, seq: &super::Sequence, stealthed: bool) {
    let Some(uc) = state.stat.uc.clone() else { return };
    let mover = seq.actor;
    let mm = &state.dyn_.models[mover as usize];
    if mm.side == AI_SIDE || !seq.has_path() || stealthed || !mm.is_conscious() {
        return;
    }
    // A charge's target answers it with close combat, not with a movement reaction (seed 003,
    // "Charge").
    let charged = match seq.declared {
        Action::Charge { target, .. } => Some(target),
        _ => None,
    };
    let board = state.board();
    let reached = &seq.path.points[..(seq.reached as usize).min(seq.path.points.len())];
    let mut reacting: Vec<(u8, u8, ModelId)> = Vec::new();
    for (i, m) in state.dyn_.models.iter().enumerate() {
        let Some(e) = uc.enemy(m) else { continue };
        if m.side != AI_SIDE
            || !m.is_conscious()
            || charged == Some(i as ModelId)
            || e.movement_reaction == crate::uc::data::EnemyReaction::Ignore
        {
            continue;
        }
        let entered =
            reached.iter().any(|p| board.ground_distance(p.cell, m.cell) <= e.reaction_range as f32);
        if entered && !engaged_with_player(state, i as ModelId) {
            let (x, y) = board.xy(m.cell);
            reacting.push((x, y, i as ModelId));
        }
    }
    reacting.sort_unstable();
    for &(_, _, model) in reacting.iter().rev() {
        state.dyn_.steps.push(Step::Enemy(EnemyStep::MoveReaction { model, trigger: mover }));
    }
}

/// Whether AI model `m` is in base contact with a conscious player model: it then reacts
/// neither to movement nor to noise (seed 003, "Enemy reactions vs movement").
fn engaged_with_player(state: &GameState, m: ModelId) -> bool {
    state
        .dyn_
        .models
        .iter()
        .enumerate()
        .any(|(o, om)| om.side != AI_SIDE && om.is_conscious() && state.in_contact(m, o as ModelId))
}

/// A movement reaction by the AI model's profile (see [`react`]).
fn move_reaction(state: &mut GameState, model: ModelId, trigger: ModelId) {
    let uc = state.stat.uc.clone().expect("an AI model needs the UC data");
    let Some(e) = uc.enemy(&state.dyn_.models[model as usize]) else { return };
    react(state, model, trigger, e.movement_reaction, None);
}

/// A noise reaction by the AI model's profile (see [`react`]).
fn noise_reaction(state: &mut GameState, model: ModelId, maker: ModelId, source: CellIdx) {
    let uc = state.stat.uc.clone().expect("an AI model needs the UC data");
    let Some(e) = uc.enemy(&state.dyn_.models[model as usize]) else { return };
    react(state, model, maker, e.noise_reaction, Some(source));
}

/// An AI model's reaction to `trigger`: a charge (a move of its nailed-it speed towards base
/// contact with it, then a blow), a shot at it, or (`Investigate`) a move of its nailed-it
/// speed towards `source`, the noise, without attacking. A confused model discards a token
/// instead (seed 003, "Negative conditions"). No one reacts to any of these.
pub(super) fn react(
    state: &mut GameState,
    model: ModelId,
    trigger: ModelId,
    reaction: crate::uc::data::EnemyReaction,
    source: Option<CellIdx>,
) {
    use crate::uc::data::EnemyReaction;
    // A reaction follows no movement symbol: its dynamic movement is tested (green).
    state.dyn_.uc.amber = false;
    state.dyn_.uc.red = false;
    if state.dyn_.uc.discard_confusion(model) {
        return;
    }
    match reaction {
        EnemyReaction::Shoot => {
            // The step below only ends the reaction once the shot is resolved.
            state.dyn_.steps.push(Step::Enemy(EnemyStep::ReactionAct { model, trigger, charged: true }));
            state.dyn_.uc.reacting = true;
            strike(state, model, |a| matches!(a, Action::Shoot { target, .. } if *target == trigger));
        }
        EnemyReaction::Charge => {
            state.dyn_.uc.reacting = true;
            state.dyn_.uc.move_inches = state.profile(model).speed.1;
            let want = super::legal::Want {
                moves: true,
                crawls: false,
                shots: false,
                charges: true,
                interacts: false,
            };
            let mut options = Vec::new();
            super::legal::model_actions(state, model, want, &mut options);
            let charge = options
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Charge { target, .. } if *target == trigger));
            let action = charge.or_else(|| {
                let bx = crate::uc::data::ActionBox {
                    colour: crate::uc::data::MoveColour::Green,
                    inches: state.dyn_.uc.move_inches,
                    target: crate::uc::data::TargetSymbol::CloseCombat,
                    act: crate::uc::data::BoxAct::CloseCombat,
                };
                choose_move(state, model, bx, Some(trigger))
            });
            let charged = matches!(action, Some(Action::Charge { .. }));
            state.dyn_.steps.push(Step::Enemy(EnemyStep::ReactionAct { model, trigger, charged }));
            if let Some(action) = action {
                super::declare::declare(state, model, action);
            }
        }
        EnemyReaction::Investigate => {
            let Some(source) = source else { return };
            state.dyn_.uc.move_inches = state.profile(model).speed.1;
            let Some(action) = move_toward(state, model, source) else { return };
            state.dyn_.uc.reacting = true;
            // Ends the reaction (no attack follows).
            state.dyn_.steps.push(Step::Enemy(EnemyStep::ReactionAct { model, trigger, charged: true }));
            super::declare::declare(state, model, action);
        }
        EnemyReaction::Ignore => {}
    }
}

/// The move of model `m` (within the AI move under way's inches) that ends nearest `cell`,
/// then by the shortest path, then the lowest cell index; none when it cannot move closer.
fn move_toward(state: &GameState, m: ModelId, cell: CellIdx) -> Option<Action> {
    let want =
        super::legal::Want { moves: true, crawls: false, shots: false, charges: false, interacts: false };
    let mut options = Vec::new();
    super::legal::model_actions(state, m, want, &mut options);
    let board = state.board();
    let d = |c: CellIdx| board.ground_distance(c, cell);
    let here = state.dyn_.models[m as usize].cell;
    options
        .into_iter()
        .filter_map(|a| match a {
            Action::Move { dest, prone: false } if d(dest) < d(here) => Some((dest, a)),
            _ => None,
        })
        .min_by(|x, y| d(x.0).total_cmp(&d(y.0)).then(x.0.cmp(&y.0)))
        .map(|(_, a)| a)
}

/// The noises a finished sequence made (seed 003, Conversion, "Noise": every ranged weapon
/// without Primitive or Natural; a template's noise comes from its centre): (where, maker)
/// for every player model's shot or template. AI models' own weapons make none.
pub(super) fn noises(state: &GameState, seq: &super::Sequence) -> Vec<(CellIdx, ModelId)> {
    use crate::profile::WeaponProperty;
    let mut out = Vec::new();
    for r in seq.rolls.iter().filter(|r| !r.cancelled) {
        let weapon = match r.kind {
            CombatKind::Shoot { weapon } | CombatKind::Template { weapon } => weapon,
            _ => continue,
        };
        if state.dyn_.models[r.model as usize].side == AI_SIDE {
            continue;
        }
        let w = &state.profile(r.model).weapons[weapon as usize];
        if w.has(WeaponProperty::Primitive) || w.has(WeaponProperty::Natural) {
            continue;
        }
        let template = seq.templates.iter().find(|t| t.firer == r.model && t.weapon == weapon && t.landed);
        let at = template.map_or_else(|| super::declare::roll_cell(state, seq, r), |t| t.at);
        out.push((at, r.model));
    }
    out
}

/// After a player's sequence that made noises: every conscious AI model within
/// [`NOISE_RANGE`] of one, not in base contact with a player model, performs its noise
/// reaction against the nearest noise, left to right; these come after every other reaction
/// (pushed beneath the movement reactions).
pub(super) fn noise_reactions(state: &mut GameState, noises: &[(CellIdx, ModelId)]) {
    let Some(uc) = state.stat.uc.clone() else { return };
    if noises.is_empty() {
        return;
    }
    let board = state.board();
    let mut reacting: Vec<(u8, u8, EnemyStep)> = Vec::new();
    for (i, m) in state.dyn_.models.iter().enumerate() {
        let Some(e) = uc.enemy(m) else { continue };
        if m.side != AI_SIDE
            || !m.is_conscious()
            || e.noise_reaction == crate::uc::data::EnemyReaction::Ignore
        {
            continue;
        }
        let d = |c: CellIdx| board.ground_distance(c, m.cell);
        let nearest =
            noises.iter().filter(|(c, _)| d(*c) <= NOISE_RANGE).min_by(|a, b| d(a.0).total_cmp(&d(b.0)));
        if let (Some(&(source, maker)), false) = (nearest, engaged_with_player(state, i as ModelId)) {
            let (x, y) = board.xy(m.cell);
            reacting.push((x, y, EnemyStep::NoiseReaction { model: i as ModelId, maker, source }));
        }
    }
    reacting.sort_unstable_by_key(|&(x, y, _)| (x, y));
    for &(_, _, step) in reacting.iter().rev() {
        state.dyn_.steps.push(Step::Enemy(step));
    }
}

/// Apply a chance outcome: a drawn card, a rolled AI model that joins the game off the table
/// until placed, or one a noise brings, placed at once.
pub(super) fn chance(state: &mut GameState, step: EnemyStep, outcome: u8) {
    let chooser = match step {
        EnemyStep::RollPlacement { chooser } => chooser,
        EnemyStep::Draw { model } => return draw(state, model, outcome),
        EnemyStep::Spawn { near } => {
            let cell = spawn_cell(state, near).expect("skipped when there is no spawn point");
            let model = new_ai_model(state, step_table(state, &step), outcome);
            place_model(state, model, cell);
            return;
        }
        EnemyStep::RollMarker { chooser } => {
            state.dyn_.steps.push(Step::Enemy(EnemyStep::PlaceMarker { kind: outcome, chooser }));
            return;
        }
        EnemyStep::Ambush { cell, table, trigger, confusion } => {
            return super::ambush::arrive(state, cell, table, trigger, confusion, outcome);
        }
        other => unreachable!("{other:?} is not a roll"),
    };
    let model = new_ai_model(state, step_table(state, &step), outcome);
    state.dyn_.steps.push(Step::Enemy(EnemyStep::Place { model, chooser }));
}

/// Apply a decision of the card AI's steps.
pub(super) fn decide(state: &mut GameState, step: EnemyStep, action: Action) {
    match (step, action) {
        (EnemyStep::Place { model, .. }, Action::Deploy(cell)) => place_model(state, model, cell),
        (EnemyStep::PlaceMarker { kind, .. }, Action::Deploy(cell)) => {
            super::ambush::place(state, kind, cell)
        }
        (step, action) => unreachable!("validated action {action:?} at {step:?}"),
    }
}

/// The ambush reaction of a model that sprang from a marker, by its profile; no one reacts to
/// it.
pub(super) fn ambush_reaction(state: &mut GameState, model: ModelId, trigger: ModelId) {
    let uc = state.stat.uc.clone().expect("an AI model needs the UC data");
    let Some(e) = uc.enemy(&state.dyn_.models[model as usize]) else { return };
    let source = state.dyn_.models[trigger as usize].cell;
    react(state, model, trigger, e.ambush_reaction, Some(source));
}
