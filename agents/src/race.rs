//! Racing the root's candidates on paired rollouts: a flat search for any [`Game`] whose
//! candidates are compared with common random numbers.
//!
//! A ranker (the scripted player, or the fast network's policy) chooses the root's `width`
//! best actions. The search then plays **rounds**: in round `r` every candidate still in the
//! race is played from the same determinization of the root, and its rollout (the rollout
//! player for `depth` decisions, then the [`Evaluator`]) draws its dice and its players'
//! tie-breaks from the same seed. Two candidates' rollouts of one round thus meet the same
//! luck until their games part, and the difference of their values is far less noisy than
//! the difference of two independent rollouts (the method of common random numbers, as in
//! the paired comparisons of simulation studies).
//!
//! After each round from the `min_rounds`-th, a candidate is **dropped** when the leader (the
//! best mean so far) beats it by more than `z` standard errors of their paired differences:
//! the budget goes to the candidates still in doubt, and a move whose best candidate is clear
//! is played early, before its time budget is spent. The move is the ranker's first candidate
//! until the race drops it (so a short budget plays the ranker's move, and the rollouts
//! overrule it only when they show another is better), then the leader. Budget: rounds, or milliseconds a move
//! (whole rounds only: a round the clock cuts short is not counted). Decisions with one legal
//! action are taken without search.

use crate::game::{Game, Turn};
use crate::mcts::{Evaluator, Ranker, RolloutPolicy};
use crate::spec::{Args, Param};
use crate::Agent;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The race's settings, from `race:ms=20,width=6,...`.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceConfig {
    /// Most rounds a move (each one rollout of every candidate left).
    pub rounds: u32,
    /// Time budget a move in milliseconds; replaces `rounds` when set.
    pub millis: Option<u64>,
    /// Rollout length in decisions before the evaluator judges; `None` plays to the end.
    pub depth: Option<u32>,
    /// The ranker's best actions raced.
    pub width: usize,
    /// Standard errors of the paired differences by which the leader must lead to drop a
    /// candidate.
    pub z: f64,
    /// Rounds played before any candidate may be dropped.
    pub min_rounds: u32,
    /// With a ranker that has a policy: play its first action at once when it gives it at
    /// least this probability; `None` always races.
    pub sure: Option<f64>,
}

impl Default for RaceConfig {
    fn default() -> Self {
        RaceConfig { rounds: 64, millis: None, depth: Some(20), width: 6, z: 3.0, min_rounds: 8, sure: None }
    }
}

impl RaceConfig {
    /// The settings a race spec takes.
    pub const PARAMS: [Param; 7] = [
        Param::int(
            "rounds",
            1,
            1_000_000,
            "most rounds a move, each a rollout of every candidate left (default 64)",
        ),
        Param::MILLIS,
        Param::int(
            "depth",
            1,
            100_000,
            "rollout length in decisions before the evaluator judges (default 20)",
        ),
        Param::int("width", 1, 64, "the ranker's best actions raced (default 6)"),
        Param::real(
            "z",
            0.0,
            100.0,
            "standard errors of the paired differences that drop a candidate (default 3)",
        ),
        Param::int("min", 2, 1_000_000, "rounds before any candidate is dropped (default 8)"),
        Param::real(
            "sure",
            0.5,
            1.0,
            "with a network ranking: play its first action at once at this probability",
        ),
    ];

    /// The settings of checked parameters (any beyond [`RaceConfig::PARAMS`] are ignored); a
    /// spec giving both `rounds` and `ms` is refused.
    pub fn from_args(args: &Args) -> Result<RaceConfig, String> {
        let d = RaceConfig::default();
        let (rounds, millis) = args.budget("rounds")?;
        Ok(RaceConfig {
            rounds: rounds.map_or(d.rounds, |n| n as u32),
            millis,
            depth: args.int("depth").map_or(d.depth, |n| Some(n as u32)),
            width: args.int("width").map_or(d.width, |n| n as usize),
            z: args.real("z").unwrap_or(d.z),
            min_rounds: args.int("min").map_or(d.min_rounds, |n| n as u32),
            sure: args.real("sure"),
        })
    }

