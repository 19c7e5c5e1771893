//! The three strategies of `auto`, driven by [`Tuning`]:
//!
//! - `circuit_portfolio`: on circuits, IC3 on one core; the other core
//!   shared in turns by BMC, a second IC3, the step cases of k-induction
//!   and signal correspondence. The first answer wins.
//! - `word_portfolio`: on word-level models the bit-blaster cannot take,
//!   IC3+IA beside word-level BMC and k-induction.
//! - `program_phases`: on C programs, explicit execution, IC3CFA, tests
//!   and the integer relaxation, each in a slice of the time left, before
//!   the word-level pipeline takes the program's encoding.
//!
//! The measurements behind each choice are in `docs/decisions/`.

use super::tuning::{SecondIc3, Tuning};
use super::{program_engines, word_engines, Answer, Evidence, Log, Request, Run};
use crate::engines::explicit::ExplicitOptions;
use crate::engines::ic3::{self, Ic3Options};
use crate::engines::kind::{self, KindOptions};
use crate::engines::portfolio::{self, EngineFn};
use crate::engines::{bmc, scorr, Limits, Outcome};
use crate::ir::aig::Aig;
use crate::ir::ts::Ts;
use crate::util::budget::{Budget, Turns};
use std::time::{Duration, Instant};

/// How long each engine sharing the second core (BMC, IC3 without CTGs, the
/// step cases of k-induction) runs before passing the core on (`auto` on
/// circuits).
const SHARED_CORE_SLICE: Duration = Duration::from_millis(500);

/// `auto` on a prepared circuit. `circuit_proofs`: whether the members
/// whose proofs are circuits, not invariants over the latches, run
/// (k-induction's step cases, signal correspondence).
pub(super) fn circuit_portfolio(
    aig: &Aig,
    limits: &Limits,
    ic3_options: Ic3Options,
    tuning: &Tuning,
    circuit_proofs: bool,
) -> Outcome {
    if !tuning.auto.turns {
        // Ablation: BMC and IC3 race alone.
        let engines: Vec<EngineFn> = vec![
            Box::new(|aig| bmc::check_with_first_limit(aig, limits, tuning.bmc_first_conflicts)),
            Box::new(move |aig| ic3::check(aig, &ic3_options)),
        ];
        return portfolio::run(aig, &limits.budget, engines);
    }
    // One core for IC3 as configured (CTGs: the stronger prover); the
    // other shared, in turns, by BMC, a second IC3 (below), and the step
    // cases of k-induction at sparse depths, whose base case is BMC's:
    // k-induction proves circuits whose invariant IC3 does not find
    // (dspfilters from SymbiYosys, HWMCC'19's k-induction wins).
    let with_kind = circuit_proofs && tuning.auto.kind;
    // Signal correspondence: a search that ends, in seconds on most HWMCC
    // circuits (up to ~13 s on the largest industrial ones; multipliers
    // such as mul3 excepted), and proves only when it ends. So it takes its
    // share of the shared core up front: its first turn lasts its share of
    // the run (a quarter with four members, 15 s at 60 s), then it takes
    // turns like the others if it has not ended. A slice at a time,
    // cal226's proof (10 s alone) came after 60 s. On circuits with
    // invariant constraints it proves nothing `auto` misses and takes
    // 10-30 s on picorv32, whose bugs BMC finds on this core, so it runs
    // only without them.
    let with_scorr = circuit_proofs && aig.constraints.is_empty() && tuning.auto.scorr;
    let front_loaded = with_scorr && tuning.auto.scorr_front_loaded;
    // Member 0 begins: signal correspondence when it goes first.
    let first = usize::from(front_loaded);
    let members = 2 + usize::from(with_kind) + usize::from(with_scorr);
    let first_turn = match limits.budget.deadline() {
        _ if !front_loaded => SHARED_CORE_SLICE,
        Some(d) => d.saturating_duration_since(Instant::now()) / members as u32,
        // Without a deadline, what it would have at 60 s.
        None => Duration::from_secs(60) / members as u32,
    };
    let turns = Turns::with_first_turn(members, SHARED_CORE_SLICE, first_turn);
    let bmc_limits = Limits {
        budget: limits.budget.taking_turn(&turns, first),
        ..limits.clone()
    };
    let step_options = KindOptions {
        limits: Limits {
            budget: limits.budget.taking_turn(&turns, first + 2),
            ..limits.clone()
        },
        simple_path: false,
        sparse_steps: true,
    };
    // The second IC3 keeps CTGs and blocks counterexamples to propagation
    // of lemmas that failed to push in an earlier round (`Ctp::Stuck`):
    // that proves the zipcpu busdelay circuits the first leaves open, and
    // would cost the first the qspiflash circuits whose frames the extra
    // lemmas keep from converging.
    let mut second = ic3_options.clone();
    match tuning.auto.second_ic3 {
        SecondIc3::Down => second.generalization = ic3::Generalization::Down,
        SecondIc3::CtpStuck => second.ctp = ic3::Ctp::Stuck,
    }
    second.limits.budget = limits.budget.taking_turn(&turns, first + 1);
    let base = &kind::SharedBase::default();
    let turns = &turns;
    let first_conflicts = tuning.bmc_first_conflicts;
    let mut engines: Vec<EngineFn> = vec![
        Box::new(move |aig| ic3::check(aig, &ic3_options)),
        Box::new(move |aig| {
            let _seat = turns.seat(first);
            let _run = base.run();
            bmc::check_publishing(aig, &bmc_limits, first_conflicts, &base.cleared)
        }),
        Box::new(move |aig| {
            let _seat = turns.seat(first + 1);
            ic3::check(aig, &second)
        }),
    ];
    if with_kind {
        engines.push(Box::new(move |aig| {
            let seat = turns.seat(first + 2);
            kind::step_cases(aig, &step_options, base, &limits.budget, || drop(seat))
        }));
    }
    if with_scorr {
        let me = if front_loaded { 0 } else { members - 1 };
        let scorr_limits = Limits {
            budget: limits.budget.taking_turn(turns, me),
            ..limits.clone()
        };
        // Its unknown ends this member only: the portfolio waits for the
        // others.
        engines.push(Box::new(move |aig| {
            let _seat = turns.seat(me);
            scorr::check(aig, &scorr_limits)
        }));
    }
    portfolio::run(aig, &limits.budget, engines)
}

