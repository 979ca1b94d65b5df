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
//! zones and infiltration table, its scoring and end conditions. The one list of scenarios is
//! `list.rs` ([`crate::for_each_scenario`]): [`Scenario`]'s variants, the files' `mod` lines
//! and `SCENARIOS` (each scenario and its rules, which [`Scenario::rules`] reads) are generated
//! from it, and so is the scripted player's table of plans in crate `agents`. What the
//! scenarios share is the trait's default methods and the functions they call here: the
//! opening and the shared set-up steps in `set_up`, the mechanics in [`deployment`],
//! [`markers`] and [`hidden`], and the building blocks of their own rules (victory points,
//! leaders, plan steps, distances) in `common`.
//!
//! # Adding a scenario
//!
//! 1. Write its file, `NAME.rs` here: one unit struct named as its variant implementing
//!    [`ScenarioRules`] with its [`ScenarioInfo`] (name, title, summary, page, D5 number,
//!    board needs), handing the set-up steps that are not its own to `set_up` and overriding
//!    the default hooks it needs (its own steps, if it has any, go in [`ScenarioStep`]).
//! 2. Add its entry (`Variant file,` with a doc comment) at the end of the list in `list.rs`.
//! 3. The scripted player's plan for it (`agents/src/scripted/plans/NAME.rs`) and its test
//!    (`engine/tests/scenario_NAME.rs`): see `docs/extending.md`.
//!
//! The core game without a scenario ([`Scenario::Skirmish`]) deploys automatically and scores
//! the points of enemy casualties; it is what hand-written setup files use.

mod common;
pub(crate) mod deployment;
pub(crate) mod hidden;
mod list;
pub(crate) mod markers;
mod set_up;
pub mod types;
pub mod zones;

use crate::board::{Board, CellIdx};
use crate::state::hooks::ScenarioRules;
use crate::state::{GameState, Step};
use zones::{in_strip, is_ground};

pub use deployment::in_deployment_zone;
pub use types::{
    Grudge, Marker, MarkerKind, Placement, Scenario, ScenarioInfo, ScenarioState, ScenarioStep, ZoneKind,
};

/// Declares each scenario's file (its `mod` line) and `SCENARIOS`, every scenario and its
/// rules in the order of [`Scenario`]'s variants, from the one list of scenarios
/// (`list.rs`). Everything about a scenario (its name, title, page, D5 number, board needs
/// and rules) is read from its rules, the unit struct of its file named as its variant.
macro_rules! scenario_rules {
    ($($(#[$attr:meta])* $variant:ident $file:ident,)*) => {
        $(pub(crate) mod $file;)*

        /// Every scenario and its rules, in the order of [`Scenario`]'s variants.
        const SCENARIOS: [(Scenario, &dyn ScenarioRules); [$(Scenario::$variant),*].len()] =
            [$((Scenario::$variant, &$file::$variant)),*];
    };
}
crate::for_each_scenario!(scenario_rules);

// Each scenario sits at its variant's index, so `Scenario::rules` is one array read.
const _: () = {
    let mut i = 0;
    while i < SCENARIOS.len() {
        assert!(SCENARIOS[i].0 as usize == i, "SCENARIOS must follow the order of Scenario's variants");
        i += 1;
    }
};

impl Scenario {
    /// How many scenarios there are, the skirmish included: the observation's scenario slots.
    pub const COUNT: usize = SCENARIOS.len();

    /// The competitive scenarios (every one but the skirmish), in the order of the rulebook's
    /// D5 table (p.76).
    pub const ALL: [Scenario; SCENARIOS.len() - 1] = {
        let mut all = [Scenario::Skirmish; SCENARIOS.len() - 1];
        let mut i = 0;
        while i < all.len() {
            all[i] = SCENARIOS[i + 1].0;
            i += 1;
        }
        all
    };

    /// Every scenario, the skirmish first, in the order of the variants (and of the
    /// observation's scenario slots).
    pub const EVERY: [Scenario; SCENARIOS.len()] = {
        let mut every = [Scenario::Skirmish; SCENARIOS.len()];
        let mut i = 0;
        while i < every.len() {
            every[i] = SCENARIOS[i].0;
            i += 1;
        }
        every
    };

    /// The scenario's rules, each scenario's one type, from `SCENARIOS`.
    pub fn rules(self) -> &'static dyn ScenarioRules {
        SCENARIOS[self as usize].1
    }

    /// Its entry in the scenario list: name, title, summary, page, D5 number, board needs.
    pub fn info(self) -> &'static ScenarioInfo {
        self.rules().info()
    }

    /// Machine name, as typed on the command line (`attack_and_defend`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Title as printed in the rulebook.
    pub fn title(self) -> &'static str {
        self.info().title
    }

    /// One line on how the scenario is won.
    pub fn summary(self) -> &'static str {
        self.info().summary
    }

    /// Rulebook page of the scenario.
    pub fn page(self) -> u8 {
        self.info().page
    }

    /// The scenario for a D5 roll of `roll` (clamped to the table, 1..=5, p.76).
    pub fn from_d5(roll: u8) -> Scenario {
        let roll = roll.clamp(1, Scenario::ALL.len() as u8);
        Scenario::ALL.into_iter().find(|s| s.info().d5 == Some(roll)).expect("every D5 number has a scenario")
    }

    /// Parse a machine name, a title (any case, spaces or underscores) or a D5 number.
    pub fn parse(text: &str) -> Result<Scenario, String> {
        let key = text.trim().to_lowercase().replace([' ', '-'], "_");
        if let Some(s) =
            key.parse::<u8>().ok().and_then(|n| SCENARIOS.iter().find(|(_, r)| r.info().d5 == Some(n)))
        {
            return Ok(s.0);
        }
        SCENARIOS
            .iter()
            .map(|&(s, _)| s)
            .find(|s| s.name() == key || s.name().replace('_', "") == key.replace('_', ""))
            .ok_or_else(|| {
                let names: Vec<&str> = SCENARIOS.iter().map(|(s, _)| s.name()).collect();
                format!(
                    "unknown scenario `{text}`: expected one of {}, random, or 1-{}",
                    names.join(", "),
                    Scenario::ALL.len()
                )
            })
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
    let (rows, columns) = (scenario.info().min_rows, scenario.info().min_columns);
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
