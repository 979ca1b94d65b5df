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
//! state only through its hook trait, [`ScenarioRules`]: each scenario is one type in its own
//! file implementing it (`Assassinate` in `assassinate.rs`, ..., and `Skirmish`, the core game
//! without a scenario, in `skirmish.rs`) — its plan of set-up steps, its own decisions, its
//! zones and infiltration table, its scoring and end conditions. [`Scenario::rules`] is the
//! one place the scenario played is matched to its type. What the scenarios share is the
//! trait's default methods and the functions they call here: the opening and the shared
//! set-up steps in `set_up`, the mechanics in [`deployment`], [`markers`] and [`hidden`], and
//! the building blocks of their own rules (victory points, leaders, plan steps, distances) in
//! `common`.
//!
//! # Adding a scenario
//!
//! 1. Add its variant to [`Scenario`] (and its steps, if it has its own, to [`ScenarioStep`]).
//! 2. Write its file: one unit struct implementing [`ScenarioRules`], handing the set-up steps
//!    that are not its own to `set_up` and overriding the default hooks it needs.
//! 3. Add one arm to [`Scenario::rules`], and its board needs to [`board_fits`].
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
mod set_up;
mod skirmish;
pub mod types;
pub mod zones;

use crate::board::{Board, CellIdx};
use crate::state::hooks::ScenarioRules;
use crate::state::{GameState, Step};
use assassinate::Assassinate;
use attack_and_defend::AttackAndDefend;
use couriers::Couriers;
use grudge_match::GrudgeMatch;
use scavenger_hunt::ScavengerHunt;
use skirmish::Skirmish;
use zones::{in_strip, is_ground};

pub use deployment::in_deployment_zone;
pub use types::{Grudge, Marker, MarkerKind, Placement, Scenario, ScenarioState, ScenarioStep, ZoneKind};

impl Scenario {
    /// The scenario's rules, each scenario's one type: the one place the scenario played is
    /// matched to its rules.
    pub fn rules(self) -> &'static dyn ScenarioRules {
        match self {
            Scenario::Skirmish => &Skirmish,
            Scenario::Assassinate => &Assassinate,
            Scenario::GrudgeMatch => &GrudgeMatch,
            Scenario::AttackAndDefend => &AttackAndDefend,
            Scenario::Couriers => &Couriers,
            Scenario::ScavengerHunt => &ScavengerHunt,
        }
    }
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
