//! `invar check`: read the model, hand it to the library's pipeline
//! (`invar::verify`, which decides and validates), and render the checked
//! answer in the input's convention (HWMCC for AIGER here; BTOR2 and VMT in
//! `check_word`, SV-COMP in `check_c`) or as JSON. A failed validation is an
//! internal error (exit 1), never a verdict.

use super::args::{CheckArgs, EngineArg, PropertyArg};
use super::json::JsonObject;
use super::{monitor, print_verdict, EXIT_SAFE, EXIT_UNKNOWN, EXIT_UNSAFE};
use invar::check::certificate;
use invar::formats::aiger::{self, Aiger};
use invar::formats::vcd;
use invar::formats::witness::write_aiger_witness;
use invar::ir::aig::{Aig, Lit};
use invar::util::budget::Budget;
use invar::verify::{self, Answer, Engine, Evidence, Request, Run, Witness};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    let format = model_format(&args.file)?;
    if format != Format::C {
        let c = &args.c;
        let given = [
            (c.prop.is_some(), "--prop"),
            (c.svcomp, "--svcomp"),
            (c.witness_out.is_some(), "--witness-out"),
        ];
        for (_, flag) in given.iter().filter(|(on, _)| *on) {
            eprintln!(
                "invar: {flag} is for C programs; ignored for {}",
                args.file.display()
            );
        }
    }
    match format {
        Format::Aiger => run_aiger(args),
        Format::C => super::check_c::run(args),
        format => super::check_word::run(args, format),
    }
}

/// The run's budget (`--timeout`, `--memory`), also handed to the monitor,
/// which prints the text in `unknown_text` and exits if the run overstays.
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
    let budget = match args.memory {
        Some(0) => return Err("--memory must be a positive number of megabytes".into()),
        Some(mb) => budget.with_memory(usize::try_from(mb << 20).unwrap_or(usize::MAX)),
        None => budget,
    };
    monitor::watch(budget.deadline(), budget.memory(), unknown_text, args.json);
    Ok(budget)
}

/// The library request for `args`: engine, bounds, backends and budget.
pub(super) fn request(
    args: &CheckArgs,
    properties: Vec<usize>,
    budget: &Budget,
) -> Result<Request, String> {
    Ok(Request {
        engine: match args.engine {
            EngineArg::Auto => Engine::Auto,
            EngineArg::Bmc => Engine::Bmc,
            EngineArg::Kind => Engine::Kind,
            EngineArg::Ic3 => Engine::Ic3,
            EngineArg::Itp => Engine::Itp,
            EngineArg::Scorr => Engine::Scorr,
            EngineArg::Smt => Engine::Smt,
            EngineArg::Ic3ia => Engine::Ic3ia,
            EngineArg::Ic3cfa => Engine::Ic3cfa,
            EngineArg::Explicit => Engine::Explicit,
        },
        properties,
        max_depth: args.max_k,
        simple_path: args.simple_path,
        simplify: !args.no_simplify,
        sat: args.sat.map(|s| s.backend()).transpose()?,
        smt: args.smt.backend(),
        budget: budget.clone(),
        invariant_wanted: args.certificate.is_some(),
    })
}

/// The pipeline's progress lines, on stderr under `-v`.
pub(super) fn progress(args: &CheckArgs) -> impl FnMut(&str) {
    let verbose = args.verbose;
    let file = args.file.display().to_string();
    move |line: &str| {
        if verbose {
            eprintln!("invar: {file}: {line}");
        }
    }
}

