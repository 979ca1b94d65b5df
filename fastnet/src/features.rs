//! The position features: sparse, small-integer features of what one side may see, the input
//! of the fast network's first layer. `docs/fast-network.md` has the table of every group.
//!
//! A feature is an index below [`POSITION_FEATURES`]; a position is the sorted list of its
//! active features, an index repeated once per model (or pair, or marker) it counts, so the
//! first layer sums one weight row per entry. Everything is relative to the observer: "own"
//! models are its, "enemy" the other side's, "wild" the Ulaya Chronicles dinosaurs. Facts
//! hidden from the observer (the enemy's unannounced grudge, marker numbers it has not seen)
//! never enter, so the list is the same in every determinisation of what it cannot see.
//!
//! Groups (see the offsets below):
//! - **placement**: relation × profile bucket × board zone (6 × 6 zones over any board);
//! - **status**: relation × bucket × one of [`STATUS`] items (health, wounds, AP, activation,
//!   stance, tokens, engaged, cover, scenario roles, the model acting);
//! - **threats**: for each attacker and target of another side: relation of the attacker ×
//!   its bucket × the target's bucket × the kind of threat (charge reach; shot at short or
//!   long range, in the open, soft or hard cover, by terrain line of sight);
//! - **markers**: scenario × zone × the marker's status for the observer; ambush markers by
//!   zone and state;
//! - **globals**: turn, victory-point margin, player A, initiative, whose move, the kind of
//!   node, pass tokens, cards left, counts of models and points standing, models still to
//!   activate, victory points;
//! - **marker proximity**: for each conscious model and each marker status, the distance band
//!   to the nearest marker of that status (scenario × relation × bucket × status × band): the
//!   conjunction "this model stands by that objective", which a sum of a model's zone row and
//!   a marker's zone row cannot express;
//! - **enemy proximity**: for each conscious model, the distance band to the nearest
//!   conscious model of another side and that model's bucket.
//!
//! The two proximity groups came after the first set ([`FIRST_SET_FEATURES`]); they follow it,
//! so a checkpoint of the first set loads with zero rows for them and evaluates as it did.

use engine::board::{CellIdx, Cover, LosTemplate, Volume};
use engine::encoding::observe::{node_kind, NODE_KINDS};
use engine::profile::{ModelType, Role};
use engine::scenario::types::Scenario;
use engine::scenario::{Marker, MarkerKind};
use engine::state::{Health, ModelId, Player, Side, Stance};
use engine::GameState;

/// Zones across the board (columns).
pub const ZONES_X: usize = 6;
/// Zones along the board (rows).
pub const ZONES_Y: usize = 6;
/// Board zones.
pub const ZONES: usize = ZONES_X * ZONES_Y;
/// Relations of a model to the observer: own, enemy, wild (AI dinosaurs).
pub const RELATIONS: usize = 3;
/// Profile buckets: leader, other character, ranged troop, close-combat troop, beast or
/// cavalry (every wild model).
pub const BUCKETS: usize = 5;
/// Scenarios (the skirmish and those of the D5 table), from the one scenario list: a new
/// scenario changes the feature layout, and checkpoints of the old one are then refused by shape.
pub const SCENARIOS: usize = Scenario::COUNT;

/// The status items of a model (see [`status_items`]).
pub const STATUS: [&str; 32] = [
    "healthy",
    "wounded",
    "down",
    "taken out",
    "not on the table yet",
    "left the table",
    "0 AP",
    "1 AP",
    "2 AP",
    "3 AP",
    "4+ AP",
    "activated this turn",
    "prone",
    "swimming",
    "climbing",
    "on fire",
    "blinded",
    "slowed",
    "stealthed",
    "engaged (an enemy in base contact)",
    "on soft cover",
    "on hard cover",
    "carries a marker",
    "the observer's grudge target, or a revealed one",
    "a grudge holder (the observer's, or revealed)",
    "a courier",
    "a jammed or broken weapon",
    "one wound left",
    "acting now",
    "targeted by the action under way",
    "elevated (3\" or more above the ground)",
    "a leader that has given its orders",
];

/// The kinds of threat between an attacker and a target.
pub const THREATS: [&str; 7] = [
    "charge reach",
    "short-range shot in the open",
    "short-range shot into soft cover",
    "short-range shot into hard cover",
    "long-range shot in the open",
    "long-range shot into soft cover",
    "long-range shot into hard cover",
];

