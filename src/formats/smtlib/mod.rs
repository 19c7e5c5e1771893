//! SMT-LIB 2: the lexer and the script parser that VMT builds on (the
//! printer is `ir::term::print`, shared with the CFA and the solvers).

pub mod lex;
pub mod lower;
mod parse;

pub use parse::{parse_script, Annotation, Command, Script, ScriptReader};