/// Engine counters under `-v`.
pub(super) fn print_statistics(args: &CheckArgs, run: &Run) {
    if !args.verbose || run.engine == "smt" || run.engine == "none" {
        return;
    }
    let s = &run.stats;
    if let Some(c) = &s.program {
        eprintln!(
            "invar: engine {}: {} frames, {} obligations, {} lemmas, {} affine equalities, {} SMT checks in {:.3}s, {} queries decided by a predecessor cube, {} edges merged, {} seeds kept ({} checks), engine time {:.3}s",
            run.engine,
            c.frames,
            c.obligations,
            c.lemmas,
            c.equalities,
            c.checks,
            c.smt_time.as_secs_f64(),
            c.syntactic,
            c.merged,
            c.seeds,
            c.seed_checks,
            s.time.as_secs_f64()
        );
    } else if let Some(a) = &s.abstraction {
        eprintln!(
            "invar: engine {}: {} frames, {} predicates, {} refinements, {} SMT checks in {:.3}s, engine time {:.3}s",
            run.engine,
            s.depth,
            a.predicates,
            a.refinements,
            s.sat.calls,
            s.sat.time.as_secs_f64(),
            s.time.as_secs_f64()
        );
    } else {
        eprintln!(
        "invar: engine {}: depth {}, {} SAT calls ({} sat, {} unsat) in {:.3}s, engine time {:.3}s",
        run.engine,
        s.depth,
        s.sat.calls,
        s.sat.sat,
        s.sat.unsat,
        s.sat.time.as_secs_f64(),
        s.time.as_secs_f64()
    );
    }
    if let Some(i) = &s.ic3 {
        eprintln!(
            "invar: ic3: {} frames, {} obligations (average {:.1} literals), {} lemmas (cores {:.1}, lemmas {:.1} literals on average; {} literals dropped, {} CTGs, {} of {} predicted), \
             {} propagated ({} CTPs, {} failed pushes answered by a kept witness), {} to the infinite frame, {} subsumed, {} relative-induction queries in {:.3}s, {} lifts in {:.3}s, \
             generalization {:.3}s, propagation {:.3}s (infinite frame {:.3}s), {} solver rebuilds",
            i.frames,
            i.obligations,
            average(i.obligation_literals, i.obligations),
            i.lemmas,
            average(i.core_literals, i.lemmas),
            average(i.lemma_literals, i.lemmas),
            i.literals_dropped,
            i.ctgs,
            i.predictions_made,
            i.predictions_tried,
            i.propagated,
            i.ctps,
            i.push_witness_hits,
            i.to_infinite,
            i.subsumed,
            i.relative_induction,
            i.time_relative_induction.as_secs_f64(),
            i.lifts,
            i.time_lift.as_secs_f64(),
            i.time_generalize.as_secs_f64(),
            i.time_propagate.as_secs_f64(),
            i.time_infinite.as_secs_f64(),
            i.rebuilds
        );
    }
}

/// `total / count`, 0 for no count.
fn average(total: u64, count: u64) -> f64 {
    total as f64 / count.max(1) as f64
}

