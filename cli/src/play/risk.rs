//! What an option risks once the enemy answers it, and where a candidate leads when the game
//! is played on. Every count starts from a world drawn from the person's information set
//! ([`GameState::determinize`]), so nothing the person may not know is used.
//!
//! An option's risk is exact where the engine can enumerate it: every chance outcome of the
//! rest of the action sequence with its probability, the enemy's answers (reactions, fall
//! points...) chosen by the bot's own agent at each of them and the person's later choices by
//! the analysis defaults (no firefight, no further nesting). When that tree is too large, the
//! sequence is sampled instead, the dice drawn, the enemy's answers again the bot's agent's and
//! the person's the scripted player's. The answer says which it is.

use agents::Agent;
use engine::analysis::{default_decision, for_each_outcome};
use engine::render::model_name;
use engine::state::{Health, RollRole, Side};
use engine::{Action, GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use training::play::make_agent;

/// Samples of an option's answers when it cannot be enumerated.
pub const RISK_SAMPLES: usize = 16;

/// Most outcomes an exact count enumerates before it gives way to sampling.
pub const MAX_EXACT_LEAVES: usize = 3000;

/// Most decisions the bot's agent is asked during one exact count.
pub const MAX_EXACT_ANSWERS: usize = 8;

/// Most milliseconds (or iterations) the bot's agent thinks about one answer in a count: a
/// searching bot answers at this budget rather than its own, so that the odds come in about
/// a second.
const ANSWER_MS: u64 = 20;
const ANSWER_ITERS: u64 = 60;

/// Games played on from each advised candidate.
pub const PLAYOUTS: usize = 12;

/// How the playouts are made, for the page.
pub const PLAYOUTS_HOW: &str =
    "Each candidate is also played on to the end 12 times by the scripted player for both sides.";

/// Most steps a sample may take before it is cut short (a guard, never reached in practice).
const MAX_STEPS: usize = 20_000;

/// The scripted players of both sides, seeded.
fn scripted(seed: u64) -> Result<[Box<dyn Agent<GameState>>; 2], String> {
    Ok([make_agent("scripted", seed)?, make_agent("scripted", seed ^ 0x5151)?])
}

/// One step of the game by the dice or the scripted players.
fn step(state: &mut GameState, players: &mut [Box<dyn Agent<GameState>>; 2], dice: &mut ChaCha8Rng) -> bool {
    let action = match state.current_player() {
        Player::Terminal => return false,
        Player::Chance => match state.sample_chance(dice) {
            Some(a) => a,
            None => return false,
        },
        Player::Side(s) => players[(s as usize).min(1)].select_action(state),
    };
    state.apply_action(action).is_ok()
}

/// Wounds each side has lost between `before` and `after` (models of sides 0 and 1).
fn wounds_lost(before: &GameState, after: &GameState) -> [f64; 2] {
    let mut lost = [0.0; 2];
    for (a, b) in before.models().iter().zip(after.models()) {
        if a.side < 2 {
            lost[a.side as usize] += a.wounds.saturating_sub(b.wounds) as f64;
        }
    }
    lost
}

/// The bot's spec with its thinking budget capped for answering in a count, and the words
/// saying so when it was.
pub fn answer_spec(spec: &str) -> (String, Option<String>) {
    let Some((name, params)) = spec.split_once(':') else { return (spec.to_string(), None) };
    let mut note = None;
    let params: Vec<String> = params
        .split(',')
        .map(|p| match p.split_once('=') {
            Some(("ms", v)) if v.parse::<u64>().is_ok_and(|v| v > ANSWER_MS) => {
                note = Some(format!("{ANSWER_MS} ms an answer instead of its {v} ms a move"));
                format!("ms={ANSWER_MS}")
            }
            Some(("iters", v)) if v.parse::<u64>().is_ok_and(|v| v > ANSWER_ITERS) => {
                note = Some(format!("{ANSWER_ITERS} iterations an answer instead of its {v}"));
                format!("iters={ANSWER_ITERS}")
            }
            _ => p.to_string(),
        })
        .collect();
    (format!("{name}:{}", params.join(",")), note)
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

/// What the outcomes add up to, each weighted by its probability (or 1 a sample).
#[derive(Default)]
struct Tally {
    weight: f64,
    taken: f64,
    dealt: f64,
    down: f64,
    answered: BTreeMap<u8, f64>,
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

/// The exact count: every outcome of the rest of the action sequence with its probability, by
/// the engine's own enumeration ([`for_each_outcome`]), the enemy's decisions the bot's and
/// the person's the analysis defaults; `None` when the tree is larger than the limits.
fn exact(
    world: &GameState,
    action: Action,
    side: Side,
    mover: Option<u8>,
    bot: &mut dyn Agent<GameState>,
) -> Option<(Tally, u64)> {
    let mut next = world.clone();
    next.apply_action(action).ok()?;
    let mut asked = 0;
    let mut decide = |now: &GameState| match now.current_player() {
        Player::Side(s) if s != side && asked < MAX_EXACT_ANSWERS => {
            asked += 1;
            bot.select_action(now)
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

/// The option `action` of `side`'s decision in `state`, followed through the enemy's answers
/// (chosen by an agent built from `bot`, the spec of the agent the person plays) to the end of
/// the action sequence: the wounds `side` takes and deals, how often the mover goes down, and
/// which enemy models answered (with their AP now); exactly where the tree is small enough,
/// else over [`RISK_SAMPLES`] samples.
pub fn risk(state: &GameState, side: Side, action: Action, seed: u64, bot: &str) -> Result<Value, String> {
    let d = state.dynamic();
    let mover = d.activating.or(d.sequence.as_ref().map(|s| s.actor));
    let (spec, capped) = answer_spec(bot);
    let mut agent = make_agent(&spec, seed)?;
    let world = state.determinize(side, &mut ChaCha8Rng::seed_from_u64(seed));
    let exact = if world.legal_actions().contains(&action) {
        exact(&world, action, side, mover, agent.as_mut())
    } else {
        None
    };
    let budget = capped.map(|c| format!(", at {c}")).unwrap_or_default();
    let bot = match bot.split_once(',') {
        Some((head, _)) => format!("{head},…"),
        None => bot.to_string(),
    };
    let (tally, method, how) = match exact {
        Some((tally, leaves)) => {
            let how = format!(
                "exact: all {leaves} outcomes of the dice with their probabilities, the enemy's answers chosen by the bot's own agent ({bot}{budget}), your later choices the plain ones (no firefight, no more nesting)"
            );
            (tally, "exact", how)
        }
        None => {
            let tally = sampled(state, side, action, seed, agent.as_mut(), mover)?;
            let how = format!(
                "sampled: {} games of the rest of the action, the dice drawn, the enemy's answers chosen by the bot's own agent ({bot}{budget}), your later choices the scripted player's",
                tally.weight
            );
            (tally, "sampled", how)
        }
    };
    let n = tally.weight;
    let reactors: Vec<Value> = tally
        .answered
        .iter()
        .map(|(&m, &w)| {
            json!({
                "model": m, "name": model_name(state, m), "ap": state.models()[m as usize].ap,
                "answered": w / n,
            })
        })
        .collect();
    Ok(json!({
        "method": method,
        "samples": if method == "sampled" { Some(n as usize) } else { None },
        "taken": tally.taken / n,
        "dealt": tally.dealt / n,
        "mover": mover.map(|m| model_name(state, m)),
        "mover_down": tally.down / n,
        "reactors": reactors,
        "how": how,
    }))
}

/// [`risk`] by sampling: [`RISK_SAMPLES`] worlds, each played to the end of the sequence with
/// the dice drawn, `bot` answering for the enemy and the scripted player for `side`.
fn sampled(
    state: &GameState,
    side: Side,
    action: Action,
    seed: u64,
    bot: &mut dyn Agent<GameState>,
    mover: Option<u8>,
) -> Result<Tally, String> {
    let mut own = make_agent("scripted", seed ^ 0x5151)?;
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
                Player::Side(s) if s == side => own.select_action(&now),
                Player::Side(_) => bot.select_action(&now),
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

/// `side` takes `action` in `state`, then the game is played to its end by the scripted
/// player, [`PLAYOUTS`] times: how often `side` wins (a draw is half), its mean VP margin, and
/// the wounds it takes and deals.
pub fn playouts(state: &GameState, side: Side, action: Action, seed: u64) -> Result<Value, String> {
    let mut players = scripted(seed)?;
    let (mut win, mut vp, mut taken, mut dealt, mut n) = (0.0, 0.0, 0.0, 0.0, 0usize);
    for k in 0..PLAYOUTS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (k as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d));
        let world = state.determinize(side, &mut rng);
        let mut now = world.clone();
        if now.apply_action(action).is_err() {
            continue;
        }
        for _ in 0..MAX_STEPS {
            if !step(&mut now, &mut players, &mut rng) {
                break;
            }
        }
        let o = now.outcome();
        win += match o.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        vp += o.vp[side as usize] as f64 - o.vp[1 - side as usize] as f64;
        let lost = wounds_lost(&world, &now);
        taken += lost[side as usize];
        dealt += lost[1 - side as usize];
        n += 1;
    }
    let d = n.max(1) as f64;
    Ok(json!({"n": n, "win": win / d, "vp": vp / d, "taken": taken / d, "dealt": dealt / d}))
}
