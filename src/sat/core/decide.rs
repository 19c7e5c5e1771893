//! Decisions: VSIDS activities in a binary heap (Moskewicz et al., Chaff;
//! the exponential variant of MiniSat), phase saving (Pipatsrisawat and
//! Darwiche, SAT 2007), and clause activities for reduction.
//!
//! Under domain restriction the heap holds only the query's domain: it is
//! rebuilt when a query starts (`domain.rs`) and a variable unassigned by
//! backtracking goes back only if it is in the domain.

use super::clause::CRef;
use super::{Core, Value};
use crate::sat::Lit;

/// A max-heap of variables by activity, with positions for updates.
#[derive(Default)]
pub struct Heap {
    heap: Vec<u32>,
    /// Position of each variable in `heap`, or `u32::MAX`.
    pos: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl Heap {
    /// Makes room for variable `v`.
    pub fn grow(&mut self, v: u32) {
        if self.pos.len() <= v as usize {
            self.pos.resize(v as usize + 1, ABSENT);
        }
    }

    /// Whether `v` is in the heap.
    #[inline]
    pub fn contains(&self, v: u32) -> bool {
        self.pos[v as usize] != ABSENT
    }

    /// Empties the heap.
    pub fn clear(&mut self) {
        for &v in &self.heap {
            self.pos[v as usize] = ABSENT;
        }
        self.heap.clear();
    }

    /// Inserts `v` (not present).
    pub fn insert(&mut self, v: u32, activity: &[f64]) {
        debug_assert!(!self.contains(v));
        self.pos[v as usize] = self.heap.len() as u32;
        self.heap.push(v);
        self.up(self.heap.len() - 1, activity);
    }

    /// Adds `v` without restoring the heap order (call [`Heap::heapify`]).
    pub fn push_unordered(&mut self, v: u32) {
        debug_assert!(!self.contains(v));
        self.pos[v as usize] = self.heap.len() as u32;
        self.heap.push(v);
    }

    /// Restores the heap order after [`Heap::push_unordered`].
    pub fn heapify(&mut self, activity: &[f64]) {
        for i in (0..self.heap.len() / 2).rev() {
            self.down(i, activity);
        }
    }

    /// Removes and returns the most active variable.
    pub fn pop(&mut self, activity: &[f64]) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top as usize] = ABSENT;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last as usize] = 0;
            self.down(0, activity);
        }
        Some(top)
    }

    /// Restores the order after `v`'s activity grew.
    pub fn increased(&mut self, v: u32, activity: &[f64]) {
        if self.contains(v) {
            self.up(self.pos[v as usize] as usize, activity);
        }
    }

    fn up(&mut self, mut i: usize, activity: &[f64]) {
        let v = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if activity[p as usize] >= activity[v as usize] {
                break;
            }
            self.heap[i] = p;
            self.pos[p as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize, activity: &[f64]) {
        let v = self.heap[i];
        let n = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n
                && activity[self.heap[right] as usize] > activity[self.heap[left] as usize]
            {
                right
            } else {
                left
            };
            let c = self.heap[child];
            if activity[c as usize] <= activity[v as usize] {
                break;
            }
            self.heap[i] = c;
            self.pos[c as usize] = i as u32;
            i = child;
        }
        self.heap[i] = v;
        self.pos[v as usize] = i as u32;
    }
}

/// VSIDS decay (MiniSat's default).
const VAR_DECAY: f64 = 0.95;
/// Learnt-clause activity decay.
const CLAUSE_DECAY: f32 = 0.999;

impl Core {
    /// Bumps the activity of variable `v`.
    pub(super) fn bump_var(&mut self, v: u32) {
        let a = &mut self.activity[v as usize];
        *a += self.var_inc;
        if *a > 1e100 {
            for x in self.activity.iter_mut() {
                *x *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        self.heap.increased(v, &self.activity);
    }

    /// Decays every variable's activity (by growing the increment).
    pub(super) fn decay_activities(&mut self) {
        self.var_inc /= VAR_DECAY;
        self.clause_inc /= CLAUSE_DECAY;
    }

    /// Bumps the activity of learnt clause `c`.
    pub(super) fn bump_clause(&mut self, c: CRef) {
        let a = self.db.activity(c) + self.clause_inc;
        self.db.set_activity(c, a);
        if a > 1e20 {
            for i in 0..self.db.learnt.len() {
                let l = self.db.learnt[i];
                self.db.set_activity(l, self.db.activity(l) * 1e-20);
            }
            self.clause_inc *= 1e-20;
        }
    }

    /// Puts `v` back in the heap after it was unassigned, unless the
    /// current query's domain excludes it.
    #[inline]
    pub(super) fn reinsert(&mut self, v: u32) {
        if !self.heap.contains(v) && (!self.domain.restricts() || self.domain.has(v)) {
            self.heap.insert(v, &self.activity);
        }
    }

    /// Fills the heap with every unassigned variable of the domain (or every
    /// unassigned variable without restriction).
    pub(super) fn rebuild_heap(&mut self) {
        self.heap.clear();
        if self.domain.restricts() {
            for i in 0..self.domain.vars().len() {
                let v = self.domain.vars()[i];
                if self.value(Lit::positive(v)) == Value::Unassigned {
                    self.heap.push_unordered(v);
                }
            }
        } else {
            for v in 1..=self.num_vars {
                if self.value(Lit::positive(v)) == Value::Unassigned {
                    self.heap.push_unordered(v);
                }
            }
        }
        self.heap.heapify(&self.activity);
    }

    /// The next decision literal, or `None` when every candidate is assigned.
    pub(super) fn pick_branch(&mut self) -> Option<Lit> {
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.value(Lit::positive(v)) == Value::Unassigned {
                self.stats.decisions += 1;
                let phase = (self.theory.as_ref())
                    .and_then(|t| t.phase(v))
                    .unwrap_or(self.phase[v as usize]);
                return Some(Lit::positive(v).xor(!phase));
            }
        }
        None
    }
}
