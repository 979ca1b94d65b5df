//! The Encounter's tensors: distinct policy indices, and observations that hide what the
//! observer cannot see. The conformance test every game passes (issue 41, item 5: chance odds,
//! sorted distinct legal actions, apply = apply_legal, clone-then-apply, refusal of illegal
//! actions, returns within the bound, honest determinization of the hidden declarations) runs
//! on the Encounter from the registry of games, with the options this file used to give it
//! (`eval/src/games/mod.rs::ENCOUNTER_CHECKS`: 20 games, sorted actions), in
//! `eval/tests/games.rs::every_registered_game_passes_the_conformance_test_and_its_fact_sheet`.

use encounter::Encounter;

#[test]
fn tensor_encodings_give_distinct_indices_and_hide_what_the_observer_cannot_see() {
    use agents::{play_game, Game, TensorGame, Turn};
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let shape = Encounter::start().tensor_shape();
    for seed in 0..30 {
        let mut agents = vec![
            encounter::make_agent("random", seed).unwrap(),
            encounter::make_agent("random", seed + 1).unwrap(),
        ];
        play_game(Encounter::start(), &mut agents, seed, |s, _| {
            let legal = s.legal_actions();
            let mut indices: Vec<usize> = legal.iter().map(|&a| s.encode_action(a).unwrap().0).collect();
            assert!(indices.iter().all(|&i| i < shape.policy_size));
            indices.sort();
            indices.dedup();
            assert_eq!(indices.len(), legal.len(), "seed {seed}: two actions share a policy index");
            if let Turn::Player(p) = s.turn() {
                let encode = |x: &Encounter| {
                    let mut planes = vec![0.0; shape.plane_len()];
                    let mut globals = vec![0.0; shape.globals];
                    x.encode_observation(p, &mut planes, &mut globals);
                    (planes, globals)
                };
                assert_eq!(
                    encode(&s.determinize(p, &mut rng)),
                    encode(s),
                    "seed {seed}: the encoding shows hidden intents"
                );
            }
        });
    }
}
