//! The network's play form: the first layer in 16-bit integers, as Stockfish's NNUE keeps
//! its accumulator. Each W1 row and b1 are rounded to multiples of 1/[`SCALE`] and summed
//! with wrapping 16-bit adds: wrapping addition is exact modulo 2¹⁶ in any order, so an
//! accumulator updated incrementally equals one summed from scratch bit for bit, and the sum
//! is the rounded rows' true sum whenever that lies within ±32767/[`SCALE`] (checked on real
//! positions by `tests/quantised.rs`; the clipped ReLU reads only [0, 1] of it). The rows take
//! half the memory of the f32 rows and twice the lanes of a vector add. The dense layers above
//! stay in f32: at 128 × 32 + 32 × 32 they cost a fraction of the first layer.
//!
//! The tolerance, stated and tested: every value within [`VALUE_TOLERANCE`] of the f32
//! network's on the positions of real games.

use crate::kernel;
use crate::layout::{Trunk, B1, H1, W1};
use crate::network::{feature_changes, trunk_from_accumulator, Params};

/// Units of one in the accumulator: an f32 weight w is stored as round(w × SCALE).
pub const SCALE: f32 = 2048.0;

/// The largest difference in value (on [−1, 1]) from the f32 network that the play form
/// allows on real positions.
pub const VALUE_TOLERANCE: f32 = 0.02;

/// The first layer in 16-bit integers beside the f32 parameters it came from.
#[derive(Clone, Debug)]
pub struct QuantisedLayer {
    /// W1, row after row, each weight round(w × [`SCALE`]).
    rows: Vec<i16>,
    /// b1, rounded the same way.
    bias: [i16; H1],
}

impl QuantisedLayer {
    /// The first layer of `params`; an error names the first weight too large for 16 bits.
    pub fn new(params: &Params) -> Result<QuantisedLayer, String> {
        let quantise = |(i, &w): (usize, &f32)| {
            let q = (w * SCALE).round();
            if q.abs() > i16::MAX as f32 {
                Err(format!(
                    "parameter {i} ({w}) exceeds the 16-bit first layer's range ±{}",
                    i16::MAX as f32 / SCALE
                ))
            } else {
                Ok(q as i16)
            }
        };
        let first_layer = &params.data[W1..W1 + crate::features::POSITION_FEATURES * H1];
        let rows = first_layer.iter().enumerate().map(quantise).collect::<Result<Vec<_>, _>>()?;
        let mut bias = [0i16; H1];
        for (b, q) in bias
            .iter_mut()
            .zip(params.data[B1..B1 + H1].iter().enumerate().map(|(i, w)| quantise((B1 + i, w))))
        {
            *b = q?;
        }
        Ok(QuantisedLayer { rows, bias })
    }

    /// Row `f` of W1.
    fn row(&self, f: u16) -> &[i16] {
        let at = f as usize * H1;
        &self.rows[at..at + H1]
    }

    /// b1 + Σ W1[f] over `features`, summed from scratch.
    fn sum(&self, features: &[u16]) -> [i16; H1] {
        let mut values = self.bias;
        for &f in features {
            kernel::add_row_i16(&mut values, self.row(f), true);
        }
        values
    }

    /// The accumulator of `features` (sorted, with repeats), summed from scratch.
    pub fn accumulator(&self, features: &[u16]) -> QuantisedAccumulator {
        QuantisedAccumulator { values: self.sum(features), features: features.to_vec() }
    }

    /// The trunk of a position given by its sorted features, from scratch; `params` are the
    /// f32 parameters this layer came from (their dense layers run above it).
    pub fn trunk(&self, params: &Params, features: &[u16]) -> Trunk {
        trunk_from_accumulator(params, &dequantise(&self.sum(features)))
    }
}

/// The running sum of the 16-bit first layer for one position, updated incrementally.
#[derive(Clone, Debug)]
pub struct QuantisedAccumulator {
    /// b1 + Σ W1[f] over `features`, in units of 1/[`SCALE`] (wrapping).
    pub values: [i16; H1],
    /// The position's sorted features (with repeats).
    pub features: Vec<u16>,
}

impl QuantisedAccumulator {
    /// Move to the position of `features` (sorted) by adding the rows of the features it
    /// gains and subtracting those it loses; returns how many rows changed.
    pub fn update(&mut self, layer: &QuantisedLayer, features: &[u16]) -> usize {
        let values = &mut self.values;
        let changed = feature_changes(&self.features, features, |f, gained| {
            kernel::add_row_i16(values, layer.row(f), gained)
        });
        self.features.clear();
        self.features.extend_from_slice(features);
        changed
    }

    /// The trunk above this accumulator (the dense layers of `params` in f32).
    pub fn trunk(&self, params: &Params) -> Trunk {
        trunk_from_accumulator(params, &dequantise(&self.values))
    }
}

/// The accumulator in f32 units.
fn dequantise(values: &[i16; H1]) -> [f32; H1] {
    let mut acc = [0.0f32; H1];
    for (a, &v) in acc.iter_mut().zip(values) {
        *a = v as f32 / SCALE;
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_incremental_accumulator_equals_one_summed_from_scratch_bit_for_bit() {
        let mut params = Params::init(3);
        // Rows large enough that the running sum wraps past 16 bits on the way.
        for w in &mut params.data[W1..W1 + 10 * H1] {
            *w = 15.0;
        }
        let layer = QuantisedLayer::new(&params).unwrap();
        let a = [1u16, 2, 2, 3, 700, 2000];
        let b = [4u16, 5, 5, 6, 7, 8, 9, 700];
        let mut acc = layer.accumulator(&a);
        acc.update(&layer, &b);
        assert_eq!(acc.values, layer.accumulator(&b).values);
        acc.update(&layer, &a);
        assert_eq!(acc.values, layer.accumulator(&a).values);
    }

    #[test]
    fn a_weight_beyond_sixteen_bits_is_refused_by_its_index() {
        let mut params = Params::init(3);
        params.data[W1 + 5] = 40.0;
        let err = QuantisedLayer::new(&params).unwrap_err();
        assert!(err.starts_with("parameter 5 (40)"), "{err}");
    }
}
