//! The VMT writer: every shared subterm becomes one `define-fun`, so the
//! output is linear in the DAG, and reading it back gives the same system.
//!
//! Functional parts become relational ones: `init` terms become `:init`
//! equations, next functions `:trans` equations over primed copies. An
//! invariant constraint `c` (BTOR2 `constraint`) must hold in every step up
//! to the bad one: it becomes a `:trans` conjunct (steps before the last)
//! and the premise of each property (the last step). Operators outside
//! SMT-LIB (BTOR2's reductions, overflow predicates, variable rotations) are
//! written as their definitions.

use crate::formats::smtlib::lower::lower;
use crate::ir::term::print::quote_symbol;
use crate::ir::term::print::{shared_subterms, Printer};
use crate::ir::term::Term;
use crate::ir::ts::Ts;
use std::collections::HashSet;
use std::fmt::Write;

/// A system in relational form, ready to print: next functions as
/// equations over primed copies, constraints in `trans` (every step before
/// the last) and as premises of the properties (the last step), operators
/// outside SMT-LIB lowered. Shared by the VMT and CHC writers.
pub(crate) struct Relational {
    /// The store, grown by the primed copies and the lowering.
    pub terms: crate::ir::term::Terms,
    /// The primed copy of each state.
    pub primed: Vec<Term>,
    /// Initial conditions.
    pub init: Vec<Term>,
    /// Transition conjuncts.
    pub trans: Vec<Term>,
    /// Properties: `constraints ⇒ ¬bad` per bad term.
    pub props: Vec<Term>,
    /// Liveness properties.
    pub live: Vec<Term>,
    /// Predicates.
    pub predicates: Vec<Term>,
}

impl Relational {
    /// The relational form of `ts`.
    pub fn of(ts: &Ts) -> Relational {
        let mut terms = ts.terms.clone();
        let mut used: HashSet<String> = HashSet::new();
        let mut vars: Vec<Term> = ts.states.iter().map(|s| s.var).collect();
        vars.extend(&ts.inputs);
        for &v in &vars {
            used.insert(terms.var_name(v).unwrap_or_default().to_string());
        }
        let mut primed = Vec::new();
        for s in &ts.states {
            let p = match s.next_var {
                Some(p) => p,
                None => {
                    let mut name = format!("{}.next", terms.var_name(s.var).unwrap_or("s"));
                    while used.contains(&name) {
                        name.push('\'');
                    }
                    used.insert(name.clone());
                    let sort = terms.sort(s.var).clone();
                    terms.var(&name, sort)
                }
            };
            primed.push(p);
        }
        let mut init = Vec::new();
        let mut trans = Vec::new();
        for (s, &p) in ts.states.iter().zip(&primed) {
            if let Some(i) = s.init {
                init.push(terms.eq(s.var, i));
            }
            if let Some(n) = s.next {
                trans.push(terms.eq(p, n));
            }
        }
        init.extend(&ts.init);
        trans.extend(&ts.trans);
        trans.extend(&ts.constraints);
        let premise = terms.and_all(&ts.constraints);
        let props: Vec<Term> = (ts.bad.iter())
            .map(|b| {
                let p = terms.not(b.term);
                if ts.constraints.is_empty() {
                    p
                } else {
                    terms.mk(crate::ir::term::Op::Implies, &[premise, p])
                }
            })
            .collect();
        // A justice property of one signal `s`, without fairness, is
        // `:live-property (not s)`; others have no VMT form
        // ([`liveness_unwritable`]).
        let live: Vec<Term> = (ts.justice.iter())
            .filter(|j| j.len() == 1 && ts.fairness.is_empty())
            .map(|j| terms.not(j[0]))
            .chain(ts.live.iter().map(|l| l.term))
            .collect();
        let mut roots: Vec<Term> = Vec::new();
        roots.extend(&init);
        roots.extend(&trans);
        roots.extend(&props);
        roots.extend(&live);
        roots.extend(&ts.predicates);
        let roots = lower(&mut terms, &roots);
        let mut rest = roots.as_slice();
        let mut split = |n: usize| {
            let (head, tail) = rest.split_at(n);
            rest = tail;
            head.to_vec()
        };
        let (init, trans, props) = (split(init.len()), split(trans.len()), split(props.len()));
        let (live, predicates) = (split(live.len()), split(ts.predicates.len()));
        Relational {
            terms,
            primed,
            init,
            trans,
            props,
            live,
            predicates,
        }
    }
}

