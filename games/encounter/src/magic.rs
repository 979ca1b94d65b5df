//! Magic ("Magic Systems"; `docs/rulings-encounter.md`): the Winds of Magic rolled each round,
//! arcane casting as an Extended check of the Magic Pool (Mag dice, the Winds adding or taking
//! one) against the spell's Casting Number, rolled as two chance nodes (how many dice show a
//! 1, then the Marks of the rest) so that the 1s can be counted across all rolls for
//! Miscasts; the caster's choice to roll again; Miscasts by degree; the spells' effects (a
//! bolt, a blast template); and prayers (divine magic as Manoeuvres).

use crate::board::Cell;
use crate::checks::{
    basic_odds, extended_step, ones_odds, rest_marks_odds, unopposed_obstacle, Difficulty, Extended, Outcome,
    Roll,
};
use crate::data::{SpellEffect, CAST_ROLLS, CAST_TARGET, MISCAST_DICE, SPELLS};
use crate::state::{Action, Casting, Check, Encounter, Pending, Phase, Purpose};

/// How badly a casting went wrong ("Miscast Severity").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Miscast {
    /// "Miscast Number = Mag": the caster is Staggered (illustrative).
    Minor,
    /// "Miscast Number > Mag": the magic strikes the caster, an automatic hit of
    /// [`MISCAST_DICE`] damage dice (illustrative).
    Major,
    /// "Miscast Number ≥ Mag×2": the spell fails, the caster is Stunned and takes the Major
    /// Miscast's hit (illustrative).
    Catastrophic,
}

/// The Miscast of a casting by a caster of Mag `mag` whose rolls showed `ones` 1s in all, if
/// any. The most severe degree that applies is taken (with Mag 1, two 1s are Catastrophic).
pub fn miscast(mag: u8, ones: u8) -> Option<Miscast> {
    if mag == 0 {
        None
    } else if ones >= 2 * mag {
        Some(Miscast::Catastrophic)
    } else if ones > mag {
        Some(Miscast::Major)
    } else if ones == mag {
        Some(Miscast::Minor)
    } else {
        None
    }
}

/// A casting's prospects if its caster rolls on until the check ends: the chance the spell is
/// cast (a Complication or better, and no Catastrophic Miscast) and the chance of a Miscast of
/// any degree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOdds {
    /// The spell takes effect.
    pub cast: f64,
    /// A Miscast of any degree.
    pub miscast: f64,
}

/// The exact [`CastOdds`] of `casting` (by a caster of Mag `mag`, of a spell of Casting Number
/// `cn`) from where it stands, rolling again whenever the check goes on.
pub fn cast_odds(casting: &Casting, mag: u8, cn: u8) -> CastOdds {
    let ones_p = ones_odds(casting.dice);
    let rest: Vec<Vec<f64>> =
        (0..=casting.dice).map(|k| rest_marks_odds(casting.dice - k, CAST_TARGET)).collect();
    let mut odds = CastOdds { cast: 0.0, miscast: 0.0 };
    let mut going = vec![((casting.marks, casting.ones), 1.0)];
    for roll in casting.rolls + 1..=CAST_ROLLS {
        let mut next: Vec<((i32, u8), f64)> = Vec::new();
        for &((total, ones), p) in &going {
            for (k, &pk) in ones_p.iter().enumerate() {
                for (m, &pm) in rest[k].iter().enumerate().filter(|r| *r.1 > 0.0) {
                    let q = p * pk * pm;
                    let ones = ones + k as u8;
                    match extended_step(total, m as i32 - k as i32, cn, roll == CAST_ROLLS) {
                        Extended::Going(now) => match next.iter_mut().find(|n| n.0 == (now, ones)) {
                            Some(n) => n.1 += q,
                            None => next.push(((now, ones), q)),
                        },
                        Extended::Done(o) => {
                            let mis = miscast(mag, ones);
                            if o.succeeded() && mis != Some(Miscast::Catastrophic) {
                                odds.cast += q;
                            }
                            if mis.is_some() {
                                odds.miscast += q;
                            }
                        }
                    }
                }
            }
        }
        going = next;
    }
    odds
}

impl Encounter {
    /// Whether an arcane caster (Mag above 0) is in play: the Winds of Magic are rolled.
    pub(crate) fn caster_in_play(&self) -> bool {
        self.models.iter().any(|m| m.in_play() && m.profile.magic > 0)
    }

    /// "Determine Winds of Magic" (illustrative): a D6, 1 the winds ebb (each Magic Pool one
    /// die fewer this round), 6 they surge (one more), else steady; then the declarations.
    pub(crate) fn winds_roll(&mut self, face: u8) {
        self.winds = match face {
            1 => -1,
            6 => 1,
            _ => 0,
        };
        self.note(|s| {
            let how = match s.winds {
                -1 => "ebb: every Magic Pool one die fewer",
                1 => "surge: every Magic Pool one die more",
                _ => "are steady",
            };
            format!("Winds of Magic roll {face}: the winds {how} this round")
        });
        self.begin_declarations();
    }

