//! The odds of an option's own test as the page shows them, from the engine's exact
//! enumeration of the option's outcomes ([`for_each_outcome_until`], the computation behind
//! `tde analyze` and the option's expected wounds): a move's chance of reaching the cell it
//! was declared to, with the least result that gets it there and where lesser results leave
//! the mover; a combat roll's chance of the result it needs. Nothing is worked out a second
//! way: what the dice, the path and the rules make of each result is the engine's.
//!
//! A combat roll's result is known once its test is rolled, however the sequence goes on:
//! the enumeration stops there (or where the roll is cancelled, never to be rolled), counting
//! the rest of the sequence whole. Its figure is the one the whole enumeration gives, for a
//! fraction of the outcomes (`play_odds` and the tests below compare the two).

use engine::analysis::{
    deciding_side, default_decision, for_each_outcome_until, value_within, OptionValue, Trail,
};
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
    /// How many outcomes were enumerated to work it out.
    pub outcomes: u64,
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

/// Whether the figure for `tested` is known at `s`, reached by `way`: a combat roll's result
/// once its test has been rolled (a test is rolled again only when a card re-rolls it, and the
/// enumeration's decisions play no card), or its roll cancelled (a cancelled roll is never
/// rolled). A move's figure needs the end of the sequence: where the mover ends.
fn settled(s: &GameState, way: Option<&Trail>, tested: Tested) -> bool {
    match tested {
        Tested::Movement => false,
        Tested::Combat { roll, .. } => {
            result_of(way, |purpose| purpose == Purpose::Combat(roll as u8)).is_some()
                || s.dynamic().sequence.as_ref().and_then(|q| q.rolls.get(roll)).is_some_and(|r| r.cancelled)
        }
    }
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
    let mut known = |s: &GameState, way: Option<&Trail>| settled(s, way, tested);
    let outcomes = for_each_outcome_until(
        &after,
        MAX_TEST_OUTCOMES,
        &mut default_decision,
        &mut known,
        &mut |end, p, trail| {
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
        },
    )
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
    Some(TestOdds { success: success / total, needed, short, outcomes })
}

/// Most outcomes the answer to a step enumerates for one option's figures over the whole rest
/// of the sequence (wounds dealt and taken, the mover hit or down); a larger option's figures
/// are worked out when the page asks for them (`/api/odds`).
pub const ANSWER_OPTION_OUTCOMES: u64 = 20_000;

/// Most outcomes the answer to a step enumerates for those figures over all its options.
pub const ANSWER_OUTCOMES: u64 = 100_000;

/// An option's figures over the whole rest of the sequence, by the engine's analysis
/// ([`value_within`]) with at most `max_outcomes` outcomes; the error says why there are none.
pub fn sequence_odds(state: &GameState, action: Action, max_outcomes: u64) -> Result<OptionValue, String> {
    let side = deciding_side(state).map_err(|e| e.to_string())?;
    let mut after = state.clone();
    after.apply_action(action).map_err(|e| e.to_string())?;
    value_within(state, side, action, &after, max_outcomes).map_err(|e| e.to_string())
}

/// What the answer to one step may still enumerate for the options' whole-sequence figures.
pub struct AnswerBudget {
    left: u64,
}

impl Default for AnswerBudget {
    /// The budget of one answer: [`ANSWER_OUTCOMES`].
    fn default() -> AnswerBudget {
        AnswerBudget { left: ANSWER_OUTCOMES }
    }
}

impl AnswerBudget {
    /// The option's whole-sequence figures if they fit what is left (each option at most
    /// [`ANSWER_OPTION_OUTCOMES`]); `None`: the page asks for them later.
    pub fn sequence_odds(&mut self, state: &GameState, action: Action) -> Option<OptionValue> {
        let cap = self.left.min(ANSWER_OPTION_OUTCOMES);
        if cap == 0 {
            return None;
        }
        match sequence_odds(state, action, cap) {
            Ok(value) => {
                self.left -= value.leaves.min(self.left);
                Some(value)
            }
            Err(_) => {
                self.left -= cap;
                None
            }
        }
    }

