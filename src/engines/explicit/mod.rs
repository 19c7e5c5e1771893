//! Explicit execution of a control-flow automaton: the program run on
//! values instead of formulas. Two uses, one interpreter:
//!
//! - **Proof by a determined run.** Variables start unknown (C leaves them
//!   indeterminate until assigned; the encoded system leaves them free) and
//!   `havoc` makes them unknown again; a value computed from an unknown one
//!   is unknown. An array over a wide index starts unknown element by
//!   element (a heap region, a local array kept whole): it is known where
//!   the run stored into it, so a list the program builds and walks is a
//!   determined run. If no guard ever depends on an unknown value and at most
//!   one edge or branch is enabled at every step, the run is the program's
//!   only path, whatever the unknown values: reaching the error location is
//!   a counterexample; stopping (no edge enabled) or coming back to a state
//!   already seen proves the program. The states seen, each a location and
//!   the values known there, form an inductive invariant of the encoded
//!   system: every edge a state of the set enables leads into the set. This
//!   is the explicit-value analysis of CPAchecker (Beyer and Löwe, "Explicit-
//!   State Software Model Checking Based on CEGAR and Interpolation", FASE
//!   2013) in the case where no precision is needed: the program computes a
//!   fixed answer (gcd_4 checks gcd(63, 18) = 9), which symbolic engines
//!   must rediscover through loop invariants.
//! - **Tests otherwise.** Runs draw every nondeterministic value from a
//!   pool of boundary values (0, ±1, the program's constants and their
//!   neighbours, powers of two and their neighbours), the same value for all
//!   draws of a run, smallest first; then values mixed from the pool and
//!   uniform ones, from a fixed seed. Each run is capped in steps. A run that
//!   reaches the error is the counterexample. Boundary-value testing finds
//!   bugs that need a large input and a long loop, where BMC cannot unroll
//!   far enough: sum02-1 fails for n = 65536, after 65,537 iterations.
//!
//! The engine's answers are evidence for the trusted checks, never verdicts
//! of their own: a run is turned into a trace of the encoded transition
//! system (each step's inputs found by evaluation, or by one SMT query when
//! a choice or havoc input must be found), which the caller replays; the
//! invariant goes to the certificate checker.

use crate::engines::{InvariantVerdict, WordInvariant};
use crate::ir::bv::BvValue;
use crate::ir::cfa::encode::pc_numbers;
use crate::ir::cfa::{Cfa, Command, Loc};
use crate::ir::term::compiled::{compile, from_slot, to_slot, Compiled, Slots};
use crate::ir::term::eval::{ArrayValue, Evaluator, Value};
use crate::ir::term::normalize::Normalizer;
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::ts::{Ts, WordTrace};
use crate::smt::{self, SmtResult};

mod search;
use crate::util::budget::Budget;
use crate::util::rng::Rng;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Limits of the explicit engine.
#[derive(Clone, Copy, Debug)]
pub struct ExplicitOptions {
    /// The most states a proof's invariant may list (one cube each).
    pub max_states: usize,
    /// The most steps of one test run.
    pub max_test_steps: u64,
    /// Whether to start with the run on unknown values.
    pub determined: bool,
    /// The most states of the search that follows a run that is not
    /// determined (`search`); 0 skips it.
    pub search_states: usize,
    /// Whether to test when the run is not determined.
    pub tests: bool,
}

impl Default for ExplicitOptions {
    fn default() -> Self {
        ExplicitOptions {
            // A deterministic program whose run visits more states than
            // this is left to the symbolic engines: its invariant would be
            // a disjunction too large to check quickly.
            max_states: 5_000,
            // sum02-1 needs 65,537 iterations; a run costs about a
            // microsecond per step, so a capped run wastes at most a second.
            max_test_steps: 1 << 20,
            determined: true,
            // The certificate checker confirms a listed state in about
            // 20 ms where the transition multiplies (bresenham with both
            // inputs in [1, 10]: 3,202 states, 70 s); more states than
            // this would not be confirmed within a quarter of a minute.
            search_states: 1_500,
            tests: true,
        }
    }
}

/// Counters of the explicit engine.
#[derive(Clone, Debug, Default)]
pub struct ExplicitStats {
    /// Runs, the determined one and the tests.
    pub runs: u64,
    /// Edges taken over all runs.
    pub steps: u64,
    /// States of the determined run (its invariant's cubes).
    pub states: usize,
    /// Steps of the trace whose inputs an SMT query found.
    pub smt_steps: u64,
    /// Time of the whole engine.
    pub time: Duration,
}

/// The values of the program's variables, in [`Cfa::vars`] order; `None`
/// is unknown.
type State = Vec<Option<Value>>;

/// Why a run stopped before an answer.
#[derive(Debug)]
enum Stop {
    /// A guard read an unknown value.
    Undetermined(String),
    /// Two edges or branches were enabled.
    Nondeterministic(Loc),
    /// The step cap or the budget.
    Limit,
}

/// How the run ended.
enum End {
    /// At the error location.
    Error,
    /// No edge enabled, or a state seen before.
    Safe,
}

