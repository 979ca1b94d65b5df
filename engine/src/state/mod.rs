//! The game state and its OpenSpiel-style interface.
//!
//! A [`GameState`] is static data shared behind an `Arc` (board, profiles, rule variant) plus
//! a small dynamic part (models, turn, and a stack of pending procedure [`Step`]s). The top of
//! the stack decides what kind of node the state is: a decision for one side, a chance node
//! (a die roll with exact outcome probabilities) or, when the stack is empty, terminal.
//! Cloning copies only the dynamic part.
//!
//! Other crates read the node the game is at with [`GameState::node`] (the step on top of
//! the stack) and ask [`Step::kind`] what kind of node it is; they never read the stack.
//!
//! # How the modules depend on each other
//!
//! Imports go one way, from the dispatcher down to plain data, so that no two modules
//! import each other (`engine/tests/module_circles.rs` checks it):
//!
//! - plain data and small queries: `step` (the [`Step`] enum, [`Purpose`]), `dinosaur_step`
//!   ([`EnemyStep`]), [`sequence`] (the [`Sequence`] and its [`CombatRoll`]s), `actors` (who
//!   acts: the other side, models that may activate, AI models, the chooser at a step);
//! - rules, each importing only those below it: `cavalry`, `damage`, `move_resolution`, `declare`
//!   (declaring actions and the rolls they add), `combat`, `command`, `spawning`, `ambush`,
//!   `abilities`, `legal` (the options at a decision), `threat` (the table's overlay), `dinosaur_ai` (the AI side's behaviour,
//!   which picks among the legal options);
//! - the dispatcher, `procedure`: it runs the step on top of the stack by handing it to the rule
//!   module it belongs to, and no rule module imports it.
//!
//! # Adding a step
//!
//! 1. Add the variant to [`Step`] (or to the scenario's `ScenarioStep`, or [`EnemyStep`] for
//!    the AI side), its doc comment opening with "Decision", "Chance" or "Automatic".
//! 2. Say what kind of node it is in [`Step::kind`] (`ScenarioStep::kind`, `EnemyStep::kind`):
//!    every step is listed there, so the compiler sends you to it. This one table is what
//!    `is_chance`, the stack's `advance` and the observation's chance flag read.
//! 3. Describe it in words in [`Step::describe`] (errors, logs, the CLI).
//! 4. A decision: who chooses in `actors::player_of`, its options (sorted, no duplicates) in
//!    `legal::decisions`, and what each option does in `procedure::decide`.
//!    A chance node: its outcomes and exact probabilities in `procedure::chance_outcomes`, and
//!    what each outcome does in `procedure::apply`.
//!    An automatic step: what it does in `procedure::run_auto`.
//!    The work itself goes in the rule module the step belongs to, below `procedure`: never
//!    import `procedure` (or a module above yours) back.
//! 5. Check the model ids, sides and numbers it carries in `validate::check_dynamic` (saved
//!    games and setup files can hold any step).
//! 6. If agents should tell it apart, give it a code in the observation's node features
//!    (`encoding::observe::node_kind`).
//! 7. Run `cargo test -p tde-engine` (random play checks every node's invariants) and
//!    `tde fuzz`.

mod abilities;
pub mod action;
mod actors;
mod ambush;
mod cavalry;
mod chance;
mod combat;
mod command;
mod damage;
mod declare;
mod dinosaur_ai;
mod dinosaur_step;
pub mod hooks;
mod leader_rule;
mod legal;
pub mod model;
mod move_resolution;
mod names;
pub mod node;
mod observation;
mod outcomes;
mod procedure;
pub mod sequence;
mod sight;
mod spawning;
mod step;
pub mod template;
mod thinning;
mod threat;

pub use action::Action;
pub use action::{CombatKind, InteractKind};
pub use ambush::{recognised_confusion, RECOGNISE_RANGE};
pub use cavalry::Part;
pub use dinosaur_step::EnemyStep;
pub(crate) use legal::strictly_ascending;
pub use model::{Health, ModelId, ModelState, Side, Stance, MAX_SIDES};
pub use move_resolution::MoverOccupancy;
pub use node::NodeKind;
pub use observation::{ModelView, Observation, ScenarioView};
pub(crate) use outcomes::describe_outcome;
pub use outcomes::{ChanceKind, ChanceOutcome};
pub use sequence::{CombatRoll, RollRole, Sequence};
pub use sight::Pose;
pub use step::{Purpose, Step};
pub use thinning::{PointClass, ReactionPoint};
pub use threat::{Modifier, Threat};

