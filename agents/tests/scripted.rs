//! The scripted player: legal to the end in every scenario, far stronger than random play,
//! blind to hidden information, and it takes the obvious shot.

use agents::{make_agent, play, Agent, ScriptedAgent};
use engine::scenario::Scenario;
use engine::setup::{new_game, parse_setup, GameConfig};
use engine::state::Player;
use engine::{Action, GameState};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Crew pairs the games cycle through: starters, 150-point crews, specialists and cavalry.
const CREWS: [(&str, &str); 6] = [
    ("artifacters_100", "the_firm_100"),
    ("bondsmen_100", "militia_100"),
    ("militia_150", "artifacters_150"),
    ("the_firm_150", "bondsmen_150"),
    ("artifacters_150_raptor_riders", "militia_150_levy"),
    ("militia_sappers_100", "the_firm_100_melee"),
];

fn game(scenario: Scenario, crews: (&str, &str)) -> GameState {
    let config = GameConfig { scenario, crews: [crews.0.into(), crews.1.into()], ..Default::default() };
    new_game(&config).unwrap()
}

/// Play `specs[0]` (side 0) against `specs[1]` (side 1) to the end; `play` panics on an
/// illegal action.
fn play_out(state: GameState, specs: [&str; 2], seed: u64) -> GameState {
    let mut agents =
        vec![make_agent(specs[0], seed * 2 + 1).unwrap(), make_agent(specs[1], seed * 2 + 2).unwrap()];
    play(state, &mut agents, seed, None, |_, _| {}).state
}

#[test]
fn plays_legal_actions_to_the_end_in_every_scenario() {
    for scenario in std::iter::once(Scenario::Skirmish).chain(Scenario::ALL) {
        for (i, &crews) in CREWS.iter().enumerate() {
            let seed = i as u64;
            let specs = if i % 2 == 0 { ["scripted", "random"] } else { ["random", "scripted"] };
            assert!(play_out(game(scenario, crews), specs, seed).is_terminal());
        }
        let mirror = play_out(game(scenario, CREWS[0]), ["scripted", "scripted"], 7);
        assert!(mirror.is_terminal(), "{}", scenario.name());
    }
}

#[test]
fn beats_random_in_at_least_95_percent_of_scenario_games() {
    let per_scenario = 40;
    let (mut wins, mut games) = (0, 0);
    let clock = Arc::new(Mutex::new((Duration::ZERO, 0u64)));
    for scenario in Scenario::ALL {
        let mut won = 0;
        for g in 0..per_scenario {
            let seed = 1000 + g as u64;
            let crews = CREWS[g / 2 % CREWS.len()];
            // Sides alternate, so the scripted player plays each crew and role in turn.
            let me = g % 2;
            let crews = if me == 0 { crews } else { (crews.1, crews.0) };
            let mut agents: Vec<Box<dyn Agent<GameState>>> = vec![
                make_agent("random", seed * 2 + 1).unwrap(),
                make_agent("random", seed * 2 + 2).unwrap(),
            ];
            agents[me] = Box::new(Timed { inner: ScriptedAgent::new(seed), clock: clock.clone() });
            let end = play(game(scenario, crews), &mut agents, seed, None, |_, _| {}).state;
            let outcome = end.outcome();
            if outcome.winner == Some(me as u8) {
                won += 1;
            } else {
                println!(
                    "{}: game {g} ({crews:?}, scripted side {me}) ended {:?}",
                    scenario.name(),
                    outcome.vp
                );
            }
        }
        println!("{:18} scripted won {won}/{per_scenario} against random", scenario.name());
        wins += won;
        games += per_scenario;
    }
    let (time, decisions) = *clock.lock().unwrap();
    println!(
        "scripted won {wins}/{games}; {decisions} decisions, {:.1} µs each on average (this build)",
        time.as_secs_f64() * 1e6 / decisions.max(1) as f64
    );
    // Draws count as failures to win.
    assert!(wins * 100 >= games * 95, "scripted won only {wins} of {games}");
}

