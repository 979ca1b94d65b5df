//! The procedure stack: turn structure (p.21) and the Declare → Test → Apply action sequence
//! (pp.22, 39 "Order of Activation Sequence Master List").
//!
//! Each [`Step`] is either automatic (executed as soon as it reaches the top of the stack), a
//! chance node (a die roll) or a decision node for one side. Declaring an action pushes the
//! steps of its sequence in reverse order; a test result may push further steps (an armour
//! roll, a choice of resting point, a dodge move). Wounds, feat AP and health changes wait in
//! the models' sequence accumulators until [`Step::EndSequence`] applies them all at once.

use super::chance::{test_table, wound_table};
use super::model::{Health, ModelId, Side, Stance};
use super::{Action, GameState, Player};
use crate::board::{CellIdx, Terrain};
use crate::dice::{clamp_attribute, TestLevel, TestOutcome};
use crate::movement::{self, MovePath, MoveSpec, Occupancy, ORTHO};
use crate::odds::armour_target;
use crate::profile::WeaponProperty;
use serde::{Deserialize, Serialize};

/// What a test decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// A dynamic movement (Agility) test.
    Movement,
    /// A Marksmanship or Close Combat test.
    Attack,
    /// A Dodge (Agility) test.
    Dodge,
}

/// One pending step of the procedure.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Automatic: initiative phase bookkeeping (pass tokens), then the roll-off.
    StartTurn,
    /// Chance: the initiative roll-off; outcome 0 = side A rolled lowest, 1 = side B (ties
    /// are re-rolled, so each has probability 1/2).
    RollOff,
    /// Decision for the roll-off loser: take or give the initiative.
    ChooseInitiative(Side),
    /// Automatic: grant AP to conscious models and start the activation phase.
    GrantAp,
    /// Decision for the active side: activate a model or discard a pass token. Handled
    /// automatically when the active side has nothing to activate.
    ChooseActivation,
    /// Decision for the active model's side: its next action, or ending its activation.
    ChooseAction(ModelId),
    /// Chance: an attribute test against an already-modified attribute.
    Test {
        /// The model testing.
        model: ModelId,
        /// Attribute after modifiers, 1..=9.
        attr: u8,
        /// What the result is for.
        purpose: Purpose,
    },
    /// Chance: an armour roll, outcome = number of wounds.
    Armour {
        /// The model rolling armour.
        model: ModelId,
        /// Number of dice (damage).
        damage: u8,
        /// Each die at or under this saves.
        target: u8,
    },
    /// Automatic: move the active model as far as its movement test allows.
    ResolveMove,
    /// Automatic: after a charge move, the close-combat test if the charger reached its target.
    ChargeStrike,
    /// Automatic: apply a shoot or close-combat test result.
    ResolveAttack,
    /// Automatic: apply a dodge test result.
    ResolveDodge,
    /// Decision for the mover, left in mid-leap by a Pass: rest back or fall.
    ChooseMidAir,
    /// Decision for the opponent after a movement Blunder: the point the model falls from.
    ChooseFallPoint {
        /// The side choosing.
        chooser: Side,
    },
    /// Decision for the dodger: where its dodge move ends.
    ChooseDodgeMove {
        /// The dodging model.
        model: ModelId,
        /// Allowance in tenths of an inch.
        budget: u8,
    },
    /// Automatic: apply wounds, health changes and feat AP, then continue the activation.
    EndSequence,
    /// Automatic: cleanup phase, then the next turn or the end of the game.
    Cleanup,
}

impl Step {
    /// One-line description for errors and logs.
    pub fn describe(&self) -> String {
        match self {
            Step::ChooseAction(m) => format!("choose an action for m{m}"),
            Step::ChooseActivation => "choose a model to activate".into(),
            Step::ChooseInitiative(s) => format!("side {s} takes or gives the initiative"),
            Step::Test { model, attr, purpose } => format!("m{model} tests {purpose:?} against {attr}"),
            Step::Armour { model, damage, target } => {
                format!("m{model} rolls {damage} armour dice against {target}")
            }
            other => format!("{other:?}"),
        }
    }
}

