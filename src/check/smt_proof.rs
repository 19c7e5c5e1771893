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
use std::collections::HashMap;
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
    confirm_all(&queries, &queries, engine, deadline)
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
    let mut define = |name: String, params: &str, body: &str| {
        declarations += &format!("(define-fun {name} {params} Bool {body})\n");
        name
    };
    // INV at the current step as a disjunction: an explicit run's
    // invariant lists its states, and IC3CFA's is a conjunction of lemmas
    // per location. A query from one disjunct (a location and its lemmas,
    // or a state's values) lets the runner fold the transition down to
    // what leaves it, where the whole invariant makes the solver search
    // every edge at once.
    let split = split_function(function);
    let (sources, by_value) = match split {
        Some((_, body)) => source_cases(body, MAX_CASES),
        None => (Vec::new(), false),
    };
    // ¬INV as a disjunction of cases, each a function of its own: a case
    // pins down a few literals of the next state (a location and one of
    // its lemmas, for IC3's invariants), so each query is small where the
    // whole negation asks the solver to consider every lemma at once.
    // From a location, a case per location: a case per lemma and source
    // was tens of thousands of queries (a C program with 51 locations
    // and 3,623 lemmas; the whole negation from each source took 10 s
    // for some, a case per lemma from the whole invariant 80 ms each).
    let negated = match split {
        Some((_, body)) => negated_cases(body, MAX_CASES, if by_value { 1 } else { usize::MAX }),
        None => Vec::new(),
    };
    let mut cases = Vec::new();
    if let (Some((params, _)), true) = (split, negated.len() > 1) {
        for (i, case) in negated.iter().enumerate() {
            cases.push(define(format!("{CERTIFICATE}-case-{i}"), params, case));
        }
    }
    // Sources are taken where they split by value, or where ¬INV does
    // not split at all; a top-level `or` alone (bit-level and IC3+IA
    // invariants over a `valid` flag) keeps the split of ¬INV.
    let mut source_names = Vec::new();
    if let (Some((params, _)), true) = (split, sources.len() > 1 && (by_value || cases.is_empty()))
    {
        for (i, d) in sources.iter().enumerate() {
            source_names.push(define(format!("{CERTIFICATE}-source-{i}"), params, d));
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
    let mut groups = vec![Group {
        common: format!("(assert {})\n", u.init()),
        cases: each_case("initiation", 0),
    }];
    // Consecution as one group: INV and the transition, then ¬INV's cases.
    let whole_consecution = || Group {
        common: format!("(assert {inv0})\n(assert {})\n", u.trans(0)),
        cases: each_case("consecution", 1),
    };
    match source_names.len() {
        0 => groups.push(whole_consecution()),
        // Listed states (an explicit run's): the transition and ¬INV of
        // the next state once, then a query from each state. Asserted per
        // query, ¬INV over 3,203 states was encoded 3,203 times, and the
        // check took minutes; once, each query is the state's values
        // propagated through the transition into a conflict.
        n if !by_value => groups.push(Group {
            common: format!(
                "(assert {})\n(assert (not {}))\n",
                u.trans(0),
                apply(CERTIFICATE, 1)
            ),
            cases: (source_names.iter().enumerate())
                .map(|(i, name)| {
                    let what = format!("consecution, from case {} of {n}", i + 1);
                    (what, format!("(assert {})\n", apply(name, 0)))
                })
                .collect(),
        }),
        n => {
            // A program's transition picks its edge by an input (the
            // widest of a few bits): fixing it too folds the transition
            // to one edge, and the next location with it, so that ¬INV
            // folds to that location's lemmas (and a polynomial lemma
            // meets its image, `bitblast/poly.rs`). The split covers
            // every value, so it proves what the whole query would.
            let selector = edge_selector(ts);
            // Named once: each query asserts it again after fixing the
            // selector, and 6,528 copies of its text were 426 MB to read.
            let trans = format!("{CERTIFICATE}-trans");
            declarations += &format!("(define-fun {trans} () Bool {})\n", u.trans(0));
            for (i, name) in source_names.iter().enumerate() {
                let from = format!("consecution from case {} of {n}", i + 1);
                let group = match selector {
                    Some((j, width)) if n << width <= MAX_EDGE_QUERIES => Group {
                        common: format!("(assert {})\n", apply(name, 0)),
                        cases: (0..1u64 << width)
                            .map(|v| {
                                let value = format!("(_ bv{v} {width})");
                                let what = format!("{from}, input {} = {v}", u.input(j, 0));
                                let query = format!(
                                    "(assert (= {} {value}))\n(assert {trans})\n(assert (not {}))\n",
                                    u.input(j, 0),
                                    apply(CERTIFICATE, 1)
                                );
                                (what, query)
                            })
                            .collect(),
                    },
                    _ => Group {
                        common: format!("(assert {})\n(assert {trans})\n", apply(name, 0)),
                        cases: each_case(&from, 1),
                    },
                };
                groups.push(group);
            }
        }
    }
    groups.push(Group {
        common: String::new(),
        cases: vec![(
            "safety".into(),
            format!(
                "(assert {inv0})\n(assert {})\n(assert {})\n",
                u.constraints(0),
                u.bad(watched, 0)
            ),
        )],
    });
    // cvc5 and z3 get the consecution as one group over the transition,
    // split as ¬INV is: the per-edge queries each assert the transition
    // again, which the runner folds and a solver process reads anew
    // (thousands of times: a random program's check went past 20 s).
    let external = match source_names.is_empty() || !by_value {
        true => None,
        false => Some(Queries {
            declarations: declarations.clone(),
            groups: vec![
                groups[0].clone(),
                whole_consecution(),
                groups[groups.len() - 1].clone(),
            ],
        }),
    };
    let queries = Queries {
        declarations,
        groups,
    };
    confirm_all(
        external.as_ref().unwrap_or(&queries),
        &queries,
        engine,
        deadline,
    )
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

/// Asks `queries` of cvc5, then z3 (skipping `engine`), then `inhouse` of invar's
/// solver through the text; the first to confirm every query is named.
fn confirm_all(
    queries: &Queries,
    inhouse: &Queries,
    engine: &str,
    deadline: Option<Instant>,
) -> Result<&'static str, ProofError> {
    let mut failures = Vec::new();
    // Each solver gets a share of the time left (cvc5 a third, z3 half of
    // the rest), so that one stuck on a query the next one answers (a
    // polynomial invariant, which invar's solver sees in normal form)
    // does not take the whole of it.
    for (kind, share) in [(SolverKind::Cvc5, 3), (SolverKind::Z3, 2)] {
        if kind.name() == engine {
            continue;
        }
        let slice = deadline.map(|d| {
            let now = Instant::now();
            now + d.saturating_duration_since(now) / share
        });
        match confirm(kind, queries, slice) {
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
    match confirm_inhouse(inhouse, deadline) {
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

/// Most consecution queries split over the edge selector's values.
const MAX_EDGE_QUERIES: usize = 20_000;

/// The input of `ts` that looks like a program's edge selector: the
/// widest bit-vector input of 2 to 8 bits (its index and width).
fn edge_selector(ts: &Ts) -> Option<(usize, u32)> {
    (ts.inputs.iter().enumerate())
        .filter_map(|(j, &v)| match ts.terms.sort(v) {
            crate::ir::term::Sort::BitVec(w) if (2..=8).contains(w) => Some((j, *w)),
            _ => None,
        })
        .max_by_key(|&(j, w)| (w, std::cmp::Reverse(j)))
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
#[derive(Clone)]
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
/// (the product is not formed beyond; the formula stays whole). Only the
/// `and`s within `depth` split ones are split; deeper ones stay whole.
fn negated_cases(body: &str, cap: usize, depth: usize) -> Vec<String> {
    let whole = || vec![format!("(not {body})")];
    let Some(items) = list_items(body) else {
        return whole();
    };
    match (items[0], &items[1..]) {
        ("and", conjuncts) if !conjuncts.is_empty() && depth > 0 => {
            let mut cases = Vec::new();
            for c in conjuncts {
                cases.extend(negated_cases(c, cap, depth - 1));
                if cases.len() > cap {
                    return whole();
                }
            }
            cases
        }
        ("or", disjuncts) if !disjuncts.is_empty() => {
            let mut product: Vec<Vec<String>> = vec![Vec::new()];
            for d in disjuncts {
                let cases = negated_cases(d, cap, depth);
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
        ("=>", [premise, conclusion]) => (negated_cases(conclusion, cap, depth).iter())
            .map(|c| format!("(and {premise} {c})"))
            .collect(),
        ("not", [inner]) => vec![inner.to_string()],
        _ => whole(),
    }
}

/// Formulas, as text, whose disjunction is equivalent to `body`: the
/// disjuncts of `or`s, and a conjunction whose conjuncts are guarded by
/// `X = c` (`(or (not (= X c)) C)` or `(=> (= X c) C)`, for one `X` and
/// literals `c`) split per value: `X = c` with the lemmas it guards and the
/// other conjuncts, and `X` equal to none of the values with the other
/// conjuncts. Two literals of one value written two ways only make the
/// disjunction weaker than `body`, never stronger (each case keeps the
/// lemmas of its own spelling), so a proof of consecution from every case
/// still holds. At most `cap` cases (beyond, `body` whole). Also whether
/// a conjunction was split by value.
fn source_cases(body: &str, cap: usize) -> (Vec<String>, bool) {
    let whole = || (vec![body.to_string()], false);
    let Some(items) = list_items(body) else {
        return whole();
    };
    match (items[0], &items[1..]) {
        ("or", disjuncts) if !disjuncts.is_empty() => {
            let (mut cases, mut by_value) = (Vec::new(), false);
            for d in disjuncts {
                let (more, split) = source_cases(d, cap);
                cases.extend(more);
                by_value |= split;
                if cases.len() > cap {
                    return whole();
                }
            }
            (cases, by_value)
        }
        ("and", conjuncts) if !conjuncts.is_empty() => {
            let guarded: Vec<Option<(&str, &str, String)>> =
                conjuncts.iter().map(|c| guarded_lemma(c)).collect();
            // The variable that guards most conjuncts.
            let mut count: HashMap<&str, usize> = HashMap::new();
            for (x, _, _) in guarded.iter().flatten() {
                *count.entry(x).or_default() += 1;
            }
            let Some((x, _)) = (count.into_iter())
                .filter(|&(_, n)| n >= 2)
                .max_by_key(|&(x, n)| (n, std::cmp::Reverse(x)))
            else {
                return whole();
            };
            let mut values: Vec<&str> = Vec::new();
            let mut lemmas: HashMap<&str, Vec<String>> = HashMap::new();
            let mut others: Vec<&str> = Vec::new();
            for (c, g) in conjuncts.iter().zip(&guarded) {
                match g {
                    Some((y, value, lemma)) if *y == x => {
                        if !lemmas.contains_key(value) {
                            values.push(value);
                        }
                        lemmas.entry(value).or_default().push(lemma.clone());
                    }
                    _ => others.push(c),
                }
            }
            if values.len() + 1 > cap {
                return whole();
            }
            let conjunction = |parts: Vec<String>| match parts.len() {
                1 => parts[0].clone(),
                _ => format!("(and {})", parts.join(" ")),
            };
            let mut cases: Vec<String> = (values.iter())
                .map(|v| {
                    let mut parts = vec![format!("(= {x} {v})")];
                    parts.extend(lemmas[v].iter().cloned());
                    parts.extend(others.iter().map(|o| o.to_string()));
                    conjunction(parts)
                })
                .collect();
            let mut rest: Vec<String> = (values.iter())
                .map(|v| format!("(not (= {x} {v}))"))
                .collect();
            rest.extend(others.iter().map(|o| o.to_string()));
            cases.push(conjunction(rest));
            (cases, true)
        }
        _ => whole(),
    }
}

/// `(X, c, C)` of a conjunct `(or (not (= X c)) C…)` or `(=> (= X c) C)`
/// where `c` is a bit-vector or numeral literal and `X` a symbol.
fn guarded_lemma(conjunct: &str) -> Option<(&str, &str, String)> {
    let items = list_items(conjunct)?;
    let (guard, rest): (&str, Vec<&str>) = match (items[0], &items[1..]) {
        ("or", [first, rest @ ..]) if !rest.is_empty() => {
            let negated = list_items(first)?;
            match negated[..] {
                ["not", eq] => (eq, rest.to_vec()),
                _ => return None,
            }
        }
        ("=>", [eq, lemma]) => (*eq, vec![*lemma]),
        _ => return None,
    };
    let eq = list_items(guard)?;
    let is_literal = |t: &str| {
        t.starts_with("#b") || t.starts_with("#x") || t.bytes().all(|b| b.is_ascii_digit())
    };
    let is_symbol = |t: &str| !t.starts_with('(') && !is_literal(t);
    let (x, value) = match eq[..] {
        ["=", a, b] if is_symbol(a) && is_literal(b) => (a, b),
        ["=", a, b] if is_literal(a) && is_symbol(b) => (b, a),
        _ => return None,
    };
    let lemma = match rest.len() {
        1 => rest[0].to_string(),
        _ => format!("(or {})", rest.join(" ")),
    };
    Some((x, value, lemma))
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
            let cases = negated_cases(&body, 16, usize::MAX);
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

    /// The disjunction of the sources is `body`, for conjunctions of lemmas
    /// guarded by values of a 2-bit `x` (some values twice, some written
    /// in hex, and unguarded conjuncts beside them) under an `or`.
    #[test]
    fn source_cases_are_the_invariant() {
        let mut rng = Rng::new(0x50c5);
        let mut by_value = 0;
        for _ in 0..300 {
            let mut conjuncts = Vec::new();
            for _ in 0..1 + rng.below(5) {
                let value = ["#b00", "#b01", "#b10", "#b11"][rng.below(4) as usize];
                let lemma = formula(&mut rng, 2);
                conjuncts.push(match rng.below(4) {
                    0 => format!("(=> (= x {value}) {lemma})"),
                    1 => format!("(or (not (= {value} x)) {lemma} {})", formula(&mut rng, 1)),
                    2 => format!("(or (not (= x {value})) {lemma})"),
                    _ => lemma,
                });
            }
            let body = format!("(or (not a) (and true {}))", conjuncts.join(" "));
            let (cases, split) = source_cases(&body, 64);
            by_value += split as usize;
            let text = format!(
                "(declare-const a Bool)(declare-const b Bool)(declare-const c Bool)\
                 (declare-const d Bool)(declare-const x (_ BitVec 2))\
                 (assert (distinct {body} (or false {})))(check-sat)",
                cases.join(" ")
            );
            let mut solver = InvarSmt::new(Budget::unlimited());
            let mut out = Vec::new();
            script::run("sources", &text, &mut solver, &mut out).unwrap();
            assert_eq!(String::from_utf8_lossy(&out).trim(), "unsat", "{body}");
        }
        assert!(
            by_value > 100,
            "only {by_value} invariants were split by value"
        );
    }
}