/// `check` on an AIGER file: HWMCC output. With `--property all`, each bad
/// property is checked on its own, in order, within the one time limit, and
/// the answers follow one another as in HWMCC's multi-property results
/// (with `--json`, one object whose `results` holds one object each).
fn run_aiger(args: &CheckArgs) -> Result<i32, String> {
    let start = Instant::now();
    let unknown_text = Arc::new(Mutex::new(String::from("2\nb0\n.\n")));
    let budget = start_budget(args, unknown_text.clone())?;
    let aiger = aiger::read_file(&args.file).map_err(|e| e.to_string())?;
    let file = args.file.display().to_string();
    let props = select_properties(
        aiger.bad_properties().len(),
        !aiger.justice.is_empty(),
        args.property.and_then(PropertyArg::index),
        &file,
        "bad, justice or output",
    )?;
    if !args.property.is_some_and(|p| p == PropertyArg::All) || props.is_empty() {
        let hwmcc_unknown = format!("2\n{}\n.\n", props_text(&props));
        *unknown_text.lock().unwrap_or_else(|e| e.into_inner()) = hwmcc_unknown;
        let (code, text) = answer_aiger(args, &aiger, &props, &budget, start)?;
        print_verdict(&text);
        return Ok(code);
    }
    if args.certificate.is_some() || args.vcd.is_some() {
        return Err(format!(
            "{file}: --property all gives one answer per property; ask for a certificate or \
             a waveform of one property at a time (--property N)"
        ));
    }
    let mut answers: Vec<(i32, String)> = Vec::new();
    let unknown_of = |q: usize| -> (i32, String) {
        let text = if args.json {
            let mut o = JsonObject::default();
            o.string("file", &file)
                .string("verdict", "unknown")
                .numbers("properties", &[q])
                .string("reason", budget.reason());
            o.finish()
        } else {
            format!("2\nb{q}\n.\n")
        };
        (EXIT_UNKNOWN, text)
    };
    // Should the monitor answer at the deadline, it keeps the answers given
    // so far. Its text is rebuilt about a hundred times in all, not once per
    // property: that would be quadratic on circuits with many properties.
    let refresh = props.len().div_ceil(100).max(1);
    for (k, &p) in props.iter().enumerate() {
        if budget.expired() {
            // Past the limit: the rest are unknown without running anything.
            eprintln!(
                "invar: unknown: properties {p}..{}: {}",
                props[props.len() - 1],
                budget.reason()
            );
            answers.extend(props[k..].iter().map(|&q| unknown_of(q)));
            break;
        }
        if !args.json && k % refresh == 0 {
            let mut text: String = answers.iter().map(|a| a.1.as_str()).collect();
            for &q in &props[k..] {
                text += &unknown_of(q).1;
            }
            *unknown_text.lock().unwrap_or_else(|e| e.into_inner()) = text;
        }
        // A budget of its own: the portfolio stops its budget once a
        // verdict is in, which must not stop the next property's run.
        answers.push(answer_aiger(args, &aiger, &[p], &budget.child(), start)?);
    }
    let code = if answers.iter().any(|a| a.0 == EXIT_UNSAFE) {
        EXIT_UNSAFE
    } else if answers.iter().all(|a| a.0 == EXIT_SAFE) {
        EXIT_SAFE
    } else {
        EXIT_UNKNOWN
    };
    let text = if args.json {
        let verdict = match code {
            EXIT_UNSAFE => "unsafe",
            EXIT_SAFE => "safe",
            _ => "unknown",
        };
        let mut o = JsonObject::default();
        o.string("file", &file)
            .string("verdict", verdict)
            .numbers("properties", &props)
            .objects("results", answers.iter().map(|a| a.1.trim_end()));
        o.finish()
    } else {
        answers.iter().map(|a| a.1.as_str()).collect()
    };
    print_verdict(&text);
    Ok(code)
}

/// Checks the bad properties `props` of `aiger` (as one disjunction) and
/// renders the answer (HWMCC text or a JSON object) without printing it.
fn answer_aiger(
    args: &CheckArgs,
    aiger: &Aiger,
    props: &[usize],
    budget: &Budget,
    start: Instant,
) -> Result<(i32, String), String> {
    let file = args.file.display().to_string();
    let hwmcc_unknown = format!("2\n{}\n.\n", props_text(props));
    if props.is_empty() {
        let reason = "justice properties are not supported yet";
        let text = unknown_answer(args, &file, props, reason, None, start, &hwmcc_unknown);
        return Ok((EXIT_UNKNOWN, text));
    }
    let request = request(args, props.to_vec(), budget)?;
    let run = verify::check_aiger(aiger, &request, &mut progress(args))?;
    print_statistics(args, &run);
    match &run.answer {
        Answer::Unsafe {
            witness: Witness::Bit(trace),
            properties,
        } => {
            let witness = write_aiger_witness(properties, trace);
            if let Some(path) = &args.vcd {
                let init: Vec<Option<bool>> = trace.init.iter().map(|&b| Some(b)).collect();
                let inputs: Vec<Vec<Option<bool>>> = (trace.inputs.iter())
                    .map(|v| v.iter().map(|&b| Some(b)).collect())
                    .collect();
                write_vcd(
                    path,
                    &vcd::aiger_waveform(aiger, &init, &inputs),
                    &args.file,
                )?;
            }
            let text = if args.json {
                let mut o = summary(&file, "unsafe", properties, &run, start);
                o.number("steps", trace.len()).string("witness", &witness);
                o.finish()
            } else {
                witness
            };
            Ok((EXIT_UNSAFE, text))
        }
        Answer::Safe { .. } => {
            maybe_write_certificate(args, &run, &file, props, None)?;
            let text = if args.json {
                safe_object(&file, props, &run, start).finish()
            } else {
                format!("0\n{}\n.\n", props_text(props))
            };
            Ok((EXIT_SAFE, text))
        }
        Answer::Unsafe { .. } => Err("internal error: a word-level trace for a circuit".into()),
        Answer::Unknown(reason) | Answer::Unconfirmed(reason) => {
            let text = unknown_answer(
                args,
                &file,
                props,
                reason,
                Some(&run),
                start,
                &hwmcc_unknown,
            );
            Ok((EXIT_UNKNOWN, text))
        }
    }
}

