//! invar's own CDCL SAT solver, made for IC3's thousands of small
//! incremental queries.
//!
//! A conventional MiniSat-style core (Eén and Sörensson, SAT 2003): a clause
//! arena (`clause.rs`), two watched literals with blockers and inline binary
//! clauses (`propagate.rs`), 1UIP learning with recursive minimization and
//! the final conflict over assumptions (`analyze.rs`), VSIDS with phase
//! saving (`decide.rs`), Luby restarts (`restart.rs`) and LBD-based
//! reduction (`reduce.rs`), in the loop of `search.rs`. Two things make it
//! an IC3 solver, after rIC3's GipSAT (Su et al., "Accelerate IC3 with
//! Efficient SAT Solving"):
//!
//! - **Domain restriction** (`domain.rs`): clauses added with
//!   [`Core::add_definition`] define gates; a query searches only the cone of
//!   its assumptions, its temporary clause and the other clauses, so its cost
//!   follows the cone of the cube asked about, not the circuit.
//! - **Temporary clauses** ([`Core::solve_with_temporary`]): the `¬cube` of a
//!   relative-induction query lives for one query and leaves with everything
//!   learnt from it, so no dead activation literal piles up and the solver
//!   never needs rebuilding; what was learnt without it stays.
//!
//! Between queries the solver sits at level 0 with complete propagation. A
//! model (or failed core) stays readable until the next call that changes
//! the solver.
//!
//! Limitations: no preprocessing or inprocessing (IC3's queries are too
//! small to pay for it), no chronological backtracking, Luby restarts only.

mod analyze;
mod clause;
mod decide;
mod domain;
mod lift;
mod propagate;
mod reduce;
mod restart;
mod search;
pub mod theory;
pub mod trace;

use super::{Lit, Roots, SatStats, SolveResult, Solver};
use crate::util::budget::Budget;
use clause::{CRef, ClauseDb, CREF_NONE, TEMPORARY};
use decide::{Buckets, Heap, Order};
use domain::Domain;
use propagate::Watch;
use restart::Restarts;
use std::io::Write;
use std::time::Instant;
use theory::{Theory, TheoryOut};

/// The value of a literal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Value {
    /// Not assigned.
    Unassigned,
    /// True.
    True,
    /// False.
    False,
}

/// Counters of the core, beyond the [`SatStats`] of every backend.
#[derive(Clone, Debug, Default)]
pub struct CoreStats {
    /// Solve calls and their answers and time.
    pub sat: SatStats,
    /// Conflicts.
    pub conflicts: u64,
    /// Decisions (assumptions not counted).
    pub decisions: u64,
    /// Literals propagated.
    pub propagations: u64,
    /// Restarts.
    pub restarts: u64,
    /// Learnt-clause reductions.
    pub reductions: u64,
    /// Literals in learnt clauses (after minimization).
    pub learnt_literals: u64,
    /// Literals removed by minimization.
    pub minimized_literals: u64,
    /// Queries restricted to a domain.
    pub restricted_queries: u64,
    /// Sum of the domain sizes of restricted queries.
    pub domain_vars: u64,
}

