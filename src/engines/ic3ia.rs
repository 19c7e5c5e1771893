//! IC3 with implicit predicate abstraction (IC3+IA): the word-level IC3, as
//! a domain of the one IC3 core (`engines::ic3`).
//!
//! Cimatti, Griggio, Mover, Tonetta, "IC3 Modulo Theories via Implicit
//! Predicate Abstraction", TACAS 2014. The atoms of cubes are predicates
//! (Bool terms over the current state); frames are clauses over them, and
//! every query goes to the SMT layer ([`SmtSolver`]) with the concrete
//! transition relation. The abstract relative-induction query
//! F(X) ∧ ¬c(X) ∧ EQ(X,X̄) ∧ T(X̄,X̄') ∧ EQ(X̄',X') ∧ c(X') needs no copies
//! here: F and c mention only predicates, and a predicate valuation met by
//! some state is met by that state itself, so the query equals
//! F(X) ∧ ¬c(X) ∧ T(X,X') ∧ c(X'). What makes it an abstraction is what
//! the core carries between queries: a predecessor is the valuation of
//! every predicate in the model (no concrete state), so a chain of
//! obligations is an abstract path, which may not be a path of the system.
//!
//! - **Solvers.** One incremental solver holds T (with the constraints of
//!   the current step) once, under an activation variable that step
//!   queries assume (a bad state of a relational T may have no successor);
//!   Init and each level's lemmas sit under activation variables too, and
//!   a query on F_k assumes those of levels k and up and of the infinite
//!   frame. The temporary ¬c(X) lives in a
//!   push/pop scope; the solver is rebuilt after many scopes, since the
//!   in-house solver keeps a closed scope's clauses (disabled).
//! - **Counterexamples.** A chain reaching Init is checked by BMC along
//!   its cubes on a fresh solver; a model is a real trace (replayed later
//!   by the pipeline on the model as read).
//! - **Refinement** of a spurious chain keeps every frame (predicates are
//!   only added). Initial predicates: the atoms of Init and of the bad
//!   terms and VMT `:predicate`s. Each refinement first adds the predicates
//!   of the refutation's Farkas conflicts: the BMC check along the chain
//!   keeps the simplex's conflicts with their multipliers, and at each cut
//!   between steps the prefix side of a conflict, summed, is the partial
//!   interpolant of that theory lemma (McMillan, "An interpolating theorem
//!   prover", TCS 2005: the atoms of a DPLL(T) interpolant are the shared
//!   atoms and these sums), a linear predicate over one step's states.
//!   The first refinement also adds the atoms of the transition relation
//!   and the constraints that mention current states only, and those over
//!   primed states only, unprimed; each refinement adds the weakest
//!   preconditions of the predicates through the updates of T (BTOR2's
//!   next functions; every `x' = e` of a VMT transition, one per program
//!   edge, in up to 8 combinations per predicate, an `ite` chain over edges
//!   counting one update per leaf), again kept where they mention current
//!   states only. When that finds nothing new, every bit of every
//!   bit-vector state becomes a predicate (the abstraction is then exact
//!   there, as bit-level IC3 is). A chain that no new predicate can refine
//!   ends the run with `unknown` and that reason.
//! - **Minimisation.** The candidates are labelled, and the chain is posed
//!   as an abstract path: a copy of the state on each side of each step,
//!   the copies agreeing on the old predicates and, under its label, on
//!   each candidate. The labels of an unsat core are the predicates added;
//!   the others wait in a pool for later refinements. (Interpolant
//!   predicates come from every conflict of the refutation, not only those
//!   its proof uses: no proof is kept, so this is where the excess goes.)
//!
//! Limitations, by significance: the GCD test's conflicts give no
//! interpolant predicates (no multipliers); predicates with inputs in them
//! are dropped; no lifting of abstract predecessors.

use crate::engines::ic3::{
    Consecution, Counterexample, Cube, Domain, Found, Frames, Ic3, Ic3Options, Ic3Stats,
    Interrupted, Model, StateLit, Step, Target, Want,
};
use crate::engines::{InvariantVerdict, Limits};
use crate::ir::term::eval::Value;
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::ts::{Ts, WordTrace};
use crate::smt::num::Num;
use crate::smt::unfold::Unfolding;
use crate::smt::{self, SmtResult, SmtSolver};
use crate::util::budget::Budget;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Push/pop scopes a solver may close before it is rebuilt.
const REBUILD_AFTER: usize = 1000;

/// Counters of a run.
#[derive(Clone, Debug, Default)]
pub struct IaStats {
    /// The core's counters.
    pub ic3: Ic3Stats,
    /// Predicates at the end.
    pub predicates: usize,
    /// Spurious counterexamples refined away.
    pub refinements: u64,
    /// SMT checks over all solvers.
    pub checks: u64,
    /// Time in SMT checks.
    pub smt_time: Duration,
}

