//! The five competitive scenarios (rulebook chapter 6, pp.76–85): set-up, deployment as
//! decision nodes, infiltration, objectives, scoring, game end and hidden information.
//!
//! A scenario is chosen when a game is built ([`Scenario`], kept in the static data) and its
//! progress lives in [`ScenarioState`] inside the dynamic state. Its set-up runs on the same
//! procedure stack as the turns: [`ScenarioStep`]s are decisions (choose player A, edges and
//! corners, place markers and models), chance nodes (infiltration tests, hidden marker
//! numbers, the number sought) or automatic steps.
//!
//! The plain data ([`types`]) is a leaf module the game state keeps. The rules reach the
//! state only through its hook trait, [`ScenarioRules`], implemented here for [`Scenario`]:
//! each hook hands the scenario played to its own module — its plan of set-up steps, its
//! zones and infiltration table, its scoring and end conditions. The shared mechanics are in
//! [`deployment`], [`markers`] and [`hidden`]; the building blocks the scenarios' own rules
//! share (victory points, leaders, plan steps, distances) in `common`.
//!
//! The core game without a scenario ([`Scenario::Skirmish`]) deploys automatically and scores
//! the points of enemy casualties; it is what hand-written setup files use.

mod assassinate;
mod attack_and_defend;
mod common;
pub(crate) mod couriers;
pub(crate) mod deployment;
mod grudge_match;
pub(crate) mod hidden;
pub(crate) mod markers;
mod scavenger_hunt;
pub mod types;
pub mod zones;

use crate::board::{Board, CellIdx};
use crate::state::hooks::ScenarioRules;
use crate::state::{
    Action, GameState, InteractKind, ModelId, ModelState, Player, Sequence, Side, StaticData, Step, MAX_SIDES,
};
use zones::{in_strip, is_ground};

pub use deployment::in_deployment_zone;
pub use types::{Grudge, Marker, MarkerKind, Placement, Scenario, ScenarioState, ScenarioStep, ZoneKind};

/// The scenarios' rules as the game state calls them: each hook hands the scenario played to
/// its own module, the steps all scenarios share to [`deployment`] and [`markers`].
impl ScenarioRules for Scenario {
    /// A new game's scenario state: its markers, and the infiltrators set aside (Assassinate:
    /// up to two per side, the first in the crew list; docs/rulings.md).
    fn initial_state(self, stat: &StaticData, models: &[ModelState]) -> ScenarioState {
        let mut sc = ScenarioState::default();
        let limit = if stat.scenario == Scenario::Assassinate { 2 } else { usize::MAX };
        let mut count = [0usize; MAX_SIDES];
        for (i, m) in models.iter().enumerate() {
            if stat.scenario != Scenario::Skirmish
                && stat.profiles[m.profile as usize].infiltrates()
                && count[m.side as usize] < limit
            {
                count[m.side as usize] += 1;
                sc.set_aside |= 1 << i;
            }
        }
        let centre = |kind| Marker { cell: zones::centre(&stat.board), placed: true, ..Marker::new(kind) };
        sc.markers = match stat.scenario {
            Scenario::Skirmish | Scenario::GrudgeMatch => Vec::new(),
            Scenario::Assassinate => vec![centre(MarkerKind::Central)],
            Scenario::AttackAndDefend => vec![
                centre(MarkerKind::Central),
                Marker::new(MarkerKind::Objective(0)),
                Marker::new(MarkerKind::Objective(1)),
            ],
            Scenario::Couriers => vec![Marker::new(MarkerKind::Prize(0)), Marker::new(MarkerKind::Prize(1))],
            Scenario::ScavengerHunt => {
                vec![Marker::new(MarkerKind::Numbered); scavenger_hunt::MARKERS as usize]
            }
        }
        .into();
        sc
    }

