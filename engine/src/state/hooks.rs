//! What a scenario adds to the core game, as the state calls it.
//!
//! The state knows the scenarios only through [`ScenarioRules`]: their plain data
//! ([`crate::scenario::types`]) is part of the state, and their rules are the trait's
//! methods. Each scenario is one type in its own file of `crate::scenario` implementing the
//! trait (the core game without a scenario too: `Skirmish`); what scenarios share is the
//! trait's default methods here, or functions of the scenario modules they call. The
//! scenario is chosen once, when the game is set up, and kept in [`StaticData::scenario`];
//! [`Scenario::rules`](crate::scenario::types::Scenario::rules) gives its rules as a
//! `&'static dyn ScenarioRules`, which the state calls as `state.rules().hook(state, ..)`.
//! The rules hold no data of their own, so a hook may change the state it was read from.

use super::action::InteractKind;
use super::model::{ModelId, ModelState, Side};
use super::{Action, GameState, Player, Sequence, StaticData, Step};
use crate::board::CellIdx;
use crate::dice::TestLevel;
use crate::profile::Profile;
use crate::scenario::types::{Placement, ScenarioInfo, ScenarioState, ScenarioStep};

/// The hooks through which a scenario's rules reach the game: set-up, its own procedure
/// steps, deployment zones, the turn's start and end, scoring, and the markers models
/// interact with. The default methods are the core game's (nothing happens) or what every
/// scenario shares.
pub trait ScenarioRules: Sync {
    /// Its entry in the scenario list: name, title, summary, page, D5 number, board needs.
    fn info(&self) -> &'static ScenarioInfo;

    /// Why a side's crew (its models' profiles) cannot play the scenario, if it cannot (for
    /// the set-up's error, which names the file); any crew by default.
    fn check_crew(&self, _crew: &[&Profile]) -> Result<(), String> {
        Ok(())
    }

    /// A new game's scenario state: its markers, and the infiltrators set aside.
    fn initial_state(&self, stat: &StaticData, models: &[ModelState]) -> ScenarioState;

    /// The stack a new game starts with (last = first to run). By default the set-up every
    /// scenario shares (p.76): the initiative roll-off and the A/B choice, whose answer plans
    /// the deployment, then the game.
    fn initial_steps(&self) -> Vec<Step> {
        shared_initial_steps()
    }

    /// The deployment steps, in the order they happen, once player A is known.
    fn deployment_plan(&self, state: &GameState) -> Vec<ScenarioStep>;

    /// Which side acts at a scenario step.
    fn player_of(&self, state: &GameState, step: &ScenarioStep) -> Player {
        let d = state.dynamic();
        match *step {
            s if s.is_chance() => Player::Chance,
            ScenarioStep::ChooseRoles => Player::Side(d.initiative),
            ScenarioStep::ChooseGrudge(s)
            | ScenarioStep::ChooseCourier(s)
            | ScenarioStep::ChooseGroup(s)
            | ScenarioStep::ChooseZone { side: s, .. }
            | ScenarioStep::PlaceMarker { side: s, .. }
            | ScenarioStep::DropMarker { chooser: s, .. } => Player::Side(s),
            ScenarioStep::Deploy { model, .. } => Player::Side(d.models[model as usize].side),
            _ => Player::Terminal,
        }
    }

    /// The legal actions at a scenario decision, or the outcomes of a scenario chance node.
    fn legal(&self, state: &GameState, step: &ScenarioStep, out: &mut Vec<Action>);

    /// The values a scenario chance node draws among, all alike: outcome `i` is the `i`-th.
    fn chance_values(&self, state: &GameState, step: &ScenarioStep) -> Vec<u8>;

