//! Reading a model of any input kind into the typed sum the pipeline
//! decides: a circuit (AIGER), a transition system (BTOR2, VMT, DimSpec) or
//! a program (C: preprocessed, lowered to a control-flow automaton,
//! compressed by large-block encoding and encoded as a transition system).

use crate::cfront::{self, FrontError, Program};
use crate::formats::aiger::{self, Aiger};
use crate::formats::verilog::{self, DesignError, DesignOptions, Netlist};
use crate::formats::{btor2, dimspec, vmt};
use crate::ir::cfa::encode::encode;
use crate::ir::cfa::lbe::{large_block_encoding, LbeOptions, LbeStats};
use crate::ir::cfa::Cfa;
use crate::ir::ts::Ts;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The input formats, by file extension.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.aag`, `.aig`.
    Aiger,
    /// `.btor2`, `.btor`.
    Btor2,
    /// `.vmt`, `.smt2`.
    Vmt,
    /// `.dimspec`.
    Dimspec,
    /// `.c`, `.i` (preprocessed).
    C,
    /// `.v`, `.sv`: a design, read through Yosys ([`read_design`]).
    Verilog,
}

impl Format {
    /// The format of `path`, from its extension.
    pub fn of(path: &Path) -> Result<Format, String> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("aag" | "aig") => Ok(Format::Aiger),
            Some("btor2" | "btor") => Ok(Format::Btor2),
            Some("vmt" | "smt2") => Ok(Format::Vmt),
            Some("dimspec") => Ok(Format::Dimspec),
            Some("c" | "i") => Ok(Format::C),
            Some("v" | "sv") => Ok(Format::Verilog),
            _ => Err(format!(
                "{}: unknown model format: expected the extension .aag, .aig, .btor2, .btor, .vmt, .dimspec, .c, .i, .v or .sv",
                path.display()
            )),
        }
    }
}

/// A model, as the pipeline decides it.
pub enum Model {
    /// An AIGER circuit, as read (its symbols and comments kept).
    Circuit(Aiger),
    /// A word-level transition system.
    System(Ts),
    /// A C program.
    Program(Box<ProgramModel>),
}

/// A C program, lowered and encoded.
pub struct ProgramModel {
    /// The program: its automaton (after large-block encoding unless it was
    /// off), the C types of its variables and the source points witnesses
    /// name.
    pub program: Program,
    /// The automaton encoded as a transition system: `pc`, `valid`, then
    /// the program's variables.
    pub ts: Ts,
    /// The preprocessed source, from which `auto` lowers the program's
    /// integer relaxation.
    pub text: String,
    /// How it was lowered.
    pub options: ProgramOptions,
    /// What large-block encoding did, if it ran.
    pub lbe: Option<LbeStats>,
    /// The automaton before large-block encoding, when asked for.
    pub before_lbe: Option<Cfa>,
}

/// How a C program becomes a transition system.
#[derive(Copy, Clone, Debug, Default)]
pub struct ProgramOptions {
    /// LP64 (64-bit `long`) instead of ILP32.
    pub lp64: bool,
    /// Mathematical integers instead of machine integers.
    pub int: bool,
    /// Signed overflow wraps around instead of ending the execution
    /// ([`cfront::Options::wrap_signed`]).
    pub wrap_signed: bool,
    /// The property ([`cfront::Options::property`]).
    pub property: cfront::Spec,
    /// Large-block encoding off.
    pub no_lbe: bool,
    /// Keep the automaton before large-block encoding
    /// ([`ProgramModel::before_lbe`]).
    pub keep_before_lbe: bool,
    /// When preprocessing and parsing give up.
    pub deadline: Option<Instant>,
}

/// Why no model was read.
#[derive(Clone, Debug)]
pub enum ReadError {
    /// The file is malformed or unreadable (an error: exit code 1).
    Invalid(String),
    /// A C program uses what the front end does not support, or reading it
    /// ran out of time: no verdict (`unknown`), and why.
    Unanswerable(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Invalid(m) | ReadError::Unanswerable(m) => write!(f, "{m}"),
        }
    }
}

/// Reads the model in `path`, its format by extension; a C program is
/// lowered with `options`.
pub fn read(path: &Path, options: &ProgramOptions) -> Result<Model, ReadError> {
    match Format::of(path).map_err(ReadError::Invalid)? {
        Format::Aiger => aiger::read_file(path)
            .map(Model::Circuit)
            .map_err(|e| ReadError::Invalid(e.to_string())),
        Format::C => {
            let program = read_program(path, options).map_err(|e| match e {
                FrontError::Unsupported { .. } | FrontError::Timeout => {
                    ReadError::Unanswerable(e.to_string())
                }
                FrontError::Syntax(_) => ReadError::Invalid(format!("{}: {e}", path.display())),
            })?;
            Ok(Model::Program(Box::new(program)))
        }
        format => read_system(path, format)
            .map(Model::System)
            .map_err(ReadError::Invalid),
    }
}

/// Reads a word-level model in `format` (BTOR2, VMT or DimSpec).
pub fn read_system(path: &Path, format: Format) -> Result<Ts, String> {
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
        Format::Verilog => {
            return Err(format!(
                "{}: a Verilog design is read through Yosys by `invar check DESIGN.sv --top TOP`",
                path.display()
            ))
        }
    }
    .map_err(|e| e.to_string())
}

/// Reads a Verilog or SystemVerilog design from `files` through Yosys
/// ([`verilog::synthesize`]): a word-level system, or a circuit when
/// `options` ask for the bit level.
pub fn read_design(files: &[PathBuf], options: &DesignOptions) -> Result<Model, ReadError> {
    let name = files
        .first()
        .map_or("design".into(), |f| f.display().to_string());
    let invalid = |e: crate::formats::ParseError| {
        ReadError::Invalid(format!(
            "internal error: Yosys's netlist of {name} does not read: {e}"
        ))
    };
    match verilog::synthesize(files, options) {
        Ok(Netlist::Btor2(text)) => btor2::read_str(&name, &text)
            .map(Model::System)
            .map_err(invalid),
        Ok(Netlist::Aiger(bytes)) => aiger::read_bytes(&name, &bytes)
            .map(Model::Circuit)
            .map_err(invalid),
        Err(DesignError::Invalid(e)) => Err(ReadError::Invalid(e)),
        Err(DesignError::Unsupported(e)) => Err(ReadError::Unanswerable(e)),
    }
}

/// Reads, lowers and encodes the C program in `path`.
pub fn read_program(path: &Path, options: &ProgramOptions) -> Result<ProgramModel, FrontError> {
    let text = cfront::source(path, options.deadline)?;
    let program = lower(&text, options, options.int, false)?;
    let mut cfa_before = None;
    let (program, lbe) = compress(program, options, &mut cfa_before);
    Ok(ProgramModel {
        ts: encode(&program.cfa),
        program,
        text,
        options: *options,
        lbe,
        before_lbe: cfa_before,
    })
}

/// The program's integer relaxation: lowered from the same text over
/// mathematical integers, compressed as the program was, with overflow
/// watched (an `int-overflow` state) if `overflow_flag`.
pub fn lower_relaxation(
    model: &ProgramModel,
    overflow_flag: bool,
    deadline: Option<Instant>,
) -> Result<Program, FrontError> {
    let options = ProgramOptions {
        deadline,
        ..model.options
    };
    let program = lower(&model.text, &options, true, overflow_flag)?;
    Ok(compress(program, &options, &mut None).0)
}

/// Lowers preprocessed C text, over mathematical integers if `int`.
fn lower(
    text: &str,
    options: &ProgramOptions,
    int: bool,
    overflow_flag: bool,
) -> Result<Program, FrontError> {
    let front = cfront::Options {
        lp64: options.lp64,
        int,
        overflow_flag,
        wrap_signed: options.wrap_signed,
        property: options.property,
        deadline: options.deadline,
        parse_patience: None,
    };
    cfront::lower_preprocessed(text.to_string(), &front)
}

/// `program` after large-block encoding (unless `options` turn it off),
/// with what it did; the automaton before it goes to `before` if the
/// options keep it.
fn compress(
    mut program: Program,
    options: &ProgramOptions,
    before: &mut Option<Cfa>,
) -> (Program, Option<LbeStats>) {
    if options.keep_before_lbe {
        *before = Some(program.cfa.clone());
    }
    if options.no_lbe {
        return (program, None);
    }
    let stats = large_block_encoding(&mut program.cfa, LbeOptions::default());
    (program, Some(stats))
}
