//! Monte Carlo tree search for any [`Game`], with chance nodes and hidden information.
//!
//! - **Information sets.** Every iteration starts from a fresh determinization of the root
//!   (`Game::determinize` for the searching player), so the search never reads what its
//!   player cannot see. The tree is keyed on action sequences (single-observer information-set
//!   MCTS): at a node only the children legal in the current determinization compete, and
//!   UCT's exploration term uses their availability, not the parent's visits.
//! - **Chance nodes** are sampled with their exact probabilities; each outcome has its child.
//! - **Selection** is UCT (`c` weighs exploration) with each node's value taken from the
//!   point of view of the player who chose the edge into it.
//! - **Leaf evaluation** is pluggable: a rollout for up to `rollout_depth` decisions by a
//!   policy ([`RolloutPolicy`]: uniform random by default, or any agent, such as the scripted
//!   TDE player), then the [`Evaluator`]'s estimate (or the returns when the game has ended).
//!   The learned value function plugs in here later.
//! - **Candidates**: an optional [`Ranker`] (the scripted TDE player, later a learned policy)
//!   orders the legal actions; search then considers only the `width` best at each decision
//!   and selects by PUCT with priors halving by rank. Without one, every legal action
//!   competes under plain UCT.
//! - **Budget**: iterations, or milliseconds (`ms`), per decision. Decisions with one legal
//!   action are taken without search.
//! - **Root parallelism**: `threads` independent trees, each with its own seed and share of
//!   the iterations, run with rayon; their root visit counts are summed.

use crate::game::{Game, Turn};
use crate::Agent;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Estimates a non-terminal state's value for each player, in [-1, 1].
pub trait Evaluator<G: Game>: Send + Sync {
    /// The estimated returns of `state`.
    fn evaluate(&self, state: &G) -> Vec<f64>;
}

/// Values every non-terminal state as a draw: search then relies on rollouts alone.
pub struct NeutralEvaluator;

impl<G: Game> Evaluator<G> for NeutralEvaluator {
    fn evaluate(&self, state: &G) -> Vec<f64> {
        vec![0.0; state.num_players()]
    }
}

/// Orders legal actions best first, so that search can look at the best few.
pub trait Ranker<G: Game>: Send {
    /// Reorder `legal` (the legal actions at a decision of `state`), best first.
    fn rank(&mut self, state: &G, legal: &mut Vec<G::Action>);
}

/// Builds the ranker of one search tree from a seed.
pub type RankerFactory<G> = Arc<dyn Fn(u64) -> Box<dyn Ranker<G>> + Send + Sync>;

/// Builds the rollout player of one search tree from a seed (each tree gets its own).
pub type RolloutPolicy<G> = Arc<dyn Fn(u64) -> Box<dyn Agent<G>> + Send + Sync>;

/// MCTS settings, parsed from `mcts:iters=800,c=1.2,...`.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per decision (shared by the threads).
    pub iterations: u32,
    /// Time budget per decision in milliseconds; replaces `iterations` when set.
    pub millis: Option<u64>,
    /// UCT exploration constant.
    pub c: f64,
    /// Random rollout length in decisions before the evaluator is asked (0: evaluate at once).
    pub rollout_depth: u32,
    /// Independent trees searched in parallel.
    pub threads: usize,
    /// With a ranker, the number of best-ranked actions searched at each decision.
    pub width: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig { iterations: 400, millis: None, c: 1.4, rollout_depth: 20, threads: 1, width: 5 }
    }
}

