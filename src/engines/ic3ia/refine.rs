//! Refinement: a spurious abstract chain is simulated on the concrete
//! system (BMC along its cubes); a real one is the counterexample, a
//! spurious one gives new predicates (the atoms of its path, weakest
//! preconditions, bits, and interpolants from its refutation), kept to those
//! an unsat core needs.

use super::{atoms, lit_term, Predicates};
use crate::engines::ic3::{Interrupted, Step};
use crate::ir::term::{Op, Sort, Term};
use crate::ir::ts::WordTrace;
use crate::smt::{self, SmtResult};
use std::collections::{HashMap, HashSet};

impl Predicates {
    /// New predicates against a spurious chain; how many.
    pub(super) fn refine(&mut self, chain: &[Step]) -> usize {
        self.refinements += 1;
        let mut candidates = std::mem::take(&mut self.interpolants);
        candidates.append(&mut self.pool);
        if self.refinements == 1 {
            // The atoms of T: those over current states as they are, those
            // over primed states only as the same condition one step on.
            let system = self.u.ts();
            let mut roots = system.trans.clone();
            roots.extend(&system.constraints);
            roots.extend(system.states.iter().filter_map(|s| s.next));
            let found = atoms(&system.terms, &roots);
            let unprimed = self.u.terms_mut().substitute(&found, &self.unprime);
            candidates.extend(found);
            candidates.extend(unprimed);
        }
        // Weakest preconditions through each combination of the updates
        // of the predicate's variables (one combination per edge of T, at
        // most WP_VARIANTS per predicate).
        const WP_VARIANTS: usize = 8;
        for p in self.preds.clone() {
            let vars: Vec<Term> = (self.u.terms().topological(&[p]).into_iter())
                .filter(|v| self.updates.contains_key(v))
                .collect();
            let mut maps: Vec<HashMap<Term, Term>> = vec![HashMap::new()];
            for v in vars {
                let mut more = Vec::new();
                for m in &maps {
                    for &e in &self.updates[&v] {
                        if more.len() >= WP_VARIANTS {
                            break;
                        }
                        let mut m = m.clone();
                        m.insert(v, e);
                        more.push(m);
                    }
                }
                maps = more;
            }
            for m in maps.iter().filter(|m| !m.is_empty()) {
                let image = self.u.terms_mut().substitute(&[p], m)[0];
                candidates.extend(atoms(self.u.terms(), &[image]));
            }
        }
        let needed = self.needed(chain, candidates);
        self.add_predicates(needed)
    }

    /// The candidates that the abstract chain's refutation needs: the
    /// chain is an abstract path over the predicates so far, and it stays
    /// one over a larger set unless some step's post-state and the next
    /// pre-state cannot agree on every predicate. So the chain is posed
    /// with a copy of the state on each side of each abstract step, the
    /// copies joined by equal values of the old predicates and, under one
    /// label each, of the candidates; the labels of an unsat core are the
    /// candidates kept. All of them when that does not refute the chain.
    pub(super) fn needed(&mut self, chain: &[Step], candidates: Vec<Term>) -> Vec<Term> {
        let mut seen = HashSet::new();
        let fresh: Vec<Term> = (candidates.into_iter())
            .filter(|&p| !self.known.contains(&p) && self.over_current_states(p) && seen.insert(p))
            .collect();
        let n = chain.len();
        if fresh.len() <= 1 || n < 2 || !self.options.minimise {
            return fresh;
        }
        let Ok(mut solver) = self.backend.start(&self.budget) else {
            return fresh;
        };
        let path = self.abstract_path(chain);
        solver.assert(self.u.terms(), path);
        // The copy of step k (k ≥ 1) that T reaches in `abstract_path`.
        let copy = |k: usize| n - 1 + k;
        let mut labels = Vec::with_capacity(fresh.len());
        for (j, &p) in fresh.iter().enumerate() {
            let label = self
                .u
                .fresh_bool(&format!("ic3ia@r{}p{j}", self.refinements));
            let mut agree = Vec::new();
            for k in 1..n {
                let a = self.u.at(&[p], copy(k))[0];
                let b = self.u.at(&[p], k)[0];
                agree.push(self.u.terms_mut().eq(a, b));
            }
            let agree = self.u.terms_mut().and_all(&agree);
            let off = self.u.terms_mut().not(label);
            let guarded = self.u.terms_mut().or_all(&[off, agree]);
            solver.assert(self.u.terms(), guarded);
            labels.push(label);
        }
        let result = solver.check(self.u.terms(), &labels);
        let stats = solver.stats();
        self.retired.0 += stats.checks;
        self.retired.1 += stats.time;
        if result != SmtResult::Unsat {
            return fresh;
        }
        let core: HashSet<Term> = solver.unsat_core().into_iter().collect();
        let mut kept = Vec::new();
        let mut unused = Vec::new();
        for (&p, l) in fresh.iter().zip(&labels) {
            if core.contains(l) {
                kept.push(p);
            } else {
                unused.push(p);
            }
        }
        if kept.is_empty() {
            return fresh;
        }
        self.pool.extend(unused);
        kept
    }

