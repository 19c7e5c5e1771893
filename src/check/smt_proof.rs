//! The check of a word-level k-induction proof, independent of the engine:
//! the queries the proof rests on (no bad state within `k` steps of an
//! initial state, no bad state after `k + 1` good steps with pairwise
//! distinct states) are written afresh as SMT-LIB text by the checker's own
//! encoding (`smt_unroll`) and asked of a solver other than the engine's:
//! cvc5 or z3 where installed, else invar's solver reading the text through
//! the SMT-LIB front end, so that no term of the engine is reused.

use super::smt_unroll::Unroller;
use crate::formats::smtlib::lower::lower;
use crate::ir::term::print::quote_symbol;
use crate::ir::term::print::Printer;
use crate::ir::term::{Term, Terms};
use crate::ir::ts::Ts;
use crate::smt::inhouse::InvarSmt;
use crate::smt::script;
use crate::smt::solver::{SatAnswer, Solver, SolverKind};
use crate::util::budget::Budget;
use std::time::Instant;

/// The solver that confirmed a proof.
pub const INHOUSE_TEXT: &str = "invar (SMT-LIB text)";

/// Why a proof was not confirmed.
#[derive(Clone, Debug)]
pub struct ProofError {
    /// A query has a model: the proof is wrong (or a solver is). Otherwise
    /// no solver answered every query (missing, out of time, unknown).
    pub refuted: bool,
    /// What each solver said.
    pub message: String,
}

impl std::fmt::Display for ProofError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Checks that the bad properties `watched` of `ts` are unreachable by a
/// k-induction proof of depth `k` found with the solver named `engine`;
/// returns the name of the solver that confirmed it.
pub fn check_kinduction(
    ts: &Ts,
    watched: &[usize],
    k: usize,
    engine: &str,
    deadline: Option<Instant>,
) -> Result<&'static str, ProofError> {
    let queries = Queries::new(ts, watched, k);
    confirm_all(&queries, engine, deadline)
}

/// The name of the function a word-level certificate defines.
pub const CERTIFICATE: &str = "invar-certificate";

/// The certificate of an invariant: `(define-fun invar-certificate ((x1 S1)
/// … (xn Sn)) Bool INV)`, whose parameters are `ts`'s state variables in
/// their order (VMT: the order of the `:next` declarations) under their own
/// names. `invariant` is a term of `store` (a store that extends `ts`'s)
/// over those variables; operators outside SMT-LIB (BTOR2's overflow
/// predicates and reductions) are written as their definitions, so that
/// any solver reads the function.
pub fn certificate_function(ts: &Ts, store: &Terms, invariant: Term) -> String {
    let mut terms = store.clone();
    let invariant = lower(&mut terms, &[invariant])[0];
    let store = &terms;
    let params: Vec<String> = (ts.states.iter())
        .map(|s| {
            let name = quote_symbol(store.var_name(s.var).unwrap_or_default());
            format!("({name} {})", store.sort(s.var))
        })
        .collect();
    format!(
        "(define-fun {CERTIFICATE} ({}) Bool {})\n",
        params.join(" "),
        Printer::new(store).term(invariant)
    )
}

/// Checks that `invariant`, a term of `ts`'s store over its state
/// variables, proves the bad properties `watched` unreachable (see
/// [`check_certificate`]).
pub fn check_invariant(
    ts: &Ts,
    invariant: Term,
    watched: &[usize],
    engine: &str,
    deadline: Option<Instant>,
) -> Result<&'static str, ProofError> {
    let function = certificate_function(ts, &ts.terms, invariant);
    check_certificate(ts, &function, watched, engine, deadline)
}

