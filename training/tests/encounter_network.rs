//! The Encounter's network ([`training::encounter`]): taught by the scripted players, it beats
//! random play on both sides; bad network specs and checkpoints of another game are refused.

use agents::play_game;
use encounter::{Encounter, DM_SIDE, PARTY_SIDE};
use std::path::{Path, PathBuf};
use training::encounter::{make_agent, train};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Wins of each side over `games` Encounters between two agent specs.
fn wins(party: &str, dm: &str, games: u64) -> [u32; 3] {
    let mut wins = [0; 3];
    for seed in 0..games {
        let mut agents = vec![make_agent(party, 2 * seed).unwrap(), make_agent(dm, 2 * seed + 1).unwrap()];
        let end = play_game(Encounter::start(), &mut agents, 500 + seed, |_, _| {});
        wins[end.winner().unwrap_or(2)] += 1;
    }
    wins
}

#[test]
fn a_network_taught_by_the_scripted_players_beats_random_play_on_both_sides() {
    // The shipped configuration, cut to 200 games and 800 steps.
    let text = std::fs::read_to_string(repo().join("configs/training/encounter.toml")).unwrap();
    let text = text.replace("games = 600", "games = 200").replace("steps = 1500", "steps = 800");
    let dir = std::env::temp_dir().join(format!("tde-encounter-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("encounter.toml");
    std::fs::write(&config, text).unwrap();
    let run = dir.join("run");
    let trained = train(&config, &run, false, false).unwrap();
    assert_eq!(trained.outcome.step, 800);
    assert_eq!(trained.games, 200);
    assert!(trained.train_positions > 0 && trained.valid_positions > 0, "{trained:?}");
    // Random play seldom ends an Encounter: the adversaries must all fall (a random party
    // ends a few since its Characters may take additional Minor actions for Fatigue and
    // Isolde's Fireball catches several goblins).
    let random = wins("random", "random", 40);
    assert!(random[PARTY_SIDE] <= 6 && random[DM_SIDE] <= 2, "random against random: {random:?}");
    let net = format!("policy:checkpoint={}", run.display());
    let as_party = wins(&net, "random", 40);
    assert!(as_party[PARTY_SIDE] >= 10, "the network's party against a random DM: {as_party:?}");
    let as_dm = wins("random", &net, 40);
    assert!(as_dm[DM_SIDE] >= 16, "the network's DM against a random party: {as_dm:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_network_cannot_be_its_own_expert() {
    let dir = std::env::temp_dir().join(format!("tde-encounter-expert-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(repo().join("configs/training/encounter.toml")).unwrap();
    let config = dir.join("encounter.toml");
    std::fs::write(&config, text.replacen("agents = [", "agents = [\"policy:checkpoint=x\", ", 1)).unwrap();
    let e = train(&config, &dir.join("run"), false, false).unwrap_err();
    assert!(e.contains("encounter.toml") && e.contains("its own expert"), "{e}");
    assert!(!dir.join("run").exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_network_specs_and_checkpoints_of_another_game_are_refused() {
    let e = make_agent("policy:temp=1", 0).err().unwrap();
    assert!(e.contains("checkpoint"), "{e}");
    let e = make_agent("policy:checkpoint=x,depth=3", 0).err().unwrap();
    assert!(e.contains("depth"), "{e}");
    let e = make_agent("policy:checkpoint=x,temp=-1", 0).err().unwrap();
    assert!(e.contains("temp"), "{e}");
    let e = make_agent("az:sims=8", 0).err().unwrap();
    assert!(e.contains("net"), "{e}");
    // TDE's shipped network reads other tensors than the Encounter's.
    let tde = repo().join("checkpoints/bootstrap");
    let e = make_agent(&format!("policy:checkpoint={}", tde.display()), 0).err().unwrap();
    assert!(e.contains("checkpoint"), "{e}");
    let e = make_agent("wizard", 0).err().unwrap();
    assert!(e.contains("policy") && e.contains("az"), "the known agents are listed: {e}");
}
