//! An SMT solver in a child process, driven over SMT-LIB 2 text on its
//! standard input and output: z3 for the engines, cvc5 (or a fresh z3) for
//! checking their proofs. A process boundary keeps invar free of a C++ build
//! dependency and lets the proof checker be a different solver.

use crate::formats::smtlib::lex::{Lexer, Token};
use crate::ir::bv::BvValue;
use crate::ir::term::eval::Value;
use crate::ir::term::{Rational, Sort};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

/// Which solver program to run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SolverKind {
    /// z3 (`INVAR_Z3` names another binary).
    Z3,
    /// cvc5 (`INVAR_CVC5` names another binary).
    Cvc5,
}

impl SolverKind {
    /// The program's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Cvc5 => "cvc5",
        }
    }

    fn command(self) -> Command {
        let settings = crate::util::settings::get();
        let (path, default, args): (_, &str, &[&str]) = match self {
            SolverKind::Z3 => (&settings.z3, "z3", &["-in", "-smt2"]),
            SolverKind::Cvc5 => (
                &settings.cvc5,
                "cvc5",
                &["--lang=smt2", "--incremental", "--produce-models"],
            ),
        };
        let mut c = Command::new(path.clone().unwrap_or_else(|| default.into()));
        // Its own process group, so that an early end of the run can kill it.
        c.args(args).process_group(0);
        c
    }
}

/// The answer to a `check-sat`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    /// Satisfiable: a model can be asked for.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up or ran out of time.
    Unknown,
}

/// A running solver process. Dropping it kills the process.
pub struct Solver {
    kind: SolverKind,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// `check-sat` calls so far.
    pub checks: u64,
}

impl Solver {
    /// Starts `kind`; the error says that the program is missing.
    pub fn start(kind: SolverKind) -> Result<Solver, String> {
        let mut child = kind
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {} ({e})", kind.name()))?;
        crate::util::children::register(child.id());
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut solver = Solver {
            kind,
            child,
            input,
            output,
            checks: 0,
        };
        solver.send("(set-option :print-success false)\n(set-option :produce-models true)\n")?;
        Ok(solver)
    }

    /// Which solver this is.
    pub fn kind(&self) -> SolverKind {
        self.kind
    }

    /// Sends commands that print nothing.
    pub fn send(&mut self, text: &str) -> Result<(), String> {
        self.input
            .write_all(text.as_bytes())
            .map_err(|e| format!("{} stopped: {e}", self.kind.name()))
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.output.read_line(&mut line) {
            Ok(0) => Err(format!("{} ended unexpectedly", self.kind.name())),
            Ok(_) => Ok(line),
            Err(e) => Err(format!("{} stopped: {e}", self.kind.name())),
        }
    }

    /// `check-sat`, giving up at `deadline` (the solver's own time limit).
    pub fn check(&mut self, deadline: Option<Instant>) -> Result<SatAnswer, String> {
        self.check_with(deadline, "")
    }

    /// `command` (a `check-sat-assuming`; empty: `check-sat`), giving up at
    /// `deadline`.
    pub fn check_with(
        &mut self,
        deadline: Option<Instant>,
        command: &str,
    ) -> Result<SatAnswer, String> {
        if let Some(d) = deadline {
            let ms = d
                .saturating_duration_since(Instant::now())
                .as_millis()
                .max(1);
            let option = match self.kind {
                SolverKind::Z3 => "timeout",
                SolverKind::Cvc5 => "tlimit-per",
            };
            self.send(&format!("(set-option :{option} {ms})\n"))?;
        }
        self.send(if command.is_empty() {
            "(check-sat)\n"
        } else {
            command
        })?;
        self.input.flush().map_err(|e| e.to_string())?;
        self.checks += 1;
        let line = self.read_line()?;
        match line.trim() {
            "sat" => Ok(SatAnswer::Sat),
            "unsat" => Ok(SatAnswer::Unsat),
            "unknown" | "timeout" => Ok(SatAnswer::Unknown),
            other => Err(format!("{} answered `{other}`", self.kind.name())),
        }
    }

    /// Sends `command` and reads its reply, one balanced S-expression.
    pub fn query(&mut self, command: &str) -> Result<String, String> {
        self.send(command)?;
        self.input.flush().map_err(|e| e.to_string())?;
        let mut text = String::new();
        let mut depth = 0i64;
        loop {
            let line = self.read_line()?;
            for c in line.chars() {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
            }
            text += &line;
            if depth <= 0 && text.contains('(') {
                break;
            }
        }
        if text.trim_start().starts_with("(error") {
            return Err(format!("{}: {}", self.kind.name(), text.trim()));
        }
        Ok(text)
    }

