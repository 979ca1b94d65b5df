//! Monte Carlo tree search for any [`Game`], with chance nodes and hidden information.
//!
//! - **Information sets.** Every iteration starts from a fresh determinization of the root
//!   (`Game::determinize` for the searching player), so the search never reads what its
//!   player cannot see. The tree is keyed on what the searcher observes (single-observer
//!   information-set MCTS): an action or chance outcome it sees leads to its own child, while
//!   every outcome it cannot see at a node (`Game::is_visible` is false: an opponent's secret
//!   choice, a draw only the opponent learns) leads to one shared child, so the values below
//!   average over what it cannot know instead of planning on it. A hidden opponent choice is
//!   played at random. At a node only the children legal in the current determinization
//!   compete, and UCT's exploration term uses their availability, not the parent's visits.
//! - **Chance nodes** are sampled with their exact probabilities; each visible outcome has its
//!   child.
//! - **Selection** is UCT (`c` weighs exploration) with each node's value taken from the
//!   point of view of the player who chose the edge into it.
//! - **Leaf evaluation** is pluggable: a rollout by a policy ([`RolloutPolicy`]: uniform random
//!   by default, or any agent, such as the scripted TDE player) to the end of the game, or for
//!   `rollout_depth` decisions and then the [`Evaluator`]'s estimate. Returns and estimates are
//!   divided by `Game::return_bound`, so values live in [-1, 1].
//! - **Candidates**: an optional [`Ranker`] (the scripted TDE player, later a learned policy)
//!   orders the legal actions; search then considers only the `width` best at each decision
//!   and selects by PUCT with priors halving by rank. Without one, every legal action
//!   competes under plain UCT. A root ranker ([`MctsAgent::with_root_ranker`]) may choose
//!   and order the root's candidates instead, asked once a search on the real state and
//!   inside the time budget: an expensive judge, such as a network, then costs one call a
//!   move.
//! - **Budget**: iterations, or milliseconds (`ms`), per decision. Decisions with one legal
//!   action are taken without search.
//! - **Root parallelism**: `threads` independent trees, each with its own seed and share of
//!   the iterations, run with rayon; their root visit counts are summed.

use crate::game::{Game, Turn};
use crate::spec::{self, Args, Param};
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

    /// The probability the last [`rank`](Ranker::rank) gave its first action, for a ranker
    /// that has a policy (a network); `None` for one that only orders.
    fn top_probability(&self) -> Option<f64> {
        None
    }
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
    /// Rollout length in decisions before the evaluator is asked (`Some(0)`: evaluate at
    /// once); `None` plays every rollout to the end of the game.
    pub rollout_depth: Option<u32>,
    /// Independent trees searched in parallel.
    pub threads: usize,
    /// With a ranker, the number of best-ranked actions searched at each decision.
    pub width: usize,
    /// With a root ranker that has a policy: play its first action at once, without
    /// searching, when it gives that action at least this probability (a move with one
    /// sensible choice); `None` always searches.
    pub sure: Option<f64>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 400,
            millis: None,
            c: 1.4,
            rollout_depth: None,
            threads: 1,
            width: 5,
            sure: None,
        }
    }
}

impl MctsConfig {
    /// The search settings an `mcts` spec takes.
    pub const PARAMS: [Param; 7] = [
        Param::int("iters", 1, 10_000_000, "iterations per decision (default 400)"),
        Param::MILLIS,
        Param::real("c", 0.0, 100.0, "UCT exploration constant (default 1.4)"),
        Param::int("depth", 1, 100_000, "rollout length in decisions before the evaluator judges"),
        Param::int("threads", 1, 256, "trees searched in parallel (default 1)"),
        Param::int("width", 1, 10_000, "with a ranker, the best-ranked actions searched (default 5)"),
        Param::real(
            "sure",
            0.5,
            1.0,
            "with a network choosing the root's candidates: play its first at once when it gives it at least this probability",
        ),
    ];

    /// Parse `key=value` pairs (see [`MctsConfig::PARAMS`]) separated by commas; an empty
    /// string gives the defaults. A key given twice, `iters` with `ms`, and values out of
    /// range are refused.
    pub fn parse(params: &str) -> Result<MctsConfig, String> {
        MctsConfig::from_args(&spec::check_params("mcts", &MctsConfig::PARAMS, params)?)
    }

    /// The settings of checked parameters (any beyond [`MctsConfig::PARAMS`] are ignored).
    pub fn from_args(args: &Args) -> Result<MctsConfig, String> {
        let d = MctsConfig::default();
        let (iterations, millis) = args.budget("iters")?;
        Ok(MctsConfig {
            iterations: iterations.map_or(d.iterations, |n| n as u32),
            millis,
            c: args.real("c").unwrap_or(d.c),
            rollout_depth: args.int("depth").map(|n| n as u32),
            threads: args.int("threads").map_or(d.threads, |n| n as usize),
            width: args.int("width").map_or(d.width, |n| n as usize),
            sure: args.real("sure"),
        })
    }

