//! Cheap lifting from the trail (as rIC3's `flip_to_none`): after a SAT
//! answer, a variable can be unassigned when every clause it satisfies is
//! satisfied by another literal too. What stays assigned then satisfies
//! every clause on its own, so every completion of the unassigned
//! variables is a model: the assignment is lifted to a cube without a SAT
//! call. IC3 uses it to shrink a predecessor before (cheaper) SAT lifting.
//!
//! Only the clauses that watch the literal are looked at, and each that has
//! another satisfying literal moves its watch there. That is exact when
//! every clause has a true watched literal; blocking literals let a
//! clause be skipped while satisfied by a literal it no longer watches, so
//! in rare cases a clause satisfied only by an unwatched literal is missed.
//! The result is therefore a candidate: IC3 confirms it with its SAT-based
//! lifting, which falls back to the full state if the candidate is wrong.

use super::{Core, Value};
use crate::sat::Lit;

impl Core {
    /// Whether `l`, true in the current model, satisfies some clause alone.
    fn needed(&mut self, l: Lit) -> bool {
        let list = (!l).code();
        let mut i = 0;
        while i < self.watches[list].len() {
            let w = self.watches[list][i];
            if w.is_binary() {
                // The blocker of a binary clause is its other literal.
                if !self.satisfies_now(w.blocker()) {
                    return true;
                }
                i += 1;
                continue;
            }
            // A long clause's blocker may no longer be watched: only the
            // watched literals count, so that the invariant survives.
            let c = w.cref();
            if self.db.lit(c, 0) == l {
                self.db.swap(c, 0, 1);
            }
            debug_assert_eq!(self.db.lit(c, 1), l);
            let other = self.db.lit(c, 0);
            if self.satisfies_now(other) {
                i += 1;
                continue;
            }
            let replacement = (2..self.db.len(c)).find(|&k| self.satisfies_now(self.db.lit(c, k)));
            let Some(k) = replacement else {
                return true;
            };
            let new = self.db.lit(c, k);
            self.db.swap(c, 1, k);
            let moved = self.watches[list].swap_remove(i);
            self.watches[(!new).code()].push(moved);
        }
        false
    }

    #[inline]
    fn satisfies_now(&self, l: Lit) -> bool {
        match self.value(l) {
            Value::True => true,
            Value::Unassigned => self.domain.restricts() && !self.domain.has(l.var()),
            Value::False => false,
        }
    }

    /// After a SAT answer: unassigns the variable of `l` (true in the model)
    /// if the rest of the assignment satisfies every clause without it;
    /// returns whether `l` is now unassigned (also when it was already,
    /// being outside the query's domain). Level-0 facts stay.
    pub fn try_unassign(&mut self, l: Lit) -> bool {
        match self.value(l) {
            // Outside the query's domain: no clause in it needs the variable.
            Value::Unassigned => return true,
            Value::False => return false,
            Value::True => {}
        }
        if self.level[l.var() as usize] == 0 || self.needed(l) {
            return false;
        }
        self.assigns[l.code()] = Value::Unassigned;
        self.assigns[(!l).code()] = Value::Unassigned;
        true
    }
}