/// IC3+IA and the word-level BMC/k-induction in parallel on the SMT layer
/// (two cores, two engines): the first checked verdict wins and stops the
/// other. IC3+IA proves loops whose invariants are not k-inductive; BMC
/// finds counterexamples that IC3+IA's refinement cannot reach.
pub(super) fn word_portfolio(ts: &Ts, request: &Request, log: Log) -> Result<Run, String> {
    enum Message {
        Line(String),
        Done(Box<Result<Run, String>>),
    }
    let budgets = [request.budget.child(), request.budget.child()];
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for (i, budget) in budgets.iter().enumerate() {
            let tx = tx.clone();
            let request = Request {
                budget: budget.clone(),
                ..request.clone()
            };
            scope.spawn(move || {
                let mut line = |l: &str| {
                    let _ = tx.send(Message::Line(l.to_string()));
                };
                let run = match i {
                    0 => word_engines::check_ic3ia(ts, &request, &mut line),
                    _ => word_engines::check_smt(ts, &request, &mut line),
                };
                let _ = tx.send(Message::Done(Box::new(run)));
            });
        }
        drop(tx);
        let mut inconclusive: Option<Run> = None;
        // A k-induction proof kept while IC3+IA looks for an invariant.
        let mut without_invariant: Option<Run> = None;
        // Until when IC3+IA may go on after that proof: the certificate was
        // asked for, so until shortly before the deadline; without one, as
        // long again as the proof took (at least ten seconds). (It was as
        // long again, at least a second, with a deadline too: a loaded
        // machine then lost the certificate of conc_szymanski_safe, whose
        // invariant IC3+IA finds in 0.9 s alone.)
        let mut patience: Option<Instant> = None;
        let start = Instant::now();
        loop {
            let message = match patience {
                None => match rx.recv() {
                    Ok(m) => m,
                    Err(_) => break,
                },
                Some(until) => {
                    match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
                        Ok(m) => m,
                        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                            budgets[0].stop();
                            patience = None;
                            continue;
                        }
                        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                    }
                }
            };
            let run = match message {
                Message::Line(l) => {
                    log(&l);
                    continue;
                }
                Message::Done(run) => *run,
            };
            match run {
                Ok(run)
                    if request.invariant_wanted
                        && without_invariant.is_none()
                        && matches!(
                            run.answer,
                            Answer::Safe {
                                evidence: Evidence::WordKInduction { k },
                                ..
                            } if k > 1
                        ) =>
                {
                    log("portfolio: k-induction proved it; IC3+IA goes on for an invariant to certify");
                    let margin = Duration::from_millis(500);
                    patience = Some(match request.budget.deadline() {
                        Some(deadline) => deadline.checked_sub(margin).unwrap_or(deadline),
                        None => Instant::now() + start.elapsed().max(Duration::from_secs(10)),
                    });
                    without_invariant = Some(run);
                }
                Ok(run) if matches!(run.answer, Answer::Safe { .. } | Answer::Unsafe { .. }) => {
                    budgets.iter().for_each(Budget::stop);
                    return Ok(run);
                }
                // A proof its checker rejected outweighs an unknown.
                Ok(run) => match &inconclusive {
                    Some(Run {
                        answer: Answer::Unconfirmed(_),
                        ..
                    }) => {}
                    _ => inconclusive = Some(run),
                },
                Err(e) => {
                    budgets.iter().for_each(Budget::stop);
                    return Err(e);
                }
            }
        }
        if let Some(run) = without_invariant {
            return Ok(run);
        }
        Ok(inconclusive.expect("two engines answered"))
    })
}

