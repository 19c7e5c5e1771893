//! The edges of a CFA as choice-free paths, and weakest preconditions of
//! cubes along them.
//!
//! Split (Lange, Neuhäußer, Noll, Katoen, "Generalization for IC3CFA",
//! Def. 6): a command with choices becomes the set of its choice-free
//! paths, parallel edges between the same locations, so that the angelic
//! weakest precondition of a cube along one path is again a cube
//! (Theorem 1). A path is summarised once by symbolic execution: its guard
//! (the assumptions, over the variables before it) and the value of every
//! variable after it. Then wp(path, c) is the guard together with each
//! literal of c under that substitution (Lemma 3: the WP of a choice-free
//! command distributes over the literals), which is what lets a lemma of
//! the predecessor frame be matched against it literal by literal.
//!
//! `havoc x` gives `x` a fresh variable of the path; the WP then mentions
//! it, existentially (the angelic reading). Queries keep it free; a
//! predecessor cube replaces it by the value of the model that found the
//! predecessor, so that obligations stay over program variables and every
//! state of one still reaches its successor (an under-approximation, as
//! IC3 wants of obligations).

use crate::ir::cfa::Command;
use crate::ir::term::normalize::Normalizer;
use crate::ir::term::{Op, Term, Terms};
use std::collections::HashMap;

/// One choice-free path of an edge, summarised.
#[derive(Clone, Debug)]
pub struct Path {
    /// The guard's literals, over the variables before the path and its
    /// havoc variables.
    pub guard: Vec<Term>,
    /// The value of each variable the path changes, as a term over the
    /// variables before it and its havoc variables.
    pub after: HashMap<Term, Term>,
    /// The path's havoc variables.
    pub havocs: Vec<Term>,
    /// Whether some guard literal is `false`: the path never runs.
    pub infeasible: bool,
}

/// The choice-free commands of `command`, at most `cap` of them (`None`
/// beyond).
fn split(command: &Command, cap: usize) -> Option<Vec<Vec<Command>>> {
    match command {
        Command::Choice(branches) => {
            let mut all = Vec::new();
            for b in branches {
                all.extend(split(b, cap)?);
                if all.len() > cap {
                    return None;
                }
            }
            Some(all)
        }
        Command::Seq(parts) => {
            let mut all: Vec<Vec<Command>> = vec![Vec::new()];
            for p in parts {
                let tails = split(p, cap)?;
                if all.len() * tails.len() > cap {
                    return None;
                }
                let mut next = Vec::with_capacity(all.len() * tails.len());
                for head in &all {
                    for tail in &tails {
                        let mut path = head.clone();
                        path.extend(tail.iter().cloned());
                        next.push(path);
                    }
                }
                all = next;
            }
            Some(all)
        }
        basic => Some(vec![vec![basic.clone()]]),
    }
}

/// Adds the literals of the conjunction `t` to `out` (conjunctions and
/// negated disjunctions flattened, `true` dropped).
pub fn literals(terms: &mut Terms, t: Term, out: &mut Vec<Term>) {
    match terms.op(t) {
        Op::Bool(true) => {}
        Op::And => {
            for a in terms.args(t).to_vec() {
                literals(terms, a, out);
            }
        }
        Op::Not if *terms.op(terms.args(t)[0]) == Op::Or => {
            for a in terms.args(terms.args(t)[0]).to_vec() {
                let n = terms.not(a);
                literals(terms, n, out);
            }
        }
        _ => out.push(t),
    }
}

/// The choice-free paths of `command`, summarised by symbolic execution,
/// at most `cap` of them (`None` beyond); `fresh` names havoc variables.
pub fn paths(
    terms: &mut Terms,
    norm: &mut Normalizer,
    command: &Command,
    cap: usize,
    fresh: &mut dyn FnMut(&mut Terms, Term) -> Term,
) -> Option<Vec<Path>> {
    let mut out = Vec::new();
    for basics in split(command, cap)? {
        let (mut state, mut havocs) = (Symbolic::default(), Vec::new());
        for b in &basics {
            execute(terms, norm, b, &mut state, &mut havocs, fresh);
        }
        out.push(state.into_path(terms, havocs));
    }
    Some(out)
}

