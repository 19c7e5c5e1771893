//! `invar smt`: an SMT-LIB v2.6 front end on an [`SmtSolver`] (by default
//! invar's own), for QF_BV, QF_LIA, QF_LRA and QF_ABV with small arrays.
//! Answers are printed as other solvers print them (`sat`, `unsat`,
//! `unknown`, `((t v) …)`, `(model …)`); a command that cannot be carried
//! out prints `(error "file:line: …")` and the script goes on; a script
//! that cannot be read any further ends with such an error.

use super::{SmtResult, SmtSolver};
use crate::formats::smtlib::{Command, ScriptReader};
use crate::ir::term::eval::Value;
use crate::ir::term::print::Printer;
use crate::ir::term::{Op, Sort, Term, Terms};
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

/// Constants the assertions in scope give variables (`(= x c)` among an
/// assertion's top-level conjuncts), and terms they define variables as
/// (`(= x t)`, `x` not in `t`), put into each later assertion before
/// the solver sees it, which then folds: a proof checker's query that
/// fixes a location and its values reduces the transition relation to
/// that location's edges, where the solver would otherwise search the
/// whole of it. The equalities themselves stay asserted, so models and
/// cores are those of the script as written. The folding is this file's
/// own (the reference evaluator on constant operands, and the identities
/// of `ite`, `and`, `or` and reads over writes), apart from the engines'
/// rewriting: the checkers read proofs through this runner.
#[derive(Default)]
struct Fixed {
    values: HashMap<Term, Term>,
    /// Per scope (`push`), the variables it fixed.
    scopes: Vec<Vec<Term>>,
}

impl Fixed {
    /// `term` with the fixed variables replaced (and folded); the
    /// variables it fixes are recorded for the assertions after it.
    fn assert(&mut self, terms: &mut Terms, term: Term) -> Term {
        let term = match self.values.is_empty() {
            true => term,
            false => fold(terms, term, &self.values),
        };
        let mut parts = Vec::new();
        let mut conjuncts = vec![term];
        while let Some(c) = conjuncts.pop() {
            match terms.op(c) {
                Op::And => conjuncts.extend(terms.args(c).iter().rev()),
                _ => parts.push(c),
            }
        }
        let (mut defining, mut rest) = (Vec::new(), Vec::new());
        for c in parts {
            let args = terms.args(c).to_vec();
            let (x, value) = match terms.op(c) {
                Op::Var(..) => (c, terms.bool(true)),
                Op::Not if matches!(terms.op(args[0]), Op::Var(..)) => (args[0], terms.bool(false)),
                Op::Eq if args.len() == 2 => match (terms.op(args[0]), terms.op(args[1])) {
                    (Op::Var(..), _) if is_value(terms, args[1]) => (args[0], args[1]),
                    (_, Op::Var(..)) if is_value(terms, args[0]) => (args[1], args[0]),
                    // A definition (a next state's, in a transition): the
                    // step's own terms put in for the variable, so that a
                    // later formula over the next state is one over the
                    // current (its polynomials then meet, `bitblast/poly.rs`).
                    // (Not arrays: a list's heap put into the next
                    // state's listed values made those proofs slower.)
                    (Op::Var(_, sort), _)
                        if !matches!(sort, Sort::Array(..)) && !occurs(terms, args[0], args[1]) =>
                    {
                        (args[0], args[1])
                    }
                    (_, Op::Var(_, sort))
                        if !matches!(sort, Sort::Array(..)) && !occurs(terms, args[1], args[0]) =>
                    {
                        (args[1], args[0])
                    }
                    _ => {
                        rest.push(c);
                        continue;
                    }
                },
                _ => {
                    rest.push(c);
                    continue;
                }
            };
            match self.values.entry(x) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(value);
                    if let Some(scope) = self.scopes.last_mut() {
                        scope.push(x);
                    }
                    defining.push(c);
                }
                std::collections::hash_map::Entry::Occupied(_) => rest.push(c),
            }
        }
        if defining.is_empty() || rest.is_empty() {
            return term;
        }
        // The assertion's other conjuncts see its own definitions too (a
        // location's lemmas over `y` where it fixes `y = c`); the defining
        // equalities stay as they are.
        for c in &mut rest {
            *c = fold(terms, *c, &self.values);
        }
        defining.extend(rest);
        terms.and_all(&defining)
    }

    fn pop(&mut self) {
        for x in self.scopes.pop().unwrap_or_default() {
            self.values.remove(&x);
        }
    }
}