    /// The values of `symbols` (of the given sorts) in the last model.
    pub fn values(&mut self, symbols: &[(String, Sort)]) -> Result<Vec<Value>, String> {
        if symbols.is_empty() {
            return Ok(Vec::new());
        }
        let names: Vec<&str> = symbols.iter().map(|(n, _)| n.as_str()).collect();
        let text = self.query(&format!("(get-value ({}))\n", names.join(" ")))?;
        let reply = parse_sexp(&text)?;
        let Sexp::List(pairs) = reply else {
            return Err(format!("unexpected get-value reply: {text}"));
        };
        if pairs.len() != symbols.len() {
            return Err(format!("get-value returned {} values", pairs.len()));
        }
        (pairs.iter().zip(symbols))
            .map(|(pair, (_, sort))| match pair {
                Sexp::List(p) if p.len() == 2 => value_of(&p[1], sort),
                _ => Err(format!("unexpected get-value pair in {text}")),
            })
            .collect()
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        crate::util::children::unregister(self.child.id());
    }
}

/// The items of a reply that is a list of symbols, each as SMT-LIB would
/// write it (quoted where needed).
pub fn list_items(text: &str) -> Result<Vec<String>, String> {
    match parse_sexp(text)? {
        Sexp::List(items) => items
            .into_iter()
            .map(|i| match i {
                Sexp::Atom(a) => Ok(crate::ir::term::print::quote_symbol(&a)),
                other => Err(format!("unexpected {other:?} in a list of symbols")),
            })
            .collect(),
        Sexp::Atom(a) => Err(format!("expected a list, got `{a}`")),
    }
}

/// An S-expression of a solver's reply.
#[derive(Clone, Debug, PartialEq)]
enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

fn parse_sexp(text: &str) -> Result<Sexp, String> {
    let mut lexer = Lexer::new(text);
    let mut stack: Vec<Vec<Sexp>> = vec![Vec::new()];
    while let Some(token) = lexer.next()? {
        match token {
            Token::Open => stack.push(Vec::new()),
            Token::Close => {
                let list = stack
                    .pop()
                    .filter(|_| !stack.is_empty())
                    .ok_or("unbalanced")?;
                stack.last_mut().expect("outer list").push(Sexp::List(list));
            }
            Token::Binary(d) => stack.last_mut().unwrap().push(Sexp::Atom(format!("#b{d}"))),
            Token::Hex(d) => stack.last_mut().unwrap().push(Sexp::Atom(format!("#x{d}"))),
            Token::Symbol(s) | Token::Numeral(s) | Token::Decimal(s) => {
                stack.last_mut().unwrap().push(Sexp::Atom(s.to_string()))
            }
            other => return Err(format!("unexpected {other:?} in a solver reply")),
        }
    }
    match stack.pop() {
        Some(mut top) if stack.is_empty() && top.len() == 1 => Ok(top.remove(0)),
        _ => Err(format!("malformed solver reply: {text}")),
    }
}

fn number(s: &Sexp) -> Result<Rational, String> {
    let bad = || format!("not a number: {s:?}");
    match s {
        Sexp::Atom(a) => Rational::parse(a).ok_or_else(bad),
        Sexp::List(l) => match l.as_slice() {
            [Sexp::Atom(minus), x] if minus == "-" => number(x)?.checked_neg().ok_or_else(bad),
            [Sexp::Atom(div), a, b] if div == "/" => {
                number(a)?.checked_div(number(b)?).ok_or_else(bad)
            }
            _ => Err(bad()),
        },
    }
}

/// A model value of `sort` from its SMT-LIB text.
fn value_of(s: &Sexp, sort: &Sort) -> Result<Value, String> {
    match (sort, s) {
        (Sort::Bool, Sexp::Atom(a)) if a == "true" || a == "false" => Ok(Value::Bool(a == "true")),
        (Sort::BitVec(w), Sexp::Atom(a)) => {
            let v = if let Some(d) = a.strip_prefix("#b") {
                BvValue::from_binary(d)
            } else if let Some(d) = a.strip_prefix("#x") {
                BvValue::from_hex(*w, d)
            } else {
                None
            };
            v.filter(|v| v.width() == *w)
                .map(Value::Bv)
                .ok_or_else(|| format!("not a {w}-bit value: {a}"))
        }
        (Sort::Int | Sort::Real, _) => number(s).map(Value::Num),
        _ => Err(format!("cannot read a value of sort {sort} from {s:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_parse_into_values() {
        let reply = parse_sexp("((a (- 5)) (b (/ 1.0 4.0)) (c #b0101) (d true) (e #x0f))").unwrap();
        let Sexp::List(pairs) = reply else { panic!() };
        let sorts = [
            Sort::Int,
            Sort::Real,
            Sort::BitVec(4),
            Sort::Bool,
            Sort::BitVec(8),
        ];
        let values: Vec<String> = (pairs.iter().zip(&sorts))
            .map(|(p, s)| match p {
                Sexp::List(p) => value_of(&p[1], s).unwrap().to_string(),
                _ => panic!(),
            })
            .collect();
        assert_eq!(values, ["(- 5)", "(/ 1 4)", "#b0101", "true", "#b00001111"]);
    }
}
