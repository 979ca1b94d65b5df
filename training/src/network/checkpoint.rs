//! Checkpoints: the network's weights, the optimiser's state, the step and the configuration,
//! written atomically (a temporary folder renamed into place, then the `latest` pointer
//! replaced by a renamed temporary file), and loaded with a clear error when a file is missing,
//! corrupted, or belongs to another network.
//!
//! Layout: `DIR/step-00000200/{model.bpk, optim.bpk, meta.json}` and `DIR/latest` holding the
//! name of the newest. A shipped checkpoint is one such folder (the optimiser may be left out).

use crate::network::net::PolicyValueNet;
use crate::network_training::config::Config;
use agents::TensorShape;
use burn::module::Module;
use burn::optim::ModuleOptimizer;
use burn::tensor::Device;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Version of the checkpoint layout.
pub const FORMAT: u32 = 1;

/// What a checkpoint holds beside the tensors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// [`FORMAT`].
    pub format: u32,
    /// Optimiser steps taken.
    pub step: u64,
    /// The run's configuration (the network sizes among it).
    pub config: Config,
    /// Observation planes the network reads.
    pub planes: usize,
    /// Observation globals the network reads.
    pub globals: usize,
    /// Policy planes it writes.
    pub policy_planes: usize,
    /// Global policy logits it writes.
    pub policy_globals: usize,
    /// Trainable parameters.
    pub parameters: usize,
}

impl Meta {
    /// Whether a game's tensors fit this network.
    pub fn check_shape(&self, shape: &TensorShape) -> Result<(), String> {
        let ours = (self.planes, self.globals, self.policy_planes, self.policy_globals);
        let theirs = (shape.planes, shape.globals, shape.policy_planes, shape.policy_globals);
        if ours != theirs {
            return Err(format!(
                "the network reads {} planes and {} globals and writes {} policy planes and {} \
                 global logits, but the game has {}, {}, {} and {}",
                ours.0, ours.1, ours.2, ours.3, theirs.0, theirs.1, theirs.2, theirs.3
            ));
        }
        Ok(())
    }
}

/// Why a checkpoint could not be written or read.
#[derive(Debug, thiserror::Error)]
#[error("checkpoint {path}: {reason}")]
pub struct CheckpointError {
    /// The file or folder.
    pub path: String,
    /// What went wrong.
    pub reason: String,
}

fn error(path: &Path, reason: impl ToString) -> CheckpointError {
    CheckpointError { path: path.display().to_string(), reason: reason.to_string() }
}

/// Write a checkpoint for `step` in `dir` and point `latest` at it; returns its folder.
pub fn save(
    dir: &Path,
    net: &PolicyValueNet,
    optimizer: Option<&ModuleOptimizer>,
    meta: &Meta,
) -> Result<PathBuf, CheckpointError> {
    std::fs::create_dir_all(dir).map_err(|e| error(dir, e))?;
    let name = format!("step-{:08}", meta.step);
    let tmp = dir.join(format!(".{name}.tmp"));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(|e| error(&tmp, e))?;
    }
    std::fs::create_dir_all(&tmp).map_err(|e| error(&tmp, e))?;
    net.clone().save_file(tmp.join("model.bpk")).map_err(|e| error(&tmp, e))?;
    if let Some(optimizer) = optimizer {
        optimizer.save(tmp.join("optim.bpk")).map_err(|e| error(&tmp, e))?;
    }
    let text = serde_json::to_string_pretty(meta).map_err(|e| error(&tmp, e))?;
    std::fs::write(tmp.join("meta.json"), text).map_err(|e| error(&tmp, e))?;
    let target = dir.join(&name);
    if target.exists() {
        std::fs::remove_dir_all(&target).map_err(|e| error(&target, e))?;
    }
    std::fs::rename(&tmp, &target).map_err(|e| error(&target, e))?;
    engine::record::write_atomic(&dir.join("latest"), name.as_bytes()).map_err(|e| error(dir, e))?;
    Ok(target)
}

/// The checkpoint folder a path names: a checkpoint folder itself, a folder with a `latest`
/// pointer, or a run folder whose `checkpoints/` has one.
pub fn resolve(path: &Path) -> Result<PathBuf, CheckpointError> {
    // A relative path missing here may name a shipped checkpoint (`checkpoints/bootstrap`).
    let shipped = engine::data::builtin_configs_dir().join("..").join(path);
    if path.is_relative() && !path.exists() && shipped.exists() {
        return resolve(&shipped);
    }
    if path.join("meta.json").is_file() {
        return Ok(path.to_path_buf());
    }
    for dir in [path.to_path_buf(), path.join("checkpoints")] {
        let latest = dir.join("latest");
        if latest.is_file() {
            let name = std::fs::read_to_string(&latest).map_err(|e| error(&latest, e))?;
            let name = name.trim();
            if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
                return Err(error(&latest, format!("`{name}` is not a checkpoint name")));
            }
            let target = dir.join(name);
            if !target.join("meta.json").is_file() {
                return Err(error(&target, "the checkpoint `latest` names has no meta.json"));
            }
            return Ok(target);
        }
    }
    Err(error(path, "no checkpoint here (no meta.json, no latest pointer)"))
}

/// Read a checkpoint's description.
pub fn read_meta(dir: &Path) -> Result<Meta, CheckpointError> {
    let file = dir.join("meta.json");
    let text = std::fs::read_to_string(&file).map_err(|e| error(&file, e))?;
    let meta: Meta = serde_json::from_str(&text).map_err(|e| error(&file, e))?;
    if meta.format != FORMAT {
        return Err(error(&file, format!("format {} is not the supported {FORMAT}", meta.format)));
    }
    meta.config.check(&file.display().to_string()).map_err(|e| error(&file, e))?;
    Ok(meta)
}

/// Load the network of the checkpoint `path` names (see [`resolve`]) onto `device`.
pub fn load_network(
    path: &Path,
    device: &Device,
) -> Result<(PolicyValueNet, Meta, PathBuf), CheckpointError> {
    let dir = resolve(path)?;
    let meta = read_meta(&dir)?;
    let shape = TensorShape {
        planes: meta.planes,
        depth: 1,
        width: 1,
        globals: meta.globals,
        policy_planes: meta.policy_planes,
        policy_globals: meta.policy_globals,
        policy_size: 0,
    };
    let fresh = PolicyValueNet::new(&meta.config.net, &shape, device);
    let file = dir.join("model.bpk");
    let net = fresh
        .try_load_file(&file)
        .map_err(|e| error(&file, format!("{e} (does the file belong to this network's meta.json?)")))?;
    Ok((net, meta, dir))
}

/// Load the optimiser state saved with a checkpoint into `optimizer`.
pub fn load_optimizer(dir: &Path, optimizer: ModuleOptimizer) -> Result<ModuleOptimizer, CheckpointError> {
    let file = dir.join("optim.bpk");
    optimizer.load(&file).map_err(|e| error(&file, e))
}