/// The solver.
pub struct Core {
    /// False once the clauses are unsatisfiable without assumptions.
    ok: bool,
    num_vars: u32,
    /// Per literal code.
    assigns: Vec<Value>,
    /// Per variable: decision level and reason of its assignment.
    level: Vec<u32>,
    reason: Vec<CRef>,
    trail: Vec<Lit>,
    trail_lim: Vec<usize>,
    qhead: usize,
    /// Per literal code: the clauses to visit when it becomes true.
    watches: Vec<Vec<Watch>>,
    dirty: Vec<bool>,
    dirty_lists: Vec<u32>,
    db: ClauseDb,
    /// VSIDS.
    activity: Vec<f64>,
    var_inc: f64,
    clause_inc: f32,
    heap: Heap,
    /// Whether the heap holds every unassigned variable (no restriction).
    heap_full: bool,
    /// Restricted queries' decision order, and the ranking it follows.
    buckets: Buckets,
    ranks: Heap,
    /// Where the current query decides from.
    order: Order,
    /// Restricted queries use the heap too (an ablation, `util::settings`).
    heap_only: bool,
    /// Decisions only on variables that are not gates (see
    /// [`Core::decide_inputs_only`]).
    inputs_only: bool,
    /// Under `inputs_only`, the conflicts a query may take before it
    /// decides gates too (`None`: never).
    inputs_first: Option<u64>,
    phase: Vec<bool>,
    /// Analysis scratch.
    seen: Vec<u8>,
    to_clear: Vec<Lit>,
    stack: Vec<Lit>,
    learnt: Vec<Lit>,
    level_seen: Vec<u32>,
    lbd_stamp: u32,
    domain: Domain,
    assumptions: Vec<Lit>,
    /// The failed assumptions of the last UNSAT answer, and their marks.
    failed: Vec<Lit>,
    failed_mark: Vec<u32>,
    failed_stamp: u32,
    /// The activation literal of temporary clauses (variable 1).
    temp_act: Lit,
    /// Where the API trace goes (`trace.rs`), if anywhere.
    trace: trace::TraceOut,
    /// The theory of DPLL(T), if any, and how much of the trail it has seen.
    theory: Option<Box<dyn Theory>>,
    theory_head: usize,
    theory_out: TheoryOut,
    /// Theory implications `b → l` already in the clause database as
    /// binary clauses (by literal codes): unit propagation repeats them, so
    /// the theory's later reports of the same implication add nothing.
    theory_binaries: std::collections::HashSet<(u32, u32)>,
    restarts: Restarts,
    /// Conflicts a query may take before it answers interrupted.
    conflict_limit: Option<u64>,
    next_reduce: u64,
    reductions: u64,
    budget: Budget,
    stats: CoreStats,
}

impl Core {
    /// An empty solver that gives up when `budget` expires.
    pub fn new(budget: Budget) -> Core {
        let mut core = Core {
            ok: true,
            num_vars: 0,
            assigns: vec![Value::Unassigned; 2],
            level: vec![0],
            reason: vec![CREF_NONE],
            trail: Vec::new(),
            trail_lim: Vec::new(),
            qhead: 0,
            watches: vec![Vec::new(), Vec::new()],
            dirty: vec![false; 2],
            dirty_lists: Vec::new(),
            db: ClauseDb::default(),
            activity: vec![0.0],
            var_inc: 1.0,
            clause_inc: 1.0,
            heap: Heap::default(),
            heap_full: true,
            buckets: Buckets::default(),
            ranks: Heap::default(),
            order: Order::Heap,
            heap_only: crate::util::settings::get().core_heap_only,
            inputs_only: false,
            inputs_first: None,
            phase: vec![false],
            seen: vec![0],
            to_clear: Vec::new(),
            stack: Vec::new(),
            learnt: Vec::new(),
            level_seen: vec![0],
            lbd_stamp: 0,
            domain: Domain::default(),
            assumptions: Vec::new(),
            failed: Vec::new(),
            failed_mark: vec![0; 2],
            failed_stamp: 1,
            temp_act: Lit::positive(1),
            trace: None,
            theory: None,
            theory_head: 0,
            theory_out: TheoryOut::default(),
            theory_binaries: Default::default(),
            restarts: Restarts::default(),
            conflict_limit: None,
            next_reduce: 2000,
            reductions: 0,
            budget,
            stats: CoreStats::default(),
        };
        core.heap.grow(0);
        core.ranks.grow(0);
        core.buckets.grow(0);
        core.domain.grow(0);
        // Allocated first, so that variable numbers are the same in a
        // traced run and its replay.
        let act = core.allocate_var();
        debug_assert_eq!(act, core.temp_act);
        core
    }

    /// A solver that writes its API trace to the folder `util::settings`
    /// names for traces, if any.
    pub fn traced_if_asked(budget: Budget) -> Core {
        let mut core = Core::new(budget);
        core.trace = trace::if_asked();
        core
    }

    fn log(&mut self, line: impl FnOnce() -> String) {
        if let Some(out) = self.trace.as_mut() {
            let _ = writeln!(out, "{}", line());
        }
    }

    /// The value of `l` in the current assignment.
    #[inline]
    pub fn value(&self, l: Lit) -> Value {
        self.assigns[l.code()]
    }

    #[inline]
    fn decision_level(&self) -> usize {
        self.trail_lim.len()
    }