/// The predicate domain of one system.
pub struct Predicates {
    u: Unfolding,
    watched: Vec<usize>,
    backend: smt::Backend,
    budget: Budget,
    /// Predicates over the system's current-state variables.
    preds: Vec<Term>,
    known: HashSet<Term>,
    /// Each predicate at step 0 (X) and step 1 (X').
    cur: Vec<Term>,
    next: Vec<Term>,
    solver: Box<dyn SmtSolver>,
    init_solver: Box<dyn SmtSolver>,
    init_cache: HashMap<Cube, bool>,
    trans: Term,
    init: Term,
    /// Constraints and bad at step 0.
    bad: Term,
    /// Activation variable of T: bad states need no successor (a
    /// relational T may have none), so only step queries assume it.
    step: Term,
    /// Activation variable of each level (level 0: Init) and of the infinite frame.
    levels: Vec<Term>,
    infinite: Term,
    /// The state variables, and the next-state term of those whose next
    /// value is a function of the current step.
    state_vars: HashSet<Term>,
    updates: HashMap<Term, Vec<Term>>,
    /// Each primed variable's current-state variable.
    unprime: HashMap<Term, Term>,
    scopes: usize,
    refinements: u64,
    /// Checks and time of solvers already dropped.
    retired: (u64, Duration),
    /// Why a query gave up other than by the budget.
    gave_up: Option<String>,
    /// Predicates read from the Farkas conflicts of the last spurious
    /// chain's refutation, for the next refinement.
    interpolants: Vec<Term>,
    /// The refinement's switches.
    options: IaOptions,
    /// Candidates a refinement did not need, offered again to the next.
    pool: Vec<Term>,
}

fn lit_term(terms: &mut Terms, atoms: &[Term], l: StateLit) -> Term {
    let a = atoms[l.latch()];
    if l.value() {
        a
    } else {
        terms.not(a)
    }
}

/// The clause ¬cube, each atom i being `atoms[i]`.
fn negation(terms: &mut Terms, atoms: &[Term], cube: &Cube) -> Term {
    let negated: Vec<Term> = (cube.lits().iter())
        .map(|&l| lit_term(terms, atoms, StateLit::new(l.latch(), !l.value())))
        .collect();
    terms.or_all(&negated)
}

/// The switches of IC3+IA's refinement (ablations for measurement).
#[derive(Clone, Copy, Debug)]
pub struct IaOptions {
    /// Refinement reads predicates from the Farkas conflicts of the
    /// spurious chain's refutation.
    pub farkas: bool,
    /// Refinement keeps only the candidates an unsat core needs.
    pub minimise: bool,
}

impl Default for IaOptions {
    fn default() -> Self {
        IaOptions {
            farkas: true,
            minimise: true,
        }
    }
}

impl Predicates {
    /// The domain of the bad properties `watched` of `ts`, its solvers
    /// started on `backend`.
    pub fn new(
        ts: &Ts,
        watched: &[usize],
        backend: smt::Backend,
        budget: &Budget,
        options: IaOptions,
    ) -> Result<Predicates, String> {
        let mut u = Unfolding::new(ts);
        let init = u.init();
        let trans = u.trans(0);
        let bad = u.bad(watched, 0);
        let constraints = u.constraints(0);
        let bad = u.terms_mut().and_all(&[constraints, bad]);
        let step = u.fresh_bool("ic3ia@step");
        let system = u.ts();
        let state_vars: HashSet<Term> = system.states.iter().map(|s| s.var).collect();
        let unprime: HashMap<Term, Term> = (system.states.iter())
            .filter_map(|s| s.next_var.map(|p| (p, s.var)))
            .collect();
        let updates = updates(system, &unprime);
        let mut initial: Vec<Term> = system.predicates.clone();
        let mut roots: Vec<Term> = system.init.clone();
        roots.extend(system.states.iter().filter_map(|s| s.init));
        roots.extend(watched.iter().map(|&p| system.bad[p].term));
        initial.extend(atoms(&system.terms, &roots));
        let levels = vec![u.fresh_bool("ic3ia@level0"), u.fresh_bool("ic3ia@level1")];
        let infinite = u.fresh_bool("ic3ia@infinite");
        let solver = backend.start(budget)?;
        let mut init_solver = backend.start(budget)?;
        init_solver.assert(u.terms(), init);
        let mut domain = Predicates {
            u,
            watched: watched.to_vec(),
            backend,
            budget: budget.clone(),
            preds: Vec::new(),
            known: HashSet::new(),
            cur: Vec::new(),
            next: Vec::new(),
            solver,
            init_solver,
            init_cache: HashMap::new(),
            trans,
            init,
            bad,
            step,
            levels,
            infinite,
            state_vars,
            updates,
            unprime,
            scopes: 0,
            refinements: 0,
            retired: (0, Duration::ZERO),
            gave_up: None,
            interpolants: Vec::new(),
            options,
            pool: Vec::new(),
        };
        domain.add_predicates(initial);
        domain.load(&Frames::new());
        Ok(domain)
    }

    /// The predicates so far.
    pub fn predicates(&self) -> &[Term] {
        &self.preds
    }

    /// Adds the predicates among `candidates` that are new and mention
    /// current states only; returns how many were added.
    fn add_predicates(&mut self, candidates: Vec<Term>) -> usize {
        let mut added = 0;
        for p in candidates {
            if self.known.contains(&p) || !self.over_current_states(p) {
                continue;
            }
            self.known.insert(p);
            let at = self.u.at(&[p], 0)[0];
            let primed = self.u.at(&[p], 1)[0];
            self.preds.push(p);
            self.cur.push(at);
            self.next.push(primed);
            added += 1;
        }
        added
    }

    /// Whether `t` is a Bool term over current-state variables (at least one).
    fn over_current_states(&self, t: Term) -> bool {
        let terms = self.u.terms();
        if *terms.sort(t) != Sort::Bool {
            return false;
        }
        let mut any = false;
        for v in terms.topological(&[t]) {
            if let Op::Var(..) = terms.op(v) {
                if !self.state_vars.contains(&v) {
                    return false;
                }
                any = true;
            }
        }
        any
    }

