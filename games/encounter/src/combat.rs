//! Attacks and damage ("Combat - Attacks", "Wounds & Healing"): the checks of melee and
//! ranged attacks with their difficulty (size, shooting into melee, Prone, Prepare, Momentum
//! or Pool), the damage check against Toughness, and what each outcome does.

use crate::checks::{
    basic_odds, complex_odds, opposed_obstacle, unopposed_obstacle, Difficulty, Outcome, Roll,
};
use crate::data::{Kind, Quality};
use crate::state::{Check, Encounter, Pending, Purpose};

/// Target number of a die in a damage check (ruling).
pub const DAMAGE_TARGET: u8 = 3;

/// Point Blank Range in squares: a ranged attack this close is opposed (ruling).
pub const POINT_BLANK: u8 = 2;

impl Encounter {
    /// The models other than `except` that model `target` is engaged with.
    pub(crate) fn engaged_with(&self, target: u8, except: u8) -> Vec<u8> {
        self.zone_enemies(target, self.models[target as usize].cell)
            .into_iter()
            .filter(|&e| e != except)
            .collect()
    }

    /// The check of an attack by `attacker` on `target`; `steps` extra difficulty steps
    /// (Prepare −1, Momentum or Pool −2).
    pub(crate) fn attack_check(&self, attacker: u8, target: u8, ranged: bool, steps: i8) -> Check {
        let a = &self.models[attacker as usize];
        let t = &self.models[target as usize];
        let mut steps = steps + t.profile.size.attack_difficulty();
        let mut melee_mask = 0u32;
        let roll;
        let obstacle = if ranged {
            // Shooting into Melee: each model the target is engaged with, +1 difficulty.
            for e in self.engaged_with(target, attacker) {
                steps += 1;
                melee_mask |= 1 << e;
            }
            roll = if t.conditions.prone { Roll::Peril } else { Roll::Normal };
            if t.profile.shield >= 2 || a.cell.distance(t.cell) <= POINT_BLANK {
                opposed_obstacle(a.profile.shooting, t.profile.dodge, steps)
            } else {
                unopposed_obstacle(a.profile.shooting, steps)
            }
        } else {
            roll = if t.conditions.prone { Roll::Favour } else { Roll::Normal };
            opposed_obstacle(a.profile.melee, t.profile.defense, steps)
        };
        Check {
            purpose: Purpose::Attack { attacker, target, ranged, melee_mask },
            odds: basic_odds(obstacle, roll),
            luck: self.luck_of(attacker),
            rerolled: false,
        }
    }

    /// The Character who may re-roll a check model `m` makes (itself, with Luck left).
    pub(crate) fn luck_of(&self, m: u8) -> Option<u8> {
        let model = &self.models[m as usize];
        (model.profile.kind == Kind::Character && model.luck > 0).then_some(m)
    }

    /// The damage check of a hit on `target` with `dice` damage dice: Opposed Damage against
    /// Toughness plus armour.
    pub(crate) fn damage_check(&self, target: u8, dice: u8) -> Check {
        let t = &self.models[target as usize];
        let obstacle = t.profile.toughness + t.profile.armour;
        Check {
            purpose: Purpose::Damage { target },
            odds: complex_odds(dice, DAMAGE_TARGET, obstacle),
            luck: None,
            rerolled: false,
        }
    }

    /// The damage dice of `attacker`'s hit: a melee weapon adds Strength, a ranged one not.
    pub(crate) fn damage_dice(&self, attacker: u8, ranged: bool) -> u8 {
        let p = self.models[attacker as usize].profile;
        match (ranged, p.ranged_weapon) {
            (true, Some(w)) => w.damage,
            _ => p.strength + p.melee_weapon.damage,
        }
    }

    /// The opposed check of a Disengage or Change Place by `m`: Challenging Athletics against
    /// the best WS (Melee) among the enemies engaging it.
    pub(crate) fn manoeuvre_odds(&self, m: u8, steps: i8) -> [f64; 5] {
        let model = &self.models[m as usize];
        let best = self
            .zone_enemies(m, model.cell)
            .iter()
            .map(|&e| self.models[e as usize].profile.melee)
            .max()
            .unwrap_or(0);
        let steps = steps + Difficulty::Challenging.steps();
        basic_odds(opposed_obstacle(model.profile.athletics, best, steps), Roll::Normal)
    }

