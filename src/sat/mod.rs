//! The SAT layer: one small trait for incremental solving under assumptions,
//! with CaDiCaL and MiniSat behind it, and the Tseitin encoding of AIG cones.
//!
//! Literals are DIMACS-style non-zero integers ([`Lit`]), kept apart from the
//! AIG's literals by type; [`tseitin::Unroller`] is the only place that maps
//! one to the other.

mod cadical;
pub mod core;
#[cfg(feature = "minisat")]
mod minisat;
pub mod proof;
pub mod tseitin;

use crate::util::budget::Budget;
use std::fmt;
use std::ops::Not;
use std::time::Duration;

/// A solver literal over a variable `v >= 1`, stored as `2v + sign` so that it
/// indexes per-literal arrays directly (the core's watch lists and values).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// The positive literal of variable `var` (>= 1).
    #[inline]
    pub fn positive(var: u32) -> Lit {
        debug_assert!(var >= 1 && var < i32::MAX as u32);
        Lit(var << 1)
    }
    /// The literal of a DIMACS integer (non-zero).
    #[inline]
    pub fn from_dimacs(d: i32) -> Lit {
        debug_assert!(d != 0);
        Lit(d.unsigned_abs() << 1 | (d < 0) as u32)
    }
    /// The literal with code `2v + sign`.
    #[inline]
    pub fn from_code(code: u32) -> Lit {
        Lit(code)
    }
    /// The variable index.
    #[inline]
    pub fn var(self) -> u32 {
        self.0 >> 1
    }
    /// Whether this is the negative literal.
    #[inline]
    pub fn is_negative(self) -> bool {
        self.0 & 1 == 1
    }
    /// The code `2v + sign`, an index into per-literal arrays.
    #[inline]
    pub fn code(self) -> usize {
        self.0 as usize
    }
    /// The DIMACS integer.
    #[inline]
    pub fn dimacs(self) -> i32 {
        let v = self.var() as i32;
        if self.is_negative() {
            -v
        } else {
            v
        }
    }
    /// The literal negated if `flip` holds.
    #[inline]
    pub fn xor(self, flip: bool) -> Lit {
        Lit(self.0 ^ flip as u32)
    }
}

impl Not for Lit {
    type Output = Lit;
    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.dimacs())
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

/// Which variables root a query's domain, for backends that restrict each
/// query to a cone (the core's domain restriction; see `core/domain.rs`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Roots {
    /// The assumptions and the temporary clause (a satisfiability question
    /// about the assumptions).
    Assumptions,
    /// The temporary clause only: assumptions outside its cone are left out
    /// of the search as irrelevant and never part of the core (lifting, where
    /// a full state is assumed and the core over the target's cone is wanted).
    Clause,
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
    /// Adds a clause of the definition of gate `var` (a Tseitin clause over
    /// `var` and its fanins). Backends that restrict queries to cones use it
    /// (WARNING: definitions must be acyclic); others add a plain clause.
    fn add_definition(&mut self, _var: u32, clause: &[Lit]) {
        self.add_clause(clause);
    }
    /// Solves under `assumptions` with `clause` present for this call only,
    /// if the backend can remove a clause (and what it learnt from it)
    /// afterwards; `None` if it cannot, and the caller must guard the clause
    /// with an activation literal instead.
    fn solve_with_temporary(
        &mut self,
        _assumptions: &[Lit],
        _clause: &[Lit],
        _roots: Roots,
    ) -> Option<SolveResult> {
        None
    }
    /// Makes the cone of `roots` the domain of the queries that follow
    /// (each still adds its own roots); a hint, ignored by backends without
    /// domains.
    fn pin_domain(&mut self, _roots: &[Lit]) {}
    /// Ends [`Solver::pin_domain`].
    fn unpin_domain(&mut self) {}
    /// After a SAT answer: drops `lit` (true in the model) from the model
    /// if the rest of it seems to satisfy every clause without it, so that
    /// the remaining assignment is a cube of models (a candidate: see
    /// `core/lift.rs`); returns whether it did. Backends without it keep
    /// every value.
    fn try_unassign(&mut self, _lit: Lit) -> bool {
        false
    }
    /// Limits each later solve call to `limit` conflicts, after which it
    /// answers [`SolveResult::Interrupted`] (the caller tells this from a
    /// spent budget by asking the budget); `None` lifts the limit. Backends
    /// without conflict limits ignore it and search on.
    fn set_conflict_limit(&mut self, _limit: Option<u64>) {}
    /// The backend's name.
    fn name(&self) -> &'static str;
}

