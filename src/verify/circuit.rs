//! Circuits: reduce to the properties' cone and simplify, run the engine,
//! check a proof on the SAT backend the engine did not use, and map a trace
//! back to the circuit as given (an AIGER file's is then replayed on the
//! file's model).

use super::{certificate, schedule, Answer, Engine, Evidence, Log, Request, Run, Witness};
use crate::check::{certificate as witness_circuit, invariant, kinduction, replay};
use crate::engines::ic3::{self, Ic3Options};
use crate::engines::kind::{self, KindOptions};
use crate::engines::{bmc, itp, scorr, EngineId, Limits, Outcome, Proof, Verdict};
use crate::formats::aiger::Aiger;
use crate::ir::aig::{Aig, Lit};
use crate::ir::invariant::CircuitInvariant;
use crate::ir::liveness::{close_loop, k_liveness, LivenessCircuit};
use crate::ir::trace::Trace;
use crate::preprocess::prepare::{prepare, PrepareOptions};
use crate::sat::Backend;
use crate::util::budget::Budget;
use std::time::{Duration, Instant};

/// Decides an AIGER model; a trace is replayed on the file's model and cut
/// after the first step where a bad property holds (as the word level's
/// `word::replayed` does).
pub(super) fn check_aiger(aiger: &Aiger, request: &Request, log: Log) -> Result<Run, String> {
    let full = aiger.to_aig();
    let props = &request.properties;
    let mut run = check_circuit(&full, request, log, true, &request.assumed)?;
    match &run.answer {
        Answer::Unsafe {
            witness: Witness::Bit(trace),
            ..
        } => {
            match replay::replay_trace(aiger, props, trace) {
                replay::Replay::Reached { step, properties } if step < trace.len() => {
                    let mut trace = trace.clone();
                    trace.inputs.truncate(step + 1);
                    log(&format!(
                        "counterexample of {} steps replays on the AIGER model",
                        trace.len()
                    ));
                    run.answer = Answer::Unsafe {
                        witness: Witness::Bit(trace),
                        properties,
                    };
                }
                other => {
                    return Err(format!(
                        "internal error: the {} engine's counterexample does not replay ({other:?}); no verdict",
                        run.engine_name()
                    ))
                }
            }
        }
        Answer::Safe { evidence, .. } if request.certificate => {
            let bad: Vec<Lit> = props.iter().map(|&p| full.bad[p]).collect();
            run.certificate = Some(certificate::of_circuit(&full, &bad, evidence));
        }
        _ => {}
    }
    Ok(run)
}

/// Decides justice property `justice` of an AIGER model
/// ([`check_liveness`]); a lasso is replayed on the file's model as aigsim
/// replays one (the loop closes, every signal and fairness constraint
/// holds in it) and returned as an AIGER witness of the model's latches
/// and inputs.
pub(super) fn check_justice(
    aiger: &Aiger,
    justice: usize,
    request: &Request,
    log: Log,
) -> Result<Run, String> {
    if justice >= aiger.justice.len() {
        return Err(format!(
            "the model has {} justice properties, not j{justice}",
            aiger.justice.len()
        ));
    }
    let full = aiger.to_aig().without_resets();
    let latches = aiger.latches.len();
    let mut replay = |lasso: Trace| {
        let init = lasso.init[..latches].to_vec();
        let start = replay::replay_lasso(aiger, justice, &init, &lasso.inputs)?;
        let inputs = lasso.inputs;
        Ok((Witness::Bit(Trace { init, inputs }), start))
    };
    check_liveness(&full, justice, request, log, &mut replay)
}

/// How a lasso of a circuit's model (its latches and inputs, the loop
/// closed on every latch) becomes the model's own witness: replayed on the
/// model as read, with the step its last step goes back to.
pub(super) type LassoReplay<'r> = &'r mut dyn FnMut(Trace) -> Result<(Witness, usize), String>;

