//! `invar check`: read, reduce, run an engine, validate the verdict, print it.
//!
//! No verdict is printed before it is validated: a counterexample must replay
//! on the model as read from its file, and a proof must be re-derived by the
//! independent checker on the other SAT backend. A failed validation is an
//! internal error (exit 1), never a verdict.

use super::args::{CheckArgs, EngineArg};
use super::json::JsonObject;
use super::{print_verdict, EXIT_SAFE, EXIT_UNKNOWN, EXIT_UNSAFE};
use invar::check::{certificate, invariant, kinduction, replay};
use invar::engines::ic3::Ic3Options;
use invar::engines::kind::KindOptions;
use invar::engines::portfolio::EngineFn;
use invar::engines::{bmc, ic3, kind, portfolio, Limits, Outcome, Proof, Verdict};
use invar::formats::aiger::{self, Aiger};
use invar::formats::witness::write_aiger_witness;
use invar::ir::aig::{Aig, Lit};
use invar::ir::trace::Trace;
use invar::preprocess::prepare::{prepare, PrepareOptions};
use invar::sat::Backend;
use invar::util::budget::Budget;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Grace after the deadline before the watchdog answers unknown on its own.
const WATCHDOG_GRACE: Duration = Duration::from_millis(800);

/// The model formats `check` reads, by file extension.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Format {
    Aiger,
    Btor2,
    Vmt,
    Dimspec,
    C,
}

/// The format of `path`, from its extension.
pub(super) fn model_format(path: &std::path::Path) -> Result<Format, String> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("aag" | "aig") => Ok(Format::Aiger),
        Some("btor2" | "btor") => Ok(Format::Btor2),
        Some("vmt" | "smt2") => Ok(Format::Vmt),
        Some("dimspec") => Ok(Format::Dimspec),
        Some("c" | "i") => Ok(Format::C),
        _ => Err(format!(
            "{}: unknown model format: expected the extension .aag, .aig, .btor2, .btor, .vmt, .dimspec, .c or .i",
            path.display()
        )),
    }
}

pub fn run(args: &CheckArgs) -> Result<i32, String> {
    match model_format(&args.file)? {
        Format::Aiger => run_aiger(args),
        Format::C => super::check_c::run(args),
        format => super::check_word::run(args, format),
    }
}

/// The run's budget; with a time limit, also a watchdog that prints the text
/// in `unknown_text` and exits if the run overstays.
pub(super) fn start_budget(
    args: &CheckArgs,
    unknown_text: Arc<Mutex<String>>,
) -> Result<Budget, String> {
    let budget = match args.timeout {
        Some(t) if t.is_finite() && t > 0.0 => Budget::with_timeout(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(format!(
                "--timeout must be a positive number of seconds, not {t}"
            ))
        }
        None => Budget::unlimited(),
    };
    if let Some(deadline) = budget.deadline() {
        start_watchdog(deadline + WATCHDOG_GRACE, unknown_text, args.json);
    }
    Ok(budget)
}

/// What the engines decided on a bit-level circuit, with proofs already checked.
pub(super) enum Decided {
    /// A counterexample on the full circuit, still to be replayed on the file's model.
    Unsafe(Trace),
    /// A proof that passed the independent checker; for IC3, the invariant's
    /// cubes over the full circuit's latches.
    Safe {
        cubes: Option<Vec<Vec<(usize, bool)>>>,
    },
    /// No verdict, and why.
    Unknown(String),
}

/// The reductions before the engines: everything unless `--no-simplify`;
/// SAT sweeping gets a tenth of the time limit, at most 5 s.
fn prepare_options(args: &CheckArgs, budget: &Budget) -> PrepareOptions {
    let cap = Duration::from_secs(5);
    let sweep = match budget.deadline() {
        Some(d) => cap.min(d.saturating_duration_since(Instant::now()) / 10),
        None => cap,
    };
    // Ablation switch for measurements, not part of the documented CLI.
    let no_fraig = std::env::var_os("INVAR_NO_FRAIG").is_some();
    PrepareOptions {
        simplify: !args.no_simplify,
        fraig: (!args.no_simplify && !no_fraig).then_some(sweep),
    }
}

