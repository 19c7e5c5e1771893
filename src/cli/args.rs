//! Command-line arguments (clap derive). Converted into engine options in
//! `check.rs`; no engine depends on these types.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// invar: model checking of AIGER circuits (BMC, k-induction) with checked verdicts.
#[derive(Parser, Debug)]
#[command(name = "invar", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Decide the safety properties of a model and print the verdict.
    ///
    /// Exit code: 10 unsafe, 20 safe, 0 unknown, 1 error.
    Check(Box<CheckArgs>),
    /// Replay a witness on a model and say whether and where it reaches a bad state.
    ///
    /// Exit code: 0 the witness reaches its bad state, 3 it does not, 1 error.
    Sim {
        /// The model (.aag, .aig, .btor2, .vmt or .dimspec).
        model: PathBuf,
        /// The witness: HWMCC/aigsim for AIGER, a BTOR2 witness, or a VMT
        /// counterexample.
        witness: PathBuf,
        /// Write the replayed counterexample as a waveform (Value Change
        /// Dump): inputs, states and bad properties by step, under the
        /// model's names and word widths.
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
    },
    /// Check a certificate against a model: a Certifaiger witness circuit
    /// against an AIGER model, or a word-level certificate (`--certificate`
    /// of an IC3+IA proof) against a BTOR2, VMT or DimSpec model.
    ///
    /// Exit code: 0 the certificate is valid, 3 it is not, 1 error.
    Certify {
        /// The model (.aag, .aig, .btor2, .vmt or .dimspec; for a C program,
        /// the certificate file itself, which holds the program's encoding).
        model: PathBuf,
        /// The witness circuit (.aag or .aig), or the word-level certificate
        /// (VMT text with `(define-fun invar-certificate …)`).
        certificate: PathBuf,
        /// The SAT backend of the checks.
        #[arg(long, value_enum, default_value = "cadical")]
        sat: SatArg,
        /// Check the certificate against bad property N alone, as `invar
        /// check --property N --certificate` writes it, or against each of
        /// N,M,… (default: every bad property of the model).
        #[arg(long, value_name = "N", value_delimiter = ',')]
        property: Option<Vec<usize>>,
    },
    /// Convert between model formats, chosen by the file extensions: .aag and
    /// .aig both ways; .btor2, .vmt, .dimspec and C to .vmt, .btor2, .dimspec,
    /// .chc (Horn clauses, for CHC solvers such as z3's Spacer), or to .aag/.aig
    /// by bit-blasting.
    Convert {
        /// The input model.
        input: PathBuf,
        /// The output file.
        output: PathBuf,
        /// AIGER output without reset functions (AIGER 1.9.23), for tools
        /// that predate them: every latch then resets to 0 or 1, and one
        /// that starts at a function's value, or anywhere, is read as
        /// `first ? start : latch` (Debian's ABC also reads uninitialised
        /// latches as 0, so none is written).
        #[arg(long)]
        no_reset_functions: bool,
        /// Options for C programs.
        #[command(flatten)]
        c: CArgs,
    },
    /// Run every engine on every representation of a model and compare the verdicts.
    ///
    /// Every counterexample is replayed on the model as read and every proof
    /// checked. Exit code: 0 agreement, 3 a disagreement or a failed check, 1 error.
    Crosscheck {
        /// The model (.aag, .aig, .btor2, .btor, .vmt, .dimspec, .c or .i).
        file: PathBuf,
        /// Seconds per engine run.
        #[arg(long, value_name = "SECONDS", default_value = "10")]
        timeout: f64,
        /// Check only bad property N (default: all, as one disjunction).
        #[arg(long, value_name = "N")]
        property: Option<usize>,
    },
    /// Print the sizes of a model and of each property's cone of influence.
    Info {
        /// The model.
        file: PathBuf,
        /// Options for C programs.
        #[command(flatten)]
        c: CArgs,
    },
    /// Run an SMT-LIB v2.6 script (QF_BV, QF_LIA, QF_LRA, QF_ABV with small
    /// arrays) on invar's own SMT solver and print its answers.
    ///
    /// Exit code: 0 the script was read to its end, 1 it could not be read.
    Smt {
        /// The script (.smt2).
        file: PathBuf,
        /// Seconds for the whole script; checks after that answer unknown.
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// The solver (z3 and cvc5 run as processes, for comparison).
        #[arg(long, value_enum, default_value = "invar")]
        smt: SmtArg,
        /// Statistics of the solver on stderr at the end.
        #[arg(short, long)]
        verbose: bool,
    },
    /// Replay API traces of the SAT core (written under INVAR_CORE_TRACE=DIR)
    /// and check every answer, model and failed core against CaDiCaL.
    ///
    /// Exit code: 0 every query agrees, 3 a discrepancy, 1 error.
    #[command(hide = true)]
    CoreReplay {
        /// Trace files.
        traces: Vec<PathBuf>,
    },
}