/// The action sequence under way.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Sequence {
    /// The active model.
    pub actor: ModelId,
    /// The declared action.
    pub declared: Action,
    /// Declared movement path (move and charge).
    pub path: MovePath,
    /// Crawling prone during the move.
    pub prone: bool,
    /// Stance-change cost paid out of the move, tenths of an inch.
    pub stance_cost: u16,
    /// Whether the charger started its move in water (no charge bonus).
    pub started_in_water: bool,
    /// Whether a shot's target is within the weapon's pass range.
    pub pass_range: bool,
    /// Whether a shot's target is in hard cover (+1 armour).
    pub hard_cover: bool,
    /// Movement test result.
    pub move_test: Option<TestOutcome>,
    /// Shoot or close-combat test result.
    pub attack_test: Option<TestOutcome>,
    /// Dodge test result.
    pub dodge_test: Option<TestOutcome>,
    /// Path index where a Pass left the model in mid-air.
    pub mid_air: Option<u8>,
}

impl Sequence {
    fn new(actor: ModelId, declared: Action) -> Sequence {
        Sequence {
            actor,
            declared,
            path: MovePath::default(),
            prone: false,
            stance_cost: 0,
            started_in_water: false,
            pass_range: false,
            hard_cover: false,
            move_test: None,
            attack_test: None,
            dodge_test: None,
            mid_air: None,
        }
    }
}

/// Which player acts at `step`.
pub(super) fn player_of(state: &GameState, step: &Step) -> Player {
    let d = &state.dyn_;
    match step {
        Step::RollOff | Step::Test { .. } | Step::Armour { .. } => Player::Chance,
        Step::ChooseInitiative(s) => Player::Side(*s),
        Step::ChooseActivation => Player::Side(d.active),
        Step::ChooseAction(m) | Step::ChooseDodgeMove { model: m, .. } => {
            Player::Side(d.models[*m as usize].side)
        }
        Step::ChooseMidAir => Player::Side(d.active),
        Step::ChooseFallPoint { chooser } => Player::Side(*chooser),
        // Automatic steps never rest on top of the stack after `advance`.
        _ => Player::Terminal,
    }
}

/// Outcomes of the chance node on top of the stack.
pub(super) fn chance_outcomes(state: &GameState) -> Vec<(Action, f64)> {
    match state.dyn_.steps.last() {
        Some(Step::RollOff) => vec![(Action::Chance(0), 0.5), (Action::Chance(1), 0.5)],
        Some(Step::Test { attr, .. }) => test_table(*attr, state.stat.variant.narrative_feats)
            .iter()
            .enumerate()
            .map(|(i, &(_, p))| (Action::Chance(i as u8), p))
            .collect(),
        Some(Step::Armour { damage, target, .. }) => wound_table(*damage, *target)
            .iter()
            .enumerate()
            .map(|(i, &p)| (Action::Chance(i as u8), p))
            .collect(),
        _ => Vec::new(),
    }
}

/// Run automatic steps until the top of the stack is a decision, a chance node or empty.
pub(super) fn advance(state: &mut GameState) {
    loop {
        let Some(step) = state.dyn_.steps.last().cloned() else {
            return;
        };
        match step {
            Step::RollOff
            | Step::Test { .. }
            | Step::Armour { .. }
            | Step::ChooseInitiative(_)
            | Step::ChooseAction(_)
            | Step::ChooseMidAir
            | Step::ChooseFallPoint { .. }
            | Step::ChooseDodgeMove { .. } => return,
            Step::ChooseActivation => {
                let active = state.dyn_.active;
                if has_eligible(state, active) {
                    return;
                }
                let other = other_side(active);
                if has_eligible(state, other) {
                    state.dyn_.active = other;
                    return;
                }
                state.dyn_.steps.pop();
                state.dyn_.steps.push(Step::Cleanup);
            }
            _ => {
                state.dyn_.steps.pop();
                run_auto(state, step);
            }
        }
    }
}

