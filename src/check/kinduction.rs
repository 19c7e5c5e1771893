//! Re-derives a k-induction proof on the full circuit (no cone of influence,
//! no lazy encoding) with a SAT backend chosen by the caller, normally not
//! the one the engine used.
//!
//! The proof is accepted when no bad state is reachable in fewer than k steps
//! and no k good steps can be followed by a bad one. Lemmas the engine's
//! preprocessing relied on (constant or equal latches) are first checked to
//! be inductive on their own, then assumed in every frame. With simple paths the
//! window's states must differ on some latch of the property's cone; the cone
//! is computed here by a fixpoint of its own.

use super::encode::Frames;
use super::invariant;
use crate::ir::aig::{Aig, Lit, Node};
use crate::sat::{Backend, SolveResult};
use crate::util::budget::Budget;

/// Checks that `bad` (a disjunction of the given literals) is k-inductive,
/// strengthened by the invariant `lemmas` (cubes to exclude, over latches).
pub fn check(
    aig: &Aig,
    bad: &[Lit],
    k: usize,
    simple_path: bool,
    lemmas: &[Vec<(usize, bool)>],
    backend: Backend,
    budget: &Budget,
) -> Result<(), String> {
    if k == 0 {
        return Err("a k-induction proof needs k >= 1".into());
    }
    invariant::check_inductive(aig, lemmas, backend, budget)
        .map_err(|e| format!("assumed lemmas: {e}"))?;
    // Base case: no counterexample of 1..=k steps.
    let mut base = Frames::new(aig, backend, budget, true);
    for depth in 0..k {
        base.push_frame(true);
        base.exclude(lemmas, depth);
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
        step.push_frame(true);
        step.exclude(lemmas, depth);
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
