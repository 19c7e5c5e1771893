//! The general simplex of Dutertre and de Moura ("A Fast Linear-Arithmetic
//! Solver for DPLL(T)", CAV 2006): every linear term asserted on is a slack
//! variable defined by a tableau row over the original variables; atoms are
//! bounds on single variables; the tableau never changes its solution set,
//! only which variables are basic.
//!
//! - Bounds are asserted incrementally with the literal that justifies them
//!   and undone by level ([`Simplex::backtrack`]), without touching the
//!   assignment: non-basic variables always lie within their bounds, so
//!   relaxing bounds keeps that true.
//! - [`Simplex::check`] repairs basic variables out of bounds by pivoting.
//!   Only basic variables whose value or bound changed are examined (a
//!   queue ordered by index, not a scan of every row: on the k-induction
//!   queries of `cav12_bist_cell` the scan was half the solver's time).
//!   It picks the violated variable and the entering one by a
//!   least-index rule (Bland), which guarantees termination; within that
//!   rule, the entering variable is the one with the fewest column entries
//!   for the first pivots of a check (less fill-in), then strictly by index.
//! - A row that cannot be repaired is a conflict: its basic variable's bound
//!   and the bounds of its non-basic variables at their limits, each with
//!   the row coefficient as its Farkas multiplier, sum to `0 < 0`
//!   ([`Explanation`]).
//!
//! Values are [`Delta`]s, so strict bounds are exact. Coefficients are exact
//! rationals ([`Num`]).

use super::num::{Delta, Num};
use crate::sat::Lit;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A simplex variable (original or slack).
pub type SVar = u32;

/// A bound with the literal that asserted it.
#[derive(Clone, Debug)]
pub struct Bound {
    /// The bound's value.
    pub value: Delta,
    /// The atom literal that asserted it.
    pub reason: Lit,
}

/// A conflict: literals whose bounds are jointly infeasible, each with its
/// Farkas multiplier (the rows' coefficients: the bounds weighted by them
/// sum to a contradiction).
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The literals and their multipliers.
    pub parts: Vec<(Lit, Num)>,
}

/// An entry of a tableau row: `coeff · var`, and where the entry sits in
/// `var`'s column, so that either side finds the other in O(1).
#[derive(Clone, Debug)]
pub struct Entry {
    /// The non-basic variable.
    pub var: SVar,
    /// Its coefficient (never zero).
    pub coeff: Num,
    /// The index of this entry's `(row, position)` in `column[var]`.
    col: u32,
}

#[derive(Clone, Debug, Default)]
struct Row {
    basic: SVar,
    /// `basic = Σ coeff · var` over non-basic variables.
    terms: Vec<Entry>,
}

/// A bound change to undo on backtracking.
struct Undo {
    var: SVar,
    upper: bool,
    old: Option<Bound>,
}

/// Pivots per check before the entering choice becomes strictly Bland.
const HEURISTIC_PIVOTS: u64 = 64;

/// The tableau, bounds and assignment.
#[derive(Default)]
pub struct Simplex {
    value: Vec<Delta>,
    lower: Vec<Option<Bound>>,
    upper: Vec<Option<Bound>>,
    /// Row of each basic variable.
    row_of: Vec<Option<u32>>,
    rows: Vec<Row>,
    /// Where each (non-basic) variable occurs: (row, position in the row).
    /// Kept exact in both directions, so a pivot neither searches a row for
    /// a coefficient nor a column for a row (measured: on C `--int` step
    /// queries, where pivots substitute into hundreds of rows, those
    /// searches were half the simplex's time).
    column: Vec<Vec<(u32, u32)>>,
    undo: Vec<Undo>,
    undo_lim: Vec<usize>,
    /// Scratch: position of each variable in the row being merged.
    slot: Vec<u32>,
    /// Basic variables that may violate a bound, least index first: every
    /// violated basic variable is here (its value or bound changed since it
    /// was last found within bounds), so a check need not scan every row.
    suspects: BinaryHeap<Reverse<SVar>>,
    /// Whether each variable is in `suspects`.
    suspected: Vec<bool>,
    /// Pivots so far.
    pub pivots: u64,
    /// Checks so far.
    pub checks: u64,
}

