//! Copies of a transition system's terms per step, for the word-level BMC
//! and k-induction: state `i` at step `k` is the variable `s<i>@<k>`, input
//! `j` is `i<j>@<k>`, and every term of a step is the system's term with its
//! variables replaced (hash-consing shares what steps have in common).
//!
//! Operators outside SMT-LIB (BTOR2's reductions, overflow predicates,
//! variable rotations) are replaced by their definitions first, so that a
//! solver process can take the terms as well as the in-house solver.

use super::SmtSolver;
use crate::formats::smtlib::lower::lower;
use crate::ir::term::{Sort, Term, Terms};
use crate::ir::ts::{Ts, WordTrace};
use std::collections::{HashMap, HashSet};

/// The unrolled terms of one system; the store grows with the steps.
pub struct Unfolding {
    /// The system with standard operators; its store holds every step.
    ts: Ts,
    /// Per step, the variable of every state.
    states: Vec<Vec<Term>>,
    /// Per step, the variable of every input.
    inputs: Vec<Vec<Term>>,
    /// Names the system's own variables use (step names avoid them).
    taken: HashSet<String>,
}

impl Unfolding {
    /// The unfolding of `ts` (no step yet).
    pub fn new(ts: &Ts) -> Unfolding {
        let ts = standard(ts);
        let mut taken = HashSet::new();
        let vars = (ts.states.iter())
            .flat_map(|s| [Some(s.var), s.next_var])
            .flatten()
            .chain(ts.inputs.iter().copied());
        for v in vars {
            if let Some(n) = ts.terms.var_name(v) {
                taken.insert(n.to_string());
            }
        }
        Unfolding {
            ts,
            states: Vec::new(),
            inputs: Vec::new(),
            taken,
        }
    }

    /// The store every term of the unfolding lives in.
    pub fn terms(&self) -> &Terms {
        &self.ts.terms
    }

    /// The store, to build terms over the steps.
    pub fn terms_mut(&mut self) -> &mut Terms {
        &mut self.ts.terms
    }

    /// The system (with standard operators).
    pub fn ts(&self) -> &Ts {
        &self.ts
    }

    fn fresh(&mut self, base: String, t: Term) -> Term {
        let mut name = base;
        while self.taken.contains(&name) {
            name.push('\'');
        }
        let sort = self.ts.terms.sort(t).clone();
        self.ts.terms.var(&name, sort)
    }

    /// A Bool variable of the caller's own (an activation variable),
    /// named `base` unless the system or an earlier call took that name.
    pub fn fresh_bool(&mut self, base: &str) -> Term {
        let mut name = base.to_string();
        while self.taken.contains(&name) {
            name.push('\'');
        }
        self.taken.insert(name.clone());
        self.ts.terms.var(&name, crate::ir::term::Sort::Bool)
    }

    /// Creates the variables of steps up to `k`.
    fn reach(&mut self, k: usize) {
        while self.states.len() <= k {
            let step = self.states.len();
            let vars: Vec<Term> = self.ts.states.iter().map(|s| s.var).collect();
            let states = (vars.iter().enumerate())
                .map(|(i, &v)| self.fresh(format!("s{i}@{step}"), v))
                .collect();
            let ins: Vec<Term> = self.ts.inputs.clone();
            let inputs = (ins.iter().enumerate())
                .map(|(j, &v)| self.fresh(format!("i{j}@{step}"), v))
                .collect();
            self.states.push(states);
            self.inputs.push(inputs);
        }
    }

    /// The variable of state `i` at step `k`.
    pub fn state(&mut self, i: usize, k: usize) -> Term {
        self.reach(k);
        self.states[k][i]
    }

    /// The variable of input `j` at step `k`.
    pub fn input(&mut self, j: usize, k: usize) -> Term {
        self.reach(k);
        self.inputs[k][j]
    }

    /// `roots`, terms over the system's variables, at step `k` (primed
    /// states are those of step `k + 1`).
    pub fn at(&mut self, roots: &[Term], k: usize) -> Vec<Term> {
        self.between(roots, k, k + 1)
    }

