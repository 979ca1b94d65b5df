//! The five competitive scenarios (rulebook chapter 6, pp.76–85): set-up, deployment as
//! decision nodes, infiltration, objectives, scoring, game end and hidden information.
//!
//! A scenario is chosen when a game is built ([`Scenario`], kept in the static data) and its
//! progress lives in [`ScenarioState`] inside the dynamic state. Its set-up runs on the same
//! procedure stack as the turns: [`ScenarioStep`]s are decisions (choose player A, edges and
//! corners, place markers and models), chance nodes (infiltration tests, hidden marker
//! numbers, the number sought) or automatic steps. Each scenario's own rules — its plan of
//! set-up steps, its zones and infiltration table, its scoring and end conditions — are in
//! its own module; the shared mechanics are in [`deployment`], [`markers`] and [`hidden`].
//!
//! The core game without a scenario ([`Scenario::Skirmish`]) deploys automatically and scores
//! the points of enemy casualties; it is what hand-written setup files use.

mod assassinate;
mod attack_and_defend;
pub(crate) mod couriers;
pub(crate) mod deployment;
mod grudge_match;
pub(crate) mod hidden;
pub(crate) mod markers;
mod scavenger_hunt;
pub mod zones;

use crate::board::CellIdx;
use crate::dice::TestOutcome;
use crate::state::{Action, GameState, ModelId, Sequence, Side, Step, MAX_SIDES};
use serde::{Deserialize, Serialize};

pub use deployment::{in_deployment_zone, Placement, ZoneKind};

/// Which scenario a game plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scenario {
    /// No scenario: crews deploy automatically on the long edges and score the points of the
    /// enemy models they put down or out (the first-game set-up, p.20).
    #[default]
    Skirmish,
    /// 1. Take out the enemy leader; hold the central treasure (p.78).
    Assassinate,
    /// 2. Secret grudges: take out the chosen enemy with the chosen holder (p.80).
    GrudgeMatch,
    /// 3. Control three objectives, scored on turns 2, 4 and 6 (p.81).
    AttackAndDefend,
    /// 4. Carry your prize off the enemy edge and intercept theirs (p.82).
    Couriers,
    /// 5. Hidden numbered markers, each side seeking one number at a time (p.84).
    ScavengerHunt,
}

impl Scenario {
    /// The five competitive scenarios, in the order of the rulebook's D5 table (p.76).
    pub const ALL: [Scenario; 5] = [
        Scenario::Assassinate,
        Scenario::GrudgeMatch,
        Scenario::AttackAndDefend,
        Scenario::Couriers,
        Scenario::ScavengerHunt,
    ];

