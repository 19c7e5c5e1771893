//! Random simulation: the signatures that propose classes, from initial
//! states and from the models of refuted checks (`Patterns`).

use crate::ir::aig::{Aig, Node};
use crate::ir::simulate::{self as fraig, word_of};
use crate::util::rng::Rng;

/// Simulation signatures: one word of 64 patterns per entry, a vector over
/// nodes per word.
pub(super) struct Signatures {
    pub(super) words: Vec<Vec<u64>>,
}

impl Signatures {
    /// The phase that makes a node's first pattern 0.
    pub(super) fn phase(&self, v: usize) -> bool {
        self.words[0][v] & 1 == 1
    }

    pub(super) fn normalized(&self, w: usize, v: usize) -> u64 {
        self.words[w][v] ^ if self.phase(v) { u64::MAX } else { 0 }
    }
}

/// Node values of one frame for 64 patterns of the leaves.
pub(super) fn simulate(aig: &Aig, inputs: &[u64], latches: &[u64]) -> Vec<u64> {
    fraig::simulate(aig, |node| match node {
        Node::Input(i) => inputs[i as usize],
        Node::Latch(i) => latches[i as usize],
        Node::False | Node::And(..) => unreachable!("leaves only"),
    })
}

/// The lanes of a simulated word where every invariant constraint holds.
pub(super) fn constraint_lanes(aig: &Aig, word: &[u64]) -> u64 {
    (aig.constraints.iter()).fold(u64::MAX, |lanes, &c| lanes & word_of(word, c))
}

/// The initial latch values of 64 runs (random where uninitialised).
pub(super) fn initial_lanes(aig: &Aig, rng: &mut Rng) -> Vec<u64> {
    (aig.latches.iter())
        .map(|l| match l.init {
            Some(false) => 0,
            Some(true) => u64::MAX,
            None => rng.next_u64(),
        })
        .collect()
}

/// Separating patterns, gathered 64 to a word (unused bits repeat the
/// latest, so they separate nothing new: unlike combinational sweeping, a
/// made-up state could split a true correspondence).
pub(super) struct Patterns {
    /// The current word's value per leaf (inputs, then latches): bit j is
    /// pattern j, the bits above the latest repeat it.
    pub(super) leaves: Vec<u64>,
    /// Patterns in the current word (64: the next one starts a word).
    pub(super) count: usize,
}

impl Patterns {
    pub(super) fn new() -> Patterns {
        Patterns {
            leaves: Vec::new(),
            count: 64,
        }
    }

    /// Whether the next pattern starts a new word.
    pub(super) fn starts_word(&self) -> bool {
        self.count.is_multiple_of(64)
    }

    /// Adds `pattern` (a value per input, then per latch) and re-simulates
    /// the current word into `sigs`, unless the pattern breaks an invariant
    /// constraint (a model of a query that assumes them cannot, but a value
    /// the model left open might): such a pattern is no state and input of
    /// the circuit's runs.
    pub(super) fn add(&mut self, aig: &Aig, sigs: &mut Signatures, pattern: Vec<bool>) -> bool {
        let bit = self.count % 64;
        let below = (1u64 << bit) - 1;
        let leaves: Vec<u64> = (pattern.iter().enumerate())
            .map(|(k, &b)| {
                let kept = if bit == 0 { 0 } else { self.leaves[k] & below };
                kept | if b { !below } else { 0 }
            })
            .collect();
        let ni = aig.inputs.len();
        let word = simulate(aig, &leaves[..ni], &leaves[ni..]);
        if constraint_lanes(aig, &word) >> bit & 1 == 0 {
            return false;
        }
        if bit == 0 {
            sigs.words.push(word);
        } else {
            *sigs.words.last_mut().expect("a word per batch") = word;
        }
        self.leaves = leaves;
        self.count = bit + 1;
        true
    }
}
