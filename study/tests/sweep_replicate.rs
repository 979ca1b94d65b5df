//! A sweep replicated at independent seeds (issue 59): each seed's sweep is the sweep at that
//! seed, a cell's verdict holds only when every seed settles on the same option there, and each
//! seed's interval is in the exports.

use engine::GameState;
use std::path::{Path, PathBuf};
use study::beyond::Paired;
use study::sweep::{Best, SweepConfig, SweepResult};
use study::sweep_replicate::{agree, SeedVerdict};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn factory(spec: &str, seed: u64) -> Result<Box<dyn agents::Agent<GameState>>, String> {
    agents::make_agent(spec, seed)
}

/// A fresh empty folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("sweep_replicate_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small sampled sweep on the lanes board (scripted judge); `extra` goes at the top.
fn config_text(extra: &str) -> String {
    let board = root().join("configs/studies/reaction_lanes.board");
    format!(
        "{extra}actions = [\"move\"]\nmover_ap = [3]\nreactor_ap = [2]\nsamples = 12\njudge = \"scripted\"\n\n\
         [[template]]\nname = \"start\"\nboard = {b:?}\nmover = \"kaneda\"\nfrom = [14, 8]\nto = [20, 8]\n\
         reactors = [\"nix\", \"slethssk\"]\ngrid = {{ x = [15, 19], y = [12, 12], step = 4 }}\n",
        b = board.display().to_string()
    )
}

fn load(name: &str, extra: &str) -> Result<SweepConfig, String> {
    let dir = scratch(name);
    let path = dir.join("sweep.toml");
    std::fs::write(&path, config_text(extra)).unwrap();
    SweepConfig::load(&path)
}

fn meta() -> study::export::Meta {
    study::export::Meta { judge: "scripted".into(), seed: 3, commit: "test".into(), command: "test".into() }
}

fn verdict(seed: u64, best: Best, point: Option<u8>) -> SeedVerdict {
    let option = match best {
        Best::None => None,
        Best::Hold => Some("hold the AP".to_string()),
        _ => Some(format!("Nix shoot Recurve at point {}", point.unwrap_or(0))),
    };
    SeedVerdict {
        seed,
        best,
        leaning: best,
        option,
        best_point: point,
        samples: 100,
        versus_hold: Some(Paired { mean: 0.1, low: 0.05, high: 0.15, samples: 100 }),
        over_at_once: None,
    }
}

#[test]
fn a_cell_holds_only_when_every_seed_settles_on_the_same_option() {
    let situation = || {
        let c = load("agree", "").unwrap();
        study::sweep::situations(&c).remove(0)
    };
    let held = agree(situation(), vec![verdict(0, Best::Late, Some(2)), verdict(777, Best::Late, Some(2))]);
    assert!(
        held.held
            && held.best == Best::Late
            && held.option.as_deref() == Some("Nix shoot Recurve at point 2")
    );
    let hold = agree(situation(), vec![verdict(0, Best::Hold, None), verdict(777, Best::Hold, None)]);
    assert!(hold.held && hold.best == Best::Hold);
    // Settled at one seed only.
    let mut unsettled = verdict(777, Best::Uncertain, Some(2));
    unsettled.leaning = Best::Late;
    let one = agree(situation(), vec![verdict(0, Best::Late, Some(2)), unsettled]);
    assert!(!one.held && one.best == Best::Uncertain && one.option.is_none());
    // Settled at both, on different points, or one holding and one reacting.
    let points = agree(situation(), vec![verdict(0, Best::Late, Some(2)), verdict(777, Best::Late, Some(3))]);
    assert!(!points.held && points.best == Best::Uncertain);
    let kinds = agree(situation(), vec![verdict(0, Best::Hold, None), verdict(777, Best::Early, Some(0))]);
    assert!(!kinds.held && kinds.best == Best::Uncertain);
    let nobody = agree(situation(), vec![verdict(0, Best::None, None), verdict(777, Best::None, None)]);
    assert!(!nobody.held && nobody.best == Best::None);
}

#[test]
fn seeds_are_checked_in_the_config() {
    let one = load("one_seed", "seeds = [4]\n").unwrap_err();
    assert!(one.contains("sweep.toml") && one.contains("seeds") && one.contains("two or more"), "{one}");
    let twice = load("twice", "seeds = [4, 4]\n").unwrap_err();
    assert!(twice.contains("seeds") && twice.contains("seed 4 is given twice"), "{twice}");
    let exact = load("exact", "seeds = [1, 2]\n").map(|mut c| {
        c.samples = 0;
        c.check()
    });
    let e = exact.unwrap().unwrap_err();
    assert!(e.contains("seeds") && e.contains("samples"), "{e}");
    assert_eq!(load("two", "seeds = [1, 2]\n").unwrap().seeds, vec![1, 2]);
}

