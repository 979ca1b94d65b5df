//! Running a network on game states: encoding a batch of positions into input tensors, and
//! reading back each position's prior over its legal actions and its value.

use crate::network::net::{legal_logits, LegalTerms, PolicyValueNet};
use agents::{Recipe, TensorGame, TensorShape};
use burn::tensor::activation::softmax;
use burn::tensor::{Device, Tensor, TensorData};

/// Reusable input buffers for a batch of positions of one shape.
#[derive(Default)]
pub struct InputBuffers {
    planes: Vec<f32>,
    globals: Vec<f32>,
}

impl InputBuffers {
    /// Encode each (state, observer) into the buffers and return the input tensors.
    pub fn encode<G: TensorGame>(
        &mut self,
        positions: &[(&G, usize)],
        shape: &TensorShape,
        device: &Device,
    ) -> (Tensor<4>, Tensor<2>) {
        self.fill(positions, shape);
        let (n, gl) = (positions.len(), shape.globals);
        let planes = Tensor::<4>::from_data(
            TensorData::new(self.planes.clone(), [n, shape.planes, shape.depth, shape.width]),
            device,
        );
        let globals = Tensor::<2>::from_data(TensorData::new(self.globals.clone(), [n, gl]), device);
        (planes, globals)
    }

    /// The planes and globals last encoded by [`InputBuffers::fill`].
    pub fn contents(&self) -> (&[f32], &[f32]) {
        (&self.planes, &self.globals)
    }

    /// Encode each (state, observer) into the buffers: `planes` then holds `positions × planes
    /// × depth × width` floats and `globals` `positions × globals`.
    pub fn fill<G: TensorGame>(&mut self, positions: &[(&G, usize)], shape: &TensorShape) {
        let n = positions.len();
        let (pl, gl) = (shape.plane_len(), shape.globals);
        self.planes.resize(n * pl, 0.0);
        self.globals.resize(n * gl, 0.0);
        for (b, (state, observer)) in positions.iter().enumerate() {
            state.encode_observation(
                *observer,
                &mut self.planes[b * pl..(b + 1) * pl],
                &mut self.globals[b * gl..(b + 1) * gl],
            );
        }
    }
}

/// What the network makes of one decision: a prior over the legal actions (in the order of
/// `legal`) and the value for the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation<A> {
    /// The legal actions.
    pub legal: Vec<A>,
    /// Their prior probabilities, summing to 1.
    pub priors: Vec<f32>,
    /// Expected return of the player to move, in [-1, 1].
    pub value: f32,
}

/// The tensor shape shared by a batch of positions (`None` for an empty batch); a batch
/// mixing board size classes is refused.
fn batch_shape<G: TensorGame>(states: &[(&G, usize)]) -> Result<Option<TensorShape>, String> {
    let Some((first, _)) = states.first() else { return Ok(None) };
    let shape = first.tensor_shape();
    if states.iter().any(|(s, _)| s.tensor_shape() != shape) {
        return Err("a batch mixes board size classes".into());
    }
    Ok(Some(shape))
}

/// Evaluate a batch of decision nodes of one tensor shape, each from its mover's view.
pub fn evaluate<G: TensorGame>(
    net: &PolicyValueNet,
    device: &Device,
    buffers: &mut InputBuffers,
    states: &[(&G, usize)],
) -> Result<Vec<Evaluation<G::Action>>, String> {
    let Some(shape) = batch_shape(states)? else { return Ok(Vec::new()) };
    let mut legal = Vec::with_capacity(states.len());
    let mut recipes: Vec<Vec<Recipe>> = Vec::with_capacity(states.len());
    for (s, _) in states {
        let actions = s.legal_actions();
        let r = actions.iter().map(|&a| s.encode_action(a).map(|(_, r)| r)).collect::<Result<Vec<_>, _>>()?;
        legal.push(actions);
        recipes.push(r);
    }
    // A GPU compiles and tunes its kernels for every new batch size: there, a batch is padded
    // with copies of its last position to the next power of two, so a few sizes serve all.
    let rows = crate::network::compute::padded_batch(states.len());
    let padded: std::borrow::Cow<[(&G, usize)]> = if rows == states.len() {
        std::borrow::Cow::Borrowed(states)
    } else {
        let mut padded = states.to_vec();
        padded.resize(rows, states[states.len() - 1]);
        std::borrow::Cow::Owned(padded)
    };
    let (planes, globals) = buffers.encode(&padded, &shape, device);
    let outputs = net.forward(planes, globals);
    let mut lists: Vec<&[Recipe]> = recipes.iter().map(Vec::as_slice).collect();
    lists.resize(rows, &recipes[recipes.len() - 1]);
    let terms = LegalTerms::new(&lists, &shape);
    let priors = softmax(legal_logits(&outputs, &terms, device), 1).into_data();
    let priors: Vec<f32> = priors.try_to_vec::<f32>().map_err(|e| format!("{e:?}"))?;
    let values: Vec<f32> = outputs.value.into_data().try_to_vec::<f32>().map_err(|e| format!("{e:?}"))?;
    Ok(legal
        .into_iter()
        .enumerate()
        .map(|(b, legal)| {
            let row = &priors[b * terms.width..b * terms.width + legal.len()];
            Evaluation { priors: row.to_vec(), legal, value: values[b] }
        })
        .collect())
}

/// Evaluate a batch of decision nodes of one tensor shape in ONNX Runtime: the network's raw
/// outputs, then each legal action's logit summed from its recipe and a softmax over them, as
/// [`evaluate`] computes with burn.
#[cfg(feature = "onnx")]
pub fn evaluate_onnx<G: TensorGame>(
    net: &crate::network::onnx::runtime::OnnxNetwork,
    buffers: &mut InputBuffers,
    states: &[(&G, usize)],
) -> Result<Vec<Evaluation<G::Action>>, String> {
    let Some(shape) = batch_shape(states)? else { return Ok(Vec::new()) };
    buffers.fill(states, &shape);
    let (planes, globals) = buffers.contents();
    let raw = net.run(planes, globals, states.len(), [shape.planes, shape.depth, shape.width])?;
    let (plane_len, global_len) = (shape.policy_planes * shape.cells(), shape.policy_globals);
    states
        .iter()
        .enumerate()
        .map(|(b, (s, _))| {
            let legal = s.legal_actions();
            let planes = &raw.planes[b * plane_len..(b + 1) * plane_len];
            let global = &raw.globals[b * global_len..(b + 1) * global_len];
            let logits = legal
                .iter()
                .map(|&a| {
                    let (_, recipe) = s.encode_action(a)?;
                    let spatial = recipe.spatial.iter().flatten();
                    let spatial: f32 = spatial
                        .map(|&(plane, cell)| planes[plane as usize * shape.cells() + cell as usize])
                        .sum();
                    Ok(spatial + recipe.global.iter().flatten().map(|&g| global[g as usize]).sum::<f32>())
                })
                .collect::<Result<Vec<f32>, String>>()?;
            Ok(Evaluation { priors: softmax_of(&logits), legal, value: raw.values[b] })
        })
        .collect()
}

/// The softmax of a list of logits.
#[cfg(feature = "onnx")]
fn softmax_of(logits: &[f32]) -> Vec<f32> {
    let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = logits.iter().map(|&l| (l - top).exp()).collect();
    let total: f32 = exps.iter().sum();
    exps.into_iter().map(|e| e / total).collect()
}