/// Whether the variable `x` occurs in `t`.
fn occurs(terms: &Terms, x: Term, t: Term) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if u == x {
            return true;
        }
        if seen.insert(u) {
            stack.extend_from_slice(terms.args(u));
        }
    }
    false
}

/// Whether `t` is a Bool, bit-vector or number literal.
fn is_literal(terms: &Terms, t: Term) -> bool {
    matches!(terms.op(t), Op::Bool(_) | Op::Bv(_) | Op::Num(..))
}

/// `t` with the variables of `values` replaced, folded bottom-up; the
/// branch an `ite` with a constant condition does not take is not visited.
fn fold(terms: &mut Terms, t: Term, values: &HashMap<Term, Term>) -> Term {
    // Images by term index (the terms visited are the store's before the
    // fold): a proof check folds its transition once per query, thousands
    // of times, and a hash map's lookups were most of the runner's time.
    let mut image: Vec<Option<Term>> = vec![None; terms.len()];
    for (&x, &v) in values {
        image[x.index()] = Some(v);
    }
    let done = |image: &[Option<Term>], a: Term| image[a.index()].is_some();
    let get = |image: &[Option<Term>], a: Term| image[a.index()].expect("folded first");
    // (term, whether its condition or arguments are done)
    let mut stack = vec![(t, false)];
    while let Some((u, ready)) = stack.pop() {
        if done(&image, u) {
            continue;
        }
        let args = terms.args(u).to_vec();
        if args.is_empty() {
            image[u.index()] = Some(u);
            continue;
        }
        let op = terms.op(u).clone();
        if !ready {
            stack.push((u, true));
            match op {
                // The condition first: a constant one picks one branch.
                Op::Ite => stack.push((args[0], false)),
                _ => stack.extend(args.iter().map(|&a| (a, false))),
            }
            continue;
        }
        if op == Op::Ite {
            let c = get(&image, args[0]);
            let taken = match terms.op(c) {
                Op::Bool(true) => Some(args[1]),
                Op::Bool(false) => Some(args[2]),
                _ => None,
            };
            let pending: Vec<Term> = match taken {
                Some(b) => vec![b],
                None => vec![args[1], args[2]],
            };
            let missing: Vec<Term> = pending.into_iter().filter(|&a| !done(&image, a)).collect();
            if !missing.is_empty() {
                stack.push((u, true));
                stack.extend(missing.into_iter().map(|a| (a, false)));
                continue;
            }
            let folded = match taken {
                Some(b) => get(&image, b),
                None => {
                    let (then, other) = (get(&image, args[1]), get(&image, args[2]));
                    match then == other {
                        true => then,
                        false if [c, then, other] == args[..] => u,
                        false => terms.mk(Op::Ite, &[c, then, other]),
                    }
                }
            };
            image[u.index()] = Some(folded);
            continue;
        }
        let new: Vec<Term> = args.iter().map(|&a| get(&image, a)).collect();
        // Unchanged arguments, none of them a literal: nothing to fold.
        let unchanged = new == args && !args.iter().any(|&a| is_literal(terms, a));
        image[u.index()] = Some(match unchanged {
            true => u,
            false => rebuild(terms, op, &new),
        });
    }
    get(&image, t)
}

