//! The C front end: SV-COMP-style C (preprocessed by `gcc -E`) parsed
//! with `lang-c` and lowered into a control-flow automaton, bit-precisely
//! (ILP32 by default). Constructs outside the supported subset are refused
//! by name and line; no verdict is given on a program that was not
//! understood. Lines are those of the original source, recovered from the
//! preprocessor's line markers.

pub mod lines;
mod lower;
pub mod relax;
pub mod types;
pub mod witness;

pub use crate::formats::svcomp::{SourcePoint, Spec};
pub use lower::{Fault, LoopHead, Program};

use crate::util::children;
use lang_c::driver::{parse_preprocessed_until, Config, Flavor};
use lines::{LineMap, SourceLine};
use std::ffi::OsStr;
use std::fmt;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Front-end options.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// LP64 (64-bit `long`) instead of SV-COMP's default ILP32.
    pub lp64: bool,
    /// Mathematical integers instead of machine integers (unsound for
    /// wrap-around and casts; bit operations are refused).
    pub int: bool,
    /// With `int`: a Bool state `int-overflow` ([`Program::overflow`]) is
    /// set when a variable is assigned a value outside its C type's range
    /// (the relaxation's invariants then rule out such assignments, see
    /// [`relax`]).
    pub overflow_flag: bool,
    /// Signed arithmetic wraps around (gcc's `-fwrapv`) instead of being
    /// undefined where it overflows. By default an execution ends where it
    /// performs undefined behaviour (signed overflow, division by zero, a
    /// shift out of range), as SV-COMP reads C: such a path is no
    /// counterexample.
    pub wrap_signed: bool,
    /// The property checked. Under no-overflow a signed overflow goes to
    /// the error location (whatever `wrap_signed` says); under memory
    /// safety an invalid dereference or `free`, or a lost object, does
    /// (see [`Program::violations`]); under both, `reach_error` ends the
    /// execution.
    pub property: Spec,
    /// When the preprocessor is killed and reading gives up.
    pub deadline: Option<Instant>,
    /// How long `lang-c` may parse before gcc is asked for the text's
    /// first error (`None`: [`PARSE_PATIENCE`]). A shorter patience only
    /// changes which of the two reports the error of a text `lang-c` is
    /// slow on: the fuzz target sets it short so that inputs on which
    /// `lang-c` backtracks for seconds do not eat the campaign.
    pub parse_patience: Option<Duration>,
}

/// Deepest nesting of `(` and `[` read. `lang-c`'s parser copies a
/// parenthesised subexpression once per enclosing level, so its time and
/// memory grow with the square of the depth (measured: 1,000 levels 0.5 s,
/// 4,000 levels 15 s and 2 GB); C itself guarantees only 63 levels.
pub const MAX_NESTING: usize = 1000;

/// Deepest nesting of `[` read. `lang-c`'s parser takes time exponential in
/// the depth of array declarators whose size starts with a unary operator
/// and a parenthesis (`[*(void`, `[-(int`): it tries the cast and the
/// parenthesised expression at each level (fuzzing found 629 bytes that
/// took 20 s to refuse; 16 levels 0.1–0.8 s, 20 levels 2–4 s, 22 levels
/// 19 s). C11 guarantees only 12 declarators modifying one type
/// (5.2.4.1), and no program of the C bench set nests `[` twice.
pub const MAX_SUBSCRIPT_NESTING: usize = 12;

/// Why a program was not lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrontError {
    /// The preprocessor or the parser failed, or the input is beyond a
    /// stated limit.
    Syntax(String),
    /// A construct outside the supported subset, with the source line
    /// where it appears.
    Unsupported {
        /// Where the construct is.
        at: SourceLine,
        /// What is not supported.
        what: String,
    },
    /// The time limit ran out while reading.
    Timeout,
}

impl fmt::Display for FrontError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrontError::Syntax(m) => write!(f, "{m}"),
            FrontError::Unsupported { at, what } => {
                write!(f, "{at}: unsupported: {what}")
            }
            FrontError::Timeout => write!(f, "time limit reached while preprocessing"),
        }
    }
}

/// Runs `gcc -E` on `path`; the child is killed when `deadline` passes, so
/// no preprocessor outlives the run.
fn preprocess(path: &Path, deadline: Option<Instant>) -> Result<String, FrontError> {
    let (success, out, err) = run_gcc(&[OsStr::new("-E"), path.as_os_str()], None, deadline)?;
    if !success {
        return Err(FrontError::Syntax(format!(
            "preprocessor failed: {}",
            String::from_utf8_lossy(&err).trim_end()
        )));
    }
    String::from_utf8(out)
        .map_err(|_| FrontError::Syntax("the preprocessed program is not UTF-8".into()))
}

