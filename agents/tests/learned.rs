//! The learned player: generation 0 plays exactly as `scripted`, other weights change its
//! play, and its features are the scores' slopes in the weights.

use agents::learned::features::{dot, term_values};
use agents::learned::generation::{block_of, file_name, Generation};
use agents::scripted::terms::{Term, TERMS};
use agents::{make_agent, play, Agent, LearnedAgent, ScriptedAgent};
use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::state::Player;
use engine::{Action, GameState};
use std::sync::Arc;

const BOARDS: [&str; 4] = ["drowned_boulevard", "lagoon_docks", "mangrove_ruins", "sunken_plaza"];
const CREWS: [(&str, &str); 4] = [
    ("artifacters_100", "the_firm_100"),
    ("bondsmen_100", "militia_100"),
    ("militia_150", "artifacters_150"),
    ("artifacters_150_raptor_riders", "militia_150_levy"),
];

/// Game `i` of a series: the five scenarios in turn, boards and crews cycling.
fn game(i: usize) -> GameState {
    let crews = CREWS[i / 5 % CREWS.len()];
    let config = GameConfig {
        scenario: Scenario::ALL[i % 5],
        board: BOARDS[i / 20 % BOARDS.len()].into(),
        crews: [crews.0.into(), crews.1.into()],
        ..Default::default()
    };
    new_game(&config).unwrap()
}

/// The actions of a game between two agents built by `make`, seeded by the game's number.
fn actions(i: usize, make: &dyn Fn(u64) -> Box<dyn Agent<GameState>>) -> Vec<Action> {
    let mut agents = vec![make(2 * i as u64 + 1), make(2 * i as u64 + 2)];
    let mut out = Vec::new();
    play(game(i), &mut agents, i as u64, None, |s, a| {
        if matches!(s.current_player(), Player::Side(_)) {
            out.push(a);
        }
    });
    out
}

fn temp_file(name: &str, g: &Generation) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tde-learned-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file_name(g.generation));
    g.save(&path, true).unwrap();
    path
}

#[test]
fn generation_zero_plays_exactly_as_scripted_over_240_games() {
    // Every pairing of scenario, crews and board (80 games: see `game`) three times over, with
    // other seeds each time; the games shared out among the cores.
    let path = temp_file("zero", &Generation::scripted());
    let spec = format!("learned:gen={}", path.display());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let decisions: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let spec = &spec;
                scope.spawn(move || {
                    let mut decisions = 0;
                    for i in (t..240).step_by(threads) {
                        let scripted = actions(i, &|s| Box::new(ScriptedAgent::new(s)));
                        let learned = actions(i, &|s| make_agent(spec, s).unwrap());
                        assert_eq!(
                            scripted,
                            learned,
                            "game {i}: the first difference at decision {:?}",
                            first_difference(&scripted, &learned)
                        );
                        decisions += scripted.len();
                    }
                    decisions
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).sum()
    });
    assert!(decisions > 12_000, "{decisions} decisions");
}

fn first_difference(a: &[Action], b: &[Action]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y).or((a.len() != b.len()).then_some(a.len().min(b.len())))
}

#[test]
fn other_weights_change_the_play_of_their_scenario_only() {
    // A player that ignores danger in Couriers (risk weight 0 there) plays other Couriers games
    // and the same games of the other scenarios.
    let mut g = Generation::scripted();
    g.generation = 1;
    for phase in 0..3 {
        let b = agents::learned::generation::block(Scenario::Couriers, phase);
        g.blocks[b].0[Term::Risk as usize] = 0.0;
    }
    let path = temp_file("reckless", &g);
    let spec = format!("learned:gen={}", path.display());
    let mut changed = [0usize; 5];
    for i in 0..40 {
        let scripted = actions(i, &|s| Box::new(ScriptedAgent::new(s)));
        let learned = actions(i, &|s| make_agent(&spec, s).unwrap());
        if scripted != learned {
            changed[i % 5] += 1;
        }
    }
    assert_eq!(changed, [0, 0, 0, changed[3], 0], "only Couriers games change");
    assert!(changed[3] >= 6, "most Couriers games change: {changed:?}");
}

/// Decisions with several options in game `i`, played by the scripted player.
fn decisions(i: usize, every: usize) -> Vec<GameState> {
    let mut agents: Vec<Box<dyn Agent<GameState>>> =
        vec![Box::new(ScriptedAgent::new(1)), Box::new(ScriptedAgent::new(2))];
    let mut out = Vec::new();
    let mut n = 0;
    play(game(i), &mut agents, i as u64, None, |s, _| {
        if matches!(s.current_player(), Player::Side(_)) && s.legal_actions().len() > 1 {
            n += 1;
            if n % every == 0 {
                out.push(s.clone());
            }
        }
    });
    out
}