/// Apply a (validated) action to the step on top of the stack.
pub(super) fn apply(state: &mut GameState, action: Action) {
    let step = state.dyn_.steps.pop().expect("apply on a terminal state");
    match (step, action) {
        (Step::RollOff, Action::Chance(i)) => {
            state.dyn_.chance_events += 1;
            state.dyn_.steps.push(Step::ChooseInitiative(i));
        }
        (Step::Test { attr, purpose, .. }, Action::Chance(i)) => {
            state.dyn_.chance_events += 1;
            let outcome = test_table(attr, state.stat.variant.narrative_feats)[i as usize].0;
            let seq = state.dyn_.sequence.as_mut().expect("test outside a sequence");
            match purpose {
                Purpose::Movement => seq.move_test = Some(outcome),
                Purpose::Attack => seq.attack_test = Some(outcome),
                Purpose::Dodge => seq.dodge_test = Some(outcome),
            }
        }
        (Step::Armour { model, .. }, Action::Chance(w)) => {
            state.dyn_.chance_events += 1;
            let m = &mut state.dyn_.models[model as usize];
            m.seq_wounds = m.seq_wounds.saturating_add(w);
        }
        (step, action) => {
            state.dyn_.decisions += 1;
            decide(state, step, action);
        }
    }
}

fn decide(state: &mut GameState, step: Step, action: Action) {
    match (step, action) {
        (Step::ChooseInitiative(s), Action::TakeInitiative) => state.dyn_.initiative = s,
        (Step::ChooseInitiative(s), Action::GiveInitiative) => state.dyn_.initiative = other_side(s),
        (Step::ChooseActivation, Action::Activate(m)) => {
            state.dyn_.activating = Some(m);
            state.dyn_.steps.push(Step::ChooseAction(m));
        }
        (Step::ChooseActivation, Action::PassToken) => {
            let d = &mut state.dyn_;
            d.pass_tokens[d.active as usize] -= 1;
            d.active = other_side(d.active);
            d.steps.push(Step::ChooseActivation);
        }
        (Step::ChooseAction(_), Action::EndActivation) => end_activation(state),
        (Step::ChooseAction(m), declared) => declare(state, m, declared),
        (Step::ChooseMidAir, Action::RestBack) => {
            let seq = state.dyn_.sequence.as_ref().expect("sequence");
            let from = seq.mid_air.expect("mid-air point") as usize;
            let actor = seq.actor;
            place_on_path(state, actor, from.checked_sub(1));
        }
        (Step::ChooseMidAir, Action::Fall) => {
            let seq = state.dyn_.sequence.as_ref().expect("sequence");
            let p = seq.path.points[seq.mid_air.expect("mid-air point") as usize];
            let actor = seq.actor;
            fall(state, actor, p.cell, p.z, false);
        }
        (Step::ChooseFallPoint { .. }, Action::FallPoint(i)) => {
            let seq = state.dyn_.sequence.as_ref().expect("sequence");
            let p = seq.path.points[i as usize];
            let actor = seq.actor;
            fall(state, actor, p.cell, p.z, true);
        }
        (Step::ChooseDodgeMove { model, .. }, Action::DodgeMove(cell)) => {
            let surface = state.board().cell(cell).height;
            let prone = state.dyn_.models[model as usize].stance == Stance::Prone;
            let m = &mut state.dyn_.models[model as usize];
            m.cell = cell;
            m.z = surface;
            settle_stance(state, model, prone);
        }
        (step, action) => unreachable!("validated action {action:?} does not fit step {step:?}"),
    }
}

/// The movement rules for `m` crawling (`prone`) or not.
pub(super) fn move_spec(state: &GameState, m: ModelId, prone: bool) -> (MoveSpec, u16) {
    let model = &state.dyn_.models[m as usize];
    let (pass, nailed) = state.profile(m).speed;
    let was_prone = model.stance == Stance::Prone;
    let stance_cost = if prone != was_prone { ORTHO } else { 0 };
    let spec = MoveSpec {
        start: model.cell,
        start_z: model.z,
        crawl: prone,
        budget_free: (nailed as u16 * ORTHO).saturating_sub(stance_cost),
        budget_restricted: (pass as u16 * ORTHO).saturating_sub(stance_cost),
    };
    (spec, stance_cost)
}

