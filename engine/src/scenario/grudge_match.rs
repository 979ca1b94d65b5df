//! Grudge Match, scenario 2 (p.80): each side secretly names a grudge holder among its characters and a
//! grudge target among the enemy's; edge deployment, infiltrators anywhere in their half; a
//! grudge completed by the holder scores 6/5 VP (first/second), by anyone else 3/2; a holder
//! still conscious at the end scores 2. A completed grudge is announced (it becomes public).

use super::common::{alternate_infiltrators, deploy_crew};
use super::common::{is_character, leader_of, needs_character, score};
use super::set_up;
use super::types::ScenarioInfo;
use super::types::ScenarioStep;
use super::types::{Grudge, ScenarioState};
use super::types::{Placement, ZoneKind};
use super::zones::{in_half, in_strip};
use crate::board::CellIdx;
use crate::limits::DEPLOYMENT_DEPTH;
use crate::profile::Profile;
use crate::state::hooks::ScenarioRules;
use crate::state::{Action, GameState, Health, ModelId, Sequence, Side};
use crate::state::{ModelState, StaticData, Step};

/// Deployment in the order of p.80.
pub(super) fn plan(state: &GameState) -> Vec<ScenarioStep> {
    let a = state.dynamic().scenario.player_a;
    let b = 1 - a;
    let mut steps = vec![ScenarioStep::ChooseZone { side: a, zone: ZoneKind::Edge }];
    steps.extend(deploy_crew(state, a, Placement::Crew));
    steps.extend(deploy_crew(state, b, Placement::Crew));
    steps.extend(alternate_infiltrators(state, a));
    steps
}

/// The crew within 4" of its edge; infiltrators anywhere on their own half.
pub(super) fn zone(state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
    let edge = state.dynamic().scenario.zones[side as usize][0];
    match placement {
        Placement::Infiltrator(_) => in_half(state.board(), cell, edge),
        _ => in_strip(state.board(), cell, edge, DEPLOYMENT_DEPTH),
    }
}

/// Every (holder, target) pair: one of the side's characters and one of the enemy's; in a
/// solo game, any of the AI models on the table (docs/rulings.md).
pub(super) fn grudge_options(state: &GameState, side: Side, out: &mut Vec<Action>) {
    let models = 0..state.models().len() as ModelId;
    let chars = |s: Side| {
        models.clone().filter(move |&m| state.models()[m as usize].side == s && is_character(state, m))
    };
    let targets: Vec<ModelId> = if state.is_solo() {
        models
            .clone()
            .filter(|&m| {
                state.models()[m as usize].side == crate::uc::AI_SIDE
                    && state.models()[m as usize].is_on_table()
            })
            .collect()
    } else {
        chars(1 - side).collect()
    };
    for holder in chars(side) {
        out.extend(targets.iter().map(|&target| Action::Grudge { holder, target }));
    }
}

/// Whether the holder took part in the sequence's attacks on the target (it made a roll
/// against it, or fired a template; docs/rulings.md).
fn holder_struck(seq: &Sequence, holder: ModelId, target: ModelId) -> bool {
    seq.rolls.iter().any(|r| !r.cancelled && r.model == holder && r.target == Some(target))
        || seq.templates.iter().any(|t| t.firer == holder)
}

/// Complete the grudges whose targets were just taken out and score them.
pub(super) fn score_grudges(state: &mut GameState, seq: Option<&Sequence>) {
    let mut completed = Vec::new();
    for side in 0..2u8 {
        let Some(g) = state.dynamic().scenario.grudges[side as usize] else { continue };
        if !g.complete && state.models()[g.target as usize].health == Health::TakenOut {
            completed.push((side, seq.is_some_and(|q| holder_struck(q, g.holder, g.target))));
        }
    }
    let first = !state.dynamic().scenario.first_scored;
    for (side, by_holder) in completed {
        let vp = match (by_holder, first) {
            (true, true) => 6,
            (true, false) => 5,
            (false, true) => 3,
            (false, false) => 2,
        };
        let g = state.dyn_.scenario.grudges[side as usize].as_mut().expect("grudge");
        g.complete = true;
        g.revealed = true; // "the scoring player MUST announce this"
        state.dyn_.scenario.first_scored = true;
        score(state, side, vp);
    }
}

