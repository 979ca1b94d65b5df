//! AlphaZero-style search with a policy/value network, written as a state machine so that the
//! leaves of many searches can be evaluated in one batch.
//!
//! A search never calls the network itself: [`AzSearch::request`] runs simulations until one
//! reaches a position the network must judge and hands that position out; the caller
//! evaluates it (alone, or batched with other games' leaves) and gives the answer back with
//! [`AzSearch::supply`]. When the budget is spent, `request` returns `None` and
//! [`AzSearch::result`] holds the chosen action and the policy target. [`search`] drives one
//! search with a direct evaluator: the plain, unbatched search.
//!
//! - **Root**: either Gumbel sampling with sequential halving (Danihelka et al., "Policy
//!   improvement by planning with Gumbel", ICLR 2022, as DeepMind's `mctx` does it by
//!   default): the top `considered` actions (no more than the simulations) by Gumbel noise
//!   plus logits, simulations shared out over rounds that each halve the candidates by
//!   noise, logits and σ(Q), and a policy target of softmax(logits + σ(completed Q)); or
//!   PUCT with Dirichlet noise, choosing by visit counts (AlphaZero).
//! - **Below the root**: PUCT on the network's priors; an unvisited action is valued at its
//!   node's network value.
//! - **Chance nodes** are sampled with their exact odds, each seen outcome its own child;
//!   with `chance=K`, a simulation's first chance node of at most K seen outcomes is instead
//!   averaged over all of them by their odds (one leaf each), so that with few simulations
//!   root actions are compared at their odds rather than by one roll.
//! - **Hidden information**: every simulation starts from a fresh determinization of the root
//!   for the searching player, and a choice or outcome the searcher cannot see leads to one
//!   shared child (its action drawn from the node's priors), as in [`crate::mcts`].
//! - Values are kept from player 0's point of view, scaled by `Game::return_bound`; the
//!   search is for two-player zero-sum games.

use crate::game::{Game, Turn};
use crate::spec::{self, Args, Param};
use crate::Agent;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma, Gumbel};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a network makes of a decision node.
#[derive(Clone, Debug, PartialEq)]
pub struct NetOutput {
    /// Prior probability of each legal action, in `legal_actions()` order.
    pub priors: Vec<f32>,
    /// Expected return of the player to move, in [-1, 1].
    pub value: f32,
}

/// Evaluates decision nodes, each from its mover's point of view, many at a time.
pub trait PolicyValue<G: Game>: Send + Sync {
    /// One output per (state, mover).
    fn evaluate(&self, states: &[(&G, usize)]) -> Result<Vec<NetOutput>, String>;
}

/// How the root chooses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RootRule {
    /// Gumbel sampling and sequential halving over `considered` actions; `noise: false`
    /// leaves out the Gumbel noise (deterministic play for evaluation).
    Gumbel {
        /// Actions kept for the first round.
        considered: usize,
        /// Draw Gumbel noise (self-play) or not (evaluation).
        noise: bool,
    },
    /// PUCT at the root too, with Dirichlet noise mixed into the priors (`fraction` 0: none).
    Puct {
        /// Dirichlet concentration.
        alpha: f64,
        /// Share of noise in the root priors.
        fraction: f64,
    },
}

/// Search settings, parsed from `az:sims=32,root=gumbel,...`.
#[derive(Clone, Debug, PartialEq)]
pub struct AzConfig {
    /// Simulations (network evaluations at most) per decision.
    pub simulations: u32,
    /// Time budget per decision in milliseconds; replaces `simulations` when set. The Gumbel
    /// root then plans sequential halving for the simulations that fit: the budget over the
    /// time the root's own evaluation took.
    pub millis: Option<u64>,
    /// How the root chooses.
    pub root: RootRule,
    /// PUCT exploration constant.
    pub c_puct: f64,
    /// σ(Q) = (c_visit + max visits) · c_scale · Q, of the Gumbel root.
    pub c_visit: f64,
    /// See `c_visit`.
    pub c_scale: f64,
    /// Whether the Gumbel root stretches its actions' Q to fill [0, 1] (min-max, as `mctx`
    /// does), or maps the game's value range [-1, 1] onto [0, 1]. Min-max turns any spread
    /// of values, however small, into a full range, so a noisy value head's differences
    /// between sibling positions outweigh the policy; fixed bounds keep a difference of
    /// values as large as it is.
    pub rescale_q: bool,
    /// With `rescale_q`: the least spread the min-max stretch divides by, in value units
    /// (the value range [-1, 1] is 2 wide). Siblings whose values differ by less than this
    /// are not stretched to the full range, so a value head's noise among near-equal
    /// actions stays small beside the policy; 0 (the default): plain min-max, 2: no
    /// stretching at all (as `rescale_q` off).
    pub rescale_floor: f64,
    /// A simulation's first chance node with at most this many outcomes the searcher sees is
    /// averaged over all of them, weighted by their odds (one leaf each, evaluated in turn),
    /// instead of following one sampled outcome; 0 samples every chance node. With few
    /// simulations a root action's value then reflects its odds, not one lucky or unlucky
    /// roll. Each leaf counts as a simulation.
    pub chance_fanout: usize,
}

