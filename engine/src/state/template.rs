//! Template weapons (pp.51-53): where a template may be placed, what it covers, scatter, and
//! smoke clouds.
//!
//! On the grid a small template is a 3" disc and a large one a 5" disc centred on a cell; a
//! teardrop is 8" long, touching the firer's base and widening from 1" to 3". A model is under
//! a template when part of its 1" base is. Placements offered to the firer are a small
//! documented set: centred on an enemy model (or, for smoke, also on the firer), or for a
//! teardrop aimed at an enemy model within its length.

use super::model::ModelId;
use super::sight::Pose;
use super::GameState;
use crate::board::{CellIdx, Cover, Terrain, Volume};
use crate::profile::{TemplateKind, Weapon, WeaponProperty};
use serde::{Deserialize, Serialize};

/// Radius in inches of the small template.
pub const SMALL_RADIUS: f32 = 1.5;
/// Radius in inches of the large template.
pub const LARGE_RADIUS: f32 = 2.5;
/// Length in inches of the teardrop template.
pub const TEARDROP_LENGTH: f32 = 8.0;

/// A smoke template on the table until the cleanup (Smoke, Choke, p.53).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cloud {
    /// Centre cell.
    pub centre: CellIdx,
    /// Large (true) or small template.
    pub large: bool,
    /// Noxious smoke (Choke): spending an AP under it costs a wound.
    pub noxious: bool,
}

impl Cloud {
    fn radius(&self) -> f32 {
        if self.large {
            LARGE_RADIUS
        } else {
            SMALL_RADIUS
        }
    }
}

/// A template shot of the sequence being resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TemplateShot {
    /// Index of its combat roll in the sequence (a teardrop's rolls no test, p.52).
    pub roll: u8,
    /// Whether it landed (a teardrop always does; a miss does not).
    pub landed: bool,
    /// For a reaction, where the active model was when it fired: the active model is under
    /// the template if it was there.
    pub mover_at: Option<(ModelId, CellIdx, u8)>,
    /// The firing model.
    pub firer: ModelId,
    /// Where the firer was when it fired (a teardrop's point of origin).
    pub origin: CellIdx,
    /// The weapon fired.
    pub weapon: u8,
    /// Centre cell (small, large) or aiming cell (teardrop), after any scatter.
    pub at: CellIdx,
    /// Within the weapon's pass range of the firer (superior damage on Nailed It).
    pub pass_range: bool,
    /// The hit roll was Nailed It or better.
    pub nailed: bool,
}

/// The template a weapon uses, if any.
pub fn template_of(w: &Weapon) -> Option<TemplateKind> {
    w.properties.iter().find_map(|p| if let WeaponProperty::Template(k) = p { Some(*k) } else { None })
}

/// The Deviate(X) distance of a weapon, if any.
pub fn deviate_of(w: &Weapon) -> Option<u8> {
    w.properties.iter().find_map(|p| if let WeaponProperty::Deviate(x) = p { Some(*x) } else { None })
}

/// Whether a weapon or its properties cause damage (placement restrictions apply, p.51).
pub fn damages(w: &Weapon) -> bool {
    w.damage.1 > 0 || w.fire() > 0
}

fn centre(state: &GameState, c: CellIdx) -> (f32, f32) {
    let (x, y) = state.board().xy(c);
    (x as f32 + 0.5, y as f32 + 0.5)
}

/// Whether a base on `cell` is partly under the template `kind` placed at `at` by a firer on
/// `origin`.
pub fn covers(state: &GameState, kind: TemplateKind, origin: CellIdx, at: CellIdx, cell: CellIdx) -> bool {
    let (px, py) = centre(state, cell);
    match kind {
        TemplateKind::Small | TemplateKind::Large => {
            let r = if kind == TemplateKind::Large { LARGE_RADIUS } else { SMALL_RADIUS };
            let (cx, cy) = centre(state, at);
            // Part of the base is under the disc: strictly closer than the two radii.
            ((px - cx).powi(2) + (py - cy).powi(2)).sqrt() < r + 0.5
        }
        TemplateKind::Teardrop => {
            if cell == origin {
                return false;
            }
            let (ox, oy) = centre(state, origin);
            let (ax, ay) = centre(state, at);
            let (dx, dy) = (ax - ox, ay - oy);
            let len = (dx * dx + dy * dy).sqrt().max(1e-6);
            let (ux, uy) = (dx / len, dy / len);
            // Distance along the aim from the firer's base edge, and across it.
            let along = (px - ox) * ux + (py - oy) * uy - 0.5;
            let across = ((px - ox) * uy - (py - oy) * ux).abs();
            let half_width = 0.5 + along.clamp(0.0, TEARDROP_LENGTH) / TEARDROP_LENGTH;
            (-0.5..TEARDROP_LENGTH + 0.5).contains(&along) && across < half_width + 0.5
        }
    }
}

