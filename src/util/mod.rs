//! Small shared utilities.

pub mod budget;
pub mod rng;
