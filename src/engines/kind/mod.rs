//! k-induction with an incremental base case and an incremental step case.
//!
//! Iteration k first asks the base case (BMC) for a counterexample of k+1
//! steps, then asks the step case whether k+1 consecutive good steps can be
//! followed by a bad one:
//!
//! ```text
//! C(s0) ∧ ¬bad(s0) ∧ T(s0,s1) ∧ … ∧ C(sk) ∧ ¬bad(sk) ∧ T(sk,sk+1) ∧ C(sk+1) ∧ bad(sk+1)
//! ```
//!
//! with no initial-state constraint. UNSAT proves the property (k+1-inductive).
//! With `simple_path`, the states of the window must be pairwise distinct,
//! which makes the method complete for finite systems: a shortest
//! counterexample visits distinct states, and its last k+2 states satisfy the
//! window. Constraints hold in every frame because every counterexample keeps
//! them in every step. Sheeran, Singh, Stålmarck, "Checking safety properties
//! using induction and a SAT-solver", FMCAD 2000.
//!
//! One loop ([`induction`]) serves every representation through the
//! [`Unrolling`] trait: the bit level's circuit ([`BitUnrolling`]: BMC as
//! the base case, [`StepCase`] as the step) and the word level's terms
//! ([`word`]). The step cases of `auto`, which share BMC's base case with
//! another member of the portfolio, are [`step_cases`].

pub mod word;

use super::bmc::{Bmc, Step};
use super::{interrupted_reason, Limits, Outcome, Proof, Stats, Verdict};
use crate::ir::aig::Aig;
use crate::sat::tseitin::Unroller;
use crate::sat::{Lit, SolveResult, Solver};
use crate::util::budget::Budget;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Options of k-induction.
#[derive(Clone, Debug, Default)]
pub struct KindOptions {
    /// Shared limits; `max_depth` bounds k.
    pub limits: Limits,
    /// Require pairwise distinct states in the step case.
    pub simple_path: bool,
    /// Ask the step case only at the depths of [`sparse_step_depth`]
    /// (the base case still runs at every depth): bug finding then costs
    /// little more than BMC's, and a proof comes at most a factor √2 deeper.
    pub sparse_steps: bool,
}

/// Whether the sparse schedule asks the step case at `k`: every k below 8,
/// then k = ⌊8·√2^i⌋ (8, 11, 16, 22, 32, 45, 64, …). Skipping depths is
/// sound and loses no proof: a window of k+1 good states followed by a bad
/// one ends with a window of every smaller size, so a step case that is
/// UNSAT at k is UNSAT at every larger k (simple paths too: a suffix of a
/// simple path is simple).
pub fn sparse_step_depth(k: usize) -> bool {
    if k < 8 {
        return true;
    }
    let mut d = 8.0f64;
    while (d as usize) < k {
        d *= std::f64::consts::SQRT_2;
    }
    d as usize == k
}

/// The step case: a window of frames with no initial states.
pub struct StepCase<'a> {
    solver: Box<dyn Solver>,
    unroller: Unroller<'a>,
    simple_path: bool,
    /// Frames of the window so far (frame indices 0..frames).
    frames: usize,
}

