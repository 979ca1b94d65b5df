//! Criterion benchmarks of the engine's hot paths on the default board with two 100-point
//! crews: cloning a state, generating legal actions at an activation decision, and a whole
//! random game. `tde bench` prints the same figures as medians without criterion.

use criterion::{criterion_group, criterion_main, Criterion};
use engine::setup::{new_game, GameConfig};
use engine::state::Step;
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

/// The first model action choice of a game.
fn activation_decision() -> GameState {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut buf = Vec::new();
    let mut state = new_game(&GameConfig::default()).expect("default game");
    while !matches!(state.dynamic().steps.last(), Some(Step::ChooseAction(_))) {
        let a = random_action(&state, &mut rng, &mut buf);
        state.apply_action(a).expect("legal");
    }
    state
}

fn benches(c: &mut Criterion) {
    let decision = activation_decision();
    c.bench_function("clone", |b| b.iter(|| black_box(&decision).clone()));
    let mut buf = Vec::new();
    c.bench_function("legal_actions at an activation decision", |b| {
        b.iter(|| {
            black_box(&decision).legal_actions_into(&mut buf);
            buf.len()
        })
    });
    let start = new_game(&GameConfig::default()).expect("default game");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    c.bench_function("random game", |b| {
        b.iter(|| {
            let mut s = start.clone();
            while !s.is_terminal() {
                let a = random_action(&s, &mut rng, &mut buf);
                s.apply_action(a).expect("legal");
            }
            s.turn()
        })
    });
}

criterion_group!(engine_benches, benches);
criterion_main!(engine_benches);
