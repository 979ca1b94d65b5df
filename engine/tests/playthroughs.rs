//! Stored playthroughs guard against regressions (as OpenSpiel's do): one recorded game per
//! scenario and the skirmish, replayed action by action to the recorded final state hash. A
//! rules change that alters any of them must be deliberate; regenerate them with
//!
//! ```sh
//! for s in skirmish assassinate grudge_match attack_and_defend couriers scavenger_hunt; do
//!   cargo run --release -- demo --scenario $s --agents greedy,random --seed 11 \
//!     --record engine/tests/playthroughs/$s.json; done
//! ```

use engine::record::{format_hash, GameRecord};
use std::path::PathBuf;

fn playthrough(name: &str) -> (GameRecord, engine::GameState) {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/playthroughs").join(format!("{name}.json"));
    let record = GameRecord::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let end = record.replay(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    (record, end)
}

#[test]
fn every_stored_playthrough_replays_to_its_recorded_final_state() {
    for name in ["skirmish", "assassinate", "grudge_match", "attack_and_defend", "couriers", "scavenger_hunt"]
    {
        let (record, end) = playthrough(name);
        assert!(end.is_terminal(), "{name} ends");
        assert_eq!(end.static_data().scenario.name(), name);
        assert_eq!(format_hash(end.state_hash()), record.final_hash, "{name} replays differently");
    }
}

#[test]
fn the_assassinate_playthrough_ends_early_on_a_leader_taken_out() {
    // Side A's greedy agent took the enemy leader out first (6 VP), side A's own leader was
    // down at the end (3 VP to side B); the game ended after turn 4, at the scenario's first
    // end-of-turn check, before the sixth turn.
    let (_, end) = playthrough("assassinate");
    assert_eq!(end.outcome().vp[..2], [6, 3]);
    let leader_a = (0..end.models().len() as u8)
        .find(|&m| end.models()[m as usize].side == 0 && end.profile(m).role == engine::profile::Role::Leader)
        .expect("side A's leader");
    assert_eq!(end.models()[leader_a as usize].health, engine::state::Health::Down);
    assert_eq!(end.turn(), 4);
}