    /// Machine name, as typed on the command line (`attack_and_defend`).
    pub fn name(self) -> &'static str {
        match self {
            Scenario::Skirmish => "skirmish",
            Scenario::Assassinate => "assassinate",
            Scenario::GrudgeMatch => "grudge_match",
            Scenario::AttackAndDefend => "attack_and_defend",
            Scenario::Couriers => "couriers",
            Scenario::ScavengerHunt => "scavenger_hunt",
        }
    }

    /// Title as printed in the rulebook.
    pub fn title(self) -> &'static str {
        match self {
            Scenario::Skirmish => "Skirmish (no scenario)",
            Scenario::Assassinate => "Assassinate",
            Scenario::GrudgeMatch => "Grudge Match",
            Scenario::AttackAndDefend => "Attack and Defend",
            Scenario::Couriers => "Couriers",
            Scenario::ScavengerHunt => "Scavenger Hunt",
        }
    }

    /// One line on how the scenario is won.
    pub fn summary(self) -> &'static str {
        match self {
            Scenario::Skirmish => "no objectives: score the points value of enemy models down or taken out",
            Scenario::Assassinate => {
                "leaders in opposite corners; 6/5 VP for taking out the enemy leader first/second, \
                 3 if it is down at the end, 2 for holding the central treasure"
            }
            Scenario::GrudgeMatch => {
                "secret grudge holder and target; 6/5 VP when the holder takes the target out \
                 (3/2 by another model), 2 if the holder is still conscious"
            }
            Scenario::AttackAndDefend => {
                "three objectives taken by Interact; on turns 2, 4 and 6 score 1 VP for your own \
                 or the central one, 3 for the enemy's"
            }
            Scenario::Couriers => {
                "carry your courier's prize off the enemy edge for 4 VP, intercept theirs \
                 (2 VP to hold it, 4 to carry it off), 1 VP per other character off the edge"
            }
            Scenario::ScavengerHunt => {
                "six hidden numbered markers; find the number you seek by Interact, 1 VP per \
                 marker held at the end and per enemy carrier put down"
            }
        }
    }

    /// Rulebook page of the scenario.
    pub fn page(self) -> u8 {
        match self {
            Scenario::Skirmish => 20,
            Scenario::Assassinate => 78,
            Scenario::GrudgeMatch => 80,
            Scenario::AttackAndDefend => 81,
            Scenario::Couriers => 82,
            Scenario::ScavengerHunt => 84,
        }
    }

    /// The scenario for a D5 roll of `roll` (1..=5, p.76).
    pub fn from_d5(roll: u8) -> Scenario {
        Scenario::ALL[(roll.clamp(1, 5) - 1) as usize]
    }

    /// Parse a machine name, a title (any case, spaces or underscores) or a D5 number.
    pub fn parse(text: &str) -> Result<Scenario, String> {
        let key = text.trim().to_lowercase().replace([' ', '-'], "_");
        if let Ok(n) = key.parse::<u8>() {
            if (1..=5).contains(&n) {
                return Ok(Scenario::from_d5(n));
            }
        }
        std::iter::once(Scenario::Skirmish)
            .chain(Scenario::ALL)
            .find(|s| s.name() == key || s.name().replace('_', "") == key.replace('_', ""))
            .ok_or_else(|| {
                let names: Vec<&str> =
                    std::iter::once(Scenario::Skirmish).chain(Scenario::ALL).map(|s| s.name()).collect();
                format!("unknown scenario `{text}`: expected one of {}, random, or 1-5", names.join(", "))
            })
    }
}

/// What kind of 30mm marker a [`Marker`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkerKind {
    /// A central objective (Assassinate's treasure, Attack and Defend's central objective).
    Central,
    /// A side's own objective (Attack and Defend).
    Objective(Side),
    /// A side's courier's prize (Couriers).
    Prize(Side),
    /// A numbered marker whose number is hidden underneath (Scavenger Hunt).
    Numbered,
}

/// An objective marker, prize or numbered marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Marker {
    /// What it is.
    pub kind: MarkerKind,
    /// Where it lies when it is on the table and nobody carries it.
    pub cell: CellIdx,
    /// Whether it has been placed (or dropped) on the table.
    pub placed: bool,
    /// The model carrying it, if any.
    pub holder: Option<ModelId>,
    /// The side controlling it (Attack and Defend).
    pub controller: Option<Side>,
    /// Its hidden number (Scavenger Hunt), drawn the first time anyone looks at it; `None`
    /// while nobody has.
    pub number: Option<u8>,
    /// Bit s set: side s knows the number.
    pub known: u8,
    /// Bit n set: everyone knows the number is not n (a side looked for n and put it back).
    pub not: u8,
    /// Shown to both players (found, then carried or dropped): anyone may pick it up.
    #[serde(default)]
    pub shown: bool,
    /// Carried off the table (Couriers).
    pub off_table: bool,
}

impl Marker {
    /// A marker of `kind`, not yet on the table.
    pub fn new(kind: MarkerKind) -> Marker {
        Marker {
            kind,
            cell: 0,
            placed: false,
            holder: None,
            controller: None,
            number: None,
            known: 0,
            not: 0,
            shown: false,
            off_table: false,
        }
    }

    /// On the table and not carried: it can be interacted with where it lies.
    pub fn is_loose(&self) -> bool {
        self.placed && self.holder.is_none() && !self.off_table
    }

