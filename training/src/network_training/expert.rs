//! Expert play for the bootstrap: games of the scripted and search players across the
//! scenarios, boards and crews of the configuration, stored as shard files of compact game
//! records with a training target at every real decision, and read back as samples.
//!
//! A shard (`RUN/shards/shard-00000.jsonl`, one game per line) holds each game's set-up names,
//! its actions (decisions and dice) and, for every decision with two or more legal actions,
//! the target: the chosen action (or a search's visit distribution). Positions are rebuilt by
//! replaying the actions, so a shard is small and exact. Shards are written atomically and a
//! resumed generation only plays the shards that are missing.
//!
//! With `data.value_rollouts`, a game also stores, for each kept decision, the mean return of
//! rollouts from it (the value target in place of the game's result) and, with
//! `data.value_children`, the positions after several of its actions (an action index and a
//! dice seed each) with their own rollout values.

use crate::network_training::config::{ChildOrder, Config, DataConfig};
use crate::network_training::sample::{balance_sides, lambda_returns, margin_target, Sample, Sibling};
use agents::{Agent, Game, Turn};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::{Action, GameState};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One decision's target: (position in the legal-action list, probability).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// Index into the game's actions.
    pub ply: u32,
    /// Target probabilities of legal actions (absent ones are 0).
    pub probs: Vec<(u16, f32)>,
    /// The searcher's estimate of its return there (a self-play search's root value), for
    /// value targets bootstrapped along the game; none where the expert gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f32>,
}

/// One expert game as stored in a shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardGame {
    /// Index of the game in the run.
    pub game: usize,
    /// Scenario name.
    pub scenario: String,
    /// Board name.
    pub board: String,
    /// Crew names, side A then B.
    pub crews: [String; 2],
    /// Agent specs, side A then B.
    pub agents: [String; 2],
    /// Every action, decisions and chance outcomes.
    pub actions: Vec<Action>,
    /// Targets of the real decisions.
    pub targets: Vec<Target>,
    /// Final returns of sides A and B.
    pub returns: [f64; 2],
    /// Final victory-point margins of sides A and B (empty in shards written before they
    /// were recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub margins: Vec<f64>,
    /// With `data.value_rollouts`: (ply, the mover's mean rollout return) at every kept
    /// decision, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rollout_values: Vec<(u32, f32)>,
    /// With `data.value_children`: the children of kept decisions, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<ChildValue>,
}

/// A child of a kept decision: the position after one of its actions, rebuilt from the
/// decision by the action and a dice seed, with its mover's mean rollout return.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChildValue {
    /// Index of the decision in the game's actions.
    pub ply: u32,
    /// The action, as its index in the decision's legal actions.
    pub action: u16,
    /// Seed of the dice drawn after it.
    pub dice: u64,
    /// The child's mover's mean rollout return.
    pub value: f32,
}

/// The position after `action` at `state`, dice drawn from the seed `dice`, and its mover;
/// `None` where the game ends first.
fn child_position(
    state: &GameState,
    action: Action,
    dice: u64,
) -> Result<Option<(GameState, usize)>, String> {
    let mut child = state.clone();
    child.apply_action(action).map_err(|e| e.to_string())?;
    let mut rng = ChaCha8Rng::seed_from_u64(dice);
    loop {
        match Game::turn(&child) {
            Turn::Terminal => return Ok(None),
            Turn::Player(mover) => return Ok(Some((child, mover))),
            Turn::Chance => {
                let outcome = child.sample_chance(&mut rng).ok_or("a chance node without outcomes")?;
                child.apply_action(outcome).map_err(|e| e.to_string())?;
            }
        }
    }
}

/// Resolve `["all"]` lists against the configs folder.
pub(crate) fn names(list: &[String], folder: &str, ext: &str) -> Result<Vec<String>, String> {
    if list.len() == 1 && list[0] == "all" {
        let dir = engine::data::configs_dir().join(folder);
        return engine::data::file_names(&dir, ext).map_err(|e| e.to_string());
    }
    Ok(list.to_vec())
}