use crate::board::Board;
use crate::inline_vec::InlineVec;
use crate::profile::Profile;
use crate::rules::RuleVariant;
use hooks::ScenarioRules;
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Who acts at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Player {
    /// A side must choose one of the legal actions.
    Side(Side),
    /// A die roll: pick an outcome from [`GameState::chance_outcomes`].
    Chance,
    /// The game is over.
    Terminal,
}

/// Data that never changes during a game, shared by every clone.
#[derive(Clone, Debug)]
pub struct StaticData {
    /// The table.
    pub board: Arc<Board>,
    /// Profiles of the models in play, indexed by `ModelState::profile`.
    pub profiles: Vec<Arc<Profile>>,
    /// Rule variant in force.
    pub variant: RuleVariant,
    /// The game ends after the cleanup of this turn.
    pub max_turns: u8,
    /// Number of sides in play.
    pub sides: u8,
    /// Each side's leader ability and effect cards.
    pub cards: Vec<Vec<Arc<crate::cards::Card>>>,
    /// The scenario played.
    pub scenario: crate::scenario::types::Scenario,
    /// The Ulaya Chronicles AI side, in a game with AI-controlled dinosaurs.
    pub uc: Option<Arc<crate::uc::UcGame>>,
}

/// Models a state holds in place; a game with more keeps them on the heap (two of the
/// shipped 150-point crews field up to 17 models, dinosaurs add theirs).
pub const INLINE_MODELS: usize = 24;
/// Procedure steps a state holds in place (the deepest stacks random play reaches are
/// about half of it).
pub const INLINE_STEPS: usize = 64;

/// The changing part of a game: everything a clone copies and a save file stores. Its
/// vectors keep their items in place up to a capacity, so a clone allocates nothing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DynState {
    /// Every model, including those taken out.
    pub models: InlineVec<ModelState, INLINE_MODELS>,
    /// Current turn, from 1.
    pub turn: u8,
    /// Side holding the initiative this turn.
    pub initiative: Side,
    /// Side whose activation it is.
    pub active: Side,
    /// Pass tokens held by each side.
    pub pass_tokens: [u8; MAX_SIDES],
    /// The model whose activation is under way, if any.
    pub activating: Option<ModelId>,
    /// The action sequence under way, if any.
    pub sequence: Option<Sequence>,
    /// Pending procedure steps; the last one is the current node.
    pub steps: InlineVec<Step, INLINE_STEPS>,
    /// Smoke templates on the table until the cleanup.
    #[serde(default)]
    pub clouds: InlineVec<template::Cloud, 4>,
    /// Bit i set: side's card i has been played (effect cards are one use only).
    #[serde(default)]
    pub cards_used: [u16; MAX_SIDES],
    /// The scenario's roles, zones, markers, secrets and victory points.
    #[serde(default)]
    pub scenario: crate::scenario::types::ScenarioState,
    /// Number of decisions taken so far.
    pub decisions: u32,
    /// Number of chance events resolved so far.
    pub chance_events: u32,
    /// The card AI's discard piles and move under way (games with AI dinosaurs); hashed only
    /// once used, so other games keep their hashes.
    #[serde(default)]
    pub uc: crate::uc::UcState,
}

impl DynState {
    /// Heap bytes a clone of this state allocates: nothing while its vectors (the models,
    /// the procedure steps, the smoke clouds, the scenario markers, and the action sequence's
    /// path points, rolls and template shots) keep their items in place; a vector past its
    /// capacity in place adds its items' bytes. This plus `size_of::<GameState>()` is what one
    /// more copy of the position costs (the allocator's rounding aside).
    pub fn heap_bytes(&self) -> usize {
        let sequence = self
            .sequence
            .as_ref()
            .map_or(0, |s| s.path.points.heap_bytes() + s.rolls.heap_bytes() + s.templates.heap_bytes());
        self.models.heap_bytes()
            + self.steps.heap_bytes()
            + self.clouds.heap_bytes()
            + self.scenario.markers.heap_bytes()
            + sequence
    }
}

/// A complete game position.
#[derive(Clone, Debug)]
pub struct GameState {
    pub(crate) stat: Arc<StaticData>,
    pub(crate) dyn_: DynState,
}

impl PartialEq for GameState {
    fn eq(&self, other: &Self) -> bool {
        self.dyn_ == other.dyn_
            && (Arc::ptr_eq(&self.stat, &other.stat)
                || (self.stat.profiles == other.stat.profiles
                    && self.stat.variant == other.stat.variant
                    && self.stat.max_turns == other.stat.max_turns
                    && self.stat.scenario == other.stat.scenario
                    && self.stat.board.cells() == other.stat.board.cells()))
    }
}

