//! A model's activation ("Activation", "Minor Actions", "Melee Attacks", "Ranged Attacks"):
//! its Start and End Phases, the actions it may take (one Major and a free Minor, or two
//! Minor and a free Minor), what Momentum, the Adversary Pool and Threat buy, and the
//! Interrupts an Advance out of a Danger Zone offers.

use crate::board::{Cell, WIDTH};
use crate::data::{Kind, DRAUGHT_WOUNDS, FATIGUE_LIMIT, MENACE};
use crate::state::{
    Action, Activation, Check, Encounter, Intent, Pending, Purpose, Surprise, DM_SIDE, PARTY_SIDE,
};

/// Momentum prices ("Momentum Uses").
pub mod price {
    /// Decrease a check's difficulty by 2.
    pub const BOOST: u8 = 1;
    /// Change Place without a check.
    pub const CHANGE_PLACE: u8 = 1;
    /// Disengage without a check.
    pub const DISENGAGE: u8 = 2;
    /// One more attack.
    pub const EXTRA_ATTACK: u8 = 4;
    /// Activate the weapon's Critical Hit qualities on the next hit.
    pub const EMPOWER: u8 = 2;
    /// One more Reaction (for an Interrupt offered to a model with none left).
    pub const REACTION: u8 = 2;
}

impl Encounter {
    /// Start an activation of `m`: the Start Phase applies its conditions (Bleeding X: an
    /// automatic S[X] hit; Stunned: it misses the activation).
    pub(crate) fn start_activation(&mut self, m: u8) {
        let model = &self.models[m as usize];
        let kind = model.profile.kind;
        let surprised = self.round == 1 && self.surprise == Surprise::Adversaries;
        let basic_only = kind == Kind::Minion || (surprised && !kind.is_party());
        let stunned = model.conditions.stunned;
        let bleeding = model.conditions.bleeding;
        let ablaze = model.conditions.ablaze;
        // The Menacing Talent is intimidation: Psychology, and a Social action a Deafened model
        // is immune to (ruling).
        let c = model.conditions;
        let menaced = kind.is_party() && self.menaced(m) && c.psychology() && !c.deafened;
        let strained = c.strained;
        self.act = Some(Activation {
            model: m,
            major: false,
            minors: 0,
            prepared: false,
            eased: false,
            empowered: false,
            basic_only,
            ended: stunned,
            forced: false,
            prayed: false,
            attacked: false,
        });
        self.note(|s| {
            let extra = if stunned { " (stunned: misses its activation)" } else { "" };
            format!("{} activates{extra}", s.name(m))
        });
        if menaced {
            let c = &mut self.models[m as usize].conditions;
            c.demoralized = c.demoralized.max(MENACE);
            self.note(|s| format!("  {} is Demoralized {MENACE} by the Menacing Champion", s.name(m)));
        }
        // "Ablaze (Ongoing): Start Phase: Automatic S[varies] hit."
        if ablaze > 0 {
            self.note(|s| format!("  {} is Ablaze: an automatic S[{ablaze}] hit", s.name(m)));
            self.pending.push(Pending::Check(self.damage_check(m, ablaze)));
        }
        if bleeding > 0 {
            let mut check = self.damage_check(m, bleeding);
            if let Purpose::Damage { bleeding, .. } = &mut check.purpose {
                *bleeding = true;
            }
            self.pending.push(Pending::Check(check));
        }
        // "Strained (Ongoing): [...] Start Phase: Cool check or gain Broken"; a Character no
        // longer Strained is no longer Broken (ruling). A Broken Adversary, Follower or
        // Henchman takes its Morale check again at its Start Phase; passed, it is no longer
        // Broken (ruling).
        if strained && !stunned {
            self.pending.push(Pending::Check(self.strain_check(m)));
        } else if kind == Kind::Character {
            self.models[m as usize].conditions.broken = false;
        } else if c.broken && !stunned {
            self.pending.push(Pending::Check(self.morale_check(m)));
        }
    }

    /// Whether model `m` stands in the Danger Zone of an enemy Champion that has the
    /// Menacing Talent (bought with Threat at set-up; illustrative).
    pub(crate) fn menaced(&self, m: u8) -> bool {
        let cell = self.models[m as usize].cell;
        self.menacing
            && (0..self.models.len() as u8).any(|e| {
                let x = &self.models[e as usize];
                x.profile.kind == Kind::Champion
                    && x.side() != self.models[m as usize].side()
                    && self.threatens(e, cell)
            })
    }

