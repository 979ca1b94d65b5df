//! Agent specs: one parser and one registry. Unknown agents and parameters, values out of
//! range, missing and repeated parameters are refused naming the parameter; nested specs are
//! checked as agents of their own; old spellings build agents that play as the new ones.

use agents::learned::generation::{file_name, Generation};
use agents::{make_agent, play, registry, split_agent_list, Agent, Spec};
use engine::setup::{new_game, GameConfig};
use engine::GameState;

/// The error of a spec that must be refused.
fn refused(spec: &str) -> String {
    make_agent(spec, 1).err().unwrap_or_else(|| panic!("`{spec}` was accepted"))
}

/// A generation file of the learned player (generation 0) in a fresh folder.
fn generation_file(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tde-spec-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file_name(0));
    Generation::scripted().save(&path, true).unwrap();
    path.display().to_string()
}

/// The final hashes of `games` seeded games, each with both sides built from `spec`.
fn hashes(spec: &str, games: u64) -> Vec<u64> {
    (0..games)
        .map(|seed| {
            let mut agents: Vec<Box<dyn Agent<GameState>>> =
                vec![make_agent(spec, seed * 2).unwrap(), make_agent(spec, seed * 2 + 1).unwrap()];
            play(new_game(&GameConfig::default()).unwrap(), &mut agents, seed, None, |_, _| {}).state.state_hash()
        })
        .collect()
}

#[test]
fn an_unknown_agent_is_refused_with_the_agents_known() {
    let err = refused("alphago:iters=3");
    assert!(err.contains("unknown agent `alphago`"), "{err}");
    for name in ["random", "greedy", "scripted", "learned", "mcts", "uc-cards"] {
        assert!(err.contains(name), "{err}");
    }
}

#[test]
fn an_unknown_parameter_is_refused_naming_it_and_the_allowed_ones() {
    let err = refused("mcts:iters=10,speed=3");
    assert!(err.contains("mcts") && err.contains("`speed`"), "{err}");
    assert!(err.contains("allowed: iters, ms, c, depth, threads, width, rollout, leaf"), "{err}");
    let err = refused("scripted:x=1");
    assert!(err.contains("`x`") && err.contains("takes none"), "{err}");
    let err = refused("random:fast");
    assert!(err.contains("`fast`") && err.contains("key=value"), "{err}");
    assert!(refused("mcts:iters=10,iters=20").contains("twice"));
}

#[test]
fn a_value_out_of_range_is_refused_naming_the_parameter_and_the_range() {
    let err = refused("mcts:iters=0");
    assert!(err.contains("`iters`") && err.contains("from 1 to 10000000"), "{err}");
    let err = refused("mcts:c=nan");
    assert!(err.contains("`c`") && err.contains("a number from 0 to 100"), "{err}");
    let err = refused("learned:gen=x,temp=11");
    assert!(err.contains("`temp`") && err.contains("from 0 to 10"), "{err}");
    assert!(refused("uc-cards:decks=").contains("needs a path"));
    assert!(refused("mcts:iters=5,ms=5").contains("not both"));
}

#[test]
fn a_missing_required_parameter_is_refused_naming_it() {
    let err = refused("learned:temp=1");
    assert!(err.contains("learned") && err.contains("needs gen="), "{err}");
}

#[test]
fn nested_specs_are_checked_as_agents_of_their_own() {
    let args = registry().check("mcts:iters=10,rollout=scripted").unwrap();
    assert_eq!(args.agent("rollout").map(|r| r.name()), Some("scripted"));
    let err = refused("mcts:rollout=alphago");
    assert!(err.contains("`rollout`") && err.contains("alphago"), "{err}");
    let err = refused("mcts:rollout=uc-cards");
    assert!(err.contains("`rollout`") && err.contains("random, greedy, scripted, learned"), "{err}");
    let err = refused("mcts:rollout=scripted:x=1");
    assert!(err.contains("`rollout`") && err.contains("`x`"), "{err}");
    let err = refused("mcts:rollout=learned:temp=1");
    assert!(err.contains("`rollout`") && err.contains("needs gen="), "{err}");
    let path = generation_file("nested");
    let args = registry().check(&format!("mcts:iters=10,rollout=learned:gen={path},width=4")).unwrap();
    let rollout = args.agent("rollout").unwrap();
    assert_eq!((rollout.name(), rollout.text("gen")), ("learned", Some(path.as_str())));
}

#[test]
fn old_spellings_build_agents_that_play_as_the_new_ones() {
    let path = generation_file("alias");
    // `learned:PATH` is `learned:gen=PATH`, on its own and as MCTS's rollout player.
    assert_eq!(hashes(&format!("learned:{path}"), 3), hashes(&format!("learned:gen={path}"), 3));
    let old = format!("mcts:iters=6,depth=3,rollout=learned:{path},width=3");
    let new = format!("mcts:iters=6,depth=3,rollout=learned:gen={path},width=3");
    assert_eq!(hashes(&old, 1), hashes(&new, 1));
    assert_eq!(registry().check(&old).unwrap().agent("rollout").unwrap().text("gen"), Some(path.as_str()));
}

#[test]
fn agent_lists_keep_each_specs_parameters_together() {
    assert_eq!(
        split_agent_list("random, mcts:iters=400,c=1.4,greedy,mcts:iters=9#b,random#2"),
        ["random", "mcts:iters=400,c=1.4", "greedy", "mcts:iters=9#b", "random#2"]
    );
    assert_eq!(split_agent_list("a=1,random"), ["a=1", "random"]);
    // A parameter whose value holds a `:` (a nested spec) stays with its spec; a spec whose
    // own parameters start after `:` does not.
    assert_eq!(
        split_agent_list("mcts:ms=20,rollout=learned:g/gen-002.json,width=4,learned:gen=g/gen-001.json,scripted"),
        ["mcts:ms=20,rollout=learned:g/gen-002.json,width=4", "learned:gen=g/gen-001.json", "scripted"]
    );
    for spec in split_agent_list("random,mcts:iters=4,rollout=greedy,width=2,scripted") {
        assert!(registry().check(&spec).is_ok(), "{spec}");
    }
}

#[test]
fn the_registry_describes_every_agent_with_its_parameters() {
    let text = registry().describe();
    for name in registry().names() {
        assert!(text.lines().any(|l| l.starts_with(name)), "{name} missing from\n{text}");
    }
    for param in ["iters=", "rollout=", "leaf=", "gen=", "temp=", "decks="] {
        assert!(text.contains(param), "{param} missing from\n{text}");
    }
    assert!(text.contains("learned:PATH -> learned:gen=PATH"), "{text}");
}

#[test]
fn a_spec_prints_back_as_written() {
    for text in ["random", "mcts:iters=4,rollout=learned:g.json,width=2", "learned:g.json"] {
        assert_eq!(Spec::parse(text).unwrap().to_string(), text);
    }
    assert!(Spec::parse(":iters=3").is_err());
}
