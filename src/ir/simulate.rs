//! Bit-parallel simulation of an AIG: 64 patterns per word, one word per
//! node. SAT sweeping and signal correspondence propose their candidate
//! classes from it.

use crate::ir::aig::{Aig, Lit, Node};

/// Simulates `aig` on one word of patterns given for inputs and latches
/// (`leaf` answers for `Node::Input` and `Node::Latch`).
pub fn simulate(aig: &Aig, leaf: impl Fn(Node) -> u64) -> Vec<u64> {
    let mut out = vec![0u64; aig.num_nodes()];
    for (v, node) in aig.nodes().iter().enumerate() {
        out[v] = match *node {
            Node::False => 0,
            Node::And(a, b) => word_of(&out, a) & word_of(&out, b),
            leafy => leaf(leafy),
        };
    }
    out
}

/// The word of literal `l` among simulated node words.
pub fn word_of(words: &[u64], l: Lit) -> u64 {
    let w = words[l.var().0 as usize];
    if l.is_negated() {
        !w
    } else {
        w
    }
}
