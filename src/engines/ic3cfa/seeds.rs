//! Candidate invariants from the program's own conditions (Houdini).
//!
//! Flanagan, Leino, "Houdini, an Annotation Assistant for ESC/Java", FME
//! 2001: propose a set of candidate facts at every location, drop each one
//! that some edge can break when all the survivors hold at its source, and
//! repeat; what is left at the fixpoint is inductive, so it holds in every
//! reachable state and belongs to every frame, like the affine equalities.
//!
//! The candidates are the atoms of the automaton's conditions and their
//! negations: a loop's exit condition (`i >= n` after `while (i < n)`)
//! survives every later location where neither variable changes, and a
//! range check of an input (`n < 1000000`) survives wherever the input
//! is not written. These are the relations between a counter and its bound
//! that IC3CFA's WP cubes, which fix variables to values, otherwise learn
//! one value at a time. This is the thesis's "improved initialisation" in
//! the form invariant generators for k-induction use. `false` is proposed
//! too: where it survives, the location is unreachable and keeps it alone.

use super::path::literals;
use super::EdgeInfo;
use crate::ir::cfa::Command;
use crate::ir::term::eval::Value;
use crate::ir::term::normalize::Normalizer;
use crate::ir::term::{Op, Term, Terms};
use crate::smt::{self, SmtResult};
use crate::util::budget::Budget;
use std::collections::HashSet;

/// At most this many candidate atoms (each proposed with its negation).
const MAX_ATOMS: usize = 200;

/// Signed or unsigned order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    Signed,
    Unsigned,
}

/// The order an atom compares its two operands in, if it is a comparison
/// of bit-vectors.
fn comparison(terms: &Terms, atom: Term) -> Option<(Order, Term, Term)> {
    let order = match terms.op(atom) {
        Op::BvSlt | Op::BvSle | Op::BvSgt | Op::BvSge => Order::Signed,
        Op::BvUlt | Op::BvUle | Op::BvUgt | Op::BvUge => Order::Unsigned,
        _ => return None,
    };
    let args = terms.args(atom);
    Some((order, args[0], args[1]))
}

/// `a < b`, `b < a`, `a <= b`, `b <= a` and `a = b` in `order`, normalised:
/// a comparison of two operands in every direction (a loop's exit leaves
/// `i >= n` where its guard reads `i < n`).
fn orientations(
    terms: &mut Terms,
    norm: &mut Normalizer,
    order: Order,
    a: Term,
    b: Term,
) -> Vec<Term> {
    let (lt, le) = match order {
        Order::Signed => (Op::BvSlt, Op::BvSle),
        Order::Unsigned => (Op::BvUlt, Op::BvUle),
    };
    let raw = [
        terms.mk(lt.clone(), &[a, b]),
        terms.mk(lt, &[b, a]),
        terms.mk(le.clone(), &[a, b]),
        terms.mk(le, &[b, a]),
        terms.eq(a, b),
    ];
    raw.iter().map(|&t| norm.normalize(terms, t)).collect()
}

/// The atom of a literal, without its polarity: both are proposed.
fn atom_of(terms: &Terms, literal: Term) -> Term {
    match terms.op(literal) {
        Op::Not => terms.args(literal)[0],
        _ => literal,
    }
}

/// Adds the atom of `literal` to `out` unless it is a constant or seen.
fn add(terms: &Terms, seen: &mut HashSet<Term>, out: &mut Vec<Term>, literal: Term) {
    let atom = atom_of(terms, literal);
    if !matches!(terms.op(atom), Op::Bool(_)) && seen.insert(atom) {
        out.push(atom);
    }
}

/// The atoms of `command`: those of every `assume`, each comparison in
/// every direction, and a variable assigned a constant compared with it
/// both ways in both orders (where a counter starts bounds it).
fn collect(
    terms: &mut Terms,
    norm: &mut Normalizer,
    command: &Command,
    seen: &mut HashSet<Term>,
    out: &mut Vec<Term>,
) {
    match command {
        Command::Assume(c) => {
            let n = norm.normalize(terms, *c);
            let mut lits = Vec::new();
            literals(terms, n, &mut lits);
            for l in lits {
                add(terms, seen, out, l);
                if let Some((order, a, b)) = comparison(terms, atom_of(terms, l)) {
                    for t in orientations(terms, norm, order, a, b) {
                        add(terms, seen, out, t);
                    }
                }
            }
        }
        Command::Assign(x, e) if matches!(terms.op(*e), Op::Bv(_)) => {
            for order in [Order::Signed, Order::Unsigned] {
                for t in orientations(terms, norm, order, *x, *e) {
                    add(terms, seen, out, t);
                }
            }
        }
        Command::Seq(parts) | Command::Choice(parts) => {
            for p in parts {
                collect(terms, norm, p, seen, out);
            }
        }
        Command::Assign(..) | Command::Havoc(_) => {}
    }
}