impl<'a> StepCase<'a> {
    /// An empty window over `aig`.
    pub fn new(aig: &'a Aig, limits: &Limits, simple_path: bool) -> StepCase<'a> {
        let mut solver = limits.backend.create(limits.budget.clone());
        let unroller = Unroller::new(aig, solver.as_mut(), false);
        StepCase {
            solver,
            unroller,
            simple_path,
            frames: 0,
        }
    }

    fn add_frame(&mut self) {
        let k = self.frames;
        let aig = self.unroller.aig();
        let solver = self.solver.as_mut();
        for &c in &aig.constraints {
            let lit = self.unroller.encode(solver, c, k);
            solver.add_clause(&[lit]);
        }
        if self.simple_path {
            for earlier in 0..k {
                self.distinct(earlier, k);
            }
        }
        self.frames += 1;
    }

    /// Requires the states of frames `i` and `j` to differ in some latch.
    fn distinct(&mut self, i: usize, j: usize) {
        let solver = self.solver.as_mut();
        let mut some_differs = Vec::new();
        for l in 0..self.unroller.aig().latches.len() {
            let a = self.unroller.latch_lit(solver, l, i);
            let b = self.unroller.latch_lit(solver, l, j);
            if a == b {
                continue;
            }
            if a == !b {
                return;
            }
            let d = solver.new_var();
            solver.add_clause(&[!d, a, b]);
            solver.add_clause(&[!d, !a, !b]);
            some_differs.push(d);
        }
        solver.add_clause(&some_differs);
    }

    /// Whether bad can follow `k + 1` good steps; `Unsat` proves (k+1)-induction.
    pub fn check(&mut self, k: usize) -> SolveResult {
        while self.frames < k + 2 {
            if self.frames > 0 {
                // The frame before the new last one is now inside the window.
                let aig = self.unroller.aig();
                let good = self
                    .unroller
                    .encode(self.solver.as_mut(), aig.bad[0], self.frames - 1);
                self.solver.add_clause(&[!good]);
            }
            self.add_frame();
        }
        let aig = self.unroller.aig();
        let bad: Lit = self
            .unroller
            .encode(self.solver.as_mut(), aig.bad[0], k + 1);
        self.solver.solve(&[bad])
    }

    /// The solver's counters.
    pub fn sat_stats(&self) -> &crate::sat::SatStats {
        self.solver.stats()
    }
}

/// What one query of an [`Unrolling`] answered.
pub enum Case<T> {
    /// The case holds (the query is unsatisfiable).
    Holds,
    /// It fails, with what shows it (a base case: the counterexample).
    Fails(T),
    /// The budget ran out.
    Interrupted,
    /// The solver gave up for another reason.
    GaveUp(String),
}

/// The two cases of k-induction over one representation of the system:
/// the bit level's unrolled circuit ([`BitUnrolling`]), the word level's
/// unrolled terms (`word::WordUnrolling`). [`induction`] runs them.
pub trait Unrolling {
    /// A counterexample.
    type Trace;
    /// The base case at depth `k` (every shallower depth cleared): no bad
    /// state `k` steps from an initial state.
    fn base(&mut self, k: usize) -> Result<Case<Self::Trace>, String>;
    /// The step case at depth `k`: no bad state after `k + 1` good steps
    /// (pairwise distinct where the unrolling asks it). Asked only after
    /// the base case at `k` cleared.
    fn step(&mut self, k: usize) -> Result<Case<()>, String>;
}

/// How [`induction`] ended, and at which depth.
pub enum Ended<T> {
    /// The step case held at `k`: the property is (k+1)-inductive.
    Proved(usize),
    /// The base case failed: a counterexample.
    Refuted(T),
    /// `k` passed the depth bound.
    Bound(usize),
    /// The budget ran out at `k`.
    Interrupted(usize),
    /// A solver gave up at `k`, and why.
    GaveUp(String, usize),
}

/// k-induction over `u`: the base case at each depth, then (at every depth,
/// or at the sparse ones of [`sparse_step_depth`]) the step case, until a
/// proof, a counterexample, `max_depth` or the budget; each depth's
/// outcome goes to `progress`.
pub fn induction<U: Unrolling>(
    u: &mut U,
    max_depth: Option<usize>,
    sparse: bool,
    budget: &Budget,
    progress: &mut dyn FnMut(&str),
) -> Result<Ended<U::Trace>, String> {
    for k in 0.. {
        if budget.expired() {
            return Ok(Ended::Interrupted(k));
        }
        if max_depth.is_some_and(|m| k > m) {
            return Ok(Ended::Bound(k));
        }
        match u.base(k)? {
            Case::Holds => {}
            Case::Fails(trace) => return Ok(Ended::Refuted(trace)),
            Case::Interrupted => return Ok(Ended::Interrupted(k)),
            Case::GaveUp(why) => return Ok(Ended::GaveUp(why, k)),
        }
        if sparse && !sparse_step_depth(k) {
            continue;
        }
        match u.step(k)? {
            Case::Holds => {
                progress(&format!("the property is {}-inductive", k + 1));
                return Ok(Ended::Proved(k));
            }
            Case::Fails(()) => progress(&format!(
                "depth {k}: no counterexample, not {}-inductive",
                k + 1
            )),
            Case::Interrupted => return Ok(Ended::Interrupted(k)),
            Case::GaveUp(why) => return Ok(Ended::GaveUp(why, k)),
        }
    }
    unreachable!("the loop returns")
}

/// The bit level's unrolling: BMC as the base case, [`StepCase`] as the step.
pub struct BitUnrolling<'a> {
    base: Bmc<'a>,
    step: StepCase<'a>,
}

