//! A whole study: values beyond the sequence (seeded, intervals narrowing with samples), the
//! pictures, the sweep, and the survey of agents' choices in game records.

use engine::record::GameRecord;
use engine::setup::load_setup;
use engine::state::{Player, Step};
use engine::{Action, GameState};
use std::path::{Path, PathBuf};
use study::sweep::{SweepConfig, SweepResult};
use study::{Horizon, Sampling, StudyOptions};

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
    study::study(&setup(), "reaction_timing", Some((&sampling, &factory)), &StudyOptions::default())
        .expect("the study runs")
}

/// A fresh empty folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_verdict_holds_only_when_every_seed_settles_on_the_same_option() {
    let sampling = Sampling { agent: "scripted".into(), samples: 24, seed: 0, horizon: Horizon::Turn };
    let options = StudyOptions::default();
    let r = study::replicate::replicate(&setup(), "reaction_timing", &sampling, &factory, &options, &[3, 4])
        .expect("the studies run");
    assert_eq!(r.seeds, vec![3, 4]);
    assert_eq!(r.studies.len(), 2);
    assert_eq!(r.studies[0].sampling.as_ref().unwrap().seed, 3);
    assert_eq!(r.studies[1].sampling.as_ref().unwrap().seed, 4);
    // Each seed's study is the single study at that seed.
    assert_eq!(r.studies[1].verdict, sampled(24, 4).verdict);
    assert_eq!(r.held, study::replicate::agree(&r.studies));
    assert_eq!(r.held, r.studies.iter().all(|s| s.settled) && r.studies[0].best == r.studies[1].best);
    // A verdict settled at one seed and not at the other does not hold.
    let mut unsettled = r.studies.clone();
    unsettled[0].settled = true;
    unsettled[1].settled = false;
    assert!(!study::replicate::agree(&unsettled));
    let mut other_best = r.studies.clone();
    other_best.iter_mut().for_each(|s| s.settled = true);
    other_best[1].best = Some(None);
    other_best[0].best = Some(Some(0));
    assert!(!study::replicate::agree(&other_best), "settled on different options");
    let table = study::replicate::render_replication(&r);
    assert!(
        table.contains("replicated verdict:")
            && table.lines().filter(|l| l.starts_with("     3") || l.starts_with("     4")).count() == 2,
        "{table}"
    );
}

fn width(e: &study::Estimate) -> f64 {
    e.high - e.low
}

#[test]
fn values_beyond_the_sequence_are_reproducible_and_narrow_with_more_samples() {
    let a = sampled(12, 7);
    let b = sampled(12, 7);
    assert_eq!(a.beyond.len(), a.exact.rows.len(), "every row has its place");
    assert_eq!(a.beyond, b.beyond, "the same seed gives the same values");
    assert_eq!(a.hold_beyond, b.hold_beyond);
    assert!(a.hold_beyond.is_some(), "holding the AP is valued too");
    let offered = |s: &study::Study| -> Vec<study::Estimate> {
        s.offered().map(|i| s.beyond[i].clone()).chain(s.hold_beyond.clone()).collect()
    };
    let few: f64 = offered(&a).iter().map(width).sum();
    let many = sampled(96, 7);
    let more: f64 = offered(&many).iter().map(width).sum();
    assert!(few > 0.0, "the continuations vary");
    assert!(more < few, "96 samples give narrower intervals ({more}) than 12 ({few})");
    for e in offered(&many) {
        assert!(e.low <= e.mean && e.mean <= e.high && e.samples == 96 && e.returns.len() == 96);
    }
    // More samples extend the earlier ones (common random numbers, sample by sample).
    assert_eq!(
        &many.hold_beyond.as_ref().unwrap().returns[..12],
        &a.hold_beyond.as_ref().unwrap().returns[..]
    );
    assert!(a.verdict.contains("holding the AP") && a.verdict.contains("judge scripted"), "{}", a.verdict);
}

