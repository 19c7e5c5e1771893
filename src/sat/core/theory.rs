//! The theory callback that makes the core the Boolean engine of DPLL(T)
//! (Nieuwenhuis, Oliveras, Tinelli, "Solving SAT and SAT Modulo Theories",
//! JACM 2006).
//!
//! After each round of unit propagation without conflict, the core hands
//! the theory the literals assigned since its last call; the theory answers
//! with implied literals (each with the true literals that imply it),
//! lemmas (T-valid clauses, possibly all false: a conflict) or a request for
//! fresh variables (new atoms, such as the splits of branch and bound). When
//! every variable is assigned, the theory's final check may answer the same
//! way; an empty answer there means the model is consistent. Explanations
//! and lemmas become learnt clauses, so conflict analysis treats theory
//! reasoning like any other.

use crate::sat::Lit;

/// What a theory tells the core.
#[derive(Default, Debug)]
pub struct TheoryOut {
    /// Literals the theory implies, with the true literals implying each.
    pub implied: Vec<(Lit, Vec<Lit>)>,
    /// T-valid clauses to add (a clause of false literals is a conflict).
    pub lemmas: Vec<Vec<Lit>>,
    /// Fresh variables the theory wants (handed over by [`Theory::fresh`]).
    pub fresh: usize,
    /// Literals the search should try first when it decides their variables.
    pub phases: Vec<Lit>,
}

impl TheoryOut {
    /// Whether the theory said nothing.
    pub fn is_empty(&self) -> bool {
        self.implied.is_empty()
            && self.lemmas.is_empty()
            && self.fresh == 0
            && self.phases.is_empty()
    }

    /// Forgets everything said.
    pub fn clear(&mut self) {
        self.implied.clear();
        self.lemmas.clear();
        self.fresh = 0;
        self.phases.clear();
    }
}

/// A decision procedure attached to the core.
pub trait Theory: Send {
    /// `lits` were assigned (in trail order); the current decision level is
    /// `level`. Answers through `out`.
    fn propagate(&mut self, lits: &[Lit], level: usize, out: &mut TheoryOut);
    /// Every assignment above `level` was undone.
    fn backtrack(&mut self, level: usize);
    /// Every variable is assigned and consistent with the earlier answers:
    /// anything said in `out` continues the search, nothing ends it (SAT).
    fn final_check(&mut self, out: &mut TheoryOut);
    /// The fresh variables asked for in the last answer; the theory may
    /// answer about them through `out` (lemmas, phases).
    fn fresh(&mut self, vars: &[Lit], out: &mut TheoryOut);
    /// The value the theory's current model gives the atom of variable
    /// `var`, if it is one: deciding that value costs the theory nothing,
    /// the other one may cost it a conflict.
    fn phase(&self, _var: u32) -> Option<bool> {
        None
    }
    /// The theory itself, for its owner to read (a model, statistics).
    fn as_any(&self) -> &dyn std::any::Any;
    /// The theory itself, mutably.
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}
