//! invar: a model checking toolkit.
//!
//! Data flow: [`formats`] read models into the IR ([`ir`]); [`engines`] decide
//! properties with the [`sat`] layer; [`check`] validates every verdict
//! independently of the engine that produced it. Only the `invar` binary
//! prints. See `docs/ARCHITECTURE.md`.

pub mod bitblast;
pub mod cfront;
pub mod check;
pub mod engines;
pub mod formats;
pub mod ir;
pub mod preprocess;
pub mod sat;
pub mod smt;
pub mod util;
