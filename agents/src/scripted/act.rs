//! The active model's choices: which model to activate, and each of its actions.
//!
//! Every option is scored as what it gains now plus the value of where the model then stands
//! and of the AP it keeps:
//! - gain: an attack's expected value (exact odds; the target may oppose it by shooting or
//!   fighting back, or dodging, which also risks a wound in return), an objective's victory
//!   points, a heal or a repair;
//! - position: progress toward the model's goal, cover, minus the expected harm the enemies
//!   can do there (their sight, range, charge reach, weapons and odds), plus, with AP left,
//!   the best shot it will then have;
//! - kept AP: while enemies are still to activate, the first AP kept is worth a reaction (a
//!   dodge, a shot at a model moving into sight), so the last AP is not spent walking into
//!   the open for a little progress.
//!
//! Moves are pre-scored cheaply (progress and cover); only the most promising ones get the
//! sight-based exposure and firing estimates, and the chance that a climb or leap on the way
//! falls short (a charge that falls short does not strike).

use super::estimate::{duel, melee, shot, single, Spot, Strike};
use super::fields::Fields;
use super::goal::Goal;
use super::paths::landing;
use super::plan::goal;
use super::plans::Guarded;
use super::terms::Term;
use super::view::View;
use engine::board::{Cover, Terrain};
use engine::profile::Role;
use engine::state::template::{damages, models_under, template_of};
use engine::state::{CombatKind, InteractKind, ModelId, Stance};
use engine::Action;

pub(crate) use super::terms::NEVER;
/// Moves and charges given the full position estimate.
const REFINED: usize = 14;
/// Chance that an attacked model with AP opposes the attack.
const OPPOSE: f64 = 0.6;

/// The active model and what it knows of its surroundings.
pub(super) struct Scene<'v, 'a> {
    /// The deciding side's view.
    pub view: &'v View<'a>,
    /// The model.
    pub m: ModelId,
    /// Where it is heading.
    pub goal: Goal,
    /// Value of its first kept AP.
    keep_ap: f64,
    /// What it may guard: each ward's place and worth (empty where the guard term weighs 0).
    wards: Vec<Ward>,
}

/// A friend or objective the enemy threatens, worth standing near.
struct Ward {
    cell: u16,
    z: u8,
    /// The ward's worth times the enemy's threat to it, shared among the friends already by it.
    worth: f64,
}

/// Guard value of each inch nearer a ward of worth 1 (about an inch of progress while hunting).
const GUARD: f64 = 0.03;

impl<'v, 'a> Scene<'v, 'a> {
    /// The scene of model `m`.
    pub fn new(view: &'v View<'a>, fields: &mut Fields, m: ModelId) -> Scene<'v, 'a> {
        let goal = goal(view, fields, m);
        let state = view.state;
        let me = &state.models()[m as usize];
        let board = state.board();
        // Enemies yet to activate may walk into sight or charge: an AP kept answers them.
        let mut to_act = 0;
        let mut close = false;
        for e in view.enemies(true) {
            let em = &state.models()[e as usize];
            if em.ap > 0 && !em.activated {
                to_act += 1;
                let reach = state.profile(e).speed.1 as f32 + 2.0;
                close |= board.edge_distance(em.cell, em.z, me.cell, me.z) <= reach;
            }
        }
        // A prize carrier runs: its AP are for moving.
        let keep_ap = if view.carries_prize(m) {
            0.0
        } else {
            0.02 * to_act.min(3) as f64 + if close { 0.05 } else { 0.0 }
        };
        let wards = if view.w.get(Term::Guard) != 0.0 { wards(view, m) } else { Vec::new() };
        Scene { view, m, goal, keep_ap, wards }
    }

