//! Functional reduction ("fraiging", SAT sweeping): AND gates that compute
//! the same function of the inputs and latches, or its complement, or a
//! constant, are merged (Mishchenko, Chatterjee, Jiang, Brayton, "FRAIGs: A
//! Unifying Representation for Logic Synthesis and Verification", 2005;
//! ABC's `&fraig`).
//!
//! Random simulation proposes candidates: gates whose simulation signatures
//! agree up to complement. Gates are visited in topological order and
//! rebuilt; a gate whose signature matches an earlier representative is
//! checked against it by SAT (on invar's core, with each check restricted to
//! the two cones); a proven equivalence maps the gate onto the
//! representative, and a refutation yields an input pattern that refines
//! every signature (with 63 one-bit mutations of it, which split more
//! classes per SAT call).
//!
//! The equivalences are combinational (they hold in every state), so the
//! reduced circuit has the same inputs, latches and transition function:
//! traces and invariants carry over unchanged. A check that runs out of its
//! conflict budget counts as "not proven", and the sweep stops at its time
//! budget, keeping what it proved.

use crate::ir::aig::{map_lit, map_partial_lit, Aig, Lit, Node};
use crate::ir::simulate::simulate;
use crate::sat::core::Core;
use crate::sat::tseitin::encode_cone;
use crate::sat::{self, SolveResult, Solver};
use crate::util::budget::Budget;
use crate::util::rng::Rng;
use std::collections::HashMap;
use std::time::Duration;

/// Simulation words per node (64 patterns each).
const WORDS: usize = 4;
/// Conflicts per SAT check before it counts as not proven.
const CHECK_CONFLICTS: u64 = 200;
/// Candidates tried per gate.
const CANDIDATES: usize = 2;

/// What the sweep did.
#[derive(Clone, Debug, Default)]
pub struct FraigStats {
    /// Gates before and after.
    pub ands_before: usize,
    /// Gates left (after dropping dangling ones).
    pub ands_after: usize,
    /// Gates merged onto an equivalent one or a constant.
    pub merged: usize,
    /// SAT checks and how many refuted a candidate.
    pub checks: u64,
    /// Refuted candidates (counterexample patterns).
    pub refuted: u64,
    /// Checks that ran out of conflicts.
    pub undecided: u64,
    /// Time spent.
    pub time: Duration,
}

/// Simulation signatures: base words, then one word per batch of refutations.
struct Signatures {
    words: Vec<Vec<u64>>,
}

impl Signatures {
    fn word(&self, w: usize, node: usize) -> u64 {
        self.words[w][node]
    }

    /// Whether `a` and `b` agree on every pattern, up to complement `phase`.
    fn agree(&self, a: usize, b: usize, phase: bool) -> bool {
        let flip = if phase { u64::MAX } else { 0 };
        (0..self.words.len()).all(|w| self.word(w, a) == self.word(w, b) ^ flip)
    }

    /// The phase that makes a node's first pattern 0.
    fn phase(&self, node: usize) -> bool {
        self.words[0][node] & 1 == 1
    }

    /// A hash of the base words, normalized by phase.
    fn key(&self, node: usize) -> u64 {
        let flip = if self.phase(node) { u64::MAX } else { 0 };
        (0..WORDS).fold(0xcbf2_9ce4_8422_2325u64, |h, w| {
            (h ^ (self.word(w, node) ^ flip)).wrapping_mul(0x1000_0000_01b3)
        })
    }
}

/// The SAT side: the new circuit's gates, encoded on demand.
struct Checker {
    solver: Core,
    vars: Vec<Option<sat::Lit>>,
    tru: sat::Lit,
}

impl Checker {
    fn new(budget: &Budget) -> Checker {
        let mut solver = Core::new(budget.clone());
        let tru = solver.new_var();
        Solver::add_clause(&mut solver, &[tru]);
        Checker {
            solver,
            vars: Vec::new(),
            tru,
        }
    }

    /// The solver literal of `l` in `aig`, encoding its cone as needed.
    fn lit(&mut self, aig: &Aig, l: Lit) -> sat::Lit {
        encode_cone(aig, l, &mut self.vars, !self.tru, &mut self.solver)
    }

    /// Whether `x ∧ ¬y` is satisfiable (with a budget): `Some(true)` with a
    /// model, `Some(false)` if not, `None` if undecided.
    fn differ(&mut self, x: sat::Lit, y: sat::Lit) -> Option<bool> {
        self.solver.set_conflict_limit(Some(CHECK_CONFLICTS));
        let r = Solver::solve(&mut self.solver, &[x, !y]);
        self.solver.set_conflict_limit(None);
        match r {
            SolveResult::Sat => Some(true),
            SolveResult::Unsat => Some(false),
            SolveResult::Interrupted => None,
        }
    }

    /// The value of a leaf of the new circuit in the last model (random
    /// where the model has none).
    fn leaf_value(&self, new: Lit, rng: &mut Rng) -> bool {
        match self.vars.get(new.var().0 as usize).copied().flatten() {
            Some(l) => self.solver.model_value(l) ^ new.is_negated(),
            None => rng.coin(),
        }
    }
}

