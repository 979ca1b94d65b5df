//! AlphaZero-style self-play: actors ([`actor`]) play games with the latest network version
//! and a Gumbel or PUCT search ([`agents::az`]), their leaves batched across games; the learner
//! ([`learner`]) trains on a replay window of their positions with a capped sample ratio and
//! publishes new versions. They share only the run folder ([`records`] for the shards), so
//! they run in one process ([`run_single`]), as separate processes, or on many machines over
//! shared storage.

pub mod actor;
pub mod config;
pub mod learner;
pub mod records;
pub mod run;
pub mod source;
