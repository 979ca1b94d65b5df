//! Agents that play with a trained network: the network alone (`policy:checkpoint=PATH`, or
//! blended with the scripted order, [`crate::blend`]), the network inside MCTS
//! (`mcts:...,net=PATH`) — its policy orders the candidates searched and its value judges the
//! leaves, with no rollouts — or at MCTS's root only (`mcts:...,rollout=R,net=PATH`), and
//! AlphaZero-style search (`az:net=PATH`).

use crate::blend::{BlendedPolicy, DEFAULT_BLEND};
use crate::checkpoint;
use crate::inference::{evaluate, Evaluation, InputBuffers};
use crate::net::PolicyValueNet;
use agents::mcts::{Evaluator, MctsAgent, Ranker};
use agents::{Agent, TensorGame, Turn};
use agents::{AzAgent, AzConfig, NetOutput, PolicyValue};
use burn::tensor::Device;
use engine::GameState;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// A trained network ready to evaluate positions on the process's compute device (in ONNX
/// Runtime when that is the device: [`crate::compute::onnx_threads`]).
pub struct Network {
    net: PolicyValueNet,
    device: Device,
    #[cfg(feature = "onnx")]
    onnx: Option<crate::onnx::runtime::OnnxNetwork>,
    buffers: Mutex<InputBuffers>,
    /// The checkpoint's description (tensor sizes), when loaded from one.
    meta: Option<checkpoint::Meta>,
    /// Where it was loaded from.
    pub source: String,
}

impl Network {
    /// Load the checkpoint a path names (a checkpoint folder, or a run with a `latest`).
    pub fn load(path: &Path) -> Result<Network, String> {
        let device = crate::compute::device();
        let (net, meta, dir) = checkpoint::load_network(path, &device).map_err(|e| e.to_string())?;
        Ok(Network { meta: Some(meta), ..Network::from_net(net, dir.display().to_string())? })
    }

    /// Load a checkpoint to play TDE: refused with a clear message when the network reads or
    /// writes other tensor sizes than this engine's encodings (a checkpoint of an older
    /// observation, or of another game).
    pub fn load_for_tde(path: &Path) -> Result<Network, String> {
        let network = Network::load(path)?;
        network.check_shape(&tde_shape())?;
        Ok(network)
    }

    /// Wrap an in-memory network (for evaluation during training); with ONNX Runtime as the
    /// device, the network's session is built here.
    pub fn from_net(net: PolicyValueNet, source: String) -> Result<Network, String> {
        Ok(Network {
            #[cfg(feature = "onnx")]
            onnx: match crate::compute::onnx_threads() {
                Some(threads) => Some(crate::onnx::runtime::OnnxNetwork::new(&net, threads)?),
                None => None,
            },
            net,
            device: crate::compute::device(),
            buffers: Mutex::new(InputBuffers::default()),
            meta: None,
            source,
        })
    }

    /// Whether a game's tensors fit the checkpoint this network was loaded from.
    pub fn check_shape(&self, shape: &agents::TensorShape) -> Result<(), String> {
        match &self.meta {
            Some(meta) => meta.check_shape(shape).map_err(|e| format!("checkpoint {}: {e}", self.source)),
            None => Ok(()),
        }
    }

    /// Evaluate decision nodes, each from its mover's view.
    pub fn evaluate<G: TensorGame>(
        &self,
        states: &[(&G, usize)],
    ) -> Result<Vec<Evaluation<G::Action>>, String> {
        if let Some((first, _)) = states.first() {
            self.check_shape(&first.tensor_shape())?;
        }
        let mut buffers = self.buffers.lock().unwrap_or_else(|p| p.into_inner());
        #[cfg(feature = "onnx")]
        if let Some(onnx) = &self.onnx {
            return crate::inference::evaluate_onnx(onnx, &mut buffers, states);
        }
        evaluate(&self.net, &self.device, &mut buffers, states)
    }

    /// The value of any non-terminal state for each of two players: at a decision the mover's
    /// value; elsewhere (a chance node) the average of both players' views.
    pub fn values<G: TensorGame>(&self, state: &G) -> Vec<f64> {
        let view = |p: usize| {
            let mut buffers = self.buffers.lock().unwrap_or_else(|e| e.into_inner());
            let shape = state.tensor_shape();
            #[cfg(feature = "onnx")]
            if let Some(onnx) = &self.onnx {
                buffers.fill(&[(state, p)], &shape);
                let (planes, globals) = buffers.contents();
                let raw = onnx.run(planes, globals, 1, [shape.planes, shape.depth, shape.width]);
                return raw.map_or(0.0, |r| r.values[0] as f64);
            }
            let (planes, globals) = buffers.encode(&[(state, p)], &shape, &self.device);
            let v: Vec<f32> =
                self.net.forward(planes, globals).value.into_data().try_to_vec::<f32>().unwrap_or(vec![0.0]);
            v[0] as f64
        };
        let v0 = match state.turn() {
            Turn::Player(p) => {
                let v = view(p);
                if p == 0 {
                    v
                } else {
                    -v
                }
            }
            _ => (view(0) - view(1)) / 2.0,
        };
        vec![v0, -v0]
    }
}

