//! The check of a word-level k-induction proof with a solver the engine did
//! not use: cvc5 when it is installed, else a fresh z3 process. It asks
//! again, from scratch, the queries the proof rests on: no bad state within
//! `k` steps of an initial state, and no bad state after `k + 1` good steps
//! with pairwise distinct states.

use crate::ir::ts::Ts;
use crate::smt::solver::{SatAnswer, Solver, SolverKind};
use crate::smt::unroll::Unroller;
use std::time::Instant;

/// Checks that the bad properties `watched` of `ts` are unreachable by a
/// k-induction proof of depth `k`; returns the solver that confirmed it.
pub fn check_kinduction(
    ts: &Ts,
    watched: &[usize],
    k: usize,
    deadline: Option<Instant>,
) -> Result<SolverKind, String> {
    let mut failures = Vec::new();
    for kind in [SolverKind::Cvc5, SolverKind::Z3] {
        match confirm(kind, ts, watched, k, deadline) {
            Ok(()) => return Ok(kind),
            Err(e) => failures.push(format!("{}: {e}", kind.name())),
        }
    }
    Err(failures.join("; "))
}

fn confirm(
    kind: SolverKind,
    ts: &Ts,
    watched: &[usize],
    k: usize,
    deadline: Option<Instant>,
) -> Result<(), String> {
    let u = Unroller::new(ts);
    // Step j's definitions refer to the states of step j + 1.
    let mut declarations: String = (0..=k + 2).map(|j| u.declare_states(j)).collect();
    for j in 0..=k + 1 {
        declarations += &u.define_step(j);
    }
    // Each step's formulas once; the queries below repeat them.
    let trans: Vec<String> = (0..=k)
        .map(|j| format!("(assert {})\n", u.trans(j)))
        .collect();
    let bad: Vec<String> = (0..=k + 1).map(|j| u.bad(watched, j)).collect();
    let init = u.init();
    let path = |to: usize| -> String { trans[..to].concat() };
    let mut solver = Solver::start(kind)?;
    solver.send(&declarations)?;
    let unsat = |solver: &mut Solver, query: String, what: &str| -> Result<(), String> {
        solver.send(&format!("(push 1)\n{query}"))?;
        let answer = solver.check(deadline)?;
        solver.send("(pop 1)\n")?;
        match answer {
            SatAnswer::Unsat => Ok(()),
            SatAnswer::Sat => Err(format!("{what} fails")),
            SatAnswer::Unknown => Err(format!("{what}: no answer")),
        }
    };
    // Base case: no bad state in steps 0..=k from an initial state.
    for (j, bad_j) in bad[..=k].iter().enumerate() {
        let query = format!(
            "(assert {init})\n{}(assert {})\n(assert {bad_j})\n",
            path(j),
            u.constraints(j),
        );
        unsat(&mut solver, query, &format!("base case at step {j}"))?;
    }
    // Step case: k + 1 good steps, pairwise distinct, then a bad one.
    let mut query = path(k + 1);
    for (j, bad_j) in bad[..=k].iter().enumerate() {
        query += &format!("(assert (not {bad_j}))\n");
        for i in j + 1..=k + 1 {
            query += &format!("(assert {})\n", u.differ(j, i));
        }
    }
    query += &format!(
        "(assert {})\n(assert {})\n",
        u.constraints(k + 1),
        bad[k + 1]
    );
    unsat(&mut solver, query, &format!("the {}-induction step", k + 1))
}