impl MctsConfig {
    /// Parse `key=value` pairs (`iters`, `ms`, `c`, `depth`, `threads`, `width`) separated by
    /// commas;
    /// an empty string gives the defaults.
    pub fn parse(params: &str) -> Result<MctsConfig, String> {
        let mut cfg = MctsConfig::default();
        for pair in params.split(',').filter(|p| !p.is_empty()) {
            let (k, v) =
                pair.split_once('=').ok_or_else(|| format!("mcts parameter `{pair}` is not key=value"))?;
            let bad = |what: &str| format!("mcts parameter `{k}`: `{v}` is not {what}");
            match k {
                "iters" => {
                    cfg.iterations =
                        v.parse().ok().filter(|&n| n > 0).ok_or_else(|| bad("a positive integer"))?
                }
                "ms" => {
                    cfg.millis =
                        Some(v.parse().ok().filter(|&n| n > 0).ok_or_else(|| bad("a positive integer"))?)
                }
                "c" => {
                    cfg.c = v
                        .parse()
                        .ok()
                        .filter(|x: &f64| x.is_finite() && *x >= 0.0)
                        .ok_or_else(|| bad("a number ≥ 0"))?
                }
                "depth" => cfg.rollout_depth = v.parse().map_err(|_| bad("an integer"))?,
                "threads" => {
                    cfg.threads =
                        v.parse().ok().filter(|&n| n > 0).ok_or_else(|| bad("a positive integer"))?
                }
                "width" => {
                    cfg.width = v.parse().ok().filter(|&n| n > 0).ok_or_else(|| bad("a positive integer"))?
                }
                _ => {
                    return Err(format!("unknown mcts parameter `{k}` (iters, ms, c, depth, threads, width)"))
                }
            }
        }
        Ok(cfg)
    }

    /// The parameters as `mcts` accepts them back.
    pub fn spec(&self) -> String {
        let budget = match self.millis {
            Some(ms) => format!("ms={ms}"),
            None => format!("iters={}", self.iterations),
        };
        format!(
            "mcts:{budget},c={},depth={},threads={},width={}",
            self.c, self.rollout_depth, self.threads, self.width
        )
    }
}

/// One node of a search tree.
struct Node<A> {
    /// Visits through this node.
    visits: u32,
    /// Sum of the values backed up through it, from the view of the player who moved into it.
    value: f64,
    /// Times it was available (legal) when its parent was visited.
    available: u32,
    /// Children by action (ordered, so that search is reproducible).
    children: BTreeMap<A, u32>,
}

impl<A> Node<A> {
    fn new() -> Node<A> {
        Node { visits: 0, value: 0.0, available: 0, children: BTreeMap::new() }
    }
}

/// The MCTS agent.
pub struct MctsAgent<G: Game> {
    config: MctsConfig,
    evaluator: Arc<dyn Evaluator<G>>,
    rollout: Option<RolloutPolicy<G>>,
    ranker: Option<RankerFactory<G>>,
    name: String,
    rng: ChaCha8Rng,
}