/// Movement occupancy for one mover: conscious enemies block; any other model on the table
/// occupies its cell.
pub(super) struct MoverOccupancy<'a> {
    pub state: &'a GameState,
    pub mover: ModelId,
}

impl Occupancy for MoverOccupancy<'_> {
    fn for_each_blocked(&self, mut f: impl FnMut(CellIdx)) {
        let side = self.state.dyn_.models[self.mover as usize].side;
        for o in &self.state.dyn_.models {
            if o.side != side && o.is_conscious() {
                f(o.cell);
            }
        }
    }

    fn key(&self) -> u64 {
        // FNV-1a over the mover and every model's cell, side and health.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |v: u64| {
            h ^= v;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        mix(self.mover as u64);
        for m in &self.state.dyn_.models {
            mix(m.cell as u64 | (m.side as u64) << 16 | (m.health as u64) << 24);
        }
        h
    }

    fn occupied(&self, cell: CellIdx) -> bool {
        self.state
            .dyn_
            .models
            .iter()
            .enumerate()
            .any(|(i, o)| i != self.mover as usize && o.cell == cell && o.is_on_table())
    }
}

fn declare(state: &mut GameState, m: ModelId, declared: Action) {
    state.dyn_.models[m as usize].ap -= 1;
    let mut seq = Sequence::new(m, declared);
    let mut push = Vec::with_capacity(3);
    push.push(Step::EndSequence);
    let profile = state.stat.profiles[state.dyn_.models[m as usize].profile as usize].clone();
    let model = state.dyn_.models[m as usize];
    match declared {
        Action::Move { dest, .. } | Action::Charge { dest, .. } => {
            let prone = matches!(declared, Action::Move { prone: true, .. });
            let (spec, stance_cost) = move_spec(state, m, prone);
            let path = movement::path_to(state.board(), &MoverOccupancy { state, mover: m }, &spec, dest)
                .expect("legal destination is reachable");
            seq.prone = prone;
            seq.stance_cost = stance_cost;
            seq.started_in_water = state.in_water(&model);
            if matches!(declared, Action::Charge { .. }) {
                push.push(Step::ChargeStrike);
            }
            push.push(Step::ResolveMove);
            if path.first_dynamic.is_some() {
                push.push(Step::Test {
                    model: m,
                    attr: clamp_attribute(profile.agility as i32),
                    purpose: Purpose::Movement,
                });
            }
            seq.path = path;
        }
        Action::Shoot { weapon, target } => {
            let w = &profile.weapons[weapon as usize];
            let (pass_range, _) = w.range.expect("ranged weapon");
            let sight = state.model_sight(m, target).expect("legal target is visible").sight;
            let mut attr = profile.marksmanship as i32;
            if sight.hard_cover {
                attr -= 1;
            }
            if sight.soft_cover {
                attr -= 1;
            }
            if matches!(model.stance, Stance::Swimming | Stance::Climbing) {
                attr -= 1;
            }
            seq.pass_range = state.distance(m, target) <= pass_range as f32;
            if seq.pass_range && w.properties.contains(&WeaponProperty::Spray) {
                attr += 1;
            }
            seq.hard_cover = sight.hard_cover;
            push.push(Step::ResolveAttack);
            push.push(Step::Test { model: m, attr: clamp_attribute(attr), purpose: Purpose::Attack });
        }
        Action::CloseCombat { weapon, target } => {
            let attr = close_combat_attr(state, m, target, weapon, false);
            push.push(Step::ResolveAttack);
            push.push(Step::Test { model: m, attr, purpose: Purpose::Attack });
        }
        Action::Dodge => {
            let mut attr = profile.agility as i32;
            if model.stance != Stance::Standing {
                attr -= 1;
            }
            push.push(Step::ResolveDodge);
            push.push(Step::Test { model: m, attr: clamp_attribute(attr), purpose: Purpose::Dodge });
        }
        other => unreachable!("not an action declaration: {other:?}"),
    }
    state.dyn_.sequence = Some(seq);
    state.dyn_.steps.extend(push);
}

