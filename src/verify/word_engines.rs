//! The word-level engines on the SMT layer, each answer checked: word-level
//! BMC and k-induction, IC3+IA, and the check shared by every engine that
//! proves by an invariant of a word-level model (IC3+IA, IC3CFA, explicit
//! execution, the integer relaxation). A trace is replayed with the term
//! evaluator on the model as read; a proof is asked again of another solver
//! through the checker's own encoding ([`smt_proof`]), which takes nothing
//! from the engine but the certificate's text.

use super::{Answer, Evidence, Log, Request, Run, Witness};
use crate::check::{smt_proof, word};
use crate::engines::kind::word as word_kind;
use crate::engines::{
    ic3ia, AbstractionStats, EngineId, InvariantVerdict, Stats, Verdict, WordInvariant,
};
use crate::ir::term::{Op, Term, Terms};
use crate::ir::ts::{Ts, WordTrace};
use crate::util::budget::Budget;
use std::time::{Duration, Instant};

/// The word-level engine (BMC and k-induction on the SMT layer); a trace is
/// replayed with the term evaluator, a proof re-asked of another solver
/// through an encoding of its own.
pub(super) fn check_smt(ts: &Ts, request: &Request, log: Log) -> Result<Run, String> {
    let backend = request.smt;
    let budget = &request.budget;
    let props = &request.properties;
    let start = Instant::now();
    let (verdict, smt_stats) = word_kind::check(
        ts,
        props,
        &mut || backend.start(budget),
        budget,
        request.max_depth,
        &mut |line| log(&format!("smt: {line}")),
    )?;
    log(&format!(
        "smt ({}): depth {}, {} solver calls",
        backend.name(),
        smt_stats.depth,
        smt_stats.checks
    ));
    let mut stats = Stats {
        depth: smt_stats.depth,
        time: start.elapsed(),
        ..Stats::default()
    };
    stats.sat.calls = smt_stats.checks;
    let answer = match verdict {
        Verdict::Unsafe(trace) => replayed(ts, trace, props, "smt")?,
        Verdict::Safe(k) => {
            match smt_proof::check_kinduction(ts, props, k, backend.name(), budget.deadline()) {
                Ok(checker) => {
                    log(&format!(
                        "smt: the {}-induction proof is confirmed by {checker}",
                        k + 1
                    ));
                    let invariant = (k == 0 && request.invariant_wanted)
                        .then(|| inductive_property(ts, props, budget))
                        .flatten();
                    match invariant {
                        Some((store, invariant, checker)) => Answer::Safe {
                            evidence: Evidence::WordInvariant {
                                clauses: 1,
                                store: Box::new(store),
                                invariant,
                            },
                            checker: checker.to_string(),
                        },
                        None => Answer::Safe {
                            evidence: Evidence::WordKInduction { k: k + 1 },
                            checker: checker.to_string(),
                        },
                    }
                }
                Err(e) => unconfirmed("the SMT engine's proof", &e, budget),
            }
        }
        Verdict::Unknown(reason) => Answer::Unknown(reason),
    };
    Ok(Run {
        answer,
        engine: Some(EngineId::Smt),
        stats,
        certificate: None,
    })
}

/// A 1-inductive property as an invariant: `constraints ⇒ ¬bad`, if it
/// mentions states only (a certificate's parameters are the states), with
/// the solver that confirmed it.
fn inductive_property(
    ts: &Ts,
    props: &[usize],
    budget: &Budget,
) -> Option<(Terms, Term, &'static str)> {
    let states: std::collections::HashSet<Term> = ts.states.iter().map(|s| s.var).collect();
    let mut store = ts.clone();
    let terms = &mut store.terms;
    let bad: Vec<Term> = props.iter().map(|&p| ts.bad[p].term).collect();
    let mut roots = bad.clone();
    roots.extend(&ts.constraints);
    let over_states = (terms.topological(&roots).into_iter())
        .all(|t| !matches!(terms.op(t), Op::Var(..)) || states.contains(&t));
    if !over_states {
        return None;
    }
    let any_bad = terms.or_all(&bad);
    let mut parts = ts.constraints.clone();
    parts.push(any_bad);
    let reached = terms.and_all(&parts);
    let invariant = terms.not(reached);
    let checker =
        smt_proof::check_invariant(&store, invariant, props, "smt", budget.deadline()).ok()?;
    Some((store.terms, invariant, checker))
}

/// A word-level counterexample of `engine`, replayed with the term
/// evaluator on `ts` as read: the answer, cut after the first step where a
/// bad property holds, if it reaches one; an internal error otherwise. (IC3
/// reopens blocked obligations one level up, so its chains can be longer
/// than the shortest counterexample and pass a bad state before their end:
/// the prefix up to it is a counterexample as real as the whole.)
pub(super) fn replayed(
    ts: &Ts,
    mut trace: WordTrace,
    props: &[usize],
    engine: &str,
) -> Result<Answer, String> {
    match word::replay(ts, &trace, props) {
        Ok(reached) if reached.step < trace.len() => {
            trace.states.truncate(reached.step + 1);
            trace.inputs.truncate(reached.step + 1);
            Ok(Answer::Unsafe {
                witness: Witness::Word(trace),
                properties: reached.properties,
            })
        }
        other => Err(format!(
            "internal error: the {engine} engine's counterexample does not replay on the word-level model ({other:?}); no verdict"
        )),
    }
}