/// `auto`'s phases on a C program, each searching in its slice of the time
/// left and checking within the whole budget; `None` when none decided, and
/// the word-level pipeline goes on with the program's encoding.
pub(super) fn program_phases(
    model: &super::ProgramModel,
    request: &Request,
    log: Log,
) -> Result<Option<Run>, String> {
    let (cfa, ts) = (&model.program.cfa, &model.ts);
    let auto = &request.tuning.auto;
    let whole = Some(&request.budget);
    if auto.explicit {
        // The run on unknown values first: it is the program's only path
        // or stops at its first guard on an unknown value, in milliseconds
        // either way (its states are capped).
        let only_run = ExplicitOptions {
            tests: false,
            ..Default::default()
        };
        let run = |sliced: &Request, log: Log| {
            program_engines::check_explicit(cfa, ts, sliced, only_run, whole, log)
        };
        if let Some(run) = sliced_phase(request, "explicit", log, run)? {
            return Ok(Some(run));
        }
    }
    if auto.ic3cfa {
        // IC3CFA for a tenth of the time left (10 s without a limit): what
        // it decides alone on the C set it decides within a second. Its
        // invariant's check gets a quarter of the time then left: an
        // invariant found is the likeliest verdict, and three quarters stay
        // for the other engines if the check does not finish. (invar's own
        // solver confirms nested9's invariant of 1,634 clauses in 8.5 s,
        // checked case by case; z3 is faster.)
        let ic3cfa =
            |sliced: &Request, log: Log| program_engines::check_ic3cfa(cfa, ts, sliced, whole, log);
        if let Some(run) = sliced_phase(request, "ic3cfa", log, ic3cfa)? {
            return Ok(Some(run));
        }
    }
    if auto.explicit {
        // Tests for a tenth of the time then left: they find the bugs that
        // need one large input and a long loop (sum02-1: 65,537
        // iterations), beyond what BMC unrolls.
        let tests = ExplicitOptions {
            determined: false,
            ..Default::default()
        };
        let run = |sliced: &Request, log: Log| {
            program_engines::check_explicit(cfa, ts, sliced, tests, whole, log)
        };
        if let Some(run) = sliced_phase(request, "explicit", log, run)? {
            return Ok(Some(run));
        }
    }
    if !model.options.int {
        // The integer relaxation: an invariant IC3+IA finds over the
        // integers, with overflow ruled out, tried on the machine integers.
        // It searches for a tenth of the time left, and its check gets as
        // long.
        let slice = tenth_of_time_left(request);
        if let Some(run) = program_engines::relaxed_proof(model, request, slice, log)? {
            return Ok(Some(run));
        }
    }
    Ok(None)
}

/// A tenth of the time left to `request` (10 s without a limit): the share
/// of a phase of `auto` for C that runs before the next.
fn tenth_of_time_left(request: &Request) -> Duration {
    match request.budget.deadline() {
        Some(d) => d.saturating_duration_since(Instant::now()) / 10,
        None => Duration::from_secs(10),
    }
}

/// A phase of `auto` on a program: `engine` runs with a tenth of the time
/// left (its request's budget) and the whole budget for its check; its run
/// if it decided, else `None` (the reason logged).
fn sliced_phase(
    request: &Request,
    name: &str,
    log: Log,
    engine: impl FnOnce(&Request, Log) -> Result<Run, String>,
) -> Result<Option<Run>, String> {
    let sliced = Request {
        budget: request.budget.child().narrowed(tenth_of_time_left(request)),
        ..request.clone()
    };
    let run = engine(&sliced, &mut *log)?;
    match run.answer {
        Answer::Safe { .. } | Answer::Unsafe { .. } => Ok(Some(run)),
        Answer::Unknown(reason) | Answer::Unconfirmed(reason) => {
            log(&format!(
                "{name}: no verdict ({reason}); the next engines go on"
            ));
            Ok(None)
        }
    }
}
