//! Independent checks of verdicts. Nothing here calls engine code: traces are
//! replayed by simulating the model as read from its file, and proofs are
//! re-derived with a separate, eager encoding on a different SAT backend;
//! word-level proofs of the SMT engine are re-asked of another solver.

pub mod certificate;
pub(crate) mod encode;
pub mod invariant;
pub mod kinduction;
pub mod replay;
pub mod smt_proof;
pub mod smt_unroll;
pub mod word;