/// Models under a template, with whether each is partly hidden from its point of origin
/// (hard cover, +1 armour); models not visible from it at all are not hit (p.51). `mover_at`
/// puts one model at another cell and height (the active model at a reaction's point).
pub fn models_under(
    state: &GameState,
    kind: TemplateKind,
    origin: CellIdx,
    at: CellIdx,
    mover_at: Option<(ModelId, CellIdx, u8)>,
) -> Vec<(ModelId, bool)> {
    let board = state.board();
    let source = if kind == TemplateKind::Teardrop { origin } else { at };
    let sz = board.cell(source).height;
    state
        .models()
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let (cell, z) = match mover_at {
                Some((mover, c, z)) if mover == i as ModelId => (c, z),
                _ => (m.cell, m.z),
            };
            if !m.is_on_table() || !covers(state, kind, origin, at, cell) {
                return None;
            }
            let sight = board.sight(source, sz, Volume::Base, cell, z, state.volume(m));
            (sight.visible || cell == source).then_some((i as ModelId, sight.hard_cover))
        })
        .collect()
}

/// Where the firer may place a template: candidate points in sight and range that respect
/// the placement restrictions of p.51 for damaging templates.
pub fn placements(state: &GameState, firer: ModelId, weapon: u8, out: &mut Vec<CellIdx>) {
    let w = &state.profile(firer).weapons[weapon as usize];
    let Some(kind) = template_of(w) else { return };
    let Some((_, nailed_range)) = w.range else { return };
    let fm = state.models()[firer as usize];
    let board = state.board();
    let eye = state.volume(&fm);
    let smoke = w.has(WeaponProperty::Smoke);
    let mut candidates: Vec<CellIdx> =
        state.models().iter().filter(|m| m.side != fm.side && m.is_on_table()).map(|m| m.cell).collect();
    if smoke && kind != TemplateKind::Teardrop {
        candidates.push(fm.cell);
    }
    for at in candidates {
        let reach = match kind {
            TemplateKind::Teardrop => TEARDROP_LENGTH,
            _ => nailed_range as f32,
        };
        if board.edge_distance(fm.cell, fm.z, at, board.cell(at).height) > reach
            || (at == fm.cell && kind == TemplateKind::Teardrop)
        {
            continue;
        }
        let seen =
            at == fm.cell || board.sight(fm.cell, fm.z, eye, at, board.cell(at).height, Volume::Base).visible;
        if !seen || (damages(w) && !placement_allowed(state, firer, fm.cell, kind, at, None)) {
            continue;
        }
        if !out.contains(&at) {
            out.push(at);
        }
    }
}

/// Whether `firer`, at pose `fp`, may place weapon `weapon`'s template at `at` (sight of the
/// point, range, and the restrictions of a damaging template). `mover_at` puts the active
/// model at the point of its path where the shot happens (a reaction's template is placed
/// over it there; a nested or firefight template is fired from there).
pub fn placement_ok(
    state: &GameState,
    firer: ModelId,
    fp: Pose,
    weapon: u8,
    at: CellIdx,
    mover_at: Option<(ModelId, CellIdx, u8)>,
) -> bool {
    let w = &state.profile(firer).weapons[weapon as usize];
    let (Some(kind), Some((_, nailed_range))) = (template_of(w), w.range) else { return false };
    let board = state.board();
    let reach = if kind == TemplateKind::Teardrop { TEARDROP_LENGTH } else { nailed_range as f32 };
    if at == fp.cell || board.edge_distance(fp.cell, fp.z, at, board.cell(at).height) > reach {
        return false;
    }
    let seen = board.sight(fp.cell, fp.z, fp.volume, at, board.cell(at).height, Volume::Base).visible;
    seen && (!damages(w) || placement_allowed(state, firer, fp.cell, kind, at, mover_at))
}

