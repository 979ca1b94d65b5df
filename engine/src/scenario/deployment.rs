//! Deployment shared by the scenarios: choosing edges and corners, placing markers, placing
//! each model as a decision, infiltration tests and late arrivals (pp.76–85).
//!
//! Each scenario's rules say which cells a placement allows (`ScenarioRules::in_zone`) and how
//! far from leaders, enemies and markers it must stay (`ScenarioRules::keeps_spacing`). When
//! no cell satisfies both (a crowded zone on a busy board), the distance rule is dropped, then
//! the zone: a model is always placed somewhere (docs/rulings.md).

use super::types::{Placement, Scenario, ScenarioStep, ZoneKind};
use super::zones::{self, corners_adjacent, edge_between, is_long_edge, opposite_corner, opposite_edge};
use crate::board::{CellIdx, Terrain};
use crate::dice::TestLevel;
use crate::state::{Action, GameState, Health, ModelId, Side, Stance, Step};

/// The choices at a [`ScenarioStep::ChooseZone`].
pub(crate) fn zone_options(state: &GameState, side: Side, zone: ZoneKind, out: &mut Vec<Action>) {
    let board = state.board();
    let sc = &state.dynamic().scenario;
    let other = 1 - side;
    match zone {
        ZoneKind::Edge => out.extend((0..zones::EDGES).filter(|&e| is_long_edge(board, e)).map(Action::Zone)),
        ZoneKind::LeaderCorner => out.extend((0..4).map(Action::Zone)),
        ZoneKind::CrewCorner => {
            let (own_leader, enemy_leader) = (sc.zones[side as usize][1], sc.zones[other as usize][1]);
            let free: Vec<u8> = (0..4).filter(|&c| c != own_leader && c != enemy_leader).collect();
            // On a 3'x4' board each player's two corners are joined by a long edge (p.76).
            let joined = |crew: u8| {
                let enemy_crew = free.iter().copied().find(|&c| c != crew).unwrap_or(crew);
                is_long_edge(board, edge_between(own_leader, crew))
                    && is_long_edge(board, edge_between(enemy_leader, enemy_crew))
            };
            let good: Vec<u8> = free.iter().copied().filter(|&c| joined(c)).collect();
            out.extend(if good.is_empty() { free } else { good }.into_iter().map(Action::Zone));
        }
        ZoneKind::FirstCorner => {
            let placed = sc.zones[other as usize][0];
            let first = side == sc.player_a;
            out.extend((0..4).filter(|&c| first || corners_adjacent(c, placed)).map(Action::Zone));
        }
    }
}

/// Record a zone choice and the zones it fixes for the opponent.
pub(crate) fn choose_zone(state: &mut GameState, side: Side, zone: ZoneKind, z: u8) {
    let sc = &mut state.dyn_.scenario;
    let (s, o) = (side as usize, 1 - side as usize);
    match zone {
        ZoneKind::Edge => {
            sc.zones[s][0] = z;
            sc.zones[o][0] = opposite_edge(z);
        }
        ZoneKind::LeaderCorner => {
            sc.zones[s][1] = z;
            sc.zones[o][1] = opposite_corner(z);
        }
        ZoneKind::CrewCorner => {
            sc.zones[s][0] = z;
            let (l1, l2) = (sc.zones[s][1], sc.zones[o][1]);
            sc.zones[o][0] = (0..4).find(|&c| c != z && c != l1 && c != l2).expect("four corners");
        }
        ZoneKind::FirstCorner => {
            sc.zones[s][0] = z;
            sc.zones[s][1] = opposite_corner(z);
        }
    }
}

/// Cells where `side` may place marker `marker`.
pub(crate) fn marker_cells(state: &GameState, side: Side, marker: u8, out: &mut Vec<Action>) {
    let board = state.board();
    let rules = state.rules();
    let allowed = |cell: CellIdx| rules.marker_allowed(state, side, marker, cell);
    let cells = || (0..board.len() as CellIdx).filter(|&c| zones::is_ground(board, c));
    out.extend(cells().filter(|&c| allowed(c)).map(Action::Deploy));
    if out.is_empty() {
        out.extend(cells().map(Action::Deploy));
    }
}

/// How strictly a placement's rules are applied (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Strictness {
    /// The zone and the distance rules.
    Full,
    /// The zone only.
    ZoneOnly,
    /// Anywhere at ground level.
    Anywhere,
}