    /// The round's Winds of Magic, rolled before the declarations (last round's are cleared)
    /// while a caster is in play.
    pub(crate) fn determine_winds(&mut self) {
        if self.caster_in_play() {
            for m in 0..self.models.len() as u8 {
                crate::declare::model_reset(self, m);
            }
            self.phase = Phase::Winds;
        } else {
            self.winds = 0;
            self.begin_declarations();
        }
    }

    /// The dice of model `m`'s Magic Pool this round: its Mag and the Winds, at least 1.
    pub fn magic_pool(&self, m: u8) -> u8 {
        (self.models[m as usize].profile.magic as i8 + self.winds).max(1) as u8
    }

    /// The squares model `m` may cast `spell` at: those of the enemy models in play, not
    /// Hidden, within the spell's range and in Line of Sight (models block it, as for a shot);
    /// none while `m` is Blinded (ruling: a spell aimed at a model is a Ranged action that
    /// needs sight; being Engaged does not stop it).
    pub(crate) fn spell_targets(&self, m: u8, spell: u8) -> Vec<Cell> {
        let caster = &self.models[m as usize];
        let Some(sp) = SPELLS.get(spell as usize) else { return Vec::new() };
        if caster.profile.magic == 0 || caster.conditions.blinded {
            return Vec::new();
        }
        self.models
            .iter()
            .filter(|t| {
                t.in_play()
                    && t.side() != caster.side()
                    && !t.conditions.hidden
                    && caster.cell.distance(t.cell) <= sp.range
                    && self.board.line_of_sight(caster.cell, t.cell, |c| self.model_at(c).is_some())
            })
            .map(|t| t.cell)
            .collect()
    }

    /// The models in play a spell cast at `at` affects: the model there (a Bolt), or every
    /// model in the 3×3 template centred there, the caster's own side included (a Blast).
    pub fn spell_victims(&self, spell: u8, at: Cell) -> Vec<u8> {
        let Some(sp) = SPELLS.get(spell as usize) else { return Vec::new() };
        (0..self.models.len() as u8)
            .filter(|&t| {
                let x = &self.models[t as usize];
                x.in_play()
                    && match sp.effect {
                        SpellEffect::Bolt(_) => x.cell == at,
                        SpellEffect::Blast(_) => x.cell.distance(at) <= 1,
                    }
            })
            .collect()
    }

    /// Model `m` begins casting `spell` at `at`: the first roll of the Magic Pool.
    pub(crate) fn start_cast(&mut self, m: u8, spell: u8, at: Cell) {
        let dice = self.magic_pool(m);
        self.pending.push(Pending::CastOnes(Casting {
            caster: m,
            spell,
            at,
            dice,
            marks: 0,
            ones: 0,
            rolls: 0,
        }));
    }

    /// The chance outcomes of a casting roll's 1s: `Face(k)` for `k` dice showing a 1.
    pub(crate) fn cast_ones_odds(casting: &Casting) -> Vec<(Action, f64)> {
        ones_odds(casting.dice).into_iter().enumerate().map(|(k, p)| (Action::Face(k as u8), p)).collect()
    }

    /// The chance outcomes of the Marks of a casting roll's other dice (`ones` showed a 1):
    /// `Face(m)` for `m` Marks.
    pub(crate) fn cast_marks_odds(casting: &Casting, ones: u8) -> Vec<(Action, f64)> {
        rest_marks_odds(casting.dice.saturating_sub(ones), CAST_TARGET)
            .into_iter()
            .enumerate()
            .filter(|o| o.1 > 0.0)
            .map(|(m, p)| (Action::Face(m as u8), p))
            .collect()
    }

    /// The roll's Marks are known: `rest` Marks from the dice that are not 1s, less one per 1.
    /// The Extended check goes on (the caster's side may roll again while rolls are left) or
    /// ends.
    pub(crate) fn cast_roll(&mut self, casting: Casting, ones: u8, rest: u8) {
        let marks = rest as i32 - ones as i32;
        let cn = SPELLS[casting.spell as usize].casting_number;
        let c = Casting { ones: casting.ones + ones, rolls: casting.rolls + 1, ..casting };
        let step = extended_step(casting.marks, marks, cn, c.rolls >= CAST_ROLLS);
        self.note(|s| {
            format!(
                "  {} rolls the Magic Pool ({} {}, Target {CAST_TARGET}, Casting Number {cn}): {ones} one(s), {marks:+} Marks, {step:?}",
                s.name(c.caster),
                c.dice,
                if c.dice == 1 { "die" } else { "dice" }
            )
        });
        match step {
            Extended::Going(total) => self.pending.push(Pending::Channel(Casting { marks: total, ..c })),
            Extended::Done(o) => self.finish_cast(Casting { marks: c.marks + marks, ..c }, o),
        }
    }

