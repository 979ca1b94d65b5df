//! How closely a network's policy follows an expert, by kind of decision and by scenario
//! (`tde probe policy`): games of the expert against an opponent, and at each of the
//! expert's decisions with a choice, whether the network's most likely action is the
//! expert's and what probability it gives it. A network taught by imitation shows here which
//! decisions it has not learned: the destination of a move, which model activates, when to
//! end an activation.

use crate::play::make_agent;
use crate::probes::Judge;
use crate::probes::{DecisionSampler, Probe};
use agents::{Agent, Game, PolicyValue};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::{Action, GameState};
use serde_json::Value;
use std::collections::BTreeMap;

/// Agreement with the expert over a set of its decisions.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Agreement {
    /// The expert's decisions with more than one legal action.
    pub decisions: usize,
    /// Of those, the ones where the network's most likely action is the expert's.
    pub agreed: usize,
    /// Mean probability the network gives the expert's action.
    pub expert_probability: f64,
}

impl Agreement {
    /// Share of decisions agreed (0 when there were none).
    pub fn rate(&self) -> f64 {
        self.agreed as f64 / self.decisions.max(1) as f64
    }

    /// Count one more decision: whether it was agreed and the expert's action's probability.
    fn add(&mut self, agreed: bool, probability: f64) {
        let n = self.decisions as f64;
        self.expert_probability = (self.expert_probability * n + probability) / (n + 1.0);
        self.decisions += 1;
        self.agreed += agreed as usize;
    }

    /// Add another set of decisions to these.
    pub fn merge(&mut self, other: &Agreement) {
        let (a, b) = (self.decisions as f64, other.decisions as f64);
        if a + b > 0.0 {
            self.expert_probability = (self.expert_probability * a + other.expert_probability * b) / (a + b);
        }
        self.decisions += other.decisions;
        self.agreed += other.agreed;
    }
}

/// Agreement on one scenario, in all and by the kind of the expert's action.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ScenarioAgreement {
    /// The scenario's name.
    pub scenario: String,
    /// Games played.
    pub games: u32,
    /// Over every judged decision.
    #[serde(flatten)]
    pub all: Agreement,
    /// By the kind of action the expert chose (as game records name it: `move`,
    /// `activate`, `end_activation`, ...).
    pub kinds: BTreeMap<String, Agreement>,
}

/// The name of an action's kind, as game records write it.
pub fn action_kind(action: &Action) -> String {
    match serde_json::to_value(action) {
        Ok(serde_json::Value::String(name)) => name,
        Ok(serde_json::Value::Object(fields)) => fields.keys().next().cloned().unwrap_or_default(),
        _ => String::from("other"),
    }
}

/// How the policy probe plays its games.
#[derive(Clone, Debug)]
pub struct PolicyPlan {
    /// The expert whose decisions are the answers (a spec `make_agent` takes).
    pub expert: String,
    /// The expert's opponent (a spec `make_agent` takes).
    pub opponent: String,
    /// Games per scenario, the expert on side A in even games and side B in odd ones.
    pub games: u32,
    /// Seed of the games.
    pub seed: u64,
}

impl Probe for PolicyPlan {
    type Judged = BTreeMap<String, Agreement>;
    type Record = ScenarioAgreement;

    fn games(&self) -> u32 {
        self.games
    }

    fn judge_game(
        &self,
        network: &Judge,
        config: &GameConfig,
        game: u64,
    ) -> Result<BTreeMap<String, Agreement>, String> {
        let seed = self.seed.wrapping_add(game);
        let state = new_game(config).map_err(|e| e.to_string())?;
        let expert_side = (game % 2) as usize;
        let mut players: Vec<Box<dyn Agent<GameState>>> = vec![
            make_agent(&self.expert, seed.wrapping_mul(2))?,
            make_agent(&self.opponent, seed.wrapping_mul(2).wrapping_add(1))?,
        ];
        if expert_side == 1 {
            players.swap(0, 1);
        }
        let sampler = DecisionSampler { every: 1, side: Some(expert_side), opening: true };
        let mut kinds: BTreeMap<String, Agreement> = BTreeMap::new();
        sampler.play(state, &mut players, seed, |decision| {
            let out = PolicyValue::evaluate(network, &[(decision.state, decision.mover)])?;
            let priors = &out[0].priors;
            let chosen = Game::legal_actions(decision.state)
                .iter()
                .position(|a| *a == decision.action)
                .ok_or("the expert played an illegal action")?;
            // The first most likely action, as the policy agent plays.
            let best = priors.iter().enumerate().fold(0, |b, (i, &x)| if x > priors[b] { i } else { b });
            kinds
                .entry(action_kind(&decision.action))
                .or_default()
                .add(best == chosen, priors[chosen] as f64);
            Ok(())
        })?;
        Ok(kinds)
    }

    fn summarize(&self, scenario: Scenario, judged: Vec<BTreeMap<String, Agreement>>) -> ScenarioAgreement {
        let mut kinds: BTreeMap<String, Agreement> = BTreeMap::new();
        for game in &judged {
            for (kind, a) in game {
                kinds.entry(kind.clone()).or_default().merge(a);
            }
        }
        let mut all = Agreement::default();
        kinds.values().for_each(|a| all.merge(a));
        ScenarioAgreement { scenario: scenario.name().to_string(), games: self.games, all, kinds }
    }

    fn settings(&self) -> Vec<(&'static str, Value)> {
        vec![("expert", Value::from(self.expert.as_str())), ("opponent", Value::from(self.opponent.as_str()))]
    }

    fn text(&self, net: &str, records: &[ScenarioAgreement]) -> String {
        let mut all = BTreeMap::<String, Agreement>::new();
        let mut out = format!(
            "policy of {} against the choices of {} (playing {}), {} games per scenario:\n",
            net, self.expert, self.opponent, self.games
        );
        out.push_str(
            "  scenario             decisions   top-1 agreement   probability of the expert's action\n",
        );
        for r in records {
            out.push_str(&row(&r.scenario, &r.all));
            for (kind, a) in &r.kinds {
                all.entry(kind.clone()).or_default().merge(a);
            }
        }
        out.push_str("  by the kind of the expert's action, every scenario:\n");
        for (kind, a) in &all {
            out.push_str(&row(kind, a));
        }
        out.push_str("  (decisions with more than one legal action; top-1: the network's most likely action is the expert's)");
        out
    }
}

/// One line of the text table: a scenario's or a kind's agreement.
fn row(name: &str, a: &Agreement) -> String {
    format!("  {:<20} {:>9} {:>16.1}% {:>20.3}\n", name, a.decisions, 100.0 * a.rate(), a.expert_probability)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreements_add_up_and_average_the_probability() {
        let mut a = Agreement::default();
        a.add(true, 0.8);
        a.add(false, 0.2);
        assert_eq!((a.decisions, a.agreed), (2, 1));
        assert!((a.expert_probability - 0.5).abs() < 1e-12);
        let mut b = Agreement::default();
        b.add(true, 1.0);
        a.merge(&b);
        assert_eq!((a.decisions, a.agreed), (3, 2));
        assert!((a.expert_probability - 2.0 / 3.0).abs() < 1e-12);
        assert!((a.rate() - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(Agreement::default().rate(), 0.0);
    }

    #[test]
    fn action_kinds_are_named_as_in_game_records() {
        assert_eq!(action_kind(&Action::EndActivation), "end_activation");
        assert_eq!(action_kind(&Action::Activate(2)), "activate");
    }
}
