//! The verification pipeline, the same for every input kind: model → IR →
//! prepare → engine(s) → independent check → restore → [`Run`].
//!
//! A circuit (AIGER, or a bit-blasted word-level model) is reduced to the
//! properties' cone and simplified (`preprocess`), decided by the engine the
//! [`Request`] names, and the answer is checked before it leaves: a trace is
//! mapped back to the model as read and replayed there, a proof is re-derived
//! by `check` on the other SAT backend (bit level) or another solver (word
//! level). A word-level model the bit-blaster cannot take (Int, Real) goes to
//! the word-level engine on the SMT layer. A check that fails is an error,
//! never an answer. Nothing here prints: progress goes to the caller's log.

use crate::bitblast::bitblast;
use crate::cfront::types::CType;
use crate::check::{certificate, invariant, kinduction, replay, smt_proof, word};
use crate::engines::explicit;
use crate::engines::ic3::{self, Ic3Options};
use crate::engines::ic3cfa;
use crate::engines::ic3ia;
use crate::engines::kind::{self, KindOptions};
use crate::engines::portfolio::{self, EngineFn};
use crate::engines::{
    bmc, AbstractionStats, CircuitInvariant, InvariantVerdict, Limits, Outcome, Proof, Stats,
    Verdict,
};
use crate::engines::{itp, scorr};
use crate::formats::aiger::Aiger;
use crate::ir::aig::{Aig, Lit};
use crate::ir::cfa::Cfa;
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::ir::trace::Trace;
use crate::ir::ts::{Ts, WordTrace};
use crate::preprocess::prepare::{prepare, PrepareOptions};
use crate::sat::Backend;
use crate::smt;
use crate::util::budget::{Budget, Turns};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Which engine decides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// On circuits, IC3 on one core and, in turns on the other, BMC, IC3
    /// without CTGs, the step cases of k-induction and signal
    /// correspondence; the first answer wins. Word-level models over Int
    /// or Real go to the word-level engines.
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
    /// The deepest step any engine unrolls to.
    pub max_depth: Option<usize>,
    /// k-induction with pairwise distinct states.
    pub simple_path: bool,
    /// Cone of influence, constants, merging and SAT sweeping before the engines.
    pub simplify: bool,
    /// The SAT backend; `None` picks per engine (IC3 on the core, BMC and
    /// k-induction on CaDiCaL: measured, docs/ARCHITECTURE.md).
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
}

impl Request {
    /// All defaults for `properties`: `auto`, simplification, no bounds.
    pub fn new(properties: Vec<usize>) -> Request {
        Request {
            engine: Engine::Auto,
            properties,
            max_depth: None,
            simple_path: false,
            simplify: true,
            sat: None,
            smt: smt::Backend::Invar,
            invariant_wanted: false,
            budget: Budget::unlimited(),
        }
    }
}

/// A proof that passed its independent check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// An inductive invariant of the circuit in [`Run::circuit`]: the
    /// negations of these cubes over its latch positions.
    Invariant(Vec<Vec<(usize, bool)>>),
    /// An inductive invariant of the circuit in [`Run::circuit`] given as a
    /// circuit over its latches and inputs (interpolation, signal
    /// correspondence), facts included.
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
        /// The certificate: `(define-fun invar-certificate ((x1 S1) …) Bool
        /// INV)` over the state variables ([`smt_proof::certificate_function`]).
        text: String,
    },
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
    /// The engine that gave it (`none` when no engine ran).
    pub engine: &'static str,
    /// The engine's counters (for the word-level engine: depth, and solver
    /// checks as calls).
    pub stats: Stats,
    /// The full circuit a bit-level proof is over (for certificates).
    pub circuit: Option<Aig>,
}

impl Run {
    fn unknown(reason: String) -> Run {
        Run {
            answer: Answer::Unknown(reason),
            engine: "none",
            stats: Stats::default(),
            circuit: None,
        }
    }
}

/// Where progress lines go (the CLI prints them under `-v`).
pub type Log<'a> = &'a mut dyn FnMut(&str);

/// Decides an AIGER model; a trace is replayed on the file's model and cut
/// after the first step where a bad property holds (see [`replayed`]).
pub fn check_aiger(aiger: &Aiger, request: &Request, log: Log) -> Result<Run, String> {
    let full = aiger.to_aig();
    let props = &request.properties;
    let mut run = check_circuit(&full, request, log)?;
    if let Answer::Unsafe {
        witness: Witness::Bit(trace),
        ..
    } = &run.answer
    {
        let init: Vec<Option<bool>> = trace.init.iter().map(|&b| Some(b)).collect();
        let inputs: Vec<Vec<Option<bool>>> = (trace.inputs.iter())
            .map(|v| v.iter().map(|&b| Some(b)).collect())
            .collect();
        match replay::replay(aiger, props, &init, &inputs) {
            replay::Replay::Reached { step, properties } if step < trace.len() => {
                let mut trace = trace.clone();
                trace.inputs.truncate(step + 1);
                log(&format!("counterexample of {} steps replays on the AIGER model", trace.len()));
                run.answer = Answer::Unsafe {
                    witness: Witness::Bit(trace),
                    properties,
                };
            }
            other => {
                return Err(format!(
                    "internal error: the {} engine's counterexample does not replay ({other:?}); no verdict",
                    run.engine
                ))
            }
        }
    }
    Ok(run)
}

/// Decides a word-level model: bit-blasted onto the circuit pipeline when
/// its sorts allow, else (Int, Real) on the word-level engine. A trace is
/// replayed on the terms of `ts`.
pub fn check_word(ts: &Ts, request: &Request, log: Log) -> Result<Run, String> {
    // A word-level certificate is an invariant over the states: k-induction
    // and signal correspondence on the blasted circuit would give none (a
    // k-step window; equalities that read inputs), so `auto` leaves them
    // out then.
    check_word_with(ts, request, log, !request.invariant_wanted)
}