    /// Apply the outcome of a resolved check.
    pub(crate) fn resolve(&mut self, check: Check, outcome: Outcome) {
        match check.purpose {
            Purpose::Attack { attacker, target, ranged, melee_mask } => {
                self.note(|s| format!("  {} attacks {}: {outcome:?}", s.name(attacker), s.name(target)));
                if outcome.succeeded() {
                    if outcome == Outcome::Boon {
                        self.critical(attacker, target, ranged);
                    }
                    let dice = self.damage_dice(attacker, ranged);
                    self.pending.push(Pending::Check(self.damage_check(target, dice)));
                } else if ranged && melee_mask != 0 {
                    // Shooting into Melee: on a miss, the model hit is drawn at random.
                    let mut candidates = vec![target];
                    candidates.extend((0..32u8).filter(|b| melee_mask & (1 << b) != 0));
                    self.pending.push(Pending::Stray { shooter: attacker, candidates });
                } else if outcome == Outcome::Bane && !ranged {
                    // Ruling: a Bane in melee leaves the attacker Prone.
                    self.models[attacker as usize].conditions.prone = true;
                    self.note(|s| format!("  {} stumbles and falls prone", s.name(attacker)));
                }
            }
            Purpose::Damage { target } => {
                let wounds = match outcome {
                    Outcome::Boon => 2,
                    o if o.succeeded() => 1,
                    _ => 0,
                };
                if wounds == 0 {
                    self.note(|s| format!("  damage against {}: {outcome:?}, no wound", s.name(target)));
                }
                self.wound(target, wounds);
            }
            Purpose::Disengage { model, to } => {
                self.note(|s| format!("  {} disengages: {outcome:?}", s.name(model)));
                if outcome.succeeded() {
                    self.models[model as usize].cell = to;
                } else if outcome == Outcome::Bane {
                    self.models[model as usize].conditions.staggered = true;
                }
            }
            Purpose::ChangePlace { model, ally } => {
                self.note(|s| {
                    format!("  {} changes place with {}: {outcome:?}", s.name(model), s.name(ally))
                });
                if outcome.succeeded() {
                    self.swap(model, ally);
                } else if outcome == Outcome::Bane {
                    self.models[model as usize].conditions.staggered = true;
                }
            }
        }
    }

    /// Swap two models' squares.
    pub(crate) fn swap(&mut self, a: u8, b: u8) {
        let (ca, cb) = (self.models[a as usize].cell, self.models[b as usize].cell);
        self.models[a as usize].cell = cb;
        self.models[b as usize].cell = ca;
    }

    /// A Critical Hit (a Boon on the attack) triggers the weapon's qualities.
    fn critical(&mut self, attacker: u8, target: u8, ranged: bool) {
        let p = self.models[attacker as usize].profile;
        let weapon = if ranged { p.ranged_weapon.unwrap_or(p.melee_weapon) } else { p.melee_weapon };
        let c = &mut self.models[target as usize].conditions;
        if weapon.has(Quality::Impact) {
            c.prone = true;
        }
        if weapon.has(Quality::Rend) {
            c.bleeding = c.bleeding.max(2);
        }
        if weapon.has(Quality::Stun) {
            c.stunned = true;
        }
        if !weapon.qualities.is_empty() {
            self.note(|s| {
                format!(
                    "  critical hit with the {}: {} is {:?}",
                    weapon.name,
                    s.name(target),
                    s.models[target as usize].conditions.names()
                )
            });
        }
    }

    /// Deal `wounds` wounds to `m`: at 0 Wounds it is out of play and leaves the board.
    pub(crate) fn wound(&mut self, m: u8, wounds: u8) {
        let model = &mut self.models[m as usize];
        model.wounds = model.wounds.saturating_sub(wounds);
        if wounds > 0 && model.wounds == 0 && !model.out {
            model.out = true;
            self.defeated.push(m);
            self.note(|s| format!("  {} is out of play", s.name(m)));
        } else if wounds > 0 {
            self.note(|s| {
                format!("  {} takes {wounds} wound(s), {} left", s.name(m), s.models[m as usize].wounds)
            });
        }
    }

    /// Whether `attacker`'s Danger Zone holds `target` (a legal Strike).
    pub(crate) fn can_strike(&self, attacker: u8, target: u8) -> bool {
        let (a, t) = (&self.models[attacker as usize], &self.models[target as usize]);
        a.in_play() && t.in_play() && a.side() != t.side() && self.threatens(attacker, t.cell)
    }

    /// Whether `shooter` may shoot `target`: a ranged weapon, not Engaged unless a Pistol,
    /// in range and in Line of Sight.
    pub(crate) fn can_shoot(&self, shooter: u8, target: u8) -> bool {
        let (a, t) = (&self.models[shooter as usize], &self.models[target as usize]);
        let Some(w) = a.profile.ranged_weapon else { return false };
        if !a.in_play() || !t.in_play() || a.side() == t.side() || a.cell.distance(t.cell) > w.range {
            return false;
        }
        if self.engaged(shooter) && !w.has(Quality::Pistol) {
            return false;
        }
        self.board.line_of_sight(a.cell, t.cell, |c| self.model_at(c).is_some())
    }
}
