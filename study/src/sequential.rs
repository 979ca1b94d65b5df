//! When to stop sampling, validly: a group-sequential rule with its error spent by Bonferroni.
//!
//! Looking at a fixed-level 95% interval after every doubling and stopping as soon as it
//! excludes 0 inflates the rate of false "settled" verdicts (optional stopping; with a best
//! option picked among several, the selection inflates it further). The rule here fixes the
//! looks in advance — the first batch, then doublings up to the budget, `K` looks in all — and
//! splits the error `α = 1 − confidence` evenly over the `K` looks and the `P = m(m−1)/2` pairs
//! of the `m` options compared: every paired interval is a normal interval at level
//! `α / (K·P)` (two-sided). By the union bound, with probability at least `1 − α` every interval
//! of every pair at every look covers its true difference at once, so the verdict's "settled"
//! (the best option's intervals against the others all exclude 0) is wrong with probability at
//! most `α`, whenever the rule stops and whichever option the data made best. This is a
//! group-sequential test with its error spent across planned looks (Lan & DeMets, "Discrete
//! sequential boundaries for clinical trials", *Biometrika* 70(3), 1983; Jennison & Turnbull,
//! *Group Sequential Methods with Applications to Clinical Trials*, 2000): any spending with
//! Σ αₖ = α controls the error by the union bound, and equal spending αₖ = α/K (Bonferroni)
//! is its simplest and most conservative case.
//! The intervals are normal (central limit) approximations of paired means of bounded returns;
//! `tests/sequential.rs` checks the error rate by simulation, and that the old rule fails it.

use crate::beyond::z_for;
use serde::Serialize;

/// The planned looks and the per-look, per-pair level of a sequential verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// Samples per option at each look, increasing (the first batch, then doublings up to the
    /// budget); one look when sampling once.
    pub looks: Vec<u32>,
    /// Options compared (`m`); the error is split over their `m(m−1)/2` pairs.
    pub options: usize,
    /// The verdict's overall confidence (`1 − α`).
    pub confidence: f64,
    /// The confidence of each paired interval at each look: `1 − α/(K·P)`.
    pub per_interval: f64,
    /// The normal quantile of `per_interval` (two-sided).
    pub z: f64,
    /// Whether the error is split (the valid rule) or every look uses `confidence` itself (the
    /// naive rule, kept only to show in tests that it fails).
    pub split: bool,
}

impl Plan {
    /// The valid rule: looks at `first`, then doubling up to `budget` (`None`: one look at
    /// `first`), `options` options compared at overall `confidence`.
    pub fn new(first: u32, budget: Option<u32>, confidence: f64, options: usize) -> Plan {
        let looks = looks(first, budget);
        let pairs = (options * options.saturating_sub(1) / 2).max(1);
        let alpha = (1.0 - confidence) / (looks.len() * pairs) as f64;
        Plan { z: z_for(1.0 - alpha), per_interval: 1.0 - alpha, looks, options, confidence, split: true }
    }

    /// The old, invalid rule: the same looks, each at `confidence` itself (for comparison only).
    pub fn naive(first: u32, budget: Option<u32>, confidence: f64, options: usize) -> Plan {
        Plan {
            looks: looks(first, budget),
            options,
            confidence,
            per_interval: confidence,
            z: z_for(confidence),
            split: false,
        }
    }

    /// The rule in words, for tables and verdicts.
    pub fn describe(&self) -> String {
        let k = self.looks.len();
        let looks = self.looks.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
        let pairs = (self.options * self.options.saturating_sub(1) / 2).max(1);
        if self.split {
            format!(
                "{:.0}% overall: Bonferroni over {k} planned look{} ({looks} samples) and {pairs} pair{} of {} options, each interval at {:.3}% (z = {:.2})",
                100.0 * self.confidence,
                if k == 1 { "" } else { "s" },
                if pairs == 1 { "" } else { "s" },
                self.options,
                100.0 * self.per_interval,
                self.z
            )
        } else {
            format!("{:.0}% at every look ({looks} samples), not corrected", 100.0 * self.confidence)
        }
    }

    /// Run the looks in order: `look(from, to)` adds samples `from..to` and says whether the
    /// verdict is settled; stop at the first settled look or after the last. Returns the samples
    /// per option reached.
    pub fn run<E>(&self, mut look: impl FnMut(u32, u32) -> Result<bool, E>) -> Result<u32, E> {
        let mut from = 0;
        for &to in &self.looks {
            let settled = look(from, to)?;
            from = to;
            if settled {
                break;
            }
        }
        Ok(from)
    }
}

/// The planned looks: `first`, then doubling while below `budget`, the last one at `budget`.
fn looks(first: u32, budget: Option<u32>) -> Vec<u32> {
    let first = first.max(1);
    let mut out = vec![first];
    if let Some(budget) = budget {
        let mut n = first;
        while n < budget {
            n = n.saturating_mul(2).min(budget);
            out.push(n);
        }
    }
    out
}
