//! Criterion benchmarks of the engine's hot paths on the default board with two 100-point
//! crews (`docs/performance.md` describes each and gives the figures):
//!
//! - `state/clone`: cloning a state at a model's action choice;
//! - `legal_actions/{activation,action,reaction,deploy}`: the legal actions at each kind of
//!   decision met in play (an activation choice, a model's action choice, a reaction choice, a
//!   scenario deployment), and `legal_actions/chance_outcomes` at a test's chance node;
//! - `apply_action/clone_and_apply`: cloning a state at a model's action choice and applying
//!   one of its legal actions (each in turn);
//! - `random_game/<scenario>`: a whole random game of the skirmish and of each scenario,
//!   set-up and deployment included;
//! - `line_of_sight/{board_table,board_computed,between_models}`: sight between the models'
//!   cells from the board's table, computed ray by ray, and between models with the models in
//!   the way;
//! - `movement/{reachable,path_to}`: the path search of a model's move, to every reachable
//!   cell and to its farthest one;
//! - `encoding/observation`: a side's observation tensor (planes and globals) at a model's
//!   action choice, its sight rows already built as they are after the first few games.
//!
//! The nodes are found by playing seeded random games until the wanted step is on top of the
//! procedure stack, so every run measures the same positions. `tde bench` prints the main
//! figures as medians without criterion.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::board::Volume;
use engine::movement::{self, MoveSpec, ORTHO};
use engine::scenario::{Scenario, ScenarioStep};
use engine::setup::{new_game, GameConfig};
use engine::state::{ModelId, MoverOccupancy, Pose, Step};
use engine::{GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

fn random_action(state: &GameState, rng: &mut ChaCha8Rng, buf: &mut Vec<engine::Action>) -> engine::Action {
    match state.current_player() {
        Player::Chance => state.sample_chance(rng).expect("outcomes"),
        _ => {
            state.legal_actions_into(buf);
            buf[rng.gen_range(0..buf.len())]
        }
    }
}

/// The first state whose top step passes `wanted` in random games of `config`, trying seeds
/// 0, 1, 2, … in turn.
fn find(config: &GameConfig, what: &str, wanted: impl Fn(&Step) -> bool) -> GameState {
    let start = new_game(config).expect("game");
    let mut buf = Vec::new();
    for seed in 0..1_000 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = start.clone();
        while let Some(step) = state.node() {
            if wanted(step) {
                return state;
            }
            let a = random_action(&state, &mut rng, &mut buf);
            state.apply_action(a).expect("legal");
        }
    }
    panic!("no {what} in 1000 random games")
}

/// The first model action choice of a game (seed 3).
fn action_choice() -> GameState {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut buf = Vec::new();
    let mut state = new_game(&GameConfig::default()).expect("default game");
    while !matches!(state.node(), Some(Step::ChooseAction(_))) {
        let a = random_action(&state, &mut rng, &mut buf);
        state.apply_action(a).expect("legal");
    }
    state
}

fn state_benches(c: &mut Criterion) {
    let decision = action_choice();
    // The clone stays where it was made (as in `tde bench`): returning it would add a move of
    // the whole state to what is timed.
    c.benchmark_group("state").bench_function("clone", |b| {
        b.iter(|| {
            let copy = black_box(&decision).clone();
            black_box(&copy);
        })
    });
}

fn legal_benches(c: &mut Criterion) {
    let skirmish = GameConfig::default();
    let deploy_config = GameConfig { scenario: Scenario::Assassinate, ..GameConfig::default() };
    let nodes = [
        ("activation", find(&skirmish, "activation choice", |s| matches!(s, Step::ChooseActivation))),
        ("action", action_choice()),
        ("reaction", find(&skirmish, "reaction choice", |s| matches!(s, Step::ChooseReaction))),
        (
            "deploy",
            find(&deploy_config, "deployment decision", |s| {
                matches!(s, Step::Scenario(ScenarioStep::Deploy { .. }))
            }),
        ),
    ];
    let mut group = c.benchmark_group("legal_actions");
    let mut buf = Vec::new();
    for (name, state) in &nodes {
        group.bench_function(*name, |b| {
            b.iter(|| {
                black_box(state).legal_actions_into(&mut buf);
                buf.len()
            })
        });
    }
    let test = find(&skirmish, "test", |s| matches!(s, Step::Test { .. }));
    group.bench_function("chance_outcomes", |b| b.iter(|| black_box(&test).chance_outcomes()));
    group.finish();
}

fn apply_benches(c: &mut Criterion) {
    let decision = action_choice();
    let actions = decision.legal_actions();
    let mut k = 0;
    c.benchmark_group("apply_action").bench_function("clone_and_apply", |b| {
        b.iter(|| {
            k = (k + 1) % actions.len();
            let mut s = black_box(&decision).clone();
            s.apply_action(actions[k]).expect("legal");
            s
        })
    });
}

