//! `tde bench`: engine speed on the default board with two 100-point crews, on one core:
//! clone, legal actions, and complete random games of the skirmish and of each scenario
//! (set-up and deployment included). Every figure is the median of several timed batches.
//! Also the memory of a cloned state and of an MCTS tree's nodes.

use crate::game_cmd::random_steps;
use agents::learned::Generation;
use clap::Args;
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::{GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use training::learn::games::Games;
use training::learn::labels::{label_game, LabelConfig};

/// `tde bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Random games per timed batch (1 to 10000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Number of timed batches, the median is reported (1 to 1000).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub batches: u32,
    /// Trained network to time (inference at batch 1, 64 and --net-batch, training at batch 32
    /// and --net-batch, expert generation) on the `--device`; `none` to skip.
    #[arg(long, default_value = "checkpoints/bootstrap")]
    pub net: String,
    /// The larger batch timed for the network's inference and training (64 to 4096; a GPU
    /// needs hundreds to be busy).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(64..=4096))]
    pub net_batch: u32,
    /// Fast network to time (evaluations from scratch and incremental, whole evaluations of
    /// states, training samples, data generation); `none` to skip.
    #[arg(long, default_value = "checkpoints/fast/gen-000.fnet")]
    pub fast: String,
    /// MCTS agent timed at the first activation of each scenario (one thread).
    #[arg(long, default_value = "mcts:iters=200,depth=30,rollout=scripted,width=4,threads=1")]
    pub mcts: String,
    /// Time the network alone (--net), skipping the engine and MCTS figures: what a GPU
    /// measurement needs.
    #[arg(long)]
    pub network_only: bool,
    /// Time the fast network alone (--fast), skipping every other figure.
    #[arg(long, conflicts_with = "network_only")]
    pub fast_only: bool,
}

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

