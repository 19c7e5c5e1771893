//! MiniSat 2.2 behind [`Solver`], through the `minisat` crate's C bindings.
//!
//! The crate's safe wrapper hides failed assumptions and resource limits, so
//! this backend drives the raw `minisat::sys` API: solving runs in slices of
//! a conflict budget and checks the [`Budget`] between slices.

use super::{Lit, SatStats, SolveResult, Solver};
use crate::util::budget::Budget;
use ::minisat::sys;
use std::collections::HashSet;
use std::time::Instant;

/// Conflicts per slice: small enough to notice a deadline within a second.
const CONFLICT_SLICE: i32 = 2000;

/// A MiniSat instance.
pub struct MinisatSolver {
    ptr: *mut sys::minisat_solver,
    vars: u32,
    conflict: HashSet<i32>,
    clause: Vec<sys::minisat_Lit>,
    stats: SatStats,
    budget: Budget,
}

// SAFETY: the solver is owned exclusively by this value and MiniSat keeps no
// thread-local state, so moving it to another thread is sound.
unsafe impl Send for MinisatSolver {}

impl MinisatSolver {
    /// A fresh solver bound to `budget`.
    pub fn new(budget: Budget) -> MinisatSolver {
        // SAFETY: plain constructor; `eliminate(.., true)` on the empty solver
        // turns variable elimination off, which incremental use requires.
        let ptr = unsafe {
            let ptr = sys::minisat_new();
            sys::minisat_eliminate(ptr, 1);
            ptr
        };
        MinisatSolver {
            ptr,
            vars: 0,
            conflict: HashSet::new(),
            clause: Vec::new(),
            stats: SatStats::default(),
            budget,
        }
    }

    fn to_minisat(lit: Lit) -> sys::minisat_Lit {
        ((lit.var() as i32 - 1) << 1) | lit.is_negative() as i32
    }
}

impl Drop for MinisatSolver {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from `minisat_new` and is freed once.
        unsafe { sys::minisat_delete(self.ptr) }
    }
}

impl Solver for MinisatSolver {
    fn new_var(&mut self) -> Lit {
        // SAFETY: valid solver pointer.
        unsafe { sys::minisat_newVar(self.ptr) };
        self.vars += 1;
        Lit::positive(self.vars)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.clause.clear();
        self.clause
            .extend(clause.iter().map(|&l| Self::to_minisat(l)));
        // SAFETY: valid pointer; the buffer outlives the call and every
        // literal's variable was created by `new_var`.
        unsafe {
            sys::minisat_addClause(self.ptr, self.clause.len() as i32, self.clause.as_mut_ptr());
        }
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        let start = Instant::now();
        let assumed: Vec<sys::minisat_Lit> =
            assumptions.iter().map(|&l| Self::to_minisat(l)).collect();
        // SAFETY: valid pointer; the l_* getters are pure.
        let (l_true, l_false) = unsafe { (sys::minisat_get_l_True(), sys::minisat_get_l_False()) };
        let answer = loop {
            if self.budget.expired() {
                break SolveResult::Interrupted;
            }
            // SAFETY: valid pointer; assumptions are copied by MiniSat.
            let result = unsafe {
                sys::minisat_set_conf_budget(self.ptr, CONFLICT_SLICE);
                sys::minisat_solve_begin(self.ptr);
                for &l in &assumed {
                    sys::minisat_solve_addLit(self.ptr, l);
                }
                sys::minisat_limited_solve_commit(self.ptr)
            };
            if result == l_true {
                break SolveResult::Sat;
            }
            if result == l_false {
                break SolveResult::Unsat;
            }
        };
        self.conflict.clear();
        if answer == SolveResult::Unsat {
            // SAFETY: valid pointer; indices are below conflict_len.
            unsafe {
                for i in 0..sys::minisat_conflict_len(self.ptr) {
                    self.conflict
                        .insert(sys::minisat_conflict_nthLit(self.ptr, i));
                }
            }
        }
        self.stats.calls += 1;
        match answer {
            SolveResult::Sat => self.stats.sat += 1,
            SolveResult::Unsat => self.stats.unsat += 1,
            SolveResult::Interrupted => {}
        }
        self.stats.time += start.elapsed();
        answer
    }

    fn value(&self, lit: Lit) -> bool {
        // SAFETY: valid pointer; the variable exists.
        let v = unsafe { sys::minisat_modelValue_Lit(self.ptr, Self::to_minisat(lit)) };
        v == unsafe { sys::minisat_get_l_True() }
    }

    fn failed(&self, lit: Lit) -> bool {
        // MiniSat's conflict is a clause over the negations of failed assumptions.
        self.conflict.contains(&Self::to_minisat(!lit))
    }

    fn stats(&self) -> &SatStats {
        &self.stats
    }

    fn name(&self) -> &'static str {
        "minisat"
    }
}