    /// The End Phase: conditions tick down and the model gains Interrupts equal to its
    /// Attacks. An Adversary standing over a knocked-out Character in its Danger Zone slays
    /// it (illustrative ruling: the "dire consequences" of abandoning it), unless its side
    /// spends a Fate Point to escape.
    pub(crate) fn end_activation(&mut self, m: u8) {
        let attacked = self.act.is_some_and(|a| a.attacked);
        let model = &mut self.models[m as usize];
        // Frenzied ends at the End Phase of an activation without an attack (ruling): "After
        // removal: Fatigue [X]".
        let x = model.conditions.frenzied;
        if x > 0 && !attacked {
            model.conditions.frenzied = 0;
            model.fatigue = model.fatigue.saturating_add(x).min(FATIGUE_LIMIT);
            self.note(|s| format!("  {}'s frenzy passes: Fatigue {x}", s.name(m)));
        }
        let model = &mut self.models[m as usize];
        model.conditions.end_phase();
        model.reactions = model.profile.interrupts();
        if model.side() == DM_SIDE {
            for b in 0..self.models.len() as u8 {
                let lying = &self.models[b as usize];
                if !lying.body() || !self.threatens(m, lying.cell) {
                    continue;
                }
                // A Fate Point may escape this death too (its side decides); the body still
                // lies there.
                if self.models[b as usize].fate > 0 {
                    self.pending.push(Pending::Fate { model: b, slayer: Some(m) });
                } else {
                    self.meet_death(b, Some(m));
                }
            }
        }
    }

