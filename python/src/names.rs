//! The names of the observation's planes and global features, for Python
//! (`tde.PLANE_NAMES`, `tde.GLOBAL_NAMES`) and the page `docs/python-observation.md`.
//!
//! Plane names come from the engine's `P_*` constants themselves (`P_NEAR_ENEMY` is plane
//! `near_enemy`, at the constant's index), so they follow the encoding when planes move. The
//! per-side model features (`SIDE_PLANES` of them, after `P_OWN` and `P_ENEMY`) and the
//! global features have no constant each in the engine; their names follow the order of
//! `model_features`, `encode_globals` and `acting_model` in `engine/src/encoding/observe.rs`,
//! and the tests below tie their counts to the engine's.

use engine::encoding::observe::{self as obs, ACTING, NODE_KINDS, PLANES, SIDE_PLANES};
use engine::scenario::Scenario;

/// `(index, name)` for each named plane constant, the name being the constant's without
/// `P_`, in lower case.
macro_rules! plane_constants {
    ($($constant:ident),* $(,)?) => {
        [$((obs::$constant, stringify!($constant))),*]
    };
}

/// The engine's single-plane constants (the model planes are named from [`MODEL_FEATURES`]).
const PLANE_CONSTANTS: [(usize, &str); 35] = plane_constants!(
    P_BOARD,
    P_HEIGHT,
    P_WATER,
    P_ROUGH,
    P_IMPASSABLE,
    P_SOFT,
    P_HARD,
    P_MARKER,
    P_MARKER_MINE,
    P_MARKER_THEIRS,
    P_ACTIVE,
    P_PATH,
    P_TARGETED,
    P_SMOKE,
    P_GRUDGE_MINE,
    P_GRUDGE_THEIRS,
    P_COURIER,
    P_ZONE_MINE,
    P_ZONE_THEIRS,
    P_NEAR_ZONE_THEIRS,
    P_NEAR_ZONE_MINE,
    P_NEAR_MARKER,
    P_NEAR_MARKER_MINE,
    P_NEAR_ENEMY,
    P_NEAR_ACTIVE,
    P_ENEMY_FIRE,
    P_OWN_FIRE,
    P_ENEMY_REACH,
    P_EXIT,
    P_NEAR_EXIT,
    P_NEAR_GRUDGE_TARGET,
    P_MARKER_UNSEEN,
    P_NEAR_MARKER_UNSEEN,
    P_OWN,
    P_ENEMY,
);

/// A model's features, in the order of the engine's `model_features` (the planes from
/// `P_OWN` for the observer's models, from `P_ENEMY` for the enemy's, and the acting model's
/// first global features).
pub const MODEL_FEATURES: [&str; SIDE_PLANES] = [
    "conscious",
    "down",
    "wounds_left",
    "ap_left",
    "activated",
    "low_stance",
    "tokens",
    "stealthed",
    "climbing_height",
    "marksmanship",
    "close_combat",
    "agility",
    "intelligence",
    "armour_target",
    "ranged_reach",
    "close_combat_reach",
];

/// The acting model's features after its [`MODEL_FEATURES`], in the order of the engine's
/// `acting_model`.
const ACTING_FLAGS: [&str; 12] = [
    "present",
    "mine",
    "courier",
    "carries_my_prize",
    "carries_their_prize",
    "carries_a_marker",
    "grudge_holder",
    "grudge_target",
    "leader",
    "character",
    "speed_walk",
    "speed_run",
];

/// The name of each plane, by index: `PLANES` names.
pub fn plane_names() -> Vec<String> {
    let mut names = vec![String::new(); PLANES];
    for (index, constant) in PLANE_CONSTANTS {
        let name = constant.trim_start_matches("P_").to_ascii_lowercase();
        if index == obs::P_OWN || index == obs::P_ENEMY {
            for (k, feature) in MODEL_FEATURES.iter().enumerate() {
                names[index + k] = format!("{name}_{feature}");
            }
        } else {
            names[index] = name;
        }
    }
    names
}