    /// Apply chance outcome `outcome` of a scenario step: a marker's hidden number, or the
    /// number a side seeks.
    fn chance(&self, state: &mut GameState, step: ScenarioStep, outcome: u8) {
        let n = || self.chance_values(state, &step)[outcome as usize];
        match step {
            ScenarioStep::DrawNumber { marker } => {
                let n = n();
                state.dyn_.scenario.markers[marker as usize].number = Some(n);
            }
            ScenarioStep::RollSought(side) => {
                let n = n();
                state.dyn_.scenario.sought[side as usize] = Some(n);
            }
            other => unreachable!("{other:?} is not a chance node"),
        }
    }

    /// Apply a (validated) decision at a scenario step.
    fn decide(&self, state: &mut GameState, step: ScenarioStep, action: Action);

    /// Run an automatic scenario step.
    fn run(&self, state: &mut GameState, step: ScenarioStep);

    /// A scenario step in words (for errors and logs).
    fn describe_step(&self, state: &GameState, step: &ScenarioStep) -> String {
        let side = |s: &Side| format!("side {}", (b'A' + (*s).min(25)) as char);
        let name = |m: &ModelId| {
            if (*m as usize) < state.models().len() {
                state.model_name(*m)
            } else {
                format!("model {m}")
            }
        };
        match step {
            ScenarioStep::ChooseRoles => "the side with the initiative chooses player A".into(),
            ScenarioStep::ChooseGrudge(s) => format!("{} secretly chooses its grudge", side(s)),
            ScenarioStep::ChooseCourier(s) => format!("{} nominates its courier", side(s)),
            ScenarioStep::ChooseGroup(s) => format!("{} nominates a model for its first group", side(s)),
            ScenarioStep::ChooseZone { side: s, .. } => {
                format!("{} chooses its deployment edge or corner", side(s))
            }
            ScenarioStep::PlaceMarker { side: s, marker } => {
                format!("{} places marker {}", side(s), marker + 1)
            }
            ScenarioStep::DeployNext { side: s, .. } => format!("{} deploys its next model", side(s)),
            ScenarioStep::Deploy { model, .. } => format!("{} is deployed", name(model)),
            ScenarioStep::Infiltrate(s) => format!("{}'s infiltrators deploy", side(s)),
            ScenarioStep::InfiltrationResult(m) => format!("{} infiltrates", name(m)),
            ScenarioStep::DrawNumber { marker } => format!("the number under marker {} is drawn", marker + 1),
            ScenarioStep::ResolveLook { model, marker } => {
                format!("{} looks at marker {}", name(model), marker + 1)
            }
            ScenarioStep::RollSought(s) => format!("{} rolls the number it seeks", side(s)),
            ScenarioStep::DropMarker { marker, chooser, .. } => {
                format!("{} places the dropped marker {}", side(chooser), marker + 1)
            }
            ScenarioStep::BeginGame => "deployment is over".into(),
        }
    }