/// Close Combat attribute with the modifiers of p.33: −1 per further standing enemy in base
/// contact, +1 for a charge not begun in water, −1 when prone, climbing or swimming, and
/// Sneaky(X) as every close combat is unopposed until reactions exist.
fn close_combat_attr(state: &GameState, m: ModelId, target: ModelId, weapon: u8, charged: bool) -> u8 {
    let model = &state.dyn_.models[m as usize];
    let profile = state.profile(m);
    let mut attr = profile.cc as i32;
    let extra = state
        .enemies_in_contact(m)
        .filter(|&o| o != target && state.dyn_.models[o as usize].stance == Stance::Standing)
        .count();
    attr -= extra as i32;
    if charged {
        attr += 1;
    }
    if model.stance != Stance::Standing {
        attr -= 1;
    }
    for p in &profile.weapons[weapon as usize].properties {
        if let WeaponProperty::Sneaky(x) = p {
            attr += *x as i32;
        }
    }
    clamp_attribute(attr)
}

fn run_auto(state: &mut GameState, step: Step) {
    match step {
        Step::StartTurn => start_turn(state),
        Step::GrantAp => grant_ap(state),
        Step::ResolveMove => resolve_move(state),
        Step::ChargeStrike => charge_strike(state),
        Step::ResolveAttack => resolve_attack(state),
        Step::ResolveDodge => resolve_dodge(state),
        Step::EndSequence => end_sequence(state),
        Step::Cleanup => cleanup(state),
        other => unreachable!("{other:?} is not automatic"),
    }
}

/// Initiative phase, first bullet (p.21): the side with fewer conscious models gets the
/// difference in pass tokens. Then the roll-off.
fn start_turn(state: &mut GameState) {
    let a = state.conscious_count(0) as i32;
    let b = state.conscious_count(1) as i32;
    let d = &mut state.dyn_;
    d.pass_tokens = [0; super::MAX_SIDES];
    if a < b {
        d.pass_tokens[0] = (b - a) as u8;
    } else if b < a {
        d.pass_tokens[1] = (a - b) as u8;
    }
    d.steps.push(Step::GrantAp);
    d.steps.push(Step::RollOff);
}

/// Initiative phase, last bullet: each conscious model gets its AP (up to its maximum); the
/// side with the initiative is the first active player.
fn grant_ap(state: &mut GameState) {
    let stat = state.stat.clone();
    let d = &mut state.dyn_;
    for m in d.models.iter_mut() {
        m.activated = false;
        if m.is_conscious() {
            let p = &stat.profiles[m.profile as usize];
            m.ap = m.ap.saturating_add(p.ap_gain).min(p.ap_max);
        }
    }
    d.active = d.initiative;
    d.steps.push(Step::ChooseActivation);
}

/// Conscious models of `side` that have not activated and hold AP.
pub(super) fn has_eligible(state: &GameState, side: Side) -> bool {
    state.dyn_.models.iter().any(|m| m.side == side && can_activate(m))
}

/// Whether a model may still be activated this turn.
pub(super) fn can_activate(m: &super::ModelState) -> bool {
    m.is_conscious() && !m.activated && m.ap > 0
}

/// The other player side (sides 0 and 1 alternate).
pub(super) fn other_side(side: Side) -> Side {
    1 - side.min(1)
}

fn end_activation(state: &mut GameState) {
    let d = &mut state.dyn_;
    if let Some(m) = d.activating.take() {
        d.models[m as usize].activated = true;
    }
    d.active = other_side(d.active);
    d.steps.push(Step::ChooseActivation);
}