    /// Guard value of standing on `cell`: minus its distance in inches from each ward, by the
    /// ward's worth (a pull toward the wards, as progress pulls toward the goal).
    fn guard(&self, cell: u16) -> f64 {
        let board = self.view.state.board();
        let z = board.cell(cell).height;
        -GUARD
            * self
                .wards
                .iter()
                .map(|w| w.worth * board.centre_distance(cell, z, w.cell, w.z) as f64)
                .sum::<f64>()
    }

    /// Value of keeping `ap` AP at the end of the activation.
    pub fn keep(&self, ap: u8) -> f64 {
        self.view.w.get(Term::Keep) * ([0.0, 1.0, 1.35, 1.45, 1.5][ap.min(4) as usize] * self.keep_ap)
    }

    /// Cheap part of a position's value: progress and the cover on the cell itself.
    pub fn cheap(&self, cell: u16) -> f64 {
        let c = self.view.state.board().cell(cell);
        let cover = match c.cover {
            Cover::Hard => 0.03,
            Cover::Soft => 0.015,
            Cover::None => 0.0,
        };
        let water = if c.terrain == Terrain::Water { -0.03 } else { 0.0 };
        let w = &self.view.w;
        let value = w.get(Term::Progress) * self.goal.progress(cell)
            + w.get(Term::Cover) * cover
            + w.get(Term::Water) * water;
        if self.wards.is_empty() {
            value
        } else {
            value + w.get(Term::Guard) * self.guard(cell)
        }
    }

    /// Full value of standing at `spot` with `ap` AP still to spend this activation.
    pub fn position(&self, spot: Spot, ap: u8) -> f64 {
        let fire = if ap > 0 { self.fire(spot) } else { 0.0 };
        self.cheap(spot.cell) - self.risk(spot) + fire
    }

    /// Expected harm the enemies can do to the model at `spot` before it acts again.
    pub fn risk(&self, spot: Spot) -> f64 {
        let view = self.view;
        let state = view.state;
        let board = state.board();
        let mut total = 0.0;
        for e in view.enemies(true) {
            let em = &state.models()[e as usize];
            let ep = state.profile(e);
            let mobile = em.ap > 0 && !em.activated;
            let weight = if mobile { 0.6 } else { 0.3 };
            let allowance = if mobile { ep.speed.0 as f32 } else { 0.0 };
            let dist = board.edge_distance(em.cell, em.z, spot.cell, spot.z);
            let eye = super::estimate::volume_at(state, e, em.stance != Stance::Standing);
            let mut best: f64 = 0.0;
            let mut sight = None;
            for (wi, w) in ep.weapons.iter().enumerate() {
                let Some((pass, nailed)) = w.range else { continue };
                if template_of(w).is_some()
                    || !em.can_use(wi as u8, w.scarce())
                    || dist > nailed as f32 + allowance
                {
                    continue;
                }
                let s = *sight.get_or_insert_with(|| {
                    let mut s = board.sight(em.cell, em.z, eye, spot.cell, spot.z, spot.volume);
                    s.soft_cover |= spot.swimming;
                    s
                });
                let factor = if s.visible && dist <= nailed as f32 {
                    1.0
                } else if mobile {
                    0.15
                } else {
                    0.0
                };
                if factor == 0.0 {
                    continue;
                }
                let attr =
                    (ep.marksmanship as i32 - s.hard_cover as i32 - s.soft_cover as i32).clamp(1, 9) as u8;
                let strike = Strike {
                    attacker: e,
                    weapon: wi as u8,
                    target: self.m,
                    attr,
                    attr_alone: attr,
                    ranged: true,
                    pass_range: dist <= pass as f32,
                    hard: s.hard_cover,
                };
                best = best.max(factor * view.strike_value(&strike, single(attr, view.nf)));
            }
            let contact = dist < 0.5;
            if contact || (mobile && dist <= ep.speed.1 as f32 + 1.0) {
                for (wi, w) in ep.weapons.iter().enumerate() {
                    if w.is_ranged() || !em.can_use(wi as u8, w.scarce()) {
                        continue;
                    }
                    let strike = melee(state, e, wi as u8, self.m, (spot.cell, spot.z), !contact);
                    let factor = if contact { 1.0 } else { 0.7 };
                    best = best.max(factor * view.strike_value(&strike, single(strike.attr, view.nf)));
                }
            }
            total += weight * best;
        }
        view.w.get(Term::Risk) * total
    }