    /// Whether `cell` is in the zone `placement` names for `side`.
    fn in_zone(&self, state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool;

    /// Whether the sides have deployment zones (every scenario; the skirmish has none).
    fn has_deployment_zones(&self) -> bool {
        true
    }

    /// Whether the leader deploys apart from its crew, in a zone of its own (Assassinate);
    /// by default it deploys with the crew.
    fn leader_deploys_apart(&self) -> bool {
        false
    }

    /// Whether the crew deploys in two groups, the nominated first group in the crew's zone
    /// (Scavenger Hunt); by default the whole crew deploys there.
    fn deploys_in_groups(&self) -> bool {
        false
    }

    /// Whether the scenario has an infiltration table: set-aside infiltrators then make an
    /// Intelligence test for their zone; by default they deploy straight away.
    fn has_infiltration_table(&self) -> bool {
        false
    }

    /// Whether an infiltrator whose test came out at `level` may stay off the table for a
    /// later turn; never by default.
    fn infiltrator_may_wait(&self, _level: TestLevel) -> bool {
        false
    }

    /// Whether an infiltrator that blunders its test arrives on a later turn instead of
    /// losing an AP; by default it loses the AP.
    fn blunder_arrives_later(&self) -> bool {
        false
    }

    /// Whether `cell` keeps the distances the scenario demands of `placement` (from leaders,
    /// enemies and markers); none by default.
    fn keeps_spacing(&self, _state: &GameState, _side: Side, _placement: Placement, _cell: CellIdx) -> bool {
        true
    }

    /// Whether `side` may place marker `marker` on ground cell `cell`; anywhere by default.
    fn marker_allowed(&self, _state: &GameState, _side: Side, _marker: u8, _cell: CellIdx) -> bool {
        true
    }

    /// Steps at the beginning of a turn's initiative phase (before the roll-off), last first;
    /// none by default.
    fn turn_start_steps(&self, _state: &GameState) -> Vec<Step> {
        Vec::new()
    }

    /// Whether the game ends in the initiative phase before AP are given; never by default.
    fn ends_at_ap_grant(&self, _state: &GameState) -> bool {
        false
    }

    /// After health changes (the end of a sequence, a fire roll): score what just happened
    /// and drop the markers of carriers that went unconscious. `seq` is the sequence that
    /// ended. Nothing by default.
    fn after_health_changes(&self, _state: &mut GameState, _seq: Option<&Sequence>) {}

    /// End of a turn's cleanup: in-game scoring, then whether the game ends now (by default
    /// nothing is scored and the game runs its turns).
    fn end_of_turn(&self, _state: &mut GameState) -> bool {
        false
    }

    /// The victory points scored when the game ends; none by default.
    fn final_scoring(&self, _state: &mut GameState) {}

    /// The Interact actions on markers open to `actor`; none by default (no markers to use).
    fn interact_options(&self, _state: &GameState, _actor: ModelId, _out: &mut Vec<Action>) {}

    /// Whether an Interact by `actor` on marker `marker`, which it touches, would do anything
    /// (the shared marker interactions ask this); never by default.
    fn marker_useful(&self, _state: &GameState, _actor: ModelId, _marker: u8) -> bool {
        false
    }

    /// `actor` interacts with marker `marker`: by default it picks the marker up.
    fn take_marker(&self, state: &mut GameState, actor: ModelId, marker: u8) {
        state.dyn_.scenario.markers[marker as usize].holder = Some(actor);
    }

    /// Whether friends in base contact may give and take carried markers (Couriers' prize);
    /// never by default.
    fn markers_pass_between_friends(&self) -> bool {
        false
    }

    /// Whether `side`'s models may leave the table from `cell` (Couriers: the enemy's edge);
    /// nowhere by default.
    fn on_exit_edge(&self, _state: &GameState, _side: Side, _cell: CellIdx) -> bool {
        false
    }

    /// Apply an Interact action of `actor` on a marker (only scenarios that offer one).
    fn resolve_interact(
        &self,
        _state: &mut GameState,
        _actor: ModelId,
        kind: InteractKind,
        _target: ModelId,
    ) {
        unreachable!("{kind:?}: this scenario offers no marker interactions")
    }

    /// Whether model `m` may move off the table (and out of the game) now; never by default.
    fn may_leave(&self, _state: &GameState, _m: ModelId) -> bool {
        false
    }

    /// Model `m` moves off the table (only scenarios whose models may leave).
    fn leave_table(&self, _state: &mut GameState, m: ModelId) {
        unreachable!("model {m} cannot leave the table in this scenario")
    }
}

/// The stack a scenario game starts with (last = first to run), the set-up every scenario
/// shares (p.76): the initiative roll-off and the A/B choice, whose answer plans the
/// deployment, then the game.
pub fn shared_initial_steps() -> Vec<Step> {
    vec![
        Step::StartTurn,
        Step::Scenario(ScenarioStep::BeginGame),
        Step::Scenario(ScenarioStep::ChooseRoles),
        Step::RollOff,
    ]
}
