//! Checks an inductive invariant given as clauses over latches, on the full
//! circuit, with the checkers' own encoding and a caller-chosen SAT backend:
//!
//! - initiation: no initial state violates a clause (Init is a cube of reset
//!   values, so this is exact without a solver);
//! - consecution: Inv ∧ C ∧ T ∧ ¬Inv' is unsatisfiable;
//! - safety: Inv ∧ C ∧ bad is unsatisfiable.

use super::encode::Frames;
use crate::ir::aig::{Aig, Lit};
use crate::sat::{Backend, SolveResult};
use crate::util::budget::Budget;

/// Checks that the conjunction of `¬cube` for every cube (lists of latch
/// index and value) is an inductive invariant excluding every `bad` state.
pub fn check(
    aig: &Aig,
    bad: &[Lit],
    cubes: &[Vec<(usize, bool)>],
    backend: Backend,
    budget: &Budget,
) -> Result<(), String> {
    check_clauses(aig, Some(bad), cubes, backend, budget)
}

/// Checks initiation and consecution only (no property).
pub fn check_inductive(
    aig: &Aig,
    cubes: &[Vec<(usize, bool)>],
    backend: Backend,
    budget: &Budget,
) -> Result<(), String> {
    check_clauses(aig, None, cubes, backend, budget)
}

/// Which of `bad` an invariant already checked inductive (`check` or
/// `check_inductive` passed on it) excludes: for each, whether Inv ∧ C ∧
/// bad is unsatisfiable. One solver asks for any of those still in doubt
/// at once: a model settles every bad it satisfies as not excluded, and
/// unsatisfiability settles all the rest as excluded (so thousands of
/// excluded properties cost one query, not one each).
pub fn excluded(
    aig: &Aig,
    bad: &[Lit],
    cubes: &[Vec<(usize, bool)>],
    backend: Backend,
    budget: &Budget,
) -> Result<Vec<bool>, String> {
    if let Some(&(l, _)) = cubes
        .iter()
        .flatten()
        .find(|&&(l, _)| l >= aig.latches.len())
    {
        return Err(format!("a clause names latch {l}, which does not exist"));
    }
    let mut frames = Frames::new(aig, backend, budget, false);
    frames.push_frame(true);
    assert_in_frame_0(&mut frames, cubes);
    let mut out = vec![true; bad.len()];
    let mut doubt: Vec<usize> = (0..bad.len()).collect();
    while !doubt.is_empty() {
        let asked: Vec<Lit> = doubt.iter().map(|&i| bad[i]).collect();
        let any = frames.any(&asked, 0);
        match frames.solver.solve(&[any]) {
            SolveResult::Unsat => break,
            SolveResult::Sat => {
                let before = doubt.len();
                doubt.retain(|&i| {
                    let reached = frames.solver.value(frames.lit(bad[i], 0));
                    if reached {
                        out[i] = false;
                    }
                    !reached
                });
                if doubt.len() == before {
                    return Err("internal error: a model of some bad state satisfies none".into());
                }
            }
            SolveResult::Interrupted => return Err("invariant check ran out of time".into()),
        }
    }
    Ok(out)
}

/// Adds the clause `¬cube` over frame 0's latches for each cube.
fn assert_in_frame_0(frames: &mut Frames, cubes: &[Vec<(usize, bool)>]) {
    for cube in cubes {
        let clause: Vec<_> = cube
            .iter()
            .map(|&(l, v)| !frames.latch(l, 0).xor(!v))
            .collect();
        frames.solver.add_clause(&clause);
    }
}

fn check_clauses(
    aig: &Aig,
    bad: Option<&[Lit]>,
    cubes: &[Vec<(usize, bool)>],
    backend: Backend,
    budget: &Budget,
) -> Result<(), String> {
    for (n, cube) in cubes.iter().enumerate() {
        if let Some(&(l, _)) = cube.iter().find(|&&(l, _)| l >= aig.latches.len()) {
            return Err(format!("clause {n} names latch {l}, which does not exist"));
        }
        let meets_init = cube
            .iter()
            .all(|&(l, v)| aig.latches[l].init.is_none_or(|i| i == v));
        if meets_init {
            return Err(format!("clause {n} excludes an initial state"));
        }
    }
    let mut frames = Frames::new(aig, backend, budget, false);
    // Frame 1 is unconstrained: the invariant must hold in every successor,
    // whether or not the successor has a constraint-satisfying input.
    frames.push_frame(true);
    frames.push_frame(false);
    assert_in_frame_0(&mut frames, cubes);
    if let Some(bad) = bad {
        let b = frames.any(bad, 0);
        match frames.solver.solve(&[b]) {
            SolveResult::Unsat => {}
            SolveResult::Sat => return Err("a state of the invariant is bad".into()),
            SolveResult::Interrupted => return Err("invariant check ran out of time".into()),
        }
    }
    // Some clause fails in frame 1: one selector per cube, at least one on.
    let mut some_fails = Vec::with_capacity(cubes.len());
    for cube in cubes {
        let s = frames.solver.new_var();
        for &(l, v) in cube {
            let lit = frames.latch(l, 1).xor(!v);
            frames.solver.add_clause(&[!s, lit]);
        }
        some_fails.push(s);
    }
    frames.solver.add_clause(&some_fails);
    match frames.solver.solve(&[]) {
        SolveResult::Unsat => Ok(()),
        SolveResult::Sat => Err("the invariant is not inductive".into()),
        SolveResult::Interrupted => Err("invariant check ran out of time".into()),
    }
}