    /// The legal actions of the activation under way, into `out` (unsorted).
    pub(crate) fn activation_actions(&self, out: &mut Vec<Action>) {
        let Some(act) = self.act else { return };
        let m = act.model;
        let model = &self.models[m as usize];
        out.push(Action::EndActivation);
        // "Staggered [...] If X > 1: Limited actions" (ruling: one action, a Major or a Minor).
        let limited = model.conditions.staggered > 1;
        let spent = limited && (act.major || act.minors > 0);
        let can_minor = !spent && (act.minors < free_minors(act) || self.extra_minor(m));
        let can_major = !spent && !act.major && act.minors <= 1;
        let prone = model.conditions.prone;
        let engaged = self.engaged(m);
        let manoeuvres = !act.basic_only && model.conditions.staggered == 0 && !prone;
        let kind = model.profile.kind;
        let momentum = if model.side() == PARTY_SIDE { self.momentum_left() } else { 0 };
        let pool = !act.basic_only && matches!(kind, Kind::Elite | Kind::Champion) && self.pool > 0;
        let threat = !act.basic_only && kind == Kind::Champion && self.threat > 0;
        let can_boost = momentum >= price::BOOST || pool;
        if can_minor && !prone {
            out.extend(self.advance_squares(m).into_iter().map(Action::Advance));
            for body in 0..self.models.len() as u8 {
                if self.models[body as usize].side() == model.side() {
                    out.extend(
                        self.drag_squares(m, body).into_iter().map(|(to, _)| Action::Drag { body, to }),
                    );
                }
            }
            if engaged && manoeuvres {
                for to in self.disengage_squares(m) {
                    out.push(Action::Disengage { to, momentum: false });
                    if momentum >= price::DISENGAGE {
                        out.push(Action::Disengage { to, momentum: true });
                    }
                }
                for (i, ally) in self.models.iter().enumerate() {
                    let i = i as u8;
                    // Animosity: "Cannot use Teamwork actions" with that ally.
                    if i != m
                        && model.conditions.animosity != Some(i)
                        && ally.in_play()
                        && ally.side() == model.side()
                        && ally.cell.adjacent(model.cell)
                        && self.engaged(i)
                    {
                        out.push(Action::ChangePlace { ally: i, momentum: false });
                        if momentum >= price::CHANGE_PLACE {
                            out.push(Action::ChangePlace { ally: i, momentum: true });
                        }
                    }
                }
                out.extend(self.reposition_squares(m).into_iter().map(Action::Reposition));
            }
            for c in self.board.steps_to_doors(model.cell) {
                match self.stuck.iter().find(|d| d.cell == c) {
                    None => out.push(Action::OpenDoor(c)),
                    Some(d) if !d.jammed && !act.forced => out.push(Action::ForceDoor(c)),
                    Some(_) => {}
                }
            }
            if !act.prepared && !act.basic_only && can_major {
                out.push(Action::Prepare);
            }
            // "1pt: Decrease Check Difficulty by 2" beyond Strike and Shoot (which take it as
            // their boost): offered where a check manoeuvre is.
            if engaged && manoeuvres && !act.eased && momentum >= price::BOOST {
                out.push(Action::Ease);
            }
            // Divine magic, "Handled as Manoeuvres": one prayer an activation.
            if manoeuvres && !act.prayed && model.profile.prayer.is_some() {
                out.push(Action::Pray);
            }
            if model.conditions.entangled > 0 {
                out.push(Action::BreakFree);
            }
            // "Assist: Aid another Model": an adjacent ally in play not yet assisted.
            if !act.basic_only {
                for (i, ally) in self.models.iter().enumerate() {
                    if i as u8 != m
                        && model.conditions.animosity != Some(i as u8)
                        && ally.in_play()
                        && ally.side() == model.side()
                        && ally.cell.adjacent(model.cell)
                        && !ally.conditions.assisted
                    {
                        out.push(Action::Assist { ally: i as u8 });
                    }
                }
            }
            if model.conditions.blinded {
                out.push(Action::ClearSight);
            }
            if model.conditions.ablaze > 0 {
                out.push(Action::Extinguish);
            }
            // Manage Equipment: "drink potion".
            if !act.basic_only && model.draughts > 0 && model.wounds < model.profile.wounds {
                out.push(Action::DrinkDraught);
            }
            if !act.basic_only {
                for (stress, taken) in [(false, model.fatigue), (true, model.stress)] {
                    if taken > 0 {
                        out.push(Action::Recuperate { stress });
                    }
                }
            }
            if !act.basic_only && !engaged && !model.conditions.hidden && self.unseen(m) {
                out.push(Action::Hide);
            }
        }
        if can_major && prone {
            out.push(Action::StandUp);
        } else if can_major {
            // "2pt: Activate Weapon Quality requiring Critical Hit": before a Strike or a
            // Shoot whose weapon has such a quality.
            if !act.empowered && momentum >= price::EMPOWER && self.may_empower(m) {
                out.push(Action::Empower);
            }
            if model.intent == Some(Intent::Cast) {
                for spell in 0..crate::data::SPELLS.len() as u8 {
                    out.extend(self.spell_targets(m, spell).into_iter().map(|at| Action::Cast { spell, at }));
                }
            }
            for t in 0..self.models.len() as u8 {
                if model.intent == Some(Intent::Fight) && self.can_strike(m, t) {
                    for boost in [false, true] {
                        for extra in [false, true] {
                            let cost = boost as u8 * price::BOOST + extra as u8 * price::EXTRA_ATTACK;
                            let party_ok = model.side() == PARTY_SIDE && cost <= momentum;
                            let dm_ok = model.side() == DM_SIDE && (!boost || pool) && (!extra || threat);
                            if party_ok || dm_ok {
                                out.push(Action::Strike { target: t, boost, extra });
                            }
                        }
                    }
                }
                if model.intent == Some(Intent::Shoot) && self.can_shoot(m, t) {
                    out.push(Action::Shoot { target: t, boost: false });
                    if can_boost {
                        out.push(Action::Shoot { target: t, boost: true });
                    }
                }
            }
        }
        let c = model.conditions;
        if c.frenzied > 0 {
            // Frenzied: "Attack nearest Model. Only Melee Strike actions and Advance manoeuvres."
            let nearest = self.nearest_enemy_distance(m);
            out.retain(|a| match *a {
                Action::Strike { target, .. } => {
                    Some(self.models[target as usize].cell.distance(model.cell)) == nearest
                }
                Action::Advance(_) | Action::EndActivation => true,
                _ => false,
            });
        } else if c.broken {
            // Broken: "Move away from enemies. Cannot use Actions." It must move away while it
            // has not moved and can (ruling).
            let now = self.nearest_enemy_distance(m);
            out.retain(|a| match *a {
                Action::Advance(to) => self.enemy_distance(m, to) > now,
                Action::EndActivation => true,
                _ => false,
            });
            if act.minors == 0 && out.len() > 1 {
                out.retain(|a| *a != Action::EndActivation);
            }
        }
    }