fn resolve_move(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let actor = seq.actor;
    let last = seq.path.points.len().checked_sub(1);
    let Some(test) = seq.move_test else {
        place_on_path(state, actor, last);
        return;
    };
    match test.level {
        TestLevel::Fail => {
            let first = seq.path.first_dynamic.expect("tested path has a dynamic step");
            place_on_path(state, actor, first.checked_sub(1));
        }
        TestLevel::Blunder => {
            let chooser = other_side(state.dyn_.models[actor as usize].side);
            state.dyn_.steps.push(Step::ChooseFallPoint { chooser });
        }
        TestLevel::Pass => {
            let (pass, _) = state.profile(actor).speed;
            let budget = (pass as u16 * ORTHO).saturating_sub(seq.stance_cost);
            let reached = seq.path.points.iter().rposition(|p| p.cost <= budget);
            match reached {
                Some(i) if !seq.path.points[i].rest => {
                    state.dyn_.sequence.as_mut().expect("sequence").mid_air = Some(i as u8);
                    state.dyn_.steps.push(Step::ChooseMidAir);
                }
                other => place_on_path(state, actor, other),
            }
        }
        TestLevel::NailedIt | TestLevel::Feat => {
            if test.level == TestLevel::Feat {
                state.dyn_.models[actor as usize].seq_feat_ap += 1;
            }
            place_on_path(state, actor, last);
        }
    }
}

/// Put the mover at path point `idx` (or leave it at its start for `None`) and set its stance.
/// A point where it may not stop — mid-leap, on another model, or (for a move, not a charge)
/// in base contact with an enemy — sends it back along its path to the last point where it
/// may (p.28 "Legal Resting Point").
fn place_on_path(state: &mut GameState, m: ModelId, idx: Option<usize>) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let prone = seq.prone;
    let charge = matches!(seq.declared, Action::Charge { .. });
    let side = state.dyn_.models[m as usize].side;
    let stop = idx.and_then(|i| {
        (0..=i).rev().find(|&j| {
            let p = seq.path.points[j];
            let taken = state
                .dyn_
                .models
                .iter()
                .enumerate()
                .any(|(o, om)| o != m as usize && om.cell == p.cell && om.is_on_table());
            p.rest && !taken && (charge || !state.touches_enemy(side, p.cell, p.z, Some(m)))
        })
    });
    if let Some(p) = stop.map(|i| seq.path.points[i]) {
        let model = &mut state.dyn_.models[m as usize];
        model.cell = p.cell;
        model.z = p.z;
    }
    settle_stance(state, m, prone);
}

/// Stance after moving: climbing above the surface, swimming in water, else prone or
/// standing as chosen.
fn settle_stance(state: &mut GameState, m: ModelId, prone: bool) {
    let model = state.dyn_.models[m as usize];
    let cell = *state.board().cell(model.cell);
    let stance = if model.z > cell.height {
        Stance::Climbing
    } else if cell.terrain == Terrain::Water {
        Stance::Swimming
    } else if prone {
        Stance::Prone
    } else {
        Stance::Standing
    };
    state.dyn_.models[m as usize].stance = stance;
}

/// A fall from (`cell`, `z`) (p.42): land below, never in base contact with an enemy; falling
/// damage is the drop in whole inches less one, none into water. A movement Blunder also
/// costs 1 wound and leaves the model prone (p.25).
fn fall(state: &mut GameState, m: ModelId, cell: CellIdx, z: u8, blunder: bool) {
    let board = state.board();
    let mut from = cell;
    // A fall from a point on solid ground topples off its lowest neighbouring edge.
    if z <= board.cell(cell).height {
        let (x, y) = board.xy(cell);
        let mut lowest = board.cell(cell).height;
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            if let Some(n) = board.checked_idx(x as i32 + dx, y as i32 + dy) {
                let c = board.cell(n);
                if c.terrain != Terrain::Impassable && c.height + 1 < lowest {
                    lowest = c.height;
                    from = n;
                }
            }
        }
    }
    let landing = landing_cell(state, m, from);
    let surface = state.board().cell(landing).height;
    let water = state.board().cell(landing).terrain == Terrain::Water;
    let drop = z.saturating_sub(surface);
    {
        let model = &mut state.dyn_.models[m as usize];
        model.cell = landing;
        model.z = surface;
        if blunder {
            model.seq_wounds = model.seq_wounds.saturating_add(1);
        }
    }
    settle_stance(state, m, blunder);
    if !water && drop > 1 {
        let target = self_armour(state, m);
        add_damage(state, m, drop - 1, target);
    }
}

