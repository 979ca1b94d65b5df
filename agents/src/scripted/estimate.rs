//! Exact odds behind the scripted player's estimates: how often an action takes effect
//! unopposed or in an opposed test, how many wounds a hit causes, and the attacks the engine
//! would roll (a shot's modified Marksmanship, range band and cover; a close combat's
//! modified Close Combat).

use engine::board::Volume;
use engine::cards::LeaderRule;
use engine::dice::{clamp_attribute, opposed, OpposedResult, TestLevel};
use engine::odds::{level_distribution, test_outcomes, wound_distribution};
use engine::profile::WeaponProperty;
use engine::state::{ModelId, Stance};
use engine::GameState;
use std::sync::OnceLock;

/// Probabilities that an action takes effect at a Pass and at "Nailed It" or better.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Effect {
    /// Takes effect at a Pass.
    pub pass: f64,
    /// Takes effect at "Nailed It" or a Feat.
    pub nailed: f64,
}

impl Effect {
    /// Takes effect at any level.
    pub fn any(self) -> f64 {
        self.pass + self.nailed
    }
}

/// Largest damage the wound tables cover; larger damage is computed on the fly.
const MAX_DAMAGE: usize = 12;

struct Tables {
    /// `[narrative][attr]`: an unopposed test.
    single: [[Effect; 10]; 2],
    /// `[narrative][a][b]`: (a's effect, b's effect) in an opposed test of a against b.
    duel: [[[(Effect, Effect); 10]; 10]; 2],
    /// `[damage][save target]`: distribution of wounds.
    wounds: Vec<Vec<Vec<f64>>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut single = [[Effect::default(); 10]; 2];
        let mut duel = [[[(Effect::default(), Effect::default()); 10]; 10]; 2];
        for (n, nf) in [false, true].into_iter().enumerate() {
            for a in 1..=9usize {
                let d = level_distribution(a as i32, nf);
                single[n][a] = Effect { pass: d[2], nailed: d[3] + d[4] };
                let oa = test_outcomes(a as i32, nf);
                for (b, slot) in duel[n][a].iter_mut().enumerate().skip(1) {
                    let ob = test_outcomes(b as i32, nf);
                    let (mut ea, mut eb) = (Effect::default(), Effect::default());
                    for &(x, px) in &oa {
                        for &(y, py) in &ob {
                            let p = px * py;
                            let (wa, wb) = match opposed(x, y) {
                                OpposedResult::AWins => (true, false),
                                OpposedResult::BWins => (false, true),
                                OpposedResult::TrueTie => (true, true),
                                OpposedResult::BothFail => (false, false),
                            };
                            add(&mut ea, wa, x.level, p);
                            add(&mut eb, wb, y.level, p);
                        }
                    }
                    *slot = (ea, eb);
                }
            }
        }
        let wounds =
            (0..=MAX_DAMAGE).map(|d| (0..=10u8).map(|s| wound_distribution(d as u8, s)).collect()).collect();
        Tables { single, duel, wounds }
    })
}

fn add(e: &mut Effect, wins: bool, level: TestLevel, p: f64) {
    if wins {
        if level.is_nailed() {
            e.nailed += p;
        } else if level.is_success() {
            e.pass += p;
        }
    }
}

/// An unopposed test against `attr`.
pub(crate) fn single(attr: u8, nf: bool) -> Effect {
    tables().single[nf as usize][clamp_attribute(attr as i32) as usize]
}

/// An opposed test of `a` against `b`: each side's chance to take effect.
pub(crate) fn duel(a: u8, b: u8, nf: bool) -> (Effect, Effect) {
    tables().duel[nf as usize][clamp_attribute(a as i32) as usize][clamp_attribute(b as i32) as usize]
}

/// Calls `f(wounds, probability)` for the wounds `damage` dice cause against `save`.
pub(crate) fn for_wounds(damage: u8, save: u8, mut f: impl FnMut(u8, f64)) {
    let t = tables();
    let save = save.min(10) as usize;
    if (damage as usize) <= MAX_DAMAGE {
        for (w, &p) in t.wounds[damage as usize][save].iter().enumerate() {
            f(w as u8, p);
        }
    } else {
        for (w, p) in wound_distribution(damage, save as u8).into_iter().enumerate() {
            f(w as u8, p);
        }
    }
}

/// An attack as the engine would roll it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Strike {
    /// The attacking model.
    pub attacker: ModelId,
    /// Its weapon.
    pub weapon: u8,
    /// The model attacked.
    pub target: ModelId,
    /// Modified attribute when the roll is opposed.
    pub attr: u8,
    /// Modified attribute when it is not (Sneaky close combat).
    pub attr_alone: u8,
    /// A shot (rather than close combat).
    pub ranged: bool,
    /// A shot within the weapon's pass range.
    pub pass_range: bool,
    /// The target is in hard cover (+1 armour).
    pub hard: bool,
}

impl Strike {
    /// Damage dealt at a Pass and at "Nailed It" (p.30): beyond pass range a Pass misses and
    /// "Nailed It" deals standard damage.
    pub fn damage(&self, state: &GameState) -> (u8, u8) {
        let w = &state.profile(self.attacker).weapons[self.weapon as usize];
        if !self.ranged || self.pass_range {
            (w.damage.0, w.damage.1)
        } else {
            (0, w.damage.0)
        }
    }
}

/// Where a model is (or would be) and what it presents to sight: the engine's pose, which
/// the engine does not export by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spot {
    /// Cell its base is over.
    pub cell: u16,
    /// Height of its base.
    pub z: u8,
    /// What it sees from and is seen as.
    pub volume: Volume,
    /// Swimming (soft cover).
    pub swimming: bool,
}

