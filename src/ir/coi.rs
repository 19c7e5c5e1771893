//! Cone of influence: the part of a circuit that can affect chosen properties.
//!
//! The reduced circuit keeps every invariant constraint (a constraint outside
//! the property's cone can still cut paths short) and maps its traces back to
//! the positions of the original inputs and latches through [`Restore`].

use super::aig::{map_lit, Aig, Lit, Node, Var};
use super::trace::Trace;

/// Maps positions of a reduced circuit back to the circuit it came from.
#[derive(Clone, Debug)]
pub struct Restore {
    /// Original position of each input of the reduced circuit.
    pub inputs: Vec<usize>,
    /// Original position of each latch of the reduced circuit.
    pub latches: Vec<usize>,
    /// Initial values of the original latches (for those outside the cone).
    original_init: Vec<Option<bool>>,
    original_inputs: usize,
}

impl Restore {
    /// A map with the given original positions of kept inputs and latches.
    pub fn new(
        inputs: Vec<usize>,
        latches: Vec<usize>,
        original_init: Vec<Option<bool>>,
        original_inputs: usize,
    ) -> Restore {
        Restore {
            inputs,
            latches,
            original_init,
            original_inputs,
        }
    }

    /// The map of a circuit onto itself.
    pub fn identity(aig: &Aig) -> Restore {
        Restore::new(
            (0..aig.inputs.len()).collect(),
            (0..aig.latches.len()).collect(),
            aig.latches.iter().map(|l| l.init).collect(),
            aig.inputs.len(),
        )
    }

    /// The map of `inner` (reduced → this map's reduced) followed by `self`.
    pub fn compose(&self, inner: &Restore) -> Restore {
        Restore {
            inputs: inner.inputs.iter().map(|&i| self.inputs[i]).collect(),
            latches: inner.latches.iter().map(|&l| self.latches[l]).collect(),
            original_init: self.original_init.clone(),
            original_inputs: self.original_inputs,
        }
    }

    /// Lifts a trace of the reduced circuit to the original circuit.
    ///
    /// Inputs outside the cone are set to 0; latches removed start at their
    /// reset value, or 0 when uninitialised: latches outside the cone cannot
    /// change whether the property is violated, and constant or merged latches
    /// always have a reset value, which is the right one.
    pub fn trace(&self, reduced: &Trace) -> Trace {
        let mut init: Vec<bool> = self
            .original_init
            .iter()
            .map(|v| v.unwrap_or(false))
            .collect();
        for (pos, &orig) in self.latches.iter().enumerate() {
            init[orig] = reduced.init[pos];
        }
        let inputs = reduced
            .inputs
            .iter()
            .map(|step| {
                let mut full = vec![false; self.original_inputs];
                for (pos, &orig) in self.inputs.iter().enumerate() {
                    full[orig] = step[pos];
                }
                full
            })
            .collect();
        Trace { init, inputs }
    }
}

/// The circuit reduced to the cone of `bad` and of all constraints.
///
/// The reduced circuit has exactly one bad property, the disjunction of `bad`,
/// no justice and no fairness parts.
pub fn cone_of_influence(aig: &Aig, bad: &[Lit]) -> (Aig, Restore) {
    let (reduced, restore, _) = cone_of_influence_mapped(aig, bad);
    (reduced, restore)
}

/// [`cone_of_influence`], with each node's literal in the cone if it is
/// in it.
pub fn cone_of_influence_mapped(aig: &Aig, bad: &[Lit]) -> (Aig, Restore, Vec<Option<Lit>>) {
    let marked = mark_cone(aig, bad.iter().chain(&aig.constraints).copied());
    let mut reduced = Aig::new();
    let mut map = vec![Lit::FALSE; aig.num_nodes()];
    let mut restore = Restore {
        inputs: Vec::new(),
        latches: Vec::new(),
        original_init: aig.latches.iter().map(|l| l.init).collect(),
        original_inputs: aig.inputs.len(),
    };
    for (pos, &var) in aig.inputs.iter().enumerate() {
        if marked[var.0 as usize] {
            map[var.0 as usize] = reduced.add_input();
            restore.inputs.push(pos);
        }
    }
    for (pos, latch) in aig.latches.iter().enumerate() {
        if marked[latch.var.0 as usize] {
            map[latch.var.0 as usize] = reduced.add_latch(latch.init);
            restore.latches.push(pos);
        }
    }
    reduced.copy_ands(aig, &mut map, |v| marked[v]);
    for (new_pos, &orig) in restore.latches.iter().enumerate() {
        let next = map_lit(&map, aig.latches[orig].next);
        reduced.set_next(new_pos, next);
    }
    reduced.constraints = aig.constraints.iter().map(|&c| map_lit(&map, c)).collect();
    let bads: Vec<Lit> = bad.iter().map(|&b| map_lit(&map, b)).collect();
    let bad = reduced.or_all(&bads);
    reduced.bad = vec![bad];
    let nodes = (map.iter().zip(&marked).enumerate())
        .map(|(v, (&l, &m))| (m || v == 0).then_some(l))
        .collect();
    (reduced, restore, nodes)
}

