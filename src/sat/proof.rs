//! A CDCL solver that keeps the resolution proof of its unsatisfiable
//! answers and derives Craig interpolants from it, for interpolation-based
//! model checking (McMillan, "Interpolation and SAT-based model checking",
//! CAV 2003; the interpolation system is McMillan's, Theorem 1 there).
//!
//! Every clause is given to one of two parts, A or B. After an UNSAT answer,
//! [`ProofSolver::interpolant`] builds, as an AIG over the variables both
//! parts share, a formula I with A ⇒ I and I ∧ B unsatisfiable.
//!
//! The solver is deliberately plain, so that its proof is easy to trust:
//! two watched literals, 1UIP learning without minimization, VSIDS with
//! phase saving, Luby restarts, no clause deletion, no preprocessing. Every
//! learnt clause records the chain of resolutions that derived it: the
//! conflicting clause, then each reason clause with the variable resolved
//! on. Literals assigned at level 0 stay in learnt clauses (removing them
//! would be resolution with their reasons, which the chain would then have
//! to hold), and the final conflict at level 0 is resolved with the reasons
//! of the whole trail down to the empty clause. One solver answers one
//! question: clauses are added first, then [`ProofSolver::solve`] is called
//! once.

use super::{Lit, SolveResult};
use crate::ir::aig::{self, Aig};
use crate::util::budget::Budget;

/// Which side of the interpolation problem a clause belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// The side the interpolant over-approximates.
    A,
    /// The side the interpolant is inconsistent with.
    B,
}

/// Where a clause comes from.
#[derive(Clone, Debug)]
enum Origin {
    Input(Part),
    /// Resolution: `chain[0]` is the first clause, then each (clause, var)
    /// is resolved in on `var`.
    Derived(Vec<(u32, u32)>),
}

const NO_REASON: u32 = u32::MAX;

/// See the module documentation.
pub struct ProofSolver {
    /// Clause literals, clause `c` at `lits[start[c]..start[c + 1]]`.
    lits: Vec<Lit>,
    start: Vec<usize>,
    origin: Vec<Origin>,
    /// Per variable: occurs in an A clause, in a B clause.
    in_a: Vec<bool>,
    in_b: Vec<bool>,
    /// Per literal code: true, false or unassigned (0).
    value: Vec<i8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    trail: Vec<Lit>,
    trail_lim: Vec<usize>,
    qhead: usize,
    /// Per literal code: clauses watching it (it is one of their first two).
    watches: Vec<Vec<u32>>,
    activity: Vec<f64>,
    var_inc: f64,
    heap: Vec<u32>,
    heap_pos: Vec<usize>,
    phase: Vec<bool>,
    seen: Vec<bool>,
    /// The empty clause, once derived.
    empty: Option<u32>,
    /// Conflicts so far.
    pub conflicts: u64,
}

const NOT_IN_HEAP: usize = usize::MAX;

impl Default for ProofSolver {
    fn default() -> Self {
        ProofSolver::new()
    }
}

impl ProofSolver {
    /// An empty solver.
    pub fn new() -> ProofSolver {
        let mut s = ProofSolver {
            lits: Vec::new(),
            start: vec![0],
            origin: Vec::new(),
            in_a: Vec::new(),
            in_b: Vec::new(),
            value: Vec::new(),
            level: Vec::new(),
            reason: Vec::new(),
            trail: Vec::new(),
            trail_lim: Vec::new(),
            qhead: 0,
            watches: Vec::new(),
            activity: Vec::new(),
            var_inc: 1.0,
            heap: Vec::new(),
            heap_pos: Vec::new(),
            phase: Vec::new(),
            seen: Vec::new(),
            empty: None,
            conflicts: 0,
        };
        // Variable 0 is unused (literals number variables from 1).
        s.grow(0);
        s
    }

    /// A fresh variable's positive literal.
    pub fn new_var(&mut self) -> Lit {
        let v = self.in_a.len() as u32;
        self.grow(v);
        Lit::positive(v)
    }

    fn grow(&mut self, v: u32) {
        debug_assert_eq!(v as usize, self.in_a.len());
        self.in_a.push(false);
        self.in_b.push(false);
        self.value.extend([0, 0]);
        self.level.push(0);
        self.reason.push(NO_REASON);
        self.watches.extend([Vec::new(), Vec::new()]);
        self.activity.push(0.0);
        self.heap_pos.push(NOT_IN_HEAP);
        self.phase.push(false);
        self.seen.push(false);
    }

