//! What an option risks once the enemy answers it (the table's odds of an option, `tde play`):
//! the wounds the choosing side takes and deals, how often its mover goes down, and which
//! enemy models answer, over the rest of the action sequence. Exact where the engine can
//! enumerate it ([`exact`], by [`crate::analysis::for_each_outcome`]), else sampled
//! ([`sampled`]). The answers come from callers' deciders (the bot's agent), so the engine
//! needs no agent.

use crate::analysis::{default_decision, for_each_outcome};
use crate::state::{Health, RollRole, Side};
use crate::{Action, GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};

/// Samples of an option's answers when it cannot be enumerated.
pub const RISK_SAMPLES: usize = 16;

/// Most outcomes an exact count enumerates before it gives way to sampling.
pub const MAX_EXACT_LEAVES: usize = 3000;

/// Most decisions the bot's agent is asked during one exact count.
pub const MAX_EXACT_ANSWERS: usize = 8;

/// Most steps a sample may take before it is cut short (a guard, never reached in practice).
const MAX_STEPS: usize = 20_000;

/// The model whose action an option continues: the activating model, else the actor of the
/// action sequence under way.
pub fn mover(state: &GameState) -> Option<u8> {
    let d = state.dynamic();
    d.activating.or(d.sequence.as_ref().map(|s| s.actor))
}

/// Wounds each side has lost between `before` and `after` (models of sides 0 and 1).
pub fn wounds_lost(before: &GameState, after: &GameState) -> [f64; 2] {
    let mut lost = [0.0; 2];
    for (a, b) in before.models().iter().zip(after.models()) {
        if a.side < 2 {
            lost[a.side as usize] += a.wounds.saturating_sub(b.wounds) as f64;
        }
    }
    lost
}

/// Enemy models that have answered in the sequence under way: reactions and firefights.
fn note_answers(now: &GameState, side: Side, answers: &mut BTreeSet<u8>) {
    if let Some(seq) = now.dynamic().sequence.as_ref() {
        for r in &seq.rolls {
            let enemy = now.models()[r.model as usize].side != side;
            if enemy && matches!(r.role, RollRole::Reaction | RollRole::Firefight) {
                answers.insert(r.model);
            }
        }
    }
}

/// Whether a sampled game has settled the option's consequences: the action sequence is over
/// and no die is left to roll.
fn settled(now: &GameState) -> bool {
    now.dynamic().sequence.is_none() && !matches!(now.current_player(), Player::Chance)
}

/// What the outcomes of an option add up to, each weighted by its probability (or 1 a
/// sample); divide by `weight` for means.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// The outcomes' total weight (1 for an exact count, the samples for a sampled one).
    pub weight: f64,
    /// Wounds the choosing side took.
    pub taken: f64,
    /// Wounds the choosing side dealt.
    pub dealt: f64,
    /// Outcomes where the mover ended down or out.
    pub down: f64,
    /// Each enemy model that answered (a reaction or firefight), with its outcomes' weight.
    pub answered: BTreeMap<u8, f64>,
}

impl Tally {
    fn add(
        &mut self,
        start: &GameState,
        end: &GameState,
        w: f64,
        side: Side,
        mover: Option<u8>,
        answers: &BTreeSet<u8>,
    ) {
        let lost = wounds_lost(start, end);
        self.weight += w;
        self.taken += w * lost[side as usize];
        self.dealt += w * lost[1 - side as usize];
        if mover.is_some_and(|m| end.models()[m as usize].health != Health::Conscious) {
            self.down += w;
        }
        for &m in answers {
            *self.answered.entry(m).or_default() += w;
        }
    }
}

/// The exact count of `side` taking `action` in `world` (a state drawn from `side`'s
/// information set): every outcome of the rest of the action sequence with its probability,
/// by the engine's own enumeration ([`for_each_outcome`]), the enemy's first
/// [`MAX_EXACT_ANSWERS`] decisions by `answer` (the bot) and `side`'s by the analysis
/// defaults; with the leaves enumerated, or `None` when the tree is larger than the limits.
pub fn exact(
    world: &GameState,
    action: Action,
    side: Side,
    mover: Option<u8>,
    answer: &mut dyn FnMut(&GameState) -> Action,
) -> Option<(Tally, u64)> {
    let mut next = world.clone();
    next.apply_action(action).ok()?;
    let mut asked = 0;
    let mut decide = |now: &GameState| match now.current_player() {
        Player::Side(s) if s != side && asked < MAX_EXACT_ANSWERS => {
            asked += 1;
            answer(now)
        }
        Player::Side(s) if s != side => {
            // Past the limit: the count is given up below; the walk only has to end.
            asked += 1;
            default_decision(now)
        }
        _ => default_decision(now),
    };
    let mut tally = Tally::default();
    let leaves = for_each_outcome(&next, MAX_EXACT_LEAVES as u64, &mut decide, &mut |end, p, trail| {
        let mut answers = BTreeSet::new();
        note_answers(end, side, &mut answers);
        for s in trail.into_iter().flat_map(|t| t.states()) {
            note_answers(s, side, &mut answers);
        }
        tally.add(world, end, p, side, mover, &answers);
    })
    .ok()?;
    (asked <= MAX_EXACT_ANSWERS && tally.weight > 0.0).then_some((tally, leaves))
}

/// The count of `side` taking `action` in `state` by sampling, where [`exact`] gives up:
/// [`RISK_SAMPLES`] worlds drawn from `side`'s information set (seeded by `seed`), each
/// played to the end of the sequence with the dice drawn, `answer` deciding for the enemy and
/// `own` for `side`. Fails when `action` is legal in none of the worlds.
pub fn sampled(
    state: &GameState,
    side: Side,
    action: Action,
    seed: u64,
    own: &mut dyn FnMut(&GameState) -> Action,
    answer: &mut dyn FnMut(&GameState) -> Action,
    mover: Option<u8>,
) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for k in 0..RISK_SAMPLES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let world = state.determinize(side, &mut rng);
        if !world.legal_actions().contains(&action) {
            continue;
        }
        let mut now = world.clone();
        if now.apply_action(action).is_err() {
            continue;
        }
        let mut answers = BTreeSet::new();
        for _ in 0..MAX_STEPS {
            note_answers(&now, side, &mut answers);
            if settled(&now) {
                break;
            }
            let next = match now.current_player() {
                Player::Terminal => break,
                Player::Chance => match now.sample_chance(&mut rng) {
                    Some(a) => a,
                    None => break,
                },
                Player::Side(s) if s == side => own(&now),
                Player::Side(_) => answer(&now),
            };
            if now.apply_action(next).is_err() {
                break;
            }
        }
        tally.add(&world, &now, 1.0, side, mover, &answers);
    }
    if tally.weight == 0.0 {
        return Err("field `index`: this option cannot be followed in any world you may imagine".into());
    }
    Ok(tally)
}