/// Writes `waveform` as a Value Change Dump to `path`, its scope named
/// after the model file.
pub(super) fn write_vcd(
    path: &std::path::Path,
    waveform: &vcd::Waveform,
    model: &std::path::Path,
) -> Result<(), String> {
    let scope = model
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("model");
    std::fs::write(path, vcd::write(waveform, scope))
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// The `--json` object of a SAFE verdict, to be extended or finished.
pub(super) fn safe_object(file: &str, props: &[usize], run: &Run, start: Instant) -> JsonObject {
    let mut o = summary(file, "safe", props, run, start);
    if let Answer::Safe { evidence, checker } = &run.answer {
        match evidence {
            Evidence::KInduction { k, simple_path, .. } => {
                o.number("k", k).boolean("simple_path", *simple_path);
            }
            Evidence::WordKInduction { k } => {
                o.number("k", k);
            }
            Evidence::WordInvariant { clauses, .. } => {
                o.number("invariant_clauses", clauses);
            }
            Evidence::Invariant(cubes) => {
                o.number("invariant_clauses", cubes.len());
            }
            Evidence::Circuit(inv) => {
                o.number("invariant_gates", inv.circuit.num_ands());
            }
        }
        o.string("proof_checked_by", checker);
    }
    o
}

/// Writes the certificate `--certificate` asks for, if the proof is an
/// invariant: a Certifaiger witness circuit of a bit-level invariant, or for
/// a word-level invariant the model `ts` as `invar convert` writes it to VMT
/// followed by `(define-fun invar-certificate …)` (`invar certify` checks it;
/// so can any SMT solver).
pub(super) fn maybe_write_certificate(
    args: &CheckArgs,
    run: &Run,
    file: &str,
    props: &[usize],
    ts: Option<&invar::ir::ts::Ts>,
) -> Result<(), String> {
    let Some(path) = &args.certificate else {
        return Ok(());
    };
    match (&run.answer, &run.circuit, ts) {
        (
            Answer::Safe {
                evidence: Evidence::Invariant(cubes),
                ..
            },
            Some(_),
            Some(ts),
        ) => {
            // A word-level model's bit-level proof: the invariant over the
            // bits of its states.
            let function = invar::verify::bit_invariant_certificate(ts, cubes)
                .map_err(|e| format!("{file}: no certificate: {e}"))?;
            write_word_certificate(path, ts, &function)
        }
        (
            Answer::Safe {
                evidence: Evidence::Invariant(cubes),
                ..
            },
            Some(full),
            None,
        ) => {
            let bad: Vec<Lit> = props.iter().map(|&p| full.bad[p]).collect();
            write_certificate(path, full, &bad, cubes, file, props)
        }
        (
            Answer::Safe {
                evidence:
                    Evidence::KInduction {
                        k,
                        simple_path: false,
                        lemmas,
                    },
                ..
            },
            Some(full),
            None,
        ) => {
            let bad: Vec<Lit> = props.iter().map(|&p| full.bad[p]).collect();
            let witness = certificate::witness_from_kinduction(full, &bad, *k, lemmas);
            write_witness_circuit(path, &witness, file, props)
        }
        (
            Answer::Safe {
                evidence: Evidence::Circuit(inv),
                ..
            },
            Some(full),
            None,
        ) => {
            let bad: Vec<Lit> = props.iter().map(|&p| full.bad[p]).collect();
            let witness = certificate::witness_from_circuit(full, &bad, inv);
            write_witness_circuit(path, &witness, file, props)
        }
        (
            Answer::Safe {
                evidence: Evidence::WordInvariant { text, .. },
                ..
            },
            _,
            Some(ts),
        ) => write_word_certificate(path, ts, text),
        _ => {
            eprintln!(
                "invar: no certificate written: certificates are made from invariants and from k-induction proofs without simple paths on circuits"
            );
            Ok(())
        }
    }
}

/// Writes a word-level certificate: `ts` as VMT, then the certificate
/// function.
fn write_word_certificate(
    path: &std::path::Path,
    ts: &invar::ir::ts::Ts,
    function: &str,
) -> Result<(), String> {
    let mut out = invar::formats::vmt::write(ts);
    out += "; the invariant over the state variables, in the order of their :next\n";
    out += function;
    std::fs::write(path, out).map_err(|e| format!("{}: cannot write: {e}", path.display()))
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
    write_witness_circuit(path, &witness, file, props)
}

/// Writes a Certifaiger witness circuit, binary unless the name ends in
/// `.aag`.
fn write_witness_circuit(
    path: &std::path::Path,
    witness: &Aig,
    file: &str,
    props: &[usize],
) -> Result<(), String> {
    let mut out = Aiger::from_aig(witness);
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
    run: &Run,
    start: Instant,
) -> JsonObject {
    let mut o = JsonObject::default();
    let calls = match run.engine {
        "smt" | "ic3ia" | "ic3ia-int" | "ic3cfa" => "solver_calls",
        _ => "sat_calls",
    };
    o.string("file", file)
        .string("verdict", verdict)
        .numbers("properties", props)
        .string("engine", run.engine)
        .number("depth", run.stats.depth)
        .number(calls, run.stats.sat.calls);
    if run.engine.starts_with("ic3ia") || run.engine == "ic3cfa" {
        o.number(
            "solver_time",
            format!("{:.3}", run.stats.sat.time.as_secs_f64()),
        );
    } else if run.engine != "smt" {
        o.number(
            "sat_time",
            format!("{:.3}", run.stats.sat.time.as_secs_f64()),
        );
    }
    o.number("time", format!("{:.3}", start.elapsed().as_secs_f64()));
    if let Some(i) = &run.stats.ic3 {
        o.number("ic3_frames", i.frames)
            .number("ic3_obligations", i.obligations)
            .number("ic3_lemmas", i.lemmas)
            .number("ic3_literals_dropped", i.literals_dropped)
            .number("ic3_ctgs", i.ctgs)
            .number("ic3_predictions_tried", i.predictions_tried)
            .number("ic3_predictions_made", i.predictions_made)
            .number("ic3_propagated", i.propagated)
            .number("ic3_ctps", i.ctps)
            .number("ic3_push_witness_hits", i.push_witness_hits)
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
            )
            .number(
                "ic3_time_infinite",
                format!("{:.3}", i.time_infinite.as_secs_f64()),
            );
    }
    if let Some(a) = &run.stats.abstraction {
        o.number("predicates", a.predicates)
            .number("refinements", a.refinements);
    }
    if let Some(c) = &run.stats.program {
        o.number("ic3cfa_frames", c.frames)
            .number("ic3cfa_obligations", c.obligations)
            .number("ic3cfa_lemmas", c.lemmas)
            .number("ic3cfa_syntactic", c.syntactic)
            .number("ic3cfa_equalities", c.equalities)
            .number("ic3cfa_merged_edges", c.merged)
            .number("ic3cfa_seeds", c.seeds);
    }
    o
}

pub(super) fn report_unknown(
    args: &CheckArgs,
    file: &str,
    props: &[usize],
    reason: &str,
    run: Option<&Run>,
    start: Instant,
    plain: &str,
) -> i32 {
    let text = unknown_answer(args, file, props, reason, run, start, plain);
    print_verdict(&text);
    EXIT_UNKNOWN
}

/// The text of an unknown answer (`plain`, or a JSON object with the
/// reason); the reason goes to stderr.
fn unknown_answer(
    args: &CheckArgs,
    file: &str,
    props: &[usize],
    reason: &str,
    run: Option<&Run>,
    start: Instant,
    plain: &str,
) -> String {
    // The answer's convention has no room for the reason; stderr does.
    eprintln!("invar: unknown: {reason}");
    if args.json {
        let mut o = match run {
            Some(run) => summary(file, "unknown", props, run, start),
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
    }
}
