//! The stronger judge, the AP exchange rate from rollouts, the measure a verdict decides by,
//! weapons chosen by the sweep templates, the mover's AP left after declaring, and the
//! figures' captions and series looks.

use engine::setup::load_setup;
use engine::GameState;
use std::path::{Path, PathBuf};
use study::aprate::{ap_rate_from_rollouts, ratio_interval};
use study::sweep::SweepConfig;
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

fn sampling(agent: &str, samples: u32) -> Sampling {
    Sampling { agent: agent.into(), samples, seed: 5, horizon: Horizon::Turn }
}

/// A fresh empty folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_ratio_of_paired_means_has_a_delta_method_interval() {
    let w = [1.0, 0.0, 2.0, 1.0, 0.0, 2.0];
    let a: Vec<f64> = w.iter().map(|x| 0.5 * x).collect();
    let (r, lo, hi) = ratio_interval(&a, &w, 1.96).expect("a ratio");
    assert!((r - 0.5).abs() < 1e-12 && (lo - 0.5).abs() < 1e-9 && (hi - 0.5).abs() < 1e-9, "{r} {lo} {hi}");
    let noisy = [0.0, 1.0, 1.0, 0.0, 2.0, 0.0];
    let (r, lo, hi) = ratio_interval(&noisy, &w, 1.96).unwrap();
    assert!(lo < r && r < hi, "a noisy ratio has an interval: {lo} {r} {hi}");
    assert_eq!(ratio_interval(&a, &[0.0; 6], 1.96), None, "no wound value, no rate");
}

#[test]
fn the_ap_rate_from_rollouts_is_reproducible_and_used_by_the_exact_measure() {
    let state = setup();
    let s = sampling("scripted", 24);
    let plain = study::study(&state, "t", Some((&s, &factory)), &StudyOptions::default()).unwrap();
    let reactor = plain.exact.rows[0].reactor;
    let a = ap_rate_from_rollouts(&state, plain.exact.side, reactor, &s, &factory).expect("a rate");
    let b = ap_rate_from_rollouts(&state, plain.exact.side, reactor, &s, &factory).unwrap();
    assert_eq!(a, b, "the same seed gives the same rate");
    assert!(a.low <= a.wounds_per_ap && a.wounds_per_ap <= a.high && a.low >= 0.0, "{a:?}");
    assert_eq!((a.samples, a.ap_return.samples, a.wound_return.samples), (24, 24, 24));
    let options = StudyOptions { ap_from_rollouts: true, exact_verdict: true, ..StudyOptions::default() };
    let st = study::study(&state, "t", Some((&s, &factory)), &options).unwrap();
    let rate = st.ap_rate.as_ref().expect("the study keeps its rate");
    assert_eq!(st.exact.ap_value, rate.wounds_per_ap, "the exact measure counts AP at the derived rate");
    assert!(st.verdict.contains("AP-counted net") && st.verdict.contains("from rollouts"), "{}", st.verdict);
    assert!(st.verdict.contains("judge scripted"), "the rate names its judge: {}", st.verdict);
    // The rate's interval is carried into the verdict's comparisons.
    for c in &st.comparisons {
        assert!(c.diff.low <= c.diff.mean + 1e-12 && c.diff.mean <= c.diff.high + 1e-12, "{c:?}");
        assert_eq!(c.diff.samples, 24);
    }
    let csv = study::export::study_csv(&st, &meta());
    assert!(csv.lines().next().unwrap().contains("ap_value,ap_source") && csv.contains(",rollouts,"));
    // Stated: the stated rate, said so.
    assert!(plain.ap_rate.is_none() && plain.ap_rate_label().contains("stated"));
    // No continuations, no rate.
    let err = study::study(&state, "t", None, &options).unwrap_err().to_string();
    assert!(err.contains("rollouts") && err.contains("samples"), "{err}");
}