/// Merges functionally equivalent gates of `aig` within `budget`; inputs
/// and latches keep their positions, and gates no output uses are dropped.
/// Also returns each node's image, a literal of the swept circuit that
/// computes the same function (none for a gate whose image was dropped).
pub fn fraig(aig: &Aig, budget: &Budget) -> (Aig, Vec<Option<Lit>>, FraigStats) {
    let start = std::time::Instant::now();
    let mut stats = FraigStats {
        ands_before: aig.num_ands(),
        ..FraigStats::default()
    };
    let mut rng = Rng::new(0x0f7a_16ed);
    let mut sigs = Signatures { words: Vec::new() };
    for _ in 0..WORDS {
        let (ins, lats): (Vec<u64>, Vec<u64>) = (
            (0..aig.inputs.len()).map(|_| rng.next_u64()).collect(),
            (0..aig.latches.len()).map(|_| rng.next_u64()).collect(),
        );
        sigs.words.push(simulate(aig, |n| match n {
            Node::Input(i) => ins[i as usize],
            Node::Latch(i) => lats[i as usize],
            _ => 0,
        }));
    }
    // The new circuit: leaves first, at the same positions.
    let (mut out, mut map) = Aig::with_leaves_of(aig);
    let mut checker = Checker::new(budget);
    // Representatives by signature key, in topological order.
    let mut classes: HashMap<u64, Vec<u32>> = HashMap::new();
    // Refutations gathered into the current extra word (bit k: pattern k).
    let mut pending: Vec<Vec<bool>> = Vec::new();
    for (v, node) in aig.nodes().iter().enumerate() {
        let fresh = match *node {
            Node::And(a, b) => out.and(map_lit(&map, a), map_lit(&map, b)),
            _ => map[v],
        };
        map[v] = fresh;
        let key = sigs.key(v);
        let mut merged = false;
        if matches!(node, Node::And(..)) && !budget.expired() {
            let members: Vec<u32> = classes.get(&key).cloned().unwrap_or_default();
            let mut tried = 0;
            for r in members {
                let r = r as usize;
                let phase = sigs.phase(v) != sigs.phase(r);
                if !sigs.agree(v, r, phase) {
                    continue;
                }
                let target = map[r].xor(phase);
                if target == fresh {
                    merged = true;
                    break;
                }
                if tried == CANDIDATES {
                    break;
                }
                tried += 1;
                stats.checks += 1;
                let x = checker.lit(&out, fresh);
                let y = checker.lit(&out, target);
                let verdict = match checker.differ(x, y) {
                    Some(false) => checker.differ(y, x),
                    other => other,
                };
                match verdict {
                    Some(false) => {
                        map[v] = target;
                        stats.merged += 1;
                        merged = true;
                        break;
                    }
                    Some(true) => {
                        stats.refuted += 1;
                        let leaves = (aig.inputs.iter().copied())
                            .chain(aig.latches.iter().map(|l| l.var))
                            .map(|v| checker.leaf_value(map[v.0 as usize], &mut rng))
                            .collect();
                        pending.push(leaves);
                        refine(aig, &mut sigs, &mut pending, &mut rng);
                    }
                    None => stats.undecided += 1,
                }
            }
        }
        if !merged {
            classes.entry(key).or_default().push(v as u32);
        }
    }
    // Outputs through the map; dangling gates go with a copy of the cone.
    let mut reduced = out;
    reduced.copy_next_states(aig, &map);
    reduced.copy_properties(aig, &map);
    let (reduced, kept) = without_dangling(&reduced);
    let images = map.iter().map(|&l| map_partial_lit(&kept, l)).collect();
    stats.ands_after = reduced.num_ands();
    stats.time = start.elapsed();
    (reduced, images, stats)
}

/// Adds the pending refutations (each a value per input, then per latch)
/// as an extra simulation word: refutation j in bit j, one-bit mutations
/// of the latest in the free bits; a full batch of 64 starts the next word.
fn refine(aig: &Aig, sigs: &mut Signatures, pending: &mut Vec<Vec<bool>>, rng: &mut Rng) {
    let n = pending.len();
    let leaves = aig.inputs.len() + aig.latches.len();
    let latest = &pending[n - 1];
    let mut leaf_words: Vec<u64> = (0..leaves)
        .map(|k| {
            let mut w = 0u64;
            for (j, p) in pending.iter().enumerate() {
                w |= (p[k] as u64) << j;
            }
            if latest[k] && n < 64 {
                w |= u64::MAX << n;
            }
            w
        })
        .collect();
    if leaves > 0 {
        for j in n..64 {
            let k = rng.below(leaves as u64) as usize;
            leaf_words[k] ^= 1 << j;
        }
    }
    let ni = aig.inputs.len();
    let word = simulate(aig, |node| match node {
        Node::Input(i) => leaf_words[i as usize],
        Node::Latch(i) => leaf_words[ni + i as usize],
        _ => 0,
    });
    if n == 1 {
        sigs.words.push(word);
    } else {
        *sigs.words.last_mut().expect("a word per batch") = word;
    }
    if n == 64 {
        pending.clear();
    }
}

