//! Explicit-state search where the run is not determined: the states of
//! the program, each a location and the values known there, explored
//! depth-first until no new state appears. A step the interpreter cannot
//! take alone (a guard reads a value no assignment fixed, or two branches
//! are enabled) is taken by enumerating its successors with the SMT
//! solver: the encoded step with the edge and the known values fixed
//! reduces to the edge's few terms, and each model, projected onto the
//! values the step's guard constrains, is one successor; the models are
//! blocked until none is left. A value drawn by `__VERIFIER_nondet_int()`
//! and confined by `assume(0 <= x && x <= 20)` becomes 21 states; a value
//! no guard reads stays unknown, as in the determined run.
//!
//! This is explicit-state model checking in the manner of SPIN and of
//! CPAchecker's value analysis (Beyer, Löwe, FASE 2013) without its
//! abstraction: the states are exact, so the program must have few. It
//! proves the SV-COMP programs whose inputs are bounded to small ranges
//! (nla-digbench-scaling's `valuebound` variants), where the invariants
//! are polynomial and the symbolic engines must reason through
//! multipliers. The states found form an inductive invariant (every
//! successor of a state of the set is in the set), which the certificate
//! checker confirms; a path to the error is a trace that is replayed.

use super::{invariant, trace_verdict, unknown_array, ExplicitStats, Machine, State, Stop};
use crate::engines::InvariantVerdict;
use crate::ir::bv::BvValue;
use crate::ir::cfa::encode::pc_numbers;
use crate::ir::cfa::liveness::live_variables;
use crate::ir::cfa::Loc;
use crate::ir::term::eval::Value;
use crate::ir::term::normalize::{constant_term, Normalizer};
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::ts::Ts;
use crate::smt::{self, SmtResult, SmtSolver};
use crate::util::budget::Budget;
use std::collections::{HashMap, HashSet};

/// The most successors one step may have: a guard that admits more values
/// than this leaves too many states to list.
const MAX_SUCCESSORS: usize = 256;

/// Why the search gave up, for the log.
pub(super) type GaveUp = String;

/// The SMT side of the search: the encoded system's terms (a copy that
/// grows), and a solver started at the first step that needs one.
struct Enumerator<'a> {
    ts: &'a Ts,
    terms: Terms,
    norm: Normalizer,
    solver: Option<Box<dyn SmtSolver>>,
    pc: HashMap<Loc, u64>,
    pc_width: u32,
    edge_input: Term,
    edge_width: u32,
    checks: u64,
}