/// [`check_word`]; `circuit_proofs`: whether `auto` on the blasted circuit
/// runs the engines whose proofs are circuits (k-induction's step cases,
/// signal correspondence).
fn check_word_with(
    ts: &Ts,
    request: &Request,
    log: Log,
    circuit_proofs: bool,
) -> Result<Run, String> {
    match request.engine {
        Engine::Smt => return check_smt(ts, request, log),
        Engine::Ic3ia => return check_ic3ia(ts, request, log),
        Engine::Ic3cfa | Engine::Explicit => {
            return Ok(Run::unknown(
                "IC3CFA and explicit execution run on the control-flow automata of C programs"
                    .into(),
            ))
        }
        _ => {}
    }
    let blasted = match bitblast(ts) {
        Ok(b) => b,
        Err(reason) if smt::unfold::unsupported(ts).is_none() => {
            log(&format!("not bit-blasted ({reason}); word-level engine"));
            return match request.engine {
                Engine::Auto => check_word_portfolio(ts, request, log),
                _ => check_smt(ts, request, log),
            };
        }
        Err(reason) => return Ok(Run::unknown(reason.to_string())),
    };
    log(&format!(
        "{} states, {} inputs, {} terms; bit-blasted",
        ts.states.len(),
        ts.inputs.len(),
        ts.terms.len()
    ));
    let mut run = check_circuit_with(&blasted.aig, request, log, circuit_proofs)?;
    if let Answer::Unsafe {
        witness: Witness::Bit(trace),
        ..
    } = &run.answer
    {
        let words = blasted.word_trace(ts, trace);
        let steps = words.len();
        run.answer = replayed(ts, words, &request.properties, run.engine)?;
        log(&format!(
            "counterexample of {steps} steps replays on the word-level model"
        ));
    }
    Ok(run)
}

/// The word-level engine (BMC and k-induction on the SMT layer); a trace is
/// replayed with the term evaluator, a proof re-asked of another solver
/// through an encoding of its own.
pub fn check_smt(ts: &Ts, request: &Request, log: Log) -> Result<Run, String> {
    let backend = request.smt;
    let budget = &request.budget;
    let props = &request.properties;
    let start = Instant::now();
    let (verdict, smt_stats) = kind::word::check(
        ts,
        props,
        &mut || backend.start(budget),
        budget,
        request.max_depth,
        &mut |line| log(&format!("smt: {line}")),
    )?;
    log(&format!(
        "smt ({}): depth {}, {} solver calls",
        backend.name(),
        smt_stats.depth,
        smt_stats.checks
    ));
    let mut stats = Stats {
        depth: smt_stats.depth,
        time: start.elapsed(),
        ..Stats::default()
    };
    stats.sat.calls = smt_stats.checks;
    let answer = match verdict {
        kind::word::WordVerdict::Unsafe(trace) => replayed(ts, trace, props, "smt")?,
        kind::word::WordVerdict::Safe { k } => {
            match smt_proof::check_kinduction(ts, props, k, backend.name(), budget.deadline()) {
                Ok(checker) => {
                    log(&format!(
                        "smt: the {}-induction proof is confirmed by {checker}",
                        k + 1
                    ));
                    let invariant = (k == 0 && request.invariant_wanted)
                        .then(|| inductive_property(ts, props, budget))
                        .flatten();
                    match invariant {
                        Some((text, checker)) => Answer::Safe {
                            evidence: Evidence::WordInvariant { clauses: 1, text },
                            checker: checker.to_string(),
                        },
                        None => Answer::Safe {
                            evidence: Evidence::WordKInduction { k: k + 1 },
                            checker: checker.to_string(),
                        },
                    }
                }
                Err(e) => unconfirmed("the SMT engine's proof", &e, budget),
            }
        }
        kind::word::WordVerdict::Unknown(reason) => Answer::Unknown(reason),
    };
    Ok(Run {
        answer,
        engine: "smt",
        stats,
        circuit: None,
    })
}

/// A 1-inductive property as an invariant: `constraints ⇒ ¬bad`, if it
/// mentions states only (a certificate's parameters are the states), with
/// its certificate text and the solver that confirmed it.
fn inductive_property(ts: &Ts, props: &[usize], budget: &Budget) -> Option<(String, &'static str)> {
    let states: std::collections::HashSet<Term> = ts.states.iter().map(|s| s.var).collect();
    let mut store = ts.clone();
    let terms = &mut store.terms;
    let bad: Vec<Term> = props.iter().map(|&p| ts.bad[p].term).collect();
    let mut roots = bad.clone();
    roots.extend(&ts.constraints);
    let over_states = (terms.topological(&roots).into_iter())
        .all(|t| !matches!(terms.op(t), Op::Var(..)) || states.contains(&t));
    if !over_states {
        return None;
    }
    let any_bad = terms.or_all(&bad);
    let mut parts = ts.constraints.clone();
    parts.push(any_bad);
    let reached = terms.and_all(&parts);
    let invariant = terms.not(reached);
    let checker =
        smt_proof::check_invariant(&store, invariant, props, "smt", budget.deadline()).ok()?;
    Some((
        smt_proof::certificate_function(ts, &store.terms, invariant),
        checker,
    ))
}