    /// Whether `side` knows its number.
    pub fn known_to(&self, side: Side) -> bool {
        self.known & (1 << side) != 0
    }
}

/// A side's secret grudge (Grudge Match, p.80).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Grudge {
    /// The side's own character that holds the grudge.
    pub holder: ModelId,
    /// The enemy character it is against.
    pub target: ModelId,
    /// The target has been taken out.
    pub complete: bool,
    /// Announced to the opponent (when it scored, p.80 special rules).
    pub revealed: bool,
}

/// The changing part of a scenario: roles, zones, markers, secrets and victory points.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScenarioState {
    /// The side that is player A (chosen by the player who wins the initiative).
    pub player_a: Side,
    /// Victory points scored so far (final once the game is over).
    pub vp: [i16; MAX_SIDES],
    /// Each side's chosen zones: the deployment edge, or \[crew corner, leader corner\]
    /// (Assassinate), or \[first corner, second corner\] (Scavenger Hunt).
    pub zones: [[u8; 2]; MAX_SIDES],
    /// Objective markers, prizes or numbered markers.
    pub markers: crate::inline_vec::InlineVec<Marker, 8>,
    /// Each side's grudge (Grudge Match).
    pub grudges: [Option<Grudge>; MAX_SIDES],
    /// Each side's courier (Couriers).
    pub couriers: [Option<ModelId>; MAX_SIDES],
    /// The number each side seeks (Scavenger Hunt); public.
    pub sought: [Option<u8>; MAX_SIDES],
    /// Whether a "first to…" objective has been scored (then the next one scores less).
    pub first_scored: bool,
    /// Per side: its scored event happened (Assassinate: it took the enemy leader out).
    pub done: [bool; MAX_SIDES],
    /// Bit m: model m is set aside to infiltrate.
    pub set_aside: u32,
    /// Bit m: model m is in its side's first group (Scavenger Hunt).
    pub group: u32,
    /// Bit m: model m deploys later on a board edge (Attack and Defend blunder: on turn 2;
    /// Couriers "Nailed It": when its owner chooses).
    pub arrivals: u32,
    /// The last infiltration test's result.
    pub infiltration: Option<TestOutcome>,
}

impl ScenarioState {
    /// The side of player A (`true`) or player B (`false`).
    pub fn side_of(&self, player_a: bool) -> Side {
        if player_a {
            self.player_a
        } else {
            1 - self.player_a
        }
    }
}

/// A scenario procedure step on the game's stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScenarioStep {
    /// Decision for the side holding the initiative: which side is player A.
    ChooseRoles,
    /// Decision, secret: a side's grudge holder and target (Grudge Match).
    ChooseGrudge(Side),
    /// Decision: a side nominates its courier (Couriers).
    ChooseCourier(Side),
    /// Decision: a side nominates a model for its first deployment group (Scavenger Hunt).
    ChooseGroup(Side),
    /// Decision: a side chooses an edge or a corner.
    ChooseZone {
        /// The choosing side.
        side: Side,
        /// What is chosen.
        zone: ZoneKind,
    },
    /// Decision: a side places marker `marker` on the table.
    PlaceMarker {
        /// The placing side.
        side: Side,
        /// Index of the marker.
        marker: u8,
    },
    /// Automatic: the side's next model for `placement`, if any, is to be deployed.
    DeployNext {
        /// The deploying side.
        side: Side,
        /// Where it deploys.
        placement: Placement,
    },
    /// Decision: where `model` deploys (or, where allowed, that it waits).
    Deploy {
        /// The model.
        model: ModelId,
        /// Where it may deploy.
        placement: Placement,
    },
    /// Automatic: the side's next set-aside infiltrator makes its test (or just deploys).
    Infiltrate(Side),
    /// Automatic: the infiltration table decides where the model deploys.
    InfiltrationResult(ModelId),
    /// Chance: the number under a marker looked at for the first time.
    DrawNumber {
        /// Index of the marker.
        marker: u8,
    },
    /// Automatic: a model that looked at a marker learns its number.
    ResolveLook {
        /// The looking model.
        model: ModelId,
        /// Index of the marker.
        marker: u8,
    },
    /// Chance: the number a side seeks next (Scavenger Hunt).
    RollSought(Side),
    /// Decision for the carrier's enemy: where a dropped marker lies.
    DropMarker {
        /// Index of the marker.
        marker: u8,
        /// The choosing side.
        chooser: Side,
        /// The unconscious carrier.
        carrier: ModelId,
    },
    /// Automatic: deployment is over; player B takes the first activation.
    BeginGame,
}

