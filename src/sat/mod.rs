//! The SAT layer: one small trait for incremental solving under assumptions,
//! with CaDiCaL and MiniSat behind it, and the Tseitin encoding of AIG cones.
//!
//! Literals are DIMACS-style non-zero integers ([`Lit`]), kept apart from the
//! AIG's literals by type; [`tseitin::Unroller`] is the only place that maps
//! one to the other.

mod cadical;
mod minisat;
pub mod tseitin;

use crate::util::budget::Budget;
use std::fmt;
use std::ops::Not;
use std::time::Duration;

/// A solver literal: `v` or `-v` for a variable `v >= 1`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(i32);

impl Lit {
    /// The positive literal of variable `var` (>= 1).
    pub fn positive(var: u32) -> Lit {
        debug_assert!(var >= 1 && var < i32::MAX as u32);
        Lit(var as i32)
    }
    /// The variable index.
    pub fn var(self) -> u32 {
        self.0.unsigned_abs()
    }
    /// Whether this is the negative literal.
    pub fn is_negative(self) -> bool {
        self.0 < 0
    }
    /// The DIMACS integer.
    pub fn dimacs(self) -> i32 {
        self.0
    }
    /// The literal negated if `flip` holds.
    pub fn xor(self, flip: bool) -> Lit {
        if flip {
            !self
        } else {
            self
        }
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(-self.0)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The answer of one solve call.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// A model exists; read it with [`Solver::value`].
    Sat,
    /// No model under the assumptions; see [`Solver::failed`].
    Unsat,
    /// The budget ran out first.
    Interrupted,
}

/// Counters kept by every backend.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SatStats {
    /// Solve calls.
    pub calls: u64,
    /// Calls answered SAT.
    pub sat: u64,
    /// Calls answered UNSAT.
    pub unsat: u64,
    /// Wall time spent inside solve calls.
    pub time: Duration,
}

impl std::ops::AddAssign<&SatStats> for SatStats {
    fn add_assign(&mut self, other: &SatStats) {
        self.calls += other.calls;
        self.sat += other.sat;
        self.unsat += other.unsat;
        self.time += other.time;
    }
}

/// Incremental SAT solving under assumptions.
pub trait Solver: Send {
    /// A fresh variable's positive literal.
    fn new_var(&mut self) -> Lit;
    /// Adds a clause permanently; the empty clause makes the solver UNSAT.
    fn add_clause(&mut self, clause: &[Lit]);
    /// Solves under `assumptions`, which hold for this call only.
    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult;
    /// The value of `lit` in the last model (after [`SolveResult::Sat`]).
    fn value(&self, lit: Lit) -> bool;
    /// Whether assumption `lit` was used to refute the last call (after
    /// [`SolveResult::Unsat`]).
    fn failed(&self, lit: Lit) -> bool;
    /// Counters so far.
    fn stats(&self) -> &SatStats;
    /// The backend's name.
    fn name(&self) -> &'static str;
}

/// The available SAT backends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// CaDiCaL 1.9 through the `cadical` crate.
    Cadical,
    /// MiniSat 2.2 through the `minisat` crate's C bindings.
    Minisat,
}

impl Backend {
    /// A new, empty solver that gives up when `budget` expires.
    pub fn create(self, budget: Budget) -> Box<dyn Solver> {
        match self {
            Backend::Cadical => Box::new(cadical::CadicalSolver::new(budget)),
            Backend::Minisat => Box::new(minisat::MinisatSolver::new(budget)),
        }
    }

    /// The other backend, for checking one solver's answer with another.
    pub fn other(self) -> Backend {
        match self {
            Backend::Cadical => Backend::Minisat,
            Backend::Minisat => Backend::Cadical,
        }
    }

    /// The backend's name.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cadical => "cadical",
            Backend::Minisat => "minisat",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pigeonhole(solver: &mut dyn Solver, holes: usize) {
        let pigeons = holes + 1;
        // in_hole[h][p]: pigeon p sits in hole h.
        let in_hole: Vec<Vec<Lit>> = (0..holes)
            .map(|_| (0..pigeons).map(|_| solver.new_var()).collect())
            .collect();
        for p in 0..pigeons {
            let somewhere: Vec<Lit> = in_hole.iter().map(|hole| hole[p]).collect();
            solver.add_clause(&somewhere);
        }
        for hole in &in_hole {
            for (p, &a) in hole.iter().enumerate() {
                for &b in &hole[p + 1..] {
                    solver.add_clause(&[!a, !b]);
                }
            }
        }
    }

    #[test]
    fn both_backends_solve_under_assumptions_and_report_failed() {
        for backend in [Backend::Cadical, Backend::Minisat] {
            let mut s = backend.create(Budget::unlimited());
            let a = s.new_var();
            let b = s.new_var();
            let c = s.new_var();
            s.add_clause(&[!a, b]);
            s.add_clause(&[!b, c]);
            assert_eq!(s.solve(&[a]), SolveResult::Sat, "{}", s.name());
            assert!(s.value(a) && s.value(b) && s.value(c));
            assert_eq!(s.solve(&[a, !c]), SolveResult::Unsat);
            assert!(s.failed(a) && s.failed(!c));
            let d = s.new_var();
            assert_eq!(s.solve(&[d, !c, a]), SolveResult::Unsat);
            assert!(
                !s.failed(d),
                "{}: d is not needed for the conflict",
                s.name()
            );
            assert_eq!(s.solve(&[]), SolveResult::Sat);
            assert_eq!(s.stats().calls, 4);
            s.add_clause(&[]);
            assert_eq!(s.solve(&[]), SolveResult::Unsat);
        }
    }

    #[test]
    fn both_backends_honour_an_expired_budget() {
        for backend in [Backend::Cadical, Backend::Minisat] {
            let budget = Budget::unlimited();
            let mut s = backend.create(budget.clone());
            pigeonhole(s.as_mut(), 12);
            budget.stop();
            assert_eq!(s.solve(&[]), SolveResult::Interrupted, "{}", s.name());
        }
    }
}
