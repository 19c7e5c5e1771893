//! The proof checker's own encoding of a transition system, as SMT-LIB text
//! (it shares no code with the engine's term-level `smt::unfold`), one copy
//! per step: state `i` at step
//! `k` is the constant `s{i}@{k}`, input `j` is `i{j}@{k}`, and the shared
//! subterms of step `k` are `d{n}@{k}`, so a step is linear in the size of
//! the term DAG.

use crate::formats::smtlib::lower::lower;
use crate::ir::term::print::{shared_subterms, Printer};
use crate::ir::term::{Op, Sort, Term};
use crate::ir::ts::Ts;

/// A declared constant and its sort.
pub type Symbol = (String, Sort);

/// Prints the steps of one transition system.
pub struct Unroller {
    /// The system with non-SMT-LIB operators replaced by their definitions.
    ts: Ts,
    /// Subterms used more than once by what a step needs: constraints, bad
    /// terms, next functions, relational transitions, initial conditions.
    shared: Vec<Term>,
}

/// `ts` with the operators outside SMT-LIB (BTOR2's reductions, overflow
/// predicates, variable rotations) replaced by their definitions, as the
/// VMT writer does, and the lowered terms a step needs. States and inputs
/// are unchanged, so traces carry over.
fn standard(ts: &Ts) -> (Ts, Vec<Term>) {
    let mut out = ts.clone();
    let lowered = lower(&mut out.terms, &ts.roots());
    out.replace_roots(&lowered);
    (out, lowered)
}

impl Unroller {
    /// An unroller of `ts`.
    pub fn new(ts: &Ts) -> Unroller {
        let (ts, roots) = standard(ts);
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
    fn printer(&self, k: usize) -> Printer<'_> {
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

    /// The text of `t` with `printer` (of a step whose definitions exist):
    /// a shared subterm is its name, a variable its step's symbol.
    fn text(&self, printer: &Printer, t: Term) -> String {
        match printer.names.get(&t) {
            Some(name) if !matches!(self.ts.terms.op(t), Op::Var(..)) => name.clone(),
            _ => printer.term(t),
        }
    }

    /// The initial condition on step 0, as one formula.
    pub fn init(&self) -> String {
        let printer = self.printer(0);
        let mut parts = Vec::new();
        for (i, s) in self.ts.states.iter().enumerate() {
            if let Some(init) = s.init {
                let value = self.text(&printer, init);
                parts.push(format!("(= {} {value})", self.state(i, 0)));
            }
        }
        parts.extend(self.ts.init.iter().map(|&t| self.text(&printer, t)));
        junction("and", "true", parts)
    }

    /// The transition from step `k` to `k + 1` with the constraints of step
    /// `k`, as one formula.
    pub fn trans(&self, k: usize) -> String {
        let printer = self.printer(k);
        let mut parts = Vec::new();
        for (i, s) in self.ts.states.iter().enumerate() {
            if let Some(next) = s.next {
                let value = self.text(&printer, next);
                parts.push(format!("(= {} {value})", self.state(i, k + 1)));
            }
        }
        parts.extend(self.ts.trans.iter().map(|&t| self.text(&printer, t)));
        parts.push(self.constraints(k));
        junction("and", "true", parts)
    }

    /// The constraints of step `k`.
    pub fn constraints(&self, k: usize) -> String {
        let printer = self.printer(k);
        let parts = (self.ts.constraints.iter())
            .map(|&t| self.text(&printer, t))
            .collect();
        junction("and", "true", parts)
    }

    /// Whether one of the bad properties `watched` holds at step `k`.
    pub fn bad(&self, watched: &[usize], k: usize) -> String {
        let printer = self.printer(k);
        let parts = (watched.iter())
            .map(|&p| self.text(&printer, self.ts.bad[p].term))
            .collect();
        junction("or", "false", parts)
    }

    /// States `a` and `b` differ (for simple-path constraints).
    pub fn differ(&self, a: usize, b: usize) -> String {
        let eqs: Vec<String> = (0..self.ts.states.len())
            .map(|i| format!("(= {} {})", self.state(i, a), self.state(i, b)))
            .collect();
        format!("(not {})", junction("and", "true", eqs))
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

/// `parts` joined by `op` (`and`, `or`), or `unit` when there are none.
fn junction(op: &str, unit: &str, parts: Vec<String>) -> String {
    match parts.len() {
        0 => unit.into(),
        1 => parts.into_iter().next().expect("one part"),
        _ => format!("({op} {})", parts.join(" ")),
    }
}
