//! SMT-LIB printing of terms, keeping the DAG's sharing through named definitions.

use super::{Op, Rational, Sort, Term, Terms};
use std::collections::HashMap;

/// The SMT-LIB text of a numeral of `sort`.
fn number(r: Rational, sort: &Sort) -> String {
    let real = *sort == Sort::Real;
    let mag = |n: i128| {
        if real {
            format!("{}.0", n.unsigned_abs())
        } else {
            format!("{}", n.unsigned_abs())
        }
    };
    let body = if r.denom() == 1 {
        mag(r.numer())
    } else {
        format!("(/ {} {})", mag(r.numer()), mag(r.denom()))
    };
    if r.numer() < 0 {
        format!("(- {body})")
    } else {
        body
    }
}

/// The head of an application: a function symbol or an indexed identifier.
fn head(op: &Op) -> String {
    match op {
        Op::Extract(hi, lo) => format!("(_ extract {hi} {lo})"),
        Op::ZeroExtend(k) => format!("(_ zero_extend {k})"),
        Op::SignExtend(k) => format!("(_ sign_extend {k})"),
        Op::RotateLeft(k) => format!("(_ rotate_left {k})"),
        Op::RotateRight(k) => format!("(_ rotate_right {k})"),
        Op::Repeat(k) => format!("(_ repeat {k})"),
        Op::ConstArray(s) => format!("(as const {s})"),
        Op::BvRol => "ext_rotate_left".into(),
        Op::BvRor => "ext_rotate_right".into(),
        other => other.smt_name().into(),
    }
}

/// Prints terms, referring to already-named subterms by their names.
pub struct Printer<'a> {
    terms: &'a Terms,
    /// Names given to shared subterms (by `define-fun`).
    pub names: HashMap<Term, String>,
}

impl<'a> Printer<'a> {
    /// A printer with no named subterms.
    pub fn new(terms: &'a Terms) -> Printer<'a> {
        Printer {
            terms,
            names: HashMap::new(),
        }
    }

    /// The text of `root`; named subterms (other than `root` itself) print as their names.
    pub fn term(&self, root: Term) -> String {
        let mut out = String::new();
        // Explicit stack: (term, next argument to print).
        let mut stack: Vec<(Term, usize)> = vec![(root, 0)];
        while let Some((t, i)) = stack.pop() {
            if i == 0 {
                if t != root {
                    if let Some(name) = self.names.get(&t) {
                        out += &quote_symbol(name);
                        continue;
                    }
                }
                match self.terms.op(t) {
                    Op::Var(name, _) => {
                        // A named variable is a renaming (the SMT engine's steps).
                        out += &quote_symbol(self.names.get(&t).map_or(name, |n| n));
                        continue;
                    }
                    Op::Bool(b) => {
                        out += if *b { "true" } else { "false" };
                        continue;
                    }
                    Op::Bv(v) => {
                        out += "#b";
                        out += &v.to_binary();
                        continue;
                    }
                    Op::Num(r, s) => {
                        out += &number(*r, s);
                        continue;
                    }
                    op => {
                        out.push('(');
                        out += &head(op);
                    }
                }
            }
            let args = self.terms.args(t);
            if i < args.len() {
                out.push(' ');
                stack.push((t, i + 1));
                stack.push((args[i], 0));
            } else {
                out.push(')');
            }
        }
        out
    }
}

/// The non-leaf terms reachable from `roots` more than once, in topological order.
pub fn shared_subterms(terms: &Terms, roots: &[Term]) -> Vec<Term> {
    let order = terms.topological(roots);
    let mut uses: HashMap<Term, usize> = HashMap::new();
    for &t in &order {
        for &a in terms.args(t) {
            *uses.entry(a).or_default() += 1;
        }
    }
    for &r in roots {
        *uses.entry(r).or_default() += 1;
    }
    order
        .into_iter()
        .filter(|t| !terms.args(*t).is_empty() && uses.get(t).copied().unwrap_or(0) > 1)
        .collect()
}

/// Whether `c` may appear in a simple (unquoted) SMT-LIB symbol.
pub fn is_symbol_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/".contains(&c)
}

/// A symbol as SMT-LIB text: bare if it is a simple symbol, else `|quoted|`.
pub fn quote_symbol(name: &str) -> String {
    let simple = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name.bytes().all(is_symbol_char);
    if simple {
        name.to_string()
    } else {
        format!("|{name}|")
    }
}