impl Default for AzConfig {
    fn default() -> Self {
        AzConfig {
            simulations: 32,
            millis: None,
            root: RootRule::Gumbel { considered: 16, noise: false },
            c_puct: 1.25,
            c_visit: 50.0,
            c_scale: 0.1,
            rescale_q: true,
            rescale_floor: 0.0,
            chance_fanout: 0,
        }
    }
}

impl AzConfig {
    /// The search settings an `az` spec takes.
    pub const PARAMS: [Param; 13] = [
        Param::int("sims", 1, 1_000_000, "simulations per decision (default 32)"),
        Param::MILLIS,
        Param::word("root", &["gumbel", "puct"], "how the root chooses (default gumbel)"),
        Param::int("considered", 1, 4096, "gumbel: actions considered at the root (default 16)"),
        Param::int("noise", 0, 1, "gumbel: draw Gumbel noise (self-play) or not"),
        Param::real("scale", 0.0, 100.0, "gumbel: σ(Q) scale; smaller trusts the policy more"),
        Param::real("visit", 0.0, 10_000.0, "gumbel: σ(Q) visit offset"),
        Param::int("rescale", 0, 1, "gumbel: stretch the root's Q to fill [0, 1]"),
        Param::real("floor", 0.0, 2.0, "gumbel: with rescale, the least spread Q is stretched by"),
        Param::int("chance", 0, 64, "average a simulation's first chance node of at most this many outcomes"),
        Param::real("alpha", 0.001, 100.0, "puct: Dirichlet concentration"),
        Param::real("fraction", 0.0, 1.0, "puct: share of Dirichlet noise in the root priors"),
        Param::real("c", 0.0, 100.0, "PUCT exploration constant (default 1.25)"),
    ];

    /// Parse `key=value` pairs separated by commas (see [`AzConfig::PARAMS`]): `sims`, `ms`,
    /// `root` (`gumbel` or `puct`), `considered`, `noise` (0 or 1: Gumbel noise), `scale` and
    /// `visit` (the Gumbel root's σ(Q) = (visit + max visits) · scale · Q: a smaller scale
    /// trusts the policy over the values more), `rescale` (0 or 1) and `floor` (see
    /// [`AzConfig::rescale_floor`]), `alpha` and `fraction` (Dirichlet noise of the PUCT
    /// root), `c` (PUCT constant). Unknown keys, repeats and bad values are refused.
    pub fn parse(params: &str) -> Result<AzConfig, String> {
        AzConfig::from_args(&spec::check_params("az", &AzConfig::PARAMS, params)?)
    }

    /// The settings of checked parameters (any beyond [`AzConfig::PARAMS`] are ignored);
    /// refuses both budgets, and one root's parameters with the other root.
    pub fn from_args(args: &Args) -> Result<AzConfig, String> {
        let d = AzConfig::default();
        let (simulations, millis) = args.budget("sims")?;
        let gumbel_only =
            ["considered", "noise", "scale", "visit", "rescale", "floor"].iter().any(|k| args.has(k));
        let puct_only = ["alpha", "fraction"].iter().any(|k| args.has(k));
        let root = match args.text("root").unwrap_or("gumbel") {
            "gumbel" if puct_only => return Err("az: alpha and fraction belong to root=puct".into()),
            "gumbel" => RootRule::Gumbel {
                considered: args.int("considered").map_or(16, |n| n as usize),
                noise: args.int("noise") == Some(1),
            },
            _ if gumbel_only => {
                return Err(
                    "az: considered, noise, scale, visit, rescale and floor belong to root=gumbel".into()
                )
            }
            _ => RootRule::Puct {
                alpha: args.real("alpha").unwrap_or(0.3),
                fraction: args.real("fraction").unwrap_or(0.0),
            },
        };
        Ok(AzConfig {
            simulations: simulations.map_or(d.simulations, |n| n as u32),
            millis,
            root,
            c_puct: args.real("c").unwrap_or(d.c_puct),
            c_visit: args.real("visit").unwrap_or(d.c_visit),
            c_scale: args.real("scale").unwrap_or(d.c_scale),
            rescale_q: args.int("rescale").map_or(d.rescale_q, |n| n == 1),
            rescale_floor: args.real("floor").unwrap_or(d.rescale_floor),
            chance_fanout: args.int("chance").map_or(d.chance_fanout, |n| n as usize),
        })
    }