/// The word-level certificate of a bit-level invariant of `ts`'s
/// bit-blasted circuit (`cubes` over its latch positions, as
/// [`Evidence::Invariant`] holds them): each latch is one bit of a state,
/// `((_ extract i i) x) = #b1` (or the Bool state itself), and the
/// invariant is the conjunction of the cubes' negations over those bits.
///
/// The blaster's two helper latches are no state of the model. `valid`
/// (every relational transition so far held) is true on every state a
/// word-level run reaches, so it is read as true. `first` (step 0, where
/// the init relations are constraints) is read both ways: the certificate
/// is `INV[first := 0] ∨ (Init ∧ INV[first := 1])`. It is inductive: an
/// Init state meets the second disjunct (the circuit's initial states
/// include it with `first` set), and a transition from either disjunct is
/// a transition of the circuit, which lands where `first` is 0.
pub fn bit_invariant_certificate(ts: &Ts, cubes: &[Vec<(usize, bool)>]) -> Result<String, String> {
    let blasted = bitblast(ts).map_err(|e| e.to_string())?;
    let mut bit_of = vec![None; blasted.aig.latches.len()];
    for (i, latches) in blasted.state_latches.iter().enumerate() {
        for (b, &l) in latches.iter().enumerate() {
            bit_of[l] = Some((i, b as u32));
        }
    }
    let mut store = ts.terms.clone();
    let bit =
        |store: &mut crate::ir::term::Terms, latch: usize, first: bool| -> Result<Term, String> {
            if Some(latch) == blasted.valid {
                return Ok(store.bool(true));
            }
            if Some(latch) == blasted.first {
                return Ok(store.bool(first));
            }
            let (i, b) = bit_of
                .get(latch)
                .copied()
                .flatten()
                .ok_or_else(|| format!("latch {latch} is not a bit of a state"))?;
            let var = ts.states[i].var;
            match store.sort(var).clone() {
                Sort::Bool => Ok(var),
                Sort::BitVec(_) => {
                    let extracted = store.mk(Op::Extract(b, b), &[var]);
                    let one = store.bv(crate::ir::bv::BvValue::from_u64(1, 1));
                    Ok(store.eq(extracted, one))
                }
                other => Err(format!(
                    "a state of sort {other} has no bit-level certificate"
                )),
            }
        };
    let invariant = |store: &mut crate::ir::term::Terms, first: bool| -> Result<Term, String> {
        let mut clauses = Vec::with_capacity(cubes.len());
        for cube in cubes {
            let mut negated = Vec::with_capacity(cube.len());
            for &(latch, value) in cube {
                let t = bit(store, latch, first)?;
                negated.push(if value { store.not(t) } else { t });
            }
            clauses.push(store.or_all(&negated));
        }
        Ok(store.and_all(&clauses))
    };
    let later = invariant(&mut store, false)?;
    let invariant = if blasted.first.is_some() {
        let at_first = invariant(&mut store, true)?;
        let mut init: Vec<Term> = ts.init.clone();
        for s in &ts.states {
            if let Some(value) = s.init {
                init.push(store.eq(s.var, value));
            }
        }
        init.push(at_first);
        let start = store.and_all(&init);
        store.or_all(&[later, start])
    } else {
        later
    };
    Ok(smt_proof::certificate_function(ts, &store, invariant))
}

/// A word-level counterexample of `engine`, replayed with the term
/// evaluator on `ts` as read: the answer, cut after the first step where a
/// bad property holds, if it reaches one; an internal error otherwise. (IC3
/// reopens blocked obligations one level up, so its chains can be longer
/// than the shortest counterexample and pass a bad state before their end:
/// the prefix up to it is a counterexample as real as the whole.)
fn replayed(
    ts: &Ts,
    mut trace: WordTrace,
    props: &[usize],
    engine: &str,
) -> Result<Answer, String> {
    match word::replay(ts, &trace, props) {
        Ok(reached) if reached.step < trace.len() => {
            trace.states.truncate(reached.step + 1);
            trace.inputs.truncate(reached.step + 1);
            Ok(Answer::Unsafe {
                witness: Witness::Word(trace),
                properties: reached.properties,
            })
        }
        other => Err(format!(
            "internal error: the {engine} engine's counterexample does not replay on the word-level model ({other:?}); no verdict"
        )),
    }
}

/// A word-level proof its checker did not confirm: refuted, or unanswered
/// with time left, is `Unconfirmed` (a failed check); unanswered because the
/// time ran out while checking is only `Unknown`.
fn unconfirmed(what: &str, e: &smt_proof::ProofError, budget: &Budget) -> Answer {
    if !e.refuted && budget.expired() {
        return Answer::Unknown(format!("{} while checking {what} ({e})", budget.reason()));
    }
    Answer::Unconfirmed(format!("{what} could not be confirmed ({e}); no verdict"))
}

/// IC3+IA and the word-level BMC/k-induction in parallel on the SMT layer
/// (two cores, two engines): the first checked verdict wins and stops the
/// other. IC3+IA proves loops whose invariants are not k-inductive; BMC
/// finds counterexamples that IC3+IA's refinement cannot reach.
pub fn check_word_portfolio(ts: &Ts, request: &Request, log: Log) -> Result<Run, String> {
    enum Message {
        Line(String),
        Done(Box<Result<Run, String>>),
    }
    let budgets = [request.budget.child(), request.budget.child()];
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for (i, budget) in budgets.iter().enumerate() {
            let tx = tx.clone();
            let request = Request {
                budget: budget.clone(),
                ..request.clone()
            };
            scope.spawn(move || {
                let mut line = |l: &str| {
                    let _ = tx.send(Message::Line(l.to_string()));
                };
                let run = match i {
                    0 => check_ic3ia(ts, &request, &mut line),
                    _ => check_smt(ts, &request, &mut line),
                };
                let _ = tx.send(Message::Done(Box::new(run)));
            });
        }
        drop(tx);
        let mut inconclusive: Option<Run> = None;
        // A k-induction proof kept while IC3+IA looks for an invariant.
        let mut without_invariant: Option<Run> = None;
        // Until when IC3+IA may go on after that proof: the certificate was
        // asked for, so until shortly before the deadline; without one, as
        // long again as the proof took (at least ten seconds). (It was as
        // long again, at least a second, with a deadline too: a loaded
        // machine then lost the certificate of conc_szymanski_safe, whose
        // invariant IC3+IA finds in 0.9 s alone.)
        let mut patience: Option<Instant> = None;
        let start = Instant::now();
        loop {
            let message = match patience {
                None => match rx.recv() {
                    Ok(m) => m,
                    Err(_) => break,
                },
                Some(until) => {
                    match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
                        Ok(m) => m,
                        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                            budgets[0].stop();
                            patience = None;
                            continue;
                        }
                        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                    }
                }
            };
            let run = match message {
                Message::Line(l) => {
                    log(&l);
                    continue;
                }
                Message::Done(run) => *run,
            };
            match run {
                Ok(run)
                    if request.invariant_wanted
                        && without_invariant.is_none()
                        && matches!(
                            run.answer,
                            Answer::Safe {
                                evidence: Evidence::WordKInduction { k },
                                ..
                            } if k > 1
                        ) =>
                {
                    log("portfolio: k-induction proved it; IC3+IA goes on for an invariant to certify");
                    let margin = Duration::from_millis(500);
                    patience = Some(match request.budget.deadline() {
                        Some(deadline) => deadline.checked_sub(margin).unwrap_or(deadline),
                        None => Instant::now() + start.elapsed().max(Duration::from_secs(10)),
                    });
                    without_invariant = Some(run);
                }
                Ok(run) if matches!(run.answer, Answer::Safe { .. } | Answer::Unsafe { .. }) => {
                    budgets.iter().for_each(Budget::stop);
                    return Ok(run);
                }
                // A proof its checker rejected outweighs an unknown.
                Ok(run) => match &inconclusive {
                    Some(Run {
                        answer: Answer::Unconfirmed(_),
                        ..
                    }) => {}
                    _ => inconclusive = Some(run),
                },
                Err(e) => {
                    budgets.iter().for_each(Budget::stop);
                    return Err(e);
                }
            }
        }
        if let Some(run) = without_invariant {
            return Ok(run);
        }
        Ok(inconclusive.expect("two engines answered"))
    })
}