    /// A fresh solver with T, Init and every lemma of `frames` under their
    /// activation variables.
    fn load(&mut self, frames: &Frames) {
        let fresh = match self.backend.start(&self.budget) {
            Ok(s) => s,
            // The backend started before; keep the old solver if it cannot now.
            Err(e) => {
                self.gave_up = Some(e);
                return;
            }
        };
        let old = std::mem::replace(&mut self.solver, fresh);
        let s = old.stats();
        self.retired.0 += s.checks;
        self.retired.1 += s.time;
        self.scopes = 0;
        let off = self.u.terms_mut().not(self.step);
        let trans = self.u.terms_mut().or_all(&[off, self.trans]);
        self.solver.assert(self.u.terms(), trans);
        let guard = self.u.terms_mut().not(self.levels[0]);
        let init = self.u.terms_mut().or_all(&[guard, self.init]);
        self.solver.assert(self.u.terms(), init);
        for level in 1..=frames.top() {
            for cube in frames.at(level) {
                self.assert_lemma(cube, self.levels[level]);
            }
        }
        for cube in frames.infinite() {
            self.assert_lemma(cube, self.infinite);
        }
    }

    /// The clause ¬cube over the current state.
    fn clause(&mut self, cube: &Cube) -> Term {
        negation(self.u.terms_mut(), &self.cur, cube)
    }

    fn assert_lemma(&mut self, cube: &Cube, act: Term) {
        let clause = self.clause(cube);
        let off = self.u.terms_mut().not(act);
        let guarded = self.u.terms_mut().or_all(&[off, clause]);
        self.solver.assert(self.u.terms(), guarded);
    }

    /// The activation variables of frame F_level.
    fn frame(&self, level: usize) -> Vec<Term> {
        if level == 0 {
            return vec![self.levels[0]];
        }
        let mut acts = self.levels[level..].to_vec();
        acts.push(self.infinite);
        acts
    }

    /// Maps an answer to sat/unsat; an unknown one ends the run.
    fn answer(&mut self, result: SmtResult) -> Result<bool, Interrupted> {
        match result {
            SmtResult::Sat => Ok(true),
            SmtResult::Unsat => Ok(false),
            SmtResult::Unknown(why) => {
                if !self.budget.expired() {
                    self.gave_up = Some(why);
                }
                Err(Interrupted)
            }
        }
    }

    fn ask(&mut self, assumptions: &[Term]) -> Result<bool, Interrupted> {
        let result = self.solver.check(self.u.terms(), assumptions);
        self.answer(result)
    }

    fn bool_value(&mut self, t: Term) -> Result<bool, Interrupted> {
        match self.solver.value(self.u.terms(), t) {
            Ok(Value::Bool(b)) => Ok(b),
            Ok(other) => {
                self.gave_up = Some(format!("a predicate has the non-Boolean value {other:?}"));
                Err(Interrupted)
            }
            Err(e) => {
                self.gave_up = Some(e);
                Err(Interrupted)
            }
        }
    }

    /// The valuation of every predicate in the last model.
    fn valuation(&mut self) -> Result<Vec<bool>, Interrupted> {
        (0..self.cur.len())
            .map(|i| self.bool_value(self.cur[i]))
            .collect()
    }

    /// The cube's literals over the current state.
    fn current_lits(&mut self, cube: &Cube) -> Vec<Term> {
        (cube.lits().iter())
            .map(|&l| lit_term(self.u.terms_mut(), &self.cur, l))
            .collect()
    }

    /// The literals of `cube` that Init needs to exclude it (an unsat core
    /// of Init ∧ cube); all of them if the solver cannot tell.
    fn init_core(&mut self, cube: &Cube) -> Result<Vec<StateLit>, Interrupted> {
        let lits = self.current_lits(cube);
        let result = self.init_solver.check(self.u.terms(), &lits);
        if self.answer(result)? {
            return Ok(cube.lits().to_vec());
        }
        let core: HashSet<Term> = self.init_solver.unsat_core().into_iter().collect();
        Ok((cube.lits().iter().zip(&lits))
            .filter(|(_, t)| core.contains(t))
            .map(|(&l, _)| l)
            .collect())
    }

    /// New predicates against a spurious chain; how many.
    fn refine(&mut self, chain: &[Step]) -> usize {
        self.refinements += 1;
        let mut candidates = std::mem::take(&mut self.interpolants);
        candidates.append(&mut self.pool);
        if self.refinements == 1 {
            // The atoms of T: those over current states as they are, those
            // over primed states only as the same condition one step on.
            let system = self.u.ts();
            let mut roots = system.trans.clone();
            roots.extend(&system.constraints);
            roots.extend(system.states.iter().filter_map(|s| s.next));
            let found = atoms(&system.terms, &roots);
            let unprimed = self.u.terms_mut().substitute(&found, &self.unprime);
            candidates.extend(found);
            candidates.extend(unprimed);
        }
        // Weakest preconditions through each combination of the updates
        // of the predicate's variables (one combination per edge of T, at
        // most WP_VARIANTS per predicate).
        const WP_VARIANTS: usize = 8;
        for p in self.preds.clone() {
            let vars: Vec<Term> = (self.u.terms().topological(&[p]).into_iter())
                .filter(|v| self.updates.contains_key(v))
                .collect();
            let mut maps: Vec<HashMap<Term, Term>> = vec![HashMap::new()];
            for v in vars {
                let mut more = Vec::new();
                for m in &maps {
                    for &e in &self.updates[&v] {
                        if more.len() >= WP_VARIANTS {
                            break;
                        }
                        let mut m = m.clone();
                        m.insert(v, e);
                        more.push(m);
                    }
                }
                maps = more;
            }
            for m in maps.iter().filter(|m| !m.is_empty()) {
                let image = self.u.terms_mut().substitute(&[p], m)[0];
                candidates.extend(atoms(self.u.terms(), &[image]));
            }
        }
        let needed = self.needed(chain, candidates);
        self.add_predicates(needed)
    }