impl Simplex {
    /// A new variable (non-basic, value 0, unbounded).
    pub fn new_var(&mut self) -> SVar {
        let v = self.value.len() as SVar;
        self.value.push(Delta::default());
        self.lower.push(None);
        self.upper.push(None);
        self.row_of.push(None);
        self.column.push(Vec::new());
        self.slot.push(u32::MAX);
        self.suspected.push(false);
        v
    }

    /// Queues basic variable `b`, whose value or bound changed.
    fn suspect(&mut self, b: SVar) {
        if !self.suspected[b as usize] {
            self.suspected[b as usize] = true;
            self.suspects.push(Reverse(b));
        }
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.value.len()
    }

    /// A new slack variable defined as `Σ coeff · var` (over any variables).
    pub fn define(&mut self, terms: &[(SVar, Num)]) -> SVar {
        let s = self.new_var();
        // Express the row over non-basic variables: substitute basic ones.
        let mut sum: Vec<(SVar, Num)> = Vec::new();
        for (v, c) in terms {
            match self.row_of[*v as usize] {
                Some(r) => {
                    for k in 0..self.rows[r as usize].terms.len() {
                        let e = &self.rows[r as usize].terms[k];
                        let (w, d) = (e.var, c * &e.coeff);
                        self.accumulate(&mut sum, w, d);
                    }
                }
                None => self.accumulate(&mut sum, *v, c.clone()),
            }
        }
        for (v, _) in &sum {
            self.slot[*v as usize] = u32::MAX;
        }
        // Substitution can cancel entries (x − y with equal rows for x and
        // y); a zero entry would later be chosen to pivot on.
        sum.retain(|(_, c)| !c.is_zero());
        let value = sum.iter().fold(Delta::default(), |acc, (v, c)| {
            acc.add(&self.value[*v as usize].scale(c))
        });
        self.value[s as usize] = value;
        let r = self.rows.len();
        self.rows.push(Row {
            basic: s,
            terms: Vec::with_capacity(sum.len()),
        });
        for (v, c) in sum {
            self.push_entry(r, v, c);
        }
        self.row_of[s as usize] = Some(r as u32);
        s
    }

    /// Adds `c · v` to `sum`, whose variables' slots hold their positions.
    fn accumulate(&mut self, sum: &mut Vec<(SVar, Num)>, v: SVar, c: Num) {
        let slot = self.slot[v as usize] as usize;
        if slot < sum.len() && sum[slot].0 == v {
            sum[slot].1 = &sum[slot].1 + &c;
        } else if !c.is_zero() {
            self.slot[v as usize] = sum.len() as u32;
            sum.push((v, c));
        }
    }

    /// Appends the entry `c · v` to row `r` and to `v`'s column.
    fn push_entry(&mut self, r: usize, v: SVar, coeff: Num) {
        let pos = self.rows[r].terms.len() as u32;
        let column = &mut self.column[v as usize];
        let col = column.len() as u32;
        column.push((r as u32, pos));
        self.rows[r].terms.push(Entry { var: v, coeff, col });
    }

    /// Removes the entry at `pos` of row `r` from the row and its column,
    /// moving the last entry of each into the hole.
    fn remove_entry(&mut self, r: usize, pos: usize) {
        let row = &mut self.rows[r].terms;
        let e = row.swap_remove(pos);
        if let Some(moved) = row.get(pos) {
            self.column[moved.var as usize][moved.col as usize].1 = pos as u32;
        }
        let column = &mut self.column[e.var as usize];
        column.swap_remove(e.col as usize);
        if let Some(&(r2, p2)) = column.get(e.col as usize) {
            self.rows[r2 as usize].terms[p2 as usize].col = e.col;
        }
    }

    /// The current value of `v`.
    pub fn value(&self, v: SVar) -> &Delta {
        &self.value[v as usize]
    }

    /// The lower bound of `v`.
    pub fn lower(&self, v: SVar) -> Option<&Bound> {
        self.lower[v as usize].as_ref()
    }

    /// The upper bound of `v`.
    pub fn upper(&self, v: SVar) -> Option<&Bound> {
        self.upper[v as usize].as_ref()
    }