    /// The parameters as `mcts` accepts them back.
    pub fn spec(&self) -> String {
        let budget = match self.millis {
            Some(ms) => format!("ms={ms}"),
            None => format!("iters={}", self.iterations),
        };
        let depth = self.rollout_depth.map(|d| format!(",depth={d}")).unwrap_or_default();
        let sure = self.sure.map(|p| format!(",sure={p}")).unwrap_or_default();
        format!("mcts:{budget},c={}{depth},threads={},width={}{sure}", self.c, self.threads, self.width)
    }
}

/// An edge of the tree as the searcher sees it: the action or outcome, or "something it
/// cannot see".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Edge<A> {
    Seen(A),
    Hidden,
}

/// One node of a search tree.
struct Node<A> {
    /// Visits through this node.
    visits: u32,
    /// Sum of the values backed up through it, from the view of the player who moved into it.
    value: f64,
    /// Times it was available (legal) when its parent was visited.
    available: u32,
    /// Children by edge (ordered, so that search is reproducible).
    children: BTreeMap<Edge<A>, u32>,
}

impl<A> Node<A> {
    fn new() -> Node<A> {
        Node { visits: 0, value: 0.0, available: 0, children: BTreeMap::new() }
    }
}

/// A root action after a search: how often it was visited and the mean value its visits
/// backed up, for the player who searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootStat {
    /// Visits through it.
    pub visits: u32,
    /// Mean backed-up value (the evaluator's or the rollouts' returns over the game's bound).
    pub value: f64,
}

/// The MCTS agent.
pub struct MctsAgent<G: Game> {
    config: MctsConfig,
    evaluator: Arc<dyn Evaluator<G>>,
    rollout: Option<RolloutPolicy<G>>,
    ranker: Option<RankerFactory<G>>,
    /// Orders the root's candidates instead of `ranker` (asked once a search).
    root_ranker: Option<Box<dyn Ranker<G> + Sync>>,
    name: String,
    rng: ChaCha8Rng,
    /// Root visits of the last search.
    last: Option<Vec<(G::Action, u32)>>,
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
            root_ranker: None,
            name,
            rng: ChaCha8Rng::seed_from_u64(seed),
            last: None,
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

    /// Order the root's candidates with `ranker` (asked once a search, on the real state)
    /// and the nodes below with the ranker of [`with_ranker`](Self::with_ranker); `label`
    /// names it. An expensive ranker, such as a network, then costs one call a move.
    pub fn with_root_ranker(mut self, ranker: Box<dyn Ranker<G> + Sync>, label: &str) -> MctsAgent<G> {
        self.root_ranker = Some(ranker);
        self.name = format!("{},root={label}", self.name);
        self
    }

    /// Root visit counts per action after searching from `state` (for the player to act).
    pub fn search(&mut self, state: &G) -> BTreeMap<G::Action, u32> {
        self.search_values(state).into_iter().map(|(a, stat)| (a, stat.visits)).collect()
    }

