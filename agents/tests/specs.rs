//! Agent specs: one parser and one registry. Unknown agents and parameters, values out of
//! range, missing and repeated parameters are refused naming the parameter; nested specs are
//! checked as agents of their own; old spellings build agents that play as the new ones.

use agents::learned::generation::{file_name, Generation};
use agents::{make_agent, play, registry, split_agent_list, Agent, Spec};
use engine::setup::{new_game, GameConfig};
use engine::GameState;

/// Check that `spec` is refused with an error holding every one of `needles`.
fn refuses(spec: &str, needles: &[&str]) {
    let err = make_agent(spec, 1).err().unwrap_or_else(|| panic!("`{spec}` was accepted"));
    assert!(needles.iter().all(|n| err.contains(n)), "`{spec}`: {err}");
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
            play(new_game(&GameConfig::default()).unwrap(), &mut agents, seed, None, |_, _| {})
                .state
                .state_hash()
        })
        .collect()
}

#[test]
fn an_unknown_agent_is_refused_with_the_agents_known() {
    refuses(
        "alphago:iters=3",
        &["unknown agent `alphago`", "random", "greedy", "scripted", "learned", "mcts", "uc-cards"],
    );
}

#[test]
fn an_unknown_parameter_is_refused_naming_it_and_the_allowed_ones() {
    refuses(
        "mcts:iters=10,speed=3",
        &["mcts", "`speed`", "allowed: iters, ms, c, depth, threads, width, sure, rollout, leaf"],
    );
    refuses("scripted:x=1", &["`x`", "takes none"]);
    refuses("random:fast", &["`fast`", "key=value"]);
    refuses("mcts:iters=10,iters=20", &["`iters`", "twice"]);
}

#[test]
fn a_value_out_of_range_is_refused_naming_the_parameter_and_the_range() {
    refuses("mcts:iters=0", &["`iters`", "from 1 to 10000000"]);
    refuses("mcts:c=nan", &["`c`", "a number from 0 to 100"]);
    refuses("learned:gen=x,temp=11", &["`temp`", "from 0 to 10"]);
    refuses("uc-cards:decks=", &["`decks`", "needs a path"]);
    refuses("mcts:iters=5,ms=5", &["not both"]);
}

#[test]
fn a_missing_required_parameter_is_refused_naming_it() {
    refuses("learned:temp=1", &["learned", "needs gen="]);
}

#[test]
fn nested_specs_are_checked_as_agents_of_their_own() {
    let args = registry().check("mcts:iters=10,rollout=scripted").unwrap();
    assert_eq!(args.agent("rollout").map(|r| r.name()), Some("scripted"));
    refuses("mcts:rollout=alphago", &["`rollout`", "alphago"]);
    refuses("mcts:rollout=uc-cards", &["`rollout`", "random, greedy, scripted, learned"]);
    refuses("mcts:rollout=scripted:x=1", &["`rollout`", "`x`"]);
    refuses("mcts:rollout=learned:temp=1", &["`rollout`", "needs gen="]);
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
        split_agent_list(
            "mcts:ms=20,rollout=learned:g/gen-002.json,width=4,learned:gen=g/gen-001.json,scripted"
        ),
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
