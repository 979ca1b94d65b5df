//! Python access to the TDE engine (the `tde` package): the plain-Rust [`core`] that speaks in
//! policy-space indices and game records, and, with the `python` feature that maturin turns
//! on, the PyO3 module `tde._tde` over it; [`batch`] steps many games at once, and [`names`]
//! names the observation's features. The Python side (`python/tde/`) adds the arena
//! wrapper and the PettingZoo, Gymnasium and OpenSpiel adapters.

pub mod batch;
pub mod core;
pub mod names;
// Not in the unit-test harness: an executable cannot leave Python's C API unresolved, and the
// extension module is built without libpython (the interpreter provides it).
#[cfg(all(feature = "python", not(test)))]
mod py;
