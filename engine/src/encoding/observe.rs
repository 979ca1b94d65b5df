//! The observation tensor of one side: spatial planes over the padded board and a vector of
//! global features. It is built only from what that side may see (the scenario's secrets are
//! masked as in [`GameState::observation`]), so it is the same in every determinization of
//! the hidden facts.
//!
//! Model planes are relative to the observer: "own" planes hold its models, "enemy" planes
//! the opponent's, so one network plays either side.

use super::Geometry;
use crate::board::{Cover, LosTemplate, Terrain, Volume};
use crate::scenario::MarkerKind;
use crate::state::{GameState, Health, ModelId, Player, Side, Stance, Step};
use ndarray::{ArrayViewMut1, ArrayViewMut3};

/// Planes of the terrain, models, markers and the action under way (see the `P_*` indices).
pub const PLANES: usize = 65;
/// Kinds of node [`node_kind`] tells apart.
pub const NODE_KINDS: usize = 24;
/// Global features (see [`encode_observation`]).
pub const GLOBALS: usize = ACTING + ACTING_FEATURES;

/// First global feature of the scenario one-hot, the skirmish first (after the turn and the
/// game's length).
pub const SCENARIO_FIRST: usize = 2;
/// Global features of the scenario one-hot: one per scenario, derived from the scenario list
/// (6 for the five scenarios and the skirmish). A new scenario widens every network's input;
/// a checkpoint records the count it was trained with.
pub const SCENARIO_SLOTS: usize = crate::scenario::Scenario::COUNT;
/// First global feature after the scenario one-hot (player A, victory points, ...).
const AFTER_SCENARIOS: usize = SCENARIO_FIRST + SCENARIO_SLOTS;
/// First global feature of the acting model (see `acting_model`); all zero when none acts.
pub const ACTING: usize = AFTER_SCENARIOS + 40;
/// Global features of the acting model: its model-plane features and 12 more.
const ACTING_FEATURES: usize = SIDE_PLANES + 12;
/// Global feature: 1 when a model acts.
pub const ACTING_PRESENT: usize = ACTING + SIDE_PLANES;
/// Global feature: the acting model is the observer's.
pub const ACTING_MINE: usize = ACTING_PRESENT + 1;
/// Global feature: the acting model is a courier (Couriers).
pub const ACTING_COURIER: usize = ACTING_PRESENT + 2;
/// Global feature: the acting model carries the observer's prize (Couriers).
pub const ACTING_CARRIES_MY_PRIZE: usize = ACTING_PRESENT + 3;

/// The cell is on the board (not padding).
pub const P_BOARD: usize = 0;
/// Ground height, in tens of inches.
pub const P_HEIGHT: usize = 1;
/// Water.
pub const P_WATER: usize = 2;
/// Rough ground.
pub const P_ROUGH: usize = 3;
/// Impassable ground.
pub const P_IMPASSABLE: usize = 4;
/// Soft scatter cover.
pub const P_SOFT: usize = 5;
/// Hard scatter cover.
pub const P_HARD: usize = 6;
/// First of the observer's model planes; the enemy's follow after [`SIDE_PLANES`].
pub const P_OWN: usize = 7;
/// Model planes per side: conscious, down, wounds left (fraction), AP (fraction of the
/// maximum), activated this turn, low stance (prone, swimming, climbing), tokens (fire, blind,
/// slow), stealthed, climbing height, Marksmanship, Close Combat, Agility, Intelligence,
/// armour target, longest ranged reach, close-combat reach.
pub const SIDE_PLANES: usize = 16;
/// The enemy's model planes.
pub const P_ENEMY: usize = P_OWN + SIDE_PLANES;
/// Scenario markers lying on the table (1), or carried (on the carrier's cell, 0.5); ambush
/// markers (games with AI dinosaurs) passive 0.25, active 0.75.
pub const P_MARKER: usize = P_ENEMY + SIDE_PLANES;
/// Markers that are the observer's to take or hold: its objective or prize, one it controls,
/// or a numbered marker whose number it seeks (as far as it knows).
pub const P_MARKER_MINE: usize = P_MARKER + 1;
/// Markers the enemy holds or controls, and the enemy's objective or prize.
pub const P_MARKER_THEIRS: usize = P_MARKER_MINE + 1;
/// The model acting (activating, the active model of a sequence, or being deployed).
pub const P_ACTIVE: usize = P_MARKER_THEIRS + 1;
/// The declared path of the action under way: each point's position along it (0 to 1].
pub const P_PATH: usize = P_ACTIVE + 1;
/// Targets of the sequence's rolls and templates (where they land).
pub const P_TARGETED: usize = P_PATH + 1;
/// Smoke clouds.
pub const P_SMOKE: usize = P_TARGETED + 1;
/// The observer's grudge (Grudge Match): its holder (0.5) and target (1).
pub const P_GRUDGE_MINE: usize = P_SMOKE + 1;
/// The enemy's grudge, once announced.
pub const P_GRUDGE_THEIRS: usize = P_GRUDGE_MINE + 1;
/// Couriers (Couriers), either side's.
pub const P_COURIER: usize = P_GRUDGE_THEIRS + 1;
/// The observer's deployment zone, once chosen (where its models arrive; in Couriers, the
/// edge the enemy's couriers leave by).
pub const P_ZONE_MINE: usize = P_COURIER + 1;
/// The enemy's deployment zone (in Couriers, the edge the observer's couriers leave by).
pub const P_ZONE_THEIRS: usize = P_ZONE_MINE + 1;