/// A C program lowered over mathematical integers (`--int`), beside its
/// bit-precise encoding: the same automaton (checked by
/// [`crate::cfront::relax::aligned`]) with `Int` for every integer variable.
pub struct Relaxation<'a> {
    /// Its encoding.
    pub ts: &'a Ts,
    /// The C type of each of its integer variables.
    pub types: &'a HashMap<Term, CType>,
    /// Its overflow flag ([`crate::cfront::relax::watch_overflow`]), if any.
    pub overflow: Option<Term>,
}

/// Decides a C program's bit-precise encoding `ts`. Under `auto`, given the
/// program's integer relaxation, IC3+IA first looks for an invariant of
/// the relaxation, for a tenth of the time left (10 s without a time
/// limit); carried to the machine integers ([`crate::cfront::relax`]) and
/// confirmed on `ts` by the word-level proof checker, it proves the
/// program. Otherwise (the relaxation is not proved, the invariant does not
/// carry over or is not inductive under wrap-around) [`check_word`] decides
/// as it would alone; the relaxation's answers are never taken as verdicts.
pub fn check_program(
    cfa: &Cfa,
    ts: &Ts,
    relaxation: Option<Relaxation>,
    request: &Request,
    log: Log,
) -> Result<Run, String> {
    if request.engine == Engine::Ic3cfa {
        return check_ic3cfa(cfa, ts, request, log);
    }
    if request.engine == Engine::Explicit {
        let options = explicit::ExplicitOptions::default();
        return check_explicit(cfa, ts, request, options, None, log);
    }
    // (INVAR_AUTO_NO_EXPLICIT: an ablation switch for measurements, not a
    // documented interface.)
    let explicit =
        request.engine == Engine::Auto && std::env::var_os("INVAR_AUTO_NO_EXPLICIT").is_none();
    // Each phase of `auto` searches in its slice and checks within the
    // whole budget.
    let whole = Some(&request.budget);
    if explicit {
        // The run on unknown values first: it is the program's only path
        // or stops at its first guard on an unknown value, in milliseconds
        // either way (its states are capped).
        let only_run = explicit::ExplicitOptions {
            tests: false,
            ..Default::default()
        };
        let run =
            |sliced: &Request, log: Log| check_explicit(cfa, ts, sliced, only_run, whole, log);
        if let Some(run) = sliced_phase(request, "explicit", log, run)? {
            return Ok(run);
        }
    }
    // (INVAR_AUTO_NO_IC3CFA: an ablation switch for measurements and for
    // the tests of what follows, not a documented interface.)
    if request.engine == Engine::Auto && std::env::var_os("INVAR_AUTO_NO_IC3CFA").is_none() {
        // IC3CFA for a tenth of the time left (10 s without a limit): what
        // it decides alone on the C set it decides within a second
        // (docs/ARCHITECTURE.md, Programs). Its invariant's check gets a
        // quarter of the time then left: an invariant found is the
        // likeliest verdict, and three quarters stay for the other engines
        // if the check does not finish. (invar's own solver confirms
        // nested9's invariant of 1,634 clauses in 8.5 s, checked case by
        // case; z3 is faster.)
        let ic3cfa = |sliced: &Request, log: Log| check_ic3cfa_until(cfa, ts, sliced, whole, log);
        if let Some(run) = sliced_phase(request, "ic3cfa", log, ic3cfa)? {
            return Ok(run);
        }
    }
    if explicit {
        // Tests for a tenth of the time then left: they find the bugs that
        // need one large input and a long loop (sum02-1: 65,537
        // iterations), beyond what BMC unrolls.
        let tests = explicit::ExplicitOptions {
            determined: false,
            ..Default::default()
        };
        let run = |sliced: &Request, log: Log| check_explicit(cfa, ts, sliced, tests, whole, log);
        if let Some(run) = sliced_phase(request, "explicit", log, run)? {
            return Ok(run);
        }
    }
    if let (Engine::Auto, Some(relaxation)) = (request.engine, relaxation) {
        if let Some(run) = relaxed_proof(ts, &relaxation, request, log)? {
            return Ok(run);
        }
    }
    // No k-induction step cases: a correctness witness (`--witness-out`)
    // carries loop invariants, which k-induction does not give, and the C
    // set was measured without them.
    check_word_with(ts, request, log, false)
}

