//! The benchmark harness of `tde bench`: engine speed on the default board with two 100-point
//! crews, on one core: clone, legal actions, and complete random games of the skirmish and of
//! each scenario (set-up and deployment included); the MCTS agent's and the scripted player's
//! speed; how much a race's common dice narrow its comparisons; the memory of a cloned state and of an MCTS tree's nodes; policy iteration's speed;
//! and a trained network's and the fast network's figures. Every figure is the median of
//! several timed batches; the command line formats them.

use crate::learned_player::games::Games;
use crate::learned_player::labels::{label_game, LabelConfig};
use agents::learned::Generation;
use engine::fuzz::random_steps;
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::{GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// What to time.
#[derive(Clone, Debug)]
pub struct BenchSettings {
    /// Random games per timed batch.
    pub games: u32,
    /// Timed batches (the median is reported).
    pub batches: u32,
    /// The trained network to time, or `none`.
    pub net: String,
    /// The larger batch timed for the network's inference and training.
    pub net_batch: u32,
    /// The fast network to time, or `none`.
    pub fast: String,
    /// The MCTS agent timed at the first activation of each scenario.
    pub mcts: String,
}

/// Every figure of a full benchmark.
pub struct EngineFigures {
    /// Nanoseconds to clone a state at an activation decision.
    pub clone_ns: f64,
    /// Microseconds to list the legal actions there.
    pub legal_us: f64,
    /// The legal actions there.
    pub n_legal: usize,
    /// Random skirmish games per second.
    pub games_per_s: f64,
    /// Steps of a random skirmish game.
    pub steps_per_game: f64,
    /// Each scenario's figures.
    pub scenarios: Vec<ScenarioSpeed>,
    /// Timed batches.
    pub batches: u32,
    /// Bytes of a state in place.
    pub state_bytes: usize,
    /// Bytes of a state on the heap at the activation decision.
    pub state_heap_bytes: usize,
    /// The MCTS tree grown at the activation decision.
    pub tree: agents::TreeFootprint,
    /// Bytes per tree node with its children maps.
    pub bytes_per_node: f64,
    /// The trained network's figures (none with `--net none`).
    pub net: Option<crate::network::speed::NetSpeed>,
    /// Policy iteration's speed.
    pub learn: LearnSpeed,
    /// The fast network's figures (none with `--fast none`).
    pub fast: Option<fastnet::speed::FastSpeed>,
}

/// Time everything `settings` names, saying each network stage to `progress`.
pub fn measure(settings: &BenchSettings, progress: &dyn Fn(&str)) -> Result<EngineFigures, String> {
    let start = new_game(&GameConfig::default()).map_err(|e| e.to_string())?;
    let decision = activation_decision(3)?;
    let batches = settings.batches.max(1);

    let mut clone_ns = Vec::new();
    for _ in 0..batches {
        let n = 200_000;
        let t = Instant::now();
        for _ in 0..n {
            // The clone is kept where it was made: `black_box` of the value itself would add a
            // move of the whole state to what is timed.
            let copy = black_box(&decision).clone();
            black_box(&copy);
        }
        clone_ns.push(t.elapsed().as_nanos() as f64 / n as f64);
    }

    let mut legal_us = Vec::new();
    let mut buf = Vec::new();
    let n_legal = decision.legal_actions().len();
    for _ in 0..batches {
        let n = 2_000;
        let t = Instant::now();
        for _ in 0..n {
            black_box(&decision).legal_actions_into(&mut buf);
            black_box(&buf);
        }
        legal_us.push(t.elapsed().as_secs_f64() * 1e6 / n as f64);
    }

    let (gps, spg) = game_speed(&start, settings.games, batches, &mut buf);
    let mut scenarios = Vec::new();
    for scenario in Scenario::ALL {
        let config = GameConfig { scenario, ..GameConfig::default() };
        let start = new_game(&config).map_err(|e| e.to_string())?;
        let (g, s) = game_speed(&start, settings.games, batches, &mut buf);
        let at = first_activation(config.clone(), 3)?;
        let random_rollouts = mcts_speed(&with_random_rollouts(&settings.mcts)?, &at, batches)?;
        let scripted = scripted_speed(&config, batches)?;
        scenarios.push(ScenarioSpeed {
            scenario,
            games_per_s: g,
            steps_per_game: s,
            mcts_per_s: mcts_speed(&settings.mcts, &at, batches)?,
            mcts_random_rollouts_per_s: random_rollouts,
            scripted_decisions_per_s: scripted,
            race_pairing: race_pairing(&config)?,
        });
    }
    let clone_ns = median(clone_ns);
    let legal_us = median(legal_us);
    let state_bytes = std::mem::size_of::<GameState>();
    let state_heap_bytes = decision.dynamic().heap_bytes();
    let tree = agents::make_mcts(&mcts_args(&settings.mcts)?, 0)?.tree_footprint(&decision);
    let bytes_per_node = tree.bytes as f64 / tree.nodes as f64;
    let net = network_speed(&settings.net, batches, settings.net_batch as usize, progress)?;
    let learn = learn_speed(batches)?;
    let fast = fast_speed(&settings.fast)?;
    Ok(EngineFigures {
        clone_ns,
        legal_us,
        n_legal,
        games_per_s: gps,
        steps_per_game: spg,
        scenarios,
        batches,
        state_bytes,
        state_heap_bytes,
        tree,
        bytes_per_node,
        net,
        learn,
        fast,
    })
}

/// The median of timings.
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).expect("finite timings"));
    xs[xs.len() / 2]
}

