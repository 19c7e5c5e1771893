//! `invar sim`, `invar convert` and `invar info`.

use super::check::{asked_spec, program_options};
use super::{EXIT_REJECTED, EXIT_UNKNOWN};
use invar::bitblast::{bitblast, bitblast_with_resets, ts_from_aig};
use invar::check::certificate::check_witness;
use invar::check::replay::{replay, Replay};
use invar::check::word;
use invar::formats::aiger::{self, PropertyKind};
use invar::formats::witness::parse_aiger_witness;
use invar::formats::{btor2, dimspec, vmt};
use invar::ir::coi::cone_of_influence;
use invar::ir::ts::Ts;
use invar::sat::Backend;
use invar::util::budget::Budget;
use invar::verify::model::{read_program, read_system};
use invar::verify::{Format, ProgramOptions};
use std::path::Path;

/// Replays a witness; exit 0 if it reaches every bad property it names.
pub fn sim(model: &Path, witness: &Path, vcd: Option<&Path>) -> Result<i32, String> {
    match Format::of(model)? {
        Format::Btor2 => return sim_btor2(model, witness, vcd),
        Format::Aiger => {}
        Format::C => {
            return Err(format!(
                "{}: invar sim replays AIGER, BTOR2, VMT and DimSpec witnesses; a C program's counterexample is replayed by `invar check` itself before it prints `false`",
                model.display()
            ))
        }
        format => return sim_vmt(model, format, witness, vcd),
    }
    let aiger = aiger::read_file(model).map_err(|e| e.to_string())?;
    let name = witness.display().to_string();
    let text = std::fs::read_to_string(witness).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let w = parse_aiger_witness(&name, &text, aiger.latches.len(), aiger.inputs.len())
        .map_err(|e| e.to_string())?;
    let mut watched = Vec::new();
    for &(kind, index) in &w.properties {
        match kind {
            PropertyKind::Bad if index < aiger.bad_properties().len() => watched.push(index),
            PropertyKind::Bad => {
                return Err(format!(
                    "{name}: the witness names b{index}, but the model has no such property"
                ))
            }
            PropertyKind::Justice => {
                return Err(format!(
                    "{name}: justice witnesses (j{index}) are not supported yet"
                ))
            }
        }
    }
    if let Some(path) = vcd {
        let waveform = invar::formats::vcd::aiger_waveform(&aiger, &w.init, &w.inputs);
        super::check::write_vcd(path, &waveform, model)?;
    }
    let mut all_ok = true;
    for &p in &watched {
        match replay(&aiger, &[p], &w.init, &w.inputs) {
            Replay::Reached { step, .. } => {
                outln!("b{p}: reached at step {step} of {}", w.inputs.len());
            }
            Replay::NotReached(reason) => {
                outln!("b{p}: not reached: {reason}");
                all_ok = false;
            }
        }
    }
    Ok(if all_ok { EXIT_UNKNOWN } else { EXIT_REJECTED })
}

/// Replays a BTOR2 witness on the word-level model with the evaluator.
fn sim_btor2(model: &Path, witness: &Path, vcd: Option<&Path>) -> Result<i32, String> {
    let ts = btor2::read_file(model).map_err(|e| e.to_string())?;
    let name = witness.display().to_string();
    let text = std::fs::read_to_string(witness).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let w = btor2::witness::read_witness(&name, &text, &ts).map_err(|e| e.to_string())?;
    let trace = word::simulate(&ts, &w.states, &w.inputs)?;
    if let Some(path) = vcd {
        let waveform = invar::formats::vcd::word_waveform(&ts, &trace);
        super::check::write_vcd(path, &waveform, model)?;
    }
    let mut all_ok = true;
    for &p in &w.props {
        match word::replay(&ts, &trace, &[p]) {
            Ok(r) => outln!("b{p}: reached at step {} of {}", r.step, trace.len()),
            Err(reason) => {
                outln!("b{p}: not reached: {reason}");
                all_ok = false;
            }
        }
    }
    Ok(if all_ok { EXIT_UNKNOWN } else { EXIT_REJECTED })
}

