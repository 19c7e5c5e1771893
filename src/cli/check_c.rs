//! `invar check` on C programs: lower to a CFA, compress it by large-block
//! encoding (unless `--no-lbe`), encode it as a transition system and hand it
//! to the library's pipeline (bit-blasted; under `--int`, over mathematical
//! integers, the word-level engine). A counterexample, replayed there on the
//! transition system, is printed as locations and variable values per step.
//! The answer follows SV-COMP: `false` (the error is reachable), `true`, or
//! `unknown`.

use super::args::{CArgs, CheckArgs, DumpFormat, EngineArg};
use super::check::{
    maybe_write_certificate, print_statistics, progress, report_unknown, request, safe_object,
    start_budget, summary,
};
use super::{print_verdict, EXIT_SAFE, EXIT_UNSAFE};
use invar::cfront::witness::loop_invariants;
use invar::cfront::{lower_preprocessed, source, FrontError, Options, Program};
use invar::formats::svcomp;
use invar::formats::svcomp::{InvariantKind, WitnessInvariant};
use invar::ir::cfa::encode::encode;
use invar::ir::cfa::lbe::{large_block_encoding, LbeOptions};
use invar::ir::term::eval::Value;
use invar::ir::ts::{Ts, WordTrace};
use invar::verify::{self, Answer, Evidence, Relaxation, Witness};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Lowers a C file into its program, compressed by large-block encoding
/// unless `--no-lbe`; `--dump-cfa` and `verbose` print on stderr.
pub fn program(
    file: &Path,
    args: &CArgs,
    verbose: bool,
    deadline: Option<Instant>,
) -> Result<Program, FrontError> {
    let text = source(file, deadline)?;
    lowered(text, args, args.int, verbose, deadline)
}

/// Lowers preprocessed C text, over mathematical integers if `int`, as
/// [`program`] does; `--dump-cfa` and `verbose` print on stderr, except for
/// the relaxation `auto` lowers beside the program (`int` without `--int`).
fn lowered(
    text: String,
    args: &CArgs,
    int: bool,
    verbose: bool,
    deadline: Option<Instant>,
) -> Result<Program, FrontError> {
    let relaxation = int && !args.int;
    let options = Options {
        lp64: args.lp64,
        int,
        // The relaxation of a bit-precise run watches for overflow.
        // (INVAR_RELAX_NO_FLAG: an ablation for measurements and the
        // wrap-around test, not a documented interface.)
        overflow_flag: relaxation && std::env::var_os("INVAR_RELAX_NO_FLAG").is_none(),
        deadline,
        parse_patience: None,
    };
    let mut program = lower_preprocessed(text, &options)?;
    let verbose = verbose && !relaxation;
    let dump_cfa = args.dump_cfa.filter(|_| !relaxation);
    let dump = |program: &Program, when: &str| match dump_cfa {
        Some(DumpFormat::Text) => eprint!("{}", program.cfa),
        Some(DumpFormat::Dot) => eprint!("{}", program.cfa.to_dot(when)),
        None => {}
    };
    dump(&program, "before LBE");
    if !args.no_lbe {
        let stats = large_block_encoding(&mut program.cfa, LbeOptions::default());
        if verbose || dump_cfa.is_some() {
            eprintln!(
                "invar: large-block encoding: {} locations and {} edges before, {} and {} after",
                stats.before.0, stats.before.1, stats.after.0, stats.after.1
            );
        }
        dump(&program, "after LBE");
    }
    Ok(program)
}

/// A C integer value in decimal.
fn c_value(b: &invar::ir::bv::BvValue, signed: bool) -> String {
    match b.to_u64() {
        Some(u) if signed && b.msb() => {
            let w = b.width();
            format!("{}", u as i128 - (1i128 << w))
        }
        Some(u) => format!("{u}"),
        None => format!("#b{}", b.to_binary()),
    }
}