    /// Outcomes enumerated so far.
    #[cfg(test)]
    pub fn spent(&self) -> u64 {
        ANSWER_OUTCOMES - self.left
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::view::test_of;
    use engine::analysis::for_each_outcome;
    use engine::Player;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The odds by the whole enumeration, every outcome followed to the end of the sequence:
    /// what the page showed before the enumeration stopped at a known result, kept here as the
    /// oracle. `None` past `cap` outcomes.
    fn whole(state: &GameState, action: Action, tested: Tested, cap: u64) -> Option<(TestOdds, u64)> {
        let mut after = state.clone();
        after.apply_action(action).unwrap();
        let seq = after.dynamic().sequence.as_ref()?;
        let (actor, goal) = (seq.actor, seq.path.points.last().map(|p| p.cell));
        let (mut total, mut success) = (0.0, 0.0);
        let mut reached: Vec<TestLevel> = Vec::new();
        let mut stopped: BTreeMap<TestLevel, BTreeMap<u16, f64>> = BTreeMap::new();
        let leaves = for_each_outcome(&after, cap, &mut default_decision, &mut |end, p, way| {
            total += p;
            match tested {
                Tested::Movement => {
                    let level = result_of(way, |purpose| purpose == Purpose::Movement);
                    let at = end.models()[actor as usize].cell;
                    if Some(at) == goal && level != Some(TestLevel::Blunder) {
                        success += p;
                        reached.extend(level);
                    } else if let Some(level) = level {
                        *stopped.entry(level).or_default().entry(at).or_default() += p;
                    }
                }
                Tested::Combat { roll, needed } => {
                    let level = result_of(way, |purpose| purpose == Purpose::Combat(roll as u8));
                    if level.is_some_and(|l| l >= needed) {
                        success += p;
                    }
                }
            }
        })
        .ok()?;
        let needed = match tested {
            Tested::Combat { needed, .. } => Some(needed),
            Tested::Movement => reached.iter().min().copied(),
        };
        let board = state.board();
        let short = stopped
            .iter()
            .filter(|(level, _)| tested != Tested::Movement || needed.is_none_or(|n| **level < n))
            .map(|(level, cells)| {
                let (&cell, _) = cells.iter().max_by(|a, b| a.1.total_cmp(b.1)).unwrap();
                let (x, y) = board.xy(cell);
                (*level, [x, y], cells.values().sum::<f64>() / total)
            })
            .collect();
        Some((TestOdds { success: success / total, needed, short, outcomes: leaves }, leaves))
    }

    /// A seeded random game's next action: mostly an option that moves, fights or reacts.
    fn favoured(state: &GameState, rng: &mut ChaCha8Rng) -> Action {
        if state.current_player() == Player::Chance {
            return state.sample_chance(rng).unwrap();
        }
        let legal = state.legal_actions();
        let fights: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| {
                matches!(
                    a,
                    Action::Move { .. }
                        | Action::Charge { .. }
                        | Action::Shoot { .. }
                        | Action::CloseCombat { .. }
                        | Action::React { .. }
                        | Action::Nested { .. }
                        | Action::Firefight { .. }
                        | Action::Activate(_)
                )
            })
            .collect();
        if !fights.is_empty() && rng.gen_bool(0.85) {
            fights[rng.gen_range(0..fights.len())]
        } else {
            legal[rng.gen_range(0..legal.len())]
        }
    }