    /// The candidates that the abstract chain's refutation needs: the
    /// chain is an abstract path over the predicates so far, and it stays
    /// one over a larger set unless some step's post-state and the next
    /// pre-state cannot agree on every predicate. So the chain is posed
    /// with a copy of the state on each side of each abstract step, the
    /// copies joined by equal values of the old predicates and, under one
    /// label each, of the candidates; the labels of an unsat core are the
    /// candidates kept. All of them when that does not refute the chain.
    fn needed(&mut self, chain: &[Step], candidates: Vec<Term>) -> Vec<Term> {
        let mut seen = HashSet::new();
        let fresh: Vec<Term> = (candidates.into_iter())
            .filter(|&p| !self.known.contains(&p) && self.over_current_states(p) && seen.insert(p))
            .collect();
        let n = chain.len();
        if fresh.len() <= 1 || n < 2 || !self.options.minimise {
            return fresh;
        }
        let Ok(mut solver) = self.backend.start(&self.budget) else {
            return fresh;
        };
        let path = self.chain_path(chain, true);
        solver.assert(self.u.terms(), path);
        // The copy of step k (k ≥ 1) that T reaches in `chain_path`.
        let copy = |k: usize| n - 1 + k;
        let mut labels = Vec::with_capacity(fresh.len());
        for (j, &p) in fresh.iter().enumerate() {
            let label = self
                .u
                .fresh_bool(&format!("ic3ia@r{}p{j}", self.refinements));
            let mut agree = Vec::new();
            for k in 1..n {
                let a = self.u.at(&[p], copy(k))[0];
                let b = self.u.at(&[p], k)[0];
                agree.push(self.u.terms_mut().eq(a, b));
            }
            let agree = self.u.terms_mut().and_all(&agree);
            let off = self.u.terms_mut().not(label);
            let guarded = self.u.terms_mut().or_all(&[off, agree]);
            solver.assert(self.u.terms(), guarded);
            labels.push(label);
        }
        let result = solver.check(self.u.terms(), &labels);
        let stats = solver.stats();
        self.retired.0 += stats.checks;
        self.retired.1 += stats.time;
        if result != SmtResult::Unsat {
            return fresh;
        }
        let core: HashSet<Term> = solver.unsat_core().into_iter().collect();
        let mut kept = Vec::new();
        let mut unused = Vec::new();
        for (&p, l) in fresh.iter().zip(&labels) {
            if core.contains(l) {
                kept.push(p);
            } else {
                unused.push(p);
            }
        }
        if kept.is_empty() {
            return fresh;
        }
        self.pool.extend(unused);
        kept
    }

    /// The last resort on bit-vectors: every bit of every bit-vector state
    /// as a predicate (the abstraction is then exact on those states, as
    /// bit-level IC3 is). Returns how many were new.
    fn bit_predicates(&mut self) -> usize {
        let states: Vec<Term> = self.u.ts().states.iter().map(|s| s.var).collect();
        let mut bits = Vec::new();
        for v in states {
            let Sort::BitVec(w) = *self.u.terms().sort(v) else {
                continue;
            };
            for i in 0..w {
                let terms = self.u.terms_mut();
                let bit = terms.mk(Op::Extract(i, i), &[v]);
                let one = terms.bv(crate::ir::bv::BvValue::from_u64(1, 1));
                bits.push(terms.eq(bit, one));
            }
        }
        self.add_predicates(bits)
    }

    /// The chain as a path formula: Init, each step's cube over step k's
    /// states, and the bad states at the last step. Joined by T from step k
    /// to step k + 1 (a concrete path); or, if `abstract_steps`, by T from
    /// step k to a copy of step k + 1 (step n + k) that agrees with step
    /// k + 1 on every predicate (a path of the abstraction).
    fn chain_path(&mut self, chain: &[Step], abstract_steps: bool) -> Term {
        let n = chain.len();
        let preds = self.preds.clone();
        let mut parts = vec![self.u.init()];
        for (k, step) in chain.iter().enumerate() {
            let at = self.u.at(&preds, k);
            for &l in step.cube.lits() {
                parts.push(lit_term(self.u.terms_mut(), &at, l));
            }
            if k + 1 == n {
                break;
            }
            if abstract_steps {
                let copy = n + k;
                parts.push(self.u.trans_to(k, copy));
                let after = self.u.at(&preds, copy);
                let before = self.u.at(&preds, k + 1);
                for (a, b) in after.into_iter().zip(before) {
                    parts.push(self.u.terms_mut().eq(a, b));
                }
            } else {
                parts.push(self.u.trans(k));
            }
        }
        parts.push(self.u.constraints(n - 1));
        parts.push(self.u.bad(&self.watched, n - 1));
        self.u.terms_mut().and_all(&parts)
    }

