//! The network in ONNX form: [`export`] writes its graph and weights as an ONNX model (any
//! build), and [`runtime`] runs that model in ONNX Runtime (build feature `onnx`), the fast
//! CPU inference path for search and self-play.

pub mod export;
pub mod proto;
#[cfg(feature = "onnx")]
pub mod runtime;
