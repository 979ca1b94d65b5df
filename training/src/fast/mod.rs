//! The main line of learning: the fast network (crate `fastnet`), its first labelled
//! positions from the teachers' games ([`data`], `tde fast data`), its training runs
//! ([`trainer`], `tde fast train`) and expert iteration, generation after generation
//! ([`generations`], `tde fast loop`); each resumes from its run folder after a kill.

pub mod data;
pub mod generations;
pub mod trainer;