/// A marker's status for the observer.
pub const MARKER_STATUS: [&str; 7] = [
    "lying free",
    "held or controlled by the observer",
    "held or controlled by the enemy",
    "the observer's objective or prize",
    "the enemy's objective or prize",
    "a numbered marker the observer has not seen",
    "the numbered marker the observer seeks",
];

/// First placement feature.
pub const PLACEMENT: usize = 0;
/// First status feature.
pub const STATUS_AT: usize = PLACEMENT + RELATIONS * BUCKETS * ZONES;
/// First threat feature.
pub const THREAT_AT: usize = STATUS_AT + RELATIONS * BUCKETS * STATUS.len();
/// First scenario-marker feature.
pub const MARKER_AT: usize = THREAT_AT + RELATIONS * BUCKETS * BUCKETS * THREATS.len();
/// First ambush-marker feature (zone × passive/active).
pub const AMBUSH_AT: usize = MARKER_AT + SCENARIOS * ZONES * MARKER_STATUS.len();
/// First global feature.
pub const GLOBAL_AT: usize = AMBUSH_AT + ZONES * 2;

/// The global groups: name and size, in order from [`GLOBAL_AT`].
pub const GLOBAL_GROUPS: [(&str, usize); 18] = [
    ("scenario × turn (1..=7+)", SCENARIOS * 8),
    ("scenario × victory-point margin (−4..=+4, in tens of points in a skirmish)", SCENARIOS * 9),
    ("scenario × the observer is player A", SCENARIOS * 2),
    ("the observer holds the initiative", 2),
    ("the observer's side is active", 2),
    ("who moves: the observer, the enemy, chance or nobody", 3),
    ("node kind × who moves", NODE_KINDS * 3),
    ("the observer's pass tokens (0..=3)", 4),
    ("the enemy's pass tokens (0..=3)", 4),
    ("the observer's cards left (0..=4)", 5),
    ("the enemy's cards left (0..=4)", 5),
    ("an action sequence is under way", 1),
    ("grudge complete (own), grudge revealed (enemy's), scenario done (own, enemy's)", 4),
    ("the observer's conscious models (0..=15)", 16),
    ("the enemy's conscious models (0..=15)", 16),
    ("share of points conscious, own then enemy's (tenths)", 22),
    ("models still to activate, own then enemy's (0..=7)", 16),
    ("victory points, own then enemy's (0..=7, not in a skirmish)", 16),
];

/// Number of global features.
pub const GLOBALS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < GLOBAL_GROUPS.len() {
        n += GLOBAL_GROUPS[i].1;
        i += 1;
    }
    n
};

/// Number of position features of the first set (placement to globals), the set generation 0
/// was trained on: a checkpoint with this many loads, its proximity rows zero.
pub const FIRST_SET_FEATURES: usize = GLOBAL_AT + GLOBALS;

/// Distance bands from a model to the nearest marker of a status (inches, centre to centre);
/// farther than the last, no feature.
pub const MARKER_BANDS: [f32; 5] = [1.0, 3.0, 6.0, 10.0, 16.0];
/// Distance bands from a model to the nearest model of another side (inches, edge to edge:
/// the first is base contact); farther than the last, no feature.
pub const ENEMY_BANDS: [f32; 6] = [0.5, 3.0, 6.0, 10.0, 16.0, 24.0];
/// First marker-proximity feature: scenario × relation × bucket × marker status × band.
pub const MARKER_NEAR_AT: usize = FIRST_SET_FEATURES;
/// First enemy-proximity feature: relation × bucket × the nearest enemy's bucket × band.
pub const ENEMY_NEAR_AT: usize =
    MARKER_NEAR_AT + SCENARIOS * RELATIONS * BUCKETS * MARKER_STATUS.len() * MARKER_BANDS.len();

/// Number of position features.
pub const POSITION_FEATURES: usize = ENEMY_NEAR_AT + RELATIONS * BUCKETS * BUCKETS * ENEMY_BANDS.len();

/// Most scenario markers the proximity features look at (the scenarios place at most a dozen).
const MOST_MARKERS: usize = 32;

// The groups follow one another and every feature fits in 16 bits (checked when compiling).
const _: () = assert!(STATUS_AT > PLACEMENT && THREAT_AT > STATUS_AT && MARKER_AT > THREAT_AT);
const _: () = assert!(AMBUSH_AT > MARKER_AT && GLOBAL_AT > AMBUSH_AT);
const _: () = assert!(ENEMY_NEAR_AT > MARKER_NEAR_AT && POSITION_FEATURES > ENEMY_NEAR_AT);
const _: () = assert!(POSITION_FEATURES < u16::MAX as usize);