/// Replays a VMT-style counterexample (also for DimSpec) on the model.
fn sim_vmt(
    model: &Path,
    format: Format,
    witness: &Path,
    vcd: Option<&Path>,
) -> Result<i32, String> {
    let ts = read_system(model, format)?;
    let name = witness.display().to_string();
    let text = std::fs::read_to_string(witness).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let (states, inputs) = vmt::read_trace(&name, &text, &ts).map_err(|e| e.to_string())?;
    let trace = word::simulate(&ts, &states, &inputs)?;
    if let Some(path) = vcd {
        let waveform = invar::formats::vcd::word_waveform(&ts, &trace);
        super::check::write_vcd(path, &waveform, model)?;
    }
    let all: Vec<usize> = (0..ts.bad.len()).collect();
    match word::replay(&ts, &trace, &all) {
        Ok(r) => {
            let names: Vec<&str> = r
                .properties
                .iter()
                .map(|&p| ts.bad[p].name.as_str())
                .collect();
            outln!(
                "property {}: reached at step {} of {}",
                names.join(", "),
                r.step,
                trace.len()
            );
            Ok(EXIT_UNKNOWN)
        }
        Err(reason) => {
            outln!("not reached: {reason}");
            Ok(EXIT_REJECTED)
        }
    }
}

/// Checks a certificate against a model (a witness circuit for AIGER, the
/// `invar-certificate` function for word-level models); exit 0 if valid, 3
/// if not.
pub fn certify(
    model: &Path,
    certificate: &Path,
    backend: Backend,
    property: Option<&[usize]>,
) -> Result<i32, String> {
    match Format::of(model)? {
        Format::Aiger => {}
        Format::C => {
            return Err(format!(
                "{}: certify a C program's proof against its certificate file, which holds the program's encoding: invar certify CERT CERT",
                model.display()
            ))
        }
        format => return certify_word(model, format, certificate, property),
    }
    let mut m = aiger::read_file(model).map_err(|e| e.to_string())?.to_aig();
    let w = aiger::read_file(certificate)
        .map_err(|e| e.to_string())?
        .to_aig();
    if m.bad.is_empty() {
        return Err(format!(
            "{}: the model has no bad property to certify",
            model.display()
        ));
    }
    // The model as `check --property N` proved it: that property alone.
    m.bad = certified_properties(model, m.bad.len(), property)?
        .into_iter()
        .map(|p| m.bad[p])
        .collect();
    match check_witness(&m, &w, backend, &Budget::unlimited()) {
        Ok(()) => {
            outln!(
                "certificate valid: reset, transition, property, base and step checks pass ({})",
                backend.name()
            );
            Ok(EXIT_UNKNOWN)
        }
        Err(reason) => {
            outln!("certificate invalid: {reason}");
            Ok(EXIT_REJECTED)
        }
    }
}

/// Checks a word-level certificate on the model as read, every bad
/// property at once, on cvc5 or z3 where installed, else invar's solver.
fn certify_word(
    model: &Path,
    format: Format,
    certificate: &Path,
    property: Option<&[usize]>,
) -> Result<i32, String> {
    use invar::check::smt_proof;
    let ts = read_system(model, format)?;
    let name = certificate.display();
    let text =
        std::fs::read_to_string(certificate).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let function = smt_proof::find_certificate(&text).ok_or_else(|| {
        format!(
            "{name}: expected `(define-fun {} ((x1 S1) … (xn Sn)) Bool INV)`",
            smt_proof::CERTIFICATE
        )
    })?;
    if ts.bad.is_empty() {
        return Err(format!(
            "{}: the model has no bad property to certify",
            model.display()
        ));
    }
    let watched = certified_properties(model, ts.bad.len(), property)?;
    match smt_proof::check_certificate(&ts, function, &watched, "", None) {
        Ok(checker) => {
            outln!("certificate valid: initiation, consecution and safety hold ({checker})");
            Ok(EXIT_UNKNOWN)
        }
        Err(e) if e.refuted => {
            outln!("certificate invalid: {e}");
            Ok(EXIT_REJECTED)
        }
        Err(e) => Err(format!(
            "{name}: no solver could check the certificate: {e}"
        )),
    }
}

