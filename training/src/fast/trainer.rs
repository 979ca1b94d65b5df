//! `tde fast train`: train the fast network on the shards of one or more data folders.
//!
//! The run folder holds everything a run needs to go on after a kill: `latest.fnet` (the
//! network), `best.fnet` (the one with the lowest validation loss so far: a game's positions
//! share its result, so a network can learn the games by heart and validation tells when),
//! `adam.bin` (the optimiser's moments), `state.json` (the step and the settings,
//! compared on resume), `metrics.jsonl` and `tensorboard/`. Validation positions are the
//! shards `--valid` names, or else the shards whose index is a multiple of 10 (whole games,
//! so a game's result is never both learned and tested), or, with a single shard, its last
//! tenth.

use crate::network_training::metrics::Metrics;
use fastnet::checkpoint::{Checkpoint, Meta, Shape, FORMAT};
use fastnet::data::Dataset;
use fastnet::network::{Params, PARAMS};
use fastnet::train::{evaluate, sibling_correlation, Adam, Losses, TrainConfig, Trainer};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A training run's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainRun {
    /// The run folder.
    pub run: PathBuf,
    /// Data folders (their `*.fdata` shards) or shards.
    pub data: Vec<PathBuf>,
    /// Validation folders or shards; none: every tenth shard of `data` (see [`load_split`]).
    #[serde(default)]
    pub valid: Vec<PathBuf>,
    /// Steps in all (a resumed run goes on to this count).
    pub steps: u64,
    /// Batch size, learning rate and loss weights.
    pub config: TrainConfig,
    /// A checkpoint to start from (its prior is kept); none: fresh weights and the prior of
    /// `prior`.
    pub init: Option<PathBuf>,
    /// The optimiser's state to start from (another run's `adam.bin`, the run `init` comes
    /// from, so that a line trained in rounds goes on as one run); none: a fresh Adam.
    #[serde(default)]
    pub init_adam: Option<PathBuf>,
    /// The prior's generation file, for a fresh network.
    pub prior: PathBuf,
    /// Seed of the weights and batches.
    pub seed: u64,
    /// Steps between validations (and checkpoints).
    pub every: u64,
    /// The generation number the checkpoint gets.
    pub generation: u32,
    /// Show a progress bar.
    #[serde(skip)]
    pub progress: bool,
}

/// What `state.json` holds.
#[derive(Serialize, Deserialize)]
struct RunState {
    step: u64,
    settings: TrainRun,
    /// The lowest validation loss so far and its step (`best.fnet`).
    #[serde(default)]
    best: Option<(f64, u64)>,
}

/// The validation loss `best.fnet` is chosen by: the weighted sum the training minimises.
fn validation_loss(l: &Losses, c: &TrainConfig) -> f64 {
    c.value_weight as f64 * l.value
        + c.margin_weight as f64 * l.margin
        + c.policy_weight as f64 * l.policy
        + c.sibling_weight as f64 * 0.5 * l.sibling
}

/// The learning rate at `step` of `steps`: a linear warm-up over the first 2% and a cosine
/// decay to a tenth.
fn learning_rate(base: f32, step: u64, steps: u64) -> f32 {
    let warm = (steps / 50).max(1);
    if step < warm {
        return base * (step + 1) as f32 / warm as f32;
    }
    let t = (step - warm) as f32 / (steps - warm).max(1) as f32;
    base * (0.1 + 0.9 * 0.5 * (1.0 + (std::f32::consts::PI * t.min(1.0)).cos()))
}

/// The `.fdata` shards of `dirs` (folders of shards, or shards), each folder's in name order.
fn shard_files(dirs: &[PathBuf], flag: &str) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for dir in dirs {
        if dir.is_file() {
            files.push(dir.clone());
            continue;
        }
        let mut f: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| format!("{flag} {}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "fdata"))
            .collect();
        if f.is_empty() {
            return Err(format!(
                "{flag} {}: no .fdata shards (make them with `tde fast data`)",
                dir.display()
            ));
        }
        f.sort();
        files.extend(f);
    }
    Ok(files)
}