/// The proof of `ts` from an invariant of its relaxation, if one is found
/// and confirmed in the time given to it.
fn relaxed_proof(
    ts: &Ts,
    relaxation: &Relaxation,
    request: &Request,
    log: Log,
) -> Result<Option<Run>, String> {
    let start = Instant::now();
    let slice = tenth_of_time_left(request);
    let budget = request.budget.child().narrowed(slice);
    let props = &request.properties;
    let backend = request.smt;
    let (verdict, ia) = ic3ia::check(
        relaxation.ts,
        props,
        backend,
        &budget,
        request.max_depth,
        &mut |line| log(&format!("relaxation: ic3ia: {line}")),
    )?;
    let (store, invariant, lemmas) = match verdict {
        InvariantVerdict::Safe {
            store,
            invariant,
            lemmas,
        } => (store, invariant, lemmas),
        InvariantVerdict::Unsafe(trace) => {
            log(&format!(
                "relaxation: unsafe over the integers or overflows in {} steps; machine integers next",
                trace.len()
            ));
            return Ok(None);
        }
        InvariantVerdict::Unknown(reason) => {
            log(&format!(
                "relaxation: no invariant over the integers ({reason}); machine integers next"
            ));
            return Ok(None);
        }
    };
    let (terms, image) = match crate::cfront::relax::transfer(
        relaxation.ts,
        &store,
        invariant,
        relaxation.types,
        relaxation.overflow,
        ts,
    ) {
        Ok(x) => x,
        Err(e) => {
            log(&format!(
                "relaxation: the invariant does not carry over ({e})"
            ));
            return Ok(None);
        }
    };
    // The check gets a slice of its own: a candidate the solver cannot
    // settle quickly is not worth the bit-level engines' time.
    let deadline = request.budget.narrowed(slice).deadline();
    match certified(ts, &terms, image, lemmas, request, deadline) {
        Ok((answer, checker)) => {
            log(&format!(
                "relaxation: the invariant of {lemmas} clauses over the integers holds on the machine integers (confirmed by {checker})"
            ));
            let stats = ia_stats(&ia, start.elapsed());
            Ok(Some(Run {
                answer,
                engine: "ic3ia-int",
                stats,
                circuit: None,
            }))
        }
        Err(e) => {
            log(&format!(
                "relaxation: the invariant over the integers is not one of the machine integers ({e})"
            ));
            Ok(None)
        }
    }
}

/// A tenth of the time left to `request` (10 s without a limit): the share
/// of a phase of `auto` for C that runs before the next.
fn tenth_of_time_left(request: &Request) -> Duration {
    match request.budget.deadline() {
        Some(d) => d.saturating_duration_since(Instant::now()) / 10,
        None => Duration::from_secs(10),
    }
}

/// The SAFE answer of an engine's invariant (a term of `store` over `ts`'s
/// state variables, `lemmas` clauses) once its certificate is confirmed on
/// `ts` by the word-level proof checker before `deadline`, and who confirmed
/// it. The certificate's text is all the checker takes from the engine.
fn certified(
    ts: &Ts,
    store: &Terms,
    invariant: Term,
    lemmas: usize,
    request: &Request,
    deadline: Option<Instant>,
) -> Result<(Answer, &'static str), smt_proof::ProofError> {
    let function = smt_proof::certificate_function(ts, store, invariant);
    let props = &request.properties;
    let checker = smt_proof::check_certificate(ts, &function, props, request.smt.name(), deadline)?;
    let answer = Answer::Safe {
        evidence: Evidence::WordInvariant {
            clauses: lemmas,
            text: function,
        },
        checker: checker.to_string(),
    };
    Ok((answer, checker))
}

/// The run's counters from IC3+IA's, with the run's wall time.
fn ia_stats(ia: &ic3ia::IaStats, time: Duration) -> Stats {
    let mut stats = Stats {
        depth: ia.ic3.frames,
        time,
        ..Stats::default()
    };
    stats.sat.calls = ia.checks;
    stats.sat.time = ia.smt_time;
    stats.ic3 = Some(ia.ic3.clone());
    stats.abstraction = Some(AbstractionStats {
        predicates: ia.predicates,
        refinements: ia.refinements,
    });
    stats
}

/// IC3CFA on the automaton `cfa`, whose encoding is `ts`: a trace is
/// replayed on `ts`, the invariant checked on `ts` by the word-level proof
/// checker, as IC3+IA's.
pub fn check_ic3cfa(cfa: &Cfa, ts: &Ts, request: &Request, log: Log) -> Result<Run, String> {
    check_ic3cfa_until(cfa, ts, request, None, log)
}

/// [`check_ic3cfa`], with the invariant's check allowed a quarter of the
/// time `whole` has left when the search ends (`None`: until the
/// request's deadline).
fn check_ic3cfa_until(
    cfa: &Cfa,
    ts: &Ts,
    request: &Request,
    whole: Option<&Budget>,
    log: Log,
) -> Result<Run, String> {
    let backend = request.smt;
    let budget = &request.budget;
    let start = Instant::now();
    let (verdict, cs) = ic3cfa::check(
        cfa,
        ts,
        ic3cfa::Ic3CfaOptions::default(),
        backend,
        budget,
        &mut |line| log(&format!("ic3cfa: {line}")),
    );
    let mut stats = Stats {
        depth: cs.frames,
        time: start.elapsed(),
        ..Stats::default()
    };
    stats.sat.calls = cs.checks;
    stats.sat.time = cs.smt_time;
    stats.program = Some(cs.clone());
    let proof = InvariantProof {
        engine: "ic3cfa",
        unit: "lemmas",
        what: "the IC3CFA invariant",
    };
    let deadline = check_deadline(whole, budget);
    let answer = checked_answer(ts, verdict, request, deadline, proof, log)?;
    Ok(Run {
        answer,
        engine: "ic3cfa",
        stats,
        circuit: None,
    })
}

/// Explicit execution (`engines::explicit`) on `cfa`: a trace is replayed on
/// `ts`, an invariant confirmed by the certificate checker within a quarter
/// of the time left in `whole` (the engine's own budget without it).
fn check_explicit(
    cfa: &Cfa,
    ts: &Ts,
    request: &Request,
    options: explicit::ExplicitOptions,
    whole: Option<&Budget>,
    log: Log,
) -> Result<Run, String> {
    let budget = &request.budget;
    let start = Instant::now();
    let (verdict, es) = explicit::check(cfa, ts, options, request.smt, budget, &mut |line| {
        log(&format!("explicit: {line}"))
    });
    log(&format!(
        "explicit: {} runs, {} steps, {} states, {} trace steps by SMT in {:.2?}",
        es.runs, es.steps, es.states, es.smt_steps, es.time
    ));
    let stats = Stats {
        depth: es.states,
        time: start.elapsed(),
        ..Stats::default()
    };
    let proof = InvariantProof {
        engine: "explicit",
        unit: "states",
        what: "the explicit run's invariant",
    };
    let deadline = check_deadline(whole, budget);
    let answer = checked_answer(ts, verdict, request, deadline, proof, log)?;
    Ok(Run {
        answer,
        engine: "explicit",
        stats,
        circuit: None,
    })
}

