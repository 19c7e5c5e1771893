//! Concrete counterexample traces over a bit-level circuit.

/// A finite path: initial latch values and one input vector per step.
///
/// The property is violated in the last step, after the last input vector has
/// been applied (bad states may depend on inputs, as in AIGER).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Value of every latch in step 0, in latch order.
    pub init: Vec<bool>,
    /// Value of every input, one vector per step, in input order.
    pub inputs: Vec<Vec<bool>>,
}

impl Trace {
    /// Number of steps (at least one for any counterexample).
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Whether the trace has no step.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }
}