/// The scenario a name (or the skirmish) names.
pub(crate) fn scenario_named(name: &str) -> Option<Scenario> {
    std::iter::once(Scenario::Skirmish).chain(Scenario::ALL).find(|s| s.name() == name)
}

/// The scenarios of the configuration.
fn scenarios(config: &Config) -> Result<Vec<Scenario>, String> {
    if config.data.scenarios.len() == 1 && config.data.scenarios[0] == "all" {
        return Ok(Scenario::ALL.to_vec());
    }
    config
        .data
        .scenarios
        .iter()
        .map(|n| scenario_named(n).ok_or_else(|| format!("data.scenarios: unknown scenario `{n}`")))
        .collect()
}

fn game_rng(config: &Config, game: usize) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(config.seed ^ (game as u64).wrapping_mul(0xA24B_AED4_963E_E407))
}

/// The scenario, board and crews of game `game` of the run, drawn from the seed and the index.
pub fn play_setup(config: &Config, game: usize) -> Result<(Scenario, String, [String; 2]), String> {
    setup_with(config, &mut game_rng(config, game))
}

fn setup_with(config: &Config, rng: &mut ChaCha8Rng) -> Result<(Scenario, String, [String; 2]), String> {
    let scenarios = scenarios(config)?;
    let boards = names(&config.data.boards, "boards", "board")?;
    let crews = names(&config.data.crews, "crews", "toml")?;
    let scenario = scenarios[rng.gen_range(0..scenarios.len())];
    let board = boards[rng.gen_range(0..boards.len())].clone();
    let crew = [crews[rng.gen_range(0..crews.len())].clone(), crews[rng.gen_range(0..crews.len())].clone()];
    Ok((scenario, board, crew))
}

/// The two sides' agent specs and whether each side's decisions become targets: two of the
/// `agents`, or one of them against one of the `opponents` on a side drawn at random.
fn agent_specs(config: &Config, rng: &mut ChaCha8Rng) -> ([String; 2], [bool; 2]) {
    let d = &config.data;
    let expert = |rng: &mut ChaCha8Rng| d.agents[rng.gen_range(0..d.agents.len())].clone();
    if d.opponents.is_empty() {
        return ([expert(rng), expert(rng)], [true, true]);
    }
    let teacher = expert(rng);
    let opponent = d.opponents[rng.gen_range(0..d.opponents.len())].clone();
    if rng.gen_bool(0.5) {
        ([teacher, opponent], [true, false])
    } else {
        ([opponent, teacher], [false, true])
    }
}

