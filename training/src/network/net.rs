//! The policy/value network: a small residual convolutional trunk over the observation planes
//! with the global features mixed in, a policy head and a value head.
//!
//! - **Trunk**: a 3×3 convolution of the planes plus a linear map of the globals added to
//!   every cell, then `blocks` residual blocks of two 3×3 convolutions (ReLU).
//! - **Policy head**: a 1×1 convolution gives the policy planes; the trunk's mean over the
//!   cells, concatenated with the globals, goes through a hidden layer to the global policy
//!   logits. An action's logit is the sum of its [`Recipe`] terms, so only legal actions are
//!   scored and the softmax runs over them alone.
//! - **Value head**: the same hidden features through one more layer to a tanh in [-1, 1],
//!   the expected return of the player to move.
//!
//! The second architecture ([`NetConfig::is_v2`]) adds, as KataGo does:
//! - **Global pooling in the trunk** (`pooling`): in every block, the first convolution's
//!   output is pooled (mean and max over the real cells, the mask plane's) and a linear map of
//!   the pooled vector is added to every cell's channels before the second convolution;
//! - **A value head of its own** (`value_hidden`): the trunk's mean and max over the real
//!   cells with the globals through its own hidden layer to the value and, with `margin`, to
//!   a second tanh predicting the squashed victory-point margin.

use crate::network_training::config::NetConfig;
use agents::{Recipe, TensorShape};
use burn::module::{Module, ModuleVisitor, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::{relu, tanh};
use burn::tensor::{Device, Int, Tensor, TensorData};

/// Reads every weight once, which draws the lazily initialised ones.
struct TouchWeights;

impl ModuleVisitor for TouchWeights {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let _ = param.val();
    }
}

/// One residual block.
#[derive(Module, Debug)]
pub struct Residual {
    pub(crate) first: Conv2d,
    pub(crate) second: Conv2d,
    /// With pooling: the map of the first convolution's pooled output (`2 × channels`) to a
    /// bias of every cell's channels.
    pub(crate) pool: Option<Linear>,
}

/// The network.
#[derive(Module, Debug)]
pub struct PolicyValueNet {
    pub(crate) stem: Conv2d,
    pub(crate) globals_in: Linear,
    pub(crate) blocks: Vec<Residual>,
    pub(crate) policy_planes: Conv2d,
    pub(crate) hidden: Linear,
    pub(crate) policy_globals: Linear,
    pub(crate) value_hidden: Linear,
    pub(crate) value: Linear,
    /// With `margin`: the margin head on the value head's hidden layer.
    pub(crate) margin: Option<Linear>,
    /// The plane marking the real cells, for pooling (none: all cells count).
    pub(crate) mask_plane: Option<usize>,
    /// Whether the value head has its own hidden layer on the pooled trunk.
    pub(crate) own_value: bool,
}

/// The network's outputs for a batch.
pub struct Outputs {
    /// Policy planes, flattened per position: `[batch, policy_planes × cells]`.
    pub planes: Tensor<2>,
    /// Global policy logits: `[batch, policy_globals]`.
    pub globals: Tensor<2>,
    /// Values in [-1, 1]: `[batch, 1]`.
    pub value: Tensor<2>,
    /// With a margin head: the squashed victory-point margins in [-1, 1], `[batch, 1]`.
    pub margin: Option<Tensor<2>>,
}

/// Mean and max of `x` (`[batch, channels, depth, width]`, non-negative: ReLU outputs) over
/// the cells where `mask` (`[batch, 1, depth, width]`, 1 or 0) is 1, or over every cell
/// without a mask: `[batch, 2 × channels]`. Masked cells count 0 towards the max, which
/// leaves it unchanged since the real cells are at least 0.
pub fn pool_cells(x: Tensor<4>, mask: Option<&Tensor<4>>) -> Tensor<2> {
    let [batch, channels, _, _] = x.dims();
    let (mean, max) = match mask {
        Some(mask) => {
            let kept = x * mask.clone();
            let count = mask.clone().sum_dims(&[2, 3]).clamp_min(1.0);
            (kept.clone().sum_dims(&[2, 3]) / count, kept.max_dims(&[2, 3]))
        }
        None => (x.clone().mean_dims(&[2, 3]), x.max_dims(&[2, 3])),
    };
    Tensor::cat(vec![mean.reshape([batch, channels]), max.reshape([batch, channels])], 1)
}