/// Decides justice property `justice` of `full` (a circuit without reset
/// functions) on its safety circuit ([`LivenessCircuit`]: liveness to
/// safety) with the engine the request names, and under `auto` k-liveness
/// beside it. A counterexample is a lasso, handed to `replay`; a proof is
/// an invariant of the safety circuit (or of a k-liveness circuit),
/// checked there; no certificate is built for it yet.
pub(super) fn check_liveness(
    full: &Aig,
    justice: usize,
    request: &Request,
    log: Log,
    replay: LassoReplay,
) -> Result<Run, String> {
    let mut run = if request.engine == Engine::Auto {
        // k-liveness beside liveness to safety: the first verdict stops
        // the other.
        let (counting, lasso) = (request.budget.child(), request.budget.child());
        let both = std::thread::scope(|scope| {
            let helper = scope.spawn(|| {
                let request = Request {
                    budget: counting.clone(),
                    ..request.clone()
                };
                let proved = k_liveness_phase(full, justice, &request, &mut |_| {});
                if matches!(proved, Ok(Some(_))) {
                    lasso.stop();
                }
                proved
            });
            let request = Request {
                budget: lasso.clone(),
                ..request.clone()
            };
            let searched = lasso_search(full, justice, &request, &mut *log, replay);
            if matches!(&searched, Ok(r) if matches!(r.answer, Answer::Safe { .. } | Answer::Unsafe { .. }))
            {
                counting.stop();
            }
            (helper.join(), searched)
        });
        match both {
            (Ok(Ok(Some(proved))), Ok(searched)) => {
                if let Answer::Unsafe { .. } = searched.answer {
                    return Err(format!(
                        "internal error: k-liveness proves j{justice} and a lasso refutes it; no verdict"
                    ));
                }
                log(&format!("justice j{justice} holds (k-liveness)"));
                proved
            }
            (Ok(Err(e)), _) | (_, Err(e)) => return Err(e),
            (Err(_), _) => return Err("internal error: the k-liveness thread panicked".into()),
            (Ok(Ok(None)), Ok(searched)) => searched,
        }
    } else {
        lasso_search(full, justice, request, log, replay)?
    };
    if request.certificate {
        if let Answer::Safe { .. } = run.answer {
            run.certificate = Some(Err(super::NoCertificate::Unsupported));
        }
    }
    Ok(run)
}

/// Justice property `justice` on its liveness-to-safety circuit with the
/// engine `request` names: a lasso replayed by `replay`, or a proof.
fn lasso_search(
    full: &Aig,
    justice: usize,
    request: &Request,
    log: Log,
    replay: LassoReplay,
) -> Result<Run, String> {
    let live = LivenessCircuit::new(full, justice);
    log(&format!(
        "justice j{justice} as safety: {} latches, {} inputs (liveness to safety)",
        live.aig.latches.len(),
        live.aig.inputs.len()
    ));
    let safety = Request {
        properties: vec![0],
        justice: None,
        certificate: false,
        ..request.clone()
    };
    let mut run = check_circuit(&live.aig, &safety, log, true, &[])?;
    if let Answer::Unsafe {
        witness: Witness::Bit(trace),
        ..
    } = &run.answer
    {
        let lasso = live.lasso(&trace.init, &trace.inputs).ok_or_else(|| {
            format!(
                "internal error: the {} engine's counterexample of the safety circuit has no loop start",
                run.engine_name()
            )
        })?;
        // Closed on every latch, within about 10^8 gate evaluations.
        let budget_steps = 100_000_000 / (full.num_nodes() + 1);
        let Some(lasso) = close_loop(full, &lasso, budget_steps.max(64)) else {
            run.answer = Answer::Unknown(
                "a lasso closes on the justice property's cone, but repeating it did not close it on every latch within the simulation bound".into(),
            );
            return Ok(run);
        };
        let steps = lasso.inputs.len();
        let lasso = Trace {
            init: lasso.init,
            inputs: lasso.inputs,
        };
        let (witness, start) = replay(lasso).map_err(|why| {
            format!(
                "internal error: the {} engine's lasso does not replay ({why}); no verdict",
                run.engine_name()
            )
        })?;
        log(&format!(
            "lasso of {steps} steps, looping back to step {start}, replays on the model as read"
        ));
        run.answer = Answer::Unsafe {
            witness,
            properties: Vec::new(),
        };
    }
    Ok(run)
}

