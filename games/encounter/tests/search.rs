//! The searching player (`search:...`): it plays either side to the end, reproducibly from
//! its seed; its candidates start with the scripted choice; the standing it scores a cut-off
//! rollout with is zero-sum and zero at the start; the Dungeon Master's levels name agents
//! that exist.

use agents::{play_game, Agent, Game, Turn};
use encounter::search::{rank_candidates, standing};
use encounter::{level_spec, make_agent, Encounter, ScriptedAgent, LEVELS};

#[test]
fn search_plays_either_side_to_the_end_and_reproducibly() {
    let game = |party: &str, dm: &str, seed: u64| {
        let mut agents = vec![make_agent(party, seed).unwrap(), make_agent(dm, seed + 1).unwrap()];
        play_game(Encounter::start_with_log(), &mut agents, seed, |_, _| {})
    };
    let spec = "search:rollouts=2,width=2,rounds=0";
    let a = game("scripted", spec, 3);
    assert!(a.is_terminal());
    assert_eq!(a.log(), game("scripted", spec, 3).log(), "the same seeds play the same game");
    assert!(game(spec, "scripted", 4).is_terminal());
}

#[test]
fn the_scripted_choice_is_the_first_candidate() {
    let mut agents = vec![make_agent("scripted", 1).unwrap(), make_agent("scripted", 2).unwrap()];
    let mut checked = 0;
    play_game(Encounter::start(), &mut agents, 5, |s, _| {
        if let Turn::Player(_) = s.turn() {
            let legal = s.legal_actions();
            let mut ranked = legal.clone();
            rank_candidates(s, &mut ranked);
            assert_eq!(ranked[0], ScriptedAgent.select_action(s));
            let mut sorted = ranked.clone();
            sorted.sort();
            assert_eq!(sorted, legal, "ranking reorders the legal actions, no more");
            checked += 1;
        }
    });
    assert!(checked > 20, "{checked} decisions");
}

#[test]
fn the_standing_is_zero_sum_and_even_at_the_start() {
    let start = Encounter::start();
    assert_eq!(standing(&start, 0), 0.0);
    let mut agents = vec![make_agent("scripted", 1).unwrap(), make_agent("scripted", 2).unwrap()];
    play_game(start, &mut agents, 9, |s, _| {
        let (p, d) = (standing(s, 0), standing(s, 1));
        assert!((p + d).abs() < 1e-12 && (-1.0..=1.0).contains(&p), "{p} {d}");
    });
}

#[test]
fn every_level_names_an_agent_and_an_unknown_level_is_refused() {
    for (name, spec, _) in LEVELS {
        assert_eq!(level_spec(name).unwrap(), spec);
        assert!(make_agent(spec, 0).is_ok(), "{spec}");
    }
    let err = level_spec("impossible").unwrap_err();
    assert!(err.contains("impossible") && err.contains("easy, normal, hard"), "{err}");
}

#[test]
fn a_higher_depart_threshold_leaves_the_scripted_choice_only_where_a_lower_one_does() {
    use encounter::search::{SearchAgent, SearchConfig, DEPART_Z};
    assert_eq!(SearchConfig::default().depart_tenths, (DEPART_Z * 10.0) as u8);
    assert!(make_agent("search:depart=0", 0).is_ok());
    assert!(make_agent("search:depart=51", 0).is_err(), "at most 50 tenths");
    let config = |depart_tenths| SearchConfig { rollouts: 8, width: 3, rounds: 0, depart_tenths };
    let mut agents = vec![make_agent("scripted", 1).unwrap(), make_agent("scripted", 2).unwrap()];
    let (mut low, mut high) = (0, 0);
    play_game(Encounter::start(), &mut agents, 6, |s, _| {
        if let Turn::Player(_) = s.turn() {
            let scripted = ScriptedAgent.select_action(s);
            // The same seed: the same rollouts, judged by two thresholds.
            let eager = SearchAgent::new(config(0), 11).select_action(s) != scripted;
            let wary = SearchAgent::new(config(30), 11).select_action(s) != scripted;
            assert!(eager || !wary, "the wary search departs where the eager one does not");
            low += eager as u32;
            high += wary as u32;
        }
    });
    assert!(low > high, "a lower threshold departs more often: {low} against {high}");
}
