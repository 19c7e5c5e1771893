//! The reduction pipeline in front of every engine: latch simplification,
//! then the cone of influence of the selected properties, with one map back.

use super::aig::{Aig, Lit};
use super::coi::{cone_of_influence, Restore};
use super::simplify::simplify_latches;

/// A circuit ready for an engine, and how to carry results back.
pub struct Prepared {
    /// The reduced circuit; its single bad property is the disjunction of
    /// the selected ones.
    pub aig: Aig,
    /// Positions back to the original circuit.
    pub restore: Restore,
    /// Invariant facts the reduction relied on, as cubes to exclude over the
    /// original latches (constant and equivalent latches).
    pub facts: Vec<Vec<(usize, bool)>>,
    /// Latches found constant.
    pub constants: usize,
    /// Latches merged into an equivalent one.
    pub merged: usize,
}

impl Prepared {
    /// An invariant of the reduced circuit as one of the original: latches
    /// mapped back, and the facts added.
    pub fn original_invariant(&self, cubes: &[Vec<(usize, bool)>]) -> Vec<Vec<(usize, bool)>> {
        (cubes.iter())
            .map(|c| {
                c.iter()
                    .map(|&(l, v)| (self.restore.latches[l], v))
                    .collect()
            })
            .chain(self.facts.iter().cloned())
            .collect()
    }
}

/// Reduces `full` for checking the properties at `props` (indices into
/// `full.bad`); `simplify` enables latch simplification.
pub fn prepare(full: &Aig, props: &[usize], simplify: bool) -> Prepared {
    if !simplify {
        let bad: Vec<Lit> = props.iter().map(|&p| full.bad[p]).collect();
        let (aig, restore) = cone_of_influence(full, &bad);
        return Prepared {
            aig,
            restore,
            facts: Vec::new(),
            constants: 0,
            merged: 0,
        };
    }
    let s = simplify_latches(full);
    let bad: Vec<Lit> = props.iter().map(|&p| s.aig.bad[p]).collect();
    let (aig, inner) = cone_of_influence(&s.aig, &bad);
    Prepared {
        aig,
        restore: s.restore.compose(&inner),
        facts: s.facts,
        constants: s.constants,
        merged: s.merged,
    }
}