/// How near each cell is to the enemy's deployment zone: 1 in it, falling by 1/36 a cell
/// (chessboard distance) to 0, and 0 everywhere before zones are chosen. The convolutions see
/// a few cells around each cell; these "nearness" planes carry the far goals a move is
/// scored against (the edge a courier leaves by, the nearest marker or enemy) to every cell.
pub const P_NEAR_ZONE_THEIRS: usize = P_ZONE_THEIRS + 1;
/// How near each cell is to the observer's deployment zone.
pub const P_NEAR_ZONE_MINE: usize = P_NEAR_ZONE_THEIRS + 1;
/// How near each cell is to a scenario marker (any).
pub const P_NEAR_MARKER: usize = P_NEAR_ZONE_MINE + 1;
/// How near each cell is to a marker that is the observer's to take or hold.
pub const P_NEAR_MARKER_MINE: usize = P_NEAR_MARKER + 1;
/// How near each cell is to a conscious enemy model.
pub const P_NEAR_ENEMY: usize = P_NEAR_MARKER_MINE + 1;
/// How near each cell is to the model acting.
pub const P_NEAR_ACTIVE: usize = P_NEAR_ENEMY + 1;

/// How many conscious enemies could shoot a standing human-sized model on each cell: it is
/// within their longest weapon's range and in their terrain line of sight (models and
/// stances aside), a quarter per enemy up to 1.
pub const P_ENEMY_FIRE: usize = P_NEAR_ACTIVE + 1;
/// The same for the observer's own models: where its shooters reach.
pub const P_OWN_FIRE: usize = P_ENEMY_FIRE + 1;
/// How many conscious enemies could charge each cell: within their "Nailed It" move, base
/// contact and their longest weapon reach as the crow flies, a quarter per enemy up to 1.
pub const P_ENEMY_REACH: usize = P_OWN_FIRE + 1;
/// The cells the observer's models may leave the table from (Couriers: the enemy deployment
/// edge, the last strip of the zone plane).
pub const P_EXIT: usize = P_ENEMY_REACH + 1;
/// How near each cell is to that edge: inside the enemy's zone, where the zone's nearness
/// is 1 everywhere, this still says which way a carrier leaves.
pub const P_NEAR_EXIT: usize = P_EXIT + 1;
/// How near each cell is to the observer's grudge target (Grudge Match; the cells where
/// [`P_GRUDGE_MINE`] is 1): where its grudge holder hunts.
pub const P_NEAR_GRUDGE_TARGET: usize = P_NEAR_EXIT + 1;
/// Numbered markers (Scavenger Hunt) lying on the table whose number the observer has not
/// seen: the ones worth looking at.
pub const P_MARKER_UNSEEN: usize = P_NEAR_GRUDGE_TARGET + 1;
/// How near each cell is to such a marker.
pub const P_NEAR_MARKER_UNSEEN: usize = P_MARKER_UNSEEN + 1;

