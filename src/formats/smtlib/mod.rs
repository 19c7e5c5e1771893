//! SMT-LIB 2: the lexer, the script parser and the printer that VMT builds on.

pub mod lex;
pub mod lower;
mod parse;
pub mod print;

pub use parse::{parse_script, Annotation, Command, Script, ScriptReader};
