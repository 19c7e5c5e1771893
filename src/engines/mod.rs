//! Model checking engines. Each takes a circuit and [`Limits`] and returns an
//! [`Outcome`]; engines never print, the CLI renders their verdicts.
//!
//! Every engine checks the single bad property `aig.bad[0]` of a circuit
//! prepared by [`crate::ir::coi::cone_of_influence`], under all of its
//! invariant constraints.

pub mod bmc;
pub mod ic3;
pub mod ic3ia;
pub mod kind;
pub mod portfolio;

use crate::ir::trace::Trace;
use crate::sat::{Backend, SatStats};
use crate::util::budget::Budget;
use std::time::Duration;

/// What an engine concluded.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// The property holds; the proof says why.
    Safe(Proof),
    /// The property fails; the trace reaches a bad state.
    Unsafe(Trace),
    /// No conclusion within the limits, or the model is outside what the engine handles.
    Unknown(String),
}

/// Evidence for a SAFE verdict, checkable by [`crate::check`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The property is k-inductive (with simple-path constraints if set),
    /// and no bad state is reachable in fewer than k steps.
    KInduction {
        /// The induction depth.
        k: usize,
        /// Whether the step case assumed pairwise distinct states.
        simple_path: bool,
    },
    /// An inductive invariant: the conjunction of the negations of these
    /// cubes, each a list of (latch index, value) of the engine's circuit.
    Invariant(Vec<Vec<(usize, bool)>>),
}

/// Budgets shared by all engines.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The deepest step to unroll to (inclusive); `None` = no bound.
    pub max_depth: Option<usize>,
    /// Deadline and stop flag.
    pub budget: Budget,
    /// The SAT backend to use.
    pub backend: Backend,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: None,
            budget: Budget::unlimited(),
            backend: Backend::Cadical,
        }
    }
}

/// Counters of one engine run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// The deepest step completely explored.
    pub depth: usize,
    /// SAT calls, summed over the engine's solvers.
    pub sat: SatStats,
    /// Wall time of the run.
    pub time: Duration,
    /// IC3's own counters, when IC3 ran.
    pub ic3: Option<ic3::Ic3Stats>,
    /// Predicate abstraction's counters, when IC3+IA ran.
    pub abstraction: Option<AbstractionStats>,
}

/// Counters of IC3 with implicit predicate abstraction.
#[derive(Clone, Copy, Debug, Default)]
pub struct AbstractionStats {
    /// Predicates at the end.
    pub predicates: usize,
    /// Spurious counterexamples refined away.
    pub refinements: u64,
}

/// An engine's verdict with its name and counters.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The verdict.
    pub verdict: Verdict,
    /// The engine that produced it.
    pub engine: &'static str,
    /// The SAT backend it ran on (a checker should use the other one).
    pub backend: Backend,
    /// Its counters.
    pub stats: Stats,
}

/// The reason given when the budget stops an engine.
pub(crate) fn interrupted_reason(budget: &Budget) -> String {
    budget.reason().to_string()
}
