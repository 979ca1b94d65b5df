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
use engine::render::model_name;
use engine::risk::{self, wounds_lost};
use engine::state::Side;
use engine::{Action, GameState, Player};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use training::play::make_agent;

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

/// The option `action` of `side`'s decision in `state`, followed through the enemy's answers
/// (chosen by an agent built from `bot`, the spec of the agent the person plays) to the end of
/// the action sequence ([`engine::risk`]): the wounds `side` takes and deals, how often the
/// mover goes down, and which enemy models answered (with their AP now); exactly where the
/// tree is small enough, else over [`risk::RISK_SAMPLES`] samples.
pub fn risk(state: &GameState, side: Side, action: Action, seed: u64, bot: &str) -> Result<Value, String> {
    let mover = risk::mover(state);
    let (spec, capped) = answer_spec(bot);
    let mut agent = make_agent(&spec, seed)?;
    let world = state.determinize(side, &mut ChaCha8Rng::seed_from_u64(seed));
    let exact = if world.legal_actions().contains(&action) {
        risk::exact(&world, action, side, mover, &mut |now| agent.select_action(now))
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
            let mut own = make_agent("scripted", seed ^ 0x5151)?;
            let mut own = |now: &GameState| own.select_action(now);
            let tally = risk::sampled(
                state,
                side,
                action,
                seed,
                &mut own,
                &mut |now| agent.select_action(now),
                mover,
            )?;
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
