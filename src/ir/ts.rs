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
    /// Fairness constraints (BTOR2 `fair`): each holds infinitely often on
    /// a run that violates a liveness property.
    pub fairness: Vec<Term>,
    /// Justice properties (BTOR2 `justice`): violated by an infinite run on
    /// which every signal holds infinitely often.
    pub justice: Vec<Vec<Term>>,
    /// Liveness properties of VMT (`:live-property p`: F G p, violated by
    /// an infinite run on which `p` fails infinitely often).
    pub live: Vec<Property>,
    /// Initial predicates for abstraction (VMT `:predicate`), kept.
    pub predicates: Vec<Term>,
    /// Named values over states and inputs that waveforms show (BTOR2
    /// outputs and named nodes: a design's wires); no engine reads them.
    pub signals: Vec<Property>,
}

/// Positions of the states and of the inputs a term mentions.
type Mentions = (Vec<usize>, Vec<usize>);

/// The states and inputs a set of roots depends on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cone {
    /// Positions in [`Ts::states`], ascending.
    pub states: Vec<usize>,
    /// Positions in [`Ts::inputs`], ascending.
    pub inputs: Vec<usize>,
    /// Distinct terms of the cone's functions and relations.
    pub terms: usize,
}

/// One signal of a liveness property: a term, and the value at which the
/// signal counts as holding.
pub type LivenessSignal = (Term, bool);

impl Ts {
    /// How many liveness properties the system has: its justice properties,
    /// then its `:live-property` ones, numbered in that order.
    pub fn liveness_count(&self) -> usize {
        self.justice.len() + self.live.len()
    }

    /// The signals of liveness property `j` (see [`Ts::liveness_count`])
    /// followed by the fairness constraints: a run violates the property
    /// when each of them holds infinitely often.
    pub fn liveness_signals(&self, j: usize) -> Option<Vec<LivenessSignal>> {
        let own: Vec<LivenessSignal> = match self.justice.get(j) {
            Some(signals) => signals.iter().map(|&s| (s, true)).collect(),
            None => vec![(self.live.get(j - self.justice.len())?.term, false)],
        };
        Some(
            own.into_iter()
                .chain(self.fairness.iter().map(|&f| (f, true)))
                .collect(),
        )
    }

    /// Every term the system is made of, in a fixed order: each state's
    /// init and next (where present), then init, trans, constraints and the
    /// bad properties. [`Ts::replace_roots`] takes images in this order.
    pub fn roots(&self) -> Vec<Term> {
        let mut roots: Vec<Term> = Vec::new();
        for s in &self.states {
            roots.extend(s.init);
            roots.extend(s.next);
        }
        roots.extend(&self.init);
        roots.extend(&self.trans);
        roots.extend(&self.constraints);
        roots.extend(self.bad.iter().map(|p| p.term));
        roots
    }

    /// Replaces the terms [`Ts::roots`] lists by `images`, in its order.
    pub fn replace_roots(&mut self, images: &[Term]) {
        let mut it = images.iter().copied();
        for s in &mut self.states {
            s.init = s.init.map(|_| it.next().expect("one per root"));
            s.next = s.next.map(|_| it.next().expect("one per root"));
        }
        for t in (self.init.iter_mut())
            .chain(&mut self.trans)
            .chain(&mut self.constraints)
        {
            *t = it.next().expect("one per root");
        }
        for p in &mut self.bad {
            p.term = it.next().expect("one per root");
        }
    }

    /// The position of the state whose current or primed variable is `var`.
    pub fn state_of(&self, var: Term) -> Option<usize> {
        (self.states.iter()).position(|s| s.var == var || s.next_var == Some(var))
    }

    /// The cone of influence of `roots`: the least set of states and inputs
    /// closed under next and init functions, and under every init or trans
    /// relation touching it. Constraints are always in, since they can cut
    /// any path. Variables outside the cone cannot change whether a root
    /// is reachable.
    pub fn cone_of_influence(&self, roots: &[Term]) -> Cone {
        let input_of: std::collections::HashMap<Term, usize> = self
            .inputs
            .iter()
            .enumerate()
            .map(|(i, &t)| (t, i))
            .collect();
        let state_of: std::collections::HashMap<Term, usize> = (self.states.iter().enumerate())
            .flat_map(|(i, s)| std::iter::once((s.var, i)).chain(s.next_var.map(|n| (n, i))))
            .collect();
        // Which states and inputs a term mentions.
        let vars = |t: Term| {
            let mut found = (Vec::new(), Vec::new());
            for u in self.terms.topological(&[t]) {
                if let Some(&i) = state_of.get(&u) {
                    found.0.push(i);
                } else if let Some(&i) = input_of.get(&u) {
                    found.1.push(i);
                }
            }
            found
        };
        let relations: Vec<(Term, Mentions)> = (self.init.iter().chain(&self.trans))
            .map(|&t| (t, vars(t)))
            .collect();
        let mut in_state = vec![false; self.states.len()];
        let mut in_input = vec![false; self.inputs.len()];
        let mut used_relation = vec![false; relations.len()];
        let mut members: Vec<Term> = roots.iter().chain(&self.constraints).copied().collect();
        let mut work: Vec<Term> = members.clone();
        while let Some(t) = work.pop() {
            let (states, inputs) = vars(t);
            let mut grown = false;
            for i in inputs {
                grown |= !std::mem::replace(&mut in_input[i], true);
            }
            for i in states {
                if in_state[i] {
                    continue;
                }
                in_state[i] = true;
                grown = true;
                let s = &self.states[i];
                for f in [s.next, s.init].into_iter().flatten() {
                    members.push(f);
                    work.push(f);
                }
            }
            if !grown {
                continue;
            }
            for (r, (rel, (rs, ri))) in relations.iter().enumerate() {
                let touches = rs.iter().any(|&i| in_state[i]) || ri.iter().any(|&i| in_input[i]);
                if !used_relation[r] && touches {
                    used_relation[r] = true;
                    members.push(*rel);
                    work.push(*rel);
                }
            }
        }
        let positions = |marks: Vec<bool>| {
            marks
                .iter()
                .enumerate()
                .filter(|m| *m.1)
                .map(|m| m.0)
                .collect()
        };
        Cone {
            states: positions(in_state),
            inputs: positions(in_input),
            terms: self.terms.topological(&members).len(),
        }
    }
}

/// A concrete word-level path: state and input values per step. The bad
/// property holds in the last step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
