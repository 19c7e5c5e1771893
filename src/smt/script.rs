//! `invar smt`: an SMT-LIB v2.6 front end on an [`SmtSolver`] (by default
//! invar's own), for QF_BV, QF_LIA, QF_LRA and QF_ABV with small arrays.
//! Answers are printed as other solvers print them (`sat`, `unsat`,
//! `unknown`, `((t v) …)`, `(model …)`); a command that cannot be carried
//! out prints `(error "file:line: …")` and the script goes on; a script
//! that cannot be read any further ends with such an error.

use super::{SmtResult, SmtSolver};
use crate::formats::smtlib::{Command, ScriptReader};
use crate::ir::bv::BvValue;
use crate::ir::term::eval::Value;
use crate::ir::term::print::Printer;
use crate::ir::term::{Rational, Sort, Term, Terms};
use std::collections::HashMap;
use std::io::Write;

/// What a script run ended with.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    /// The script was read to its end (or `exit`).
    Completed,
    /// It could not be read any further (the error was printed).
    Unreadable,
}

/// Runs the script `text` of `file` on `solver`, printing answers to `out`.
pub fn run(
    file: &str,
    text: &str,
    solver: &mut dyn SmtSolver,
    out: &mut dyn Write,
) -> std::io::Result<Ending> {
    let mut terms = Terms::new();
    let mut reader = ScriptReader::new(file, text, &mut terms);
    let mut names: HashMap<Term, String> = HashMap::new();
    // Named assertions are checked as assumptions, so that cores name them.
    let mut named: Vec<Vec<Term>> = vec![Vec::new()];
    let mut last: Option<SmtResult> = None;
    let mut last_assumptions: Vec<Term> = Vec::new();
    loop {
        let command = match reader.next_command() {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(Ending::Completed),
            Err(e) => {
                writeln!(out, "(error \"{}\")", escape(&e.to_string()))?;
                return Ok(Ending::Unreadable);
            }
        };
        let line = reader.line();
        let error = |out: &mut dyn Write, message: &str| {
            writeln!(out, "(error \"{file}:{line}: {}\")", escape(message))
        };
        match command {
            Command::Done | Command::SetOption(..) => {}
            Command::Assert { term, name } => match name {
                Some(n) => {
                    names.insert(term, n);
                    named.last_mut().expect("a scope").push(term);
                }
                None => solver.assert(reader.terms(), term),
            },
            Command::CheckSat | Command::CheckSatAssuming(_) => {
                let mut assumptions: Vec<Term> = named.iter().flatten().copied().collect();
                if let Command::CheckSatAssuming(extra) = &command {
                    assumptions.extend(extra);
                    last_assumptions = extra.clone();
                } else {
                    last_assumptions.clear();
                }
                let result = solver.check(reader.terms(), &assumptions);
                writeln!(
                    out,
                    "{}",
                    match &result {
                        SmtResult::Sat => "sat",
                        SmtResult::Unsat => "unsat",
                        SmtResult::Unknown(_) => "unknown",
                    }
                )?;
                last = Some(result);
            }
            Command::Push(n) => {
                for _ in 0..n {
                    solver.push();
                    named.push(Vec::new());
                }
                last = None;
            }
            Command::Pop(n) => {
                for _ in 0..n {
                    solver.pop();
                    named.pop();
                }
                last = None;
            }
            Command::GetValue(ts) => {
                if last != Some(SmtResult::Sat) {
                    error(out, "get-value needs a check that answered sat")?;
                    continue;
                }
                let printer = Printer::new(reader.terms());
                let mut parts = Vec::new();
                for t in ts {
                    match solver.value(reader.terms(), t) {
                        Ok(v) => parts.push(format!("({} {})", printer.term(t), value_text(&v))),
                        Err(e) => {
                            parts.clear();
                            error(out, &e)?;
                            break;
                        }
                    }
                }
                if !parts.is_empty() {
                    writeln!(out, "({})", parts.join("\n "))?;
                }
            }
            Command::GetModel => {
                if last != Some(SmtResult::Sat) {
                    error(out, "get-model needs a check that answered sat")?;
                    continue;
                }
                let mut text = String::from("(model\n");
                for t in reader.declared() {
                    let terms = reader.terms();
                    match solver.value(terms, t) {
                        Ok(v) => text.push_str(&format!(
                            "  (define-fun {} () {} {})\n",
                            Printer::new(terms).term(t),
                            terms.sort(t),
                            value_text(&v)
                        )),
                        Err(e) => {
                            error(out, &e)?;
                            text.clear();
                            break;
                        }
                    }
                }
                if !text.is_empty() {
                    writeln!(out, "{text})")?;
                }
            }
            Command::GetUnsatCore | Command::GetUnsatAssumptions => {
                if last != Some(SmtResult::Unsat) {
                    error(out, "needs a check that answered unsat")?;
                    continue;
                }
                let core = solver.unsat_core();
                let printer = Printer::new(reader.terms());
                let shown: Vec<String> = if command == Command::GetUnsatCore {
                    core.iter().filter_map(|t| names.get(t).cloned()).collect()
                } else {
                    (core.iter())
                        .filter(|t| last_assumptions.contains(t))
                        .map(|&t| printer.term(t))
                        .collect()
                };
                writeln!(out, "({})", shown.join(" "))?;
            }
            Command::Echo(s) => writeln!(out, "{s}")?,
            Command::GetInfo(key) => match key.as_str() {
                "name" => writeln!(out, "(:name \"invar\")")?,
                "version" => writeln!(out, "(:version \"{}\")", env!("CARGO_PKG_VERSION"))?,
                "reason-unknown" => match &last {
                    Some(SmtResult::Unknown(why)) => {
                        writeln!(out, "(:reason-unknown \"{}\")", escape(why))?
                    }
                    _ => error(out, "the last check did not answer unknown")?,
                },
                _ => error(out, &format!("unsupported info `:{key}`"))?,
            },
            Command::Exit => return Ok(Ending::Completed),
        }
    }
}