/// The bad properties a certificate is checked against: those of
/// `property`, or all `count` of the model.
fn certified_properties(
    model: &Path,
    count: usize,
    property: Option<&[usize]>,
) -> Result<Vec<usize>, String> {
    let Some(props) = property else {
        return Ok((0..count).collect());
    };
    match props.iter().find(|&&p| p >= count) {
        Some(p) => Err(format!(
            "{}: --property {p}: the model has {count} bad propert{} (0 to {})",
            model.display(),
            if count == 1 { "y" } else { "ies" },
            count - 1
        )),
        None => Ok(props.to_vec()),
    }
}

/// Converts between formats by extension: AIGER to AIGER keeps symbols and
/// comments; the other formats write VMT, BTOR2, DimSpec, or AIGER by
/// bit-blasting; C programs are lowered as `check` would (`c`).
pub fn convert(
    input: &Path,
    output: &Path,
    no_reset_functions: bool,
    c: &super::args::CArgs,
) -> Result<i32, String> {
    let format = Format::of(input)?;
    if format != Format::Aiger {
        let ts = if format == Format::C {
            let model = read_program(input, &program_options(c, asked_spec(c), None))
                .map_err(|e| format!("{}: {e}", input.display()))?;
            super::check::show_lowering(c, false, &model);
            let program = &model.program;
            let notes = [
                (
                    program.out_of_bounds,
                    "undefined behaviour the encoding does not end at",
                ),
                (
                    program.cut,
                    "a recursive call deeper than the program is inlined to",
                ),
            ];
            for (flag, what) in notes.iter().filter_map(|(f, w)| Some((f.as_ref()?, w))) {
                let name = program.cfa.terms.var_name(*flag).unwrap_or("?");
                eprintln!(
                    "invar: note: {}: {what} also reaches the error location, with `{name}` set",
                    input.display()
                );
            }
            model.ts
        } else {
            read_system(input, format)?
        };
        let out_ext = output.extension().and_then(|e| e.to_str());
        let bytes = match out_ext {
            Some("vmt" | "smt2") => vmt_bytes(&ts, input)?,
            Some("chc") => invar::formats::chc::write(&ts).into_bytes(),
            Some("btor2" | "btor") => btor2::write(&ts)
                .map_err(|e| format!("{}: {}", input.display(), e.0))?
                .into_bytes(),
            Some("dimspec") => {
                let blasted = bitblast(&ts).map_err(|e| format!("{}: {e}", input.display()))?;
                dimspec_of(&blasted.aig).into_bytes()
            }
            Some("aag" | "aig") => {
                let out = aiger::Aiger::from_aig(&circuit_of(&ts, input, no_reset_functions)?);
                if out_ext == Some("aag") {
                    aiger::write_ascii(&out)
                } else {
                    aiger::write_binary(&out)
                }
            }
            _ => {
                return Err(format!(
                    "{}: unknown output format for a word-level model; expected .vmt, .btor2, .dimspec, .chc (Horn clauses), .aag or .aig",
                    output.display()
                ))
            }
        };
        std::fs::write(output, bytes)
            .map_err(|e| format!("{}: cannot write: {e}", output.display()))?;
        return Ok(EXIT_UNKNOWN);
    }
    let mut aiger = aiger::read_file(input).map_err(|e| e.to_string())?;
    if no_reset_functions {
        aiger = constant_resets(&aiger);
    }
    let bytes = match output.extension().and_then(|e| e.to_str()) {
        Some("aag") => aiger::write_ascii(&aiger),
        Some("aig") => aiger::write_binary(&aiger),
        // Reset functions lowered to a first-step latch and constraints
        // (`ir::resets`): the word-level formats' initial states are
        // constants there.
        Some("vmt" | "smt2") => vmt_bytes(&ts_from_aig(&aiger.to_aig().without_resets()), input)?,
        Some("dimspec") => dimspec_of(&aiger.to_aig().without_resets()).into_bytes(),
        Some("btor2" | "btor") => btor2::write(&ts_from_aig(&aiger.to_aig().without_resets()))
            .map_err(|e| format!("{}: {}", input.display(), e.0))?
            .into_bytes(),
        _ => {
            return Err(format!(
            "{}: unknown output format; expected a .aag, .aig, .vmt, .btor2 or .dimspec extension",
            output.display()
        ))
        }
    };
    std::fs::write(output, bytes)
        .map_err(|e| format!("{}: cannot write: {e}", output.display()))?;
    Ok(EXIT_UNKNOWN)
}