    /// Best attack the model could make from `spot` with its next AP (terrain sight only).
    pub fn fire(&self, spot: Spot) -> f64 {
        let view = self.view;
        let state = view.state;
        let board = state.board();
        let me = &state.models()[self.m as usize];
        let p = state.profile(self.m);
        let mut best: f64 = 0.0;
        for e in view.enemies(false) {
            let em = &state.models()[e as usize];
            if em.tokens.stealth || (!em.is_conscious() && view.value_out(Some(self.m), e) < 0.3) {
                continue;
            }
            let to = Spot::of(state, e);
            for wi in 0..p.weapons.len() as u8 {
                if let Some(s) = shot(state, self.m, wi, e, spot, to, false) {
                    best = best.max(0.75 * view.strike_value(&s, single(s.attr, view.nf)));
                }
            }
            let dist = board.edge_distance(spot.cell, spot.z, em.cell, em.z);
            if em.is_conscious() && dist <= p.speed.1 as f32 && dist > 0.5 && me.stance != Stance::Swimming {
                for (wi, w) in p.weapons.iter().enumerate() {
                    if !w.is_ranged() && me.can_use(wi as u8, w.scarce()) {
                        let s = melee(state, self.m, wi as u8, e, (em.cell, em.z), true);
                        best = best.max(0.6 * view.strike_value(&s, single(s.attr_alone, view.nf)));
                    }
                }
            }
        }
        view.w.get(Term::Fire) * (0.8 * best)
    }

    /// Net value of an attack by the model, allowing for the target opposing it.
    pub fn attack(&self, strike: &Strike, from: Spot) -> f64 {
        let view = self.view;
        let state = view.state;
        let alone = view.strike_value(strike, single(strike.attr_alone, view.nf));
        let t = strike.target;
        let tm = &state.models()[t as usize];
        if !tm.is_conscious() || tm.ap == 0 {
            return view.w.get(Term::AttackAlone) * alone;
        }
        let tp = state.profile(t);
        let agility = (tp.agility as i32 - if tm.tokens.blind { 2 } else { 0 }).clamp(1, 9) as u8;
        // Dodging.
        let mut worst = view.strike_value(strike, duel(strike.attr, agility, view.nf).0);
        // Shooting or fighting back.
        for wi in 0..tp.weapons.len() as u8 {
            let back = if strike.ranged {
                shot(state, t, wi, self.m, Spot::of(state, t), from, false)
            } else if !tp.weapons[wi as usize].is_ranged() && tm.can_use(wi, tp.weapons[wi as usize].scarce())
            {
                Some(melee(state, t, wi, self.m, (tm.cell, tm.z), false))
            } else {
                None
            };
            if let Some(back) = back {
                let (ours, theirs) = duel(strike.attr, back.attr, view.nf);
                worst = worst.min(view.strike_value(strike, ours) - view.strike_value(&back, theirs));
            }
        }
        view.w.get(Term::AttackAlone) * ((1.0 - OPPOSE) * alone)
            + view.w.get(Term::AttackOpposed) * (OPPOSE * worst)
    }
}

