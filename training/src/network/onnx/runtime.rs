//! Running a network in ONNX Runtime (build feature `onnx`): the network's ONNX graph
//! ([`super::export`]) in a session of the ONNX Runtime library the user has, loaded at run
//! time from `ORT_DYLIB_PATH` (the `onnxruntime` Python wheel ships it as
//! `site-packages/onnxruntime/capi/libonnxruntime.so.*`). It computes the same outputs as burn's
//! CPU backend, several times faster on small batches (`tde bench --device onnx`).

use super::export::{names, to_onnx};
use crate::network::net::PolicyValueNet;
use ort::environment::Environment;
use ort::session::builder::GraphOptimizationLevel;
use ort::session::Session;
use ort::value::TensorRef;
use std::sync::{Mutex, OnceLock};

/// The environment variable naming the ONNX Runtime library.
pub const LIBRARY_VARIABLE: &str = "ORT_DYLIB_PATH";

static ENVIRONMENT: OnceLock<Result<Environment, String>> = OnceLock::new();

/// Load the ONNX Runtime library named by `ORT_DYLIB_PATH` and create the process's
/// environment, once; later calls return the first outcome. A missing or unusable library is
/// an error naming the variable and the file, not a panic.
pub fn environment() -> Result<&'static Environment, String> {
    ENVIRONMENT.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn load() -> Result<Environment, String> {
    let path = std::env::var(LIBRARY_VARIABLE).ok().filter(|p| !p.is_empty()).ok_or_else(|| {
        format!(
            "set {LIBRARY_VARIABLE} to the ONNX Runtime library (`pip install onnxruntime` ships it as \
             site-packages/onnxruntime/capi/libonnxruntime.so.VERSION)"
        )
    })?;
    // ort panics on a library whose API is too old for it: make that an error too.
    std::panic::catch_unwind(|| {
        ort::init_from(&path)
            .map_err(|e| format!("{LIBRARY_VARIABLE}={path}: {e}"))?
            .with_name("tde")
            .build()
            .map_err(|e| format!("{LIBRARY_VARIABLE}={path}: {e}"))
    })
    .unwrap_or_else(|_| {
        Err(format!("{LIBRARY_VARIABLE}={path}: not an ONNX Runtime library this build can use"))
    })
}

/// A network's outputs for a batch, as flat rows (see [`crate::network::net::Outputs`]).
pub struct RawOutputs {
    /// Policy planes: `batch × policy planes × cells`.
    pub planes: Vec<f32>,
    /// Global policy logits: `batch × policy globals`.
    pub globals: Vec<f32>,
    /// Values in [-1, 1]: one per position.
    pub values: Vec<f32>,
    /// With a margin head: the squashed victory-point margins in [-1, 1], one per position.
    pub margins: Option<Vec<f32>>,
}

/// A network in an ONNX Runtime session.
pub struct OnnxNetwork {
    session: Mutex<Session>,
    /// Whether the graph has the margin output.
    margin: bool,
}

impl OnnxNetwork {
    /// A session computing `net` (either architecture), on `threads` threads per forward pass.
    pub fn new(net: &PolicyValueNet, threads: usize) -> Result<OnnxNetwork, String> {
        let bytes = to_onnx(net)?;
        let environment = environment()?;
        let session = Session::builder(environment)
            .and_then(|b| Ok(b.with_optimization_level(GraphOptimizationLevel::All)?))
            .and_then(|b| Ok(b.with_intra_threads(threads)?))
            .and_then(|b| Ok(b.with_inter_threads(1)?))
            .and_then(|mut b| b.commit_from_memory(&bytes))
            .map_err(|e| format!("ONNX Runtime: cannot build the network's session: {e}"))?;
        Ok(OnnxNetwork { session: Mutex::new(session), margin: net.has_margin() })
    }

    /// Run a batch of `batch` positions: `planes` is `batch × planes × depth × width`,
    /// `globals` `batch × globals`.
    pub fn run(
        &self,
        planes: &[f32],
        globals: &[f32],
        batch: usize,
        plane_shape: [usize; 3],
    ) -> Result<RawOutputs, String> {
        let [p, d, w] = plane_shape;
        let fail = |e: ort::Error| format!("ONNX Runtime: {e}");
        let planes = TensorRef::from_array_view(([batch, p, d, w], planes)).map_err(fail)?;
        let globals =
            TensorRef::from_array_view(([batch, globals.len() / batch.max(1)], globals)).map_err(fail)?;
        let mut session = self.session.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let outputs =
            session.run(ort::inputs![names::PLANES => planes, names::GLOBALS => globals]).map_err(fail)?;
        let read = |name: &str| -> Result<Vec<f32>, String> {
            let (_, values) = outputs[name].try_extract_tensor::<f32>().map_err(fail)?;
            Ok(values.to_vec())
        };
        Ok(RawOutputs {
            planes: read(names::POLICY_PLANES)?,
            globals: read(names::POLICY_GLOBALS)?,
            values: read(names::VALUE)?,
            margins: if self.margin { Some(read(names::MARGIN)?) } else { None },
        })
    }
}
