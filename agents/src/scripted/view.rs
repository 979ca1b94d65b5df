//! What the scripted player knows at a decision, and what models are worth to it.
//!
//! The scenario state is read only through [`GameState::masked`]: the enemy's grudge until it
//! is announced and the numbers of markers the side has not looked at are gone from it, so
//! nothing hidden can leak into a choice.

use super::estimate::{for_wounds, Effect, Strike};
use super::terms::TermWeights;
use engine::odds::armour_target;
use engine::profile::{ModelType, Role};
use engine::scenario::{MarkerKind, Scenario, ScenarioState};
use engine::state::{Health, ModelId, Side};
use engine::GameState;

/// The deciding side's view of the game.
pub(crate) struct View<'a> {
    /// The state (its public parts only are read).
    pub state: &'a GameState,
    /// The deciding side.
    pub side: Side,
    /// The scenario played.
    pub scenario: Scenario,
    /// The scenario state as the side knows it.
    pub sc: ScenarioState,
    /// Narrative feats are in force.
    pub nf: bool,
    /// This turn is surely the last one.
    pub last_turn: bool,
    /// The weights of the score's terms (all 1 for the scripted player).
    pub w: TermWeights,
}

impl<'a> View<'a> {
    /// The view of `side`, scoring with the scripted player's own weights.
    pub fn new(state: &'a GameState, side: Side) -> View<'a> {
        View::weighted(state, side, TermWeights::SCRIPTED)
    }

    /// The view of `side`, scoring with the term weights `w`.
    pub fn weighted(state: &'a GameState, side: Side, w: TermWeights) -> View<'a> {
        let scenario = state.static_data().scenario;
        let sc = state.masked(side).scenario;
        let turn = state.turn();
        let leader_out =
            (0..2).any(|s| leader(state, s).is_some_and(|l| health(state, l) == Health::TakenOut));
        let last_turn = turn >= state.static_data().max_turns
            || (turn >= 4
                && match scenario {
                    Scenario::Assassinate => leader_out,
                    Scenario::Couriers => sc.markers.iter().any(|m| m.off_table),
                    _ => false,
                });
        View { state, side, scenario, sc, nf: state.static_data().variant.narrative_feats, last_turn, w }
    }

    /// Whether `m` belongs to the other side.
    pub fn is_enemy(&self, m: ModelId) -> bool {
        self.state.models()[m as usize].side != self.side
    }

    /// The side's own grudge (Grudge Match).
    pub fn grudge(&self) -> Option<engine::scenario::Grudge> {
        self.sc.grudges[self.side as usize]
    }

    /// Markers `m` carries (prizes, numbered markers).
    pub fn carried(&self, m: ModelId) -> usize {
        self.sc.markers.iter().filter(|k| k.holder == Some(m) && !k.off_table).count()
    }

    /// Whether `m` carries a Couriers prize.
    pub fn carries_prize(&self, m: ModelId) -> bool {
        self.sc
            .markers
            .iter()
            .any(|k| k.holder == Some(m) && !k.off_table && matches!(k.kind, MarkerKind::Prize(_)))
    }

    /// A model's fighting worth: its points over 20.
    pub fn worth(&self, m: ModelId) -> f64 {
        self.state.profile(m).points as f64 / 20.0
    }

    /// How much more than its worth an own model matters to the scenario (a leader to be
    /// assassinated, a grudge holder, a carrier).
    pub fn importance(&self, m: ModelId) -> f64 {
        let carried = self.carried(m) as f64;
        match self.scenario {
            Scenario::Assassinate if self.state.profile(m).role == Role::Leader => 4.0,
            Scenario::GrudgeMatch if self.grudge().is_some_and(|g| g.holder == m) => 2.5,
            Scenario::GrudgeMatch if is_character(self.state, m) => 1.3,
            Scenario::Couriers if self.carries_prize(m) => 2.5,
            Scenario::ScavengerHunt => 1.0 + 1.5 * carried,
            _ => 1.0,
        }
    }

    /// Value to the side of model `m` going down: a gain for an enemy, a loss for a friend.
    pub fn value_down(&self, m: ModelId) -> f64 {
        if !self.is_enemy(m) {
            return self.worth(m) * self.importance(m);
        }
        let bonus = match self.scenario {
            Scenario::Assassinate if self.is_enemy_leader(m) && !self.sc.done[self.side as usize] => 3.0,
            Scenario::GrudgeMatch => {
                let target = self.grudge().is_some_and(|g| g.target == m && !g.complete);
                if target {
                    1.5
                } else if is_character(self.state, m) {
                    0.6
                } else {
                    0.0
                }
            }
            Scenario::Couriers if self.carries_prize(m) => 3.0,
            Scenario::ScavengerHunt => 1.5 * self.carried(m) as f64,
            _ => 0.0,
        };
        self.worth(m) + bonus
    }

    /// Extra value of taking `m` out rather than putting it down, when `attacker` does it.
    pub fn value_out(&self, attacker: Option<ModelId>, m: ModelId) -> f64 {
        if !self.is_enemy(m) {
            return 0.3 * self.worth(m) * self.importance(m);
        }
        let bonus = match self.scenario {
            Scenario::Assassinate if self.is_enemy_leader(m) && !self.sc.done[self.side as usize] => 6.0,
            Scenario::GrudgeMatch => match self.grudge() {
                Some(g) if g.target == m && !g.complete => {
                    let holder_up = self.state.models()[g.holder as usize].is_conscious();
                    if attacker == Some(g.holder) {
                        6.0
                    } else if holder_up {
                        2.5
                    } else {
                        3.5
                    }
                }
                _ => 0.0,
            },
            _ => 0.0,
        };
        0.2 * self.worth(m) + bonus
    }

    /// Whether `m` is the enemy leader.
    pub fn is_enemy_leader(&self, m: ModelId) -> bool {
        self.is_enemy(m) && self.state.profile(m).role == Role::Leader
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

    /// Own conscious models.
    pub fn friends(&self) -> impl Iterator<Item = ModelId> + '_ {
        self.models_of(self.side, true)
    }

    /// Enemy models on the table (down ones included when `conscious` is false): the other
    /// player's and any AI dinosaurs, which attack both players.
    pub fn enemies(&self, conscious: bool) -> impl Iterator<Item = ModelId> + '_ {
        self.models_where(self.side, false, conscious)
    }

    fn models_of(&self, side: Side, conscious: bool) -> impl Iterator<Item = ModelId> + '_ {
        self.models_where(side, true, conscious)
    }

    /// Models of `side` (`of_side`) or of every other side.
    fn models_where(&self, side: Side, of_side: bool, conscious: bool) -> impl Iterator<Item = ModelId> + '_ {
        let models = self.state.models();
        (0..models.len() as ModelId).filter(move |&m| {
            let mm = &models[m as usize];
            (mm.side == side) == of_side && if conscious { mm.is_conscious() } else { mm.is_on_table() }
        })
    }
}

/// The side's leader, if it has one.
pub(crate) fn leader(state: &GameState, side: Side) -> Option<ModelId> {
    (0..state.models().len() as ModelId)
        .find(|&m| state.models()[m as usize].side == side && state.profile(m).role == Role::Leader)
}

fn health(state: &GameState, m: ModelId) -> Health {
    state.models()[m as usize].health
}

/// A "Character" for the scenarios (not a troop, cavalry or beast).
pub(crate) fn is_character(state: &GameState, m: ModelId) -> bool {
    state.profile(m).model_type == ModelType::Character
}

/// Beasts and cavalry never interact nor carry objectives (p.61).
pub(crate) fn can_carry(state: &GameState, m: ModelId) -> bool {
    !matches!(state.profile(m).model_type, ModelType::Beast | ModelType::Cavalry)
}