/// Checks a certificate function (the text of [`certificate_function`], or
/// one read from a file) on `ts` as read: the invariant holds initially, it
/// is kept by every transition whose current step meets the constraints,
/// and no state of it meeting the constraints is bad. The function is
/// pasted into the checker's own encoding and applied to each step's
/// states. Returns the name of the solver that confirmed it (not `engine`).
pub fn check_certificate(
    ts: &Ts,
    function: &str,
    watched: &[usize],
    engine: &str,
    deadline: Option<Instant>,
) -> Result<&'static str, ProofError> {
    let u = Unroller::new(ts);
    let mut declarations: String = (0..=2).map(|j| u.declare_states(j)).collect();
    declarations += &u.define_step(0);
    declarations += &u.define_step(1);
    declarations += function;
    declarations.push('\n');
    // A function of the states applied to step k's (bare when there are
    // no states: SMT-LIB has no empty application).
    let apply = |name: &str, k: usize| -> String {
        if ts.states.is_empty() {
            return name.to_string();
        }
        let args: Vec<String> = (0..ts.states.len()).map(|i| u.state(i, k)).collect();
        format!("({name} {})", args.join(" "))
    };
    let inv0 = apply(CERTIFICATE, 0);
    // ¬INV as a disjunction of cases, each a function of its own: a case
    // pins down a few literals of the next state (a location and one of
    // its lemmas, for IC3's invariants), so each query is small where the
    // whole negation asks the solver to consider every lemma at once.
    let mut cases = Vec::new();
    if let Some((params, body)) = split_function(function) {
        let negated = negated_cases(body, MAX_CASES);
        if negated.len() > 1 {
            for (i, case) in negated.iter().enumerate() {
                let name = format!("{CERTIFICATE}-case-{i}");
                declarations += &format!("(define-fun {name} {params} Bool {case})\n");
                cases.push(name);
            }
        }
    }
    let each_case = |what: &str, k: usize| -> Vec<(String, String)> {
        if cases.is_empty() {
            let whole = format!("(assert (not {}))\n", apply(CERTIFICATE, k));
            return vec![(what.to_string(), whole)];
        }
        (cases.iter().enumerate())
            .map(|(i, name)| {
                let what = format!("{what}, case {} of {}", i + 1, cases.len());
                (what, format!("(assert {})\n", apply(name, k)))
            })
            .collect()
    };
    // Where ¬INV does not split, INV at the current step may: an explicit
    // run's invariant lists its states, and a query from one of them (its
    // location and values fixed) is decided by propagation, where the
    // whole disjunction makes the solver choose among them.
    let mut sources = Vec::new();
    if let (true, Some((params, body))) = (cases.is_empty(), split_function(function)) {
        if let Some(items) = list_items(body) {
            if items[0] == "or" && (3..=MAX_CASES + 1).contains(&items.len()) {
                for (i, d) in items[1..].iter().enumerate() {
                    let name = format!("{CERTIFICATE}-source-{i}");
                    declarations += &format!("(define-fun {name} {params} Bool {d})\n");
                    sources.push(name);
                }
            }
        }
    }
    let consecution = match sources.len() {
        0 => Group {
            common: format!("(assert {inv0})\n(assert {})\n", u.trans(0)),
            cases: each_case("consecution", 1),
        },
        n => Group {
            common: format!("(assert {})\n", u.trans(0)),
            cases: (sources.iter().enumerate())
                .map(|(i, name)| {
                    let what = format!("consecution, from case {} of {n}", i + 1);
                    let query = format!(
                        "(assert {})\n(assert (not {}))\n",
                        apply(name, 0),
                        apply(CERTIFICATE, 1)
                    );
                    (what, query)
                })
                .collect(),
        },
    };
    let queries = Queries {
        declarations,
        groups: vec![
            Group {
                common: format!("(assert {})\n", u.init()),
                cases: each_case("initiation", 0),
            },
            consecution,
            Group {
                common: String::new(),
                cases: vec![(
                    "safety".into(),
                    format!(
                        "(assert {inv0})\n(assert {})\n(assert {})\n",
                        u.constraints(0),
                        u.bad(watched, 0)
                    ),
                )],
            },
        ],
    };
    confirm_all(&queries, engine, deadline)
}