/// Play game `game` of the run: its set-up and agents drawn from the seed and the index.
pub fn play_game(config: &Config, game: usize) -> Result<ShardGame, String> {
    let mut rng = game_rng(config, game);
    let (scenario, board, crew) = setup_with(config, &mut rng)?;
    let (specs, learners) = agent_specs(config, &mut rng);
    let setup = GameConfig { board: board.clone(), crews: crew.clone(), scenario, ..GameConfig::default() };
    let mut state = new_game(&setup).map_err(|e| format!("game {game}: {e}"))?;
    let mut players: Vec<Box<dyn Agent<GameState>>> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| crate::play::make_agent(s, rng.gen::<u64>() ^ i as u64))
        .collect::<Result<_, _>>()?;
    let mut dice = ChaCha8Rng::seed_from_u64(rng.gen());
    // Drawn only when a driver is set, so runs without one keep their games.
    let mut driver = match &config.data.driver {
        Some(spec) => Some((crate::play::make_agent(spec, rng.gen())?, ChaCha8Rng::seed_from_u64(rng.gen()))),
        None => None,
    };
    let (mut actions, mut targets) = (Vec::new(), Vec::new());
    loop {
        let action = match Game::turn(&state) {
            Turn::Terminal => break,
            Turn::Chance => state.sample_chance(&mut dice).ok_or("a chance node without outcomes")?,
            Turn::Player(p) => {
                let legal = state.legal_actions();
                let chosen = players[p].select_action(&state);
                if legal.len() >= 2 && learners[p] {
                    let at =
                        legal.iter().position(|&a| a == chosen).ok_or("the agent chose an illegal action")?;
                    // A search's visit distribution where there is one, else the choice.
                    let probs = match players[p].last_search() {
                        Some(weights) if weights.iter().any(|&(_, w)| w > 0.0) => {
                            let found: Vec<(u16, f64)> = weights
                                .iter()
                                .filter(|&&(_, w)| w > 0.0)
                                .filter_map(|&(a, w)| Some((legal.iter().position(|&l| l == a)? as u16, w)))
                                .collect();
                            let total: f64 = found.iter().map(|&(_, w)| w).sum::<f64>().max(1e-12);
                            found.into_iter().map(|(i, w)| (i, (w / total) as f32)).collect()
                        }
                        _ => vec![(at as u16, 1.0)],
                    };
                    targets.push(Target { ply: actions.len() as u32, probs, value: None });
                    if let Some((agent, coin)) = driver.as_mut() {
                        if coin.gen_bool(config.data.driver_share) {
                            let played = agent.select_action(&state);
                            if !legal.contains(&played) {
                                return Err(format!("game {game}: data.driver chose an illegal action"));
                            }
                            state.apply_action(played).map_err(|e| e.to_string())?;
                            actions.push(played);
                            continue;
                        }
                    }
                }
                chosen
            }
        };
        state.apply_action(action).map_err(|e| e.to_string())?;
        actions.push(action);
    }
    let r = state.returns();
    let mut played = ShardGame {
        game,
        scenario: scenario.name().to_string(),
        board,
        crews: crew,
        agents: specs,
        actions,
        targets,
        returns: [r[0], r[1]],
        margins: agents::TensorGame::final_margins(&state),
        rollout_values: Vec::new(),
        children: Vec::new(),
    };
    let data = &config.data;
    if data.value_rollouts > 0 {
        let (mut values, mut children) = (Vec::new(), Vec::new());
        let seed = rng.gen::<u64>();
        let rollout = |state: &GameState, mover: usize, seed: u64| {
            crate::play::rollout::rollout_mean(state, mover, &data.rollout_agent, data.value_rollouts, seed)
                .map(|mean| mean as f32)
                .map_err(|e| format!("game {game}: data.rollout_agent: {e}"))
        };
        replay_kept(&played, data, |kept| {
            let decision_seed = seed ^ (kept.ply as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
            values.push((kept.ply as u32, rollout(kept.state, kept.mover, decision_seed)?));
            if data.value_children == 0 {
                return Ok(());
            }
            // The action played first, then others in a random order (with `likely`, the
            // expert's most probable first, ties in that random order).
            let legal = kept.state.legal_actions();
            let mut order: Vec<usize> = (0..legal.len()).collect();
            let mut draw = ChaCha8Rng::seed_from_u64(decision_seed);
            order.shuffle(&mut draw);
            if let (ChildOrder::Likely, Some(target)) = (data.children, kept.target) {
                let mut prob = vec![0.0f32; legal.len()];
                for &(i, p) in &target.probs {
                    if let Some(slot) = prob.get_mut(i as usize) {
                        *slot = p;
                    }
                }
                order.sort_by(|&a, &b| prob[b].total_cmp(&prob[a]));
            }
            if let Some(at) = order.iter().position(|&i| legal[i] == played.actions[kept.ply]) {
                order[..=at].rotate_right(1);
            }
            for (c, &i) in order.iter().take(data.value_children).enumerate() {
                let dice = draw.gen::<u64>();
                if let Some((child, mover)) = child_position(kept.state, legal[i], dice)? {
                    let value = rollout(&child, mover, decision_seed.wrapping_add(1 + c as u64))?;
                    children.push(ChildValue { ply: kept.ply as u32, action: i as u16, dice, value });
                }
            }
            Ok(())
        })?;
        played.rollout_values = values;
        played.children = children;
    }
    Ok(played)
}