    /// Concrete BMC along the chain's cubes: the trace, if there is one.
    fn simulate(&mut self, chain: &[Step]) -> Result<Option<WordTrace>, Interrupted> {
        let mut bmc = match self.backend.start(&self.budget) {
            Ok(s) => s,
            Err(e) => {
                self.gave_up = Some(e);
                return Err(Interrupted);
            }
        };
        let n = chain.len();
        let path = self.chain_path(chain, false);
        bmc.assert(self.u.terms(), path);
        let farkas = self.options.farkas && bmc.keep_conflicts();
        let result = bmc.check(self.u.terms(), &[]);
        let stats = bmc.stats();
        self.retired.0 += stats.checks;
        self.retired.1 += stats.time;
        if !self.answer(result)? {
            if farkas {
                self.interpolants = self.interpolant_predicates(&bmc.conflicts(), n);
            }
            return Ok(None);
        }
        match smt::unfold::read_trace(bmc.as_mut(), &mut self.u, n) {
            Ok(trace) => Ok(Some(trace)),
            Err(e) => {
                self.gave_up = Some(e);
                Err(Interrupted)
            }
        }
    }

    /// Predicates from the Farkas conflicts of the refutation of a spurious
    /// chain of `n` steps: at each cut between step `i` and what follows,
    /// the conflict's constraints on the prefix side, summed with their
    /// multipliers, make the partial interpolant of that theory lemma (as
    /// in McMillan's interpolating proofs, where the atoms of the
    /// interpolant are the shared atoms and these sums); every variable
    /// not of step `i` cancels in it. Constraints over step `i` alone may
    /// go to either side, so both sums are kept.
    fn interpolant_predicates(&mut self, conflicts: &[smt::FarkasConflict], n: usize) -> Vec<Term> {
        // Position of each variable of the path: state of step k at 2k,
        // input of step k at 2k + 1.
        let mut position: HashMap<Term, usize> = HashMap::new();
        let mut current: Vec<HashMap<Term, Term>> = vec![HashMap::new(); n];
        let states: Vec<Term> = self.u.ts().states.iter().map(|s| s.var).collect();
        let inputs = self.u.ts().inputs.len();
        for (k, back) in current.iter_mut().enumerate() {
            for (i, &var) in states.iter().enumerate() {
                let at = self.u.state(i, k);
                position.insert(at, 2 * k);
                back.insert(at, var);
            }
            for j in 0..inputs {
                position.insert(self.u.input(j, k), 2 * k + 1);
            }
        }
        let mut found = Vec::new();
        let mut seen = HashSet::new();
        for conflict in conflicts {
            // The span of positions of each constraint.
            let spans: Option<Vec<(usize, usize)>> = (conflict.parts.iter())
                .map(|(bound, _)| {
                    let leaves: Vec<Term> = bound.sum.iter().map(|(t, _)| *t).collect();
                    let mut span: Option<(usize, usize)> = None;
                    for v in self.u.terms().topological(&leaves) {
                        if let Op::Var(..) = self.u.terms().op(v) {
                            let p = *position.get(&v)?;
                            span = Some(span.map_or((p, p), |(a, b)| (a.min(p), b.max(p))));
                        }
                    }
                    span
                })
                .collect();
            let Some(spans) = spans else {
                continue;
            };
            for (cut, back) in current.iter().enumerate() {
                let p = 2 * cut;
                let mut prefix = Vec::new();
                let mut shared = Vec::new();
                let mut straddles = false;
                for (k, &(lo, hi)) in spans.iter().enumerate() {
                    if lo < p && hi > p {
                        straddles = true;
                    } else if hi < p || (lo < p && hi == p) {
                        prefix.push(k);
                    } else if lo == p && hi == p {
                        shared.push(k);
                    }
                }
                if straddles {
                    continue;
                }
                let with_shared: Vec<usize> = prefix.iter().chain(&shared).copied().collect();
                for side in [prefix, with_shared] {
                    if side.is_empty() {
                        continue;
                    }
                    let Some(sum) = farkas_sum(conflict, &side) else {
                        continue;
                    };
                    if sum.sum.iter().any(|(t, _)| !self.at_step(*t, &position, p)) {
                        continue;
                    }
                    let Some(pred) = linear_predicate(self.u.terms_mut(), &sum) else {
                        continue;
                    };
                    let pred = self.u.terms_mut().substitute(&[pred], back)[0];
                    if seen.insert(pred) {
                        found.push(pred);
                    }
                }
            }
        }
        found
    }

    /// Whether every variable of `t` sits at position `p`.
    fn at_step(&self, t: Term, position: &HashMap<Term, usize>, p: usize) -> bool {
        let terms = self.u.terms();
        terms
            .topological(&[t])
            .into_iter()
            .all(|v| !matches!(terms.op(v), Op::Var(..)) || position.get(&v) == Some(&p))
    }

    /// The invariant ∧ ¬cube over the system's variables.
    fn invariant(&mut self, cubes: &[Cube]) -> Term {
        let terms = self.u.terms_mut();
        let clauses: Vec<Term> = (cubes.iter())
            .map(|c| negation(terms, &self.preds, c))
            .collect();
        terms.and_all(&clauses)
    }

    fn checks(&self) -> (u64, Duration) {
        let (a, b) = (self.solver.stats(), self.init_solver.stats());
        (
            self.retired.0 + a.checks + b.checks,
            self.retired.1 + a.time + b.time,
        )
    }
}

impl Domain for Predicates {
    type Trace = WordTrace;

    fn atoms(&self) -> usize {
        self.preds.len()
    }

    fn intersects_init(&mut self, cube: &Cube) -> Result<bool, Interrupted> {
        if let Some(&known) = self.init_cache.get(cube) {
            return Ok(known);
        }
        let lits = self.current_lits(cube);
        let result = self.init_solver.check(self.u.terms(), &lits);
        let meets = self.answer(result)?;
        self.init_cache.insert(cube.clone(), meets);
        Ok(meets)
    }