/// The nearest cell to `cell` where a falling model may land: on the table, not impassable,
/// free of other models and not in base contact with an enemy.
fn landing_cell(state: &GameState, m: ModelId, cell: CellIdx) -> CellIdx {
    let board = state.board();
    let side = state.dyn_.models[m as usize].side;
    let (x, y) = board.xy(cell);
    let free = |c: CellIdx| {
        board.cell(c).terrain != Terrain::Impassable
            && !state
                .dyn_
                .models
                .iter()
                .enumerate()
                .any(|(i, o)| i != m as usize && o.cell == c && o.is_on_table())
            && !state.touches_enemy(side, c, board.cell(c).height, Some(m))
    };
    let max_r = board.width().max(board.depth()) as i32;
    for r in 0..=max_r {
        for dy in -r..=r {
            for dx in -r..=r {
                if dx.abs().max(dy.abs()) != r {
                    continue;
                }
                if let Some(c) = board.checked_idx(x as i32 + dx, y as i32 + dy) {
                    if free(c) {
                        return c;
                    }
                }
            }
        }
    }
    cell
}

/// Armour-roll target of a model against damage with no weapon properties.
fn self_armour(state: &GameState, m: ModelId) -> u8 {
    let p = state.profile(m);
    armour_target(p.toughness, p.armour, 0, 0, false)
}

/// Damage to a model: an armour roll, or taken out with no roll if it is down (p.42).
fn add_damage(state: &mut GameState, m: ModelId, damage: u8, target: u8) {
    if damage == 0 {
        return;
    }
    if state.dyn_.models[m as usize].health == Health::Down {
        state.dyn_.models[m as usize].seq_take_out = true;
    } else {
        state.dyn_.steps.push(Step::Armour { model: m, damage, target });
    }
}

fn charge_strike(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let Action::Charge { target, weapon, .. } = seq.declared else {
        unreachable!("charge strike without a charge")
    };
    let actor = seq.actor;
    let charged = !seq.started_in_water;
    let target_up = state.dyn_.models[target as usize].is_conscious();
    if target_up && state.in_contact(actor, target) && state.dyn_.models[actor as usize].is_conscious() {
        let attr = close_combat_attr(state, actor, target, weapon, charged);
        state.dyn_.steps.push(Step::ResolveAttack);
        state.dyn_.steps.push(Step::Test { model: actor, attr, purpose: Purpose::Attack });
    }
}

fn resolve_attack(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let actor = seq.actor;
    let test = seq.attack_test.expect("attack test rolled");
    let (weapon, target, ranged) = match seq.declared {
        Action::Shoot { weapon, target } => (weapon, target, true),
        Action::CloseCombat { weapon, target } | Action::Charge { weapon, target, .. } => {
            (weapon, target, false)
        }
        other => unreachable!("attack resolution for {other:?}"),
    };
    let pass_range = seq.pass_range;
    let hard_cover = seq.hard_cover && ranged;
    let profile = state.stat.profiles[state.dyn_.models[actor as usize].profile as usize].clone();
    let w = &profile.weapons[weapon as usize];
    if test.level == TestLevel::Feat {
        state.dyn_.models[actor as usize].seq_feat_ap += 1;
    }
    if test.level == TestLevel::Blunder {
        if ranged {
            // p.30: the shot misses and the weapon jams.
            state.dyn_.models[actor as usize].jammed |= 1 << weapon;
        } else if w.properties.contains(&WeaponProperty::Natural) {
            let m = &mut state.dyn_.models[actor as usize];
            m.seq_wounds = m.seq_wounds.saturating_add(1);
        } else {
            // p.33: take 1 damage.
            let t = self_armour(state, actor);
            add_damage(state, actor, 1, t);
        }
        return;
    }
    if !test.is_success() {
        return;
    }
    let nailed = test.level.is_nailed();
    // Close combat, and shots at pass range, deal standard damage on a Pass and superior on
    // Nailed It; beyond pass range Nailed It deals standard damage and a Pass misses (p.30).
    let damage = match (!ranged || pass_range, nailed) {
        (true, true) => w.damage.1,
        (true, false) | (false, true) => w.damage.0,
        (false, false) => 0,
    };
    let tp = state.profile(target);
    let armour = armour_target(tp.toughness, tp.armour, w.pierce(), w.sunder(), hard_cover);
    add_damage(state, target, damage, armour);
}

