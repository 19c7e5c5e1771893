//! Latch simplification before model checking:
//!
//! - *constant latches*: ternary simulation from the initial states with all
//!   inputs unknown, widened to a fixpoint (a latch whose value changes
//!   becomes unknown); latches that end with a known value hold it in every
//!   reachable state;
//! - *equivalent latches*: optimistically, all latches with the same reset
//!   value are assumed equal; classes whose members' next-state functions
//!   differ structurally under that assumption are split, until no class
//!   splits. At the fixpoint the equalities hold initially and are preserved
//!   by every step, so they hold in every reachable state.
//!
//! Both are over-approximating facts that do not depend on constraints, so
//! they hold on every path. The facts are returned as invariant clauses over
//! the original latches: an invariant of the simplified circuit becomes one
//! of the original circuit once they are added.

use super::aig::{map_lit, Aig, Lit, Node};
use super::coi::Restore;

/// The simplified circuit, the map back, and the facts used, as cubes whose
/// negations are invariant clauses over the original latch positions.
pub struct Simplified {
    /// The circuit without constant and duplicate latches.
    pub aig: Aig,
    /// Positions back to the input circuit.
    pub restore: Restore,
    /// The facts (constant values, equalities) as cubes to exclude.
    pub facts: Vec<Vec<(usize, bool)>>,
    /// Latches found constant.
    pub constants: usize,
    /// Latches merged into an equivalent one.
    pub merged: usize,
    /// Each node's literal in `aig` (equal to it wherever the facts hold).
    pub nodes: Vec<Lit>,
}

const ZERO: u8 = 0;
const ONE: u8 = 1;
const X: u8 = 2;

fn ternary_and(a: u8, b: u8) -> u8 {
    match (a, b) {
        (ZERO, _) | (_, ZERO) => ZERO,
        (ONE, ONE) => ONE,
        _ => X,
    }
}

fn ternary_lit(values: &[u8], l: Lit) -> u8 {
    match values[l.var().0 as usize] {
        X => X,
        v => v ^ l.is_negated() as u8,
    }
}

