//! How AI models join a game with Ulaya Chronicles dinosaurs (seed 003, "Spawning"): the
//! spawn tables rolled on, how far a noise carries, where a model may be placed or spawned,
//! and placing it. A leaf below the AI's behaviour (`dinosaur_ai`) and its ambush markers.

use super::model::{Health, ModelId, ModelState, Stance};
use super::{Action, GameState};
use crate::board::{CellIdx, Terrain};
use crate::uc::game::AI_SIDE;

/// How far a noise carries to AI models and ambush markers (seed 003, "Noise reactions":
/// markers within 12" of a noise flip; docs/rulings.md).
pub const NOISE_RANGE: f32 = 12.0;

/// The distinct AI models (indices into the UC data's enemies) of spawn table `table`, with
/// their probabilities.
pub(super) fn table_outcomes(state: &GameState, table: u8) -> Vec<(u8, f64)> {
    let uc = state.stat.uc.as_ref().expect("spawns need the UC data");
    let mut out: Vec<(u8, f64)> = Vec::new();
    for e in uc.table_faces(table) {
        match out.iter_mut().find(|(x, _)| *x == e) {
            Some(entry) => entry.1 += 0.1,
            None => out.push((e, 0.1)),
        }
    }
    out
}

/// The AI model of outcome `outcome` of spawn table `table` joins the game, off the table.
pub(super) fn new_ai_model(state: &mut GameState, table: u8, outcome: u8) -> ModelId {
    let enemy = table_outcomes(state, table)[outcome as usize].0;
    let uc = state.stat.uc.clone().expect("spawns need the UC data");
    let profile = uc.profile_of[enemy as usize];
    let p = &state.stat.profiles[profile as usize];
    let mut m = ModelState::fresh(p, profile, AI_SIDE, 0, state.board());
    m.health = Health::Reserve;
    state.dyn_.models.push(m);
    (state.dyn_.models.len() - 1) as ModelId
}

/// Most AI models a game holds, placed and spawned: the collection a UC player spawns from
/// ("If you have none left, spawn nothing", seed 003, "Spawning"; docs/rulings.md).
pub const MAX_AI_MODELS: usize = crate::limits::MAX_DINOS as usize;

/// Where a noise near `near` brings an AI model (seed 003, "Noise reactions", "Spawning"):
/// the spawn points are the middles of the four table edges (TDE tables have no numbered
/// ones); the model arrives on the free ground cell nearest the spawn point nearest the noise,
/// then nearest the noise. None when the game holds its most AI models, or 32 models, or no
/// cell is free.
pub(super) fn spawn_cell(state: &GameState, near: CellIdx) -> Option<CellIdx> {
    let ai = state.dyn_.models.iter().filter(|m| m.side == AI_SIDE).count();
    if ai >= MAX_AI_MODELS || state.dyn_.models.len() >= crate::limits::MAX_GAME_MODELS {
        return None;
    }
    let board = state.board();
    let (w, d) = (board.width() as i32, board.depth() as i32);
    let (nx, ny) = board.xy(near);
    let sq = |(ax, ay): (i32, i32), (bx, by): (i32, i32)| (ax - bx).pow(2) + (ay - by).pow(2);
    let noise = (nx as i32, ny as i32);
    let points = [(w / 2, 0), (w - 1, d / 2), (w / 2, d - 1), (0, d / 2)];
    let point = *points.iter().min_by_key(|&&p| sq(p, noise)).expect("four spawn points");
    (0..board.len() as CellIdx).filter(|&c| free_ground(state, c)).min_by_key(|&c| {
        let (x, y) = board.xy(c);
        (sq((x as i32, y as i32), point), sq((x as i32, y as i32), noise), c)
    })
}

/// Free open ground at ground level, not touching a model, without an ambush marker: where an
/// AI model or a marker may be put.
fn free_ground(state: &GameState, c: CellIdx) -> bool {
    let cell = state.board().cell(c);
    cell.terrain == Terrain::Open
        && cell.height <= 1
        && state.dyn_.uc.marker_at(c).is_none()
        && !state.models().iter().any(|m| m.is_on_table() && m.cell == c)
        && !state.touches_side(|_| true, c, cell.height, None)
}

/// The cells an AI model may be placed on: free open ground at ground level, not touching a
/// model, and more than a deployment zone's depth from every board edge so that it stands in
/// no deployment zone the players choose afterwards (docs/rulings.md). Where the board has no
/// such cell, any free ground cell.
pub(super) fn placement_options(state: &GameState, out: &mut Vec<Action>) {
    let board = state.board();
    let margin = crate::limits::DEPLOYMENT_DEPTH as i32;
    let (w, d) = (board.width() as i32, board.depth() as i32);
    let free = |c: CellIdx| free_ground(state, c);
    let inland = |c: CellIdx| {
        let (x, y) = board.xy(c);
        let (x, y) = (x as i32, y as i32);
        x >= margin && y >= margin && x < w - margin && y < d - margin
    };
    for strict in [true, false] {
        out.extend(
            (0..board.len() as CellIdx).filter(|&c| free(c) && (!strict || inland(c))).map(Action::Deploy),
        );
        if !out.is_empty() {
            return;
        }
    }
}

/// Put AI model `model` on `cell`, conscious: swimming in water, else standing.
pub(super) fn place_model(state: &mut GameState, model: ModelId, cell: CellIdx) {
    let c = *state.board().cell(cell);
    let m = &mut state.dyn_.models[model as usize];
    m.cell = cell;
    m.z = c.height;
    m.stance = if c.terrain == Terrain::Water { Stance::Swimming } else { Stance::Standing };
    m.health = Health::Conscious;
}
