//! The C front end: SV-COMP-style C (preprocessed by `gcc -E`) parsed
//! with `lang-c` and lowered into a control-flow automaton, bit-precisely
//! (ILP32 by default). Constructs outside the supported subset are refused
//! by name and line; no verdict is given on a program that was not
//! understood. Lines are those of the original source, recovered from the
//! preprocessor's line markers.

pub mod lines;
mod lower;
pub mod types;

pub use lower::Program;

use lang_c::driver::{parse, parse_preprocessed, Config, Flavor};
use lines::SourceLine;
use std::fmt;
use std::path::Path;

/// Front-end options.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// LP64 (64-bit `long`) instead of SV-COMP's default ILP32.
    pub lp64: bool,
    /// Mathematical integers instead of machine integers (unsound for
    /// wrap-around and casts; bit operations are refused).
    pub int: bool,
}

/// Why a program was not lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrontError {
    /// The preprocessor or the parser failed.
    Syntax(String),
    /// A construct outside the supported subset, with the source line
    /// where it appears.
    Unsupported {
        /// Where the construct is.
        at: SourceLine,
        /// What is not supported.
        what: String,
    },
}

impl fmt::Display for FrontError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrontError::Syntax(m) => write!(f, "{m}"),
            FrontError::Unsupported { at, what } => {
                write!(f, "{at}: unsupported: {what}")
            }
        }
    }
}

/// Reads, preprocesses (unless the file ends in `.i`), parses and lowers a C file.
pub fn lower_file(path: &Path, options: &Options) -> Result<Program, FrontError> {
    let mut config = Config::with_gcc();
    config.flavor = Flavor::GnuC11;
    config.cpp_options = vec!["-E".into()];
    let parsed = if path.extension().is_some_and(|e| e == "i") {
        let text = std::fs::read_to_string(path)
            .map_err(|e| FrontError::Syntax(format!("cannot read: {e}")))?;
        parse_preprocessed(&config, text).map_err(|e| {
            FrontError::Syntax(format!(
                "syntax error at byte {} (expected one of {:?})",
                e.offset,
                e.expected.iter().take(8).collect::<Vec<_>>()
            ))
        })?
    } else {
        parse(&config, path).map_err(|e| FrontError::Syntax(e.to_string()))?
    };
    lower::lower(&parsed.source, &parsed.unit, options)
}
