//! IC3 / PDR: one core, shared by every domain.
//!
//! Bradley, "SAT-Based Model Checking without Unrolling", VMCAI 2011 (doi:10.1007/978-3-642-18275-4_7);
//! Eén, Mishchenko, Brayton, "Efficient implementation of property directed
//! reachability", FMCAD 2011; structure after ic3ref (Bradley) and rIC3.
//!
//! The core (this file, `generalize.rs`, `propagate.rs`, `frames.rs`,
//! `obligation.rs`) holds frames of lemmas, proof obligations, MIC with
//! CTGs, propagation and the infinite frame, over cubes of a domain's atoms.
//! The domain ([`Domain`], `domain.rs`) owns the solvers and answers the
//! queries: the bit level ([`BitLevel`], `bit.rs`: atoms are latches, SAT
//! on the circuit) and implicit predicate abstraction (Cimatti, Griggio,
//! Mover, Tonetta, "IC3 Modulo Theories via Implicit Predicate
//! Abstraction", TACAS 2014: atoms are predicates, queries go to the SMT
//! layer, and a spurious chain of obligations refines the predicates while
//! the frames stay). Monomorphised per domain: the bit level pays no
//! indirection.
//!
//! Main loop ([`Ic3::search`]): for k = 1, 2, …
//! 1. *strengthen*: while F_k ∧ C ∧ bad is satisfiable, lift the bad state to
//!    a cube and block it: obligations (cube, level) are taken lowest level
//!    first; a cube inductive relative to F_{level-1} is generalized (MIC
//!    with CTG, `generalize.rs`) and added as a lemma, and its obligation is
//!    re-opened one level up (to find counterexamples deeper than k);
//!    otherwise its lifted predecessor becomes an obligation one level down.
//!    An obligation at level 0 is an initial state: the domain checks the
//!    chain (bit level: always a trace; predicates: a trace, or spurious
//!    and refined away).
//! 2. *extend* with F_{k+1} and *propagate* lemmas (`propagate.rs`); an
//!    emptied level proves the property, and the lemmas above it are the
//!    inductive invariant.
//!
//! Invariant constraints C hold on the current state of every query (they
//! are unit clauses in the frame solvers) and are part of every lifting
//! target, so each transition of a trace satisfies them.
//!
//! Lemmas of the top level that are inductive together with the infinite
//! frame move there after each propagation (`propagate.rs`).
//!
//! Limitations, roughly by significance: counterexamples to propagation
//! serve only lemma prediction, which is off (it did not pay); literal
//! order in MIC by a simple activity count (with the parent lemma's
//! literals last); with CaDiCaL or MiniSat, one solver per frame rebuilt when dead activation
//! clauses pile up (invar's own core removes temporary clauses instead).

mod bit;
mod cube;
pub mod domain;
pub mod exchange;
mod frames;
mod generalize;
mod obligation;
mod propagate;

pub use bit::BitLevel;
pub use cube::{Cube, StateLit};
pub use domain::{Consecution, Counterexample, Domain, Lift, Model, Step, Target, Want};
pub use frames::Frames;
pub use generalize::Generalization;

use super::{interrupted_reason, Limits, Outcome, Proof, Stats, Verdict};
use crate::ir::aig::Aig;
use crate::sat::SatStats;
use obligation::{Obligation, ObligationQueue};
use std::time::{Duration, Instant};

