//! The three strategies of `auto`, driven by [`Tuning`]:
//!
//! - `circuit_portfolio`: on circuits, IC3 on one core; the other cores
//!   (`Request::jobs`) shared in turns by BMC, a second IC3, the step
//!   cases of k-induction and signal correspondence, and more IC3
//!   configurations sharing lemmas where cores are left. The first answer
//!   wins.
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
use crate::engines::ic3::exchange::{Exchange, LemmaPool};
use crate::engines::ic3::{self, Ic3Options};
use crate::engines::kind::{self, KindOptions};
use crate::engines::portfolio::{self, EngineFn};
use crate::engines::{bmc, itp, scorr, Limits, Outcome};
use crate::ir::aig::Aig;
use crate::ir::ts::Ts;
use crate::util::budget::{Budget, Turns};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long each engine sharing the second core (BMC, IC3 without CTGs, the
/// step cases of k-induction) runs before passing the core on (`auto` on
/// circuits).
const SHARED_CORE_SLICE: Duration = Duration::from_millis(500);

/// A member of `auto` on circuits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Member {
    /// IC3 as configured (CTGs): the stronger prover, on a core of its
    /// own from two jobs up.
    FirstIc3,
    Bmc,
    /// IC3 as `auto.second_ic3` configures it ([`SecondIc3`]).
    SecondIc3,
    /// k-induction's step cases at sparse depths (their base case is
    /// BMC's).
    StepCases,
    Scorr,
    /// Members for cores left over (`--jobs` above the members above): IC3
    /// configurations that won on some families and lost on others
    /// ([`other_ic3`]), and interpolation.
    OtherIc3(usize),
    Itp,
}

/// The members that run only where cores are left over, in the order they
/// are added.
const LEFTOVER: [Member; 4] = [
    Member::OtherIc3(0),
    Member::Itp,
    Member::OtherIc3(1),
    Member::OtherIc3(2),
];

/// The IC3 configurations of [`Member::OtherIc3`]: the second IC3's other
/// option (plain `down` or CTPs of stuck lemmas), deeper CTGs, and CTPs on
/// every failed push with the failed pushes' witnesses kept.
fn other_ic3(which: usize, first: &Ic3Options, second: SecondIc3) -> Ic3Options {
    let mut options = first.clone();
    match which {
        0 => match second {
            SecondIc3::CtpStuck => options.generalization = ic3::Generalization::Down,
            SecondIc3::Down => options.ctp = ic3::Ctp::Stuck,
        },
        1 => {
            options.generalization = ic3::Generalization::Ctg {
                max_ctgs: 5,
                max_depth: 2,
            }
        }
        _ => {
            options.ctp = ic3::Ctp::Every;
            options.push_witnesses = true;
        }
    }
    options
}