/// The `(define-fun invar-certificate …)` command in a certificate file's
/// text (the rest, the model as `invar convert` writes it, is for other
/// tools), or `None`.
pub fn find_certificate(text: &str) -> Option<&str> {
    let start = text.find(&format!("(define-fun {CERTIFICATE} "))?;
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, start);
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[start..=i]);
                }
            }
            // Quoted symbols and strings may hold parentheses; comments too.
            b'|' => i += text[i + 1..].find('|')? + 1,
            b'"' => i += text[i + 1..].find('"')? + 1,
            b';' => i += text[i..].find('\n').unwrap_or(text.len() - i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Asks the queries of cvc5, then z3 (skipping `engine`), then of invar's
/// solver through the text; the first to confirm every query is named.
fn confirm_all(
    queries: &Queries,
    engine: &str,
    deadline: Option<Instant>,
) -> Result<&'static str, ProofError> {
    let mut failures = Vec::new();
    for kind in [SolverKind::Cvc5, SolverKind::Z3] {
        if kind.name() == engine {
            continue;
        }
        match confirm(kind, queries, deadline) {
            Ok(()) => return Ok(kind.name()),
            // A query answered sat refutes the proof; no other solver is asked.
            Err(Refuted(e)) => {
                return Err(ProofError {
                    refuted: true,
                    message: format!("{}: {e}", kind.name()),
                })
            }
            Err(GaveUp(e)) => failures.push(format!("{}: {e}", kind.name())),
        }
    }
    match confirm_inhouse(queries, deadline) {
        Ok(()) => Ok(INHOUSE_TEXT),
        Err(Refuted(e)) => Err(ProofError {
            refuted: true,
            message: format!("{INHOUSE_TEXT}: {e}"),
        }),
        Err(GaveUp(e)) => {
            failures.push(format!("{INHOUSE_TEXT}: {e}"));
            Err(ProofError {
                refuted: false,
                message: failures.join("; "),
            })
        }
    }
}

/// Most cases the negation of a certificate is split into (beyond, one
/// query asks about the whole negation).
const MAX_CASES: usize = 4096;

/// The text of the proof's queries.
struct Queries {
    declarations: String,
    groups: Vec<Group>,
}

/// Queries that share assertions.
struct Group {
    /// Asserted once for all the cases.
    common: String,
    /// What each query establishes, and its own assertions.
    cases: Vec<(String, String)>,
}

impl Queries {
    fn count(&self) -> usize {
        self.groups.iter().map(|g| g.cases.len()).sum()
    }

    fn names(&self) -> impl Iterator<Item = &String> {
        self.groups
            .iter()
            .flat_map(|g| g.cases.iter().map(|(w, _)| w))
    }
}

/// `(params, body)` of `(define-fun NAME (params) Bool body)`, as text.
fn split_function(function: &str) -> Option<(&str, &str)> {
    let items = list_items(function.trim())?;
    match items[..] {
        ["define-fun", _, params, "Bool", body] => Some((params, body)),
        _ => None,
    }
}

/// The items of the list `text` (`(a (b c) |d e|)` gives `a`, `(b c)`,
/// `|d e|`), or `None` when `text` is not one list.
fn list_items(text: &str) -> Option<Vec<&str>> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'(') || bytes.last() != Some(&b')') {
        return None;
    }
    let mut items = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, None, 1usize);
    while i < bytes.len() - 1 {
        let b = bytes[i];
        match b {
            b'(' => {
                if depth == 0 && start.is_none() {
                    start = Some(i);
                }
                depth += 1;
            }
            b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    items.push(&text[start.take()?..=i]);
                }
            }
            b'|' | b'"' => {
                if depth == 0 && start.is_none() {
                    start = Some(i);
                }
                i += text[i + 1..].find(b as char)? + 1;
            }
            b';' => return None,
            _ if b.is_ascii_whitespace() => {
                if depth == 0 {
                    if let Some(s) = start.take() {
                        items.push(&text[s..i]);
                    }
                }
            }
            _ => {
                if depth == 0 && start.is_none() {
                    start = Some(i);
                }
            }
        }
        i += 1;
    }
    if depth != 0 {
        return None;
    }
    if let Some(s) = start {
        items.push(&text[s..bytes.len() - 1]);
    }
    (!items.is_empty()).then_some(items)
}