/// Load the shards of `dirs` (folders of `.fdata` shards, or shards), split into training and
/// validation sets.
pub fn load_split(dirs: &[PathBuf]) -> Result<(Dataset, Dataset), String> {
    let files = shard_files(dirs, "--data")?;
    let (mut train, mut valid) = (Dataset::default(), Dataset::default());
    if files.len() == 1 {
        let all = Dataset::load(&files[0])?;
        let cut = all.positions.len() * 9 / 10;
        for (i, p) in all.positions.iter().enumerate() {
            let to = if i < cut { &mut train } else { &mut valid };
            to.push_in_group(all.features_of(p), all.actions_of(p), p.value, p.margin, p.group);
        }
        (train.groups, valid.groups) = (all.groups, all.groups);
        return Ok((train, valid));
    }
    for (k, f) in files.iter().enumerate() {
        let d = Dataset::load(f)?;
        if k % 10 == 0 {
            valid.append(&d)
        } else {
            train.append(&d)
        }
    }
    Ok((train, valid))
}

/// The training and validation sets: every shard of `data` for training and every shard of
/// `valid` for validation where `valid` names any (a shard in both is refused), else
/// [`load_split`] of `data`.
pub fn load_sets(data: &[PathBuf], valid: &[PathBuf]) -> Result<(Dataset, Dataset), String> {
    if valid.is_empty() {
        return load_split(data);
    }
    let (train_files, valid_files) = (shard_files(data, "--data")?, shard_files(valid, "--valid")?);
    let canonical = |p: &PathBuf| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
    if let Some(both) = valid_files.iter().find(|v| train_files.iter().any(|t| canonical(t) == canonical(v)))
    {
        return Err(format!("--valid {}: the shard is also in --data", both.display()));
    }
    let load = |files: &[PathBuf]| -> Result<Dataset, String> {
        let mut all = Dataset::default();
        for f in files {
            all.append(&Dataset::load(f)?);
        }
        Ok(all)
    };
    Ok((load(&train_files)?, load(&valid_files)?))
}

fn read_adam(path: &Path) -> Result<Adam, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() != 8 + PARAMS * 8 {
        return Err(format!(
            "{}: {} bytes, expected {} (another network shape?)",
            path.display(),
            bytes.len(),
            8 + PARAMS * 8
        ));
    }
    let step = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    let floats: Vec<f32> =
        bytes[8..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4"))).collect();
    Ok(Adam { m: floats[..PARAMS].to_vec(), v: floats[PARAMS..].to_vec(), step })
}