impl<G: Game> MctsAgent<G> {
    /// An MCTS agent with its settings, leaf evaluator and seed; rollouts play at random.
    pub fn new(config: MctsConfig, evaluator: Arc<dyn Evaluator<G>>, seed: u64) -> MctsAgent<G> {
        let name = config.spec();
        MctsAgent {
            config,
            evaluator,
            rollout: None,
            ranker: None,
            name,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Roll out with `policy` instead of random play; `label` names it in the agent's name.
    pub fn with_rollout(mut self, policy: RolloutPolicy<G>, label: &str) -> MctsAgent<G> {
        self.rollout = Some(policy);
        self.name = format!("{},rollout={label}", self.name);
        self
    }

    /// Search only the `width` best actions by `ranker`; `label` names it.
    pub fn with_ranker(mut self, ranker: RankerFactory<G>, label: &str) -> MctsAgent<G> {
        self.ranker = Some(ranker);
        self.name = format!("{},rank={label}", self.name);
        self
    }

    /// Root visit counts per action after searching from `state` (for the player to act).
    pub fn search(&mut self, state: &G) -> BTreeMap<G::Action, u32> {
        let Turn::Player(me) = state.turn() else { panic!("search at a node that is not a decision") };
        let threads = self.config.threads.max(1);
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.gen()).collect();
        let deadline = self.config.millis.map(|ms| Instant::now() + Duration::from_millis(ms));
        let per_thread = self.config.iterations.div_ceil(threads as u32);
        let run = |seed: u64| {
            let policy = self.rollout.as_ref().map(|make| make(seed ^ 0x9e37_79b9_7f4a_7c15));
            let ranker = self.ranker.as_ref().map(|make| make(seed ^ 0x2545_f491_4f6c_dd1d));
            let mut tree = Tree::new(state, me, seed, &self.config, self.evaluator.as_ref(), policy);
            tree.ranker = ranker;
            let mut done = 0u32;
            while deadline.map_or(done < per_thread, |d| done == 0 || Instant::now() < d) {
                tree.iterate();
                done += 1;
            }
            tree.root_visits()
        };
        let results: Vec<BTreeMap<G::Action, u32>> =
            if threads == 1 { vec![run(seeds[0])] } else { seeds.par_iter().map(|&s| run(s)).collect() };
        let mut total = BTreeMap::new();
        for r in results {
            for (a, n) in r {
                *total.entry(a).or_insert(0) += n;
            }
        }
        total
    }
}

impl<G: Game> Agent<G> for MctsAgent<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_action(&mut self, state: &G) -> G::Action {
        let legal = state.legal_actions();
        if legal.len() == 1 {
            return legal[0];
        }
        let visits = self.search(state);
        // Most visits; ties go to the first in action order.
        let mut best = legal[0];
        let mut most = 0;
        for a in legal {
            let n = visits.get(&a).copied().unwrap_or(0);
            if n > most {
                most = n;
                best = a;
            }
        }
        best
    }
}

/// One search tree over determinizations of a root.
struct Tree<'a, G: Game> {
    root: &'a G,
    me: usize,
    nodes: Vec<Node<G::Action>>,
    rng: ChaCha8Rng,
    config: &'a MctsConfig,
    evaluator: &'a dyn Evaluator<G>,
    policy: Option<Box<dyn Agent<G>>>,
    ranker: Option<Box<dyn Ranker<G>>>,
    legal: Vec<G::Action>,
    path: Vec<(u32, usize)>,
}

impl<'a, G: Game> Tree<'a, G> {
    fn new(
        root: &'a G,
        me: usize,
        seed: u64,
        config: &'a MctsConfig,
        evaluator: &'a dyn Evaluator<G>,
        policy: Option<Box<dyn Agent<G>>>,
    ) -> Self {
        Tree {
            root,
            me,
            nodes: vec![Node::new()],
            rng: ChaCha8Rng::seed_from_u64(seed),
            config,
            evaluator,
            policy,
            ranker: None,
            legal: Vec::new(),
            path: Vec::new(),
        }
    }

    /// Visit counts of the root's children.
    fn root_visits(&self) -> BTreeMap<G::Action, u32> {
        self.nodes[0].children.iter().map(|(&a, &c)| (a, self.nodes[c as usize].visits)).collect()
    }