/// Each nearness plane, the plane it measures the distance to, and the least value a cell of
/// that plane needs to count.
const NEARNESS: [(usize, usize, f32); 9] = [
    (P_NEAR_ZONE_THEIRS, P_ZONE_THEIRS, ANY),
    (P_NEAR_ZONE_MINE, P_ZONE_MINE, ANY),
    (P_NEAR_MARKER, P_MARKER, ANY),
    (P_NEAR_MARKER_MINE, P_MARKER_MINE, ANY),
    (P_NEAR_ENEMY, P_ENEMY, ANY),
    (P_NEAR_ACTIVE, P_ACTIVE, ANY),
    (P_NEAR_EXIT, P_EXIT, ANY),
    (P_NEAR_GRUDGE_TARGET, P_GRUDGE_MINE, 1.0),
    (P_NEAR_MARKER_UNSEEN, P_MARKER_UNSEEN, ANY),
];
/// Any positive value.
const ANY: f32 = f32::MIN_POSITIVE;
/// Cells over which nearness falls from 1 to 0 (a 3'×3' board's side).
const NEARNESS_SPAN: f32 = 36.0;

const _: () = assert!(P_NEAR_MARKER_UNSEEN + 1 == PLANES);

/// Write `side`'s observation of `state` into `planes` (`PLANES × depth × width` of the
/// board's [`Geometry`]) and `globals` (`GLOBALS`). Both are overwritten entirely.
pub fn encode_observation(
    state: &GameState,
    side: Side,
    mut planes: ArrayViewMut3<f32>,
    mut globals: ArrayViewMut1<f32>,
) {
    let board = state.board();
    let geo = Geometry::of(board);
    assert_eq!(planes.shape(), [PLANES, geo.depth, geo.width], "observation planes of the wrong shape");
    assert_eq!(globals.len(), GLOBALS, "observation globals of the wrong length");
    planes.fill(0.0);
    globals.fill(0.0);
    let mut put = |plane: usize, c: crate::board::CellIdx, v: f32| {
        let (x, y) = board.xy(c);
        planes[[plane, y as usize, x as usize]] = v;
    };
    for (c, cell) in board.cells().iter().enumerate() {
        let c = c as crate::board::CellIdx;
        put(P_BOARD, c, 1.0);
        put(P_HEIGHT, c, cell.height as f32 / 10.0);
        match cell.terrain {
            Terrain::Water => put(P_WATER, c, 1.0),
            Terrain::Rough => put(P_ROUGH, c, 1.0),
            Terrain::Impassable => put(P_IMPASSABLE, c, 1.0),
            _ => {}
        }
        match cell.cover {
            Cover::Soft => put(P_SOFT, c, 1.0),
            Cover::Hard => put(P_HARD, c, 1.0),
            Cover::None => {}
        }
    }
    let d = state.dynamic();
    for (i, m) in d.models.iter().enumerate() {
        if !m.is_on_table() {
            continue;
        }
        let base = if m.side == side { P_OWN } else { P_ENEMY };
        let features = model_features(state, i as u8);
        for (k, v) in features.into_iter().enumerate() {
            put(base + k, m.cell, v);
        }
    }
    // Ambush markers share the scenario markers' plane: passive 0.25, active 0.75.
    for (_, mk) in d.uc.markers_on_table() {
        put(P_MARKER, mk.cell, if mk.active { 0.75 } else { 0.25 });
    }
    let mut scenario = d.scenario.clone();
    scenario.mask(side);
    for marker in scenario.markers.iter().filter(|mk| mk.placed && !mk.off_table) {
        let (cell, weight) = match marker.holder {
            Some(h) => (d.models[h as usize].cell, 0.5),
            None => (marker.cell, 1.0),
        };
        put(P_MARKER, cell, weight);
        let holder_side = marker.holder.map(|h| d.models[h as usize].side);
        let owner = match marker.kind {
            MarkerKind::Objective(s) | MarkerKind::Prize(s) => Some(s),
            MarkerKind::Central | MarkerKind::Numbered => None,
        };
        if marker.kind == MarkerKind::Numbered && marker.holder.is_none() && marker.known & (1 << side) == 0 {
            put(P_MARKER_UNSEEN, cell, 1.0);
        }
        let sought_by_me = marker.kind == MarkerKind::Numbered
            && marker.number.is_some()
            && marker.known & (1 << side) != 0
            && marker.number == scenario.sought[side as usize];
        let mine = holder_side == Some(side)
            || marker.controller == Some(side)
            || owner == Some(side)
            || sought_by_me;
        let theirs = holder_side.is_some_and(|s| s != side)
            || marker.controller.is_some_and(|s| s != side)
            || owner.is_some_and(|s| s != side);
        if mine {
            put(P_MARKER_MINE, cell, 1.0);
        }
        if theirs {
            put(P_MARKER_THEIRS, cell, 1.0);
        }
    }
    let step = d.steps.last();
    let active = d.sequence.as_ref().map(|s| s.actor).or(d.activating).or(match step {
        Some(Step::Scenario(crate::scenario::ScenarioStep::Deploy { model, .. })) => Some(*model),
        Some(Step::Enemy(crate::state::EnemyStep::Place { model, .. })) => Some(*model),
        _ => None,
    });
    if let Some(a) = active {
        put(P_ACTIVE, d.models[a as usize].cell, 1.0);
    }
    if let Some(seq) = &d.sequence {
        let n = seq.path.points.len();
        for (k, p) in seq.path.points.iter().enumerate() {
            put(P_PATH, p.cell, (k + 1) as f32 / n as f32);
        }
        for r in seq.rolls.iter().filter(|r| !r.cancelled) {
            if let Some(t) = r.target {
                put(P_TARGETED, d.models[t as usize].cell, 1.0);
            }
        }
        for t in &seq.templates {
            put(P_TARGETED, t.at, 1.0);
        }
    }
    for cloud in &d.clouds {
        put(P_SMOKE, cloud.centre, 1.0);
    }
    let on_table = |m: u8| d.models.get(m as usize).filter(|mm| mm.is_on_table()).map(|mm| mm.cell);
    for (s, grudge) in scenario.grudges.iter().enumerate() {
        let Some(g) = grudge else { continue };
        let plane = if s == side as usize { P_GRUDGE_MINE } else { P_GRUDGE_THEIRS };
        if let Some(c) = on_table(g.holder) {
            put(plane, c, 0.5);
        }
        if let Some(c) = on_table(g.target) {
            put(plane, c, 1.0);
        }
    }
    for courier in scenario.couriers.iter().flatten() {
        if let Some(c) = on_table(*courier) {
            put(P_COURIER, c, 1.0);
        }
    }
    let enemy = 1 - side.min(1);
    for c in 0..board.cells().len() as crate::board::CellIdx {
        if crate::scenario::in_deployment_zone(state, side, c) {
            put(P_ZONE_MINE, c, 1.0);
        }
        if crate::scenario::in_deployment_zone(state, enemy, c) {
            put(P_ZONE_THEIRS, c, 1.0);
        }
        if state.rules().on_exit_edge(state, side, c) {
            put(P_EXIT, c, 1.0);
        }
    }
    threats(state, side, &mut planes);
    for (near, source, least) in NEARNESS {
        nearness(&mut planes, (source, least), near, board.width() as usize, board.depth() as usize);
    }
    encode_globals(state, side, &scenario, active, &mut globals);
}