/// `auto` on a prepared circuit, on `jobs` threads. `circuit_proofs`:
/// whether the members whose proofs are circuits, not invariants over the
/// latches, run (k-induction's step cases, signal correspondence).
///
/// IC3 as configured has a core of its own (from two jobs up); the other
/// members are dealt to the remaining `jobs - 1` cores, those on one core
/// taking turns; cores left over take more IC3 configurations and
/// interpolation. With one job every member takes turns on the one core.
/// From three jobs up the IC3 searches share their lemmas
/// ([`ic3::exchange`]). Two jobs is the portfolio measured in
/// docs/decisions/ (IC3 ‖ the rest in turns).
pub(super) fn circuit_portfolio(
    aig: &Aig,
    limits: &Limits,
    ic3_options: Ic3Options,
    tuning: &Tuning,
    circuit_proofs: bool,
    jobs: usize,
) -> Outcome {
    if !tuning.auto.turns {
        // Ablation: BMC and IC3 race alone.
        let engines: Vec<EngineFn> = vec![
            Box::new(|aig| bmc::check_with_first_limit(aig, limits, tuning.bmc_first_conflicts)),
            Box::new(move |aig| ic3::check(aig, &ic3_options)),
        ];
        return portfolio::run(aig, &limits.budget, engines);
    }
    // k-induction proves circuits whose invariant IC3 does not find
    // (dspfilters from SymbiYosys, HWMCC'19's k-induction wins).
    let with_kind = circuit_proofs && tuning.auto.kind;
    // Signal correspondence: a search that ends, in seconds on most HWMCC
    // circuits (up to ~13 s on the largest industrial ones; multipliers
    // such as mul3 excepted), and proves only when it ends. So it takes its
    // share of a shared core up front: its first turn lasts its share of
    // the run (a quarter with four members, 15 s at 60 s), then it takes
    // turns like the others if it has not ended. A slice at a time,
    // cal226's proof (10 s alone) came after 60 s. On circuits with
    // invariant constraints it proves nothing `auto` misses and takes
    // 10-30 s on picorv32, whose bugs BMC finds on this core, so it runs
    // only without them.
    let with_scorr = circuit_proofs && aig.constraints.is_empty() && tuning.auto.scorr;
    let front_loaded = with_scorr && tuning.auto.scorr_front_loaded;
    // The members in the order of their turns: the first begins.
    let mut members = Vec::new();
    if front_loaded {
        members.push(Member::Scorr);
    }
    members.extend([Member::Bmc, Member::SecondIc3]);
    if with_kind {
        members.push(Member::StepCases);
    }
    if with_scorr && !front_loaded {
        members.push(Member::Scorr);
    }
    let jobs = jobs.max(1);
    let cores = if jobs == 1 {
        members.push(Member::FirstIc3);
        1
    } else {
        jobs - 1
    };
    for extra in LEFTOVER {
        if members.len() >= cores {
            break;
        }
        members.push(extra);
    }
    // Member i runs on shared core i mod cores, in turns with the others
    // there, in the order above.
    let cores = cores.min(members.len());
    let place = |i: usize| (i % cores, i / cores);
    let turns: Vec<Arc<Turns>> = (0..cores)
        .map(|core| {
            let on_core = (core..members.len()).step_by(cores).count();
            // A front-loaded first member's first turn: its share of the
            // run (what it would have at 60 s without a deadline).
            let first_turn = match limits.budget.deadline() {
                _ if !(front_loaded && core == 0) => SHARED_CORE_SLICE,
                Some(d) => d.saturating_duration_since(Instant::now()) / on_core as u32,
                None => Duration::from_secs(60) / on_core as u32,
            };
            Turns::with_first_turn(on_core, SHARED_CORE_SLICE, first_turn)
        })
        .collect();
    let pool = (jobs >= 3 && tuning.auto.share_lemmas).then(LemmaPool::new);
    let ic3_member = |mut options: Ic3Options, id: usize| {
        options.exchange = pool.as_ref().map(|p| Exchange::new(p, id));
        options
    };
    let base = &kind::SharedBase::default();
    let turns = &turns;
    let first_conflicts = tuning.bmc_first_conflicts;
    let mut engines: Vec<EngineFn> = Vec::new();
    if jobs > 1 {
        let options = ic3_member(ic3_options.clone(), 0);
        engines.push(Box::new(move |aig| ic3::check(aig, &options)));
    }
    for (i, &member) in members.iter().enumerate() {
        let (core, me) = place(i);
        // The member's limits: the run's, its budget taking its turns.
        let own = Limits {
            budget: limits.budget.taking_turn(&turns[core], me),
            ..limits.clone()
        };
        let engine: EngineFn = match member {
            Member::FirstIc3 | Member::SecondIc3 | Member::OtherIc3(_) => {
                let (options, id) = match member {
                    Member::FirstIc3 => (ic3_options.clone(), 0),
                    // The second IC3 keeps CTGs and blocks counterexamples
                    // to propagation of lemmas that failed to push in an
                    // earlier round (`Ctp::Stuck`): that proves the zipcpu
                    // busdelay circuits the first leaves open, and would
                    // cost the first the qspiflash circuits whose frames
                    // the extra lemmas keep from converging.
                    Member::SecondIc3 => {
                        let mut second = ic3_options.clone();
                        match tuning.auto.second_ic3 {
                            SecondIc3::Down => second.generalization = ic3::Generalization::Down,
                            SecondIc3::CtpStuck => second.ctp = ic3::Ctp::Stuck,
                        }
                        (second, i + 1)
                    }
                    Member::OtherIc3(which) => (
                        other_ic3(which, &ic3_options, tuning.auto.second_ic3),
                        i + 1,
                    ),
                    _ => unreachable!("the IC3 members only"),
                };
                let mut options = ic3_member(options, id);
                options.limits.budget = own.budget.clone();
                Box::new(move |aig| {
                    let _seat = turns[core].seat(me);
                    ic3::check(aig, &options)
                })
            }
            Member::Bmc => Box::new(move |aig| {
                let _seat = turns[core].seat(me);
                let _run = base.run();
                bmc::check_publishing(aig, &own, first_conflicts, &base.cleared)
            }),
            Member::StepCases => {
                let step_options = KindOptions {
                    limits: own,
                    simple_path: false,
                    sparse_steps: true,
                };
                let whole = &limits.budget;
                Box::new(move |aig| {
                    let seat = turns[core].seat(me);
                    kind::step_cases(aig, &step_options, base, whole, || drop(seat))
                })
            }
            // Its unknown ends this member only: the portfolio waits for
            // the others.
            Member::Scorr => Box::new(move |aig| {
                let _seat = turns[core].seat(me);
                scorr::check(aig, &own)
            }),
            Member::Itp => Box::new(move |aig| {
                let _seat = turns[core].seat(me);
                itp::check(aig, &own)
            }),
        };
        engines.push(engine);
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
