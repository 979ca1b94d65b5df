//! Self-play on tic-tac-toe: batched evaluation matches unbatched, games played many at once
//! are the games played one by one, a short run improves the network against a fixed
//! opponent, a killed learner resumes without losing or double-reading a shard, and actors
//! never write the same shard.

use agents::{play_game, Agent, AzAgent, AzConfig, Game, PolicyValue, RandomAgent, TensorGame};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tictactoe::TicTacToe;
use training::network::loaded::Network;
use training::play::policy::PolicyAgent;
use training::selfplay::actor::{lock_actor, play_batch, play_shard, EvalCache};
use training::selfplay::config::{ActorSearch, SelfPlayConfig};
use training::selfplay::learner::{read_state, Learner};
use training::selfplay::records::shard_names;
use training::selfplay::run::{drive, prepare_run, Role};
use training::selfplay::source::GameSource;

/// Every game starts from the empty board.
struct Boards;

impl GameSource<TicTacToe> for Boards {
    fn deal(&self, _seed: u64) -> Result<(String, TicTacToe), String> {
        Ok(("empty".into(), TicTacToe::new()))
    }
    fn rebuild(&self, label: &str) -> Result<TicTacToe, String> {
        match label {
            "empty" => Ok(TicTacToe::new()),
            _ => Err(format!("unknown set-up {label}")),
        }
    }
}

fn config(steps: u64) -> SelfPlayConfig {
    let text = format!(
        r#"
seed = 5
[net]
channels = 16
blocks = 1
hidden = 32
[search]
spec = "sims=16,root=gumbel,considered=9,noise=1"
[actors]
parallel_games = 32
scenarios = ["all"]
boards = ["all"]
crews = ["all"]
cache = 10000
[learner]
batch = 64
steps = {steps}
lr = 0.003
warmup = 10
weight_decay = 0.0001
value_weight = 1.0
window = 4000
min_positions = 200
max_sample_ratio = 4.0
checkpoint_every = 20
log_every = 20
[eval]
every_versions = 0
games = 1
opponents = []
"#
    );
    SelfPlayConfig::parse(&text, "test.toml").unwrap()
}

fn run_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-selfplay-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn shape() -> agents::TensorShape {
    TicTacToe::new().tensor_shape()
}

/// A fresh network saved as a run's version 0.
fn fresh(run: &Path, config: &SelfPlayConfig) -> Arc<Network> {
    Learner::open(run, config, &Boards, &shape()).unwrap();
    Arc::new(Network::load(&run.join("checkpoints")).unwrap())
}

/// Score of the network alone (most probable move) against random play, sides alternating.
fn score_vs_random(net: &Arc<Network>, games: u64) -> f64 {
    score_of(|g| Box::new(PolicyAgent::new(net.clone(), 0.0, g)), games)
}

/// Score of an agent against random play, sides alternating.
fn score_of(agent: impl Fn(u64) -> Box<dyn Agent<TicTacToe>>, games: u64) -> f64 {
    let mut score = 0.0;
    for g in 0..games {
        let ours = agent(g);
        let other: Box<dyn Agent<TicTacToe>> = Box::new(RandomAgent::<u8>::new(g + 1000));
        let side = (g % 2) as usize;
        let mut players = if side == 0 { vec![ours, other] } else { vec![other, ours] };
        let end = play_game(TicTacToe::new(), &mut players, g, |_, _| {});
        score += (end.returns()[side] + 1.0) / 2.0;
    }
    score / games as f64
}