/// The circuit of a word-level model for an AIGER file: a state initialised
/// from a term that is not constant gets reset functions, as HWMCC'25 writes
/// them, unless `no_reset_functions` asks for constant resets only; where the
/// functions would depend on each other in a cycle, the `first` latch and a
/// constraint, as the engines see them.
fn circuit_of(
    ts: &Ts,
    input: &Path,
    no_reset_functions: bool,
) -> Result<invar::ir::aig::Aig, String> {
    let failed = |e: invar::bitblast::Unsupported| format!("{}: {e}", input.display());
    let with_functions = bitblast_with_resets(ts).map_err(failed)?.aig;
    match with_functions.with_constant_resets() {
        Some(constant) if no_reset_functions => Ok(constant),
        Some(_) => Ok(with_functions),
        None => {
            eprintln!(
                "invar: note: {}: initial values depend on each other in a cycle; written as a constraint in the first step",
                input.display()
            );
            let plain = bitblast(ts).map_err(failed)?.aig;
            Ok(if no_reset_functions {
                plain.with_constant_resets().unwrap_or(plain)
            } else {
                plain
            })
        }
    }
}

/// The AIGER model with constant resets only ([`Aig::with_constant_resets`]),
/// its names kept: inputs, latches and properties keep their positions.
fn constant_resets(aiger: &aiger::Aiger) -> aiger::Aiger {
    let aig = aiger.to_aig();
    // The reader refused cycles.
    let Some(constant) = aig.with_constant_resets() else {
        return aiger.clone();
    };
    let mut out = aiger::Aiger::from_aig(&constant);
    let outputs_are_bad = aiger.bad.is_empty() && aiger.justice.is_empty();
    out.symbols = (aiger.symbols.iter())
        .filter_map(|s| {
            let mut s = s.clone();
            match s.kind {
                aiger::SymbolKind::Output if outputs_are_bad => s.kind = aiger::SymbolKind::Bad,
                aiger::SymbolKind::Output => return None,
                _ => {}
            }
            Some(s)
        })
        .collect();
    out.comments = aiger.comments.clone();
    out
}

/// DimSpec of a circuit, its bad properties OR-ed into the goal.
fn dimspec_of(aig: &invar::ir::aig::Aig) -> String {
    let mut aig = aig.clone();
    let bad = aig.bad.clone();
    let any = aig.or_all(&bad);
    dimspec::write_from_aig(&aig, any)
}

