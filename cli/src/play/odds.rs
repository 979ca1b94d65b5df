//! The odds of an option's own test as the page shows them, from the engine's exact
//! enumeration of the option's outcomes ([`for_each_outcome`], the computation behind
//! `tde analyze` and the option's expected wounds): a move's chance of reaching the cell it
//! was declared to, with the least result that gets it there and where lesser results leave
//! the mover; a combat roll's chance of the result it needs. Nothing is worked out a second
//! way: what the dice, the path and the rules make of each result is the engine's.

use engine::analysis::{default_decision, for_each_outcome, Trail};
use engine::dice::TestLevel;
use engine::state::{Purpose, Step};
use engine::{Action, GameState};
use std::collections::BTreeMap;

/// Most outcomes enumerated for one option's test; beyond it the page shows no figure rather
/// than an approximate one.
pub const MAX_TEST_OUTCOMES: u64 = 200_000;

/// What an option's own test does, over every outcome of the rest of the action sequence
/// (the later decisions taken by the analysis defaults: no reactions, no nested action...).
#[derive(Clone, Debug, PartialEq)]
pub struct TestOdds {
    /// Probability that the option does what it is chosen for: the mover reaches the cell it
    /// declared (and stays there: not by a fall), or the roll gets the result it needs.
    pub success: f64,
    /// The least result that does it (a move: the least result of its movement test with
    /// which the mover reached its destination in some outcome; `None` when none does).
    pub needed: Option<TestLevel>,
    /// A move's results short of that: each result, the cell it most often leaves the
    /// mover on, and its probability.
    pub short: Vec<(TestLevel, [u8; 2], f64)>,
}

/// The test an option's odds are about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tested {
    /// The movement test of a move, charge, dismount or remount.
    Movement,
    /// Combat roll number `roll` of the sequence, which needs `needed` or better.
    Combat {
        /// Its index among the sequence's rolls.
        roll: usize,
        /// The least result that succeeds.
        needed: TestLevel,
    },
}

/// The result of the last roll of the test `wanted` picks on the way to an outcome (a
/// re-rolled test's second roll), read off the chance outcome taken at its node.
fn result_of(trail: Option<&Trail>, wanted: impl Fn(Purpose) -> bool) -> Option<TestLevel> {
    trail?.steps().find_map(|(s, action)| match (s.node(), action) {
        (Some(Step::Test { purpose, .. }), Action::Chance(i)) if wanted(*purpose) => {
            s.pending_test()?.get(i as usize).map(|(o, _)| o.level)
        }
        _ => None,
    })
}

/// The odds of `tested`, the test `action` makes at `state`; `None` when the option cannot be
/// followed or has more outcomes than [`MAX_TEST_OUTCOMES`].
pub fn test_odds(state: &GameState, action: Action, tested: Tested) -> Option<TestOdds> {
    let mut after = state.clone();
    after.apply_action(action).ok()?;
    let seq = after.dynamic().sequence.as_ref()?;
    let actor = seq.actor;
    let goal = seq.path.points.last().map(|p| p.cell);
    let board = state.board();
    let mut total = 0.0;
    let mut success = 0.0;
    // Movement: by the test's result, how often it reached the destination and where it
    // left the mover otherwise.
    let mut reached_with: BTreeMap<TestLevel, f64> = BTreeMap::new();
    let mut stopped: BTreeMap<TestLevel, BTreeMap<u16, f64>> = BTreeMap::new();
    for_each_outcome(&after, MAX_TEST_OUTCOMES, &mut default_decision, &mut |end, p, trail| {
        total += p;
        match tested {
            Tested::Movement => {
                let level = result_of(trail, |purpose| purpose == Purpose::Movement);
                let at = end.models()[actor as usize].cell;
                // A Blunder that falls at the cell has not moved there.
                if Some(at) == goal && level != Some(TestLevel::Blunder) {
                    success += p;
                    if let Some(level) = level {
                        *reached_with.entry(level).or_default() += p;
                    }
                } else if let Some(level) = level {
                    *stopped.entry(level).or_default().entry(at).or_default() += p;
                }
            }
            Tested::Combat { roll, needed } => {
                let level = result_of(trail, |purpose| purpose == Purpose::Combat(roll as u8));
                if level.is_some_and(|l| l >= needed) {
                    success += p;
                }
            }
        }
    })
    .ok()?;
    if total <= 0.0 {
        return None;
    }
    let (needed, short) = match tested {
        Tested::Combat { needed, .. } => (Some(needed), Vec::new()),
        Tested::Movement => {
            let needed = reached_with.keys().next().copied();
            let short = stopped
                .iter()
                .filter(|(level, _)| needed.is_none_or(|n| **level < n))
                .filter_map(|(level, cells)| {
                    let p: f64 = cells.values().sum();
                    let (&cell, _) = cells.iter().max_by(|a, b| a.1.total_cmp(b.1))?;
                    let (x, y) = board.xy(cell);
                    Some((*level, [x, y], p / total))
                })
                .collect();
            (needed, short)
        }
    };
    Some(TestOdds { success: success / total, needed, short })
}
