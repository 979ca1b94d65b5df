//! Cloning a game state allocates nothing (issue 16): its vectors keep their items in place,
//! and the shipped crews, scenarios and rules stay within those capacities at every step of
//! random play. Counted with an allocator that counts the allocations of this thread.

mod common;

use engine::scenario::Scenario;
use engine::{GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is passed to the system allocator unchanged; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn cloning_a_state_allocates_nothing_at_any_step_of_random_play() {
    let pairings = [
        ("sunken_plaza", ["artifacters_150", "the_firm_150"]),
        ("lagoon_docks", ["militia_150_levy", "bondsmen_150_slavers"]),
        ("mangrove_ruins", ["artifacters_150_raptor_riders", "militia_sappers_100"]),
        ("drowned_boulevard", ["bondsmen_150", "the_firm_150_racket"]),
    ];
    let mut steps = 0u64;
    for (i, scenario) in std::iter::once(Scenario::Skirmish).chain(Scenario::ALL).enumerate() {
        for (j, (board, crews)) in pairings.iter().enumerate() {
            let mut state = common::scenario_game(scenario, board, *crews);
            let mut rng = ChaCha8Rng::seed_from_u64((i * 10 + j) as u64);
            loop {
                let mut copy: Option<GameState> = None;
                let n = allocations(|| copy = Some(state.clone()));
                assert_eq!(
                    n,
                    0,
                    "{scenario:?} on {board}: a clone allocated at step {steps} ({} models, {} steps)",
                    state.dynamic().models.len(),
                    state.dynamic().steps.len()
                );
                assert_eq!(copy.as_ref().map(GameState::dynamic), Some(state.dynamic()));
                let action = match state.current_player() {
                    Player::Terminal => break,
                    Player::Chance => state.sample_chance(&mut rng).expect("outcomes"),
                    Player::Side(_) => {
                        let legal = state.legal_actions();
                        legal[rng.gen_range(0..legal.len())]
                    }
                };
                state.apply_action(action).unwrap_or_else(|e| panic!("{e}"));
                steps += 1;
            }
        }
    }
    assert!(steps > 5_000, "{steps} steps played");
}

#[test]
fn a_state_beyond_the_capacity_in_place_still_clones_equal() {
    let state =
        common::scenario_game(Scenario::Skirmish, "sunken_plaza", ["artifacters_100", "the_firm_100"]);
    let state = common::edited(&state, |d| {
        let model = d.models[0];
        while d.models.len() <= engine::state::INLINE_MODELS {
            d.models.push(model);
        }
    });
    assert!(!state.dynamic().models.is_inline());
    assert_eq!(state.clone().dynamic(), state.dynamic());
}