/// The first feature of global group `g`.
const fn global(g: usize) -> usize {
    let mut n = GLOBAL_AT;
    let mut i = 0;
    while i < g {
        n += GLOBAL_GROUPS[i].1;
        i += 1;
    }
    n
}

/// What the features need of a model, computed once a position.
#[derive(Clone, Copy, Default)]
struct Facts {
    relation: usize,
    bucket: usize,
    zone: usize,
    on_table: bool,
    conscious: bool,
    /// Longest ranged weapon range (0: none).
    range: f32,
    /// Charge reach: run speed, a base and the longest close-combat reach.
    charge: f32,
}

/// Whether `t` is a conscious model `a` may fight: of another side and not of the same relation
/// (own and enemy models do not fight their own; wild models fight every other side).
fn opposed(a: &Facts, t: &Facts, a_side: Side, t_side: Side) -> bool {
    t.conscious && t_side != a_side && (a.relation != t.relation || a.relation == 2)
}

/// The relation of a model of `side` to `observer` (0 own, 1 enemy, 2 wild).
pub fn relation(side: Side, observer: Side) -> usize {
    if side == observer {
        0
    } else if side <= 1 {
        1
    } else {
        2
    }
}

/// The profile bucket of model `m` (see [`BUCKETS`]).
pub fn bucket(state: &GameState, m: ModelId) -> usize {
    if state.models()[m as usize].side > 1 {
        return 4;
    }
    let p = state.profile(m);
    match (p.role, p.model_type) {
        (_, ModelType::Cavalry | ModelType::Beast) => 4,
        (Role::Leader, _) => 0,
        (_, ModelType::Character) => 1,
        _ if p.weapons.iter().any(|w| w.is_ranged()) => 2,
        _ => 3,
    }
}

/// The zone of a cell on `state`'s board.
pub fn zone(state: &GameState, cell: CellIdx) -> usize {
    let board = state.board();
    let (x, y) = board.xy(cell);
    let zx = x as usize * ZONES_X / board.width().max(1) as usize;
    let zy = y as usize * ZONES_Y / board.depth().max(1) as usize;
    zy.min(ZONES_Y - 1) * ZONES_X + zx.min(ZONES_X - 1)
}

/// Most models a position's facts are kept for on the stack; beyond it they go to the heap.
const STACK_MODELS: usize = 48;

/// Write `observer`'s position features of `state` into `out` (cleared first), sorted.
pub fn position_features(state: &GameState, observer: Side, out: &mut Vec<u16>) {
    out.clear();
    let models = state.models();
    let mut stack = [Facts::default(); STACK_MODELS];
    let mut heap = Vec::new();
    let facts: &mut [Facts] = if models.len() <= STACK_MODELS {
        &mut stack[..models.len()]
    } else {
        heap.resize(models.len(), Facts::default());
        &mut heap
    };
    for (i, m) in models.iter().enumerate() {
        let p = state.profile(i as ModelId);
        let reach = p.weapons.iter().filter_map(|w| w.reach()).max().unwrap_or(0);
        facts[i] = Facts {
            relation: relation(m.side, observer),
            bucket: bucket(state, i as ModelId),
            zone: if m.is_on_table() { zone(state, m.cell) } else { 0 },
            on_table: m.is_on_table(),
            conscious: m.is_on_table() && m.is_conscious(),
            range: p.weapons.iter().filter_map(|w| w.range.map(|r| r.1)).max().unwrap_or(0) as f32,
            charge: (p.speed.1 + 1 + reach) as f32,
        };
    }
    for (i, f) in facts.iter().enumerate() {
        if f.on_table {
            out.push((PLACEMENT + (f.relation * BUCKETS + f.bucket) * ZONES + f.zone) as u16);
        }
        let base = STATUS_AT + (f.relation * BUCKETS + f.bucket) * STATUS.len();
        status_items(state, observer, i as ModelId, facts, |k| out.push((base + k) as u16));
    }
    threats(state, facts, out);
    markers(state, observer, facts, out);
    enemy_proximity(state, facts, out);
    globals(state, observer, out);
    out.sort_unstable();
}

/// The band of `distance` among `bands` (the first bound it is within), if any.
fn band(distance: f32, bands: &[f32]) -> Option<usize> {
    bands.iter().position(|&b| distance <= b)
}

