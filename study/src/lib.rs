//! Studies of The Drowned Earth's decisions. [`timing`]: when along an enemy's declared move
//! (or charge) to react, with what, or whether to keep the AP — exact odds at every point of
//! the path ([`exact`]), values beyond the sequence from sampled continuations ([`beyond`]).

pub mod aprate;
pub mod beyond;
pub mod exact;
pub mod export;
pub mod plot;
pub mod records;
pub mod replicate;
pub mod sequential;
pub mod sweep;
pub mod sweep_replicate;
pub mod timing;

pub use aprate::ApRate;
pub use beyond::{AgentFactory, Estimate, Horizon, Paired, Sampling, DEFAULT_JUDGE};
pub use exact::{exact_table, load_situation, situation_from_text, ExactTable, ReactionRow, StudyError};
pub use sequential::Plan;
pub use timing::{render_table, study, ApValue, Measure, Study, StudyOptions, DEFAULT_AP_VALUE};