/// Run the benchmark and format its figures.
pub fn bench(args: &BenchArgs) -> Result<String, String> {
    if args.fast_only {
        let fast = fast_speed(&args.fast)?.ok_or("--fast-only needs a fast network: --fast names none")?;
        return Ok(if args.json {
            json!({ "fast_network": fast }).to_string()
        } else {
            fast_text(&fast, &args.fast)
        });
    }
    if args.network_only {
        if args.net == "none" {
            return Err("--network-only needs a network: --net names none".into());
        }
        let net = network_speed(&args.net, args.batches.max(1), args.net_batch as usize)?;
        return Ok(match (&net, args.json) {
            (_, true) => json!({ "network": net, "batches": args.batches.max(1) }).to_string(),
            (Some(n), false) => network_text(n, &args.net),
            (None, false) => String::new(),
        });
    }
    let start = new_game(&GameConfig::default()).map_err(|e| e.to_string())?;
    let decision = activation_decision(3)?;
    let batches = args.batches.max(1);

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

    let (gps, spg) = game_speed(&start, args.games, batches, &mut buf);
    let mut scenarios = Vec::new();
    for scenario in Scenario::ALL {
        let config = GameConfig { scenario, ..GameConfig::default() };
        let start = new_game(&config).map_err(|e| e.to_string())?;
        let (g, s) = game_speed(&start, args.games, batches, &mut buf);
        let at = first_activation(config.clone(), 3)?;
        let random_rollouts = mcts_speed(&with_random_rollouts(&args.mcts)?, &at, batches)?;
        let scripted = scripted_speed(&config, batches)?;
        scenarios.push(ScenarioSpeed {
            scenario,
            games_per_s: g,
            steps_per_game: s,
            mcts_per_s: mcts_speed(&args.mcts, &at, batches)?,
            mcts_random_rollouts_per_s: random_rollouts,
            scripted_decisions_per_s: scripted,
        });
    }
    let clone_ns = median(clone_ns);
    let legal_us = median(legal_us);
    let state_bytes = std::mem::size_of::<GameState>();
    let state_heap_bytes = decision.dynamic().heap_bytes();
    let tree = agents::make_mcts(&mcts_args(&args.mcts)?, 0)?.tree_footprint(&decision);
    let bytes_per_node = tree.bytes as f64 / tree.nodes as f64;
    let net = network_speed(&args.net, batches, args.net_batch as usize)?;
    let learn = learn_speed(batches)?;
    let fast = fast_speed(&args.fast)?;
    Ok(if args.json {
        let per: Vec<_> = scenarios
            .iter()
            .map(|s| {
                json!({
                    "scenario": s.scenario.name(),
                    "games_per_s": s.games_per_s,
                    "steps_per_game": s.steps_per_game,
                    "mcts_iterations_per_s": s.mcts_per_s,
                    "mcts_random_rollouts_iterations_per_s": s.mcts_random_rollouts_per_s,
                    "scripted_decisions_per_s": s.scripted_decisions_per_s,
                })
            })
            .collect();
        json!({
            "clone_ns": clone_ns,
            "legal_actions_us": legal_us,
            "legal_actions_count": n_legal,
            "random_games_per_s": gps,
            "steps_per_game": spg,
            "scenarios": per,
            "mcts": args.mcts,
            "batches": batches,
            "network": net,
            "fast_network": fast,
            "learned_games_per_hour": learn.games_per_hour,
            "labels_per_hour": learn.labels_per_hour,
            "state_bytes": state_bytes,
            "state_heap_bytes": state_heap_bytes,
            "mcts_node_bytes": tree.node_size,
            "mcts_tree_nodes": tree.nodes,
            "mcts_tree_bytes": tree.bytes,
            "mcts_bytes_per_node": bytes_per_node,
        })
        .to_string()
    } else {
        let mut out = format!(
            "medians of {batches} batches, one thread:\n  clone               {clone_ns:>10.1} ns\n  legal actions       {legal_us:>10.2} µs ({n_legal} actions at an activation decision)\n  random games        {gps:>10.1} games/s ({spg:.0} steps/game), skirmish"
        );
        for s in &scenarios {
            out.push_str(&format!(
                "\n  {:<19} {:>10.1} games/s ({:.0} steps/game), {:>7.0} MCTS iterations/s at its first activation \
                 ({:.0} with random rollouts), {:.0} scripted decisions/s",
                s.scenario.name(),
                s.games_per_s,
                s.steps_per_game,
                s.mcts_per_s,
                s.mcts_random_rollouts_per_s,
                s.scripted_decisions_per_s
            ));
        }
        out.push_str(&format!("\n  (MCTS agent: {}; and with rollout=random)", args.mcts));
        out.push_str(&format!(
            "\n  memory: {} bytes per cloned state ({state_bytes} in place, {state_heap_bytes} on the heap) \
             at an activation decision;\n          MCTS tree grown there: {} nodes of {} bytes, \
             {} bytes in all, {bytes_per_node:.0} bytes per node with its children maps",
            state_bytes + state_heap_bytes,
            tree.nodes,
            tree.node_size,
            tree.bytes
        ));
        out.push_str(&format!(
            "\n  policy iteration (one thread, boards and crews drawn, generation 0): {:.0} learning games/hour, \
             {:.0} rollout labels/hour ({} candidates x {} rollouts each)",
            learn.games_per_hour,
            learn.labels_per_hour,
            LabelConfig::default().top + 1,
            LabelConfig::default().rollouts
        ));
        if let Some(n) = &net {
            out.push('\n');
            out.push_str(&network_text(n, &args.net));
        }
        if let Some(f) = &fast {
            out.push('\n');
            out.push_str(&fast_text(f, &args.fast));
        }
        out
    })
}

/// The fast network's figures (`--fast none` skips them).
fn fast_speed(path: &str) -> Result<Option<fastnet::speed::FastSpeed>, String> {
    if path == "none" {
        return Ok(None);
    }
    let net =
        fastnet::agent::FastNet::load(std::path::Path::new(path)).map_err(|e| format!("--fast: {e}"))?;
    fastnet::speed::measure(&std::sync::Arc::new(net), 16)
        .map(Some)
        .map_err(|e| format!("--fast {path}: {e}"))
}