/// `command` as one path in which every choice with two or more feasible
/// branches is decided by a fresh Bool selector, a havoc of the path:
/// after a choice between `a` and `b`, a variable holds `ite(s, a', b')`
/// and the guard gains `ite(s, ga, gb)` for the literals the branches do
/// not share. This is the fallback for edges with too many choice-free
/// paths to split: a query asks about all of them at once, the solver
/// picking the branches, and a predecessor cube, which fixes the selectors
/// at the model's values, is that of the one path the model took (the
/// `ite`s fold away), so obligations stay what splitting would give.
/// `fresh` names havoc variables and, given a Bool template, selectors.
pub fn merged(
    terms: &mut Terms,
    norm: &mut Normalizer,
    command: &Command,
    fresh: &mut dyn FnMut(&mut Terms, Term) -> Term,
) -> Path {
    let (mut state, mut havocs) = (Symbolic::default(), Vec::new());
    execute(terms, norm, command, &mut state, &mut havocs, fresh);
    state.into_path(terms, havocs)
}

/// A path's summary under construction.
#[derive(Clone, Default)]
struct Symbolic {
    after: HashMap<Term, Term>,
    guard: Vec<Term>,
}

impl Symbolic {
    /// The finished summary: guard literals sorted and once each.
    fn into_path(self, terms: &Terms, havocs: Vec<Term>) -> Path {
        let mut guard = self.guard;
        guard.sort_unstable();
        guard.dedup();
        let infeasible = guard.iter().any(|&g| *terms.op(g) == Op::Bool(false));
        Path {
            guard,
            after: self.after,
            havocs,
            infeasible,
        }
    }
}

/// Symbolic execution of `command` from `state` (choices joined by
/// selectors, see [`merged`]); `havocs` gains the path's fresh variables.
fn execute(
    terms: &mut Terms,
    norm: &mut Normalizer,
    command: &Command,
    state: &mut Symbolic,
    havocs: &mut Vec<Term>,
    fresh: &mut dyn FnMut(&mut Terms, Term) -> Term,
) {
    match command {
        Command::Assume(c) => {
            let g = terms.substitute(&[*c], &state.after)[0];
            let g = norm.normalize(terms, g);
            literals(terms, g, &mut state.guard);
        }
        Command::Assign(x, e) => {
            let v = terms.substitute(&[*e], &state.after)[0];
            let v = norm.normalize(terms, v);
            state.after.insert(*x, v);
        }
        Command::Havoc(x) => {
            let h = fresh(terms, *x);
            havocs.push(h);
            state.after.insert(*x, h);
        }
        Command::Seq(parts) => {
            for p in parts {
                execute(terms, norm, p, state, havocs, fresh);
            }
        }
        Command::Choice(branches) => {
            let mut feasible = Vec::new();
            for b in branches {
                let mut s = Symbolic {
                    after: state.after.clone(),
                    guard: Vec::new(),
                };
                execute(terms, norm, b, &mut s, havocs, fresh);
                if !s.guard.iter().any(|&g| *terms.op(g) == Op::Bool(false)) {
                    feasible.push(s);
                }
            }
            let Some(mut joined) = feasible.pop() else {
                let f = terms.bool(false);
                state.guard.push(f);
                return;
            };
            while let Some(s) = feasible.pop() {
                let template = terms.bool(true);
                let selector = fresh(terms, template);
                havocs.push(selector);
                joined = join(terms, norm, selector, &s, &joined, &state.after);
            }
            state.after = joined.after;
            state.guard.extend(joined.guard);
        }
    }
}