#[test]
fn features_are_the_slopes_of_the_scores_in_the_weights() {
    // Around generation 0, a score under other weights is predicted by θ·φ plus what no
    // weight scales.
    let mut moved = Generation::scripted();
    for (b, block) in moved.blocks.iter_mut().enumerate() {
        for (k, w) in block.0.iter_mut().enumerate() {
            *w += 0.01 * (((b * TERMS + k) * 7919 % 13) as f64 - 6.0);
        }
    }
    let mut scripted = ScriptedAgent::new(0);
    let (mut checked, mut nonzero) = (0, 0);
    for i in 0..10 {
        for state in decisions(i, 9) {
            let legal = state.legal_actions();
            let candidates: Vec<Action> = legal.iter().copied().take(4).collect();
            let w0 = Generation::scripted().weights_at(&state);
            let (phi, base) = term_values(&mut scripted, &state, &candidates, w0).unwrap();
            let w1 = moved.blocks[block_of(&state)];
            let after = scripted.scores_with(&state, &candidates, w1).unwrap().to_vec();
            for c in 0..candidates.len() {
                if base[c] < -1.0e5 {
                    continue;
                }
                let rest = base[c] - dot(&w0, &phi[c]);
                let predicted = rest + dot(&w1, &phi[c]);
                let scale = 1.0 + after[c].abs();
                assert!(
                    (predicted - after[c]).abs() <= 0.02 * scale,
                    "game {i}, {:?}: predicted {predicted}, scored {}",
                    candidates[c],
                    after[c]
                );
                checked += 1;
                nonzero += phi[c].iter().any(|&x| x != 0.0) as usize;
            }
        }
    }
    assert!(checked > 200 && nonzero * 2 > checked, "{checked} checked, {nonzero} with features");
}

#[test]
fn a_learned_generation_ranks_and_rolls_out_for_mcts() {
    let path = temp_file("mcts", &Generation::scripted());
    let spec = format!("mcts:iters=30,rollout=learned:{},width=4", path.display());
    let mut search = make_agent(&spec, 3).unwrap();
    assert!(search.name().contains("rollout=learned:"), "{}", search.name());
    let state = decisions(0, 5).into_iter().nth(3).expect("a decision");
    let a = search.select_action(&state);
    assert!(state.legal_actions().contains(&a));
    assert!(make_agent("mcts:iters=30,rollout=learned:/nonexistent.json", 3)
        .err()
        .unwrap()
        .contains("/nonexistent.json"));
}

#[test]
fn a_warm_player_samples_and_a_cold_one_does_not() {
    let g = Arc::new(Generation::scripted());
    let state = decisions(2, 4).into_iter().find(|s| s.legal_actions().len() > 5).expect("a wide decision");
    let pick = |temp: f64, seed: u64| LearnedAgent::new(g.clone(), temp, "g", seed).select_action(&state);
    for seed in 0..20 {
        assert_eq!(
            pick(0.0, seed),
            ScriptedAgent::new(seed).select_action(&state),
            "cold: the scripted choice"
        );
    }
    let warm: std::collections::HashSet<Action> = (0..200).map(|s| pick(1.0, s)).collect();
    assert!(warm.len() > 1, "sampling at temperature 1 varies");
}

#[test]
fn a_standing_model_scales_the_weights_by_how_the_deciding_side_stands() {
    use agents::learned::standing::{features, StandingModel};
    // Risk weighed e^(margin) times: more careful when ahead, less when behind.
    let mut g = Generation::scripted();
    let mut model = StandingModel::neutral(0, 0);
    model.output[Term::Risk as usize][0] = 1.0;
    g.standing = Some(model);
    let (mut ahead, mut behind) = (0, 0);
    for i in 0..10 {
        for state in decisions(i, 5) {
            let Player::Side(side) = state.current_player() else { continue };
            let f = features(&state, side);
            let other = features(&state, 1 - side);
            // The two sides see the same game from opposite ends.
            assert!((f[0] + other[0]).abs() < 1e-12 && (f[1] + other[1]).abs() < 1e-12);
            assert_eq!(f[2], other[2]);
            let w = g.weights_at(&state);
            assert!((w.get(Term::Risk) - f[0].exp()).abs() < 1e-9, "{f:?}: {}", w.get(Term::Risk));
            assert_eq!(w.get(Term::Cover), 1.0);
            ahead += usize::from(f[0] > 0.0);
            behind += usize::from(f[0] < 0.0);
        }
    }
    assert!(ahead > 10 && behind > 10, "positions ahead {ahead}, behind {behind}");
    // It survives its file and plays: a spec of it is a different player from generation 0.
    let path = temp_file("standing", &g);
    assert_eq!(Generation::load(&path).unwrap(), g);
    let spec = format!("learned:gen={}", path.display());
    let differ = (0..10).any(|i| {
        actions(i, &|s| make_agent(&spec, s).unwrap()) != actions(i, &|s| Box::new(ScriptedAgent::new(s)))
    });
    assert!(differ, "a standing model that moves the risk weight never changed a decision in 10 games");
}

