//! Model checking engines. Each takes a circuit and [`Limits`] and returns an
//! [`Outcome`]; engines never print, the CLI renders their verdicts.
//!
//! Every engine checks the single bad property `aig.bad[0]` of a circuit
//! prepared by [`crate::ir::coi::cone_of_influence`], under all of its
//! invariant constraints.

pub mod bmc;
pub mod explicit;
pub mod ic3;
pub mod ic3cfa;
pub mod ic3ia;
pub mod itp;
pub mod kind;
pub mod portfolio;
pub mod scorr;

pub use crate::ir::invariant::CircuitInvariant;
use crate::ir::trace::Trace;
use crate::ir::ts::WordTrace;
use crate::sat::{Backend, SatStats};
use crate::util::budget::Budget;
use std::time::Duration;

/// What an engine concluded: the one verdict type of every engine, over
/// its kind of proof `P` and counterexample `C` (bit-level engines: a
/// [`Proof`] and a [`Trace`]; the word-level invariant engines: a
/// [`WordInvariant`] and a [`WordTrace`]; word-level k-induction: its depth).
#[derive(Clone, Debug)]
pub enum Verdict<P = Proof, C = Trace> {
    /// The property holds; the proof says why.
    Safe(P),
    /// The property fails; the trace reaches a bad state (not yet replayed).
    Unsafe(C),
    /// No conclusion within the limits, or the model is outside what the engine handles.
    Unknown(String),
}

/// Evidence for a SAFE verdict, for the independent checkers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The property is k-inductive (with simple-path constraints if set),
    /// and no bad state is reachable in fewer than k steps.
    KInduction {
        /// The induction depth.
        k: usize,
        /// Whether the step case assumed pairwise distinct states.
        simple_path: bool,
    },
    /// An inductive invariant: the conjunction of the negations of these
    /// cubes, each a list of (latch index, value) of the engine's circuit.
    Invariant(Vec<Vec<(usize, bool)>>),
    /// An inductive invariant given as a circuit (interpolation).
    Circuit(CircuitInvariant),
    /// Inductive equalities between the nodes of the engine's circuit:
    /// node v equals `repr[v]` in every reachable state, and the bad
    /// property is constant false (signal correspondence). Stated over the
    /// checked model's own nodes (`preprocess::scorr::invariant_over`).
    Correspondence(Vec<crate::ir::aig::Lit>),
}

/// The proof of a word-level engine that proves by invariants (IC3+IA,
/// IC3CFA, explicit execution): `invariant`, a term of `store` over the
/// system's state variables, is inductive and excludes the bad states.
#[derive(Clone, Debug)]
pub struct WordInvariant {
    /// The engine's term store (it extends the system's), which holds the
    /// invariant.
    pub store: Box<crate::ir::term::Terms>,
    /// The invariant.
    pub invariant: crate::ir::term::Term,
    /// Number of lemmas (clauses) in it.
    pub lemmas: usize,
}

/// The verdict of a word-level engine that proves by invariants.
pub type InvariantVerdict = Verdict<WordInvariant, WordTrace>;

/// Budgets shared by all engines.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The deepest step to unroll to (inclusive); `None` = no bound.
    pub max_depth: Option<usize>,
    /// Deadline and stop flag.
    pub budget: Budget,
    /// The SAT backend to use.
    pub backend: Backend,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: None,
            budget: Budget::unlimited(),
            backend: Backend::Cadical,
        }
    }
}

/// Counters of one engine run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// The deepest step completely explored.
    pub depth: usize,
    /// SAT calls, summed over the engine's solvers.
    pub sat: SatStats,
    /// Wall time of the run.
    pub time: Duration,
    /// IC3's own counters, when IC3 ran.
    pub ic3: Option<ic3::Ic3Stats>,
    /// Predicate abstraction's counters, when IC3+IA ran.
    pub abstraction: Option<AbstractionStats>,
    /// IC3CFA's counters, when it ran.
    pub program: Option<ic3cfa::CfaStats>,
}

/// Counters of IC3 with implicit predicate abstraction.
#[derive(Clone, Copy, Debug, Default)]
pub struct AbstractionStats {
    /// Predicates at the end.
    pub predicates: usize,
    /// Spurious counterexamples refined away.
    pub refinements: u64,
}

/// Which engine answered.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineId {
    /// Bounded model checking.
    Bmc,
    /// k-induction (bit level).
    Kind,
    /// IC3 with CTGs.
    Ic3,
    /// IC3 with plain `down` generalization.
    Ic3Down,
    /// Interpolation.
    Itp,
    /// Signal correspondence.
    Scorr,
    /// Word-level BMC and k-induction on the SMT layer.
    Smt,
    /// IC3 with implicit predicate abstraction.
    Ic3ia,
    /// IC3+IA on a C program's integer relaxation, its invariant carried to
    /// the machine integers.
    Ic3iaRelaxed,
    /// IC3 on a C program's control-flow automaton.
    Ic3cfa,
    /// Explicit execution of a C program.
    Explicit,
}

