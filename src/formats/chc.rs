//! Constrained Horn clauses (SMT-LIB `HORN` logic), for comparing with CHC
//! solvers such as z3's Spacer: one relation `inv` over the states and three
//! clauses,
//!
//! ```text
//! init(S, I)                     ⇒ inv(S)
//! inv(S) ∧ trans(S, I, S')       ⇒ inv(S')
//! inv(S) ∧ ¬(prop_1 ∧ … ∧ prop_n) ⇒ false
//! ```
//!
//! over the relational form the VMT writer prints (constraints in `trans`
//! and as premises of the properties). The clauses are satisfiable exactly
//! when the properties hold: `sat` from a CHC solver means safe, `unsat`
//! unsafe. Shared subterms become `let`s, so the text is linear in the DAG.

use crate::formats::vmt::write::Relational;
use crate::ir::term::print::quote_symbol;
use crate::ir::term::print::{shared_subterms, Printer};
use crate::ir::term::{Term, Terms};
use crate::ir::ts::Ts;
use std::fmt::Write;

/// The CHC text of `ts`'s bad properties (all of them: one query).
pub fn write(ts: &Ts) -> String {
    let mut r = Relational::of(ts);
    let states: Vec<Term> = ts.states.iter().map(|s| s.var).collect();
    let mut out = String::from("; CHC written by invar\n(set-logic HORN)\n");
    let sorts: Vec<String> = states
        .iter()
        .map(|&v| r.terms.sort(v).to_string())
        .collect();
    writeln!(out, "(declare-fun inv ({}) Bool)", sorts.join(" ")).expect("string");
    let inv = |terms: &Terms, vars: &[Term]| -> String {
        if vars.is_empty() {
            return "inv".into();
        }
        let names: Vec<String> = (vars.iter())
            .map(|&v| quote_symbol(terms.var_name(v).unwrap_or_default()))
            .collect();
        format!("(inv {})", names.join(" "))
    };
    let terms = &mut r.terms;
    let init = terms.and_all(&r.init);
    let trans = terms.and_all(&r.trans);
    let props = terms.and_all(&r.props);
    let bad = terms.not(props);
    let mut current: Vec<Term> = states.clone();
    current.extend(&ts.inputs);
    let mut both = current.clone();
    both.extend(&r.primed);
    let clauses = [
        (&current, None, init, inv(terms, &states)),
        (
            &both,
            Some(inv(terms, &states)),
            trans,
            inv(terms, &r.primed),
        ),
        (&current, Some(inv(terms, &states)), bad, "false".into()),
    ];
    for (vars, premise, body, head) in clauses {
        let body = with_lets(terms, body);
        let body = match premise {
            Some(p) => format!("(and {p} {body})"),
            None => body,
        };
        let rule = format!("(=> {body} {head})");
        if vars.is_empty() {
            writeln!(out, "(assert {rule})").expect("string");
        } else {
            let bound: Vec<String> = (vars.iter())
                .map(|&v| {
                    let name = quote_symbol(terms.var_name(v).unwrap_or_default());
                    format!("({name} {})", terms.sort(v))
                })
                .collect();
            writeln!(out, "(assert (forall ({}) {rule}))", bound.join(" ")).expect("string");
        }
    }
    out += "(check-sat)\n";
    out
}

/// `root` with its shared subterms bound by nested `let`s.
fn with_lets(terms: &Terms, root: Term) -> String {
    let mut printer = Printer::new(terms);
    let mut text = String::new();
    let shared = shared_subterms(terms, &[root]);
    for (n, &t) in shared.iter().enumerate() {
        // A quoted symbol with a space cannot clash with a model's names.
        let name = format!("let {n}");
        write!(
            text,
            "(let (({} {})) ",
            quote_symbol(&name),
            printer.term(t)
        )
        .expect("string");
        printer.names.insert(t, name);
    }
    text += &match printer.names.get(&root) {
        Some(name) => quote_symbol(name),
        None => printer.term(root),
    };
    text += &")".repeat(shared.len());
    text
}

#[cfg(test)]
mod tests {
    use crate::formats::vmt;

    #[test]
    fn a_counter_becomes_three_clauses() {
        let ts = vmt::read_str(
            "counter",
            "(declare-fun x () Int)\n(declare-fun x.n () Int)\n\
             (define-fun .x () Int (! x :next x.n))\n\
             (define-fun .i () Bool (! (= x 0) :init true))\n\
             (define-fun .t () Bool (! (= x.n (+ x 1)) :trans true))\n\
             (define-fun .p () Bool (! (>= x 0) :invar-property 0))\n",
        )
        .unwrap();
        let text = super::write(&ts);
        assert!(text.contains("(declare-fun inv (Int) Bool)"), "{text}");
        assert!(text.contains("(=> (= x 0) (inv x))"), "{text}");
        assert!(text.contains("(inv x.n)"), "{text}");
        assert!(text.contains("false)))"), "{text}");
    }
}