/// A state at an activation decision (a model's action choice) early in a game.
fn activation_decision(seed: u64) -> Result<GameState, String> {
    first_activation(GameConfig::default(), seed)
}

/// The first model-action decision of a game of `config`, after random set-up choices.
fn first_activation(config: GameConfig, seed: u64) -> Result<GameState, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = new_game(&config).map_err(|e| e.to_string())?;
    loop {
        if let Some(engine::state::Step::ChooseAction(_)) = state.node() {
            return Ok(state);
        }
        if state.is_terminal() {
            return Err("game ended before an activation".into());
        }
        state = random_steps(state, 1, &mut rng);
    }
}

/// Play one random game to the end, calling `at_decision` with each decision and its number
/// of legal actions; returns the number of steps.
fn random_game(
    mut state: GameState,
    rng: &mut ChaCha8Rng,
    buf: &mut Vec<engine::Action>,
    mut at_decision: impl FnMut(&GameState, usize),
) -> u64 {
    let mut n = 0;
    loop {
        let action = match state.current_player() {
            Player::Terminal => return n,
            Player::Chance => state.sample_chance(rng).expect("outcomes"),
            Player::Side(_) => {
                state.legal_actions_into(buf);
                at_decision(&state, buf.len());
                buf[rng.gen_range(0..buf.len())]
            }
        };
        state.apply_legal_action(action);
        n += 1;
    }
}

/// The fast network's figures (`--fast none` skips them).
pub fn fast_speed(path: &str) -> Result<Option<fastnet::speed::FastSpeed>, String> {
    if path == "none" {
        return Ok(None);
    }
    let net =
        fastnet::agent::FastNet::load(std::path::Path::new(path)).map_err(|e| format!("--fast: {e}"))?;
    fastnet::speed::measure(&std::sync::Arc::new(net), 16)
        .map(Some)
        .map_err(|e| format!("--fast {path}: {e}"))
}

/// Speed of policy iteration on one thread.
pub struct LearnSpeed {
    /// Learning games per hour.
    pub games_per_hour: f64,
    /// Rollout labels per hour.
    pub labels_per_hour: f64,
}

/// Medians over `batches` of learning games (four a batch) and of labelling one game each, by
/// generation 0 with the default label settings.
fn learn_speed(batches: u32) -> Result<LearnSpeed, String> {
    let games = Games::new(Arc::new(Generation::scripted()), Vec::new())?;
    let (mut per_game, mut per_label) = (Vec::new(), Vec::new());
    for b in 0..batches as u64 {
        let t = Instant::now();
        for g in 0..4 {
            games.play(1_000 + 4 * b + g, |_, _| true)?;
        }
        per_game.push(3600.0 * 4.0 / t.elapsed().as_secs_f64());
        let t = Instant::now();
        let labels = label_game(&games, 2_000 + b, &LabelConfig::default())?;
        per_label.push(3600.0 * labels.len() as f64 / t.elapsed().as_secs_f64());
    }
    Ok(LearnSpeed { games_per_hour: median(per_game), labels_per_hour: median(per_label) })
}

/// One scenario's figures.
pub struct ScenarioSpeed {
    /// The scenario.
    pub scenario: Scenario,
    /// Random games per second.
    pub games_per_s: f64,
    /// Steps of a random game.
    pub steps_per_game: f64,
    /// MCTS iterations per second at its first activation.
    pub mcts_per_s: f64,
    /// The same with random rollouts.
    pub mcts_random_rollouts_per_s: f64,
    /// Scripted decisions per second.
    pub scripted_decisions_per_s: f64,
    /// How much a race's common dice narrow its comparisons along a scripted game: the
    /// variance of paired rollout differences over that of independent ones
    /// ([`agents::race::pairing_variances`]; the scripted player's four best actions, 32 rounds,
    /// every 40th decision).
    pub race_pairing: Option<f64>,
}