/// Options of IC3 (defaults from ic3ref, but MIC tries every literal and
/// keeps the parent lemma's last: see `generalize.rs`).
#[derive(Clone, Debug)]
pub struct Ic3Options {
    /// Shared limits; `max_depth` bounds the number of frames.
    pub limits: Limits,
    /// How much effort inductive generalization spends (`generalize.rs`).
    pub generalization: Generalization,
    /// Consecutive failed literal drops before MIC gives up (`usize::MAX`:
    /// every literal is tried).
    pub mic_attempts: usize,
    /// Move self-inductive top-level lemmas to an infinite frame.
    pub infinite_frame: bool,
    /// Propagate only from the lowest level changed since the last round.
    pub skip_unchanged_levels: bool,
    /// One solver for all frames, each level's lemmas under an activation
    /// literal, instead of one solver per frame (measured:
    /// docs/decisions/ic3-solvers-one-per-frame-delta-encoded-lemmas-explicit.md).
    pub shared_solver: bool,
    /// Keep obligations blocked at the top level for the next frame
    /// (`strengthen`).
    pub keep_obligations: bool,
    /// Keep one solver domain (the cube's cone) for all the queries of one
    /// generalization (GipSAT); only backends with domains use it.
    pub pin_domain: bool,
    /// Drop the latches a predecessor's model does not need before lifting
    /// it by SAT (lifting from the trail; backends that support it).
    pub lift_from_model: bool,
    /// Lift obligations' predecessors again under other orders while that
    /// shrinks them.
    pub relift: bool,
    /// Try to drop the literals of the parent lemma (a lemma one level
    /// down that excludes the cube) last, so the new lemma tends to extend
    /// a lemma that held one level below.
    pub parent_lemma: bool,
    /// Before MIC, try the parent lemma plus one literal that its
    /// counterexample to propagation falsifies (`generalize.rs`); off by
    /// default: measured within the noise
    /// (docs/decisions/lemma-prediction-measured-off.md).
    pub predict: bool,
    /// Which failed pushes block counterexamples to propagation
    /// (`propagate.rs`); off by default, on in `auto`'s second IC3
    /// (measured: docs/decisions/counterexamples-to-propagation-measured-off.md).
    pub ctp: Ctp,
    /// Keep, for each lemma that failed to push, the state that stopped it,
    /// and answer its next push without a query while no lemma added since
    /// excludes that state (`propagate.rs`).
    pub push_witnesses: bool,
    /// Lemmas shared with other searches of the same circuit
    /// (`exchange.rs`): this search publishes its lemmas there and takes
    /// the others' after its own check.
    pub exchange: Option<exchange::Exchange>,
}

/// Counterexamples to propagation: on which lemmas they are looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctp {
    /// None.
    Off,
    /// Lemmas that already failed to push from their level in an earlier
    /// round: a lemma that fails once often moves later on its own.
    Stuck,
    /// Every lemma that fails to push.
    Every,
}

impl Default for Ic3Options {
    fn default() -> Self {
        Ic3Options {
            limits: Limits::default(),
            generalization: Generalization::Ctg {
                max_ctgs: 3,
                max_depth: 1,
            },
            mic_attempts: usize::MAX,
            infinite_frame: true,
            skip_unchanged_levels: true,
            shared_solver: false,
            keep_obligations: true,
            pin_domain: true,
            lift_from_model: true,
            relift: true,
            parent_lemma: true,
            predict: false,
            ctp: Ctp::Off,
            push_witnesses: false,
            exchange: None,
        }
    }
}

/// Counters of an IC3 run.
#[derive(Clone, Debug, Default)]
pub struct Ic3Stats {
    /// Frames opened (k).
    pub frames: usize,
    /// Proof obligations created.
    pub obligations: u64,
    /// Relative-induction queries.
    pub relative_induction: u64,
    /// Lifting queries.
    pub lifts: u64,
    /// Liftings that had to retry with every latch.
    pub lift_fallbacks: u64,
    /// Lemmas added by blocking (propagation not counted).
    pub lemmas: u64,
    /// Literals removed by generalization.
    pub literals_dropped: u64,
    /// Literals of the obligations' cubes, summed (with `obligations`: their
    /// average size after lifting).
    pub obligation_literals: u64,
    /// Literals of the cores generalization starts from, summed (one per
    /// blocked obligation, `lemmas` of them).
    pub core_literals: u64,
    /// Literals of the lemmas added by blocking, summed.
    pub lemma_literals: u64,
    /// Lemma predictions tried (generalizations with a parent lemma).
    pub predictions_tried: u64,
    /// Predictions that gave a lemma (MIC then starts from it).
    pub predictions_made: u64,
    /// Counterexamples to generalization blocked.
    pub ctgs: u64,
    /// Candidates refuted by a recorded predecessor, without a SAT call.
    pub refutation_hits: u64,
    /// Lemmas pushed to a higher level.
    pub propagated: u64,
    /// Counterexamples to propagation blocked.
    pub ctps: u64,
    /// Failed pushes answered by a kept witness, without a query.
    pub push_witness_hits: u64,
    /// Lemmas moved to the infinite frame.
    pub to_infinite: u64,
    /// Lemmas removed as subsumed.
    pub subsumed: u64,
    /// Frame solvers rebuilt.
    pub rebuilds: u64,
    /// SAT calls of rebuilt solvers (the live ones are added at the end).
    pub sat: SatStats,
    /// Time in relative-induction queries.
    pub time_relative_induction: Duration,
    /// Time in lifting.
    pub time_lift: Duration,
    /// Time in generalization (includes its queries).
    pub time_generalize: Duration,
    /// Time in propagation (includes its queries and `time_infinite`).
    pub time_propagate: Duration,
    /// Time in finding the top level's lemmas that join the infinite frame.
    pub time_infinite: Duration,
    /// Lemmas of other searches taken (`exchange.rs`), and dropped because
    /// this search's frames did not make them inductive.
    pub imported: u64,
    pub import_rejected: u64,
}