    /// Opens a new backtracking level.
    pub fn push(&mut self) {
        self.undo_lim.push(self.undo.len());
    }

    /// Number of open levels.
    pub fn levels(&self) -> usize {
        self.undo_lim.len()
    }

    /// Undoes the bounds asserted above `level`.
    pub fn backtrack(&mut self, level: usize) {
        if self.undo_lim.len() <= level {
            return;
        }
        let keep = self.undo_lim[level];
        while self.undo.len() > keep {
            let u = self.undo.pop().expect("non-empty");
            if u.upper {
                self.upper[u.var as usize] = u.old;
            } else {
                self.lower[u.var as usize] = u.old;
            }
        }
        self.undo_lim.truncate(level);
    }

    /// Asserts `v ≤ value` (`upper`) or `v ≥ value`; a conflict with the
    /// opposite bound is explained at once. Pivoting waits for [`check`].
    ///
    /// [`check`]: Simplex::check
    pub fn assert_bound(
        &mut self,
        v: SVar,
        upper: bool,
        value: Delta,
        reason: Lit,
    ) -> Result<(), Explanation> {
        let i = v as usize;
        let (same, other) = if upper {
            (&self.upper[i], &self.lower[i])
        } else {
            (&self.lower[i], &self.upper[i])
        };
        // Not tighter than the current bound: nothing to do.
        if let Some(b) = same {
            if (upper && b.value <= value) || (!upper && b.value >= value) {
                return Ok(());
            }
        }
        if let Some(o) = other {
            if (upper && value < o.value) || (!upper && value > o.value) {
                return Err(Explanation {
                    parts: vec![(reason, Num::ONE), (o.reason, Num::ONE)],
                });
            }
        }
        let old = if upper {
            self.upper[i].replace(Bound { value, reason })
        } else {
            self.lower[i].replace(Bound { value, reason })
        };
        self.undo.push(Undo { var: v, upper, old });
        if self.row_of[i].is_some() {
            self.suspect(v);
        } else {
            let target = if upper {
                self.upper[i].as_ref().filter(|b| self.value[i] > b.value)
            } else {
                self.lower[i].as_ref().filter(|b| self.value[i] < b.value)
            };
            if let Some(b) = target {
                let to = b.value.clone();
                self.update(v, to);
            }
        }
        Ok(())
    }

    /// Sets non-basic `v` to `to`, updating the basic variables.
    fn update(&mut self, v: SVar, to: Delta) {
        let change = to.sub(&self.value[v as usize]);
        for k in 0..self.column[v as usize].len() {
            let (r, p) = self.column[v as usize][k];
            let row = &self.rows[r as usize];
            let b = row.basic as usize;
            self.value[b] = self.value[b].add(&change.scale(&row.terms[p as usize].coeff));
            self.suspect(b as SVar);
        }
        self.value[v as usize] = to;
    }

    /// The position of `v` in row `r`.
    fn position(&self, r: usize, v: SVar) -> usize {
        (self.rows[r].terms.iter())
            .position(|e| e.var == v)
            .expect("in the row")
    }

    fn violates_lower(&self, v: usize) -> bool {
        self.lower[v]
            .as_ref()
            .is_some_and(|b| self.value[v] < b.value)
    }

    fn violates_upper(&self, v: usize) -> bool {
        self.upper[v]
            .as_ref()
            .is_some_and(|b| self.value[v] > b.value)
    }

