//! Word-level BMC and k-induction on the [`SmtSolver`] trait (the in-house
//! solver by default, z3 or cvc5 on request): the engine for models the
//! bit-blaster cannot take (Int, Real) and the word-level side of
//! `crosscheck`. The scheme is that of the bit-level k-induction
//! (the parent module): a base-case solver unrolls from the initial states and
//! finds counterexamples; a step-case solver unrolls a window of good states
//! with pairwise distinct states and proves the property when no bad state
//! can follow it.

use crate::ir::ts::{Ts, WordTrace};
use crate::smt::unfold::{read_trace, unsupported, Unfolding};
use crate::smt::{SmtResult, SmtSolver};
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
    /// Checks in both solvers.
    pub checks: u64,
}

/// Runs BMC and k-induction on the bad properties `watched` of `ts` with
/// two solvers from `solver` (one for the base case, one for the step),
/// reporting each depth to `progress`.
pub fn check(
    ts: &Ts,
    watched: &[usize],
    solver: &mut dyn FnMut() -> Result<Box<dyn SmtSolver>, String>,
    budget: &Budget,
    max_depth: Option<usize>,
    progress: &mut dyn FnMut(&str),
) -> Result<(WordVerdict, SmtStats), String> {
    if let Some(reason) = unsupported(ts) {
        return Ok((WordVerdict::Unknown(reason), SmtStats::default()));
    }
    if super::super::sabotaged_unknown() {
        return Ok((
            WordVerdict::Unknown("sabotaged".into()),
            SmtStats::default(),
        ));
    }
    let mut u = Unfolding::new(ts);
    let mut base = solver()?;
    let mut step = solver()?;
    let mut stats = SmtStats::default();
    let init = u.init();
    base.assert(u.terms(), init);
    for k in 0.. {
        stats.depth = k;
        stats.checks = base.stats().checks + step.stats().checks;
        if budget.expired() {
            return Ok((WordVerdict::Unknown("timeout".into()), stats));
        }
        if max_depth.is_some_and(|m| k > m) {
            let reason = format!("no verdict within depth {}", k - 1);
            return Ok((WordVerdict::Unknown(reason), stats));
        }
        // Base case: a bad state in step k.
        let constraints = u.constraints(k);
        let bad = u.bad(watched, k);
        let target = u.terms_mut().and_all(&[constraints, bad]);
        match base.check(u.terms(), &[target]) {
            SmtResult::Sat => {
                let trace = read_trace(base.as_mut(), &mut u, k + 1)?;
                return Ok((WordVerdict::Unsafe(trace), stats));
            }
            SmtResult::Unknown(why) => return Ok((unknown(why, budget, k), stats)),
            SmtResult::Unsat => {}
        }
        // Both solvers take step k as good and the transition out of it.
        let good = u.terms_mut().not(bad);
        let trans = u.trans(k);
        for s in [&mut base, &mut step] {
            s.assert(u.terms(), good);
            s.assert(u.terms(), trans);
        }
        // Step case: k + 1 good steps, pairwise distinct, then a bad one.
        for j in 0..=k {
            let differ = u.differ(j, k + 1);
            step.assert(u.terms(), differ);
        }
        let constraints = u.constraints(k + 1);
        let bad = u.bad(watched, k + 1);
        let target = u.terms_mut().and_all(&[constraints, bad]);
        match step.check(u.terms(), &[target]) {
            SmtResult::Unsat => {
                progress(&format!("the property is {}-inductive", k + 1));
                stats.checks = base.stats().checks + step.stats().checks;
                return Ok((WordVerdict::Safe { k }, stats));
            }
            SmtResult::Sat => {}
            SmtResult::Unknown(why) => return Ok((unknown(why, budget, k), stats)),
        }
        progress(&format!(
            "depth {k}: no counterexample, not {}-inductive",
            k + 1
        ));
    }
    unreachable!("the loop returns")
}

fn unknown(why: String, budget: &Budget, k: usize) -> WordVerdict {
    if budget.expired() {
        WordVerdict::Unknown("timeout".into())
    } else {
        WordVerdict::Unknown(format!("{why} at depth {k}"))
    }
}