/// The value each latch keeps in every reachable state, if any.
pub fn constant_latches(aig: &Aig) -> Vec<Option<bool>> {
    let mut state: Vec<u8> = (aig.latches.iter())
        .map(|l| l.init.map_or(X, |v| v as u8))
        .collect();
    let mut values = vec![X; aig.num_nodes()];
    // Each round can only turn known values into X: at most one round per latch.
    loop {
        for (v, node) in aig.nodes().iter().enumerate() {
            values[v] = match *node {
                Node::False => ZERO,
                Node::Input(_) => X,
                Node::Latch(i) => state[i as usize],
                Node::And(a, b) => ternary_and(ternary_lit(&values, a), ternary_lit(&values, b)),
            };
        }
        let mut changed = false;
        for (i, latch) in aig.latches.iter().enumerate() {
            let next = ternary_lit(&values, latch.next);
            if state[i] != X && next != state[i] {
                state[i] = X;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    state
        .iter()
        .map(|&v| (v != X).then_some(v == ONE))
        .collect()
}

/// Rounds of class refinement before equivalence merging is given up.
const MAX_REFINEMENTS: usize = 64;

/// Removes constant latches and merges equivalent ones.
pub fn simplify_latches(aig: &Aig) -> Simplified {
    let constant = constant_latches(aig);
    let n = aig.latches.len();
    // Optimistic start: non-constant latches with the same reset value form
    // one class; constant and uninitialised latches stand alone.
    let alone = |i: usize| 2 + i;
    let mut class: Vec<usize> = (aig.latches.iter().enumerate())
        .map(|(i, l)| match (constant[i], l.init) {
            (None, Some(v)) => v as usize,
            _ => alone(i),
        })
        .collect();
    let mut rounds = 0;
    let (simplified, kept, representative, nodes) = loop {
        let representative = representatives(&class);
        let (out, kept, map) = rebuild(aig, &constant, &representative);
        let mut ids = std::collections::HashMap::new();
        let refined: Vec<usize> = (0..n)
            .map(|i| {
                let next = map_lit(&map, aig.latches[i].next);
                let fresh = ids.len();
                *ids.entry((class[i], next)).or_insert(fresh)
            })
            .collect();
        if representatives(&refined) == representative {
            break (out, kept, representative, map);
        }
        class = refined;
        rounds += 1;
        if rounds > MAX_REFINEMENTS {
            let identity: Vec<usize> = (0..n).collect();
            let (out, kept, map) = rebuild(aig, &constant, &identity);
            break (out, kept, identity, map);
        }
    };
    let mut facts = Vec::new();
    for (i, c) in constant.iter().enumerate() {
        if let Some(v) = *c {
            facts.push(vec![(i, !v)]);
        }
    }
    for (i, &r) in representative.iter().enumerate() {
        if r != i {
            facts.push(vec![(i, true), (r, false)]);
            facts.push(vec![(i, false), (r, true)]);
        }
    }
    let constants = constant.iter().filter(|c| c.is_some()).count();
    Simplified {
        restore: Restore::new(
            (0..aig.inputs.len()).collect(),
            kept.clone(),
            aig.latches.iter().map(|l| l.init).collect(),
            aig.inputs.len(),
        ),
        merged: n - constants - kept.len(),
        aig: simplified,
        facts,
        constants,
        nodes,
    }
}

/// For each latch, the lowest-numbered latch of its class.
fn representatives(class: &[usize]) -> Vec<usize> {
    let mut first = std::collections::HashMap::new();
    (0..class.len())
        .map(|i| *first.entry(class[i]).or_insert(i))
        .collect()
}

/// Rebuilds `aig` with constants substituted and latches replaced by their
/// representatives; returns it, the original positions of kept latches, and
/// the map from old nodes to new literals.
fn rebuild(
    aig: &Aig,
    constant: &[Option<bool>],
    representative: &[usize],
) -> (Aig, Vec<usize>, Vec<Lit>) {
    let mut out = Aig::new();
    let mut map = vec![Lit::FALSE; aig.num_nodes()];
    for &v in &aig.inputs {
        map[v.0 as usize] = out.add_input();
    }
    let mut kept = Vec::new();
    for (i, latch) in aig.latches.iter().enumerate() {
        if constant[i].is_none() && representative[i] == i {
            map[latch.var.0 as usize] = out.add_latch(latch.init);
            kept.push(i);
        }
    }
    for (i, latch) in aig.latches.iter().enumerate() {
        if let Some(v) = constant[i] {
            map[latch.var.0 as usize] = Lit::FALSE.xor(v);
        } else if representative[i] != i {
            map[latch.var.0 as usize] = map[aig.latches[representative[i]].var.0 as usize];
        }
    }
    out.copy_ands(aig, &mut map, |_| true);
    for (new_pos, &orig) in kept.iter().enumerate() {
        let next = map_lit(&map, aig.latches[orig].next);
        out.set_next(new_pos, next);
    }
    out.copy_properties(aig, &map);
    (out, kept, map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_constant_and_duplicate_latches() {
        let mut aig = Aig::new();
        let x = aig.add_input();
        let stuck = aig.add_latch(Some(false)); // next = stuck & x: stays 0
        let a = aig.add_latch(Some(true)); // a and b toggle together
        let b = aig.add_latch(Some(true));
        let free = aig.add_latch(None);
        let n0 = aig.and(stuck, x);
        aig.set_next(0, n0);
        aig.set_next(1, !a);
        aig.set_next(2, !b);
        aig.set_next(3, x);
        let bad = aig.and(a, free);
        aig.bad = vec![bad];
        assert_eq!(constant_latches(&aig), vec![Some(false), None, None, None]);
        let s = simplify_latches(&aig);
        assert_eq!((s.constants, s.merged), (1, 1));
        assert_eq!(s.restore.latches, vec![1, 3]);
        assert_eq!(
            s.facts,
            vec![
                vec![(0, true)],
                vec![(2, true), (1, false)],
                vec![(2, false), (1, true)]
            ]
        );
    }
}