/// Which engine `check` runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Bounded model checking: finds counterexamples, never proves.
    Bmc,
    /// k-induction: finds counterexamples and proves.
    Kind,
    /// IC3/PDR: finds counterexamples and proves with an inductive invariant.
    Ic3,
    /// Interpolation (McMillan): finds counterexamples and proves with an
    /// invariant circuit (on circuits and bit-blasted word-level models).
    Itp,
    /// Signal correspondence: proves when the latch and gate equalities
    /// that hold inductively together make the property constant; never
    /// finds counterexamples.
    Scorr,
    /// IC3 on one core; BMC, a second IC3, the step cases of k-induction
    /// and signal correspondence on the others (`--jobs`), in turns where
    /// they share one; the first verdict wins.
    /// Word-level models over Int or Real go to the word-level engines.
    Auto,
    /// Word-level BMC and k-induction on an SMT solver (`--smt`), proofs
    /// confirmed by another (BTOR2, VMT, DimSpec and C; not AIGER).
    Smt,
    /// IC3 with implicit predicate abstraction on an SMT solver (`--smt`);
    /// invariants confirmed by another (BTOR2, VMT, DimSpec and C; not AIGER).
    Ic3ia,
    /// IC3 on the control-flow automaton (C programs only), invariants
    /// confirmed on the encoded system by another solver.
    Ic3cfa,
    /// Explicit execution of a C program: a run that no unknown value
    /// steers proves or refutes it, else tests with boundary values look
    /// for a counterexample.
    Explicit,
}

/// Which SMT solver the word-level engine uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SmtArg {
    /// invar's own solver; needs no external program.
    Invar,
    /// A z3 process.
    Z3,
    /// A cvc5 process.
    Cvc5,
}

impl SmtArg {
    /// The library's name for it.
    pub fn backend(self) -> invar::smt::Backend {
        match self {
            SmtArg::Invar => invar::smt::Backend::Invar,
            SmtArg::Z3 => invar::smt::Backend::Z3,
            SmtArg::Cvc5 => invar::smt::Backend::Cvc5,
        }
    }
}

/// Which SAT backend engines use.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SatArg {
    /// invar's own CDCL core.
    Core,
    Cadical,
    /// Needs the `minisat` cargo feature.
    Minisat,
}

impl SatArg {
    /// The backend, if compiled in.
    pub fn backend(self) -> Result<invar::sat::Backend, String> {
        match self {
            SatArg::Core => Ok(invar::sat::Backend::Core),
            SatArg::Cadical => Ok(invar::sat::Backend::Cadical),
            #[cfg(feature = "minisat")]
            SatArg::Minisat => Ok(invar::sat::Backend::Minisat),
            #[cfg(not(feature = "minisat"))]
            SatArg::Minisat => {
                Err("--sat minisat: this build has no MiniSat (cargo feature `minisat`)".into())
            }
        }
    }
}

/// `--property`: one property by index, or each on its own.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PropertyArg {
    /// Property N alone.
    Index(usize),
    /// Every property, one answer each.
    All,
}

impl PropertyArg {
    /// The index, for `--property N`.
    pub fn index(self) -> Option<usize> {
        match self {
            PropertyArg::Index(n) => Some(n),
            PropertyArg::All => None,
        }
    }
}