#[test]
fn each_seeds_sweep_is_the_sweep_at_that_seed_and_its_intervals_are_exported() {
    let config = load("run", "").unwrap();
    let r = study::sweep_replicate::run(&config, &factory, &[3, 4]).expect("the sweeps run");
    assert_eq!(r.seeds, vec![3, 4]);
    assert_eq!(r.sweeps.len(), 2);
    assert_eq!(r.cells.len(), study::sweep::situations(&config).len());
    let alone = study::sweep::run(&SweepConfig { seed: 4, ..config.clone() }, &factory).unwrap();
    let verdicts = |s: &SweepResult| s.outcomes.iter().map(|o| o.verdict.clone()).collect::<Vec<_>>();
    assert_eq!(verdicts(&r.sweeps[1]), verdicts(&alone), "seed 4's sweep is the sweep at seed 4");
    for (i, cell) in r.cells.iter().enumerate() {
        assert_eq!(cell.seeds.iter().map(|v| v.seed).collect::<Vec<_>>(), vec![3, 4]);
        let (a, b) = (&r.sweeps[0].outcomes[i], &r.sweeps[1].outcomes[i]);
        let settled = |o: &study::sweep::Outcome| !matches!(o.best, Best::Uncertain | Best::None);
        let option = |o: &study::sweep::Outcome| o.options.iter().position(|x| x.best);
        let expected = settled(a) && settled(b) && a.best == b.best && option(a) == option(b);
        assert_eq!(cell.held, expected, "{} / {}", a.verdict, b.verdict);
        assert_eq!(cell.seeds[1].versus_hold, b.versus_hold);
    }

    // A seed that does not settle a cell the other settles: that cell is not held.
    let mut other = r.sweeps[0].clone();
    let settled_at = other.outcomes.iter().position(|o| !matches!(o.best, Best::Uncertain | Best::None));
    if let Some(k) = settled_at {
        other.outcomes[k].best = Best::Uncertain;
        let both =
            study::sweep_replicate::replicate(&[3, 5], vec![r.sweeps[0].clone(), other.clone()]).unwrap();
        assert!(!both.cells[k].held && both.cells[k].best == Best::Uncertain);
        assert!(both
            .cells
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != k)
            .all(|(_, c)| c.held == !matches!(c.seeds[0].best, Best::Uncertain | Best::None)));
    }
    other.outcomes.pop();
    let e = study::sweep_replicate::replicate(&[3, 5], vec![r.sweeps[0].clone(), other]).unwrap_err();
    assert!(e.contains("seed 5"), "{e}");

    // The exports: each seed's sweep whole, the side-by-side table, a CSV line per cell and seed
    // with that seed's interval, the replicated heatmaps, and an export that redraws them.
    let dir = scratch("out");
    let files = study::sweep_replicate::write_outputs(&r, &dir, &meta()).expect("written");
    for seed in [3, 4] {
        let export = study::sweep::read_export(&dir.join(format!("seed-{seed}/sweep.json.gz"))).unwrap();
        assert_eq!((export.meta.seed, export.sweep.config.seed), (seed, seed));
        assert!(dir.join(format!("seed-{seed}/sweep.csv")).is_file());
    }
    let csv = std::fs::read_to_string(dir.join("replication.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(csv.lines().count(), 1 + 2 * r.cells.len(), "a line per cell and seed");
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no {name}"));
    for (line, (cell, v)) in
        csv.lines().skip(1).zip(r.cells.iter().flat_map(|c| c.seeds.iter().map(move |v| (c, v))))
    {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[col("seed")], v.seed.to_string());
        assert_eq!(f[col("held")], cell.held.to_string());
        assert_eq!(f[col("class")], v.best.name());
        if let Some(p) = v.versus_hold.filter(|p| p.samples > 0) {
            assert_eq!(f[col("versus_hold_low")], format!("{:.6}", p.low));
            assert_eq!(f[col("versus_hold_high")], format!("{:.6}", p.high));
        }
    }
    let md = std::fs::read_to_string(dir.join("replication.md")).unwrap();
    assert!(md.contains("| seed 3 | seed 4 |") && md.contains("Totals:"), "{md}");
    assert_eq!(md.lines().filter(|l| l.starts_with("| start move")).count(), r.cells.len(), "{md}");
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(summary.contains("seeds 3, 4 (held only where every seed settles"), "{summary}");
    let held = r.cells.iter().filter(|c| c.held).count();
    let uncertain = r.cells.iter().filter(|c| c.best == Best::Uncertain).count();
    assert_eq!(held + uncertain + r.cells.iter().filter(|c| c.best == Best::None).count(), r.cells.len());
    let export = study::sweep::read_export(&dir.join("sweep.json.gz")).unwrap();
    assert_eq!(export.sweep.config.seeds, vec![3, 4]);
    let classes = |s: &SweepResult| s.outcomes.iter().map(|o| o.best).collect::<Vec<_>>();
    assert_eq!(classes(&export.sweep), r.cells.iter().map(|c| c.best).collect::<Vec<_>>());
    let again = scratch("replot");
    for f in study::sweep::write_figures(&export.sweep, &again).unwrap() {
        let name = f.file_name().unwrap();
        assert!(files.contains(&dir.join(name)), "{name:?} was written by the replication");
        assert_eq!(std::fs::read(&f).unwrap(), std::fs::read(dir.join(name)).unwrap(), "{name:?} differs");
    }
}