impl PolicyValueNet {
    /// A freshly initialised network for a game's tensor shape.
    pub fn new(config: &NetConfig, shape: &TensorShape, device: &Device) -> PolicyValueNet {
        let c = config.channels;
        let own_value = config.value_hidden > 0;
        let value_in = if own_value { 2 * c + shape.globals } else { config.hidden };
        let value_width = if own_value { config.value_hidden } else { config.hidden };
        let conv = |i: usize, o: usize, k: usize| {
            Conv2dConfig::new([i, o], [k, k]).with_padding(PaddingConfig2d::Same).init(device)
        };
        PolicyValueNet {
            stem: conv(shape.planes, c, 3),
            globals_in: LinearConfig::new(shape.globals, c).init(device),
            blocks: (0..config.blocks)
                .map(|_| Residual {
                    first: conv(c, c, 3),
                    second: conv(c, c, 3),
                    pool: config.pooling.then(|| LinearConfig::new(2 * c, c).init(device)),
                })
                .collect(),
            policy_planes: conv(c, shape.policy_planes, 1),
            hidden: LinearConfig::new(c + shape.globals, config.hidden).init(device),
            policy_globals: LinearConfig::new(config.hidden, shape.policy_globals).init(device),
            value_hidden: LinearConfig::new(value_in, value_width).init(device),
            value: LinearConfig::new(value_width, 1).init(device),
            margin: config.margin.then(|| LinearConfig::new(value_width, 1).init(device)),
            mask_plane: config.mask_plane,
            own_value,
        }
    }

    /// A freshly initialised network whose weights depend on `seed` alone. Burn draws
    /// initial weights lazily from one process-wide generator, so seeding it and touching
    /// every weight happen under one lock: networks built at the same time on other
    /// threads (parallel tests, a learner beside an evaluation) cannot interleave draws.
    pub fn seeded(config: &NetConfig, shape: &TensorShape, device: &Device, seed: u64) -> PolicyValueNet {
        static INITIALISING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _guard = INITIALISING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        device.seed(seed);
        let net = PolicyValueNet::new(config, shape, device);
        net.visit(&mut TouchWeights);
        net
    }

    /// A network of `config` (the second architecture) that starts from `old`, a
    /// first-architecture network with the same trunk and policy sizes: its trunk and policy
    /// head are taken over, the pooling maps start at zero (so the trunk computes what `old`'s
    /// did) and the value and margin heads are fresh, drawn from `seed`.
    pub fn adopt(
        old: PolicyValueNet,
        config: &NetConfig,
        shape: &TensorShape,
        device: &Device,
        seed: u64,
    ) -> PolicyValueNet {
        let zeroed = |l: Linear| Linear {
            weight: Param::from_tensor(l.weight.val().zeros_like()),
            bias: l.bias.map(|b| Param::from_tensor(b.val().zeros_like())),
        };
        let mut fresh = PolicyValueNet::seeded(config, shape, device, seed);
        let blocks = old
            .blocks
            .into_iter()
            .zip(std::mem::take(&mut fresh.blocks))
            .map(|(o, f)| Residual { first: o.first, second: o.second, pool: f.pool.map(zeroed) })
            .collect();
        PolicyValueNet {
            stem: old.stem,
            globals_in: old.globals_in,
            blocks,
            policy_planes: old.policy_planes,
            hidden: old.hidden,
            policy_globals: old.policy_globals,
            ..fresh
        }
    }

