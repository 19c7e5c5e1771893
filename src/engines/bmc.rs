//! Incremental bounded model checking on one solver.
//!
//! Step k adds frame k to the unrolling, asserts the constraints of frame k
//! and asks for a bad state in frame k under an assumption. After an UNSAT
//! answer `¬bad_k` is added for good: a path bad at step k would have been a
//! shorter counterexample, so the clause removes nothing and helps later
//! steps. This is the incremental scheme of the DimSpec/IncPlan encoding
//! (Gocht & Balyo, "Accelerating SAT Based Planning with Incremental SAT
//! Solving", ICAPS 2017), with a single literal as goal.

use super::{interrupted_reason, Limits, Outcome, Stats, Verdict};
use crate::ir::aig::Aig;
use crate::ir::trace::Trace;
use crate::sat::tseitin::Unroller;
use crate::sat::{SolveResult, Solver};
use std::time::Instant;

/// What one BMC step found.
pub enum Step {
    /// A counterexample of the step's length.
    Counterexample(Trace),
    /// No bad state at this depth.
    Clear,
    /// The budget ran out.
    Interrupted,
}

/// An incremental BMC run that can be advanced step by step (k-induction
/// uses it as its base case).
pub struct Bmc<'a> {
    solver: Box<dyn Solver>,
    unroller: Unroller<'a>,
    next_depth: usize,
}

impl<'a> Bmc<'a> {
    /// A run over `aig` from its initial states.
    pub fn new(aig: &'a Aig, limits: &Limits) -> Bmc<'a> {
        let mut solver = limits.backend.create(limits.budget.clone());
        let unroller = Unroller::new(aig, solver.as_mut(), true);
        Bmc {
            solver,
            unroller,
            next_depth: 0,
        }
    }

    /// The next depth [`Bmc::step`] will check.
    pub fn next_depth(&self) -> usize {
        self.next_depth
    }

    /// Checks for a counterexample of exactly `next_depth() + 1` steps.
    pub fn step(&mut self) -> Step {
        let k = self.next_depth;
        let aig = self.unroller.aig();
        let solver = self.solver.as_mut();
        for &c in &aig.constraints {
            let lit = self.unroller.encode(solver, c, k);
            solver.add_clause(&[lit]);
        }
        let bad = self.unroller.encode(solver, aig.bad[0], k);
        match solver.solve(&[bad]) {
            SolveResult::Sat => Step::Counterexample(self.unroller.trace(solver, k + 1)),
            SolveResult::Unsat => {
                solver.add_clause(&[!bad]);
                self.next_depth += 1;
                Step::Clear
            }
            SolveResult::Interrupted => Step::Interrupted,
        }
    }

    /// The solver's counters.
    pub fn sat_stats(&self) -> &crate::sat::SatStats {
        self.solver.stats()
    }
}

/// Runs BMC until a counterexample, the depth bound or the budget.
pub fn check(aig: &Aig, limits: &Limits) -> Outcome {
    if let Some(outcome) = super::sabotaged_outcome("bmc", limits.backend) {
        return outcome;
    }
    let start = Instant::now();
    let mut bmc = Bmc::new(aig, limits);
    let verdict = loop {
        if limits.max_depth.is_some_and(|m| bmc.next_depth() > m) {
            break Verdict::Unknown(format!(
                "no counterexample up to depth {}",
                bmc.next_depth() - 1
            ));
        }
        match bmc.step() {
            Step::Counterexample(trace) => break Verdict::Unsafe(trace),
            Step::Clear => {}
            Step::Interrupted => break Verdict::Unknown(interrupted_reason(&limits.budget)),
        }
    };
    let outcome = Outcome {
        verdict,
        engine: "bmc",
        backend: limits.backend,
        stats: Stats {
            depth: bmc.next_depth(),
            sat: bmc.sat_stats().clone(),
            time: start.elapsed(),
            ic3: None,
            abstraction: None,
            program: None,
        },
    };
    super::sabotage(aig, outcome)
}
