//! Satisfiability modulo theories over `ir::term`: one solver trait
//! ([`SmtSolver`]) with invar's own solver behind it by default
//! (`inhouse.rs`: Bool, bit-vectors and small arrays by bit-blasting,
//! linear integer and real arithmetic by DPLL(T) with a simplex,
//! `arith.rs`, `simplex.rs`) and z3 or cvc5 processes on request
//! (`process.rs` over `solver.rs`); the word-level BMC and k-induction on
//! the trait (`kind.rs`, unrolling with `unfold.rs`); `invar smt`'s SMT-LIB
//! front end (`script.rs`).

pub mod arith;
pub mod arrays;
pub mod dump;
pub mod inhouse;
pub mod linear;
pub mod num;
pub mod process;
pub mod script;
pub mod simplex;
pub mod solver;
pub mod unfold;

use crate::ir::term::eval::Value;
use crate::ir::term::{Term, Terms};
use crate::util::budget::Budget;
use std::time::Duration;

/// Which solver answers the word level's queries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// invar's own solver (`inhouse.rs`), the default.
    Invar,
    /// A z3 process.
    Z3,
    /// A cvc5 process.
    Cvc5,
}

impl Backend {
    /// The backend's name, as `--smt` spells it and proofs record it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Invar => "invar",
            Backend::Z3 => "z3",
            Backend::Cvc5 => "cvc5",
        }
    }

    /// A fresh solver that gives up when `budget` expires; an external
    /// solver that is not installed is an error.
    pub fn start(self, budget: &Budget) -> Result<Box<dyn SmtSolver>, String> {
        let solver: Box<dyn SmtSolver> = match self {
            Backend::Invar => Box::new(inhouse::InvarSmt::new(budget.clone())),
            Backend::Z3 => Box::new(process::ProcessSmt::start(
                solver::SolverKind::Z3,
                budget.clone(),
            )?),
            Backend::Cvc5 => Box::new(process::ProcessSmt::start(
                solver::SolverKind::Cvc5,
                budget.clone(),
            )?),
        };
        Ok(match &crate::util::settings::get().dump_smt {
            Some(dir) => Box::new(dump::Dumping::new(solver, dir.clone())),
            None => solver,
        })
    }
}

/// The answer of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SmtResult {
    /// The assertions and assumptions have a model.
    Sat,
    /// They have none.
    Unsat,
    /// No answer, and why (an unsupported construct, the time limit).
    Unknown(String),
}

/// Counters of a solver.
#[derive(Clone, Debug, Default)]
pub struct SolverStats {
    /// Checks answered.
    pub checks: u64,
    /// SAT calls made for them.
    pub sat_calls: u64,
    /// Time in checks.
    pub time: Duration,
}

/// An incremental SMT solver over the terms of a [`Terms`] store (the
/// caller's, passed to every call; the store may grow between calls).
pub trait SmtSolver {
    /// The solver's name.
    fn name(&self) -> &'static str;
    /// Asserts the Bool term `t` in the current scope.
    fn assert(&mut self, terms: &Terms, t: Term);
    /// Opens a scope.
    fn push(&mut self);
    /// Closes the innermost scope, forgetting its assertions.
    fn pop(&mut self);
    /// Checks the assertions together with the Bool `assumptions`.
    fn check(&mut self, terms: &Terms, assumptions: &[Term]) -> SmtResult;
    /// The value of `t` in the model of the last check (which answered sat).
    fn value(&mut self, terms: &Terms, t: Term) -> Result<Value, String>;
    /// The assumptions of the last check (which answered unsat) that suffice
    /// for unsatisfiability.
    fn unsat_core(&self) -> Vec<Term>;
    /// Counters so far.
    fn stats(&self) -> SolverStats;
    /// The backend's own counters by name (SAT conflicts, theory conflicts,
    /// pivots...), for `-v`; none by default.
    fn counters(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
    /// Whether [`SmtSolver::value`] reads array values (the in-house
    /// solver's arrays over wide indices; a process's are not parsed).
    fn reads_arrays(&self) -> bool {
        false
    }
    /// Starts keeping the arithmetic conflicts of later checks with their
    /// Farkas multipliers (for interpolation); false if this solver cannot.
    fn keep_conflicts(&mut self) -> bool {
        false
    }
    /// The conflicts kept so far, each read back over terms.
    fn conflicts(&self) -> Vec<FarkasConflict> {
        Vec::new()
    }
}

/// A linear constraint over terms: `Σ c·t ≤ bound`, `<` if `strict`. The
/// terms are Int or Real variables or the arithmetic terms (`ite`, `div`,
/// `mod`, `abs`, `to_int`) the solver named by a fresh variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearBound {
    /// The summands, sorted by term, no zero coefficient.
    pub sum: Vec<(Term, num::Num)>,
    /// The constant.
    pub bound: num::Num,
    /// Strict comparison.
    pub strict: bool,
}

/// A theory conflict: constraints that, weighted by their non-negative
/// multipliers and summed, give a false constant comparison (Farkas).
#[derive(Clone, Debug)]
pub struct FarkasConflict {
    /// Each constraint with its multiplier.
    pub parts: Vec<(LinearBound, num::Num)>,
}
