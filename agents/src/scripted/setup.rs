//! Scenario set-up decisions: roles, grudges, couriers, deployment groups, edges and corners,
//! markers, model placement and dropped markers.
//!
//! - Roles: player A where it chooses the deployment edge (Grudge Match, Couriers) or places
//!   markers first and picks its diagonal (Scavenger Hunt); otherwise player B, who
//!   activates first.
//! - Edges and corners: the one with the most open ground and cover to deploy on; in
//!   Scavenger Hunt the diagonal nearest the markers, the larger first group in the nearer
//!   corner.
//! - Grudge: the holder is the character with the best attacks and toughness to survive
//!   (not a scout, which infiltrates to the front),
//!   the target the enemy character easiest to take out (fewest wounds, weakest armour),
//!   scouts (they infiltrate forward) and the leader (completing it ends the game) preferred
//!   on a near tie.
//! - Courier: the fastest, toughest character that is not the leader.
//! - Deployment groups: split the points evenly.
//! - Markers: an Attack and Defend objective as deep in the side's band as allowed, central
//!   along its edge; Scavenger Hunt markers near the corners the side means to take (player
//!   A), else near the centre.
//! - Placement: toward the model's first goal (the enemy leader's corner, the objectives, the
//!   markers, the enemy edge for a courier), infiltrators further, the models the scenario
//!   cannot lose (leader in Assassinate, grudge holder) hardly at all; on cover, out of
//!   deployed enemies' sight, not bunched with friends; waiting off the table is never chosen.
//! - Dropped markers (chosen by the carrier's enemy): the cell nearest its own models and
//!   farthest from the carrier's friends.

use super::act::NEVER;
use super::fields::Fields;
use super::goal::best_range;
use super::places::{corner_point, ground_value, shelter};
use super::view::View;
use engine::board::{CellIdx, Terrain};
use engine::odds::armour_target;
use engine::profile::Role;
use engine::scenario::zones::{in_corner, in_strip, opposite_corner};
use engine::scenario::{Placement, ScenarioStep, ZoneKind};
use engine::state::{Health, ModelId, Side};
use engine::Action;

/// Scores of the legal actions at a scenario step.
pub(super) fn score_scenario(
    view: &View,
    fields: &mut Fields,
    step: ScenarioStep,
    legal: &[Action],
    scores: &mut Vec<f64>,
) {
    match step {
        ScenarioStep::Deploy { model, placement } => {
            return deploy(view, fields, model, placement, legal, scores)
        }
        ScenarioStep::PlaceMarker { .. } => return place_marker(view, legal, scores),
        _ => {}
    }
    for &a in legal {
        let s = match (step, a) {
            (ScenarioStep::ChooseRoles, Action::PlayerA(s)) => {
                // Player A picks the deployment edge (Grudge Match, Couriers) or places the
                // first markers and corner (Scavenger Hunt); player B activates first.
                let want_a = view.plan().wants_player_a();
                if (s == view.side) == want_a {
                    1.0
                } else {
                    0.0
                }
            }
            (ScenarioStep::ChooseGrudge(_), Action::Grudge { holder, target }) => {
                grudge(view, holder, target)
            }
            (ScenarioStep::ChooseCourier(_), Action::Nominate(m)) => courier(view, m),
            (ScenarioStep::ChooseGroup(side), Action::Nominate(m)) => group(view, side, m),
            (ScenarioStep::ChooseZone { zone, .. }, Action::Zone(z)) => zone_value(view, zone, z),
            (ScenarioStep::DropMarker { carrier, .. }, Action::Deploy(cell)) => {
                drop_value(view, carrier, cell)
            }
            _ => 0.0,
        };
        scores.push(s);
    }
}

/// Expected damage dice a model's best attack lands on an average target.
fn punch(view: &View, m: ModelId) -> f64 {
    let p = view.state.profile(m);
    p.weapons
        .iter()
        .map(|w| {
            let attr = if w.is_ranged() { p.marksmanship } else { p.cc };
            let e = super::estimate::single(attr, view.nf);
            let range = w.range.map_or(1.0, |r| 1.0 + r.0 as f64 / 12.0);
            (e.pass * w.damage.0 as f64 + e.nailed * w.damage.1 as f64) * range
        })
        .fold(0.0, f64::max)
}

fn grudge(view: &View, holder: ModelId, target: ModelId) -> f64 {
    let state = view.state;
    let hp = state.profile(holder);
    let tp = state.profile(target);
    // The holder must live (2 VP, and it must strike the last blow): tough, and not a scout,
    // which infiltrates to the front.
    let scout = if hp.role == Role::Scout { 1.5 } else { 0.0 };
    let toughness = hp.wounds as f64 * 0.5 + (hp.toughness + hp.total_armour()) as f64 * 0.15 - scout;
    let save = armour_target(tp.toughness, tp.total_armour(), 0, 0, false) as f64;
    // Scouts infiltrate forward, so they are the nearest targets on average.
    let near = match tp.role {
        Role::Leader => 0.5,
        Role::Scout => 0.8,
        _ => 0.0,
    };
    let ease = -(tp.wounds as f64) * 0.6 - save * 0.25 + near;
    0.5 * punch(view, holder) + toughness + ease
}

fn courier(view: &View, m: ModelId) -> f64 {
    let p = view.state.profile(m);
    let save = armour_target(p.toughness, p.total_armour(), 0, 0, false) as f64;
    let leader = if p.role == Role::Leader { 3.0 } else { 0.0 };
    p.speed.0 as f64 + p.speed.1 as f64 * 0.5 + p.wounds as f64 * 0.3 + save * 0.15 + p.agility as f64 * 0.05
        - leader
}