impl ScenarioStep {
    /// Chance nodes.
    pub fn is_chance(&self) -> bool {
        matches!(self, ScenarioStep::DrawNumber { .. } | ScenarioStep::RollSought(_))
    }

    /// Steps that wait for a decision or a roll.
    pub fn waits(&self) -> bool {
        !matches!(
            self,
            ScenarioStep::DeployNext { .. }
                | ScenarioStep::Infiltrate(_)
                | ScenarioStep::InfiltrationResult(_)
                | ScenarioStep::ResolveLook { .. }
                | ScenarioStep::BeginGame
        )
    }
}

/// A new game's scenario state: its markers, and the infiltrators set aside (Assassinate:
/// up to two per side, the first in the crew list; docs/rulings.md).
pub(crate) fn initial_state(
    stat: &crate::state::StaticData,
    models: &[crate::state::ModelState],
) -> ScenarioState {
    let mut sc = ScenarioState::default();
    let limit = if stat.scenario == Scenario::Assassinate { 2 } else { usize::MAX };
    let mut count = [0usize; MAX_SIDES];
    for (i, m) in models.iter().enumerate() {
        if stat.scenario != Scenario::Skirmish
            && crate::setup::infiltrates(&stat.profiles[m.profile as usize])
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
        Scenario::ScavengerHunt => vec![Marker::new(MarkerKind::Numbered); scavenger_hunt::MARKERS as usize],
    }
    .into();
    sc
}