#[test]
fn batched_evaluation_matches_one_position_at_a_time() {
    let run = run_dir("batch");
    let net = fresh(&run, &config(1));
    let mut states = vec![TicTacToe::new()];
    for a in [4, 0, 8, 2] {
        let mut s = *states.last().unwrap();
        s.apply(a).unwrap();
        states.push(s);
    }
    let views: Vec<(&TicTacToe, usize)> = states
        .iter()
        .map(|s| match s.turn() {
            agents::Turn::Player(p) => (s, p),
            _ => unreachable!(),
        })
        .collect();
    let batched = PolicyValue::evaluate(net.as_ref(), &views).unwrap();
    for (i, view) in views.iter().enumerate() {
        let alone = PolicyValue::evaluate(net.as_ref(), &[*view]).unwrap().remove(0);
        assert!((alone.value - batched[i].value).abs() < 1e-5, "position {i}: value");
        for (a, b) in alone.priors.iter().zip(&batched[i].priors) {
            assert!((a - b).abs() < 1e-5, "position {i}: priors {a} vs {b}");
        }
    }
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn games_played_together_are_the_games_played_alone_and_seeds_repeat() {
    let run = run_dir("together");
    let config = config(1);
    let net = fresh(&run, &config);
    let search = config.actor_search();
    let seeds: Vec<u64> = (0..8).collect();
    let (together, stats) =
        play_batch(&Boards, net.as_ref(), &search, &seeds, "v", &mut EvalCache::new(0)).unwrap();
    assert!(stats.positions > stats.forward_passes, "leaves of several games share forward passes");
    for (i, &seed) in seeds.iter().enumerate() {
        let (alone, _) =
            play_batch(&Boards, net.as_ref(), &search, &[seed], "v", &mut EvalCache::new(0)).unwrap();
        assert_eq!(alone[0], together[i], "game {i}");
    }
    // The cache changes how often the network is asked, not the games.
    let mut cache = EvalCache::new(1000);
    let (cached, cached_stats) = play_batch(&Boards, net.as_ref(), &search, &seeds, "v", &mut cache).unwrap();
    assert_eq!(cached, together);
    assert!(cache.hits > 0 && cached_stats.positions < stats.positions);
    // A cache too small for one batch's answers empties itself as it fills, and still
    // answers every request it counted as a hit.
    let mut tiny = EvalCache::new(3);
    let (small, _) = play_batch(&Boards, net.as_ref(), &search, &seeds, "v", &mut tiny).unwrap();
    assert_eq!(small, together);
    assert!(tiny.hits > 0);
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn a_short_self_play_run_improves_the_network_against_random_play() {
    let run = run_dir("improve");
    let config = config(800);
    let before = score_vs_random(&fresh(&run, &config), 200);
    prepare_run(&run, Some(&config)).unwrap();
    drive(&run, &config, &Boards, &shape(), Role::Single, None, false).unwrap();
    let state = read_state(&run).unwrap().unwrap();
    assert_eq!(state.step, 800);
    assert!(
        state.samples as f64 <= 4.0 * state.positions as f64,
        "the sample ratio stays capped: {} samples, {} positions",
        state.samples,
        state.positions
    );
    let after = score_vs_random(&Arc::new(Network::load(&run.join("checkpoints")).unwrap()), 200);
    eprintln!("score against random: {before:.2} before, {after:.2} after");
    assert!(
        after > before + 0.2 && after > 0.75,
        "score against random: {before:.2} before, {after:.2} after"
    );
    // Search with the trained network beats the network alone.
    let net: Arc<dyn PolicyValue<TicTacToe>> = Arc::new(Network::load(&run.join("checkpoints")).unwrap());
    let search = AzConfig::parse("sims=32,root=gumbel,considered=9").unwrap();
    // Over 400 games each: both near the ceiling, the search must still lose fewer points.
    let alone = score_vs_random(&Arc::new(Network::load(&run.join("checkpoints")).unwrap()), 400);
    let searched = score_of(|g| Box::new(AzAgent::new(search.clone(), net.clone(), "trained", g)), 400);
    eprintln!("with search: {searched:.3}, alone {alone:.3}");
    assert!(
        1.0 - searched < 0.8 * (1.0 - alone),
        "search scores {searched:.3}, the network alone {alone:.3}: search should give away at least a fifth fewer points"
    );
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn a_killed_learner_resumes_at_its_last_version_and_reads_each_shard_once_into_it() {
    let run = run_dir("resume");
    let mut config = config(40);
    config.actors.parallel_games = 16;
    prepare_run(&run, Some(&config)).unwrap();
    let net = fresh(&run, &config);
    let mut cache = EvalCache::new(0);
    for _ in 0..6 {
        play_shard(&run, &config, &Boards, net.as_ref(), "step-00000000", "a", &mut cache).unwrap();
    }
    let mut learner = Learner::open(&run, &config, &Boards, &shape()).unwrap();
    let read = learner.ingest().unwrap();
    assert!(read > 0);
    assert_eq!(learner.ingest().unwrap(), 0, "a shard is read once");
    let steps = learner.train_allowed(25, None).unwrap();
    assert_eq!(steps, 25);
    let saved = read_state(&run).unwrap().unwrap();
    assert_eq!(saved.step, 20, "the state is saved with each version");
    assert_eq!(saved.consumed.len(), 6);
    // A new shard arrives and is read, then the learner is killed before its next version.
    play_shard(&run, &config, &Boards, net.as_ref(), "step-00000000", "a", &mut cache).unwrap();
    assert!(learner.ingest().unwrap() > 0);
    drop(learner);
    let mut again = Learner::open(&run, &config, &Boards, &shape()).unwrap();
    assert_eq!(again.state.step, 20, "training continues from the last version");
    assert_eq!(again.state.positions as usize, read, "counters are those of the last version");
    assert_eq!(again.window_len(), read, "the window is rebuilt from the consumed shards");
    assert!(again.ingest().unwrap() > 0, "the shard read after the last version is read again");
    assert_eq!(again.state.consumed, shard_names(&run).unwrap());
    assert_eq!(again.ingest().unwrap(), 0);
    again.train_allowed(u64::MAX, None).unwrap();
    assert_eq!(again.state.step, 40);
    assert!(again.done());
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn actors_never_write_the_same_shard_and_an_id_runs_once() {
    let run = run_dir("actors");
    let mut config = config(1);
    config.actors.parallel_games = 2;
    prepare_run(&run, Some(&config)).unwrap();
    let net = fresh(&run, &config);
    std::thread::scope(|scope| {
        for id in ["left", "right"] {
            let (run, config, net) = (&run, &config, net.clone());
            scope.spawn(move || {
                let _lock = lock_actor(run, id).unwrap();
                let mut cache = EvalCache::new(0);
                for _ in 0..3 {
                    play_shard(run, config, &Boards, net.as_ref(), "v", id, &mut cache).unwrap();
                }
            });
        }
    });
    let names = shard_names(&run).unwrap();
    assert_eq!(names.len(), 6, "{names:?}");
    assert!(names.iter().filter(|n| n.starts_with("left-")).count() == 3);
    // A restarted actor continues its numbering; a second holder of a live ID is refused.
    let lock = lock_actor(&run, "left").unwrap();
    play_shard(&run, &config, &Boards, net.as_ref(), "v", "left", &mut EvalCache::new(0)).unwrap();
    assert!(shard_names(&run).unwrap().contains(&"left-000003.jsonl".to_string()));
    std::fs::write(run.join("actors").join("right.lock"), "1").unwrap();
    assert!(lock_actor(&run, "right").unwrap_err().contains("already running"), "process 1 is alive");
    assert!(lock_actor(&run, "bad/id").is_err());
    drop(lock);
    assert!(!run.join("actors").join("left.lock").exists(), "the lock goes with its actor");
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn bad_self_play_configurations_are_refused_by_field() {
    let good = toml::to_string(&config(1)).unwrap();
    for (from, to, field) in [
        ("sims=16", "sims=0", "search.spec"),
        ("parallel_games = 32", "parallel_games = 0", "actors.parallel_games"),
        ("max_sample_ratio = 4.0", "max_sample_ratio = -1.0", "learner.max_sample_ratio"),
        ("min_positions = 200", "min_positions = 9000", "learner.window"),
    ] {
        assert!(good.contains(from), "{from} in {good}");
        let e = SelfPlayConfig::parse(&good.replace(from, to), "bad.toml").unwrap_err();
        assert_eq!(e.field, field, "{e}");
    }
    // The evaluation's own search, the last table's last key.
    assert!(good.rfind("[eval]") > good.rfind("[learner]"), "[eval] is the last table: {good}");
    let with_eval_search = |spec: &str| format!("{}\nsearch = \"{spec}\"\n", good.trim_end());
    let ok = SelfPlayConfig::parse(&with_eval_search("sims=4"), "ok.toml").unwrap();
    assert_eq!(ok.eval_search().simulations, 4);
    let e = SelfPlayConfig::parse(&with_eval_search("sims=0"), "bad.toml").unwrap_err();
    assert_eq!(e.field, "eval.search", "{e}");
    // A playout cap: a share in (0, 1], and a fast search exactly when the share is below 1.
    let spec = "spec = \"sims=16,root=gumbel,considered=9,noise=1\"";
    assert!(good.contains(spec), "{good}");
    let capped = |extra: &str| good.replace(spec, &format!("{spec}\n{extra}"));
    let ok = SelfPlayConfig::parse(&capped("full_share = 0.25\nfast_spec = \"sims=2\""), "ok.toml").unwrap();
    assert_eq!(ok.actor_search().fast.map(|(fast, share)| (fast.simulations, share)), Some((2, 0.25)));
    for (extra, field) in [
        ("full_share = 0.0\nfast_spec = \"sims=2\"", "search.full_share"),
        ("full_share = 1.5", "search.full_share"),
        ("full_share = 0.5", "search.fast_spec"),
        ("fast_spec = \"sims=2\"", "search.fast_spec"),
        ("full_share = 0.5\nfast_spec = \"sims=0\"", "search.fast_spec"),
    ] {
        let e = SelfPlayConfig::parse(&capped(extra), "bad.toml").unwrap_err();
        assert_eq!(e.field, field, "{extra}: {e}");
    }
}

/// Tic-tac-toe decisions with a choice along a game's actions.
fn decisions_with_a_choice(actions: &[u8]) -> usize {
    let mut state = TicTacToe::new();
    let mut n = 0;
    for &a in actions {
        n += (Game::legal_actions(&state).len() > 1) as usize;
        Game::apply(&mut state, a).unwrap();
    }
    n
}

#[test]
fn a_playout_cap_searches_a_share_of_decisions_in_full_and_keeps_only_those() {
    let run = run_dir("cap");
    let config = config(1);
    let net = fresh(&run, &config);
    let seeds: Vec<u64> = (0..32).collect();
    let (plain, plain_stats) =
        play_batch(&Boards, net.as_ref(), &config.actor_search(), &seeds, "v", &mut EvalCache::new(0))
            .unwrap();
    for game in &plain {
        assert_eq!(
            game.targets.len(),
            decisions_with_a_choice(&game.actions),
            "without a cap every choice is a target"
        );
    }
    let fast = AzConfig::parse("sims=2,root=gumbel,considered=2,noise=1").unwrap();
    let capped = ActorSearch { full: config.search(), fast: Some((fast, 0.25)) };
    let (games, stats) =
        play_batch(&Boards, net.as_ref(), &capped, &seeds, "v", &mut EvalCache::new(0)).unwrap();
    let decisions: usize = games.iter().map(|g| decisions_with_a_choice(&g.actions)).sum();
    let targets: usize = games.iter().map(|g| g.targets.len()).sum();
    let share = targets as f64 / decisions as f64;
    assert!((0.1..0.4).contains(&share), "{targets} of {decisions} decisions searched in full");
    assert_eq!(stats.decisions, targets as u64);
    assert!(stats.positions * 2 < plain_stats.positions, "the fast searches ask the network less");
    // Each target stands at a decision with a choice, and its policy covers legal actions.
    for game in &games {
        let mut state = TicTacToe::new();
        let mut next = game.targets.iter().peekable();
        for (ply, &a) in game.actions.iter().enumerate() {
            if let Some(t) = next.next_if(|t| t.ply as usize == ply) {
                let legal = Game::legal_actions(&state);
                assert!(legal.len() > 1 && t.probs.iter().all(|&(i, _)| (i as usize) < legal.len()));
            }
            Game::apply(&mut state, a).unwrap();
        }
        assert!(next.next().is_none(), "every target lies on the game's path");
    }
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn a_seeded_run_is_reproducible() {
    let outputs = |name: &str| {
        let run = run_dir(name);
        let config = config(40);
        prepare_run(&run, Some(&config)).unwrap();
        drive(&run, &config, &Boards, &shape(), Role::Single, None, false).unwrap();
        let state = read_state(&run).unwrap().unwrap();
        let net = Network::load(&run.join("checkpoints")).unwrap();
        let start = TicTacToe::new();
        let out = PolicyValue::evaluate(&net, &[(&start, 0)]).unwrap();
        let shard = std::fs::read_to_string(run.join("shards").join("single-000000.jsonl")).unwrap();
        let _ = std::fs::remove_dir_all(&run);
        (state.step, state.positions, state.consumed, out, shard)
    };
    assert_eq!(outputs("seeded-1"), outputs("seeded-2"));
}

/// Uniform priors and a zero value: a network stand-in that needs no weights.
struct Uniform;

impl PolicyValue<engine::GameState> for Uniform {
    fn evaluate(&self, states: &[(&engine::GameState, usize)]) -> Result<Vec<agents::NetOutput>, String> {
        Ok(states
            .iter()
            .map(|(s, _)| {
                let n = Game::legal_actions(*s).len();
                agents::NetOutput { priors: vec![1.0 / n as f32; n], value: 0.0 }
            })
            .collect())
    }
}

/// Two TDE set-ups that differ only in their board: even seeds deal one, odd seeds the other.
struct TwoBoards(training::selfplay::source::TdeSource);

impl GameSource<engine::GameState> for TwoBoards {
    fn deal(&self, seed: u64) -> Result<(String, engine::GameState), String> {
        let board = if seed.is_multiple_of(2) { "mangrove_ruins" } else { "sunken_plaza" };
        let label = format!("scavenger_hunt/{board}/militia_150_levy/bondsmen_100_melee");
        Ok((label.clone(), self.0.rebuild(&label)?))
    }
    fn rebuild(&self, label: &str) -> Result<engine::GameState, String> {
        self.0.rebuild(label)
    }
}

#[test]
fn the_evaluation_cache_keeps_apart_games_of_different_set_ups() {
    let actors = training::selfplay::config::ActorConfig {
        parallel_games: 2,
        scenarios: vec!["all".into()],
        boards: vec!["all".into()],
        crews: vec!["all".into()],
        cache: 0,
    };
    let source = TwoBoards(training::selfplay::source::TdeSource::new(&actors).unwrap());
    // The hazard: at their first decisions the two boards' games look the same to an
    // information-state key, which hashes only what changes during a game; their deployments
    // soon differ.
    let first = |seed: u64| {
        let (_, mut state) = source.deal(seed).unwrap();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        while !matches!(Game::turn(&state), agents::Turn::Player(_)) {
            let outcome = Game::sample_chance(&state, &mut rng).unwrap();
            Game::apply(&mut state, outcome).unwrap();
        }
        state
    };
    let (a, b) = (first(0), first(1));
    let mover = match Game::turn(&a) {
        agents::Turn::Player(p) => p,
        _ => unreachable!(),
    };
    assert_eq!(Game::information_state_key(&a, mover), Game::information_state_key(&b, mover));
    // Played together with a cache, each game gets its own answers: the same games as without.
    let search = AzConfig::parse("sims=2,root=gumbel,considered=2").unwrap().into();
    let seeds = [0, 1];
    let (plain, _) = play_batch(&source, &Uniform, &search, &seeds, "v", &mut EvalCache::new(0)).unwrap();
    let mut cache = EvalCache::new(100_000);
    let (cached, _) = play_batch(&source, &Uniform, &search, &seeds, "v", &mut cache).unwrap();
    assert!(cache.hits > 0);
    assert_eq!(cached, plain);
}

#[test]
fn every_shipped_training_configuration_loads() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../configs/training"));
    let mut selfplay = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            if training::selfplay::config::is_selfplay_file(&path).unwrap() {
                let config = SelfPlayConfig::load(&path).unwrap_or_else(|e| panic!("{e}"));
                assert!(config.actor_search().fast.is_some(), "{}: a playout cap", path.display());
                selfplay += 1;
            } else {
                training::Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    assert_eq!(selfplay, 2, "selfplay.toml and selfplay-gpu.toml");
}