/// Formulas, as text, whose disjunction is equivalent to `(not body)`:
/// the negation pushed through `and` (a case per conjunct), `or` (the
/// product of the disjuncts' cases), `=>` and `not`, at most `cap` of them
/// (the product is not formed beyond; the formula stays whole).
fn negated_cases(body: &str, cap: usize) -> Vec<String> {
    let whole = || vec![format!("(not {body})")];
    let Some(items) = list_items(body) else {
        return whole();
    };
    match (items[0], &items[1..]) {
        ("and", conjuncts) if !conjuncts.is_empty() => {
            let mut cases = Vec::new();
            for c in conjuncts {
                cases.extend(negated_cases(c, cap));
                if cases.len() > cap {
                    return whole();
                }
            }
            cases
        }
        ("or", disjuncts) if !disjuncts.is_empty() => {
            let mut product: Vec<Vec<String>> = vec![Vec::new()];
            for d in disjuncts {
                let cases = negated_cases(d, cap);
                if product.len() * cases.len() > cap {
                    return whole();
                }
                product = (product.iter())
                    .flat_map(|p| {
                        cases.iter().map(move |c| {
                            let mut p = p.clone();
                            p.push(c.clone());
                            p
                        })
                    })
                    .collect();
            }
            (product.into_iter())
                .map(|p| match p.len() {
                    1 => p[0].clone(),
                    _ => format!("(and {})", p.join(" ")),
                })
                .collect()
        }
        ("=>", [premise, conclusion]) => (negated_cases(conclusion, cap).iter())
            .map(|c| format!("(and {premise} {c})"))
            .collect(),
        ("not", [inner]) => vec![inner.to_string()],
        _ => whole(),
    }
}

impl Queries {
    fn new(ts: &Ts, watched: &[usize], k: usize) -> Queries {
        let u = Unroller::new(ts);
        // Step j's definitions refer to the states of step j + 1.
        let mut declarations: String = (0..=k + 2).map(|j| u.declare_states(j)).collect();
        for j in 0..=k + 1 {
            declarations += &u.define_step(j);
        }
        // Each step's formulas once; the queries below repeat them.
        let trans: Vec<String> = (0..=k)
            .map(|j| format!("(assert {})\n", u.trans(j)))
            .collect();
        let bad: Vec<String> = (0..=k + 1).map(|j| u.bad(watched, j)).collect();
        let init = u.init();
        let path = |to: usize| -> String { trans[..to].concat() };
        let mut queries = Vec::new();
        // Base case: no bad state in steps 0..=k from an initial state.
        for (j, bad_j) in bad[..=k].iter().enumerate() {
            let query = format!(
                "(assert {init})\n{}(assert {})\n(assert {bad_j})\n",
                path(j),
                u.constraints(j),
            );
            queries.push((format!("base case at step {j}"), query));
        }
        // Step case: k + 1 good steps, pairwise distinct, then a bad one.
        let mut query = path(k + 1);
        for (j, bad_j) in bad[..=k].iter().enumerate() {
            query += &format!("(assert (not {bad_j}))\n");
            for i in j + 1..=k + 1 {
                query += &format!("(assert {})\n", u.differ(j, i));
            }
        }
        query += &format!(
            "(assert {})\n(assert {})\n",
            u.constraints(k + 1),
            bad[k + 1]
        );
        queries.push((format!("the {}-induction step", k + 1), query));
        Queries {
            declarations,
            groups: (queries.into_iter())
                .map(|q| Group {
                    common: String::new(),
                    cases: vec![q],
                })
                .collect(),
        }
    }
}

/// Asks every query of the invar solver, through the SMT-LIB front end.
fn confirm_inhouse(queries: &Queries, deadline: Option<Instant>) -> Result<(), Failure> {
    let mut text = queries.declarations.clone();
    for group in &queries.groups {
        text += &format!("(push 1)\n{}", group.common);
        for (_, query) in &group.cases {
            text += &format!("(push 1)\n{query}(check-sat)\n(pop 1)\n");
        }
        text += "(pop 1)\n";
    }
    let budget = match deadline {
        Some(d) => Budget::with_timeout(d.saturating_duration_since(Instant::now())),
        None => Budget::unlimited(),
    };
    if let Some(dir) = &crate::util::settings::get().dump_proof {
        // For reproducing a checker's answer with `invar smt` or another solver.
        let path = dir.join(format!("proof-{}.smt2", std::process::id()));
        std::fs::write(&path, &text).map_err(|e| GaveUp(format!("{}: {e}", path.display())))?;
    }
    let mut solver = InvarSmt::new(budget);
    let mut out = Vec::new();
    script::run("proof", &text, &mut solver, &mut out).map_err(|e| GaveUp(e.to_string()))?;
    let out = String::from_utf8_lossy(&out);
    let answers: Vec<&str> = out.lines().collect();
    if answers.len() != queries.count() {
        return Err(GaveUp(format!("unexpected answers: {}", out.trim())));
    }
    for (what, answer) in queries.names().zip(answers) {
        match answer {
            "unsat" => {}
            "sat" => return Err(Refuted(format!("{what} fails"))),
            _ => return Err(GaveUp(format!("{what}: no answer ({answer})"))),
        }
    }
    Ok(())
}