/// Up to which bound k-liveness counts up one at a time; it doubles
/// after.
const KLIVE_LINEAR: usize = 16;

/// `auto`'s second search on a justice property: k-liveness with IC3 for
/// k = 0, 1, 2, …, 16, 32, 64, … until its budget ends; a proof of some k is a proof
/// of the property (an invariant of that k's circuit, checked there), a
/// counterexample only moves to the next k. `None` when no k was proved.
fn k_liveness_phase(
    full: &Aig,
    justice: usize,
    request: &Request,
    log: Log,
) -> Result<Option<Run>, String> {
    let budget = &request.budget;
    let mut k = 0;
    loop {
        if budget.expired() {
            break;
        }
        let circuit = k_liveness(full, justice, k);
        let safety = Request {
            engine: Engine::Ic3,
            properties: vec![0],
            justice: None,
            certificate: false,
            budget: budget.clone(),
            ..request.clone()
        };
        let run = check_circuit(&circuit, &safety, log, false, &[])?;
        match run.answer {
            Answer::Safe { .. } => {
                log(&format!(
                    "justice j{justice} holds: at most {k} rounds of its signals (k-liveness)"
                ));
                return Ok(Some(run));
            }
            // More than k rounds are possible. A property that holds
            // has a bound, and every k past it proves it too: counting up
            // one at a time finds a small bound cheaply, doubling past 16
            // reaches the large ones of counters.
            Answer::Unsafe { .. } => k = if k < KLIVE_LINEAR { k + 1 } else { 2 * k },
            _ => break,
        }
    }
    Ok(None)
}

/// The properties among `props` of an AIGER model (`full`: its circuit,
/// reset functions lowered) that its preprocessing, run once for all of
/// them, reduces to constant false, with their proof:
/// the preprocessing's facts (constant and equivalent latches) as an
/// inductive invariant over the model's latches, checked inductive by the
/// checker's own encoding and checked to exclude each of them. Empty when
/// the checks do not finish within the budget.
pub(super) fn settled_by_preparation(
    full: &Aig,
    props: &[usize],
    request: &Request,
    log: Log,
) -> Result<(Vec<usize>, Run), String> {
    let started = Instant::now();
    let prepared = prepare(full, props, &prepare_options(request));
    let prepared_in = started.elapsed();
    let images = &prepared.images;
    let constant_false = |q: &usize| {
        let b = full.bad[*q];
        images[b.var().0 as usize].map(|l| l.xor(b.is_negated())) == Some(Lit::FALSE)
    };
    let candidates: Vec<usize> = props.iter().copied().filter(constant_false).collect();
    let checker = Backend::Cadical;
    let run = |answer| Run {
        answer,
        engine: Some(EngineId::Scorr),
        stats: Default::default(),
        certificate: None,
    };
    let none = || Ok((Vec::new(), run(Answer::Unknown(String::new()))));
    if candidates.is_empty() {
        return none();
    }
    let facts = &prepared.facts;
    let budget = &request.budget;
    if let Err(e) = invariant::check_inductive(full, facts, checker, budget) {
        if budget.expired() {
            return none();
        }
        return Err(format!(
            "internal error: the preprocessing's facts are not inductive: {e}; no verdict"
        ));
    }
    let bad: Vec<Lit> = candidates.iter().map(|&q| full.bad[q]).collect();
    let Ok(excluded) = invariant::excluded(full, &bad, facts, checker, budget) else {
        return none();
    };
    let settled: Vec<usize> = (candidates.into_iter().zip(excluded))
        .filter_map(|(q, e)| e.then_some(q))
        .collect();
    log(&format!(
        "{} properties constant false after preprocessing ({:.2}s), by {} facts checked with {} ({:.2}s)",
        settled.len(),
        prepared_in.as_secs_f64(),
        facts.len(),
        checker.name(),
        (started.elapsed() - prepared_in).as_secs_f64()
    ));
    Ok((
        settled,
        run(Answer::Safe {
            evidence: Evidence::Invariant(facts.clone()),
            checker: checker.name().to_string(),
        }),
    ))
}

