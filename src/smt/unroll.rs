//! A transition system as SMT-LIB text, one copy per step: state `i` at step
//! `k` is the constant `s{i}@{k}`, input `j` is `i{j}@{k}`, and the shared
//! subterms of step `k` are `d{n}@{k}`, so a step is linear in the size of
//! the term DAG.

use crate::formats::smtlib::lower::lower;
use crate::formats::smtlib::print::{shared_subterms, Printer};
use crate::ir::term::{Op, Sort, Term};
use crate::ir::ts::Ts;

/// A declared constant and its sort.
pub type Symbol = (String, Sort);

/// Prints the steps of one transition system.
pub struct Unroller<'a> {
    ts: &'a Ts,
    /// Subterms used more than once by what a step needs: constraints, bad
    /// terms, next functions, relational transitions, initial conditions.
    shared: Vec<Term>,
}

/// `ts` with the operators outside SMT-LIB (BTOR2's reductions, overflow
/// predicates, variable rotations) replaced by their definitions, as the
/// VMT writer does; states and inputs are unchanged, so traces carry over.
pub fn standard(ts: &Ts) -> Ts {
    let mut out = ts.clone();
    let mut roots: Vec<Term> = Vec::new();
    for s in &ts.states {
        roots.extend(s.init);
        roots.extend(s.next);
    }
    roots.extend(&ts.init);
    roots.extend(&ts.trans);
    roots.extend(&ts.constraints);
    roots.extend(ts.bad.iter().map(|p| p.term));
    let lowered = lower(&mut out.terms, &roots);
    let mut it = lowered.into_iter();
    for s in &mut out.states {
        s.init = s.init.map(|_| it.next().expect("one per root"));
        s.next = s.next.map(|_| it.next().expect("one per root"));
    }
    for t in out
        .init
        .iter_mut()
        .chain(&mut out.trans)
        .chain(&mut out.constraints)
    {
        *t = it.next().expect("one per root");
    }
    for p in &mut out.bad {
        p.term = it.next().expect("one per root");
    }
    out
}

/// Why a system cannot go to the SMT engine.
pub fn unsupported(ts: &Ts) -> Option<String> {
    let sorts = ts
        .states
        .iter()
        .map(|s| s.var)
        .chain(ts.inputs.iter().copied());
    for v in sorts {
        if let Sort::Array(..) = ts.terms.sort(v) {
            let name = ts.terms.var_name(v).unwrap_or("?");
            return Some(format!(
                "`{name}` is an array; the SMT engine reads no array values"
            ));
        }
    }
    None
}

impl<'a> Unroller<'a> {
    /// An unroller of `ts`.
    pub fn new(ts: &'a Ts) -> Unroller<'a> {
        let mut roots: Vec<Term> = ts.constraints.clone();
        roots.extend(ts.bad.iter().map(|p| p.term));
        roots.extend(ts.states.iter().filter_map(|s| s.next));
        roots.extend(ts.states.iter().filter_map(|s| s.init));
        roots.extend(&ts.trans);
        roots.extend(&ts.init);
        let shared = shared_subterms(&ts.terms, &roots);
        Unroller { ts, shared }
    }

    /// The symbol of state `i` at step `k`.
    pub fn state(&self, i: usize, k: usize) -> String {
        format!("s{i}@{k}")
    }

    /// The symbol of input `j` at step `k`.
    pub fn input(&self, j: usize, k: usize) -> String {
        format!("i{j}@{k}")
    }

    /// `declare-fun`s for the states of step `k`.
    pub fn declare_states(&self, k: usize) -> String {
        let mut out = String::new();
        for (i, s) in self.ts.states.iter().enumerate() {
            let sort = self.ts.terms.sort(s.var);
            out += &format!("(declare-fun {} () {sort})\n", self.state(i, k));
        }
        out
    }

    /// `declare-fun`s for the inputs of step `k` and definitions of the
    /// shared subterms of step `k`; the states of steps `k` and `k + 1`
    /// must be declared.
    pub fn define_step(&self, k: usize) -> String {
        let mut out = String::new();
        for (j, &i) in self.ts.inputs.iter().enumerate() {
            let sort = self.ts.terms.sort(i);
            out += &format!("(declare-fun {} () {sort})\n", self.input(j, k));
        }
        let printer = self.printer(k);
        for &t in &self.shared {
            let sort = self.ts.terms.sort(t);
            out += &format!(
                "(define-fun {} () {sort} {})\n",
                printer.names[&t],
                printer.term(t)
            );
        }
        out
    }

    /// A printer that writes terms at step `k`.
    fn printer(&self, k: usize) -> Printer<'a> {
        let mut printer = Printer::new(&self.ts.terms);
        for (i, s) in self.ts.states.iter().enumerate() {
            printer.names.insert(s.var, self.state(i, k));
            if let Some(primed) = s.next_var {
                printer.names.insert(primed, self.state(i, k + 1));
            }
        }
        for (j, &i) in self.ts.inputs.iter().enumerate() {
            printer.names.insert(i, self.input(j, k));
        }
        for (n, &t) in self.shared.iter().enumerate() {
            printer.names.insert(t, format!("d{n}@{k}"));
        }
        printer
    }

