//! How well a network's value head foresees results, per scenario: games played by a given
//! agent on both sides, the network's value for the mover at sampled decisions compared with
//! the mover's final return (`tde probe value`). Search steers by these values, so a value
//! head that cannot tell winning from losing positions makes search no better than its policy.
//!
//! With `rollouts`, each judged decision is also played out that many times by the same agent
//! from there: the rollouts' mean return is what MCTS with that agent's rollouts estimates,
//! with the noise of one game's result averaged away. Its error against the result bounds
//! what any value head can reach on these games, and the head's distance from it says how
//! well the head stands in for those rollouts.

use crate::play::rollout::{players, rollout_mean};
use crate::probes::Judge;
use crate::probes::{DecisionSampler, Probe};
use agents::{Game, PolicyValue};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use serde_json::Value;

/// The value head's record on one scenario.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ValueRecord {
    /// The scenario's name.
    pub scenario: String,
    /// Games played.
    pub games: u32,
    /// Error and sign over all judged decisions (a value of 0 everywhere scores the share of
    /// decisive games as its error).
    #[serde(flatten)]
    pub all: PhaseRecord,
    /// Mean value given (0 for an unbiased head over both sides' decisions).
    pub mean_value: f64,
    /// Mean return of the movers at the judged decisions: beside `mean_value`, whether the
    /// head is optimistic (above it) or pessimistic for the player to move.
    pub mean_result: f64,
    /// The same error and sign figures for the first, middle and last third of each game's
    /// judged decisions: early on the dice have yet to decide much, near the end the result
    /// is mostly settled, so a good head's error falls through a game.
    pub by_third: Vec<PhaseRecord>,
    /// With rollouts: how their mean return compares with the result and with the head.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollouts: Option<RolloutRecord>,
}

/// The judged decisions' rollout estimates beside the result and the value head.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RolloutRecord {
    /// Rollouts per judged decision.
    pub per_position: u32,
    /// Mean squared error of the rollouts' mean return against the mover's result.
    pub mse_to_result: f64,
    /// Mean squared difference between the head's value and the rollouts' mean return.
    pub head_mse_to_rollouts: f64,
}

/// The value head's record on a set of judged decisions.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PhaseRecord {
    /// Decisions judged.
    pub positions: usize,
    /// Mean squared error of the value against the mover's return (win 1, draw 0, loss -1).
    pub mse: f64,
    /// Judged decisions of decisive games.
    pub decisive: usize,
    /// Of those, the ones whose value has the sign of the result.
    pub sign_right: usize,
}

/// A judged decision: the value given, the mover's return, which third of its game's judged
/// decisions it falls in (0, 1 or 2) and the rollouts' mean return (0 without rollouts).
type Judged = (f32, f64, usize, f64);

/// How the value probe plays and judges its games.
#[derive(Clone, Debug)]
pub struct ValuePlan {
    /// The agent playing both sides (a spec `make_agent` takes), and the rollouts.
    pub agent: String,
    /// Games per scenario.
    pub games: u32,
    /// Judge every this many decisions with a choice.
    pub every: usize,
    /// Rollouts from each judged decision (0: none).
    pub rollouts: u32,
    /// Seed of the games and rollouts.
    pub seed: u64,
}

impl Probe for ValuePlan {
    type Judged = Vec<Judged>;
    type Record = ValueRecord;

    fn games(&self) -> u32 {
        self.games
    }

    fn judge_game(&self, network: &Judge, config: &GameConfig, game: u64) -> Result<Vec<Judged>, String> {
        let seed = self.seed.wrapping_add(game);
        let state = new_game(config).map_err(|e| e.to_string())?;
        let mut players = players(&self.agent, seed)?;
        let sampler = DecisionSampler { every: self.every, side: None, opening: false };
        let mut judged: Vec<(usize, f32, f64)> = Vec::new();
        let end = sampler.play(state, &mut players, seed, |decision| {
            let rollout_seed = seed.wrapping_mul(1_000_003).wrapping_add(decision.count as u64);
            let out = PolicyValue::evaluate(network, &[(decision.state, decision.mover)])?;
            let rollouts =
                rollout_mean(decision.state, decision.mover, &self.agent, self.rollouts, rollout_seed)?;
            judged.push((decision.mover, out[0].value, rollouts));
            Ok(())
        })?;
        let returns = Game::returns(&end);
        let n = judged.len();
        Ok(judged
            .into_iter()
            .enumerate()
            .map(|(i, (mover, v, rollouts))| (v, returns[mover], 3 * i / n, rollouts))
            .collect())
    }

    fn summarize(&self, scenario: Scenario, judged: Vec<Vec<Judged>>) -> ValueRecord {
        let rollouts = (self.rollouts > 0).then_some(self.rollouts);
        record(scenario.name().to_string(), self.games, judged.concat(), rollouts)
    }

    fn settings(&self) -> Vec<(&'static str, Value)> {
        vec![("agent", Value::from(self.agent.as_str()))]
    }

