//! The engines on a C program's automaton, each answer checked on the
//! program's encoding: IC3CFA, explicit execution, and IC3+IA on the
//! program's integer relaxation.

use super::model::{lower_relaxation, ProgramModel};
use super::word_engines::{self, checked_run, InvariantProof};
use super::{Log, Request, Run};
use crate::cfront::relax;
use crate::engines::explicit::{self, ExplicitOptions};
use crate::engines::{ic3cfa, ic3ia, EngineId, InvariantVerdict, Stats, WordInvariant};
use crate::ir::cfa::encode::encode;
use crate::ir::cfa::Cfa;
use crate::ir::ts::Ts;
use crate::util::budget::Budget;
use std::time::{Duration, Instant};

/// The proof of the program's encoding from an invariant of its integer
/// relaxation (the program lowered over mathematical integers, overflow
/// watched), if one is found and confirmed in the time given to it: IC3+IA
/// looks for an invariant of the relaxation for `slice`, and its check gets
/// as long;
/// carried to the machine integers ([`relax::transfer`]) and confirmed on
/// the encoding by the word-level proof checker, it proves the program. The
/// relaxation's own answers are never taken as verdicts.
pub(super) fn relaxed_proof(
    model: &ProgramModel,
    request: &Request,
    slice: Duration,
    log: Log,
) -> Result<Option<Run>, String> {
    let ts = &model.ts;
    let overflow_flag = request.tuning.relax_overflow_flag;
    let relaxed = match lower_relaxation(model, overflow_flag, request.budget.deadline()) {
        Ok(p) if relax::aligned(&p.cfa, &model.program.cfa) => p,
        Ok(_) => {
            log("relaxation: its automaton differs from the program's; not used");
            return Ok(None);
        }
        Err(e) => {
            log(&format!("relaxation: not lowered over the integers ({e})"));
            return Ok(None);
        }
    };
    let mut relaxed_ts = encode(&relaxed.cfa);
    if let Some(flag) = relaxed.overflow {
        relax::watch_overflow(&mut relaxed_ts, flag, &relaxed.types);
    }
    let start = Instant::now();
    let budget = request.budget.child().narrowed(slice);
    let (verdict, ia) = ic3ia::check(
        &relaxed_ts,
        &request.properties,
        request.smt,
        &budget,
        request.max_depth,
        request.tuning.ic3ia,
        &mut |line| log(&format!("relaxation: ic3ia: {line}")),
    )?;
    let (store, invariant, lemmas) = match verdict {
        InvariantVerdict::Safe(WordInvariant {
            store,
            invariant,
            lemmas,
        }) => (store, invariant, lemmas),
        InvariantVerdict::Unsafe(trace) => {
            log(&format!(
                "relaxation: unsafe over the integers or overflows in {} steps; machine integers next",
                trace.len()
            ));
            return Ok(None);
        }
        InvariantVerdict::Unknown(reason) => {
            log(&format!(
                "relaxation: no invariant over the integers ({reason}); machine integers next"
            ));
            return Ok(None);
        }
    };
    let transferred = relax::transfer(
        &relaxed_ts,
        &store,
        invariant,
        &relaxed.types,
        relaxed.overflow,
        ts,
    );
    let (terms, image) = match transferred {
        Ok(x) => x,
        Err(e) => {
            log(&format!(
                "relaxation: the invariant does not carry over ({e})"
            ));
            return Ok(None);
        }
    };
    // The check gets a slice of its own: a candidate the solver cannot
    // settle quickly is not worth the bit-level engines' time.
    let deadline = request.budget.narrowed(slice).deadline();
    match word_engines::certified(ts, Box::new(terms), image, lemmas, request, deadline) {
        Ok((answer, checker)) => {
            log(&format!(
                "relaxation: the invariant of {lemmas} clauses over the integers holds on the machine integers (confirmed by {checker})"
            ));
            Ok(Some(Run {
                answer,
                engine: Some(EngineId::Ic3iaRelaxed),
                stats: word_engines::ia_stats(&ia, start.elapsed()),
                certificate: None,
            }))
        }
        Err(e) => {
            log(&format!(
                "relaxation: the invariant over the integers is not one of the machine integers ({e})"
            ));
            Ok(None)
        }
    }
}

/// IC3CFA on the automaton `cfa`, whose encoding is `ts`: a trace is
/// replayed on `ts`, the invariant checked on `ts` by the word-level proof
/// checker within a quarter of the time `whole` has left when the search
/// ends (`None`: until the request's deadline).
pub(super) fn check_ic3cfa(
    cfa: &Cfa,
    ts: &Ts,
    request: &Request,
    whole: Option<&Budget>,
    log: Log,
) -> Result<Run, String> {
    let budget = &request.budget;
    let start = Instant::now();
    let (verdict, cs) = ic3cfa::check(
        cfa,
        ts,
        request.tuning.ic3cfa,
        request.smt,
        budget,
        &mut |line| log(&format!("ic3cfa: {line}")),
    );
    let mut stats = Stats {
        depth: cs.frames,
        time: start.elapsed(),
        ..Stats::default()
    };
    stats.sat.calls = cs.checks;
    stats.sat.time = cs.smt_time;
    stats.program = Some(cs.clone());
    let proof = InvariantProof {
        engine: EngineId::Ic3cfa,
        unit: "lemmas",
        what: "the IC3CFA invariant",
    };
    let deadline = check_deadline(whole, budget, 4);
    checked_run(ts, verdict, request, deadline, proof, stats, log)
}

/// Explicit execution (`engines::explicit`) on `cfa`: a run to the error
/// becomes a trace within `whole`, replayed on `ts`; an invariant is
/// confirmed by the certificate checker within half the time left in
/// `whole` (the engine's own budget without `whole`, for both). Half, not
/// IC3CFA's quarter: the states of a run or a search are the exact
/// reachable states, so their check failing only runs out of time, and the
/// heap programs' checks take invar's solver 16 to 22 s
/// (`list-simple/dll2c_*`).
pub(super) fn check_explicit(
    cfa: &Cfa,
    ts: &Ts,
    request: &Request,
    options: ExplicitOptions,
    whole: Option<&Budget>,
    log: Log,
) -> Result<Run, String> {
    let budget = &request.budget;
    let start = Instant::now();
    let tracing = whole.unwrap_or(budget);
    let (verdict, es) = explicit::check(
        cfa,
        ts,
        options,
        request.smt,
        (budget, tracing),
        &mut |line| log(&format!("explicit: {line}")),
    );
    log(&format!(
        "explicit: {} runs, {} steps, {} states, {} trace steps by SMT in {:.2?}",
        es.runs, es.steps, es.states, es.smt_steps, es.time
    ));
    let stats = Stats {
        depth: es.states,
        time: start.elapsed(),
        ..Stats::default()
    };
    let proof = InvariantProof {
        engine: EngineId::Explicit,
        unit: "states",
        what: "the explicit run's invariant",
    };
    let deadline = check_deadline(whole, budget, 2);
    checked_run(ts, verdict, request, deadline, proof, stats, log)
}

/// The deadline of an invariant's check: the `share`-th part of the time
/// `whole` has left when the search ends (10 s if it has no limit), or
/// without `whole` the engine's own budget's.
fn check_deadline(whole: Option<&Budget>, budget: &Budget, share: u32) -> Option<Instant> {
    match whole.map(|w| w.deadline()) {
        Some(Some(d)) => Some(Instant::now() + d.saturating_duration_since(Instant::now()) / share),
        Some(None) => Some(Instant::now() + Duration::from_secs(10)),
        None => budget.deadline(),
    }
}