/// Runs gcc with `args` (and `input` on its standard input): whether it
/// succeeded, its output and its messages. The child is killed when
/// `deadline` passes.
fn run_gcc(
    args: &[&OsStr],
    input: Option<String>,
    deadline: Option<Instant>,
) -> Result<(bool, Vec<u8>, Vec<u8>), FrontError> {
    let mut child = Command::new("gcc")
        // Its own process group, so that killing it also ends `cc1`.
        .process_group(0)
        // Messages in plain ASCII, the same on every machine.
        .env("LC_ALL", "C")
        .args(args)
        .stdin(match input {
            Some(_) => Stdio::piped(),
            None => Stdio::null(),
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| FrontError::Syntax(format!("cannot run gcc: {e}")))?;
    children::register(child.id());
    if let (Some(text), Some(mut stdin)) = (input, child.stdin.take()) {
        // Written on a thread: gcc may fill its output pipes first.
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }
    // Both pipes are drained on threads: a full pipe would stall gcc.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Err(FrontError::Syntax(format!("gcc: {e}"))),
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            children::kill_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
            children::unregister(child.id());
            return Err(FrontError::Timeout);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    children::unregister(child.id());
    let out = out.join().unwrap_or_default();
    let err = err.join().unwrap_or_default();
    Ok((status.success(), out, err))
}

/// How long `lang-c` may take before gcc is asked where the text's first
/// error is. `lang-c`'s parser backtracks, and on some errors its time
/// doubles with each level of nesting (fuzzing found 3.8 KB that took 8 s:
/// a syntax error inside 20 nested `if (a) if (b) {} else {` took 6 s, 40
/// levels over a minute); valid programs of the C sets parse in
/// milliseconds. gcc finds the error in linear time.
pub const PARSE_PATIENCE: Duration = Duration::from_secs(2);

/// The stack of the parsing thread: room for [`MAX_NESTING`] levels of
/// `lang-c`'s recursive descent, as on the command line's thread.
const PARSE_STACK: usize = 512 << 20;

/// Parses `text` with `lang-c`. When that takes longer than the patience
/// ([`PARSE_PATIENCE`] unless `options` say), gcc checks the text: the
/// first error it reports is the answer, located; if gcc accepts the text
/// (or cannot be run), the parse goes on until `deadline`. A parse given
/// up on is told to stop and ends within milliseconds (the patch in
/// `vendor/lang-c`), so no parse runs on after the answer: in a
/// long-lived process (the fuzzer, a library user) abandoned parses used
/// to pile up, 20 of them spinning after 4.8 M fuzz runs.
fn parse(
    text: String,
    lines: &LineMap,
    options: &Options,
) -> Result<lang_c::driver::Parse, FrontError> {
    let deadline = options.deadline;
    let patience = options.parse_patience.unwrap_or(PARSE_PATIENCE);
    let located = |e: lang_c::driver::SyntaxError| {
        let mut expected: Vec<&str> = e.expected.iter().copied().collect();
        expected.sort_unstable();
        expected.truncate(8);
        FrontError::Syntax(format!(
            "{}: syntax error at column {} (expected one of {})",
            lines.locate(e.offset),
            e.column,
            expected.join(" ")
        ))
    };
    let (tx, rx) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let copy = text.clone();
    let flag = Arc::clone(&stop);
    let spawned = std::thread::Builder::new()
        .name("c-parser".into())
        .stack_size(PARSE_STACK)
        .spawn(move || {
            let _ = tx.send(parse_until(copy, Some(flag)));
        });
    let Ok(thread) = spawned else {
        return parse_until(text, None).map_err(located);
    };
    // Stops and joins the parse on every way out of this function.
    let _parser = ParseThread {
        stop,
        thread: Some(thread),
    };
    // The parse's result if it comes within `limit` (`None`: no limit).
    let receive = |limit: Option<Duration>| {
        let stopped = || FrontError::Syntax("the C parser stopped".into());
        match limit {
            None => rx.recv().map(Some).map_err(|_| stopped()),
            Some(t) => match rx.recv_timeout(t) {
                Ok(r) => Ok(Some(r)),
                Err(mpsc::RecvTimeoutError::Timeout) => Ok(None),
                Err(mpsc::RecvTimeoutError::Disconnected) => Err(stopped()),
            },
        }
    };
    let left = |d: Instant| d.saturating_duration_since(Instant::now());
    let patience = deadline.map_or(patience, |d| left(d).min(patience));
    if let Some(r) = receive(Some(patience))? {
        return r.map_err(located);
    }
    if let Some(message) = gcc_error(text, deadline)? {
        return Err(FrontError::Syntax(message));
    }
    match receive(deadline.map(left))? {
        Some(r) => r.map_err(located),
        None => Err(FrontError::Timeout),
    }
}

/// `lang-c`'s parse of preprocessed GNU C11, which fails at once when
/// `stop` is set.
fn parse_until(
    source: String,
    stop: Option<Arc<AtomicBool>>,
) -> Result<lang_c::driver::Parse, lang_c::driver::SyntaxError> {
    let mut config = Config::with_gcc();
    config.flavor = Flavor::GnuC11;
    parse_preprocessed_until(&config, source, stop)
}

/// A parse running on its own thread: dropping it tells the parse to stop
/// and waits for the thread.
struct ParseThread {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for ParseThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The first error gcc reports on the preprocessed `text`
/// (`FILE:LINE:COLUMN: error: …`, or `FILE:LINE: error: …` at an end of
/// input without a newline; lines of the original source through the line
/// markers), or `None` when gcc accepts it or cannot be run.
fn gcc_error(text: String, deadline: Option<Instant>) -> Result<Option<String>, FrontError> {
    // -fpermissive: gcc 14 makes implicit declarations errors, which older
    // C (and invar) accepts; older gcc warns that the flag is for C++.
    let args = ["-fsyntax-only", "-fpermissive", "-x", "cpp-output", "-"].map(OsStr::new);
    let (success, _, err) = match run_gcc(&args, Some(text), deadline) {
        Ok(r) => r,
        Err(FrontError::Timeout) => return Err(FrontError::Timeout),
        Err(_) => return Ok(None),
    };
    if success {
        return Ok(None);
    }
    let err = String::from_utf8_lossy(&err);
    Ok(err.lines().find_map(|l| {
        let (place, message) = l.split_once(": error: ")?;
        let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let (rest, last) = place.rsplit_once(':')?;
        let (file, line, column) = match rest.rsplit_once(':') {
            Some((file, line)) if number(line) && number(last) => (file, line, Some(last)),
            _ if number(last) => (rest, last, None),
            _ => return None,
        };
        let at = match file {
            "<stdin>" => format!("line {line}"),
            _ => format!("{file}:{line}"),
        };
        let column = column.map_or(String::new(), |c| format!(" at column {c}"));
        Some(format!(
            "{at}: error{column}: {message} (gcc's first error; invar's C parser was slow to find it)"
        ))
    }))
}

/// Most `+` and `-` characters read in one run of operators: signs,
/// the other prefix operators `*`, `&`, `!` and `~`, and white space,
/// with no operand between them. `lang-c`'s parser tries every way of
/// splitting such a run into `--`/`++` and unary operators when the
/// statement around it does not parse, so its time grows exponentially
/// with the signs in the run (found by fuzzing: 34 minus signs before a
/// stray brace took 3 s, 26 spaced `--` 23 s, and 26 signs split by
/// stars, `*++**--*`, 1 s); real programs have a handful.
pub const MAX_SIGN_RUN: usize = 16;

/// Refuses text nested deeper than [`MAX_NESTING`] brackets (or
/// [`MAX_SUBSCRIPT_NESTING`] square ones) or with more than
/// [`MAX_SIGN_RUN`] signs in one run of operators, naming the line where
/// the limit is crossed. String and character literals are skipped;
/// comments are gone after preprocessing.
fn check_limits(text: &str, lines: &LineMap) -> Result<(), FrontError> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut subscripts = 0usize;
    let mut signs = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' | b'-' => {
                signs += 1;
                if signs > MAX_SIGN_RUN {
                    return Err(FrontError::Syntax(format!(
                        "{}: more than {MAX_SIGN_RUN} `+` and `-` in one run of operators \
                         (invar's C reader stops there)",
                        lines.locate(i)
                    )));
                }
            }
            // The other prefix operators continue the run.
            b' ' | b'\t' | b'\n' | b'\r' | b'*' | b'&' | b'!' | b'~' => {}
            _ => signs = 0,
        }
        match bytes[i] {
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' => {
                if bytes[i] == b'[' {
                    subscripts += 1;
                    if subscripts > MAX_SUBSCRIPT_NESTING {
                        return Err(FrontError::Syntax(format!(
                            "{}: `[` nested deeper than {MAX_SUBSCRIPT_NESTING} levels \
                             (invar's C reader stops there)",
                            lines.locate(i)
                        )));
                    }
                }
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(FrontError::Syntax(format!(
                        "{}: brackets nested deeper than {MAX_NESTING} levels \
                         (invar's C reader stops there)",
                        lines.locate(i)
                    )));
                }
            }
            b')' => depth = depth.saturating_sub(1),
            b']' => {
                depth = depth.saturating_sub(1);
                subscripts = subscripts.saturating_sub(1);
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Reads, preprocesses (unless the file ends in `.i`), parses and lowers a C file.
pub fn lower_file(path: &Path, options: &Options) -> Result<Program, FrontError> {
    lower_preprocessed(source(path, options.deadline)?, options)
}

/// The preprocessed text of `path`: a `.i` file as it is, anything else
/// through `gcc -E` (killed at `deadline`).
pub fn source(path: &Path, deadline: Option<Instant>) -> Result<String, FrontError> {
    if path.extension().is_some_and(|e| e == "i") {
        std::fs::read_to_string(path).map_err(|e| FrontError::Syntax(format!("cannot read: {e}")))
    } else {
        preprocess(path, deadline)
    }
}

/// Parses and lowers preprocessed C text (with or without line markers).
pub fn lower_preprocessed(text: String, options: &Options) -> Result<Program, FrontError> {
    let lines = LineMap::new(&text);
    check_limits(&text, &lines)?;
    let parsed = parse(text, &lines, options)?;
    lower::lower(&parsed.source, &parsed.unit, options)
}