/// An action that is not legal in the current state; the state is left unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal action `{action}` at this node ({node})")]
pub struct IllegalAction {
    /// The rejected action.
    pub action: Action,
    /// A description of the node, e.g. "decision for side 0: choose an action for m3".
    pub node: String,
}

/// The side without a crew in a solo game.
pub const ABSENT_SIDE: Side = 1;

/// How side A's crew did in a solo game (docs/rulings.md): the scenario's victory points,
/// the AI models it put out of action, and its own models down or taken out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SoloScore {
    /// Victory points for the scenario's objectives (in a skirmish, the points of enemy
    /// models down or taken out: AI models are worth none).
    pub vp: i32,
    /// AI models the crew put out of action.
    pub dinosaurs_taken_out: i32,
    /// The crew's models down or taken out.
    pub models_lost: i32,
}

impl SoloScore {
    /// The single figure solo games are compared by: VP plus dinosaurs taken out less
    /// models lost.
    pub fn total(&self) -> i32 {
        self.vp + self.dinosaurs_taken_out - self.models_lost
    }

    /// The total as a return in [-1, 1] (a tenth of it, clamped): what searches maximise.
    pub fn to_return(&self) -> f64 {
        (self.total() as f64 / 10.0).clamp(-1.0, 1.0)
    }
}

/// Final result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Victory points per side.
    pub vp: [i32; MAX_SIDES],
    /// The winning side, or `None` for a draw.
    pub winner: Option<Side>,
}

impl Outcome {
    /// `side`'s victory-point margin over its opponent (negative when behind): the target for
    /// training and the figure reports average.
    pub fn margin(&self, side: Side) -> i32 {
        self.vp[side as usize] - self.vp[1 - side.min(1) as usize]
    }
}

impl GameState {
    /// A game at the start of `turn` 1's initiative phase with models already deployed.
    pub fn new(stat: StaticData, models: Vec<ModelState>) -> GameState {
        let scenario = stat.scenario.rules().initial_state(&stat, &models);
        let mut steps = stat.scenario.rules().initial_steps();
        // The AI models are placed first: after the scenery, before anything else (seed 003,
        // "The Drowned Earth Conversion", Scenarios).
        if let Some(uc) = &stat.uc {
            steps.extend(dinosaur_ai::placement_steps(uc.dinos, uc.ambush).into_iter().rev());
        }
        let mut s = GameState {
            stat: Arc::new(stat),
            dyn_: DynState {
                models: models.into(),
                turn: 1,
                initiative: 0,
                active: 0,
                pass_tokens: [0; MAX_SIDES],
                activating: None,
                sequence: None,
                steps: steps.into(),
                clouds: Default::default(),
                cards_used: [0; MAX_SIDES],
                scenario,
                decisions: 0,
                chance_events: 0,
                uc: Default::default(),
            },
        };
        s.advance();
        s
    }

    /// A game from explicit parts: used by setup files and saved games. The step stack is
    /// taken as given and advanced past any automatic steps.
    pub fn from_parts(stat: Arc<StaticData>, dyn_: DynState) -> GameState {
        let mut s = GameState { stat, dyn_ };
        s.advance();
        s
    }