/// The features of model `i` its cell carries in the side's model planes (one per plane from
/// `P_OWN` or `P_ENEMY`): health, wounds and AP left, activation, stance, tokens, climbing
/// height, attributes, armour and weapon reach.
fn model_features(state: &GameState, i: ModelId) -> [f32; SIDE_PLANES] {
    let board = state.board();
    let m = &state.dynamic().models[i as usize];
    let p = state.profile(i);
    let ranged = p.weapons.iter().filter_map(|w| w.range.map(|r| r.1)).max().unwrap_or(0);
    let reach = p.weapons.iter().filter_map(|w| w.reach()).max().unwrap_or(0);
    let armour = crate::odds::armour_target(p.toughness, p.total_armour(), 0, 0, false);
    let t = &m.tokens;
    [
        (m.health == Health::Conscious) as u8 as f32,
        (m.health == Health::Down) as u8 as f32,
        m.wounds as f32 / p.wounds.max(1) as f32,
        m.ap as f32 / p.ap_max.max(1) as f32,
        m.activated as u8 as f32,
        m.is_low() as u8 as f32,
        (t.fire.min(3) as f32 + t.blind as u8 as f32 + (t.slow != (0, 0)) as u8 as f32) / 3.0,
        t.stealth as u8 as f32,
        if m.stance == Stance::Climbing { (m.z - board.cell(m.cell).height) as f32 / 10.0 } else { 0.0 },
        p.marksmanship as f32 / 10.0,
        p.cc as f32 / 10.0,
        p.agility as f32 / 10.0,
        p.intelligence as f32 / 10.0,
        armour as f32 / 10.0,
        ranged as f32 / 24.0,
        reach as f32 / 3.0,
    ]
}