/// Reduces `full` to the cone of `props`, runs the engine, and checks any
/// proof on the SAT backend the engine did not use. A proof that fails its
/// check is an internal error, never a verdict.
pub(super) fn decide(
    full: &Aig,
    props: &[usize],
    args: &CheckArgs,
    budget: &Budget,
    file: &str,
) -> Result<(Decided, Outcome), String> {
    let bad: Vec<Lit> = props.iter().map(|&p| full.bad[p]).collect();
    let prepared = prepare(full, props, &prepare_options(args, budget));
    let (reduced, restore) = (&prepared.aig, &prepared.restore);
    if args.verbose {
        eprintln!(
            "invar: {file}: {} inputs, {} latches, {} ands; {} constant and {} merged latches; \
             cone of {}: {} inputs, {} latches, {} ands",
            full.inputs.len(),
            full.latches.len(),
            full.num_ands(),
            prepared.constants,
            prepared.merged,
            props_text(props),
            reduced.inputs.len(),
            reduced.latches.len(),
            reduced.num_ands()
        );
        if let Some(f) = &prepared.fraig {
            eprintln!(
                "invar: SAT sweeping: {} of {} ands merged ({} checks, {} refuted, {} undecided) in {:.3}s",
                f.merged,
                f.ands_before,
                f.checks,
                f.refuted,
                f.undecided,
                f.time.as_secs_f64()
            );
        }
    }
    // Measured (docs/ARCHITECTURE.md): IC3 runs on the core, whose queries
    // restrict to the cube's cone; BMC's large unrollings want CaDiCaL.
    let chosen = args.sat.map(|s| s.backend()).transpose()?;
    let backend: Backend = chosen.unwrap_or(Backend::Cadical);
    let ic3_backend: Backend = chosen.unwrap_or(Backend::Core);
    let limits = Limits {
        max_depth: args.max_k,
        budget: budget.clone(),
        backend,
    };
    let outcome = run_engine(args, reduced, &limits, ic3_backend);
    if args.verbose {
        print_statistics(&outcome);
    }
    let decided = match &outcome.verdict {
        Verdict::Unsafe(trace) => Decided::Unsafe(restore.trace(trace)),
        Verdict::Unknown(reason) => Decided::Unknown(reason.clone()),
        Verdict::Safe(proof) => {
            let check_budget = Budget::with_timeout(match budget.deadline() {
                Some(d) => d.saturating_duration_since(Instant::now()) + WATCHDOG_GRACE / 2,
                None => Duration::from_secs(u32::MAX as u64),
            });
            let checked = match proof {
                Proof::KInduction { k, simple_path } => kinduction::check(
                    full,
                    &bad,
                    *k,
                    *simple_path,
                    Some(&restore.latches),
                    &prepared.facts,
                    outcome.backend.other(),
                    &check_budget,
                )
                .map(|()| {
                    let how = if *simple_path { " (simple path)" } else { "" };
                    (format!("{k}-induction proof{how}"), None)
                }),
                Proof::Invariant(cubes) => {
                    // The invariant over the original latch positions.
                    let cubes = prepared.original_invariant(cubes);
                    invariant::check(full, &bad, &cubes, outcome.backend.other(), &check_budget)
                        .map(|()| {
                            let what = format!("inductive invariant of {} clauses", cubes.len());
                            (what, Some(cubes))
                        })
                }
            };
            match checked {
                Ok((what, cubes)) => {
                    if args.verbose {
                        eprintln!(
                            "invar: {what} checked with {}",
                            outcome.backend.other().name()
                        );
                    }
                    Decided::Safe { cubes }
                }
                Err(e) if check_budget.expired() => {
                    Decided::Unknown(format!("the proof could not be checked in time: {e}"))
                }
                Err(e) => {
                    return Err(format!(
                        "internal error: the {} engine's proof does not check: {e}; no verdict",
                        outcome.engine
                    ))
                }
            }
        }
    };
    Ok((decided, outcome))
}

