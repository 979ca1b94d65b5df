//! A trained network loaded and ready to evaluate positions on the process's compute device
//! ([`Network`]): the one object the agents, the probes and self-play play with.

use crate::network::checkpoint;
use crate::network::inference::{evaluate, Evaluation, InputBuffers};
use crate::network::net::PolicyValueNet;
use agents::{NetOutput, PolicyValue, TensorGame, Turn};
use burn::tensor::Device;
use std::path::Path;
use std::sync::Mutex;

/// A trained network ready to evaluate positions on the process's compute device (in ONNX
/// Runtime when that is the device: [`crate::network::compute::onnx_threads`]).
pub struct Network {
    net: PolicyValueNet,
    device: Device,
    #[cfg(feature = "onnx")]
    onnx: Option<crate::network::onnx::runtime::OnnxNetwork>,
    buffers: Mutex<InputBuffers>,
    /// The checkpoint's description (tensor sizes), when loaded from one.
    meta: Option<checkpoint::Meta>,
    /// Where it was loaded from.
    pub source: String,
}

impl Network {
    /// Load the checkpoint a path names (a checkpoint folder, or a run with a `latest`).
    pub fn load(path: &Path) -> Result<Network, String> {
        let device = crate::network::compute::device();
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
            onnx: match crate::network::compute::onnx_threads() {
                Some(threads) => Some(crate::network::onnx::runtime::OnnxNetwork::new(&net, threads)?),
                None => None,
            },
            net,
            device: crate::network::compute::device(),
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
            return crate::network::inference::evaluate_onnx(onnx, &mut buffers, states);
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