/// Fill the fire and reach planes ([`P_ENEMY_FIRE`], [`P_OWN_FIRE`], [`P_ENEMY_REACH`]),
/// which are all zero on entry. Sight comes from the board's per-viewer table, so a cell
/// costs a lookup once a viewer's row is built.
fn threats(state: &GameState, side: Side, planes: &mut ArrayViewMut3<f32>) {
    const TARGET: Volume = Volume::Standing(LosTemplate::C);
    const SHARE: f32 = 0.25;
    let board = state.board();
    for (i, m) in state.dynamic().models.iter().enumerate() {
        if !m.is_on_table() || !m.is_conscious() {
            continue;
        }
        let mine = m.side == side;
        let p = state.profile(i as ModelId);
        let range = p.weapons.iter().filter_map(|w| w.range.map(|r| r.1)).max().unwrap_or(0) as f32;
        let charge = (p.speed.1 + 1 + p.weapons.iter().filter_map(|w| w.reach()).max().unwrap_or(0)) as f32;
        let eye = state.volume(m);
        // Only the cells within the farther of the two distances can count.
        let radius = (range + 1.0).max(charge).ceil() as usize;
        let (mx, my) = board.xy(m.cell);
        let (mx, my) = (mx as usize, my as usize);
        let xs = mx.saturating_sub(radius)..(mx + radius + 1).min(board.width() as usize);
        let ys = my.saturating_sub(radius)..(my + radius + 1).min(board.depth() as usize);
        for (x, y) in ys.flat_map(|y| xs.clone().map(move |x| (x, y))) {
            let c = board.idx(x as u8, y as u8);
            let h = board.cell(c).height;
            if !mine && board.centre_distance(m.cell, 0, c, 0) <= charge {
                planes[[P_ENEMY_REACH, y, x]] += SHARE;
            }
            if range > 0.0
                && board.edge_distance(m.cell, m.z, c, h) <= range
                && board.sight(m.cell, m.z, eye, c, h, TARGET).visible
            {
                planes[[if mine { P_OWN_FIRE } else { P_ENEMY_FIRE }, y, x]] += SHARE;
            }
        }
    }
    for plane in [P_ENEMY_FIRE, P_OWN_FIRE, P_ENEMY_REACH] {
        planes.index_axis_mut(ndarray::Axis(0), plane).mapv_inplace(|v| v.min(1.0));
    }
}