fn print_statistics(outcome: &Outcome) {
    let s = &outcome.stats;
    eprintln!(
        "invar: engine {}: depth {}, {} SAT calls ({} sat, {} unsat) in {:.3}s, engine time {:.3}s",
        outcome.engine,
        s.depth,
        s.sat.calls,
        s.sat.sat,
        s.sat.unsat,
        s.sat.time.as_secs_f64(),
        s.time.as_secs_f64()
    );
    if let Some(i) = &s.ic3 {
        eprintln!(
            "invar: ic3: {} frames, {} obligations, {} lemmas ({} literals dropped, {} CTGs), \
             {} propagated, {} to the infinite frame, {} subsumed, {} relative-induction queries in {:.3}s, {} lifts in {:.3}s, \
             generalization {:.3}s, propagation {:.3}s, {} solver rebuilds",
            i.frames,
            i.obligations,
            i.lemmas,
            i.literals_dropped,
            i.ctgs,
            i.propagated,
            i.to_infinite,
            i.subsumed,
            i.relative_induction,
            i.time_relative_induction.as_secs_f64(),
            i.lifts,
            i.time_lift.as_secs_f64(),
            i.time_generalize.as_secs_f64(),
            i.time_propagate.as_secs_f64(),
            i.rebuilds
        );
    }
}

/// `check` on an AIGER file: HWMCC output.
fn run_aiger(args: &CheckArgs) -> Result<i32, String> {
    let start = Instant::now();
    let unknown_text = Arc::new(Mutex::new(String::from("2\nb0\n.\n")));
    let budget = start_budget(args, unknown_text.clone())?;
    let aiger = aiger::read_file(&args.file).map_err(|e| e.to_string())?;
    let full = aiger.to_aig();
    let file = args.file.display().to_string();
    let props = select_properties(
        aiger.bad_properties().len(),
        !aiger.justice.is_empty(),
        args.property,
        &file,
        "bad, justice or output",
    )?;
    let hwmcc_unknown = format!("2\n{}\n.\n", props_text(&props));
    *unknown_text.lock().unwrap_or_else(|e| e.into_inner()) = hwmcc_unknown.clone();
    if props.is_empty() {
        let reason = "justice properties are not supported yet";
        return Ok(report_unknown(
            args,
            &file,
            &props,
            reason,
            None,
            start,
            &hwmcc_unknown,
        ));
    }
    let (decided, outcome) = decide(&full, &props, args, &budget, &file)?;
    match decided {
        Decided::Unsafe(trace) => {
            let init: Vec<Option<bool>> = trace.init.iter().map(|&b| Some(b)).collect();
            let inputs: Vec<Vec<Option<bool>>> = (trace.inputs.iter())
                .map(|v| v.iter().map(|&b| Some(b)).collect())
                .collect();
            match replay::replay(&aiger, &props, &init, &inputs) {
                replay::Replay::Reached { step, properties } if step + 1 == trace.len() => {
                    let witness = write_aiger_witness(&properties, &trace);
                    if args.verbose {
                        eprintln!("invar: counterexample of {} steps replays on {file}", trace.len());
                    }
                    let text = if args.json {
                        let mut o = summary(&file, "unsafe", &properties, &outcome, start);
                        o.number("steps", trace.len()).string("witness", &witness);
                        o.finish()
                    } else {
                        witness
                    };
                    print_verdict(&text);
                    Ok(EXIT_UNSAFE)
                }
                other => Err(format!(
                    "internal error: the {} engine's counterexample does not replay ({other:?}); no verdict",
                    outcome.engine
                )),
            }
        }
        Decided::Safe { cubes } => {
            let bad: Vec<Lit> = props.iter().map(|&p| full.bad[p]).collect();
            maybe_write_certificate(args, &full, &bad, cubes.as_deref(), &file, &props)?;
            let text = if args.json {
                safe_summary(&file, &props, &outcome, start, cubes.as_deref())
            } else {
                format!("0\n{}\n.\n", props_text(&props))
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
            &hwmcc_unknown,
        )),
    }
}

/// The JSON object of a SAFE answer.
pub(super) fn safe_summary(
    file: &str,
    props: &[usize],
    outcome: &Outcome,
    start: Instant,
    cubes: Option<&[Vec<(usize, bool)>]>,
) -> String {
    safe_object(file, props, outcome, start, cubes).finish()
}