/// What model `m` may guard: its leader in Assassinate (down or not), a prize carrier in
/// Couriers, a friend carrying markers in Scavenger Hunt, an objective its side holds in Attack
/// and Defend. Each is worth its stake times the enemy's threat to it (enemies within two
/// moves of it, fading over the next foot, at most two), shared among the friends already
/// within 3" of it.
fn wards(view: &View, m: ModelId) -> Vec<Ward> {
    let state = view.state;
    let board = state.board();
    let at = |f: ModelId| (state.models()[f as usize].cell, state.models()[f as usize].z);
    let mut places = Vec::new();
    view.plan().wards(view, m, &mut places);
    places
        .into_iter()
        .filter_map(|Guarded { cell, z, stake, who }| {
            let threat: f64 = view
                .enemies(true)
                .map(|e| {
                    let em = &state.models()[e as usize];
                    let reach = 2.0 * state.profile(e).speed.1 as f32;
                    let d = board.edge_distance(em.cell, em.z, cell, z);
                    (1.0 - (d - reach).max(0.0) / 12.0).max(0.0) as f64
                })
                .sum::<f64>()
                .min(2.0);
            let by = view
                .friends()
                .filter(|&f| f != m && Some(f) != who)
                .filter(|&f| {
                    let (fc, fz) = at(f);
                    board.centre_distance(fc, fz, cell, z) <= 3.0
                })
                .count();
            (threat > 0.0).then(|| Ward { cell, z, worth: stake * threat / (1 + by) as f64 })
        })
        .collect()
}