/// A word-level proof its checker did not confirm: refuted, or unanswered
/// with time left, is `Unconfirmed` (a failed check); unanswered because the
/// time ran out while checking is only `Unknown`.
fn unconfirmed(what: &str, e: &smt_proof::ProofError, budget: &Budget) -> Answer {
    if !e.refuted && budget.expired() {
        return Answer::Unknown(format!("{} while checking {what} ({e})", budget.reason()));
    }
    Answer::Unconfirmed(format!("{what} could not be confirmed ({e}); no verdict"))
}

/// The SAFE answer of an engine's invariant (a term of `store` over `ts`'s
/// state variables, `lemmas` clauses) once its certificate is confirmed on
/// `ts` by the word-level proof checker before `deadline`, and who confirmed
/// it. The certificate's text is all the checker takes from the engine.
pub(super) fn certified(
    ts: &Ts,
    store: Box<Terms>,
    invariant: Term,
    lemmas: usize,
    request: &Request,
    deadline: Option<Instant>,
) -> Result<(Answer, &'static str), smt_proof::ProofError> {
    let function = smt_proof::certificate_function(ts, &store, invariant);
    let props = &request.properties;
    let checker = smt_proof::check_certificate(ts, &function, props, request.smt.name(), deadline)?;
    let answer = Answer::Safe {
        evidence: Evidence::WordInvariant {
            clauses: lemmas,
            store,
            invariant,
        },
        checker: checker.to_string(),
    };
    Ok((answer, checker))
}

/// The run's counters from IC3+IA's, with the run's wall time.
pub(super) fn ia_stats(ia: &ic3ia::IaStats, time: Duration) -> Stats {
    let mut stats = Stats {
        depth: ia.ic3.frames,
        time,
        ..Stats::default()
    };
    stats.sat.calls = ia.checks;
    stats.sat.time = ia.smt_time;
    stats.ic3 = Some(ia.ic3.clone());
    stats.abstraction = Some(AbstractionStats {
        predicates: ia.predicates,
        refinements: ia.refinements,
    });
    stats
}

/// Who proved an invariant, for [`checked_answer`]'s messages: the engine,
/// what its invariant counts (lemmas, clauses, states) and its name.
#[derive(Clone, Copy)]
pub(super) struct InvariantProof {
    pub engine: EngineId,
    pub unit: &'static str,
    pub what: &'static str,
}

/// The run of an invariant engine whose verdict is `verdict` and counters
/// `stats`: its answer checked as [`checked_answer`] does.
pub(super) fn checked_run(
    ts: &Ts,
    verdict: InvariantVerdict,
    request: &Request,
    deadline: Option<Instant>,
    proof: InvariantProof,
    stats: Stats,
    log: Log,
) -> Result<Run, String> {
    let answer = checked_answer(ts, verdict, request, deadline, proof, log)?;
    Ok(Run {
        answer,
        engine: Some(proof.engine),
        stats,
        certificate: None,
    })
}

/// The answer of an invariant engine's verdict: a trace replayed on `ts`, an
/// invariant confirmed by the certificate checker before `deadline`.
fn checked_answer(
    ts: &Ts,
    verdict: InvariantVerdict,
    request: &Request,
    deadline: Option<Instant>,
    proof: InvariantProof,
    log: Log,
) -> Result<Answer, String> {
    Ok(match verdict {
        InvariantVerdict::Unsafe(trace) => {
            replayed(ts, trace, &request.properties, proof.engine.name())?
        }
        InvariantVerdict::Safe(WordInvariant {
            store,
            invariant,
            lemmas,
        }) => match certified(ts, store, invariant, lemmas, request, deadline) {
            Ok((answer, checker)) => {
                log(&format!(
                    "{}: the invariant of {lemmas} {} is confirmed by {checker}",
                    proof.engine, proof.unit
                ));
                answer
            }
            Err(e) => unconfirmed(proof.what, &e, &request.budget),
        },
        InvariantVerdict::Unknown(reason) => Answer::Unknown(reason),
    })
}

/// IC3 with implicit predicate abstraction on the SMT layer; a trace is
/// replayed with the term evaluator, an invariant checked by another solver
/// through the checker's own encoding of the model as read.
pub(super) fn check_ic3ia(ts: &Ts, request: &Request, log: Log) -> Result<Run, String> {
    let backend = request.smt;
    let budget = &request.budget;
    let props = &request.properties;
    let start = Instant::now();
    let (verdict, ia) = ic3ia::check(
        ts,
        props,
        backend,
        budget,
        request.max_depth,
        request.tuning.ic3ia,
        &mut |line| log(&format!("ic3ia: {line}")),
    )?;
    let stats = ia_stats(&ia, start.elapsed());
    let proof = InvariantProof {
        engine: EngineId::Ic3ia,
        unit: "clauses",
        what: "the IC3+IA invariant",
    };
    checked_run(ts, verdict, request, budget.deadline(), proof, stats, log)
}
