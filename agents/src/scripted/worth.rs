//! What models are worth to the scripted player, and its view of a game: the parts of
//! [`View`] that ask the scenario's plan ([`super::plans`]).

use super::estimate::{for_wounds, Effect, Strike};
use super::plans::{plan_of, ScenarioPlan};
use super::terms::TermWeights;
use super::view::View;
use engine::odds::armour_target;
use engine::state::{Health, ModelId, Side};
use engine::GameState;

impl<'a> View<'a> {
    /// The view of `side`, scoring with the scripted player's own weights.
    pub fn new(state: &'a GameState, side: Side) -> View<'a> {
        View::weighted(state, side, TermWeights::SCRIPTED)
    }

    /// The view of `side`, scoring with the term weights `w`.
    pub fn weighted(state: &'a GameState, side: Side, w: TermWeights) -> View<'a> {
        let scenario = state.static_data().scenario;
        let plan = plan_of(scenario);
        let sc = state.masked(side).scenario;
        let turn = state.turn();
        let last_turn = turn >= state.static_data().max_turns || (turn >= 4 && plan.ends_early(state, &sc));
        View { state, side, scenario, sc, nf: state.static_data().variant.narrative_feats, last_turn, w }
    }

    /// The scripted player's plan for the scenario played.
    pub fn plan(&self) -> &'static dyn ScenarioPlan {
        plan_of(self.scenario)
    }

    /// How much more than its worth an own model matters to the scenario (a leader to be
    /// assassinated, a grudge holder, a carrier).
    pub fn importance(&self, m: ModelId) -> f64 {
        self.plan().importance(self, m)
    }

    /// Value to the side of model `m` going down: a gain for an enemy, a loss for a friend.
    pub fn value_down(&self, m: ModelId) -> f64 {
        if !self.is_enemy(m) {
            return self.worth(m) * self.importance(m);
        }
        let bonus = self.plan().bonus_down(self, m);
        self.worth(m) + bonus
    }

    /// Extra value of taking `m` out rather than putting it down, when `attacker` does it.
    pub fn value_out(&self, attacker: Option<ModelId>, m: ModelId) -> f64 {
        if !self.is_enemy(m) {
            return 0.3 * self.worth(m) * self.importance(m);
        }
        let bonus = self.plan().bonus_out(self, attacker, m);
        0.2 * self.worth(m) + bonus
    }

    /// Expected value of `damage` dice against `target` saving on `save` or less (a down
    /// target is taken out by any damage).
    pub fn harm(&self, attacker: Option<ModelId>, target: ModelId, damage: u8, save: u8) -> f64 {
        let tm = &self.state.models()[target as usize];
        if damage == 0 {
            return 0.0;
        }
        if tm.health == Health::Down {
            return self.value_out(attacker, target);
        }
        if !tm.is_conscious() {
            return 0.0;
        }
        let w = tm.wounds.max(1);
        let (down, out) = (self.value_down(target), self.value_out(attacker, target));
        let mut v = 0.0;
        for_wounds(damage, save, |k, p| {
            v += p * if k >= 2 * w {
                down + out
            } else if k >= w {
                down
            } else {
                down * 0.8 * k as f64 / w as f64
            };
        });
        v
    }

    /// Expected value of `strike` taking effect with probabilities `eff`.
    pub fn strike_value(&self, strike: &Strike, eff: Effect) -> f64 {
        let state = self.state;
        let (on_pass, on_nailed) = strike.damage(state);
        let w = &state.profile(strike.attacker).weapons[strike.weapon as usize];
        let tp = state.profile(strike.target);
        let save = armour_target(tp.toughness, tp.total_armour(), w.pierce(), w.sunder(), strike.hard);
        let a = Some(strike.attacker);
        let extra = if w.stun() > 0 || w.fire() > 0 || w.has(engine::profile::WeaponProperty::Blind) {
            0.05 * self.worth(strike.target)
        } else {
            0.0
        };
        eff.pass * (self.harm(a, strike.target, on_pass, save) + extra)
            + eff.nailed * (self.harm(a, strike.target, on_nailed, save) + extra)
    }
}