    /// The text of `t` at step `k` (after [`Unroller::define_step`] of `k`).
    pub fn term(&self, t: Term, k: usize) -> String {
        let printer = self.printer(k);
        match printer.names.get(&t) {
            Some(name) if !matches!(self.ts.terms.op(t), Op::Var(..)) => name.clone(),
            _ => printer.term(t),
        }
    }

    /// The initial condition on step 0, as one formula.
    pub fn init(&self) -> String {
        let mut parts = Vec::new();
        for (i, s) in self.ts.states.iter().enumerate() {
            if let Some(init) = s.init {
                parts.push(format!("(= {} {})", self.state(i, 0), self.term(init, 0)));
            }
        }
        parts.extend(self.ts.init.iter().map(|&t| self.term(t, 0)));
        conjunction(parts)
    }

    /// The transition from step `k` to `k + 1` with the constraints of step
    /// `k`, as one formula.
    pub fn trans(&self, k: usize) -> String {
        let mut parts = Vec::new();
        for (i, s) in self.ts.states.iter().enumerate() {
            if let Some(next) = s.next {
                parts.push(format!(
                    "(= {} {})",
                    self.state(i, k + 1),
                    self.term(next, k)
                ));
            }
        }
        parts.extend(self.ts.trans.iter().map(|&t| self.term(t, k)));
        parts.push(self.constraints(k));
        conjunction(parts)
    }

    /// The constraints of step `k`.
    pub fn constraints(&self, k: usize) -> String {
        conjunction(
            self.ts
                .constraints
                .iter()
                .map(|&t| self.term(t, k))
                .collect(),
        )
    }

    /// Whether one of the bad properties `watched` holds at step `k`.
    pub fn bad(&self, watched: &[usize], k: usize) -> String {
        let parts: Vec<String> = watched
            .iter()
            .map(|&p| self.term(self.ts.bad[p].term, k))
            .collect();
        match parts.len() {
            0 => "false".into(),
            1 => parts[0].clone(),
            _ => format!("(or {})", parts.join(" ")),
        }
    }

    /// States `a` and `b` differ (for simple-path constraints).
    pub fn differ(&self, a: usize, b: usize) -> String {
        let eqs: Vec<String> = (0..self.ts.states.len())
            .map(|i| format!("(= {} {})", self.state(i, a), self.state(i, b)))
            .collect();
        format!("(not {})", conjunction(eqs))
    }

    /// The symbols and sorts of every state and input of steps `0..len`, in
    /// the order [`crate::ir::ts::WordTrace`] keeps them.
    pub fn trace_symbols(&self, len: usize) -> (Vec<Symbol>, Vec<Symbol>) {
        let mut states = Vec::new();
        let mut inputs = Vec::new();
        for k in 0..len {
            for (i, s) in self.ts.states.iter().enumerate() {
                states.push((self.state(i, k), self.ts.terms.sort(s.var).clone()));
            }
            for (j, &v) in self.ts.inputs.iter().enumerate() {
                inputs.push((self.input(j, k), self.ts.terms.sort(v).clone()));
            }
        }
        (states, inputs)
    }
}

fn conjunction(parts: Vec<String>) -> String {
    match parts.len() {
        0 => "true".into(),
        1 => parts.into_iter().next().unwrap(),
        _ => format!("(and {})", parts.join(" ")),
    }
}
