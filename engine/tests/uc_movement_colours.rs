//! The colour of an AI box's movement symbol (seed 003, Conversion, "Terrain and dynamic
//! movement"): green tests Agility with the enemy die before dynamic movement, amber makes no
//! test and goes the full move as though it nailed it. The illustrative hunter deck's Pounce
//! (its first card) is amber; these tests also run it green from an edited copy of the data.

use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::state::{Purpose, Step};
use engine::GameState;

mod common;
use common::uc::{place_next, put, run_until};

/// Copy `configs/` to a fresh folder with a 24" board crossed by a 2"-high wall at row 12, and
/// Pounce's colour set to `colour`.
fn configs_with(colour: &str) -> std::path::PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tde-colours-{}-{call}", std::process::id()));
    copy_dir(&engine::data::configs_dir(), &dir);
    let rows: Vec<String> =
        (0..24).map(|y| if y == 12 { "2.".repeat(24) } else { "0.".repeat(24) }).collect();
    std::fs::write(dir.join("boards/wall.board"), format!("name: Wall\nsize: 24x24\n{}\n", rows.join("\n")))
        .unwrap();
    let decks = std::fs::read_to_string(dir.join("uc/decks.toml")).unwrap();
    let amber = "act = \"close_combat\"\ncolour = \"amber\"\n";
    assert!(decks.contains(amber), "the shipped Pounce is amber");
    let decks = decks.replacen(amber, &format!("act = \"close_combat\"\ncolour = \"{colour}\"\n"), 1);
    std::fs::write(dir.join("uc/decks.toml"), decks).unwrap();
    dir
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A raptor 2" before the wall, side A's first model 2" beyond it; the game run to the
/// raptor's Pounce (every roll its first outcome): whether the raptor's move over the wall
/// waits for a movement test.
fn pounce_over_the_wall(colour: &str) -> bool {
    let dir = configs_with(colour);
    let config = GameConfig {
        configs: dir.clone(),
        board: "wall".into(),
        scenario: Scenario::Skirmish,
        dinos: 1,
        ..GameConfig::default()
    };
    let mut s = new_game(&config).expect("a game on the wall board");
    let raptor = place_next(&mut s, 0);
    let a0 = (0..s.models().len()).find(|&i| s.models()[i].side == 0).unwrap();
    let s = put(&s, a0, 12, 14);
    let mut s: GameState = put(&s, raptor, 12, 10);
    run_until(&mut s, |s| s.dynamic().sequence.as_ref().is_some_and(|q| q.actor as usize == raptor));
    let _ = std::fs::remove_dir_all(&dir);
    let seq = s.dynamic().sequence.as_ref().unwrap();
    assert!(seq.path.first_dynamic.is_some(), "the move climbs the wall: {:?}", seq.declared);
    s.dynamic().steps.iter().any(
        |st| matches!(st, Step::Test { model, purpose: Purpose::Movement, .. } if *model as usize == raptor),
    )
}

#[test]
fn an_amber_box_crosses_terrain_without_a_test_and_a_green_one_tests() {
    assert!(!pounce_over_the_wall("amber"), "amber: no test");
    assert!(pounce_over_the_wall("green"), "green: an Agility test with the enemy die");
}

#[test]
fn a_red_box_is_refused_by_name() {
    let dir = configs_with("red");
    let err = engine::uc::load_uc(&dir.join("uc")).unwrap_err().to_string();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(err.contains("colour") && err.contains("red"), "{err}");
}
