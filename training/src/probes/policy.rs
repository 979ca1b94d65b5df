//! How closely a network's policy follows an expert, by kind of decision and by scenario
//! (`tde policy-check`): games of the expert against an opponent, and at each of the
//! expert's decisions with a choice, whether the network's most likely action is the
//! expert's and what probability it gives it. A network taught by imitation shows here which
//! decisions it has not learned: the destination of a move, which model activates, when to
//! end an activation.

use crate::network::loaded::Network;
use agents::{Agent, Game, PolicyValue, Turn};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::{Action, GameState};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
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

/// Judge `games` games per scenario of `expert` against `opponent` (specs `make_agent`
/// takes), the expert on side A in even games and side B in odd ones, seeded by `seed`, on
/// `config`'s board and crews.
pub fn policy_records(
    network: &Network,
    expert: &str,
    opponent: &str,
    config: &GameConfig,
    games: u32,
    seed: u64,
) -> Result<Vec<ScenarioAgreement>, String> {
    Scenario::ALL
        .into_iter()
        .map(|scenario| {
            let config = GameConfig { scenario, ..config.clone() };
            let judged: Vec<BTreeMap<String, Agreement>> = (0..games as u64)
                .into_par_iter()
                .map(|g| judge_game(network, expert, opponent, &config, g, seed.wrapping_add(g)))
                .collect::<Result<_, _>>()?;
            let mut kinds: BTreeMap<String, Agreement> = BTreeMap::new();
            for game in &judged {
                for (kind, a) in game {
                    kinds.entry(kind.clone()).or_default().merge(a);
                }
            }
            let mut all = Agreement::default();
            kinds.values().for_each(|a| all.merge(a));
            Ok(ScenarioAgreement { scenario: scenario.name().to_string(), games, all, kinds })
        })
        .collect()
}

/// One game's agreement by kind of action.
fn judge_game(
    network: &Network,
    expert: &str,
    opponent: &str,
    config: &GameConfig,
    game: u64,
    seed: u64,
) -> Result<BTreeMap<String, Agreement>, String> {
    let mut state = new_game(config).map_err(|e| e.to_string())?;
    let expert_side = (game % 2) as usize;
    let mut players: Vec<Box<dyn Agent<GameState>>> = vec![
        crate::play::make_agent(expert, seed.wrapping_mul(2))?,
        crate::play::make_agent(opponent, seed.wrapping_mul(2).wrapping_add(1))?,
    ];
    if expert_side == 1 {
        players.swap(0, 1);
    }
    let mut dice = ChaCha8Rng::seed_from_u64(seed);
    let mut kinds: BTreeMap<String, Agreement> = BTreeMap::new();
    loop {
        let action = match Game::turn(&state) {
            Turn::Terminal => return Ok(kinds),
            Turn::Chance => Game::sample_chance(&state, &mut dice).ok_or("a chance node without outcomes")?,
            Turn::Player(p) => {
                let action = players[p].select_action(&state);
                let legal = Game::legal_actions(&state);
                if p == expert_side && legal.len() > 1 {
                    let out = PolicyValue::evaluate(network, &[(&state, p)])?;
                    let priors = &out[0].priors;
                    let chosen = legal
                        .iter()
                        .position(|a| *a == action)
                        .ok_or("the expert played an illegal action")?;
                    // The first most likely action, as the policy agent plays.
                    let best =
                        priors.iter().enumerate().fold(0, |b, (i, &x)| if x > priors[b] { i } else { b });
                    kinds.entry(action_kind(&action)).or_default().add(best == chosen, priors[chosen] as f64);
                }
                action
            }
        };
        Game::apply(&mut state, action)?;
    }
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
