//! CaDiCaL behind [`Solver`], with the budget polled through its terminate hook.

use super::{Lit, SatStats, SolveResult, Solver};
use crate::util::budget::Budget;
use std::time::Instant;

/// Polls the budget for CaDiCaL's terminate callback.
struct BudgetHook(Budget);

impl ::cadical::Callbacks for BudgetHook {
    fn terminate(&mut self) -> bool {
        self.0.expired()
    }
}

/// A CaDiCaL instance.
pub struct CadicalSolver {
    solver: ::cadical::Solver<BudgetHook>,
    vars: u32,
    stats: SatStats,
    budget: Budget,
    conflict_limit: Option<u64>,
}

impl CadicalSolver {
    /// A fresh solver bound to `budget`.
    pub fn new(budget: Budget) -> CadicalSolver {
        CadicalSolver::bound(::cadical::Solver::new(), budget)
    }

    /// A fresh solver without preprocessing or inprocessing (CaDiCaL's
    /// `plain` configuration), bound to `budget`.
    pub fn plain(budget: Budget) -> CadicalSolver {
        let solver =
            ::cadical::Solver::with_config("plain").expect("CaDiCaL knows its plain configuration");
        CadicalSolver::bound(solver, budget)
    }

    fn bound(mut solver: ::cadical::Solver<BudgetHook>, budget: Budget) -> CadicalSolver {
        solver.set_callbacks(Some(BudgetHook(budget.clone())));
        CadicalSolver {
            solver,
            vars: 0,
            stats: SatStats::default(),
            budget,
            conflict_limit: None,
        }
    }
}

impl Solver for CadicalSolver {
    fn new_var(&mut self) -> Lit {
        self.vars += 1;
        Lit::positive(self.vars)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.solver.add_clause(clause.iter().map(|l| l.dimacs()));
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        if self.budget.expired() {
            return SolveResult::Interrupted;
        }
        if let Some(limit) = self.conflict_limit {
            // CaDiCaL's limits hold for the next call only.
            let limit = i32::try_from(limit).unwrap_or(i32::MAX);
            self.solver
                .set_limit("conflicts", limit)
                .expect("CaDiCaL knows the conflicts limit");
        }
        let start = Instant::now();
        let answer = self
            .solver
            .solve_with(assumptions.iter().map(|l| l.dimacs()));
        self.stats.calls += 1;
        self.stats.time += start.elapsed();
        match answer {
            Some(true) => {
                self.stats.sat += 1;
                SolveResult::Sat
            }
            Some(false) => {
                self.stats.unsat += 1;
                SolveResult::Unsat
            }
            None => SolveResult::Interrupted,
        }
    }

    fn value(&self, lit: Lit) -> bool {
        // Variables CaDiCaL never saw are unconstrained; any value is a model.
        self.solver.value(lit.dimacs()).unwrap_or(false)
    }

    fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.conflict_limit = limit;
    }

    fn failed(&self, lit: Lit) -> bool {
        self.solver.failed(lit.dimacs())
    }

    fn stats(&self) -> &SatStats {
        &self.stats
    }

    fn name(&self) -> &'static str {
        "cadical"
    }
}