impl Unrolling for BitUnrolling<'_> {
    type Trace = crate::ir::trace::Trace;

    fn base(&mut self, _k: usize) -> Result<Case<Self::Trace>, String> {
        Ok(match self.base.step() {
            Step::Counterexample(trace) => Case::Fails(trace),
            Step::Interrupted => Case::Interrupted,
            Step::Clear => Case::Holds,
        })
    }

    fn step(&mut self, k: usize) -> Result<Case<()>, String> {
        Ok(match self.step.check(k) {
            SolveResult::Unsat => Case::Holds,
            SolveResult::Interrupted => Case::Interrupted,
            SolveResult::Sat => Case::Fails(()),
        })
    }
}

/// Runs k-induction until a proof, a counterexample, the bound or the budget.
pub fn check(aig: &Aig, options: &KindOptions) -> Outcome {
    if let Some(outcome) = super::sabotaged_outcome(super::EngineId::Kind, options.limits.backend) {
        return outcome;
    }
    let start = Instant::now();
    let limits = &options.limits;
    let mut u = BitUnrolling {
        base: Bmc::new(aig, limits),
        step: StepCase::new(aig, limits, options.simple_path),
    };
    let ended = induction(
        &mut u,
        limits.max_depth,
        options.sparse_steps,
        &limits.budget,
        &mut |_| {},
    );
    let verdict = match ended {
        Err(why) => Verdict::Unknown(why),
        Ok(Ended::Proved(k)) => Verdict::Safe(Proof::KInduction {
            k: k + 1,
            simple_path: options.simple_path,
        }),
        Ok(Ended::Refuted(trace)) => Verdict::Unsafe(trace),
        Ok(Ended::Bound(k)) => Verdict::Unknown(format!("not proved up to k = {k}")),
        Ok(Ended::Interrupted(_) | Ended::GaveUp(..)) => {
            Verdict::Unknown(interrupted_reason(&limits.budget))
        }
    };
    let (base, step) = (&u.base, &u.step);
    let mut sat = base.sat_stats().clone();
    sat += step.sat_stats();
    let outcome = Outcome {
        verdict,
        engine: super::EngineId::Kind,
        backend: limits.backend,
        stats: Stats {
            depth: base.next_depth(),
            sat,
            time: start.elapsed(),
            ic3: None,
            abstraction: None,
            program: None,
        },
    };
    super::sabotage(aig, outcome)
}

/// The base case of k-induction as another engine of the same portfolio
/// runs it: a BMC run publishing how many depths it has cleared
/// ([`super::bmc::check_publishing`]).
#[derive(Debug, Default)]
pub struct SharedBase {
    /// Every depth below it has no bad state.
    pub cleared: AtomicUsize,
    /// The BMC run has ended (it clears no more depths).
    ended: AtomicBool,
}

/// Marks a [`SharedBase`] ended when dropped, however its BMC run ends.
pub struct BaseRun<'a>(&'a SharedBase);

impl SharedBase {
    /// To be held by the BMC run for as long as it runs.
    pub fn run(&self) -> BaseRun<'_> {
        BaseRun(self)
    }
}