    #[inline]
    fn assign(&mut self, l: Lit, reason: CRef) {
        debug_assert_eq!(self.value(l), Value::Unassigned);
        let v = l.var() as usize;
        self.assigns[l.code()] = Value::True;
        self.assigns[(!l).code()] = Value::False;
        self.level[v] = self.trail_lim.len() as u32;
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// A fresh variable's positive literal.
    pub fn new_var(&mut self) -> Lit {
        self.log(|| "v".into());
        self.allocate_var()
    }

    fn allocate_var(&mut self) -> Lit {
        self.finish_query();
        self.grow_var()
    }

    /// A fresh variable, at any level (the search may be under way).
    fn grow_var(&mut self) -> Lit {
        self.num_vars += 1;
        let v = self.num_vars;
        let lits = 2 * (v as usize + 1);
        self.assigns.resize(lits, Value::Unassigned);
        self.watches.resize_with(lits, Vec::new);
        self.dirty.resize(lits, false);
        self.failed_mark.resize(lits, 0);
        self.level.push(0);
        self.reason.push(CREF_NONE);
        self.activity.push(0.0);
        self.phase.push(false);
        self.seen.push(0);
        self.level_seen.push(0);
        self.heap.grow(v);
        self.ranks.grow(v);
        self.buckets.grow(v);
        self.domain.grow(v);
        if self.heap_full {
            self.heap.insert(v, &self.activity);
        } else if self.domain.restricts() {
            // Made during a restricted query (a theory's new atom): it
            // belongs to the query.
            self.domain.include(v);
            self.reinsert(v);
        }
        Lit::positive(v)
    }

    /// Ends the last query: back to level 0, temporary clauses removed.
    fn finish_query(&mut self) {
        self.backtrack(0);
        // A temporary clause whose other literals became false at level 0
        // (units learnt during the query) propagates ¬act there. Nothing else
        // follows from ¬act (every clause with act holds ¬act), so taking it
        // back restores level 0 as it is without the clause.
        let act = self.temp_act;
        if act.var() <= self.num_vars && self.value(act) != Value::Unassigned {
            let at = (self.trail.iter())
                .position(|l| l.var() == act.var())
                .expect("assigned at level 0");
            self.trail.remove(at);
            self.assigns[act.code()] = Value::Unassigned;
            self.assigns[(!act).code()] = Value::Unassigned;
            if at < self.qhead {
                self.qhead -= 1;
            }
            if at < self.theory_head {
                self.theory_head -= 1;
            }
        }
        if !self.db.temporary.is_empty() {
            for c in std::mem::take(&mut self.db.temporary) {
                self.db.delete(c);
                self.detach_lazily(c);
            }
        }
        self.clean_watches();
        if self.db.wants_collection() {
            self.collect_garbage();
        }
        self.domain.stop();
    }

    /// The clause without literals false at level 0, sorted and without
    /// duplicates; `None` if it is satisfied at level 0 or a tautology.
    fn simplified(&self, clause: &[Lit]) -> Option<Vec<Lit>> {
        let mut lits: Vec<Lit> = clause.to_vec();
        lits.sort_unstable();
        lits.dedup();
        if lits.windows(2).any(|w| w[0] == !w[1]) {
            return None;
        }
        let mut kept = Vec::with_capacity(lits.len());
        for l in lits {
            debug_assert!(l.var() >= 1 && l.var() <= self.num_vars, "unknown variable");
            match self.value(l) {
                Value::True => return None,
                Value::False => {}
                Value::Unassigned => kept.push(l),
            }
        }
        Some(kept)
    }

    /// Adds a permanent clause at level 0.
    fn add_permanent(&mut self, clause: &[Lit]) {
        self.finish_query();
        if !self.ok {
            return;
        }
        let Some(lits) = self.simplified(clause) else {
            return;
        };
        match lits.len() {
            0 => self.ok = false,
            1 => {
                self.assign(lits[0], CREF_NONE);
                if self.propagate() != CREF_NONE {
                    self.ok = false;
                }
            }
            _ => {
                let c = self.db.alloc(&lits, 0);
                self.attach(c);
            }
        }
    }

    /// Decide only variables that are not gates (no [`add_definition`]):
    /// a gate's value follows from its fanins' by propagation, so once
    /// every other variable is assigned, every gate is too. Only for
    /// clients whose definitions are total (Tseitin encodings of AND
    /// gates, as the SMT solver's bit-blasting makes: unit propagation fixes
    /// such a gate once its fanins are fixed).
    ///
    /// [`add_definition`]: Core::add_definition
    pub fn decide_inputs_only(&mut self, on: bool) {
        self.inputs_only = on;
        self.inputs_first = None;
    }

    /// Decide only inputs (as [`Core::decide_inputs_only`]) for the first
    /// `conflicts` conflicts of each query, then every variable: input-only
    /// branching answers some queries in a hundredth of the conflicts and
    /// takes exponentially many on others (see `smt::inhouse`). Lasts until
    /// the next call of either method.
    pub fn decide_inputs_first(&mut self, conflicts: u64) {
        self.inputs_only = true;
        self.inputs_first = Some(conflicts);
    }

    /// Adds a clause of the definition of gate `var`: the clause mentions
    /// `var` and its fanins only, and for every value of the fanins some
    /// value of `var` satisfies all of `var`'s defining clauses (Tseitin
    /// encodings do). See `domain.rs`.
    ///
    /// WARNING: definitions must be acyclic, and a gate must not appear in
    /// a clause given to [`Solver::add_clause`] before its definition: such
    /// a clause fixes the gate's cone as it stands then.
    pub fn add_definition(&mut self, var: u32, clause: &[Lit]) {
        self.log(|| format!("d {var} {}", trace::lits_text(clause)));
        self.finish_query();
        debug_assert!(clause.iter().any(|l| l.var() == var));
        self.domain
            .define(var, clause.iter().map(|l| l.var()).filter(|&v| v != var));
        self.add_permanent(clause);
    }

    /// Solves under `assumptions` with `clause` present for this query only
    /// (`None`: no temporary clause).
    pub fn solve_with_temporary(
        &mut self,
        assumptions: &[Lit],
        clause: Option<&[Lit]>,
        roots: Roots,
    ) -> SolveResult {
        let start = Instant::now();
        self.log(|| {
            let mode = if roots == Roots::Clause { 'c' } else { 'a' };
            let clause = clause.map_or("-".into(), trace::lits_text);
            format!("q {mode} {} ; {clause}", trace::lits_text(assumptions))
        });
        self.finish_query();
        self.failed.clear();
        let result = self.run_query(assumptions, clause, roots);
        // The next query starts on inputs again.
        self.inputs_only |= self.inputs_first.is_some();
        self.log(|| {
            format!(
                "r {}",
                match result {
                    SolveResult::Sat => "sat",
                    SolveResult::Unsat => "unsat",
                    SolveResult::Interrupted => "interrupted",
                }
            )
        });
        self.failed_stamp = self.failed_stamp.wrapping_add(1).max(1);
        for i in 0..self.failed.len() {
            let l = self.failed[i];
            self.failed_mark[l.code()] = self.failed_stamp;
        }
        let s = &mut self.stats.sat;
        s.calls += 1;
        match result {
            SolveResult::Sat => s.sat += 1,
            SolveResult::Unsat => s.unsat += 1,
            SolveResult::Interrupted => {}
        }
        s.time += start.elapsed();
        result
    }

    fn run_query(
        &mut self,
        assumptions: &[Lit],
        clause: Option<&[Lit]>,
        roots: Roots,
    ) -> SolveResult {
        if !self.ok {
            return SolveResult::Unsat;
        }
        if self.budget.expired() {
            return SolveResult::Interrupted;
        }
        self.assumptions.clear();
        let mut clause_vars: Vec<u32> = Vec::new();
        if let Some(clause) = clause {
            let Some(lits) = self.simplified(clause) else {
                return self.run_restricted(assumptions, &[], roots);
            };
            if lits.is_empty() {
                // False at level 0 whatever the assumptions.
                return SolveResult::Unsat;
            }
            let act = self.temp_act;
            let mut guarded = Vec::with_capacity(lits.len() + 1);
            guarded.push(!act);
            guarded.extend_from_slice(&lits);
            let c = self.db.alloc(&guarded, TEMPORARY);
            self.attach(c);
            self.assumptions.push(act);
            clause_vars.extend(guarded.iter().map(|l| l.var()));
        }
        self.run_restricted(assumptions, &clause_vars, roots)
    }

    fn run_restricted(
        &mut self,
        assumptions: &[Lit],
        clause_vars: &[u32],
        roots: Roots,
    ) -> SolveResult {
        if self.domain.has_gates() {
            let from_assumptions = (roots == Roots::Assumptions)
                .then(|| assumptions.iter().map(|l| l.var()))
                .into_iter()
                .flatten();
            self.domain
                .start(clause_vars.iter().copied().chain(from_assumptions));
            let domain = &self.domain;
            self.assumptions
                .extend(assumptions.iter().filter(|l| domain.has(l.var())));
            self.stats.restricted_queries += 1;
            self.stats.domain_vars += self.domain.vars().len() as u64;
            self.heap_full = false;
            self.order = Order::Unfilled;
        } else {
            self.assumptions.extend_from_slice(assumptions);
            if !self.heap_full {
                self.rebuild_heap();
                self.heap_full = true;
            }
            self.order = Order::Heap;
        }
        self.search()
    }

    /// Attaches the theory of DPLL(T); it sees every assignment from now on
    /// (level-0 facts included).
    pub fn set_theory(&mut self, theory: Box<dyn Theory>) {
        self.finish_query();
        self.theory = Some(theory);
        self.theory_head = 0;
    }

    /// The attached theory (to read its model after SAT).
    pub fn theory(&self) -> Option<&dyn Theory> {
        self.theory.as_deref()
    }

    /// The attached theory, mutably.
    pub fn theory_mut(&mut self) -> Option<&mut (dyn Theory + 'static)> {
        self.theory.as_deref_mut()
    }

    /// Limits each later query to `limit` conflicts (then it answers
    /// interrupted); `None` lifts the limit.
    pub fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.conflict_limit = limit;
    }