    /// The distance from square `c` to the nearest enemy in play of model `m`.
    pub(crate) fn enemy_distance(&self, m: u8, c: crate::board::Cell) -> Option<u8> {
        let side = self.models[m as usize].side();
        self.models.iter().filter(|e| e.in_play() && e.side() != side).map(|e| e.cell.distance(c)).min()
    }

    /// The distance from model `m` to the nearest enemy in play.
    pub(crate) fn nearest_enemy_distance(&self, m: u8) -> Option<u8> {
        self.enemy_distance(m, self.models[m as usize].cell)
    }

    /// Whether the next Minor action of model `m`'s activation is an additional one, paid with
    /// 1 Fatigue ("Main Characters: Additional Minor Actions cost 1 Fatigue each"): its free
    /// Minors are used and it is a Character below [`FATIGUE_LIMIT`].
    pub fn extra_minor(&self, m: u8) -> bool {
        let x = &self.models[m as usize];
        self.act.is_some_and(|a| a.model == m && a.minors >= free_minors(a))
            && x.profile.kind == Kind::Character
            && x.fatigue < FATIGUE_LIMIT
    }

    /// Whether model `m` may attack this activation with a weapon that has a Critical Hit
    /// quality: a Strike (Fight declared) with its melee weapon or a Shoot with its ranged one.
    fn may_empower(&self, m: u8) -> bool {
        let model = &self.models[m as usize];
        let targets = 0..self.models.len() as u8;
        match (model.intent, model.profile.ranged_weapon) {
            (Some(Intent::Fight), _) => {
                !model.weapon().qualities.is_empty() && targets.clone().any(|t| self.can_strike(m, t))
            }
            (Some(Intent::Shoot), Some(w)) => {
                !w.qualities.is_empty() && targets.clone().any(|t| self.can_shoot(m, t))
            }
            _ => false,
        }
    }

    /// Pay for a boost (and an extra attack) by the active model's side: the party's Momentum
    /// at Bookkeeping, the Pool and Threat at once.
    fn pay(&mut self, m: u8, boost: bool, extra: bool) {
        if self.models[m as usize].side() == PARTY_SIDE {
            let cost = boost as u8 * price::BOOST + extra as u8 * price::EXTRA_ATTACK;
            self.momentum_spent += cost;
        } else {
            self.pool = self.pool.saturating_sub(boost as u8);
            self.threat = self.threat.saturating_sub(extra as u8);
        }
    }