    /// Repairs the assignment; a conflict if the bounds are infeasible.
    pub fn check(&mut self) -> Result<(), Explanation> {
        self.checks += 1;
        let mut pivots = 0u64;
        loop {
            // The violated basic variable of least index (Bland).
            let Some(Reverse(b)) = self.suspects.pop() else {
                return Ok(());
            };
            let b = b as usize;
            self.suspected[b] = false;
            if self.row_of[b].is_none() || !(self.violates_lower(b) || self.violates_upper(b)) {
                continue;
            }
            let increase = self.violates_lower(b);
            let r = self.row_of[b].expect("basic") as usize;
            let bland = pivots >= HEURISTIC_PIVOTS;
            let mut best: Option<(SVar, usize)> = None;
            for e in &self.rows[r].terms {
                let (v, vi) = (e.var, e.var as usize);
                // Can v move in the direction that moves b the right way?
                let up = (e.coeff.signum() > 0) == increase;
                let room = if up {
                    self.upper[vi]
                        .as_ref()
                        .is_none_or(|u| self.value[vi] < u.value)
                } else {
                    self.lower[vi]
                        .as_ref()
                        .is_none_or(|l| self.value[vi] > l.value)
                };
                if !room {
                    continue;
                }
                let score = if bland { 0 } else { self.column[vi].len() };
                if best.is_none_or(|(w, s)| (score, v) < (s, w)) {
                    best = Some((v, score));
                }
            }
            let Some((enter, _)) = best else {
                // Still violated until a backtrack relaxes a bound.
                self.suspect(b as SVar);
                return Err(self.explain(r, increase));
            };
            let target = if increase {
                self.lower[b].as_ref().expect("violated").value.clone()
            } else {
                self.upper[b].as_ref().expect("violated").value.clone()
            };
            self.pivot_and_update(r, enter, target);
            pivots += 1;
            self.pivots += 1;
        }
    }

    /// The conflict of row `r`, whose basic variable cannot reach its
    /// lower (`increase`) or upper bound.
    fn explain(&self, r: usize, increase: bool) -> Explanation {
        let row = &self.rows[r];
        let b = row.basic as usize;
        let own = if increase {
            &self.lower[b]
        } else {
            &self.upper[b]
        };
        let mut parts = vec![(own.as_ref().expect("violated").reason, Num::ONE)];
        for e in &row.terms {
            let up = (e.coeff.signum() > 0) == increase;
            let vi = e.var as usize;
            let bound = if up { &self.upper[vi] } else { &self.lower[vi] };
            parts.push((bound.as_ref().expect("at its limit").reason, e.coeff.abs()));
        }
        Explanation { parts }
    }

    /// Makes `enter` basic in row `r` in place of its basic variable, which
    /// takes the value `target`.
    fn pivot_and_update(&mut self, r: usize, enter: SVar, target: Delta) {
        let leave = self.rows[r].basic;
        let a = self.rows[r].terms[self.position(r, enter)].coeff.clone();
        let theta = target
            .sub(&self.value[leave as usize])
            .scale(&(&Num::ONE / &a));
        self.value[leave as usize] = target;
        let entered = self.value[enter as usize].add(&theta);
        self.value[enter as usize] = entered;
        for k in 0..self.column[enter as usize].len() {
            let (s, p) = self.column[enter as usize][k];
            if s as usize == r {
                continue;
            }
            let row = &self.rows[s as usize];
            let bs = row.basic as usize;
            self.value[bs] = self.value[bs].add(&theta.scale(&row.terms[p as usize].coeff));
            self.suspect(bs as SVar);
        }
        self.pivot(r, enter);
        self.suspect(enter);
    }

    /// Rewrites the tableau so that `enter` is basic in row `r`.
    fn pivot(&mut self, r: usize, enter: SVar) {
        let leave = self.rows[r].basic;
        let a = self.rows[r].terms[self.position(r, enter)].coeff.clone();
        // enter = (1/a)·leave − Σ_{k≠enter} (c_k/a)·x_k
        let inv = &Num::ONE / &a;
        let mut terms: Vec<(SVar, Num)> = Vec::with_capacity(self.rows[r].terms.len());
        terms.push((leave, inv.clone()));
        for e in &self.rows[r].terms {
            if e.var != enter {
                terms.push((e.var, -&(&e.coeff * &inv)));
            }
        }
        while let Some(last) = self.rows[r].terms.len().checked_sub(1) {
            self.remove_entry(r, last);
        }
        self.rows[r].basic = enter;
        for (v, c) in &terms {
            self.push_entry(r, *v, c.clone());
        }
        self.row_of[leave as usize] = None;
        self.row_of[enter as usize] = Some(r as u32);
        // Substitute `enter` in every other row that uses it. Changing one
        // row moves entries only within that row, so the positions of the
        // others stay valid.
        let users = self.column[enter as usize].clone();
        let mut zeros = Vec::new();
        for (s, p) in users {
            let s = s as usize;
            let c = self.rows[s].terms[p as usize].coeff.clone();
            self.remove_entry(s, p as usize);
            for (i, e) in self.rows[s].terms.iter().enumerate() {
                self.slot[e.var as usize] = i as u32;
            }
            for (v, d) in &terms {
                let product = &c * d;
                let slot = self.slot[*v as usize] as usize;
                match self.rows[s].terms.get_mut(slot) {
                    Some(e) if e.var == *v => e.coeff = &e.coeff + &product,
                    _ => {
                        self.slot[*v as usize] = self.rows[s].terms.len() as u32;
                        self.push_entry(s, *v, product);
                    }
                }
            }
            zeros.clear();
            for (i, e) in self.rows[s].terms.iter().enumerate() {
                self.slot[e.var as usize] = u32::MAX;
                if e.coeff.is_zero() {
                    zeros.push(i);
                }
            }
            // Highest first: the entry moved into a hole comes from the
            // end, past every hole still to fill.
            for &i in zeros.iter().rev() {
                self.remove_entry(s, i);
            }
        }
        debug_assert!(self.column[enter as usize].is_empty());
    }