/// A copy of `aig` without AND gates that no latch, property or constraint
/// uses (inputs and latches keep their positions).
/// Also returns each node's literal in the copy, if it was kept.
pub fn without_dangling(aig: &Aig) -> (Aig, Vec<Option<Lit>>) {
    let roots = (aig.latches.iter().map(|l| l.next))
        .chain(aig.bad.iter().copied())
        .chain(aig.constraints.iter().copied())
        .chain(aig.justice.iter().flatten().copied())
        .chain(aig.fairness.iter().copied());
    let used = crate::ir::coi::mark_cone(aig, roots);
    let (mut out, mut map) = Aig::with_leaves_of(aig);
    out.copy_ands(aig, &mut map, |v| used[v]);
    out.copy_next_states(aig, &map);
    out.copy_properties(aig, &map);
    let kept = (map.iter().enumerate())
        .map(|(v, &l)| (v == 0 || used[v] || !matches!(aig.nodes()[v], Node::And(..))).then_some(l))
        .collect();
    (out, kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::aig::lit_value;

    /// A random circuit with many duplicate functions (gates over few leaves).
    fn random_circuit(rng: &mut Rng) -> Aig {
        let mut aig = Aig::new();
        let mut lits = vec![Lit::FALSE];
        for _ in 0..1 + rng.below(3) {
            lits.push(aig.add_input());
        }
        let latches = 1 + rng.below(4) as usize;
        for _ in 0..latches {
            lits.push(aig.add_latch(Some(rng.coin())));
        }
        for _ in 0..5 + rng.below(40) {
            let a = lits[rng.below(lits.len() as u64) as usize].xor(rng.coin());
            let b = lits[rng.below(lits.len() as u64) as usize].xor(rng.coin());
            lits.push(aig.and(a, b));
        }
        let pick = |rng: &mut Rng| lits[rng.below(lits.len() as u64) as usize].xor(rng.coin());
        for i in 0..latches {
            let n = pick(rng);
            aig.set_next(i, n);
        }
        aig.bad = vec![pick(rng)];
        aig.constraints = vec![pick(rng)];
        aig
    }

    #[test]
    fn swept_circuits_compute_the_same_functions() {
        let mut rng = Rng::new(7);
        let mut merged = 0;
        for _ in 0..300 {
            let aig = random_circuit(&mut rng);
            let (swept, images, stats) = fraig(&aig, &Budget::unlimited());
            merged += stats.merged;
            assert_eq!(swept.inputs.len(), aig.inputs.len());
            assert_eq!(swept.latches.len(), aig.latches.len());
            let n = aig.inputs.len() + aig.latches.len();
            for bits in 0..1u32 << n {
                let ins: Vec<bool> = (0..aig.inputs.len()).map(|i| bits >> i & 1 == 1).collect();
                let lats: Vec<bool> = (0..aig.latches.len())
                    .map(|i| bits >> (aig.inputs.len() + i) & 1 == 1)
                    .collect();
                let (v, w) = (aig.eval(&ins, &lats), swept.eval(&ins, &lats));
                let outs = |a: &Aig| -> Vec<Lit> {
                    (a.latches.iter().map(|l| l.next))
                        .chain(a.bad.iter().copied())
                        .chain(a.constraints.iter().copied())
                        .collect()
                };
                for (x, y) in outs(&aig).into_iter().zip(outs(&swept)) {
                    assert_eq!(lit_value(&v, x), lit_value(&w, y));
                }
                // Every node's image computes what it does.
                for (node, image) in images.iter().enumerate() {
                    if let Some(y) = *image {
                        assert_eq!(v[node], lit_value(&w, y), "node {node}'s image");
                    }
                }
            }
        }
        assert!(merged > 100, "the sweep merged only {merged} gates");
    }

    /// The run's budget reaches the sweep through `prepare`: a stopped run
    /// (a signal, the memory limit) sweeps nothing, whatever the sweep's
    /// own time allowance.
    #[test]
    fn a_stopped_run_does_not_sweep() {
        use crate::preprocess::prepare::{prepare, PrepareOptions};
        let mut aig = Aig::new();
        let (a, b, c) = (aig.add_input(), aig.add_input(), aig.add_input());
        // (a ∧ b) ∧ c and a ∧ (b ∧ c): equal, but not structurally.
        let ab = aig.and(a, b);
        let left = aig.and(ab, c);
        let bc = aig.and(b, c);
        let right = aig.and(a, bc);
        aig.bad = vec![aig.and(left, !right)];
        let swept = |budget: Budget| {
            let options = PrepareOptions {
                simplify: false,
                budget,
                ..PrepareOptions::default()
            };
            let prepared = prepare(&aig, &[0], &options);
            prepared.fraig.expect("the sweep ran").merged
        };
        assert!(swept(Budget::unlimited()) > 0);
        let stopped = Budget::unlimited();
        stopped.stop();
        assert_eq!(swept(stopped), 0);
    }
}
