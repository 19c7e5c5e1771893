//! A CFA as a transition system, functionally (as IC3 and BTOR2 like it):
//!
//! - a program counter `pc` over the live locations, one state per variable,
//!   and a state `valid` (initially true);
//! - an input `edge` picks the edge taken; each edge's command is executed
//!   symbolically (sequences substitute, so variables are renamed along the
//!   way; choices pick a branch by another input, and a branch keeps the
//!   variables it does not assign; `havoc` reads a fresh input);
//! - `valid' = valid ∧ (the picked edge leaves pc and its guard holds)`,
//!   `pc'` and the variables take the picked edge's values;
//! - the property is `pc != error`, so bad is `valid ∧ pc = error`.

use super::{Cfa, Command, Loc};
use crate::ir::bv::BvValue;
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::ts::{Property, StateVar, Ts};
use std::collections::HashMap;

/// Bits needed to number `n` things (at least 1).
fn bits_for(n: usize) -> u32 {
    let mut w = 1;
    while (1usize << w) < n {
        w += 1;
    }
    w
}

struct Encoder<'a> {
    terms: &'a mut Terms,
    inputs: Vec<Term>,
    fresh: usize,
}

impl Encoder<'_> {
    fn fresh_input(&mut self, prefix: &str, sort: Sort) -> Term {
        let t = self.terms.var(&format!("{prefix}!{}", self.fresh), sort);
        self.fresh += 1;
        self.inputs.push(t);
        t
    }

    fn constant(&mut self, width: u32, value: usize) -> Term {
        self.terms.bv(BvValue::from_u64(width, value as u64))
    }

    /// Executes `command` from `state`: the guard under which it runs and the
    /// variables' values after it.
    fn execute(
        &mut self,
        command: &Command,
        state: &HashMap<Term, Term>,
    ) -> (Term, HashMap<Term, Term>) {
        let substitute = |terms: &mut Terms, t: Term, state: &HashMap<Term, Term>| {
            terms.substitute(&[t], state)[0]
        };
        match command {
            Command::Assume(b) => (substitute(self.terms, *b, state), state.clone()),
            Command::Assign(x, e) => {
                let mut next = state.clone();
                next.insert(*x, substitute(self.terms, *e, state));
                (self.terms.bool(true), next)
            }
            Command::Havoc(x) => {
                let sort = self.terms.sort(*x).clone();
                let name = format!("havoc.{}", self.terms.var_name(*x).unwrap_or("v"));
                let value = self.fresh_input(&name, sort);
                let mut next = state.clone();
                next.insert(*x, value);
                (self.terms.bool(true), next)
            }
            Command::Seq(parts) => {
                let mut guards = Vec::new();
                let mut cur = state.clone();
                for p in parts {
                    let (g, next) = self.execute(p, &cur);
                    guards.push(g);
                    cur = next;
                }
                (self.terms.and_all(&guards), cur)
            }
            Command::Choice(branches) => {
                let results: Vec<(Term, HashMap<Term, Term>)> =
                    branches.iter().map(|b| self.execute(b, state)).collect();
                let width = bits_for(branches.len());
                let pick = self.fresh_input("choice", Sort::BitVec(width));
                // Branch i runs when pick = i; the last branch takes the other values.
                let mut guard = results.last().expect("a choice has branches").0;
                let mut values = results.last().expect("branches").1.clone();
                for (i, (g, vals)) in results.iter().enumerate().rev().skip(1) {
                    let c = self.constant(width, i);
                    let is_i = self.terms.eq(pick, c);
                    guard = self.terms.mk(Op::Ite, &[is_i, *g, guard]);
                    for (x, v) in values.iter_mut() {
                        let mine = vals[x];
                        if mine != *v {
                            *v = self.terms.mk(Op::Ite, &[is_i, mine, *v]);
                        }
                    }
                }
                (guard, values)
            }
        }
    }
}

/// The transition system of `cfa`.
pub fn encode(cfa: &Cfa) -> Ts {
    let mut ts = Ts {
        terms: cfa.terms.clone(),
        ..Ts::default()
    };
    let locations = cfa.live_locations();
    let index: HashMap<Loc, usize> = locations.iter().enumerate().map(|(i, &l)| (l, i)).collect();
    let pc_width = bits_for(locations.len());
    let pc = ts.terms.var("pc", Sort::BitVec(pc_width));
    let valid = ts.terms.var("valid", Sort::Bool);
    let mut enc = Encoder {
        terms: &mut ts.terms,
        inputs: Vec::new(),
        fresh: 0,
    };
    let edge_width = bits_for(cfa.edges.len().max(1));
    let pick = enc.terms.var("edge", Sort::BitVec(edge_width));
    enc.inputs.push(pick);
    let identity: HashMap<Term, Term> = cfa.vars.iter().map(|&v| (v, v)).collect();
    let mut taken = Vec::new();
    let mut next_pc = enc.constant(pc_width, index[&cfa.error]);
    let mut next_vars: HashMap<Term, Term> = identity.clone();
    for (k, e) in cfa.edges.iter().enumerate().rev() {
        let (guard, values) = enc.execute(&e.command, &identity);
        let kc = enc.constant(edge_width, k);
        let is_k = enc.terms.eq(pick, kc);
        let from = enc.constant(pc_width, index[&e.from]);
        let at_from = enc.terms.eq(pc, from);
        taken.push(enc.terms.and_all(&[is_k, at_from, guard]));
        let to = enc.constant(pc_width, index[&e.to]);
        next_pc = enc.terms.mk(Op::Ite, &[is_k, to, next_pc]);
        for (x, v) in next_vars.iter_mut() {
            let mine = values[x];
            if mine != *v {
                *v = enc.terms.mk(Op::Ite, &[is_k, mine, *v]);
            }
        }
    }
    let some_edge = enc.terms.or_all(&taken);
    let next_valid = enc.terms.and_all(&[valid, some_edge]);
    let inputs = std::mem::take(&mut enc.inputs);
    let init_pc = enc.constant(pc_width, index[&cfa.init]);
    let error_pc = enc.constant(pc_width, index[&cfa.error]);
    let at_error = enc.terms.eq(pc, error_pc);
    let yes = enc.terms.bool(true);
    let bad = enc.terms.and_all(&[valid, at_error]);
    ts.states.push(StateVar {
        var: pc,
        next_var: None,
        init: Some(init_pc),
        next: Some(next_pc),
    });
    ts.states.push(StateVar {
        var: valid,
        next_var: None,
        init: Some(yes),
        next: Some(next_valid),
    });
    for &v in &cfa.vars {
        ts.states.push(StateVar {
            var: v,
            next_var: None,
            init: None,
            next: Some(next_vars[&v]),
        });
    }
    ts.inputs = inputs;
    ts.bad.push(Property {
        name: "error".into(),
        term: bad,
    });
    ts
}
