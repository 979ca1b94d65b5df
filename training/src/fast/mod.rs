//! The main line of learning: the fast network (crate `fastnet`), its first labelled
//! positions from the teachers' games ([`data`], `tde fast data`), value targets for sibling
//! positions from rollouts ([`branches`], `tde fast branches`), its training runs
//! ([`trainer`], `tde fast train`) and expert iteration, generation after generation
//! ([`generations`], `tde fast loop`); each resumes from its run folder after a kill.

pub mod branches;
pub mod data;
pub mod generations;
pub mod trainer;