/// The shard file of shard `k`.
pub fn shard_path(run: &Path, k: usize) -> PathBuf {
    run.join("shards").join(format!("shard-{k:05}.jsonl"))
}

/// Play the run's expert games into shards, skipping shards already written; returns the
/// number of games played now.
pub fn generate(run: &Path, config: &Config, progress: bool) -> Result<usize, String> {
    std::fs::create_dir_all(run.join("shards")).map_err(|e| format!("{}: {e}", run.display()))?;
    let per = config.data.games_per_shard;
    let shards = config.data.games.div_ceil(per);
    let missing: Vec<usize> = (0..shards).filter(|&k| !shard_path(run, k).is_file()).collect();
    let games: usize = missing.iter().map(|&k| per.min(config.data.games - k * per)).sum();
    let bar = crate::progress_bar(progress, games as u64, "expert games");
    missing.par_iter().try_for_each(|&k| -> Result<(), String> {
        let mut text = String::new();
        for game in k * per..((k + 1) * per).min(config.data.games) {
            let g = play_game(config, game)?;
            text.push_str(&serde_json::to_string(&g).map_err(|e| e.to_string())?);
            text.push('\n');
            bar.inc(1);
        }
        let path = shard_path(run, k);
        engine::record::write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())
    })?;
    bar.finish_and_clear();
    Ok(games)
}

/// A kept decision of a stored game, as its replay meets it.
struct Kept<'a> {
    /// Index of the decision in the game's actions.
    ply: usize,
    /// The position before it.
    state: &'a GameState,
    /// The player deciding.
    mover: usize,
    /// The expert's target, or none for a value-only decision.
    target: Option<&'a Target>,
}