/// Call `push` with each status item of model `i` (indices into [`STATUS`]).
fn status_items(state: &GameState, observer: Side, i: ModelId, facts: &[Facts], mut push: impl FnMut(usize)) {
    let d = state.dynamic();
    let m = &d.models[i as usize];
    let p = state.profile(i);
    let board = state.board();
    match m.health {
        Health::Conscious if m.wounds >= p.wounds => push(0),
        Health::Conscious => push(1),
        Health::Down => push(2),
        Health::TakenOut => push(3),
        Health::Reserve => push(4),
        Health::LeftTable | Health::Remounted => push(5),
    }
    if m.health != Health::Conscious {
        return;
    }
    push(6 + m.ap.min(4) as usize);
    if m.activated {
        push(11);
    }
    match m.stance {
        Stance::Prone => push(12),
        Stance::Swimming => push(13),
        Stance::Climbing => push(14),
        Stance::Standing => {}
    }
    let t = &m.tokens;
    if t.fire > 0 {
        push(15);
    }
    if t.blind {
        push(16);
    }
    if t.slow != (0, 0) {
        push(17);
    }
    if t.stealth {
        push(18);
    }
    let me = &facts[i as usize];
    let engaged = facts.iter().enumerate().any(|(j, f)| {
        f.conscious
            && f.relation != me.relation
            && board.edge_distance(m.cell, m.z, d.models[j].cell, d.models[j].z) < 0.5
    });
    if engaged {
        push(19);
    }
    match board.cell(m.cell).cover {
        Cover::Soft => push(20),
        Cover::Hard => push(21),
        Cover::None => {}
    }
    let scenario = &d.scenario;
    if scenario.markers.iter().any(|mk| mk.holder == Some(i) && !mk.off_table) {
        push(22);
    }
    for (s, g) in scenario.grudges.iter().enumerate() {
        let Some(g) = g else { continue };
        if s as Side == observer || g.revealed {
            if g.target == i {
                push(23);
            }
            if g.holder == i {
                push(24);
            }
        }
    }
    if scenario.couriers.contains(&Some(i)) {
        push(25);
    }
    if m.jammed != 0 || m.broken != 0 {
        push(26);
    }
    if m.wounds == 1 {
        push(27);
    }
    let acting = d.sequence.as_ref().map(|s| s.actor).or(d.activating);
    if acting == Some(i) {
        push(28);
    }
    if d.sequence.as_ref().is_some_and(|s| s.rolls.iter().any(|r| !r.cancelled && r.target == Some(i))) {
        push(29);
    }
    if m.z >= board.cell(m.cell).height.saturating_add(3) || board.cell(m.cell).height >= 3 {
        push(30);
    }
    if m.commanded {
        push(31);
    }
}

/// The threat features: every conscious attacker against every conscious model of another
/// side, by charge reach and by terrain line of sight within its longest range.
fn threats(state: &GameState, facts: &[Facts], out: &mut Vec<u16>) {
    const TARGET: Volume = Volume::Standing(LosTemplate::C);
    let board = state.board();
    let models = state.models();
    for (a, fa) in facts.iter().enumerate() {
        if !fa.conscious {
            continue;
        }
        let ma = &models[a];
        let eye = state.volume(ma);
        for (t, ft) in facts.iter().enumerate() {
            if !opposed(fa, ft, ma.side, models[t].side) {
                continue;
            }
            let mt = &models[t];
            let base =
                THREAT_AT + ((fa.relation * BUCKETS + fa.bucket) * BUCKETS + ft.bucket) * THREATS.len();
            if board.centre_distance(ma.cell, 0, mt.cell, 0) <= fa.charge {
                out.push(base as u16);
            }
            if fa.range > 0.0 {
                let distance = board.edge_distance(ma.cell, ma.z, mt.cell, mt.z);
                if distance <= fa.range {
                    let sight = board.sight(ma.cell, ma.z, eye, mt.cell, mt.z, TARGET);
                    if sight.visible {
                        let cover = if sight.hard_cover {
                            2
                        } else if sight.soft_cover {
                            1
                        } else {
                            0
                        };
                        let band = if distance <= fa.range / 2.0 { 0 } else { 1 };
                        out.push((base + 1 + band * 3 + cover) as u16);
                    }
                }
            }
        }
    }
}