    /// Apply a legal activation action.
    pub(crate) fn apply_activation(&mut self, action: Action) {
        let Some(mut act) = self.act else { return };
        let m = act.model;
        let easier = -(act.prepared as i8) - 2 * act.eased as i8;
        let is_major = matches!(
            action,
            Action::StandUp | Action::Strike { .. } | Action::Shoot { .. } | Action::Cast { .. }
        );
        act.attacked |= matches!(action, Action::Strike { .. } | Action::Shoot { .. } | Action::Cast { .. });
        let free = matches!(action, Action::Ease | Action::Empower);
        if is_major {
            act.major = true;
        } else if action != Action::EndActivation && !free {
            if act.minors >= free_minors(act) {
                // "Main Characters: Additional Minor Actions cost 1 Fatigue each"
                let x = &mut self.models[m as usize];
                x.fatigue = x.fatigue.saturating_add(1);
                self.note(|s| format!("  {} takes an additional Minor action for 1 Fatigue", s.name(m)));
            }
            act.minors += 1;
        }
        if is_major
            || matches!(
                action,
                Action::Disengage { momentum: false, .. }
                    | Action::ChangePlace { momentum: false, .. }
                    | Action::Recuperate { .. }
                    | Action::Pray
            )
        {
            act.prepared = false;
            act.eased = false;
        }
        self.note(|s| format!("  {} : {}", s.name(m), s.describe(action)));
        match action {
            Action::EndActivation => act.ended = true,
            Action::Advance(_) | Action::Drag { .. } => {
                let interrupters: Vec<u8> = self
                    .zone_enemies(m, self.models[m as usize].cell)
                    .into_iter()
                    .filter(|&e| self.has_reaction(e))
                    .collect();
                if interrupters.is_empty() {
                    self.perform_deferred(m, action);
                } else {
                    self.deferred = Some((m, action));
                    self.pending.extend(interrupters.into_iter().rev().map(|by| Pending::Interrupt { by }));
                }
            }
            Action::Disengage { to, momentum: true } => {
                self.momentum_spent += price::DISENGAGE;
                self.models[m as usize].cell = to;
            }
            Action::Disengage { to, momentum: false } => {
                let odds = self.manoeuvre_odds(m, easier);
                let luck = self.luck_of(m);
                self.pending.push(Pending::Check(Check {
                    purpose: Purpose::Disengage { model: m, to },
                    odds,
                    luck,
                    rerolled: false,
                }));
            }
            Action::ChangePlace { ally, momentum: true } => {
                self.momentum_spent += price::CHANGE_PLACE;
                self.swap(m, ally);
            }
            Action::ChangePlace { ally, momentum: false } => {
                let odds = self.manoeuvre_odds(m, easier);
                let luck = self.luck_of(m);
                self.pending.push(Pending::Check(Check {
                    purpose: Purpose::ChangePlace { model: m, ally },
                    odds,
                    luck,
                    rerolled: false,
                }));
            }
            Action::Reposition(to) => self.models[m as usize].cell = to,
            Action::OpenDoor(c) => {
                // Legal actions name only closed doors next to the model.
                let _ = self.board.open_door(c);
            }
            Action::ForceDoor(door) => {
                act.forced = true;
                self.pending.push(Pending::Force { model: m, door });
            }
            Action::Prepare => act.prepared = true,
            Action::Ease => {
                self.momentum_spent += price::BOOST;
                act.eased = true;
            }
            Action::Empower => {
                self.momentum_spent += price::EMPOWER;
                act.empowered = true;
            }
            Action::BreakFree => self.pending.push(Pending::Check(self.break_free_check(m))),
            Action::Recuperate { stress } => {
                self.pending.push(Pending::Check(self.recuperate_check(m, stress, easier)))
            }
            Action::Pray => {
                act.prayed = true;
                self.pending.push(Pending::Check(self.prayer_check(m, easier)));
            }
            Action::Cast { spell, at } => {
                self.reveal(m);
                self.start_cast(m, spell, at);
            }
            Action::Assist { ally } => self.models[ally as usize].conditions.assisted = true,
            Action::ClearSight => self.models[m as usize].conditions.blinded = false,
            Action::Extinguish => self.models[m as usize].conditions.ablaze = 0,
            Action::DrinkDraught => {
                let x = &mut self.models[m as usize];
                x.draughts -= 1;
                x.wounds = (x.wounds + DRAUGHT_WOUNDS).min(x.profile.wounds);
                self.note(|s| format!("  {} has {} Wound(s)", s.name(m), s.models[m as usize].wounds));
            }
            Action::Hide => self.models[m as usize].conditions.hidden = true,
            Action::StandUp => self.models[m as usize].conditions.prone = false,
            Action::Strike { target, boost, extra } => {
                self.pay(m, boost, extra);
                self.reveal(m);
                let steps = if boost { -2 } else { 0 };
                // Frenzied: "Attacks ×2".
                let x = &self.models[m as usize];
                let attacks = x.profile.attacks * (1 + (x.conditions.frenzied > 0) as u8) + extra as u8;
                // "Two-Weapon Fighting": the Strike ends with an off-hand attack.
                if self.models[m as usize].profile.off_hand.is_some() {
                    self.pending.push(Pending::OffHand { attacker: m, target, steps: steps + easier });
                }
                self.pending.push(Pending::Attacks { attacker: m, target, left: attacks - 1, steps });
                self.pending.push(Pending::Check(self.attack_check(m, target, false, steps + easier)));
            }
            Action::Shoot { target, boost } => {
                self.pay(m, boost, false);
                self.reveal(m);
                let steps = if boost { -2 } else { 0 };
                self.pending.push(Pending::Check(self.attack_check(m, target, true, steps + easier)));
            }
            _ => {}
        }
        self.act = Some(act);
    }

