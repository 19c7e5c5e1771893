//! The other direction: a bit-level circuit as a transition system over Bool
//! (for AIGER to VMT and for cross-checking the bit-blaster on AIGER models).

use crate::ir::aig::{Aig, Lit, Node};
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::ts::{Property, StateVar, Ts};

/// `aig` as a transition system: latch i is the Bool state `l<i>`, input i the
/// Bool input `i<i>`, and bad property i is named `b<i>`.
pub fn ts_from_aig(aig: &Aig) -> Ts {
    let mut ts = Ts::default();
    let mut image: Vec<Option<Term>> = vec![None; aig.num_nodes()];
    image[0] = Some(ts.terms.bool(false));
    for (i, &v) in aig.inputs.iter().enumerate() {
        let t = ts.terms.var(&format!("i{i}"), Sort::Bool);
        ts.inputs.push(t);
        image[v.0 as usize] = Some(t);
    }
    for (i, l) in aig.latches.iter().enumerate() {
        let t = ts.terms.var(&format!("l{i}"), Sort::Bool);
        image[l.var.0 as usize] = Some(t);
        let init = l.init.map(|b| ts.terms.bool(b));
        ts.states.push(StateVar {
            var: t,
            next_var: None,
            init,
            next: None,
        });
    }
    let lit = |terms: &mut Terms, image: &[Option<Term>], l: Lit| {
        let t = image[l.var().0 as usize].expect("nodes are topologically ordered");
        if l.is_negated() {
            terms.not(t)
        } else {
            t
        }
    };
    for (v, node) in aig.nodes().iter().enumerate() {
        if let Node::And(a, b) = *node {
            let (x, y) = (lit(&mut ts.terms, &image, a), lit(&mut ts.terms, &image, b));
            image[v] = Some(ts.terms.mk(Op::And, &[x, y]));
        }
    }
    for (i, l) in aig.latches.iter().enumerate() {
        ts.states[i].next = Some(lit(&mut ts.terms, &image, l.next));
    }
    for &c in &aig.constraints {
        let t = lit(&mut ts.terms, &image, c);
        ts.constraints.push(t);
    }
    for (i, &b) in aig.bad.iter().enumerate() {
        let term = lit(&mut ts.terms, &image, b);
        ts.bad.push(Property {
            name: format!("b{i}"),
            term,
        });
    }
    for j in &aig.justice {
        let parts = j.iter().map(|&l| lit(&mut ts.terms, &image, l)).collect();
        ts.justice.push(parts);
    }
    for &f in &aig.fairness {
        let t = lit(&mut ts.terms, &image, f);
        ts.fairness.push(t);
    }
    ts
}
