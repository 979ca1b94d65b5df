//! What a scenario adds to the core game, as the state calls it.
//!
//! The state knows the scenarios only through [`ScenarioRules`]: their plain data
//! ([`crate::scenario::types`]) is part of the state, and their rules are the trait's
//! methods, implemented for [`Scenario`](crate::scenario::types::Scenario) by
//! `crate::scenario`, which hands each one to the scenario's own module. The scenario is
//! chosen once, when the game is set up, and kept in [`StaticData::scenario`]; the state
//! calls its rules as `state.stat.scenario.hook(state, ..)`. The hooks take the scenario by
//! value (a small `Copy` value), so a hook may change the state it was read from. The core
//! game without a scenario is [`Scenario::Skirmish`](crate::scenario::types::Scenario::Skirmish).

use super::action::InteractKind;
use super::model::{ModelId, ModelState};
use super::{Action, GameState, Player, Sequence, StaticData, Step};
use crate::scenario::types::{ScenarioState, ScenarioStep};

/// The hooks through which a scenario's rules reach the game: set-up, its own procedure
/// steps, the turn's start and end, scoring, and the markers models interact with.
pub trait ScenarioRules: Copy {
    /// A new game's scenario state: its markers, and the infiltrators set aside.
    fn initial_state(self, stat: &StaticData, models: &[ModelState]) -> ScenarioState;

    /// The stack a new game starts with (last = first to run).
    fn initial_steps(self) -> Vec<Step>;

    /// Which side acts at a scenario step.
    fn player_of(self, state: &GameState, step: &ScenarioStep) -> Player;

    /// The legal actions at a scenario decision.
    fn legal(self, state: &GameState, step: &ScenarioStep, out: &mut Vec<Action>);

    /// The values a scenario chance node draws among, all alike: outcome `i` is the `i`-th.
    fn chance_values(self, state: &GameState, step: &ScenarioStep) -> Vec<u8>;

    /// Apply chance outcome `outcome` of a scenario step.
    fn chance(self, state: &mut GameState, step: ScenarioStep, outcome: u8);

    /// Apply a (validated) decision at a scenario step.
    fn decide(self, state: &mut GameState, step: ScenarioStep, action: Action);

    /// Run an automatic scenario step.
    fn run(self, state: &mut GameState, step: ScenarioStep);

    /// A scenario step in words (for errors and logs).
    fn describe_step(self, state: &GameState, step: &ScenarioStep) -> String;

    /// Steps at the beginning of a turn's initiative phase (before the roll-off), last first.
    fn turn_start_steps(self, state: &GameState) -> Vec<Step>;

    /// Whether the game ends in the initiative phase before AP are given.
    fn ends_at_ap_grant(self, state: &GameState) -> bool;

    /// After health changes (the end of a sequence, a fire roll): score what just happened
    /// and drop the markers of carriers that went unconscious. `seq` is the sequence that
    /// ended.
    fn after_health_changes(self, state: &mut GameState, seq: Option<&Sequence>);

    /// End of a turn's cleanup: in-game scoring, then whether the game ends now.
    fn end_of_turn(self, state: &mut GameState) -> bool;

    /// The victory points scored when the game ends.
    fn final_scoring(self, state: &mut GameState);

    /// The Interact actions on markers open to `actor`.
    fn interact_options(self, state: &GameState, actor: ModelId, out: &mut Vec<Action>);

    /// Apply an Interact action of `actor` on a marker.
    fn resolve_interact(self, state: &mut GameState, actor: ModelId, kind: InteractKind, target: ModelId);

    /// Whether model `m` may move off the table (and out of the game) now.
    fn may_leave(self, state: &GameState, m: ModelId) -> bool;

    /// Model `m` moves off the table.
    fn leave_table(self, state: &mut GameState, m: ModelId);
}
