//! The verification pipeline, one entry point for every input kind:
//! [`model::read`] gives a [`Model`]; [`check`] decides it and validates
//! the answer before it leaves, as a [`Run`].
//!
//! - A circuit (AIGER, or a bit-blasted word-level model) is reduced to the
//!   properties' cone and simplified (`preprocess`), decided by the engine
//!   the [`Request`] names (`circuit`); a trace is mapped back to the
//!   model as read and replayed there, a proof re-derived by `check` on the
//!   other SAT backend.
//! - A word-level model is bit-blasted onto the circuit pipeline when its
//!   sorts allow, else (Int, Real) decided on the SMT layer (`word`); a
//!   trace is replayed on its terms, a proof asked again of another solver
//!   through the checker's own encoding.
//! - A C program runs `auto`'s phases on its automaton and its integer
//!   relaxation before the word-level pipeline takes its encoding
//!   (`program`, [`schedule`]).
//!
//! A check that fails is an error, never an answer. Certificates are built
//! here from the checked evidence ([`certificate`]). Nothing here prints
//! and nothing reads the environment: progress goes to the caller's log,
//! and every switch is a field of [`Tuning`].

pub mod certificate;
mod circuit;
pub mod model;
mod program;
mod program_engines;
mod properties;
pub mod schedule;
pub mod tuning;
mod word;
mod word_engines;

pub use certificate::{Certificate, NoCertificate};
pub use model::{Format, Model, ProgramModel, ProgramOptions, ReadError};
pub use properties::check_each;
pub use tuning::Tuning;

use crate::engines::{EngineId, Stats};
use crate::ir::invariant::CircuitInvariant;
use crate::ir::term::{Term, Terms};
use crate::ir::trace::Trace;
use crate::ir::ts::WordTrace;
use crate::sat::Backend;
use crate::smt;
use crate::util::budget::Budget;

/// Which engine decides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// On circuits, IC3 on one core and, in turns on the other, BMC, IC3
    /// without CTGs, the step cases of k-induction and signal
    /// correspondence; the first answer wins. Word-level models over Int
    /// or Real go to the word-level engines; programs run their phases
    /// first ([`schedule`]).
    Auto,
    /// Bounded model checking.
    Bmc,
    /// k-induction.
    Kind,
    /// IC3/PDR.
    Ic3,
    /// Interpolation (circuits only).
    Itp,
    /// Signal correspondence (circuits only).
    Scorr,
    /// Word-level BMC and k-induction on the SMT layer.
    Smt,
    /// IC3 with implicit predicate abstraction on the SMT layer.
    Ic3ia,
    /// IC3 on the control-flow automaton of a C program.
    Ic3cfa,
    /// Explicit execution of a C program's automaton: a determined run, or
    /// tests.
    Explicit,
}

/// What to decide and with what.
#[derive(Clone, Debug)]
pub struct Request {
    /// The engine.
    pub engine: Engine,
    /// The bad properties to decide together (positions in the model).
    pub properties: Vec<usize>,
    /// A liveness property to decide instead: a position among an AIGER
    /// model's justice properties, or a word-level model's justice and
    /// `:live-property` ones (`Ts::liveness_signals`). Its counterexample is
    /// a lasso.
    pub justice: Option<usize>,
    /// The deepest step any engine unrolls to.
    pub max_depth: Option<usize>,
    /// k-induction with pairwise distinct states.
    pub simple_path: bool,
    /// Cone of influence, constants, merging and SAT sweeping before the engines.
    pub simplify: bool,
    /// The SAT backend; `None` picks per engine (IC3 on the core, BMC and
    /// k-induction on CaDiCaL: measured, docs/decisions/).
    pub sat: Option<Backend>,
    /// The SMT solver of the word-level engine.
    pub smt: smt::Backend,
    /// Deadline and stop flag of the whole run, checks included.
    pub budget: Budget,
    /// A proof should come with an invariant when an engine can give one
    /// (`--certificate`): the word-level portfolio then lets IC3+IA go on
    /// after a k-induction proof whose depth is above 1, and `auto` on a
    /// blasted word-level model runs no k-induction step cases.
    pub invariant_wanted: bool,
    /// Build the certificate of a proof ([`Run::certificate`]).
    pub certificate: bool,
    /// The switches of the engines and of `auto` (defaults: as measured).
    pub tuning: Tuning,
    /// How many threads `auto` runs on a circuit (`schedule`): one IC3 on a
    /// core of its own from 2 up, the other members on the rest.
    pub jobs: usize,
    /// An inductive invariant of an AIGER model's circuit (reset functions
    /// lowered), as cubes to exclude over its latches, that the engines may
    /// assume (`--property all` passes those of proved properties): the
    /// part of it over the cone becomes constraints of the reduced circuit,
    /// and a proof's evidence includes all of it, so the proof is checked,
    /// and certified, on the model as read. Ignored by other models.
    pub assumed: Vec<Vec<(usize, bool)>>,
}

impl Request {
    /// All defaults for `properties`: `auto`, simplification, no bounds.
    pub fn new(properties: Vec<usize>) -> Request {
        Request {
            engine: Engine::Auto,
            properties,
            justice: None,
            max_depth: None,
            simple_path: false,
            simplify: true,
            sat: None,
            smt: smt::Backend::Invar,
            invariant_wanted: false,
            certificate: false,
            budget: Budget::unlimited(),
            tuning: Tuning::default(),
            jobs: 2,
            assumed: Vec::new(),
        }
    }
}

