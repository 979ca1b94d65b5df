//! The network room: the policy/value network in `burn` ([`net`]), where it computes
//! ([`compute`]), batched evaluation of positions ([`inference`]), a network loaded and ready to
//! play ([`loaded`]), checkpoints on disk ([`checkpoint`]), its ONNX form ([`onnx`]) and its
//! speed figures for `tde bench` ([`speed`]).

pub mod checkpoint;
pub mod compute;
pub mod inference;
pub mod loaded;
pub mod net;
pub mod onnx;
pub mod speed;