/// The `--json` object of a SAFE verdict, to be extended or finished.
pub(super) fn safe_object(
    file: &str,
    props: &[usize],
    outcome: &Outcome,
    start: Instant,
    cubes: Option<&[Vec<(usize, bool)>]>,
) -> JsonObject {
    let mut o = summary(file, "safe", props, outcome, start);
    if let Verdict::Safe(Proof::KInduction { k, simple_path }) = &outcome.verdict {
        o.number("k", k).boolean("simple_path", *simple_path);
    }
    if let Some(cubes) = cubes {
        o.number("invariant_clauses", cubes.len());
    }
    o
}

/// Writes the certificate `--certificate` asks for, if the proof is an invariant.
pub(super) fn maybe_write_certificate(
    args: &CheckArgs,
    full: &Aig,
    bad: &[Lit],
    cubes: Option<&[Vec<(usize, bool)>]>,
    file: &str,
    props: &[usize],
) -> Result<(), String> {
    match (&args.certificate, cubes) {
        (Some(path), Some(cubes)) => write_certificate(path, full, bad, cubes, file, props),
        (Some(_), None) => {
            eprintln!(
                "invar: no certificate written: certificates are made from IC3 invariants only"
            );
            Ok(())
        }
        (None, _) => Ok(()),
    }
}

