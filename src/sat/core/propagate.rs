//! Unit propagation with two watched literals and blocking literals
//! (Moskewicz et al., "Chaff", DAC 2001; Chu, Harwood, Stuckey, "Cache
//! conscious data structures for Boolean satisfiability solvers", 2009).
//!
//! `watches[p]` lists the clauses that watch `¬p`: they are visited when `p`
//! becomes true. Binary clauses are marked in the watch itself and keep the
//! other literal as blocker, so they never touch the arena (Tseitin-encoded
//! circuits are two-thirds binary clauses).
//!
//! Under domain restriction (`domain.rs`), above level 0 a clause whose
//! blocker or other watched literal is unassigned and outside the query's
//! domain counts as satisfied: the variables outside the domain are gates
//! whose definitions can always be satisfied afterwards, in topological
//! order. At level 0 propagation is always complete, which keeps the
//! watch invariant intact between queries.

use super::clause::{CRef, CREF_NONE};
use super::{Core, Value};
use crate::sat::Lit;

/// Top bit of a watch's clause reference: the clause is binary.
const BINARY: u32 = 1 << 31;

/// One watch: a clause and a literal that, when true, satisfies it.
#[derive(Copy, Clone, Debug)]
pub struct Watch {
    cref: u32,
    blocker: Lit,
}

impl Watch {
    /// A watch of clause `cref` with `blocker`; `binary` if it has two literals.
    #[inline]
    pub fn new(cref: CRef, blocker: Lit, binary: bool) -> Watch {
        debug_assert!(cref & BINARY == 0);
        Watch {
            cref: cref | if binary { BINARY } else { 0 },
            blocker,
        }
    }
    /// The clause.
    #[inline]
    pub fn cref(self) -> CRef {
        self.cref & !BINARY
    }
    /// Whether the clause is binary.
    #[inline]
    pub fn is_binary(self) -> bool {
        self.cref & BINARY != 0
    }
    /// The blocking literal.
    #[inline]
    pub fn blocker(self) -> Lit {
        self.blocker
    }
    /// The same watch on the clause's new place in the arena.
    pub fn moved(self, to: CRef) -> Watch {
        Watch::new(to, self.blocker, self.is_binary())
    }
}

impl Core {
    /// Attaches clause `c` (at least two literals) to the watches of its
    /// first two literals.
    pub(super) fn attach(&mut self, c: CRef) {
        let binary = self.db.len(c) == 2;
        let (a, b) = (self.db.lit(c, 0), self.db.lit(c, 1));
        self.watches[(!a).code()].push(Watch::new(c, b, binary));
        self.watches[(!b).code()].push(Watch::new(c, a, binary));
    }

    /// Marks the watch lists of deleted clause `c` for cleaning.
    pub(super) fn detach_lazily(&mut self, c: CRef) {
        for i in 0..2 {
            let w = (!self.db.lit(c, i)).code();
            if !self.dirty[w] {
                self.dirty[w] = true;
                self.dirty_lists.push(w as u32);
            }
        }
    }

    /// Drops watches of deleted clauses from the lists marked dirty.
    pub(super) fn clean_watches(&mut self) {
        for w in std::mem::take(&mut self.dirty_lists) {
            let w = w as usize;
            self.dirty[w] = false;
            let db = &self.db;
            self.watches[w].retain(|x| !db.has(x.cref(), super::clause::DELETED));
        }
    }

    /// Propagates every literal on the trail not yet propagated; returns a
    /// conflicting clause or [`CREF_NONE`].
    pub(super) fn propagate(&mut self) -> CRef {
        if self.domain.restricts() && !self.trail_lim.is_empty() {
            self.propagate_with::<true>()
        } else {
            self.propagate_with::<false>()
        }
    }

    #[inline]
    fn satisfies<const RESTRICTED: bool>(&self, l: Lit) -> bool {
        match self.value(l) {
            Value::True => true,
            Value::Unassigned => RESTRICTED && !self.domain.has(l.var()),
            Value::False => false,
        }
    }

    fn propagate_with<const RESTRICTED: bool>(&mut self) -> CRef {
        let mut conflict = CREF_NONE;
        while self.qhead < self.trail.len() && conflict == CREF_NONE {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            self.stats.propagations += 1;
            let false_lit = !p;
            let mut ws = std::mem::take(&mut self.watches[p.code()]);
            let (mut i, mut j) = (0, 0);
            'watches: while i < ws.len() {
                let w = ws[i];
                i += 1;
                if self.satisfies::<RESTRICTED>(w.blocker) {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                if w.is_binary() {
                    ws[j] = w;
                    j += 1;
                    if self.value(w.blocker) == Value::False {
                        conflict = w.cref();
                        break;
                    }
                    self.assign(w.blocker, w.cref());
                    continue;
                }
                let c = w.cref();
                if self.db.lit(c, 0) == false_lit {
                    self.db.swap(c, 0, 1);
                }
                debug_assert_eq!(self.db.lit(c, 1), false_lit);
                let first = self.db.lit(c, 0);
                let kept = Watch::new(c, first, false);
                if first != w.blocker && self.satisfies::<RESTRICTED>(first) {
                    ws[j] = kept;
                    j += 1;
                    continue;
                }
                for k in 2..self.db.len(c) {
                    let l = self.db.lit(c, k);
                    if self.value(l) != Value::False {
                        self.db.swap(c, 1, k);
                        self.watches[(!l).code()].push(kept);
                        continue 'watches;
                    }
                }
                ws[j] = kept;
                j += 1;
                if self.value(first) == Value::False {
                    conflict = c;
                    break;
                }
                self.assign(first, c);
            }
            while i < ws.len() {
                ws[j] = ws[i];
                i += 1;
                j += 1;
            }
            ws.truncate(j);
            debug_assert!(self.watches[p.code()].is_empty());
            self.watches[p.code()] = ws;
        }
        if conflict != CREF_NONE {
            self.qhead = self.trail.len();
        }
        conflict
    }
}