/// Why the liveness properties of `ts` have no VMT form, if they have
/// none: VMT's `:live-property p` says F G p, one justice signal (`¬p`)
/// and no fairness.
pub fn liveness_unwritable(ts: &Ts) -> Option<String> {
    if ts.liveness_count() == 0 {
        return None;
    }
    if !ts.fairness.is_empty() {
        return Some(
            "VMT's :live-property has no fairness constraints, and the model has some".into(),
        );
    }
    let many = ts.justice.iter().position(|j| j.len() != 1)?;
    Some(format!(
        "VMT's :live-property (F G p) is a justice property of one signal, and justice property {many} has {}",
        ts.justice[many].len()
    ))
}

/// The VMT text of `ts` (see [`liveness_unwritable`] for the liveness
/// properties it cannot hold, which it leaves out).
pub fn write(ts: &Ts) -> String {
    let Relational {
        terms,
        primed,
        init,
        trans,
        props,
        live,
        predicates,
    } = Relational::of(ts);
    let roots: Vec<Term> = [&init, &trans, &props, &live, &predicates]
        .into_iter()
        .flatten()
        .copied()
        .collect();
    let mut out = String::from("; VMT written by invar\n");
    let declare = |out: &mut String, v: Term| {
        let name = quote_symbol(terms.var_name(v).unwrap_or_default());
        writeln!(out, "(declare-fun {name} () {})", terms.sort(v)).expect("string");
    };
    for (s, &p) in ts.states.iter().zip(&primed) {
        declare(&mut out, s.var);
        declare(&mut out, p);
    }
    for &i in &ts.inputs {
        declare(&mut out, i);
    }
    let mut printer = Printer::new(&terms);
    for (n, t) in shared_subterms(&terms, &roots).into_iter().enumerate() {
        let name = format!(".def_{n}");
        writeln!(
            out,
            "(define-fun {name} () {} {})",
            terms.sort(t),
            printer.term(t)
        )
        .expect("string");
        printer.names.insert(t, name);
    }
    let reference = |t: Term| match printer.names.get(&t) {
        Some(name) => quote_symbol(name),
        None => printer.term(t),
    };
    for (i, (s, &p)) in ts.states.iter().zip(&primed).enumerate() {
        let next = quote_symbol(terms.var_name(p).unwrap_or_default());
        writeln!(
            out,
            "(define-fun .sv{i} () {} (! {} :next {next}))",
            terms.sort(s.var),
            quote_symbol(terms.var_name(s.var).unwrap_or_default())
        )
        .expect("string");
    }
    let annotated =
        |out: &mut String, kind: &str, list: &[Term], attr: &dyn Fn(usize) -> String| {
            for (i, &t) in list.iter().enumerate() {
                writeln!(
                    out,
                    "(define-fun .{kind}{i} () Bool (! {} {}))",
                    reference(t),
                    attr(i)
                )
                .expect("string");
            }
        };
    annotated(&mut out, "init", &init, &|_| ":init true".into());
    annotated(&mut out, "trans", &trans, &|_| ":trans true".into());
    annotated(&mut out, "prop", &props, &|i| {
        format!(":invar-property {i}")
    });
    annotated(&mut out, "live", &live, &|i| format!(":live-property {i}"));
    annotated(&mut out, "pred", &predicates, &|_| ":predicate true".into());
    out += "(assert true)\n";
    out
}
