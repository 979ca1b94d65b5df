//! The main line of learning: the fast network (crate `fastnet`), its labelled positions
//! ([`data`], `tde fast data`) and its training runs ([`trainer`], `tde fast train`), which
//! resume from their run folder after a kill.

pub mod data;
pub mod trainer;
