//! Learnt-clause reduction (Audemard and Simon, "Predicting Learnt Clauses
//! Quality in Modern SAT Solvers", IJCAI 2009): every few thousand conflicts
//! half of the learnt clauses go, those with the highest literal block
//! distance and the lowest activity first; "glue" clauses (LBD <= 2) and
//! binary ones stay, and so does every clause that is the reason of a
//! current assignment.

use super::clause::{CRef, DELETED};
use super::{Core, Value};

/// Conflicts before the first reduction.
const FIRST: u64 = 2000;
/// Growth of the interval between reductions.
const INCREMENT: u64 = 300;

impl Core {
    /// Whether clause `c` is the reason of a current assignment.
    fn is_locked(&self, c: CRef) -> bool {
        (0..2).any(|k| {
            let l = self.db.lit(c, k);
            self.value(l) == Value::True && self.reason[l.var() as usize] == c
        })
    }

    /// Whether the schedule calls for a reduction now.
    pub(super) fn wants_reduce(&self) -> bool {
        self.stats.conflicts >= self.next_reduce
    }

    /// Deletes the less useful half of the learnt clauses.
    pub(super) fn reduce(&mut self) {
        self.reductions += 1;
        self.next_reduce = self.stats.conflicts + FIRST + INCREMENT * self.reductions;
        self.stats.reductions += 1;
        let mut candidates: Vec<CRef> = (self.db.learnt.iter().copied())
            .filter(|&c| self.db.len(c) > 2 && self.db.lbd(c) > 2)
            .collect();
        candidates.sort_by(|&a, &b| {
            (self.db.lbd(b).cmp(&self.db.lbd(a)))
                .then(self.db.activity(a).total_cmp(&self.db.activity(b)))
        });
        let mut removed = 0;
        for &c in &candidates[..candidates.len() / 2] {
            if !self.is_locked(c) {
                self.db.delete(c);
                self.detach_lazily(c);
                removed += 1;
            }
        }
        if removed > 0 {
            let db = &mut self.db;
            let arena = std::mem::take(&mut db.learnt);
            db.learnt = arena.into_iter().filter(|&c| !db.has(c, DELETED)).collect();
            self.clean_watches();
        }
    }
}