/// The name of each global feature, by index: `GLOBALS` names, in the order of the engine's
/// `encode_globals`.
pub fn global_names() -> Vec<String> {
    let mut names: Vec<String> = ["turn", "max_turns"].map(String::from).to_vec();
    // One flag per scenario, at its discriminant (as `encode_globals` writes it).
    let mut scenarios = vec![String::new(); Scenario::ALL.len() + 1];
    for s in std::iter::once(Scenario::Skirmish).chain(Scenario::ALL) {
        scenarios[s as usize] = format!("scenario_{}", s.name());
    }
    names.extend(scenarios);
    names.extend(
        [
            "player_a",
            "vp_mine",
            "vp_theirs",
            "pass_tokens_mine",
            "pass_tokens_theirs",
            "initiative_mine",
            "active_side_mine",
            "my_decision",
        ]
        .map(String::from),
    );
    names.extend((0..NODE_KINDS).map(|k| format!("node_kind_{k}")));
    names.extend(
        [
            "models_left_mine",
            "models_left_theirs",
            "sequence_under_way",
            "cards_used_mine",
            "cards_held_mine",
            "grudge_complete_mine",
            "grudge_revealed_theirs",
            "scenario_done_mine",
        ]
        .map(String::from),
    );
    debug_assert_eq!(names.len(), ACTING);
    names.extend(MODEL_FEATURES.iter().chain(&ACTING_FLAGS).map(|f| format!("acting_{f}")));
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::encoding::observe::GLOBALS;

    #[test]
    fn every_plane_has_one_distinct_name() {
        let names = plane_names();
        assert_eq!(names.len(), PLANES);
        assert!(names.iter().all(|n| !n.is_empty()), "unnamed planes: {names:?}");
        let distinct: std::collections::HashSet<_> = names.iter().collect();
        assert_eq!(distinct.len(), PLANES);
        assert_eq!(names[obs::P_NEAR_ENEMY], "near_enemy");
        assert_eq!(names[obs::P_ENEMY + 2], "enemy_wounds_left");
        assert_eq!(names[obs::P_OWN], "own_conscious");
    }

    #[test]
    fn every_global_has_one_distinct_name_in_the_engines_layout() {
        let names = global_names();
        assert_eq!(names.len(), GLOBALS);
        let distinct: std::collections::HashSet<_> = names.iter().collect();
        assert_eq!(distinct.len(), GLOBALS);
        // The engine's own global constants sit where the names say.
        assert_eq!(names[obs::ACTING_PRESENT], "acting_present");
        assert_eq!(names[obs::ACTING_MINE], "acting_mine");
        assert_eq!(names[obs::ACTING_COURIER], "acting_courier");
        assert_eq!(names[obs::ACTING_CARRIES_MY_PRIZE], "acting_carries_my_prize");
        // `encode_globals` writes the scenarios at 2..8 (the skirmish first) and node kinds at 16..40.
        assert_eq!(names[2], "scenario_skirmish");
        assert_eq!(names[16], "node_kind_0");
        assert_eq!(names[16 + NODE_KINDS], "models_left_mine");
    }

    #[test]
    fn the_global_names_follow_the_encoding_of_a_real_game() {
        // In a skirmish, side A's observation has its scenario flag set where the names say.
        let options = crate::core::GameOptions { scenario: "skirmish".into(), ..Default::default() };
        let state = crate::core::TdeState::new(crate::core::build_game(&options).unwrap(), "test");
        let obs = state.observation(0).unwrap();
        let globals = &obs[obs.len() - GLOBALS..];
        let names = global_names();
        let at = |name: &str| globals[names.iter().position(|n| n == name).unwrap()];
        assert_eq!(at("scenario_skirmish"), 1.0);
        assert_eq!(at("turn"), 1.0 / 6.0);
        assert!(at("models_left_mine") > 0.0);
    }
}
