//! The reduction pipeline in front of every engine: latch simplification,
//! then the cone of influence of the selected properties, with one map back.

use crate::engines::CircuitInvariant;
use crate::ir::aig::{Aig, Lit};
use crate::ir::coi::{cone_of_influence, Restore};
use crate::ir::simplify::simplify_latches;
use crate::preprocess::fraig::{fraig, FraigStats};
use crate::util::budget::Budget;
use std::time::Duration;

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
    /// What SAT sweeping did, if it ran.
    pub fraig: Option<FraigStats>,
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

impl Prepared {
    /// A circuit invariant of the reduced circuit as one of the original
    /// `full`: latches and inputs mapped back, conjoined with the facts.
    pub fn original_circuit_invariant(
        &self,
        full: &Aig,
        inv: &CircuitInvariant,
    ) -> CircuitInvariant {
        let mut circuit = Aig::new();
        let inputs: Vec<Lit> = full.latches.iter().map(|_| circuit.add_input()).collect();
        let model_inputs: Vec<Lit> = full.inputs.iter().map(|_| circuit.add_input()).collect();
        let reduced: Vec<Lit> = (self.restore.latches.iter().map(|&l| inputs[l]))
            .chain(self.restore.inputs.iter().map(|&i| model_inputs[i]))
            .collect();
        let mut holds = crate::check::certificate::copy_circuit(&mut circuit, inv, &reduced);
        for cube in &self.facts {
            let mut inside = Lit::TRUE;
            for &(l, v) in cube {
                inside = circuit.and(inside, inputs[l].xor(!v));
            }
            holds = circuit.and(holds, !inside);
        }
        CircuitInvariant {
            circuit,
            invariant: holds,
        }
    }
}

/// Which reductions [`prepare`] applies.
#[derive(Clone, Debug)]
pub struct PrepareOptions {
    /// Latch simplification (constants and structurally equivalent latches).
    pub simplify: bool,
    /// Functional reduction by SAT sweeping, with its time budget.
    pub fraig: Option<Duration>,
    /// The run's budget: a stop, the memory limit or the deadline ends
    /// the sweep early too (it keeps what it proved).
    pub budget: Budget,
}

impl Default for PrepareOptions {
    fn default() -> Self {
        PrepareOptions {
            simplify: true,
            fraig: Some(Duration::from_secs(5)),
            budget: Budget::unlimited(),
        }
    }
}

/// Reduces `full` for checking the properties at `props` (indices into
/// `full.bad`).
///
/// Latch simplification runs first (substituted constants expose more
/// equivalent gates), then SAT sweeping, then latch simplification again
/// (next-state functions merged by the sweep make more latches
/// structurally equal), then the cone of influence.
pub fn prepare(full: &Aig, props: &[usize], options: &PrepareOptions) -> Prepared {
    let mut current = full.clone();
    let mut restore = Restore::identity(full);
    let mut facts: Vec<Vec<(usize, bool)>> = Vec::new();
    let (mut constants, mut merged) = (0, 0);
    let mut fraig_stats = None;
    let mut simplify = |current: &mut Aig, restore: &mut Restore| {
        let s = simplify_latches(current);
        // The facts are over `current`'s latches: state them over the input's.
        facts.extend(s.facts.iter().map(|cube| {
            cube.iter()
                .map(|&(l, v)| (restore.latches[l], v))
                .collect::<Vec<_>>()
        }));
        constants += s.constants;
        merged += s.merged;
        *restore = restore.compose(&s.restore);
        *current = s.aig;
    };
    if options.simplify {
        simplify(&mut current, &mut restore);
    }
    if let Some(time) = options.fraig {
        let (swept, stats) = fraig(&current, &options.budget.narrowed(time));
        let changed = stats.merged > 0;
        current = swept;
        fraig_stats = Some(stats);
        if changed && options.simplify {
            simplify(&mut current, &mut restore);
        }
    }
    let bad: Vec<Lit> = props.iter().map(|&p| current.bad[p]).collect();
    let (aig, inner) = cone_of_influence(&current, &bad);
    Prepared {
        aig,
        restore: restore.compose(&inner),
        facts,
        constants,
        merged,
        fraig: fraig_stats,
    }
}
