//! The scripted player's plan for each scenario, one file each: what the scenario's
//! objectives make a model worth, which tasks and goals its models take, what they guard,
//! what an Interact on a marker gains, and its set-up choices. The rest of the scripted
//! player ([`super::worth`], [`super::plan`], [`super::act`], [`super::setup`]) asks the
//! scenario's plan ([`plan_of`], or `View::plan`) through [`ScenarioPlan`]; the default methods are the
//! skirmish's (no objectives).
//!
//! A new scenario: a file here named as the scenario (`NAME.rs`), holding a unit struct named
//! as its [`Scenario`] variant that implements [`ScenarioPlan`]. Its `mod` line and its arm in
//! [`plan_of`] are generated from the engine's one list of scenarios
//! ([`engine::for_each_scenario`]), so a scenario without a plan file fails to build.

use super::fields::Fields;
use super::goal::Goal;
use super::view::View;
use engine::board::CellIdx;
use engine::scenario::Scenario;
use engine::state::ModelId;
use engine::GameState;

/// A place a model may guard ([`ScenarioPlan::wards`]): a friend or an objective.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guarded {
    /// Where it is.
    pub cell: CellIdx,
    /// Its height.
    pub z: u8,
    /// What losing it costs, in the score's units.
    pub stake: f64,
    /// The friend guarded, if it is one.
    pub who: Option<ModelId>,
}

/// What the scripted player makes of a scenario. Every method has the skirmish's answer by
/// default.
pub(crate) trait ScenarioPlan: Sync {
    /// Whether the game ends before its last turn from turn 4 on, as it stands (`sc`, the
    /// scenario state the side sees).
    fn ends_early(&self, _state: &GameState, _sc: &engine::scenario::ScenarioState) -> bool {
        false
    }

    /// How much more than its worth own model `m` matters (a leader to be assassinated, a
    /// grudge holder, a carrier); 1 by default.
    fn importance(&self, _view: &View, _m: ModelId) -> f64 {
        1.0
    }

    /// What the scenario adds to enemy `m` going down; nothing by default.
    fn bonus_down(&self, _view: &View, _m: ModelId) -> f64 {
        0.0
    }

    /// What the scenario adds to enemy `m` being taken out by `attacker`; nothing by default.
    fn bonus_out(&self, _view: &View, _attacker: Option<ModelId>, _m: ModelId) -> f64 {
        0.0
    }

    /// The side's objective tasks now: cells a model should reach and interact at (or stand
    /// by); none by default.
    fn tasks(&self, _view: &View) -> Vec<CellIdx> {
        Vec::new()
    }

    /// Whether `f` may take on objective tasks (not a prize carrier, not a leader to keep
    /// safe); any model that can carry by default.
    fn takes_tasks(&self, _view: &View, _f: ModelId) -> bool {
        true
    }

    /// A goal of the scenario's own for `m`, before tasks and the hunt (a carrier's way off
    /// the table, a model to keep safe); none by default.
    fn own_goal(&self, _view: &View, _fields: &mut Fields, _m: ModelId) -> Option<Goal> {
        None
    }

    /// Whether hunter `m` keeps its distance from enemy `e` (a grudge holder before its
    /// target is down); never by default.
    fn keeps_distance(&self, _view: &View, _m: ModelId, _e: ModelId) -> bool {
        false
    }

    /// Weight of an inch toward the enemy in the hunt.
    fn hunt_weight(&self) -> f64 {
        super::goal::HUNT_WEIGHT
    }

    /// What model `m` may guard (`m` itself excluded); nothing by default.
    fn wards(&self, _view: &View, _m: ModelId, _out: &mut Vec<Guarded>) {}

    /// Victory points and other gains of `m`'s Interact on marker `marker`; none by default.
    fn marker_value(&self, _view: &View, _m: ModelId, _marker: u8) -> f64 {
        0.0
    }

    /// Whether the side wants to be player A (it picks the deployment edge, or places the
    /// first markers and picks its diagonal); by default player B, who activates first.
    fn wants_player_a(&self) -> bool {
        false
    }

    /// How the side scores placing its next marker on a cell (worked out once per decision);
    /// by default near the centre, on cover.
    fn marker_spot<'v>(&self, view: &'v View<'v>) -> Box<dyn Fn(CellIdx) -> f64 + 'v> {
        Box::new(|cell| near_centre(view, cell))
    }

    /// Where model `m`, being deployed, wants to be near; by default the enemy's edge, stopping
    /// at its pass range.
    fn deploy_goal(&self, view: &View, fields: &mut Fields, m: ModelId) -> Goal {
        let enemy = 1 - view.side as usize;
        let stop = super::goal::best_range(view, m) as u16 * 10;
        let cells = super::places::edge_cells(view, view.sc.zones[enemy][0]);
        super::places::goal_toward(view, fields, m, &cells, 0.02, stop)
    }

    /// Whether losing `m` costs the scenario (it deploys back and in cover); never by default.
    fn precious(&self, _view: &View, _m: ModelId) -> bool {
        false
    }
}

/// A marker spot near the centre, on cover (the default [`ScenarioPlan::marker_spot`]).
pub(crate) fn near_centre(view: &View, cell: CellIdx) -> f64 {
    let board = view.state.board();
    let mid = engine::scenario::zones::centre(board);
    -(board.centre_distance(mid, 0, cell, 0) as f64) * 0.1 + super::places::shelter(view, cell)
}

/// Declares each scenario's plan file (its `mod` line) and [`plan_of`] from the engine's one
/// list of scenarios ([`engine::for_each_scenario`]).
macro_rules! scenario_plans {
    ($($(#[$attr:meta])* $variant:ident $file:ident,)*) => {
        $(mod $file;)*

        /// The scripted player's plan for `scenario`: the one place a scenario is matched to
        /// its plan, the unit struct of its plan file.
        pub(crate) fn plan_of(scenario: Scenario) -> &'static dyn ScenarioPlan {
            match scenario {
                $(Scenario::$variant => &$file::$variant,)*
            }
        }
    };
}
engine::for_each_scenario!(scenario_plans);