impl<G: TensorGame> PolicyValue<G> for Network {
    /// Evaluate any decision nodes: one forward pass per board size class among them.
    fn evaluate(&self, states: &[(&G, usize)]) -> Result<Vec<NetOutput>, String> {
        let mut out: Vec<Option<NetOutput>> = vec![None; states.len()];
        let mut shapes: Vec<agents::TensorShape> = Vec::new();
        for (s, _) in states {
            let shape = s.tensor_shape();
            if !shapes.contains(&shape) {
                shapes.push(shape);
            }
        }
        for shape in shapes {
            let members: Vec<usize> =
                (0..states.len()).filter(|&i| states[i].0.tensor_shape() == shape).collect();
            let group: Vec<(&G, usize)> = members.iter().map(|&i| states[i]).collect();
            for (i, e) in members.into_iter().zip(Network::evaluate(self, &group)?) {
                out[i] = Some(NetOutput { priors: e.priors, value: e.value });
            }
        }
        Ok(out.into_iter().flatten().collect())
    }
}

/// The network alone: the most probable legal action, or one sampled at a temperature.
pub struct PolicyAgent {
    network: Arc<Network>,
    temperature: f64,
    rng: ChaCha8Rng,
}

impl PolicyAgent {
    /// A policy agent; `temperature` 0 plays the most probable action.
    pub fn new(network: Arc<Network>, temperature: f64, seed: u64) -> PolicyAgent {
        PolicyAgent { network, temperature, rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl<G: TensorGame> Agent<G> for PolicyAgent {
    fn name(&self) -> String {
        format!("policy:checkpoint={},temp={}", self.network.source, self.temperature)
    }

    fn select_action(&mut self, state: &G) -> G::Action {
        let Turn::Player(p) = state.turn() else { panic!("select_action at a node that is not a decision") };
        let e =
            self.network.evaluate(&[(state, p)]).expect("the network evaluates a legal position").remove(0);
        if self.temperature <= 0.0 {
            let best = e.priors.iter().enumerate().fold(0, |b, (i, &x)| if x > e.priors[b] { i } else { b });
            return e.legal[best];
        }
        let weights: Vec<f64> = e.priors.iter().map(|&p| (p as f64).powf(1.0 / self.temperature)).collect();
        let mut x = self.rng.gen::<f64>() * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return e.legal[i];
            }
            x -= w;
        }
        e.legal[e.legal.len() - 1]
    }
}

/// The network's value as MCTS's leaf evaluator.
pub struct NetEvaluator(pub Arc<Network>);

impl<G: TensorGame> Evaluator<G> for NetEvaluator {
    fn evaluate(&self, state: &G) -> Vec<f64> {
        self.0.values(state)
    }
}

/// The network's policy as MCTS's candidate order.
pub struct NetRanker(pub Arc<Network>);

impl<G: TensorGame> Ranker<G> for NetRanker {
    fn rank(&mut self, state: &G, legal: &mut Vec<G::Action>) {
        let Turn::Player(p) = state.turn() else { return };
        let Ok(mut e) = self.0.evaluate(&[(state, p)]) else { return };
        let e = e.remove(0);
        let mut order: Vec<(f32, G::Action)> = e.priors.into_iter().zip(e.legal).collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        legal.clear();
        legal.extend(order.into_iter().map(|(_, a)| a));
    }
}

/// The tensor sizes of this engine's encodings (the board size class aside).
fn tde_shape() -> agents::TensorShape {
    use engine::encoding::{GLOBALS, PLANES, POLICY_GLOBALS, POLICY_PLANES};
    agents::TensorShape {
        planes: PLANES,
        depth: 0,
        width: 0,
        globals: GLOBALS,
        policy_planes: POLICY_PLANES,
        policy_globals: POLICY_GLOBALS,
        policy_size: 0,
    }
}

/// Parse `key=value` parameters into the value of `key` and the rest.
fn take_param<'a>(params: &'a str, key: &str) -> (Option<&'a str>, String) {
    let mut found = None;
    let rest: Vec<&str> = params
        .split(',')
        .filter(|p| match p.strip_prefix(key).and_then(|r| r.strip_prefix('=')) {
            Some(v) => {
                found = Some(v);
                false
            }
            None => !p.is_empty(),
        })
        .collect();
    (found, rest.join(","))
}