    /// Each root action's visits and mean backed-up value (for the player to act, on the
    /// evaluator's scale divided by the game's return bound) after searching from `state`:
    /// what expert iteration learns from. A move played at once (`sure`) has one visit and
    /// the value 0.
    pub fn search_values(&mut self, state: &G) -> BTreeMap<G::Action, RootStat> {
        let Turn::Player(me) = state.turn() else { panic!("search at a node that is not a decision") };
        // The budget starts before the root ranker is asked: its time is the search's.
        let deadline = self.config.millis.map(|ms| Instant::now() + Duration::from_millis(ms));
        let root_order = self.root_ranker.as_mut().map(|ranker| {
            let mut legal = state.legal_actions();
            ranker.rank(state, &mut legal);
            legal.truncate(self.config.width);
            legal
        });
        let sure = self.config.sure.zip(self.root_ranker.as_ref().and_then(|r| r.top_probability()));
        if let (Some((needed, p)), Some(order)) = (sure, &root_order) {
            if p >= needed {
                // One sensible choice: played at once, as one visit.
                return BTreeMap::from([(order[0], RootStat { visits: 1, value: 0.0 })]);
            }
        }
        let threads = self.config.threads.max(1);
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.gen()).collect();
        let per_thread = self.config.iterations.div_ceil(threads as u32);
        let run = |seed: u64| {
            let mut tree = self.tree(state, me, seed);
            tree.root_order = root_order.as_deref();
            let mut done = 0u32;
            while deadline.map_or(done < per_thread, |d| done == 0 || Instant::now() < d) {
                tree.iterate();
                done += 1;
            }
            tree.root_sums()
        };
        let results: Vec<BTreeMap<G::Action, (u32, f64)>> =
            if threads == 1 { vec![run(seeds[0])] } else { seeds.par_iter().map(|&s| run(s)).collect() };
        let mut total: BTreeMap<G::Action, (u32, f64)> = BTreeMap::new();
        for r in results {
            for (a, (n, v)) in r {
                let t = total.entry(a).or_insert((0, 0.0));
                t.0 += n;
                t.1 += v;
            }
        }
        total
            .into_iter()
            .map(|(a, (visits, sum))| (a, RootStat { visits, value: sum / visits.max(1) as f64 }))
            .collect()
    }

    /// A new search tree from `state` for player `me`, with its own rollout policy and ranker.
    fn tree<'a>(&'a self, state: &'a G, me: usize, seed: u64) -> Tree<'a, G> {
        let policy = self.rollout.as_ref().map(|make| make(seed ^ 0x9e37_79b9_7f4a_7c15));
        let mut tree = Tree::new(state, me, seed, &self.config, self.evaluator.as_ref(), policy);
        tree.ranker = self.ranker.as_ref().map(|make| make(seed ^ 0x2545_f491_4f6c_dd1d));
        tree
    }

    /// Grow one tree from `state` (for the player to act) with the whole iteration budget, as
    /// one thread of [`search`](Self::search) grows its tree, and measure its memory.
    pub fn tree_footprint(&mut self, state: &G) -> TreeFootprint {
        let Turn::Player(me) = state.turn() else { panic!("search at a node that is not a decision") };
        let seed = self.rng.gen();
        let mut tree = self.tree(state, me, seed);
        for _ in 0..self.config.iterations {
            tree.iterate();
        }
        tree.footprint()
    }
}

/// The memory a search tree holds (see [`MctsAgent::tree_footprint`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeFootprint {
    /// Nodes in the tree, the root included.
    pub nodes: usize,
    /// Bytes of one node in the tree's node vector (its statistics and its children map's
    /// handle).
    pub node_size: usize,
    /// Bytes of the whole tree: the node vector's capacity, and the B-tree nodes of every
    /// node's children map (exact for maps of up to 11 children, estimated for larger ones).
    pub bytes: usize,
}

/// Bytes of the B-tree nodes of a `BTreeMap<K, V>` with `n` entries, from the layout of the
/// standard library's nodes: a leaf holds up to 11 entries after its parent pointer, index
/// and length, an internal node adds 12 child pointers. Exact up to 11 entries (one leaf);
/// beyond that the nodes are taken two-thirds full, as random insertion leaves them on
/// average.
fn btree_bytes<K, V>(n: usize) -> usize {
    use std::alloc::Layout;
    const CAPACITY: usize = 11;
    const FILL: usize = 7;
    let field = |l: Layout, f: Layout| l.extend(f).expect("a B-tree node's layout").0;
    let header = field(Layout::new::<usize>(), Layout::new::<[u16; 2]>());
    let leaf =
        field(field(header, Layout::new::<[K; CAPACITY]>()), Layout::new::<[V; CAPACITY]>()).pad_to_align();
    let internal = field(leaf, Layout::new::<[usize; CAPACITY + 1]>()).pad_to_align();
    match n {
        0 => 0,
        1..=CAPACITY => leaf.size(),
        _ => {
            let mut nodes = n.div_ceil(FILL);
            let mut bytes = nodes * leaf.size();
            while nodes > 1 {
                nodes = nodes.div_ceil(FILL + 1);
                bytes += nodes * internal.size();
            }
            bytes
        }
    }
}

