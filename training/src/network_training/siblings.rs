//! The sibling loss: the value head taught the order among the children of one decision.
//!
//! Search chooses among a position's actions by the values of the positions they lead to, so
//! what it needs of a value head is the right order among those siblings (`tde probe
//! sibling`). Their values share most of their error (who is winning), and a squared error on
//! each child's value spends the head's capacity on that shared part. The sibling loss takes
//! it away: over every pair of children of one decision in a batch, the squared difference
//! between the head's and the rollouts' differences, both seen from the deciding player
//! ([`Sibling::sign`]), the pairwise loss of a ranking model on noisy rollout means.
//!
//! For pairs to exist, a batch draws whole families: each position drawn brings its siblings
//! ([`families`]; the learner's `batch_indices`).

use crate::network_training::sample::{Sample, Sibling};
use agents::TensorGame;
use burn::tensor::{Device, Tensor, TensorData};
use std::collections::HashMap;

/// Each sample's family: the indices of its siblings, itself included (empty for a sample
/// that is no child).
pub fn families<G: TensorGame>(samples: &[Sample<G>]) -> Vec<Vec<usize>> {
    let mut by_decision: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, s) in samples.iter().enumerate() {
        if let Some(Sibling { decision, .. }) = s.sibling {
            by_decision.entry(decision).or_default().push(i);
        }
    }
    samples
        .iter()
        .map(|s| s.sibling.map_or_else(Vec::new, |Sibling { decision, .. }| by_decision[&decision].clone()))
        .collect()
}

/// The sibling pairs of a batch as tensors.
pub(crate) struct SiblingPairs {
    /// `[batch, batch]`: 1 where rows i < j are children of one decision.
    mask: Tensor<2>,
    /// `[batch, 1]`: each row's [`Sibling::sign`] (0 for rows that are no child).
    sign: Tensor<2>,
    /// The number of pairs.
    pairs: f32,
}

impl SiblingPairs {
    /// The pairs among `chosen`, or none where the batch holds no two siblings.
    pub(crate) fn of<G: TensorGame>(chosen: &[&Sample<G>], device: &Device) -> Option<SiblingPairs> {
        let n = chosen.len();
        let mut mask = vec![0.0f32; n * n];
        let mut pairs = 0usize;
        for (i, a) in chosen.iter().enumerate() {
            let Some(sa) = a.sibling else { continue };
            for (j, b) in chosen.iter().enumerate().skip(i + 1) {
                if b.sibling.is_some_and(|sb| sb.decision == sa.decision) {
                    mask[i * n + j] = 1.0;
                    pairs += 1;
                }
            }
        }
        if pairs == 0 {
            return None;
        }
        let sign: Vec<f32> = chosen.iter().map(|s| s.sibling.map_or(0.0, |x| x.sign)).collect();
        Some(SiblingPairs {
            mask: Tensor::from_data(TensorData::new(mask, [n, n]), device),
            sign: Tensor::from_data(TensorData::new(sign, [n, 1]), device),
            pairs: pairs as f32,
        })
    }
}

/// The mean over the sibling pairs of the squared difference between the head's and the
/// targets' differences, from the deciding player's view: `values` and `targets` are
/// `[batch, 1]`, each row from its own player to move's view.
pub(crate) fn sibling_loss(values: Tensor<2>, targets: Tensor<2>, pairs: &SiblingPairs) -> Tensor<1> {
    let n = pairs.sign.dims()[0];
    let error = (values - targets) * pairs.sign.clone();
    // error_i - error_j = (v_i - v_j) - (t_i - t_j) for every pair (i, j).
    let differences = error.clone().expand([n, n]) - error.transpose().expand([n, n]);
    (differences.powi_scalar(2) * pairs.mask.clone()).sum().div_scalar(pairs.pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tictactoe::TicTacToe;

    fn child(decision: u64, sign: f32) -> Sample<TicTacToe> {
        let s = TicTacToe::new();
        Sample { sibling: Some(Sibling { decision, sign }), ..Sample::value_only(s, 0, 0.0).unwrap() }
    }

    fn column(v: &[f32], device: &Device) -> Tensor<2> {
        Tensor::from_data(TensorData::new(v.to_vec(), [v.len(), 1]), device)
    }

    #[test]
    fn the_loss_sees_only_differences_among_siblings_from_the_deciders_view() {
        let device = Device::flex();
        let samples = [child(1, 1.0), child(1, -1.0), child(2, 1.0), child(3, 1.0)];
        let chosen: Vec<&Sample<TicTacToe>> = samples.iter().collect();
        let pairs = SiblingPairs::of(&chosen, &device).expect("one pair");
        assert_eq!(pairs.pairs, 1.0);
        let targets = column(&[0.2, -0.1, 0.5, 0.0], &device);
        // Off by one shared amount from the decider's view: the order is right, no loss.
        // Row 1's player is the decider's opponent, so its values move the other way.
        let shifted = column(&[0.2 + 0.3, -0.1 - 0.3, 0.9, -0.7], &device);
        let loss: f32 = sibling_loss(shifted, targets.clone(), &pairs).into_scalar();
        assert!(loss.abs() < 1e-10, "{loss}");
        // The same values with the opponent's sign ignored are a difference of 0.6.
        let wrong = column(&[0.2 + 0.3, -0.1 + 0.3, 0.5, 0.0], &device);
        let loss: f32 = sibling_loss(wrong, targets, &pairs).into_scalar();
        assert!((loss - 0.36).abs() < 1e-5, "{loss}");
    }

    #[test]
    fn a_batch_without_two_siblings_has_no_pairs() {
        let device = Device::flex();
        let samples = [child(1, 1.0), child(2, 1.0)];
        let chosen: Vec<&Sample<TicTacToe>> = samples.iter().collect();
        assert!(SiblingPairs::of(&chosen, &device).is_none());
    }
}