/// Writes the Certifaiger witness circuit of an invariant of `full`.
fn write_certificate(
    path: &std::path::Path,
    full: &Aig,
    bad: &[Lit],
    cubes: &[Vec<(usize, bool)>],
    file: &str,
    props: &[usize],
) -> Result<(), String> {
    let witness = certificate::witness_from_invariant(full, bad, cubes);
    let mut out = Aiger::from_aig(&witness);
    out.comments = vec![
        format!("WITNESS {} {file}", props_text(props)),
        "produced by invar".into(),
    ];
    let bytes = match path.extension().and_then(|e| e.to_str()) {
        Some("aag") => aiger::write_ascii(&out),
        _ => aiger::write_binary(&out),
    };
    std::fs::write(path, bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

fn run_engine(args: &CheckArgs, aig: &Aig, limits: &Limits, ic3_backend: Backend) -> Outcome {
    let kind_options = KindOptions {
        limits: limits.clone(),
        simple_path: args.simple_path,
    };
    let mut ic3_options = Ic3Options {
        limits: Limits {
            backend: ic3_backend,
            ..limits.clone()
        },
        ..Ic3Options::default()
    };
    // Ablation switches for measurements, not part of the documented CLI.
    if std::env::var_os("INVAR_IC3_NO_INFINITE").is_some() {
        ic3_options.infinite_frame = false;
    }
    if std::env::var_os("INVAR_IC3_ALL_LEVELS").is_some() {
        ic3_options.skip_unchanged_levels = false;
    }
    if std::env::var_os("INVAR_IC3_SHARED_SOLVER").is_some() {
        ic3_options.shared_solver = true;
    }
    if std::env::var_os("INVAR_IC3_NO_PIN").is_some() {
        ic3_options.pin_domain = false;
    }
    if std::env::var_os("INVAR_IC3_NO_LIFT_FROM_MODEL").is_some() {
        ic3_options.lift_from_model = false;
    }
    match std::env::var("INVAR_IC3_GEN").as_deref() {
        Ok("down") => ic3_options.generalization = ic3::Generalization::Down,
        Ok("dynamic") => {
            ic3_options.generalization = ic3::Generalization::Dynamic { threshold: 10.0 }
        }
        _ => {}
    }
    if let Some(n) = std::env::var("INVAR_IC3_MIC_ATTEMPTS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        ic3_options.mic_attempts = n;
    }
    match args.engine {
        EngineArg::Bmc => bmc::check(aig, limits),
        EngineArg::Kind => kind::check(aig, &kind_options),
        EngineArg::Ic3 => ic3::check(aig, &ic3_options),
        EngineArg::Smt => Outcome {
            verdict: Verdict::Unknown(
                "the SMT engine runs on word-level models, not circuits".into(),
            ),
            engine: "smt",
            backend: limits.backend,
            stats: Default::default(),
        },
        EngineArg::Auto => {
            let engines: Vec<EngineFn> = vec![
                Box::new(|aig| bmc::check(aig, limits)),
                Box::new(move |aig| ic3::check(aig, &ic3_options)),
            ];
            portfolio::run(aig, &limits.budget, engines)
        }
    }
}

/// The bad properties to check: the one asked for, or all of them.
///
/// `count` bad properties and whether there is justice decide; `kinds` names
/// what the format could have held, for the message when there is nothing.
pub(super) fn select_properties(
    count: usize,
    has_justice: bool,
    property: Option<usize>,
    file: &str,
    kinds: &str,
) -> Result<Vec<usize>, String> {
    match property {
        Some(p) if p < count => Ok(vec![p]),
        Some(p) => Err(format!(
            "{file}: --property {p} is out of range: the model has {count} bad properties"
        )),
        None if count == 0 && !has_justice => Err(format!(
            "{file}: the model has no property to check (no {kinds})"
        )),
        None => Ok((0..count).collect()),
    }
}

pub(super) fn props_text(props: &[usize]) -> String {
    if props.is_empty() {
        return "j0".to_string();
    }
    props.iter().map(|p| format!("b{p}")).collect()
}

pub(super) fn summary(
    file: &str,
    verdict: &str,
    props: &[usize],
    outcome: &Outcome,
    start: Instant,
) -> JsonObject {
    let mut o = JsonObject::default();
    o.string("file", file)
        .string("verdict", verdict)
        .numbers("properties", props)
        .string("engine", outcome.engine)
        .number("depth", outcome.stats.depth)
        .number("sat_calls", outcome.stats.sat.calls)
        .number(
            "sat_time",
            format!("{:.3}", outcome.stats.sat.time.as_secs_f64()),
        )
        .number("time", format!("{:.3}", start.elapsed().as_secs_f64()));
    if let Some(i) = &outcome.stats.ic3 {
        o.number("ic3_frames", i.frames)
            .number("ic3_obligations", i.obligations)
            .number("ic3_lemmas", i.lemmas)
            .number("ic3_literals_dropped", i.literals_dropped)
            .number("ic3_ctgs", i.ctgs)
            .number("ic3_propagated", i.propagated)
            .number("ic3_to_infinite", i.to_infinite)
            .number("ic3_subsumed", i.subsumed)
            .number("ic3_relative_induction", i.relative_induction)
            .number("ic3_lifts", i.lifts)
            .number(
                "ic3_time_generalize",
                format!("{:.3}", i.time_generalize.as_secs_f64()),
            )
            .number(
                "ic3_time_propagate",
                format!("{:.3}", i.time_propagate.as_secs_f64()),
            );
    }
    o
}

pub(super) fn report_unknown(
    args: &CheckArgs,
    file: &str,
    props: &[usize],
    reason: &str,
    outcome: Option<&Outcome>,
    start: Instant,
    plain: &str,
) -> i32 {
    if args.verbose || outcome.is_none() {
        eprintln!("invar: unknown: {reason}");
    }
    let text = if args.json {
        let mut o = match outcome {
            Some(outcome) => summary(file, "unknown", props, outcome, start),
            None => {
                let mut o = JsonObject::default();
                o.string("file", file).string("verdict", "unknown");
                o
            }
        };
        o.string("reason", reason);
        o.finish()
    } else {
        plain.to_string()
    };
    print_verdict(&text);
    EXIT_UNKNOWN
}

/// Answers unknown and exits if the run is still going `at`: the engines poll
/// their budget, but parsing or a long solver call must not hold the verdict.
fn start_watchdog(at: Instant, unknown_text: Arc<Mutex<String>>, json: bool) {
    std::thread::spawn(move || {
        std::thread::sleep(at.saturating_duration_since(Instant::now()));
        let plain = unknown_text
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let text = if json {
            let mut o = JsonObject::default();
            o.string("verdict", "unknown")
                .string("reason", "time limit reached");
            o.finish()
        } else {
            plain
        };
        if print_verdict(&text) {
            eprintln!("invar: time limit reached");
            std::process::exit(EXIT_UNKNOWN);
        }
    });
}
