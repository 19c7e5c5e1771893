//! Decisions: VSIDS activities (Moskewicz et al., Chaff; the exponential
//! variant of MiniSat), phase saving (Pipatsrisawat and Darwiche, SAT
//! 2007), and clause activities for reduction.
//!
//! Unrestricted queries decide from a binary heap over every variable.
//! Restricted queries (IC3's, `domain.rs`) decide from *buckets*, as
//! GipSAT does (Su et al., "Accelerate IC3 with Efficient SAT Solving"): a
//! second heap ranks every variable ever bumped, and a variable's bucket is
//! its depth in that heap, about the logarithm of its rank; a decision
//! takes the last variable of the first non-empty bucket. Filling the
//! buckets with a query's domain and putting variables back on backtracking
//! cost O(1) each, where a heap costs O(log n), and IC3's queries are many
//! and small, so the heap's order was a fifth of their time (measured on
//! qspiflash_dualflexpress_divfive-p093: `Heap::down` and `Heap::up` 20% of
//! the profile). The order is coarser; a query that restarts more than
//! [`BUCKET_RESTARTS`] times is hard enough to pay for the heap and
//! switches to it. Either order is filled lazily, at the query's first
//! decision: a query that its assumptions refute by propagation alone
//! never pays for it. Queries with a theory (DPLL(T), IC3+IA) stay on the
//! heap: buckets made IC3+IA's search on `lia_transfer.vmt` time out.
//! `INVAR_CORE_HEAP=1` keeps restricted queries on the heap (for
//! measurement).

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

    /// Where `v` sits in the heap, if it is there.
    #[inline]
    pub fn position(&self, v: u32) -> Option<usize> {
        match self.pos.get(v as usize) {
            Some(&p) if p != ABSENT => Some(p as usize),
            _ => None,
        }
    }

    /// Inserts `v` if absent, else restores the order after its activity grew.
    pub fn insert_or_increase(&mut self, v: u32, activity: &[f64]) {
        if self.contains(v) {
            self.up(self.pos[v as usize] as usize, activity);
        } else {
            self.insert(v, activity);
        }
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

/// Restarts after which a restricted query leaves the buckets for the heap.
pub const BUCKET_RESTARTS: u32 = 10;

/// Depths of the ranking heap (2^31 variables), plus one bucket for
/// variables never bumped.
const BUCKETS: usize = 33;

/// Variables to decide, by bucket (see the module header).
pub struct Buckets {
    buckets: Vec<Vec<u32>>,
    queued: Vec<bool>,
    /// No bucket below `head` holds a variable.
    head: usize,
}

impl Default for Buckets {
    fn default() -> Self {
        Buckets {
            buckets: vec![Vec::new(); BUCKETS],
            queued: Vec::new(),
            head: BUCKETS,
        }
    }
}

impl Buckets {
    /// Makes room for variable `v`.
    pub fn grow(&mut self, v: u32) {
        if self.queued.len() <= v as usize {
            self.queued.resize(v as usize + 1, false);
        }
    }

    /// Queues `v` unless queued, in the bucket of its rank in `ranks`.
    #[inline]
    pub fn push(&mut self, v: u32, ranks: &Heap) {
        if self.queued[v as usize] {
            return;
        }
        self.queued[v as usize] = true;
        let b = match ranks.position(v) {
            Some(p) => (usize::BITS - 1 - (p + 1).leading_zeros()) as usize,
            None => BUCKETS - 1,
        };
        self.buckets[b].push(v);
        self.head = self.head.min(b);
    }

    /// Takes a variable of the first non-empty bucket.
    #[inline]
    pub fn pop(&mut self) -> Option<u32> {
        while self.head < BUCKETS {
            if let Some(v) = self.buckets[self.head].pop() {
                self.queued[v as usize] = false;
                return Some(v);
            }
            self.head += 1;
        }
        None
    }

    /// Empties every bucket.
    pub fn clear(&mut self) {
        for b in self.head..BUCKETS {
            for &v in &self.buckets[b] {
                self.queued[v as usize] = false;
            }
            self.buckets[b].clear();
        }
        self.head = BUCKETS;
    }
}

/// Where the current query takes its decisions from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Not filled yet: filled (as buckets) at the first decision.
    Unfilled,
    /// The heap.
    Heap,
    /// The buckets.
    Buckets,
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
        if self.order == Order::Heap {
            self.heap.increased(v, &self.activity);
        }
        self.ranks.insert_or_increase(v, &self.activity);
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

    /// Whether `v` may be decided: not a gate when decisions are on inputs
    /// only ([`Core::decide_inputs_only`]). A gate made by `new_var` enters
    /// the heap before its definition, so the pop checks too.
    #[inline]
    fn decidable(&self, v: u32) -> bool {
        !(self.inputs_only && self.domain.is_gate(v))
    }

    /// Puts `v` back in the decision order after it was unassigned, unless
    /// the current query's domain excludes it.
    #[inline]
    pub(super) fn reinsert(&mut self, v: u32) {
        let wanted = (!self.domain.restricts() || self.domain.has(v)) && self.decidable(v);
        match self.order {
            Order::Unfilled => {}
            Order::Buckets if wanted => self.buckets.push(v, &self.ranks),
            Order::Heap if wanted && !self.heap.contains(v) => self.heap.insert(v, &self.activity),
            _ => {}
        }
    }

    /// Fills the buckets with the unassigned variables of the domain.
    fn fill_buckets(&mut self) {
        self.buckets.clear();
        for i in 0..self.domain.vars().len() {
            let v = self.domain.vars()[i];
            if self.value(Lit::positive(v)) == Value::Unassigned {
                self.buckets.push(v, &self.ranks);
            }
        }
        self.order = Order::Buckets;
    }

    /// A restricted query that proved hard moves to the heap.
    pub(super) fn leave_buckets(&mut self) {
        if self.order == Order::Buckets {
            self.buckets.clear();
            self.rebuild_heap();
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
                if self.decidable(v) && self.value(Lit::positive(v)) == Value::Unassigned {
                    self.heap.push_unordered(v);
                }
            }
        }
        self.heap.heapify(&self.activity);
        self.order = Order::Heap;
    }

    /// The next decision literal, or `None` when every candidate is assigned.
    pub(super) fn pick_branch(&mut self) -> Option<Lit> {
        if self.order == Order::Unfilled {
            // DPLL(T) queries keep the heap: with buckets IC3+IA lost
            // `lia_transfer.vmt` (0.1 s on the heap, over 30 s).
            if self.heap_only || self.theory.is_some() {
                self.rebuild_heap();
            } else {
                self.fill_buckets();
            }
        }
        loop {
            let next = match self.order {
                Order::Buckets => self.buckets.pop(),
                _ => self.heap.pop(&self.activity),
            };
            let Some(v) = next else { break };
            if self.decidable(v) && self.value(Lit::positive(v)) == Value::Unassigned {
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