/// Fill plane `near` with each board cell's nearness to the cells of plane `source.0` of at
/// least `source.1`: 1 − (chessboard distance) / [`NEARNESS_SPAN`], at least 0; all 0 when
/// there are none.
/// Two raster passes give the exact chessboard distance (a chamfer distance transform).
fn nearness(planes: &mut ArrayViewMut3<f32>, source: (usize, f32), near: usize, width: usize, depth: usize) {
    const FAR: f32 = f32::MAX / 2.0;
    let mut any = false;
    for y in 0..depth {
        for x in 0..width {
            let is_source = planes[[source.0, y, x]] >= source.1;
            any |= is_source;
            planes[[near, y, x]] = if is_source { 0.0 } else { FAR };
        }
    }
    if !any {
        for y in 0..depth {
            for x in 0..width {
                planes[[near, y, x]] = 0.0;
            }
        }
        return;
    }
    let relax = |planes: &mut ArrayViewMut3<f32>, x: usize, y: usize, nx: isize, ny: isize| {
        if nx >= 0 && ny >= 0 && (nx as usize) < width && (ny as usize) < depth {
            let via = planes[[near, ny as usize, nx as usize]] + 1.0;
            if via < planes[[near, y, x]] {
                planes[[near, y, x]] = via;
            }
        }
    };
    for y in 0..depth {
        for x in 0..width {
            let (xi, yi) = (x as isize, y as isize);
            for (dx, dy) in [(-1, 0), (-1, -1), (0, -1), (1, -1)] {
                relax(planes, x, y, xi + dx, yi + dy);
            }
        }
    }
    for y in (0..depth).rev() {
        for x in (0..width).rev() {
            let (xi, yi) = (x as isize, y as isize);
            for (dx, dy) in [(1, 0), (1, 1), (0, 1), (-1, 1)] {
                relax(planes, x, y, xi + dx, yi + dy);
            }
        }
    }
    for y in 0..depth {
        for x in 0..width {
            let d = planes[[near, y, x]];
            planes[[near, y, x]] = (1.0 - d / NEARNESS_SPAN).max(0.0);
        }
    }
}

/// Global features: turn and game length, scenario, player A, VP, pass tokens, initiative,
/// whose turn it is, the kind of node, the models each side has left, and the acting model
/// (from [`ACTING`]).
fn encode_globals(
    state: &GameState,
    side: Side,
    scenario: &crate::scenario::ScenarioState,
    active: Option<ModelId>,
    globals: &mut ArrayViewMut1<f32>,
) {
    let d = state.dynamic();
    let stat = state.static_data();
    let enemy = 1 - side.min(1);
    let mut g = [0.0f32; GLOBALS];
    g[0] = d.turn as f32 / 6.0;
    g[1] = stat.max_turns as f32 / 6.0;
    g[SCENARIO_FIRST + stat.scenario as usize] = 1.0; // the scenario one-hot, the skirmish first
                                                      // The features after the one-hot, from `S`.
    const S: usize = AFTER_SCENARIOS;
    g[S] = (scenario.player_a == side) as u8 as f32;
    g[S + 1] = scenario.vp[side as usize] as f32 / 10.0;
    g[S + 2] = scenario.vp[enemy as usize] as f32 / 10.0;
    g[S + 3] = d.pass_tokens[side as usize] as f32 / 3.0;
    g[S + 4] = d.pass_tokens[enemy as usize] as f32 / 3.0;
    g[S + 5] = (d.initiative == side) as u8 as f32;
    g[S + 6] = (d.active == side) as u8 as f32;
    g[S + 7] = (state.current_player() == Player::Side(side)) as u8 as f32;
    g[S + 8 + node_kind(d.steps.last())] = 1.0; // the kind of node: NODE_KINDS slots
    let count = |s: Side| d.models.iter().filter(|m| m.side == s && m.is_conscious()).count() as f32 / 10.0;
    g[S + 32] = count(side);
    g[S + 33] = count(enemy);
    g[S + 34] = d.sequence.is_some() as u8 as f32;
    g[S + 35] = d.cards_used[side as usize].count_ones() as f32 / 4.0;
    g[S + 36] = stat.cards.get(side as usize).map_or(0, |c| c.len()) as f32 / 4.0;
    if let Some(grudge) = scenario.grudges[side as usize] {
        g[S + 37] = grudge.complete as u8 as f32;
    }
    if let Some(grudge) = scenario.grudges[enemy as usize] {
        g[S + 38] = grudge.revealed as u8 as f32;
    }
    g[S + 39] = scenario.done[side as usize] as u8 as f32;
    if let Some(a) = active {
        acting_model(state, side, scenario, a, &mut g[ACTING..]);
    }
    for (k, v) in g.into_iter().enumerate() {
        globals[k] = v;
    }
}