fn write_adam(path: &Path, adam: &Adam) -> Result<(), String> {
    let mut bytes = Vec::with_capacity(8 + PARAMS * 8);
    bytes.extend_from_slice(&adam.step.to_le_bytes());
    for v in adam.m.iter().chain(&adam.v) {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    fastnet::write_atomically(path, &bytes)
}

/// The scalars of some losses, named under `prefix`.
fn scalars(prefix: &str, l: &Losses) -> Vec<(String, f64)> {
    vec![
        (format!("{prefix}/value_xent"), l.value),
        (format!("{prefix}/value_mse"), l.value_mse),
        (format!("{prefix}/margin"), l.margin),
        (format!("{prefix}/policy_xent"), l.policy),
        (format!("{prefix}/policy_top1"), l.top1),
        (format!("{prefix}/sibling"), l.sibling),
    ]
}

/// Run (or resume) training; a summary of the run.
pub fn train(run: &TrainRun) -> Result<String, String> {
    if run.steps == 0 || run.every == 0 || run.config.batch == 0 {
        return Err("--steps, --every and --batch must be at least 1".into());
    }
    std::fs::create_dir_all(&run.run).map_err(|e| format!("{}: {e}", run.run.display()))?;
    let state_path = run.run.join("state.json");
    let net_path = run.run.join("latest.fnet");
    let adam_path = run.run.join("adam.bin");
    let mut best: Option<(f64, u64)> = None;
    let (mut step, checkpoint, adam) = if state_path.exists() {
        let text =
            std::fs::read_to_string(&state_path).map_err(|e| format!("{}: {e}", state_path.display()))?;
        let saved: RunState =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", state_path.display()))?;
        let mut mine = run.clone();
        mine.steps = saved.settings.steps;
        if saved.settings != mine {
            return Err(format!(
                "{}: this run was started with other settings ({}); use a new --run folder",
                state_path.display(),
                serde_json::to_string(&saved.settings).unwrap_or_default()
            ));
        }
        best = saved.best;
        (saved.step, Checkpoint::load(&net_path)?, read_adam(&adam_path)?)
    } else {
        let checkpoint = match &run.init {
            Some(init) => {
                let mut c = Checkpoint::load(init)?;
                c.meta.parent = Some(init.display().to_string());
                c.meta.generation = run.generation;
                c
            }
            None => {
                let prior =
                    agents::learned::Generation::load(&run.prior).map_err(|e| format!("--prior: {e}"))?;
                let prior: serde_json::Value =
                    serde_json::from_str(&prior.to_json()).map_err(|e| e.to_string())?;
                Checkpoint {
                    meta: Meta {
                        format: FORMAT,
                        shape: Shape::current(),
                        generation: run.generation,
                        parent: None,
                        prior,
                        steps: 0,
                        training: serde_json::Value::Null,
                    },
                    params: Params::init(run.seed),
                }
            }
        };
        let adam = match &run.init_adam {
            Some(path) => read_adam(path)?,
            None => Adam::default(),
        };
        (0, checkpoint, adam)
    };
    let (train_set, valid_set) = load_sets(&run.data, &run.valid)?;
    if train_set.positions.is_empty() || valid_set.positions.is_empty() {
        return Err("the data holds too few positions to train and validate on".into());
    }
    let mut metrics = Metrics::open(&run.run).map_err(|e| format!("{}: {e}", run.run.display()))?;
    let mut meta = checkpoint.meta.clone();
    let mut trainer = Trainer::new(checkpoint.params, adam, run.config.clone(), run.seed.wrapping_add(step));
    let bar = crate::progress_bar(run.progress, run.steps, "steps");
    bar.set_position(step);
    let start = Instant::now();
    let first = step;
    let mut window = Losses::default();
    let mut window_n = 0usize;
    let mut last_valid = Losses::default();
    let mut last_correlation = None;
    while step < run.steps {
        let lr = learning_rate(run.config.learning_rate, step, run.steps);
        let l = trainer.step(&train_set, lr);
        window = sum(window, &l);
        window_n += 1;
        step += 1;
        bar.inc(1);
        if step % run.every == 0 || step == run.steps {
            last_valid = evaluate(&trainer.params, &valid_set, &run.config);
            let train_mean = scale(window, 1.0 / window_n.max(1) as f64);
            let mut all = scalars("train", &train_mean);
            all.extend(scalars("valid", &last_valid));
            if let Some((correlation, _)) = sibling_correlation(&trainer.params, &valid_set) {
                all.push(("valid/sibling_correlation".into(), correlation));
                last_correlation = Some(correlation);
            }
            all.push(("learning_rate".into(), lr as f64));
            let named: Vec<(&str, f64)> = all.iter().map(|(n, v)| (n.as_str(), *v)).collect();
            metrics.log(step, &named).map_err(|e| format!("{}: metrics: {e}", run.run.display()))?;
            bar.set_message(format!(
                "valid: value mse {:.3}, policy top-1 {:.1}%",
                last_valid.value_mse,
                100.0 * last_valid.top1
            ));
            meta.steps = step;
            meta.training = serde_json::json!({
                "command": "tde fast train",
                "settings": run,
                "train_positions": train_set.positions.len(),
                "valid_positions": valid_set.positions.len(),
                "valid": last_valid,
            });
            let c = Checkpoint { meta: meta.clone(), params: trainer.params.clone() };
            c.save(&net_path)?;
            let loss = validation_loss(&last_valid, &run.config);
            if best.is_none_or(|(b, _)| loss < b) {
                best = Some((loss, step));
                c.save(&run.run.join("best.fnet"))?;
            }
            write_adam(&adam_path, &trainer.adam)?;
            let state = RunState { step, settings: run.clone(), best };
            fastnet::write_atomically(
                &state_path,
                serde_json::to_string_pretty(&state).expect("state").as_bytes(),
            )?;
            window = Losses::default();
            window_n = 0;
        }
    }
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let samples = (step - first) * run.config.batch as u64;
    Ok(format!(
        "{}: step {step} (best.fnet: step {}); {} training and {} validation positions ({} and {} with a policy target); \
         {:.0} samples/s on {} threads this run; validation: value cross-entropy {:.4}, value mse {:.4}, margin {:.4}, \
         policy cross-entropy {:.4}, top-1 agreement {:.1}%{}",
        net_path.display(),
        best.map_or(0, |b| b.1),
        train_set.positions.len(),
        valid_set.positions.len(),
        train_set.policy_positions(),
        valid_set.policy_positions(),
        samples as f64 / seconds.max(1e-9),
        rayon::current_num_threads(),
        last_valid.value,
        last_valid.value_mse,
        last_valid.margin,
        last_valid.policy,
        100.0 * last_valid.top1,
        last_correlation.map_or(String::new(), |c| format!(
            ", sibling loss {:.4} and correlation of sibling differences {c:.3}",
            last_valid.sibling
        ))
    ))
}

fn sum(a: Losses, b: &Losses) -> Losses {
    Losses {
        positions: a.positions + b.positions,
        value: a.value + b.value,
        value_mse: a.value_mse + b.value_mse,
        margin: a.margin + b.margin,
        policy_positions: a.policy_positions + b.policy_positions,
        policy: a.policy + b.policy,
        top1: a.top1 + b.top1,
        sibling_positions: a.sibling_positions + b.sibling_positions,
        sibling: a.sibling + b.sibling,
    }
}

fn scale(mut a: Losses, k: f64) -> Losses {
    a.value *= k;
    a.value_mse *= k;
    a.margin *= k;
    a.policy *= k;
    a.top1 *= k;
    a.sibling *= k;
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shard of `n` value-only positions, each with the one feature `tag` and value `tag`.
    fn shard(dir: &Path, name: &str, tag: u16, n: usize) -> PathBuf {
        let mut d = Dataset::default();
        for _ in 0..n {
            d.push(&[tag], &[], tag as f32 / 10.0, 0.0);
        }
        let path = dir.join(name);
        d.save(&path).unwrap();
        path
    }

    #[test]
    fn named_validation_shards_validate_and_every_data_shard_trains() {
        let dir = std::env::temp_dir().join("tde-fast-trainer-valid");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("data")).unwrap();
        for k in 0..3u16 {
            shard(&dir.join("data"), &format!("shard-{k:04}.fdata"), k + 1, 4);
        }
        let held = shard(&dir, "held.fdata", 9, 2);
        let (train, valid) = load_sets(&[dir.join("data")], std::slice::from_ref(&held)).unwrap();
        assert_eq!((train.positions.len(), valid.positions.len()), (12, 2));
        assert!(valid.features.iter().all(|&f| f == 9) && train.features.iter().all(|&f| f != 9));
        // Without --valid, the first of every ten shards validates, as before.
        let (train, valid) = load_sets(&[dir.join("data")], &[]).unwrap();
        assert_eq!((train.positions.len(), valid.positions.len()), (8, 4));
        let again = dir.join("data").join("shard-0001.fdata");
        let err = load_sets(&[dir.join("data")], &[again]).unwrap_err();
        assert!(err.contains("--valid") && err.contains("also in --data"), "{err}");
        let err = load_sets(&[dir.join("data")], &[dir.join("none")]).unwrap_err();
        assert!(err.starts_with("--valid"), "{err}");
    }
}