    /// The spec this configuration parses from.
    pub fn spec(&self) -> String {
        let budget = match self.millis {
            Some(ms) => format!("ms={ms}"),
            None => format!("sims={}", self.simulations),
        };
        let root = match self.root {
            RootRule::Gumbel { considered, noise } => {
                let floor = if self.rescale_floor > 0.0 {
                    format!(",floor={}", self.rescale_floor)
                } else {
                    String::new()
                };
                format!(
                    "root=gumbel,considered={considered},noise={},scale={},visit={},rescale={}{floor}",
                    noise as u8, self.c_scale, self.c_visit, self.rescale_q as u8
                )
            }
            RootRule::Puct { alpha, fraction } => format!("root=puct,alpha={alpha},fraction={fraction}"),
        };
        format!("{budget},{root},c={},chance={}", self.c_puct, self.chance_fanout)
    }
}

/// An edge's key: the action or outcome when the searcher sees it, else one shared key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key<A> {
    Seen(A),
    Hidden,
}

/// One edge out of a node, with its statistics.
#[derive(Clone, Debug)]
struct Edge<A> {
    key: Key<A>,
    prior: f32,
    visits: u32,
    /// Sum of backed-up values, player 0's view.
    value0: f64,
    child: u32,
}

/// A node of the tree: a decision (expanded once the network judged it) or a chance node.
#[derive(Clone, Debug)]
struct Node<A> {
    expanded: bool,
    /// The network's value of the node for player 0 (decisions).
    value0: f64,
    /// Priors of the mover's legal actions, kept to draw hidden choices and to add edges for
    /// actions legal only in other determinizations.
    policy: Vec<(A, f32)>,
    edges: Vec<Edge<A>>,
}

