//! C programs: the engines of [`super::program_engines`] on the
//! control-flow automaton (under `auto`, the phases of
//! [`schedule::program_phases`]), then the word-level pipeline on the
//! automaton's encoding. Every answer is checked on that encoding. A trace
//! that ends in an array access out of bounds reaches undefined behaviour,
//! not the error: no verdict.

use super::model::ProgramModel;
use super::program_engines::{check_explicit, check_ic3cfa};
use super::{schedule, word, Answer, Engine, Log, Request, Run, Witness};
use crate::engines::explicit::ExplicitOptions;
use crate::ir::term::eval::Value;
use crate::ir::term::Term;
use crate::ir::ts::WordTrace;

/// Decides a C program: the engine the request names, or under `auto` the
/// phases of [`schedule::program_phases`], then the word-level pipeline on
/// the encoding (without k-induction's step cases: a correctness witness
/// carries loop invariants, which k-induction does not give, and the C set
/// was measured without them).
pub(super) fn check_program(
    model: &ProgramModel,
    request: &Request,
    log: Log,
) -> Result<Run, String> {
    let (cfa, ts) = (&model.program.cfa, &model.ts);
    let run = match request.engine {
        Engine::Ic3cfa => check_ic3cfa(cfa, ts, request, None, log)?,
        Engine::Explicit => {
            check_explicit(cfa, ts, request, ExplicitOptions::default(), None, log)?
        }
        Engine::Auto => match schedule::program_phases(model, request, log)? {
            Some(run) => run,
            None => return checked(model, word::check_word(ts, request, log, false)?),
        },
        _ => return checked(model, word::check_word(ts, request, log, false)?),
    };
    // The phases' proofs are invariants of the encoding.
    checked(model, word::certified_run(ts, None, request, run)?)
}

/// `run`, with a trace that reaches the error location through undefined
/// behaviour the encoding does not end at turned into no verdict.
fn checked(model: &ProgramModel, mut run: Run) -> Result<Run, String> {
    match &run.answer {
        Answer::Unsafe {
            witness: Witness::Word(words),
            ..
        } => {
            let steps = words.states.len();
            if (model.program.cut).is_some_and(|flag| set_at_end(model, words, flag)) {
                // The program is inlined to a depth; this execution
                // recurses deeper, where the encoding does not follow.
                run.answer = Answer::Unknown(format!(
                    "a recursive call deeper than the program is inlined to is reachable \
                     ({steps} steps), so neither verdict"
                ));
            } else if out_of_bounds_at_end(model, words) {
                // The path reaches undefined behaviour, which the property
                // does not speak of; what would follow is anybody's guess.
                run.answer = Answer::Unknown(match model.options.property {
                    crate::cfront::Spec::MemSafety => format!(
                        "undefined behaviour, or objects still live where the execution ends or \
                         loops (reachable or lost: the count cannot tell), is reachable ({steps} \
                         steps), so neither verdict"
                    ),
                    _ => format!(
                        "undefined behaviour that the encoding does not end the execution at \
                         (an object read at a type it was not given, an address out of bounds, \
                         an allocation it cannot number) is reachable ({steps} steps), so \
                         neither verdict"
                    ),
                });
            }
            Ok(run)
        }
        Answer::Unsafe { .. } => Err("internal error: a trace not on the program's terms".into()),
        _ => Ok(run),
    }
}

/// Whether the trace ends with the program's out-of-bounds flag set: it
/// reached the error location through undefined behaviour.
fn out_of_bounds_at_end(model: &ProgramModel, trace: &WordTrace) -> bool {
    (model.program.out_of_bounds).is_some_and(|flag| set_at_end(model, trace, flag))
}

/// Whether the Bool state `flag` is true in the trace's last state.
fn set_at_end(model: &ProgramModel, trace: &WordTrace, flag: Term) -> bool {
    let Some(last) = trace.states.last() else {
        return false;
    };
    (model.ts.states.iter().zip(last)).any(|(s, v)| s.var == flag && matches!(v, Value::Bool(true)))
}

impl ProgramModel {
    /// The (sub)property a counterexample `trace` violates, by SV-COMP's
    /// name (`valid-deref` in `false(valid-deref)`).
    pub fn violated(&self, trace: &WordTrace) -> &'static str {
        let fault = (self.program.violations.iter()).find(|v| set_at_end(self, trace, v.0));
        match fault {
            Some((_, fault)) => fault.property(),
            None => self.options.property.name(),
        }
    }
}
