//! Intermediate representations shared by front ends and engines.

pub mod aig;
pub mod bv;
pub mod cfa;
pub mod coi;
pub mod invariant;
pub mod liveness;
pub mod resets;
pub mod simplify;
pub mod simulate;
pub mod term;
pub mod trace;
pub mod ts;
