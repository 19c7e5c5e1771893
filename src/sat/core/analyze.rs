//! Conflict analysis: the first unique implication point (Zhang et al.,
//! ICCAD 2001), recursive minimization of the learnt clause (Sörensson and
//! Biere, SAT 2009), the literal block distance (Audemard and Simon, IJCAI
//! 2009), and the final conflict over the assumptions (MiniSat's
//! `analyzeFinal`), which yields the failed-assumption core.
//!
//! Variable bumping lives in `decide.rs`; clause bumping here.

use super::clause::{CRef, CREF_NONE, LEARNT};
use super::Core;
use crate::sat::Lit;

/// What conflict analysis learnt.
pub(super) struct Learnt {
    /// The level to backtrack to.
    pub backtrack: usize,
    /// The literal block distance.
    pub lbd: u32,
}

impl Core {
    /// Analyzes `conflict` at the current level (> 0); the learnt clause,
    /// asserting literal first and a literal of the backtrack level second,
    /// is left in `self.learnt`.
    pub(super) fn analyze(&mut self, mut conflict: CRef) -> Learnt {
        let level = self.decision_level();
        self.learnt.clear();
        self.learnt.push(Lit::from_code(0));
        let mut open = 0usize;
        let mut index = self.trail.len();
        let mut p: Option<Lit> = None;
        loop {
            debug_assert_ne!(conflict, CREF_NONE);
            if self.db.has(conflict, LEARNT) {
                self.bump_clause(conflict);
            }
            for k in 0..self.db.len(conflict) {
                let q = self.db.lit(conflict, k);
                if p.is_some_and(|p| p.var() == q.var()) {
                    continue;
                }
                let v = q.var() as usize;
                if self.seen[v] == 0 && self.level[v] > 0 {
                    self.bump_var(q.var());
                    self.seen[v] = 1;
                    if self.level[v] as usize >= level {
                        open += 1;
                    } else {
                        self.learnt.push(q);
                    }
                }
            }
            // The next literal of this level to resolve on.
            loop {
                index -= 1;
                if self.seen[self.trail[index].var() as usize] != 0 {
                    break;
                }
            }
            let lit = self.trail[index];
            p = Some(lit);
            conflict = self.reason[lit.var() as usize];
            self.seen[lit.var() as usize] = 0;
            open -= 1;
            if open == 0 {
                break;
            }
        }
        self.learnt[0] = !p.expect("a literal of the conflict level");
        self.minimize();
        let lbd = self.lbd_of_learnt();
        // A literal of the highest level below the conflict goes second: it
        // is the other watch, and that level is where to backtrack.
        let backtrack = if self.learnt.len() == 1 {
            0
        } else {
            let mut best = 1;
            for k in 2..self.learnt.len() {
                if self.level_of(self.learnt[k]) > self.level_of(self.learnt[best]) {
                    best = k;
                }
            }
            self.learnt.swap(1, best);
            self.level_of(self.learnt[1])
        };
        for &l in &self.to_clear {
            self.seen[l.var() as usize] = 0;
        }
        self.to_clear.clear();
        Learnt { backtrack, lbd }
    }

    /// Removes literals implied by the others (recursive minimization);
    /// leaves every variable it marked in `to_clear`.
    fn minimize(&mut self) {
        self.to_clear.clear();
        self.to_clear.extend_from_slice(&self.learnt);
        let mut levels = 0u64;
        for &l in &self.learnt[1..] {
            levels |= self.abstract_level(l.var());
        }
        let mut kept = 1;
        for k in 1..self.learnt.len() {
            let l = self.learnt[k];
            if self.reason[l.var() as usize] == CREF_NONE || !self.redundant(l, levels) {
                self.learnt[kept] = l;
                kept += 1;
            }
        }
        self.stats.minimized_literals += (self.learnt.len() - kept) as u64;
        self.learnt.truncate(kept);
    }

    fn abstract_level(&self, v: u32) -> u64 {
        1u64 << (self.level[v as usize] & 63)
    }

    /// Whether `p` follows from literals already in the learnt clause.
    fn redundant(&mut self, p: Lit, levels: u64) -> bool {
        self.stack.clear();
        self.stack.push(p);
        let top = self.to_clear.len();
        while let Some(q) = self.stack.pop() {
            let c = self.reason[q.var() as usize];
            debug_assert_ne!(c, CREF_NONE);
            for k in 0..self.db.len(c) {
                let l = self.db.lit(c, k);
                let v = l.var() as usize;
                if v == q.var() as usize || self.seen[v] != 0 || self.level[v] == 0 {
                    continue;
                }
                if self.reason[v] != CREF_NONE && self.abstract_level(l.var()) & levels != 0 {
                    self.seen[v] = 1;
                    self.stack.push(l);
                    self.to_clear.push(l);
                } else {
                    for &x in &self.to_clear[top..] {
                        self.seen[x.var() as usize] = 0;
                    }
                    self.to_clear.truncate(top);
                    return false;
                }
            }
        }
        true
    }

    fn lbd_of_learnt(&mut self) -> u32 {
        self.lbd_stamp += 1;
        let stamp = self.lbd_stamp;
        let mut lbd = 0;
        for k in 0..self.learnt.len() {
            let level = self.level_of(self.learnt[k]);
            if self.level_seen[level] != stamp {
                self.level_seen[level] = stamp;
                lbd += 1;
            }
        }
        lbd
    }

    #[inline]
    pub(super) fn level_of(&self, l: Lit) -> usize {
        self.level[l.var() as usize] as usize
    }

    /// The assumptions that imply `¬p`, where `p` is an assumption found
    /// false: they and `p` form the failed-assumption core.
    pub(super) fn analyze_final(&mut self, p: Lit) {
        self.failed.clear();
        self.failed.push(p);
        if self.decision_level() == 0 || self.level_of(p) == 0 {
            return;
        }
        self.seen[p.var() as usize] = 1;
        for i in (self.trail_lim[0]..self.trail.len()).rev() {
            let x = self.trail[i];
            let v = x.var() as usize;
            if self.seen[v] == 0 {
                continue;
            }
            let c = self.reason[v];
            if c == CREF_NONE {
                debug_assert!(self.level[v] > 0);
                // A decision below the assumptions' end is an assumption.
                self.failed.push(x);
            } else {
                for k in 0..self.db.len(c) {
                    let l = self.db.lit(c, k);
                    if l.var() as usize != v && self.level[l.var() as usize] > 0 {
                        self.seen[l.var() as usize] = 1;
                    }
                }
            }
            self.seen[v] = 0;
        }
        self.seen[p.var() as usize] = 0;
    }
}
