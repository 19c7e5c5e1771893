//! Word-level transition systems over [`crate::ir::term`] terms.
//!
//! One shape holds every word-level format: BTOR2's functional `next`/`init`,
//! VMT's relational `:init`/`:trans` over primed copies, DimSpec's CNF
//! sections. A state without an init term starts anywhere; a state without a
//! next term (and not constrained by `trans`) takes any value in each step.

use crate::ir::term::{Term, Terms};

/// A state variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateVar {
    /// The variable holding the current value.
    pub var: Term,
    /// The primed copy used by relational transitions (VMT `:next`), if any.
    pub next_var: Option<Term>,
    /// The initial value, if fixed by a term over other states.
    pub init: Option<Term>,
    /// The next-state function over current states and inputs, if any.
    pub next: Option<Term>,
}

/// A named Boolean term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// The name from the file, or a generated one (`b0`, `p0`).
    pub name: String,
    /// The term (for `bad`: a bad state is one where it is true).
    pub term: Term,
}

/// A transition system with safety properties.
#[derive(Clone, Debug, Default)]
pub struct Ts {
    /// The store all terms below live in.
    pub terms: Terms,
    /// State variables, in declaration order.
    pub states: Vec<StateVar>,
    /// Input variables, in declaration order.
    pub inputs: Vec<Term>,
    /// Relational initial-state constraints over current states (AND-ed).
    pub init: Vec<Term>,
    /// Relational transition constraints over states, inputs and primed states (AND-ed).
    pub trans: Vec<Term>,
    /// Invariant constraints over states and inputs that hold in every step.
    pub constraints: Vec<Term>,
    /// Bad-state properties: reaching a state where one is true violates it.
    pub bad: Vec<Property>,
    /// Fairness constraints (kept, not yet used by any engine).
    pub fairness: Vec<Term>,
    /// Justice properties (kept, not yet checked).
    pub justice: Vec<Vec<Term>>,
    /// Liveness properties of VMT (`:live-property`), kept.
    pub live: Vec<Property>,
    /// Initial predicates for abstraction (VMT `:predicate`), kept.
    pub predicates: Vec<Term>,
}

impl Ts {
    /// The position of the state whose current or primed variable is `var`.
    pub fn state_of(&self, var: Term) -> Option<usize> {
        (self.states.iter()).position(|s| s.var == var || s.next_var == Some(var))
    }
}

/// A concrete word-level path: state and input values per step. The bad
/// property holds in the last step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordTrace {
    /// Per step, the value of every state in [`Ts::states`] order.
    pub states: Vec<Vec<crate::ir::term::eval::Value>>,
    /// Per step, the value of every input in [`Ts::inputs`] order.
    pub inputs: Vec<Vec<crate::ir::term::eval::Value>>,
}

impl WordTrace {
    /// Number of steps.
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Whether the trace has no step.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }
}