/// The cells `model` may deploy on for `placement` (and `Reserve` where it may wait).
pub(crate) fn deploy_options(state: &GameState, model: ModelId, placement: Placement, out: &mut Vec<Action>) {
    let side = state.models()[model as usize].side;
    for strictness in [Strictness::Full, Strictness::ZoneOnly, Strictness::Anywhere] {
        let consider = |cell: CellIdx| {
            if free_ground(state, side, cell)
                && (strictness != Strictness::Full
                    || state.rules().keeps_spacing(state, side, placement, cell))
            {
                out.push(Action::Deploy(cell));
            }
        };
        if strictness == Strictness::Anywhere {
            (0..state.board().len() as CellIdx).for_each(consider);
        } else {
            for_each_zone_cell(state, side, placement, consider);
        }
        if !out.is_empty() {
            break;
        }
    }
    if may_wait(state, placement) {
        out.push(Action::Reserve);
    }
}

/// What a zone's cells depend on: the board, the scenario, the side, the placement and the
/// zones both sides chose.
type ZoneKey = (u64, Scenario, Side, Placement, [[u8; 2]; crate::state::MAX_SIDES]);

thread_local! {
    /// Zone cells (one bit each) of the last few zones asked for: every deployment decision
    /// of a game with the same zones asks for the same cells.
    static ZONE_CELLS: std::cell::RefCell<Vec<(ZoneKey, Vec<u64>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Call `f` with each cell of `side`'s deployment zone for `placement`, in cell order.
fn for_each_zone_cell(state: &GameState, side: Side, placement: Placement, mut f: impl FnMut(CellIdx)) {
    let board = state.board();
    let key = (board.id(), state.static_data().scenario, side, placement, state.dynamic().scenario.zones);
    ZONE_CELLS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let at = match cache.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                if cache.len() >= 16 {
                    cache.clear();
                }
                let mut bits = vec![0u64; board.len().div_ceil(64)];
                for cell in
                    (0..board.len() as CellIdx).filter(|&c| state.rules().in_zone(state, side, placement, c))
                {
                    bits[cell as usize / 64] |= 1 << (cell % 64);
                }
                cache.push((key, bits));
                cache.len() - 1
            }
        };
        for (w, &word) in cache[at].1.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                f((w * 64 + rest.trailing_zeros() as usize) as CellIdx);
                rest &= rest - 1;
            }
        }
    });
}

/// Whether a model may stay off the table for now instead (Couriers' "Nailed It").
fn may_wait(state: &GameState, placement: Placement) -> bool {
    match placement {
        Placement::Arrival { optional } => optional,
        Placement::Infiltrator(Some(level)) => state.rules().infiltrator_may_wait(level),
        _ => false,
    }
}

/// Open ground at ground level, empty, not touching an enemy model.
fn free_ground(state: &GameState, side: Side, cell: CellIdx) -> bool {
    let board = state.board();
    zones::is_ground(board, cell)
        && state.dynamic().uc.marker_at(cell).is_none()
        && !state.models().iter().any(|m| m.is_on_table() && m.cell == cell)
        && !state.touches_enemy(side, cell, board.cell(cell).height, None)
}

/// Whether `cell` lies in `side`'s deployment zone (its crew's zone; in Couriers, the strip
/// along its edge, which is where the enemy's models leave the table). False while the zones
/// are still to be chosen, and everywhere in the skirmish.
pub fn in_deployment_zone(state: &GameState, side: Side, cell: CellIdx) -> bool {
    let choosing = state
        .dynamic()
        .steps
        .iter()
        .any(|s| matches!(s, crate::state::Step::Scenario(ScenarioStep::ChooseZone { .. })));
    !choosing
        && state.rules().has_deployment_zones()
        && state.rules().in_zone(state, side, Placement::Crew, cell)
}

/// Place `model` (or keep it waiting).
pub(crate) fn deploy(state: &mut GameState, model: ModelId, _placement: Placement, action: Action) {
    let bit = 1u32 << model;
    match action {
        Action::Deploy(cell) => {
            let board = state.board();
            let c = *board.cell(cell);
            let m = &mut state.dyn_.models[model as usize];
            m.cell = cell;
            m.z = c.height;
            m.stance = if c.terrain == Terrain::Water { Stance::Swimming } else { Stance::Standing };
            m.health = Health::Conscious;
            state.dyn_.scenario.arrivals &= !bit;
        }
        Action::Reserve => state.dyn_.scenario.arrivals |= bit,
        other => unreachable!("validated deployment action {other:?}"),
    }
}