#[test]
fn a_verdict_is_settled_or_says_it_is_not() {
    let s = sampled(8, 3);
    assert!(!s.comparisons.is_empty(), "the best is compared with holding and the other timing");
    for c in &s.comparisons {
        assert!(c.diff.low <= c.diff.mean && c.diff.mean <= c.diff.high && c.diff.samples == 8);
        let text = c.describe();
        assert_eq!(text.starts_with("no clear difference"), !c.diff.settled(), "{text}");
        assert!(s.verdict.contains(&text), "{} lacks {text}", s.verdict);
    }
    assert_eq!(s.settled, s.comparisons.iter().all(|c| c.diff.settled()));
    assert_eq!(s.verdict.starts_with("not settled"), !s.settled, "{}", s.verdict);
    // Sampling until settled doubles the samples until settled or the budget is spent.
    let sampling = Sampling { agent: "scripted".into(), samples: 8, seed: 3, horizon: Horizon::Turn };
    let options = StudyOptions { until_settled: Some(32), ..StudyOptions::default() };
    let u = study::study(&setup(), "reaction_timing", Some((&sampling, &factory)), &options).unwrap();
    let n = u.hold_beyond.as_ref().unwrap().samples;
    assert!(u.settled || n == 32, "stopped unsettled at {n} samples");
    assert!(n == 8 || !s.settled, "a settled verdict is not sampled further");
}

#[test]
fn the_paired_interval_is_narrower_than_the_two_intervals_with_common_numbers() {
    // Two options with the same noise and a constant gap: the paired difference has no spread.
    let a: Vec<f64> = (0..300).map(|i| if i % 3 == 0 { 1.0 } else { -1.0 }).collect();
    let b: Vec<f64> = a.iter().map(|x| x - 0.5).collect();
    let d = study::Paired::of(&a, &b, study::beyond::z_for(0.95));
    assert!((d.mean - 0.5).abs() < 1e-12 && d.settled(), "{d:?}");
    let e = study::Estimate::from_samples(&a, &a);
    assert!(e.high - e.low > d.high - d.low);
    assert!((study::beyond::z_for(0.95) - 1.959_964).abs() < 1e-5);
    assert!((study::beyond::z_for(0.99) - 2.575_829).abs() < 1e-5);
    // An interval spanning 0 is not settled.
    let c: Vec<f64> = (0..300).map(|i| if i % 2 == 0 { 1.0 } else { -1.0 }).collect();
    let flipped: Vec<f64> = c.iter().map(|x| -x).collect();
    assert!(!study::Paired::of(&c, &flipped, 1.96).settled(), "differences of +2 and -2 in equal numbers");
}

#[test]
fn the_table_names_the_best_timing_and_marks_equivalent_points() {
    let s = study::study(&setup(), "reaction_timing", None, &StudyOptions::default()).unwrap();
    let text = study::render_table(&s);
    assert!(text.contains("best timing: "), "{text}");
    assert!(text.contains("hold the AP"), "{text}");
    assert!(text.contains("same as") && text.contains("point 2"), "{text}");
    match s.best.expect("a reaction is possible") {
        Some(b) => {
            assert!(s.exact.rows[b].offered, "the best is an offered point");
            assert!(s.verdict.contains(&format!("at point {}", s.exact.rows[b].point)), "{}", s.verdict);
        }
        None => assert!(s.verdict.starts_with("hold the AP"), "{}", s.verdict),
    }
    assert!(s.verdict.contains("measure: AP-counted net"), "one labelled measure: {}", s.verdict);
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
        "actions = [\"move\", \"charge\"]\nmover_ap = [1]\nreactor_ap = [1]\n\n\
         [[template]]\nname = \"start\"\nboard = {b:?}\nmover = \"kaneda\"\nfrom = [14, 8]\nto = [20, 8]\n\
         reactors = [\"nix\"]\ngrid = {{ x = [14, 20], y = [11, 16], step = 5 }}\n\n\
         [[template]]\nname = \"open\"\nboard = {b:?}\nmover = \"kaneda\"\nfrom = [12, 26]\nto = [18, 26]\n\
         reactors = [\"nix\"]\ngrid = {{ x = [12, 18], y = [29, 34], step = 5 }}\n",
        b = board.display().to_string()
    );
    std::fs::write(&config, text).unwrap();
    SweepConfig::load(&config).expect("the config loads")
}