    /// The rules of the scenario played (chosen once, at set-up): what the state's hooks call.
    pub fn rules(&self) -> &'static dyn ScenarioRules {
        self.stat.scenario.rules()
    }

    /// Static data (board, profiles, rule variant).
    pub fn static_data(&self) -> &Arc<StaticData> {
        &self.stat
    }

    /// The dynamic part of the state.
    pub fn dynamic(&self) -> &DynState {
        &self.dyn_
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.stat.board
    }

    /// All models.
    pub fn models(&self) -> &[ModelState] {
        &self.dyn_.models
    }

    /// The profile of a model.
    pub fn profile(&self, m: ModelId) -> &Profile {
        &self.stat.profiles[self.dyn_.models[m as usize].profile as usize]
    }

    /// Current turn number, from 1.
    pub fn turn(&self) -> u8 {
        self.dyn_.turn
    }

    /// The node the game is at: the step on top of the procedure stack (`None` once the game
    /// is over). Other crates read the node here, never from the stack itself.
    pub fn node(&self) -> Option<&Step> {
        self.dyn_.steps.last()
    }

    /// Who acts now.
    pub fn current_player(&self) -> Player {
        match self.dyn_.steps.last() {
            None => Player::Terminal,
            Some(step) => self.step_player(step),
        }
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.dyn_.steps.is_empty()
    }

    /// The legal actions at a decision node (sorted, no duplicates), or the chance outcomes'
    /// actions at a chance node; empty when terminal.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// [`legal_actions`](Self::legal_actions) into a reused buffer (cleared first).
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        legal::generate(self, out);
    }

    /// The outcomes of the current chance node with their exact probabilities (summing to 1);
    /// empty when the node is not a chance node.
    pub fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        procedure::chance_outcomes(self)
    }

    /// At a test's chance node, the grouped test outcomes in the order of
    /// [`chance_outcomes`](Self::chance_outcomes) (outcome `i` is `Action::Chance(i)`); at an
    /// armour roll the outcome index is the number of wounds.
    pub fn pending_test(&self) -> Option<&'static [(crate::dice::TestOutcome, f64)]> {
        procedure::pending_test(self)
    }

    /// Pick a chance outcome with `rng`, weighted by its exact probability.
    pub fn sample_chance(&self, rng: &mut impl rand::Rng) -> Option<Action> {
        let outcomes = self.chance_outcomes();
        let mut x: f64 = rng.gen();
        for &(a, p) in &outcomes {
            if x < p {
                return Some(a);
            }
            x -= p;
        }
        outcomes.last().map(|&(a, _)| a)
    }

    /// Apply an action. An illegal action returns an error and leaves the state untouched.
    pub fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        if !self.is_legal(action) {
            return Err(IllegalAction { action, node: self.describe_node() });
        }
        procedure::apply(self, action);
        self.advance();
        Ok(())
    }

    /// Whether `action` may be applied now: a chance outcome's index at a chance node, a
    /// legal option at a decision, nothing once the game is over.
    fn is_legal(&self, action: Action) -> bool {
        match self.current_player() {
            Player::Chance => {
                matches!(action, Action::Chance(i) if (i as usize) < self.chance_outcomes().len())
            }
            Player::Side(_) => legal::is_legal(self, action),
            Player::Terminal => false,
        }
    }

    /// Apply an action taken from this very state's [`legal_actions`](Self::legal_actions)
    /// (or one of its [`chance_outcomes`](Self::chance_outcomes)) without checking it again:
    /// the fast path of search and random play, where the action comes from the list the
    /// state just gave. Anything else must go through [`apply_action`](Self::apply_action);
    /// debug builds check the action and panic on an illegal one.
    pub fn apply_legal_action(&mut self, action: Action) {
        debug_assert!(
            self.is_legal(action),
            "apply_legal_action: {action:?} is not legal at {}",
            self.describe_node()
        );
        procedure::apply(self, action);
        self.advance();
    }

    /// At a reaction choice, every reaction the reacting side may declare at every point of
    /// the active model's action, with the class of equivalent points each belongs to; the
    /// ones `legal_actions` offers are marked. Empty at any other node.
    pub fn reaction_points(&self) -> Vec<ReactionPoint> {
        let mut all = Vec::new();
        if let Some(step @ (Step::ChooseReaction | Step::ChooseReactionBy(_))) = self.dyn_.steps.last() {
            let reacting = legal::reacting_side(self, step);
            legal::reaction_options(self, reacting, None, false, &mut Vec::new(), Some(&mut all));
        }
        all
    }

    /// Declare a reaction at any point of the active model's action, also one that
    /// `legal_actions` leaves out because an earlier point of its class is offered (a study of
    /// reaction timing compares them). Anything not among
    /// [`reaction_points`](Self::reaction_points) is refused and leaves the state untouched.
    pub fn apply_reaction_anywhere(&mut self, action: Action) -> Result<(), IllegalAction> {
        if !self.reaction_points().iter().any(|r| r.action == action) {
            return Err(IllegalAction { action, node: self.describe_node() });
        }
        procedure::apply(self, action);
        self.advance();
        Ok(())
    }

    /// While an action sequence is under way, the active model's pose at point `point` of its
    /// action (0 = where it started; a path's `k`-th point otherwise), as reactions see it.
    pub fn mover_pose(&self, point: u8) -> Option<Pose> {
        let seq = self.dyn_.sequence.as_ref()?;
        let last = if seq.has_path() { seq.path.points.len() } else { 0 };
        if point as usize > last {
            return None;
        }
        Some(declare::actor_pose(self, seq, point))
    }

    /// Per-side returns: +1 win, −1 loss, 0 draw; all 0 until the game is over. In a solo
    /// game side A's return is [`SoloScore::to_return`].
    pub fn returns(&self) -> [f64; MAX_SIDES] {
        let mut r = [0.0; MAX_SIDES];
        if !self.is_terminal() {
            return r;
        }
        if let Some(solo) = self.solo_score() {
            r[0] = solo.to_return();
            return r;
        }
        let o = self.outcome();
        if let Some(w) = o.winner {
            for (side, v) in r.iter_mut().enumerate().take(self.stat.sides as usize) {
                *v = if side as u8 == w { 1.0 } else { -1.0 };
            }
        }
        r
    }

    /// Victory points and winner as the game stands (final once terminal): the scenario's
    /// victory points, or in a skirmish the points value of the enemy models down or taken out.
    pub fn outcome(&self) -> Outcome {
        let mut vp = [0i32; MAX_SIDES];
        if self.stat.scenario != crate::scenario::types::Scenario::Skirmish {
            for (v, &s) in vp.iter_mut().zip(&self.dyn_.scenario.vp) {
                *v = s as i32;
            }
        }
        for m in self
            .dyn_
            .models
            .iter()
            .filter(|_| self.stat.scenario == crate::scenario::types::Scenario::Skirmish)
        {
            if !m.is_conscious() && m.health != Health::Remounted {
                let points = self.stat.profiles[m.profile as usize].points as i32;
                for (side, v) in vp.iter_mut().enumerate().take(self.stat.sides as usize) {
                    if side as u8 != m.side {
                        *v += points;
                    }
                }
            }
        }
        let winner = match vp[0].cmp(&vp[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        Outcome { vp, winner }
    }

    /// A stable 64-bit hash of the dynamic state (FNV-1a over its derived `Hash`), equal for
    /// equal states in every run and on every platform.
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv64::default();
        self.dyn_.hash(&mut h);
        h.finish()
    }

    /// A short description of the current node, for errors and logs.
    pub fn describe_node(&self) -> String {
        let who = match self.current_player() {
            Player::Side(s) => format!("side {}", (b'A' + s) as char),
            Player::Chance => "the dice".to_string(),
            Player::Terminal => return "the game is over".to_string(),
        };
        match self.dyn_.steps.last() {
            None => "the game is over".to_string(),
            Some(step) => format!("{who}: {}", step.describe(self)),
        }
    }

    /// Number of models of `side` that are still conscious.
    pub fn conscious_count(&self, side: Side) -> usize {
        self.dyn_.models.iter().filter(|m| m.side == side && m.is_conscious()).count()
    }

    fn advance(&mut self) {
        procedure::advance(self);
    }

    fn step_player(&self, step: &Step) -> Player {
        match actors::player_of(self, step) {
            // The absent side's choices are made at random (a solo game).
            Player::Side(ABSENT_SIDE) if self.is_solo() => Player::Chance,
            player => player,
        }
    }

    /// A solo game: side A's crew alone against the AI side (side B has no crew and no
    /// player).
    pub fn is_solo(&self) -> bool {
        self.stat.uc.as_ref().is_some_and(|uc| uc.solo)
    }

    /// The sides with a crew and a player: both, or side A alone in a solo game.
    pub fn playing_sides(&self) -> std::ops::Range<Side> {
        0..if self.is_solo() { 1 } else { self.stat.sides }
    }

    /// A solo game's score for side A's crew as the game stands (final once terminal): its
    /// victory points, the dinosaurs it took out and the models it lost; None in other games.
    pub fn solo_score(&self) -> Option<SoloScore> {
        if !self.is_solo() {
            return None;
        }
        let lost = self.dyn_.models.iter().filter(|m| m.side == 0 && m.is_unconscious()).count();
        Some(SoloScore {
            vp: self.outcome().vp[0],
            dinosaurs_taken_out: self.dyn_.uc.out_of_action_by(0, crate::uc::AI_SIDE) as i32,
            models_lost: lost as i32,
        })
    }
}

/// FNV-1a, 64-bit: a tiny, fixed hash function so that state hashes are reproducible.
#[derive(Clone, Copy)]
pub(crate) struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv64 {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ModelState, Step};
    use crate::setup::{new_game, GameConfig};
    use std::mem::size_of;

    #[test]
    fn heap_bytes_counts_only_vectors_past_their_capacity_in_place() {
        // A new skirmish keeps its models and steps in place.
        let state = new_game(&GameConfig::default()).expect("default game");
        let d = state.dynamic();
        assert!(!d.models.is_empty() && !d.steps.is_empty());
        assert_eq!(d.heap_bytes(), 0);
        let mut big = d.clone();
        let model = big.models[0];
        while big.models.len() <= super::INLINE_MODELS {
            big.models.push(model);
        }
        assert_eq!(big.heap_bytes(), big.models.len() * size_of::<ModelState>());
        assert_eq!(big.clone().heap_bytes(), big.heap_bytes());
        assert_eq!(size_of::<Step>(), 8, "a procedure step stays small: 64 are kept in place");
    }
}
