//! Attacks and damage ("Combat - Attacks", "Wounds & Healing"): the checks of melee and
//! ranged attacks with their difficulty (size, shooting into melee, Prone, Prepare, Momentum
//! or Pool, Inspired and Demoralized, Blinded and Drained), the damage check against
//! Toughness and armour, Soak, Injury cards, out of play and death, and what each outcome
//! does.

use crate::checks::{
    basic_odds, complex_odds, opposed_obstacle, unopposed_obstacle, Difficulty, Outcome, Roll,
};
use crate::data::{
    InjuryEffect, Kind, Quality, CORRUPTION_THRESHOLD, FATIGUE_LIMIT, GLOOM_STEPS, INJURY_DECK, STRESS_LIMIT,
};
use crate::state::{Action, Check, Encounter, Pending, Purpose};

/// Target number of a die in a damage check (ruling).
pub const DAMAGE_TARGET: u8 = 3;

/// Target number of a die in the check to break free of Entangled (ruling, as forcing a
/// door).
pub const BREAK_FREE_TARGET: u8 = 4;

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
    /// (Prepare −1, Momentum or Pool −2). Inspired and Demoralized shift the difficulty;
    /// Favour and Peril cancel: a Prone target gives Favour in melee and Peril at range, a
    /// Blinded attacker Peril, a Drained one Peril in melee (a physical check). An opposed
    /// attack is X steps harder for an attacker Cowed X by the target and has Favour for one
    /// that hates it.
    pub(crate) fn attack_check(&self, attacker: u8, target: u8, ranged: bool, steps: i8) -> Check {
        let a = &self.models[attacker as usize];
        let t = &self.models[target as usize];
        let mut steps = steps + t.profile.size.attack_difficulty() + a.conditions.steps();
        let mut melee_mask = 0u32;
        let mut opposed = false;
        // An attacker against a Hidden model is treated as Blinded.
        let peril = a.peril(!ranged).max(t.conditions.hidden as u8);
        let obstacle = if ranged {
            // The Gloom Effect (bought with Threat at set-up; illustrative) while it lasts.
            if self.gloom > 0 {
                steps += GLOOM_STEPS;
            }
            // Shooting into Melee: each model the target is engaged with, +1 difficulty.
            for e in self.engaged_with(target, attacker) {
                steps += 1;
                melee_mask |= 1 << e;
            }
            if t.profile.shield >= 2 || a.cell.distance(t.cell) <= POINT_BLANK {
                opposed = true;
                opposed_obstacle(
                    a.profile.shooting,
                    t.profile.dodge,
                    steps + a.conditions.cowed_against(target),
                )
            } else {
                unopposed_obstacle(a.profile.shooting, steps)
            }
        } else {
            opposed = true;
            opposed_obstacle(a.melee(), t.profile.defense, steps + a.conditions.cowed_against(target))
        };
        let prone = t.conditions.prone as u8;
        // Hatred: "Against specified target: Favour on Opposed checks".
        let favour = a.favour() + if opposed { a.conditions.hates(target) } else { 0 };
        let roll = if ranged { Roll::net(favour, peril + prone) } else { Roll::net(prone + favour, peril) };
        Check {
            purpose: Purpose::Attack { attacker, target, ranged, melee_mask, off_hand: false },
            odds: basic_odds(obstacle, roll),
            luck: self.luck_of(attacker),
            rerolled: false,
        }
    }

    /// The Character who may re-roll a check model `m` makes (itself: Luck, Push or Dark
    /// Deal); a Nemesis too ("evolves like Characters": Luck only).
    pub(crate) fn luck_of(&self, m: u8) -> Option<u8> {
        let p = self.models[m as usize].profile;
        (p.kind == Kind::Character || p.nemesis).then_some(m)
    }

    /// The ways Character `m` may re-roll a failed check (`rerolled`: it was re-rolled once
    /// already), into `out`: Luck, Push for Fatigue or Stress ("One attempt per check"), and
    /// Dark Deal ("except Dark Deal").
    pub(crate) fn reroll_options(&self, m: u8, rerolled: bool, out: &mut Vec<Action>) {
        let x = &self.models[m as usize];
        if !rerolled && x.luck > 0 {
            out.push(Action::Reroll);
        }
        if x.profile.kind != Kind::Character {
            return;
        }
        if !rerolled {
            if x.fatigue < FATIGUE_LIMIT {
                out.push(Action::Push { stress: false });
            }
            if x.stress < STRESS_LIMIT {
                out.push(Action::Push { stress: true });
            }
        }
        if x.corruption < CORRUPTION_THRESHOLD {
            out.push(Action::DarkDeal);
        }
    }

    /// The check of Character `m` recuperating: a Challenging Cool check to recover 1 Stress
    /// (`stress`), or a Challenging Endurance check to recover 1 Fatigue; unopposed.
    pub(crate) fn recuperate_check(&self, m: u8, stress: bool, steps: i8) -> Check {
        let model = &self.models[m as usize];
        let skill = if stress { model.profile.cool } else { model.profile.endurance };
        let steps = steps + Difficulty::Challenging.steps() + model.conditions.steps();
        let peril = if stress { model.mental_peril() } else { model.peril(true) };
        Check {
            purpose: Purpose::Recuperate { model: m, stress },
            odds: basic_odds(unopposed_obstacle(skill, steps), Roll::net(model.favour(), peril)),
            luck: self.luck_of(m),
            rerolled: false,
        }
    }

    /// The damage check of a hit on `target` with `dice` damage dice: Opposed Damage against
    /// Toughness plus armour.
    pub(crate) fn damage_check(&self, target: u8, dice: u8) -> Check {
        let t = &self.models[target as usize];
        let obstacle = t.profile.toughness + t.armour;
        Check {
            purpose: Purpose::Damage { target, dice, obstacle, bleeding: false },
            odds: complex_odds(dice, DAMAGE_TARGET, obstacle),
            luck: None,
            rerolled: false,
        }
    }

    /// The damage dice of `attacker`'s hit: a melee weapon adds Strength (less Weakened), a
    /// ranged one not.
    pub(crate) fn damage_dice(&self, attacker: u8, ranged: bool) -> u8 {
        let a = &self.models[attacker as usize];
        match (ranged, a.profile.ranged_weapon) {
            (true, Some(w)) => w.damage,
            _ => a.strength() + a.profile.melee_weapon.damage,
        }
    }

    /// The check of `m` breaking free of Entangled X: a Complex Athletics check (dice = its
    /// Athletics, Target [`BREAK_FREE_TARGET`]) against Obstacle X.
    pub(crate) fn break_free_check(&self, m: u8) -> Check {
        let model = &self.models[m as usize];
        Check {
            purpose: Purpose::BreakFree { model: m },
            odds: complex_odds(model.profile.athletics, BREAK_FREE_TARGET, model.conditions.entangled),
            luck: None,
            rerolled: false,
        }
    }

    /// The opposed check of a Disengage or Change Place by `m`: Challenging Athletics against
    /// the best WS (Melee) among the enemies engaging it (Cowed by that enemy, harder; with
    /// Hatred of it, Favour).
    pub(crate) fn manoeuvre_odds(&self, m: u8, steps: i8) -> [f64; 5] {
        let model = &self.models[m as usize];
        let best = self
            .zone_enemies(m, model.cell)
            .into_iter()
            .max_by_key(|&e| (self.models[e as usize].melee(), e));
        let c = model.conditions;
        let (skill, cowed, hates) = match best {
            Some(e) => (self.models[e as usize].melee(), c.cowed_against(e), c.hates(e)),
            None => (0, 0, 0),
        };
        let steps = steps + Difficulty::Challenging.steps() + c.steps() + cowed;
        let roll = Roll::net(model.favour() + hates, model.peril(true));
        basic_odds(opposed_obstacle(model.profile.athletics, skill, steps), roll)
    }

    /// The Morale check of Adversary or Henchman `m` (a Basic Routine check of its Cool), or
    /// the Obedience check of Follower `m` (of its Obedience), unopposed (Inspired and
    /// Demoralized shift it; Blinded, Strained and Distressed give Peril).
    pub(crate) fn morale_check(&self, m: u8) -> Check {
        let model = &self.models[m as usize];
        let skill =
            if model.profile.kind == Kind::Follower { model.profile.obedience } else { model.profile.cool };
        let steps = Difficulty::Routine.steps() + model.conditions.steps();
        Check {
            purpose: Purpose::Morale { model: m },
            odds: basic_odds(
                unopposed_obstacle(skill, steps),
                Roll::net(model.favour(), model.mental_peril()),
            ),
            luck: None,
            rerolled: false,
        }
    }

    /// The Cool check of Strained model `m` at its Start Phase ("Start Phase: Cool check or
    /// gain Broken"): a Basic Routine check, unopposed; Peril from Strained itself.
    pub(crate) fn strain_check(&self, m: u8) -> Check {
        let model = &self.models[m as usize];
        let steps = Difficulty::Routine.steps() + model.conditions.steps();
        Check {
            purpose: Purpose::Strain { model: m },
            odds: basic_odds(
                unopposed_obstacle(model.profile.cool, steps),
                Roll::net(model.favour(), model.mental_peril()),
            ),
            luck: self.luck_of(m),
            rerolled: false,
        }
    }

    /// Apply the outcome of a resolved check.
    pub(crate) fn resolve(&mut self, check: Check, outcome: Outcome) {
        // An Assist gives Favour to the model's next Basic check: this one has taken it.
        if let Some(m) = check.purpose.maker() {
            self.models[m as usize].conditions.assisted = false;
        }
        match check.purpose {
            Purpose::Attack { attacker, target, ranged, melee_mask, off_hand } => {
                self.note(|s| {
                    let hand = if off_hand { " with its off-hand" } else { "" };
                    format!("  {} attacks {}{hand}: {outcome:?}", s.name(attacker), s.name(target))
                });
                if outcome.succeeded() {
                    // A Boon is a Critical Hit; so is any hit of an activation that paid 2
                    // Momentum to activate the weapon's quality (once).
                    let empowered = self.act.is_some_and(|a| a.model == attacker && a.empowered);
                    if empowered {
                        if let Some(a) = &mut self.act {
                            a.empowered = false;
                        }
                    }
                    if outcome == Outcome::Boon || empowered {
                        self.critical(attacker, target, ranged, off_hand);
                    }
                    self.frighten(attacker, target);
                    let dice = match self.models[attacker as usize].profile.off_hand.filter(|_| off_hand) {
                        Some(w) => self.models[attacker as usize].strength() + w.damage,
                        None => self.damage_dice(attacker, ranged),
                    };
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
            Purpose::Damage { target, dice, obstacle, bleeding } => {
                let wounds = match outcome {
                    Outcome::Boon => 2,
                    o if o.succeeded() => 1,
                    _ => 0,
                };
                self.note(|s| {
                    let what = if bleeding {
                        format!("Bleeding at {}'s Start Phase", s.name(target))
                    } else {
                        format!("damage roll against {}", s.name(target))
                    };
                    let result = if wounds == 0 { "no wound".to_string() } else { format!("{wounds} wound(s)") };
                    format!("  {what} ({dice} dice, Target {DAMAGE_TARGET}, Obstacle {obstacle}): {outcome:?}, {result}")
                });
                if wounds > 0 {
                    self.hit(target, wounds);
                }
            }
            Purpose::Prayer { model } => self.answer_prayer(model, outcome),
            Purpose::BreakFree { model } => {
                self.note(|s| format!("  {} tries to break free: {outcome:?}", s.name(model)));
                if outcome.succeeded() {
                    self.models[model as usize].conditions.entangled = 0;
                }
            }
            Purpose::Morale { model } => {
                // "Broken (Ongoing): Move away from enemies. Cannot use Actions." Ruling: a
                // failed check leaves an Adversary, Follower or Henchman Broken (it routs only
                // when it leaves the Board Section at its edge, at once if it stands there); a
                // passed one at a Broken
                // model's Start Phase ends it.
                let x = &mut self.models[model as usize];
                let was = x.conditions.broken;
                x.conditions.broken = !outcome.succeeded();
                self.note(|s| {
                    let what = match (was, outcome.succeeded()) {
                        (false, true) => "holds",
                        (false, false) => "is Broken: it flees its enemies",
                        (true, true) => "rallies: no longer Broken",
                        (true, false) => "stays Broken",
                    };
                    format!("  {} {what} (Morale: {outcome:?})", s.name(model))
                });
                self.flee_off(model);
            }
            Purpose::Strain { model } => {
                self.note(|s| format!("  {} is Strained: Cool check {outcome:?}", s.name(model)));
                self.models[model as usize].conditions.broken = !outcome.succeeded();
            }
            Purpose::Disengage { model, to } => {
                self.note(|s| format!("  {} disengages: {outcome:?}", s.name(model)));
                if outcome.succeeded() {
                    self.models[model as usize].cell = to;
                } else if outcome == Outcome::Bane {
                    self.models[model as usize].conditions.stagger();
                }
            }
            Purpose::Recuperate { model, stress } => {
                let x = &mut self.models[model as usize];
                let what = if stress { "Stress" } else { "Fatigue" };
                if outcome.succeeded() {
                    let track = if stress { &mut x.stress } else { &mut x.fatigue };
                    *track = track.saturating_sub(1);
                    x.feel();
                }
                self.note(|s| format!("  {} recuperates ({what}): {outcome:?}", s.name(model)));
            }
            Purpose::ChangePlace { model, ally } => {
                self.note(|s| {
                    format!("  {} changes place with {}: {outcome:?}", s.name(model), s.name(ally))
                });
                if outcome.succeeded() {
                    self.swap(model, ally);
                } else if outcome == Outcome::Bane {
                    self.models[model as usize].conditions.stagger();
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
    fn critical(&mut self, attacker: u8, target: u8, ranged: bool, off_hand: bool) {
        let p = self.models[attacker as usize].profile;
        let weapon = match (ranged, p.off_hand.filter(|_| off_hand)) {
            (true, _) => p.ranged_weapon.unwrap_or(p.melee_weapon),
            (false, Some(w)) => w,
            (false, None) => p.melee_weapon,
        };
        let own_activation = self.act.is_some_and(|a| a.model == target && !a.ended);
        let c = &mut self.models[target as usize].conditions;
        if weapon.has(Quality::Impact) {
            c.prone = true;
        }
        if weapon.has(Quality::Rend) {
            c.bleeding = c.bleeding.max(2);
        }
        if weapon.has(Quality::Stun) {
            c.stunned = true;
            // "Stunned (Fleeting): Miss next Activation": stunned by an Interrupt during its
            // own activation, it misses the next one (ruling: the stun outlasts this End Phase).
            c.stun_held |= own_activation;
        }
        if weapon.has(Quality::Entangle) {
            c.entangled = c.entangled.max(2);
        }
        if weapon.has(Quality::Dread) && c.psychology() {
            c.demoralized = c.demoralized.max(2);
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

    /// Whether model `m` is out of the Line of Sight of every enemy in play (walls, obstacles
    /// and models block it): where it may hide (ruling).
    pub(crate) fn unseen(&self, m: u8) -> bool {
        let model = &self.models[m as usize];
        self.models.iter().all(|e| {
            !e.in_play()
                || e.side() == model.side()
                || !self.board.line_of_sight(e.cell, model.cell, |c| self.model_at(c).is_some())
        })
    }

    /// A Hidden model that attacks is revealed: Hidden ends at its End Phase.
    pub(crate) fn reveal(&mut self, m: u8) {
        let c = &mut self.models[m as usize].conditions;
        c.revealed = c.hidden;
    }

    /// `wounds` wounds are about to be dealt to `m`: its side may let its armour soak them
    /// while it has Soak, else they are dealt.
    pub(crate) fn hit(&mut self, m: u8, wounds: u8) {
        if self.models[m as usize].soak > 0 {
            self.pending.push(Pending::Soak { target: m, wounds });
        } else {
            self.deal(m, wounds);
        }
    }

    /// The armour of `m` soaks one of `wounds` wounds: it loses a point of armour and of Soak
    /// ("Using Soak damages armor"); what is left comes to the next soak or is dealt.
    pub(crate) fn soak(&mut self, m: u8, wounds: u8) {
        let model = &mut self.models[m as usize];
        model.soak = model.soak.saturating_sub(1);
        model.armour = model.armour.saturating_sub(1);
        self.note(|s| {
            let x = &s.models[m as usize];
            format!("  {}'s armour soaks a wound (armour {}, Soak {} left)", s.name(m), x.armour, x.soak)
        });
        if wounds > 1 {
            self.hit(m, wounds - 1);
        }
    }

    /// Deal `wounds` wounds to `m` and, if it stays in play, let it draw an Injury card.
    pub(crate) fn deal(&mut self, m: u8, wounds: u8) {
        self.wound(m, wounds);
        if self.models[m as usize].in_play() {
            self.pending.push(Pending::Injury { target: m });
        }
    }

    /// The chance outcomes of an Injury draw: `Face(k)` for card `k` of the deck, with odds
    /// its copies over the deck's cards.
    pub(crate) fn injury_odds(&self) -> Vec<(Action, f64)> {
        let total: u32 = INJURY_DECK.iter().map(|c| c.copies as u32).sum();
        INJURY_DECK
            .iter()
            .enumerate()
            .map(|(k, c)| (Action::Face(k as u8), c.copies as f64 / total as f64))
            .collect()
    }

    /// Model `m` draws Injury card `k`: it keeps the card and suffers its effect (a condition
    /// already in force keeps the larger X).
    pub(crate) fn draw_injury(&mut self, m: u8, k: u8) {
        let Some(card) = INJURY_DECK.get(k as usize) else { return };
        let model = &mut self.models[m as usize];
        model.injuries[k as usize] = model.injuries[k as usize].saturating_add(1);
        let c = &mut model.conditions;
        match card.effect {
            InjuryEffect::Nothing | InjuryEffect::LoseMelee => {}
            InjuryEffect::Bleeding(x) => c.bleeding = c.bleeding.max(x),
            InjuryEffect::Prone => c.prone = true,
            InjuryEffect::Staggered(x) => c.staggered = c.staggered.max(x),
            InjuryEffect::Drained => c.drained = true,
            InjuryEffect::Blinded => c.blinded = true,
            InjuryEffect::Weakened(x) => c.weakened = c.weakened.max(x),
        }
        self.note(|s| {
            format!(
                "  {} draws an Injury: {} (Severity {}), {:?}",
                s.name(m),
                card.name,
                card.severity,
                card.effect
            )
        });
    }

    /// Deal `wounds` wounds to `m`: at exactly 0 Wounds it is out of play, below 0 dead
    /// ("Wounds < 0 = Death, Wounds = 0 = Out-of-play"; a Character with a Fate Point may
    /// spend it to escape death, a decision of its side, and lies out of play); either way it is out of play: an Adversary leaves the board,
    /// a knocked-out Character lies there to be dragged or abandoned. The enemies of a side that has lost a model are Inspired by a rallying leader in play (not Broken), and
    /// those of them who hear it are no longer Broken (ruling).
    pub(crate) fn wound(&mut self, m: u8, wounds: u8) {
        let model = &mut self.models[m as usize];
        if wounds == 0 || model.out {
            return;
        }
        if wounds < model.wounds {
            model.wounds -= wounds;
            self.note(|s| {
                format!("  {} takes {wounds} wound(s), {} left", s.name(m), s.models[m as usize].wounds)
            });
            return;
        }
        // "Fate Points: Escape certain death": a Character who would die with a Fate Point
        // lies out of play at Wounds 0 while its side decides to spend it or meet death.
        let dies = wounds > model.wounds;
        let fate_decides = dies && model.fate > 0;
        model.dead = dies && !fate_decides;
        model.wounds = 0;
        model.out = true;
        if fate_decides {
            self.note(|s| format!("  {} would die (Wounds below 0) but has a Fate Point", s.name(m)));
            self.pending.push(Pending::Fate { model: m, slayer: None });
        }
        let model = &self.models[m as usize];
        let side = model.side();
        self.defeated.push(m);
        self.forget(m);
        self.note(|s| {
            let x = &s.models[m as usize];
            if x.dead {
                format!("  {} is slain (Wounds below 0)", s.name(m))
            } else if x.body() {
                format!("  {} is out of play (Wounds 0) and lies on the board: drag or abandon", s.name(m))
            } else {
                format!("  {} is out of play (Wounds 0)", s.name(m))
            }
        });
        // A Broken leader "Cannot use Actions": it does not rally.
        let rally = self
            .models
            .iter()
            .filter(|x| x.in_play() && x.side() != side && !x.conditions.broken)
            .map(|x| x.profile.rally)
            .max();
        if let Some(x) = rally.filter(|&x| x > 0) {
            // A Rally is a leader's call, a Social action: Deafened models do not hear it.
            // Ruling: the Rally also ends Broken for those who hear it.
            let mut steadied = false;
            for other in
                self.models.iter_mut().filter(|o| o.in_play() && o.side() != side && !o.conditions.deafened)
            {
                other.conditions.inspired = other.conditions.inspired.max(x);
                steadied |= std::mem::take(&mut other.conditions.broken);
            }
            let and = if steadied { ", and the Broken stand again" } else { "" };
            self.note(|_| format!("  their leader rallies: Inspired {x}{and}"));
        }
    }

    /// Model `m` has left play: Hatred of it and Animosity to it end ("Ongoing: Lasts until
    /// specific condition met"; ruling).
    pub(crate) fn forget(&mut self, m: u8) {
        for x in &mut self.models {
            let c = &mut x.conditions;
            if c.hatred == Some(m) {
                c.hatred = None;
            }
            if c.animosity == Some(m) {
                c.animosity = None;
            }
        }
    }

    /// A hit by `attacker` with Fear X leaves `target` Cowed X against it ("Cowed
    /// (Persistent): Against specified source"; illustrative), unless it is immune to
    /// Psychology (Frenzied) or to the Fear of that model (Hatred of it).
    fn frighten(&mut self, attacker: u8, target: u8) {
        let fear = self.models[attacker as usize].profile.fear;
        let c = &mut self.models[target as usize].conditions;
        if fear == 0 || !c.psychology() || c.hatred == Some(attacker) {
            return;
        }
        if c.cowed_by != attacker {
            c.cowed = 0;
        }
        c.cowed = c.cowed.max(fear);
        c.cowed_by = attacker;
        self.note(|s| format!("  {} is Cowed {fear} by {}", s.name(target), s.name(attacker)));
    }

    /// The Character `m` spends a Fate Point to escape the death `slayer` (or its wounds)
    /// would bring: it lies out of play, alive.
    pub(crate) fn escape_death(&mut self, m: u8, slayer: Option<u8>) {
        let model = &mut self.models[m as usize];
        model.fate = model.fate.saturating_sub(1);
        self.note(|s| match slayer {
            Some(by) => {
                format!("  {} spends a Fate Point to escape {}'s killing blow", s.name(m), s.name(by))
            }
            None => format!("  {} spends a Fate Point to escape certain death", s.name(m)),
        });
    }

    /// The Character `m` keeps its Fate Point and meets the death `slayer` (or its wounds)
    /// brings.
    pub(crate) fn meet_death(&mut self, m: u8, slayer: Option<u8>) {
        self.models[m as usize].dead = true;
        self.note(|s| match slayer {
            Some(by) => format!("  {} slays the abandoned {}", s.name(by), s.name(m)),
            None => format!("  {} is slain (Wounds below 0)", s.name(m)),
        });
    }

    /// The check of the off-hand attack of two-weapon fighter `attacker` on `target`, if the
    /// target stands in its off-hand weapon's reach: the Strike's `steps` and
    /// [`crate::data::OFF_HAND_STEPS`] more ("Off-hand actions: Difficulty +2").
    pub(crate) fn off_hand_check(&self, attacker: u8, target: u8, steps: i8) -> Option<Check> {
        let a = &self.models[attacker as usize];
        let w = a.profile.off_hand?;
        let t = &self.models[target as usize];
        let reach = crate::board::Board::in_zone(w.reach, a.cell, t.cell);
        if a.conditions.prone || !reach || !self.can_strike(attacker, target) {
            return None;
        }
        let mut check = self.attack_check(attacker, target, false, steps + crate::data::OFF_HAND_STEPS);
        if let Purpose::Attack { off_hand, .. } = &mut check.purpose {
            *off_hand = true;
        }
        Some(check)
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
        if a.conditions.blinded || t.conditions.hidden {
            return false;
        }
        if !a.in_play() || !t.in_play() || a.side() == t.side() || a.cell.distance(t.cell) > w.range {
            return false;
        }
        if self.engaged(shooter) && !w.has(Quality::Pistol) {
            return false;
        }
        self.board.line_of_sight(a.cell, t.cell, |c| self.model_at(c).is_some())
    }
}
