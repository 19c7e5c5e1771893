//! From the file-level [`Aiger`] to the engines' [`Aig`].

use super::{Aiger, Reset};
use crate::ir::aig::{Aig, Lit};

impl Aiger {
    /// Builds the AIG: inputs and latches keep their file positions, gates are
    /// structurally hashed, and `bad` holds [`Aiger::bad_properties`].
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
                Reset::Uninitialized => None,
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
        }
        let lits = |v: &[u32]| v.iter().map(|&l| lookup(&map, l)).collect::<Vec<_>>();
        aig.bad = lits(self.bad_properties());
        aig.constraints = lits(&self.constraints);
        aig.justice = self.justice.iter().map(|j| lits(j)).collect();
        aig.fairness = lits(&self.fairness);
        aig
    }
}