    /// The next attack of a Strike, if its attacker still stands and its target is still in
    /// reach.
    pub(crate) fn next_attack(&mut self, attacker: u8, target: u8, left: u8, steps: i8) {
        if left > 0 && !self.models[attacker as usize].conditions.prone && self.can_strike(attacker, target) {
            self.pending.push(Pending::Attacks { attacker, target, left: left - 1, steps });
            self.pending.push(Pending::Check(self.attack_check(attacker, target, false, steps)));
        }
    }

    /// Whether the Interrupt offered to `by` still stands: it is in play, standing, has a
    /// Reaction, and the model it would strike is still in its Danger Zone.
    pub(crate) fn interrupt_valid(&self, by: u8) -> bool {
        let Some((mover, _)) = self.deferred else { return false };
        let b = &self.models[by as usize];
        b.in_play()
            && self.has_reaction(by)
            && self.threatens(by, self.models[mover as usize].cell)
            && self.models[mover as usize].in_play()
    }

    /// Whether model `m` has a Reaction for an Interrupt: one left, or (a party model) the
    /// Momentum to gain one ("2pt: Gain 1 additional Reaction until start of next Model's
    /// activation").
    pub(crate) fn has_reaction(&self, m: u8) -> bool {
        let model = &self.models[m as usize];
        // A Broken model "Cannot use Actions": no Interrupts.
        !model.conditions.broken
            && (model.reactions > 0
                || (model.side() == PARTY_SIDE && self.momentum_left() >= price::REACTION))
    }

    /// Whether an Interrupt by `m` now would cost Momentum (it has no Reaction left).
    pub fn interrupt_costs_momentum(&self, m: u8) -> bool {
        self.models.get(m as usize).is_some_and(|x| x.reactions == 0)
    }

    /// A move (an Advance or a Drag), after the Interrupts it offered: it happens unless the
    /// mover fell or left play (or its square was taken).
    pub(crate) fn perform_deferred(&mut self, m: u8, action: Action) {
        let model = &self.models[m as usize];
        if !model.in_play() || model.conditions.prone {
            return;
        }
        match action {
            Action::Advance(to) if self.model_at(to).is_none() => {
                self.models[m as usize].cell = to;
                self.flee_off(m);
            }
            Action::Drag { body, to } => {
                if let Some(&(_, lands)) = self.drag_squares(m, body).iter().find(|d| d.0 == to) {
                    self.models[m as usize].cell = to;
                    self.models[body as usize].cell = lands;
                }
            }
            _ => {}
        }
    }
}

impl Encounter {
    /// Broken model `m` leaves the Board Section when it stands on its side's edge of it
    /// ([`flight_edge`]; checked when it moves and when its Morale check fails): it routs
    /// (out of play, neither wounded out nor dead). Illustrative ruling of "Broken (Ongoing):
    /// Move away from enemies" and "remaining non-routed Adversaries": only Adversaries,
    /// Followers and Henchmen flee the board; a Broken Character stays.
    pub(crate) fn flee_off(&mut self, m: u8) {
        let x = &self.models[m as usize];
        if !x.conditions.broken || x.profile.kind == Kind::Character || !flight_edge(x.side(), x.cell) {
            return;
        }
        let x = &mut self.models[m as usize];
        x.out = true;
        x.routed = true;
        self.note(|s| format!("  {} flees the Board Section: it routs", s.name(m)));
        self.forget(m);
    }
}

/// Whether square `c` lies on the edge of the Board Section by which side `side` flees
/// (illustrative ruling: the floor column along the outer wall at the side's own end of the
/// board, where it set up: the party's in the west, the Adversaries' in the east).
pub(crate) fn flight_edge(side: usize, c: Cell) -> bool {
    let column = if side == PARTY_SIDE { 1 } else { WIDTH as u8 - 2 };
    c.x == column
}

/// The Minor actions an activation has free: one with its Major, three without ("Perform one
/// Major Action OR gain 2 free Minor Actions; Perform one free Minor Action").
fn free_minors(act: Activation) -> u8 {
    if act.major {
        1
    } else {
        3
    }
}