impl std::str::FromStr for PropertyArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "all" => Ok(PropertyArg::All),
            n => n
                .parse()
                .map(PropertyArg::Index)
                .map_err(|_| format!("expected a property number or `all`, not `{n}`")),
        }
    }
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The model (.aag, .aig, .btor2, .btor, .vmt, .dimspec, .c or .i), or
    /// a Verilog or SystemVerilog design (.v, .sv), read through Yosys.
    pub file: PathBuf,
    /// Further source files of the design (Verilog only).
    #[arg(value_name = "MORE")]
    pub more: Vec<PathBuf>,
    /// Verilog: the top module (default: the one no other instantiates).
    #[arg(long, value_name = "MODULE")]
    pub top: Option<String>,
    /// Verilog: define a macro (`FORMAL` is always defined); repeatable.
    #[arg(long = "define", short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// Verilog: the Yosys binary (default: `yosys` on PATH).
    #[arg(long, value_name = "PATH")]
    pub yosys: Option<PathBuf>,
    /// Verilog: check the design at the bit level (AIGER, the HWMCC output
    /// convention) instead of the word level (BTOR2).
    #[arg(long)]
    pub bit_level: bool,
    /// The engine.
    #[arg(long, value_enum, default_value = "auto")]
    pub engine: EngineArg,
    /// Check only bad property N, or with `all` each property on its own, one
    /// answer per property (default: all properties as one disjunction).
    #[arg(long, value_name = "N|all")]
    pub property: Option<PropertyArg>,
    /// Give up after this many seconds and answer unknown.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Give up when the heap outgrows this many megabytes and answer
    /// unknown (the engines stop at the limit; the run ends within a second).
    #[arg(long, value_name = "MB")]
    pub memory: Option<u64>,
    /// Threads for `auto` on circuits (AIGER, and word-level models it
    /// bit-blasts): one IC3 on a core of its own, BMC, a second IC3,
    /// k-induction's step cases and signal correspondence on the others, in
    /// turns where they are fewer, and more IC3 configurations and
    /// interpolation where cores are left; IC3 searches on cores of their
    /// own share lemmas. Default: the cores this process may use.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Unroll at most to step K (BMC depth, k-induction bound).
    #[arg(long, value_name = "K")]
    pub max_k: Option<usize>,
    /// k-induction: require pairwise distinct states in the step case.
    #[arg(long)]
    pub simple_path: bool,
    /// Skip latch simplification (constant and equivalent latches).
    #[arg(long)]
    pub no_simplify: bool,
    /// The SAT backend of every engine (default: invar's own core for IC3,
    /// whose many small queries it answers fastest, CaDiCaL for BMC and
    /// k-induction).
    /// Verdicts are checked on the backend the engine did not use.
    #[arg(long, value_enum)]
    pub sat: Option<SatArg>,
    /// The SMT solver of the word-level engine; its proofs are confirmed by
    /// cvc5 or z3 where installed, else by invar's solver on a separately
    /// written encoding.
    #[arg(long, value_enum, default_value = "invar")]
    pub smt: SmtArg,
    /// Progress and statistics on stderr.
    #[arg(short, long)]
    pub verbose: bool,
    /// On SAFE, write the proof: a Certifaiger witness circuit (.aag or .aig)
    /// for an AIGER model; for a word-level model or C program, the model in
    /// VMT followed by `(define-fun invar-certificate ((x1 S1) …) Bool INV)`.
    /// With `--property all`, a directory: `bN.aig` (or `bN.vmt`) for each
    /// proved property N.
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// Print the result as one JSON object instead of the HWMCC format.
    #[arg(long)]
    pub json: bool,
    /// VMT: print the counterexample after `unsafe` (BTOR2 and AIGER always print it).
    #[arg(long)]
    pub witness: bool,
    /// On UNSAFE, write the counterexample as a waveform (Value Change Dump):
    /// inputs, states and bad properties by step, under the model's names and
    /// word widths (a bit-blasted word-level model's trace is shown in words).
    #[arg(long, value_name = "FILE")]
    pub vcd: Option<PathBuf>,
    /// Set a switch of the engines or of `auto`, for measurements (the
    /// defaults are the measured ones; `--tune help` lists the keys).
    #[arg(long, value_name = "KEY=VALUE")]
    pub tune: Vec<String>,
    /// Options for C programs.
    #[command(flatten)]
    pub c: CArgs,
}

/// How `--dump-cfa` prints an automaton.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DumpFormat {
    /// One line per edge.
    Text,
    /// A Graphviz digraph.
    Dot,
}

/// How a C program becomes a transition system (`check` and `convert`).
#[derive(Args, Debug, Clone, Default)]
pub struct CArgs {
    /// C: keep single-block encoding (no large-block encoding).
    #[arg(long)]
    pub no_lbe: bool,
    /// C: print the control-flow automaton before and after large-block
    /// encoding on stderr, as text (`--dump-cfa`) or Graphviz dot (`--dump-cfa=dot`).
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "text")]
    pub dump_cfa: Option<DumpFormat>,
    /// C: LP64 data model (64-bit long) instead of ILP32.
    #[arg(long)]
    pub lp64: bool,
    /// C: mathematical integers instead of machine integers. Unsound where
    /// the verdict depends on unsigned wrap-around or casts; bit operations
    /// are refused.
    #[arg(long)]
    pub int: bool,
    /// C: signed arithmetic wraps around on overflow (gcc's -fwrapv).
    /// By default signed overflow, division by zero and shifts out of
    /// range are undefined behaviour, where an execution ends (SV-COMP's
    /// reading): a path through them is no counterexample.
    #[arg(long)]
    pub wrap_signed: bool,
    /// C: an SV-COMP property file. invar checks unreach-call
    /// (`G ! call(reach_error())`) and no-overflow (`G ! overflow`); any
    /// other property answers unknown.
    #[arg(long, value_name = "FILE.prp")]
    pub prop: Option<PathBuf>,
    /// C: SV-COMP's result words: `true`, `false(unreach-call)`,
    /// `false(no-overflow)`, `unknown`.
    #[arg(long)]
    pub svcomp: bool,
    /// C: write an SV-COMP witness (format 2.0, YAML): on `false` a
    /// violation witness (`violation_sequence`) ending at the call that
    /// reaches the error; on `true` a correctness witness (`invariant_set`)
    /// with loop invariants in C, from the proof's invariant.
    #[arg(long, value_name = "FILE.yml")]
    pub witness_out: Option<PathBuf>,
}
