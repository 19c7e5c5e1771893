//! `invar check`: read the model (`invar::verify::model`), hand it to the
//! library's pipeline (`invar::verify::check`, which decides, validates and
//! builds the certificate), write what was asked (certificate, waveform,
//! SV-COMP witness) and print the answer in the input's convention or as
//! JSON ([`render`]). A failed validation is an internal error (exit 1),
//! never a verdict.

use super::args::{CArgs, CheckArgs, DumpFormat, EngineArg, PropertyArg};
use super::json::JsonObject;
use super::render::{self, props_text, Convention, Output, Rendered};
use super::{
    monitor, print_part, print_verdict, print_verdict_with, svcomp, EXIT_SAFE, EXIT_UNKNOWN,
    EXIT_UNSAFE,
};
use invar::formats::aiger::{self, Aiger};
use invar::formats::svcomp::{Property, Spec};
use invar::formats::vcd;
use invar::formats::verilog::DesignOptions;
use invar::ir::aig::Aig;
use invar::util::budget::Budget;
use invar::verify::{
    self, Answer, Certificate, Engine, Format, Model, NoCertificate, ProgramOptions, ReadError,
    Request, Run, Tuning, Witness,
};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub fn run(args: &CheckArgs) -> Result<i32, String> {
    if args.tune.iter().any(|t| t == "help") {
        for (key, what) in invar::verify::tuning::KEYS {
            outln!("{key:28} {what}");
        }
        return Ok(EXIT_UNKNOWN);
    }
    let format = Format::of(&args.file)?;
    let verilog = format == Format::Verilog;
    if !verilog {
        let given = [
            (!args.more.is_empty(), "further files"),
            (args.top.is_some(), "--top"),
            (!args.defines.is_empty(), "--define"),
            (args.yosys.is_some(), "--yosys"),
            (args.bit_level, "--bit-level"),
        ];
        if let Some((_, what)) = given.iter().find(|(on, _)| *on) {
            return Err(format!(
                "{}: {what}: only for Verilog designs (.v, .sv)",
                args.file.display()
            ));
        }
    }
    // A design is answered in the convention of the netlist it is read as.
    let format = match format {
        Format::Verilog if args.bit_level => Format::Aiger,
        Format::Verilog => Format::Btor2,
        other => other,
    };
    // A mistyped switch is an error before anything is read.
    let tuning = Tuning::default().with(&args.tune)?;
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
    let convention = Convention::of(format, args.witness, args.c.svcomp);
    let start = Instant::now();
    let unknown_text = Arc::new(Mutex::new(convention.unknown(&[0], None)));
    let budget = start_budget(args, unknown_text.clone())?;
    let file = args.file.display().to_string();
    let output = Output {
        convention,
        json: args.json,
        file: &file,
        start,
        justice: None,
        reason_said: false,
    };
    let unknown_of = |reason: &str| -> i32 {
        print_verdict(&output.unknown(&[0], reason, None));
        EXIT_UNKNOWN
    };
    let mut property = None;
    if let (Format::C, Some(prp)) = (format, &args.c.prop) {
        let p = invar::formats::svcomp::read_property(prp)?;
        if p.spec.is_none() {
            return Ok(unknown_of(&format!(
                "{file}: {}: invar checks only unreach-call (G ! call(reach_error())), no-overflow (G ! overflow) and valid-memsafety (G valid-free, G valid-deref, G valid-memtrack), not {}",
                prp.display(),
                p.text.trim()
            )));
        }
        property = Some(p);
    }
    let spec = property.as_ref().and_then(|p| p.spec).unwrap_or_default();
    let options = program_options(&args.c, spec, budget.deadline());
    let read = if verilog {
        let files: Vec<PathBuf> = std::iter::once(args.file.clone())
            .chain(args.more.iter().cloned())
            .collect();
        let design = DesignOptions {
            top: args.top.clone(),
            defines: args.defines.clone(),
            yosys: args.yosys.clone(),
            bit_level: args.bit_level,
        };
        verify::model::read_design(&files, &design)
    } else {
        verify::model::read(&args.file, &options)
    };
    let model = match read {
        Ok(model) => model,
        Err(ReadError::Invalid(e)) => return Err(e),
        Err(ReadError::Unanswerable(e)) => return Ok(unknown_of(&format!("{file}: {e}"))),
    };
    if let Model::Program(p) = &model {
        show_lowering(&args.c, args.verbose, p);
    }
    let asked = args.property.and_then(PropertyArg::index);
    // A model whose only properties are liveness properties (AIGER and
    // BTOR2 justice, VMT `:live-property`): `--property N` picks liveness
    // property N (default 0), decided as a lasso search.
    let (bad, liveness) = match &model {
        Model::Circuit(a) => (a.bad_properties().len(), a.justice.len()),
        Model::System(ts) => (ts.bad.len(), ts.liveness_count()),
        Model::Program(_) => (1, 0),
    };
    let justice = match asked.unwrap_or(0) {
        _ if bad > 0 || liveness == 0 => None,
        j if j < liveness => Some(j),
        j => {
            let have = format!("the model has {liveness} liveness properties");
            return Err(format!("{file}: --property {j} is out of range: {have}"));
        }
    };
    let asked = if justice.is_some() { None } else { asked };
    let props = match &model {
        Model::Circuit(_) => {
            select_properties(bad, liveness > 0, asked, &file, "bad, justice or output")?
        }
        Model::System(_) => select_properties(
            bad,
            liveness > 0,
            asked,
            &file,
            "bad, justice or live property",
        )?,
        // A program has one property, unreach-call.
        Model::Program(_) => vec![0],
    };
    let context = Context {
        args,
        model: &model,
        output,
        property: property.as_ref(),
        tuning,
        justice,
    };
    if args.property == Some(PropertyArg::All) && !props.is_empty() {
        if let Model::Program(_) = &model {
            return Err(format!(
                "{file}: a C program has one property (its error location); --property all is for circuits and transition systems"
            ));
        }
        return each_property(&context, &props, &budget, &unknown_text);
    }
    *unknown_text.lock().unwrap_or_else(|e| e.into_inner()) = convention.unknown(&props, justice);
    let Rendered { code, text } = answer(&context, &props, &budget)?;
    print_verdict(&text);
    Ok(code)
}