/// The budget ran out in a query.
#[derive(Debug)]
pub struct Interrupted;

/// The IC3 engine state: frames and obligations over the atoms of domain `D`.
pub struct Ic3<D: Domain> {
    domain: D,
    options: Ic3Options,
    frames: Frames,
    queue: ObligationQueue,
    /// Per atom: how many lemmas it occurred in (grows with the domain).
    activity: Vec<f64>,
    /// Lemmas that failed to push from their level and have not moved
    /// since ([`Ctp::Stuck`]).
    stuck: std::collections::HashSet<Cube>,
    /// Per lemma that failed to push: the state that stopped it
    /// ([`Ic3Options::push_witnesses`]).
    witnesses: std::collections::HashMap<Cube, propagate::PushWitness>,
    /// The lemmas added (with their level) since the oldest witness's
    /// query, which may exclude a witness's state.
    added: Vec<(usize, Cube)>,
    /// How many entries left the front of `added`.
    added_dropped: u64,
    /// Where this search stands in the shared lemmas (`exchange.rs`), and
    /// when it last looked.
    exchange_cursor: usize,
    exchange_checked: Instant,
    stats: Ic3Stats,
}

/// What one search found.
pub enum Found<T> {
    /// A real counterexample.
    Trace(T),
    /// An inductive invariant: the negations of these cubes (which
    /// exclude the bad states).
    Proof(Vec<Cube>),
}

impl<'a> Ic3<BitLevel<'a>> {
    /// An engine for `aig` (single bad property `aig.bad[0]`).
    pub fn new(aig: &'a Aig, options: Ic3Options) -> Ic3<BitLevel<'a>> {
        Ic3::with_domain(BitLevel::new(aig, &options), options)
    }

    /// An engine whose frames already hold `lemmas` (each with its level),
    /// for measuring queries on given frames with different backends.
    pub fn with_lemmas(
        aig: &'a Aig,
        options: Ic3Options,
        lemmas: &[(usize, Cube)],
    ) -> Ic3<BitLevel<'a>> {
        let mut ic3 = Ic3::new(aig, options);
        for (level, cube) in lemmas {
            while ic3.frames.top() < *level {
                ic3.extend();
            }
            ic3.add_lemma(cube.clone(), *level);
        }
        ic3
    }

    /// Runs until a proof, a counterexample, the frame bound or the budget.
    pub fn run(&mut self) -> Verdict {
        match self.search() {
            Ok(Some(Found::Trace(t))) => Verdict::Unsafe(t),
            Ok(Some(Found::Proof(cubes))) => Verdict::Safe(Proof::Invariant(
                cubes
                    .iter()
                    .map(|c| c.lits().iter().map(|l| (l.latch(), l.value())).collect())
                    .collect(),
            )),
            Ok(None) => Verdict::Unknown(format!("no proof within {} frames", self.frames.top())),
            Err(Interrupted) => Verdict::Unknown(interrupted_reason(&self.options.limits.budget)),
        }
    }
}

impl<D: Domain> Ic3<D> {
    /// An engine over `domain`, whose solvers hold F_0 and an empty F_1.
    pub fn with_domain(domain: D, options: Ic3Options) -> Ic3<D> {
        Ic3 {
            activity: vec![0.0; domain.atoms()],
            domain,
            options,
            frames: Frames::new(),
            queue: ObligationQueue::default(),
            stuck: Default::default(),
            witnesses: Default::default(),
            added: Vec::new(),
            added_dropped: 0,
            exchange_cursor: 0,
            exchange_checked: Instant::now(),
            stats: Ic3Stats::default(),
        }
    }