/// Prints the header counts and each bad property's cone size.
pub fn info(file: &Path, c: &super::args::CArgs) -> Result<i32, String> {
    let format = Format::of(file)?;
    if format == Format::Aiger {
        return info_aiger(file);
    }
    outln!("file         {}", file.display());
    let ts = if format == Format::C {
        let options = ProgramOptions {
            keep_before_lbe: false,
            ..program_options(c, asked_spec(c), None)
        };
        let model = read_program(file, &options).map_err(|e| format!("{}: {e}", file.display()))?;
        let mode = if c.int {
            "mathematical integers"
        } else if c.lp64 {
            "LP64"
        } else {
            "ILP32"
        };
        outln!("format       C ({mode})");
        let cfa = &model.program.cfa;
        outln!("variables    {}", cfa.vars.len());
        let (before, after) = match &model.lbe {
            Some(stats) => (stats.before, Some(stats.after)),
            None => ((cfa.live_locations().len(), cfa.edges.len()), None),
        };
        outln!("cfa          {} locations, {} edges", before.0, before.1);
        if let Some(after) = after {
            outln!("after lbe    {} locations, {} edges", after.0, after.1);
        }
        model.ts
    } else {
        let name = match format {
            Format::Btor2 => "BTOR2",
            Format::Vmt => "VMT",
            _ => "DimSpec",
        };
        outln!("format       {name}");
        read_system(file, format)?
    };
    info_word(&ts);
    Ok(EXIT_UNKNOWN)
}

