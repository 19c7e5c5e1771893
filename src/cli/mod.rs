//! The binary's front end: parses arguments, runs commands, renders results
//! and maps them to exit codes. The only module that prints.
//!
//! Exit codes: 10 unsafe, 20 safe, 0 unknown (and success of other
//! commands), 1 error, 3 a witness that does not replay (`sim`).

/// `println!` for the commands' output on stdout: if the reader went away (a
/// closed pipe, as in `invar info F | head`), the run ends quietly with exit
/// code 1 instead of panicking on the failed write.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod args;
mod check;
mod crosscheck;
mod json;
mod monitor;
mod render;
mod svcomp;
mod tools;

use args::{Cli, Command};
use clap::Parser;
use std::io::Write;
use std::sync::Mutex;

/// Exit code for an UNSAFE verdict.
pub const EXIT_UNSAFE: i32 = 10;
/// Exit code for a SAFE verdict.
pub const EXIT_SAFE: i32 = 20;
/// Exit code for an unknown verdict or plain success.
pub const EXIT_UNKNOWN: i32 = 0;
/// Exit code for errors: bad input, bad usage, failed internal checks.
pub const EXIT_ERROR: i32 = 1;
/// Exit code of `sim` when the witness does not reach its bad state.
pub const EXIT_REJECTED: i32 = 3;

/// Guards the verdict on stdout: whoever prints first (the command or the
/// timeout watchdog) is the only one that prints.
static VERDICT_PRINTED: Mutex<bool> = Mutex::new(false);

/// Prints `text` as the run's verdict unless one was printed already.
/// Returns whether this call printed.
fn print_verdict(text: &str) -> bool {
    print_verdict_with(|| text.to_string())
}

/// [`print_verdict`] of the text `make` gives, made while no other part of
/// the verdict is being printed ([`print_part`]).
fn print_verdict_with(make: impl FnOnce() -> String) -> bool {
    let mut printed = VERDICT_PRINTED.lock().unwrap_or_else(|e| e.into_inner());
    if *printed {
        return false;
    }
    *printed = true;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(make().as_bytes());
    let _ = out.flush();
    true
}

/// Prints `text` as one part of a verdict given in parts (one answer per
/// property), unless the whole verdict was printed already, and then runs
/// `after` (which updates what the watchdog would print for the rest)
/// before anyone else prints. Returns whether this call printed.
fn print_part(text: &str, after: impl FnOnce()) -> bool {
    let printed = VERDICT_PRINTED.lock().unwrap_or_else(|e| e.into_inner());
    if *printed {
        return false;
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    after();
    true
}

/// Writes to stdout; a failed write (the reader closed the pipe) ends the
/// process with [`EXIT_ERROR`], saying so on stderr unless the pipe closed.
pub(crate) fn write_out(args: std::fmt::Arguments) {
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("invar: cannot write to stdout: {e}");
        }
        std::process::exit(EXIT_ERROR);
    }
}

/// Parses the command line and runs it; returns the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => 0,
                _ => EXIT_ERROR,
            };
        }
    };
    invar::util::settings::set(settings_from_environment());
    monitor::start();
    let result = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Sim {
            model,
            witness,
            vcd,
        } => tools::sim(&model, &witness, vcd.as_deref()),
        Command::Certify {
            model,
            certificate,
            sat,
            property,
        } => sat
            .backend()
            .and_then(|b| tools::certify(&model, &certificate, b, property.as_deref())),
        Command::Convert {
            input,
            output,
            no_reset_functions,
            c,
        } => tools::convert(&input, &output, no_reset_functions, &c),
        Command::Info { file, c } => tools::info(&file, &c),
        Command::CoreReplay { traces } => tools::core_replay(&traces),
        Command::Smt {
            file,
            timeout,
            smt,
            verbose,
        } => tools::smt(&file, timeout, smt.backend(), verbose),
        Command::Crosscheck {
            file,
            timeout,
            property,
        } => crosscheck::run(&file, timeout, property),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("invar: {message}");
            EXIT_ERROR
        }
    }
}

/// The library's process-wide settings (`invar::util::settings`) from the
/// environment: the only place that reads it.
fn settings_from_environment() -> invar::util::settings::Settings {
    let path = |name: &str| std::env::var_os(name).map(std::path::PathBuf::from);
    invar::util::settings::Settings {
        z3: path("INVAR_Z3"),
        cvc5: path("INVAR_CVC5"),
        core_trace: path("INVAR_CORE_TRACE"),
        dump_smt: path("INVAR_DUMP_SMT"),
        dump_proof: path("INVAR_DUMP_PROOF"),
        core_heap_only: std::env::var_os("INVAR_CORE_HEAP").is_some(),
        smt_inputs_only: match std::env::var("INVAR_SMT_DECIDE").as_deref() {
            Ok("all") => Some(false),
            Ok("inputs") => Some(true),
            _ => None,
        },
    }
}