    /// Makes the cone of `roots` (with the fixed part) the domain of the
    /// queries that follow, until [`Core::unpin_domain`]; each of them adds
    /// its own roots' cones.
    pub fn pin_domain(&mut self, roots: &[Lit]) {
        self.log(|| format!("p {}", trace::lits_text(roots)));
        self.finish_query();
        self.domain.pin(roots.iter().map(|l| l.var()));
    }

    /// Ends [`Core::pin_domain`].
    pub fn unpin_domain(&mut self) {
        self.log(|| "u".into());
        self.domain.unpin();
    }

    /// Whether assumption `l` is in the failed core of the last UNSAT answer.
    pub fn failed(&self, l: Lit) -> bool {
        self.failed_mark[l.code()] == self.failed_stamp
    }

    /// The value of `l` in the last model: variables outside the last
    /// query's domain have none and read as false.
    pub fn model_value(&self, l: Lit) -> bool {
        self.value(l) == Value::True
    }

    /// The core's counters.
    pub fn core_stats(&self) -> &CoreStats {
        &self.stats
    }

    /// Number of variables.
    pub fn num_vars(&self) -> u32 {
        self.num_vars
    }

    /// Compacts the clause arena (at level 0).
    fn collect_garbage(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        // Level-0 reasons are never looked at again.
        for i in 0..self.trail.len() {
            self.reason[self.trail[i].var() as usize] = CREF_NONE;
        }
        let remap = self.db.collect();
        for list in self.watches.iter_mut() {
            list.retain_mut(|w| {
                let to = remap(w.cref());
                *w = w.moved(to);
                to != CREF_NONE
            });
        }
    }
}

