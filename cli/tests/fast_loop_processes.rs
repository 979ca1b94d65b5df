//! Expert iteration as separate processes sharing one run folder, as on a cluster
//! (`docs/cluster/fast-loop.sbatch`): the loop (`tde fast loop --run DIR`) and two extra
//! actors (`tde fast loop --run DIR --actor ID`) started beside it. Every process ends on
//! its own when the loop's rounds are done, every shard of the round is written once, and no
//! claim is left behind. (That the data is the same whoever plays a shard is checked in
//! `training/tests/fast_loop.rs`.)

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn tde(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_tde"))
        .args(args)
        .env("CI", "true")
        .env("RAYON_NUM_THREADS", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tde starts")
}

fn finished(child: std::process::Child, who: &str) -> Output {
    let out = child.wait_with_output().expect("the process ends");
    assert!(
        out.status.success(),
        "{who}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn a_loop_and_two_actor_processes_share_a_round_and_all_stop_when_it_is_done() {
    let run = std::env::temp_dir().join(format!("tde-fast-loop-processes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&run);
    let run_arg = run.to_str().unwrap().to_string();
    let start: PathBuf = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../checkpoints/fast/gen-000.fnet");
    // The actors start first and wait for the loop's run folder.
    let actors: Vec<_> = ["a", "b"]
        .iter()
        .map(|id| (id, tde(&["fast", "loop", "--run", &run_arg, "--actor", id, "--quiet"])))
        .collect();
    let the_loop = tde(&[
        "fast",
        "loop",
        "--run",
        &run_arg,
        "--start",
        start.to_str().unwrap(),
        "--rounds",
        "1",
        "--games",
        "12",
        "--shard-games",
        "1",
        "--search",
        "sims=8,considered=4,rescale=0,noise=1",
        "--steps",
        "10",
        "--batch",
        "32",
        "--gate-look",
        "10",
        "--gate-max",
        "20",
        "--seed",
        "3",
        "--threads",
        "1",
        "--quiet",
    ]);
    finished(the_loop, "the loop");
    for (id, actor) in actors {
        let out = finished(actor, id);
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains(&format!("actor {id}: played")), "{said}");
    }
    let state = std::fs::read_to_string(run.join("state.json")).unwrap();
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    assert_eq!(state["rounds"].as_array().map(Vec::len), Some(1), "one round done");
    for k in 0..12 {
        assert!(run.join(format!("round-001/data/shard-{k:04}.fdata")).exists(), "shard {k}");
        assert!(!run.join(format!("round-001/data/shard-{k:04}.claim")).exists(), "claim {k} released");
    }
    let _ = std::fs::remove_dir_all(&run);
}