    /// The row of basic variable `v`: `v = Σ coeff · var` over non-basic
    /// variables; `None` if `v` is not basic.
    pub fn row(&self, v: SVar) -> Option<&[Entry]> {
        let r = self.row_of[v as usize]?;
        Some(&self.rows[r as usize].terms)
    }

    /// Panics unless rows and columns index each other exactly and every
    /// basic variable's value is its row's.
    #[cfg(test)]
    fn check_consistency(&self) {
        let entries: usize = self.column.iter().map(Vec::len).sum();
        assert_eq!(
            entries,
            self.rows.iter().map(|r| r.terms.len()).sum::<usize>()
        );
        for (v, column) in self.column.iter().enumerate() {
            for (k, &(r, p)) in column.iter().enumerate() {
                let e = &self.rows[r as usize].terms[p as usize];
                assert_eq!((e.var as usize, e.col as usize), (v, k));
                assert!(!e.coeff.is_zero() && self.row_of[v].is_none());
            }
        }
        for row in &self.rows {
            let sum = (row.terms.iter()).fold(Delta::default(), |acc, e| {
                acc.add(&self.value[e.var as usize].scale(&e.coeff))
            });
            assert_eq!(sum, self.value[row.basic as usize]);
        }
    }

    /// A δ small enough that every bound holds with δ substituted.
    pub fn concrete_delta(&self) -> Num {
        let mut delta = Num::ONE;
        for v in 0..self.value.len() {
            let x = &self.value[v];
            let mut limit = |lo: &Delta, hi: &Delta| {
                // lo ≤ hi must hold at δ: lo.real + lo.delta·δ ≤ hi.real + hi.delta·δ.
                if lo.real < hi.real && lo.delta > hi.delta {
                    let d = &(&hi.real - &lo.real) / &(&lo.delta - &hi.delta);
                    if d < delta {
                        delta = d;
                    }
                }
            };
            if let Some(l) = &self.lower[v] {
                limit(&l.value, x);
            }
            if let Some(u) = &self.upper[v] {
                limit(x, &u.value);
            }
        }
        &delta / &Num::int(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(n: u32) -> Lit {
        Lit::positive(n)
    }

    #[test]
    fn finds_a_solution_and_explains_infeasibility() {
        // x + y ≥ 2, x ≤ 0, y ≤ 1: infeasible; x + y ≥ 1 instead: feasible.
        let mut s = Simplex::default();
        let x = s.new_var();
        let y = s.new_var();
        let sum = s.define(&[(x, Num::ONE), (y, Num::ONE)]);
        s.push();
        s.assert_bound(x, true, Delta::exact(Num::ZERO), lit(1))
            .unwrap();
        s.assert_bound(y, true, Delta::exact(Num::ONE), lit(2))
            .unwrap();
        s.assert_bound(sum, false, Delta::exact(Num::int(2)), lit(3))
            .unwrap();
        let e = s.check().unwrap_err();
        let mut reasons: Vec<u32> = e.parts.iter().map(|(l, _)| l.var()).collect();
        reasons.sort();
        assert_eq!(reasons, vec![1, 2, 3]);
        s.backtrack(0);
        s.push();
        s.assert_bound(x, true, Delta::exact(Num::ZERO), lit(1))
            .unwrap();
        s.assert_bound(y, true, Delta::exact(Num::ONE), lit(2))
            .unwrap();
        s.assert_bound(sum, false, Delta::exact(Num::ONE), lit(4))
            .unwrap();
        s.check().unwrap();
        s.check_consistency();
        let d = s.concrete_delta();
        let (vx, vy) = (s.value(x).at(&d), s.value(y).at(&d));
        assert!(&vx + &vy >= Num::ONE && vx <= Num::ZERO && vy <= Num::ONE);
    }

    #[test]
    fn strict_bounds_use_the_infinitesimal() {
        // x < 1, x > 0 is feasible; x < 0, x > 0 is not.
        let mut s = Simplex::default();
        let x = s.new_var();
        let two_x = s.define(&[(x, Num::int(2))]);
        s.push();
        s.assert_bound(two_x, true, Delta::new(Num::int(2), Num::int(-1)), lit(1))
            .unwrap();
        s.assert_bound(x, false, Delta::new(Num::ZERO, Num::ONE), lit(2))
            .unwrap();
        s.check().unwrap();
        let d = s.concrete_delta();
        let v = s.value(x).at(&d);
        assert!(v > Num::ZERO && v < Num::ONE, "{v}");
        s.assert_bound(two_x, true, Delta::new(Num::ZERO, Num::int(-1)), lit(3))
            .unwrap();
        assert!(s.check().is_err());
    }

    #[test]
    fn definitions_whose_entries_cancel_keep_no_zero_entry() {
        // x + y − s1 is 0 whatever the basis: substituting the basic
        // variables' rows cancels every entry (before the fix, zero entries
        // stayed and a later pivot divided by one).
        let mut s = Simplex::default();
        let x = s.new_var();
        let y = s.new_var();
        let s1 = s.define(&[(x, Num::ONE), (y, Num::ONE)]);
        s.push();
        s.assert_bound(s1, true, Delta::exact(Num::int(3)), lit(1))
            .unwrap();
        s.check().unwrap();
        let zero = s.define(&[(x, Num::ONE), (y, Num::ONE), (s1, -&Num::ONE)]);
        assert_eq!(s.row(zero).map(<[_]>::len), Some(0));
        s.check_consistency();
        // A bound on it is decided without pivoting on a zero entry.
        s.assert_bound(zero, false, Delta::exact(Num::ONE), lit(2))
            .unwrap();
        assert!(s.check().is_err());
    }

    /// Random tableaux and bounds: after every check the rows and columns
    /// still index each other, basic values match their rows, and a check
    /// that succeeds leaves every variable within its bounds.
    #[test]
    fn random_pivots_keep_the_tableau_consistent() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m) as i64
        };
        let (mut feasible, mut infeasible) = (0, 0);
        for _ in 0..300 {
            let mut s = Simplex::default();
            let vars: Vec<SVar> = (0..5).map(|_| s.new_var()).collect();
            let mut all = vars.clone();
            for _ in 0..8 {
                let terms: Vec<(SVar, Num)> = (0..1 + next(4))
                    .map(|_| (all[next(all.len() as u64) as usize], Num::int(next(7) - 3)))
                    .collect();
                all.push(s.define(&terms));
            }
            for level in 0..4u32 {
                s.push();
                for k in 0..3u32 {
                    let v = all[next(all.len() as u64) as usize];
                    let value = Delta::exact(Num::int(next(21) - 10));
                    if s.assert_bound(v, next(2) == 0, value, lit(10 * level + k))
                        .is_err()
                    {
                        break;
                    }
                }
                let result = s.check();
                s.check_consistency();
                if result.is_err() {
                    infeasible += 1;
                    break;
                }
                feasible += 1;
                for v in 0..s.num_vars() {
                    let x = &s.value[v];
                    assert!(s.lower[v].as_ref().is_none_or(|b| b.value <= *x));
                    assert!(s.upper[v].as_ref().is_none_or(|b| *x <= b.value));
                }
            }
            s.backtrack(0);
        }
        assert!(
            feasible > 100 && infeasible > 30,
            "{feasible} / {infeasible}"
        );
    }
}