    /// `roots` with current states and inputs those of step `k` and primed
    /// states those of step `to` (for paths whose steps are not joined by
    /// T alone).
    pub fn between(&mut self, roots: &[Term], k: usize, to: usize) -> Vec<Term> {
        self.reach(k.max(to));
        let mut map = HashMap::new();
        for (i, s) in self.ts.states.iter().enumerate() {
            map.insert(s.var, self.states[k][i]);
            if let Some(primed) = s.next_var {
                map.insert(primed, self.states[to][i]);
            }
        }
        for (j, &v) in self.ts.inputs.iter().enumerate() {
            map.insert(v, self.inputs[k][j]);
        }
        self.ts.terms.substitute(roots, &map)
    }

    /// The initial condition on step 0.
    pub fn init(&mut self) -> Term {
        let mut parts = Vec::new();
        let fixed: Vec<(usize, Term)> = (self.ts.states.iter().enumerate())
            .filter_map(|(i, s)| s.init.map(|t| (i, t)))
            .collect();
        let values = self.at(&fixed.iter().map(|&(_, t)| t).collect::<Vec<_>>(), 0);
        for (&(i, _), value) in fixed.iter().zip(values) {
            let var = self.states[0][i];
            parts.push(self.ts.terms.eq(var, value));
        }
        let init = self.ts.init.clone();
        parts.extend(self.at(&init, 0));
        self.ts.terms.and_all(&parts)
    }

    /// The transition from step `k` to `k + 1`, with the constraints of
    /// step `k`.
    pub fn trans(&mut self, k: usize) -> Term {
        self.trans_to(k, k + 1)
    }

    /// The transition from step `k` to step `to`, with the constraints of
    /// step `k`.
    pub fn trans_to(&mut self, k: usize, to: usize) -> Term {
        let functional: Vec<(usize, Term)> = (self.ts.states.iter().enumerate())
            .filter_map(|(i, s)| s.next.map(|t| (i, t)))
            .collect();
        let values = self.between(
            &functional.iter().map(|&(_, t)| t).collect::<Vec<_>>(),
            k,
            to,
        );
        let mut parts = Vec::new();
        for (&(i, _), value) in functional.iter().zip(values) {
            let var = self.states[to][i];
            parts.push(self.ts.terms.eq(var, value));
        }
        let relational = self.ts.trans.clone();
        parts.extend(self.between(&relational, k, to));
        parts.push(self.constraints(k));
        self.ts.terms.and_all(&parts)
    }

    /// The constraints of step `k`.
    pub fn constraints(&mut self, k: usize) -> Term {
        let constraints = self.ts.constraints.clone();
        let parts = self.at(&constraints, k);
        self.ts.terms.and_all(&parts)
    }

    /// Whether one of the bad properties `watched` holds at step `k`.
    pub fn bad(&mut self, watched: &[usize], k: usize) -> Term {
        let roots: Vec<Term> = watched.iter().map(|&p| self.ts.bad[p].term).collect();
        let parts = self.at(&roots, k);
        self.ts.terms.or_all(&parts)
    }

    /// The conjuncts of a path of `conditions.len()` steps (at least one)
    /// that ends in a bad state: Init at step 0, the conjuncts
    /// `conditions[k]` (terms over the system's variables) at step k, T
    /// (with its constraints) from each step to the next, and the
    /// constraints and one of the bad properties `watched` at the last
    /// step. BMC along an abstract path asks whether they hold together:
    /// IC3+IA's chain of cubes, IC3CFA's path of locations.
    pub fn path(&mut self, conditions: &[Vec<Term>], watched: &[usize]) -> Vec<Term> {
        let n = conditions.len().max(1);
        let mut parts = vec![self.init()];
        for k in 0..n {
            if let Some(c) = conditions.get(k) {
                parts.extend(self.at(c, k));
            }
            if k + 1 < n {
                parts.push(self.trans(k));
            }
        }
        parts.push(self.constraints(n - 1));
        parts.push(self.bad(watched, n - 1));
        parts
    }