impl<A> Node<A> {
    fn new() -> Node<A> {
        Node { expanded: false, value0: 0.0, policy: Vec::new(), edges: Vec::new() }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct AzResult<A> {
    /// The action to play.
    pub action: A,
    /// The improved policy over the root's legal actions (a training target; sums to 1).
    pub policy: Vec<(A, f32)>,
    /// Root visit counts.
    pub visits: Vec<(A, u32)>,
    /// The searcher's value of the root after search, in [-1, 1].
    pub value: f64,
    /// Simulations run.
    pub simulations: u32,
}

/// A simulation waiting for the network.
struct Pending<G: Game> {
    /// (node, edge) pairs walked from the root (from the averaged chance node, for a leaf of
    /// a [`FanOut`]).
    path: Vec<(u32, u32)>,
    leaf: u32,
    mover: usize,
    state: G,
    /// The odds of the averaged chance node's outcome this leaf follows, if it is one.
    odds: Option<f64>,
}

/// A chance node averaged over its outcomes: the path to it, and its leaves' values so far.
struct FanOut {
    /// (node, edge) pairs from the root to the chance node.
    prefix: Vec<(u32, u32)>,
    /// Sum of odds × value (player 0's view) of the outcomes judged.
    weighted: f64,
    /// Sum of the odds of the outcomes judged.
    odds: f64,
    /// Leaves still waiting for the network.
    waiting: usize,
}

/// Where a walk down the tree stopped.
enum WalkEnd<G: Game> {
    /// An unexpanded decision node: the network must judge it.
    Leaf(Pending<G>),
    /// A terminal state, with its value for player 0.
    Terminal(Vec<(u32, u32)>, f64),
    /// A chance node to average over: the state there, its node and the path to it.
    Chance(G, u32, Vec<(u32, u32)>),
}

/// Sequential halving at a Gumbel root.
struct Halving {
    /// Root edge indices still in the running.
    remaining: Vec<usize>,
    /// Root edge indices to simulate next, in order.
    queue: Vec<usize>,
    /// Gumbel noise + log-prior of each root edge.
    score: Vec<f64>,
    rounds: u32,
}

/// One search from one root, driven by [`AzSearch::request`] and [`AzSearch::supply`].
pub struct AzSearch<G: Game> {
    config: AzConfig,
    root: G,
    searcher: usize,
    rng: ChaCha8Rng,
    nodes: Vec<Node<G::Action>>,
    pending: Option<Pending<G>>,
    /// Leaves of an averaged chance node not yet requested.
    queued: Vec<Pending<G>>,
    fan: Option<FanOut>,
    halving: Option<Halving>,
    simulations: u32,
    /// The simulations sequential halving plans for: `simulations` of the configuration, or
    /// with a time budget, as many as the root's evaluation time says fit in it.
    planned: u32,
    started: Instant,
    deadline: Option<Instant>,
    legal: Vec<G::Action>,
}

fn sign(player: usize) -> f64 {
    if player == 0 {
        1.0
    } else {
        -1.0
    }
}

impl<G: Game> AzSearch<G> {
    /// A search from `root`, a decision node with at least one legal action.
    pub fn new(root: &G, config: AzConfig, seed: u64) -> Result<AzSearch<G>, String> {
        let Turn::Player(searcher) = root.turn() else {
            return Err("a search must start at a decision node".into());
        };
        if root.num_players() != 2 {
            return Err("the search is for two-player games".into());
        }
        if root.legal_actions().is_empty() {
            return Err("a decision node without legal actions".into());
        }
        let started = Instant::now();
        let deadline = config.millis.map(|ms| started + Duration::from_millis(ms));
        Ok(AzSearch {
            planned: config.simulations,
            started,
            config,
            root: root.clone(),
            searcher,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: vec![Node::new()],
            pending: None,
            queued: Vec::new(),
            fan: None,
            halving: None,
            simulations: 0,
            deadline,
            legal: Vec::new(),
        })
    }

    fn budget_left(&self) -> bool {
        match self.deadline {
            Some(t) => Instant::now() < t || self.simulations == 0,
            None => self.simulations < self.config.simulations,
        }
    }

    /// The next position the network must judge, as (state, mover); `None` once the search is
    /// over. A request must be answered with [`AzSearch::supply`] before the next one.
    pub fn request(&mut self) -> Option<(G, usize)> {
        if let Some(p) = &self.pending {
            return Some((p.state.clone(), p.mover));
        }
        if !self.nodes[0].expanded {
            let state = self.root.clone();
            self.pending = Some(Pending {
                path: Vec::new(),
                leaf: 0,
                mover: self.searcher,
                state: state.clone(),
                odds: None,
            });
            return Some((state, self.searcher));
        }
        // The leaves of an averaged chance node are judged before any new simulation.
        if let Some(next) = self.queued.pop() {
            return Some(self.ask(next));
        }
        while self.budget_left() {
            let Some(root_edge) = self.next_root_edge() else { break };
            if let Some(request) = self.simulate(root_edge) {
                return Some(request);
            }
        }
        None
    }

    /// The network's answer to the last request.
    pub fn supply(&mut self, output: NetOutput) -> Result<(), String> {
        let pending = self.pending.take().ok_or("no evaluation was requested")?;
        let value0 = sign(pending.mover) * output.value.clamp(-1.0, 1.0) as f64;
        if pending.leaf == 0 && !self.nodes[0].expanded {
            if let Some(ms) = self.config.millis {
                // Plan for as many simulations as evaluations like the root's fit in the time.
                let per_evaluation = self.started.elapsed().as_secs_f64().max(1e-6);
                self.planned = (ms as f64 / 1000.0 / per_evaluation).clamp(1.0, 1e6) as u32;
            }
            self.expand_root(output)?;
            return Ok(());
        }
        self.expand(pending.leaf, &pending.state, pending.mover, output)?;
        match pending.odds {
            Some(odds) => self.fan_leaf(&pending.path, odds, value0),
            None => self.backup(&pending.path, value0),
        }
        Ok(())
    }

    /// One outcome's leaf of the averaged chance node judged: its own path gets its value;
    /// once every leaf is in, the path to the chance node gets their odds-weighted mean.
    fn fan_leaf(&mut self, suffix: &[(u32, u32)], odds: f64, value0: f64) {
        self.backup(suffix, value0);
        let Some(fan) = &mut self.fan else { return };
        fan.weighted += odds * value0;
        fan.odds += odds;
        fan.waiting = fan.waiting.saturating_sub(1);
        if fan.waiting == 0 {
            let fan = self.fan.take().expect("a fan-out");
            let mean = fan.weighted / fan.odds.max(1e-12);
            for &(node, edge) in &fan.prefix {
                let e = &mut self.nodes[node as usize].edges[edge as usize];
                e.visits += 1;
                e.value0 += mean;
            }
        }
    }

    /// Expand a decision node from the network's output.
    fn expand(&mut self, node: u32, state: &G, mover: usize, output: NetOutput) -> Result<(), String> {
        state.legal_actions_into(&mut self.legal);
        if output.priors.len() != self.legal.len() {
            return Err(format!("{} priors for {} legal actions", output.priors.len(), self.legal.len()));
        }
        // The searcher always sees its own root choice.
        let hidden = node != 0 && !state.is_visible(self.searcher);
        let policy: Vec<(G::Action, f32)> = self.legal.iter().copied().zip(output.priors).collect();
        let n = &mut self.nodes[node as usize];
        n.expanded = true;
        n.value0 = sign(mover) * output.value.clamp(-1.0, 1.0) as f64;
        n.policy = policy;
        if !hidden {
            let count = self.nodes.len() as u32;
            let edges: Vec<Edge<G::Action>> = self.nodes[node as usize]
                .policy
                .iter()
                .enumerate()
                .map(|(i, &(a, p))| Edge {
                    key: Key::Seen(a),
                    prior: p,
                    visits: 0,
                    value0: 0.0,
                    child: count + i as u32,
                })
                .collect();
            self.nodes.extend(edges.iter().map(|_| Node::new()));
            self.nodes[node as usize].edges = edges;
        }
        Ok(())
    }

    /// Expand the root: its edges, the root noise, and the Gumbel candidates.
    fn expand_root(&mut self, output: NetOutput) -> Result<(), String> {
        let root = self.root.clone();
        self.expand(0, &root, self.searcher, output)?;
        let n = self.nodes[0].edges.len();
        match self.config.root {
            RootRule::Puct { alpha, fraction } if fraction > 0.0 && n > 1 => {
                let gamma = Gamma::new(alpha, 1.0).map_err(|e| e.to_string())?;
                let noise: Vec<f64> = (0..n).map(|_| gamma.sample(&mut self.rng)).collect();
                let total: f64 = noise.iter().sum::<f64>().max(1e-12);
                for (edge, x) in self.nodes[0].edges.iter_mut().zip(noise) {
                    edge.prior = ((1.0 - fraction) * edge.prior as f64 + fraction * x / total) as f32;
                }
            }
            RootRule::Puct { .. } => {}
            RootRule::Gumbel { considered, noise } => {
                let gumbel = Gumbel::new(0.0, 1.0).map_err(|e| e.to_string())?;
                let score: Vec<f64> = self.nodes[0]
                    .edges
                    .iter()
                    .map(|e| log_prior(e.prior) + if noise { gumbel.sample(&mut self.rng) } else { 0.0 })
                    .collect();
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by(|&a, &b| score[b].total_cmp(&score[a]).then(a.cmp(&b)));
                // As in mctx, no more actions are considered than there are simulations.
                order.truncate(considered.min(n).min(self.planned as usize).max(1));
                let rounds = (order.len() as f64).log2().ceil().max(1.0) as u32;
                self.halving = Some(Halving { remaining: order, queue: Vec::new(), score, rounds });
            }
        }
        Ok(())
    }

    /// The root edge the next simulation goes through (Gumbel), or `Some(usize::MAX)` for
    /// PUCT's own choice; `None` when sequential halving has settled on one action.
    fn next_root_edge(&mut self) -> Option<usize> {
        let budget = self.planned.max(1) as usize;
        let sigma = self.sigma_scale();
        let completed = self.completed_q();
        let Some(h) = &mut self.halving else { return Some(usize::MAX) };
        if h.queue.is_empty() {
            if h.remaining.len() <= 1 {
                return None;
            }
            let visited = self.nodes[0].edges.iter().any(|e| e.visits > 0);
            if visited {
                // Halve: keep the better half by noise + logits + σ(Q).
                let keep = h.remaining.len().div_ceil(2);
                h.remaining.sort_by(|&a, &b| {
                    let sa = h.score[a] + sigma * completed[a];
                    let sb = h.score[b] + sigma * completed[b];
                    sb.total_cmp(&sa).then(a.cmp(&b))
                });
                h.remaining.truncate(keep);
                if h.remaining.len() <= 1 {
                    return None;
                }
            }
            let per = (budget / (h.rounds as usize * h.remaining.len())).max(1);
            for _ in 0..per {
                h.queue.extend(h.remaining.iter().rev());
            }
        }
        h.queue.pop()
    }

    /// σ's multiplier: (c_visit + the most visits of a root action) · c_scale.
    fn sigma_scale(&self) -> f64 {
        let most = self.nodes[0].edges.iter().map(|e| e.visits).max().unwrap_or(0) as f64;
        (self.config.c_visit + most) * self.config.c_scale
    }

    /// Completed Q of every root edge for the searcher, brought into [0, 1] (min-max, or from
    /// [-1, 1], see [`AzConfig::rescale_q`]): the mean value of a visited action, the mixed
    /// value estimate of an unvisited one.
    fn completed_q(&self) -> Vec<f64> {
        let root = &self.nodes[0];
        let s = sign(self.searcher);
        let total: u32 = root.edges.iter().map(|e| e.visits).sum();
        let (mut weighted, mut prior_mass) = (0.0, 0.0);
        for e in root.edges.iter().filter(|e| e.visits > 0) {
            weighted += e.prior as f64 * s * e.value0 / e.visits as f64;
            prior_mass += e.prior as f64;
        }
        let v = s * root.value0;
        let mix = if prior_mass > 0.0 {
            (v + total as f64 * weighted / prior_mass) / (1.0 + total as f64)
        } else {
            v
        };
        let q: Vec<f64> = root
            .edges
            .iter()
            .map(|e| if e.visits > 0 { s * e.value0 / e.visits as f64 } else { mix })
            .collect();
        normalise_q(&q, self.config.rescale_q, self.config.rescale_floor)
    }

    /// Run one simulation through `root_edge`; returns a request when it stops at a leaf the
    /// network must judge, `None` when it ended at a terminal state (already backed up).
    fn simulate(&mut self, root_edge: usize) -> Option<(G, usize)> {
        let state = self.root.determinize(self.searcher, &mut self.rng);
        let fanout = self.config.chance_fanout;
        match self.walk(state, 0, Vec::new(), Some(root_edge), fanout)? {
            WalkEnd::Leaf(pending) => Some(self.ask(pending)),
            WalkEnd::Terminal(path, v0) => {
                self.backup(&path, v0);
                None
            }
            WalkEnd::Chance(state, node, prefix) => self.fan_out(state, node, prefix),
        }
    }

    /// Average the chance node `node` (reached by `prefix`) over its outcomes: walk on from
    /// each, queue the leaves for the network and back up terminal outcomes at once.
    fn fan_out(&mut self, state: G, node: u32, prefix: Vec<(u32, u32)>) -> Option<(G, usize)> {
        let outcomes = state.chance_outcomes();
        // Every outcome is waited for, so the mean is backed up only once all are in.
        self.fan = Some(FanOut { prefix, weighted: 0.0, odds: 0.0, waiting: outcomes.len() });
        let mut leaves = Vec::new();
        for &(outcome, odds) in &outcomes {
            let edge = self.edge(node, Key::Seen(outcome), 1.0);
            let child = self.nodes[node as usize].edges[edge as usize].child;
            let mut next = state.clone();
            next.apply(outcome).ok()?;
            match self.walk(next, child, vec![(node, edge)], None, 0)? {
                WalkEnd::Leaf(mut pending) => {
                    pending.odds = Some(odds);
                    leaves.push(pending);
                }
                WalkEnd::Terminal(path, v0) => self.fan_leaf(&path, odds, v0),
                WalkEnd::Chance(..) => unreachable!("walks after the averaged chance node sample"),
            }
        }
        // With no leaf, every outcome ended the game and the mean is backed up already.
        leaves.reverse();
        self.queued = leaves;
        let first = self.queued.pop()?;
        Some(self.ask(first))
    }

    /// Make `pending` the leaf waiting for the network, and return its request.
    fn ask(&mut self, pending: Pending<G>) -> (G, usize) {
        let request = (pending.state.clone(), pending.mover);
        self.pending = Some(pending);
        request
    }

    /// Walk down from `node` (at `state`, reached by `path`) until an unexpanded decision node,
    /// a terminal state, or (when `fanout` > 0) a chance node with at most `fanout` outcomes
    /// the searcher sees. `root_edge` is the root action to take first, when walking from the
    /// root (`usize::MAX` for PUCT's own choice).
    fn walk(
        &mut self,
        mut state: G,
        mut node: u32,
        mut path: Vec<(u32, u32)>,
        mut root_edge: Option<usize>,
        fanout: usize,
    ) -> Option<WalkEnd<G>> {
        loop {
            match state.turn() {
                Turn::Terminal => {
                    let bound = state.return_bound().max(1e-12);
                    let v0 = (state.returns()[0] / bound).clamp(-1.0, 1.0);
                    return Some(WalkEnd::Terminal(path, v0));
                }
                Turn::Chance => {
                    let visible = state.is_visible(self.searcher);
                    if fanout > 0 && visible && node != 0 {
                        state.legal_actions_into(&mut self.legal);
                        if self.legal.len() <= fanout {
                            return Some(WalkEnd::Chance(state, node, path));
                        }
                    }
                    let outcome = state.sample_chance(&mut self.rng)?;
                    let key = if visible { Key::Seen(outcome) } else { Key::Hidden };
                    let edge = self.edge(node, key, 1.0);
                    path.push((node, edge));
                    node = self.nodes[node as usize].edges[edge as usize].child;
                    state.apply(outcome).ok()?;
                }
                Turn::Player(mover) => {
                    if !self.nodes[node as usize].expanded {
                        return Some(WalkEnd::Leaf(Pending { path, leaf: node, mover, state, odds: None }));
                    }
                    let (action, edge) = match root_edge.take() {
                        Some(e) if e != usize::MAX => {
                            let Key::Seen(a) = self.nodes[0].edges[e].key else { return None };
                            (a, e as u32)
                        }
                        _ => self.select(node, &state, mover)?,
                    };
                    path.push((node, edge));
                    node = self.nodes[node as usize].edges[edge as usize].child;
                    state.apply(action).ok()?;
                }
            }
        }
    }

    /// The edge of `node` with `key`, added (with `prior`) if new.
    fn edge(&mut self, node: u32, key: Key<G::Action>, prior: f32) -> u32 {
        if let Some(i) = self.nodes[node as usize].edges.iter().position(|e| e.key == key) {
            return i as u32;
        }
        let child = self.nodes.len() as u32;
        self.nodes.push(Node::new());
        let edges = &mut self.nodes[node as usize].edges;
        edges.push(Edge { key, prior, visits: 0, value0: 0.0, child });
        (edges.len() - 1) as u32
    }

    /// PUCT among the edges legal in this determinization (or a hidden choice drawn from the
    /// node's priors): the action and the edge.
    fn select(&mut self, node: u32, state: &G, mover: usize) -> Option<(G::Action, u32)> {
        state.legal_actions_into(&mut self.legal);
        if self.legal.is_empty() {
            return None;
        }
        if !state.is_visible(self.searcher) {
            let n = &self.nodes[node as usize];
            let weights: Vec<f64> = self
                .legal
                .iter()
                .map(|a| n.policy.iter().find(|(b, _)| b == a).map_or(1e-3, |&(_, p)| p as f64 + 1e-6))
                .collect();
            let mut x = self.rng.gen::<f64>() * weights.iter().sum::<f64>();
            let mut pick = self.legal.len() - 1;
            for (i, w) in weights.iter().enumerate() {
                if x < *w {
                    pick = i;
                    break;
                }
                x -= w;
            }
            let action = self.legal[pick];
            return Some((action, self.edge(node, Key::Hidden, 1.0)));
        }
        let s = sign(mover);
        let fallback = 1.0 / self.legal.len() as f32;
        let legal = std::mem::take(&mut self.legal);
        let edges: Vec<u32> = legal.iter().map(|&a| self.edge(node, Key::Seen(a), fallback)).collect();
        self.legal = legal;
        let n = &self.nodes[node as usize];
        let total: u32 = edges.iter().map(|&e| n.edges[e as usize].visits).sum();
        let sqrt_total = (total.max(1) as f64).sqrt();
        let fpu = s * n.value0;
        let mut best = (f64::MIN, 0usize);
        for (i, &e) in edges.iter().enumerate() {
            let edge = &n.edges[e as usize];
            let q = if edge.visits > 0 { s * edge.value0 / edge.visits as f64 } else { fpu };
            let u = self.config.c_puct * edge.prior as f64 * sqrt_total / (1.0 + edge.visits as f64);
            if q + u > best.0 {
                best = (q + u, i);
            }
        }
        Some((self.legal[best.1], edges[best.1]))
    }

    fn backup(&mut self, path: &[(u32, u32)], value0: f64) {
        for &(node, edge) in path {
            let e = &mut self.nodes[node as usize].edges[edge as usize];
            e.visits += 1;
            e.value0 += value0;
        }
        self.simulations += 1;
    }

    /// The search's choice and policy target (valid once `request` returned `None`).
    pub fn result(&self) -> AzResult<G::Action> {
        let root = &self.nodes[0];
        let actions: Vec<G::Action> =
            root.edges.iter().filter_map(|e| if let Key::Seen(a) = e.key { Some(a) } else { None }).collect();
        let visits: Vec<(G::Action, u32)> =
            actions.iter().copied().zip(root.edges.iter().map(|e| e.visits)).collect();
        let total: u32 = visits.iter().map(|v| v.1).sum();
        let s = sign(self.searcher);
        let value = if total > 0 {
            s * root.edges.iter().map(|e| e.value0).sum::<f64>() / total as f64
        } else {
            s * root.value0
        };
        let (action, policy) = match &self.halving {
            Some(h) => {
                let q = self.completed_q();
                let sigma = self.sigma_scale();
                let priors: Vec<f32> = root.edges.iter().map(|e| e.prior).collect();
                let best = *h
                    .remaining
                    .iter()
                    .max_by(|&&a, &&b| {
                        (h.score[a] + sigma * q[a]).total_cmp(&(h.score[b] + sigma * q[b])).then(b.cmp(&a))
                    })
                    .unwrap_or(&0);
                (actions[best], actions.iter().copied().zip(improved_policy(&priors, &q, sigma)).collect())
            }
            None => {
                let best = visits
                    .iter()
                    .enumerate()
                    .max_by(|a, b| {
                        a.1 .1.cmp(&b.1 .1).then(root.edges[a.0].prior.total_cmp(&root.edges[b.0].prior))
                    })
                    .map_or(0, |(i, _)| i);
                let policy = if total > 0 {
                    visits.iter().map(|&(a, n)| (a, n as f32 / total as f32)).collect()
                } else {
                    root.edges.iter().zip(&actions).map(|(e, &a)| (a, e.prior)).collect()
                };
                (actions[best], policy)
            }
        };
        AzResult { action, policy, visits, value, simulations: self.simulations }
    }
}

/// Completed Q values (in [-1, 1], the searcher's view) brought to the scale σ multiplies:
/// from [-1, 1] onto [0, 1] without `rescale`; with it, shifted so the least is 0 and divided
/// by their spread, or by `floor` where the spread is smaller (a floor of 0: min-max, every
/// spread stretched to [0, 1]). Equal values all become ½.
pub fn normalise_q(q: &[f64], rescale: bool, floor: f64) -> Vec<f64> {
    if !rescale {
        return q.iter().map(|x| (x + 1.0) / 2.0).collect();
    }
    let (lo, hi) = q.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let spread = (hi - lo).max(floor);
    if spread > 0.0 {
        q.iter().map(|x| (x - lo) / spread).collect()
    } else {
        vec![0.5; q.len()]
    }
}

/// The Gumbel root's policy target: softmax(log prior + σ · normalised Q) over the root's
/// actions.
pub fn improved_policy(priors: &[f32], normalised_q: &[f64], sigma: f64) -> Vec<f32> {
    let logits: Vec<f64> = priors.iter().zip(normalised_q).map(|(&p, q)| log_prior(p) + sigma * q).collect();
    softmax(&logits)
}

fn log_prior(p: f32) -> f64 {
    (p.max(1e-12) as f64).ln()
}

fn softmax(logits: &[f64]) -> Vec<f32> {
    let top = logits.iter().copied().fold(f64::MIN, f64::max);
    let exp: Vec<f64> = logits.iter().map(|x| (x - top).exp()).collect();
    let total: f64 = exp.iter().sum();
    exp.iter().map(|x| (x / total) as f32).collect()
}

/// Run one search to its end, evaluating each leaf at once: the plain, unbatched search.
pub fn search<G: Game>(
    state: &G,
    config: AzConfig,
    net: &dyn PolicyValue<G>,
    seed: u64,
) -> Result<AzResult<G::Action>, String> {
    let mut s = AzSearch::new(state, config, seed)?;
    while let Some((leaf, mover)) = s.request() {
        let out = net.evaluate(&[(&leaf, mover)])?.pop().ok_or("the network gave no output")?;
        s.supply(out)?;
    }
    Ok(s.result())
}

/// A player searching with a network: `az:sims=32,...` (see [`AzConfig::parse`]).
pub struct AzAgent<G: Game> {
    config: AzConfig,
    net: Arc<dyn PolicyValue<G>>,
    rng: ChaCha8Rng,
    label: String,
    last: Option<Vec<(G::Action, f64)>>,
}

impl<G: Game> AzAgent<G> {
    /// An agent searching with `net`; `label` names the network in the agent's name.
    pub fn new(config: AzConfig, net: Arc<dyn PolicyValue<G>>, label: &str, seed: u64) -> AzAgent<G> {
        AzAgent { config, net, rng: ChaCha8Rng::seed_from_u64(seed), label: label.into(), last: None }
    }
}

impl<G: Game> Agent<G> for AzAgent<G> {
    fn name(&self) -> String {
        format!("az:{},net={}", self.config.spec(), self.label)
    }

    fn select_action(&mut self, state: &G) -> G::Action {
        let legal = state.legal_actions();
        self.last = None;
        if legal.len() == 1 {
            return legal[0];
        }
        match search(state, self.config.clone(), self.net.as_ref(), self.rng.gen()) {
            Ok(r) => {
                self.last = Some(r.policy.iter().map(|&(a, p)| (a, p as f64)).collect());
                r.action
            }
            // A network that fails to evaluate leaves the agent no better guide than chance.
            Err(_) => legal[self.rng.gen_range(0..legal.len())],
        }
    }

    fn last_search(&self) -> Option<Vec<(G::Action, f64)>> {
        self.last.clone()
    }
}