#[test]
fn the_exact_measure_can_decide_a_sampled_study() {
    let state = setup();
    let s = sampling("scripted", 8);
    let options = StudyOptions { exact_verdict: true, ..StudyOptions::default() };
    let st = study::study(&state, "t", Some((&s, &factory)), &options).unwrap();
    assert!(st.sampled() && !st.by_return());
    assert!(st.measure.starts_with("AP-counted net") && st.measure.contains("(stated)"), "{}", st.measure);
    let exact = study::study(&state, "t", None, &StudyOptions::default()).unwrap();
    assert_eq!(st.best, exact.best, "the same verdict as without samples");
    assert!(st.comparisons.iter().all(|c| c.diff.samples == 0), "exact differences have no interval");
}

#[test]
fn a_judge_that_cannot_be_built_is_a_clear_error_even_without_samples() {
    let state = setup();
    for samples in [0, 4] {
        let s = sampling("mcts:iters=oops", samples);
        let err = study::study(&state, "t", Some((&s, &factory)), &StudyOptions::default()).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("judge") && text.contains("mcts:iters=oops"), "{text}");
    }
    let mut config = lanes_sweep("judge", "");
    config.judge = "nobody".into();
    let err = study::sweep::run(&config, &factory).unwrap_err();
    assert!(err.contains("sweep.toml") && err.contains("judge") && err.contains("nobody"), "{err}");
}

#[test]
fn the_learned_judge_plays_the_continuations() {
    let state = setup();
    let spec = format!("learned:gen={}", root().join("checkpoints/learned/gen-003.json").display());
    let s = sampling(&spec, 6);
    let st = study::study(&state, "t", Some((&s, &factory)), &StudyOptions::default()).unwrap();
    assert!(st.verdict.contains(&format!("judge {spec}")), "{}", st.verdict);
    assert!(study::render_table(&st).contains(&format!("with judge {spec}")));
    let again = study::study(&state, "t", Some((&s, &factory)), &StudyOptions::default()).unwrap();
    assert_eq!(st.hold_beyond, again.hold_beyond, "the learned judge is seeded");
}

fn meta() -> study::export::Meta {
    study::export::Meta { judge: "scripted".into(), seed: 5, commit: "test".into(), command: "test".into() }
}

/// A small sweep on the lanes board; `extra` is added to its template.
fn lanes_sweep(name: &str, extra: &str) -> SweepConfig {
    let dir = scratch(name);
    let config = dir.join("sweep.toml");
    std::fs::write(&config, lanes_text(extra)).unwrap();
    SweepConfig::load(&config).unwrap_or_else(|e| panic!("{e}"))
}

fn lanes_text(extra: &str) -> String {
    let board = root().join("configs/studies/reaction_lanes.board");
    format!(
        "actions = [\"move\"]\nmover_ap = [1, 3]\nreactor_ap = [2]\n\n\
         [[template]]\nname = \"start\"\nboard = {b:?}\nmover = \"kaneda\"\nfrom = [14, 8]\nto = [20, 8]\n\
         reactors = [\"nix\"]\ngrid = {{ x = [15, 19], y = [12, 12], step = 4 }}\n{extra}",
        b = board.display().to_string()
    )
}

#[test]
fn the_mover_has_paid_for_its_action_when_the_reactor_chooses() {
    let config = lanes_sweep("ap_left", "");
    let result = study::sweep::run(&config, &factory).unwrap();
    assert_eq!(result.outcomes.len(), 4);
    for o in &result.outcomes {
        assert_eq!(o.mover_ap_left, Some(o.situation.mover_ap - 1), "{}", o.situation.name());
    }
    let summary = study::sweep::render_summary(&result);
    assert!(summary.contains("| start | move | nix | 1 → 0 |"), "{summary}");
    assert!(summary.contains("| start | move | nix | 3 → 2 |"), "{summary}");
    let dir = scratch("ap_left_out");
    study::sweep::write_outputs(&result, &dir, &meta()).unwrap();
    let csv = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    assert!(csv.lines().next().unwrap().contains("mover_ap,reactor_ap,mover_ap_left,weapons"));
}

