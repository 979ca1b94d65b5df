//! The odds of an option at a decision, from the very checks the engine rolls when it is
//! taken (no second copy of a rule): an attack's chance to hit and to wound, a manoeuvre's or
//! a break-free's chance to succeed, a door's chance to give this roll, a re-roll's chance, and
//! the Interrupts a move out of a Danger Zone offers.

use crate::checks::{extended_step, Extended, Outcome};
use crate::force::FORCE_OBSTACLE;
use crate::magic::cast_odds;
use crate::state::{Action, Casting, Encounter, Pending};

/// What an option risks and promises, in numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionOdds {
    /// A check: its chance to succeed (a Complication, a Success or a Boon).
    Check(f64),
    /// Attacks: each one's chance to hit, and to hit and cause a wound; how many.
    Attack {
        /// One attack's chance to hit.
        hit: f64,
        /// One attack's chance to hit and wound (the damage check succeeds).
        wound: f64,
        /// Attacks made.
        attacks: u8,
    },
    /// A move out of enemy Danger Zones: the enemies there with a Reaction may Interrupt it.
    Interrupts(u8),
    /// Certain: paid with Momentum instead of a check.
    Sure,
    /// A casting, rolling on until its check ends: the chance the spell is cast and the
    /// chance of a Miscast.
    Cast(crate::magic::CastOdds),
}

/// The chance that a check with outcome odds `odds` (indexed like [`Outcome::ALL`])
/// succeeds.
fn success(odds: &[f64; 5]) -> f64 {
    Outcome::ALL.iter().filter(|o| o.succeeded()).map(|&o| odds[o as usize]).sum()
}

impl Encounter {
    /// The odds of `action` at the current decision, or `None` where nothing is rolled or
    /// risked.
    pub fn option_odds(&self, action: Action) -> Option<OptionOdds> {
        match (self.pending.last(), action) {
            (Some(Pending::Interrupt { by }), Action::Interrupt) => {
                let (mover, _) = self.deferred?;
                Some(self.attack_odds(*by, mover, false, 0, 1))
            }
            (Some(Pending::Reroll(check, _)), Action::Reroll | Action::Push { .. } | Action::DarkDeal) => {
                Some(OptionOdds::Check(success(&check.odds)))
            }
            (Some(Pending::Channel(c)), Action::Channel) => {
                let cn = crate::data::SPELLS[c.spell as usize].casting_number;
                Some(OptionOdds::Cast(cast_odds(c, self.models[c.caster as usize].profile.magic, cn)))
            }
            (Some(_), _) => None,
            (None, _) => self.activation_odds(action),
        }
    }

    /// The odds of an action of the activation under way.
    fn activation_odds(&self, action: Action) -> Option<OptionOdds> {
        let act = self.act?;
        let m = act.model;
        let prepared = -(act.prepared as i8) - 2 * act.eased as i8;
        match action {
            Action::Strike { target, boost, extra } => {
                let attacks = self.models[m as usize].profile.attacks + extra as u8;
                Some(self.attack_odds(m, target, false, prepared - 2 * boost as i8, attacks))
            }
            Action::Shoot { target, boost } => {
                Some(self.attack_odds(m, target, true, prepared - 2 * boost as i8, 1))
            }
            Action::Disengage { momentum: true, .. } | Action::ChangePlace { momentum: true, .. } => {
                Some(OptionOdds::Sure)
            }
            Action::Disengage { .. } | Action::ChangePlace { .. } => {
                Some(OptionOdds::Check(success(&self.manoeuvre_odds(m, prepared))))
            }
            Action::Pray => Some(OptionOdds::Check(success(&self.prayer_check(m, prepared).odds))),
            Action::Cast { spell, at } => {
                let casting =
                    Casting { caster: m, spell, at, dice: self.magic_pool(m), marks: 0, ones: 0, rolls: 0 };
                let sp = crate::data::SPELLS.get(spell as usize)?;
                Some(OptionOdds::Cast(cast_odds(
                    &casting,
                    self.models[m as usize].profile.magic,
                    sp.casting_number,
                )))
            }
            Action::BreakFree => Some(OptionOdds::Check(success(&self.break_free_check(m).odds))),
            Action::Recuperate { stress } => {
                Some(OptionOdds::Check(success(&self.recuperate_check(m, stress, prepared).odds)))
            }
            Action::ForceDoor(door) => {
                let so_far = self.stuck.iter().find(|d| d.cell == door)?.marks;
                let dice = self.force_dice(m) as i32;
                let opens = self
                    .force_odds(m)
                    .into_iter()
                    .filter(|&(a, _)| {
                        let Action::Face(k) = a else { return false };
                        matches!(
                            extended_step(so_far, k as i32 - dice, FORCE_OBSTACLE, false),
                            Extended::Done(o) if o.succeeded()
                        )
                    })
                    .map(|o| o.1)
                    .sum();
                Some(OptionOdds::Check(opens))
            }
            Action::Advance(_) | Action::Drag { .. } => {
                let here = self.models[m as usize].cell;
                let n =
                    self.zone_enemies(m, here).into_iter().filter(|&e| self.has_reaction(e)).count() as u8;
                (n > 0).then_some(OptionOdds::Interrupts(n))
            }
            _ => None,
        }
    }

    /// The odds of `attacks` attacks of `attacker` on `target` at `steps` extra difficulty.
    fn attack_odds(&self, attacker: u8, target: u8, ranged: bool, steps: i8, attacks: u8) -> OptionOdds {
        let hit = success(&self.attack_check(attacker, target, ranged, steps).odds);
        let damage = self.damage_check(target, self.damage_dice(attacker, ranged));
        OptionOdds::Attack { hit, wound: hit * success(&damage.odds), attacks }
    }
}

impl std::fmt::Display for OptionOdds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pct = |p: f64| format!("{:.0}%", 100.0 * p);
        match *self {
            OptionOdds::Check(p) => write!(f, "succeeds {}", pct(p)),
            OptionOdds::Attack { hit, wound, attacks } => {
                let each = if attacks > 1 { format!("{attacks} attacks, each: ") } else { String::new() };
                write!(f, "{each}hits {}, wounds {}", pct(hit), pct(wound))
            }
            OptionOdds::Interrupts(1) => write!(f, "leaves a Danger Zone: 1 enemy may Interrupt"),
            OptionOdds::Interrupts(n) => write!(f, "leaves a Danger Zone: {n} enemies may Interrupt"),
            OptionOdds::Sure => write!(f, "certain"),
            OptionOdds::Cast(c) => write!(
                f,
                "cast {} rolling on to the end ({} rolls at most), Miscast {}",
                pct(c.cast),
                crate::data::CAST_ROLLS,
                pct(c.miscast)
            ),
        }
    }
}
