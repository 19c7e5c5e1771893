//! `invar check` on word-level models: read into a transition system,
//! bit-blast, decide on the circuit, and replay any counterexample on the
//! word-level model with the concrete evaluator before printing it.
//!
//! BTOR2 answers in the BTOR2 witness format: `sat` with a witness, `unsat`,
//! or `unknown`. VMT answers `safe`, `unsafe` or `unknown` as ic3ia does,
//! with the counterexample under `--witness`; so does DimSpec.

use super::args::{CheckArgs, EngineArg};
use super::check::Format;
use super::check::{
    decide, maybe_write_certificate, report_unknown, safe_summary, select_properties, start_budget,
    summary, Decided,
};
use super::check_smt::{self, SmtDecided};
use super::json::JsonObject;
use super::{print_verdict, EXIT_SAFE, EXIT_UNSAFE};
use invar::bitblast::bitblast;
use invar::check::word;
use invar::formats::{btor2, dimspec, vmt};
use invar::ir::aig::Lit;
use invar::ir::ts::{Ts, WordTrace};
use invar::util::budget::Budget;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Reads a word-level model in `format`.
pub fn read_model(path: &std::path::Path, format: Format) -> Result<Ts, String> {
    match format {
        Format::Btor2 => btor2::read_file(path),
        Format::Vmt => vmt::read_file(path),
        Format::Dimspec => dimspec::read_file(path),
        Format::Aiger | Format::C => unreachable!("circuits and programs are read elsewhere"),
    }
    .map_err(|e| e.to_string())
}

pub fn run(args: &CheckArgs, format: Format) -> Result<i32, String> {
    let start = Instant::now();
    let unknown_text = "unknown\n";
    let budget = start_budget(args, Arc::new(Mutex::new(unknown_text.into())))?;
    let file = args.file.display().to_string();
    let ts = read_model(&args.file, format)?;
    let props = select_properties(
        ts.bad.len(),
        !ts.justice.is_empty(),
        args.property,
        &file,
        "bad or justice",
    )?;
    if props.is_empty() {
        let reason = "justice properties are not supported yet";
        return Ok(report_unknown(
            args,
            &file,
            &props,
            reason,
            None,
            start,
            unknown_text,
        ));
    }
    if args.engine == EngineArg::Smt {
        return run_smt(args, format, &ts, &props, &budget, start);
    }
    let blasted = match bitblast(&ts) {
        Ok(b) => b,
        Err(reason) if invar::smt::kind::unsupported(&ts).is_none() => {
            // Int and Real: the word-level engine decides.
            if args.verbose {
                eprintln!("invar: {file}: not bit-blasted ({reason}); SMT engine");
            }
            return run_smt(args, format, &ts, &props, &budget, start);
        }
        Err(reason) => {
            let reason = format!("{file}: {reason}");
            return Ok(report_unknown(
                args,
                &file,
                &props,
                &reason,
                None,
                start,
                unknown_text,
            ));
        }
    };
    if args.verbose {
        eprintln!(
            "invar: {file}: {} states, {} inputs, {} terms; bit-blasted",
            ts.states.len(),
            ts.inputs.len(),
            ts.terms.len()
        );
    }
    let full = &blasted.aig;
    let (decided, outcome) = decide(full, &props, args, &budget, &file)?;
    match decided {
        Decided::Unsafe(trace) => {
            let words = blasted.word_trace(&ts, &trace);
            match word::replay(&ts, &words, &props) {
                Ok(reached) if reached.step + 1 == words.len() => {
                    let witness = unsafe_text(args, format, &ts, &reached.properties, &words);
                    if args.verbose {
                        eprintln!(
                            "invar: counterexample of {} steps replays on the word-level model of {file}",
                            words.len()
                        );
                    }
                    let text = if args.json {
                        let o = summary(&file, "unsafe", &reached.properties, &outcome, start);
                        with_witness(o, words.len(), &witness)
                    } else {
                        witness
                    };
                    print_verdict(&text);
                    Ok(EXIT_UNSAFE)
                }
                other => Err(format!(
                    "internal error: the {} engine's counterexample does not replay on the word-level model ({other:?}); no verdict",
                    outcome.engine
                )),
            }
        }
        Decided::Safe { cubes } => {
            let bad: Vec<Lit> = props.iter().map(|&p| full.bad[p]).collect();
            maybe_write_certificate(args, full, &bad, cubes.as_deref(), &file, &props)?;
            let text = if args.json {
                safe_summary(&file, &props, &outcome, start, cubes.as_deref())
            } else {
                safe_text(format).to_string()
            };
            print_verdict(&text);
            Ok(EXIT_SAFE)
        }
        Decided::Unknown(reason) => Ok(report_unknown(
            args,
            &file,
            &props,
            &reason,
            Some(&outcome),
            start,
            unknown_text,
        )),
    }
}

/// The answer and witness of an unsafe model in `format`'s convention.
fn unsafe_text(
    args: &CheckArgs,
    format: Format,
    ts: &Ts,
    reached: &[usize],
    words: &WordTrace,
) -> String {
    match format {
        Format::Btor2 => btor2::witness::write_witness(ts, reached, words),
        _ if args.witness => format!("unsafe\n{}", vmt::write_trace(ts, words)),
        _ => "unsafe\n".to_string(),
    }
}

/// A JSON summary of an unsafe answer with its trace length and witness.
fn with_witness(mut o: JsonObject, steps: usize, witness: &str) -> String {
    o.number("steps", steps).string("witness", witness);
    o.finish()
}

/// The answer of a safe model in `format`'s convention.
fn safe_text(format: Format) -> &'static str {
    match format {
        Format::Btor2 => "unsat\n",
        _ => "safe\n",
    }
}

/// Decides with the SMT engine and prints the checked verdict.
fn run_smt(
    args: &CheckArgs,
    format: Format,
    ts: &Ts,
    props: &[usize],
    budget: &Budget,
    start: Instant,
) -> Result<i32, String> {
    let file = args.file.display().to_string();
    match check_smt::decide(ts, props, args, budget)? {
        SmtDecided::Unsafe(words, reached) => {
            let witness = unsafe_text(args, format, ts, &reached, &words);
            let text = if args.json {
                let o = check_smt::summary(&file, "unsafe", &reached, start);
                with_witness(o, words.len(), &witness)
            } else {
                witness
            };
            print_verdict(&text);
            Ok(EXIT_UNSAFE)
        }
        SmtDecided::Safe { k, checker } => {
            let text = if args.json {
                let mut o = check_smt::summary(&file, "safe", props, start);
                o.number("k", k + 1).string("proof_checked_by", checker);
                o.finish()
            } else {
                safe_text(format).to_string()
            };
            print_verdict(&text);
            Ok(EXIT_SAFE)
        }
        SmtDecided::Unknown(reason) | SmtDecided::Unconfirmed(reason) => Ok(report_unknown(
            args,
            &file,
            props,
            &format!("{file}: {reason}"),
            None,
            start,
            "unknown\n",
        )),
    }
}
