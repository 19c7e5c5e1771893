//! The CDCL loop: propagate, analyze and learn on conflict, otherwise take
//! the next assumption or decision (Eén and Sörensson, "An Extensible
//! SAT-solver", SAT 2003). Assumptions are the first decisions, one level
//! each; an assumption found false ends the search with the failed core.
//!
//! The temporary clause of a query carries `¬act`, where `act` is always
//! the first assumption (level 1). A clause learnt through the temporary
//! clause therefore contains `¬act` (a decision is never resolved away, and
//! minimization keeps decisions), is marked temporary and leaves with it.
//! The one case that would assert at level 0, the unit `¬act`, means the
//! query is unsatisfiable and ends it instead.

use super::clause::{LEARNT, TEMPORARY};
use super::{Core, Value};
use crate::sat::{Lit, SolveResult};

/// Conflicts between two looks at the budget.
const BUDGET_POLL: u64 = 64;

impl Core {
    /// Opens a new decision level.
    #[inline]
    pub(super) fn new_level(&mut self) {
        self.trail_lim.push(self.trail.len());
    }

    /// Undoes every assignment above `level`, saving phases.
    pub(super) fn backtrack(&mut self, level: usize) {
        if self.trail_lim.len() <= level {
            return;
        }
        let start = self.trail_lim[level];
        for i in (start..self.trail.len()).rev() {
            let l = self.trail[i];
            let v = l.var();
            self.assigns[l.code()] = Value::Unassigned;
            self.assigns[(!l).code()] = Value::Unassigned;
            self.phase[v as usize] = !l.is_negative();
            self.reinsert(v);
        }
        self.trail.truncate(start);
        self.trail_lim.truncate(level);
        self.qhead = start;
    }

    /// Searches for a model of the clauses under `self.assumptions`.
    pub(super) fn search(&mut self) -> SolveResult {
        let mut since_restart = 0u64;
        let limit = self.conflict_limit.map(|l| self.stats.conflicts + l);
        loop {
            let conflict = self.propagate();
            if conflict != super::clause::CREF_NONE {
                self.stats.conflicts += 1;
                since_restart += 1;
                if self.decision_level() == 0 {
                    self.ok = false;
                    return SolveResult::Unsat;
                }
                let learnt = self.analyze(conflict);
                let act = self.temp_act.var();
                let temporary = self.learnt.iter().any(|l| l.var() == act);
                self.stats.learnt_literals += self.learnt.len() as u64;
                if self.learnt.len() == 1 {
                    self.backtrack(0);
                    if temporary {
                        // `¬act`: the temporary clause cannot hold with the rest.
                        self.failed.clear();
                        self.failed.push(self.temp_act);
                        return SolveResult::Unsat;
                    }
                    self.assign(self.learnt[0], super::clause::CREF_NONE);
                } else {
                    self.backtrack(learnt.backtrack);
                    let flags = LEARNT | if temporary { TEMPORARY } else { 0 };
                    let c = self.db.alloc(&self.learnt, flags);
                    self.db.set_lbd(c, learnt.lbd);
                    self.attach(c);
                    self.bump_clause(c);
                    self.assign(self.learnt[0], c);
                }
                self.decay_activities();
                let out_of_conflicts = limit.is_some_and(|l| self.stats.conflicts >= l);
                if out_of_conflicts
                    || (self.stats.conflicts.is_multiple_of(BUDGET_POLL) && self.budget.expired())
                {
                    self.backtrack(0);
                    return SolveResult::Interrupted;
                }
                continue;
            }
            if since_restart >= self.restarts.limit() {
                self.restarts.next();
                self.stats.restarts += 1;
                since_restart = 0;
                self.backtrack(0);
            }
            if self.wants_reduce() {
                self.reduce();
            }
            let decision = match self.next_assumption() {
                Err(()) => return SolveResult::Unsat,
                Ok(Some(a)) => a,
                Ok(None) => match self.pick_branch() {
                    Some(l) => l,
                    None => return SolveResult::Sat,
                },
            };
            self.new_level();
            self.assign(decision, super::clause::CREF_NONE);
        }
    }

    /// The next assumption to decide, opening empty levels for assumptions
    /// that already hold; `Err` (with the core in `failed`) if one is false.
    fn next_assumption(&mut self) -> Result<Option<Lit>, ()> {
        while self.decision_level() < self.assumptions.len() {
            let a = self.assumptions[self.decision_level()];
            match self.value(a) {
                Value::True => self.new_level(),
                Value::False => {
                    self.analyze_final(a);
                    return Err(());
                }
                Value::Unassigned => return Ok(Some(a)),
            }
        }
        Ok(None)
    }
}