impl Drop for BaseRun<'_> {
    fn drop(&mut self) {
        self.0.ended.store(true, Ordering::Release);
    }
}

/// k-induction whose base case another engine runs: only step cases here
/// (at sparse depths with `sparse_steps`). BMC and the step case then share
/// no solver, so a portfolio can give each its own turns, and the step
/// cases take nothing from BMC's bug finding. A step case is asked only once
/// the base case has cleared the depth the previous one needed, its turns
/// handed on meanwhile. When a step case is UNSAT at
/// k, `proved` is called (the caller gives up its share of the core) and
/// the proof waits, polling under `wait` (a budget that does not take
/// turns), until `base` has cleared k depths; it fails if the base case
/// ends first.
pub fn step_cases(
    aig: &Aig,
    options: &KindOptions,
    base: &SharedBase,
    wait: &Budget,
    proved: impl FnOnce(),
) -> Outcome {
    if let Some(outcome) = super::sabotaged_outcome(super::EngineId::Kind, options.limits.backend) {
        return outcome;
    }
    let start = Instant::now();
    let limits = &options.limits;
    let mut step = StepCase::new(aig, limits, options.simple_path);
    let mut k = 0;
    // The depth the base case must clear before the next step case is worth
    // asking: the one the last step case asked would have needed.
    let mut needed = 0;
    let verdict = loop {
        if limits.max_depth.is_some_and(|m| k > m) {
            break Verdict::Unknown(format!("not proved up to k = {}", k));
        }
        if options.sparse_steps && !sparse_step_depth(k) {
            k += 1;
            continue;
        }
        // A step case proves only once the base case has cleared its depth,
        // so running ahead of the base case proves nothing sooner; it only
        // grows the unrolling (k = 2,048 on a 2,400-gate circuit whose base
        // case was at 15, its encoding holding the shared core for seconds).
        // Meanwhile the step cases' turns go to the other members.
        match wait_for_base(needed, base, &limits.budget) {
            Ok(()) => {}
            Err(BaseShort::Ended) => {
                break Verdict::Unknown(format!("the base case ended before depth {needed}"))
            }
            Err(BaseShort::Spent) => break Verdict::Unknown(interrupted_reason(&limits.budget)),
        }
        match step.check(k) {
            SolveResult::Unsat => break await_base(k + 1, options.simple_path, base, wait, proved),
            SolveResult::Interrupted => break Verdict::Unknown(interrupted_reason(&limits.budget)),
            SolveResult::Sat => {
                needed = k + 1;
                k += 1;
            }
        }
    };
    let outcome = Outcome {
        verdict,
        engine: super::EngineId::Kind,
        backend: limits.backend,
        stats: Stats {
            depth: k,
            sat: step.sat_stats().clone(),
            time: start.elapsed(),
            ic3: None,
            abstraction: None,
            program: None,
        },
    };
    super::sabotage(aig, outcome)
}

/// Why [`wait_for_base`] returned before the base case reached its depth.
enum BaseShort {
    /// The base case ended first.
    Ended,
    /// The budget is spent.
    Spent,
}