/// The pairing ratio of races along one scripted game of `config` (seeded): at every 40th
/// decision with two or more choices, the scripted player's four best actions raced over 32
/// rounds of scripted rollouts, none dropped; the variances pooled over the races (see
/// [`ScenarioSpeed::race_pairing`]). `None` where no rollout's value varied.
fn race_pairing(config: &GameConfig) -> Result<Option<f64>, String> {
    use agents::{Agent, Game, Turn};
    let state = new_game(config).map_err(|e| e.to_string())?;
    let args = agents::registry().check("race:rounds=32,width=4,min=1000000")?;
    let mut race = agents::make_race(&args, Box::new(agents::ScriptedAgent::new(1)), "rank=scripted", 7)?;
    let mut players: Vec<Box<dyn Agent<GameState>>> =
        vec![Box::new(agents::ScriptedAgent::new(3)), Box::new(agents::ScriptedAgent::new(4))];
    let (mut paired, mut independent, mut decisions) = (0.0, 0.0, 0u32);
    agents::play_game(state, &mut players, 5, |now, _| {
        if matches!(Game::turn(now), Turn::Player(_)) {
            decisions += 1;
            if decisions % 40 == 0 && Game::legal_actions(now).len() >= 2 {
                let (p, i) = agents::race::pairing_variances(&race.race(now));
                paired += p;
                independent += i;
            }
        }
    });
    Ok((independent > 0.0).then(|| paired / independent))
}

/// The `--mcts` spec with its rollouts made random (the engine's own speed, without the
/// scripted player's evaluation of its candidates).
fn with_random_rollouts(spec: &str) -> Result<String, String> {
    mcts_args(spec)?;
    let mut spec = agents::Spec::parse(spec)?;
    spec.set("rollout", "random");
    Ok(spec.to_string())
}

/// Median decisions per second of the scripted player over the decisions of a seeded random
/// game of `config` (those with a choice).
fn scripted_speed(config: &GameConfig, batches: u32) -> Result<f64, String> {
    let mut positions = Vec::new();
    let start = new_game(config).map_err(|e| e.to_string())?;
    random_game(start, &mut ChaCha8Rng::seed_from_u64(11), &mut Vec::new(), |state, legal| {
        if legal > 1 {
            positions.push(state.clone());
        }
    });
    let mut agent = agents::make_agent("scripted", 0)?;
    let mut rates = Vec::new();
    for _ in 0..batches {
        let t = Instant::now();
        for p in &positions {
            black_box(agent.select_action(p));
        }
        rates.push(positions.len() as f64 / t.elapsed().as_secs_f64());
    }
    Ok(median(rates))
}

/// Median MCTS iterations per second of `spec` searching the decision `at`.
fn mcts_speed(spec: &str, at: &GameState, batches: u32) -> Result<f64, String> {
    let config = agents::MctsConfig::from_args(&mcts_args(spec)?)?;
    if config.millis.is_some() {
        return Err(format!("--mcts: `{spec}` needs an iteration budget (iters=), not ms="));
    }
    let iterations = config.iterations;
    let mut rates = Vec::new();
    for b in 0..batches {
        let mut agent = agents::make_agent(spec, b as u64)?;
        let t = Instant::now();
        black_box(agent.select_action(at));
        rates.push(iterations as f64 / t.elapsed().as_secs_f64());
    }
    Ok(median(rates))
}

/// The checked `--mcts` spec, which must name the mcts agent.
fn mcts_args(spec: &str) -> Result<agents::Args, String> {
    let args = agents::registry().check(spec).map_err(|e| format!("--mcts: {e}"))?;
    match args.name() {
        "mcts" => Ok(args),
        _ => Err(format!("--mcts: `{spec}` is not an mcts agent")),
    }
}

/// Median games per second and steps per game of random games from `start`.
fn game_speed(start: &GameState, games: u32, batches: u32, buf: &mut Vec<engine::Action>) -> (f64, f64) {
    let mut games_per_s = Vec::new();
    let mut steps_per_game = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..batches {
        let t = Instant::now();
        let mut steps = 0;
        for _ in 0..games {
            steps += random_game(start.clone(), &mut rng, buf, |_, _| {});
        }
        games_per_s.push(games as f64 / t.elapsed().as_secs_f64());
        steps_per_game.push(steps as f64 / games as f64);
    }
    (median(games_per_s), median(steps_per_game))
}

/// The network figures (`--net none` skips them): positions from random games of the five
/// scenarios, at decisions with a choice.
pub fn network_speed(
    path: &str,
    batches: u32,
    large: usize,
    progress: &dyn Fn(&str),
) -> Result<Option<crate::network::speed::NetSpeed>, String> {
    if path == "none" {
        return Ok(None);
    }
    let mut positions = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (i, scenario) in Scenario::ALL.into_iter().cycle().take(40).enumerate() {
        let config = GameConfig { scenario, ..GameConfig::default() };
        let mut state = first_activation(config, i as u64)?;
        for _ in 0..3 {
            if matches!(state.current_player(), Player::Side(_)) && state.legal_actions().len() > 1 {
                positions.push(state.clone());
            }
            state = random_steps(state, rng.gen_range(3..20), &mut rng);
            if state.is_terminal() {
                break;
            }
        }
    }
    crate::network::speed::measure(std::path::Path::new(path), &positions, batches, large, progress)
        .map(Some)
        .map_err(|e| format!("--net {path}: {e}"))
}