/// The statuses of scenario marker `mk` for `observer`, as bits of [`MARKER_STATUS`] (bit 0,
/// "lying free", when no other applies).
fn marker_statuses(state: &GameState, observer: Side, mk: &Marker) -> u8 {
    let d = state.dynamic();
    let s = &d.scenario;
    let holder_side = mk.holder.map(|h| d.models[h as usize].side);
    let owner = match mk.kind {
        MarkerKind::Objective(o) | MarkerKind::Prize(o) => Some(o),
        MarkerKind::Central | MarkerKind::Numbered => None,
    };
    let mine = holder_side == Some(observer) || mk.controller == Some(observer);
    let theirs = holder_side.is_some_and(|h| h != observer) || mk.controller.is_some_and(|c| c != observer);
    let mut bits = 0u8;
    bits |= u8::from(mine) << 1;
    bits |= u8::from(theirs) << 2;
    bits |= u8::from(owner == Some(observer)) << 3;
    bits |= u8::from(owner.is_some_and(|o| o != observer)) << 4;
    bits |= u8::from(mk.kind == MarkerKind::Numbered && mk.holder.is_none() && !mk.known_to(observer)) << 5;
    let sought = mk.kind == MarkerKind::Numbered
        && mk.known_to(observer)
        && mk.number.is_some()
        && mk.number == s.sought[observer as usize];
    bits |= u8::from(sought) << 6;
    if bits == 0 {
        1
    } else {
        bits
    }
}

/// The scenario-marker, marker-proximity and ambush-marker features.
fn markers(state: &GameState, observer: Side, facts: &[Facts], out: &mut Vec<u16>) {
    let d = state.dynamic();
    let scenario = state.static_data().scenario as usize;
    let mut placed = [(0 as CellIdx, 0u8); MOST_MARKERS];
    let mut count = 0;
    for mk in d.scenario.markers.iter().filter(|mk| mk.placed && !mk.off_table) {
        let cell = match mk.holder {
            Some(h) => d.models[h as usize].cell,
            None => mk.cell,
        };
        let bits = marker_statuses(state, observer, mk);
        let base = MARKER_AT + (scenario * ZONES + zone(state, cell)) * MARKER_STATUS.len();
        for k in 0..MARKER_STATUS.len() {
            if bits & (1 << k) != 0 {
                out.push((base + k) as u16);
            }
        }
        if count < MOST_MARKERS {
            placed[count] = (cell, bits);
            count += 1;
        }
    }
    marker_proximity(state, scenario, facts, &placed[..count], out);
    for (_, mk) in d.uc.markers_on_table() {
        out.push((AMBUSH_AT + zone(state, mk.cell) * 2 + mk.active as usize) as u16);
    }
}

/// For each conscious model and each marker status, the band of the nearest marker with it.
fn marker_proximity(
    state: &GameState,
    scenario: usize,
    facts: &[Facts],
    placed: &[(CellIdx, u8)],
    out: &mut Vec<u16>,
) {
    if placed.is_empty() {
        return;
    }
    let board = state.board();
    let models = state.models();
    for (i, f) in facts.iter().enumerate().filter(|(_, f)| f.conscious) {
        let mut nearest = [f32::INFINITY; MARKER_STATUS.len()];
        for &(cell, bits) in placed {
            let distance = board.centre_distance(models[i].cell, 0, cell, 0);
            for (k, n) in nearest.iter_mut().enumerate() {
                if bits & (1 << k) != 0 && distance < *n {
                    *n = distance;
                }
            }
        }
        let row = ((scenario * RELATIONS + f.relation) * BUCKETS + f.bucket) * MARKER_STATUS.len();
        for (k, &n) in nearest.iter().enumerate() {
            if let Some(b) = band(n, &MARKER_BANDS) {
                out.push((MARKER_NEAR_AT + (row + k) * MARKER_BANDS.len() + b) as u16);
            }
        }
    }
}

/// For each conscious model, the band of the nearest conscious model of another side (as the
/// threats pair them) and that model's bucket.
fn enemy_proximity(state: &GameState, facts: &[Facts], out: &mut Vec<u16>) {
    let board = state.board();
    let models = state.models();
    for (a, fa) in facts.iter().enumerate().filter(|(_, f)| f.conscious) {
        let ma = &models[a];
        let mut nearest: Option<(f32, usize)> = None;
        for (t, ft) in facts.iter().enumerate() {
            if !opposed(fa, ft, ma.side, models[t].side) {
                continue;
            }
            let distance = board.edge_distance(ma.cell, ma.z, models[t].cell, models[t].z);
            if nearest.is_none_or(|(n, _)| distance < n) {
                nearest = Some((distance, ft.bucket));
            }
        }
        if let Some((distance, target)) = nearest {
            if let Some(b) = band(distance, &ENEMY_BANDS) {
                let at = ENEMY_NEAR_AT
                    + ((fa.relation * BUCKETS + fa.bucket) * BUCKETS + target) * ENEMY_BANDS.len()
                    + b;
                out.push(at as u16);
            }
        }
    }
}

