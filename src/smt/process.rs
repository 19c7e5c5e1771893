//! z3 or cvc5 in a child process behind the [`SmtSolver`] trait, for
//! cross-checking the in-house solver and in tests; never required.
//!
//! Terms reach the process as SMT-LIB text: each compound subterm is named
//! once by a `define-fun` (global declarations, so names outlive `pop`) and
//! later assertions refer to it by name, so the text stays linear in the DAG.
//! Assumptions go through `check-sat-assuming` and cores come back from
//! `get-unsat-assumptions`. Terms must use SMT-LIB operators only (the
//! callers lower BTOR2's extras first, `formats::smtlib::lower`).

use super::solver::{SatAnswer, Solver, SolverKind};
use super::{SmtResult, SmtSolver, SolverStats};
use crate::ir::term::eval::Value;
use crate::ir::term::print::quote_symbol;
use crate::ir::term::print::Printer;
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::util::budget::Budget;
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// A solver process.
pub struct ProcessSmt {
    solver: Solver,
    budget: Budget,
    /// Names of the compound terms the process has definitions of (`%t<n>`).
    names: HashMap<Term, String>,
    /// Variables the process has declarations of (by their own names).
    declared: HashSet<Term>,
    /// The last check's assumptions, as sent.
    assumed: Vec<(Term, String)>,
    core: Vec<Term>,
    /// Why the process can take no more (a failed write or reply).
    failed: Option<String>,
    stats: SolverStats,
}

impl ProcessSmt {
    /// Starts `kind`; the error says that the program is missing.
    pub fn start(kind: SolverKind, budget: Budget) -> Result<ProcessSmt, String> {
        let mut solver = Solver::start(kind)?;
        solver.send(
            "(set-option :global-declarations true)\n(set-option :produce-unsat-assumptions true)\n",
        )?;
        Ok(ProcessSmt {
            solver,
            budget,
            names: HashMap::new(),
            declared: HashSet::new(),
            assumed: Vec::new(),
            core: Vec::new(),
            failed: None,
            stats: SolverStats::default(),
        })
    }

    /// The text of `root` in the process (a variable's symbol, a
    /// constant, or the name of its definition), sending the declarations
    /// and definitions of what the process does not know yet.
    fn named(&mut self, terms: &Terms, root: Term) -> String {
        let mut text = String::new();
        // One printer that knows every definition (the map moves in and out).
        let mut printer = Printer::new(terms);
        printer.names = std::mem::take(&mut self.names);
        for t in terms.topological(&[root]) {
            if printer.names.contains_key(&t) || self.declared.contains(&t) {
                continue;
            }
            match terms.op(t) {
                Op::Var(name, sort) => {
                    text += &format!("(declare-fun {} () {sort})\n", quote_symbol(name));
                    self.declared.insert(t);
                }
                Op::Bool(_) | Op::Bv(_) | Op::Num(..) => {}
                _ => {
                    let name = format!("%t{}", t.index());
                    let sort = terms.sort(t);
                    text += &format!("(define-fun {name} () {sort} {})\n", printer.term(t));
                    printer.names.insert(t, name);
                }
            }
        }
        self.names = printer.names;
        self.send(&text);
        match self.names.get(&root) {
            Some(name) => name.clone(),
            // A variable or a constant.
            None => Printer::new(terms).term(root),
        }
    }

    fn send(&mut self, text: &str) {
        if self.failed.is_none() && !text.is_empty() {
            if let Err(e) = self.solver.send(text) {
                self.failed = Some(e);
            }
        }
    }

    fn get_core(&mut self) -> Result<Vec<Term>, String> {
        let reply = self.solver.query("(get-unsat-assumptions)\n")?;
        let named: HashMap<&str, Term> = (self.assumed.iter())
            .map(|(t, n)| (n.as_str(), *t))
            .collect();
        // The reply lists assumptions as sent: names, or `(not name)`.
        let mut core = Vec::new();
        for part in super::solver::list_items(&reply)? {
            match named.get(part.as_str()) {
                Some(&t) => core.push(t),
                None => return Err(format!("unexpected unsat assumption `{part}`")),
            }
        }
        Ok(core)
    }
}

impl SmtSolver for ProcessSmt {
    fn name(&self) -> &'static str {
        self.solver.kind().name()
    }

    fn assert(&mut self, terms: &Terms, t: Term) {
        let name = self.named(terms, t);
        self.send(&format!("(assert {name})\n"));
    }

    fn push(&mut self) {
        self.send("(push 1)\n");
    }

    fn pop(&mut self) {
        self.send("(pop 1)\n");
    }

    fn check(&mut self, terms: &Terms, assumptions: &[Term]) -> SmtResult {
        let start = Instant::now();
        self.core.clear();
        self.assumed = (assumptions.iter())
            .map(|&a| (a, self.named(terms, a)))
            .collect();
        let command = if self.assumed.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = self.assumed.iter().map(|(_, n)| n.as_str()).collect();
            format!("(check-sat-assuming ({}))\n", names.join(" "))
        };
        if let Some(e) = &self.failed {
            return SmtResult::Unknown(e.clone());
        }
        let answer = self.solver.check_with(self.budget.deadline(), &command);
        self.stats.checks += 1;
        self.stats.time += start.elapsed();
        match answer {
            Ok(SatAnswer::Sat) => SmtResult::Sat,
            Ok(SatAnswer::Unsat) => {
                match self.get_core() {
                    Ok(core) => self.core = core,
                    // Every assumption is a core, if not the smallest.
                    Err(_) => self.core = assumptions.to_vec(),
                }
                SmtResult::Unsat
            }
            Ok(SatAnswer::Unknown) if self.budget.expired() => SmtResult::Unknown("timeout".into()),
            Ok(SatAnswer::Unknown) => {
                SmtResult::Unknown(format!("{} answered unknown", self.name()))
            }
            Err(e) => {
                self.failed = Some(e.clone());
                SmtResult::Unknown(e)
            }
        }
    }

    fn value(&mut self, terms: &Terms, t: Term) -> Result<Value, String> {
        let sort = terms.sort(t).clone();
        if let Sort::Array(..) = sort {
            return Err(format!("{} array values are not read", self.name()));
        }
        // Printed inline over known definitions: a definition sent now would
        // end the model (cvc5 then answers with stale values).
        let fresh = (terms.topological(&[t]).into_iter())
            .find(|v| matches!(terms.op(*v), Op::Var(..)) && !self.declared.contains(v));
        if fresh.is_some() {
            // Declaring it now would end the model; any value of a variable
            // the assertions do not mention is a model value.
            if matches!(terms.op(t), Op::Var(..)) {
                return Ok(Value::default_of(&sort));
            }
            return Err("a term over variables the assertions do not mention".into());
        }
        let mut printer = Printer::new(terms);
        printer.names = std::mem::take(&mut self.names);
        let text = printer.term(t);
        self.names = printer.names;
        let mut values = self.solver.values(&[(text, sort)])?;
        values.pop().ok_or_else(|| "no value".into())
    }

    fn unsat_core(&self) -> Vec<Term> {
        self.core.clone()
    }

    fn stats(&self) -> SolverStats {
        self.stats.clone()
    }
}