/// The weight of a `blend=W` parameter: a number from 0 to 100.
fn parse_blend(w: &str) -> Result<f64, String> {
    w.parse::<f64>()
        .ok()
        .filter(|w| w.is_finite() && (0.0..=100.0).contains(w))
        .ok_or_else(|| format!("blend `{w}` is not a number from 0 to 100"))
}

/// Build any agent the CLI and the arena know, learned ones included: `policy:checkpoint=PATH
/// [,temp=T|,blend=W]` (the network alone, or blended with the scripted order, see
/// [`crate::blend`]), `mcts:...,net=PATH` (the network's priors and values, no rollouts),
/// `mcts:...,rollout=R,net=PATH[,blend=W]` (rollouts, with the root's candidates chosen by
/// the blend), `az:net=PATH[,sims=N|ms=T,...]` (AlphaZero-style search with the network, see
/// [`AzConfig::parse`]), and everything [`agents::make_agent`] builds.
pub fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<GameState>>, String> {
    let (name, params) = spec.split_once(':').unwrap_or((spec, ""));
    match name {
        "policy" => {
            let (path, rest) = take_param(params, "checkpoint");
            let path = path.ok_or("agent `policy` needs checkpoint=PATH")?;
            let (temp, rest) = take_param(&rest, "temp");
            let (blend, rest) = take_param(&rest, "blend");
            if !rest.is_empty() {
                return Err(format!("agent `policy`: unknown parameters `{rest}` (checkpoint, temp, blend)"));
            }
            if let Some(weight) = blend {
                if temp.is_some() {
                    return Err(
                        "agent `policy`: blend plays the best blended action and takes no temp".into()
                    );
                }
                let weight = parse_blend(weight)?;
                let network = Arc::new(Network::load_for_tde(Path::new(path))?);
                return Ok(Box::new(BlendedPolicy::new(network, weight, seed)));
            }
            let temperature = match temp {
                Some(t) => t
                    .parse::<f64>()
                    .ok()
                    .filter(|t| t.is_finite() && (0.0..=10.0).contains(t))
                    .ok_or_else(|| format!("agent `policy`: temp `{t}` is not a number in [0, 10]"))?,
                None => 0.0,
            };
            let network = Arc::new(Network::load_for_tde(Path::new(path))?);
            Ok(Box::new(PolicyAgent::new(network, temperature, seed)))
        }
        "mcts" if params.split(',').any(|p| p.starts_with("net=")) => {
            let (path, rest) = take_param(params, "net");
            let path = path.ok_or("mcts: net needs a path")?;
            let (blend, rest) = take_param(&rest, "blend");
            if rest.split(',').any(|p| p.starts_with("rollout=")) {
                // Rollouts value the leaves; the network, blended with the scripted order,
                // chooses and orders the root's candidates.
                let weight = blend.map_or(Ok(DEFAULT_BLEND), parse_blend)?;
                let search = agents::make_mcts(&rest, seed)?;
                let network = Arc::new(Network::load_for_tde(Path::new(path))?);
                let ranker = BlendedPolicy::new(network, weight, seed ^ 0x5bd1_e995);
                let label = ranker.label();
                return Ok(Box::new(search.with_root_ranker(Box::new(ranker), &label)));
            }
            if blend.is_some() {
                return Err(
                    "mcts: blend needs rollout= (without rollouts the network ranks every node alone)".into(),
                );
            }
            let (mut config, _) = agents::parse_mcts(&rest)?;
            config.rollout_depth = Some(0);
            let network = Arc::new(Network::load_for_tde(Path::new(path))?);
            let ranker = network.clone();
            let agent = MctsAgent::new(config, Arc::new(NetEvaluator(network.clone())), seed)
                .with_ranker(Arc::new(move |_| Box::new(NetRanker(ranker.clone()))), "net");
            Ok(Box::new(agent))
        }
        "az" => {
            let (path, rest) = take_param(params, "net");
            let path = path.ok_or("agent `az` needs net=PATH")?;
            let config = AzConfig::parse(&rest)?;
            let network = Arc::new(Network::load_for_tde(Path::new(path))?);
            let label = network.source.clone();
            Ok(Box::new(AzAgent::new(config, network, &label, seed)))
        }
        _ => agents::make_agent(spec, seed),
    }
}