    fn bad_state(
        &mut self,
        level: usize,
        _activity: &[f64],
    ) -> Result<Option<(Cube, Vec<bool>)>, Interrupted> {
        let mut assumptions = self.frame(level);
        assumptions.push(self.bad);
        if !self.ask(&assumptions)? {
            return Ok(None);
        }
        let values = self.valuation()?;
        Ok(Some((Cube::from_values(&values), Vec::new())))
    }

    fn relative_induction(
        &mut self,
        cube: &Cube,
        level: usize,
        want: Want,
        activity: &[f64],
        frames: &Frames,
    ) -> Result<Consecution, Interrupted> {
        let order = cube.by_activity(activity);
        let primed: Vec<Term> = (order.iter())
            .map(|&l| lit_term(self.u.terms_mut(), &self.next, l))
            .collect();
        let clause = self.clause(cube);
        self.solver.push();
        self.solver.assert(self.u.terms(), clause);
        let mut assumptions = primed.clone();
        assumptions.extend(self.frame(level - 1));
        assumptions.push(self.step);
        let answer = match self.ask(&assumptions) {
            Err(e) => Err(e),
            Ok(true) => {
                let mut model = Model {
                    state: Vec::new(),
                    inputs: Vec::new(),
                    needed: Vec::new(),
                    next: Vec::new(),
                };
                let mut read = || -> Result<(), Interrupted> {
                    for &l in want.next {
                        let v = self.bool_value(self.next[l.latch()])?;
                        model.next.push(StateLit::new(l.latch(), v));
                    }
                    if want.model {
                        model.state = self.valuation()?;
                        model.needed = vec![true; model.state.len()];
                    }
                    Ok(())
                };
                read().map(|()| Consecution::Predecessor(model))
            }
            Ok(false) => {
                let core: HashSet<Term> = self.solver.unsat_core().into_iter().collect();
                let kept: Vec<StateLit> = (order.iter().zip(&primed))
                    .filter(|(_, t)| core.contains(t))
                    .map(|(&l, _)| l)
                    .collect();
                Ok(Consecution::Inductive(Cube::new(kept)))
            }
        };
        self.solver.pop();
        self.scopes += 1;
        let answer = match answer? {
            Consecution::Inductive(core) if self.intersects_init(&core)? => {
                // Add back what Init needs to exclude the cube.
                let mut lits = core.lits().to_vec();
                for l in self.init_core(cube)? {
                    if !core.has_latch(l.latch()) {
                        lits.push(l);
                    }
                }
                Consecution::Inductive(Cube::new(lits))
            }
            other => other,
        };
        if self.scopes > REBUILD_AFTER {
            self.load(frames);
        }
        Ok(answer)
    }

    /// An abstract predecessor is its whole valuation: there is no
    /// concrete state to lift.
    fn lift(
        &mut self,
        model: &Model,
        _target: Target,
        _activity: &[f64],
        _thorough: bool,
    ) -> Result<Cube, Interrupted> {
        Ok(Cube::from_values(&model.state))
    }

    fn add_lemma(&mut self, cube: &Cube, level: usize) {
        let act = self.levels[level];
        self.assert_lemma(cube, act);
    }

    fn add_level(&mut self, level: usize, _frames: &Frames) {
        while self.levels.len() <= level {
            let name = format!("ic3ia@level{}", self.levels.len());
            let act = self.u.fresh_bool(&name);
            self.levels.push(act);
        }
    }

    fn add_infinite(&mut self, cubes: &[Cube]) {
        for cube in cubes {
            self.assert_lemma(cube, self.infinite);
        }
    }