impl Solver for Core {
    fn new_var(&mut self) -> Lit {
        Core::new_var(self)
    }

    fn add_clause(&mut self, clause: &[Lit]) {
        self.log(|| format!("c {}", trace::lits_text(clause)));
        self.finish_query();
        self.domain.fix(clause.iter().map(|l| l.var()));
        self.add_permanent(clause);
    }

    fn add_definition(&mut self, var: u32, clause: &[Lit]) {
        Core::add_definition(self, var, clause);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        self.solve_with_temporary(assumptions, None, Roots::Assumptions)
    }

    fn solve_with_temporary(
        &mut self,
        assumptions: &[Lit],
        clause: &[Lit],
        roots: Roots,
    ) -> Option<SolveResult> {
        Some(Core::solve_with_temporary(
            self,
            assumptions,
            Some(clause),
            roots,
        ))
    }

    fn set_conflict_limit(&mut self, limit: Option<u64>) {
        Core::set_conflict_limit(self, limit);
    }

    fn pin_domain(&mut self, roots: &[Lit]) {
        Core::pin_domain(self, roots);
    }

    fn unpin_domain(&mut self) {
        Core::unpin_domain(self);
    }

    fn value(&self, lit: Lit) -> bool {
        self.model_value(lit)
    }

    fn try_unassign(&mut self, lit: Lit) -> bool {
        Core::try_unassign(self, lit)
    }

    fn failed(&self, lit: Lit) -> bool {
        Core::failed(self, lit)
    }

    fn stats(&self) -> &SatStats {
        &self.stats.sat
    }

    fn name(&self) -> &'static str {
        "core"
    }
}