    /// Number of variables (the unused variable 0 included).
    pub fn num_vars(&self) -> usize {
        self.in_a.len()
    }

    /// Adds a clause of part `part` (before [`ProofSolver::solve`]).
    pub fn add_clause(&mut self, clause: &[Lit], part: Part) {
        let mut lits: Vec<Lit> = clause.to_vec();
        lits.sort_unstable();
        lits.dedup();
        if lits.windows(2).any(|w| w[0] == !w[1]) {
            return; // a tautology is never needed
        }
        for &l in &lits {
            let v = l.var() as usize;
            assert!(v >= 1 && v < self.in_a.len(), "literal {l} of no variable");
            match part {
                Part::A => self.in_a[v] = true,
                Part::B => self.in_b[v] = true,
            }
        }
        self.push_clause(&lits, Origin::Input(part));
    }

    fn push_clause(&mut self, lits: &[Lit], origin: Origin) -> u32 {
        let c = self.origin.len() as u32;
        self.lits.extend_from_slice(lits);
        self.start.push(self.lits.len());
        self.origin.push(origin);
        c
    }

    fn clause(&self, c: u32) -> &[Lit] {
        &self.lits[self.start[c as usize]..self.start[c as usize + 1]]
    }

    fn lit_value(&self, l: Lit) -> i8 {
        self.value[l.code()]
    }

    /// The value of `l` in the model of a SAT answer.
    pub fn model_value(&self, l: Lit) -> bool {
        self.lit_value(l) == 1
    }

    fn assign(&mut self, l: Lit, reason: u32) {
        self.value[l.code()] = 1;
        self.value[(!l).code()] = -1;
        let v = l.var() as usize;
        self.level[v] = self.trail_lim.len() as u32;
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Propagates the queue; the conflicting clause, if any.
    fn propagate(&mut self) -> Option<u32> {
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            let falsified = !p;
            let mut list = std::mem::take(&mut self.watches[falsified.code()]);
            let mut i = 0;
            let mut conflict = None;
            while i < list.len() {
                let c = list[i];
                let s = self.start[c as usize];
                // Keep the falsified literal second.
                if self.lits[s] == falsified {
                    self.lits.swap(s, s + 1);
                }
                let first = self.lits[s];
                if self.lit_value(first) == 1 {
                    i += 1;
                    continue;
                }
                let end = self.start[c as usize + 1];
                let replacement = (s + 2..end).find(|&k| self.lit_value(self.lits[k]) != -1);
                if let Some(k) = replacement {
                    self.lits.swap(s + 1, k);
                    let w = self.lits[s + 1];
                    self.watches[w.code()].push(c);
                    list.swap_remove(i);
                    continue;
                }
                if self.lit_value(first) == -1 {
                    conflict = Some(c);
                    break;
                }
                self.assign(first, c);
                i += 1;
            }
            self.watches[falsified.code()].append(&mut list);
            if conflict.is_some() {
                self.qhead = self.trail.len();
                return conflict;
            }
        }
        None
    }

    /// Solves once: SAT (a model is readable), UNSAT (the interpolant is),
    /// or Interrupted when `budget` runs out.
    pub fn solve(&mut self, budget: &Budget) -> SolveResult {
        // Watches first, then units: every later assignment is propagated.
        for c in 0..self.origin.len() as u32 {
            let lits = self.clause(c);
            match lits.len() {
                0 => {
                    self.empty = Some(c);
                    return SolveResult::Unsat;
                }
                1 => {}
                _ => {
                    let (a, b) = (lits[0], lits[1]);
                    self.watches[a.code()].push(c);
                    self.watches[b.code()].push(c);
                }
            }
        }
        for c in 0..self.origin.len() as u32 {
            if self.clause(c).len() != 1 {
                continue;
            }
            let l = self.clause(c)[0];
            match self.lit_value(l) {
                1 => {}
                -1 => return self.refute(c),
                _ => self.assign(l, c),
            }
        }
        for v in 1..self.num_vars() as u32 {
            self.heap_insert(v);
        }
        let mut luby_index = 0u32;
        loop {
            let limit = 100 * luby(luby_index);
            luby_index += 1;
            match self.search(limit, budget) {
                Some(result) => return result,
                None => self.backtrack(0),
            }
        }
    }

