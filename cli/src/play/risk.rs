//! What an option risks once the enemy answers it, and where a candidate leads when the game
//! is played on: both by sampling. Every sample starts from a world drawn from the person's
//! information set ([`GameState::determinize`]), so nothing the person may not know is used;
//! the rest is played by the scripted player for both sides (the bot's reactions as the
//! scripted player makes them), with the dice drawn from seeded generators.

use agents::Agent;
use engine::render::model_name;
use engine::state::{Health, RollRole, Side};
use engine::{Action, GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use training::play::make_agent;

/// Samples of an option's answers.
pub const RISK_SAMPLES: usize = 32;

/// Games played on from each advised candidate.
pub const PLAYOUTS: usize = 12;

/// How the risk is worked out, for the page.
pub const RISK_HOW: &str =
    "32 samples: the dice drawn and the enemy's answers chosen as the scripted player chooses them";

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

/// The option `action` of `side`'s decision in `state`, followed through the enemy's answers
/// to the end of the action sequence, [`RISK_SAMPLES`] times: the wounds `side` takes and
/// deals, how often the mover goes down, and which enemy models answered (with their AP now).
pub fn risk(state: &GameState, side: Side, action: Action, seed: u64) -> Result<Value, String> {
    let d = state.dynamic();
    let mover = d.activating.or(d.sequence.as_ref().map(|s| s.actor));
    let mut players = scripted(seed)?;
    let (mut taken, mut dealt, mut down, mut samples) = (0.0, 0.0, 0usize, 0usize);
    let mut answered: BTreeMap<u8, usize> = BTreeMap::new();
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
        let mut answers = std::collections::BTreeSet::new();
        for _ in 0..MAX_STEPS {
            if let Some(seq) = now.dynamic().sequence.as_ref() {
                for r in &seq.rolls {
                    let enemy = now.models()[r.model as usize].side != side;
                    if enemy && matches!(r.role, RollRole::Reaction | RollRole::Firefight) {
                        answers.insert(r.model);
                    }
                }
            }
            let sequence_over = now.dynamic().sequence.is_none();
            if sequence_over && !matches!(now.current_player(), Player::Chance) {
                break;
            }
            if !step(&mut now, &mut players, &mut rng) {
                break;
            }
        }
        let lost = wounds_lost(&world, &now);
        taken += lost[side as usize];
        dealt += lost[1 - side as usize];
        if let Some(m) = mover {
            if now.models()[m as usize].health != Health::Conscious {
                down += 1;
            }
        }
        for m in answers {
            *answered.entry(m).or_default() += 1;
        }
        samples += 1;
    }
    if samples == 0 {
        return Err("field `index`: this option cannot be followed in any world you may imagine".into());
    }
    let n = samples as f64;
    let reactors: Vec<Value> = answered
        .iter()
        .map(|(&m, &count)| {
            json!({
                "model": m, "name": model_name(state, m), "ap": state.models()[m as usize].ap,
                "answered": count as f64 / n,
            })
        })
        .collect();
    Ok(json!({
        "samples": samples,
        "taken": taken / n,
        "dealt": dealt / n,
        "mover": mover.map(|m| model_name(state, m)),
        "mover_down": down as f64 / n,
        "reactors": reactors,
        "how": RISK_HOW,
    }))
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
