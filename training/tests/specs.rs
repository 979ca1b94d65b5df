//! The network agents in the agent registry: each has its own name, the old spellings
//! (`mcts:...,net=PATH`, `policy:...,blend=W`) build agents that play as the new ones, and
//! every spec the stored results and the README name still parses.

use agents::play;
use engine::setup::{new_game, GameConfig};
use std::path::{Path, PathBuf};
use training::play::rollout::players;
use training::play::{make_agent, registry};

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The shipped value network.
fn shipped() -> String {
    root().join("checkpoints/bootstrap_value").display().to_string()
}

/// The final hashes of `games` seeded games, each with both sides built from `spec`.
fn hashes(spec: &str, games: u64) -> Vec<u64> {
    (0..games)
        .map(|seed| {
            let mut agents = players(spec, seed).unwrap();
            play(new_game(&GameConfig::default()).unwrap(), &mut agents, seed, None, |_, _| {})
                .state
                .state_hash()
        })
        .collect()
}

#[test]
fn old_spellings_of_the_network_agents_play_as_the_new_ones() {
    let net = shipped();
    for (old, new, name) in [
        (
            format!("mcts:iters=4,rollout=scripted,depth=2,width=3,net={net}"),
            format!("mcts-blend:iters=4,rollout=scripted,depth=2,width=3,net={net}"),
            "mcts-blend",
        ),
        (
            format!("mcts:iters=3,width=3,net={net}"),
            format!("mcts-net:iters=3,width=3,net={net}"),
            "mcts-net",
        ),
        (
            format!("policy:checkpoint={net},blend=2"),
            format!("policy-blend:checkpoint={net},blend=2"),
            "policy-blend",
        ),
    ] {
        assert_eq!(registry().check(&old).unwrap().name(), name, "{old}");
        assert_eq!(hashes(&old, 1), hashes(&new, 1), "{old} against {new}");
    }
    // Without `net=`, `mcts` stays plain MCTS; `policy` without `blend=` the network alone.
    assert_eq!(registry().check("mcts:iters=3,rollout=scripted").unwrap().name(), "mcts");
    assert_eq!(registry().check(&format!("policy:checkpoint={net},temp=1")).unwrap().name(), "policy");
}

#[test]
fn the_network_agents_are_listed_with_their_parameters_and_refuse_strangers() {
    let text = registry().describe();
    for name in ["policy", "policy-blend", "mcts-net", "mcts-blend", "az", "mcts", "scripted", "learned"] {
        assert!(text.lines().any(|l| l.starts_with(&format!("{name} "))), "{name} missing from\n{text}");
    }
    assert!(text.contains("mcts:...,net=PATH -> mcts-net:...,net=PATH"), "{text}");
    for (spec, needles) in [
        ("mcts-net:iters=3", ["mcts-net", "needs net="]),
        ("az:net=x,sims=4,width=2", ["unknown parameter `width`", "allowed: sims, ms, root"]),
        ("az:net=x,sims=0", ["`sims`", "from 1 to 1000000"]),
    ] {
        let err = make_agent(spec, 1).err().unwrap_or_else(|| panic!("`{spec}` was accepted"));
        assert!(needles.iter().all(|n| err.contains(n)), "`{spec}`: {err}");
    }
}

/// Every file under `dir` named `name`.
fn files_named(dir: &Path, name: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_named(&path, name, out);
        } else if path.file_name().is_some_and(|n| n == name) {
            out.push(path);
        }
    }
}

#[test]
fn every_spec_of_the_stored_results_and_the_readme_still_parses() {
    let mut specs = Vec::new();
    let mut files = Vec::new();
    for name in ["arena.json", "solo.json"] {
        files_named(&root().join("docs/results"), name, &mut files);
    }
    assert!(files.len() > 40, "{} result folders", files.len());
    for file in &files {
        let settings: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        for agent in settings["agents"].as_array().unwrap() {
            let spec = agent.as_str().unwrap();
            specs.push((
                file.display().to_string(),
                spec.split_once('#').map_or(spec, |(s, _)| s).to_string(),
            ));
        }
    }
    // The README's specs written out in full (not the patterns with PATH or `...`).
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let names = registry().names();
    for piece in readme.split('`').skip(1).step_by(2) {
        let full =
            piece.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "=.,_/:-".contains(c));
        if full && piece.split_once(':').is_some_and(|(n, _)| names.contains(&n)) {
            specs.push(("README.md".into(), piece.to_string()));
        }
    }
    assert!(specs.iter().any(|(_, s)| s.contains(",net=")), "no old spelling among the specs");
    for (file, spec) in &specs {
        if let Err(e) = registry().check(spec) {
            panic!("{file}: `{spec}`: {e}");
        }
    }
}