/// Returns once `base` has cleared `depth` depths. Meanwhile a `budget` that
/// takes turns hands them on: its holder has nothing to do until then.
fn wait_for_base(depth: usize, base: &SharedBase, budget: &Budget) -> Result<(), BaseShort> {
    loop {
        // Read `ended` first: a run that ended has published its last depth.
        let ended = base.ended.load(Ordering::Acquire);
        if base.cleared.load(Ordering::Acquire) >= depth {
            return Ok(());
        }
        if ended {
            return Err(BaseShort::Ended);
        }
        budget.pass_turn();
        if budget.expired() {
            return Err(BaseShort::Spent);
        }
        // Without turns, or alone on the core, this loop polls.
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The proof of a step case UNSAT at depth `k` (k good steps cannot be
/// followed by a bad one), once the base case has cleared k depths.
fn await_base(
    k: usize,
    simple_path: bool,
    base: &SharedBase,
    wait: &Budget,
    proved: impl FnOnce(),
) -> Verdict {
    proved();
    match wait_for_base(k, base, wait) {
        Ok(()) => Verdict::Safe(Proof::KInduction { k, simple_path }),
        Err(BaseShort::Ended) => Verdict::Unknown(format!(
            "{k}-inductive, but the base case ended before depth {k}"
        )),
        Err(BaseShort::Spent) => Verdict::Unknown(interrupted_reason(wait)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::bmc;
    use crate::sat::Backend;

    /// Three latches in a row, the first fed 0, all reset to 0, bad when the
    /// last is 1: 3-inductive and not 2-inductive (a state with the first
    /// latch 1 is two good steps from bad).
    fn shift_register() -> Aig {
        crate::formats::aiger::read_bytes("shift.aag", b"aag 3 0 3 0 0 1\n2 0\n4 2\n6 4\n6\n")
            .unwrap()
            .to_aig()
    }

    fn options() -> KindOptions {
        KindOptions {
            limits: Limits {
                max_depth: Some(20),
                budget: Budget::with_timeout(Duration::from_secs(60)),
                backend: Backend::Cadical,
            },
            simple_path: false,
            sparse_steps: true,
        }
    }

    #[test]
    fn step_cases_prove_once_bmc_has_cleared_the_base_case() {
        let aig = shift_register();
        let options = options();
        let base = SharedBase::default();
        let mut calls = 0;
        let outcome = std::thread::scope(|scope| {
            scope.spawn(|| {
                // A slow start, so that the step case waits for the depths.
                std::thread::sleep(Duration::from_millis(50));
                let _run = base.run();
                let limits = Limits {
                    max_depth: Some(4),
                    ..options.limits.clone()
                };
                bmc::check_publishing(
                    &aig,
                    &limits,
                    Some(bmc::FIRST_CONFLICT_LIMIT),
                    &base.cleared,
                )
            });
            step_cases(&aig, &options, &base, &options.limits.budget, || calls += 1)
        });
        assert_eq!(calls, 1);
        assert!(base.cleared.load(Ordering::Acquire) >= 3);
        match outcome.verdict {
            Verdict::Safe(Proof::KInduction { k, simple_path }) => {
                assert_eq!((k, simple_path), (3, false))
            }
            other => panic!("expected a 3-induction proof, got {other:?}"),
        }
    }

    /// With the base case running but stuck at depth 0, the step cases ask
    /// depth 0 only: the next one would need the base case at depth 1 first
    /// (without the wait they reach the 3-induction proof at k = 2).
    #[test]
    fn step_cases_stay_behind_the_base_case() {
        let aig = shift_register();
        let mut options = options();
        options.limits.budget = Budget::with_timeout(Duration::from_millis(300));
        let base = SharedBase::default();
        let _running = base.run();
        let mut calls = 0;
        let outcome = step_cases(&aig, &options, &base, &options.limits.budget, || calls += 1);
        assert_eq!(calls, 0, "a step case was proved without the base case");
        assert_eq!(outcome.stats.depth, 1, "{:?}", outcome.verdict);
        assert!(matches!(outcome.verdict, Verdict::Unknown(_)));
    }

    #[test]
    fn step_cases_withhold_the_proof_when_the_base_case_ends_short() {
        let aig = shift_register();
        let options = options();
        let base = SharedBase::default();
        base.cleared.store(2, Ordering::Release);
        drop(base.run());
        let outcome = step_cases(&aig, &options, &base, &options.limits.budget, || {});
        match outcome.verdict {
            Verdict::Unknown(reason) => assert!(reason.contains("base case ended"), "{reason}"),
            other => panic!("expected unknown, got {other:?}"),
        }
    }

    #[test]
    fn the_sparse_schedule_grows_by_root_two() {
        let depths: Vec<usize> = (0..200).filter(|&k| sparse_step_depth(k)).collect();
        assert_eq!(
            depths,
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 16, 22, 32, 45, 64, 90, 128, 181]
        );
    }
}