    fn text(&self, net: &str, records: &[ValueRecord]) -> String {
        let mut out = format!(
        "value head of {} on games of {} (both sides), {} per scenario, every {}th decision with a choice:\n",
        net, self.agent, self.games, self.every
    );
        out.push_str(
        "  scenario             positions    mse   sign right (decisive)   mean value (result)   mse by third   sign right by third\n",
    );
        let percent = |right: usize, of: usize| 100.0 * right as f64 / of.max(1) as f64;
        for r in records {
            let thirds: Vec<String> = r.by_third.iter().map(|p| format!("{:.2}", p.mse)).collect();
            let signs: Vec<String> =
                r.by_third.iter().map(|p| format!("{:.0}%", percent(p.sign_right, p.decisive))).collect();
            out.push_str(&format!(
                "  {:<20} {:>9} {:>6.3} {:>6.1}% ({}/{}) {:>13.3} ({:>6.3})   {:<14} {}\n",
                r.scenario,
                r.all.positions,
                r.all.mse,
                percent(r.all.sign_right, r.all.decisive),
                r.all.sign_right,
                r.all.decisive,
                r.mean_value,
                r.mean_result,
                thirds.join(" "),
                signs.join(" ")
            ));
        }
        if self.rollouts > 0 {
            out.push_str(&format!(
                "  {} rollouts from each judged decision by {}:\n",
                self.rollouts, self.agent
            ));
            out.push_str("  scenario             rollout mse to result   head mse to rollouts\n");
            for (r, rollouts) in records.iter().filter_map(|r| Some((r, r.rollouts.as_ref()?))) {
                out.push_str(&format!(
                    "  {:<20} {:>21.3} {:>22.3}\n",
                    r.scenario, rollouts.mse_to_result, rollouts.head_mse_to_rollouts
                ));
            }
        }
        out.push_str("  (mse against the mover's result: win 1, draw 0, loss -1; a value of 0 everywhere scores the share of decisive games;\n");
        out.push_str("   mean value beside the movers' mean result: above it, the head is optimistic for the player to move;\n");
        out.push_str("   by third: the first, middle and last third of each game's judged decisions)");
        out
    }
}

/// A scenario's record from its judged decisions.
fn record(scenario: String, games: u32, judged: Vec<Judged>, rollouts: Option<u32>) -> ValueRecord {
    let mean = |f: &dyn Fn(&Judged) -> f64| judged.iter().map(f).sum::<f64>() / judged.len().max(1) as f64;
    let rollouts = rollouts.map(|per_position| RolloutRecord {
        per_position,
        mse_to_result: mean(&|&(_, r, _, m)| (m - r).powi(2)),
        head_mse_to_rollouts: mean(&|&(v, _, _, m)| (v as f64 - m).powi(2)),
    });
    ValueRecord {
        scenario,
        games,
        all: phase(judged.iter()),
        mean_value: mean(&|&(v, ..)| v as f64),
        mean_result: mean(&|&(_, r, ..)| r),
        by_third: (0..3).map(|third| phase(judged.iter().filter(|j| j.2 == third))).collect(),
        rollouts,
    }
}

/// The error and sign figures of a set of judged decisions.
fn phase<'a>(judged: impl Iterator<Item = &'a Judged> + Clone) -> PhaseRecord {
    let positions = judged.clone().count();
    let decisive = judged.clone().filter(|(_, r, ..)| *r != 0.0);
    PhaseRecord {
        positions,
        mse: judged.clone().map(|&(v, r, ..)| (v as f64 - r).powi(2)).sum::<f64>() / positions.max(1) as f64,
        decisive: decisive.clone().count(),
        sign_right: decisive.filter(|(v, r, ..)| (*v > 0.0) == (*r > 0.0)).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_gives_the_hand_computed_figures() {
        // Values 0.5 (won), -0.5 (won), 0 (drawn), -1 (lost), the first two early, the last
        // two late.
        // Rollout means 1, 0, 0, -0.5.
        let judged = vec![(0.5, 1.0, 0, 1.0), (-0.5, 1.0, 0, 0.0), (0.0, 0.0, 2, 0.0), (-1.0, -1.0, 2, -0.5)];
        let r = record("x".into(), 2, judged, Some(4));
        assert_eq!(r.all.positions, 4);
        assert!((r.all.mse - (0.25 + 2.25 + 0.0 + 0.0) / 4.0).abs() < 1e-12);
        assert_eq!((r.all.decisive, r.all.sign_right), (3, 2));
        assert!((r.mean_value - (-0.25)).abs() < 1e-12);
        assert!((r.mean_result - 0.25).abs() < 1e-12);
        let [early, middle, late] = [&r.by_third[0], &r.by_third[1], &r.by_third[2]];
        assert_eq!((early.positions, early.decisive, early.sign_right), (2, 2, 1));
        assert!((early.mse - 1.25).abs() < 1e-12);
        assert_eq!((middle.positions, middle.mse), (0, 0.0));
        assert_eq!((late.positions, late.decisive, late.sign_right), (2, 1, 1));
        assert!(late.mse.abs() < 1e-12);
        let rollouts = r.rollouts.unwrap();
        assert_eq!(rollouts.per_position, 4);
        assert!((rollouts.mse_to_result - (0.0 + 1.0 + 0.0 + 0.25) / 4.0).abs() < 1e-12);
        assert!((rollouts.head_mse_to_rollouts - (0.25 + 0.25 + 0.0 + 0.25) / 4.0).abs() < 1e-12);
    }
}
