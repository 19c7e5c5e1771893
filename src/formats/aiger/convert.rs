//! From the file-level [`Aiger`] to the engines' [`Aig`].

use super::{Aiger, Reset};
use crate::ir::aig::{Aig, Lit};

impl Aiger {
    /// Builds the AIG: inputs and latches keep their file positions, gates are
    /// structurally hashed, `bad` holds [`Aiger::bad_properties`], and reset
    /// functions are kept as [`crate::ir::aig::Latch::reset`] (engines take
    /// the circuit [`Aig::without_resets`] gives).
    pub fn to_aig(&self) -> Aig {
        let mut aig = Aig::new();
        let mut map = vec![Lit::FALSE; self.maxvar as usize + 1];
        for &i in &self.inputs {
            map[(i >> 1) as usize] = aig.add_input();
        }
        for l in &self.latches {
            let init = match l.reset {
                Reset::Zero => Some(false),
                Reset::One => Some(true),
                Reset::Uninitialized | Reset::Function(_) => None,
            };
            map[(l.lit >> 1) as usize] = aig.add_latch(init);
        }
        let lookup = |map: &[Lit], lit: u32| map[(lit >> 1) as usize].xor(lit & 1 == 1);
        for g in self.topological_ands() {
            let g = self.ands[g];
            map[(g.lhs >> 1) as usize] = aig.and(lookup(&map, g.rhs0), lookup(&map, g.rhs1));
        }
        for (k, l) in self.latches.iter().enumerate() {
            aig.set_next(k, lookup(&map, l.next));
            if let Reset::Function(r) = l.reset {
                aig.latches[k].reset = Some(lookup(&map, r));
            }
        }
        let lits = |v: &[u32]| v.iter().map(|&l| lookup(&map, l)).collect::<Vec<_>>();
        aig.bad = lits(self.bad_properties());
        aig.constraints = lits(&self.constraints);
        aig.justice = self.justice.iter().map(|j| lits(j)).collect();
        aig.fairness = lits(&self.fairness);
        aig
    }
}

impl Aiger {
    /// Writes an AIG as a file-level model in binary order: inputs, latches,
    /// then gates in node order (which is topological). Outputs are empty;
    /// bad, constraints, justice and fairness are taken from the AIG.
    pub fn from_aig(aig: &Aig) -> Aiger {
        use crate::ir::aig::Node;
        let mut map = vec![0u32; aig.num_nodes()];
        let mut next_var = 1u32;
        for &v in aig.inputs.iter().chain(aig.latches.iter().map(|l| &l.var)) {
            map[v.0 as usize] = next_var;
            next_var += 1;
        }
        for (v, node) in aig.nodes().iter().enumerate() {
            if let Node::And(..) = node {
                map[v] = next_var;
                next_var += 1;
            }
        }
        let lit = |l: Lit| (2 * map[l.var().0 as usize]) | l.is_negated() as u32;
        let ands = (aig.nodes().iter().enumerate())
            .filter_map(|(v, node)| match *node {
                Node::And(a, b) => {
                    let (x, y) = (lit(a), lit(b));
                    Some(super::AigerAnd {
                        lhs: 2 * map[v],
                        rhs0: x.max(y),
                        rhs1: x.min(y),
                    })
                }
                _ => None,
            })
            .collect();
        Aiger {
            maxvar: next_var - 1,
            inputs: aig.inputs.iter().map(|&v| 2 * map[v.0 as usize]).collect(),
            latches: (aig.latches.iter())
                .map(|l| super::AigerLatch {
                    lit: 2 * map[l.var.0 as usize],
                    next: lit(l.next),
                    reset: match (l.init, l.reset) {
                        (_, Some(r)) => Reset::Function(lit(r)),
                        (Some(false), None) => Reset::Zero,
                        (Some(true), None) => Reset::One,
                        (None, None) => Reset::Uninitialized,
                    },
                })
                .collect(),
            outputs: Vec::new(),
            bad: aig.bad.iter().map(|&l| lit(l)).collect(),
            constraints: aig.constraints.iter().map(|&l| lit(l)).collect(),
            justice: aig
                .justice
                .iter()
                .map(|j| j.iter().map(|&l| lit(l)).collect())
                .collect(),
            fairness: aig.fairness.iter().map(|&l| lit(l)).collect(),
            ands,
            symbols: Vec::new(),
            comments: Vec::new(),
        }
    }
}
