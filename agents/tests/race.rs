//! The racing search (`agents::race`) on a tiny game with large shared luck: common random
//! numbers let a few rounds find a small edge that independent rollouts could not, the
//! ranker's move stands until the rollouts beat it, and the race stops once it is decided.

use agents::mcts::{Ranker, RolloutPolicy};
use agents::race::{RaceAgent, RaceConfig};
use agents::spec::check_params;
use agents::{Agent, Game, NeutralEvaluator, RandomAgent, Turn};
use rand::RngCore;
use std::sync::Arc;

/// Player 0 picks a plan (0, 1 or 2); then a die with 100 faces decides most of the result,
/// the same die whatever the plan. Plan 1 is worth 0.05 more than plan 0 and plan 2 0.02
/// more, against a luck that swings the result by ±0.9.
#[derive(Clone, Debug, PartialEq)]
struct LuckyPlans {
    plan: Option<u8>,
    die: Option<u8>,
}

/// What each plan adds to the die's share.
const EDGE: [f64; 3] = [0.0, 0.05, 0.02];

impl Game for LuckyPlans {
    type Action = u8;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match (self.plan, self.die) {
            (None, _) => Turn::Player(0),
            (Some(_), None) => Turn::Chance,
            _ => Turn::Terminal,
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<u8>) {
        out.clear();
        match self.turn() {
            Turn::Player(_) => out.extend(0..3),
            Turn::Chance => out.extend(0..100),
            Turn::Terminal => {}
        }
    }

    fn apply(&mut self, a: u8) -> Result<(), String> {
        match self.turn() {
            Turn::Player(_) if a < 3 => self.plan = Some(a),
            Turn::Chance if a < 100 => self.die = Some(a),
            _ => return Err(format!("illegal {a}")),
        }
        Ok(())
    }

    fn chance_outcomes(&self) -> Vec<(u8, f64)> {
        if self.turn() == Turn::Chance {
            (0..100).map(|d| (d, 0.01)).collect()
        } else {
            Vec::new()
        }
    }

    fn returns(&self) -> Vec<f64> {
        let (Some(plan), Some(die)) = (self.plan, self.die) else { return vec![0.0, 0.0] };
        let v = 0.9 * (die as f64 / 49.5 - 1.0) + EDGE[plan as usize];
        vec![v, -v]
    }

    fn observation(&self, _player: usize) -> String {
        format!("{self:?}")
    }

    fn information_state_key(&self, _player: usize) -> u64 {
        self.plan.map_or(9, u64::from) * 1000 + self.die.map_or(999, u64::from)
    }

    fn determinize(&self, _player: usize, _rng: &mut dyn RngCore) -> LuckyPlans {
        self.clone()
    }
}

/// Ranks the plans in a fixed order.
struct InOrder(Vec<u8>);

impl Ranker<LuckyPlans> for InOrder {
    fn rank(&mut self, _state: &LuckyPlans, legal: &mut Vec<u8>) {
        legal.sort_by_key(|a| self.0.iter().position(|b| b == a));
    }
}

fn race(config: &str, order: &[u8], seed: u64) -> RaceAgent<LuckyPlans> {
    let args = check_params("race", &RaceConfig::PARAMS, config).unwrap();
    let policy: RolloutPolicy<LuckyPlans> = Arc::new(|s| Box::new(RandomAgent::new(s)));
    RaceAgent::new(
        RaceConfig::from_args(&args).unwrap(),
        Arc::new(NeutralEvaluator),
        policy,
        Box::new(InOrder(order.to_vec())),
        "rank=order",
        seed,
    )
}

/// Rollouts each plan got in the last race, in plan order.
fn rollouts(agent: &RaceAgent<LuckyPlans>) -> Vec<f64> {
    let mut got = agent.last_search().unwrap();
    got.sort_by_key(|(a, _)| *a);
    got.into_iter().map(|(_, n)| n).collect()
}

#[test]
fn paired_rollouts_find_a_small_edge_under_large_luck_in_a_few_rounds() {
    // The ranker puts plan 0 first. Every round the three plans meet the same die, so their
    // differences are exactly the edges: after the eight rounds before any drop, plan 1 leads
    // and the others are dropped with no doubt left, long before the 1,000 rounds allowed.
    let start = LuckyPlans { plan: None, die: None };
    for seed in 0..5 {
        let mut agent = race("rounds=1000,min=8", &[0, 2, 1], seed);
        assert_eq!(agent.select_action(&start), 1, "seed {seed}");
        assert_eq!(
            rollouts(&agent),
            [8.0, 9.0, 8.0],
            "seed {seed}: eight rounds, the move counted once more"
        );
    }
}

#[test]
fn the_rankers_move_stands_until_the_rollouts_beat_it() {
    // With only the ranker's first two plans raced and plan 1 first, plan 1 is never beaten.
    let start = LuckyPlans { plan: None, die: None };
    let mut agent = race("rounds=50,width=2", &[1, 0, 2], 3);
    assert_eq!(agent.select_action(&start), 1);
    // Before the first drop is allowed (min 8), the ranker's first is played even where it
    // is not the best: a budget of four rounds plays plan 0.
    let mut agent = race("rounds=4", &[0, 1, 2], 3);
    assert_eq!(agent.select_action(&start), 0);
    assert_eq!(rollouts(&agent), [5.0, 4.0, 4.0]);
}

#[test]
fn a_race_is_reproducible_from_its_seed() {
    let start = LuckyPlans { plan: None, die: None };
    let runs: Vec<Vec<Vec<f64>>> = (0..2)
        .map(|_| {
            race("rounds=20,min=20", &[0, 1, 2], 11).race(&start).into_iter().map(|r| r.values).collect()
        })
        .collect();
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0][0].len(), 20);
    // Common dice: in each round the plans' values differ by their edges exactly.
    for (round, (plan1, plan0)) in runs[0][1].iter().zip(&runs[0][0]).enumerate() {
        let d = plan1 - plan0;
        assert!((d - 0.05).abs() < 1e-9, "round {round}: {d}");
    }
}

#[test]
fn race_parameters_are_checked_and_named_back() {
    let args = check_params("race", &RaceConfig::PARAMS, "ms=50,width=3,z=2.5,depth=12").unwrap();
    let config = RaceConfig::from_args(&args).unwrap();
    assert_eq!((config.millis, config.width, config.z, config.depth), (Some(50), 3, 2.5, Some(12)));
    assert_eq!(config.spec(), "ms=50,depth=12,width=3,z=2.5,min=8");
    let both = check_params("race", &RaceConfig::PARAMS, "ms=50,rounds=9").unwrap();
    assert!(RaceConfig::from_args(&both).unwrap_err().contains("not both"));
    assert!(check_params("race", &RaceConfig::PARAMS, "width=0").is_err());
    assert!(check_params("race", &RaceConfig::PARAMS, "speed=3").is_err());
}
