//! Word-level models: bit-blasted onto the circuit pipeline when their sorts
//! allow (the trace replayed on the terms), else (Int, Real) decided on the
//! SMT layer by the engines of [`super::word_engines`].

use super::word_engines::{check_ic3ia, check_smt, replayed};
use super::{certificate, circuit, schedule, Answer, Engine, Log, Request, Run, Witness};
use crate::bitblast::bitblast;
use crate::ir::ts::Ts;
use crate::smt;

/// Decides a word-level model and builds the certificate of a proof if the
/// request asks. `circuit_proofs`: whether `auto` on the blasted circuit
/// runs the engines whose proofs are circuits (k-induction's step cases,
/// signal correspondence).
pub(super) fn check_word(
    ts: &Ts,
    request: &Request,
    log: Log,
    circuit_proofs: bool,
) -> Result<Run, String> {
    match request.engine {
        Engine::Smt => return certified_run(ts, None, request, check_smt(ts, request, log)?),
        Engine::Ic3ia => return certified_run(ts, None, request, check_ic3ia(ts, request, log)?),
        Engine::Ic3cfa | Engine::Explicit => {
            return Ok(Run::unknown(
                "IC3CFA and explicit execution run on the control-flow automata of C programs"
                    .into(),
            ))
        }
        _ => {}
    }
    let blasted = match bitblast(ts) {
        Ok(b) => b,
        Err(reason) if smt::unfold::not_unrollable(ts).is_none() => {
            log(&format!("not bit-blasted ({reason}); word-level engine"));
            let run = match request.engine {
                Engine::Auto => schedule::word_portfolio(ts, request, log)?,
                _ => check_smt(ts, request, log)?,
            };
            return certified_run(ts, None, request, run);
        }
        Err(reason) => return Ok(Run::unknown(reason.to_string())),
    };
    log(&format!(
        "{} states, {} inputs, {} terms; bit-blasted",
        ts.states.len(),
        ts.inputs.len(),
        ts.terms.len()
    ));
    let mut run = circuit::check_circuit(&blasted.aig, request, log, circuit_proofs)?;
    if let Answer::Unsafe {
        witness: Witness::Bit(trace),
        ..
    } = &run.answer
    {
        let words = blasted.word_trace(ts, trace);
        let steps = words.len();
        run.answer = replayed(ts, words, &request.properties, run.engine_name())?;
        log(&format!(
            "counterexample of {steps} steps replays on the word-level model"
        ));
    }
    certified_run(ts, Some(&blasted), request, run)
}

/// `run` with the certificate of its proof of `ts` (over `blasted`, when
/// the proof is over that circuit), if the request asks for one.
pub(super) fn certified_run(
    ts: &Ts,
    blasted: Option<&crate::bitblast::Blasted>,
    request: &Request,
    mut run: Run,
) -> Result<Run, String> {
    if let (true, Answer::Safe { evidence, .. }) = (request.certificate, &run.answer) {
        run.certificate = Some(certificate::of_system(ts, blasted, evidence));
    }
    Ok(run)
}
