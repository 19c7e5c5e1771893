//! Incremental bounded model checking on one solver.
//!
//! Step k adds frame k to the unrolling, asserts the constraints of frame k
//! and asks for a bad state in frame k under an assumption. After an UNSAT
//! answer `¬bad_k` is added for good: a path bad at step k would have been a
//! shorter counterexample, so the clause removes nothing and helps later
//! steps. This is the incremental scheme of the DimSpec/IncPlan encoding
//! (Gocht & Balyo, "Accelerating SAT Based Planning with Incremental SAT
//! Solving", ICAPS 2017), with a single literal as goal.
//!
//! [`check`] asks for one depth at a time while each answer comes within a
//! conflict limit. When a depth's question runs out of it, the question is
//! widened by the next frame instead: a bad state at any depth of the window
//! that no answer has cleared yet, with the limit doubled. Near a bug the
//! depths just short of it are often the hardest to refute, and the widened
//! question lets the solver reach the bug without refuting them first
//! (`picorv32_mutCY_nomem-p4`: depth 12 is not refuted in 60 s; the window
//! 12..15 holds a bug found in 20 s). An UNSAT answer clears the whole
//! window; a SAT answer gives a counterexample ending at the first bad depth
//! of its model, which may be longer than the shortest one.

use super::{interrupted_reason, Limits, Outcome, Stats, Verdict};
use crate::ir::aig::{self, Aig};
use crate::ir::trace::Trace;
use crate::sat::tseitin::Unroller;
use crate::sat::{Lit, SolveResult, Solver};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// What one BMC step found.
pub enum Step {
    /// A counterexample of the step's length.
    Counterexample(Trace),
    /// No bad state at this depth.
    Clear,
    /// The budget, or the question's conflict limit, ran out.
    Interrupted,
}

/// An incremental BMC run that can be advanced step by step (k-induction
/// uses it as its base case).
pub struct Bmc<'a> {
    solver: Box<dyn Solver>,
    unroller: Unroller<'a>,
    /// Every depth below it is cleared: no bad state there.
    next_depth: usize,
    /// The deepest frame whose constraints are asserted, plus one.
    constrained: usize,
}