#[test]
fn templates_choose_the_weapons_of_mover_and_reactor() {
    let plain = study::sweep::run(&lanes_sweep("weapons_plain", ""), &factory).unwrap();
    let armed =
        lanes_sweep("weapons", "weapons = { nix = [\"Scattergun\"], kaneda = [\"Lagoon Revolver\"] }\n");
    let result = study::sweep::run(&armed, &factory).unwrap();
    let kinds = |r: &study::sweep::SweepResult| -> Vec<String> {
        r.outcomes.iter().flat_map(|o| o.options.iter().map(|x| x.kind.clone())).collect()
    };
    assert!(kinds(&plain).iter().any(|k| k.contains("Recurve")), "{:?}", kinds(&plain));
    assert!(kinds(&result).iter().any(|k| k.contains("Scattergun")), "{:?}", kinds(&result));
    assert!(!kinds(&result).iter().any(|k| k.contains("Recurve")), "Nix carries only the Scattergun");
    assert!(result.outcomes[0].situation.weapons.contains("nix: Scattergun"));
}

#[test]
fn a_bad_weapons_field_names_the_file_the_field_and_the_reason() {
    let dir = scratch("bad_weapons");
    let config = dir.join("arms.toml");
    for (extra, expect, field) in [
        ("weapons = { nix = [\"Laser\"] }\n", "no weapon `Laser`", true),
        ("weapons = { nix = [] }\n", "needs 1 to", true),
        ("weapons = { hosk = [\"Recurve\"] }\n", "names neither the mover nor a reactor", true),
        ("weapons = { nix = \"Recurve\" }\n", "weapons", false),
    ] {
        std::fs::write(&config, lanes_text(extra)).unwrap();
        let err = SweepConfig::load(&config).unwrap_err();
        assert!(err.contains("arms.toml") && err.contains(expect), "{extra}: {err}");
        assert!(!field || err.contains("template[0] (start).weapons."), "{err}");
    }
}

#[test]
fn ap_value_rollouts_in_a_sweep_needs_samples() {
    let dir = scratch("bad_rate");
    let config = dir.join("rate.toml");
    std::fs::write(&config, format!("ap_value = \"rollouts\"\n{}", lanes_text(""))).unwrap();
    let err = SweepConfig::load(&config).unwrap_err();
    assert!(err.contains("rate.toml") && err.contains("ap_value") && err.contains("samples"), "{err}");
    std::fs::write(&config, format!("ap_value = \"lots\"\n{}", lanes_text(""))).unwrap();
    let err = SweepConfig::load(&config).unwrap_err();
    assert!(err.contains("rate.toml") && err.contains("lots"), "{err}");
    std::fs::write(
        &config,
        format!("ap_value = \"rollouts\"\nsamples = 4\nmeasure = \"exact\"\n{}", lanes_text("")),
    )
    .unwrap();
    let c = SweepConfig::load(&config).unwrap();
    let caption = study::sweep::heatmap_measure(&c);
    // No judge named: the default one, the fast network.
    let judge = format!("judge {}", study::DEFAULT_JUDGE);
    assert!(caption.contains("exact AP-counted net") && caption.contains(&judge), "{caption}");
}

#[test]
fn heatmap_captions_name_the_judge_or_say_there_is_none() {
    let mut c = lanes_sweep("captions", "");
    assert!(study::sweep::heatmap_measure(&c).contains("no judge"));
    c.samples = 10;
    c.judge = "learned:gen=checkpoints/learned/gen-003.json".into();
    let caption = study::sweep::heatmap_measure(&c);
    assert!(
        caption.contains("judge learned:gen=checkpoints/learned/gen-003.json")
            && caption.contains("uncertain")
    );
}

#[test]
fn series_look_apart_and_long_captions_wrap() {
    let looks: Vec<study::plot::Look> = (0..4).map(study::plot::Look::of).collect();
    for i in 0..4 {
        for j in 0..i {
            let (a, b) = (looks[i], looks[j]);
            assert!(a.colour != b.colour && a.shape != b.shape, "series {i} and {j} look alike");
        }
    }
    assert!(looks[0].dash != looks[1].dash && looks[1].dash != looks[2].dash);
    let text = "point colour: best value beyond the sequence of reacting there (judge learned:gen=checkpoints/learned/gen-003.json, 1600 samples), -0.30 (dark) to +0.21 (yellow)";
    let lines = study::plot::wrap(text, 420, 6);
    assert!(lines.len() > 1 && lines.iter().all(|l| l.chars().count() <= (420 - 16) / 6), "{lines:?}");
    assert_eq!(lines.join(" "), text, "nothing is lost");
}