/// The fast network's figures as text.
fn fast_text(f: &fastnet::speed::FastSpeed, path: &str) -> String {
    format!(
        "  fast network ({path}, {} parameters, {:.0} active features a position; medians):\n\
         \x20   evaluations, one thread: {:.0}/s from scratch, {:.0}/s incremental ({:.1} rows changed an update), \
         {:.0}/s of whole states (features computed)\n\
         \x20   evaluations with the 16-bit first layer (play form), one thread: {:.0}/s from scratch, {:.0}/s incremental\n\
         \x20   training: {:.0} samples/s on one thread, {:.0} on {} threads; data generation: {:.2} million labelled positions/hour on {} threads\n\
         \x20   expert iteration's self-play (its default search): {:.2} million labelled positions/hour, {:.0} games/hour on {} threads",
        f.params,
        f.mean_active_features,
        f.scratch_per_s,
        f.incremental_per_s,
        f.incremental_rows_changed,
        f.states_per_s,
        f.quantised_scratch_per_s,
        f.quantised_incremental_per_s,
        f.train_per_s_one_thread,
        f.train_per_s_all_threads,
        f.threads,
        f.data_positions_per_hour / 1e6,
        f.threads,
        f.selfplay_positions_per_hour / 1e6,
        f.selfplay_games_per_hour,
        f.threads
    )
}

/// Speed of policy iteration on one thread.
struct LearnSpeed {
    games_per_hour: f64,
    labels_per_hour: f64,
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

/// The network's figures as text.
fn network_text(n: &training::network::speed::NetSpeed, net: &str) -> String {
    format!(
        "  network ({} parameters, {}, on {}): inference {:.0} positions/s at batch 1, {:.0} at batch 64, \
         {:.0} at batch {}; training {:.0} positions/s at batch 32, {:.0} at batch {}; \
         expert games {:.0} positions/s\n  \
         search with the network (8 simulations): {:.0} positions/s evaluating leaves one by one, \
         {:.0} positions/s ({:.0} forward passes/s) batching 16 searches' leaves, \
         {:.0} positions/s ({:.0} forward passes/s) batching {}\n  \
         first (untimed) forward passes {:.3} s at batch 1, {:.3} s at 64, {:.3} s at {}; \
         first training steps {:.3} s at batch 32, {:.3} s at {} (a GPU compiles its kernels then)",
        n.parameters,
        net,
        n.device,
        n.inference_batch1_per_s,
        n.inference_batch64_per_s,
        n.inference_large_batch_per_s,
        n.large_batch,
        n.training_per_s,
        n.training_large_batch_per_s,
        n.large_batch,
        n.expert_positions_per_s,
        n.search_batch1_per_s,
        n.search_batch16_per_s,
        n.search_batch16_passes_per_s,
        n.search_large_batch_per_s,
        n.search_large_batch_passes_per_s,
        n.large_batch,
        n.first_pass_s[0],
        n.first_pass_s[1],
        n.first_pass_s[2],
        n.large_batch,
        n.first_training_step_s[0],
        n.first_training_step_s[1],
        n.large_batch
    )
}

/// One scenario's figures.
struct ScenarioSpeed {
    scenario: Scenario,
    games_per_s: f64,
    steps_per_game: f64,
    mcts_per_s: f64,
    mcts_random_rollouts_per_s: f64,
    scripted_decisions_per_s: f64,
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
fn network_speed(
    path: &str,
    batches: u32,
    large: usize,
) -> Result<Option<training::network::speed::NetSpeed>, String> {
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
    let started = Instant::now();
    let progress = |stage: &str| eprintln!("tde bench [{:.1} s]: {stage}", started.elapsed().as_secs_f64());
    training::network::speed::measure(std::path::Path::new(path), &positions, batches, large, &progress)
        .map(Some)
        .map_err(|e| format!("--net {path}: {e}"))
}