/// Replay a stored game and visit its kept decisions in order: every target and, with
/// `data.value_from_opponents`, every other decision with two or more legal actions; only
/// every `data.every`-th of them.
fn replay_kept(
    game: &ShardGame,
    data: &DataConfig,
    mut visit: impl FnMut(Kept<'_>) -> Result<(), String>,
) -> Result<(), String> {
    let scenario =
        scenario_named(&game.scenario).ok_or_else(|| format!("unknown scenario {}", game.scenario))?;
    let setup = GameConfig {
        board: game.board.clone(),
        crews: game.crews.clone(),
        scenario,
        ..GameConfig::default()
    };
    let mut state = new_game(&setup).map_err(|e| e.to_string())?;
    let mut next = game.targets.iter().peekable();
    // Decisions are counted as they come and only every `data.every`-th is kept; the kept
    // phase turns with the game, so not every game keeps its first decision.
    let (mut seen, phase) = (0usize, game.game % data.every);
    let mut keep = || {
        seen += 1;
        (seen - 1) % data.every == phase
    };
    for (ply, &action) in game.actions.iter().enumerate() {
        if let Some(t) = next.next_if(|t| t.ply as usize == ply) {
            let Turn::Player(mover) = Game::turn(&state) else {
                return Err(format!("game {}: ply {ply} is not a decision", game.game));
            };
            if keep() {
                visit(Kept { ply, state: &state, mover, target: Some(t) })?;
            }
        } else if let (true, Turn::Player(mover)) = (data.value_from_opponents, Game::turn(&state)) {
            if state.legal_actions().len() >= 2 && keep() {
                visit(Kept { ply, state: &state, mover, target: None })?;
            }
        }
        state.apply_action(action).map_err(|e| format!("game {}: ply {ply}: {e}", game.game))?;
    }
    Ok(())
}

/// Rebuild one stored game's samples by replaying it: one at each kept decision
/// ([`replay_kept`]), a value-only one where the decision has no target, its value target
/// the game's result or, with `data.value_rollouts`, the stored rollout mean; with
/// `data.value_children`, a value-only sample for each of its stored children after it; each
/// side's value weight balanced ([`balance_sides`]).
pub fn samples_of(game: &ShardGame, data: &DataConfig) -> Result<Vec<Sample<GameState>>, String> {
    let mut out = Vec::with_capacity(game.targets.len().div_ceil(data.every));
    // The kept decisions of the game's own line: (index in `out`, mover, rollout mean).
    let mut line: Vec<(usize, usize, f32)> = Vec::new();
    let mut rollouts = game.rollout_values.iter().peekable();
    let mut children = game.children.iter().peekable();
    replay_kept(game, data, |kept| {
        let value = if data.value_rollouts > 0 {
            let Some(&(_, mean)) = rollouts.next_if(|&&(ply, _)| ply as usize == kept.ply) else {
                return Err(format!(
                    "game {}: no rollout value at ply {} (its shard was played without data.value_rollouts)",
                    game.game, kept.ply
                ));
            };
            mean
        } else {
            game.returns[kept.mover] as f32
        };
        let sample = match kept.target {
            Some(t) => {
                let mut target = vec![0.0f32; kept.state.legal_actions().len()];
                for &(i, prob) in &t.probs {
                    *target.get_mut(i as usize).ok_or_else(|| {
                        format!("game {}: ply {}: target beyond the legal actions", game.game, kept.ply)
                    })? = prob;
                }
                Sample::new(kept.state.clone(), kept.mover, target, value)?
            }
            None => Sample::value_only(kept.state.clone(), kept.mover, value)?,
        };
        line.push((out.len(), kept.mover, value));
        out.push(Sample { margin: game.margins.get(kept.mover).map(|&m| margin_target(m)), ..sample });
        let legal = if data.value_children > 0 { kept.state.legal_actions() } else { Vec::new() };
        while let Some(c) = children.next_if(|c| data.value_children > 0 && c.ply as usize == kept.ply) {
            let action = *legal.get(c.action as usize).ok_or_else(|| {
                format!("game {}: ply {}: child action beyond the legal actions", game.game, kept.ply)
            })?;
            let Some((child, mover)) = child_position(kept.state, action, c.dice)? else {
                return Err(format!("game {}: ply {}: a stored child ends the game", game.game, kept.ply));
            };
            let sibling = Sibling {
                decision: (game.game as u64) << 32 | kept.ply as u64,
                sign: if mover == kept.mover { 1.0 } else { -1.0 },
            };
            out.push(Sample { sibling: Some(sibling), ..Sample::value_only(child, mover, c.value)? });
        }
        Ok(())
    })?;
    if data.value_lambda < 1.0 {
        let steps: Vec<(usize, f32)> = line.iter().map(|&(_, mover, v)| (mover, v)).collect();
        let targets = lambda_returns(&steps, &game.returns, data.value_lambda as f32);
        for (&(i, _, _), target) in line.iter().zip(targets) {
            out[i].value = target;
        }
    }
    balance_sides(&mut out);
    Ok(out)
}

/// Training and validation samples.
pub type Split = (Vec<Sample<GameState>>, Vec<Sample<GameState>>);

/// Read every shard of the run (each once) and split the games' samples into training and
/// validation sets, the latter a `validation` share of the games chosen from the seed.
pub fn load(run: &Path, config: &Config) -> Result<Split, String> {
    let shards = config.data.games.div_ceil(config.data.games_per_shard);
    let games: Vec<ShardGame> = (0..shards)
        .into_par_iter()
        .map(|k| -> Result<Vec<ShardGame>, String> {
            let path = shard_path(run, k);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            text.lines()
                .enumerate()
                .map(|(i, line)| {
                    serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))
                })
                .collect()
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    let per_game: Vec<(usize, Vec<Sample<GameState>>)> = games
        .par_iter()
        .map(|g| samples_of(g, &config.data).map(|s| (g.game, s)))
        .collect::<Result<_, _>>()?;
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (game, samples) in per_game {
        let mut rng = ChaCha8Rng::seed_from_u64(config.seed.wrapping_add(0x5EED) ^ game as u64);
        if rng.gen_bool(config.data.validation) {
            valid.extend(samples);
        } else {
            train.extend(samples);
        }
    }
    Ok((train, valid))
}
