//! Word-level models: bit-blasted onto the circuit pipeline when their sorts
//! allow (the trace replayed on the terms), else (Int, Real) decided on the
//! SMT layer by the engines of [`super::word_engines`].

use super::word_engines::{check_ic3ia, check_smt, replayed};
use super::{certificate, circuit, schedule, Answer, Engine, Log, Request, Run, Witness};
use crate::bitblast::bitblast;
use crate::check::word::replay_lasso;
use crate::ir::trace::Trace;
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
    let mut run = circuit::check_circuit(&blasted.aig, request, log, circuit_proofs, &[])?;
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

/// Decides liveness property `j` of a word-level model (a BTOR2 justice
/// property or a VMT `:live-property`, numbered as
/// [`Ts::liveness_signals`] numbers them) on its bit-blasted circuit, where
/// it is the circuit's justice property `j`; a lasso is replayed on the
/// terms.
pub(super) fn check_word_liveness(
    ts: &Ts,
    j: usize,
    request: &Request,
    log: Log,
) -> Result<Run, String> {
    if j >= ts.liveness_count() {
        return Err(format!(
            "the model has {} liveness properties, not {j}",
            ts.liveness_count()
        ));
    }
    if let Engine::Smt | Engine::Ic3ia | Engine::Ic3cfa | Engine::Explicit = request.engine {
        return Ok(Run::unknown(
            "liveness is decided on the bit-blasted circuit, by auto, ic3, bmc, kind, itp or scorr"
                .into(),
        ));
    }
    let blasted = match bitblast(ts) {
        Ok(b) => b,
        Err(reason) => {
            return Ok(Run::unknown(format!(
                "liveness is decided on the bit-blasted circuit, and this model does not blast: {reason}"
            )))
        }
    };
    log(&format!(
        "{} states, {} inputs, {} terms; bit-blasted for liveness property {j}",
        ts.states.len(),
        ts.inputs.len(),
        ts.terms.len()
    ));
    let mut replay = |lasso: Trace| {
        let words = blasted.word_trace(ts, &lasso);
        let start = replay_lasso(ts, j, &words)?;
        Ok((Witness::Word(words), start))
    };
    circuit::check_liveness(&blasted.aig, j, request, log, &mut replay)
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
