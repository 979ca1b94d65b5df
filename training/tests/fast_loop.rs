//! Expert iteration's loop (`tde fast loop`) and the sequential gate every pipeline uses: the
//! gate promotes a clearly better agent and keeps a clearly worse one within few looks; a
//! loop's rounds leave their shards, training run and gate record, a killed or finished run
//! resumes without playing its rounds again, and other settings are refused.

use fastnet::train::TrainConfig;
use std::path::PathBuf;
use training::fast::generations::{read_state, run_loop, LoopRun, LoopSettings};
use training::gate::arena::{run_sequential, SequentialGate};
use training::gate::sprt::Sprt;

fn run_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-fast-loop-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn gate(look: u32, most: u32) -> SequentialGate {
    SequentialGate {
        sprt: Sprt { p0: 0.5, p1: 0.55, alpha: 0.05, beta: 0.05 },
        look_games: look,
        max_games: most,
    }
}

#[test]
fn the_sequential_gate_promotes_the_better_and_keeps_the_worse() {
    let dir = run_dir("gate");
    let better = run_sequential("scripted", "random", &gate(20, 400), 5, 2, &dir.join("a"), false).unwrap();
    assert!(better.gate.promoted, "{}", better.gate.reason);
    assert_eq!(better.test, "promote");
    assert!(better.looks.len() <= 3, "{:?}", better.looks);
    assert!(better.looks.windows(2).all(|w| w[0].games < w[1].games));
    let worse = run_sequential("random", "scripted", &gate(20, 400), 5, 2, &dir.join("b"), false).unwrap();
    assert!(!worse.gate.promoted);
    assert_eq!(worse.test, "keep", "{}", worse.gate.reason);
    // Equal agents at a cap of 20 games: undecided, kept.
    let same = run_sequential("random", "random#2", &gate(20, 20), 5, 2, &dir.join("c"), false).unwrap();
    assert!(!same.gate.promoted);
    assert!(run_sequential("scripted", "random", &gate(0, 20), 5, 2, &dir.join("d"), false).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

fn settings(rounds: u32) -> LoopSettings {
    LoopSettings {
        start: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../checkpoints/fast/gen-000.fnet"),
        first_generation: 0,
        rounds,
        games: 6,
        shard_games: 3,
        search: "sims=8,considered=4,rescale=0,noise=1".into(),
        full_share: 0.3,
        temperature: 0.5,
        value_mix: 0.5,
        opponent_share: 0.3,
        other_nodes: 0.1,
        window: 2,
        base_data: vec![],
        steps: 10,
        train: TrainConfig { batch: 32, learning_rate: 3e-4, ..TrainConfig::default() },
        gate: gate(10, 20),
        gate_every: 1,
        carry_optimiser: false,
        seed: 3,
        boards: vec!["all".into()],
        crews: vec!["all".into()],
    }
}

#[test]
fn a_loop_keeps_each_rounds_work_and_resumes_without_playing_it_again() {
    let run = run_dir("loop");
    let go = |s: LoopSettings| {
        run_loop(&LoopRun {
            run: run.clone(),
            settings: s,
            promote_to: None,
            threads: 2,
            prune_data: false,
            progress: false,
        })
    };
    go(settings(1)).unwrap();
    let state = read_state(&run).unwrap().unwrap();
    assert_eq!(state.rounds.len(), 1);
    let first = &state.rounds[0];
    assert_eq!(first.games, 6);
    assert!(first.policy_positions > 0 && first.positions > first.policy_positions, "{first:?}");
    assert!(first.positions_per_hour.is_some());
    for file in
        ["data/shard-0000.fdata", "data/shard-0001.fdata", "train/best.fnet", "gate.json", "gate/games.jsonl"]
    {
        assert!(run.join("round-001").join(file).exists(), "{file}");
    }
    let shard = std::fs::read(run.join("round-001/data/shard-0000.fdata")).unwrap();
    // Going on to two rounds plays only the second.
    go(settings(2)).unwrap();
    let state = read_state(&run).unwrap().unwrap();
    assert_eq!(state.rounds.len(), 2);
    assert_eq!(state.rounds[0], *first);
    assert_eq!(std::fs::read(run.join("round-001/data/shard-0000.fdata")).unwrap(), shard);
    // A round killed after its play step resumes with its shards.
    std::fs::remove_file(run.join("round-002/gate.json")).unwrap();
    let mut rewound = state.clone();
    rewound.rounds.pop();
    std::fs::write(run.join("state.json"), serde_json::to_string(&rewound).unwrap()).unwrap();
    go(settings(2)).unwrap();
    let again = read_state(&run).unwrap().unwrap();
    assert_eq!(again.rounds[1].positions, state.rounds[1].positions);
    assert_eq!(again.rounds[1].positions_per_hour, None, "nothing played again");
    assert_eq!(again.rounds[1].gate, state.rounds[1].gate, "the gate's games are resumed, not replayed");
    // Other settings are refused, naming the state file.
    let err = go(LoopSettings { games: 7, ..settings(3) }).unwrap_err();
    assert!(err.contains("state.json") && err.contains("other settings"), "{err}");
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn a_policy_gradient_loop_goes_on_from_its_newest_candidate_whatever_the_gate_says() {
    let run = run_dir("pg");
    // A line continued from generation 4, gated every second round and at its last.
    let pg = |rounds| LoopSettings {
        search: "pg:lambda=0.9".into(),
        temperature: 1.0,
        window: 1,
        first_generation: 4,
        gate_every: 2,
        carry_optimiser: true,
        ..settings(rounds)
    };
    let go = |s: LoopSettings| {
        run_loop(&LoopRun {
            run: run.clone(),
            settings: s,
            promote_to: None,
            threads: 2,
            prune_data: true,
            progress: false,
        })
    };
    go(pg(3)).unwrap();
    let state = read_state(&run).unwrap().unwrap();
    assert_eq!(state.generation, 4, "the start keeps its generation number");
    let gated: Vec<bool> = state.rounds.iter().map(|r| r.gate.is_some()).collect();
    assert_eq!(gated, [false, true, true], "round 1 trains on ungated; round 2 and the last are gated");
    assert!(!run.join("round-001/gate.json").exists() && run.join("round-002/gate.json").exists());
    let first = run.join("round-001/train/latest.fnet");
    assert_eq!(state.rounds[0].searches, state.rounds[0].policy_positions as u64, "{:?}", state.rounds[0]);
    // Round 2 played and trained from round 1's candidate, not from the best, and would
    // promote it as generation 5.
    let train: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("round-002/train/state.json")).unwrap())
            .unwrap();
    assert_eq!(train["settings"]["init"].as_str(), first.to_str());
    assert_eq!(train["settings"]["generation"].as_u64(), Some(5));
    // ... going on with round 1's optimiser: Adam's step count runs on across the rounds.
    assert_eq!(train["settings"]["init_adam"].as_str(), run.join("round-001/train/adam.bin").to_str());
    let adam_steps = |round: u32| {
        let bytes = std::fs::read(run.join(format!("round-{round:03}/train/adam.bin"))).unwrap();
        u64::from_le_bytes(bytes[..8].try_into().unwrap())
    };
    assert_eq!([adam_steps(1), adam_steps(2), adam_steps(3)], [10, 20, 30]);
    // Pruned: the shards of the rounds out of the window (one round) are gone, the rest stays.
    assert!(!run.join("round-001/data").exists() && !run.join("round-002/data").exists());
    assert!(run.join("round-003/data/shard-0000.fdata").exists());
    assert!(run.join("round-001/train/latest.fnet").exists() && run.join("round-002/gate.json").exists());
    assert_eq!(state.learner.as_deref(), Some(run.join("round-003/train/latest.fnet").as_path()));
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn bad_loop_settings_are_refused_by_field() {
    let run = run_dir("bad");
    for (s, field) in [
        (LoopSettings { full_share: 0.0, ..settings(1) }, "--full-share"),
        (LoopSettings { search: "sims=0".into(), ..settings(1) }, "--search"),
        (LoopSettings { window: 0, ..settings(1) }, "--window"),
        (LoopSettings { gate_every: 2, ..settings(1) }, "--gate-every"),
        (LoopSettings { carry_optimiser: true, ..settings(1) }, "--carry-optimiser"),
    ] {
        let err = run_loop(&LoopRun {
            run: run.clone(),
            settings: s,
            promote_to: None,
            threads: 1,
            prune_data: false,
            progress: false,
        })
        .unwrap_err();
        assert!(err.contains(field), "{err}");
        assert!(!run.exists(), "nothing written for bad settings, not even the run folder");
    }
    let _ = std::fs::remove_dir_all(&run);
}

#[test]
fn actor_processes_split_a_rounds_shards_and_the_data_is_the_same_as_one_process_plays() {
    let alone = run_dir("alone");
    let shared = run_dir("shared");
    let mut s = settings(1);
    s.games = 12;
    s.shard_games = 2;
    run_loop(&LoopRun {
        run: alone.clone(),
        settings: s.clone(),
        promote_to: None,
        threads: 1,
        prune_data: false,
        progress: false,
    })
    .unwrap();
    let actor = {
        let shared = shared.clone();
        std::thread::spawn(move || training::fast::generations::run_actor(&shared, "helper-1", false))
    };
    run_loop(&LoopRun {
        run: shared.clone(),
        settings: s,
        promote_to: None,
        threads: 1,
        prune_data: false,
        progress: false,
    })
    .unwrap();
    let said = actor.join().unwrap().unwrap();
    assert!(said.contains("actor helper-1"), "{said}");
    for k in 0..6 {
        let name = format!("round-001/data/shard-{k:04}.fdata");
        assert_eq!(
            std::fs::read(alone.join(&name)).unwrap(),
            std::fs::read(shared.join(&name)).unwrap(),
            "{name}"
        );
        assert!(!shared.join(format!("round-001/data/shard-{k:04}.claim")).exists(), "claims are released");
    }
    let err = training::fast::generations::run_actor(&shared, "loop", false).unwrap_err();
    assert!(err.contains("--actor"), "{err}");
    let _ = std::fs::remove_dir_all(&alone);
    let _ = std::fs::remove_dir_all(&shared);
}

#[test]
fn the_ladder_rates_the_fast_networks_generations_beside_the_learned_players() {
    use training::learned_player::ladder::{run_ladder, LadderSettings};
    let dir = run_dir("ladder");
    let fast = dir.join("fast");
    std::fs::create_dir_all(&fast).unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::copy(root.join("checkpoints/fast/gen-000.fnet"), fast.join("gen-000.fnet")).unwrap();
    std::fs::write(fast.join("gen-001.gate.json"), "{}").unwrap();
    let ladder = run_ladder(&LadderSettings {
        ladder: root.join("checkpoints/learned"),
        fast: Some(fast.clone()),
        extra: vec![],
        games: 10,
        seed: 1,
        threads: 2,
        run: dir.join("run"),
        out: dir.join("out"),
        progress: false,
    })
    .unwrap();
    let learned: Vec<u32> = ladder.rungs.iter().filter_map(|r| r.generation).collect();
    assert!((0..=4).all(|g| learned.contains(&g)), "every learned generation, the fourth too: {learned:?}");
    let fast_rungs: Vec<_> = ladder.rungs.iter().filter(|r| r.fast_generation.is_some()).collect();
    assert_eq!(fast_rungs.len(), 1, "one fast generation (the gate record is no network)");
    assert!(fast_rungs[0].agent.starts_with("fast:net=") && fast_rungs[0].vs_scripted.is_some());
    let readme = std::fs::read_to_string(dir.join("out/README.md")).unwrap();
    assert!(readme.contains("| fast 0 |") && readme.contains("| learned 4 |"), "{readme}");
    let _ = std::fs::remove_dir_all(&dir);
}
