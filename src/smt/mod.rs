//! Word-level reasoning with an SMT solver: the solver process, the
//! unrolling of a transition system into SMT-LIB, and the BMC/k-induction
//! engine built on them.

pub mod kind;
pub mod solver;
pub mod unroll;