/// Queue the deployment of the side's next model for `placement`, if it has one left.
pub(crate) fn deploy_next(state: &mut GameState, side: Side, placement: Placement) {
    let sc = &state.dynamic().scenario;
    let rules = state.rules();
    let waiting = |i: usize| {
        let m = &state.models()[i];
        m.side == side && m.health == Health::Reserve && sc.set_aside & (1 << i) == 0
    };
    let leader = super::common::leader_of(state, side).map(|l| l as usize);
    let courier = sc.couriers[side as usize].map(|c| c as usize);
    let n = state.models().len();
    let model = match placement {
        Placement::Leader => leader.filter(|&l| state.models()[l].health == Health::Reserve),
        Placement::Courier => courier.filter(|&c| state.models()[c].health == Health::Reserve),
        Placement::Crew => (0..n).find(|&i| {
            waiting(i)
                && !(rules.leader_deploys_apart() && Some(i) == leader)
                && Some(i) != courier
                && (!rules.deploys_in_groups() || sc.group & (1 << i) != 0)
        }),
        Placement::SecondGroup => (0..n).find(|&i| waiting(i) && sc.group & (1 << i) == 0),
        Placement::Infiltrator(_) | Placement::Arrival { .. } => None,
    };
    if let Some(m) = model {
        state.dyn_.steps.push(Step::Scenario(ScenarioStep::Deploy { model: m as ModelId, placement }));
    }
}

/// The side's next set-aside infiltrator: an Intelligence test where the scenario has an
/// infiltration table, otherwise straight to its placement.
pub(crate) fn infiltrate(state: &mut GameState, side: Side) {
    let sc = &state.dynamic().scenario;
    let Some(m) = state.models().iter().enumerate().position(|(i, m)| {
        m.side == side
            && m.health == Health::Reserve
            && sc.set_aside & (1 << i) != 0
            && sc.arrivals & (1 << i) == 0
    }) else {
        return;
    };
    let m = m as ModelId;
    // Taken off the set-aside list so that the next Infiltrate finds the next one.
    state.dyn_.scenario.set_aside &= !(1 << m);
    if state.rules().has_infiltration_table() {
        let attr = crate::dice::clamp_attribute(state.profile(m).intelligence as i32);
        state.dyn_.steps.push(Step::Scenario(ScenarioStep::InfiltrationResult(m)));
        state.dyn_.steps.push(Step::Test {
            model: m,
            attr,
            purpose: crate::state::Purpose::Infiltrate,
            opposed: false,
            rerolled: false,
        });
    } else {
        state
            .dyn_
            .steps
            .push(Step::Scenario(ScenarioStep::Deploy { model: m, placement: Placement::Infiltrator(None) }));
    }
}

/// Apply the infiltration table to the test just made: a Feat adds 1 AP on the first turn;
/// a Blunder removes 1 AP (Attack and Defend: the model arrives on turn 2 instead).
pub(crate) fn infiltration_result(state: &mut GameState, m: ModelId) {
    let level = state.dyn_.scenario.infiltration.take().expect("infiltration test rolled").level;
    match level {
        TestLevel::Feat => state.dyn_.models[m as usize].ap_adjust += 1,
        TestLevel::Blunder if state.rules().blunder_arrives_later() => {
            state.dyn_.scenario.arrivals |= 1 << m;
            return;
        }
        TestLevel::Blunder => state.dyn_.models[m as usize].ap_adjust -= 1,
        _ => {}
    }
    let step = ScenarioStep::Deploy { model: m, placement: Placement::Infiltrator(Some(level)) };
    state.dyn_.steps.push(Step::Scenario(step));
}

/// Late arrivals at the start of the initiative phase, in model order (Attack and Defend's
/// blundered infiltrators on turn 2, Couriers' waiting infiltrators on any later turn: each
/// scenario says when); `optional` lets them wait longer.
pub(crate) fn arrival_steps(state: &GameState, optional: bool) -> Vec<ScenarioStep> {
    let d = state.dynamic();
    d.models
        .iter()
        .enumerate()
        .filter(|(i, m)| m.health == Health::Reserve && d.scenario.arrivals & (1 << i) != 0)
        .map(|(i, _)| ScenarioStep::Deploy {
            model: i as ModelId,
            placement: Placement::Arrival { optional },
        })
        .collect()
}