    /// The domain.
    pub fn domain(&self) -> &D {
        &self.domain
    }

    /// The domain, mutably (to add atoms between searches).
    pub fn domain_mut(&mut self) -> &mut D {
        &mut self.domain
    }

    /// Searches until a proof, a real counterexample, the frame bound
    /// (`Ok(None)`) or the budget.
    pub fn search(&mut self) -> Result<Option<Found<D::Trace>>, Interrupted> {
        // A bad initial state is a counterexample of one step.
        while let Some((cube, inputs)) = self.bad_state(0)? {
            let chain = [Step {
                cube: &cube,
                inputs: &inputs,
            }];
            if let Counterexample::Real(t) = self.domain.counterexample(&chain)? {
                return Ok(Some(Found::Trace(t)));
            }
        }
        loop {
            let k = self.frames.top();
            self.stats.frames = k;
            self.import()?;
            if let Some(trace) = self.strengthen(k)? {
                return Ok(Some(Found::Trace(trace)));
            }
            if self.options.limits.max_depth.is_some_and(|m| k >= m) {
                return Ok(None);
            }
            self.extend();
            if let Some(level) = self.propagate()? {
                return Ok(Some(Found::Proof(self.frames.lemmas_from(level + 1))));
            }
        }
    }

    /// Opens frame k+1.
    fn extend(&mut self) {
        self.frames.extend();
        self.domain.add_level(self.frames.top(), &self.frames);
    }

    /// Keeps the activity vector as long as the domain's atoms.
    fn grow_activity(&mut self) {
        let n = self.domain.atoms();
        if self.activity.len() < n {
            self.activity.resize(n, 0.0);
        }
    }

    fn bad_state(&mut self, level: usize) -> Result<Option<(Cube, Vec<bool>)>, Interrupted> {
        self.grow_activity();
        self.domain.bad_state(level, &self.activity)
    }

    /// Blocks every bad state of F_k; returns a trace if one cannot be blocked.
    ///
    /// With `keep_obligations`, obligations blocked at the top level wait
    /// one level up for the next frame instead of being dropped, and are
    /// handled there before new bad states are asked for (as rIC3 does):
    /// a chain that could not reach Init within k steps is extended from
    /// where it stood rather than found again from the bad states.
    fn strengthen(&mut self, k: usize) -> Result<Option<D::Trace>, Interrupted> {
        self.queue.compact();
        loop {
            if let Some(trace) = self.handle_obligations(k)? {
                return Ok(Some(trace));
            }
            let Some((cube, inputs)) = self.bad_state(k)? else {
                return Ok(None);
            };
            if !self.options.keep_obligations {
                // Nothing is open: drop the settled chains.
                self.queue.clear();
            }
            self.open_obligation(Obligation {
                cube,
                level: k,
                depth: 0,
                successor: None,
                inputs,
                activity: 0.0,
            });
        }
    }

    /// Queues a new obligation, counting it.
    fn open_obligation(&mut self, obligation: Obligation) {
        self.stats.obligations += 1;
        self.stats.obligation_literals += obligation.cube.len() as u64;
        self.queue.push(obligation);
    }

    /// Re-opens obligation `id` at `level`, or drops it: above the top
    /// level k unless obligations are kept, and when the infinite frame
    /// excludes it (`level` is then `usize::MAX`).
    fn reopen(&mut self, id: usize, level: usize, k: usize) {
        if level <= k || (self.options.keep_obligations && level != usize::MAX) {
            self.queue.reopen(id, level);
        }
    }

