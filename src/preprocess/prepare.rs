//! The reduction pipeline in front of every engine: latch simplification,
//! then the cone of influence of the selected properties, with one map back.

use crate::ir::aig::{identity_images, map_lit, map_partial_lit, Aig, Lit};
use crate::ir::coi::{cone_of_influence_mapped, Restore};
use crate::ir::invariant::CircuitInvariant;
use crate::ir::simplify::simplify_latches;
use crate::preprocess::fraig::{fraig, FraigStats};
use crate::preprocess::scorr::invariant_over;
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
    /// Each node of the original circuit's literal in `aig`, where it has
    /// one: in every state where the facts hold, the two are equal.
    pub images: Vec<Option<Lit>>,
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
        let holds = inv.copy_into(&mut circuit, &reduced);
        self.with_facts(circuit, holds, &inputs)
    }

    /// Signal correspondence's equalities `repr` between nodes of the
    /// reduced circuit as an invariant of `full`, over its own nodes
    /// ([`invariant_over`]), conjoined with the facts.
    pub fn original_correspondence(&self, full: &Aig, repr: &[Lit]) -> CircuitInvariant {
        let inv = invariant_over(full, &self.aig, &self.images, repr);
        let inputs: Vec<Lit> = (inv.circuit.inputs.iter())
            .take(full.latches.len())
            .map(|&v| Lit::new(v, false))
            .collect();
        self.with_facts(inv.circuit, inv.invariant, &inputs)
    }

    /// `holds` in `circuit` conjoined with the facts, where `latches` are
    /// the original latches in `circuit`.
    fn with_facts(&self, mut circuit: Aig, mut holds: Lit, latches: &[Lit]) -> CircuitInvariant {
        for cube in &self.facts {
            let mut inside = Lit::TRUE;
            for &(l, v) in cube {
                inside = circuit.and(inside, latches[l].xor(!v));
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
    let mut images = identity_images(full);
    // Carries every image through one more stage's node map.
    let through = |images: &mut Vec<Option<Lit>>, stage: &dyn Fn(Lit) -> Option<Lit>| {
        for image in images.iter_mut() {
            *image = image.and_then(stage);
        }
    };
    let mut simplify = |current: &mut Aig, restore: &mut Restore, images: &mut Vec<Option<Lit>>| {
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
        through(images, &|l| Some(map_lit(&s.nodes, l)));
        *current = s.aig;
    };
    if options.simplify {
        simplify(&mut current, &mut restore, &mut images);
    }
    if let Some(time) = options.fraig {
        let (swept, swept_images, stats) = fraig(&current, &options.budget.narrowed(time));
        let changed = stats.merged > 0;
        current = swept;
        through(&mut images, &|l| map_partial_lit(&swept_images, l));
        fraig_stats = Some(stats);
        if changed && options.simplify {
            simplify(&mut current, &mut restore, &mut images);
        }
    }
    let bad: Vec<Lit> = props.iter().map(|&p| current.bad[p]).collect();
    let (aig, inner, cone_images) = cone_of_influence_mapped(&current, &bad);
    through(&mut images, &|l| map_partial_lit(&cone_images, l));
    Prepared {
        aig,
        restore: restore.compose(&inner),
        facts,
        constants,
        merged,
        fraig: fraig_stats,
        images,
    }
}
