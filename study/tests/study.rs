//! A whole study: values beyond the sequence (seeded, intervals narrowing with samples), the
//! pictures, the sweep, and the survey of agents' choices in game records.

use engine::record::GameRecord;
use engine::setup::load_setup;
use engine::state::{Player, Step};
use engine::{Action, GameState};
use std::path::{Path, PathBuf};
use study::sweep::{SweepConfig, SweepResult};
use study::{Horizon, Sampling};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn setup() -> GameState {
    load_setup(&root().join("configs/setups/reaction_timing.toml")).expect("the shipped setup loads")
}

fn factory(spec: &str, seed: u64) -> Result<Box<dyn agents::Agent<GameState>>, String> {
    agents::make_agent(spec, seed)
}

fn sampled(samples: u32, seed: u64) -> study::Study {
    let sampling = Sampling { agent: "scripted".into(), samples, seed, horizon: Horizon::Turn };
    study::study(&setup(), "reaction_timing", Some((&sampling, &factory))).expect("the study runs")
}

/// A fresh empty folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn width(e: &study::Estimate) -> f64 {
    e.high - e.low
}

#[test]
fn values_beyond_the_sequence_are_reproducible_and_narrow_with_more_samples() {
    let a = sampled(12, 7);
    let b = sampled(12, 7);
    assert_eq!(a.beyond.len(), a.exact.rows.len(), "every row is valued beyond the sequence");
    assert_eq!(a.beyond, b.beyond, "the same seed gives the same values");
    assert_eq!(a.hold_beyond, b.hold_beyond);
    assert!(a.hold_beyond.is_some(), "holding the AP is valued too");
    let few: f64 = a.beyond.iter().chain(a.hold_beyond.as_ref()).map(width).sum();
    let many = sampled(96, 7);
    let more: f64 = many.beyond.iter().chain(many.hold_beyond.as_ref()).map(width).sum();
    assert!(few > 0.0, "the continuations vary");
    assert!(more < few, "96 samples give narrower intervals ({more}) than 12 ({few})");
    for e in &many.beyond {
        assert!(e.low <= e.mean && e.mean <= e.high && e.samples == 96);
    }
    assert!(a.verdict.contains("holding the AP"), "{}", a.verdict);
}

#[test]
fn the_table_names_the_best_timing_and_marks_equivalent_points() {
    let s = study::study(&setup(), "reaction_timing", None).unwrap();
    let text = study::render_table(&s);
    assert!(text.contains("best timing: "), "{text}");
    assert!(text.contains("hold the AP"), "{text}");
    assert!(text.contains("same as") && text.contains("point 2"), "{text}");
    let best = &s.exact.rows[s.best_row().unwrap()];
    assert!(s.verdict.contains(&format!("at point {}", best.point)), "{}", s.verdict);
    let json = serde_json::to_value(&s).unwrap();
    assert!(json["exact"]["rows"].as_array().is_some_and(|r| r.len() == s.exact.rows.len()));
}

/// Whether a file is a PNG (its signature) or an SVG with content, and not tiny.
fn picture(path: &Path) -> bool {
    let bytes = std::fs::read(path).unwrap_or_default();
    let png = bytes.starts_with(b"\x89PNG\r\n\x1a\n");
    let svg = String::from_utf8_lossy(&bytes).contains("<svg") && bytes.windows(5).any(|w| w == b"<rect");
    bytes.len() > 2000 && (png || svg)
}

#[test]
fn the_pictures_are_written_and_not_empty() {
    let dir = scratch("study_pictures");
    let s = sampled(4, 1);
    let files = study::plot::write_figures(&s, &setup(), &dir).expect("figures written");
    let names: Vec<String> =
        files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["board.png", "board.svg", "curves.png", "curves.svg"]);
    for f in &files {
        assert!(picture(f), "{} is not a picture with content", f.display());
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "no temporary files are left behind");
}

fn small_sweep() -> SweepConfig {
    let dir = scratch("sweep_config");
    let config = dir.join("sweep.toml");
    let board = root().join("configs/studies/reaction_lanes.board");
    let text = format!(
        "board = {:?}\nmover = \"kaneda\"\nlength = 6\nactions = [\"move\", \"charge\"]\nreactors = [\"nix\"]\n\
         distances = [3, 8]\npositions = [0, 6]\ncover = [\"none\", \"start\"]\nmover_ap = [1]\nreactor_ap = [1]\n",
        board.display().to_string()
    );
    std::fs::write(&config, text).unwrap();
    SweepConfig::load(&config).expect("the config loads")
}