/// A phase of `auto` on a program: `engine` runs with a tenth of the time
/// left (its request's budget) and the whole budget for its check; its run
/// if it decided, else `None` (the reason logged).
fn sliced_phase(
    request: &Request,
    name: &str,
    log: Log,
    engine: impl FnOnce(&Request, Log) -> Result<Run, String>,
) -> Result<Option<Run>, String> {
    let sliced = Request {
        budget: request.budget.child().narrowed(tenth_of_time_left(request)),
        ..request.clone()
    };
    let run = engine(&sliced, &mut *log)?;
    match run.answer {
        Answer::Safe { .. } | Answer::Unsafe { .. } => Ok(Some(run)),
        Answer::Unknown(reason) | Answer::Unconfirmed(reason) => {
            log(&format!(
                "{name}: no verdict ({reason}); the next engines go on"
            ));
            Ok(None)
        }
    }
}

/// Who proved an invariant, for [`checked_answer`]'s messages: the engine,
/// what its invariant counts (lemmas, clauses, states) and its name.
#[derive(Clone, Copy)]
struct InvariantProof {
    engine: &'static str,
    unit: &'static str,
    what: &'static str,
}

/// The answer of an invariant engine's verdict: a trace replayed on `ts`, an
/// invariant confirmed by the certificate checker before `deadline`.
fn checked_answer(
    ts: &Ts,
    verdict: InvariantVerdict,
    request: &Request,
    deadline: Option<Instant>,
    proof: InvariantProof,
    log: Log,
) -> Result<Answer, String> {
    Ok(match verdict {
        InvariantVerdict::Unsafe(trace) => replayed(ts, trace, &request.properties, proof.engine)?,
        InvariantVerdict::Safe {
            store,
            invariant,
            lemmas,
        } => match certified(ts, &store, invariant, lemmas, request, deadline) {
            Ok((answer, checker)) => {
                log(&format!(
                    "{}: the invariant of {lemmas} {} is confirmed by {checker}",
                    proof.engine, proof.unit
                ));
                answer
            }
            Err(e) => unconfirmed(proof.what, &e, &request.budget),
        },
        InvariantVerdict::Unknown(reason) => Answer::Unknown(reason),
    })
}

/// The deadline of an invariant's check: a quarter of the time `whole` has
/// left when the search ends (10 s if it has no limit), or without `whole`
/// the engine's own budget's.
fn check_deadline(whole: Option<&Budget>, budget: &Budget) -> Option<Instant> {
    match whole.map(|w| w.deadline()) {
        Some(Some(d)) => Some(Instant::now() + d.saturating_duration_since(Instant::now()) / 4),
        Some(None) => Some(Instant::now() + Duration::from_secs(10)),
        None => budget.deadline(),
    }
}

/// IC3 with implicit predicate abstraction on the SMT layer; a trace is
/// replayed with the term evaluator, an invariant checked by another solver
/// through the checker's own encoding of the model as read.
pub fn check_ic3ia(ts: &Ts, request: &Request, log: Log) -> Result<Run, String> {
    let backend = request.smt;
    let budget = &request.budget;
    let props = &request.properties;
    let start = Instant::now();
    let (verdict, ia) = ic3ia::check(ts, props, backend, budget, request.max_depth, &mut |line| {
        log(&format!("ic3ia: {line}"))
    })?;
    let stats = ia_stats(&ia, start.elapsed());
    let proof = InvariantProof {
        engine: "ic3ia",
        unit: "clauses",
        what: "the IC3+IA invariant",
    };
    let answer = checked_answer(ts, verdict, request, budget.deadline(), proof, log)?;
    Ok(Run {
        answer,
        engine: "ic3ia",
        stats,
        circuit: None,
    })
}

/// The reductions before the engines; SAT sweeping gets a tenth of the time
/// left, at most 5 s.
fn prepare_options(request: &Request) -> PrepareOptions {
    let cap = Duration::from_secs(5);
    let sweep = match request.budget.deadline() {
        Some(d) => cap.min(d.saturating_duration_since(Instant::now()) / 10),
        None => cap,
    };
    // Ablation switch for measurements, not part of the documented interface.
    let no_fraig = std::env::var_os("INVAR_NO_FRAIG").is_some();
    PrepareOptions {
        simplify: request.simplify,
        fraig: (request.simplify && !no_fraig).then_some(sweep),
        budget: request.budget.clone(),
    }
}

/// Decides the properties of a circuit: reduces it to their cone, runs the
/// engine, checks a proof on the SAT backend the engine did not use, and
/// maps a trace back to `full` (not yet replayed on any file).
pub fn check_circuit(full: &Aig, request: &Request, log: Log) -> Result<Run, String> {
    check_circuit_with(full, request, log, true)
}

