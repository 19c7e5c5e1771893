//! Proof obligations: states (cubes) that must be blocked at a level, chained
//! to the successor they lead to, so a chain reaching level 0 is a trace.

use super::cube::Cube;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A cube to block at a level, with what is needed to rebuild a trace.
pub struct Obligation {
    /// The states to block.
    pub cube: Cube,
    /// The frame it must be blocked in.
    pub level: usize,
    /// Steps from this obligation to the bad state.
    pub depth: usize,
    /// The obligation this cube leads to in one step (None: it is bad itself).
    pub successor: Option<usize>,
    /// Input values that take every state of the cube into the successor's
    /// cube (or into the bad state), with all constraints holding.
    pub inputs: Vec<bool>,
    /// How often it was handled, decayed as it moves up (rIC3's obligation
    /// activity): high for states whose predecessors keep coming back.
    pub activity: f64,
}

/// Decay of an obligation's activity per level it moves up.
const ACTIVITY_DECAY: f64 = 0.6;

/// Obligations in an arena (for successor links) and a queue of open ones.
///
/// Ordering: the lowest level first is required for IC3's invariant that
/// obligations at lower levels are settled first; among equal levels the
/// shallower (closer to bad) first is a heuristic, then the oldest.
#[derive(Default)]
pub struct ObligationQueue {
    arena: Vec<Obligation>,
    open: BinaryHeap<Reverse<(usize, usize, usize)>>,
}

impl ObligationQueue {
    /// Adds an obligation and opens it; returns its id.
    pub fn push(&mut self, obligation: Obligation) -> usize {
        let id = self.arena.len();
        self.open
            .push(Reverse((obligation.level, obligation.depth, id)));
        self.arena.push(obligation);
        id
    }

    /// Re-opens obligation `id` at `level`.
    pub fn reopen(&mut self, id: usize, level: usize) {
        let ob = &mut self.arena[id];
        for _ in ob.level..level {
            ob.activity *= ACTIVITY_DECAY;
        }
        self.arena[id].level = level;
        self.open.push(Reverse((level, self.arena[id].depth, id)));
    }

    /// Counts one more handling of obligation `id`.
    pub fn bump(&mut self, id: usize) {
        self.arena[id].activity += 1.0;
    }

    /// The highest activity among the (up to three) obligations after `id`
    /// on its way to the bad state: how hard that region has been to block.
    pub fn successor_activity(&self, id: usize) -> f64 {
        let mut activity: f64 = 0.0;
        let mut next = self.arena[id].successor;
        for _ in 0..3 {
            let Some(n) = next else { break };
            activity = activity.max(self.arena[n].activity);
            next = self.arena[n].successor;
        }
        activity
    }

    /// Takes the next open obligation's id.
    pub fn pop(&mut self) -> Option<usize> {
        self.open.pop().map(|Reverse((_, _, id))| id)
    }

    /// The obligation `id`.
    pub fn get(&self, id: usize) -> &Obligation {
        &self.arena[id]
    }

    /// Forgets every obligation (after a counterexample or between levels).
    pub fn clear(&mut self) {
        self.arena.clear();
        self.open.clear();
    }

    /// Number of obligations created since the last clear.
    pub fn created(&self) -> usize {
        self.arena.len()
    }
}