impl Spot {
    /// Model `m` where it stands.
    pub fn of(state: &GameState, m: ModelId) -> Spot {
        let p = state.pose(m);
        Spot { cell: p.cell, z: p.z, volume: p.volume, swimming: p.swimming }
    }

    /// Model `m` standing (or, when `low`, prone) on the surface of `cell`.
    pub fn at(state: &GameState, m: ModelId, cell: u16, low: bool) -> Spot {
        let c = state.board().cell(cell);
        let swimming = c.terrain == engine::board::Terrain::Water;
        Spot { cell, z: c.height, volume: volume_at(state, m, low || swimming), swimming }
    }
}

/// A shot from `shooter` at `from` on `target` at `to`, with the ranged modifiers of p.30
/// (`None` without sight or range). Sight includes models in the way when `exact`;
/// otherwise terrain only (cheap, for estimates of hypothetical positions).
pub(crate) fn shot(
    state: &GameState,
    shooter: ModelId,
    weapon: u8,
    target: ModelId,
    from: Spot,
    to: Spot,
    exact: bool,
) -> Option<Strike> {
    let p = state.profile(shooter);
    let w = p.weapons.get(weapon as usize)?;
    let (pass, nailed) = w.range?;
    if engine::state::template::template_of(w).is_some()
        || !state.models()[shooter as usize].can_use(weapon, w.scarce())
    {
        return None;
    }
    let board = state.board();
    let dist = board.edge_distance(from.cell, from.z, to.cell, to.z);
    if dist > nailed as f32 {
        return None;
    }
    let mut sp = state.pose(shooter);
    (sp.cell, sp.z, sp.volume, sp.swimming) = (from.cell, from.z, from.volume, from.swimming);
    let mut tp = state.pose(target);
    (tp.cell, tp.z, tp.volume, tp.swimming) = (to.cell, to.z, to.volume, to.swimming);
    let sight = if exact {
        state.sight_between(shooter, sp, target, tp)?.sight
    } else {
        if state.models()[target as usize].tokens.stealth {
            return None;
        }
        let mut s = board.sight(from.cell, from.z, from.volume, to.cell, to.z, to.volume);
        s.soft_cover |= to.swimming;
        s
    };
    if !sight.visible {
        return None;
    }
    // The modifiers are the engine's own (blindness, cover, swimming or climbing, Spray,
    // smoke, Camouflage, the leader's rule), so the bot's odds cannot drift from the rules.
    let in_pass = dist <= pass as f32;
    let attr =
        p.marksmanship as i32 + state.shot_modifier_total(shooter, sp, weapon, target, tp, sight, in_pass);
    let attr = clamp_attribute(attr);
    Some(Strike {
        attacker: shooter,
        weapon,
        target,
        attr,
        attr_alone: attr,
        ranged: true,
        pass_range: in_pass,
        hard: sight.hard_cover,
    })
}

/// A close combat of `attacker` standing on `cell` (height `z`) against `target` with
/// `weapon` (p.33): −1 per further standing enemy in base contact, +1 on a charge, −1 unless
/// standing, and Sneaky(X) when unopposed.
pub(crate) fn melee(
    state: &GameState,
    attacker: ModelId,
    weapon: u8,
    target: ModelId,
    at: (u16, u8),
    charge: bool,
) -> Strike {
    let p = state.profile(attacker);
    let me = &state.models()[attacker as usize];
    let board = state.board();
    let (x, y) = board.xy(at.0);
    let extra = state
        .models()
        .iter()
        .enumerate()
        .filter(|&(o, om)| {
            let (ox, oy) = board.xy(om.cell);
            o != target as usize
                && om.side != me.side
                && om.is_conscious()
                && om.stance == Stance::Standing
                && (x as i32 - ox as i32).abs().max((y as i32 - oy as i32).abs()) == 1
                && (at.1 as i32 - om.z as i32).abs() <= 1
        })
        .count() as i32;
    let standing = charge || me.stance == Stance::Standing;
    let mut attr = p.cc as i32 - blind(state, attacker) - extra + charge as i32 - (!standing) as i32
        + state.leader_bonus(attacker, LeaderRule::CloseCombat);
    let sneaky: i32 = p.weapons[weapon as usize]
        .properties
        .iter()
        .map(|q| if let WeaponProperty::Sneaky(x) = q { *x as i32 } else { 0 })
        .sum();
    attr = attr.max(-5);
    Strike {
        attacker,
        weapon,
        target,
        attr: clamp_attribute(attr),
        attr_alone: clamp_attribute(attr + sneaky),
        ranged: false,
        pass_range: true,
        hard: false,
    }
}

/// The −2 of a Blind token (p.53).
fn blind(state: &GameState, m: ModelId) -> i32 {
    if state.models()[m as usize].tokens.blind {
        2
    } else {
        0
    }
}

/// The volume a model at `cell` would present to sight standing (or, when `low`, its base).
pub(crate) fn volume_at(state: &GameState, m: ModelId, low: bool) -> Volume {
    if low {
        Volume::Base
    } else {
        Volume::Standing(state.profile(m).los_template)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_sum_to_at_most_one() {
        for a in 1..=9u8 {
            let s = single(a, false);
            assert!(s.any() > 0.0 && s.any() <= 1.0);
            for b in 1..=9u8 {
                let (x, y) = duel(a, b, false);
                assert!(x.any() <= s.any() + 1e-12);
                assert!(x.any() + y.any() <= 1.0 + 1e-9 + x.any().min(y.any()));
            }
        }
        let (x, y) = duel(9, 2, false);
        assert!(x.any() > y.any());
    }
}
