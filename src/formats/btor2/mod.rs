//! BTOR2: word-level hardware models (Boolector, btormc, HWMCC'19+ word-level tracks).

mod read;
pub mod witness;
mod write;

pub use read::{read_str, to_bool, to_bv1};
pub use write::{write, Inexpressible};

use crate::formats::ParseError;
use crate::ir::ts::Ts;
use std::path::Path;

/// Reads a BTOR2 file.
pub fn read_file(path: &Path) -> Result<Ts, ParseError> {
    let (name, text) = crate::formats::read_text(path)?;
    read_str(&name, &text)
}