/// Where a test run's nondeterministic values come from.
#[derive(Clone)]
struct Draws {
    /// Values drawn and branches picked so far.
    used: u64,
    /// The pool of boundary values ([`pool`]'s order).
    pool: Rc<[i128]>,
    /// `Some(i)`: every draw is `pool[i]`; `None`: mixed and uniform.
    fixed: Option<usize>,
    rng: Rng,
}

impl Draws {
    fn value(&mut self, sort: &Sort) -> Option<Value> {
        self.used += 1;
        let pick = match self.fixed {
            Some(i) => Some(self.pool[i]),
            // Mixed draws favour the small end of the pool (a uniform bound
            // below a random power of two): programs assume small ranges.
            None if self.rng.coin() => {
                let scale = 1u64
                    << self
                        .rng
                        .below(64 - (self.pool.len() as u64).leading_zeros() as u64 + 1);
                let i = self.rng.below(scale.min(self.pool.len() as u64));
                Some(self.pool[i as usize])
            }
            None => None,
        };
        Some(match sort {
            Sort::Bool => Value::Bool(match pick {
                Some(v) => v != 0,
                None => self.rng.coin(),
            }),
            Sort::BitVec(w) => {
                let bits = match pick {
                    Some(v) => v as u128,
                    None => (self.rng.next_u64() as u128) << 64 | self.rng.next_u64() as u128,
                };
                let mut b = BvValue::zero(*w);
                for i in 0..(*w).min(128) {
                    b.set_bit(i, bits >> i & 1 == 1);
                }
                if *w > 128 && (pick.is_some_and(|v| v < 0)) {
                    for i in 128..*w {
                        b.set_bit(i, true);
                    }
                }
                Value::Bv(b)
            }
            Sort::Int => Value::Num(crate::ir::term::Rational::int(
                pick.unwrap_or(self.rng.next_u64() as i64 as i128),
            )),
            // An array drawn as one value everywhere: tests only look for
            // runs that reach the error, and every trace is replayed.
            Sort::Array(index, element) => {
                self.used -= 1;
                let e = self.value(element)?;
                Value::Array(std::sync::Arc::new(
                    crate::ir::term::eval::ArrayValue::constant(index, e),
                ))
            }
            _ => return None,
        })
    }

    fn branch(&mut self, n: usize) -> usize {
        self.used += 1;
        self.rng.below(n as u64) as usize
    }
}

/// What the interpreter runs on, one implementation per kind of value:
/// tests on concrete `u64` slots by compiled code ([`Compiled`]), the
/// determined run (and tests the compiler cannot take) on values that may
/// be unknown, by the evaluator. The interpreter is written once over it.
trait Store {
    /// A variable's value in a state.
    type Slot: Clone + PartialEq + Eq + std::hash::Hash;
    /// The value of `t` in `state` (`position` maps a variable's term index
    /// to its place in the state).
    fn eval(&mut self, t: Term, state: &[Self::Slot], position: &[u32]) -> Self::Slot;
    /// The truth of guard `g`; `None` if it depends on an unknown value.
    fn guard(&mut self, g: Term, state: &[Self::Slot], position: &[u32]) -> Option<bool>;
    /// A havoc's new value: a draw, or unknown without draws.
    fn havoc(&self, sort: &Sort, draws: Option<&mut Draws>) -> Self::Slot;
    /// A variable's value before the first step: zero in a test (the
    /// encoded system leaves it free), unknown in the determined run.
    fn start(&self, sort: &Sort, testing: bool) -> Self::Slot;
    /// A slot as a value, for a recorded path.
    fn value(&self, slot: &Self::Slot, sort: &Sort) -> Option<Value>;
}

/// Every term of the commands compiled to `u64` code, by term index, and
/// the slots the code runs on.
struct Fast {
    code: Vec<Option<Rc<Compiled>>>,
    slots: Slots,
}

impl Fast {
    /// `None` unless every term compiles (Bools and bit-vectors of at most
    /// 64 bits).
    fn new(cfa: &Cfa) -> Option<Fast> {
        let mut roots = Vec::new();
        for e in &cfa.edges {
            command_terms(&e.command, &mut roots);
        }
        let mut code = vec![None; cfa.terms.len()];
        for t in roots {
            code[t.index()] = Some(Rc::new(compile(&cfa.terms, t)?));
        }
        Some(Fast {
            code,
            slots: Slots::new(&cfa.terms),
        })
    }
}

impl Store for Fast {
    type Slot = u64;

    fn eval(&mut self, t: Term, state: &[u64], position: &[u32]) -> u64 {
        let c = self.code[t.index()]
            .as_ref()
            .expect("every command term is compiled");
        for &v in &c.vars {
            self.slots.values[v.index()] = state[position[v.index()] as usize];
        }
        self.slots.run(c)
    }

    fn guard(&mut self, g: Term, state: &[u64], position: &[u32]) -> Option<bool> {
        Some(self.eval(g, state, position) != 0)
    }

    fn havoc(&self, sort: &Sort, draws: Option<&mut Draws>) -> u64 {
        (draws.and_then(|d| d.value(sort)).as_ref())
            .and_then(to_slot)
            .unwrap_or(0)
    }

    fn start(&self, _: &Sort, _: bool) -> u64 {
        0
    }

    fn value(&self, slot: &u64, sort: &Sort) -> Option<Value> {
        Some(from_slot(*slot, sort))
    }
}