/// What answering one property needs besides the property.
struct Context<'a> {
    args: &'a CheckArgs,
    model: &'a Model,
    output: Output<'a>,
    property: Option<&'a Property>,
    tuning: Tuning,
    /// The justice property decided instead of bad properties.
    justice: Option<usize>,
}

/// The property `c`'s property file names, for the commands that lower a
/// program without checking it (`convert`, `info`): unreach-call for a
/// file that does not read or names another.
pub(super) fn asked_spec(c: &CArgs) -> Spec {
    (c.prop.as_ref())
        .and_then(|p| invar::formats::svcomp::read_property(p).ok())
        .and_then(|p| p.spec)
        .unwrap_or_default()
}

/// How `c` asks a C program to be lowered, for the property `property`,
/// with `deadline`.
pub(super) fn program_options(
    c: &CArgs,
    property: Spec,
    deadline: Option<Instant>,
) -> ProgramOptions {
    ProgramOptions {
        lp64: c.lp64,
        int: c.int,
        wrap_signed: c.wrap_signed,
        property,
        no_lbe: c.no_lbe,
        keep_before_lbe: c.dump_cfa.is_some(),
        deadline,
    }
}

/// `--dump-cfa` and, if `verbose`, what large-block encoding did.
pub(super) fn show_lowering(c: &CArgs, verbose: bool, model: &verify::ProgramModel) {
    let dump = |cfa: &invar::ir::cfa::Cfa, when: &str| match c.dump_cfa {
        Some(DumpFormat::Text) => eprint!("{cfa}"),
        Some(DumpFormat::Dot) => eprint!("{}", cfa.to_dot(when)),
        None => {}
    };
    if let Some(cfa) = &model.before_lbe {
        dump(cfa, "before LBE");
    }
    if let Some(stats) = &model.lbe {
        if verbose || c.dump_cfa.is_some() {
            eprintln!(
                "invar: large-block encoding: {} locations and {} edges before, {} and {} after",
                stats.before.0, stats.before.1, stats.after.0, stats.after.1
            );
        }
        dump(&model.program.cfa, "after LBE");
    }
}