    fn handle_obligations(&mut self, k: usize) -> Result<Option<D::Trace>, Interrupted> {
        loop {
            if self.options.exchange.is_some() && self.exchange_checked.elapsed() >= IMPORT_INTERVAL
            {
                self.import()?;
            }
            let Some(id) = self.queue.pop_upto(k) else {
                break;
            };
            let (level, cube) = {
                let ob = self.queue.get(id);
                (ob.level, ob.cube.clone())
            };
            // A cube with an initial state starts a chain as a level-0 one
            // does (with predicates, a predecessor's valuation can meet Init
            // above level 0; bit-level cubes never do).
            if level == 0 || self.domain.intersects_init(&cube)? {
                match self.counterexample_from(id)? {
                    Counterexample::Real(t) => return Ok(Some(t)),
                    // The domain refined itself: the obligations may no
                    // longer exist; `strengthen` asks for bad states anew.
                    Counterexample::Spurious => {
                        self.queue.clear();
                        return Ok(None);
                    }
                }
            }
            // Already excluded: it moves up past the lemma that excludes it
            // (one scan instead of one per level).
            if let Some(upto) = self.frames.blocked_up_to(&cube, level) {
                self.reopen(id, upto.saturating_add(1), k);
                continue;
            }
            self.queue.bump(id);
            match self.relative_induction(&cube, level, Want::LIFTABLE)? {
                Consecution::Inductive(core) => {
                    let activity = self.queue.successor_activity(id);
                    self.stats.core_literals += core.len() as u64;
                    let lemma = self.generalize(core, level, activity)?;
                    let at = self.push_forward(lemma, level)?;
                    self.reopen(id, at + 1, k);
                }
                Consecution::Predecessor(model) => {
                    let pred = self.lift(&model, Target::Cube(&cube), true)?;
                    let inputs = model.inputs;
                    let depth = self.queue.get(id).depth + 1;
                    self.queue.reopen(id, level);
                    self.open_obligation(Obligation {
                        cube: pred,
                        level: level - 1,
                        depth,
                        successor: Some(id),
                        inputs,
                        activity: 0.0,
                    });
                }
            }
        }
        Ok(None)
    }

    /// Is `cube` (which excludes Init) inductive relative to F_{level-1}?
    pub fn relative_induction(
        &mut self,
        cube: &Cube,
        level: usize,
        want: Want,
    ) -> Result<Consecution, Interrupted> {
        let start = Instant::now();
        self.stats.relative_induction += 1;
        let answer =
            (self.domain).relative_induction(cube, level, want, &self.activity, &self.frames);
        self.stats.time_relative_induction += start.elapsed();
        answer
    }

    /// Lifts a predecessor to a cube that reaches `target`.
    fn lift(&mut self, model: &Model, target: Target, thorough: bool) -> Result<Cube, Interrupted> {
        let start = Instant::now();
        self.stats.lifts += 1;
        let cube = self.domain.lift(model, target, &self.activity, thorough);
        self.stats.time_lift += start.elapsed();
        cube
    }

    /// The highest level up to k at which `cube`, inductive at `level`, stays
    /// inductive, with the cube reduced by the cores found on the way.
    fn highest_inductive_level(
        &mut self,
        mut cube: Cube,
        mut level: usize,
    ) -> Result<(Cube, usize), Interrupted> {
        while level < self.frames.top() {
            match self.relative_induction(&cube, level + 1, Want::NOTHING)? {
                Consecution::Inductive(core) => {
                    cube = core;
                    level += 1;
                }
                Consecution::Predecessor(_) => break,
            }
        }
        Ok((cube, level))
    }

    /// Adds `lemma` at the highest level up to k where it stays inductive;
    /// returns that level.
    fn push_forward(&mut self, lemma: Cube, level: usize) -> Result<usize, Interrupted> {
        let (lemma, level) = self.highest_inductive_level(lemma, level)?;
        self.stats.lemmas += 1;
        self.stats.lemma_literals += lemma.len() as u64;
        for l in lemma.lits() {
            self.activity[l.latch()] += 1.0;
        }
        self.publish(level, &lemma);
        self.add_lemma(lemma, level);
        Ok(level)
    }

    /// Records lemma `¬cube` at `level` in the frames and the domain.
    fn add_lemma(&mut self, cube: Cube, level: usize) {
        self.domain.add_lemma(&cube, level);
        if !self.witnesses.is_empty() {
            self.added.push((level, cube.clone()));
        }
        self.stats.subsumed += self.frames.add(cube, level) as u64;
    }