impl EngineId {
    /// Its name in outputs (`--json`, `-v`) and messages.
    pub fn name(self) -> &'static str {
        match self {
            EngineId::Bmc => "bmc",
            EngineId::Kind => "kind",
            EngineId::Ic3 => "ic3",
            EngineId::Ic3Down => "ic3-down",
            EngineId::Itp => "itp",
            EngineId::Scorr => "scorr",
            EngineId::Smt => "smt",
            EngineId::Ic3ia => "ic3ia",
            EngineId::Ic3iaRelaxed => "ic3ia-int",
            EngineId::Ic3cfa => "ic3cfa",
            EngineId::Explicit => "explicit",
        }
    }

    /// Whether it runs on the SMT layer (its calls are solver checks, not
    /// SAT calls).
    pub fn on_smt(self) -> bool {
        matches!(
            self,
            EngineId::Smt | EngineId::Ic3ia | EngineId::Ic3iaRelaxed | EngineId::Ic3cfa
        )
    }
}

impl std::fmt::Display for EngineId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An engine's verdict with its name and counters.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The verdict.
    pub verdict: Verdict,
    /// The engine that produced it.
    pub engine: EngineId,
    /// The SAT backend it ran on (a checker should use the other one).
    pub backend: Backend,
    /// Its counters.
    pub stats: Stats,
}

/// The sabotage mode of a `sabotage` build: `INVAR_SABOTAGE` when it was
/// compiled (a build setting, so that the library's own tests are
/// sabotaged too; cargo rebuilds when it changes).
#[cfg(feature = "sabotage")]
const SABOTAGE: Option<&str> = option_env!("INVAR_SABOTAGE");

/// A deliberately broken engine, to check that the test suite notices one
/// (cargo feature `sabotage`, never in a normal build; `scripts/sabotage.sh`):
/// built with `INVAR_SABOTAGE=unknown` every verdict becomes `unknown`;
/// with `INVAR_SABOTAGE=flip` one model in a hundred (by a hash of its
/// circuit) gets the opposite verdict, with a made-up trace or an empty
/// invariant.
#[cfg(feature = "sabotage")]
pub(crate) fn sabotage(aig: &crate::ir::aig::Aig, outcome: Outcome) -> Outcome {
    let mode = SABOTAGE.unwrap_or_default();
    let verdict = match (mode, outcome.verdict) {
        ("unknown", _) => Verdict::Unknown("sabotaged".into()),
        ("flip", verdict) => {
            // FNV-1a over the circuit's shape and gates.
            let mut hash: u64 = 0xcbf29ce484222325;
            let mut mix = |x: u64| hash = (hash ^ x).wrapping_mul(0x100000001b3);
            mix(aig.inputs.len() as u64);
            mix(aig.latches.len() as u64);
            for latch in &aig.latches {
                mix(latch.next.0 as u64);
            }
            for &bad in &aig.bad {
                mix(bad.0 as u64);
            }
            mix(aig.num_ands() as u64);
            match verdict {
                _ if !hash.is_multiple_of(100) => verdict,
                Verdict::Safe(_) => Verdict::Unsafe(crate::ir::trace::Trace {
                    init: aig.latches.iter().map(|l| l.init == Some(true)).collect(),
                    inputs: vec![vec![false; aig.inputs.len()]],
                }),
                Verdict::Unsafe(_) => Verdict::Safe(Proof::Invariant(Vec::new())),
                unknown => unknown,
            }
        }
        (_, verdict) => verdict,
    };
    Outcome { verdict, ..outcome }
}

/// Without the `sabotage` feature: the outcome as it is.
#[cfg(not(feature = "sabotage"))]
#[inline(always)]
pub(crate) fn sabotage(_aig: &crate::ir::aig::Aig, outcome: Outcome) -> Outcome {
    outcome
}

/// Whether the word-level engines (SMT k-induction, IC3+IA) are sabotaged:
/// built with `INVAR_SABOTAGE=unknown` they answer `unknown` at once (feature
/// `sabotage` only, as [`sabotage`]).
#[cfg(feature = "sabotage")]
pub(crate) fn sabotaged_unknown() -> bool {
    SABOTAGE == Some("unknown")
}

/// Without the `sabotage` feature: never.
#[cfg(not(feature = "sabotage"))]
#[inline(always)]
pub(crate) fn sabotaged_unknown() -> bool {
    false
}

/// Built with `INVAR_SABOTAGE=unknown` (feature `sabotage`), the `unknown` a
/// bit-level engine answers at once instead of running to its limit.
pub(crate) fn sabotaged_outcome(engine: EngineId, backend: Backend) -> Option<Outcome> {
    sabotaged_unknown().then(|| Outcome {
        verdict: Verdict::Unknown("sabotaged".into()),
        engine,
        backend,
        stats: Stats::default(),
    })
}

/// The reason given when the budget stops an engine.
pub(crate) fn interrupted_reason(budget: &Budget) -> String {
    budget.reason().to_string()
}
