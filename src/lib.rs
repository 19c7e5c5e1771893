//! invar: a model checking toolkit.
//!
//! Data flow: [`formats`] read models into the IR ([`ir`]); [`verify`] runs
//! the pipeline: [`preprocess`], [`engines`] on the [`sat`] and [`smt`]
//! layers, and [`check`], which validates every verdict independently of the
//! engine that produced it. Only the `invar` binary prints. See `docs/ARCHITECTURE.md`.

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
pub mod verify;
