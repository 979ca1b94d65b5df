//! The fast network's shape: the layer widths, where each parameter block lies in the flat
//! parameter vector, and the trunk's inner layers. Read by the forward pass
//! ([`crate::network`]) and the kernels ([`crate::kernel`]) alike.

use crate::action_features::ACTION_FEATURES;
use crate::features::POSITION_FEATURES;

/// Width of the accumulator (the first layer's outputs).
pub const H1: usize = 128;
/// Width of the second layer.
pub const H2: usize = 32;
/// Width of the third layer (the heads read it).
pub const H3: usize = 32;

/// Offset of W1: `POSITION_FEATURES` rows of `H1`.
pub const W1: usize = 0;
/// Offset of E: the policy's action-feature rows, `ACTION_FEATURES` rows of `H3`.
pub const E: usize = W1 + POSITION_FEATURES * H1;
/// Offset of c: one bias per action feature.
pub const C: usize = E + ACTION_FEATURES * H3;
/// Offset of the dense part (everything after the sparse rows): b1 first.
pub const DENSE: usize = C + ACTION_FEATURES;
/// Offset of b1.
pub const B1: usize = DENSE;
/// Offset of W2 (`H2` rows of `H1`).
pub const W2: usize = B1 + H1;
/// Offset of b2.
pub const B2: usize = W2 + H2 * H1;
/// Offset of W3 (`H3` rows of `H2`).
pub const W3: usize = B2 + H2;
/// Offset of b3.
pub const B3: usize = W3 + H3 * H2;
/// Offset of the value head's weights.
pub const WV: usize = B3 + H3;
/// Offset of the value head's bias.
pub const BV: usize = WV + H3;
/// Offset of the margin head's weights.
pub const WM: usize = BV + 1;
/// Offset of the margin head's bias.
pub const BM: usize = WM + H3;
/// Offset of α, the weight of the prior in the policy logits.
pub const ALPHA: usize = BM + 1;
/// Number of parameters.
pub const PARAMS: usize = ALPHA + 1;

// The blocks follow one another, the sparse rows first (checked when compiling).
const _: () = assert!(W1 < E && E < C && C < DENSE && DENSE == B1);

/// The inner layers of one position, kept for the heads and for training.
#[derive(Clone, Debug)]
pub struct Trunk {
    /// The accumulator (before the clipped ReLU).
    pub acc: [f32; H1],
    /// The second layer before its clipped ReLU.
    pub z2: [f32; H2],
    /// The third layer before its clipped ReLU.
    pub z3: [f32; H3],
    /// The third layer after it: what the heads read.
    pub h3: [f32; H3],
}

impl Default for Trunk {
    fn default() -> Self {
        Trunk { acc: [0.0; H1], z2: [0.0; H2], z3: [0.0; H3], h3: [0.0; H3] }
    }
}

/// The clipped ReLU: x limited to [0, 1].
#[inline(always)]
pub fn crelu(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}