/// The best of `state`'s legal actions under weights `w`.
fn best_under(
    scripted: &mut ScriptedAgent,
    state: &GameState,
    w: agents::scripted::terms::TermWeights,
) -> Action {
    let legal = state.legal_actions();
    let scores = scripted.scores_with(state, &legal, w).unwrap();
    let best = (0..legal.len()).max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a))).unwrap();
    legal[best]
}

#[test]
fn the_guard_term_draws_models_to_their_threatened_leader_and_nowhere_else() {
    // The added guard term weighs 0 in the scripted player; weighed, it changes moves in the
    // scenarios with something to guard (Assassinate: the leader) and in no other, and the
    // moves it changes end nearer the own leader.
    let scripted_w = Generation::scripted().weights_at(&game(0));
    assert_eq!(scripted_w.get(Term::Guard), 0.0);
    let mut guarding = scripted_w;
    guarding.0[Term::Guard as usize] = 5.0;
    let mut scripted = ScriptedAgent::new(0);
    let (mut changed, mut nearer, mut farther, mut elsewhere) = (0, 0, 0, 0);
    for i in 0..40 {
        let scenario = Scenario::ALL[i % 5];
        if !matches!(scenario, Scenario::Assassinate | Scenario::GrudgeMatch) {
            continue;
        }
        for state in decisions(i, 3) {
            let a = best_under(&mut scripted, &state, scripted_w);
            let b = best_under(&mut scripted, &state, guarding);
            if a == b {
                continue;
            }
            if scenario == Scenario::GrudgeMatch {
                elsewhere += 1;
                continue;
            }
            changed += 1;
            let (Action::Move { dest: da, .. }, Action::Move { dest: db, .. }) = (a, b) else { continue };
            let Player::Side(side) = state.current_player() else { continue };
            let leader = (0..state.models().len())
                .find(|&m| {
                    let mm = &state.models()[m];
                    mm.side == side && state.profile(m as u8).role == engine::profile::Role::Leader
                })
                .unwrap();
            let board = state.board();
            let lc = state.models()[leader].cell;
            let d = |c: u16| board.centre_distance(c, board.cell(c).height, lc, board.cell(lc).height);
            if d(db) < d(da) {
                nearer += 1;
            } else if d(db) > d(da) {
                farther += 1;
            }
        }
    }
    assert_eq!(elsewhere, 0, "Grudge Match has nothing to guard");
    assert!(changed >= 5, "the guard term changed {changed} decisions of Assassinate");
    assert!(nearer > 2 * farther, "of the changed moves {nearer} end nearer the leader, {farther} farther");
    eprintln!("guard: {changed} decisions changed, moves {nearer} nearer and {farther} farther");
}

#[test]
fn the_reaction_timing_terms_move_reactions_along_the_path() {
    // Weighed, react_late moves the chosen reaction to later points of the mover's path and
    // react_early to earlier ones; the reaction chosen (who reacts, and how) is the same.
    let base = Generation::scripted().weights_at(&game(0));
    assert_eq!((base.get(Term::ReactLate), base.get(Term::ReactEarly)), (0.0, 0.0));
    let (mut late, mut early) = (base, base);
    late.0[Term::ReactLate as usize] = 5.0;
    early.0[Term::ReactEarly as usize] = 5.0;
    let mut scripted = ScriptedAgent::new(0);
    let (mut later, mut earlier, mut wrong_way) = (0, 0, 0);
    for i in 0..30 {
        let mut agents: Vec<Box<dyn Agent<GameState>>> =
            vec![Box::new(ScriptedAgent::new(1)), Box::new(ScriptedAgent::new(2))];
        let mut states = Vec::new();
        play(game(i), &mut agents, i as u64, None, |s, _| {
            if matches!(
                s.node(),
                Some(engine::state::Step::ChooseReaction | engine::state::Step::ChooseReactionBy(_))
            ) && s.legal_actions().len() > 2
            {
                states.push(s.clone());
            }
        });
        for state in states {
            let a = best_under(&mut scripted, &state, base);
            let point = |x: Action| match x {
                Action::React { model, kind, point } => Some((model, kind, point)),
                _ => None,
            };
            for (w, is_late) in [(late, true), (early, false)] {
                let b = best_under(&mut scripted, &state, w);
                let (Some((ma, ka, pa)), Some((mb, kb, pb))) = (point(a), point(b)) else { continue };
                if (ma, ka) != (mb, kb) || pa == pb {
                    continue;
                }
                match (is_late, pb > pa) {
                    (true, true) => later += 1,
                    (false, false) => earlier += 1,
                    _ => wrong_way += 1,
                }
            }
        }
    }
    assert_eq!(wrong_way, 0);
    assert!(later >= 3 && earlier >= 3, "{later} reactions moved later, {earlier} earlier");
    eprintln!("reaction timing: {later} later, {earlier} earlier");
}