/// Scores of every legal action of model `m` at its ChooseAction node.
pub(super) fn score_actions(scene: &Scene, legal: &[Action], scores: &mut Vec<f64>) {
    let view = scene.view;
    let state = view.state;
    let m = scene.m;
    let me = state.models()[m as usize];
    let here = Spot::of(state, m);
    let ap = me.ap;
    let after = ap.saturating_sub(1);
    // A prize carrier neither charges nor lingers in combat: it dodges out to go on.
    let carrier = view.carries_prize(m);
    let engaged = state.enemies_in_contact(m).next().is_some();
    let agility = state.profile(m).agility;
    let w = &view.w;
    let crawl = |prone: bool| w.get(Term::Crawl) * if prone { 0.02 } else { 0.0 };
    let stay = scene.position(here, after) + scene.keep(after);
    scores.clear();
    let mut movers: Vec<(f64, usize)> = Vec::new();
    for (i, &a) in legal.iter().enumerate() {
        let s = match a {
            Action::EndActivation => scene.position(here, 0) + scene.keep(ap),
            Action::Move { dest, prone } => {
                let s = scene.cheap(dest) + scene.keep(after) - crawl(prone);
                movers.push((s, i));
                s
            }
            Action::Charge { .. } if carrier => NEVER,
            Action::Charge { target, weapon, dest } => {
                let z = state.board().cell(dest).height;
                let strike = melee(state, m, weapon, target, (dest, z), me.stance != Stance::Swimming);
                let gain = scene.attack(&strike, Spot::at(state, m, dest, false));
                let s = gain + scene.cheap(dest) + scene.keep(after);
                movers.push((s, i));
                s
            }
            Action::Shoot { weapon, target } => {
                match shot(state, m, weapon, target, here, Spot::of(state, target), true) {
                    Some(strike) => scene.attack(&strike, here) + stay,
                    None => NEVER,
                }
            }
            Action::CloseCombat { weapon, target } => {
                let strike = melee(state, m, weapon, target, (me.cell, me.z), false);
                scene.attack(&strike, here) + stay
            }
            Action::Template { weapon, at } => {
                w.weigh(Term::Template, template_at(view, m, weapon, at)) + stay
            }
            Action::Reveal { target } => {
                let p = single(state.profile(m).intelligence, view.nf).any();
                w.get(Term::Reveal) * (0.15 * p * view.worth(target)) + stay
            }
            Action::Dodge => {
                let slip = if carrier && engaged { 2.0 * single(agility, view.nf).any() } else { 0.0 };
                stay - w.get(Term::Dodge) * 0.05 + w.get(Term::Dodge) * slip
            }
            Action::Interact { kind, target } => {
                w.weigh(Term::Objective, interact_value(view, m, kind, target)) + stay
            }
            Action::LeaveTable => w.weigh(Term::Leave, leave_value(view, m)),
            _ => NEVER,
        };
        scores.push(s);
    }
    // The best moves and charges by the cheap estimate (and the best sheltered ones) get the
    // full one.
    let mut picked: Vec<usize> = Vec::new();
    movers.sort_by(|a, b| b.0.total_cmp(&a.0));
    picked.extend(movers.iter().take(REFINED).map(|&(_, i)| i));
    let mut sheltered: Vec<(f64, usize)> = movers
        .iter()
        .map(|&(s, i)| {
            let dest = match legal[i] {
                Action::Move { dest, .. } | Action::Charge { dest, .. } => dest,
                _ => me.cell,
            };
            (s + 4.0 * (scene.cheap(dest) - w.get(Term::Progress) * scene.goal.progress(dest)), i)
        })
        .collect();
    sheltered.sort_by(|a, b| b.0.total_cmp(&a.0));
    for &(_, i) in sheltered.iter().take(REFINED / 2) {
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    for &(_, i) in &movers {
        if !picked.contains(&i) {
            scores[i] = NEVER / 2.0;
        }
    }
    for i in picked {
        scores[i] = match legal[i] {
            Action::Move { dest, prone } => {
                let spot = Spot::at(state, m, dest, prone);
                // A climb or leap may fall short: the progress it then loses.
                let short = if prone { 0.0 } else { w.get(Term::Shortfall) * shortfall(scene, m, dest).1 };
                scene.position(spot, after) + short + scene.keep(after) - crawl(prone)
            }
            Action::Charge { dest, .. } => {
                let cheap = scene.cheap(dest);
                let spot = Spot::at(state, m, dest, false);
                let (arrive, short) = shortfall(scene, m, dest);
                let short = w.get(Term::Shortfall) * short;
                let gain = scores[i] - cheap - scene.keep(after);
                arrive * gain + short + scene.position(spot, 0) + scene.keep(after)
            }
            _ => scores[i],
        };
    }
}

/// Chance that a standing move to `dest` gets there, and the expected progress it loses by
/// stopping short (a failed climb or leap).
fn shortfall(scene: &Scene, m: ModelId, dest: u16) -> (f64, f64) {
    let Some(l) = landing(scene.view.state, m, dest) else { return (1.0, 0.0) };
    let at = scene.cheap(dest);
    let lost: f64 = l.short.iter().map(|&(c, p)| p * (scene.cheap(c) - at)).sum();
    (l.arrive, lost - 0.05 * (1.0 - l.arrive))
}

/// Victory points and other gains of an Interact action.
pub(crate) fn interact_value(view: &View, m: ModelId, kind: InteractKind, target: ModelId) -> f64 {
    let state = view.state;
    let p = state.profile(m);
    match kind {
        InteractKind::Marker { marker } => view.plan().marker_value(view, m, marker),
        InteractKind::FirstAid => {
            let tm = &state.models()[target as usize];
            let eff = single(p.intelligence, view.nf);
            let max = state.profile(target).wounds.max(1) as f64;
            if tm.is_conscious() {
                let heal = eff.pass + 2.0 * eff.nailed;
                0.5 * view.value_down(target) * heal.min(max - tm.wounds as f64) / max
            } else {
                eff.any() * view.value_down(target)
            }
        }
        InteractKind::Repair { .. } => 0.25 * view.worth(target) * single(p.intelligence, view.nf).any(),
        InteractKind::Give { .. } | InteractKind::Take { .. } => -0.1,
        // An active ambush marker will spring on the crew; recognised, its enemy comes out
        // confused instead. A passive one is best left alone.
        InteractKind::Recognise { marker } => {
            if state.dynamic().uc.markers[marker as usize].active {
                let eff = single(p.intelligence, view.nf);
                0.3 * (eff.pass + eff.nailed)
            } else {
                -0.1
            }
        }
    }
}

/// Value of leaving the table by the enemy edge (Couriers).
pub(crate) fn leave_value(view: &View, m: ModelId) -> f64 {
    if view.carries_prize(m) {
        5.0
    } else if super::view::is_character(view.state, m) && view.last_turn {
        1.0
    } else {
        NEVER
    }
}

/// Expected value of a template placed at `at`: enemies hit less friends hit.
pub(crate) fn template_at(view: &View, m: ModelId, weapon: u8, at: u16) -> f64 {
    let state = view.state;
    let w = &state.profile(m).weapons[weapon as usize];
    let Some(kind) = template_of(w) else { return NEVER };
    if !damages(w) {
        return 0.02;
    }
    let me = &state.models()[m as usize];
    let eff = single(state.profile(m).marksmanship, view.nf);
    let land = eff.nailed + 0.6 * eff.pass;
    let mut v = 0.0;
    for (t, hard) in models_under(state, kind, me.cell, at, None) {
        let tp = state.profile(t);
        let save = engine::odds::armour_target(tp.toughness, tp.total_armour(), w.pierce(), w.sunder(), hard);
        let h = view.harm(Some(m), t, w.damage.0, save);
        v += if view.is_enemy(t) { h } else { -1.5 * h };
    }
    land * v
}

/// How urgently each eligible model should activate: its best attack from where it stands,
/// an objective task, or danger to get out of.
pub(super) fn activation_priority(view: &View, fields: &mut Fields, m: ModelId) -> f64 {
    let state = view.state;
    let scene = Scene::new(view, fields, m);
    let here = Spot::of(state, m);
    let me = &state.models()[m as usize];
    let mut best: f64 = 0.0;
    for e in view.enemies(false) {
        let to = Spot::of(state, e);
        for wi in 0..state.profile(m).weapons.len() as u8 {
            if let Some(s) = shot(state, m, wi, e, here, to, true) {
                best = best.max(scene.attack(&s, here));
            }
        }
    }
    best = best.max(scene.fire(here) * 0.8);
    let task = if scene.goal.weight > 0.05 { 0.3 } else { 0.0 };
    // A leader that can still give orders goes before the prize carrier it sees, and the
    // carrier waits for it: command orders then give the carrier AP.
    let commander = |l: ModelId| {
        let lm = &state.models()[l as usize];
        state.profile(l).role == Role::Leader && !lm.activated && !lm.commanded && lm.ap > 0
    };
    let carrier = view.friends().find(|&f| view.carries_prize(f) && !state.models()[f as usize].activated);
    let leader = match carrier {
        Some(c) if c != m && commander(m) && state.model_sight(m, c).is_some() => 1.0,
        Some(c) if c == m && view.friends().any(|l| commander(l) && state.model_sight(l, c).is_some()) => {
            -1.0
        }
        _ if state.profile(m).role == Role::Leader => 0.05,
        _ => 0.0,
    };
    let w = &view.w;
    w.get(Term::ActivateAttack) * best
        + w.get(Term::ActivateTask) * task
        + w.get(Term::ActivateDanger) * (0.5 * scene.risk(here))
        + w.get(Term::ActivateAp) * (0.02 * me.ap as f64)
        + w.get(Term::ActivateLeader) * leader
}

/// Scores of dodge-move destinations: safety first, then progress.
pub(super) fn score_dodge_moves(scene: &Scene, legal: &[Action], scores: &mut Vec<f64>) {
    let state = scene.view.state;
    let low = state.models()[scene.m as usize].stance != Stance::Standing;
    scores.clear();
    scores.extend(legal.iter().map(|&a| match a {
        Action::DodgeMove(cell) => scene.position(Spot::at(state, scene.m, cell, low), 0),
        _ => NEVER,
    }));
}

/// Whether a combat kind attacks (shot or close combat) rather than dodging or revealing.
pub(super) fn is_attack(kind: CombatKind) -> bool {
    matches!(kind, CombatKind::Shoot { .. } | CombatKind::CloseCombat { .. })
}
