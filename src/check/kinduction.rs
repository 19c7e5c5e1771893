//! Re-derives a k-induction proof on the full circuit (no cone of influence,
//! no lazy encoding) with a SAT backend chosen by the caller, normally not
//! the one the engine used.
//!
//! The proof is accepted when no bad state is reachable in fewer than k steps
//! and no k good steps can be followed by a bad one. Lemmas the engine's
//! preprocessing relied on (constant or equal latches) are first checked to
//! be inductive on their own, then assumed in every frame. With simple paths the
//! window's states must differ on some latch of the property's cone; the cone
//! is computed here by a fixpoint of its own, or given by the engine's
//! reduction (which may see through logic that a syntactic cone cannot, such
//! as gates merged by SAT sweeping). A given cone is first checked to be
//! closed: two states that agree on it (both satisfying the lemmas) agree on
//! the property, the constraints and its latches' next values, so that
//! distinctness on it is justified.

use super::encode::Frames;
use super::invariant;
use crate::ir::aig::{Aig, Lit, Node};
use crate::sat::{Backend, SolveResult};
use crate::util::budget::Budget;

/// Checks that `bad` (a disjunction of the given literals) is k-inductive,
/// strengthened by the invariant `lemmas` (cubes to exclude, over latches);
/// with `simple_path`, states on the path differ on `cone` if given (after
/// checking that it is closed), else on the property's syntactic cone.
#[allow(clippy::too_many_arguments)] // one verdict's proof, facts and cone
pub fn check(
    aig: &Aig,
    bad: &[Lit],
    k: usize,
    simple_path: bool,
    cone: Option<&[usize]>,
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
        let cone = match cone {
            Some(given) => {
                check_closed(aig, bad, given, lemmas, backend, budget)?;
                given.to_vec()
            }
            None => cone_latches(aig, bad),
        };
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

/// Checks that `cone` determines `bad`, the constraints and the next values
/// of its own latches, for states satisfying `lemmas`: two copies of one
/// step that share the inputs and the cone's latches cannot differ on them.
fn check_closed(
    aig: &Aig,
    bad: &[Lit],
    cone: &[usize],
    lemmas: &[Vec<(usize, bool)>],
    backend: Backend,
    budget: &Budget,
) -> Result<(), String> {
    let mut solver = backend.create(budget.clone());
    let tru = solver.new_var();
    solver.add_clause(&[tru]);
    let inputs: Vec<_> = aig.inputs.iter().map(|_| solver.new_var()).collect();
    let mut shared = vec![None; aig.latches.len()];
    for &l in cone {
        shared[l] = Some(solver.new_var());
    }
    let mut copies = Vec::new();
    for _ in 0..2 {
        let mut lits: Vec<crate::sat::Lit> = Vec::with_capacity(aig.num_nodes());
        for node in aig.nodes() {
            let l = match *node {
                Node::False => !tru,
                Node::Input(i) => inputs[i as usize],
                Node::Latch(i) => shared[i as usize].unwrap_or_else(|| solver.new_var()),
                Node::And(a, b) => {
                    let x = lits[a.var().0 as usize].xor(a.is_negated());
                    let y = lits[b.var().0 as usize].xor(b.is_negated());
                    let g = solver.new_var();
                    solver.add_clause(&[!g, x]);
                    solver.add_clause(&[!g, y]);
                    solver.add_clause(&[g, !x, !y]);
                    g
                }
            };
            lits.push(l);
        }
        let lit = |l: Lit| lits[l.var().0 as usize].xor(l.is_negated());
        for cube in lemmas {
            let clause: Vec<_> = (cube.iter())
                .map(|&(l, v)| !lit(Lit::new(aig.latches[l].var, false)).xor(!v))
                .collect();
            solver.add_clause(&clause);
        }
        copies.push(lits);
    }
    let watched: Vec<Lit> = (bad.iter().copied())
        .chain(aig.constraints.iter().copied())
        .chain(cone.iter().map(|&l| aig.latches[l].next))
        .collect();
    let mut differs = Vec::new();
    for l in watched {
        let a = copies[0][l.var().0 as usize];
        let b = copies[1][l.var().0 as usize];
        let d = solver.new_var();
        solver.add_clause(&[!d, a, b]);
        solver.add_clause(&[!d, !a, !b]);
        differs.push(d);
    }
    solver.add_clause(&differs);
    match solver.solve(&[]) {
        SolveResult::Unsat => Ok(()),
        SolveResult::Sat => Err("the simple-path cone does not determine the property".into()),
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