/// Keep the first group's points near half the crew's.
fn group(view: &View, side: Side, m: ModelId) -> f64 {
    let state = view.state;
    let sc = &view.sc;
    let (mut total, mut grouped) = (0.0, 0.0);
    for (i, mm) in state.models().iter().enumerate() {
        if mm.side != side || sc.set_aside & (1 << i) != 0 {
            continue;
        }
        let pts = state.profile(i as ModelId).points as f64;
        total += pts;
        if sc.group & (1 << i) != 0 {
            grouped += pts;
        }
    }
    -(grouped + state.profile(m).points as f64 - total / 2.0).abs()
}

fn zone_value(view: &View, zone: ZoneKind, z: u8) -> f64 {
    let board = view.state.board();
    match zone {
        ZoneKind::Edge => ground_value(view, |c| in_strip(board, c, z, 4)),
        ZoneKind::LeaderCorner | ZoneKind::CrewCorner => ground_value(view, |c| in_corner(board, c, z, 8)),
        ZoneKind::FirstCorner => {
            let (a, b) = (corner_point(view, z), corner_point(view, opposite_corner(z)));
            let mut v = 0.0;
            for k in view.sc.markers.iter().filter(|k| k.is_loose()) {
                let da = board.centre_distance(a, 0, k.cell, 0) as f64;
                let db = board.centre_distance(b, 0, k.cell, 0) as f64;
                v -= da.min(db) * 0.1 + da * 0.02;
            }
            v + 0.001
                * ground_value(view, |c| {
                    in_corner(board, c, z, 8) || in_corner(board, c, opposite_corner(z), 8)
                })
        }
    }
}

fn place_marker(view: &View, legal: &[Action], scores: &mut Vec<f64>) {
    let spot = view.plan().marker_spot(view);
    for &a in legal {
        let Action::Deploy(cell) = a else {
            scores.push(NEVER);
            continue;
        };
        scores.push(spot(cell));
    }
}

fn deploy(
    view: &View,
    fields: &mut Fields,
    m: ModelId,
    placement: Placement,
    legal: &[Action],
    scores: &mut Vec<f64>,
) {
    let state = view.state;
    let board = state.board();
    let goal = view.plan().deploy_goal(view, fields, m);
    // The models whose loss costs the scenario (a leader to be assassinated, a grudge holder)
    // deploy back and in cover; infiltrators go forward.
    let precious = view.plan().precious(view, m);
    let weight = match placement {
        _ if precious => 0.3,
        Placement::Infiltrator(_) => 1.5,
        _ => 1.0,
    };
    let friends: Vec<CellIdx> = view.friends().map(|f| state.models()[f as usize].cell).collect();
    let enemies: Vec<ModelId> = view.enemies(true).collect();
    let leader = precious || state.profile(m).role == Role::Leader;
    let mut ranked: Vec<(f64, usize)> = Vec::new();
    for (i, &a) in legal.iter().enumerate() {
        let Action::Deploy(cell) = a else {
            scores.push(-0.5);
            continue;
        };
        let (x, y) = board.xy(cell);
        let crowd: f64 = friends
            .iter()
            .map(|&f| {
                let (fx, fy) = board.xy(f);
                let d = (fx as i32 - x as i32).abs().max((fy as i32 - y as i32).abs());
                if d <= 1 {
                    0.12
                } else if d <= 2 {
                    0.06
                } else {
                    0.0
                }
            })
            .sum();
        let cover = shelter(view, cell) * if leader { 3.0 } else { 1.5 };
        let s = weight * goal.progress(cell) + cover - crowd;
        ranked.push((s, i));
        scores.push(s);
    }
    if enemies.is_empty() {
        return;
    }
    // Exposure to enemies already on the table, for the best few cells.
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    for &(_, i) in ranked.iter().skip(24) {
        scores[i] -= 10.0;
    }
    let volume = super::estimate::volume_at(state, m, false);
    for &(_, i) in ranked.iter().take(24) {
        let Action::Deploy(cell) = legal[i] else { continue };
        let z = board.cell(cell).height;
        let mut seen = 0.0;
        for &e in &enemies {
            let em = &state.models()[e as usize];
            let range = best_range(view, e).max(state.profile(e).speed.1) as f32 + 6.0;
            if board.edge_distance(em.cell, em.z, cell, z) > range {
                continue;
            }
            let eye = super::estimate::volume_at(state, e, false);
            let s = board.sight(em.cell, em.z, eye, cell, z, volume);
            if s.visible {
                seen += if s.hard_cover { 0.04 } else { 0.08 };
            }
        }
        scores[i] -= seen * if leader { 3.0 } else { 1.0 };
    }
}

/// A dropped marker lies where the chooser's models reach it first.
fn drop_value(view: &View, carrier: ModelId, cell: CellIdx) -> f64 {
    let state = view.state;
    let board = state.board();
    let their = state.models()[carrier as usize].side;
    let nearest = |side: Side| {
        state
            .models()
            .iter()
            .filter(|mm| mm.side == side && mm.health == Health::Conscious)
            .map(|mm| board.centre_distance(mm.cell, mm.z, cell, board.cell(cell).height) as f64)
            .fold(99.0, f64::min)
    };
    let terrain = if board.cell(cell).terrain == Terrain::Open { 0.0 } else { -0.2 };
    nearest(their) - nearest(view.side) + terrain
}