#[test]
fn a_sweep_classifies_every_situation_and_draws_its_heatmaps() {
    let config = small_sweep();
    let result: SweepResult = study::sweep::run(&config, &factory).expect("the sweep runs");
    assert_eq!(result.outcomes.len(), 2 * 2 * 2 * 2, "actions x distances x positions x covers");
    // Leaving the crates' cover, a shot is better once the mover is out of it: reacting late
    // wins for a move that starts behind the crates, nowhere in the open lane.
    let late = |cover: &str| {
        result
            .outcomes
            .iter()
            .filter(|o| o.situation.action == "move" && o.situation.cover == cover)
            .filter(|o| o.best == study::sweep::Best::Late)
            .count()
    };
    assert!(late("start") > late("none"), "start {} none {}", late("start"), late("none"));
    for o in result.outcomes.iter().filter(|o| o.best == study::sweep::Best::Late) {
        assert!(o.gain_over_at_once > 0.0, "waiting is strictly better: {}", o.verdict);
    }
    let summary = study::sweep::render_summary(&result);
    assert!(summary.contains("| cover | start |"), "{summary}");
    let dir = scratch("sweep_out");
    let files = study::sweep::write_outputs(&result, &dir).expect("outputs written");
    for f in files.iter().filter(|f| f.extension().is_some_and(|x| x == "png" || x == "svg")) {
        assert!(picture(f), "{} is not a picture with content", f.display());
    }
    assert!(files.iter().any(|f| f.ends_with("heatmap_charge_ap1_1.png")));
    assert!(dir.join("summary.md").is_file() && dir.join("sweep.json").is_file());
}

#[test]
fn a_bad_sweep_config_names_its_field() {
    let dir = scratch("bad_sweep");
    let config = dir.join("bad.toml");
    std::fs::write(
        &config,
        "board = \"x\"\nmover = \"kaneda\"\nlength = 6\nreactors = []\ndistances = [3]\npositions = [0]\n\
         cover = [\"none\"]\nmover_ap = [1]\nreactor_ap = [1]\n",
    )
    .unwrap();
    let err = SweepConfig::load(&config).unwrap_err();
    assert!(err.contains("bad.toml") && err.contains("reactors"), "{err}");
    std::fs::write(&config, "board = \"x\"\nmover = \"kaneda\"\nlength = 6\ncover = [\"behind\"]\n").unwrap();
    let err = SweepConfig::load(&config).unwrap_err();
    assert!(err.contains("bad.toml"), "{err}");
}

/// A record of the shipped situation in which side B ("late") reacts at `point` with the shot
/// and the rest of the sequence takes the analysis defaults and the first dice outcomes.
fn record_reacting_at(point: u8) -> (GameRecord, Action) {
    let state = setup();
    let table = study::exact_table(&state).unwrap();
    let row = table
        .rows
        .iter()
        .find(|r| r.offered && r.point == point && r.kind.starts_with("shoot"))
        .expect("a shot offered there");
    let mut record = GameRecord::new(&state, "test: scripted (side A) vs late (side B)");
    let mut s = state.clone();
    let mut actions = vec![row.action];
    s.apply_action(row.action).unwrap();
    while s.dynamic().sequence.is_some() && !s.is_terminal() {
        let a = match s.current_player() {
            Player::Chance => s.chance_outcomes()[0].0,
            _ => engine::analysis::default_decision(&s),
        };
        s.apply_action(a).unwrap();
        actions.push(a);
    }
    record.actions = actions;
    record.final_hash = engine::record::format_hash(s.state_hash());
    (record, row.action)
}

#[test]
fn the_survey_compares_each_choice_with_the_best_by_exact_values() {
    let state = setup();
    assert_eq!(state.dynamic().steps.last(), Some(&Step::ChooseReaction));
    let (_, options) = engine::analysis::analyze(&state).unwrap();
    let net = |o: &engine::analysis::OptionValue| o.expected_wounds_dealt - o.expected_wounds_taken;
    let best = options.iter().map(net).fold(f64::NEG_INFINITY, f64::max);
    let (record, action) = record_reacting_at(3);
    let chosen = options.iter().find(|o| o.action == action).map(net).unwrap();
    let dir = scratch("survey");
    let file = dir.join("game.json");
    record.save(&file).unwrap();
    let survey = study::records::survey(&[file]).expect("the record replays");
    assert_eq!(survey.records, 1);
    let late = &survey.agents["late"];
    assert_eq!(late.reaction_choices, 1);
    assert_eq!(late.reacted, 1);
    assert!((late.reaction_cost - (best - chosen).max(0.0)).abs() < 1e-9, "{late:?}");
    let answers = survey.agents.get("scripted").map_or(0, |t| t.firefight_choices + t.reaction_choices);
    assert!(answers <= 1, "side A chose at most its firefight answer");
    let text = study::records::render(&survey);
    assert!(text.contains("| late | 1 |"), "{text}");
}
