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

use super::clause::{CRef, CREF_NONE, LEARNT, TEMPORARY};
use super::theory::TheoryOut;
use super::{Core, Value};
use crate::sat::{Lit, SolveResult};

/// What a theory round leads to.
enum Step {
    /// Nothing new: go on as without a theory.
    Done,
    /// New facts: propagate again.
    Continue,
    /// A conflict to analyze.
    Conflict(CRef),
    /// The search is over.
    End(SolveResult),
}

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
        if let Some(theory) = self.theory.as_mut() {
            self.theory_head = self.theory_head.min(start);
            theory.backtrack(level);
        }
    }

    /// Searches for a model of the clauses under `self.assumptions`.
    pub(super) fn search(&mut self) -> SolveResult {
        let mut since_restart = 0u64;
        let mut restarts = 0u32;
        let limit = self.conflict_limit.map(|l| self.stats.conflicts + l);
        let gates_from = (self.inputs_first).map(|c| self.stats.conflicts + c);
        loop {
            let mut conflict = self.propagate();
            if conflict == CREF_NONE && self.theory.is_some() {
                conflict = match self.theory_propagate() {
                    Step::Conflict(c) => c,
                    Step::Continue => continue,
                    Step::Done => CREF_NONE,
                    Step::End(result) => return result,
                };
            }
            if conflict != CREF_NONE {
                since_restart += 1;
                if let Some(result) = self.resolve_conflict(conflict) {
                    return result;
                }
                let out_of_conflicts = limit.is_some_and(|l| self.stats.conflicts >= l);
                if out_of_conflicts
                    || (self.stats.conflicts.is_multiple_of(BUDGET_POLL) && self.budget.expired())
                {
                    self.backtrack(0);
                    return SolveResult::Interrupted;
                }
                continue;
            }
            if self.inputs_only && gates_from.is_some_and(|c| self.stats.conflicts >= c) {
                self.backtrack(0);
                self.inputs_only = false;
                self.rebuild_heap();
            }
            if since_restart >= self.restarts.limit() {
                self.restarts.next();
                self.stats.restarts += 1;
                since_restart = 0;
                self.backtrack(0);
                restarts += 1;
                if restarts == super::decide::BUCKET_RESTARTS {
                    self.leave_buckets();
                }
            }
            if self.wants_reduce() {
                self.reduce();
            }
            let decision = match self.next_assumption() {
                Err(()) => return SolveResult::Unsat,
                Ok(Some(a)) => a,
                Ok(None) => match self.pick_branch() {
                    Some(l) => l,
                    None => {
                        // A final check can add a cut or a split each time
                        // without a decision or conflict between: the budget
                        // is seen at every one.
                        if self.theory.is_some() && self.budget.expired() {
                            self.backtrack(0);
                            return SolveResult::Interrupted;
                        }
                        match self.theory_final() {
                            Step::Done => return SolveResult::Sat,
                            Step::End(result) => return result,
                            Step::Continue | Step::Conflict(_) => continue,
                        }
                    }
                },
            };
            // Searches without conflicts (a theory's splits) see the budget too.
            if self.stats.decisions.is_multiple_of(4096) && self.budget.expired() {
                self.backtrack(0);
                return SolveResult::Interrupted;
            }
            self.new_level();
            self.assign(decision, CREF_NONE);
        }
    }

    /// Learns from `conflict` and backjumps; `Some` when the search ends.
    fn resolve_conflict(&mut self, conflict: CRef) -> Option<SolveResult> {
        self.stats.conflicts += 1;
        if self.decision_level() == 0 {
            self.ok = false;
            return Some(SolveResult::Unsat);
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
                return Some(SolveResult::Unsat);
            }
            self.assign(self.learnt[0], CREF_NONE);
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
        None
    }

    /// Hands the theory the literals assigned since its last call and
    /// carries out its answer.
    fn theory_propagate(&mut self) -> Step {
        let Some(theory) = self.theory.as_mut() else {
            return Step::Done;
        };
        let level = self.trail_lim.len();
        let mut out = std::mem::take(&mut self.theory_out);
        theory.propagate(&self.trail[self.theory_head..], level, &mut out);
        self.theory_head = self.trail.len();
        let step = self.apply_theory(&mut out);
        out.clear();
        self.theory_out = out;
        step
    }

    /// The theory's final check at a full assignment.
    fn theory_final(&mut self) -> Step {
        let Some(theory) = self.theory.as_mut() else {
            return Step::Done;
        };
        let mut out = std::mem::take(&mut self.theory_out);
        theory.final_check(&mut out);
        let step = self.apply_theory(&mut out);
        out.clear();
        self.theory_out = out;
        match step {
            Step::Conflict(c) => match self.resolve_conflict(c) {
                Some(result) => Step::End(result),
                None => Step::Continue,
            },
            other => other,
        }
    }

    /// Adds the theory's fresh variables, lemmas and implications.
    fn apply_theory(&mut self, out: &mut TheoryOut) -> Step {
        if out.is_empty() {
            return Step::Done;
        }
        if out.fresh > 0 {
            let vars: Vec<Lit> = (0..out.fresh).map(|_| self.grow_var()).collect();
            out.fresh = 0;
            self.theory.as_mut().expect("a theory").fresh(&vars, out);
        }
        for l in out.phases.drain(..) {
            self.phase[l.var() as usize] = !l.is_negative();
        }
        let mut clauses: Vec<Vec<Lit>> = std::mem::take(&mut out.lemmas);
        for (l, because) in out.implied.drain(..) {
            // An implication that already holds needs no clause; one with a
            // single reason is added once (measured: a 17-step BMC query
            // over the reals re-derived the same bound implications 1.9
            // million times, and the duplicate binary clauses made unit
            // propagation 55% of the run).
            if self.value(l) == Value::True {
                continue;
            }
            if let [b] = because[..] {
                if !self
                    .theory_binaries
                    .insert((l.code() as u32, b.code() as u32))
                {
                    continue;
                }
            }
            let mut c = vec![l];
            c.extend(because.iter().map(|&b| !b));
            clauses.push(c);
        }
        for clause in clauses {
            match self.add_theory_clause(clause) {
                Step::Done => {}
                other => return other,
            }
        }
        Step::Continue
    }

    /// Adds a T-valid clause in the middle of the search: a conflict if all
    /// its literals are false (after backjumping to the highest of their
    /// levels), a propagation if one is left, else just watched.
    fn add_theory_clause(&mut self, mut clause: Vec<Lit>) -> Step {
        clause.sort_unstable();
        clause.dedup();
        if clause.windows(2).any(|w| w[0] == !w[1]) {
            return Step::Done;
        }
        // Non-false literals first, then false ones from the highest level.
        let rank = |s: &Core, l: Lit| match s.value(l) {
            Value::True => (0, 0),
            Value::Unassigned => (1, 0),
            Value::False => (2, u32::MAX - s.level[l.var() as usize]),
        };
        clause.sort_by_key(|&l| rank(self, l));
        let open = clause
            .iter()
            .filter(|&&l| self.value(l) != Value::False)
            .count();
        if clause.len() == 1 {
            let l = clause[0];
            if self.value(l) == Value::True && self.level_of(l) == 0 {
                return Step::Done;
            }
            self.backtrack(0);
            if self.value(l) == Value::False {
                self.ok = false;
                return Step::End(SolveResult::Unsat);
            }
            if self.value(l) == Value::Unassigned {
                self.assign(l, CREF_NONE);
            }
            return Step::Continue;
        }
        if open == 0 {
            let top = self.level_of(clause[0]);
            self.backtrack(top);
            let c = self.db.alloc(&clause, LEARNT);
            self.attach(c);
            return Step::Conflict(c);
        }
        let c = self.db.alloc(&clause, LEARNT);
        self.attach(c);
        if open == 1 && self.value(clause[0]) == Value::Unassigned {
            self.assign(clause[0], c);
        }
        Step::Done
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