/// The counterexample as locations and variable values per step. A stretch
/// of more than [`STRETCH`] consecutive steps at one location (a loop that
/// large-block encoding made one edge, run many times) shows its first and
/// last steps and the number left out: a test's trace can have 65,537
/// iterations. `--vcd` writes every step.
fn c_trace(program: &Program, ts: &Ts, trace: &WordTrace) -> String {
    let locations = program.cfa.live_locations();
    let label = |states: &[Value]| match &states[0] {
        Value::Bv(v) => v
            .to_u64()
            .and_then(|i| locations.get(i as usize))
            .map(|l| program.cfa.labels[l.0 as usize].clone())
            .unwrap_or_default(),
        _ => String::new(),
    };
    let labels: Vec<String> = trace.states.iter().map(|s| label(s)).collect();
    let mut out = String::new();
    let mut k = 0;
    while k < labels.len() {
        let run = labels[k..].iter().take_while(|l| **l == labels[k]).count();
        if run > STRETCH {
            out += &c_step(program, ts, &trace.states[k], k, &labels[k]);
            out += &c_step(program, ts, &trace.states[k + 1], k + 1, &labels[k]);
            out += &format!(
                "... steps {} to {}: {} more at {}\n",
                k + 2,
                k + run - 2,
                run - 3,
                labels[k]
            );
            let last = k + run - 1;
            out += &c_step(program, ts, &trace.states[last], last, &labels[k]);
        } else {
            for j in k..k + run {
                out += &c_step(program, ts, &trace.states[j], j, &labels[k]);
            }
        }
        k += run;
    }
    out
}

/// Consecutive steps at one location that [`c_trace`] prints in full.
const STRETCH: usize = 8;

/// One step of [`c_trace`]: its location and the program's variables.
fn c_step(program: &Program, ts: &Ts, states: &[Value], k: usize, label: &str) -> String {
    // States: pc, valid, then the program variables in order.
    let values: Vec<String> = (ts.states.iter().zip(states))
        .skip(2)
        .map(|(s, v)| {
            let name = ts.terms.var_name(s.var).unwrap_or("?");
            match (v, program.types.get(&s.var)) {
                (Value::Bv(b), Some(ty)) => format!("{name}={}", c_value(b, ty.signed)),
                (Value::Num(r), _) if r.is_int() => format!("{name}={}", r.numer()),
                _ => format!("{name}={v}"),
            }
        })
        .collect();
    format!("step {k}: {label}: {}\n", values.join(" "))
}

/// Whether the trace ends with the program's out-of-bounds flag set: it
/// reached the error location through an array access out of bounds.
fn out_of_bounds_at_end(program: &Program, ts: &Ts, trace: &WordTrace) -> bool {
    let Some(flag) = program.out_of_bounds else {
        return false;
    };
    let Some(last) = trace.states.last() else {
        return false;
    };
    (ts.states.iter().zip(last)).any(|(s, v)| s.var == flag && matches!(v, Value::Bool(true)))
}

/// Why the SV-COMP property file `path` asks for something invar does not
/// check (None: unreach-call, which it does). SV-COMP writes unreach-call as
/// `CHECK( init(main()), LTL(G ! call(reach_error())) )`; the older
/// `__VERIFIER_error()` is the same property, and invar treats both calls
/// (and `__assert_fail`) as the error.
fn unsupported_property(path: &Path) -> Result<Option<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let compact: String = text.split_whitespace().collect();
    let reach = ["reach_error", "__VERIFIER_error"]
        .iter()
        .any(|f| compact == format!("CHECK(init(main()),LTL(G!call({f}())))"));
    Ok((!reach).then(|| {
        format!(
            "{}: invar checks only unreach-call (G ! call(reach_error())), not {}",
            path.display(),
            text.trim()
        )
    }))
}

/// The specification an SV-COMP witness names: the LTL formula of the
/// property file (unreach-call, the only one invar checks), or SV-COMP's
/// unreach-call when none was given.
fn specification(args: &CArgs) -> String {
    let text = args
        .prop
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok());
    let formula = text.as_deref().and_then(|t| {
        let start = t.find("LTL(")? + 4;
        let end = t.rfind(')')?;
        // The property's closing parentheses: CHECK( init(main()), LTL(f) ).
        let inner = t[start..end].trim_end().strip_suffix(')')?;
        Some(inner.trim().to_string())
    });
    formula.unwrap_or_else(|| svcomp::UNREACH_CALL.to_string())
}