/// The acting model (the one activating, moving in a sequence or being placed) as global
/// features, so that every cell's policy logits can depend on who acts: a move's destination
/// is scored far from the mover, beyond what the trunk's convolutions see around it, and a
/// prize carrier heads elsewhere than a hunter. Its plane features, then whose it is, its
/// scenario roles (courier, carrier of either side's prize or any marker, grudge holder or
/// target), leader and character, and its speeds.
fn acting_model(
    state: &GameState,
    side: Side,
    scenario: &crate::scenario::ScenarioState,
    a: ModelId,
    g: &mut [f32],
) {
    let model = &state.dynamic().models[a as usize];
    let profile = state.profile(a);
    g[..SIDE_PLANES].copy_from_slice(&model_features(state, a));
    let carries = |owner: Option<Side>| {
        scenario.markers.iter().any(|mk| {
            mk.holder == Some(a)
                && match (owner, mk.kind) {
                    (None, _) => true,
                    (Some(s), MarkerKind::Prize(p)) => p == s,
                    _ => false,
                }
        })
    };
    let grudge = |s: Side, holder: bool| {
        scenario.grudges[s as usize].is_some_and(|g| if holder { g.holder == a } else { g.target == a })
    };
    let enemy = 1 - side.min(1);
    let flags = [
        1.0,
        (model.side == side) as u8 as f32,
        scenario.couriers.contains(&Some(a)) as u8 as f32,
        carries(Some(side)) as u8 as f32,
        carries(Some(enemy)) as u8 as f32,
        carries(None) as u8 as f32,
        (grudge(side, true) || grudge(enemy, true)) as u8 as f32,
        (grudge(side, false) || grudge(enemy, false)) as u8 as f32,
        (profile.role == crate::profile::Role::Leader) as u8 as f32,
        (profile.model_type == crate::profile::ModelType::Character) as u8 as f32,
        profile.speed.0 as f32 / 10.0,
        profile.speed.1 as f32 / 10.0,
    ];
    g[SIDE_PLANES..ACTING_FEATURES].copy_from_slice(&flags);
}

/// The kind of node on top of the stack, 0..[`NODE_KINDS`] (the observation's node features
/// and the fast network's).
pub fn node_kind(step: Option<&Step>) -> usize {
    use crate::scenario::ScenarioStep as S;
    match step {
        None => 0,
        Some(s) if s.is_chance() => 1,
        Some(Step::ChooseInitiative(_)) => 2,
        Some(Step::ChooseActivation) => 3,
        Some(Step::ChooseAction(_)) => 4,
        Some(Step::ChooseNested) => 5,
        Some(Step::ChooseReaction | Step::ChooseReactionBy(_)) => 6,
        Some(Step::ChooseFirefight) => 7,
        Some(Step::ChooseCommand) => 8,
        Some(Step::ChooseCommandAp { .. }) => 9,
        Some(Step::ChooseCard { .. }) => 10,
        Some(Step::ChooseAllocation { .. }) => 11,
        Some(Step::ChooseMidAir) => 12,
        Some(Step::ChooseFallPoint { .. }) => 13,
        Some(Step::ChooseContinuer { .. }) => 14,
        Some(Step::ChooseDodgeMove { .. }) => 15,
        Some(Step::Scenario(S::ChooseRoles)) => 16,
        Some(Step::Scenario(S::ChooseGrudge(_))) => 17,
        Some(Step::Scenario(S::ChooseCourier(_) | S::ChooseGroup(_))) => 18,
        Some(Step::Scenario(S::ChooseZone { .. })) => 19,
        Some(Step::Scenario(S::PlaceMarker { .. })) => 20,
        Some(Step::Scenario(S::Deploy { .. })) => 21,
        Some(Step::Scenario(_)) => 22,
        Some(_) => 23,
    }
}
