//! The Encounter's agents come from its registry: the generic ones and `scripted`, whose old
//! name `dm` builds a player that plays the same games; strangers are refused by name.

use agents::play_game;
use encounter::{make_agent, registry, Encounter};

/// The moves of a seeded game between `party` and `dm`.
fn moves(party: &str, dm: &str, seed: u64) -> Vec<encounter::Action> {
    let mut agents = vec![make_agent(party, seed).unwrap(), make_agent(dm, seed + 1).unwrap()];
    let mut out = Vec::new();
    play_game(Encounter::start(), &mut agents, seed, |_, a| out.push(a));
    out
}

#[test]
fn dm_is_the_old_name_of_the_scripted_player() {
    for seed in 0..3 {
        assert_eq!(moves("mcts:iters=8", "dm", seed), moves("mcts:iters=8", "scripted", seed));
    }
    assert_eq!(registry().check("dm").unwrap().name(), "scripted");
}

#[test]
fn unknown_agents_and_parameters_are_refused_by_name() {
    let refusal = |spec: &str| make_agent(spec, 1).err().unwrap_or_default();
    let unknown = refusal("uc-cards");
    assert!(unknown.contains("unknown agent `uc-cards`") && unknown.contains("scripted"), "{unknown}");
    let stranger = refusal("scripted:depth=3");
    assert!(stranger.contains("`depth`") && stranger.contains("takes none"), "{stranger}");
    let generic = refusal("mcts:iters=8,rollout=scripted");
    assert!(generic.contains("`rollout`") && generic.contains("allowed: iters"), "{generic}");
    assert!(registry().describe().contains("dm -> scripted"));
}