/// The evaluator, with the cone of every term it evaluated, by term index.
struct Values<'a> {
    terms: &'a Terms,
    ev: Evaluator<'a>,
    cones: Vec<Option<Rc<[Term]>>>,
}

impl<'a> Values<'a> {
    fn new(terms: &'a Terms) -> Values<'a> {
        Values {
            terms,
            ev: Evaluator::new(terms),
            cones: vec![None; terms.len()],
        }
    }
}

impl Store for Values<'_> {
    type Slot = Option<Value>;

    /// `None` if `t` depends on an unknown value (or on an arithmetic case
    /// the evaluator leaves open).
    fn eval(&mut self, t: Term, state: &[Option<Value>], position: &[u32]) -> Option<Value> {
        let terms = self.terms;
        let cone = self.cones[t.index()]
            .get_or_insert_with(|| terms.topological(&[t]).into())
            .clone();
        for &s in cone.iter() {
            match position[s.index()] {
                u32::MAX => self.ev.forget(s),
                p => match &state[p as usize] {
                    Some(v) => self.ev.set(s, v.clone()),
                    None => self.ev.forget(s),
                },
            }
        }
        // Lazily: an `ite` reads only its taken branch (a small array's
        // read at a known index, whatever its out-of-bounds value).
        self.ev.eval_lazy(t).ok()
    }

    fn guard(&mut self, g: Term, state: &[Option<Value>], position: &[u32]) -> Option<bool> {
        match self.eval(g, state, position)? {
            Value::Bool(b) => Some(b),
            _ => Some(false),
        }
    }

    fn havoc(&self, sort: &Sort, draws: Option<&mut Draws>) -> Option<Value> {
        match draws {
            Some(d) => d.value(sort),
            None => unknown_array(sort),
        }
    }

    fn start(&self, sort: &Sort, testing: bool) -> Option<Value> {
        match testing {
            true => Some(Value::default_of(sort)),
            false => unknown_array(sort),
        }
    }

    fn value(&self, slot: &Option<Value>, _: &Sort) -> Option<Value> {
        slot.clone()
    }
}

/// An unknown value of `sort` in the determined run: for an array over a
/// large index sort, an array whose elements become known as they are
/// stored (a heap region starts arbitrary, and the program reads what it
/// wrote); otherwise nothing.
fn unknown_array(sort: &Sort) -> Option<Value> {
    let Sort::Array(index, element) = sort else {
        return None;
    };
    let a = ArrayValue::known_only_at_entries(index, element)?;
    Some(Value::Array(std::sync::Arc::new(a)))
}

/// The automaton as the interpreter walks it: its edges by source and the
/// place of every variable in a state.
struct Machine<'a> {
    cfa: &'a Cfa,
    outgoing: Vec<Vec<usize>>,
    /// Position in [`Cfa::vars`] by term index (`u32::MAX`: not a variable).
    position: Vec<u32>,
    budget: &'a Budget,
    /// Edges taken over all runs.
    steps: u64,
    values: Values<'a>,
    /// The compiled commands, when tests run and every term compiles:
    /// tests then run on them instead of the evaluator.
    fast: Option<Fast>,
}

impl<'a> Machine<'a> {
    /// A machine for `cfa`; `tests` compiles the commands for them.
    fn new(cfa: &'a Cfa, budget: &'a Budget, tests: bool) -> Machine<'a> {
        let mut outgoing = vec![Vec::new(); cfa.labels.len()];
        for (k, e) in cfa.edges.iter().enumerate() {
            outgoing[e.from.0 as usize].push(k);
        }
        let mut position = vec![u32::MAX; cfa.terms.len()];
        for (i, v) in cfa.vars.iter().enumerate() {
            position[v.index()] = i as u32;
        }
        Machine {
            cfa,
            outgoing,
            position,
            budget,
            steps: 0,
            values: Values::new(&cfa.terms),
            fast: tests.then(|| Fast::new(cfa)).flatten(),
        }
    }

    /// A run from the initial location: with `draws`, a test (values
    /// drawn, at most `cap` steps, on compiled code where it compiled);
    /// without, the determined run, whose states are collected in `seen`
    /// (at most `cap` of them). `path`, if given, receives every edge taken
    /// and the state after it.
    fn execute(
        &mut self,
        draws: Option<&mut Draws>,
        cap: u64,
        seen: &mut Vec<(Loc, State)>,
        path: Option<&mut Vec<(usize, State)>>,
    ) -> Result<End, Stop> {
        let (walk, values, fast) = self.parts();
        match (fast, draws) {
            (Some(fast), Some(d)) => walk.execute(fast, Some(d), cap, seen, path),
            (_, d) => walk.execute(values, d, cap, seen, path),
        }
    }
}

impl<'a> Machine<'a> {
    /// The run's view of the machine and its two stores, borrowed apart.
    fn parts(&mut self) -> (Walk<'_>, &mut Values<'a>, &mut Option<Fast>) {
        let walk = Walk {
            cfa: self.cfa,
            outgoing: &self.outgoing,
            position: &self.position,
            budget: self.budget,
            steps: &mut self.steps,
        };
        (walk, &mut self.values, &mut self.fast)
    }

