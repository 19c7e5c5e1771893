//! `invar crosscheck`: every engine on every representation of one model,
//! every witness replayed on the model as read, and the verdicts compared.
//!
//! Representations: a word-level model is checked through its bit-blasted
//! circuit, through its VMT export read back, and through the circuit's AIGER
//! encoding read back; an AIGER model as read, and through its lifting to a
//! Bool transition system bit-blasted again. Beside the bit-level engines,
//! the word-level SMT engine runs on the word-level model and on its VMT
//! export (for AIGER, on the lifted system); Int/Real models get only these
//! rows. A disagreement, a trace that does not replay or a proof that fails
//! its check exits with code 3.

use super::{EXIT_REJECTED, EXIT_UNKNOWN};
use invar::bitblast::{bitblast, ts_from_aig, Blasted};
use invar::check::{replay, word};
use invar::formats::{aiger, vmt};
use invar::ir::aig::Aig;
use invar::ir::trace::Trace;
use invar::ir::ts::Ts;
use invar::util::budget::Budget;
use invar::verify::model::read_system;
use invar::verify::{self, Answer, Engine, Format, Model, Request, Witness};
use std::path::Path;
use std::time::{Duration, Instant};

/// How a representation's counterexamples are replayed on the original model.
enum Original<'a> {
    Aiger(&'a aiger::Aiger),
    /// The original system, and the blasting (and system) the trace is read through.
    Word(&'a Ts, Box<(Blasted, Ts)>),
}

struct Representation<'a> {
    name: &'static str,
    aig: Aig,
    original: Original<'a>,
}

impl Representation<'_> {
    /// Replays a counterexample of `self.aig` on the original model.
    fn replay(&self, props: &[usize], trace: &Trace) -> Result<usize, String> {
        match &self.original {
            Original::Aiger(a) => {
                // The lifted model's trace: reset functions lowered, the
                // `first` latch last.
                let init: Vec<Option<bool>> = (trace.init.iter().take(a.latches.len()))
                    .map(|&b| Some(b))
                    .collect();
                let inputs: Vec<Vec<Option<bool>>> = (trace.inputs.iter())
                    .map(|v| v.iter().map(|&b| Some(b)).collect())
                    .collect();
                match replay::replay(a, props, &init, &inputs) {
                    replay::Replay::Reached { step, .. } => Ok(step),
                    replay::Replay::NotReached(r) => Err(r),
                }
            }
            Original::Word(ts, parts) => {
                let (blasted, through) = &**parts;
                let words = blasted.word_trace(through, trace);
                word::replay(ts, &words, props).map(|r| r.step)
            }
        }
    }
}