/// `op` applied to `args`, folded where the arguments allow.
fn rebuild(terms: &mut Terms, op: Op, args: &[Term]) -> Term {
    let is = |terms: &Terms, a: Term, b: bool| *terms.op(a) == Op::Bool(b);
    match op {
        Op::And if args.iter().any(|&a| is(terms, a, false)) => return terms.bool(false),
        Op::Or if args.iter().any(|&a| is(terms, a, true)) => return terms.bool(true),
        Op::And | Op::Or => {
            let unit = op == Op::And;
            let rest: Vec<Term> = args
                .iter()
                .copied()
                .filter(|&a| !is(terms, a, unit))
                .collect();
            return match rest.len() {
                0 => terms.bool(unit),
                1 => rest[0],
                _ => terms.mk(op, &rest),
            };
        }
        // A read at a literal index looks past writes at other literal
        // indices; a write there, or a constant array, is the element.
        Op::Select if is_literal(terms, args[1]) => {
            let (mut a, j) = (args[0], args[1]);
            loop {
                match terms.op(a) {
                    Op::Store => {
                        let (under, i, e) = (terms.args(a)[0], terms.args(a)[1], terms.args(a)[2]);
                        if i == j {
                            return e;
                        }
                        if !is_literal(terms, i) {
                            break;
                        }
                        a = under;
                    }
                    Op::ConstArray(_) => return terms.args(a)[0],
                    _ => break,
                }
            }
            return terms.mk(op, &[a, j]);
        }
        _ => {}
    }
    let t = terms.mk(op.clone(), args);
    // Literal operands: evaluated in a store of their own (an evaluator
    // over the script's store would size a table to all of it per term).
    let mut tiny = Terms::new();
    let mut small = Vec::with_capacity(args.len());
    for &a in args {
        small.push(match terms.op(a) {
            Op::Bool(b) => tiny.bool(*b),
            Op::Bv(v) => tiny.bv(v.clone()),
            _ => return t,
        });
    }
    let Ok(u) = tiny.app(op, &small) else {
        return t;
    };
    match crate::ir::term::eval::Evaluator::new(&tiny).eval(u) {
        Ok(Value::Bool(b)) => terms.bool(b),
        Ok(Value::Bv(v)) => terms.bv(v),
        _ => t,
    }
}

/// Whether `t` is a constant: a literal, or a constant array with stores
/// of literals.
fn is_value(terms: &Terms, t: Term) -> bool {
    match terms.op(t) {
        Op::Bool(_) | Op::Bv(_) | Op::Num(..) => true,
        Op::ConstArray(_) | Op::Store => terms.args(t).iter().all(|&a| is_value(terms, a)),
        _ => false,
    }
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
    let mut fixed = Fixed::default();
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
                None => {
                    let term = fixed.assert(reader.terms_mut(), term);
                    solver.assert(reader.terms(), term)
                }
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
                    fixed.scopes.push(Vec::new());
                }
                last = None;
            }
            Command::Pop(n) => {
                for _ in 0..n {
                    solver.pop();
                    named.pop();
                    fixed.pop();
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

/// A value in SMT-LIB syntax, its sort read off the value.
pub fn value_text(v: &Value) -> String {
    v.smtlib(&value_sort(v))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::inhouse::InvarSmt;
    use crate::util::budget::Budget;

    fn answers(text: &str) -> Vec<String> {
        let mut solver = InvarSmt::new(Budget::unlimited());
        let mut out = Vec::new();
        run("fold", text, &mut solver, &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    /// Answers by hand: a fixed variable folds reads over writes and
    /// `ite`s in later assertions, only in its scope, and stays asserted.
    #[test]
    fn values_fixed_by_assertions_fold_later_ones_within_their_scope() {
        let text = "(declare-const x (_ BitVec 32)) (declare-const y (_ BitVec 8))
            (declare-const a (Array (_ BitVec 32) (_ BitVec 8)))
            (push 1)
            (assert (and (= x #x00000003) true))
            (assert (= (select (store a x y) #x00000003) #x05))
            (assert (ite (= x #x00000003) (bvult y #x06) false))
            (check-sat)
            (get-value (x y))
            (assert (= (select (store a #x00000004 y) x) #x07))
            (assert (= (select a #x00000003) #x06))
            (check-sat)
            (pop 1)
            (assert (= (select (store a x y) #x00000003) #x05))
            (assert (not (= y #x05)))
            (check-sat)
            (assert (= #x00000003 x))
            (check-sat)";
        assert_eq!(
            answers(text),
            [
                "sat",
                "((x #b00000000000000000000000000000011)",
                " (y #b00000101))",
                "unsat",
                "sat",
                "unsat"
            ]
        );
    }
}
