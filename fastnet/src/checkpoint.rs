//! The network's checkpoint file: a header, its metadata as JSON (shape, the prior's
//! generation, where it came from and how it was trained) and the parameters as
//! little-endian f32. Every field is checked on load; an error names the file and the field.

use crate::action_features::ACTION_FEATURES;
use crate::features::{FIRST_SET_FEATURES, POSITION_FEATURES};
use crate::network::{Params, H1, H2, H3, PARAMS};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

// Missing first-layer rows are inserted at the end of W1, which starts the vector.
const _: () = assert!(crate::layout::W1 == 0);

/// The first bytes of a checkpoint.
const MAGIC: &[u8; 8] = b"TDEFNET\n";
/// The checkpoint format's version.
pub const FORMAT: u32 = 1;

/// The shape a checkpoint was written for. A checkpoint loads into the same shape, or from the
/// first feature set (the groups added since follow it), whose missing first-layer rows load as
/// zeros, so it evaluates as before.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shape {
    /// Position features.
    pub position_features: usize,
    /// Action features.
    pub action_features: usize,
    /// Layer widths.
    pub h1: usize,
    /// See `h1`.
    pub h2: usize,
    /// See `h1`.
    pub h3: usize,
    /// Parameters in all.
    pub params: usize,
}

impl Shape {
    /// This build's shape.
    pub fn current() -> Shape {
        Shape {
            position_features: POSITION_FEATURES,
            action_features: ACTION_FEATURES,
            h1: H1,
            h2: H2,
            h3: H3,
            params: PARAMS,
        }
    }
}

/// What a checkpoint says of itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// The format version ([`FORMAT`]).
    pub format: u32,
    /// The shape.
    pub shape: Shape,
    /// The generation of the main line (0: trained from the teachers' games).
    pub generation: u32,
    /// The checkpoint it was trained from, if any.
    pub parent: Option<String>,
    /// The prior player's generation, as its JSON (see [`crate::prior`]).
    pub prior: Value,
    /// Training steps taken.
    pub steps: u64,
    /// How it was made: data, settings, losses, commands (free-form).
    pub training: Value,
}

/// A network and its metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The metadata.
    pub meta: Meta,
    /// The parameters.
    pub params: Params,
}

/// How many first-layer rows a checkpoint of shape `stored` lacks against `current`: `Some(0)`
/// for the same shape, `Some(n)` when it was written with this build's first feature set
/// ([`FIRST_SET_FEATURES`], a prefix of today's features) and differs in nothing else, `None`
/// otherwise (another count of features is another layout, not a prefix: refused).
pub fn missing_feature_rows(stored: &Shape, current: &Shape) -> Option<usize> {
    let earlier_set = stored.position_features == FIRST_SET_FEATURES;
    if stored.position_features != current.position_features && !earlier_set {
        return None;
    }
    let missing = current.position_features.checked_sub(stored.position_features)?;
    let same_otherwise = stored.action_features == current.action_features
        && (stored.h1, stored.h2, stored.h3) == (current.h1, current.h2, current.h3)
        && stored.params + missing * current.h1 == current.params;
    same_otherwise.then_some(missing)
}

impl Checkpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let meta = serde_json::to_vec(&self.meta).expect("metadata serialises");
        let mut bytes = Vec::with_capacity(16 + meta.len() + PARAMS * 4);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(meta.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&meta);
        for v in &self.params.data {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes
    }

    /// Write it to `path` atomically.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        crate::files::write_atomically(path, &self.to_bytes())
    }

    /// Read and check a checkpoint file.
    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parse and check a checkpoint's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err("not a fast-network checkpoint (it does not start with TDEFNET)".into());
        }
        let len = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        let meta_bytes = bytes.get(12..12 + len).ok_or("the file ends inside the metadata")?;
        let raw: Value = serde_json::from_slice(meta_bytes).map_err(|e| format!("metadata: {e}"))?;
        let format = raw.get("format").and_then(Value::as_u64).ok_or("metadata: field `format` missing")?;
        if format != FORMAT as u64 {
            return Err(format!("metadata: field `format` is {format}, this build reads {FORMAT}"));
        }
        let mut meta: Meta = serde_json::from_value(raw).map_err(|e| format!("metadata: {e}"))?;
        let current = Shape::current();
        let missing_rows = missing_feature_rows(&meta.shape, &current).ok_or_else(|| {
            format!(
                "metadata: field `shape` is {:?}, this build's network is {:?} (written by another version)",
                meta.shape, current
            )
        })?;
        let stored = PARAMS - missing_rows * H1;
        let body = &bytes[12 + len..];
        if body.len() != stored * 4 {
            return Err(format!(
                "{} bytes of parameters, expected {} ({stored} numbers)",
                body.len(),
                stored * 4
            ));
        }
        let mut data: Vec<f32> = Vec::with_capacity(PARAMS);
        data.extend(body.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))));
        if let Some(i) = data.iter().position(|v| !v.is_finite()) {
            return Err(format!("parameter {i} is not a finite number"));
        }
        // The first layer's rows come first (W1 at offset 0): the missing ones follow the stored ones.
        let first_layer_end = meta.shape.position_features * H1;
        data.splice(first_layer_end..first_layer_end, std::iter::repeat_n(0.0, missing_rows * H1));
        meta.shape = current;
        agents::learned::Generation::parse(&meta.prior.to_string(), "metadata field `prior`")?;
        Ok(Checkpoint { meta, params: Params { data } })
    }
}