/// [`check_circuit`]; `circuit_proofs`: whether `auto` runs the engines
/// whose proofs are circuits, not invariants over the latches (k-induction's
/// step cases, signal correspondence).
fn check_circuit_with(
    full: &Aig,
    request: &Request,
    log: Log,
    circuit_proofs: bool,
) -> Result<Run, String> {
    let props = &request.properties;
    let bad: Vec<Lit> = props.iter().map(|&p| full.bad[p]).collect();
    let prepared = prepare(full, props, &prepare_options(request));
    let (reduced, restore) = (&prepared.aig, &prepared.restore);
    log(&format!(
        "{} inputs, {} latches, {} ands; {} constant and {} merged latches; \
         cone: {} inputs, {} latches, {} ands",
        full.inputs.len(),
        full.latches.len(),
        full.num_ands(),
        prepared.constants,
        prepared.merged,
        reduced.inputs.len(),
        reduced.latches.len(),
        reduced.num_ands()
    ));
    if let Some(f) = &prepared.fraig {
        log(&format!(
            "SAT sweeping: {} of {} ands merged ({} checks, {} refuted, {} undecided) in {:.3}s",
            f.merged,
            f.ands_before,
            f.checks,
            f.refuted,
            f.undecided,
            f.time.as_secs_f64()
        ));
    }
    let backend = request.sat.unwrap_or(Backend::Cadical);
    let ic3_backend = request.sat.unwrap_or(Backend::Core);
    let limits = Limits {
        max_depth: request.max_depth,
        budget: request.budget.clone(),
        backend,
    };
    let outcome = run_engine(request, reduced, &limits, ic3_backend, circuit_proofs);
    let Outcome {
        verdict,
        engine,
        backend,
        stats,
    } = outcome;
    let answer = match verdict {
        Verdict::Unsafe(trace) => Answer::Unsafe {
            witness: Witness::Bit(restore.trace(&trace)),
            properties: props.clone(),
        },
        Verdict::Unknown(reason) => Answer::Unknown(reason),
        Verdict::Safe(proof) => {
            let budget = &request.budget;
            // The check may overrun the engine's deadline a little: a proof
            // found just in time deserves its check.
            let check_budget = Budget::with_timeout(match budget.deadline() {
                Some(d) => d.saturating_duration_since(Instant::now()) + Duration::from_millis(400),
                None => Duration::from_secs(u32::MAX as u64),
            });
            let checker = backend.other();
            let check_start = Instant::now();
            // Over the original latches, checked as its witness circuit
            // (Certifaiger's checks, with their own encoding). The model as
            // checked: the properties asked, not all of the file's (the
            // witness's property says nothing of the others, so
            // Certifaiger's property check would fail on them).
            let check_circuit = |inv: CircuitInvariant| {
                let witness = certificate::witness_from_circuit(full, &bad, &inv);
                let checked_model;
                let model = if bad.len() == full.bad.len() {
                    full
                } else {
                    checked_model = {
                        let mut m = full.clone();
                        m.bad = bad.clone();
                        m
                    };
                    &checked_model
                };
                certificate::check_witness(model, &witness, checker, &check_budget)
                    .map(|()| Evidence::Circuit(inv))
            };
            let checked = match proof {
                Proof::KInduction { k, simple_path } => kinduction::check(
                    full,
                    &bad,
                    k,
                    simple_path,
                    Some(&restore.latches),
                    &prepared.facts,
                    checker,
                    &check_budget,
                )
                .map(|()| Evidence::KInduction {
                    k,
                    simple_path,
                    lemmas: prepared.facts.clone(),
                }),
                Proof::Circuit(inv) => {
                    check_circuit(prepared.original_circuit_invariant(full, &inv))
                }
                Proof::Correspondence(repr) => {
                    check_circuit(prepared.original_correspondence(full, &repr))
                }
                Proof::Invariant(cubes) => {
                    // The invariant over the original latch positions.
                    let cubes = prepared.original_invariant(&cubes);
                    invariant::check(full, &bad, &cubes, checker, &check_budget)
                        .map(|()| Evidence::Invariant(cubes))
                }
            };
            match checked {
                Ok(evidence) => {
                    log(&format!(
                        "{} checked with {} in {:.3}s",
                        describe(&evidence),
                        checker.name(),
                        check_start.elapsed().as_secs_f64()
                    ));
                    Answer::Safe {
                        evidence,
                        checker: checker.name().to_string(),
                    }
                }
                Err(e) if check_budget.expired() => {
                    Answer::Unknown(format!("the proof could not be checked in time: {e}"))
                }
                Err(e) => {
                    return Err(format!(
                    "internal error: the {engine} engine's proof does not check: {e}; no verdict"
                ))
                }
            }
        }
    };
    Ok(Run {
        answer,
        engine,
        stats,
        circuit: Some(full.clone()),
    })
}