    /// The stack a new game starts with (last = first to run): the scenario's secret choices,
    /// the initiative roll-off and the A/B choice, whose answer plans the deployment.
    fn initial_steps(self) -> Vec<Step> {
        let scenario = self;
        let mut steps = vec![Step::StartTurn];
        if scenario == Scenario::Skirmish {
            return steps;
        }
        steps.extend([Step::Scenario(ScenarioStep::BeginGame), Step::Scenario(ScenarioStep::ChooseRoles)]);
        steps.push(Step::RollOff);
        if scenario == Scenario::GrudgeMatch {
            // "Before the game starts both players secretly make note of a Grudge" (p.80).
            steps.extend([ScenarioStep::ChooseGrudge(1), ScenarioStep::ChooseGrudge(0)].map(Step::Scenario));
        }
        steps
    }

    /// Which side acts at a scenario step.
    fn player_of(self, state: &GameState, step: &ScenarioStep) -> Player {
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
    fn legal(self, state: &GameState, step: &ScenarioStep, out: &mut Vec<Action>) {
        match *step {
            ScenarioStep::ChooseRoles => out.extend([Action::PlayerA(0), Action::PlayerA(1)]),
            ScenarioStep::ChooseGrudge(side) => grudge_match::grudge_options(state, side, out),
            ScenarioStep::ChooseCourier(side) => couriers::courier_options(state, side, out),
            ScenarioStep::ChooseGroup(side) => scavenger_hunt::group_options(state, side, out),
            ScenarioStep::ChooseZone { side, zone } => deployment::zone_options(state, side, zone, out),
            ScenarioStep::PlaceMarker { side, marker } => deployment::marker_cells(state, side, marker, out),
            ScenarioStep::Deploy { model, placement } => {
                deployment::deploy_options(state, model, placement, out)
            }
            ScenarioStep::DropMarker { carrier, .. } => markers::drop_cells(state, carrier, out),
            s if s.is_chance() => {
                let n = self.chance_values(state, &s).len();
                out.extend((0..n).map(|i| Action::Chance(i as u8)));
            }
            _ => {}
        }
    }

    /// The numbers a scenario chance node draws among, outcome `i` the `i`-th, all alike: the
    /// numbers not yet under a marker, or those a side may seek; empty at other steps.
    fn chance_values(self, state: &GameState, step: &ScenarioStep) -> Vec<u8> {
        match *step {
            ScenarioStep::DrawNumber { .. } => markers::undrawn_numbers(state),
            ScenarioStep::RollSought(side) => scavenger_hunt::sought_candidates(state, side),
            _ => Vec::new(),
        }
    }

    /// Apply a chance outcome of a scenario step.
    fn chance(self, state: &mut GameState, step: ScenarioStep, outcome: u8) {
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
    fn decide(self, state: &mut GameState, step: ScenarioStep, action: Action) {
        match (step, action) {
            (ScenarioStep::ChooseRoles, Action::PlayerA(side)) => {
                state.dyn_.scenario.player_a = side;
                plan(state);
            }
            (ScenarioStep::ChooseGrudge(side), Action::Grudge { holder, target }) => {
                state.dyn_.scenario.grudges[side as usize] =
                    Some(Grudge { holder, target, complete: false, revealed: false });
            }
            (ScenarioStep::ChooseCourier(side), Action::Nominate(m)) => couriers::nominate(state, side, m),
            (ScenarioStep::ChooseGroup(_), Action::Nominate(m)) => state.dyn_.scenario.group |= 1 << m,
            (ScenarioStep::ChooseZone { side, zone }, Action::Zone(z)) => {
                deployment::choose_zone(state, side, zone, z)
            }
            (ScenarioStep::PlaceMarker { marker, .. }, Action::Deploy(cell)) => {
                let m = &mut state.dyn_.scenario.markers[marker as usize];
                m.cell = cell;
                m.placed = true;
            }
            (ScenarioStep::Deploy { model, placement }, action) => {
                deployment::deploy(state, model, placement, action)
            }
            (ScenarioStep::DropMarker { marker, .. }, Action::Deploy(cell)) => {
                let m = &mut state.dyn_.scenario.markers[marker as usize];
                m.cell = cell;
                m.placed = true;
            }
            (step, action) => unreachable!("validated action {action:?} does not fit {step:?}"),
        }
    }

    /// Run an automatic scenario step.
    fn run(self, state: &mut GameState, step: ScenarioStep) {
        match step {
            ScenarioStep::DeployNext { side, placement } => deployment::deploy_next(state, side, placement),
            ScenarioStep::Infiltrate(side) => deployment::infiltrate(state, side),
            ScenarioStep::InfiltrationResult(m) => deployment::infiltration_result(state, m),
            ScenarioStep::ResolveLook { model, marker } => scavenger_hunt::resolve_look(state, model, marker),
            ScenarioStep::BeginGame => {
                // "Then begin the game, with player B taking the first Activation" (every scenario).
                let b = state.dyn_.scenario.side_of(false);
                state.dyn_.initiative = b;
            }
            other => unreachable!("{other:?} is not automatic"),
        }
    }

    /// A scenario step in words (for errors and logs).
    fn describe_step(self, state: &GameState, step: &ScenarioStep) -> String {
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

    /// Steps at the beginning of a turn's initiative phase (before the roll-off), last first.
    fn turn_start_steps(self, state: &GameState) -> Vec<Step> {
        let mut steps = match state.static_data().scenario {
            Scenario::AttackAndDefend | Scenario::Couriers => deployment::arrival_steps(state),
            Scenario::ScavengerHunt => scavenger_hunt::sought_steps(state),
            _ => Vec::new(),
        };
        steps.reverse();
        steps.into_iter().map(Step::Scenario).collect()
    }

    /// Whether the game ends in the initiative phase before AP are given (Scavenger Hunt: a side
    /// has no model to give AP to).
    fn ends_at_ap_grant(self, state: &GameState) -> bool {
        state.static_data().scenario == Scenario::ScavengerHunt && scavenger_hunt::a_side_cannot_act(state)
    }

    /// After health changes (the end of a sequence, a fire roll): score what just happened and
    /// drop the markers of carriers that went unconscious. `seq` is the sequence that ended.
    fn after_health_changes(self, state: &mut GameState, seq: Option<&Sequence>) {
        match state.static_data().scenario {
            Scenario::Assassinate => assassinate::score_take_outs(state),
            Scenario::GrudgeMatch => grudge_match::score_grudges(state, seq),
            Scenario::Couriers | Scenario::ScavengerHunt => markers::drop_from_unconscious(state),
            _ => {}
        }
    }

    /// End of a turn's cleanup: in-game scoring, then whether the game ends now.
    fn end_of_turn(self, state: &mut GameState) -> bool {
        let turn = state.turn();
        match state.static_data().scenario {
            Scenario::Skirmish => false,
            Scenario::Assassinate => assassinate::game_ends(state, turn),
            Scenario::GrudgeMatch => grudge_match::game_ends(state, turn),
            Scenario::AttackAndDefend => {
                attack_and_defend::score_control(state, turn);
                attack_and_defend::game_ends(state)
            }
            Scenario::Couriers => couriers::game_ends(state, turn),
            Scenario::ScavengerHunt => scavenger_hunt::game_ends(state, turn),
        }
    }

    /// The victory points scored when the game ends.
    fn final_scoring(self, state: &mut GameState) {
        match state.static_data().scenario {
            Scenario::Assassinate => assassinate::final_scoring(state),
            Scenario::GrudgeMatch => grudge_match::final_scoring(state),
            Scenario::Couriers => couriers::final_scoring(state),
            Scenario::ScavengerHunt => scavenger_hunt::final_scoring(state),
            Scenario::AttackAndDefend | Scenario::Skirmish => {}
        }
    }

    fn interact_options(self, state: &GameState, actor: ModelId, out: &mut Vec<Action>) {
        markers::interact_options(state, actor, out)
    }

    fn resolve_interact(self, state: &mut GameState, actor: ModelId, kind: InteractKind, target: ModelId) {
        markers::resolve(state, actor, kind, target)
    }

    fn may_leave(self, state: &GameState, m: ModelId) -> bool {
        couriers::may_leave(state, m)
    }

    fn leave_table(self, state: &mut GameState, m: ModelId) {
        couriers::leave_table(state, m)
    }
}

/// Push the scenario's deployment steps once player A is known.
fn plan(state: &mut GameState) {
    let mut steps = match state.static_data().scenario {
        Scenario::Skirmish => Vec::new(),
        Scenario::Assassinate => assassinate::plan(state),
        Scenario::GrudgeMatch => grudge_match::plan(state),
        Scenario::AttackAndDefend => attack_and_defend::plan(state),
        Scenario::Couriers => couriers::plan(state),
        Scenario::ScavengerHunt => scavenger_hunt::plan(state),
    };
    // The plans list steps in the order they happen; the stack runs the last one first.
    steps.reverse();
    state.dyn_.steps.extend(steps.into_iter().map(Step::Scenario));
}

/// A zone choice in words: "the edge at row 0", "the corner at (0,35)".
pub fn describe_zone_choice(state: &GameState, z: u8) -> String {
    let board = state.board();
    let is_edge =
        matches!(state.node(), Some(Step::Scenario(ScenarioStep::ChooseZone { zone: ZoneKind::Edge, .. })));
    if is_edge {
        let name = ["row 0", "the last row", "column 0", "the last column"][z as usize % 4];
        format!("chooses the edge along {name}")
    } else {
        let (xe, ye) = zones::corner_edges(z);
        let x = if xe == 2 { 0 } else { board.width() - 1 };
        let y = if ye == 0 { 0 } else { board.depth() - 1 };
        format!("chooses the corner at ({x},{y})")
    }
}

/// Whether a board is large enough for a scenario: the rows and columns its deployment zones,
/// corner squares and marker bands need, and enough ground in a deployment strip for the
/// larger crew (`crew` models). The error says what the scenario needs, e.g.
/// `board 36x2: the Assassinate deployment zones need at least 17 rows and 17 columns`.
pub fn board_fits(board: &Board, scenario: Scenario, crew: usize) -> Result<(), String> {
    let depth = crate::limits::DEPLOYMENT_DEPTH;
    // (rows, columns) at least; edge scenarios measure across their long edges.
    let (rows, columns) = match scenario {
        Scenario::Skirmish => (2 * depth + 1, 1),
        Scenario::GrudgeMatch | Scenario::Couriers => (2 * depth + 1, 2 * depth + 1),
        Scenario::Assassinate => (2 * assassinate::CORNER + 1, 2 * assassinate::CORNER + 1),
        Scenario::AttackAndDefend => (2 * 8 + 1, 2 * 8 + 1),
        Scenario::ScavengerHunt => {
            let n = 2 * scavenger_hunt::EDGE_CLEARANCE + 3;
            (n.max(2 * depth + 1), n.max(2 * depth + 1))
        }
    };
    let (w, d) = (board.width(), board.depth());
    if d < rows || w < columns {
        return Err(format!(
            "board {w}x{d}: the {} deployment zones need at least {rows} rows and {columns} columns",
            scenario.title()
        ));
    }
    // Each side's strip along a deployment edge holds the crew on open ground.
    for edge in [0u8, 1] {
        let ground = (0..board.len() as CellIdx)
            .filter(|&c| in_strip(board, c, edge, depth) && is_ground(board, c))
            .count();
        if ground < crew {
            return Err(format!(
                "board {w}x{d}: the {} deployment strip along edge {edge} has {ground} ground cells for {crew} models",
                scenario.title()
            ));
        }
    }
    Ok(())
}