    /// One iteration: determinize, select and expand, evaluate, back up.
    fn iterate(&mut self) {
        let mut state = self.root.determinize(self.me, &mut self.rng);
        let mut node = 0u32;
        // (node, player who moved into it); the root has no mover.
        self.path.clear();
        self.path.push((0, usize::MAX));
        loop {
            match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let a = state.sample_chance(&mut self.rng).expect("chance outcomes");
                    state.apply(a).expect("sampled outcome applies");
                    node = self.child(node, a);
                    self.path.push((node, usize::MAX));
                }
                Turn::Player(p) => {
                    state.legal_actions_into(&mut self.legal);
                    if let Some(ranker) = self.ranker.as_mut() {
                        if self.legal.len() > self.config.width {
                            ranker.rank(&state, &mut self.legal);
                            self.legal.truncate(self.config.width);
                        }
                    }
                    let (a, expanded) = self.select(node);
                    state.apply(a).expect("legal action applies");
                    node = self.child(node, a);
                    self.path.push((node, p));
                    if expanded {
                        break;
                    }
                }
            }
        }
        let values = self.leaf_value(state);
        for &(n, mover) in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            if mover != usize::MAX {
                node.value += values[mover];
            }
        }
    }

    /// Choose among the legal actions at `node`: an untried one first (expanding the tree),
    /// otherwise the best by UCT over the children available now.
    fn select(&mut self, node: u32) -> (G::Action, bool) {
        if self.ranker.is_some() {
            return self.select_ranked(node);
        }
        let legal = std::mem::take(&mut self.legal);
        let mut untried = Vec::new();
        for &a in &legal {
            match self.nodes[node as usize].children.get(&a) {
                Some(&c) => self.nodes[c as usize].available += 1,
                None => untried.push(a),
            }
        }
        let choice = if !untried.is_empty() {
            (untried[self.rng.gen_range(0..untried.len())], true)
        } else {
            let mut best = (legal[0], f64::NEG_INFINITY);
            for &a in &legal {
                let c = &self.nodes[self.nodes[node as usize].children[&a] as usize];
                let n = c.visits.max(1) as f64;
                let score = c.value / n + self.config.c * ((c.available.max(1) as f64).ln() / n).sqrt();
                if score > best.1 {
                    best = (a, score);
                }
            }
            (best.0, false)
        };
        self.legal = legal;
        choice
    }

    /// PUCT over the ranked candidates: each action's prior halves with its rank, so that with
    /// little evidence search keeps the ranker's choice and departs from it only when the
    /// rollouts say so. An unvisited action counts as a draw.
    fn select_ranked(&mut self, node: u32) -> (G::Action, bool) {
        let legal = std::mem::take(&mut self.legal);
        let norm: f64 = (0..legal.len()).map(|i| 0.5f64.powi(i as i32)).sum();
        let mut total = 1.0;
        for &a in &legal {
            if let Some(&c) = self.nodes[node as usize].children.get(&a) {
                let child = &mut self.nodes[c as usize];
                child.available += 1;
                total += child.visits as f64;
            }
        }
        let mut best = (legal[0], f64::NEG_INFINITY, true);
        for (i, &a) in legal.iter().enumerate() {
            let prior = 0.5f64.powi(i as i32) / norm;
            let (q, n, new) = match self.nodes[node as usize].children.get(&a) {
                Some(&c) => {
                    let child = &self.nodes[c as usize];
                    (child.value / child.visits.max(1) as f64, child.visits as f64, child.visits == 0)
                }
                None => (0.0, 0.0, true),
            };
            let score = q + self.config.c * prior * total.sqrt() / (1.0 + n);
            if score > best.1 {
                best = (a, score, new);
            }
        }
        self.legal = legal;
        (best.0, best.2)
    }

    /// The child of `node` along `a`, created if new.
    fn child(&mut self, node: u32, a: G::Action) -> u32 {
        if let Some(&c) = self.nodes[node as usize].children.get(&a) {
            return c;
        }
        let c = self.nodes.len() as u32;
        self.nodes.push(Node::new());
        self.nodes[node as usize].children.insert(a, c);
        c
    }

    /// Roll out (at random, or with the rollout policy) for up to `rollout_depth` decisions,
    /// then the returns or the evaluator's estimate.
    fn leaf_value(&mut self, mut state: G) -> Vec<f64> {
        let mut decisions = 0;
        loop {
            match state.turn() {
                Turn::Terminal => return state.returns(),
                Turn::Chance => {
                    let a = state.sample_chance(&mut self.rng).expect("chance outcomes");
                    state.apply(a).expect("sampled outcome applies");
                }
                Turn::Player(_) => {
                    if decisions >= self.config.rollout_depth {
                        return self.evaluator.evaluate(&state);
                    }
                    let a = match self.policy.as_mut() {
                        Some(policy) => policy.select_action(&state),
                        None => {
                            state.legal_actions_into(&mut self.legal);
                            self.legal[self.rng.gen_range(0..self.legal.len())]
                        }
                    };
                    state.apply(a).expect("legal action applies");
                    decisions += 1;
                }
            }
        }
    }
}
