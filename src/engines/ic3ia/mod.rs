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

mod interpolate;
mod queries;
mod refine;

use crate::engines::ic3::{Cube, Found, Frames, Ic3, Ic3Options, Ic3Stats, Interrupted, StateLit};
use crate::engines::{InvariantVerdict, Limits, WordInvariant};
use crate::ir::term::eval::Value;
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::ts::Ts;
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
        Ok(Some(Found::Proof(cubes))) => InvariantVerdict::Safe(WordInvariant {
            invariant: domain.invariant(&cubes),
            store: Box::new(domain.u.terms().clone()),
            lemmas: cubes.len(),
        }),
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