fn game_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    let mut buf = Vec::new();
    for scenario in std::iter::once(Scenario::Skirmish).chain(Scenario::ALL) {
        let start = new_game(&GameConfig { scenario, ..GameConfig::default() }).expect("game");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        group.bench_function(scenario.name(), |b| {
            b.iter(|| {
                let mut s = start.clone();
                while !s.is_terminal() {
                    let a = random_action(&s, &mut rng, &mut buf);
                    s.apply_legal_action(a);
                }
                s.turn()
            })
        });
    }
    group.finish();
}

/// The models on the table at `state`.
fn on_table(state: &GameState) -> Vec<ModelId> {
    (0..state.models().len() as ModelId).filter(|&m| state.models()[m as usize].is_on_table()).collect()
}

fn sight_benches(c: &mut Criterion) {
    let state = action_choice();
    let board = state.board();
    let models = on_table(&state);
    let pairs: Vec<(ModelId, Pose, ModelId, Pose)> = models
        .iter()
        .flat_map(|&v| models.iter().filter(move |&&t| t != v).map(move |&t| (v, t)))
        .map(|(v, t)| (v, state.pose(v), t, state.pose(t)))
        .collect();
    let mut group = c.benchmark_group("line_of_sight");
    let mut k = 0;
    // Both bases on their cells' surfaces: the per-board table (filled by the first pass).
    group.bench_function("board_table", |b| {
        b.iter(|| {
            k = (k + 1) % pairs.len();
            let (_, vp, _, tp) = pairs[k];
            board.sight(vp.cell, vp.z, vp.volume, tp.cell, tp.z, tp.volume)
        })
    });
    // The viewer's base an inch above its cell (as when climbing): computed ray by ray, the
    // work of filling one table entry.
    group.bench_function("board_computed", |b| {
        b.iter(|| {
            k = (k + 1) % pairs.len();
            let (_, vp, _, tp) = pairs[k];
            board.sight(vp.cell, vp.z + 1, Volume::Base, tp.cell, tp.z, tp.volume)
        })
    });
    group.bench_function("between_models", |b| {
        b.iter(|| {
            k = (k + 1) % pairs.len();
            let (v, vp, t, tp) = pairs[k];
            state.sight_between(v, vp, t, tp)
        })
    });
    group.finish();
}

fn movement_benches(c: &mut Criterion) {
    let state = action_choice();
    let board = state.board();
    // Each model's full move, walking: its speeds in tenths of an inch. Consecutive searches
    // are for different models, so none is answered from the last search's buffers.
    let moves: Vec<(MoverOccupancy, MoveSpec)> = on_table(&state)
        .into_iter()
        .map(|m| {
            let model = &state.models()[m as usize];
            let (pass, nailed) = state.profile(m).speed;
            let spec = MoveSpec {
                start: model.cell,
                start_z: model.z,
                crawl: false,
                budget_free: nailed as u16 * ORTHO,
                ignore_terrain: false,
                budget_restricted: pass as u16 * ORTHO,
            };
            (MoverOccupancy { state: &state, mover: m }, spec)
        })
        .collect();
    assert!(moves.len() > 1, "the searches alternate between models");
    // The destination of each model's longest move.
    let dests: Vec<_> = moves
        .iter()
        .map(|(occ, spec)| {
            let mut far = (0, spec.start);
            movement::reachable(board, occ, spec, |r| far = far.max((r.cost, r.cell)));
            far.1
        })
        .collect();
    let mut group = c.benchmark_group("movement");
    let mut k = 0;
    group.bench_function("reachable", |b| {
        b.iter(|| {
            k = (k + 1) % moves.len();
            let (occ, spec) = &moves[k];
            let mut n = 0;
            movement::reachable(board, occ, spec, |_| n += 1);
            n
        })
    });
    group.bench_function("path_to", |b| {
        b.iter(|| {
            k = (k + 1) % moves.len();
            let (occ, spec) = &moves[k];
            movement::path_to(board, occ, spec, dests[k])
        })
    });
    group.finish();
}

fn encoding_benches(c: &mut Criterion) {
    use engine::encoding::{encode_observation, Geometry, GLOBALS, PLANES};
    let decision = action_choice();
    let geo = Geometry::of(decision.board());
    let mut planes = ndarray::Array3::zeros((PLANES, geo.depth, geo.width));
    let mut globals = ndarray::Array1::zeros(GLOBALS);
    c.benchmark_group("encoding").bench_function("observation", |b| {
        b.iter(|| encode_observation(black_box(&decision), 0, planes.view_mut(), globals.view_mut()))
    });
}

criterion_group!(
    engine_benches,
    encoding_benches,
    state_benches,
    legal_benches,
    apply_benches,
    game_benches,
    sight_benches,
    movement_benches
);
criterion_main!(engine_benches);