    /// The settings as a race spec takes them back (its parameters, without the name).
    pub fn spec(&self) -> String {
        let budget = match self.millis {
            Some(ms) => format!("ms={ms}"),
            None => format!("rounds={}", self.rounds),
        };
        let depth = self.depth.map(|d| format!(",depth={d}")).unwrap_or_default();
        let sure = self.sure.map(|p| format!(",sure={p}")).unwrap_or_default();
        format!("{budget}{depth},width={},z={},min={}{sure}", self.width, self.z, self.min_rounds)
    }
}

/// One candidate of a race: its action and its rollouts' values, round by round.
#[derive(Clone, Debug)]
pub struct Runner<A> {
    /// The root action.
    pub action: A,
    /// Its rollouts' values for the searcher (over the game's return bound, in [-1, 1]), one a
    /// round while it ran.
    pub values: Vec<f64>,
    /// Whether it is still in the race.
    pub running: bool,
}

impl<A> Runner<A> {
    /// The mean of its values (0 before any).
    pub fn mean(&self) -> f64 {
        if self.values.is_empty() {
            0.0
        } else {
            self.values.iter().sum::<f64>() / self.values.len() as f64
        }
    }
}

/// The paired difference of `leader` over `other` on the rounds both ran: its mean and the
/// standard error of that mean (0 with fewer than two rounds).
pub fn paired_difference(leader: &[f64], other: &[f64]) -> (f64, f64) {
    let n = leader.len().min(other.len());
    if n == 0 {
        return (0.0, 0.0);
    }
    let d = |i: usize| leader[i] - other[i];
    let mean = (0..n).map(d).sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, 0.0);
    }
    let var = (0..n).map(|i| (d(i) - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    (mean, (var / n as f64).sqrt())
}

/// The racing agent.
pub struct RaceAgent<G: Game> {
    config: RaceConfig,
    evaluator: Arc<dyn Evaluator<G>>,
    rollout: RolloutPolicy<G>,
    ranker: Box<dyn Ranker<G>>,
    name: String,
    rng: ChaCha8Rng,
    /// The last race's runners (rollouts a candidate), for [`Agent::last_search`].
    last: Option<Vec<(G::Action, f64)>>,
}

impl<G: Game> RaceAgent<G> {
    /// A racing agent: `ranker` chooses the candidates, `rollout` builds the rollout player
    /// of each rollout from its seed, `evaluator` judges where rollouts stop; `label` names
    /// the ranker and rollout player in the agent's name (`race:...,rank=...`).
    pub fn new(
        config: RaceConfig,
        evaluator: Arc<dyn Evaluator<G>>,
        rollout: RolloutPolicy<G>,
        ranker: Box<dyn Ranker<G>>,
        label: &str,
        seed: u64,
    ) -> RaceAgent<G> {
        let name = format!("race:{},{label}", config.spec());
        RaceAgent {
            config,
            evaluator,
            rollout,
            ranker,
            name,
            rng: ChaCha8Rng::seed_from_u64(seed),
            last: None,
        }
    }

    /// Race the root's candidates from `state` (a decision): the runners in the ranker's
    /// order, with their values for the player to act. A move the ranker is sure of (see
    /// [`RaceConfig::sure`]) gives one runner and no rollout.
    pub fn race(&mut self, state: &G) -> Vec<Runner<G::Action>> {
        let Turn::Player(me) = state.turn() else { panic!("a race at a node that is not a decision") };
        // The budget starts before the ranker is asked: its time is the search's.
        let deadline = self.config.millis.map(|ms| Instant::now() + Duration::from_millis(ms));
        let mut legal = state.legal_actions();
        self.ranker.rank(state, &mut legal);
        legal.truncate(self.config.width.max(1));
        let mut runners: Vec<Runner<G::Action>> =
            legal.into_iter().map(|action| Runner { action, values: Vec::new(), running: true }).collect();
        let sure = self.config.sure.zip(self.ranker.top_probability());
        if runners.len() == 1 || sure.is_some_and(|(needed, p)| p >= needed) {
            runners.truncate(1);
            return runners;
        }
        let base: u64 = self.rng.gen();
        let mut round = 0u32;
        'rounds: while deadline.is_some() || round < self.config.rounds {
            let seed = base ^ (round as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            for i in 0..runners.len() {
                if !runners[i].running {
                    continue;
                }
                let value = self.rollout_value(state, me, runners[i].action, seed);
                runners[i].values.push(value);
                if round > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                    // A round the clock cut short does not count.
                    for r in runners.iter_mut() {
                        r.values.truncate(round as usize);
                    }
                    break 'rounds;
                }
            }
            round += 1;
            if round >= self.config.min_rounds && drop_the_beaten(&mut runners, self.config.z) {
                break;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        runners
    }

    /// The value for `me` of one rollout after `action`, every die and tie-break drawn from
    /// `seed`: over the game's return bound, clamped to [-1, 1].
    fn rollout_value(&self, root: &G, me: usize, action: G::Action, seed: u64) -> f64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = root.determinize(me, &mut rng);
        let mut player = (self.rollout)(seed);
        state.apply_legal(action);
        let mut decisions = 0;
        let returns = loop {
            match state.turn() {
                Turn::Terminal => break state.returns(),
                Turn::Chance => {
                    let a = state.sample_chance(&mut rng).expect("chance outcomes");
                    state.apply_legal(a);
                }
                Turn::Player(_) => {
                    if self.config.depth.is_some_and(|d| decisions >= d) {
                        break self.evaluator.evaluate(&state);
                    }
                    let a = player.select_action(&state);
                    state.apply_legal(a);
                    decisions += 1;
                }
            }
        };
        (returns[me] / state.return_bound()).clamp(-1.0, 1.0)
    }
}

/// How much common dice narrow a race's comparisons: over the pairs of the first runner with
/// each other (on the rounds both ran), the summed variance of the paired differences and the
/// summed variance the difference of independent rollouts would have (the sum of the two
/// runners' variances). Their ratio is 1 where pairing gains nothing and 0 where the luck
/// cancels wholly.
pub fn pairing_variances<A>(runners: &[Runner<A>]) -> (f64, f64) {
    let variance = |xs: &[f64]| {
        let m = xs.iter().sum::<f64>() / xs.len() as f64;
        xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64
    };
    let (mut paired, mut independent) = (0.0, 0.0);
    for other in runners.iter().skip(1) {
        let n = runners[0].values.len().min(other.values.len());
        if n < 2 {
            continue;
        }
        let (a, b) = (&runners[0].values[..n], &other.values[..n]);
        let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
        paired += variance(&d);
        independent += variance(a) + variance(b);
    }
    (paired, independent)
}

/// Drop every running candidate the leader (the best mean among the running) beats by more
/// than `z` standard errors of their paired differences; true when one is left.
pub fn drop_the_beaten<A>(runners: &mut [Runner<A>], z: f64) -> bool {
    let Some(leader) = leader(runners) else { return true };
    let lead = runners[leader].values.clone();
    for (i, r) in runners.iter_mut().enumerate() {
        if i != leader && r.running {
            let (mean, se) = paired_difference(&lead, &r.values);
            if mean > z * se && mean > 0.0 {
                r.running = false;
            }
        }
    }
    runners.iter().filter(|r| r.running).count() <= 1
}

/// The running candidate with the best mean; ties go to the first (the ranker's order).
pub fn leader<A>(runners: &[Runner<A>]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, r) in runners.iter().enumerate().filter(|(_, r)| r.running) {
        let m = r.mean();
        if best.is_none_or(|(_, b)| m > b) {
            best = Some((i, m));
        }
    }
    best.map(|(i, _)| i)
}