/// Times the decisions of the agent it wraps: total time and number of decisions.
struct Timed {
    inner: ScriptedAgent,
    clock: Arc<Mutex<(Duration, u64)>>,
}

impl Agent<GameState> for Timed {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn select_action(&mut self, state: &GameState) -> Action {
        let start = Instant::now();
        let action = self.inner.select_action(state);
        let mut clock = self.clock.lock().unwrap();
        clock.0 += start.elapsed();
        clock.1 += 1;
        action
    }
}

/// At every decision of side 0 in a game, the action chosen by a fresh scripted player equals
/// the one chosen in a state whose hidden facts (the enemy's unannounced grudge, marker numbers
/// side 0 has not seen) are redrawn.
fn blind_to_hidden_facts(scenario: Scenario) {
    let mut state = game(scenario, CREWS[0]);
    // A scripted opponent looks at markers too, so side 0 faces numbers it has not seen.
    let mut players = [ScriptedAgent::new(5), ScriptedAgent::new(6)];
    let mut dice = ChaCha8Rng::seed_from_u64(11);
    let mut redraw = ChaCha8Rng::seed_from_u64(12);
    let (mut compared, mut differed) = (0, 0);
    while !state.is_terminal() {
        let action = match state.current_player() {
            Player::Chance => state.sample_chance(&mut dice).unwrap(),
            Player::Side(s) => {
                let action = players[s as usize].select_action(&state);
                if s == 0 {
                    let other = state.determinize(0, &mut redraw);
                    differed += (other.dynamic() != state.dynamic()) as u32;
                    compared += 1;
                    let a = ScriptedAgent::new(99).select_action(&state);
                    let b = ScriptedAgent::new(99).select_action(&other);
                    assert_eq!(
                        a,
                        b,
                        "{}: hidden facts changed the choice at {}",
                        scenario.name(),
                        state.describe_node()
                    );
                }
                action
            }
            Player::Terminal => unreachable!(),
        };
        state.apply_action(action).unwrap();
    }
    assert!(
        compared > 50 && differed > 10,
        "{}: {differed} of {compared} states had hidden facts",
        scenario.name()
    );
}

#[test]
fn never_reads_the_enemy_grudge() {
    blind_to_hidden_facts(Scenario::GrudgeMatch);
}

#[test]
fn never_reads_unseen_marker_numbers() {
    blind_to_hidden_facts(Scenario::ScavengerHunt);
}

/// Nix (M7, Recurve 12/18 3/4) with two targets: a Delver (2 wounds) 5" away in the open, and
/// a Bulwark (5 wounds, armour) 16" away, beyond pass range and behind a crate.
const SHOT: &str = r#"
board = "BOARD"
active = 0
activating = 0

[[model]]
side = 0
profile = "nix"
at = [2, 5]
ap = 2

[[model]]
side = 1
profile = "artifacter_delver"
at = [8, 5]

[[model]]
side = 1
profile = "militia_bulwark"
at = [19, 2]
"#;

#[test]
fn takes_the_obviously_best_shot() {
    let path = std::env::temp_dir().join(format!("tde-scripted-{}.board", std::process::id()));
    let mut rows = vec!["0.".repeat(24); 10];
    // A crate in front of the Bulwark.
    rows[2].replace_range(36..38, "0h");
    std::fs::write(&path, format!("name: range\nsize: 24x10\n{}\n", rows.join("\n"))).unwrap();
    let text = SHOT.replace("BOARD", path.to_str().unwrap());
    let state = parse_setup(&text, "shot.toml", &engine::data::configs_dir()).unwrap();
    std::fs::remove_file(&path).ok();
    let legal = state.legal_actions();
    assert!(legal.contains(&Action::Shoot { weapon: 0, target: 2 }), "both targets can be shot");
    for seed in 0..5 {
        assert_eq!(ScriptedAgent::new(seed).select_action(&state), Action::Shoot { weapon: 0, target: 1 });
    }
}

#[test]
fn is_built_by_name() {
    assert_eq!(make_agent("scripted", 3).unwrap().name(), "scripted");
    assert!(make_agent("scripted:x=1", 3).is_err());
}