/// A proof in words, for logs.
pub fn describe(evidence: &Evidence) -> String {
    match evidence {
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

/// IC3's options, with the ablation switches of the measurement scripts
/// (environment variables, not part of the documented interface).
fn ic3_options(limits: Limits) -> Ic3Options {
    let mut options = Ic3Options {
        limits,
        ..Ic3Options::default()
    };
    let set = |name: &str| std::env::var_os(name).is_some();
    if set("INVAR_IC3_NO_INFINITE") {
        options.infinite_frame = false;
    }
    if set("INVAR_IC3_ALL_LEVELS") {
        options.skip_unchanged_levels = false;
    }
    if set("INVAR_IC3_SHARED_SOLVER") {
        options.shared_solver = true;
    }
    if set("INVAR_IC3_NO_PIN") {
        options.pin_domain = false;
    }
    if set("INVAR_IC3_NO_LIFT_FROM_MODEL") {
        options.lift_from_model = false;
    }
    match std::env::var("INVAR_IC3_GEN").as_deref() {
        Ok("down") => options.generalization = ic3::Generalization::Down,
        Ok("dynamic") => options.generalization = ic3::Generalization::Dynamic { threshold: 10.0 },
        _ => {}
    }
    if let Some(n) = (std::env::var("INVAR_IC3_MIC_ATTEMPTS").ok()).and_then(|v| v.parse().ok()) {
        options.mic_attempts = n;
    }
    if set("INVAR_IC3_NO_RELIFT") {
        options.relift = false;
    }
    if set("INVAR_IC3_NO_KEEP_OBLIGATIONS") {
        options.keep_obligations = false;
    }
    if set("INVAR_IC3_NO_PARENT_LEMMA") {
        options.parent_lemma = false;
    }
    if set("INVAR_IC3_PREDICT") {
        options.predict = true;
    }
    match std::env::var("INVAR_IC3_CTP").as_deref() {
        Ok("stuck") => options.ctp = ic3::Ctp::Stuck,
        Ok(_) => options.ctp = ic3::Ctp::Every,
        Err(_) => {}
    }
    if set("INVAR_IC3_PUSH_WITNESSES") {
        options.push_witnesses = true;
    }
    options
}

/// How long each engine sharing the second core (BMC, IC3 without CTGs, the
/// step cases of k-induction) runs before passing the core on (`auto` on
/// circuits).
const SHARED_CORE_SLICE: Duration = Duration::from_millis(500);

fn run_engine(
    request: &Request,
    aig: &Aig,
    limits: &Limits,
    ic3_backend: Backend,
    circuit_proofs: bool,
) -> Outcome {
    let ic3_options = ic3_options(Limits {
        backend: ic3_backend,
        ..limits.clone()
    });
    match request.engine {
        Engine::Bmc => bmc::check(aig, limits),
        Engine::Itp => itp::check(aig, limits),
        Engine::Scorr => scorr::check(aig, limits),
        Engine::Kind => kind::check(
            aig,
            &KindOptions {
                limits: limits.clone(),
                simple_path: request.simple_path,
                sparse_steps: false,
            },
        ),
        Engine::Ic3 => ic3::check(aig, &ic3_options),
        Engine::Smt | Engine::Ic3ia | Engine::Ic3cfa | Engine::Explicit => Outcome {
            verdict: Verdict::Unknown(
                "the SMT, IC3+IA and IC3CFA engines run on word-level models, not circuits".into(),
            ),
            engine: match request.engine {
                Engine::Smt => "smt",
                Engine::Ic3ia => "ic3ia",
                Engine::Explicit => "explicit",
                _ => "ic3cfa",
            },
            backend: limits.backend,
            stats: Default::default(),
        },
        Engine::Auto if std::env::var_os("INVAR_AUTO_NO_DOWN").is_some() => {
            // Ablation: the portfolio of sessions before 37.
            let engines: Vec<EngineFn> = vec![
                Box::new(|aig| bmc::check(aig, limits)),
                Box::new(move |aig| ic3::check(aig, &ic3_options)),
            ];
            portfolio::run(aig, &limits.budget, engines)
        }
        Engine::Auto => {
            // One core for IC3 as configured (CTGs: the stronger prover);
            // the other shared, in turns, by BMC, a second IC3 (below), and
            // the step cases of k-induction at sparse depths, whose base
            // case is BMC's: k-induction proves circuits whose invariant
            // IC3 does not find (dspfilters from SymbiYosys, HWMCC'19's
            // k-induction wins). See docs/ARCHITECTURE.md.
            // INVAR_AUTO_NO_KIND: the two-member turns of session 37, for
            // measurement.
            let with_kind = circuit_proofs && std::env::var_os("INVAR_AUTO_NO_KIND").is_none();
            // Signal correspondence: a search that ends, in seconds on most
            // HWMCC circuits (up to ~13 s on the largest industrial ones;
            // multipliers such as mul3 excepted), and proves only when it
            // ends. So it takes its share of the shared core up front: its
            // first turn lasts its share of the run (a quarter with four
            // members, 15 s at 60 s), then it takes turns like the others
            // if it has not ended. A slice at a time, cal226's proof (10 s
            // alone) came after 60 s. On circuits with invariant
            // constraints it proves nothing `auto` misses and takes 10-30 s
            // on picorv32, whose bugs BMC finds on this core, so it runs
            // only without them. INVAR_AUTO_NO_SCORR: the turns of session
            // 39; INVAR_AUTO_SCORR_TURNS: those of sessions 41-42 (its
            // turns of a slice from the start), for measurement.
            let with_scorr = circuit_proofs
                && aig.constraints.is_empty()
                && std::env::var_os("INVAR_AUTO_NO_SCORR").is_none();
            let front_loaded = with_scorr && std::env::var_os("INVAR_AUTO_SCORR_TURNS").is_none();
            // Member 0 begins: signal correspondence when it goes first.
            let first = usize::from(front_loaded);
            let members = 2 + usize::from(with_kind) + usize::from(with_scorr);
            let first_turn = match limits.budget.deadline() {
                _ if !front_loaded => SHARED_CORE_SLICE,
                Some(d) => d.saturating_duration_since(Instant::now()) / members as u32,
                // Without a deadline, what it would have at 60 s.
                None => Duration::from_secs(60) / members as u32,
            };
            let turns = Turns::with_first_turn(members, SHARED_CORE_SLICE, first_turn);
            let bmc_limits = Limits {
                budget: limits.budget.taking_turn(&turns, first),
                ..limits.clone()
            };
            let step_options = KindOptions {
                limits: Limits {
                    budget: limits.budget.taking_turn(&turns, first + 2),
                    ..limits.clone()
                },
                simple_path: false,
                sparse_steps: true,
            };
            // The second IC3 keeps CTGs and blocks counterexamples to
            // propagation of lemmas that failed to push in an earlier round
            // (`Ctp::Stuck`): that proves the zipcpu busdelay circuits the
            // first leaves open, and would cost the first the qspiflash
            // circuits whose frames the extra lemmas keep from converging.
            // INVAR_AUTO_SECOND_DOWN: the second IC3 of sessions 37-49
            // (plain `down`, no CTPs), for measurement. docs/ARCHITECTURE.md,
            // session 50.
            let mut second = ic3_options.clone();
            if std::env::var_os("INVAR_AUTO_SECOND_DOWN").is_some() {
                second.generalization = ic3::Generalization::Down;
            } else {
                second.ctp = ic3::Ctp::Stuck;
            }
            second.limits.budget = limits.budget.taking_turn(&turns, first + 1);
            let base = &kind::SharedBase::default();
            let turns = &turns;
            let mut engines: Vec<EngineFn> = vec![
                Box::new(move |aig| ic3::check(aig, &ic3_options)),
                Box::new(move |aig| {
                    let _seat = turns.seat(first);
                    let _run = base.run();
                    bmc::check_publishing(aig, &bmc_limits, &base.cleared)
                }),
                Box::new(move |aig| {
                    let _seat = turns.seat(first + 1);
                    ic3::check(aig, &second)
                }),
            ];
            if with_kind {
                engines.push(Box::new(move |aig| {
                    let seat = turns.seat(first + 2);
                    kind::step_cases(aig, &step_options, base, &limits.budget, || drop(seat))
                }));
            }
            if with_scorr {
                let me = if front_loaded { 0 } else { members - 1 };
                let scorr_limits = Limits {
                    budget: limits.budget.taking_turn(turns, me),
                    ..limits.clone()
                };
                // Its unknown ends this member only: the portfolio waits
                // for the others.
                engines.push(Box::new(move |aig| {
                    let _seat = turns.seat(me);
                    scorr::check(aig, &scorr_limits)
                }));
            }
            portfolio::run(aig, &limits.budget, engines)
        }
    }
}
