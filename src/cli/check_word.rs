//! `invar check` on word-level models: read into a transition system and
//! hand it to the library's pipeline (bit-blasted onto the circuit engines,
//! or the word-level engine for Int and Real), which replays any
//! counterexample on the terms before it is printed here.
//!
//! BTOR2 answers in the BTOR2 witness format: `sat` with a witness, `unsat`,
//! or `unknown`. VMT answers `safe`, `unsafe` or `unknown` as ic3ia does,
//! with the counterexample under `--witness`; so does DimSpec.

use super::args::CheckArgs;
use super::check::{
    maybe_write_certificate, print_statistics, progress, report_unknown, request, safe_object,
    select_properties, start_budget, summary, Format,
};
use super::{print_verdict, EXIT_SAFE, EXIT_UNSAFE};
use invar::formats::{btor2, dimspec, vmt};
use invar::ir::ts::{Ts, WordTrace};
use invar::verify::{self, Answer, Witness};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Reads a word-level model in `format`.
pub fn read_model(path: &std::path::Path, format: Format) -> Result<Ts, String> {
    match format {
        Format::Btor2 => btor2::read_file(path),
        Format::Vmt => vmt::read_file(path),
        Format::Dimspec => dimspec::read_file(path),
        Format::Aiger | Format::C => {
            return Err(format!(
                "{}: not a word-level model (circuits and programs are read elsewhere)",
                path.display()
            ))
        }
    }
    .map_err(|e| e.to_string())
}

pub fn run(args: &CheckArgs, format: Format) -> Result<i32, String> {
    let start = Instant::now();
    let unknown_text = "unknown\n";
    let budget = start_budget(args, Arc::new(Mutex::new(unknown_text.into())))?;
    let file = args.file.display().to_string();
    if args.property == Some(super::args::PropertyArg::All) {
        // BTOR2's `unsat` and VMT's `safe` name no property, so answers per
        // property have no text form here yet.
        return Err(format!(
            "{file}: --property all is for AIGER models (HWMCC's results per property); \
             check the properties of this model one at a time with --property N"
        ));
    }
    let ts = read_model(&args.file, format)?;
    let props = select_properties(
        ts.bad.len(),
        !ts.justice.is_empty(),
        args.property.and_then(super::args::PropertyArg::index),
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
    let request = request(args, props.clone(), &budget)?;
    let run = verify::check_word(&ts, &request, &mut progress(args))?;
    print_statistics(args, &run);
    match &run.answer {
        Answer::Unsafe {
            witness: Witness::Word(words),
            properties,
        } => {
            let witness = unsafe_text(args, format, &ts, properties, words);
            if let Some(path) = &args.vcd {
                let waveform = invar::formats::vcd::word_waveform(&ts, words);
                super::check::write_vcd(path, &waveform, &args.file)?;
            }
            let text = if args.json {
                let mut o = summary(&file, "unsafe", properties, &run, start);
                o.number("steps", words.len()).string("witness", &witness);
                o.finish()
            } else {
                witness
            };
            print_verdict(&text);
            Ok(EXIT_UNSAFE)
        }
        Answer::Unsafe { .. } => Err("internal error: a trace not on the word-level model".into()),
        Answer::Safe { .. } => {
            maybe_write_certificate(args, &run, &file, &props, Some(&ts))?;
            let text = if args.json {
                safe_object(&file, &props, &run, start).finish()
            } else {
                safe_text(format).to_string()
            };
            print_verdict(&text);
            Ok(EXIT_SAFE)
        }
        Answer::Unknown(reason) | Answer::Unconfirmed(reason) => Ok(report_unknown(
            args,
            &file,
            &props,
            &format!("{file}: {reason}"),
            Some(&run),
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

/// The answer of a safe model in `format`'s convention.
fn safe_text(format: Format) -> &'static str {
    match format {
        Format::Btor2 => "unsat\n",
        _ => "safe\n",
    }
}