fn meta() -> study::export::Meta {
    study::export::Meta { judge: "exact".into(), seed: 0, commit: "test".into(), command: "test".into() }
}

#[test]
fn a_sweep_classifies_every_situation_and_draws_its_heatmaps() {
    let config = small_sweep();
    let result: SweepResult = study::sweep::run(&config, &factory).expect("the sweep runs");
    assert_eq!(result.outcomes.len(), 2 * 2 * 2 * 2, "templates x actions x 2x2 cells");
    // Leaving the crates' cover, a shot is better once the mover is out of it: reacting late
    // wins for a move that starts behind the crates, nowhere in the open lane.
    let late = |t: &str| {
        result
            .outcomes
            .iter()
            .filter(|o| o.situation.action == "move" && o.situation.template == t)
            .filter(|o| o.best == study::sweep::Best::Late)
            .count()
    };
    assert!(late("start") > late("open"), "start {} open {}", late("start"), late("open"));
    for o in result.outcomes.iter().filter(|o| o.best == study::sweep::Best::Late) {
        assert!(
            o.gain_over_at_once.is_some_and(|g| g.mean > 0.0),
            "waiting is strictly better: {}",
            o.verdict
        );
        assert!(o.verdict.contains("AP-counted net"), "the measure is named: {}", o.verdict);
    }
    let summary = study::sweep::render_summary(&result);
    assert!(summary.contains("| template | start |") && summary.contains("uncertain"), "{summary}");
    let dir = scratch("sweep_out");
    let files = study::sweep::write_outputs(&result, &dir, &meta()).expect("outputs written");
    for f in files.iter().filter(|f| f.extension().is_some_and(|x| x == "png" || x == "svg")) {
        assert!(picture(f), "{} is not a picture with content", f.display());
    }
    assert!(files.iter().any(|f| f.ends_with("heatmap_start_charge_ap1_1.png")));
    assert!(dir.join("summary.md").is_file() && dir.join("sweep.json.gz").is_file());
    // The full export is compact gzipped JSON, and redraws the same figures without re-running.
    let gz = std::fs::read(dir.join("sweep.json.gz")).unwrap();
    assert_eq!(&gz[..2], &[0x1f, 0x8b], "gzip magic");
    let export = study::sweep::read_export(&dir.join("sweep.json.gz")).expect("the export reads back");
    assert_eq!(export.meta.commit, "test");
    let again = scratch("sweep_replot");
    let redrawn = study::sweep::write_figures(&export.sweep, &again).expect("figures redrawn");
    assert!(!redrawn.is_empty());
    for f in &redrawn {
        let name = f.file_name().unwrap();
        assert_eq!(std::fs::read(f).unwrap(), std::fs::read(dir.join(name)).unwrap(), "{name:?} differs");
    }
    let bad = again.join("not_an_export.json");
    std::fs::write(&bad, "{}").unwrap();
    let e = study::sweep::read_export(&bad).unwrap_err();
    assert!(e.contains("not_an_export.json") && e.contains("not a sweep export"), "{e}");
    // The long export: a line per situation and option, offered or not, with the metadata.
    let csv = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    let options: usize = result.outcomes.iter().map(|o| o.options.len()).sum();
    assert_eq!(csv.lines().count(), options + 1, "a header and a line per option");
    assert!(csv.lines().next().unwrap().contains("offered") && csv.contains(",exact,0,test"));
    assert!(
        result.outcomes.iter().any(|o| o.options.iter().any(|x| !x.offered)),
        "points not offered are exported"
    );
}