fn escape(s: &str) -> String {
    s.replace('"', "\"\"")
}

/// A value in SMT-LIB syntax.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Bv(b) => bv_text(b),
        Value::Num(r) => number_text(*r),
        Value::Array(a) => {
            let sort = index_sort(a);
            let mut text = format!(
                "((as const (Array {sort} {})) {})",
                value_sort(&a.default),
                value_text(&a.default)
            );
            for (i, e) in &a.entries {
                text = format!("(store {text} {} {})", value_text(i), value_text(e));
            }
            text
        }
    }
}

fn bv_text(b: &BvValue) -> String {
    let w = b.width();
    let bits: String = (0..w)
        .rev()
        .map(|i| if b.bit(i) { '1' } else { '0' })
        .collect();
    format!("#b{bits}")
}

fn number_text(r: Rational) -> String {
    let (n, d) = (r.numer(), r.denom());
    let magnitude = if d == 1 {
        n.unsigned_abs().to_string()
    } else {
        format!("(/ {} {})", n.unsigned_abs(), d)
    };
    if n < 0 {
        format!("(- {magnitude})")
    } else {
        magnitude
    }
}

fn value_sort(v: &Value) -> Sort {
    match v {
        Value::Bool(_) => Sort::Bool,
        Value::Bv(b) => Sort::BitVec(b.width()),
        Value::Num(_) => Sort::Real,
        Value::Array(a) => Sort::array(index_sort(a), value_sort(&a.default)),
    }
}

fn index_sort(a: &crate::ir::term::eval::ArrayValue) -> Sort {
    match a.entries.keys().next() {
        Some(i) => value_sort(i),
        None => a.index_sort().cloned().unwrap_or(Sort::Bool),
    }
}