/// Sorts of a list of variables, as `3 Bool, 2 BitVec (40 bits), 1 Int`.
fn sorts_summary(ts: &Ts, vars: impl Iterator<Item = invar::ir::term::Term>) -> String {
    use invar::ir::term::Sort;
    let (mut bools, mut bvs, mut bits, mut ints, mut reals, mut arrays) = (0, 0, 0u64, 0, 0, 0);
    for v in vars {
        match ts.terms.sort(v) {
            Sort::Bool => bools += 1,
            Sort::BitVec(w) => {
                bvs += 1;
                bits += u64::from(*w);
            }
            Sort::Int => ints += 1,
            Sort::Real => reals += 1,
            Sort::Array(..) => arrays += 1,
        }
    }
    let mut parts = Vec::new();
    for (n, what) in [
        (bools, "Bool"),
        (ints, "Int"),
        (reals, "Real"),
        (arrays, "Array"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
        if what == "Bool" && bvs > 0 {
            parts.push(format!("{bvs} BitVec ({bits} bits)"));
        }
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// Sizes of a word-level system and each bad property's cone.
fn info_word(ts: &Ts) {
    let states = ts.states.len();
    outln!(
        "states       {states}: {}",
        sorts_summary(ts, ts.states.iter().map(|s| s.var))
    );
    outln!(
        "inputs       {}: {}",
        ts.inputs.len(),
        sorts_summary(ts, ts.inputs.iter().copied())
    );
    outln!(
        "init         {} relations, {} states with an init function",
        ts.init.len(),
        ts.states.iter().filter(|s| s.init.is_some()).count()
    );
    outln!(
        "trans        {} relations, {} states with a next function",
        ts.trans.len(),
        ts.states.iter().filter(|s| s.next.is_some()).count()
    );
    outln!("constraints  {}", ts.constraints.len());
    outln!("bad          {}", ts.bad.len());
    outln!("justice      {}", ts.justice.len());
    outln!("live         {}", ts.live.len());
    outln!("predicates   {}", ts.predicates.len());
    outln!("terms        {}", ts.terms.topological(&ts.roots()).len());
    for (p, property) in ts.bad.iter().enumerate() {
        let cone = ts.cone_of_influence(&[property.term]);
        let named = if property.name == format!("b{p}") {
            String::new()
        } else {
            format!(" ({})", property.name)
        };
        outln!(
            "b{p:<11} cone: {} states, {} inputs, {} terms{named}",
            cone.states.len(),
            cone.inputs.len(),
            cone.terms,
        );
    }
}

fn info_aiger(file: &Path) -> Result<i32, String> {
    let aiger = aiger::read_file(file).map_err(|e| e.to_string())?;
    outln!("file         {}", file.display());
    outln!("maxvar       {}", aiger.maxvar);
    outln!("inputs       {}", aiger.inputs.len());
    outln!("latches      {}", aiger.latches.len());
    outln!(
        "reset fns    {}",
        (aiger.latches.iter())
            .filter(|l| matches!(l.reset, aiger::Reset::Function(_)))
            .count()
    );
    outln!("outputs      {}", aiger.outputs.len());
    outln!("ands         {}", aiger.ands.len());
    outln!("bad          {}", aiger.bad.len());
    outln!("constraints  {}", aiger.constraints.len());
    outln!("justice      {}", aiger.justice.len());
    outln!("fairness     {}", aiger.fairness.len());
    outln!("symbols      {}", aiger.symbols.len());
    outln!("comments     {}", aiger.comments.len());
    let aig = aiger.to_aig();
    outln!("strashed     {} ands", aig.num_ands());
    if aiger.bad.is_empty() && !aiger.outputs.is_empty() && aiger.justice.is_empty() {
        outln!("(no bad section: outputs are the bad properties)");
    }
    for (p, &lit) in aig.bad.iter().enumerate() {
        let (cone, _) = cone_of_influence(&aig, &[lit]);
        outln!(
            "b{p:<11} cone: {} inputs, {} latches, {} ands{}",
            cone.inputs.len(),
            cone.latches.len(),
            cone.num_ands(),
            aiger
                .symbol(aiger::SymbolKind::Bad, p)
                .map(|s| format!(" ({s})"))
                .unwrap_or_default()
        );
    }
    Ok(EXIT_UNKNOWN)
}

/// `invar core-replay`: checks traced core queries against CaDiCaL.
pub fn core_replay(traces: &[std::path::PathBuf]) -> Result<i32, String> {
    let mut total = invar::sat::core::trace::ReplayStats::default();
    for path in traces {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        match invar::sat::core::trace::replay(&text, Backend::Cadical) {
            Ok(s) => {
                total.queries += s.queries;
                total.sat += s.sat;
                total.unsat += s.unsat;
            }
            Err(e) => {
                outln!("{}: {e}", path.display());
                return Ok(3);
            }
        }
    }
    outln!(
        "{} queries ({} sat, {} unsat) in {} traces agree with cadical",
        total.queries,
        total.sat,
        total.unsat,
        traces.len()
    );
    Ok(0)
}

/// `invar smt`: an SMT-LIB script on invar's own solver.
pub fn smt(
    file: &std::path::Path,
    timeout: Option<f64>,
    backend: invar::smt::Backend,
    verbose: bool,
) -> Result<i32, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    let budget = match timeout {
        Some(t) if t.is_finite() && t > 0.0 => {
            invar::util::budget::Budget::with_timeout(std::time::Duration::from_secs_f64(t))
        }
        Some(t) => {
            return Err(format!(
                "--timeout must be a positive number of seconds, not {t}"
            ))
        }
        None => invar::util::budget::Budget::unlimited(),
    };
    let mut solver = backend.start(&budget)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let name = file.display().to_string();
    let ending = invar::smt::script::run(&name, &text, solver.as_mut(), &mut out)
        .map_err(|e| format!("cannot write the answers: {e}"))?;
    std::io::Write::flush(&mut out).map_err(|e| format!("cannot write the answers: {e}"))?;
    if verbose {
        let stats = solver.stats();
        eprintln!(
            "{}: {} checks, {} SAT calls, {:.3} s",
            solver.name(),
            stats.checks,
            stats.sat_calls,
            stats.time.as_secs_f64()
        );
        for (name, n) in solver.counters() {
            eprintln!("  {name}: {n}");
        }
    }
    Ok(match ending {
        invar::smt::script::Ending::Completed => 0,
        invar::smt::script::Ending::Unreadable => 1,
    })
}

/// The VMT text of `ts`, converted from `input`, or why VMT cannot hold its
/// liveness properties.
fn vmt_bytes(ts: &Ts, input: &Path) -> Result<Vec<u8>, String> {
    match vmt::liveness_unwritable(ts) {
        Some(why) => Err(format!("{}: cannot write VMT: {why}", input.display())),
        None => Ok(vmt::write(ts).into_bytes()),
    }
}