/// The move after a race: the ranker's first candidate while it is still in the race (the
/// rollouts have not shown that another beats it), else the leader.
pub fn choice<A: Copy>(runners: &[Runner<A>]) -> A {
    if runners[0].running {
        return runners[0].action;
    }
    leader(runners).map_or(runners[0].action, |i| runners[i].action)
}

impl<G: Game> Agent<G> for RaceAgent<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn last_search(&self) -> Option<Vec<(G::Action, f64)>> {
        self.last.clone()
    }

    fn select_action(&mut self, state: &G) -> G::Action {
        let legal = state.legal_actions();
        self.last = None;
        if legal.len() == 1 {
            return legal[0];
        }
        let runners = self.race(state);
        let choice = choice(&runners);
        // The rollouts each candidate got, the move counted once more so that it leads.
        self.last = Some(
            runners
                .iter()
                .map(|r| (r.action, r.values.len() as f64 + if r.action == choice { 1.0 } else { 0.0 }))
                .collect(),
        );
        choice
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runner(values: &[f64]) -> Runner<u8> {
        Runner { action: 0, values: values.to_vec(), running: true }
    }

    #[test]
    fn a_paired_difference_cancels_the_luck_both_rollouts_shared() {
        // Luck swings each round by ±1, the same for both; the leader is 0.1 better each time.
        let other: Vec<f64> = (0..20).map(|i| if i % 2 == 0 { 0.9 } else { -0.9 }).collect();
        let lead: Vec<f64> = other.iter().map(|v| v + 0.1).collect();
        let (mean, se) = paired_difference(&lead, &other);
        assert!((mean - 0.1).abs() < 1e-12);
        assert!(se < 1e-12, "no noise is left in the difference: {se}");
    }

    #[test]
    fn pairing_cancels_shared_luck_and_gains_nothing_on_independent_luck() {
        let luck: Vec<f64> = (0..40).map(|i| ((i * 7919) % 101) as f64 / 50.0 - 1.0).collect();
        let shifted: Vec<f64> = luck.iter().map(|v| v - 0.2).collect();
        let (paired, independent) = pairing_variances(&[runner(&luck), runner(&shifted)]);
        assert!(paired < 1e-12 && independent > 0.1, "{paired} {independent}");
        // Another, unrelated sequence of luck: pairing gains about nothing.
        let other: Vec<f64> = (0..40).map(|i| ((i * 104_729 + 13) % 97) as f64 / 48.0 - 1.0).collect();
        let (paired, independent) = pairing_variances(&[runner(&luck), runner(&other)]);
        assert!((0.6..1.4).contains(&(paired / independent)), "{paired} {independent}");
        assert_eq!(pairing_variances(&[runner(&luck)]), (0.0, 0.0));
    }

    #[test]
    fn the_beaten_are_dropped_and_the_close_kept() {
        let noise = |i: usize| ((i * 7919) % 13) as f64 / 13.0 - 0.5;
        let best: Vec<f64> = (0..16).map(|i| 0.3 + noise(i)).collect();
        let close: Vec<f64> =
            (0..16).map(|i| 0.3 + noise(i) + if i % 2 == 0 { 0.05 } else { -0.06 }).collect();
        let beaten: Vec<f64> =
            (0..16).map(|i| 0.1 + noise(i) + if i % 3 == 0 { 0.02 } else { 0.0 }).collect();
        let mut runners = vec![runner(&close), runner(&best), runner(&beaten)];
        let decided = drop_the_beaten(&mut runners, 3.0);
        assert!(!decided);
        assert_eq!(runners.iter().map(|r| r.running).collect::<Vec<_>>(), [true, true, false]);
        assert_eq!(leader(&runners), Some(1), "the leader by mean");
    }
}