    /// Takes the lemmas other searches published since the last look
    /// (`exchange.rs`), each only if this search's own query at the level
    /// it would go to (the source's level, at most k) finds it inductive
    /// there; it then goes as high as it stays inductive, as a lemma of
    /// blocking does.
    fn import(&mut self) -> Result<(), Interrupted> {
        self.exchange_checked = Instant::now();
        let Some(exchange) = &self.options.exchange else {
            return Ok(());
        };
        if !exchange.pending(self.exchange_cursor) {
            return Ok(());
        }
        let (fresh, cursor) = exchange.since(self.exchange_cursor);
        self.exchange_cursor = cursor;
        self.take_lemmas(fresh)
    }

    /// Offers a lemma this search found by blocking to the other searches
    /// (lemmas it pushes later are not offered again: each search pushes
    /// what it takes).
    pub(super) fn publish(&self, level: usize, cube: &Cube) {
        if let Some(exchange) = &self.options.exchange {
            exchange.publish(level, cube);
        }
    }

    fn take_lemmas(&mut self, lemmas: Vec<(usize, Cube)>) -> Result<(), Interrupted> {
        for (level, cube) in lemmas {
            let level = level.min(self.frames.top());
            if level == 0 || self.domain.intersects_init(&cube)? || self.frames.blocks(&cube, level)
            {
                continue;
            }
            match self.relative_induction(&cube, level, Want::NOTHING)? {
                Consecution::Inductive(core) => {
                    self.stats.imported += 1;
                    let (lemma, at) = self.highest_inductive_level(core, level)?;
                    self.add_lemma(lemma, at);
                }
                Consecution::Predecessor(_) => self.stats.import_rejected += 1,
            }
        }
        Ok(())
    }

    /// Follows successor links from a level-0 obligation to the bad state
    /// and asks the domain what the chain is.
    fn counterexample_from(
        &mut self,
        mut id: usize,
    ) -> Result<Counterexample<D::Trace>, Interrupted> {
        let mut ids = Vec::new();
        loop {
            ids.push(id);
            match self.queue.get(id).successor {
                Some(next) => id = next,
                None => break,
            }
        }
        let chain: Vec<Step> = (ids.iter())
            .map(|&i| {
                let ob = self.queue.get(i);
                Step {
                    cube: &ob.cube,
                    inputs: &ob.inputs,
                }
            })
            .collect();
        let answer = self.domain.counterexample(&chain);
        self.grow_activity();
        answer
    }

    /// The counters, with the domain's added.
    pub fn stats(&self) -> Ic3Stats {
        let mut stats = self.stats.clone();
        self.domain.add_stats(&mut stats);
        stats.frames = self.frames.top();
        stats
    }

    /// The lemmas of every level from 1 up, with their level.
    pub fn lemmas(&self) -> Vec<(usize, Cube)> {
        (1..=self.frames.top())
            .flat_map(|l| self.frames.at(l).iter().map(move |c| (l, c.clone())))
            .collect()
    }

    /// The highest frame.
    pub fn top(&self) -> usize {
        self.frames.top()
    }

    /// Number of lemmas per level.
    pub fn frame_sizes(&self) -> Vec<usize> {
        self.frames.sizes()
    }
}

/// How often a search looks for lemmas of other searches while it blocks
/// obligations (and at each new frame).
const IMPORT_INTERVAL: Duration = Duration::from_millis(20);

/// Runs IC3 on `aig` and reports the outcome.
pub fn check(aig: &Aig, options: &Ic3Options) -> Outcome {
    if let Some(outcome) =
        crate::engines::sabotaged_outcome(crate::engines::EngineId::Ic3, options.limits.backend)
    {
        return outcome;
    }
    let start = Instant::now();
    let mut ic3 = Ic3::new(aig, options.clone());
    let verdict = ic3.run();
    let s = ic3.stats();
    let outcome = Outcome {
        verdict,
        // The configuration without CTGs is named apart: `auto` runs both.
        engine: match options.generalization {
            Generalization::Down => crate::engines::EngineId::Ic3Down,
            _ => crate::engines::EngineId::Ic3,
        },
        backend: options.limits.backend,
        stats: Stats {
            depth: s.frames,
            sat: s.sat.clone(),
            time: start.elapsed(),
            ic3: Some(s),
            abstraction: None,
            program: None,
        },
    };
    crate::engines::sabotage(aig, outcome)
}
