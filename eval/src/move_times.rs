//! The distribution of one agent's time per decision: a sparse histogram on a log scale, so
//! that an arena can print each agent's median and 95th-percentile move time (a clock-budgeted
//! search's slow moves are what a player waits for) without keeping every move's time.
//!
//! A bucket spans a quarter of an octave (a factor of 2^(1/4), about 19%), with every decision
//! under 10 µs in the first; a quantile is reported at its bucket's geometric middle, within
//! about 9% of any time in the bucket. A game keeps a few dozen numbers a side.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// Buckets per doubling of time.
const BUCKETS_PER_OCTAVE: f64 = 4.0;

/// Decisions at most this many microseconds long share the first bucket.
const INSTANT_MICROS: f64 = 10.0;

/// The largest bucket index (about 2^(255/4) µs: every time a game could take).
const LAST_BUCKET: u16 = 255;

/// How many decisions took about each time: bucket index → count.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MoveTimes {
    counts: BTreeMap<u16, u32>,
}

impl MoveTimes {
    /// Counts one decision that took `time`.
    pub fn record(&mut self, time: Duration) {
        *self.counts.entry(bucket_of(time)).or_insert(0) += 1;
    }

    /// Adds `other`'s decisions to these.
    pub fn merge(&mut self, other: &MoveTimes) {
        for (&bucket, &count) in &other.counts {
            *self.counts.entry(bucket).or_insert(0) += count;
        }
    }

    /// Decisions counted.
    pub fn moves(&self) -> u64 {
        self.counts.values().map(|&c| c as u64).sum()
    }

    /// Whether no decision is counted.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The time in milliseconds below which a share `q` (in [0, 1]) of the decisions took,
    /// at its bucket's middle; `None` with no decisions.
    pub fn quantile_ms(&self, q: f64) -> Option<f64> {
        let total = self.moves();
        if total == 0 {
            return None;
        }
        // The smallest bucket whose running count reaches ⌈q·n⌉ (at least the first decision).
        let rank = ((q.clamp(0.0, 1.0) * total as f64).ceil() as u64).max(1);
        let mut seen = 0u64;
        for (&bucket, &count) in &self.counts {
            seen += count as u64;
            if seen >= rank {
                return Some(middle_ms(bucket));
            }
        }
        self.counts.keys().next_back().map(|&b| middle_ms(b))
    }

    /// Whether every bucket index is one [`MoveTimes::record`] could write.
    pub fn check(&self) -> Result<(), String> {
        match self.counts.keys().find(|&&b| b > LAST_BUCKET) {
            Some(b) => Err(format!("move-time bucket {b} is past the last, {LAST_BUCKET}")),
            None => Ok(()),
        }
    }
}

/// The bucket of a decision that took `time`: ⌊4·log2(µs)⌋, at most 10 µs in bucket 0.
fn bucket_of(time: Duration) -> u16 {
    let micros = time.as_secs_f64() * 1e6;
    if micros <= INSTANT_MICROS {
        return 0;
    }
    ((micros.log2() * BUCKETS_PER_OCTAVE).floor() as u64).min(LAST_BUCKET as u64) as u16
}

/// A bucket's geometric middle in milliseconds.
fn middle_ms(bucket: u16) -> f64 {
    2f64.powf((bucket as f64 + 0.5) / BUCKETS_PER_OCTAVE) / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn times(ms: &[f64]) -> MoveTimes {
        let mut t = MoveTimes::default();
        for &m in ms {
            t.record(Duration::from_secs_f64(m / 1000.0));
        }
        t
    }

    fn near(got: f64, want: f64) -> bool {
        (got / want - 1.0).abs() < 0.091
    }

    #[test]
    fn the_median_and_95th_percentile_are_read_within_a_bucket() {
        // 100 moves: 1, 2, ..., 100 ms. Median 50 ms, 95th percentile 95 ms.
        let all: Vec<f64> = (1..=100).map(|m| m as f64).collect();
        let t = times(&all);
        assert_eq!(t.moves(), 100);
        let (median, p95) = (t.quantile_ms(0.5).unwrap(), t.quantile_ms(0.95).unwrap());
        assert!(near(median, 50.0), "{median}");
        assert!(near(p95, 95.0), "{p95}");
        assert!(near(t.quantile_ms(1.0).unwrap(), 100.0));
        assert!(near(t.quantile_ms(0.0).unwrap(), 1.0));
    }

    #[test]
    fn a_few_slow_moves_move_the_95th_percentile_not_the_median() {
        // 90 instant moves (a single legal action) and 10 searched for half a second.
        let mut all = vec![0.01; 90];
        all.extend([500.0; 10]);
        let t = times(&all);
        assert!(t.quantile_ms(0.5).unwrap() < 0.01);
        assert!(near(t.quantile_ms(0.95).unwrap(), 500.0));
    }

    #[test]
    fn merged_histograms_count_every_move_and_survive_json() {
        let mut a = times(&[1.0, 2.0, 3.0]);
        a.merge(&times(&[3.0, 400.0]));
        assert_eq!(a.moves(), 5);
        assert!(near(a.quantile_ms(0.5).unwrap(), 3.0));
        let json = serde_json::to_string(&a).unwrap();
        let back: MoveTimes = serde_json::from_str(&json).unwrap();
        assert_eq!(back, a);
        assert!(back.check().is_ok());
        assert_eq!(MoveTimes::default().quantile_ms(0.5), None);
        let bad: MoveTimes = serde_json::from_str("{\"900\": 1}").unwrap();
        assert!(bad.check().unwrap_err().contains("900"));
    }
}