    #[test]
    fn test_odds_are_the_whole_enumerations_at_random_positions() {
        let mut compared = 0;
        let mut combat = 0;
        let mut at_reactions = 0;
        let mut moves = 0;
        let mut over_cap = 0;
        let (mut whole_outcomes, mut outcomes) = (0u64, 0u64);
        for (game, scenario) in
            ["skirmish", "attack_and_defend", "grudge_match", "couriers"].iter().enumerate()
        {
            let config = engine::setup::GameConfig {
                scenario: engine::scenario::Scenario::parse(scenario).unwrap(),
                ..Default::default()
            };
            let mut state = engine::setup::new_game(&config).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(40 + game as u64);
            for _ in 0..1500 {
                if state.is_terminal() {
                    break;
                }
                if matches!(state.current_player(), Player::Side(_)) {
                    let reaction = matches!(state.node(), Some(Step::ChooseReaction));
                    for action in state.legal_actions() {
                        let Some(test) = test_of(&state, action) else { continue };
                        let Some((expected, leaves)) = whole(&state, action, test.tested, MAX_TEST_OUTCOMES)
                        else {
                            over_cap += 1;
                            continue;
                        };
                        let got = test_odds(&state, action, test.tested)
                            .expect("odds where the whole count has them");
                        let what = format!("{} / {action:?}", state.describe_node());
                        assert!(
                            (got.success - expected.success).abs() < 1e-12,
                            "{what}: {got:?} {expected:?}"
                        );
                        assert_eq!(got.needed, expected.needed, "{what}");
                        assert_eq!(got.short.len(), expected.short.len(), "{what}");
                        for (a, b) in got.short.iter().zip(&expected.short) {
                            assert!(
                                a.0 == b.0 && a.1 == b.1 && (a.2 - b.2).abs() < 1e-12,
                                "{what}: {a:?} {b:?}"
                            );
                        }
                        assert!(got.outcomes <= leaves, "{what}: never more outcomes than the whole count");
                        compared += 1;
                        whole_outcomes += leaves;
                        outcomes += got.outcomes;
                        match test.tested {
                            Tested::Movement => moves += 1,
                            Tested::Combat { .. } => combat += 1,
                        }
                        at_reactions += reaction as usize;
                    }
                }
                let action = favoured(&state, &mut rng);
                state.apply_action(action).unwrap();
            }
        }
        eprintln!(
            "{compared} options compared ({moves} moves, {combat} combat rolls, {at_reactions} at reaction prompts, \
             {over_cap} past the whole count's cap); outcomes {outcomes} against {whole_outcomes}"
        );
        assert!(moves >= 100 && combat >= 100 && at_reactions >= 20, "enough of each kind compared");
        assert!(outcomes * 2 < whole_outcomes, "the stop saves outcomes");
    }

    /// The person's reaction prompt that took 17 s to answer before (seed 21's Attack and
    /// Defend game of the timing script, `/work/runs/s9/api_timing.py`): three enemy reactions
    /// and a nested action already declared on a move.
    fn heavy_reaction_prompt() -> GameState {
        let text = include_str!("testdata/heavy_reaction.json");
        let record: engine::record::GameRecord = serde_json::from_str(text).unwrap();
        let state = record.replay("heavy_reaction.json").unwrap();
        assert_eq!(state.node(), Some(&Step::ChooseReaction));
        state
    }

    #[test]
    fn a_heavy_reaction_prompt_enumerates_far_fewer_outcomes() {
        let state = heavy_reaction_prompt();
        let mut tested = 0;
        for action in state.legal_actions() {
            let Some(test) = test_of(&state, action) else { continue };
            assert!(matches!(test.tested, Tested::Combat { .. }));
            // The whole enumeration passes the cap: the page showed no figure here before.
            assert!(whole(&state, action, test.tested, MAX_TEST_OUTCOMES).is_none(), "{action:?}");
            let odds = test_odds(&state, action, test.tested).expect("a figure now");
            eprintln!("{action:?}: {} outcomes", odds.outcomes);
            assert!(odds.outcomes <= 10_000, "{action:?}: {} outcomes", odds.outcomes);
            assert!(odds.success > 0.0 && odds.success < 1.0);
            tested += 1;
        }
        assert!(tested >= 3, "the prompt's reactions were tested");
    }

    #[test]
    fn the_answer_to_a_step_enumerates_a_bounded_number_of_outcomes() {
        let state = heavy_reaction_prompt();
        let mut budget = AnswerBudget::default();
        let mut later = Vec::new();
        for action in state.legal_actions() {
            match budget.sequence_odds(&state, action) {
                Some(v) => {
                    let whole = sequence_odds(&state, action, engine::analysis::MAX_LEAVES).unwrap();
                    assert_eq!(v, whole, "figures given at once are the engine's whole analysis");
                }
                None => later.push(action),
            }
        }
        assert!(budget.spent() <= ANSWER_OUTCOMES, "{} outcomes", budget.spent());
        // Before, the answer enumerated 5,554,818 outcomes for these figures.
        assert!(!later.is_empty(), "the largest options are left for the page to ask about");
    }
}