/// The reductions before the engines; SAT sweeping gets a tenth of the time
/// left, at most 5 s.
fn prepare_options(request: &Request) -> PrepareOptions {
    let cap = Duration::from_secs(5);
    let sweep = match request.budget.deadline() {
        Some(d) => cap.min(d.saturating_duration_since(Instant::now()) / 10),
        None => cap,
    };
    PrepareOptions {
        simplify: request.simplify,
        fraig: (request.simplify && request.tuning.sweep).then_some(sweep),
        budget: request.budget.clone(),
    }
}

/// Decides the properties of a circuit: reduces it to their cone, runs the
/// engine, checks a proof on the SAT backend the engine did not use, and
/// maps a trace back to `full` (not yet replayed on any file). A proof is
/// over `full` with its reset functions lowered ([`Aig::without_resets`]:
/// one latch more when it has any).
/// `circuit_proofs`: whether `auto` runs the engines whose proofs are
/// circuits, not invariants over the latches (k-induction's step cases,
/// signal correspondence). `assumed`: an inductive invariant of `full`
/// the engines may assume ([`Request::assumed`]).
pub(super) fn check_circuit(
    full: &Aig,
    request: &Request,
    log: Log,
    circuit_proofs: bool,
    assumed: &[Vec<(usize, bool)>],
) -> Result<Run, String> {
    // The engines and the proof checks take reset functions lowered
    // (`ir::resets`); a trace is cut back to the circuit's own latches.
    let latches = full.latches.len();
    let lowered;
    let full = if full.has_resets() {
        lowered = full.without_resets();
        &lowered
    } else {
        full
    };
    let props = &request.properties;
    let bad: Vec<Lit> = props.iter().map(|&p| full.bad[p]).collect();
    let mut prepared = prepare(full, props, &prepare_options(request));
    if !assumed.is_empty() {
        let added = prepared.assume(full, assumed);
        log(&format!(
            "assumed: {added} of {} clauses of proved properties' invariants, over the cone",
            assumed.len()
        ));
    }
    let (reduced, restore) = (&prepared.aig, &prepared.restore);
    log(&format!(
        "{} inputs, {} latches, {} ands; {} constant and {} merged latches; \
         cone: {} inputs, {} latches, {} ands",
        full.inputs.len(),
        full.latches.len(),
        full.num_ands(),
        prepared.constants,
        prepared.merged,
        reduced.inputs.len(),
        reduced.latches.len(),
        reduced.num_ands()
    ));
    if let Some(f) = &prepared.fraig {
        log(&format!(
            "SAT sweeping: {} of {} ands merged ({} checks, {} refuted, {} undecided) in {:.3}s",
            f.merged,
            f.ands_before,
            f.checks,
            f.refuted,
            f.undecided,
            f.time.as_secs_f64()
        ));
    }
    let backend = request.sat.unwrap_or(Backend::Cadical);
    let ic3_backend = request.sat.unwrap_or(Backend::Core);
    let limits = Limits {
        max_depth: request.max_depth,
        budget: request.budget.clone(),
        backend,
    };
    let outcome = run_engine(request, reduced, &limits, ic3_backend, circuit_proofs);
    let Outcome {
        verdict,
        engine,
        backend,
        stats,
    } = outcome;
    let answer = match verdict {
        Verdict::Unsafe(trace) => Answer::Unsafe {
            witness: Witness::Bit({
                let mut trace = restore.trace(&trace);
                trace.init.truncate(latches);
                trace
            }),
            properties: props.clone(),
        },
        Verdict::Unknown(reason) => Answer::Unknown(reason),
        Verdict::Safe(proof) => {
            let budget = &request.budget;
            // The check may overrun the engine's deadline a little: a proof
            // found just in time deserves its check.
            let check_budget = Budget::with_timeout(match budget.deadline() {
                Some(d) => d.saturating_duration_since(Instant::now()) + Duration::from_millis(400),
                None => Duration::from_secs(u32::MAX as u64),
            });
            let checker = backend.other();
            let check_start = Instant::now();
            // Over the original latches, checked as its witness circuit
            // (Certifaiger's checks, with their own encoding). The model as
            // checked: the properties asked, not all of the file's (the
            // witness's property says nothing of the others, so
            // Certifaiger's property check would fail on them).
            let check_circuit = |inv: CircuitInvariant| {
                let witness = witness_circuit::witness_from_circuit(full, &bad, &inv);
                let checked_model;
                let model = if bad.len() == full.bad.len() {
                    full
                } else {
                    checked_model = {
                        let mut m = full.clone();
                        m.bad = bad.clone();
                        m
                    };
                    &checked_model
                };
                witness_circuit::check_witness(model, &witness, checker, &check_budget)
                    .map(|()| Evidence::Circuit(inv))
            };
            let checked = match proof {
                Proof::KInduction { k, simple_path } => kinduction::check(
                    full,
                    &bad,
                    k,
                    simple_path,
                    Some(&restore.latches),
                    &prepared.facts,
                    checker,
                    &check_budget,
                )
                .map(|()| Evidence::KInduction {
                    k,
                    simple_path,
                    lemmas: prepared.facts.clone(),
                }),
                Proof::Circuit(inv) => {
                    check_circuit(prepared.original_circuit_invariant(full, &inv))
                }
                Proof::Correspondence(repr) => {
                    check_circuit(prepared.original_correspondence(full, &repr))
                }
                Proof::Invariant(cubes) => {
                    // The invariant over the original latch positions.
                    let cubes = prepared.original_invariant(&cubes);
                    invariant::check(full, &bad, &cubes, checker, &check_budget)
                        .map(|()| Evidence::Invariant(cubes))
                }
            };
            match checked {
                Ok(evidence) => {
                    log(&format!(
                        "{} checked with {} in {:.3}s",
                        evidence.describe(),
                        checker.name(),
                        check_start.elapsed().as_secs_f64()
                    ));
                    Answer::Safe {
                        evidence,
                        checker: checker.name().to_string(),
                    }
                }
                Err(e) if check_budget.expired() => {
                    Answer::Unknown(format!("the proof could not be checked in time: {e}"))
                }
                Err(e) => {
                    return Err(format!(
                    "internal error: the {engine} engine's proof does not check: {e}; no verdict"
                ))
                }
            }
        }
    };
    Ok(Run {
        answer,
        engine: Some(engine),
        stats,
        certificate: None,
    })
}