    /// Run the network on `planes` (`[batch, planes, depth, width]`) and `globals`
    /// (`[batch, globals]`).
    pub fn forward(&self, planes: Tensor<4>, globals: Tensor<2>) -> Outputs {
        let [batch, _, depth, width] = planes.dims();
        let mask = self.mask_plane.map(|p| planes.clone().narrow(1, p, 1));
        let mixed = self.globals_in.forward(globals.clone());
        let channels = mixed.dims()[1];
        let mut x = relu(self.stem.forward(planes) + mixed.reshape([batch, channels, 1, 1]));
        for block in &self.blocks {
            let mut y = relu(block.first.forward(x.clone()));
            if let Some(pool) = &block.pool {
                let bias = pool.forward(pool_cells(y.clone(), mask.as_ref()));
                y = y + bias.reshape([batch, channels, 1, 1]);
            }
            x = relu(x + block.second.forward(y));
        }
        let policy_planes = self.policy_planes.forward(x.clone());
        let pp = policy_planes.dims()[1];
        let mean = x.clone().mean_dims(&[2, 3]).reshape([batch, channels]);
        let h = relu(self.hidden.forward(Tensor::cat(vec![mean, globals.clone()], 1)));
        let value_h = if self.own_value {
            let pooled = pool_cells(x, mask.as_ref());
            relu(self.value_hidden.forward(Tensor::cat(vec![pooled, globals], 1)))
        } else {
            relu(self.value_hidden.forward(h.clone()))
        };
        Outputs {
            planes: policy_planes.reshape([batch, pp * depth * width]),
            globals: self.policy_globals.forward(h),
            margin: self.margin.as_ref().map(|m| tanh(m.forward(value_h.clone()))),
            value: tanh(self.value.forward(value_h)),
        }
    }

    /// Number of trainable parameters.
    pub fn parameters(&self) -> usize {
        self.num_params()
    }

    /// Whether the network has a margin head (an output beside the value).
    pub fn has_margin(&self) -> bool {
        self.margin.is_some()
    }
}

/// The legal actions of a batch, padded to the longest list: gather indices of their recipe
/// terms into the flattened outputs, and which slots are real.
pub struct LegalTerms {
    /// Positions in the batch.
    pub batch: usize,
    /// Longest legal-action list.
    pub width: usize,
    /// Four gather indices per (position, slot), into `[planes…, globals…, 0]`.
    pub indices: Vec<i64>,
    /// 1 for a real slot, 0 for padding, per (position, slot).
    pub real: Vec<bool>,
}

impl LegalTerms {
    /// Gather indices for `recipes[b]` of each position `b`, for outputs of `shape`.
    pub fn new(recipes: &[&[Recipe]], shape: &TensorShape) -> LegalTerms {
        let batch = recipes.len();
        let width = recipes.iter().map(|r| r.len()).max().unwrap_or(0).max(1);
        let cells = shape.cells();
        let plane_len = shape.policy_planes * cells;
        let globals = shape.policy_globals;
        let zero = (batch * (plane_len + globals)) as i64;
        let mut indices = vec![zero; batch * width * 4];
        let mut real = vec![false; batch * width];
        for (b, list) in recipes.iter().enumerate() {
            for (slot, recipe) in list.iter().enumerate() {
                let at = (b * width + slot) * 4;
                real[b * width + slot] = true;
                for (k, (plane, cell)) in
                    recipe.spatial.iter().enumerate().filter_map(|(k, t)| Some((k, (*t)?)))
                {
                    indices[at + k] = (b * plane_len + plane as usize * cells + cell as usize) as i64;
                }
                for (k, g) in recipe.global.iter().enumerate().filter_map(|(k, t)| Some((k, (*t)?))) {
                    indices[at + 2 + k] = (batch * plane_len + b * globals + g as usize) as i64;
                }
            }
        }
        LegalTerms { batch, width, indices, real }
    }
}

/// The logits of the legal actions (`[batch, width]`, padding at −1e9) from the outputs.
pub fn legal_logits(outputs: &Outputs, terms: &LegalTerms, device: &Device) -> Tensor<2> {
    let [batch, plane_len] = outputs.planes.dims();
    let globals = outputs.globals.dims()[1];
    let flat = Tensor::cat(
        vec![
            outputs.planes.clone().reshape([batch * plane_len]),
            outputs.globals.clone().reshape([batch * globals]),
            Tensor::zeros([1], device),
        ],
        0,
    );
    let n = terms.indices.len();
    let index = Tensor::<1, Int>::from_data(TensorData::new(terms.indices.clone(), [n]), device);
    let logits = flat
        .select(0, index)
        .reshape([terms.batch, terms.width, 4])
        .sum_dim(2)
        .reshape([terms.batch, terms.width]);
    let padding = Tensor::<2, burn::tensor::Bool>::from_data(
        TensorData::new(terms.real.iter().map(|r| !r).collect::<Vec<bool>>(), [terms.batch, terms.width]),
        device,
    );
    logits.mask_fill(padding, -1.0e9)
}