    fn closed_under_step(
        &mut self,
        _infinite: &[Cube],
        candidates: &[Cube],
    ) -> Result<Vec<bool>, Interrupted> {
        self.solver.push();
        for cube in candidates {
            let clause = self.clause(cube);
            self.solver.assert(self.u.terms(), clause);
        }
        let mut closed = Vec::with_capacity(candidates.len());
        let mut result = Ok(());
        for cube in candidates {
            let mut assumptions: Vec<Term> = (cube.lits().iter())
                .map(|&l| lit_term(self.u.terms_mut(), &self.next, l))
                .collect();
            assumptions.extend([self.infinite, self.step]);
            match self.ask(&assumptions) {
                Ok(steps_into) => closed.push(!steps_into),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.solver.pop();
        self.scopes += 1;
        result.map(|()| closed)
    }

    fn counterexample(&mut self, chain: &[Step]) -> Result<Counterexample<WordTrace>, Interrupted> {
        if let Some(trace) = self.simulate(chain)? {
            return Ok(Counterexample::Real(trace));
        }
        if self.refine(chain) == 0 && self.bit_predicates() == 0 {
            self.gave_up = Some(format!(
                "IC3+IA: a spurious abstract counterexample of {} steps, and no new predicate to refine it",
                chain.len()
            ));
            return Err(Interrupted);
        }
        Ok(Counterexample::Spurious)
    }

    fn add_stats(&self, stats: &mut Ic3Stats) {
        let (checks, time) = self.checks();
        stats.sat.calls += checks;
        stats.sat.time += time;
    }
}

/// The sum of the constraints `parts` of `conflict`, weighted by their
/// multipliers: `Σ c·t ≤ bound` (`<` if strict), zero terms dropped.
fn farkas_sum(conflict: &smt::FarkasConflict, parts: &[usize]) -> Option<smt::LinearBound> {
    let mut sum: HashMap<Term, Num> = HashMap::new();
    let mut bound = Num::ZERO;
    let mut strict = false;
    for &k in parts {
        let (c, lambda) = &conflict.parts[k];
        if lambda.signum() < 0 {
            return None;
        }
        for (t, a) in &c.sum {
            let e = sum.entry(*t).or_insert(Num::ZERO);
            *e = &*e + &(a * lambda);
        }
        bound = &bound + &(&c.bound * lambda);
        strict |= c.strict;
    }
    let mut sum: Vec<(Term, Num)> = sum.into_iter().filter(|(_, c)| !c.is_zero()).collect();
    sum.sort_by_key(|(t, _)| *t);
    Some(smt::LinearBound { sum, bound, strict })
}

/// The predicate `Σ c·t ≤ bound` (`<` if strict) as a term, in a canonical
/// form so that the same half-space found twice is one predicate: the
/// first coefficient positive (a negated sum gives the complement's
/// predicate, `Σ ≥ b` being `¬(Σ < b)`), integral and coprime over the
/// integers, where `<` becomes `≤`. `None` for a constant comparison or
/// numbers too large for a term.
fn linear_predicate(terms: &mut Terms, c: &smt::LinearBound) -> Option<Term> {
    use crate::ir::term::Rational;
    let (sum, bound, strict) = (&c.sum, &c.bound, c.strict);
    let first = sum.first()?;
    let flip = first.1.signum() < 0;
    let sign = if flip { -&Num::ONE } else { Num::ONE };
    let mut coeffs: Vec<Num> = sum.iter().map(|(_, c)| c * &sign).collect();
    let mut b = bound * &sign;
    // Flipped: Σ' ≥ b' (or >), whose complement is Σ' < b' (or ≤).
    let mut strict = if flip { !strict } else { strict };
    let int = sum.iter().all(|(t, _)| *terms.sort(*t) == Sort::Int);
    if int {
        use num_integer::Integer;
        let lcm = (coeffs.iter()).fold(num_bigint::BigInt::from(1), |m, c| m.lcm(&c.denominator()));
        coeffs = coeffs.iter().map(|c| c.scale(&lcm)).collect();
        b = b.scale(&lcm);
        let gcd = (coeffs.iter()).fold(num_bigint::BigInt::from(0), |g, c| {
            g.gcd(&c.to_bigint().unwrap_or_default())
        });
        if gcd > num_bigint::BigInt::from(1) {
            let inv = &Num::ONE / &Num::from_bigint(gcd);
            coeffs = coeffs.iter().map(|c| c * &inv).collect();
            b = &b * &inv;
        }
        // Σ < b ⇔ Σ ≤ ⌈b⌉ − 1; Σ ≤ b ⇔ Σ ≤ ⌊b⌋.
        b = if strict {
            &b.ceil() - &Num::ONE
        } else {
            b.floor()
        };
        strict = false;
    }
    let sort = if int { Sort::Int } else { Sort::Real };
    let number = |terms: &mut Terms, n: &Num| -> Option<Term> {
        let r: Rational = n.to_rational()?;
        Some(terms.mk(Op::Num(r, sort.clone()), &[]))
    };
    let mut summands = Vec::new();
    for ((t, _), c) in sum.iter().zip(&coeffs) {
        let t = if !int && *terms.sort(*t) == Sort::Int {
            terms.mk(Op::ToReal, &[*t])
        } else {
            *t
        };
        summands.push(if *c == Num::ONE {
            t
        } else {
            let k = number(terms, c)?;
            terms.mk(Op::Mul, &[k, t])
        });
    }
    let lhs = if summands.len() == 1 {
        summands[0]
    } else {
        terms.mk(Op::Add, &summands)
    };
    let rhs = number(terms, &b)?;
    Some(terms.mk(if strict { Op::Lt } else { Op::Le }, &[lhs, rhs]))
}

/// The next values each state may take (`primed` maps each primed
/// variable to its state): BTOR2's next function, or every
/// `e` of an equation `x' = e` (`e` without primed variables) anywhere in a
/// relational transition (typically one per edge of a program).
fn updates(ts: &Ts, primed: &HashMap<Term, Term>) -> HashMap<Term, Vec<Term>> {
    let mut map: HashMap<Term, Vec<Term>> = HashMap::new();
    for s in &ts.states {
        if let Some(n) = s.next {
            map.entry(s.var).or_default().push(n);
        }
    }
    for t in ts.terms.topological(&ts.trans) {
        if *ts.terms.op(t) != Op::Eq {
            continue;
        }
        let (a, b) = (ts.terms.args(t)[0], ts.terms.args(t)[1]);
        for (x, e) in [(a, b), (b, a)] {
            let Some(&var) = primed.get(&x) else { continue };
            let unprimed = (ts.terms.topological(&[e]).iter()).all(|v| !primed.contains_key(v));
            if !unprimed {
                continue;
            }
            // An `ite` chain over the edges is one update per leaf.
            let known = map.entry(var).or_default();
            let mut leaves = vec![e];
            while let Some(l) = leaves.pop() {
                if *ts.terms.op(l) == Op::Ite {
                    leaves.extend(&ts.terms.args(l)[1..]);
                } else if !known.contains(&l) {
                    known.push(l);
                }
            }
        }
    }
    map
}

/// The atoms of `roots`: Bool-sorted subterms that are not Boolean
/// connectives (comparisons, equalities of non-Bool terms, Bool variables),
/// found under connectives and inside non-Bool terms (`ite` conditions).
pub fn atoms(terms: &Terms, roots: &[Term]) -> Vec<Term> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<Term> = roots.to_vec();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let args = terms.args(t);
        let bool_args = args.first().is_some_and(|&a| *terms.sort(a) == Sort::Bool);
        let connective = match terms.op(t) {
            Op::Not | Op::And | Op::Or | Op::Xor | Op::Implies => true,
            Op::Ite => *terms.sort(t) == Sort::Bool,
            Op::Eq | Op::Distinct => bool_args,
            Op::Bool(_) => continue,
            _ => false,
        };
        if !connective && *terms.sort(t) == Sort::Bool {
            out.push(t);
        }
        stack.extend(args);
    }
    out.sort();
    out
}