    /// Searches until `limit` conflicts (None: restart).
    fn search(&mut self, limit: u64, budget: &Budget) -> Option<SolveResult> {
        let mut conflicts = 0;
        loop {
            if let Some(conflict) = self.propagate() {
                self.conflicts += 1;
                conflicts += 1;
                if self.trail_lim.is_empty() {
                    return Some(self.refute(conflict));
                }
                let (learnt, chain, backtrack) = self.analyze(conflict);
                self.backtrack(backtrack);
                let c = self.push_clause(&learnt, Origin::Derived(chain));
                if learnt.len() >= 2 {
                    self.watches[learnt[0].code()].push(c);
                    self.watches[learnt[1].code()].push(c);
                }
                self.assign(learnt[0], c);
                self.var_inc /= 0.95;
                if self.conflicts.is_multiple_of(256) && budget.expired() {
                    return Some(SolveResult::Interrupted);
                }
                continue;
            }
            if conflicts >= limit {
                return None;
            }
            match self.pick() {
                None => return Some(SolveResult::Sat),
                Some(l) => {
                    self.trail_lim.push(self.trail.len());
                    self.assign(l, NO_REASON);
                }
            }
        }
    }

    /// 1UIP analysis of `conflict`: the learnt clause (asserting literal
    /// first, a literal of the backtrack level second), its resolution
    /// chain and the backtrack level.
    fn analyze(&mut self, conflict: u32) -> (Vec<Lit>, Vec<(u32, u32)>, usize) {
        let level = self.trail_lim.len() as u32;
        let mut chain = vec![(conflict, u32::MAX)];
        let mut learnt = vec![Lit::positive(1)];
        let mut open = 0;
        let mut index = self.trail.len();
        let mut clause = conflict;
        let mut pivot: Option<u32> = None;
        loop {
            let (s, e) = (self.start[clause as usize], self.start[clause as usize + 1]);
            for k in s..e {
                let q = self.lits[k];
                let v = q.var();
                if Some(v) == pivot || self.seen[v as usize] {
                    continue;
                }
                self.seen[v as usize] = true;
                self.bump(v);
                if self.level[v as usize] == level {
                    open += 1;
                } else {
                    learnt.push(q);
                }
            }
            let p = loop {
                index -= 1;
                let p = self.trail[index];
                if self.seen[p.var() as usize] {
                    break p;
                }
            };
            self.seen[p.var() as usize] = false;
            open -= 1;
            if open == 0 {
                learnt[0] = !p;
                break;
            }
            clause = self.reason[p.var() as usize];
            debug_assert_ne!(clause, NO_REASON);
            chain.push((clause, p.var()));
            pivot = Some(p.var());
        }
        for l in &learnt[1..] {
            self.seen[l.var() as usize] = false;
        }
        // A literal of the highest remaining level second.
        let mut backtrack = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for k in 2..learnt.len() {
                if self.level[learnt[k].var() as usize] > self.level[learnt[best].var() as usize] {
                    best = k;
                }
            }
            learnt.swap(1, best);
            backtrack = self.level[learnt[1].var() as usize] as usize;
        }
        (learnt, chain, backtrack)
    }

    /// Derives the empty clause from `conflict`, false at level 0, by
    /// resolving with the reasons of the trail, last first.
    fn refute(&mut self, conflict: u32) -> SolveResult {
        let mut chain = vec![(conflict, u32::MAX)];
        let mut seen = vec![false; self.num_vars()];
        for &l in self.clause(conflict) {
            seen[l.var() as usize] = true;
        }
        for i in (0..self.trail.len()).rev() {
            let v = self.trail[i].var();
            if !seen[v as usize] {
                continue;
            }
            let r = self.reason[v as usize];
            debug_assert_ne!(r, NO_REASON, "a level-0 assignment without a reason");
            chain.push((r, v));
            for &l in self.clause(r) {
                seen[l.var() as usize] = true;
            }
        }
        let c = self.push_clause(&[], Origin::Derived(chain));
        self.empty = Some(c);
        SolveResult::Unsat
    }

    fn backtrack(&mut self, level: usize) {
        if self.trail_lim.len() <= level {
            return;
        }
        let keep = self.trail_lim[level];
        for i in (keep..self.trail.len()).rev() {
            let l = self.trail[i];
            let v = l.var();
            self.value[l.code()] = 0;
            self.value[(!l).code()] = 0;
            self.phase[v as usize] = !l.is_negative();
            self.reason[v as usize] = NO_REASON;
            self.heap_insert(v);
        }
        self.trail.truncate(keep);
        self.trail_lim.truncate(level);
        self.qhead = keep;
    }

    fn pick(&mut self) -> Option<Lit> {
        while let Some(v) = self.heap_pop() {
            let l = Lit::positive(v).xor(!self.phase[v as usize]);
            if self.lit_value(l) == 0 {
                return Some(l);
            }
        }
        None
    }

    fn bump(&mut self, v: u32) {
        self.activity[v as usize] += self.var_inc;
        if self.activity[v as usize] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        let pos = self.heap_pos[v as usize];
        if pos != NOT_IN_HEAP {
            self.sift_up(pos);
        }
    }

    fn heap_insert(&mut self, v: u32) {
        if self.heap_pos[v as usize] != NOT_IN_HEAP {
            return;
        }
        self.heap.push(v);
        let pos = self.heap.len() - 1;
        self.heap_pos[v as usize] = pos;
        self.sift_up(pos);
    }

    fn heap_pop(&mut self) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty heap");
        self.heap_pos[top as usize] = NOT_IN_HEAP;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.heap_pos[last as usize] = 0;
            self.sift_down(0);
        }
        Some(top)
    }

    fn sift_up(&mut self, mut pos: usize) {
        let v = self.heap[pos];
        while pos > 0 {
            let parent = (pos - 1) / 2;
            let u = self.heap[parent];
            if self.activity[u as usize] >= self.activity[v as usize] {
                break;
            }
            self.heap[pos] = u;
            self.heap_pos[u as usize] = pos;
            pos = parent;
        }
        self.heap[pos] = v;
        self.heap_pos[v as usize] = pos;
    }

    fn sift_down(&mut self, mut pos: usize) {
        let v = self.heap[pos];
        loop {
            let left = 2 * pos + 1;
            if left >= self.heap.len() {
                break;
            }
            let right = left + 1;
            let child = if right < self.heap.len()
                && self.activity[self.heap[right] as usize]
                    > self.activity[self.heap[left] as usize]
            {
                right
            } else {
                left
            };
            let u = self.heap[child];
            if self.activity[u as usize] <= self.activity[v as usize] {
                break;
            }
            self.heap[pos] = u;
            self.heap_pos[u as usize] = pos;
            pos = child;
        }
        self.heap[pos] = v;
        self.heap_pos[v as usize] = pos;
    }

    /// Whether variable `v` occurs in clauses of both parts.
    pub fn is_shared(&self, v: u32) -> bool {
        self.in_a[v as usize] && self.in_b[v as usize]
    }

    /// After an UNSAT answer: McMillan's interpolant, built in `out` with
    /// each shared variable read as `shared(v)`. A clause of A gives the
    /// disjunction of its shared literals, a clause of B true; a resolution
    /// on a variable that only A has gives the disjunction of the two
    /// sides' interpolants, any other the conjunction.
    pub fn interpolant(&self, out: &mut Aig, shared: &dyn Fn(u32) -> aig::Lit) -> aig::Lit {
        let root = self.empty.expect("the interpolant of an UNSAT answer");
        // The clauses the proof of the empty clause uses.
        let mut used = vec![false; self.origin.len()];
        let mut stack = vec![root];
        used[root as usize] = true;
        while let Some(c) = stack.pop() {
            if let Origin::Derived(chain) = &self.origin[c as usize] {
                for &(d, _) in chain {
                    if !used[d as usize] {
                        used[d as usize] = true;
                        stack.push(d);
                    }
                }
            }
        }
        // Antecedents come before what they derive: one pass in order.
        let mut itp = vec![aig::Lit::FALSE; self.origin.len()];
        for c in 0..=root as usize {
            if !used[c] {
                continue;
            }
            itp[c] = match &self.origin[c] {
                Origin::Input(Part::B) => aig::Lit::TRUE,
                Origin::Input(Part::A) => {
                    let mut any = aig::Lit::FALSE;
                    for &l in self.clause(c as u32) {
                        if self.is_shared(l.var()) {
                            let x = shared(l.var()).xor(l.is_negative());
                            any = out.or(any, x);
                        }
                    }
                    any
                }
                Origin::Derived(chain) => {
                    let mut acc = itp[chain[0].0 as usize];
                    for &(d, v) in &chain[1..] {
                        let other = itp[d as usize];
                        acc = if self.in_a[v as usize] && !self.in_b[v as usize] {
                            out.or(acc, other)
                        } else {
                            out.and(acc, other)
                        };
                    }
                    acc
                }
            };
        }
        itp[root as usize]
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, … at index `i` (from 0).
fn luby(i: u32) -> u64 {
    let mut x = i as u64 + 1;
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < x {
            k += 1;
        }
        if (1u64 << k) - 1 == x {
            return 1 << (k - 1);
        }
        x -= (1u64 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::encode::Frames;
    use crate::sat::Backend;

    /// A small xorshift generator (fixed seeds).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(seq, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    /// Random 3-CNF split in two parts that share a few variables; every
    /// answer is compared with CaDiCaL's, every model satisfies every
    /// clause, every interpolant is implied by A, inconsistent with B and
    /// over the shared variables only (it is built over them).
    #[test]
    fn interpolants_of_random_partitioned_formulas_are_interpolants() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut unsat, mut sat) = (0, 0);
        for round in 0..1000 {
            let n = 8 + rng.below(if round % 4 == 0 { 150 } else { 30 }) as u32;
            // Variables 1..=a_end only in A, a_end+1..=shared_end in both,
            // the rest only in B.
            let a_end = n / 3;
            let shared_end = a_end + 1 + rng.below((n / 3) as u64) as u32;
            let clauses_per_part = (n as f64 * (0.6 + rng.below(12) as f64 / 10.0)) as usize;
            let mut parts: Vec<(Vec<Lit>, Part)> = Vec::new();
            for part in [Part::A, Part::B] {
                let (lo, hi) = match part {
                    Part::A => (1, shared_end),
                    Part::B => (a_end + 1, n),
                };
                for _ in 0..clauses_per_part {
                    let width = 1 + (rng.below(8) as usize).min(2);
                    let clause: Vec<Lit> = (0..width)
                        .map(|_| {
                            let v = lo + rng.below((hi - lo + 1) as u64) as u32;
                            Lit::positive(v).xor(rng.below(2) == 1)
                        })
                        .collect();
                    parts.push((clause, part));
                }
            }
            let mut solver = ProofSolver::new();
            for _ in 0..n {
                solver.new_var();
            }
            for (c, p) in &parts {
                solver.add_clause(c, *p);
            }
            let answer = solver.solve(&Budget::unlimited());
            let mut reference = Backend::Cadical.create(Budget::unlimited());
            for _ in 0..n {
                reference.new_var();
            }
            for (c, _) in &parts {
                reference.add_clause(c);
            }
            assert_eq!(answer, reference.solve(&[]), "round {round}");
            if answer == SolveResult::Sat {
                sat += 1;
                for (c, _) in &parts {
                    let tautology = c.iter().any(|&l| c.contains(&!l));
                    assert!(
                        tautology || c.iter().any(|&l| solver.model_value(l)),
                        "round {round}: clause {c:?} false in the model"
                    );
                }
                continue;
            }
            unsat += 1;
            let mut itp_aig = Aig::new();
            let inputs: Vec<aig::Lit> = (0..=n).map(|_| itp_aig.add_input()).collect();
            let itp = solver.interpolant(&mut itp_aig, &|v| {
                assert!(
                    v > a_end && v <= shared_end,
                    "round {round}: variable {v} is not shared"
                );
                inputs[v as usize]
            });
            for (side, negate) in [(Part::A, true), (Part::B, false)] {
                // A ∧ ¬I and B ∧ I must both be unsatisfiable: the
                // checkers' own encoding of I (`check::encode`), the
                // clauses over its inputs, on CaDiCaL.
                let mut check =
                    Frames::new(&itp_aig, Backend::Cadical, &Budget::unlimited(), false);
                check.push_frame(false);
                let var = |v: u32| check.lit(aig::Lit::new(itp_aig.inputs[v as usize], false), 0);
                let mapped: Vec<Vec<Lit>> = (parts.iter())
                    .filter(|(_, p)| *p == side)
                    .map(|(c, _)| {
                        c.iter()
                            .map(|l| var(l.var()).xor(l.is_negative()))
                            .collect()
                    })
                    .collect();
                let i = check.lit(itp, 0);
                for clause in &mapped {
                    check.solver.add_clause(clause);
                }
                check.solver.add_clause(&[i.xor(negate)]);
                assert_eq!(
                    check.solver.solve(&[]),
                    SolveResult::Unsat,
                    "round {round}, {side:?}"
                );
            }
        }
        assert!(unsat >= 250 && sat >= 250, "{unsat} unsat, {sat} sat");
    }
}