/// Marks every node in the transitive fan-in of `roots`, through latches.
pub fn mark_cone(aig: &Aig, roots: impl Iterator<Item = Lit>) -> Vec<bool> {
    let mut marked = vec![false; aig.num_nodes()];
    let mut stack: Vec<Var> = roots.map(Lit::var).collect();
    while let Some(var) = stack.pop() {
        if std::mem::replace(&mut marked[var.0 as usize], true) {
            continue;
        }
        match aig.node(var) {
            Node::False | Node::Input(_) => {}
            Node::Latch(i) => stack.push(aig.latches[i as usize].next.var()),
            Node::And(a, b) => {
                stack.push(a.var());
                stack.push(b.var());
            }
        }
    }
    marked
}

/// How many min-hashes a cone signature holds.
pub const SIGNATURE: usize = 4;

/// A fingerprint of the latch cone of each of `roots`, for grouping
/// properties whose cones overlap: [`SIGNATURE`] min-hashes (Broder, "On
/// the resemblance and containment of documents", 1997) of the set of
/// latches each root depends on through any number of steps; two cones
/// agree on each min-hash with probability the share of latches they have
/// in common (their Jaccard similarity). One pass over the nodes per step
/// of dependence between latches, at most `passes` (a cone cut short is
/// still a fingerprint of what it reached).
pub fn cone_signatures(aig: &Aig, roots: &[Lit], passes: usize) -> Vec<[u64; SIGNATURE]> {
    let own = |i: usize| -> [u64; SIGNATURE] {
        std::array::from_fn(|j| mix((i * SIGNATURE + j) as u64 + 1))
    };
    let least = |a: [u64; SIGNATURE], b: &[u64; SIGNATURE]| -> [u64; SIGNATURE] {
        std::array::from_fn(|j| a[j].min(b[j]))
    };
    let mut signature = vec![[u64::MAX; SIGNATURE]; aig.num_nodes()];
    for _ in 0..passes {
        let mut changed = false;
        for (v, node) in aig.nodes().iter().enumerate() {
            let new = match *node {
                Node::False | Node::Input(_) => continue,
                Node::Latch(i) => {
                    let next = aig.latches[i as usize].next.var().0 as usize;
                    least(own(i as usize), &signature[next])
                }
                Node::And(a, b) => least(
                    signature[a.var().0 as usize],
                    &signature[b.var().0 as usize],
                ),
            };
            if new != signature[v] {
                signature[v] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    roots
        .iter()
        .map(|r| signature[r.var().0 as usize])
        .collect()
}

/// SplitMix64's finaliser: a well-spread 64-bit hash of `x`. Not the
/// first output of `util::rng` seeded with `x`: with that, the test's
/// cones {a0} and {a0, a1, a2} agreed on all four min-hashes.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cone_drops_unrelated_logic_and_restores_positions() {
        let mut aig = Aig::new();
        let _unused_in = aig.add_input();
        let x = aig.add_input();
        let unrelated = aig.add_latch(Some(true));
        let l = aig.add_latch(None);
        aig.set_next(0, !unrelated);
        let nx = aig.and(l, x);
        aig.set_next(1, nx);
        aig.bad.push(l);
        let (reduced, restore) = cone_of_influence(&aig, &[l]);
        assert_eq!(reduced.inputs.len(), 1);
        assert_eq!(reduced.latches.len(), 1);
        assert_eq!(restore.inputs, vec![1]);
        assert_eq!(restore.latches, vec![1]);
        let t = restore.trace(&Trace {
            init: vec![true],
            inputs: vec![vec![true]],
        });
        assert_eq!(t.init, vec![true, true]);
        assert_eq!(t.inputs, vec![vec![false, true]]);
    }

    #[test]
    fn cone_signatures_agree_on_equal_cones_and_tell_apart_disjoint_ones() {
        // Chain a0 <- a1 <- a2 (each latch takes the next one's value) and
        // a separate latch b; roots: a0, a2 ∧ a1 (same cone once the chain
        // is followed), b, and a0 ∧ b.
        let mut aig = Aig::new();
        let x = aig.add_input();
        let a: Vec<Lit> = (0..3).map(|_| aig.add_latch(Some(false))).collect();
        let b = aig.add_latch(Some(false));
        aig.set_next(0, a[1]);
        aig.set_next(1, a[2]);
        aig.set_next(2, x);
        aig.set_next(3, !b);
        let a21 = aig.and(a[2], a[1]);
        let a0b = aig.and(a[0], b);
        let roots = [a[0], a21, b, a0b];
        let full = cone_signatures(&aig, &roots, 64);
        // The cone of a0 is {a0, a1, a2}; of a2 ∧ a1, {a1, a2}: they differ
        // as sets, and the signature of a0's holds the least of all three.
        assert_ne!(full[0], full[2]);
        assert_ne!(full[1], full[2]);
        for (((a0, a21), b), a0b) in full[0].iter().zip(&full[1]).zip(&full[2]).zip(&full[3]) {
            assert!(a0 <= a21);
            // a0 ∧ b's cone is the union of a0's and b's.
            assert_eq!(*a0b, *a0.min(b));
        }
        // One pass follows the chain as far as the node order lets it:
        // here a0 reads a1 before a1 is visited, so a0 sees itself alone.
        let cut = cone_signatures(&aig, &roots[..1], 1);
        assert_ne!(cut[0], full[0]);
    }
}