impl<'a> Enumerator<'a> {
    fn new(ts: &'a Ts, pc: HashMap<Loc, u64>) -> Result<Enumerator<'a>, GaveUp> {
        let edge_input = *ts
            .inputs
            .iter()
            .find(|&&i| ts.terms.var_name(i) == Some("edge"))
            .ok_or("the encoded system has no `edge` input")?;
        Ok(Enumerator {
            ts,
            terms: ts.terms.clone(),
            norm: Normalizer::default(),
            solver: None,
            pc,
            pc_width: ts.terms.sort(ts.states[0].var).bv_width().expect("pc"),
            edge_width: ts.terms.sort(edge_input).bv_width().expect("edge"),
            edge_input,
            checks: 0,
        })
    }

    fn constant(&mut self, sort: &Sort, v: &Value) -> Result<Term, GaveUp> {
        constant_term(&mut self.terms, v, sort).ok_or_else(|| format!("no constant for {v}"))
    }

    /// Every state edge `k` leads to from `state` at `loc`, or why they
    /// cannot be listed.
    fn successors(
        &mut self,
        backend: smt::Backend,
        budget: &Budget,
        loc: Loc,
        state: &State,
        k: usize,
        (to, live): (Loc, &[bool]),
    ) -> Result<Vec<State>, GaveUp> {
        let ts = self.ts;
        let mut fixed = HashMap::new();
        let pc = self
            .terms
            .bv(BvValue::from_u64(self.pc_width, self.pc[&loc]));
        fixed.insert(ts.states[0].var, pc);
        let on = self.terms.bool(true);
        fixed.insert(ts.states[1].var, on);
        let edge = self.terms.bv(BvValue::from_u64(self.edge_width, k as u64));
        fixed.insert(self.edge_input, edge);
        for (s, v) in ts.states[2..].iter().zip(state) {
            match v {
                Some(Value::Array(a)) if a.is_partial() => {}
                Some(v) => {
                    let sort = self.terms.sort(s.var).clone();
                    let c = self.constant(&sort, v)?;
                    fixed.insert(s.var, c);
                }
                None => {}
            }
        }
        let roots: Vec<Term> = (ts.states.iter())
            .map(|s| s.next.unwrap_or(s.var))
            .collect();
        let residual = self.norm.partial(&mut self.terms, &roots, &fixed);
        let target = self
            .terms
            .bv(BvValue::from_u64(self.pc_width, self.pc[&to]));
        let arrives = self.terms.eq(residual[0], target);
        let guard = self.terms.and_all(&[residual[1], arrives]);
        if matches!(self.terms.op(guard), Op::Bool(false)) {
            return Ok(Vec::new());
        }
        let constrained: HashSet<Term> = (self.terms.topological(&[guard]).into_iter())
            .filter(|&t| matches!(self.terms.op(t), Op::Var(..)))
            .collect();
        if constrained
            .iter()
            .any(|&t| matches!(self.terms.sort(t), Sort::Array(..)))
        {
            return Err("a step's guard reads an array no run fixed".into());
        }
        // Each variable after the step: a constant, a value the guard's
        // model fixes (every variable it reads is one the guard reads), or
        // unknown.
        enum After {
            Same,
            Known(Value),
            Fixed(Term),
            Unknown,
        }
        let mut after = Vec::with_capacity(state.len());
        for (i, s) in ts.states[2..].iter().enumerate() {
            let r = residual[i + 2];
            if !live[i] {
                // No later step reads it: one successor for all its values.
                after.push(After::Unknown);
                continue;
            }
            if let Some(c) = constant_value(&self.terms, r) {
                after.push(After::Known(c));
                continue;
            }
            if matches!(self.terms.sort(r), Sort::Array(..)) {
                if r == s.var {
                    after.push(After::Same);
                    continue;
                }
                return Err("a step writes an array from values no run fixed".into());
            }
            if r == s.var && !constrained.contains(&r) {
                // Unknown before and untouched.
                after.push(After::Same);
                continue;
            }
            let free = (self.terms.topological(&[r]).into_iter())
                .filter(|&t| matches!(self.terms.op(t), Op::Var(..)));
            match free.into_iter().all(|t| constrained.contains(&t)) {
                true => after.push(After::Fixed(r)),
                false => after.push(After::Unknown),
            }
        }
        if self.solver.is_none() {
            self.solver = Some(backend.start(budget)?);
        }
        let solver = self.solver.as_mut().expect("started above");
        solver.push();
        solver.assert(&self.terms, guard);
        let mut out = Vec::new();
        let result = loop {
            self.checks += 1;
            match solver.check(&self.terms, &[]) {
                SmtResult::Unsat => break Ok(()),
                SmtResult::Unknown(why) => break Err(format!("a step's query gave up ({why})")),
                SmtResult::Sat => {}
            }
            if out.len() == MAX_SUCCESSORS {
                break Err(format!("a step has more than {MAX_SUCCESSORS} successors"));
            }
            let mut next: State = Vec::with_capacity(state.len());
            let mut differ = Vec::new();
            let mut failed = None;
            for (a, old) in after.iter().zip(state) {
                next.push(match a {
                    After::Same => old.clone(),
                    After::Known(v) => Some(v.clone()),
                    After::Unknown => None,
                    After::Fixed(r) => match solver.value(&self.terms, *r) {
                        Ok(v) => {
                            let sort = self.terms.sort(*r).clone();
                            match constant_term(&mut self.terms, &v, &sort) {
                                Some(c) => {
                                    let same = self.terms.eq(*r, c);
                                    differ.push(self.terms.not(same));
                                }
                                None => failed = Some(format!("no constant for {v}")),
                            }
                            Some(v)
                        }
                        Err(e) => {
                            failed = Some(e);
                            None
                        }
                    },
                });
            }
            if let Some(why) = failed {
                break Err(why);
            }
            out.push(next);
            if differ.is_empty() {
                break Ok(());
            }
            let block = self.terms.or_all(&differ);
            solver.assert(&self.terms, block);
        };
        solver.pop();
        result.map(|()| out)
    }
}

/// The value of a constant term.
fn constant_value(terms: &Terms, t: Term) -> Option<Value> {
    match terms.op(t) {
        Op::Bool(b) => Some(Value::Bool(*b)),
        Op::Bv(v) => Some(Value::Bv(v.clone())),
        _ => None,
    }
}

/// Searches the program's states from its start, at most `cap` of them:
/// the verdict (an invariant of the states, or the trace of a path to the
/// error), or why the search gave up.
pub(super) fn search(
    machine: &mut Machine<'_>,
    ts: &Ts,
    cap: usize,
    backend: smt::Backend,
    (budget, tracing): (&Budget, &Budget),
    stats: &mut ExplicitStats,
) -> Result<InvariantVerdict, GaveUp> {
    let cfa = machine.cfa;
    let live = live_variables(cfa);
    let pc: HashMap<Loc, u64> = (pc_numbers(cfa).into_iter())
        .map(|(l, i)| (l, i as u64))
        .collect();
    let mut smt = Enumerator::new(ts, pc)?;
    let start: State = (cfa.vars.iter())
        .map(|&v| unknown_array(cfa.terms.sort(v)))
        .collect();
    let anywhere: State = vec![None; cfa.vars.len()];
    let mut outgoing = vec![0usize; cfa.labels.len()];
    for e in &cfa.edges {
        outgoing[e.from.0 as usize] += 1;
    }
    let mut states: Vec<(Loc, State)> = vec![(cfa.init, start.clone())];
    // How each state was first reached: its predecessor and the edge.
    let mut parent: Vec<Option<(usize, usize)>> = vec![None];
    let mut index: HashMap<(Loc, State), usize> = HashMap::from([((cfa.init, start), 0)]);
    let mut stack = vec![0usize];
    let result = 'search: loop {
        let Some(i) = stack.pop() else {
            break Ok(None);
        };
        if budget.expired() {
            break Err(budget.reason().to_string());
        }
        let (loc, state) = states[i].clone();
        if loc == cfa.error {
            break Ok(Some(i));
        }
        for (k, step) in machine.step(loc, &state) {
            let to = cfa.edges[k].to;
            let next = match step {
                // Where nothing goes on (`abort()`), the values do not
                // matter: one state with all of them unknown stands for
                // every state there, instead of one per input the guard
                // rules out.
                _ if to != cfa.error && outgoing[to.0 as usize] == 0 => vec![anywhere.clone()],
                Ok(Some(mut n)) => {
                    // States that differ only where nothing reads are one.
                    for (v, &l) in n.iter_mut().zip(&live[to.0 as usize]) {
                        if !l {
                            *v = None;
                        }
                    }
                    vec![n]
                }
                Ok(None) => Vec::new(),
                Err(Stop::Undetermined(_) | Stop::Nondeterministic(_)) => {
                    let to = (to, &live[to.0 as usize][..]);
                    match smt.successors(backend, budget, loc, &state, k, to) {
                        Ok(n) => n,
                        Err(why) => break 'search Err(why),
                    }
                }
                Err(Stop::Limit) => break 'search Err(budget.reason().to_string()),
            };
            for n in next {
                let key = (to, n);
                if index.contains_key(&key) {
                    continue;
                }
                if states.len() >= cap {
                    break 'search Err(format!("more than {cap} states"));
                }
                index.insert(key.clone(), states.len());
                stack.push(states.len());
                states.push(key);
                parent.push(Some((i, k)));
            }
        }
    };
    stats.states = states.len();
    stats.smt_steps += smt.checks;
    match result? {
        None => Ok(invariant(cfa, ts, &states)),
        Some(error) => {
            let mut path = Vec::new();
            let mut at = error;
            while let Some((p, k)) = parent[at] {
                path.push((k, states[at].1.clone()));
                at = p;
            }
            path.reverse();
            Ok(trace_verdict(cfa, ts, &path, backend, tracing, stats))
        }
    }
}
