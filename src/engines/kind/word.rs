//! Word-level BMC and k-induction on the [`SmtSolver`] trait (the in-house
//! solver by default, z3 or cvc5 on request): the engine for models the
//! bit-blaster cannot take (Int, Real) and the word-level side of
//! `crosscheck`. It is the parent module's k-induction ([`induction`]) over
//! the word level's [`Unrolling`]: a base-case solver unrolls from the
//! initial states and finds counterexamples; a step-case solver unrolls a
//! window of good, pairwise distinct states and proves the property when
//! no bad state can follow it.

use super::{induction, Case, Ended, Unrolling};
use crate::engines::Verdict;
use crate::ir::ts::{Ts, WordTrace};
use crate::smt::unfold::{has_arrays, not_unrollable, read_trace, Unfolding};
use crate::smt::{SmtResult, SmtSolver};
use crate::util::budget::Budget;

/// Statistics of a run.
#[derive(Clone, Debug, Default)]
pub struct SmtStats {
    /// The deepest step reached.
    pub depth: usize,
    /// Checks in both solvers.
    pub checks: u64,
}

/// The word level's unrolling: a base-case solver from the initial
/// states and a step-case solver over a window of good, pairwise distinct
/// states, both on copies of the system's terms per step.
struct WordUnrolling<'a> {
    u: Unfolding,
    watched: &'a [usize],
    base: Box<dyn SmtSolver>,
    step: Box<dyn SmtSolver>,
    /// Checks before the current depth's (what a run that ends at this
    /// depth without a proof reports).
    before_depth: u64,
}

impl WordUnrolling<'_> {
    /// Checks in both solvers.
    fn checks(&self) -> u64 {
        self.base.stats().checks + self.step.stats().checks
    }
}

/// A solver's answer as a case of k-induction (`Sat` fails it).
fn case(result: SmtResult) -> Case<()> {
    match result {
        SmtResult::Unsat => Case::Holds,
        SmtResult::Sat => Case::Fails(()),
        SmtResult::Unknown(why) => Case::GaveUp(why),
    }
}

impl Unrolling for WordUnrolling<'_> {
    type Trace = WordTrace;

    fn base(&mut self, k: usize) -> Result<Case<WordTrace>, String> {
        self.before_depth = self.checks();
        let u = &mut self.u;
        // A bad state in step k.
        let constraints = u.constraints(k);
        let bad = u.bad(self.watched, k);
        let target = u.terms_mut().and_all(&[constraints, bad]);
        match case(self.base.check(u.terms(), &[target])) {
            Case::Fails(()) => {
                let trace = read_trace(self.base.as_mut(), u, k + 1)?;
                return Ok(Case::Fails(trace));
            }
            Case::GaveUp(why) => return Ok(Case::GaveUp(why)),
            Case::Interrupted => return Ok(Case::Interrupted),
            Case::Holds => {}
        }
        // Both solvers take step k as good and the transition out of it.
        let good = u.terms_mut().not(bad);
        let trans = u.trans(k);
        for s in [&mut self.base, &mut self.step] {
            s.assert(u.terms(), good);
            s.assert(u.terms(), trans);
        }
        Ok(Case::Holds)
    }

    fn step(&mut self, k: usize) -> Result<Case<()>, String> {
        let u = &mut self.u;
        // k + 1 good steps, pairwise distinct, then a bad one.
        for j in 0..=k {
            let differ = u.differ(j, k + 1);
            self.step.assert(u.terms(), differ);
        }
        let constraints = u.constraints(k + 1);
        let bad = u.bad(self.watched, k + 1);
        let target = u.terms_mut().and_all(&[constraints, bad]);
        Ok(case(self.step.check(u.terms(), &[target])))
    }
}

/// Runs BMC and k-induction on the bad properties `watched` of `ts` with
/// two solvers from `solver` (one for the base case, one for the step),
/// reporting each depth to `progress`. A proof is `Safe(k)`: the property
/// is (k+1)-inductive.
pub fn check(
    ts: &Ts,
    watched: &[usize],
    solver: &mut dyn FnMut() -> Result<Box<dyn SmtSolver>, String>,
    budget: &Budget,
    max_depth: Option<usize>,
    progress: &mut dyn FnMut(&str),
) -> Result<(Verdict<usize, WordTrace>, SmtStats), String> {
    if let Some(reason) = not_unrollable(ts) {
        return Ok((Verdict::Unknown(reason), SmtStats::default()));
    }
    if super::super::sabotaged_unknown() {
        return Ok((Verdict::Unknown("sabotaged".into()), SmtStats::default()));
    }
    let base = solver()?;
    if has_arrays(ts) && !base.reads_arrays() {
        let why = format!(
            "{} is not asked for array values; the in-house solver (--smt invar) reads them",
            base.name()
        );
        return Ok((Verdict::Unknown(why), SmtStats::default()));
    }
    let mut u = WordUnrolling {
        u: Unfolding::new(ts),
        watched,
        base,
        step: solver()?,
        before_depth: 0,
    };
    let init = u.u.init();
    u.base.assert(u.u.terms(), init);
    let ended = induction(&mut u, max_depth, false, budget, progress)?;
    let timeout = || Verdict::Unknown("timeout".into());
    let (all, before) = (u.checks(), u.before_depth);
    let (verdict, depth, checks) = match ended {
        Ended::Proved(k) => (Verdict::Safe(k), k, all),
        Ended::Refuted(trace) => {
            let k = trace.len() - 1;
            (Verdict::Unsafe(trace), k, before)
        }
        Ended::Bound(k) => (
            Verdict::Unknown(format!("no verdict within depth {}", k - 1)),
            k,
            all,
        ),
        Ended::Interrupted(k) => (timeout(), k, all),
        Ended::GaveUp(_, k) if budget.expired() => (timeout(), k, before),
        Ended::GaveUp(why, k) => (Verdict::Unknown(format!("{why} at depth {k}")), k, before),
    };
    Ok((verdict, SmtStats { depth, checks }))
}
