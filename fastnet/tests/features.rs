//! The position and action features over random games: in range, sorted, and the same in
//! every determinisation of what the observer cannot see (the enemy's grudge, marker numbers).

use agents::{Agent, Game, RandomAgent, Turn};
use engine::scenario::types::Scenario;
use engine::setup::{new_game, GameConfig};
use fastnet::action_features::{action_features, ACTION_FEATURES};
use fastnet::features::{position_features, ENEMY_NEAR_AT, MARKER_NEAR_AT, POSITION_FEATURES};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn features_are_in_range_sorted_and_blind_to_what_the_observer_cannot_see() {
    let mut checked = 0;
    let mut hidden_differs = 0;
    let (mut near_marker, mut near_enemy) = (0, 0);
    for (g, scenario) in
        [Scenario::GrudgeMatch, Scenario::ScavengerHunt, Scenario::Couriers, Scenario::Assassinate]
            .into_iter()
            .enumerate()
    {
        let config = GameConfig { scenario, ..GameConfig::default() };
        let mut state = new_game(&config).expect("the default game");
        let mut agent = RandomAgent::<engine::Action>::new(g as u64);
        let mut rng = ChaCha8Rng::seed_from_u64(g as u64);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut steps = 0;
        while !state.is_terminal() && steps < 2000 {
            steps += 1;
            if steps % 3 == 0 {
                for side in 0..2u8 {
                    position_features(&state, side, &mut a);
                    assert!(a.windows(2).all(|w| w[0] <= w[1]), "sorted");
                    assert!(a.iter().all(|&f| (f as usize) < POSITION_FEATURES));
                    let group = |from: usize, to: usize| {
                        a.iter().filter(|&&f| (from..to).contains(&(f as usize))).count()
                    };
                    let conscious =
                        state.models().iter().filter(|m| m.is_on_table() && m.is_conscious()).count();
                    let enemies = group(ENEMY_NEAR_AT, POSITION_FEATURES);
                    assert!(enemies <= conscious, "one nearest-enemy feature a conscious model at most");
                    near_marker += usize::from(group(MARKER_NEAR_AT, ENEMY_NEAR_AT) > 0);
                    near_enemy += usize::from(enemies > 0);
                    let world = state.determinize(side, &mut rng);
                    if world.dynamic() != state.dynamic() {
                        hidden_differs += 1;
                    }
                    position_features(&world, side, &mut b);
                    assert_eq!(
                        a, b,
                        "{scenario:?}, side {side}: the features changed with a determinisation"
                    );
                    checked += 1;
                }
            }
            let action = match Game::turn(&state) {
                Turn::Chance => state.sample_chance(&mut rng).expect("outcomes"),
                Turn::Player(p) => {
                    for action in state.legal_actions() {
                        let f = action_features(&state, p as u8, action);
                        assert!(f.as_slice().iter().all(|&x| (x as usize) < ACTION_FEATURES));
                    }
                    agent.select_action(&state)
                }
                Turn::Terminal => unreachable!(),
            };
            state.apply(action).expect("legal");
        }
    }
    assert!(checked > 500, "checked {checked} positions");
    assert!(near_marker > 100 && near_enemy > 100, "proximity groups reached: {near_marker}, {near_enemy}");
    assert!(hidden_differs > 20, "determinisations that changed a hidden fact: {hidden_differs}");
}