/// The stack a new game starts with (last = first to run): the scenario's secret choices,
/// the initiative roll-off and the A/B choice, whose answer plans the deployment.
pub(crate) fn initial_steps(scenario: Scenario) -> Vec<Step> {
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
pub(crate) fn player_of(state: &GameState, step: &ScenarioStep) -> crate::state::Player {
    use crate::state::Player;
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
pub(crate) fn legal(state: &GameState, step: &ScenarioStep, out: &mut Vec<Action>) {
    match *step {
        ScenarioStep::ChooseRoles => out.extend([Action::PlayerA(0), Action::PlayerA(1)]),
        ScenarioStep::ChooseGrudge(side) => grudge_match::grudge_options(state, side, out),
        ScenarioStep::ChooseCourier(side) => couriers::courier_options(state, side, out),
        ScenarioStep::ChooseGroup(side) => scavenger_hunt::group_options(state, side, out),
        ScenarioStep::ChooseZone { side, zone } => deployment::zone_options(state, side, zone, out),
        ScenarioStep::PlaceMarker { side, marker } => deployment::marker_cells(state, side, marker, out),
        ScenarioStep::Deploy { model, placement } => deployment::deploy_options(state, model, placement, out),
        ScenarioStep::DropMarker { carrier, .. } => markers::drop_cells(state, carrier, out),
        s if s.is_chance() => {
            let n = chance_outcomes(state, &s).len();
            out.extend((0..n).map(|i| Action::Chance(i as u8)));
        }
        _ => {}
    }
}

/// The numbers a scenario chance node draws among, outcome `i` the `i`-th, all alike: the
/// numbers not yet under a marker, or those a side may seek; empty at other steps.
pub(crate) fn chance_values(state: &GameState, step: &ScenarioStep) -> Vec<u8> {
    match *step {
        ScenarioStep::DrawNumber { .. } => markers::undrawn_numbers(state),
        ScenarioStep::RollSought(side) => scavenger_hunt::sought_candidates(state, side),
        _ => Vec::new(),
    }
}

/// The outcomes of a scenario chance node with their probabilities.
pub(crate) fn chance_outcomes(state: &GameState, step: &ScenarioStep) -> Vec<(Action, f64)> {
    let values = chance_values(state, step);
    let p = 1.0 / values.len().max(1) as f64;
    (0..values.len()).map(|i| (Action::Chance(i as u8), p)).collect()
}

/// Apply a chance outcome of a scenario step.
pub(crate) fn chance(state: &mut GameState, step: ScenarioStep, outcome: u8) {
    let n = || chance_values(state, &step)[outcome as usize];
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
pub(crate) fn decide(state: &mut GameState, step: ScenarioStep, action: Action) {
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
pub(crate) fn run(state: &mut GameState, step: ScenarioStep) {
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

/// Steps at the beginning of a turn's initiative phase (before the roll-off), last first.
pub(crate) fn initiative_phase_steps(state: &GameState) -> Vec<Step> {
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
pub(crate) fn ends_at_ap_grant(state: &GameState) -> bool {
    state.static_data().scenario == Scenario::ScavengerHunt && scavenger_hunt::a_side_cannot_act(state)
}

/// After health changes (the end of a sequence, a fire roll): score what just happened and
/// drop the markers of carriers that went unconscious. `seq` is the sequence that ended.
pub(crate) fn after_health_changes(state: &mut GameState, seq: Option<&Sequence>) {
    match state.static_data().scenario {
        Scenario::Assassinate => assassinate::score_take_outs(state),
        Scenario::GrudgeMatch => grudge_match::score_grudges(state, seq),
        Scenario::Couriers | Scenario::ScavengerHunt => markers::drop_from_unconscious(state),
        _ => {}
    }
}

/// End of a turn's cleanup: in-game scoring, then whether the game ends now.
pub(crate) fn end_of_turn(state: &mut GameState) -> bool {
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
pub(crate) fn final_scoring(state: &mut GameState) {
    match state.static_data().scenario {
        Scenario::Assassinate => assassinate::final_scoring(state),
        Scenario::GrudgeMatch => grudge_match::final_scoring(state),
        Scenario::Couriers => couriers::final_scoring(state),
        Scenario::ScavengerHunt => scavenger_hunt::final_scoring(state),
        Scenario::AttackAndDefend | Scenario::Skirmish => {}
    }
}

/// Add `vp` victory points to `side`.
pub(crate) fn score(state: &mut GameState, side: Side, vp: i16) {
    state.dyn_.scenario.vp[side as usize] += vp;
}

/// The side's leader (the model with the Leader role), if it has one in play.
pub(crate) fn leader_of(state: &GameState, side: Side) -> Option<ModelId> {
    (0..state.models().len() as ModelId).find(|&m| {
        state.models()[m as usize].side == side && state.profile(m).role == crate::profile::Role::Leader
    })
}

/// Whether a model is a "Character" for the scenarios (not a troop, cavalry or beast; p.58,
/// p.61).
pub(crate) fn is_character(state: &GameState, m: ModelId) -> bool {
    state.profile(m).model_type == crate::profile::ModelType::Character
}

/// A scenario step in words (for errors and logs).
pub fn describe_step(state: &GameState, step: &ScenarioStep) -> String {
    let side = |s: &Side| format!("side {}", (b'A' + (*s).min(25)) as char);
    let name = |m: &ModelId| {
        if (*m as usize) < state.models().len() {
            crate::render::model_name(state, *m)
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
        ScenarioStep::PlaceMarker { side: s, marker } => format!("{} places marker {}", side(s), marker + 1),
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

/// A zone choice in words: "the edge at row 0", "the corner at (0,35)".
pub fn describe_zone_choice(state: &GameState, z: u8) -> String {
    let board = state.board();
    let is_edge = matches!(
        state.dynamic().steps.last(),
        Some(Step::Scenario(ScenarioStep::ChooseZone { zone: ZoneKind::Edge, .. }))
    );
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