impl<G: Game> Agent<G> for MctsAgent<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn last_search(&self) -> Option<Vec<(G::Action, f64)>> {
        self.last.as_ref().map(|v| v.iter().map(|&(a, n)| (a, n as f64)).collect())
    }

    fn select_action(&mut self, state: &G) -> G::Action {
        let legal = state.legal_actions();
        self.last = None;
        if legal.len() == 1 {
            return legal[0];
        }
        let visits = self.search(state);
        self.last = Some(visits.iter().map(|(&a, &n)| (a, n)).collect());
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
    /// The root's candidates, best first, when a root ranker chose them.
    root_order: Option<&'a [G::Action]>,
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
            root_order: None,
            legal: Vec::new(),
            path: Vec::new(),
        }
    }

    /// Its node count and bytes.
    fn footprint(&self) -> TreeFootprint {
        let node_size = std::mem::size_of::<Node<G::Action>>();
        let maps: usize =
            self.nodes.iter().map(|n| btree_bytes::<Edge<G::Action>, u32>(n.children.len())).sum();
        TreeFootprint { nodes: self.nodes.len(), node_size, bytes: self.nodes.capacity() * node_size + maps }
    }

    /// Visits and summed values of the root's children.
    fn root_sums(&self) -> BTreeMap<G::Action, (u32, f64)> {
        self.nodes[0]
            .children
            .iter()
            .filter_map(|(e, &c)| match e {
                Edge::Seen(a) => {
                    let child = &self.nodes[c as usize];
                    Some((*a, (child.visits, child.value)))
                }
                Edge::Hidden => None,
            })
            .collect()
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
                    let edge = if state.is_visible(self.me) { Edge::Seen(a) } else { Edge::Hidden };
                    state.apply_legal(a);
                    node = self.child(node, edge);
                    self.path.push((node, usize::MAX));
                }
                Turn::Player(_) if !state.is_visible(self.me) => {
                    // A secret choice of another player: played at random, one node for all.
                    state.legal_actions_into(&mut self.legal);
                    let a = self.legal[self.rng.gen_range(0..self.legal.len())];
                    state.apply_legal(a);
                    let known = self.nodes[node as usize].children.contains_key(&Edge::Hidden);
                    node = self.child(node, Edge::Hidden);
                    self.path.push((node, usize::MAX));
                    if !known {
                        break;
                    }
                }
                Turn::Player(p) => {
                    state.legal_actions_into(&mut self.legal);
                    if let (0, Some(order)) = (node, self.root_order) {
                        self.legal.retain(|a| order.contains(a));
                        self.legal.sort_by_key(|a| order.iter().position(|b| b == a));
                    } else if let Some(ranker) = self.ranker.as_mut() {
                        if self.legal.len() > self.config.width {
                            ranker.rank(&state, &mut self.legal);
                            self.legal.truncate(self.config.width);
                        }
                    }
                    let (a, expanded) = self.select(node);
                    state.apply_legal(a);
                    node = self.child(node, Edge::Seen(a));
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
        if self.ranker.is_some() || (node == 0 && self.root_order.is_some()) {
            return self.select_ranked(node);
        }
        let legal = std::mem::take(&mut self.legal);
        let mut untried = Vec::new();
        for &a in &legal {
            match self.nodes[node as usize].children.get(&Edge::Seen(a)) {
                Some(&c) => self.nodes[c as usize].available += 1,
                None => untried.push(a),
            }
        }
        let choice = if !untried.is_empty() {
            (untried[self.rng.gen_range(0..untried.len())], true)
        } else {
            let mut best = (legal[0], f64::NEG_INFINITY);
            for &a in &legal {
                let c = &self.nodes[self.nodes[node as usize].children[&Edge::Seen(a)] as usize];
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
            if let Some(&c) = self.nodes[node as usize].children.get(&Edge::Seen(a)) {
                let child = &mut self.nodes[c as usize];
                child.available += 1;
                total += child.visits as f64;
            }
        }
        let mut best = (legal[0], f64::NEG_INFINITY, true);
        for (i, &a) in legal.iter().enumerate() {
            let prior = 0.5f64.powi(i as i32) / norm;
            let (q, n, new) = match self.nodes[node as usize].children.get(&Edge::Seen(a)) {
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

    /// The child of `node` along `edge`, created if new.
    fn child(&mut self, node: u32, edge: Edge<G::Action>) -> u32 {
        if let Some(&c) = self.nodes[node as usize].children.get(&edge) {
            return c;
        }
        let c = self.nodes.len() as u32;
        self.nodes.push(Node::new());
        self.nodes[node as usize].children.insert(edge, c);
        c
    }

    /// Roll out (at random, or with the rollout policy) to the end or for `rollout_depth`
    /// decisions, then the returns or the evaluator's estimate, divided by the game's return
    /// bound.
    fn leaf_value(&mut self, state: G) -> Vec<f64> {
        let bound = state.return_bound();
        let mut values = self.rollout(state);
        for v in &mut values {
            *v = (*v / bound).clamp(-1.0, 1.0);
        }
        values
    }

    fn rollout(&mut self, mut state: G) -> Vec<f64> {
        let mut decisions = 0;
        loop {
            match state.turn() {
                Turn::Terminal => return state.returns(),
                Turn::Chance => {
                    let a = state.sample_chance(&mut self.rng).expect("chance outcomes");
                    state.apply_legal(a);
                }
                Turn::Player(_) => {
                    if self.config.rollout_depth.is_some_and(|d| decisions >= d) {
                        return self.evaluator.evaluate(&state);
                    }
                    let a = match self.policy.as_mut() {
                        Some(policy) => policy.select_action(&state),
                        None => {
                            state.legal_actions_into(&mut self.legal);
                            self.legal[self.rng.gen_range(0..self.legal.len())]
                        }
                    };
                    state.apply_legal(a);
                    decisions += 1;
                }
            }
        }
    }
}
