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

    /// Takes the next open obligation's id, if its level is at most `k`.
    pub fn pop_upto(&mut self, k: usize) -> Option<usize> {
        match self.open.peek() {
            Some(Reverse((level, _, _))) if *level <= k => {
                self.open.pop().map(|Reverse((_, _, id))| id)
            }
            _ => None,
        }
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

    /// Drops the obligations that are neither open nor on the way from an
    /// open one to the bad state, once they outnumber the live ones (kept
    /// obligations would otherwise accumulate for the whole run).
    pub fn compact(&mut self) {
        if self.arena.len() < 4096 || self.arena.len() < 4 * self.open.len() {
            return;
        }
        const DEAD: usize = usize::MAX;
        let mut map = vec![DEAD; self.arena.len()];
        let mut order = Vec::new();
        for Reverse((_, _, id)) in self.open.iter() {
            let mut next = Some(*id);
            while let Some(i) = next {
                if map[i] != DEAD {
                    break;
                }
                map[i] = 0;
                order.push(i);
                next = self.arena[i].successor;
            }
        }
        if order.len() * 2 > self.arena.len() {
            return;
        }
        order.sort_unstable();
        for (new, &old) in order.iter().enumerate() {
            map[old] = new;
        }
        let mut arena: Vec<Option<Obligation>> = std::mem::take(&mut self.arena)
            .into_iter()
            .map(Some)
            .collect();
        self.arena = (order.iter())
            .map(|&old| {
                let mut ob = arena[old].take().expect("each kept once");
                ob.successor = ob.successor.map(|s| map[s]);
                ob
            })
            .collect();
        self.open = (self.open.drain())
            .map(|Reverse((level, depth, id))| Reverse((level, depth, map[id])))
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::ic3::cube::StateLit;

    fn obligation(latch: usize, level: usize, successor: Option<usize>) -> Obligation {
        Obligation {
            cube: Cube::new(vec![StateLit::new(latch, true)]),
            level,
            depth: 0,
            successor,
            inputs: vec![],
            activity: 0.0,
        }
    }

    /// After compaction the open obligations and their chains to the bad
    /// state are the same cubes, linked the same way, under new ids.
    #[test]
    fn compact_keeps_open_chains() {
        let mut queue = ObligationQueue::default();
        let bad = queue.push(obligation(7, 3, None));
        assert_eq!(queue.pop_upto(3), Some(bad));
        for i in 0..5000 {
            let id = queue.push(obligation(100 + i, 1, Some(bad)));
            assert_eq!(queue.pop_upto(1), Some(id));
        }
        let middle = queue.push(obligation(8, 2, Some(bad)));
        assert_eq!(queue.pop_upto(2), Some(middle));
        queue.push(obligation(9, 4, Some(middle)));
        queue.compact();
        assert_eq!(queue.arena.len(), 3, "only the open chain is kept");
        assert_eq!(queue.pop_upto(3), None, "the open one waits above level 3");
        let open = queue.pop_upto(4).expect("one open obligation");
        let chain: Vec<usize> = std::iter::successors(Some(open), |&i| queue.get(i).successor)
            .map(|i| queue.get(i).cube.lits()[0].latch())
            .collect();
        assert_eq!(chain, vec![9, 8, 7]);
        assert_eq!(queue.pop_upto(usize::MAX), None);
    }
}