/// The candidates: each atom of the commands' conditions and its negation.
pub(super) fn candidates<'c>(
    terms: &mut Terms,
    norm: &mut Normalizer,
    commands: impl Iterator<Item = &'c Command>,
) -> Vec<Term> {
    let (mut seen, mut atoms) = (HashSet::new(), Vec::new());
    for c in commands {
        collect(terms, norm, c, &mut seen, &mut atoms);
    }
    // Bounds carried across a comparison: with `i < n` and `n < 1000000`
    // among the atoms, `i` is compared with 1000000 too (a counter below
    // its bound stays below the bound's bound, and so does not wrap).
    let compared: Vec<(Order, Term, Term)> = (atoms.iter())
        .filter_map(|&a| comparison(terms, a))
        .collect();
    let is_constant = |terms: &Terms, t: Term| matches!(terms.op(t), Op::Bv(_));
    let mut carried = Vec::new();
    for &(order, a, b) in &compared {
        if is_constant(terms, a) || is_constant(terms, b) {
            continue;
        }
        for &(other, c, d) in &compared {
            if order != other {
                continue;
            }
            for (x, y) in [(a, b), (b, a)] {
                let bound = match (c == y, d == y) {
                    (true, false) if is_constant(terms, d) => d,
                    (false, true) if is_constant(terms, c) => c,
                    _ => continue,
                };
                carried.push((order, x, bound));
            }
        }
    }
    for (order, x, bound) in carried {
        for t in orientations(terms, norm, order, x, bound) {
            add(terms, &mut seen, &mut atoms, t);
        }
    }
    atoms.truncate(MAX_ATOMS);
    let mut out = Vec::with_capacity(2 * atoms.len());
    for a in atoms {
        out.push(a);
        let n = terms.not(a);
        out.push(norm.normalize(terms, n));
    }
    out
}

/// The largest subset of `proposed` at each location (none at `init`,
/// where every state starts) that every edge keeps, given `known` (facts
/// already proved of each location, such as the affine equalities), or
/// `None` when the solver could not answer within the budget (a set short
/// of the fixpoint need not be inductive, so nothing is returned).
/// Also the number of solver checks.
#[allow(clippy::too_many_arguments)]
pub(super) fn houdini(
    terms: &mut Terms,
    norm: &mut Normalizer,
    edges: &[EdgeInfo],
    locations: usize,
    init: usize,
    known: &[Vec<Term>],
    proposed: &[Term],
    backend: smt::Backend,
    budget: &Budget,
) -> (Option<Vec<Vec<Term>>>, u64) {
    // `false` is a candidate too: where it survives, no edge reaches the
    // location under the facts at its sources, and the location's facts
    // are that alone (the other candidates survive there vacuously, and a
    // proof that carries them all is slow to check).
    let never = terms.bool(false);
    let mut alive: Vec<Vec<Term>> = (0..locations)
        .map(|l| match l == init {
            true => Vec::new(),
            false => proposed.iter().copied().chain([never]).collect(),
        })
        .collect();
    let mut checks = 0u64;
    // A worklist of edges: an edge is checked again only when the facts at
    // its source shrank (fewer facts at its target need no new check: the
    // survivors survived the same assumptions). Sweeping every edge until
    // nothing changed repeated every check once per round; on
    // test_locks_14 (50 locations, 400 candidates) the rounds did not end
    // within 16 s.
    let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); locations];
    for (k, e) in edges.iter().enumerate() {
        outgoing[e.from].push(k);
    }
    let mut queued = vec![true; edges.len()];
    let mut queue: std::collections::VecDeque<usize> = (0..edges.len()).collect();
    while let Some(k) = queue.pop_front() {
        queued[k] = false;
        let e = &edges[k];
        let mut shrank = false;
        for p in &e.paths {
            if alive[e.to].is_empty() {
                break;
            }
            if budget.expired() {
                return (None, checks);
            }
            let Ok(mut smt) = backend.start(budget) else {
                return (None, checks);
            };
            for &f in known[e.from].iter().chain(&alive[e.from]) {
                smt.assert(terms, f);
            }
            for &g in &p.guard {
                smt.assert(terms, g);
            }
            // Each candidate's image along the path: it survives the
            // path when its negation is unsatisfiable.
            let images: Vec<(Term, Term)> = (alive[e.to].iter())
                .map(|&c| {
                    let t = match p.after.is_empty() {
                        true => c,
                        false => terms.substitute(&[c], &p.after)[0],
                    };
                    (c, norm.normalize(terms, t))
                })
                .collect();
            // One query for all: some survivor's image false. Unsatisfiable:
            // all survive; else the model breaks every one false in it, and
            // the rest are asked again (one check per candidate, as before,
            // cost 32,000 checks per sweep on test_locks_14).
            let mut broken: HashSet<Term> = HashSet::new();
            loop {
                let negated: Vec<Term> = (images.iter())
                    .filter(|(c, _)| !broken.contains(c))
                    .map(|&(_, image)| terms.not(image))
                    .collect();
                if negated.is_empty() {
                    break;
                }
                let some_false = terms.or_all(&negated);
                checks += 1;
                match smt.check(terms, &[some_false]) {
                    SmtResult::Unsat => break,
                    SmtResult::Sat => {
                        let before = broken.len();
                        for &(c, image) in &images {
                            if !broken.contains(&c)
                                && matches!(smt.value(terms, image), Ok(Value::Bool(false)))
                            {
                                broken.insert(c);
                            }
                        }
                        if broken.len() == before {
                            // A model that breaks none of them is the
                            // solver's error, not a reason to loop.
                            return (None, checks);
                        }
                    }
                    SmtResult::Unknown(_) => return (None, checks),
                }
            }
            if !broken.is_empty() {
                alive[e.to].retain(|c| !broken.contains(c));
                shrank = true;
            }
        }
        if shrank {
            for &j in &outgoing[e.to] {
                if !queued[j] {
                    queued[j] = true;
                    queue.push_back(j);
                }
            }
        }
    }
    for facts in &mut alive {
        if facts.contains(&never) {
            *facts = vec![never];
        }
    }
    (Some(alive), checks)
}