/// The global features.
fn globals(state: &GameState, observer: Side, out: &mut Vec<u16>) {
    let d = state.dynamic();
    let stat = state.static_data();
    let scenario = stat.scenario as usize;
    let enemy = 1 - observer.min(1);
    let mut push = |group: usize, k: usize| {
        debug_assert!(k < GLOBAL_GROUPS[group].1, "global group {group} has no item {k}");
        out.push((global(group) + k) as u16);
    };
    push(0, scenario * 8 + d.turn.min(7) as usize);
    let skirmish = stat.scenario == Scenario::Skirmish;
    let margin = state.outcome().margin(observer);
    let unit = if skirmish { 10 } else { 1 };
    push(1, scenario * 9 + (margin.div_euclid(unit).clamp(-4, 4) + 4) as usize);
    push(2, scenario * 2 + (d.scenario.player_a == observer) as usize);
    push(3, (d.initiative == observer) as usize);
    push(4, (d.active == observer) as usize);
    let mover = match state.current_player() {
        Player::Side(s) if s == observer => 0,
        Player::Side(_) => 1,
        Player::Chance | Player::Terminal => 2,
    };
    push(5, mover);
    push(6, node_kind(d.steps.last()) * 3 + mover);
    push(7, d.pass_tokens[observer as usize].min(3) as usize);
    push(8, d.pass_tokens[enemy as usize].min(3) as usize);
    let cards_left = |s: Side| {
        let held = stat.cards.get(s as usize).map_or(0, |c| c.len() as u32);
        held.saturating_sub(d.cards_used[s as usize].count_ones()).min(4) as usize
    };
    push(9, cards_left(observer));
    push(10, cards_left(enemy));
    if d.sequence.is_some() {
        push(11, 0);
    }
    let sc = &d.scenario;
    if sc.grudges[observer as usize].is_some_and(|g| g.complete) {
        push(12, 0);
    }
    if sc.grudges[enemy as usize].is_some_and(|g| g.revealed) {
        push(12, 1);
    }
    if sc.done[observer as usize] {
        push(12, 2);
    }
    if sc.done[enemy as usize] {
        push(12, 3);
    }
    let mut conscious = [0usize; 2];
    let mut ready = [0usize; 2];
    let mut standing = [0u32; 2];
    let mut total = [0u32; 2];
    for (i, m) in d.models.iter().enumerate() {
        if m.side > 1 || m.health == Health::Remounted {
            continue;
        }
        let r = (m.side != observer) as usize;
        let points = state.profile(i as ModelId).points as u32;
        total[r] += points;
        if m.is_conscious() || m.health == Health::Reserve {
            standing[r] += points;
        }
        if m.is_conscious() && m.is_on_table() {
            conscious[r] += 1;
            if !m.activated {
                ready[r] += 1;
            }
        }
    }
    push(13, conscious[0].min(15));
    push(14, conscious[1].min(15));
    for r in 0..2 {
        let tenths = (standing[r] * 10).checked_div(total[r]).unwrap_or(0) as usize;
        push(15, r * 11 + tenths.min(10));
        push(16, r * 8 + ready[r].min(7));
    }
    if !skirmish {
        push(17, (sc.vp[observer as usize].clamp(0, 7)) as usize);
        push(17, 8 + (sc.vp[enemy as usize].clamp(0, 7)) as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_global_groups_end_the_first_set() {
        assert_eq!(global(GLOBAL_GROUPS.len()), FIRST_SET_FEATURES);
    }

    #[test]
    fn a_distance_falls_in_the_first_band_that_holds_it() {
        assert_eq!(band(0.0, &ENEMY_BANDS), Some(0));
        assert_eq!(band(0.5, &ENEMY_BANDS), Some(0));
        assert_eq!(band(0.6, &ENEMY_BANDS), Some(1));
        assert_eq!(band(24.0, &ENEMY_BANDS), Some(5));
        assert_eq!(band(24.1, &ENEMY_BANDS), None);
        assert_eq!(band(f32::INFINITY, &MARKER_BANDS), None);
    }
}
