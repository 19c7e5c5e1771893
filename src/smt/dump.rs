//! A solver wrapper that writes every check it forwards as a standalone
//! SMT-LIB script (the assertions in scope and the assumptions, asserted,
//! then `check-sat`), so that the queries an engine asks can be replayed on
//! any solver: `scripts/smt-speed.py` times invar and z3 on them.
//! Enabled by `INVAR_DUMP_SMT=DIR` on the word-level engine.

use super::{SmtResult, SmtSolver, SolverStats};
use crate::ir::term::eval::Value;
use crate::ir::term::print::{shared_subterms, Printer};
use crate::ir::term::{Op, Sort, Term, Terms};
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Scripts written by this process so far (names stay distinct across solvers).
static WRITTEN: AtomicUsize = AtomicUsize::new(0);

/// Forwards to `inner` and writes each check to `dir`.
pub struct Dumping {
    inner: Box<dyn SmtSolver>,
    dir: PathBuf,
    /// The assertions of each open scope (the first: outside every scope).
    scopes: Vec<Vec<Term>>,
}

impl Dumping {
    /// Wraps `inner`; scripts go to `dir` (created if missing).
    pub fn new(inner: Box<dyn SmtSolver>, dir: PathBuf) -> Dumping {
        let _ = std::fs::create_dir_all(&dir);
        Dumping {
            inner,
            dir,
            scopes: vec![Vec::new()],
        }
    }

    fn write(&self, terms: &Terms, assumptions: &[Term]) {
        let roots: Vec<Term> = (self.scopes.iter().flatten())
            .chain(assumptions)
            .copied()
            .collect();
        let text = script(terms, &roots);
        let n = WRITTEN.fetch_add(1, Ordering::Relaxed);
        let name = format!("q{}-{n:06}.smt2", std::process::id());
        // A failed write loses one query of a measurement, not the run.
        let _ = std::fs::write(self.dir.join(name), text);
    }
}

/// `roots` asserted, as a script with its declarations and the shared
/// subterms as definitions.
pub fn script(terms: &Terms, roots: &[Term]) -> String {
    let mut out = String::new();
    let mut logic_int = false;
    let mut logic_real = false;
    let mut logic_bv = false;
    // Constant arrays are in no standard logic (z3 refuses them under QF_ABV).
    let mut const_array = false;
    for t in terms.topological(roots) {
        const_array |= matches!(terms.op(t), Op::ConstArray(_));
        if let Op::Var(name, sort) = terms.op(t) {
            let _ = writeln!(
                out,
                "(declare-fun {} () {sort})",
                crate::ir::term::print::quote_symbol(name)
            );
        }
        match terms.sort(t) {
            Sort::Int => logic_int = true,
            Sort::Real => logic_real = true,
            Sort::BitVec(_) | Sort::Array(..) => logic_bv = true,
            _ => {}
        }
    }
    let mut printer = Printer::new(terms);
    for (k, t) in shared_subterms(terms, roots).into_iter().enumerate() {
        let name = format!("%d{k}");
        let _ = writeln!(
            out,
            "(define-fun {name} () {} {})",
            terms.sort(t),
            printer.term(t)
        );
        printer.names.insert(t, name);
    }
    for &r in roots {
        let text = match printer.names.get(&r) {
            Some(n) => n.clone(),
            None => printer.term(r),
        };
        let _ = writeln!(out, "(assert {text})");
    }
    out += "(check-sat)\n";
    // No standard logic mixes bit-vectors with arithmetic (C under --int
    // keeps its program counter a bit-vector): those scripts say ALL.
    let logic = match (logic_int, logic_real, logic_bv) {
        (true, false, false) => "(set-logic QF_LIA)\n",
        (false, true, false) => "(set-logic QF_LRA)\n",
        (false, false, _) if !const_array => "(set-logic QF_ABV)\n",
        _ => "(set-logic ALL)\n",
    };
    format!("{logic}{out}")
}

impl SmtSolver for Dumping {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn assert(&mut self, terms: &Terms, t: Term) {
        self.scopes.last_mut().expect("a scope").push(t);
        self.inner.assert(terms, t);
    }

    fn push(&mut self) {
        self.scopes.push(Vec::new());
        self.inner.push();
    }

    fn pop(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
        self.inner.pop();
    }

    fn check(&mut self, terms: &Terms, assumptions: &[Term]) -> SmtResult {
        self.write(terms, assumptions);
        self.inner.check(terms, assumptions)
    }

    fn value(&mut self, terms: &Terms, t: Term) -> Result<Value, String> {
        self.inner.value(terms, t)
    }

    fn unsat_core(&self) -> Vec<Term> {
        self.inner.unsat_core()
    }

    fn stats(&self) -> SolverStats {
        self.inner.stats()
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        self.inner.counters()
    }

    fn reads_arrays(&self) -> bool {
        self.inner.reads_arrays()
    }

    fn keep_conflicts(&mut self) -> bool {
        self.inner.keep_conflicts()
    }

    fn conflicts(&self) -> Vec<super::FarkasConflict> {
        self.inner.conflicts()
    }
}