/// Why a solver did not confirm a proof.
enum Failure {
    /// A query has a model: the proof is wrong (or a solver is).
    Refuted(String),
    /// No answer (the solver is missing, stopped or gave up).
    GaveUp(String),
}
use Failure::{GaveUp, Refuted};

fn confirm(kind: SolverKind, queries: &Queries, deadline: Option<Instant>) -> Result<(), Failure> {
    let mut solver = Solver::start(kind).map_err(GaveUp)?;
    solver.send(&queries.declarations).map_err(GaveUp)?;
    for group in &queries.groups {
        solver
            .send(&format!("(push 1)\n{}", group.common))
            .map_err(GaveUp)?;
        for (what, query) in &group.cases {
            solver.send(&format!("(push 1)\n{query}")).map_err(GaveUp)?;
            let answer = solver.check(deadline).map_err(GaveUp)?;
            solver.send("(pop 1)\n").map_err(GaveUp)?;
            match answer {
                SatAnswer::Unsat => {}
                SatAnswer::Sat => return Err(Refuted(format!("{what} fails"))),
                SatAnswer::Unknown => return Err(GaveUp(format!("{what}: no answer"))),
            }
        }
        solver.send("(pop 1)\n").map_err(GaveUp)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::Rng;

    #[test]
    fn list_items_keep_quoted_symbols_and_nested_lists_whole() {
        assert_eq!(
            list_items("(or (not |a b|) (and x (f y)) \"s)\")"),
            Some(vec!["or", "(not |a b|)", "(and x (f y))", "\"s)\""])
        );
        assert_eq!(list_items("x"), None);
        assert_eq!(list_items("(a ; c\n b)"), None);
        assert_eq!(
            split_function("(define-fun f ((x Bool) (y Bool)) Bool (and x y))"),
            Some(("((x Bool) (y Bool))", "(and x y)"))
        );
    }

    /// A random formula over four Bool variables, built from the
    /// connectives the split looks through and some it does not.
    fn formula(rng: &mut Rng, depth: u32) -> String {
        if depth == 0 || rng.below(4) == 0 {
            return ["a", "b", "c", "d", "true", "false"][rng.below(6) as usize].to_string();
        }
        let (op, n) = match rng.below(6) {
            0 => ("and", 2 + rng.below(2)),
            1 => ("or", 2 + rng.below(2)),
            2 => ("=>", 2),
            3 => ("not", 1),
            4 => ("xor", 2),
            _ => ("ite", 3),
        };
        let args: Vec<String> = (0..n).map(|_| formula(rng, depth - 1)).collect();
        format!("({op} {})", args.join(" "))
    }

    /// The disjunction of the cases is `(not body)`: asked of the SMT-LIB
    /// front end and invar's solver, which read the text on their own.
    #[test]
    fn negated_cases_are_the_negation() {
        let mut rng = Rng::new(0x5e11);
        let mut split = 0;
        for _ in 0..500 {
            let body = formula(&mut rng, 4);
            let cases = negated_cases(&body, 16);
            split += (cases.len() > 1) as usize;
            let text = format!(
                "(declare-const a Bool)(declare-const b Bool)(declare-const c Bool)\
                 (declare-const d Bool)(assert (distinct (not {body}) (or false {})))(check-sat)",
                cases.join(" ")
            );
            let mut solver = InvarSmt::new(Budget::unlimited());
            let mut out = Vec::new();
            script::run("cases", &text, &mut solver, &mut out).unwrap();
            assert_eq!(String::from_utf8_lossy(&out).trim(), "unsat", "{body}");
        }
        // Not vacuous: about a fifth of the formulas have a connective the
        // split looks through at their top (measured: 93 of 500).
        assert!(split > 50, "only {split} formulas were split");
    }
}