    /// Each edge from `loc` and what it does to `state` on the evaluator:
    /// the next state, `None` where it blocks, or why it cannot tell.
    fn step(&mut self, loc: Loc, state: &State) -> Vec<(usize, Result<Option<State>, Stop>)> {
        let (walk, values, _) = self.parts();
        (walk.outgoing[loc.0 as usize].iter())
            .map(|&k| {
                let mut next = state.clone();
                let r = walk.run(values, &walk.cfa.edges[k].command, &mut next, None);
                (k, r.map(|ok| ok.then_some(next)))
            })
            .collect()
    }
}

/// One run's view of the [`Machine`], apart from its store.
struct Walk<'m> {
    cfa: &'m Cfa,
    outgoing: &'m [Vec<usize>],
    position: &'m [u32],
    budget: &'m Budget,
    steps: &'m mut u64,
}

impl Walk<'_> {
    /// Runs `command` on `state`, in place: `Ok(false)` if it blocks.
    fn run<S: Store>(
        &self,
        store: &mut S,
        command: &Command,
        state: &mut Vec<S::Slot>,
        mut draws: Option<&mut Draws>,
    ) -> Result<bool, Stop> {
        match command {
            Command::Assume(g) => match store.guard(*g, state, self.position) {
                Some(b) => Ok(b),
                None => Err(Stop::Undetermined(format!(
                    "a guard reads an unknown value ({})",
                    self.describe(*g)
                ))),
            },
            Command::Assign(x, e) => {
                state[self.position[x.index()] as usize] = store.eval(*e, state, self.position);
                Ok(true)
            }
            Command::Havoc(x) => {
                state[self.position[x.index()] as usize] =
                    store.havoc(self.cfa.terms.sort(*x), draws);
                Ok(true)
            }
            Command::Seq(parts) => {
                for p in parts {
                    if !self.run(store, p, state, draws.as_deref_mut())? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Command::Choice(branches) => {
                let mut enabled: Vec<Vec<S::Slot>> = Vec::new();
                for b in branches {
                    let mut next = state.clone();
                    if self.run(store, b, &mut next, draws.as_deref_mut())?
                        && !enabled.contains(&next)
                    {
                        enabled.push(next);
                    }
                }
                *state = match (enabled.len(), draws) {
                    (0, _) => return Ok(false),
                    (1, _) => enabled.pop().expect("one"),
                    (n, Some(d)) => enabled.swap_remove(d.branch(n)),
                    (_, None) => return Err(Stop::Nondeterministic(Loc(u32::MAX))),
                };
                Ok(true)
            }
        }
    }

    /// A guard for a message: the variables it reads.
    fn describe(&self, g: Term) -> String {
        let terms = &self.cfa.terms;
        let mut names: Vec<&str> = terms
            .topological(&[g])
            .into_iter()
            .filter(|t| matches!(terms.op(*t), Op::Var(..)))
            .filter_map(|t| terms.var_name(t))
            .collect();
        names.dedup();
        names.truncate(4);
        names.join(", ")
    }

    /// [`Machine::execute`] on `store`.
    fn execute<S: Store>(
        self,
        store: &mut S,
        mut draws: Option<&mut Draws>,
        cap: u64,
        seen: &mut Vec<(Loc, State)>,
        mut path: Option<&mut Vec<(usize, State)>>,
    ) -> Result<End, Stop> {
        let testing = draws.is_some();
        let sorts: Vec<&Sort> = self
            .cfa
            .vars
            .iter()
            .map(|&v| self.cfa.terms.sort(v))
            .collect();
        let as_values = |store: &S, state: &[S::Slot]| -> State {
            (state.iter().zip(&sorts))
                .map(|(x, s)| store.value(x, s))
                .collect()
        };
        let mut state: Vec<S::Slot> = sorts.iter().map(|s| store.start(s, testing)).collect();
        let mut loc = self.cfa.init;
        let mut visited: HashSet<(Loc, Vec<S::Slot>)> = HashSet::new();
        let mut steps = 0u64;
        let mut next = Vec::new();
        let mut taken: Vec<(usize, Vec<S::Slot>)> = Vec::new();
        // A test run that comes back to a state with nothing drawn since
        // loops forever (hardu's doubling `d` wraps to 0 and stays there):
        // Brent's cycle detection, a snapshot taken after windows of
        // doubling length, started afresh by a draw or branch choice (and
        // none taken while every step draws).
        let mut snapshot: (Loc, Vec<S::Slot>) = (loc, Vec::new());
        let (mut snapshot_at, mut window, mut drawn) = (0u64, 1u64, 0u64);
        let mut have_snapshot = false;
        loop {
            if loc == self.cfa.error {
                return Ok(End::Error);
            }
            if let Some(d) = draws.as_deref() {
                if d.used != drawn {
                    (drawn, snapshot_at, window, have_snapshot) = (d.used, steps, 1, false);
                } else if have_snapshot && snapshot.0 == loc && snapshot.1 == state {
                    return Ok(End::Safe);
                }
                if steps - snapshot_at >= window {
                    snapshot.0 = loc;
                    snapshot.1.clone_from(&state);
                    (snapshot_at, window, have_snapshot) = (steps, window.saturating_mul(2), true);
                }
            }
            if !testing {
                if !visited.insert((loc, state.clone())) {
                    return Ok(End::Safe);
                }
                seen.push((loc, as_values(store, &state)));
                if seen.len() as u64 > cap {
                    return Err(Stop::Limit);
                }
            } else if steps >= cap {
                return Err(Stop::Limit);
            }
            if steps.is_multiple_of(4096) && self.budget.expired() {
                return Err(Stop::Limit);
            }
            steps += 1;
            taken.clear();
            for &k in &self.outgoing[loc.0 as usize] {
                next.clone_from(&state);
                match self.run(
                    store,
                    &self.cfa.edges[k].command,
                    &mut next,
                    draws.as_deref_mut(),
                ) {
                    Ok(true) => taken.push((k, std::mem::take(&mut next))),
                    Ok(false) => {}
                    Err(Stop::Nondeterministic(_)) => return Err(Stop::Nondeterministic(loc)),
                    Err(e) => return Err(e),
                }
            }
            *self.steps += 1;
            let (k, after) = match (taken.len(), draws.as_deref_mut()) {
                (0, _) => return Ok(End::Safe),
                (1, _) => taken.pop().expect("one"),
                (n, Some(d)) => taken.swap_remove(d.branch(n)),
                (_, None) => return Err(Stop::Nondeterministic(loc)),
            };
            if let Some(p) = path.as_deref_mut() {
                p.push((k, as_values(store, &after)));
            }
            loc = self.cfa.edges[k].to;
            next = std::mem::replace(&mut state, after);
        }
    }
}

/// The terms `command` evaluates or assigns.
fn command_terms(command: &Command, out: &mut Vec<Term>) {
    match command {
        Command::Assume(t) | Command::Havoc(t) => out.push(*t),
        Command::Assign(x, t) => out.extend([*x, *t]),
        Command::Seq(v) | Command::Choice(v) => v.iter().for_each(|c| command_terms(c, out)),
    }
}

/// The pool of boundary values for tests: 0, ±1, ±2, the program's
/// constants and their neighbours and negations, powers of two up to 2^64
/// and their neighbours, negated too; ordered by magnitude.
fn pool(cfa: &Cfa) -> Vec<i128> {
    let mut values: Vec<i128> = vec![0, 1, -1, 2, -2];
    let mut all = Vec::new();
    cfa.edges
        .iter()
        .for_each(|e| command_terms(&e.command, &mut all));
    for t in cfa.terms.topological(&all) {
        if let Op::Bv(v) = cfa.terms.op(t) {
            if let Some(u) = v.to_u64() {
                let signed = if v.msb() && v.width() <= 64 {
                    u as i128 - (1i128 << v.width())
                } else {
                    u as i128
                };
                for c in [u as i128, signed] {
                    values.extend([c - 1, c, c + 1, -c]);
                }
            }
        }
    }
    for k in 2..=64 {
        let p = 1i128 << k;
        values.extend([p - 1, p, p + 1, -p, 1 - p]);
    }
    // Non-negative values first: a negative one is huge in an unsigned
    // variable, and its run is long; signed programs meet them all in the
    // first rounds of small caps anyway.
    values.sort_by_key(|v| (*v < 0, v.unsigned_abs()));
    values.dedup();
    // Values that agree in every width the program draws are one test.
    let mut widths: Vec<u32> = Vec::new();
    for t in &all {
        if let Sort::BitVec(w) = cfa.terms.sort(*t) {
            if !widths.contains(w) {
                widths.push(*w);
            }
        }
    }
    let mut distinct = HashSet::new();
    values.retain(|&v| {
        let key: Vec<u128> = (widths.iter())
            .map(|&w| {
                if w >= 128 {
                    v as u128
                } else {
                    v as u128 & ((1u128 << w) - 1)
                }
            })
            .collect();
        distinct.insert(key)
    });
    values
}

/// The invariant of the determined run's states: `¬valid`, or `pc` at one
/// of them with its known values.
fn invariant(cfa: &Cfa, ts: &Ts, seen: &[(Loc, State)]) -> InvariantVerdict {
    let mut terms = ts.terms.clone();
    let index = pc_numbers(cfa);
    let pc = ts.states[0].var;
    let valid = ts.states[1].var;
    let width = terms.sort(pc).bv_width().expect("pc is a bit-vector");
    let mut cubes = vec![terms.not(valid)];
    for (loc, state) in seen {
        let at = terms.bv(BvValue::from_u64(width, index[loc] as u64));
        let mut cube = vec![terms.eq(pc, at)];
        for (&v, value) in cfa.vars.iter().zip(state) {
            if let Some(Value::Array(a)) = value.as_ref().filter(|_| is_partial(value)) {
                // Known at its entries only: each is a literal.
                let Sort::Array(index, element) = terms.sort(v).clone() else {
                    unreachable!("an array value")
                };
                for (i, e) in &a.entries {
                    let (Some(i), Some(e)) = (
                        crate::ir::term::normalize::constant_term(&mut terms, i, &index),
                        crate::ir::term::normalize::constant_term(&mut terms, e, &element),
                    ) else {
                        return InvariantVerdict::Unknown(
                            "a value of the run has no constant term".into(),
                        );
                    };
                    let read = terms.mk(Op::Select, &[v, i]);
                    cube.push(terms.eq(read, e));
                }
                continue;
            }
            if let Some(value) = value {
                let sort = terms.sort(v).clone();
                let Some(c) = crate::ir::term::normalize::constant_term(&mut terms, value, &sort)
                else {
                    return InvariantVerdict::Unknown(
                        "a value of the run has no constant term".into(),
                    );
                };
                cube.push(terms.eq(v, c));
            }
        }
        cubes.push(terms.and_all(&cube));
    }
    let invariant = terms.or_all(&cubes);
    InvariantVerdict::Safe(WordInvariant {
        store: Box::new(terms),
        invariant,
        lemmas: seen.len(),
    })
}

/// The trace of the encoded system along a run: `path` is every edge taken
/// with the program's state after it (unknown values free). Each step's
/// inputs are the defaults with the edge's number, unless those miss the
/// run's next state; then an SMT query finds them. The query holds the
/// step's next-state terms with the current state and the edge replaced by
/// their values and constants folded: what is left reads only the inputs of
/// that edge's choices and havocs, a few terms where the whole transition
/// relation of a large program bit-blasts to hundreds of thousands of gates.
fn encoded_trace(
    cfa: &Cfa,
    ts: &Ts,
    path: &[(usize, State)],
    backend: smt::Backend,
    budget: &Budget,
    stats: &mut ExplicitStats,
) -> Result<WordTrace, String> {
    let index = pc_numbers(cfa);
    let pc_width = ts.terms.sort(ts.states[0].var).bv_width().expect("pc");
    let pc_value = |l: Loc| Value::Bv(BvValue::from_u64(pc_width, index[&l] as u64));
    let edge_input = ts
        .inputs
        .iter()
        .position(|&i| ts.terms.var_name(i) == Some("edge"))
        .ok_or("the encoded system has no `edge` input")?;
    let edge_width = ts
        .terms
        .sort(ts.inputs[edge_input])
        .bv_width()
        .expect("edge");
    let defaults: Vec<Value> = (ts.inputs.iter())
        .map(|&i| Value::default_of(ts.terms.sort(i)))
        .collect();
    let mut current: Vec<Value> = vec![pc_value(cfa.init), Value::Bool(true)];
    current.extend((cfa.vars.iter()).map(|&v| Value::default_of(ts.terms.sort(v))));
    let mut trace = WordTrace::default();
    let mut ev = Evaluator::new(&ts.terms);
    // The residual queries' store (a copy of the system's, growing) and
    // solver, made at the first step that needs them.
    let mut query: Option<(Terms, Normalizer, Box<dyn smt::SmtSolver>)> = None;
    // Whether `next` is the run's state after edge `k`.
    let matches = |next: &[Value], k: usize, after: &State| {
        next[0] == pc_value(cfa.edges[k].to)
            && next[1] == Value::Bool(true)
            && (after.iter().zip(&next[2..]))
                .all(|(want, got)| is_partial(want) || want.as_ref().is_none_or(|w| w == got))
    };
    for (k, after) in path {
        let mut inputs = defaults.clone();
        inputs[edge_input] = Value::Bv(BvValue::from_u64(edge_width, *k as u64));
        let mut next = successor(&mut ev, ts, &current, &inputs)?;
        if !matches(&next, *k, after) {
            stats.smt_steps += 1;
            if query.is_none() {
                query = Some((
                    ts.terms.clone(),
                    Normalizer::default(),
                    backend.start(budget)?,
                ));
            }
            let (terms, normalizer, solver) = query.as_mut().expect("made above");
            // Arrays are left out of the goal first: the scalars the run
            // fixes (the values written, their indices) usually determine
            // them, and an equality of two large arrays is a costly query.
            // If they do not, the step is asked again with them.
            let has_arrays = (after.iter().zip(&ts.states[2..]))
                .any(|(v, s)| v.is_some() && matches!(terms.sort(s.var), Sort::Array(..)));
            for with_arrays in [false, true] {
                if with_arrays && !has_arrays {
                    return Err("internal error: the inputs found miss the run's next state".into());
                }
                inputs = defaults.clone();
                inputs[edge_input] = Value::Bv(BvValue::from_u64(edge_width, *k as u64));
                // The current state and the edge as constants.
                let mut fixed = HashMap::new();
                for (s, v) in ts.states.iter().zip(&current) {
                    fixed.insert(s.var, constant_of(terms, s.var, v)?);
                }
                let e = ts.inputs[edge_input];
                fixed.insert(e, constant_of(terms, e, &inputs[edge_input])?);
                let mut wanted = vec![(0, pc_value(cfa.edges[*k].to)), (1, Value::Bool(true))];
                wanted.extend((after.iter().enumerate()).filter_map(|(i, v)| {
                    let array = matches!(terms.sort(ts.states[i + 2].var), Sort::Array(..));
                    v.clone()
                        .filter(|_| (with_arrays || !array) && !is_partial(v))
                        .map(|v| (i + 2, v))
                }));
                let roots: Vec<Term> = (wanted.iter())
                    .map(|&(i, _)| ts.states[i].next.unwrap_or(ts.states[i].var))
                    .collect();
                let residual = normalizer.partial(terms, &roots, &fixed);
                let mut goals = Vec::new();
                for (r, (_, v)) in residual.into_iter().zip(&wanted) {
                    let c = constant_of(terms, r, v)?;
                    goals.push(terms.eq(r, c));
                }
                let goal = terms.and_all(&goals);
                match solver.check(terms, &[goal]) {
                    SmtResult::Sat => {}
                    SmtResult::Unsat => {
                        return Err(format!(
                            "internal error: step {} of the run (edge {k}) is not a step of the encoded system",
                            trace.states.len()
                        ))
                    }
                    SmtResult::Unknown(why) => {
                        return Err(format!("the trace's query gave up ({why})"))
                    }
                }
                // Inputs the goal does not read keep their defaults.
                let read: HashSet<Term> = terms.topological(&[goal]).into_iter().collect();
                for (j, slot) in inputs.iter_mut().enumerate() {
                    if read.contains(&ts.inputs[j]) {
                        *slot = solver.value(terms, ts.inputs[j])?;
                    }
                }
                next = successor(&mut ev, ts, &current, &inputs)?;
                if matches(&next, *k, after) {
                    break;
                }
                if with_arrays {
                    return Err("internal error: the inputs found miss the run's next state".into());
                }
            }
        }
        trace.states.push(std::mem::replace(&mut current, next));
        trace.inputs.push(inputs);
    }
    trace.states.push(current);
    trace.inputs.push(defaults);
    Ok(trace)
}

/// Whether `v` is an array known only at its entries (the run leaves the
/// rest to the encoded system's free choice).
fn is_partial(v: &Option<Value>) -> bool {
    matches!(v, Some(Value::Array(a)) if a.is_partial())
}

/// The constant term of `v` in the sort of `x`.
fn constant_of(terms: &mut Terms, x: Term, v: &Value) -> Result<Term, String> {
    let sort = terms.sort(x).clone();
    crate::ir::term::normalize::constant_term(terms, v, &sort)
        .ok_or_else(|| format!("no constant for the value {v}"))
}

/// The encoded system's state after `state` under `inputs`.
fn successor(
    ev: &mut Evaluator<'_>,
    ts: &Ts,
    state: &[Value],
    inputs: &[Value],
) -> Result<Vec<Value>, String> {
    ev.clear();
    for (s, v) in ts.states.iter().zip(state) {
        ev.set(s.var, v.clone());
    }
    for (&i, v) in ts.inputs.iter().zip(inputs) {
        ev.set(i, v.clone());
    }
    (ts.states.iter())
        .zip(state)
        .map(|(s, v)| match s.next {
            Some(n) => ev
                .eval(n)
                .map_err(|e| format!("cannot evaluate a step: {e}")),
            None => Ok(v.clone()),
        })
        .collect()
}

/// The run on unknown values: its verdict if it is determined and short
/// enough, else `None` (the reason given to `progress`).
fn determined_run(
    machine: &mut Machine<'_>,
    ts: &Ts,
    options: ExplicitOptions,
    backend: smt::Backend,
    tracing: &Budget,
    stats: &mut ExplicitStats,
    progress: &mut dyn FnMut(&str),
) -> Result<InvariantVerdict, bool> {
    let cfa = machine.cfa;
    let mut seen = Vec::new();
    let mut path = Vec::new();
    stats.runs += 1;
    let end = machine.execute(None, options.max_states as u64, &mut seen, Some(&mut path));
    stats.states = seen.len();
    match end {
        Ok(End::Safe) => {
            progress(&format!(
                "the run is determined and ends safely after {} states",
                seen.len()
            ));
            Ok(invariant(cfa, ts, &seen))
        }
        Ok(End::Error) => {
            progress(&format!(
                "the run is determined and reaches the error in {} steps",
                path.len()
            ));
            Ok(trace_verdict(cfa, ts, &path, backend, tracing, stats))
        }
        Err(Stop::Limit) => {
            progress(&format!(
                "the run is determined but longer than {} states",
                options.max_states
            ));
            Err(false)
        }
        Err(Stop::Undetermined(why)) => {
            progress(&format!("the run is not determined: {why}"));
            Err(true)
        }
        Err(Stop::Nondeterministic(l)) => {
            progress(&format!(
                "the run is not determined: two edges are enabled at {}",
                cfa.labels
                    .get(l.0 as usize)
                    .map_or("a choice", |s| s.as_str())
            ));
            Err(true)
        }
    }
}

/// Decides `cfa` (encoded as `ts`) by explicit execution, as the module
/// header says, searching within `budget`; a run that reaches the error
/// becomes a trace within `tracing` (a run found is a counterexample but
/// for its inputs, worth more time than the search had); `progress`
/// receives a line per phase.
pub fn check(
    cfa: &Cfa,
    ts: &Ts,
    options: ExplicitOptions,
    backend: smt::Backend,
    (budget, tracing): (&Budget, &Budget),
    progress: &mut dyn FnMut(&str),
) -> (InvariantVerdict, ExplicitStats) {
    let start = Instant::now();
    let mut stats = ExplicitStats::default();
    let mut machine = Machine::new(cfa, budget, options.tests);
    if options.determined {
        let run = determined_run(
            &mut machine,
            ts,
            options,
            backend,
            tracing,
            &mut stats,
            progress,
        );
        stats.steps = machine.steps;
        let searched = match run {
            Ok(v) => Some(v),
            Err(true) if options.search_states > 0 => {
                // Where tests follow, the search leaves them half the time:
                // a search that gives up (too many states or successors)
                // must not cost the bugs the tests find.
                let searching = match (options.tests, budget.deadline()) {
                    (true, Some(d)) => {
                        budget.narrowed(d.saturating_duration_since(Instant::now()) / 2)
                    }
                    _ => budget.clone(),
                };
                match search::search(
                    &mut machine,
                    ts,
                    options.search_states,
                    backend,
                    (&searching, tracing),
                    &mut stats,
                ) {
                    // A path whose trace cannot be built (a start value
                    // the search pinned where the encoded system's trace
                    // starts from defaults) leaves the bug to the tests.
                    Ok(InvariantVerdict::Unknown(why)) => {
                        progress(&format!("the search's path gives no trace: {why}"));
                        None
                    }
                    Ok(v) => {
                        progress(&format!(
                            "the search ends after {} states ({} SMT checks)",
                            stats.states, stats.smt_steps
                        ));
                        Some(v)
                    }
                    Err(why) => {
                        progress(&format!("the search gives up: {why}"));
                        None
                    }
                }
            }
            Err(_) => None,
        };
        stats.steps = machine.steps;
        if let Some(v) = searched {
            stats.time = start.elapsed();
            return (v, stats);
        }
    }
    // Test runs collect no states.
    let mut seen = Vec::new();
    if !options.tests {
        stats.time = start.elapsed();
        return (
            InvariantVerdict::Unknown("the run is not determined".into()),
            stats,
        );
    }
    let pool: Rc<[i128]> = pool(cfa).into();
    let draws = |fixed: Option<usize>, seed: u64| Draws {
        used: 0,
        pool: pool.clone(),
        fixed,
        rng: Rng::new(seed),
    };
    // Iterative deepening: every pool value with a small cap, then those
    // whose runs hit it with a cap eight times larger, and so on; a value
    // whose run needs n steps costs the others at most about n steps each
    // before it runs. Then mixed and uniform draws at the largest cap.
    let mut open: Vec<usize> = (0..pool.len()).collect();
    let mut cap = 1u64 << 10;
    let mut past_max = false;
    let mut drew = false;
    let verdict = 'search: loop {
        let cap_now = cap.min(options.max_test_steps);
        let plan: Vec<Option<usize>> = if open.is_empty() || past_max {
            vec![None]
        } else {
            open.iter().map(|&i| Some(i)).collect()
        };
        let mut still_open = Vec::new();
        for fixed in plan {
            if budget.expired() {
                break 'search InvariantVerdict::Unknown(format!(
                    "{} after {} test runs",
                    budget.reason(),
                    stats.runs.saturating_sub(1)
                ));
            }
            stats.runs += 1;
            let seed = stats.runs;
            let mut source = draws(fixed, seed);
            let end = machine.execute(Some(&mut source), cap_now, &mut seen, None);
            drew |= source.used > 0;
            let limited = matches!(end, Err(Stop::Limit));
            match end {
                Ok(End::Error) => {
                    // Run it again, recording the path.
                    let mut path = Vec::new();
                    let again = machine.execute(
                        Some(&mut draws(fixed, seed)),
                        cap_now,
                        &mut seen,
                        Some(&mut path),
                    );
                    if !matches!(again, Ok(End::Error)) {
                        break 'search InvariantVerdict::Unknown(
                            "internal error: a test run did not repeat".into(),
                        );
                    }
                    let what = match fixed {
                        Some(i) => format!("every value {}", pool[i]),
                        None => format!("draws of seed {seed}"),
                    };
                    progress(&format!(
                        "a test run with {what} reaches the error in {} steps",
                        path.len()
                    ));
                    break 'search trace_verdict(cfa, ts, &path, backend, tracing, &mut stats);
                }
                Err(Stop::Limit) => still_open.extend(fixed),
                Ok(End::Safe) | Err(_) => {}
            }
            if !drew {
                // Nothing drawn: every test is this run; only a larger cap
                // can tell more.
                if !limited {
                    break 'search InvariantVerdict::Unknown(
                        "the program draws no value on its test run, which misses the error".into(),
                    );
                }
                if past_max || cap_now >= options.max_test_steps {
                    break 'search InvariantVerdict::Unknown(format!(
                        "the program draws no value on its run, which is longer than {cap_now} steps"
                    ));
                }
                break;
            }
        }
        if cap >= options.max_test_steps {
            past_max = true;
        } else {
            open = still_open;
            cap = cap.saturating_mul(8);
        }
    };
    stats.steps = machine.steps;
    stats.time = start.elapsed();
    (verdict, stats)
}

fn trace_verdict(
    cfa: &Cfa,
    ts: &Ts,
    path: &[(usize, State)],
    backend: smt::Backend,
    budget: &Budget,
    stats: &mut ExplicitStats,
) -> InvariantVerdict {
    match encoded_trace(cfa, ts, path, backend, budget, stats) {
        Ok(trace) => InvariantVerdict::Unsafe(trace),
        Err(e) => InvariantVerdict::Unknown(e),
    }
}
