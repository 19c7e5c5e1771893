//! Inductive invariants as circuits, the form in which interpolation and
//! signal correspondence prove (and in which preprocessing restates them
//! over the model as read). Shared by the engines that produce them, the
//! preprocessing that maps them back and the checkers that read them.

use crate::ir::aig::{map_lit, Aig, Lit};

/// An inductive invariant as a circuit: `circuit`'s inputs are the latches
/// of the circuit it is about, in order, then possibly its inputs (the
/// invariant then holds in a state for every value of the inputs: signal
/// correspondence's equalities between gates read them), and `invariant`
/// holds in exactly the states of the invariant.
#[derive(Clone, Debug)]
pub struct CircuitInvariant {
    /// Inputs (one per latch) and AND gates, nothing else.
    pub circuit: Aig,
    /// The invariant's literal in `circuit`.
    pub invariant: Lit,
}

impl CircuitInvariant {
    /// The literal of the invariant copied into `w`, its inputs read as the
    /// first of `inputs` (the latches, then the inputs, of the circuit it is
    /// about).
    pub fn copy_into(&self, w: &mut Aig, inputs: &[Lit]) -> Lit {
        let mut map = vec![Lit::FALSE; self.circuit.num_nodes()];
        for (i, &var) in self.circuit.inputs.iter().enumerate() {
            map[var.0 as usize] = inputs[i];
        }
        w.copy_ands(&self.circuit, &mut map, |_| true);
        map_lit(&map, self.invariant)
    }
}

impl PartialEq for CircuitInvariant {
    fn eq(&self, other: &Self) -> bool {
        self.invariant == other.invariant && self.circuit.nodes() == other.circuit.nodes()
    }
}

impl Eq for CircuitInvariant {}