/// Checked at the end of every cleanup from turn 4: both grudges complete; one complete
/// against the enemy leader; or one side has lost (unconscious) both its grudge holder and
/// the enemy's grudge target (docs/rulings.md).
pub(super) fn game_ends(state: &GameState, turn: u8) -> bool {
    if turn < 4 {
        return false;
    }
    let sc = &state.dynamic().scenario;
    let lost = |m: ModelId| state.models()[m as usize].is_unconscious();
    let [Some(g0), Some(g1), _] = sc.grudges else {
        // A solo game (one grudge, or none when no AI model was on the table to choose): it
        // ends once the grudge is complete or its holder is lost.
        return sc.grudges.iter().flatten().any(|g| g.complete || lost(g.holder));
    };
    let g = [g0, g1];
    let both = g0.complete && g1.complete;
    let leader = (0..2).any(|s| g[s].complete && Some(g[s].target) == leader_of(state, 1 - s as Side));
    let wiped = (0..2).any(|s| lost(g[s].holder) && lost(g[1 - s].target));
    both || leader || wiped
}

/// 2 VP for a grudge holder still conscious at the end; every grudge is revealed.
pub(super) fn final_scoring(state: &mut GameState) {
    for side in 0..2u8 {
        let Some(g) = state.dyn_.scenario.grudges[side as usize].as_mut() else { continue };
        g.revealed = true;
        let holder = g.holder;
        if state.models()[holder as usize].is_conscious() {
            score(state, side, 2);
        }
    }
}

/// Scenario 2 of the D5 table; the deployment strips both ways.
const INFO: ScenarioInfo = ScenarioInfo {
    name: "grudge_match",
    title: "Grudge Match",
    summary: "secret grudge holder and target; 6/5 VP when the holder takes the target out \
              (3/2 by another model), 2 if the holder is still conscious",
    page: 80,
    d5: Some(2),
    min_rows: 2 * DEPLOYMENT_DEPTH + 1,
    min_columns: 2 * DEPLOYMENT_DEPTH + 1,
};

/// The rules of Grudge Match.
pub(crate) struct GrudgeMatch;

impl ScenarioRules for GrudgeMatch {
    fn info(&self) -> &'static ScenarioInfo {
        &INFO
    }

    /// A character to hold the grudge.
    fn check_crew(&self, crew: &[&Profile]) -> Result<(), String> {
        needs_character(INFO.title, crew)
    }

    /// No markers.
    fn initial_state(&self, stat: &StaticData, models: &[ModelState]) -> ScenarioState {
        set_up::initial_state(stat, models, usize::MAX, Vec::new())
    }

    /// "Before the game starts both players secretly make note of a Grudge" (p.80): after the
    /// roll-off, side A's grudge then side B's.
    fn initial_steps(&self) -> Vec<Step> {
        let mut steps = crate::state::hooks::shared_initial_steps();
        steps.extend([ScenarioStep::ChooseGrudge(1), ScenarioStep::ChooseGrudge(0)].map(Step::Scenario));
        steps
    }

    fn deployment_plan(&self, state: &GameState) -> Vec<ScenarioStep> {
        plan(state)
    }

    fn legal(&self, state: &GameState, step: &ScenarioStep, out: &mut Vec<Action>) {
        match *step {
            ScenarioStep::ChooseGrudge(side) => grudge_options(state, side, out),
            _ => set_up::legal(state, step, out),
        }
    }

    fn chance_values(&self, state: &GameState, step: &ScenarioStep) -> Vec<u8> {
        set_up::chance_values(state, step)
    }

    fn decide(&self, state: &mut GameState, step: ScenarioStep, action: Action) {
        match (step, action) {
            (ScenarioStep::ChooseGrudge(side), Action::Grudge { holder, target }) => {
                state.dyn_.scenario.grudges[side as usize] =
                    Some(Grudge { holder, target, complete: false, revealed: false });
            }
            _ => set_up::decide(state, step, action),
        }
    }

    fn run(&self, state: &mut GameState, step: ScenarioStep) {
        set_up::run(state, step)
    }

    fn in_zone(&self, state: &GameState, side: Side, placement: Placement, cell: CellIdx) -> bool {
        zone(state, side, placement, cell)
    }

    fn after_health_changes(&self, state: &mut GameState, seq: Option<&Sequence>) {
        score_grudges(state, seq)
    }

    fn end_of_turn(&self, state: &mut GameState) -> bool {
        game_ends(state, state.turn())
    }

    fn final_scoring(&self, state: &mut GameState) {
        final_scoring(state)
    }
}
