//! The colour of an AI box's movement symbol (seed 003, Conversion, "Terrain and dynamic
//! movement"): green tests Agility with the enemy die before dynamic movement, amber makes no
//! test and goes the full move as though it nailed it, red moves over the terrain as though it
//! were open ground. The illustrative hunter deck's Pounce (its first card) is amber; these
//! tests also run it green and red from edited copies of the data.

use engine::scenario::Scenario;
use engine::setup::{new_game, GameConfig};
use engine::state::{Purpose, Step};
use engine::GameState;

mod common;
use common::uc::{place_next, put, run_until};

/// Copy `configs/` to a fresh folder with a 24" board crossed at row 12 by a 2"-high wall
/// (`wall` "2.") or an impassable one ("0X"), and Pounce's colour set to `colour`.
fn configs_with(colour: &str, wall: &str) -> std::path::PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tde-colours-{}-{call}", std::process::id()));
    copy_dir(&engine::data::configs_dir(), &dir);
    let rows: Vec<String> =
        (0..24).map(|y| if y == 12 { wall.repeat(24) } else { "0.".repeat(24) }).collect();
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
/// raptor's Pounce (every roll its first outcome): the state as its move is declared.
fn pounce_at(colour: &str, wall: &str) -> (GameState, usize) {
    let dir = configs_with(colour, wall);
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
    (s, raptor)
}

/// Whether the raptor's Pounce over a 2" wall waits for a movement test.
fn pounce_over_the_wall(colour: &str) -> bool {
    let (s, raptor) = pounce_at(colour, "2.");
    let seq = s.dynamic().sequence.as_ref().unwrap();
    assert!(seq.path.first_dynamic.is_some(), "the move climbs the wall: {:?}", seq.declared);
    tests_movement(&s, raptor)
}

fn tests_movement(s: &GameState, raptor: usize) -> bool {
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
fn a_red_box_moves_over_a_wall_as_open_ground() {
    let (s, raptor) = pounce_at("red", "2.");
    assert!(!tests_movement(&s, raptor), "red: no test");
    let seq = s.dynamic().sequence.as_ref().unwrap();
    let board = s.board();
    assert!(seq.path.first_dynamic.is_none() && !seq.path.restricted, "{:?}", seq.path);
    assert!(seq.path.points.iter().all(|p| p.kind == engine::movement::StepKind::Normal));
    // Over the wall at its top, at the plain length of each step (no climbing cost).
    let mut last = 0;
    for p in &seq.path.points {
        let step = p.cost - last;
        assert!(step == 10 || step == 14, "a plain step: {:?}", seq.path.points);
        last = p.cost;
    }
    assert!(seq.path.points.iter().any(|p| board.xy(p.cell).1 == 12 && p.z == 2), "{:?}", seq.path.points);
}

#[test]
fn a_red_box_passes_over_impassable_ground_but_does_not_end_on_it() {
    // Green: the wall cannot be crossed, the raptor stays on its side.
    let (s, raptor) = pounce_at("green", "0X");
    let board = s.board();
    let seq = s.dynamic().sequence.as_ref().unwrap();
    assert!(seq.path.points.iter().all(|p| board.xy(p.cell).1 < 12), "{:?}", seq.path.points);
    let _ = raptor;
    // Red: the raptor charges across it.
    let (s, raptor) = pounce_at("red", "0X");
    let board = s.board();
    let seq = s.dynamic().sequence.as_ref().unwrap();
    assert!(matches!(seq.declared, engine::Action::Charge { .. }), "{:?}", seq.declared);
    let over = seq.path.points.iter().find(|p| board.xy(p.cell).1 == 12).expect("over the wall");
    assert!(!over.rest, "no model rests on impassable ground");
    assert!(board.xy(seq.path.points.last().unwrap().cell).1 > 12);
    assert!(!tests_movement(&s, raptor));
}
