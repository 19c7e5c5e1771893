//! Process-wide settings below the reach of a request: where the solvers
//! write their debugging traces and dumps, which external solver binaries
//! run, and two ablations inside the solvers.
//!
//! The binary sets them once, at start, from its environment (`INVAR_Z3`,
//! `INVAR_CVC5`, `INVAR_CORE_TRACE`, `INVAR_DUMP_SMT`, `INVAR_DUMP_PROOF`,
//! `INVAR_CORE_HEAP`, `INVAR_SMT_DECIDE`); the library
//! reads no environment. Until set, every setting is off and the external
//! solvers are `z3` and `cvc5` from `PATH`. The engines' switches are not
//! here: they are `verify::Tuning`, a plain input of each run.

use std::path::PathBuf;
use std::sync::OnceLock;

/// The settings; see the module header.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The z3 binary (default `z3`).
    pub z3: Option<PathBuf>,
    /// The cvc5 binary (default `cvc5`).
    pub cvc5: Option<PathBuf>,
    /// A folder for API traces of every SAT core (`invar core-replay`).
    pub core_trace: Option<PathBuf>,
    /// A folder for the SMT-LIB text of every SMT solver's queries.
    pub dump_smt: Option<PathBuf>,
    /// A folder for the scripts of the word-level proof checker.
    pub dump_proof: Option<PathBuf>,
    /// Ablation: the SAT core keeps restricted queries on its heap.
    pub core_heap_only: bool,
    /// Ablation: the SMT solver decides inputs only (`Some(true)`) or every
    /// variable (`Some(false)`) whatever the query (`None`: its own rule).
    pub smt_inputs_only: Option<bool>,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

/// Sets the settings; only the first call counts (the binary's, at start).
pub fn set(settings: Settings) {
    let _ = SETTINGS.set(settings);
}

/// The settings (all off until [`set`]).
pub fn get() -> &'static Settings {
    SETTINGS.get_or_init(Settings::default)
}
