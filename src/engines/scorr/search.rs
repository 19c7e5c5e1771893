//! The fixpoint: rounds of checks until one splits no class.

use super::classes::Classes;
use super::frames::{Frames, Mode};
use super::simulation::{Patterns, Signatures};
use super::ScorrStats;
use crate::ir::aig::Aig;
use crate::util::budget::Budget;
use crate::util::rng::Rng;

/// The state of the fixpoint computation.
pub(super) struct Search<'a> {
    pub(super) aig: &'a Aig,
    pub(super) classes: Classes,
    pub(super) sigs: Signatures,
    pub(super) patterns: Patterns,
    pub(super) reachable: Vec<bool>,
    pub(super) rng: Rng,
    pub(super) stats: ScorrStats,
    /// A check's conflicts before it waits for the end of its round.
    pub(super) conflicts: u64,
}

impl Search<'_> {
    /// Rounds of `mode`'s check until one splits no class; `false` if the
    /// budget ran out.
    ///
    /// The base case keeps one solver for all its rounds (frame 0 has no
    /// assumptions to retract, only the reduction by representatives):
    /// after a split, only the nodes whose reduced reading changed are
    /// encoded again, and only members whose check reads one of them are
    /// checked again; the others' queries are the ones already proved.
    /// (Before, every round rebuilt the frame and checked every member:
    /// on `cal228`, 17 base rounds of 34,000 checks, a few of them hard
    /// each time, took 21 of the search's 27 s. Reading the base frame
    /// exactly instead, without reduction, needs no second check at all,
    /// but its checks are not local: `cal229`'s search went 12 → 26 s.)
    pub(super) fn rounds(&mut self, mode: Mode, budget: &Budget) -> bool {
        let aig = self.aig;
        let mut base = (mode == Mode::Initial).then(|| {
            let mut frames = Frames::new(aig, mode, self.classes.repr.clone(), budget);
            frames.assume_constraints();
            frames
        });
        // Base-case members whose check holds as frame 0 now reads it.
        let mut proved = vec![false; aig.num_nodes()];
        loop {
            let mut step;
            let frames = match base.as_mut() {
                Some(frames) => {
                    let changed = frames.reread(&self.classes.repr);
                    for (p, c) in proved.iter_mut().zip(changed) {
                        *p &= !c;
                    }
                    frames
                }
                None => {
                    self.stats.rounds += 1;
                    step = Frames::new(aig, mode, self.classes.repr.clone(), budget);
                    &mut step
                }
            };
            let mut changed = false;
            let members: Vec<u32> = (self.classes.members.iter())
                .flat_map(|c| c.iter().skip(1).copied())
                .filter(|&m| !proved[m as usize])
                .collect();
            if mode == Mode::Step {
                frames.assume_equalities(&members);
                frames.assume_constraints();
            }
            let round_start = frames.solver.core_stats().conflicts;
            // Checks that ran out of conflicts wait for the end of the
            // round (see `retry`).
            let mut deferred = Vec::new();
            for m in members {
                changed |= self.stale(m);
                if self.classes.repr[m as usize].var().0 == m {
                    continue;
                }
                if budget.expired() {
                    return false;
                }
                self.stats.checks += 1;
                match self.check(frames, m, self.conflicts) {
                    Some(split) => {
                        changed |= split;
                        proved[m as usize] = !split && mode == Mode::Initial;
                    }
                    None => {
                        self.stats.deferred += 1;
                        deferred.push(m);
                    }
                }
            }
            // An undecided member leaves its class, and then every check
            // must be made again, in a round that assumes less in frame 0
            // (on cal226, where carry chains need a few thousand conflicts
            // each, dropping one a round took 60 rounds of half a second).
            // So before dropping them, the undecided checks may spend as
            // many conflicts again as the round's decided ones did: a round
            // costs at most twice its checks, and no drop costs a round
            // that a longer check would have saved. At the end of the round
            // the solver knows what the other checks learnt.
            let mut pool = frames.solver.core_stats().conflicts - round_start;
            for m in deferred {
                changed |= self.stale(m);
                if self.classes.repr[m as usize].var().0 == m {
                    continue;
                }
                if budget.expired() {
                    return false;
                }
                let before = frames.solver.core_stats().conflicts;
                let decided = if pool > self.conflicts {
                    self.check(frames, m, pool)
                } else {
                    None
                };
                pool = pool.saturating_sub(frames.solver.core_stats().conflicts - before);
                match decided {
                    Some(split) => {
                        changed |= split;
                        proved[m as usize] = !split && mode == Mode::Initial;
                    }
                    None => {
                        self.stats.undecided += 1;
                        self.classes.remove(m, &self.sigs);
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Splits `m`'s class if the latest patterns separate it from its
    /// representative; whether they did.
    pub(super) fn stale(&mut self, m: u32) -> bool {
        let split = self.classes.separated(m, &self.sigs);
        if split {
            self.classes.refine_class_of(m, &self.sigs);
        }
        split
    }

    /// Checks member `m` against its representative in the last frame
    /// within `conflicts`: `Some(false)` if they are equal, `Some(true)` if
    /// a model separated them (and the classes were refined by it),
    /// `None` if undecided.
    pub(super) fn check(&mut self, frames: &mut Frames, m: u32, conflicts: u64) -> Option<bool> {
        let x = frames.own(m as usize);
        let r = frames.repr[m as usize];
        let y = frames.lit(frames.last(), r);
        if x == y {
            self.stats.structural += 1;
        }
        let separated = frames.differ(x, y, conflicts)?;
        if separated {
            self.stats.refuted += 1;
            let p = frames.pattern(&self.reachable, &mut self.rng);
            // Every class sees a word whole before the next one starts;
            // within a word, a class is split when one of its members
            // comes up (`Search::stale`), or here for m's.
            if self.patterns.starts_word() {
                self.classes.refine(&self.sigs);
            }
            let added = self.patterns.add(self.aig, &mut self.sigs, p);
            if !added
                || !(self.classes.refine_class_of(m, &self.sigs)
                    || self
                        .classes
                        .refine_separated(self.aig, m, &frames.repr, &self.sigs))
            {
                // Simulation must split some pair at or below m (a fanin,
                // or a representative: all are lower nodes); if not, drop
                // m rather than keep a pair a model contradicts.
                self.classes.remove(m, &self.sigs);
            }
        }
        Some(separated)
    }
}
