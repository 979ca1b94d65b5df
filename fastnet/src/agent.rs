//! The fast network as players and judges: the network alone (`fast:net=PATH`), its value
//! at the leaves and its policy choosing the candidates of MCTS (`mcts-fast:...,net=PATH`),
//! and the [`PolicyValue`] interface that `az` search and `tde probe` read.

use crate::action_features::{action_features, ActionFeatures};
use crate::checkpoint::Checkpoint;
use crate::features::position_features;
use crate::network::{policy_logits, softmax, value, Params};
use crate::prior::Prior;
use crate::quantised::QuantisedLayer;
use agents::learned::Generation;
use agents::mcts::{Evaluator, MctsAgent, MctsConfig, Ranker, RolloutPolicy};
use agents::race::RaceConfig;
use agents::spec::{Args, Param};
use agents::{
    Agent, AgentKind, AzAgent, AzConfig, Game, NetOutput, PolicyValue, Registry, ScriptedAgent, Turn,
};
use engine::state::{Player, Side};
use engine::{Action, GameState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A loaded network: its checkpoint, its prior's generation and the file it came from. It
/// plays in its 16-bit form ([`crate::quantised`]: the first layer in integers, within a
/// tested tolerance of the f32 network it was trained as).
pub struct FastNet {
    /// The checkpoint (read-only: the play form is made from it once).
    checkpoint: Checkpoint,
    /// The checkpoint's first layer in 16 bits.
    play_layer: QuantisedLayer,
    /// The prior player's generation.
    pub prior: Arc<Generation>,
    /// The file it was read from.
    pub source: String,
    /// Priors for [`PolicyValue`] callers, which hold the network by shared reference.
    priors: Mutex<Vec<Prior>>,
}

impl FastNet {
    /// A network from a checkpoint; `source` names it.
    pub fn new(checkpoint: Checkpoint, source: &str) -> Result<FastNet, String> {
        let prior = Generation::parse(&checkpoint.meta.prior.to_string(), &format!("{source}: prior"))?;
        let play_layer = QuantisedLayer::new(&checkpoint.params).map_err(|e| format!("{source}: {e}"))?;
        Ok(FastNet {
            checkpoint,
            play_layer,
            prior: Arc::new(prior),
            source: source.to_string(),
            priors: Mutex::default(),
        })
    }

    /// Read a checkpoint file; a relative path missing here may name a shipped checkpoint
    /// (`checkpoints/fast/gen-000.fnet`), found beside the built-in game data.
    pub fn load(path: &Path) -> Result<FastNet, String> {
        let shipped = engine::data::builtin_configs_dir().join("..").join(path);
        let file =
            if path.is_relative() && !path.exists() && shipped.exists() { shipped.as_path() } else { path };
        FastNet::new(Checkpoint::load(file)?, &path.display().to_string())
    }

    /// The parameters.
    pub fn params(&self) -> &Params {
        &self.checkpoint.params
    }

    /// The value of `state` for `observer`, in [−1, 1], from the observer's view.
    pub fn value(&self, state: &GameState, observer: Side, buffer: &mut Vec<u16>) -> f32 {
        position_features(state, observer, buffer);
        value(self.params(), &self.play_layer.trunk(self.params(), buffer))
    }

    /// The policy at `state`'s decision over `legal` (its legal actions), for the mover
    /// `mover`, with the prior scores from `prior`: the logits into `out`, the value returned.
    pub fn decide(
        &self,
        state: &GameState,
        mover: Side,
        legal: &[Action],
        prior: &mut Prior,
        scratch: &mut Scratch,
        out: &mut Vec<f32>,
    ) -> f32 {
        position_features(state, mover, &mut scratch.features);
        let t = self.play_layer.trunk(self.params(), &scratch.features);
        prior.priors(state, legal, &mut scratch.priors);
        scratch.actions.clear();
        scratch.actions.extend(legal.iter().map(|&a| action_features(state, mover, a)));
        policy_logits(self.params(), &t, &scratch.actions, &scratch.priors, out);
        value(self.params(), &t)
    }

    fn take_prior(&self) -> Prior {
        let pooled = self.priors.lock().ok().and_then(|mut p| p.pop());
        pooled.unwrap_or_else(|| Prior::new(self.prior.clone(), 0x5eed))
    }

    fn give_prior(&self, prior: Prior) {
        if let Ok(mut p) = self.priors.lock() {
            p.push(prior);
        }
    }
}

/// Buffers a decision reuses.
#[derive(Default)]
pub struct Scratch {
    features: Vec<u16>,
    priors: Vec<f32>,
    actions: Vec<ActionFeatures>,
    legal: Vec<Action>,
    logits: Vec<f32>,
}

impl Scratch {
    /// The prior scores of the last decision [`FastNet::decide`] judged, in its legal
    /// actions' order.
    pub fn priors(&self) -> &[f32] {
        &self.priors
    }
}

/// The side whose view judges `state`: the side to move, or side A at other nodes.
fn judge_side(state: &GameState) -> Side {
    match state.current_player() {
        Player::Side(s) if s <= 1 => s,
        _ => 0,
    }
}

impl PolicyValue<GameState> for FastNet {
    fn evaluate(&self, states: &[(&GameState, usize)]) -> Result<Vec<NetOutput>, String> {
        let mut prior = self.take_prior();
        let mut scratch = Scratch::default();
        let mut out = Vec::with_capacity(states.len());
        for &(state, mover) in states {
            let legal = Game::legal_actions(state);
            let mut logits = Vec::new();
            let v = self.decide(state, mover as Side, &legal, &mut prior, &mut scratch, &mut logits);
            softmax(&mut logits);
            out.push(NetOutput { priors: logits, value: v });
        }
        self.give_prior(prior);
        Ok(out)
    }
}

/// The network alone: the action of the highest logit (or one drawn from the softmax at a
/// temperature).
pub struct FastPolicyAgent {
    net: Arc<FastNet>,
    prior: Prior,
    temperature: f64,
    rng: ChaCha8Rng,
    scratch: Scratch,
    last: Option<Vec<(Action, f64)>>,
}

impl FastPolicyAgent {
    /// The network `net` at softmax temperature `temperature` (0: the best action), seeded.
    pub fn new(net: Arc<FastNet>, temperature: f64, seed: u64) -> FastPolicyAgent {
        let prior = Prior::new(net.prior.clone(), seed);
        FastPolicyAgent {
            net,
            prior,
            temperature,
            rng: ChaCha8Rng::seed_from_u64(seed),
            scratch: Scratch::default(),
            last: None,
        }
    }
}

impl Agent<GameState> for FastPolicyAgent {
    fn name(&self) -> String {
        let temp = if self.temperature > 0.0 { format!(",temp={}", self.temperature) } else { String::new() };
        format!("fast:net={}{temp}", self.net.source)
    }

    fn select_action(&mut self, state: &GameState) -> Action {
        let mut legal = std::mem::take(&mut self.scratch.legal);
        state.legal_actions_into(&mut legal);
        let Turn::Player(mover) = Game::turn(state) else { return legal[0] };
        if legal.len() == 1 {
            self.last = None;
            let a = legal[0];
            self.scratch.legal = legal;
            return a;
        }
        let mut logits = std::mem::take(&mut self.scratch.logits);
        self.net.decide(state, mover as Side, &legal, &mut self.prior, &mut self.scratch, &mut logits);
        let choice = if self.temperature > 0.0 {
            let scaled: Vec<f64> = logits.iter().map(|&l| l as f64).collect();
            agents::learned::sample_softmax(&scaled, self.temperature, self.rng.gen())
        } else {
            best(&logits)
        };
        softmax(&mut logits);
        self.last = Some(legal.iter().zip(&logits).map(|(&a, &p)| (a, p as f64)).collect());
        let a = legal[choice];
        self.scratch.legal = legal;
        self.scratch.logits = logits;
        a
    }

    /// The policy's distribution over the last decision's actions.
    fn last_search(&self) -> Option<Vec<(Action, f64)>> {
        self.last.clone()
    }
}

/// The index of the largest of `xs` (the first on ties).
fn best(xs: &[f32]) -> usize {
    let mut b = 0;
    for (i, &x) in xs.iter().enumerate() {
        if x > xs[b] {
            b = i;
        }
    }
    b
}

/// The network's value at MCTS's leaves, for both sides (a solo game: its score so far).
pub struct FastEvaluator {
    /// The network.
    pub net: Arc<FastNet>,
}

impl Evaluator<GameState> for FastEvaluator {
    fn evaluate(&self, state: &GameState) -> Vec<f64> {
        if state.solo_score().is_some() {
            return agents::drowned_earth::MaterialEvaluator.evaluate(state);
        }
        thread_local! {
            static FEATURES: std::cell::RefCell<Vec<u16>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let side = judge_side(state);
        let v = FEATURES.with(|f| self.net.value(state, side, &mut f.borrow_mut())) as f64;
        if side == 0 {
            vec![v, -v]
        } else {
            vec![-v, v]
        }
    }
}

/// Orders MCTS's candidates by the network's policy.
pub struct FastRanker {
    net: Arc<FastNet>,
    prior: Prior,
    scratch: Scratch,
    /// The policy's probability of the first action of the last ranking.
    top: Option<f64>,
}

impl FastRanker {
    /// A ranker by `net`, seeded.
    pub fn new(net: Arc<FastNet>, seed: u64) -> FastRanker {
        let prior = Prior::new(net.prior.clone(), seed);
        FastRanker { net, prior, scratch: Scratch::default(), top: None }
    }
}

impl Ranker<GameState> for FastRanker {
    fn rank(&mut self, state: &GameState, legal: &mut Vec<Action>) {
        self.top = None;
        let Turn::Player(mover) = Game::turn(state) else { return };
        if legal.len() < 2 {
            return;
        }
        let mut logits = std::mem::take(&mut self.scratch.logits);
        self.net.decide(state, mover as Side, legal, &mut self.prior, &mut self.scratch, &mut logits);
        softmax(&mut logits);
        let mut order: Vec<(f32, Action)> = logits.iter().copied().zip(legal.iter().copied()).collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
        self.top = Some(order[0].0 as f64);
        legal.clear();
        legal.extend(order.into_iter().map(|(_, a)| a));
        self.scratch.logits = logits;
    }

    fn top_probability(&self) -> Option<f64> {
        self.top
    }
}

/// The rollout players of `mcts-fast:...,rollout=R`.
const ROLLOUTS: [&str; 2] = ["scripted", "fast"];

/// Load the network of a checked spec's `net` parameter.
fn net_of(args: &Args) -> Result<Arc<FastNet>, String> {
    let path = args.text("net").ok_or_else(|| format!("{}: needs net=PATH", args.name()))?;
    FastNet::load(Path::new(path)).map(Arc::new)
}

/// The agents of the fast network, added to `registry`: `fast:net=PATH[,temp=T]` (the network
/// alone) and `mcts-fast:...,net=PATH[,depth=D,rollout=scripted|fast]` (MCTS whose candidates
/// the network's policy chooses and whose leaves its value judges, after `depth` decisions
/// of rollout, 0 by default), `mcts-fast-root:...,net=PATH` (the `mcts` agent — rollouts, the
/// scripted order, material at their end — with the root's candidates from the network's
/// policy: one network call a move) and `az-fast:...,net=PATH` (AlphaZero-style search on its
/// priors and values).
pub fn register(registry: &mut Registry<GameState>) {
    registry.add(AgentKind {
        name: "fast",
        about: "the fast network's policy alone, no search",
        params: vec![
            Param::path("net", "a fast-network checkpoint (.fnet)").required(),
            Param::real("temp", 0.0, 10.0, "softmax temperature (0, the default: the best action)"),
        ],
        build: |args, seed| {
            Ok(Box::new(FastPolicyAgent::new(net_of(args)?, args.real("temp").unwrap_or(0.0), seed)))
        },
    });
    registry.add(AgentKind {
        name: "mcts-fast",
        about: "MCTS with the fast network: its policy chooses the candidates, its value judges the leaves",
        params: MctsConfig::PARAMS
            .into_iter()
            .chain([
                Param::path("net", "a fast-network checkpoint (.fnet)").required(),
                Param::agent(
                    "rollout",
                    &ROLLOUTS,
                    "who plays the `depth` rollout decisions (default scripted)",
                ),
            ])
            .collect(),
        build: |args, seed| Ok(Box::new(make_mcts_fast(args, seed)?)),
    });
    registry.add(AgentKind {
        name: "mcts-fast-root",
        about: "MCTS with rollouts whose root candidates the fast network's policy chooses (the scripted order below the root)",
        params: agents::mcts_params()
            .into_iter()
            .chain([Param::path("net", "a fast-network checkpoint (.fnet)").required()])
            .collect(),
        build: |args, seed| {
            let ranker = FastRanker::new(net_of(args)?, seed ^ 0x243f_6a88);
            Ok(Box::new(agents::make_mcts(args, seed)?.with_root_ranker(Box::new(ranker), "fast")))
        },
    });
    registry.add(AgentKind {
        name: "race-fast",
        about: "the fast network's best actions raced on paired scripted rollouts (common dice), material at their end",
        params: RaceConfig::PARAMS
            .into_iter()
            .chain([Param::path("net", "a fast-network checkpoint (.fnet)").required()])
            .collect(),
        build: |args, seed| {
            let ranker = FastRanker::new(net_of(args)?, seed ^ 0x243f_6a88);
            Ok(Box::new(agents::make_race(args, Box::new(ranker), "rank=fast", seed)?))
        },
    });
    registry.add(AgentKind {
        name: "az-fast",
        about: "AlphaZero-style search (Gumbel or PUCT root) with the fast network's priors and values",
        params: AzConfig::PARAMS
            .into_iter()
            .chain([Param::path("net", "a fast-network checkpoint (.fnet)").required()])
            .collect(),
        build: |args, seed| {
            let net = net_of(args)?;
            let label = net.source.clone();
            Ok(Box::new(AzAgent::new(AzConfig::from_args(args)?, net, &label, seed)))
        },
    });
}

/// The MCTS agent of a checked `mcts-fast` spec.
pub fn make_mcts_fast(args: &Args, seed: u64) -> Result<MctsAgent<GameState>, String> {
    let mut config = MctsConfig::from_args(args)?;
    let depth = *config.rollout_depth.get_or_insert(0);
    let net = net_of(args)?;
    let mut agent = mcts_on(net.clone(), config, seed);
    if depth > 0 {
        let (policy, label): (RolloutPolicy<GameState>, &str) = match args.agent("rollout").map(|r| r.name())
        {
            Some("fast") => (Arc::new(move |s| Box::new(FastPolicyAgent::new(net.clone(), 0.0, s))), "fast"),
            _ => (Arc::new(|s| Box::new(ScriptedAgent::new(s))), "scripted"),
        };
        agent = agent.with_rollout(policy, label);
    }
    Ok(agent)
}

/// MCTS on `net` alone, with `config`: its policy chooses the `width` candidates at every
/// node and its value judges the leaves (after `config`'s rollout depth, played at random
/// unless a rollout player is added).
pub fn mcts_on(net: Arc<FastNet>, config: MctsConfig, seed: u64) -> MctsAgent<GameState> {
    let ranks = net.clone();
    MctsAgent::new(config, Arc::new(FastEvaluator { net }), seed)
        .with_ranker(Arc::new(move |s| Box::new(FastRanker::new(ranks.clone(), s))), "fast")
}
