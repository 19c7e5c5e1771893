//! Word-level BMC and k-induction with an SMT solver: the engine for models
//! the bit-blaster cannot take (Int, Real) and the word-level side of
//! `crosscheck`. The scheme is that of the bit-level k-induction
//! (`engines::kind`): a base-case solver unrolls from the initial states and
//! finds counterexamples; a step-case solver unrolls a window of good states
//! with pairwise distinct states and proves the property when no bad state
//! can follow it.

use super::solver::{SatAnswer, Solver, SolverKind};
use super::unroll::Unroller;
use crate::ir::term::eval::Value;
use crate::ir::ts::{Ts, WordTrace};
use crate::util::budget::Budget;

/// What the SMT engine concluded.
#[derive(Clone, Debug, PartialEq)]
pub enum WordVerdict {
    /// No bad state within `k` steps of an initial state, and `k + 1` good
    /// steps (pairwise distinct states) are never followed by a bad one.
    Safe {
        /// The depth of the proof.
        k: usize,
    },
    /// A counterexample (not yet replayed).
    Unsafe(WordTrace),
    /// No conclusion, with the reason.
    Unknown(String),
}

/// Statistics of a run.
#[derive(Clone, Debug, Default)]
pub struct SmtStats {
    /// The deepest step reached.
    pub depth: usize,
    /// `check-sat` calls in both solvers.
    pub checks: u64,
}

/// Runs BMC and k-induction on the bad properties `watched` of `ts`.
pub fn check(
    ts: &Ts,
    watched: &[usize],
    budget: &Budget,
    max_depth: Option<usize>,
    verbose: bool,
) -> Result<(WordVerdict, SmtStats), String> {
    if let Some(reason) = super::unroll::unsupported(ts) {
        return Ok((WordVerdict::Unknown(reason), SmtStats::default()));
    }
    let u = Unroller::new(ts);
    let mut base = Solver::start(SolverKind::Z3)?;
    let mut step = Solver::start(SolverKind::Z3)?;
    let mut stats = SmtStats::default();
    let states0 = u.declare_states(0);
    base.send(&states0)?;
    step.send(&states0)?;
    // Steps whose definitions each solver has (states of one more step).
    let (mut base_steps, mut step_steps) = (0, 0);
    for k in 0.. {
        stats.depth = k;
        stats.checks = base.checks + step.checks;
        if budget.expired() {
            return Ok((WordVerdict::Unknown("timeout".into()), stats));
        }
        if max_depth.is_some_and(|m| k > m) {
            let reason = format!("no verdict within depth {}", k - 1);
            return Ok((WordVerdict::Unknown(reason), stats));
        }
        define_steps(&mut base, &u, &mut base_steps, k)?;
        define_steps(&mut step, &u, &mut step_steps, k + 1)?;
        if k == 0 {
            base.send(&format!("(assert {})\n", u.init()))?;
        }
        // Base case: a bad state in step k.
        base.send(&format!(
            "(push 1)\n(assert {})\n(assert {})\n",
            u.constraints(k),
            u.bad(watched, k)
        ))?;
        match base.check(budget.deadline())? {
            SatAnswer::Sat => {
                let trace = read_trace(&mut base, ts, &u, k + 1)?;
                return Ok((WordVerdict::Unsafe(trace), stats));
            }
            SatAnswer::Unknown => return Ok((unknown(&base, budget, k), stats)),
            SatAnswer::Unsat => {}
        }
        // Both solvers take step k as good and the transition out of it.
        let good = format!(
            "(assert (not {}))\n(assert {})\n",
            u.bad(watched, k),
            u.trans(k)
        );
        base.send(&format!("(pop 1)\n{good}"))?;
        // Step case: k + 1 good steps, then a bad one.
        let mut window = good;
        for j in 0..=k {
            window += &format!("(assert {})\n", u.differ(j, k + 1));
        }
        step.send(&window)?;
        step.send(&format!(
            "(push 1)\n(assert {})\n(assert {})\n",
            u.constraints(k + 1),
            u.bad(watched, k + 1)
        ))?;
        match step.check(budget.deadline())? {
            SatAnswer::Unsat => {
                if verbose {
                    eprintln!("invar: smt: the property is {}-inductive", k + 1);
                }
                stats.checks = base.checks + step.checks;
                return Ok((WordVerdict::Safe { k }, stats));
            }
            SatAnswer::Sat => {}
            SatAnswer::Unknown => return Ok((unknown(&step, budget, k), stats)),
        }
        step.send("(pop 1)\n")?;
        if verbose {
            eprintln!(
                "invar: smt: depth {k}: no counterexample, not {}-inductive",
                k + 1
            );
        }
    }
    unreachable!("the loop returns")
}

/// Declares and defines steps up to `upto` in `solver`, which has `done`.
fn define_steps(
    solver: &mut Solver,
    u: &Unroller,
    done: &mut usize,
    upto: usize,
) -> Result<(), String> {
    while *done <= upto {
        solver.send(&(u.declare_states(*done + 1) + &u.define_step(*done)))?;
        *done += 1;
    }
    Ok(())
}

fn unknown(solver: &Solver, budget: &Budget, k: usize) -> WordVerdict {
    if budget.expired() {
        WordVerdict::Unknown("timeout".into())
    } else {
        let name = solver.kind().name();
        WordVerdict::Unknown(format!("{name} answered unknown at depth {k}"))
    }
}

/// The values of every state and input in steps `0..len` of the last model.
fn read_trace(solver: &mut Solver, ts: &Ts, u: &Unroller, len: usize) -> Result<WordTrace, String> {
    let (state_symbols, input_symbols) = u.trace_symbols(len);
    let states = solver.values(&state_symbols)?;
    let inputs = solver.values(&input_symbols)?;
    let per_step = |values: Vec<Value>, width: usize| -> Vec<Vec<Value>> {
        if width == 0 {
            return vec![Vec::new(); len];
        }
        values.chunks(width).map(<[Value]>::to_vec).collect()
    };
    Ok(WordTrace {
        states: per_step(states, ts.states.len()),
        inputs: per_step(inputs, ts.inputs.len()),
    })
}