/// Runs the cross-check and prints its table.
pub fn run(file: &Path, timeout: f64, property: Option<usize>) -> Result<i32, String> {
    if !(timeout.is_finite() && timeout > 0.0) {
        return Err(format!(
            "--timeout must be a positive number of seconds, not {timeout}"
        ));
    }
    let name = file.display().to_string();
    let format = Format::of(file)?;
    let (aiger_model, ts);
    let mut reps: Vec<Representation> = Vec::new();
    // Word-level systems for the SMT engine, which replays on them.
    let mut systems: Vec<(&'static str, Ts)> = Vec::new();
    let prop_count;
    if format == Format::Aiger {
        aiger_model = aiger::read_file(file).map_err(|e| e.to_string())?;
        let aig = aiger_model.to_aig();
        prop_count = aig.bad.len();
        let lifted_ts = ts_from_aig(&aig.without_resets());
        let lifted = bitblast(&lifted_ts).map_err(|e| format!("{name}: {e}"))?;
        systems.push(("aiger->ts", lifted_ts));
        reps.push(Representation {
            name: "aiger",
            aig,
            original: Original::Aiger(&aiger_model),
        });
        reps.push(Representation {
            name: "aiger->ts->aig",
            aig: lifted.aig,
            original: Original::Aiger(&aiger_model),
        });
    } else {
        ts = read_system(file, format)?;
        prop_count = ts.bad.len();
        let exported = vmt::read_str("(vmt export)", &vmt::write(&ts))
            .map_err(|e| format!("internal error: the VMT export does not read back: {e}"))?;
        if invar::smt::unfold::unsupported(&ts).is_none() {
            systems.push(("word", ts.clone()));
            systems.push(("vmt-export", exported.clone()));
        }
        let blasted = match bitblast(&ts) {
            Ok(b) => b,
            // Int and Real: only the SMT engine's representations.
            Err(_) if !systems.is_empty() => return smt_only(&name, &systems, property, timeout),
            Err(e) => return Err(format!("{name}: {e}")),
        };
        let blasted_export = bitblast(&exported).map_err(|e| format!("{name}: {e}"))?;
        let encoded = aiger::write_binary(&aiger::Aiger::from_aig(&blasted.aig));
        let reread = aiger::read_bytes("(aiger export)", &encoded)
            .map_err(|e| format!("internal error: the AIGER export does not read back: {e}"))?
            .to_aig();
        reps.push(Representation {
            name: "word->aig",
            aig: blasted.aig.clone(),
            original: Original::Word(&ts, Box::new((blasted.clone(), ts.clone()))),
        });
        reps.push(Representation {
            name: "vmt-export->aig",
            aig: blasted_export.aig.clone(),
            original: Original::Word(&ts, Box::new((blasted_export, exported))),
        });
        reps.push(Representation {
            name: "aiger-export",
            aig: reread,
            original: Original::Word(&ts, Box::new((blasted, ts.clone()))),
        });
    }
    let props = select(&name, property, prop_count)?;
    print_header();
    let mut safe = 0;
    let mut unsafe_ = 0;
    let mut failures = 0;
    for rep in &reps {
        // The representation as a circuit read from a file: the pipeline
        // replays its traces on it, and the rows below on the original.
        let model = Model::Circuit(aiger::Aiger::from_aig(&rep.aig));
        for (engine, label) in [
            (Engine::Ic3, "ic3"),
            (Engine::Bmc, "bmc"),
            (Engine::Kind, "kind"),
        ] {
            let request = request(engine, &props, timeout);
            let start = Instant::now();
            let answer = verify::check(&model, &request, &mut |_| {}).map(|r| r.answer);
            let (verdict, check) = match answer {
                Ok(Answer::Unsafe {
                    witness: Witness::Bit(trace),
                    ..
                }) => match rep.replay(&props, &trace) {
                    Ok(step) if step + 1 == trace.len() => {
                        unsafe_ += 1;
                        ("unsafe", format!("trace of {} steps replays", trace.len()))
                    }
                    Ok(step) => {
                        failures += 1;
                        (
                            "unsafe",
                            format!("FAILED: trace hits the property early, at step {step}"),
                        )
                    }
                    Err(e) => {
                        failures += 1;
                        ("unsafe", format!("FAILED: trace does not replay: {e}"))
                    }
                },
                Ok(Answer::Safe { evidence, checker }) => {
                    safe += 1;
                    (
                        "safe",
                        format!("{} checked with {checker}", evidence.describe()),
                    )
                }
                Ok(Answer::Unknown(reason)) => ("unknown", reason),
                Ok(other) => {
                    failures += 1;
                    ("error", format!("FAILED: unexpected {other:?}"))
                }
                Err(e) => {
                    failures += 1;
                    ("error", format!("FAILED: {e}"))
                }
            };
            print_row(rep.name, label, verdict, start, &check);
        }
    }
    let (s, u, f) = smt_rows(&systems, &props, timeout);
    (safe, unsafe_, failures) = (safe + s, unsafe_ + u, failures + f);
    conclude(safe, unsafe_, failures)
}

/// A request for one engine run.
fn request(engine: Engine, props: &[usize], timeout: f64) -> Request {
    Request {
        engine,
        budget: Budget::with_timeout(Duration::from_secs_f64(timeout)),
        ..Request::new(props.to_vec())
    }
}

/// The word-level engines (BMC/k-induction and IC3+IA on the SMT layer) on
/// each word-level system; prints rows and returns the counts of safe,
/// unsafe and failed answers. Their answers are checked inside (trace
/// replay on the system, proof re-asked of another solver).
fn smt_rows(
    systems: &[(&'static str, Ts)],
    props: &[usize],
    timeout: f64,
) -> (usize, usize, usize) {
    let (mut safe, mut unsafe_, mut failures) = (0, 0, 0);
    let engines = [(Engine::Smt, "smt"), (Engine::Ic3ia, "ic3ia")];
    for (label, system) in systems {
        let model = Model::System(system.clone());
        for &(engine, name) in &engines {
            let start = Instant::now();
            let request = request(engine, props, timeout);
            let answer = verify::check(&model, &request, &mut |_| {}).map(|r| r.answer);
            let (verdict, check) = match answer {
                Ok(Answer::Unsafe { witness, .. }) => {
                    unsafe_ += 1;
                    (
                        "unsafe",
                        format!("trace of {} steps replays", witness.len()),
                    )
                }
                Ok(Answer::Safe { evidence, checker }) => {
                    safe += 1;
                    (
                        "safe",
                        format!("{} confirmed by {checker}", evidence.describe()),
                    )
                }
                Ok(Answer::Unconfirmed(reason)) => {
                    failures += 1;
                    ("unknown", format!("FAILED: {reason}"))
                }
                Ok(Answer::Unknown(reason)) => ("unknown", reason),
                Err(e) => {
                    failures += 1;
                    ("error", format!("FAILED: {e}"))
                }
            };
            print_row(label, name, verdict, start, &check);
        }
    }
    (safe, unsafe_, failures)
}

/// The cross-check of a model only the word-level engines take (Int, Real).
fn smt_only(
    name: &str,
    systems: &[(&'static str, Ts)],
    property: Option<usize>,
    timeout: f64,
) -> Result<i32, String> {
    let count = systems[0].1.bad.len();
    let props = select(name, property, count)?;
    print_header();
    let (safe, unsafe_, failures) = smt_rows(systems, &props, timeout);
    conclude(safe, unsafe_, failures)
}

fn select(name: &str, property: Option<usize>, count: usize) -> Result<Vec<usize>, String> {
    match property {
        Some(p) if p < count => Ok(vec![p]),
        Some(p) => Err(format!("{name}: --property {p} is out of range")),
        None if count == 0 => Err(format!("{name}: the model has no bad property")),
        None => Ok((0..count).collect()),
    }
}

/// One row of the table: representation, engine, verdict, time since `start`, check.
fn print_row(representation: &str, engine: &str, verdict: &str, start: Instant, check: &str) {
    let secs = start.elapsed().as_secs_f64();
    outln!("{representation:<18} {engine:<6} {verdict:<8} {secs:>7.2}s  {check}");
}

fn print_header() {
    outln!(
        "{:<18} {:<6} {:<8} {:>8}  check",
        "representation",
        "engine",
        "verdict",
        "time"
    );
}

/// Prints the conclusion and gives the exit code.
fn conclude(safe: usize, unsafe_: usize, failures: usize) -> Result<i32, String> {
    if safe > 0 && unsafe_ > 0 {
        outln!("DISAGREEMENT: {safe} safe and {unsafe_} unsafe answers");
        return Ok(EXIT_REJECTED);
    }
    if failures > 0 {
        outln!("{failures} answers failed their checks");
        return Ok(EXIT_REJECTED);
    }
    let verdict = match (safe, unsafe_) {
        (0, 0) => "no verdict".to_string(),
        (s, 0) => format!("all {s} verdicts safe"),
        (_, u) => format!("all {u} verdicts unsafe"),
    };
    outln!("agreement: {verdict}");
    Ok(EXIT_UNKNOWN)
}