/// Runs IC3+IA on the bad properties `watched` of `ts`.
pub fn check(
    ts: &Ts,
    watched: &[usize],
    backend: smt::Backend,
    budget: &Budget,
    max_depth: Option<usize>,
    ia_options: IaOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<(InvariantVerdict, IaStats), String> {
    if let Some(reason) = smt::unfold::unsupported(ts) {
        return Ok((InvariantVerdict::Unknown(reason), IaStats::default()));
    }
    if super::sabotaged_unknown() {
        return Ok((
            InvariantVerdict::Unknown("sabotaged".into()),
            IaStats::default(),
        ));
    }
    let start = Instant::now();
    let domain = Predicates::new(ts, watched, backend, budget, ia_options)?;
    progress(&format!("{} initial predicates", domain.preds.len()));
    let options = Ic3Options {
        limits: Limits {
            max_depth,
            budget: budget.clone(),
            ..Limits::default()
        },
        pin_domain: false,
        // Each literal drop is an SMT query here: ic3ref's limit of three
        // failed drops in a row and its literal order, as measured for
        // IC3+IA (the bit level's full MIC was not measured on predicates).
        mic_attempts: 3,
        parent_lemma: false,
        ..Ic3Options::default()
    };
    let mut ic3 = Ic3::with_domain(domain, options);
    let found = ic3.search();
    let mut stats = IaStats {
        ic3: ic3.stats(),
        ..IaStats::default()
    };
    let domain = ic3.domain_mut();
    stats.predicates = domain.preds.len();
    stats.refinements = domain.refinements;
    (stats.checks, stats.smt_time) = domain.checks();
    progress(&format!(
        "{} frames, {} predicates, {} refinements, {} SMT checks in {:.2?} (of {:.2?})",
        stats.ic3.frames,
        stats.predicates,
        stats.refinements,
        stats.checks,
        stats.smt_time,
        start.elapsed()
    ));
    let verdict = match found {
        Ok(Some(Found::Trace(trace))) => InvariantVerdict::Unsafe(trace),
        Ok(Some(Found::Proof(cubes))) => InvariantVerdict::Safe {
            invariant: domain.invariant(&cubes),
            store: Box::new(domain.u.terms().clone()),
            lemmas: cubes.len(),
        },
        Ok(None) => {
            InvariantVerdict::Unknown(format!("no proof within {} frames", stats.ic3.frames))
        }
        Err(Interrupted) => InvariantVerdict::Unknown(match domain.gave_up.take() {
            Some(why) => why,
            None => budget.reason().to_string(),
        }),
    };
    Ok((verdict, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::term::print::Printer;

    fn bound(sum: Vec<(Term, Num)>, bound: i64, strict: bool) -> smt::LinearBound {
        smt::LinearBound {
            sum,
            bound: Num::int(bound),
            strict,
        }
    }

    /// Worked by hand: the conflict x − y ≤ 0, y − z < 0, z − x ≤ 0 (each
    /// multiplier 1) sums to 0 < 0. The prefix {first} is x − y ≤ 0; the
    /// prefix {first, second} is x − z < 0, over the integers x − z ≤ −1.
    /// Doubled coefficients are divided out, a negative leading coefficient
    /// gives the complement's predicate (−2x ≤ 3 is ¬(x ≤ −2)).
    #[test]
    fn farkas_sums_become_canonical_linear_predicates() {
        let mut terms = Terms::new();
        let x = terms.var("x", Sort::Int);
        let y = terms.var("y", Sort::Int);
        let z = terms.var("z", Sort::Int);
        let one = Num::ONE;
        let minus = -&Num::ONE;
        let conflict = smt::FarkasConflict {
            parts: vec![
                (
                    bound(vec![(x, one.clone()), (y, minus.clone())], 0, false),
                    one.clone(),
                ),
                (
                    bound(vec![(y, one.clone()), (z, minus.clone())], 0, true),
                    one.clone(),
                ),
                (
                    bound(vec![(x, minus.clone()), (z, one.clone())], 0, false),
                    one.clone(),
                ),
            ],
        };
        let show = |terms: &mut Terms, parts: &[usize]| -> Option<String> {
            let sum = farkas_sum(&conflict, parts)?;
            let p = linear_predicate(terms, &sum)?;
            Some(Printer::new(terms).term(p))
        };
        assert_eq!(show(&mut terms, &[0]).unwrap(), "(<= (+ x (* (- 1) y)) 0)");
        assert_eq!(
            show(&mut terms, &[0, 1]).unwrap(),
            "(<= (+ x (* (- 1) z)) (- 1))"
        );
        // The whole conflict is the constant 0 < 0: no predicate.
        assert_eq!(show(&mut terms, &[0, 1, 2]), None);
        let doubled = bound(vec![(x, Num::int(2)), (y, Num::int(4))], 3, true);
        let p = linear_predicate(&mut terms, &doubled).unwrap();
        assert_eq!(Printer::new(&terms).term(p), "(<= (+ x (* 2 y)) 1)");
        let negative = bound(vec![(x, Num::int(-2))], 3, false);
        let p = linear_predicate(&mut terms, &negative).unwrap();
        assert_eq!(Printer::new(&terms).term(p), "(<= x (- 2))");
    }
}
