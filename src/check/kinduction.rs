//! Re-derives a k-induction proof on the full circuit (no cone of influence,
//! no lazy encoding) with a SAT backend chosen by the caller, normally not
//! the one the engine used.
//!
//! The proof is accepted when no bad state is reachable in fewer than k steps
//! and no k good steps can be followed by a bad one. With simple paths the
//! window's states must differ on some latch of the property's cone; the cone
//! is computed here by a fixpoint of its own.

use crate::ir::aig::{Aig, Lit, Node};
use crate::sat::{self, Backend, SolveResult, Solver};
use crate::util::budget::Budget;

/// Checks that `bad` (a disjunction of the given literals) is k-inductive.
pub fn check(
    aig: &Aig,
    bad: &[Lit],
    k: usize,
    simple_path: bool,
    backend: Backend,
    budget: &Budget,
) -> Result<(), String> {
    if k == 0 {
        return Err("a k-induction proof needs k >= 1".into());
    }
    // Base case: no counterexample of 1..=k steps.
    let mut base = Frames::new(aig, backend, budget, true);
    for depth in 0..k {
        base.push_frame();
        let b = base.any(bad, depth);
        match base.solver.solve(&[b]) {
            SolveResult::Unsat => {}
            SolveResult::Sat => return Err(format!("a bad state is reachable at step {depth}")),
            SolveResult::Interrupted => return Err("proof check ran out of time".into()),
        }
    }
    // Step case: k good steps then bad, from any state satisfying constraints.
    let mut step = Frames::new(aig, backend, budget, false);
    for depth in 0..=k {
        step.push_frame();
        if depth < k {
            let b = step.any(bad, depth);
            step.solver.add_clause(&[!b]);
        }
    }
    if simple_path {
        let cone = cone_latches(aig, bad);
        for i in 0..=k {
            for j in i + 1..=k {
                step.distinct(&cone, i, j);
            }
        }
    }
    let b = step.any(bad, k);
    match step.solver.solve(&[b]) {
        SolveResult::Unsat => Ok(()),
        SolveResult::Sat => Err(format!("the property is not {k}-inductive")),
        SolveResult::Interrupted => Err("proof check ran out of time".into()),
    }
}

/// Eagerly encoded frames of the whole circuit, constraints asserted.
struct Frames<'a> {
    aig: &'a Aig,
    solver: Box<dyn Solver>,
    from_init: bool,
    /// `lits[k][v]`: the solver literal of node v in frame k.
    lits: Vec<Vec<sat::Lit>>,
    tru: sat::Lit,
}

impl<'a> Frames<'a> {
    fn new(aig: &'a Aig, backend: Backend, budget: &Budget, from_init: bool) -> Frames<'a> {
        let mut solver = backend.create(budget.clone());
        let tru = solver.new_var();
        solver.add_clause(&[tru]);
        Frames {
            aig,
            solver,
            from_init,
            lits: Vec::new(),
            tru,
        }
    }

    fn lit(&self, l: Lit, k: usize) -> sat::Lit {
        self.lits[k][l.var().0 as usize].xor(l.is_negated())
    }

    fn push_frame(&mut self) {
        let k = self.lits.len();
        let mut frame: Vec<sat::Lit> = Vec::with_capacity(self.aig.num_nodes());
        for node in self.aig.nodes() {
            let l = match *node {
                Node::False => !self.tru,
                Node::Input(_) => self.solver.new_var(),
                Node::Latch(i) => {
                    let latch = self.aig.latches[i as usize];
                    if k > 0 {
                        self.lit(latch.next, k - 1)
                    } else {
                        let v = self.solver.new_var();
                        if let (true, Some(init)) = (self.from_init, latch.init) {
                            self.solver.add_clause(&[v.xor(!init)]);
                        }
                        v
                    }
                }
                Node::And(a, b) => {
                    let x = frame[a.var().0 as usize].xor(a.is_negated());
                    let y = frame[b.var().0 as usize].xor(b.is_negated());
                    let g = self.solver.new_var();
                    self.solver.add_clause(&[!g, x]);
                    self.solver.add_clause(&[!g, y]);
                    self.solver.add_clause(&[g, !x, !y]);
                    g
                }
            };
            frame.push(l);
        }
        self.lits.push(frame);
        for &c in &self.aig.constraints {
            let l = self.lit(c, k);
            self.solver.add_clause(&[l]);
        }
    }

    /// A literal equivalent to the disjunction of `bad` in frame k.
    fn any(&mut self, bad: &[Lit], k: usize) -> sat::Lit {
        let any = self.solver.new_var();
        let mut clause = vec![!any];
        for &b in bad {
            let l = self.lit(b, k);
            clause.push(l);
            self.solver.add_clause(&[any, !l]);
        }
        self.solver.add_clause(&clause);
        any
    }

    fn distinct(&mut self, latches: &[usize], i: usize, j: usize) {
        let mut differs = Vec::new();
        for &l in latches {
            let var = Lit::new(self.aig.latches[l].var, false);
            let (a, b) = (self.lit(var, i), self.lit(var, j));
            let d = self.solver.new_var();
            self.solver.add_clause(&[!d, a, b]);
            self.solver.add_clause(&[!d, !a, !b]);
            differs.push(d);
        }
        self.solver.add_clause(&differs);
    }
}

/// Latches that can influence `bad` or a constraint: a fixpoint of backward
/// sweeps over the topologically ordered nodes.
fn cone_latches(aig: &Aig, bad: &[Lit]) -> Vec<usize> {
    let mut needed = vec![false; aig.num_nodes()];
    for l in bad.iter().chain(&aig.constraints) {
        needed[l.var().0 as usize] = true;
    }
    loop {
        for v in (0..aig.num_nodes()).rev() {
            if let (true, Node::And(a, b)) = (needed[v], aig.nodes()[v]) {
                needed[a.var().0 as usize] = true;
                needed[b.var().0 as usize] = true;
            }
        }
        let mut grew = false;
        for latch in &aig.latches {
            let next = latch.next.var().0 as usize;
            if needed[latch.var.0 as usize] && !needed[next] {
                needed[next] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    (0..aig.latches.len())
        .filter(|&l| needed[aig.latches[l].var.0 as usize])
        .collect()
}
