//! Declaring actions and initiative ("Declare Actions", "Determine Initiative"): a D6 says
//! who declares first, the sides alternate (party model by model, the DM group by group),
//! each declaration hidden from the other side until all are made; then each declared model
//! rolls 1D6 + Initiative − its Action modifier and activates in descending order.

use crate::data::{Kind, Quality};
use crate::state::{Action, Encounter, Intent, Phase, Surprise, DM_SIDE, PARTY_SIDE};
use rand::Rng;

impl Encounter {
    /// Whether model `m` gets an Activation this round: in play, and not a Henchman or
    /// Follower of a surprised Company nor a Minion of surprised Adversaries in round 1.
    pub(crate) fn activates(&self, m: u8) -> bool {
        let model = &self.models[m as usize];
        let first = self.round == 1;
        let lost = matches!(
            (first, self.surprise, model.profile.kind),
            (true, Surprise::Company, Kind::Follower | Kind::Henchman)
                | (true, Surprise::Adversaries, Kind::Minion)
        );
        model.in_play() && !lost
    }

    /// The models of a declarer: a party model itself, or every activating DM model of group
    /// `g`.
    pub(crate) fn declarer_models(&self, side: usize, d: u8) -> Vec<u8> {
        if side == PARTY_SIDE {
            return vec![d];
        }
        (0..self.models.len() as u8)
            .filter(|&m| {
                let model = &self.models[m as usize];
                model.side() == DM_SIDE
                    && model.profile.group == d
                    && self.activates(m)
                    && !model.conditions.stunned
            })
            .collect()
    }

    /// Begin the declarations of a round: who declares (Stunned models miss their activation
    /// and declare nothing), and who starts.
    pub(crate) fn begin_declarations(&mut self) {
        let mut party = Vec::new();
        let mut groups = Vec::new();
        for i in 0..self.models.len() as u8 {
            model_reset(self, i);
            let model = &self.models[i as usize];
            if !self.activates(i) || model.conditions.stunned {
                continue;
            }
            if model.side() == PARTY_SIDE {
                party.push(i);
            } else if !groups.contains(&model.profile.group) {
                groups.push(model.profile.group);
            }
        }
        self.to_declare = [party, groups];
        // With surprise the Company declares first either way, all before the Adversaries.
        self.phase = if self.surprise != Surprise::Nobody && self.round == 1 {
            self.declare_turn = PARTY_SIDE;
            Phase::Declare
        } else {
            Phase::DeclareOrder
        };
    }

    /// The intents declarer `d` of `side` may choose: Move, Fight, Shoot when one of its
    /// models may declare it ([`Encounter::may_declare_shoot`]), and Cast for an arcane
    /// caster.
    pub(crate) fn intents(&self, side: usize, d: u8) -> Vec<Intent> {
        let models = self.declarer_models(side, d);
        let conditions = |m: &u8| self.models[*m as usize].conditions;
        // Frenzied: "Only Melee Strike actions and Advance manoeuvres"; Broken: "Cannot use
        // Actions" (it only moves away).
        if models.iter().any(|m| conditions(m).frenzied > 0) {
            return vec![Intent::Fight];
        }
        // A group with a Broken model still declares for the others; that model only moves away.
        if models.iter().all(|m| conditions(m).broken) {
            return vec![Intent::Move];
        }
        let shoots = self.declarer_models(side, d).iter().any(|&m| self.may_declare_shoot(m));
        let mut out = vec![Intent::Move, Intent::Fight];
        if shoots {
            out.push(Intent::Shoot);
        }
        // "Major Actions: Complex combat actions like Attacks and Spell Casting".
        if self.declarer_models(side, d).iter().any(|&m| self.models[m as usize].profile.magic > 0) {
            out.push(Intent::Cast);
        }
        out
    }

    /// Whether model `m` may declare Shoot: it has a ranged weapon and is not Engaged, or
    /// shoots a Pistol, or can leave every enemy Danger Zone with a Minor action before its
    /// Major ("Cannot attack when Engaged unless weapon has Pistol Quality"; ruling: a
    /// declaration the model could never carry out is not offered).
    pub fn may_declare_shoot(&self, m: u8) -> bool {
        let model = &self.models[m as usize];
        let Some(w) = model.profile.ranged_weapon else { return false };
        !self.engaged(m) || w.has(Quality::Pistol) || self.way_out(m)
    }

    /// Whether Engaged model `m` could leave every enemy Danger Zone with one Minor action: an
    /// Advance to a square outside them (it offers Interrupts), or a Disengage (a Manoeuvre:
    /// not for Minions, nor Staggered models). A Prone model cannot move.
    pub fn way_out(&self, m: u8) -> bool {
        let model = &self.models[m as usize];
        if model.conditions.prone {
            return false;
        }
        let manoeuvres = model.profile.kind != Kind::Minion && model.conditions.staggered == 0;
        self.advance_squares(m).iter().any(|&c| !self.in_enemy_zone(m, c))
            || (manoeuvres && !self.disengage_squares(m).is_empty())
    }