/// The task an SV-COMP witness describes.
fn witness_task(args: &CheckArgs) -> Result<svcomp::Task, String> {
    let bytes = std::fs::read(&args.file)
        .map_err(|e| format!("{}: cannot read: {e}", args.file.display()))?;
    let command_line: Vec<String> = std::env::args()
        .map(|a| {
            if a.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_./=:".contains(&b))
            {
                a
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect();
    Ok(svcomp::Task {
        file_name: args.file.display().to_string(),
        file_hash: invar::util::sha256::sha256_hex(&bytes),
        specification: specification(&args.c),
        data_model: if args.c.lp64 { "LP64" } else { "ILP32" },
        command_line: command_line.join(" "),
    })
}

/// Writes an SV-COMP witness to `path`.
fn write_witness(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// The correctness witness of a proof: the loop invariants its invariant
/// implies (none from k-induction, which has no invariant, or when the
/// invariant cannot be read back: the verdict stands either way).
fn correctness_witness(
    args: &CheckArgs,
    program: &Program,
    ts: &Ts,
    run: &verify::Run,
) -> Result<String, String> {
    let file = args.file.display();
    let certificate = match &run.answer {
        Answer::Safe {
            evidence: Evidence::WordInvariant { text, .. },
            ..
        } => Some(text.clone()),
        Answer::Safe {
            evidence: Evidence::Invariant(cubes),
            ..
        } => verify::bit_invariant_certificate(ts, cubes)
            .map_err(|e| eprintln!("invar: {file}: no invariant over the program's words ({e}): the correctness witness lists no loop invariant"))
            .ok(),
        _ => {
            eprintln!("invar: {file}: the proof has no invariant (k-induction): the correctness witness lists no loop invariant");
            None
        }
    };
    let mut invariants = match certificate {
        Some(text) => loop_invariants(program, ts, &text).unwrap_or_else(|e| {
            eprintln!("invar: {file}: the invariant does not read back ({e}): the correctness witness lists no loop invariant");
            Vec::new()
        }),
        None => Vec::new(),
    };
    if invariants.is_empty() {
        // The format wants at least one invariant: `1`, which holds anywhere,
        // before main's first statement.
        invariants.extend(program.main_start.clone().map(|at| WitnessInvariant {
            at,
            value: "1".into(),
            kind: InvariantKind::Location,
        }));
    }
    Ok(svcomp::correctness_witness(
        &witness_task(args)?,
        &invariants,
    ))
}

/// The violation witness of a counterexample: the call that reaches the
/// error. A program whose error is reached from several places in the
/// source gets none (the target would be a guess).
fn violation_witness(args: &CheckArgs, program: &Program) -> Result<Option<String>, String> {
    let mut sites = program.error_calls.clone();
    sites.sort();
    sites.dedup();
    match sites.as_slice() {
        [target] => Ok(Some(svcomp::violation_witness(
            &witness_task(args)?,
            target,
        ))),
        _ => {
            eprintln!(
                "invar: {}: no violation witness: the error is reached from {} places in the source",
                args.file.display(),
                sites.len()
            );
            Ok(None)
        }
    }
}

pub fn run(args: &CheckArgs) -> Result<i32, String> {
    let start = Instant::now();
    let unknown_text = "unknown\n";
    let budget = start_budget(args, Arc::new(Mutex::new(unknown_text.into())))?;
    let file = args.file.display().to_string();
    let unknown = |reason: &dyn std::fmt::Display| {
        let reason = format!("{file}: {reason}");
        report_unknown(args, &file, &[0], &reason, None, start, unknown_text)
    };
    if let Some(prp) = &args.c.prop {
        if let Some(reason) = unsupported_property(prp)? {
            return Ok(unknown(&reason));
        }
    }
    let deadline = budget.deadline();
    let lowered_as_asked = source(&args.file, deadline).and_then(|text| {
        Ok((
            lowered(text.clone(), &args.c, args.c.int, args.verbose, deadline)?,
            text,
        ))
    });
    let (program, text) = match lowered_as_asked {
        Ok(p) => p,
        Err(e @ (FrontError::Unsupported { .. } | FrontError::Timeout)) => return Ok(unknown(&e)),
        Err(e) => return Err(format!("{file}: {e}")),
    };
    let ts = encode(&program.cfa);
    let request = request(args, vec![0], &budget)?;
    let mut log = progress(args);
    // Under `auto` the integer relaxation may supply the invariant
    // (verify::check_program); a program it cannot lower simply has none.
    let relaxed = (args.engine == EngineArg::Auto && !args.c.int)
        .then(|| match lowered(text, &args.c, true, false, deadline) {
            Ok(p) if invar::cfront::relax::aligned(&p.cfa, &program.cfa) => Some(p),
            Ok(_) => {
                log("relaxation: its automaton differs from the program's; not used");
                None
            }
            Err(e) => {
                log(&format!("relaxation: not lowered over the integers ({e})"));
                None
            }
        })
        .flatten();
    let relaxed_ts = relaxed.as_ref().map(|p| {
        let mut ts = encode(&p.cfa);
        if let Some(flag) = p.overflow {
            invar::cfront::relax::watch_overflow(&mut ts, flag, &p.types);
        }
        ts
    });
    let relaxation = (relaxed.as_ref().zip(relaxed_ts.as_ref())).map(|(p, ts)| Relaxation {
        ts,
        types: &p.types,
        overflow: p.overflow,
    });
    let run = verify::check_program(&program.cfa, &ts, relaxation, &request, &mut log)?;
    print_statistics(args, &run);
    match &run.answer {
        Answer::Unsafe {
            witness: Witness::Word(words),
            ..
        } if out_of_bounds_at_end(&program, &ts, words) => {
            // The path reaches undefined behaviour, which the property does
            // not speak of; what would follow is anybody's guess.
            let reason = format!(
                "{file}: an array access out of bounds is reachable ({} steps): undefined behaviour, so neither verdict",
                words.states.len()
            );
            Ok(report_unknown(
                args,
                &file,
                &[0],
                &reason,
                Some(&run),
                start,
                unknown_text,
            ))
        }
        Answer::Unsafe {
            witness: Witness::Word(words),
            ..
        } => {
            let trace = c_trace(&program, &ts, words);
            if let Some(path) = &args.c.witness_out {
                if let Some(text) = violation_witness(args, &program)? {
                    write_witness(path, &text)?;
                }
            }
            if let Some(path) = &args.vcd {
                let waveform = invar::formats::vcd::word_waveform(&ts, words);
                super::check::write_vcd(path, &waveform, &args.file)?;
            }
            let text = if args.json {
                let mut o = summary(&file, "unsafe", &[0], &run, start);
                o.string("sv_comp", "false")
                    .number("steps", words.len())
                    .string("trace", &trace);
                o.finish()
            } else if args.c.svcomp {
                format!("false(unreach-call)\n{trace}")
            } else {
                format!("false\n{trace}")
            };
            print_verdict(&text);
            Ok(EXIT_UNSAFE)
        }
        Answer::Unsafe { .. } => Err("internal error: a trace not on the program's terms".into()),
        Answer::Safe { .. } => {
            maybe_write_certificate(args, &run, &file, &[0], Some(&ts))?;
            if let Some(path) = &args.c.witness_out {
                write_witness(path, &correctness_witness(args, &program, &ts, &run)?)?;
            }
            let text = if args.json {
                let mut o = safe_object(&file, &[0], &run, start);
                o.string("sv_comp", "true");
                o.finish()
            } else {
                "true\n".to_string()
            };
            print_verdict(&text);
            Ok(EXIT_SAFE)
        }
        Answer::Unknown(reason) | Answer::Unconfirmed(reason) => Ok(report_unknown(
            args,
            &file,
            &[0],
            &format!("{file}: {reason}"),
            Some(&run),
            start,
            unknown_text,
        )),
    }
}
