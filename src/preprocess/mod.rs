//! Reductions in front of the bit-level engines: latch simplification and
//! the cone of influence (`prepare`), and functional reduction by SAT
//! sweeping (`fraig`). Each keeps a way back to the input circuit, so that
//! traces and invariants are stated over the model as read.

pub mod fraig;
pub mod prepare;