fn resolve_dodge(state: &mut GameState) {
    let seq = state.dyn_.sequence.as_ref().expect("sequence");
    let actor = seq.actor;
    let test = seq.dodge_test.expect("dodge test rolled");
    match test.level {
        TestLevel::Blunder => {
            let t = self_armour(state, actor);
            add_damage(state, actor, 1, t);
        }
        TestLevel::Fail => {}
        TestLevel::Pass => state.dyn_.steps.push(Step::ChooseDodgeMove { model: actor, budget: 10 }),
        TestLevel::NailedIt | TestLevel::Feat => {
            if test.level == TestLevel::Feat {
                state.dyn_.models[actor as usize].seq_feat_ap += 1;
            }
            state.dyn_.steps.push(Step::ChooseDodgeMove { model: actor, budget: 20 });
        }
    }
}

/// Apply step (p.39, 3.G-J): feat AP, then every wound of the sequence at once, then health
/// states. A model taking wounds at least double its current wounds is taken out.
fn end_sequence(state: &mut GameState) {
    let stat = state.stat.clone();
    let d = &mut state.dyn_;
    for m in d.models.iter_mut() {
        let p = &stat.profiles[m.profile as usize];
        if m.seq_feat_ap > 0 && m.is_conscious() {
            m.ap = m.ap.saturating_add(m.seq_feat_ap).min(p.ap_max);
        }
        if m.seq_take_out || m.seq_wounds > 0 {
            if m.health == Health::Down || m.seq_wounds as u16 >= 2 * m.wounds as u16 {
                m.health = Health::TakenOut;
                m.wounds = 0;
                m.ap = 0;
            } else {
                m.wounds -= m.seq_wounds.min(m.wounds);
                if m.wounds == 0 {
                    m.health = Health::Down;
                    m.ap = 0;
                    if m.stance == Stance::Standing {
                        m.stance = Stance::Prone;
                    }
                }
            }
        }
        m.seq_wounds = 0;
        m.seq_take_out = false;
        m.seq_feat_ap = 0;
    }
    let actor = d.sequence.take().map(|s| s.actor);
    if (0..stat.sides).any(|s| !d.models.iter().any(|m| m.side == s && m.is_conscious())) {
        finish(state);
        return;
    }
    match actor {
        Some(a) if d.models[a as usize].is_conscious() && d.models[a as usize].ap > 0 => {
            d.steps.push(Step::ChooseAction(a));
        }
        _ => end_activation(state),
    }
}

/// Cleanup phase (p.21): unspent AP lost, pass tokens returned, next turn or game end.
fn cleanup(state: &mut GameState) {
    let d = &mut state.dyn_;
    for m in d.models.iter_mut() {
        m.ap = 0;
        m.activated = false;
    }
    d.pass_tokens = [0; super::MAX_SIDES];
    if d.turn >= state.stat.max_turns {
        finish(state);
    } else {
        d.turn += 1;
        d.steps.push(Step::StartTurn);
    }
}

fn finish(state: &mut GameState) {
    let d = &mut state.dyn_;
    d.steps.clear();
    d.activating = None;
    d.sequence = None;
}