    /// The casting ends with `outcome`: its Miscast (the 1s of all its rolls against the
    /// caster's Mag), then, if cast and not Catastrophic, the spell's effect.
    pub(crate) fn finish_cast(&mut self, casting: Casting, outcome: Outcome) {
        let m = casting.caster;
        let spell = SPELLS[casting.spell as usize];
        let mis = miscast(self.models[m as usize].profile.magic, casting.ones);
        let cast = outcome.succeeded() && mis != Some(Miscast::Catastrophic);
        self.note(|s| {
            let what = if cast { "is cast" } else { "fails" };
            let mis = mis.map_or(String::new(), |x| format!(", a {x:?} Miscast ({} one(s))", casting.ones));
            format!("  {}'s {} {what} ({outcome:?}){mis}", s.name(m), spell.name)
        });
        if cast {
            let victims = self.spell_victims(casting.spell, casting.at);
            let dice = match spell.effect {
                SpellEffect::Bolt(d) | SpellEffect::Blast(d) => d + (outcome == Outcome::Boon) as u8,
            };
            for &t in victims.iter().rev() {
                self.pending.push(Pending::Check(self.damage_check(t, dice)));
            }
            // The Fireball sets its template Ablaze (illustrative).
            if matches!(spell.effect, SpellEffect::Blast(_)) {
                for &t in &victims {
                    let c = &mut self.models[t as usize].conditions;
                    c.ablaze = c.ablaze.max(crate::data::FIREBALL_ABLAZE);
                    // The blast's thunder (illustrative): Deafened until Bookkeeping.
                    c.deafened = true;
                }
            }
        }
        let own_activation = self.act.is_some_and(|a| a.model == m && !a.ended);
        let c = &mut self.models[m as usize].conditions;
        match mis {
            None => {}
            Some(Miscast::Minor) => c.stagger(),
            Some(x) => {
                if x == Miscast::Catastrophic {
                    c.stunned = true;
                    c.stun_held |= own_activation;
                }
                self.pending.push(Pending::Check(self.damage_check(m, MISCAST_DICE)));
            }
        }
    }

    /// The check of model `m`'s prayer (a Manoeuvre): a Routine Cool check, unopposed,
    /// `steps` easier for Prepare and Ease, shifted by Inspired and Demoralized.
    pub(crate) fn prayer_check(&self, m: u8, steps: i8) -> Check {
        let model = &self.models[m as usize];
        let steps = steps + Difficulty::Routine.steps() + model.conditions.steps();
        Check {
            purpose: Purpose::Prayer { model: m },
            odds: basic_odds(
                unopposed_obstacle(model.profile.cool, steps),
                Roll::net(model.favour(), model.mental_peril()),
            ),
            luck: self.luck_of(m),
            rerolled: false,
        }
    }

    /// The outcome of model `m`'s prayer: on a success it and its side's models in play within
    /// the prayer's radius become Inspired X (X + 1 on a Boon; a larger X stays); a Bane leaves
    /// it Staggered.
    pub(crate) fn answer_prayer(&mut self, m: u8, outcome: Outcome) {
        let Some(prayer) = self.models[m as usize].profile.prayer else { return };
        self.note(|s| format!("  {} prays for {}: {outcome:?}", s.name(m), prayer.name));
        if outcome.succeeded() {
            let x = prayer.inspired + (outcome == Outcome::Boon) as u8;
            let (side, cell) = (self.models[m as usize].side(), self.models[m as usize].cell);
            // The blessing is heard: a Deafened model other than the one praying is immune to it
            // (ruling: "Deafened (Ongoing): Immune to Social actions").
            for (i, o) in self.models.iter_mut().enumerate().filter(|(_, o)| o.in_play() && o.side() == side)
            {
                if o.cell.distance(cell) <= prayer.radius && (i == m as usize || !o.conditions.deafened) {
                    o.conditions.inspired = o.conditions.inspired.max(x);
                }
            }
            self.note(|_| format!("  the blessing falls: Inspired {x} within {} squares", prayer.radius));
            // Illustrative: on a Boon a prayer of fury takes the model, Frenzied 1.
            if prayer.frenzy && outcome == Outcome::Boon {
                self.models[m as usize].conditions.frenzied = 1;
                self.note(|s| format!("  {} is Frenzied", s.name(m)));
            }
        } else if outcome == Outcome::Bane {
            self.models[m as usize].conditions.stagger();
        }
    }
}