    /// Why the active model, which declared Shoot, has no Shoot among its actions now (for a
    /// player reading the prompt); `None` when it may shoot, has shot, or declared otherwise.
    pub fn why_no_shot(&self) -> Option<String> {
        let act = self.act?;
        let m = act.model;
        let model = &self.models[m as usize];
        if act.major || model.intent != Some(Intent::Shoot) {
            return None;
        }
        let w = model.profile.ranged_weapon?;
        let name = model.profile.name;
        if (0..self.models.len() as u8).any(|t| self.can_shoot(m, t)) {
            return None;
        }
        Some(if model.conditions.prone {
            format!("{name} is Prone: standing up takes the Major action, so no shot this activation")
        } else if model.conditions.blinded {
            format!("{name} is Blinded (\"Cannot use Ranged actions\"): clear its sight first")
        } else if self.engaged(m) && !w.has(Quality::Pistol) {
            let out = if self.way_out(m) {
                "Disengage or Advance out of the Danger Zone first (a Minor), then shoot"
            } else {
                "it has no way out of the Danger Zone this activation"
            };
            format!(
                "{name} is Engaged: a {} cannot shoot (\"Cannot attack when Engaged unless weapon has \
                 Pistol Quality\"); {out}",
                w.name
            )
        } else {
            format!("{name} has no enemy in range ({} squares) and Line of Sight", w.range)
        })
    }

    /// The declaration decision's actions.
    pub(crate) fn declare_actions(&self, out: &mut Vec<Action>) {
        let side = self.declare_turn;
        if let Some(&d) = self.to_declare[side].first() {
            out.extend(self.intents(side, d).into_iter().map(Action::Declare));
        }
    }

    /// Apply a declaration and pass the turn: to the other side while it has declarers left.
    pub(crate) fn apply_declare(&mut self, intent: Intent) {
        let side = self.declare_turn;
        if self.to_declare[side].is_empty() {
            return;
        }
        let d = self.to_declare[side].remove(0);
        for m in self.declarer_models(side, d) {
            let model = &mut self.models[m as usize];
            model.declared = true;
            model.intent = Some(intent);
        }
        let surprise_order = self.round == 1 && self.surprise != Surprise::Nobody;
        let other = 1 - side;
        if (!surprise_order && !self.to_declare[other].is_empty()) || self.to_declare[side].is_empty() {
            self.declare_turn = other;
        }
        if self.to_declare.iter().all(Vec::is_empty) {
            self.note(|s| {
                let list: Vec<String> = s
                    .models
                    .iter()
                    .filter_map(|m| m.intent.map(|i| format!("{} {i:?}", m.profile.name)))
                    .collect();
                format!("declarations revealed: {}", list.join(", "))
            });
            self.init_queue =
                (0..self.models.len() as u8).filter(|&m| self.models[m as usize].declared).collect();
            self.phase = Phase::Initiative;
        }
    }

    /// The initiative roll of the next queued model: 1D6 + Initiative − Action modifier.
    pub(crate) fn apply_initiative(&mut self, face: u8) {
        if self.init_queue.is_empty() {
            return;
        }
        let m = self.init_queue.remove(0);
        let model = &mut self.models[m as usize];
        let modifier = model.intent.map_or(0, Intent::modifier);
        model.initiative = Some(face as i8 + model.profile.initiative as i8 - modifier);
    }

    /// Activation order: initiative descending; ties to the higher Initiative characteristic,
    /// then the party, then the lower model index (ruling). Stunned models (no roll) come
    /// last, for their Start and End Phases only.
    pub(crate) fn order_activations(&mut self) {
        let mut order: Vec<u8> = (0..self.models.len() as u8)
            .filter(|&m| {
                self.activates(m)
                    && (self.models[m as usize].declared || self.models[m as usize].conditions.stunned)
            })
            .collect();
        order.sort_by_key(|&m| {
            let model = &self.models[m as usize];
            (
                std::cmp::Reverse(model.initiative.unwrap_or(i8::MIN)),
                std::cmp::Reverse(model.profile.initiative),
                model.side(),
                m,
            )
        });
        self.note(|s| {
            let list: Vec<String> = order
                .iter()
                .map(|&m| {
                    format!(
                        "{} {}",
                        s.name(m),
                        s.models[m as usize].initiative.map_or("-".into(), |i| i.to_string())
                    )
                })
                .collect();
            format!("initiative: {}", list.join(", "))
        });
        self.order = order;
        self.cursor = 0;
        self.act = None;
        self.phase = Phase::Activation;
    }

    /// Whether `player` may see the intents of `side`'s models now: its own always, the
    /// other's once the declarations are revealed.
    pub(crate) fn intents_visible(&self, player: usize, side: usize) -> bool {
        player == side || self.phase != Phase::Declare
    }

    /// A copy in which the other side's hidden declarations are drawn anew, uniformly among
    /// the intents each declarer could have chosen (group members alike).
    pub(crate) fn resample_hidden(&self, player: usize, rng: &mut dyn rand::RngCore) -> Encounter {
        let mut out = self.clone();
        let other = 1 - player;
        if self.intents_visible(player, other) {
            return out;
        }
        let mut done: Vec<u8> = Vec::new();
        for m in 0..self.models.len() as u8 {
            let model = &self.models[m as usize];
            if model.side() != other || !model.declared || done.contains(&m) {
                continue;
            }
            let d = if other == PARTY_SIDE { m } else { model.profile.group };
            let members = self.declarer_models(other, d);
            let options = self.intents(other, d);
            let intent = options[rng.gen_range(0..options.len())];
            for &x in &members {
                out.models[x as usize].intent = Some(intent);
            }
            done.extend(members);
        }
        out
    }
}

/// Clear a model's declaration and initiative for a new round.
pub(crate) fn model_reset(s: &mut Encounter, m: u8) {
    let model = &mut s.models[m as usize];
    model.declared = false;
    model.intent = None;
    model.initiative = None;
}