    /// The last resort on bit-vectors: every bit of every bit-vector state
    /// as a predicate (the abstraction is then exact on those states, as
    /// bit-level IC3 is). Returns how many were new.
    pub(super) fn bit_predicates(&mut self) -> usize {
        let states: Vec<Term> = self.u.ts().states.iter().map(|s| s.var).collect();
        let mut bits = Vec::new();
        for v in states {
            let Sort::BitVec(w) = *self.u.terms().sort(v) else {
                continue;
            };
            for i in 0..w {
                let terms = self.u.terms_mut();
                let bit = terms.mk(Op::Extract(i, i), &[v]);
                let one = terms.bv(crate::ir::bv::BvValue::from_u64(1, 1));
                bits.push(terms.eq(bit, one));
            }
        }
        self.add_predicates(bits)
    }

    /// The chain as a path of the abstraction: Init, each step's cube over
    /// step k's states, and the bad states at the last step, joined by T
    /// from step k to a copy of step k + 1 (step n + k) that agrees with
    /// step k + 1 on every predicate.
    pub(super) fn abstract_path(&mut self, chain: &[Step]) -> Term {
        let n = chain.len();
        let preds = self.preds.clone();
        let mut parts = vec![self.u.init()];
        for (k, step) in chain.iter().enumerate() {
            let at = self.u.at(&preds, k);
            for &l in step.cube.lits() {
                parts.push(lit_term(self.u.terms_mut(), &at, l));
            }
            if k + 1 == n {
                break;
            }
            let copy = n + k;
            parts.push(self.u.trans_to(k, copy));
            let after = self.u.at(&preds, copy);
            let before = self.u.at(&preds, k + 1);
            for (a, b) in after.into_iter().zip(before) {
                parts.push(self.u.terms_mut().eq(a, b));
            }
        }
        parts.push(self.u.constraints(n - 1));
        parts.push(self.u.bad(&self.watched, n - 1));
        self.u.terms_mut().and_all(&parts)
    }

    /// Concrete BMC along the chain's cubes: the trace, if there is one.
    pub(super) fn simulate(&mut self, chain: &[Step]) -> Result<Option<WordTrace>, Interrupted> {
        let mut bmc = match self.backend.start(&self.budget) {
            Ok(s) => s,
            Err(e) => {
                self.gave_up = Some(e);
                return Err(Interrupted);
            }
        };
        let n = chain.len();
        let preds = self.preds.clone();
        let cubes: Vec<Vec<Term>> = (chain.iter())
            .map(|step| {
                (step.cube.lits().iter())
                    .map(|&l| lit_term(self.u.terms_mut(), &preds, l))
                    .collect()
            })
            .collect();
        let path = self.u.path(&cubes, &self.watched);
        let path = self.u.terms_mut().and_all(&path);
        bmc.assert(self.u.terms(), path);
        let farkas = self.options.farkas && bmc.keep_conflicts();
        let found = smt::unfold::trace_along(bmc.as_mut(), &mut self.u, n);
        let stats = bmc.stats();
        self.retired.0 += stats.checks;
        self.retired.1 += stats.time;
        match found {
            Ok(Some(trace)) => Ok(Some(trace)),
            Ok(None) => {
                if farkas {
                    self.interpolants = self.interpolant_predicates(&bmc.conflicts(), n);
                }
                Ok(None)
            }
            Err(why) => {
                if !self.budget.expired() {
                    self.gave_up = Some(why);
                }
                Err(Interrupted)
            }
        }
    }
}