#[test]
fn no_study_recommendation_is_a_point_the_engine_does_not_offer() {
    // Over the shipped lanes sweep, exact measure: the best option is always one `tde legal`
    // lists, and every point left out is worth exactly what its offered twin is worth, the
    // mover's answer included (ruling 147).
    let config = SweepConfig::load(&root().join("configs/studies/templates/reaction_lanes.toml")).unwrap();
    let mut small = config.clone();
    for t in &mut small.templates {
        t.grid.step = 3;
    }
    let result = study::sweep::run(&small, &factory).expect("the sweep runs");
    let mut checked = 0;
    for o in result.outcomes.iter().filter(|o| !o.options.is_empty()) {
        let best = o.options.iter().find(|x| x.best).expect("a best option");
        assert!(best.offered, "{}: the best option is offered", o.verdict);
        for x in o.options.iter().filter(|x| !x.offered) {
            let twin = o
                .options
                .iter()
                .find(|y| y.offered && y.reactor == x.reactor && y.kind == x.kind && y.point == x.same_as)
                .expect("a point left out names its offered twin");
            assert!(
                (twin.net_ap - x.net_ap).abs() < 1e-9,
                "{:?} vs {:?} in {}",
                x.point,
                twin.point,
                o.verdict
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} points left out were checked");
}

#[test]
fn a_bad_sweep_config_names_its_field() {
    let dir = scratch("bad_sweep");
    let config = dir.join("bad.toml");
    let template = |reactors: &str, to: &str| {
        format!(
            "mover_ap = [1]\nreactor_ap = [1]\n[[template]]\nname = \"t\"\nboard = \"sunken_plaza\"\nmover = \"kaneda\"\n\
             from = [16, 3]\nto = {to}\nreactors = {reactors}\ngrid = {{ x = [13, 20], y = [0, 2] }}\n"
        )
    };
    std::fs::write(&config, template("[]", "[22, 3]")).unwrap();
    let err = SweepConfig::load(&config).unwrap_err();
    assert!(err.contains("bad.toml") && err.contains("template[0] (t).reactors"), "{err}");
    std::fs::write(&config, template("[\"nobody\"]", "[22, 3]")).unwrap();
    let err = SweepConfig::load(&config).unwrap_err();
    assert!(err.contains("bad.toml") && err.contains("nobody"), "{err}");
    std::fs::write(&config, template("[\"nix\"]", "[40, 3]")).unwrap();
    let err = SweepConfig::load(&config).unwrap_err();
    assert!(err.contains("bad.toml") && err.contains("template[0] (t).board/mover/from/to"), "{err}");
    std::fs::write(&config, "cover = [\"behind\"]\n").unwrap();
    let err = SweepConfig::load(&config).unwrap_err();
    assert!(err.contains("bad.toml"), "{err}");
}

#[test]
fn every_shipped_template_loads_and_studies_its_board() {
    let dir = root().join("configs/studies/templates");
    let mut boards = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let config = SweepConfig::load(&path).unwrap_or_else(|e| panic!("{e}"));
        boards.extend(config.templates.iter().map(|t| t.board.clone()));
    }
    for board in ["sunken_plaza", "mangrove_ruins", "lagoon_docks", "drowned_boulevard"] {
        assert!(boards.iter().any(|b| b == board), "no template for {board}");
    }
}

/// A record of the shipped situation in which side B ("late") reacts at `point` with the shot
/// and the rest of the sequence takes the analysis defaults and the first dice outcomes.
fn record_reacting_at(point: u8) -> (GameRecord, Action) {
    let state = setup();
    let table = study::exact_table(&state, 0.5).unwrap();
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
    assert_eq!(state.node(), Some(&Step::ChooseReaction));
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
