//! invar: a model checking toolkit.
//!
//! Data flow: [`verify::model::read`] reads a model of any input kind (the
//! readers of [`formats`], the C front end [`cfront`]) into a
//! [`verify::Model`]; [`verify::check`] decides it: [`preprocess`], the
//! [`engines`] on the [`sat`] and [`smt`] layers, and [`check`], which
//! validates every answer independently of the engine that produced it,
//! on the model as read. The library prints nothing and reads no
//! environment; only the `invar` binary does. See `docs/ARCHITECTURE.md`.

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
