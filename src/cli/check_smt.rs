//! The SMT engine behind `invar check`: for word-level models the
//! bit-blaster cannot take (Int and Real sorts) and under `--engine smt`.
//! Nothing leaves here unchecked: a counterexample is replayed on the model
//! with the evaluator, and a proof is asked again of another solver.

use super::args::CheckArgs;
use super::json::JsonObject;
use invar::check::{smt_proof, word};
use invar::ir::ts::{Ts, WordTrace};
use invar::smt::kind::{self, WordVerdict};
use invar::util::budget::Budget;
use std::time::Instant;

/// A checked verdict of the SMT engine.
pub enum SmtDecided {
    /// A replayed counterexample and the properties it violates.
    Unsafe(WordTrace, Vec<usize>),
    /// A k-induction proof of depth `k`, confirmed by `checker`.
    Safe {
        /// The depth.
        k: usize,
        /// The solver that confirmed it.
        checker: &'static str,
    },
    /// No verdict, with the reason.
    Unknown(String),
    /// The engine claimed a proof that the second solver did not confirm
    /// (an engine bug or a solver disagreement): no verdict.
    Unconfirmed(String),
}

/// Runs the SMT engine on the properties `props` of `ts` and checks its answer.
pub fn decide(
    ts: &Ts,
    props: &[usize],
    args: &CheckArgs,
    budget: &Budget,
) -> Result<SmtDecided, String> {
    let backend = args.smt.backend();
    let verbose = args.verbose;
    let mut progress = |line: &str| {
        if verbose {
            eprintln!("invar: smt: {line}");
        }
    };
    let (verdict, stats) = kind::check(
        ts,
        props,
        &mut || backend.start(budget),
        budget,
        args.max_k,
        &mut progress,
    )?;
    if args.verbose {
        eprintln!(
            "invar: smt ({}): depth {}, {} solver calls",
            backend.name(),
            stats.depth,
            stats.checks
        );
    }
    Ok(match verdict {
        WordVerdict::Unsafe(trace) => match word::replay(ts, &trace, props) {
            Ok(reached) if reached.step + 1 == trace.len() => {
                SmtDecided::Unsafe(trace, reached.properties)
            }
            other => {
                return Err(format!(
                    "internal error: the SMT engine's counterexample does not replay ({other:?}); no verdict"
                ))
            }
        },
        WordVerdict::Safe { k } => {
            match smt_proof::check_kinduction(ts, props, k, backend.name(), budget.deadline()) {
                Ok(checker) => {
                    if args.verbose {
                        eprintln!(
                            "invar: smt: the {}-induction proof is confirmed by {checker}",
                            k + 1,
                        );
                    }
                    SmtDecided::Safe { k, checker }
                }
                Err(e) => SmtDecided::Unconfirmed(format!(
                    "the SMT engine's proof could not be confirmed ({e}); no verdict"
                )),
            }
        }
        WordVerdict::Unknown(reason) => SmtDecided::Unknown(reason),
    })
}

/// The `--json` summary of an SMT verdict.
pub fn summary(file: &str, verdict: &str, props: &[usize], start: Instant) -> JsonObject {
    let mut o = JsonObject::default();
    o.string("file", file)
        .string("verdict", verdict)
        .numbers("properties", props)
        .string("engine", "smt")
        .number("time", format!("{:.3}", start.elapsed().as_secs_f64()));
    o
}