/// The run's budget (`--timeout`, `--memory`), also handed to the monitor,
/// which prints the text in `unknown_text` and exits if the run overstays.
fn start_budget(args: &CheckArgs, unknown_text: Arc<Mutex<String>>) -> Result<Budget, String> {
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

/// The library request for `cx`: engine, bounds, backends, budget and
/// tuning.
fn request(cx: &Context, properties: Vec<usize>, budget: &Budget) -> Result<Request, String> {
    let args = cx.args;
    Ok(Request {
        justice: cx.justice,
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
        certificate: args.certificate.is_some() || args.c.witness_out.is_some(),
        tuning: cx.tuning.clone(),
        jobs: match args.jobs {
            Some(n) => n as usize,
            // The cores the process may run on (its affinity, cgroup quota).
            None => std::thread::available_parallelism().map_or(2, |n| n.get()),
        },
        assumed: Vec::new(),
    })
}

/// Checks the bad properties `props` (as one disjunction), writes what was
/// asked, and renders the answer without printing it.
fn answer(cx: &Context, props: &[usize], budget: &Budget) -> Result<Rendered, String> {
    let (args, file) = (cx.args, cx.output.file);
    let request = request(cx, props.to_vec(), budget)?;
    let verbose = args.verbose;
    let mut log = |line: &str| {
        if verbose {
            eprintln!("invar: {file}: {line}");
        }
    };
    let run = verify::check(cx.model, &request, &mut log)?;
    if args.verbose {
        render::statistics(&run);
    }
    write_evidence(cx, props, &run)?;
    let unknown_prefix = match cx.model {
        Model::Circuit(_) => String::new(),
        _ => format!("{file}: "),
    };
    let output = Output {
        justice: cx.justice,
        ..cx.output
    };
    output.answer(cx.model, props, &run, &unknown_prefix)
}

/// Writes the files asked for: on UNSAFE the waveform (`--vcd`) and the
/// SV-COMP violation witness (`--witness-out`); on SAFE the certificate
/// (`--certificate`) and the correctness witness.
fn write_evidence(cx: &Context, props: &[usize], run: &Run) -> Result<(), String> {
    let (args, file) = (cx.args, cx.output.file);
    match (&run.answer, cx.model) {
        (
            Answer::Unsafe {
                witness,
                properties,
            },
            model,
        ) => {
            if Format::of(&args.file) == Ok(Format::Verilog) {
                // The witness names properties by number; a designer
                // reads assertions by name.
                for &p in properties {
                    let name = match model {
                        Model::System(ts) => ts.bad.get(p).map(|b| b.name.clone()),
                        Model::Circuit(a) => {
                            (a.symbol(aiger::SymbolKind::Bad, p)).map(String::from)
                        }
                        Model::Program(_) => None,
                    };
                    eprintln!(
                        "invar: {file}: assertion {} (b{p}) fails",
                        name.unwrap_or_else(|| format!("b{p}"))
                    );
                }
            }
            if let (Some(path), Model::Program(p)) = (&args.c.witness_out, model) {
                if writes_witnesses(p, file) {
                    if let Some(text) = svcomp::violation_witness(&args.file, p, cx.property)? {
                        write_file(path, text.as_bytes())?;
                    }
                }
            }
            if let Some(path) = &args.vcd {
                let mut waveform = match (model, witness) {
                    (Model::Circuit(aiger), Witness::Bit(trace)) => {
                        let init: Vec<Option<bool>> = trace.init.iter().map(|&b| Some(b)).collect();
                        let inputs: Vec<Vec<Option<bool>>> = (trace.inputs.iter())
                            .map(|v| v.iter().map(|&b| Some(b)).collect())
                            .collect();
                        vcd::aiger_waveform(aiger, &init, &inputs)
                    }
                    (Model::System(ts), Witness::Word(words)) => vcd::word_waveform(ts, words),
                    (Model::Program(p), Witness::Word(words)) => vcd::word_waveform(&p.ts, words),
                    _ => return Err("internal error: a trace not on the model's own terms".into()),
                };
                if let Some(j) = cx.justice {
                    waveform.mark_loop(render::loop_start(model, j, witness)?);
                }
                write_vcd(path, &waveform, &args.file)?;
            }
        }
        (Answer::Safe { .. }, model) => {
            if let Some(path) = &args.certificate {
                write_certificate(path, model, run, file, props, cx.justice.is_some())?;
            }
            if let (Some(path), Model::Program(p)) = (&args.c.witness_out, model) {
                if writes_witnesses(p, file) {
                    let text = svcomp::correctness_witness(&args.file, p, cx.property, run)?;
                    write_file(path, text.as_bytes())?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Whether invar writes SV-COMP witnesses for `program`'s property (not
/// for memory safety, whose witnesses would need the format's memory
/// sub-properties); says so when it does not.
fn writes_witnesses(program: &verify::ProgramModel, file: &str) -> bool {
    let writes = program.options.property != Spec::MemSafety;
    if !writes {
        eprintln!("invar: {file}: no witness: invar writes witnesses for unreach-call and no-overflow only");
    }
    writes
}

/// Writes the certificate of a SAFE run: a Certifaiger witness circuit
/// (binary unless the name ends in `.aag`), or for a word-level model or a
/// program the model in VMT followed by its certificate function. A
/// liveness proof (`liveness`) has none yet; where a proof has no
/// certificate form, stderr says so and the verdict stands.
fn write_certificate(
    path: &Path,
    model: &Model,
    run: &Run,
    file: &str,
    props: &[usize],
    liveness: bool,
) -> Result<(), String> {
    let ts = match model {
        Model::System(ts) => Some(ts),
        Model::Program(p) => Some(&p.ts),
        Model::Circuit(_) => None,
    };
    match (&run.certificate, ts) {
        (Some(Ok(Certificate::Circuit(witness))), _) => {
            write_witness_circuit(path, witness, file, props)
        }
        (Some(Ok(certificate)), Some(ts)) => {
            let text = certificate.system_text(ts).unwrap_or_default();
            write_file(path, text.as_bytes())
        }
        // The proof was checked; only its certificate form is missing, so
        // the verdict stands (as without a certificate form at all).
        (Some(Err(NoCertificate::Failed(e))), _) => {
            eprintln!("invar: {file}: no certificate written: {e}");
            Ok(())
        }
        _ if liveness => {
            eprintln!(
                "invar: no certificate written: invar writes no certificate for a liveness proof yet"
            );
            Ok(())
        }
        _ => {
            eprintln!(
                "invar: no certificate written: certificates are made from invariants and from k-induction proofs without simple paths on circuits"
            );
            Ok(())
        }
    }
}

/// Writes the certificate of a proof of the properties `settled` into
/// `dir`, one file for each, `bN.aig` (a witness circuit) or `bN.vmt` (a
/// word-level certificate): one proof's files are hard links to one file
/// (copies where the file system has no links), valid for each property
/// alone (`invar certify MODEL dir/bN.aig --property N`). Whether the
/// files were written (a proof without a certificate form has none).
fn write_certificates(
    dir: &Path,
    model: &Model,
    run: &Run,
    file: &str,
    settled: &[usize],
) -> Result<bool, String> {
    let Some((&first, rest)) = settled.split_first() else {
        return Ok(false);
    };
    let path = |q: usize| certificate_path(dir, model, q);
    let written = path(first);
    // No file of an earlier run may stand for this one's.
    let _ = std::fs::remove_file(&written);
    write_certificate(&written, model, run, file, settled, false)?;
    if !written.exists() {
        return Ok(false);
    }
    for &q in rest {
        let target = path(q);
        // A link does not replace a file left by an earlier run.
        let _ = std::fs::remove_file(&target);
        if std::fs::hard_link(&written, &target).is_err() {
            std::fs::copy(&written, &target)
                .map_err(|e| format!("{}: cannot write: {e}", target.display()))?;
        }
    }
    Ok(true)
}

/// The certificate file of property `q` under `--property all
/// --certificate dir`.
fn certificate_path(dir: &Path, model: &Model, q: usize) -> PathBuf {
    let extension = match model {
        Model::Circuit(_) => "aig",
        _ => "vmt",
    };
    dir.join(format!("b{q}.{extension}"))
}

/// Writes a Certifaiger witness circuit, binary unless the name ends in
/// `.aag`.
fn write_witness_circuit(
    path: &Path,
    witness: &Aig,
    file: &str,
    props: &[usize],
) -> Result<(), String> {
    let mut out = Aiger::from_aig(witness);
    out.comments = vec![
        format!("WITNESS {} {file}", props_text(props, None)),
        "produced by invar".into(),
    ];
    let bytes = match path.extension().and_then(|e| e.to_str()) {
        Some("aag") => aiger::write_ascii(&out),
        _ => aiger::write_binary(&out),
    };
    write_file(path, &bytes)
}

/// Writes `bytes` to `path`.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// Writes `waveform` as a Value Change Dump to `path`, its scope named
/// after the model file.
pub(super) fn write_vcd(path: &Path, waveform: &vcd::Waveform, model: &Path) -> Result<(), String> {
    let scope = model
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("model");
    write_file(path, vcd::write(waveform, scope).as_bytes())
}

/// The bad properties to check: the one asked for, or all of them.
///
/// `count` bad properties and whether there is justice decide; `kinds` names
/// what the format could have held, for the message when there is nothing.
fn select_properties(
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

/// `--property all`: every property gets its own answer, decided together
/// as the library groups them ([`verify::check_each`]) within the one time
/// limit; each answer is printed as it comes, as in HWMCC's multi-property
/// results (with `--json`, one object at the end whose `results` holds one
/// object each).
fn each_property(
    cx: &Context,
    props: &[usize],
    budget: &Budget,
    unknown_text: &Mutex<String>,
) -> Result<i32, String> {
    let (args, file) = (cx.args, cx.output.file);
    if args.vcd.is_some() {
        return Err(format!(
            "{file}: --property all gives one answer per property; ask for a waveform of one \
             property at a time (--property N)"
        ));
    }
    // `--certificate DIR`: one file per proved property.
    if let Some(dir) = &args.certificate {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create the directory: {e}", dir.display()))?;
    }
    // HWMCC's answers name their property; BTOR2's and VMT's do not, so each
    // of theirs follows a comment line naming it (`; property b1 name`),
    // and a JSON result carries the name.
    let hwmcc = cx.output.convention == Convention::Hwmcc;
    // A VMT property's name is its number, no name.
    let name_of = |q: usize| -> String {
        match cx.model {
            Model::System(ts) => ts.bad.get(q).map(|b| b.name.clone()),
            Model::Circuit(a) => a.symbol(aiger::SymbolKind::Bad, q).map(String::from),
            Model::Program(_) => None,
        }
        .filter(|n| !n.is_empty() && !n.bytes().all(|c| c.is_ascii_digit()))
        .unwrap_or_else(|| format!("b{q}"))
    };
    // With `--json`, a proved property's certificate file is named in its
    // object, and so are the properties whose proofs its proof assumed
    // (`assumed`, AIGER models only; HWMCC's text format has no place for
    // them, `-v` says so on stderr).
    let named =
        |q: usize, r: Rendered, certificate: Option<&Path>, assumed: &[usize]| -> Rendered {
            let text = if args.json {
                let mut o = JsonObject::default();
                o.string("name", &name_of(q));
                if let Some(path) = certificate {
                    o.string("certificate", &path.display().to_string());
                }
                if !assumed.is_empty() {
                    o.numbers("assumed", assumed);
                }
                let head = o.finish();
                let head = head.trim_end().trim_end_matches('}');
                let body = r.text.trim_start().trim_start_matches('{');
                format!("{head}, {body}")
            } else if hwmcc {
                r.text
            } else {
                match name_of(q) {
                    n if n == format!("b{q}") => format!("; property b{q}\n{}", r.text),
                    n => format!("; property b{q} {n}\n{}", r.text),
                }
            };
            Rendered { code: r.code, text }
        };
    let unknown_of = |q: usize| -> String {
        if hwmcc && !args.json {
            return format!("2\nb{q}\n.\n");
        }
        named(
            q,
            Rendered {
                code: EXIT_UNKNOWN,
                text: cx.output.convention.unknown(&[q], None),
            },
            None,
            &[],
        )
        .text
    };
    // Should the watchdog answer at the deadline, it prints the properties
    // not answered yet as unknown: each answer takes its block out.
    if !args.json {
        let text: String = props.iter().map(|&q| unknown_of(q)).collect();
        *unknown_text.lock().unwrap_or_else(|e| e.into_inner()) = text;
    }
    let unknown_prefix = match cx.model {
        Model::Circuit(_) => String::new(),
        _ => format!("{file}: "),
    };
    let request = request(cx, props.to_vec(), budget)?;
    let verbose = args.verbose;
    let mut log = |line: &str| {
        if verbose {
            eprintln!("invar: {file}: {line}");
        }
    };
    let (mut json_results, mut codes) = (Vec::new(), Vec::new());
    let mut failure = None;
    let mut report = |settled: &[usize], run: &verify::Run, assumed: &[usize]| {
        if failure.is_some() {
            return;
        }
        // The certificate first: an answer printed is one whose files are
        // written.
        let mut certified = None;
        if let (Some(dir), Answer::Safe { .. }) = (&args.certificate, &run.answer) {
            match write_certificates(dir, cx.model, run, file, settled) {
                Ok(written) => certified = written.then_some(dir),
                Err(e) => {
                    failure = Some(e);
                    return;
                }
            }
        }
        for (k, &q) in settled.iter().enumerate() {
            // One run's reason for unknown, said once.
            let output = Output {
                reason_said: k > 0,
                ..cx.output
            };
            let certificate = certified.map(|dir| certificate_path(dir, cx.model, q));
            let rendered = match output.answer(cx.model, &[q], run, &unknown_prefix) {
                Ok(r) => named(q, r, certificate.as_deref(), assumed),
                Err(e) => {
                    failure = Some(e);
                    return;
                }
            };
            codes.push(rendered.code);
            if args.json {
                json_results.push((q, rendered.text));
            } else {
                let block = unknown_of(q);
                print_part(&rendered.text, || {
                    let mut text = unknown_text.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(at) = text.find(&block) {
                        text.replace_range(at..at + block.len(), "");
                    }
                });
            }
        }
    };
    verify::check_each(cx.model, &request, &mut log, &mut report)?;
    if let Some(e) = failure {
        return Err(e);
    }
    let code = if codes.contains(&EXIT_UNSAFE) {
        EXIT_UNSAFE
    } else if codes.iter().all(|&c| c == EXIT_SAFE) {
        EXIT_SAFE
    } else {
        EXIT_UNKNOWN
    };
    if args.json {
        let verdict = match code {
            EXIT_UNSAFE => "unsafe",
            EXIT_SAFE => "safe",
            _ => "unknown",
        };
        // In the model's order (the text answers come as they are known).
        json_results.sort_by_key(|r| r.0);
        let mut o = JsonObject::default();
        o.string("file", file)
            .string("verdict", verdict)
            .numbers("properties", props)
            .objects("results", json_results.iter().map(|a| a.1.trim_end()));
        print_verdict(&o.finish());
    } else {
        // The parts are out: the watchdog has nothing left to print.
        print_verdict_with(String::new);
    }
    Ok(code)
}