/// `ite(selector, a, b)` of two branches that started from `before`.
fn join(
    terms: &mut Terms,
    norm: &mut Normalizer,
    selector: Term,
    a: &Symbolic,
    b: &Symbolic,
    before: &HashMap<Term, Term>,
) -> Symbolic {
    let mut changed: Vec<Term> = a.after.keys().chain(b.after.keys()).copied().collect();
    changed.sort_unstable();
    changed.dedup();
    let mut after = before.clone();
    for x in changed {
        let old = *before.get(&x).unwrap_or(&x);
        let va = *a.after.get(&x).unwrap_or(&old);
        let vb = *b.after.get(&x).unwrap_or(&old);
        let v = terms.mk(Op::Ite, &[selector, va, vb]);
        let v = norm.normalize(terms, v);
        after.insert(x, v);
    }
    let shared: Vec<Term> = (a.guard.iter())
        .filter(|g| b.guard.contains(g))
        .copied()
        .collect();
    let only = |terms: &mut Terms, guard: &[Term]| {
        let own: Vec<Term> = (guard.iter())
            .filter(|g| !shared.contains(g))
            .copied()
            .collect();
        terms.and_all(&own)
    };
    let (ga, gb) = (only(terms, &a.guard), only(terms, &b.guard));
    let mut guard = shared.clone();
    let g = terms.mk(Op::Ite, &[selector, ga, gb]);
    let g = norm.normalize(terms, g);
    literals(terms, g, &mut guard);
    Symbolic { after, guard }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::bv::BvValue;
    use crate::ir::term::eval::{Evaluator, Value};
    use crate::ir::term::Sort;

    /// Low bits move into sums and products: `(y + 2·h)[0:0]` is `y[0:0]`,
    /// and every rewritten term keeps its value on all 8-bit inputs.
    #[test]
    fn low_bits_move_into_arithmetic() {
        let mut terms = Terms::new();
        let mut norm = Normalizer::default();
        let (y, h) = (
            terms.var("y", Sort::BitVec(8)),
            terms.var("h", Sort::BitVec(8)),
        );
        let c = |terms: &mut Terms, v: u64| terms.bv(BvValue::from_u64(8, v));
        let (two, three) = (c(&mut terms, 2), c(&mut terms, 3));
        let twice = terms.mk(Op::BvMul, &[two, h]);
        let sum = terms.mk(Op::BvAdd, &[y, twice]);
        let parity = terms.mk(Op::Extract(0, 0), &[sum]);
        let y0 = terms.mk(Op::Extract(0, 0), &[y]);
        assert_eq!(norm.normalize(&mut terms, parity), y0);
        let thrice = terms.mk(Op::BvMul, &[three, h]);
        let diff = terms.mk(Op::BvSub, &[y, thrice]);
        let low = terms.mk(Op::Extract(2, 0), &[diff]);
        let wide = terms.mk(Op::ZeroExtend(8), &[sum]);
        let low_wide = terms.mk(Op::Extract(3, 0), &[wide]);
        // `(y + 2·h) mod 4 = 3` and `(y - 3·h) mod 2 = 0` as low bits.
        let (four, zero) = (c(&mut terms, 4), c(&mut terms, 0));
        let rem4 = terms.mk(Op::BvUrem, &[sum, four]);
        let rem4_is_3 = terms.eq(rem4, three);
        let rem2 = terms.mk(Op::BvUrem, &[diff, two]);
        let rem2_is_0 = terms.eq(rem2, zero);
        let rem4_is_4 = terms.eq(rem4, four);
        let n = norm.normalize(&mut terms, rem4_is_4);
        assert_eq!(*terms.op(n), Op::Bool(false));
        for t in [parity, low, low_wide, rem4_is_3, rem2_is_0] {
            let n = norm.normalize(&mut terms, t);
            for (vy, vh) in (0..256u64).flat_map(|a| [(a, 7), (a, 200), (255 - a, a)]) {
                let mut ev = Evaluator::new(&terms);
                ev.set(y, Value::Bv(BvValue::from_u64(8, vy)));
                ev.set(h, Value::Bv(BvValue::from_u64(8, vh)));
                assert_eq!(ev.eval(t).unwrap(), ev.eval(n).unwrap(), "y={vy} h={vh}");
            }
        }
    }
}
