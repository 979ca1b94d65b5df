//! The learning room: teaching a network from expert play (`tde train` with a bootstrap
//! configuration). [`config`] is the configuration, [`expert`] plays and stores the expert
//! games, [`imitation`] turns any game's play into positions, [`sample`] is one training position, [`learner`] fits the network (with
//! [`siblings`], the loss that orders a decision's children), [`bootstrap`] runs
//! the whole, and [`metrics`] and [`curves`] record and draw its progress; [`lock`] keeps one
//! process at a time on a run folder (self-play's actors and learner take it too).

pub mod bootstrap;
pub mod config;
pub mod curves;
pub mod expert;
pub mod imitation;
pub mod learner;
pub mod lock;
pub mod metrics;
pub mod sample;
pub mod siblings;