impl<'a> Bmc<'a> {
    /// A run over `aig` from its initial states.
    pub fn new(aig: &'a Aig, limits: &Limits) -> Bmc<'a> {
        let mut solver = limits.backend.create(limits.budget.clone());
        let unroller = Unroller::new(aig, solver.as_mut(), true);
        Bmc {
            solver,
            unroller,
            next_depth: 0,
            constrained: 0,
        }
    }

    /// The next depth [`Bmc::step`] will check.
    pub fn next_depth(&self) -> usize {
        self.next_depth
    }

    /// Checks for a counterexample of exactly `next_depth() + 1` steps.
    pub fn step(&mut self) -> Step {
        self.solve_window(self.next_depth, None)
    }

    /// Asserts the constraints of every frame up to `depth`.
    fn constrain(&mut self, depth: usize) {
        let solver = self.solver.as_mut();
        while self.constrained <= depth {
            for &c in &self.unroller.aig().constraints {
                let lit = self.unroller.encode(solver, c, self.constrained);
                solver.add_clause(&[lit]);
            }
            self.constrained += 1;
        }
    }

    /// Whether `lit` of frame `frame` holds in the last model.
    fn holds(&mut self, lit: aig::Lit, frame: usize) -> bool {
        let solver = self.solver.as_mut();
        let l = self.unroller.encode(solver, lit, frame);
        solver.value(l)
    }

    /// Asks for a bad state at some depth from `next_depth()` to `last`
    /// within `conflicts` conflicts ([`Step::Interrupted`] when they or the
    /// budget run out). An UNSAT answer clears every depth of the window.
    fn solve_window(&mut self, last: usize, conflicts: Option<u64>) -> Step {
        let first = self.next_depth;
        // Every question is about depth `first` or later, so the constraints
        // up to it hold for good; those of later frames only for the depths
        // they precede: a path bad at depth j need not extend to j + 1.
        self.constrain(first);
        let aig = self.unroller.aig();
        let solver = self.solver.as_mut();
        let goal = if last == first {
            self.unroller.encode(solver, aig.bad[0], first)
        } else {
            // The window through a fresh activation literal: its clause and
            // the disjuncts' definitions are dead once it clears or grows.
            let active = solver.new_var();
            let mut window = vec![!active];
            // `held` ⇒ the constraints of frames first+1..=j, a chain
            // through the window.
            let mut held: Option<Lit> = None;
            for j in first..=last {
                let bad = self.unroller.encode(solver, aig.bad[0], j);
                if j > first && !aig.constraints.is_empty() {
                    let now = solver.new_var();
                    for &c in &aig.constraints {
                        let c = self.unroller.encode(solver, c, j);
                        solver.add_clause(&[!now, c]);
                    }
                    if let Some(before) = held {
                        solver.add_clause(&[!now, before]);
                    }
                    held = Some(now);
                }
                // disjunct ⇒ bad at j ∧ the constraints of frames first+1..=j.
                let disjunct = solver.new_var();
                solver.add_clause(&[!disjunct, bad]);
                if let Some(h) = held {
                    solver.add_clause(&[!disjunct, h]);
                }
                window.push(disjunct);
            }
            solver.add_clause(&window);
            active
        };
        solver.set_conflict_limit(conflicts);
        let answer = solver.solve(&[goal]);
        solver.set_conflict_limit(None);
        match answer {
            SolveResult::Sat => {
                // The first depth whose path meets the constraints and ends
                // bad: the model has one, and no bad state before it.
                let mut hit = None;
                for j in first..=last {
                    if !(aig.constraints.iter()).all(|&c| self.holds(c, j)) {
                        break;
                    }
                    if self.holds(aig.bad[0], j) {
                        hit = Some(j);
                        break;
                    }
                }
                let hit =
                    hit.expect("a model of the window has a constrained path bad at one depth");
                let solver = self.solver.as_mut();
                Step::Counterexample(self.unroller.trace(solver, hit + 1))
            }
            SolveResult::Unsat => {
                // Every later question asserts the constraints up to its
                // first depth, beyond `last`: under them no depth of the
                // window is bad.
                self.constrain(last);
                let solver = self.solver.as_mut();
                for j in first..=last {
                    let bad = self.unroller.encode(solver, aig.bad[0], j);
                    solver.add_clause(&[!bad]);
                }
                self.next_depth = last + 1;
                Step::Clear
            }
            SolveResult::Interrupted => Step::Interrupted,
        }
    }

    /// The solver's counters.
    pub fn sat_stats(&self) -> &crate::sat::SatStats {
        self.solver.stats()
    }
}

/// The conflict limit of the first question; each one that runs out
/// doubles it. Depths answered within it are asked one at a time, as in plain
/// BMC. Measured on the 49 unsafe instances of `aig`, `aig-wide` and `btor2`,
/// BMC alone at 30 s, 2 jobs: no limit 27 solved, 1,000 conflicts 29, 5,000
/// conflicts 30 (which `picorv32` bugs fall under 30 s varies between the
/// two); none lost. The larger one keeps more counterexamples shortest.
pub const FIRST_CONFLICT_LIMIT: u64 = 5_000;

/// Runs BMC until a counterexample, the depth bound or the budget.
pub fn check(aig: &Aig, limits: &Limits) -> Outcome {
    check_with_first_limit(aig, limits, Some(FIRST_CONFLICT_LIMIT))
}

/// [`check_with_first_limit`], publishing in `cleared` how many depths are
/// cleared (every depth below it has no bad state) as they are: the base
/// case that proofs of k-induction's step cases (`kind::step_cases`) in the
/// same portfolio rely on.
pub fn check_publishing(
    aig: &Aig,
    limits: &Limits,
    first: Option<u64>,
    cleared: &AtomicUsize,
) -> Outcome {
    run(aig, limits, first, Some(cleared))
}

/// [`check`] with the first question's conflict limit given (`None`: every
/// depth asked alone, without limit, and the counterexample is a shortest
/// one).
pub fn check_with_first_limit(aig: &Aig, limits: &Limits, first: Option<u64>) -> Outcome {
    run(aig, limits, first, None)
}

fn run(aig: &Aig, limits: &Limits, first: Option<u64>, cleared: Option<&AtomicUsize>) -> Outcome {
    if let Some(outcome) = super::sabotaged_outcome(super::EngineId::Bmc, limits.backend) {
        return outcome;
    }
    let start = Instant::now();
    let mut bmc = Bmc::new(aig, limits);
    let mut conflicts = first;
    let mut last = 0;
    let verdict = loop {
        if limits.max_depth.is_some_and(|m| bmc.next_depth() > m) {
            break Verdict::Unknown(format!(
                "no counterexample up to depth {}",
                bmc.next_depth() - 1
            ));
        }
        last = last.max(bmc.next_depth());
        match bmc.solve_window(last, conflicts) {
            Step::Counterexample(trace) => break Verdict::Unsafe(trace),
            Step::Clear => {
                if let Some(cleared) = cleared {
                    cleared.store(bmc.next_depth(), Ordering::Release);
                }
            }
            Step::Interrupted if limits.budget.expired() || conflicts.is_none() => {
                break Verdict::Unknown(interrupted_reason(&limits.budget))
            }
            Step::Interrupted => {
                // Out of conflicts: widen the window, double the limit.
                if limits.max_depth.is_none_or(|m| last < m) {
                    last += 1;
                }
                conflicts = conflicts.map(|c| c.saturating_mul(2));
            }
        }
    };
    let outcome = Outcome {
        verdict,
        engine: super::EngineId::Bmc,
        backend: limits.backend,
        stats: Stats {
            depth: bmc.next_depth(),
            sat: bmc.sat_stats().clone(),
            time: start.elapsed(),
            ic3: None,
            abstraction: None,
            program: None,
        },
    };
    super::sabotage(aig, outcome)
}

/// BMC of several bad signals at once, as ABC's `bmc3 -a` does: at each
/// depth, one question for any signal of `bads` not reached yet; a model
/// reaches one or more of them, each handed to `reached` with the trace
/// (the model's first `depth + 1` steps), and the question is asked again
/// without them until no open signal is reachable at that depth. Before
/// each question `go_on` may end the run. Returns the number of depths
/// cleared for every signal still open.
pub fn each_bad(
    aig: &Aig,
    bads: &[aig::Lit],
    limits: &Limits,
    go_on: &dyn Fn() -> bool,
    reached: &mut dyn FnMut(usize, Trace),
) -> usize {
    let mut boxed = limits.backend.create(limits.budget.clone());
    let solver = boxed.as_mut();
    let mut unroller = Unroller::new(aig, solver, true);
    let mut open: Vec<usize> = (0..bads.len()).collect();
    let mut depth = 0;
    while !open.is_empty() && limits.max_depth.is_none_or(|m| depth <= m) {
        // A counterexample of any later length passes this frame too.
        for &c in &aig.constraints {
            let lit = unroller.encode(solver, c, depth);
            solver.add_clause(&[lit]);
        }
        while !open.is_empty() {
            if !go_on() {
                return depth;
            }
            let goals: Vec<Lit> = (open.iter())
                .map(|&q| unroller.encode(solver, bads[q], depth))
                .collect();
            // The question through a fresh activation literal, retired
            // after its answer.
            let active = solver.new_var();
            let mut any = vec![!active];
            any.extend(&goals);
            solver.add_clause(&any);
            let answer = solver.solve(&[active]);
            let found = match answer {
                SolveResult::Sat => {
                    let trace = unroller.trace(solver, depth + 1);
                    let hit: Vec<usize> = (open.iter().zip(&goals))
                        .filter(|&(_, &g)| solver.value(g))
                        .map(|(&q, _)| q)
                        .collect();
                    Some((trace, hit))
                }
                _ => None,
            };
            solver.add_clause(&[!active]);
            match (answer, found) {
                (SolveResult::Sat, Some((trace, hit))) => {
                    open.retain(|q| !hit.contains(q));
                    for q in hit {
                        reached(q, trace.clone());
                    }
                }
                (SolveResult::Unsat, _) => break,
                _ => return depth,
            }
        }
        depth += 1;
    }
    depth
}