/// The engine `request` names on the prepared circuit `aig`.
fn run_engine(
    request: &Request,
    aig: &Aig,
    limits: &Limits,
    ic3_backend: Backend,
    circuit_proofs: bool,
) -> Outcome {
    let tuning = &request.tuning;
    let ic3_options = Ic3Options {
        limits: Limits {
            backend: ic3_backend,
            ..limits.clone()
        },
        ..tuning.ic3.clone()
    };
    match request.engine {
        Engine::Bmc => bmc::check_with_first_limit(aig, limits, tuning.bmc_first_conflicts),
        Engine::Itp => itp::check(aig, limits),
        Engine::Scorr => scorr::check(aig, limits),
        Engine::Kind => kind::check(
            aig,
            &KindOptions {
                limits: limits.clone(),
                simple_path: request.simple_path,
                sparse_steps: false,
            },
        ),
        Engine::Ic3 => ic3::check(aig, &ic3_options),
        Engine::Smt | Engine::Ic3ia | Engine::Ic3cfa | Engine::Explicit => Outcome {
            verdict: Verdict::Unknown(
                "the SMT, IC3+IA and IC3CFA engines run on word-level models, not circuits".into(),
            ),
            engine: match request.engine {
                Engine::Smt => EngineId::Smt,
                Engine::Ic3ia => EngineId::Ic3ia,
                Engine::Explicit => EngineId::Explicit,
                _ => EngineId::Ic3cfa,
            },
            backend: limits.backend,
            stats: Default::default(),
        },
        Engine::Auto => schedule::circuit_portfolio(
            aig,
            limits,
            ic3_options,
            tuning,
            circuit_proofs,
            request.jobs,
        ),
    }
}