/// Placement restrictions of a damaging template (p.51): "The Template must not cover or
/// partially cover Friendly Models" — the firer is one of them — nor a combat involving a
/// friendly model, and stealthed models only with a visible enemy too. `mover_at` places
/// one model elsewhere (the active model at a reaction's point).
fn placement_allowed(
    state: &GameState,
    firer: ModelId,
    origin: CellIdx,
    kind: TemplateKind,
    at: CellIdx,
    mover_at: Option<(ModelId, CellIdx, u8)>,
) -> bool {
    let side = state.models()[firer as usize].side;
    let place = |i: usize| {
        let m = &state.models()[i];
        match mover_at {
            Some((mover, cell, z)) if mover as usize == i => (cell, z),
            _ => (m.cell, m.z),
        }
    };
    let mut stealthed = false;
    let mut revealed_enemy = false;
    for (i, m) in state.models().iter().enumerate() {
        let (cell, z) = place(i);
        if !m.is_on_table() || !covers(state, kind, origin, at, cell) {
            continue;
        }
        if m.side == side {
            return false;
        }
        let in_combat_with_friend = state.models().iter().enumerate().any(|(f, fm)| {
            let (fc, fz) = place(f);
            f != i
                && fm.side == side
                && fm.is_conscious()
                && super::sight::cells_touch(state, fc, fz, cell, z)
        });
        if in_combat_with_friend {
            return false;
        }
        if m.tokens.stealth {
            stealthed = true;
        } else {
            revealed_enemy = true;
        }
    }
    !stealthed || revealed_enemy
}

/// The ten scatter directions (p.52): direction 1 points at the centre of the board, the
/// others follow clockwise at 36°.
fn direction(state: &GameState, from: CellIdx, face: u8) -> (f32, f32) {
    let board = state.board();
    let (fx, fy) = centre(state, from);
    let (cx, cy) = (board.width() as f32 / 2.0, board.depth() as f32 / 2.0);
    let base = (cy - fy).atan2(cx - fx);
    let angle = base + (face as f32 - 1.0) * std::f32::consts::TAU / 10.0;
    (angle.cos(), angle.sin())
}

/// Where a template scattered `distance` inches in direction `face` from `at` lands: it stops
/// at the last cell before hard cover, a wall more than 1" high, impassable ground or the edge
/// of the table (p.52).
pub fn scatter(state: &GameState, at: CellIdx, face: u8, distance: u8) -> CellIdx {
    let board = state.board();
    let (dx, dy) = direction(state, at, face);
    let (sx, sy) = centre(state, at);
    let start_h = board.cell(at).height;
    let mut landed = at;
    let steps = distance as u32 * 4;
    for i in 1..=steps {
        let t = i as f32 / 4.0;
        let Some(c) = board.checked_idx((sx + dx * t).floor() as i32, (sy + dy * t).floor() as i32) else {
            break;
        };
        if c == landed {
            continue;
        }
        let cell = board.cell(c);
        if cell.cover == Cover::Hard || cell.terrain == Terrain::Impassable || cell.height > start_h + 1 {
            break;
        }
        landed = c;
    }
    landed
}

/// Whether a model at `cell` is in or behind smoke as seen from `from` (−2 Marksmanship, p.53).
pub fn smoke_between(state: &GameState, from: CellIdx, to: CellIdx) -> bool {
    let (ax, ay) = centre(state, from);
    let (bx, by) = centre(state, to);
    state.dynamic().clouds.iter().any(|c| {
        let (cx, cy) = centre(state, c.centre);
        let (dx, dy) = (bx - ax, by - ay);
        let len2 = (dx * dx + dy * dy).max(1e-6);
        let t = (((cx - ax) * dx + (cy - ay) * dy) / len2).clamp(0.0, 1.0);
        let (qx, qy) = (ax + dx * t, ay + dy * t);
        ((qx - cx).powi(2) + (qy - cy).powi(2)).sqrt() < c.radius() + 0.5
    })
}

/// Whether a model on `cell` is under noxious smoke.
pub fn under_noxious_smoke(state: &GameState, cell: CellIdx) -> bool {
    state.dynamic().clouds.iter().any(|c| {
        let kind = if c.large { TemplateKind::Large } else { TemplateKind::Small };
        c.noxious && covers(state, kind, c.centre, c.centre, cell)
    })
}