/// The available SAT backends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// invar's own CDCL core, with domain restriction and temporary clauses.
    Core,
    /// CaDiCaL 1.9 through the `cadical` crate.
    Cadical,
    /// MiniSat 2.2 through the `minisat` crate's C bindings (cargo feature
    /// `minisat`: its bindings need libclang at build time).
    #[cfg(feature = "minisat")]
    Minisat,
}

impl Backend {
    /// Every backend compiled in.
    pub const ALL: &'static [Backend] = &[
        Backend::Core,
        Backend::Cadical,
        #[cfg(feature = "minisat")]
        Backend::Minisat,
    ];

    /// A new, empty solver that gives up when `budget` expires.
    pub fn create(self, budget: Budget) -> Box<dyn Solver> {
        match self {
            Backend::Core => Box::new(core::Core::traced_if_asked(budget)),
            Backend::Cadical => Box::new(cadical::CadicalSolver::new(budget)),
            #[cfg(feature = "minisat")]
            Backend::Minisat => Box::new(minisat::MinisatSolver::new(budget)),
        }
    }

    /// A new solver for many small queries, each after a few clauses more
    /// that reach into what earlier queries saw (a lazily encoded check,
    /// one query per conjunct). CaDiCaL then runs without inprocessing: its
    /// variable elimination between calls removes variables that later
    /// clauses mention, and bringing one back restores the eliminated
    /// clauses in a pass over all of them, at every call. Measured on the
    /// per-conjunct check of signal correspondence's invariant, `cal226`
    /// (330,000 gates): 97 s with inprocessing, 12 s without, three
    /// quarters of the 97 s in `restore_clauses` and the garbage collection
    /// that follows it. BMC's deep queries want inprocessing (depth 24
    /// against 21 in 30 s on a data-integrity circuit), so `create` keeps it.
    pub fn create_incremental(self, budget: Budget) -> Box<dyn Solver> {
        match self {
            Backend::Cadical => Box::new(cadical::CadicalSolver::plain(budget)),
            other => other.create(budget),
        }
    }

    /// Another backend, for checking one solver's answer with a different
    /// code base: the core and CaDiCaL check each other; MiniSat's answers
    /// are checked by CaDiCaL.
    pub fn other(self) -> Backend {
        match self {
            Backend::Core => Backend::Cadical,
            Backend::Cadical => Backend::Core,
            #[cfg(feature = "minisat")]
            Backend::Minisat => Backend::Cadical,
        }
    }

    /// The backend's name.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Core => "core",
            Backend::Cadical => "cadical",
            #[cfg(feature = "minisat")]
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
    fn every_backend_solves_under_assumptions_and_reports_failed() {
        for &backend in Backend::ALL {
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
    fn every_backend_honours_an_expired_budget() {
        for &backend in Backend::ALL {
            let budget = Budget::unlimited();
            let mut s = backend.create(budget.clone());
            pigeonhole(s.as_mut(), 12);
            budget.stop();
            assert_eq!(s.solve(&[]), SolveResult::Interrupted, "{}", s.name());
        }
    }

    /// BMC widens its question when one runs out of conflicts; the limit
    /// must hold for each call and go when lifted.
    #[test]
    fn the_core_and_cadical_honour_a_conflict_limit_per_call() {
        for backend in [Backend::Core, Backend::Cadical] {
            let mut s = backend.create(Budget::unlimited());
            // 7 pigeons in 6 holes need thousands of conflicts.
            pigeonhole(s.as_mut(), 6);
            s.set_conflict_limit(Some(10));
            assert_eq!(s.solve(&[]), SolveResult::Interrupted, "{}", s.name());
            assert_eq!(s.solve(&[]), SolveResult::Interrupted, "{}", s.name());
            s.set_conflict_limit(None);
            assert_eq!(s.solve(&[]), SolveResult::Unsat, "{}", s.name());
        }
    }
}
