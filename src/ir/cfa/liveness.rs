//! Live variables of a control-flow automaton: at each location, the
//! variables some path from there may read before it writes them (the
//! classic backward data-flow analysis; Kildall, POPL 1973). A variable
//! dead at a location holds a value no later step looks at, so states that
//! differ only there behave alike: explicit-state search forgets such
//! values, and a nondeterministic value read once by a branch and never
//! again (`tmp = __VERIFIER_nondet_int(); if (tmp) ...`) gives two
//! successors, not one per value.
//!
//! An assignment reads its right-hand side even when its variable is dead
//! (no faint-variable elimination): the interpreter evaluates every
//! command it runs. Nothing is read at the error location: the property
//! reads only the location, and a path that gets there is made a trace by
//! the encoded system's own transitions, which fix every value the path
//! leaves open, then replayed.

use super::{Cfa, Command};
use crate::ir::term::{Op, Term, Terms};
use std::collections::HashMap;

/// `live[l][i]`: whether `cfa.vars[i]` is live at location `l`.
pub fn live_variables(cfa: &Cfa) -> Vec<Vec<bool>> {
    let n = cfa.vars.len();
    let position: HashMap<Term, usize> = (cfa.vars.iter().enumerate())
        .map(|(i, &v)| (v, i))
        .collect();
    let mut live = vec![vec![false; n]; cfa.labels.len()];
    let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); cfa.labels.len()];
    for (k, e) in cfa.edges.iter().enumerate() {
        incoming[e.to.0 as usize].push(k);
    }
    let mut reads = Reads {
        terms: &cfa.terms,
        position: &position,
        cache: HashMap::new(),
    };
    let mut work: Vec<usize> = (0..cfa.labels.len()).collect();
    let mut queued = vec![true; cfa.labels.len()];
    while let Some(to) = work.pop() {
        queued[to] = false;
        for &k in &incoming[to] {
            let e = &cfa.edges[k];
            let mut set = live[to].clone();
            reads.transfer(&e.command, &mut set);
            let from = e.from.0 as usize;
            let mut grew = false;
            for (old, new) in live[from].iter_mut().zip(&set) {
                if *new && !*old {
                    *old = true;
                    grew = true;
                }
            }
            if grew && !queued[from] {
                queued[from] = true;
                work.push(from);
            }
        }
    }
    live
}

/// The variables terms read, by position, cached by term.
struct Reads<'a> {
    terms: &'a Terms,
    position: &'a HashMap<Term, usize>,
    cache: HashMap<Term, Vec<usize>>,
}

impl Reads<'_> {
    fn of(&mut self, t: Term) -> &[usize] {
        let (terms, position) = (self.terms, self.position);
        self.cache.entry(t).or_insert_with(|| {
            (terms.topological(&[t]).into_iter())
                .filter(|&s| matches!(terms.op(s), Op::Var(..)))
                .filter_map(|s| position.get(&s).copied())
                .collect()
        })
    }

    /// `live` before `command`, given `live` after it.
    fn transfer(&mut self, command: &Command, live: &mut [bool]) {
        match command {
            Command::Assume(t) => self.of(*t).iter().for_each(|&i| live[i] = true),
            Command::Assign(v, t) => {
                if let Some(&i) = self.position.get(v) {
                    live[i] = false;
                }
                self.of(*t).iter().for_each(|&i| live[i] = true);
            }
            Command::Havoc(v) => {
                if let Some(&i) = self.position.get(v) {
                    live[i] = false;
                }
            }
            Command::Seq(parts) => {
                for c in parts.iter().rev() {
                    self.transfer(c, live);
                }
            }
            Command::Choice(options) => {
                let after = live.to_vec();
                for c in options {
                    let mut set = after.clone();
                    self.transfer(c, &mut set);
                    for (l, s) in live.iter_mut().zip(set) {
                        *l |= s;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfa::{Edge, Loc};
    use crate::ir::term::Sort;

    /// `t := *; if (t) x := 1 else x := 2; assert(x != 0)`: `t` is live
    /// only between its havoc and the branch, `x` only after its writes.
    #[test]
    fn a_value_read_once_is_dead_after_its_branch() {
        let mut terms = Terms::default();
        let t = terms.var("t", Sort::BitVec(8));
        let x = terms.var("x", Sort::BitVec(8));
        let zero = terms.bv(crate::ir::bv::BvValue::from_u64(8, 0));
        let one = terms.bv(crate::ir::bv::BvValue::from_u64(8, 1));
        let two = terms.bv(crate::ir::bv::BvValue::from_u64(8, 2));
        let t_zero = terms.eq(t, zero);
        let t_set = terms.not(t_zero);
        let x_zero = terms.eq(x, zero);
        let x_set = terms.not(x_zero);
        let mut cfa = Cfa {
            terms,
            vars: vec![t, x],
            labels: Vec::new(),
            edges: Vec::new(),
            init: Loc(0),
            error: Loc(0),
        };
        let [l0, l1, l2, l3, err, done] =
            ["start", "branch", "joined", "check", "error", "done"].map(|s| cfa.add_location(s));
        cfa.init = l0;
        cfa.error = err;
        let mut edge = |from, to, command| cfa.edges.push(Edge { from, to, command });
        edge(l0, l1, Command::Havoc(t));
        edge(
            l1,
            l2,
            Command::Seq(vec![Command::Assume(t_set), Command::Assign(x, one)]),
        );
        edge(
            l1,
            l2,
            Command::Seq(vec![Command::Assume(t_zero), Command::Assign(x, two)]),
        );
        edge(l2, l3, Command::Assume(cfa.terms.bool(true)));
        edge(l3, err, Command::Assume(x_zero));
        edge(l3, done, Command::Assume(x_set));
        let live = live_variables(&cfa);
        assert_eq!(live[l0.0 as usize], vec![false, false]);
        assert_eq!(live[l1.0 as usize], vec![true, false]);
        assert_eq!(live[l2.0 as usize], vec![false, true]);
        assert_eq!(live[l3.0 as usize], vec![false, true]);
        assert_eq!(live[err.0 as usize], vec![false, false]);
        assert_eq!(live[done.0 as usize], vec![false, false]);
    }
}
