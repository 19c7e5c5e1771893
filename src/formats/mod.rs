//! Readers and writers of model and witness files. Nothing here depends on an engine.

pub mod aiger;
pub mod btor2;
pub mod chc;
pub mod dimspec;
pub mod smtlib;
pub mod svcomp;
pub mod vcd;
pub mod verilog;
pub mod vmt;
pub mod witness;

use std::fmt;

/// Where in a file a problem was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A 1-based line number in a text section.
    Line(usize),
    /// A 0-based byte offset in a binary section.
    Byte(usize),
    /// The file as a whole.
    File,
}

/// A malformed input: the file, the place, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file name as given by the user.
    pub file: String,
    /// Where the problem is.
    pub location: Location,
    /// What was wrong or expected.
    pub message: String,
}

impl ParseError {
    /// An error at `location` of `file`.
    pub fn new(file: &str, location: Location, message: impl Into<String>) -> ParseError {
        ParseError {
            file: file.to_string(),
            location,
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Location::Line(l) => write!(f, "{}:{}: {}", self.file, l, self.message),
            Location::Byte(b) => write!(f, "{}: byte {}: {}", self.file, b, self.message),
            Location::File => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// The name (as given) and contents of a text model file; an unreadable file
/// is a located error.
pub fn read_text(path: &std::path::Path) -> Result<(String, String), ParseError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| ParseError::new(&name, Location::File, format!("cannot read: {e}")))?;
    Ok((name, text))
}