/// A proof that passed its independent check.
#[derive(Clone, Debug)]
pub enum Evidence {
    /// An inductive invariant of the circuit (the model's, or a word-level
    /// model's bit-blasted circuit): the negations of these cubes over its
    /// latch positions.
    Invariant(Vec<Vec<(usize, bool)>>),
    /// An inductive invariant of the circuit given as a circuit over its
    /// latches and inputs (interpolation, signal correspondence), facts
    /// included.
    Circuit(CircuitInvariant),
    /// k-induction on the circuit.
    KInduction {
        /// Depth.
        k: usize,
        /// With pairwise distinct states.
        simple_path: bool,
        /// The lemmas the proof assumed (facts of preprocessing, checked
        /// inductive): cubes over the circuit's latch positions.
        lemmas: Vec<Vec<(usize, bool)>>,
    },
    /// Word-level k-induction of depth `k` on the model's terms.
    WordKInduction {
        /// Depth (the step case assumes `k` good states).
        k: usize,
    },
    /// A word-level inductive invariant over the model's state variables.
    WordInvariant {
        /// Its clauses (lemmas over predicates).
        clauses: usize,
        /// The terms it is a term of: the model's, extended.
        store: Box<Terms>,
        /// The invariant.
        invariant: Term,
    },
}

impl Evidence {
    /// The proof in words, for logs.
    pub fn describe(&self) -> String {
        match self {
            Evidence::Invariant(cubes) => format!("inductive invariant of {} clauses", cubes.len()),
            Evidence::Circuit(inv) => format!(
                "inductive invariant circuit of {} gates",
                inv.circuit.num_ands()
            ),
            Evidence::KInduction { k, simple_path, .. } => {
                let how = if *simple_path { " (simple path)" } else { "" };
                format!("{k}-induction proof{how}")
            }
            Evidence::WordKInduction { k } => format!("word-level {k}-induction proof"),
            Evidence::WordInvariant { clauses, .. } => {
                format!("word-level inductive invariant of {clauses} clauses")
            }
        }
    }
}

/// A counterexample, replayed on the model as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Witness {
    /// Inputs and initial latch values of the AIGER file.
    Bit(Trace),
    /// State and input values of the word-level model.
    Word(WordTrace),
}

impl Witness {
    /// Number of steps.
    pub fn len(&self) -> usize {
        match self {
            Witness::Bit(t) => t.len(),
            Witness::Word(t) => t.len(),
        }
    }

    /// Whether it has no step.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The checked answer.
#[derive(Clone, Debug)]
pub enum Answer {
    /// Every requested property holds.
    Safe {
        /// The proof.
        evidence: Evidence,
        /// Who confirmed it (a SAT backend or a solver).
        checker: String,
    },
    /// A bad state is reachable.
    Unsafe {
        /// The replayed counterexample.
        witness: Witness,
        /// The requested properties violated in its last step.
        properties: Vec<usize>,
    },
    /// No answer, and why.
    Unknown(String),
    /// The engine claimed a proof that its independent check did not
    /// confirm (the checking solvers gave up or disagreed): no answer, but
    /// a sign of trouble that differential tests count.
    Unconfirmed(String),
}

/// One run of the pipeline.
#[derive(Clone, Debug)]
pub struct Run {
    /// The answer.
    pub answer: Answer,
    /// The engine that gave it (`None` when no engine ran).
    pub engine: Option<EngineId>,
    /// The engine's counters (for the word-level engine: depth, and solver
    /// checks as calls).
    pub stats: Stats,
    /// The proof's certificate, when the request asked for one and the
    /// answer is SAFE.
    pub certificate: Option<Result<Certificate, NoCertificate>>,
}

impl Run {
    /// A run in which no engine ran.
    fn unknown(reason: String) -> Run {
        Run {
            answer: Answer::Unknown(reason),
            engine: None,
            stats: Stats::default(),
            certificate: None,
        }
    }

    /// The name of the engine that answered (`none` when none ran).
    pub fn engine_name(&self) -> &'static str {
        self.engine.map_or("none", EngineId::name)
    }
}

/// Where progress lines go (the CLI prints them under `-v`).
pub type Log<'a> = &'a mut dyn FnMut(&str);

/// Decides the properties `request` names of `model`: every trace replayed
/// on the model as read, every proof checked independently, and the
/// certificate built if asked.
pub fn check(model: &Model, request: &Request, log: Log) -> Result<Run, String> {
    match model {
        Model::Circuit(aiger) => match request.justice {
            Some(j) => circuit::check_justice(aiger, j, request, log),
            None => circuit::check_aiger(aiger, request, log),
        },
        Model::System(ts) => match request.justice {
            Some(j) => word::check_word_liveness(ts, j, request, log),
            // A word-level certificate is an invariant over the states:
            // k-induction and signal correspondence on the blasted circuit
            // would give none (a k-step window; equalities that read
            // inputs), so `auto` leaves them out then.
            None => word::check_word(ts, request, log, !request.invariant_wanted),
        },
        Model::Program(program) => program::check_program(program, request, log),
    }
}