    /// The states of steps `a` and `b` differ.
    pub fn differ(&mut self, a: usize, b: usize) -> Term {
        self.reach(a.max(b));
        let eqs: Vec<Term> = (0..self.ts.states.len())
            .map(|i| {
                let (x, y) = (self.states[a][i], self.states[b][i]);
                self.ts.terms.eq(x, y)
            })
            .collect();
        let same = self.ts.terms.and_all(&eqs);
        self.ts.terms.not(same)
    }
}

/// `ts` with the operators outside SMT-LIB replaced by their definitions.
/// States and inputs are unchanged, so traces carry over.
fn standard(ts: &Ts) -> Ts {
    let mut out = ts.clone();
    let lowered = lower(&mut out.terms, &ts.roots());
    out.replace_roots(&lowered);
    out
}

/// Why a system cannot go to IC3 with implicit abstraction: it has arrays.
pub fn unsupported(ts: &Ts) -> Option<String> {
    let vars = (ts.states.iter().map(|s| s.var)).chain(ts.inputs.iter().copied());
    for v in vars {
        if let Sort::Array(..) = ts.terms.sort(v) {
            let name = ts.terms.var_name(v).unwrap_or("?");
            return Some(format!(
                "`{name}` is an array; IC3 with implicit abstraction takes none"
            ));
        }
    }
    None
}

/// Why a system cannot be unrolled for BMC and k-induction on the SMT
/// layer: an array over indices or elements that are not Bool or
/// bit-vectors (the array theory's; `smt::arrays`).
pub fn not_unrollable(ts: &Ts) -> Option<String> {
    let vars = (ts.states.iter().map(|s| s.var)).chain(ts.inputs.iter().copied());
    for v in vars {
        let sort = ts.terms.sort(v);
        if matches!(sort, Sort::Array(..)) && !super::arrays::is_theory_array(sort) {
            let name = ts.terms.var_name(v).unwrap_or("?");
            return Some(format!(
                "`{name}` is an array of sort {sort}; arrays need Bool or bit-vector indices and elements"
            ));
        }
    }
    None
}

/// Whether the system has array states or inputs.
pub fn has_arrays(ts: &Ts) -> bool {
    let vars = (ts.states.iter().map(|s| s.var)).chain(ts.inputs.iter().copied());
    vars.into_iter()
        .any(|v| matches!(ts.terms.sort(v), Sort::Array(..)))
}

/// The answer to BMC along a path of `len` steps asserted on `solver`
/// ([`Unfolding::path`]): the trace if the path exists, `None` if not, the
/// solver's reason if it gave up.
pub fn trace_along(
    solver: &mut dyn SmtSolver,
    u: &mut Unfolding,
    len: usize,
) -> Result<Option<WordTrace>, String> {
    match solver.check(u.terms(), &[]) {
        super::SmtResult::Sat => read_trace(solver, u, len.max(1)).map(Some),
        super::SmtResult::Unsat => Ok(None),
        super::SmtResult::Unknown(why) => Err(why),
    }
}

/// The values of every state and input in steps `0..len` of the last model.
pub fn read_trace(
    solver: &mut dyn SmtSolver,
    u: &mut Unfolding,
    len: usize,
) -> Result<WordTrace, String> {
    let (states, inputs) = (u.ts().states.len(), u.ts().inputs.len());
    let mut trace = WordTrace {
        states: Vec::new(),
        inputs: Vec::new(),
    };
    for k in 0..len {
        let mut row = Vec::new();
        for i in 0..states {
            let v = u.state(i, k);
            row.push(solver.value(u.terms(), v)?);
        }
        let mut ins = Vec::new();
        for j in 0..inputs {
            let v = u.input(j, k);
            ins.push(solver.value(u.terms(), v)?);
        }
        trace.states.push(row);
        trace.inputs.push(ins);
    }
    Ok(trace)
}
