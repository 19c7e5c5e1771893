//! The reduction pipeline in front of every engine: latch simplification,
//! then the cone of influence of the selected properties, with one map back.

use crate::ir::aig::{identity_images, map_lit, map_partial_lit, Aig, Lit, Node};
use crate::ir::coi::{cone_of_influence_mapped, Restore};
use crate::ir::invariant::CircuitInvariant;
use crate::ir::simplify::simplify_latches;
use crate::preprocess::fraig::{fraig, FraigStats};
use crate::util::budget::Budget;
use std::collections::HashMap;
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
    /// Assumes `invariant`, an inductive invariant of the original circuit
    /// `full` (cubes to exclude over its latches): each cube whose latches
    /// all have an image in the reduced circuit becomes one of its
    /// constraints (every reachable state satisfies it, so no reachable
    /// state is cut), and the whole invariant joins the facts, so that every
    /// proof mapped back carries it (a proof under the constraints is
    /// inductive only together with it; a part of an inductive invariant
    /// need not be). Returns how many constraints were added.
    pub fn assume(&mut self, full: &Aig, invariant: &[Vec<(usize, bool)>]) -> usize {
        let mut added = 0;
        'cubes: for cube in invariant {
            let mut lits = Vec::with_capacity(cube.len());
            for &(l, v) in cube {
                let Some(image) =
                    (full.latches.get(l)).and_then(|latch| self.images[latch.var.0 as usize])
                else {
                    continue 'cubes;
                };
                match image.xor(!v) {
                    // Never in this cube: nothing to exclude.
                    Lit::FALSE => continue 'cubes,
                    Lit::TRUE => {}
                    lit => lits.push(lit),
                }
            }
            // A cube that the facts make true everywhere contradicts them
            // (both hold in the initial states): left out rather than
            // trusted.
            if lits.is_empty() {
                continue;
            }
            let negated: Vec<Lit> = lits.iter().map(|&l| !l).collect();
            let clause = self.aig.or_all(&negated);
            self.aig.constraints.push(clause);
            added += 1;
        }
        self.facts.extend(invariant.iter().cloned());
        added
    }

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

/// One side of an equality of [`invariant_over`]: a node of the model, or
/// a gate of the reduced circuit that no node of the model maps to (the
/// disjunction of several properties that the cone of influence adds).
#[derive(Clone, Copy)]
enum Side {
    Model(u32),
    Reduced(u32),
}

/// Equalities `repr` between nodes of `reduced` (node v equals `repr[v]` in
/// every reachable state) as an invariant circuit over `model`'s latches,
/// then its inputs, where model node v computes `images[v]` of `reduced`
/// wherever the preprocessing's facts hold (conjoin those for an inductive
/// invariant).
///
/// They are stated over the model's own nodes: each node with an image
/// equals the lowest model node of its image's class. Its gates are copies
/// of the model's, so in a witness circuit built from the model they are the
/// model's own nodes (structural hashing), and a checker that merges proved
/// equalities (`check::certificate`) reduces the model's logic as the search
/// did, SAT sweeping's merges included. Stated over a copy of `reduced`
/// beside the model instead, the merges reduced only the copy, while the
/// next frame's latches came through the model's unreduced logic: on
/// `cal229` the check took 14-20 s against the search's 10 s.
pub fn invariant_over(
    model: &Aig,
    reduced: &Aig,
    images: &[Option<Lit>],
    repr: &[Lit],
) -> CircuitInvariant {
    use crate::ir::aig::Var;
    let n = model.num_nodes();
    // The lowest model node of each reduced node: reduced[u] = model[v] ^ phase.
    let mut lowest: Vec<Option<Lit>> = vec![None; reduced.num_nodes()];
    for (v, image) in images.iter().enumerate() {
        if let Some(l) = *image {
            lowest[l.var().0 as usize].get_or_insert(Lit::new(Var(v as u32), l.is_negated()));
        }
    }
    // Each class's first side (by its representative), and the equalities
    // of the others to it: (side, first, phase).
    let mut first: HashMap<u32, (Side, bool)> = HashMap::new();
    let mut equalities: Vec<(Side, Side, bool)> = Vec::new();
    let mut add = |side: Side, key: Lit| match first.get(&key.var().0) {
        Some(&(to, phase)) => equalities.push((side, to, phase ^ key.is_negated())),
        None => {
            first.insert(key.var().0, (side, key.is_negated()));
        }
    };
    for (v, image) in images.iter().enumerate() {
        if let Some(l) = *image {
            add(Side::Model(v as u32), map_lit(repr, l));
        }
    }
    // Members of `reduced` with no model node: built from their fanins'.
    let mut needed = vec![false; reduced.num_nodes()];
    for u in 0..reduced.num_nodes() {
        if lowest[u].is_none() && repr[u].var().0 as usize != u {
            needed[u] = true;
            add(Side::Reduced(u as u32), repr[u]);
        }
    }
    // The model's gates the equalities read, and those the reduced gates
    // built for them read.
    let mut used = vec![false; n];
    for u in (0..reduced.num_nodes()).rev() {
        if !needed[u] {
            continue;
        }
        if let Node::And(a, b) = reduced.nodes()[u] {
            for x in [a, b] {
                match lowest[x.var().0 as usize] {
                    Some(l) => used[l.var().0 as usize] = true,
                    None => needed[x.var().0 as usize] = true,
                }
            }
        }
    }
    for &(x, y, _) in &equalities {
        for side in [x, y] {
            if let Side::Model(v) = side {
                used[v as usize] = true;
            }
        }
    }
    for v in (0..n).rev() {
        if let (true, Node::And(a, b)) = (used[v], model.nodes()[v]) {
            used[a.var().0 as usize] = true;
            used[b.var().0 as usize] = true;
        }
    }
    let mut circuit = Aig::new();
    let mut map = vec![Lit::FALSE; n];
    for latch in &model.latches {
        map[latch.var.0 as usize] = circuit.add_input();
    }
    for &v in &model.inputs {
        map[v.0 as usize] = circuit.add_input();
    }
    circuit.copy_ands(model, &mut map, |v| used[v]);
    let mut built = vec![Lit::FALSE; reduced.num_nodes()];
    for u in 0..reduced.num_nodes() {
        built[u] = match (lowest[u], reduced.nodes()[u]) {
            (Some(l), _) => map_lit(&map, l),
            (None, Node::And(a, b)) if needed[u] => {
                circuit.and(map_lit(&built, a), map_lit(&built, b))
            }
            _ => continue,
        };
    }
    let lit = |side: Side| match side {
        Side::Model(v) => map[v as usize],
        Side::Reduced(u) => built[u as usize],
    };
    let mut holds = Lit::TRUE;
    for (x, y, phase) in equalities {
        let differ = circuit.xor(lit(x), lit(y).xor(phase));
        holds = circuit.and(holds, !differ);
    }
    CircuitInvariant {
        circuit,
        invariant: holds,
    }
}
