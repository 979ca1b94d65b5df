//! The scenarios' plain data: which scenario is played, its markers, grudges and changing
//! state, and its procedure steps. A leaf module: the game state keeps these types without
//! knowing the scenarios' rules, which reach it through [`crate::state::hooks::ScenarioRules`]
//! (`Scenario::rules`, in the scenario module, gives each scenario's).

use crate::board::CellIdx;
use crate::dice::{TestLevel, TestOutcome};
use crate::inline_vec::InlineVec;
use crate::state::model::{ModelId, Side, MAX_SIDES};
use crate::state::node::NodeKind;
use serde::{Deserialize, Serialize};

/// Defines [`Scenario`] from the one list of scenarios (`scenario/list.rs`).
macro_rules! scenario_enum {
    ($($(#[$attr:meta])* $variant:ident $file:ident,)*) => {
        /// Which scenario a game plays: one variant per entry of the scenario list
        /// (`engine/src/scenario/list.rs`, [`crate::for_each_scenario`]), in its order.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Scenario {
            $($(#[$attr])* $variant,)*
        }
    };
}
crate::for_each_scenario!(scenario_enum);

/// A scenario's entry in the scenario list: what it is called, where the rulebook has it,
/// its D5 number and the board it needs. Each scenario's rules give theirs
/// ([`crate::state::hooks::ScenarioRules::info`]); `Scenario::name`, `title`, `parse` and
/// `board_fits` read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScenarioInfo {
    /// Machine name, as typed on the command line (`attack_and_defend`); also its file's name.
    pub name: &'static str,
    /// Title as printed in the rulebook.
    pub title: &'static str,
    /// One line on how the scenario is won.
    pub summary: &'static str,
    /// Rulebook page of the scenario.
    pub page: u8,
    /// Its number on the rulebook's D5 table (p.76); `None` for the skirmish, which is not on it.
    pub d5: Option<u8>,
    /// The rows (across the long edges) its deployment zones, corners and marker bands need.
    pub min_rows: u8,
    /// The columns they need.
    pub min_columns: u8,
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
    pub markers: InlineVec<Marker, 8>,
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

    /// Remove what `player` does not know: the enemy's unannounced grudge and the numbers of
    /// markers `player` has not looked at.
    pub fn mask(&mut self, player: Side) {
        for (side, grudge) in self.grudges.iter_mut().enumerate() {
            if side as Side != player && grudge.is_some_and(|g| !g.revealed) {
                *grudge = None;
            }
        }
        for mk in self.markers.iter_mut() {
            if !mk.known_to(player) {
                mk.number = None;
            }
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
    /// What kind of node the step is (every step listed: see [`Step::kind`]).
    pub fn kind(&self) -> NodeKind {
        match self {
            ScenarioStep::DrawNumber { .. } | ScenarioStep::RollSought(_) => NodeKind::Chance,
            ScenarioStep::ChooseRoles
            | ScenarioStep::ChooseGrudge(_)
            | ScenarioStep::ChooseCourier(_)
            | ScenarioStep::ChooseGroup(_)
            | ScenarioStep::ChooseZone { .. }
            | ScenarioStep::PlaceMarker { .. }
            | ScenarioStep::Deploy { .. }
            | ScenarioStep::DropMarker { .. } => NodeKind::Decision,
            ScenarioStep::DeployNext { .. }
            | ScenarioStep::Infiltrate(_)
            | ScenarioStep::InfiltrationResult(_)
            | ScenarioStep::ResolveLook { .. }
            | ScenarioStep::BeginGame => NodeKind::Automatic,
        }
    }

    /// Chance nodes.
    pub fn is_chance(&self) -> bool {
        self.kind() == NodeKind::Chance
    }
}

/// What a [`ScenarioStep::ChooseZone`] decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZoneKind {
    /// The side's deployment edge (the enemy gets the opposite one).
    Edge,
    /// The side's leader corner (the enemy leader gets the opposite one; Assassinate).
    LeaderCorner,
    /// The side's crew corner (the enemy crew gets the last one; Assassinate).
    CrewCorner,
    /// The side's first corner (its second is the diagonal one; Scavenger Hunt).
    FirstCorner,
}

/// Where a model being deployed may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// The leader in its own corner (Assassinate).
    Leader,
    /// The side's regular deployment zone (its first group's corner in Scavenger Hunt).
    Crew,
    /// The second group's corner (Scavenger Hunt).
    SecondGroup,
    /// The courier, last, in the regular zone (Couriers).
    Courier,
    /// A set-aside infiltrator, after its Intelligence test where the scenario has a table.
    Infiltrator(Option<TestLevel>),
    /// A late arrival on a board edge at the start of a turn; `optional` lets it wait longer.
    Arrival {
        /// It may wait for a later turn instead.
        optional: bool,
    },
}
