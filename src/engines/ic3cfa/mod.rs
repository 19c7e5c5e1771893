//! IC3CFA: IC3 on the control-flow automaton.
//!
//! Lange, Neuhäußer, Noll, "IC3 Software Model Checking on Control Flow
//! Automata", FMCAD 2015; the generalization of Lange, Neuhäußer, Noll,
//! Katoen, "Generalization for IC3CFA" (the paper and the thesis in
//! `../shared/papers`). Instead of one transition relation with the
//! program counter as a variable, frames are kept per location and every
//! query follows one edge:
//!
//! - **Frames.** F(i, l) is a conjunction of lemmas (negated cubes over
//!   Bool terms of the program variables) per location; a lemma at level k
//!   belongs to F(1..k). F(0, init) is every state (C variables start
//!   arbitrary), F(0, l) is empty elsewhere, so no cube at another location
//!   meets the initial states and generalization may drop every literal.
//! - **Edge-relative induction, WP form** (Def. 7): a cube c at l' is
//!   blocked at level i when, for every incoming edge (l, C, l') and every
//!   choice-free path p of C ([`path`]), F(i-1, l) ∧ wp(p, c) is
//!   unsatisfiable, over unprimed variables only. On a self-loop the query
//!   also assumes ¬c, as IC3's relative induction does (sound because the
//!   lemma is added to every frame the query's frame contains).
//! - **Predecessors** are WP cubes: the guard of the path and the literals
//!   of c under its substitution, havoc variables replaced by the model's
//!   values. An obligation reaching the initial location is a real path;
//!   its concrete trace comes from BMC on the encoded system along the
//!   obligations' locations (one query of known depth).
//! - **Predecessor cubes** (Lemma 2, option `predecessor_cubes`): if a
//!   lemma of F(i-1, l) is a subset of wp(p, c), the query is unsat without
//!   the solver, and the literals of c whose images it uses are a core.
//! - **Generalization**: the union of the paths' cores (each from the
//!   failed assumptions, one per literal's image), then dropping literals
//!   one at a time while all incoming edges still block.
//! - **Affine equalities** (option `affine`): Karr's equalities of each
//!   location (`ir::cfa::affine`) belong to all its frames, and `false` to
//!   those of locations no path of edges reaches; they give relations such
//!   as `k + j = i` that no WP literal names.
//! - **Propagation** per location and level; F(k) = F(k+1) everywhere
//!   ends the run with one invariant per location, returned as the
//!   invariant of the encoded system `¬valid ∨ ⋀ (pc = l ⇒ inv_l)`
//!   (`ir::cfa::encode`), which the pipeline checks independently.
//!
//! - **Merged edges**: an edge with more than [`MAX_PATHS`] choice-free
//!   paths (or every edge, with `split` off) stays one path whose choices
//!   are decided by selector variables ([`path::merged`]).
//!
//! Limitations: the generalization contexts, interpolation and CTGs of the
//! thesis are not implemented.

pub mod path;
pub mod seeds;

use crate::engines::{InvariantVerdict, WordInvariant};
use crate::ir::bv::BvValue;
use crate::ir::cfa::{Cfa, Loc};
use crate::ir::term::eval::Value;
use crate::ir::term::normalize::{self, Normalizer};
use crate::ir::term::{Op, Term, Terms};
use crate::ir::ts::Ts;
use crate::smt::unfold::Unfolding;
use crate::smt::{self, SmtResult, SmtSolver};
use crate::util::budget::Budget;
use path::{literals, Path};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::time::{Duration, Instant};

/// Choice-free paths an edge may have before it is kept whole instead.
pub const MAX_PATHS: usize = 4096;

/// Push/pop scopes a location's solver may close before it is rebuilt (the
/// in-house solver keeps a closed scope's clauses, disabled).
const REBUILD_AFTER: usize = 2000;

/// The improvements over the paper's IC3CFA, each on by default and
/// switchable for measurement (`verify::Tuning`).
#[derive(Clone, Copy, Debug)]
pub struct Ic3CfaOptions {
    /// Split (Def. 6): an edge's choices become parallel edges, one per
    /// choice-free path, so that a WP of a cube is a cube a lemma can be
    /// matched against. Off, or beyond [`MAX_PATHS`] paths, an edge stays
    /// whole with selectors ([`path::merged`]).
    pub split: bool,
    /// Lemma 2: a lemma of the predecessor frame inside the WP decides a
    /// query without the solver.
    pub predecessor_cubes: bool,
    /// Drop literals after the cores (IC3's `down` without CTGs).
    pub drop_literals: bool,
    /// Weaken a lemma's `x = c` over bit-vectors to the fewest low bits of
    /// `x` that keep it blocked (`x mod 2^k = c mod 2^k`).
    pub low_bits: bool,
    /// Add the affine equalities of each location (Karr's analysis,
    /// `ir::cfa::affine`) to all its frames: relations such as `k + j = i`
    /// between counters that no WP literal names.
    pub affine: bool,
    /// Add the candidate invariants that Houdini keeps ([`seeds`]): the
    /// atoms of the program's conditions and their negations.
    pub seeds: bool,
}

impl Default for Ic3CfaOptions {
    fn default() -> Self {
        Ic3CfaOptions {
            split: true,
            predecessor_cubes: true,
            drop_literals: true,
            low_bits: true,
            affine: true,
            seeds: true,
        }
    }
}

/// Counters of a run.
#[derive(Clone, Debug, Default)]
pub struct CfaStats {
    /// The highest frame.
    pub frames: usize,
    /// Lemmas learnt (before propagation).
    pub lemmas: u64,
    /// Obligations handled.
    pub obligations: u64,
    /// SMT checks (Houdini's included).
    pub checks: u64,
    /// Queries a predecessor cube decided without the solver.
    pub syntactic: u64,
    /// Affine equalities added to the frames (all locations).
    pub equalities: u64,
    /// Candidate invariants that survived Houdini ([`seeds`]), all
    /// locations.
    pub seeds: u64,
    /// SMT checks Houdini made.
    pub seed_checks: u64,
    /// Edges kept whole, their choices decided by selectors
    /// ([`path::merged`]): all of them without `split`, else those with
    /// more than [`MAX_PATHS`] choice-free paths.
    pub merged: u64,
    /// Time in SMT checks.
    pub smt_time: Duration,
}

/// The run stopped (time, an external stop, or the solver gave up).
struct Interrupted(String);

struct EdgeInfo {
    from: usize,
    to: usize,
    paths: Vec<Path>,
}

struct Lemma {
    cube: Vec<Term>,
    level: usize,
}

struct Obligation {
    loc: usize,
    level: usize,
    cube: Vec<Term>,
    /// The obligation this one steps into, by `edge`.
    parent: Option<usize>,
    edge: usize,
    depth: usize,
}

struct LocSolver {
    smt: Box<dyn SmtSolver>,
    scopes: usize,
}

/// What the solver said to a query, read before its scope closed.
enum Raw {
    /// Unsat: the literals of the cube whose images were in the core.
    Core(Vec<Term>),
    /// Sat: the values of the path's havoc variables.
    Model(Vec<(Term, Value)>),
}

/// Whether a cube is blocked at a location.
enum Blocking {
    /// Yes; the literals the proof needed.
    Blocked(Vec<Term>),
    /// No: a predecessor cube, at the source of `edge`.
    Predecessor { edge: usize, cube: Vec<Term> },
}

/// A query's answer.
enum Query {
    /// Unsat; the literals of the cube it needed.
    Blocked(Vec<Term>),
    /// A predecessor cube at the edge's source.
    Predecessor(Vec<Term>),
}

struct Engine<'a> {
    terms: Terms,
    ts: &'a Ts,
    locs: Vec<Loc>,
    init: usize,
    error: usize,
    edges: Vec<EdgeInfo>,
    incoming: Vec<Vec<usize>>,
    lemmas: Vec<Vec<Lemma>>,
    solvers: Vec<Option<LocSolver>>,
    /// One activation variable per level.
    acts: Vec<Term>,
    norm: Normalizer,
    options: Ic3CfaOptions,
    backend: smt::Backend,
    budget: Budget,
    stats: CfaStats,
    top: usize,
    /// Checks of solvers already dropped (rebuilt).
    old_checks: u64,
    /// For each term `t`, every k a lemma's literal `t = c` was weakened to
    /// (`t[k-1:0] = c[k-1:0]`): the only low-bit literals
    /// [`Engine::implied`] needs to build.
    low_bit_lemmas: HashMap<Term, Vec<u32>>,
    /// Per location: facts that hold at every reachable state (the affine
    /// equalities, then Houdini's seeds)
    /// there, part of every frame but the initial location's F(0).
    facts: Vec<Vec<Term>>,
}

/// The literals of `cube` whose images along a path (`images`, in the same
/// order) are in `needed`.
fn whose_images(cube: &[Term], images: &[Term], needed: &HashSet<Term>) -> Vec<Term> {
    (cube.iter().zip(images))
        .filter(|(_, i)| needed.contains(i))
        .map(|(&c, _)| c)
        .collect()
}

/// Runs IC3CFA on `cfa`, whose encoding (`ir::cfa::encode`) is `ts`.
pub fn check(
    cfa: &Cfa,
    ts: &Ts,
    options: Ic3CfaOptions,
    backend: smt::Backend,
    budget: &Budget,
    progress: &mut dyn FnMut(&str),
) -> (InvariantVerdict, CfaStats) {
    if crate::engines::sabotaged_unknown() {
        return (
            InvariantVerdict::Unknown("sabotaged".into()),
            CfaStats::default(),
        );
    }
    if let Some(invariant) = error_unreachable(cfa, ts) {
        progress("no path of edges reaches the error location: proved");
        return (InvariantVerdict::Safe(invariant), CfaStats::default());
    }
    let mut engine = match Engine::new(cfa, ts, options, backend, budget) {
        Ok(e) => e,
        Err(reason) => return (InvariantVerdict::Unknown(reason), CfaStats::default()),
    };
    let verdict = match engine.run(progress) {
        Ok(v) => v,
        Err(Interrupted(reason)) => InvariantVerdict::Unknown(reason),
    };
    // Houdini's checks count too: they are SMT checks of this run.
    engine.stats.checks = engine.stats.seed_checks
        + engine.old_checks
        + (engine.solvers.iter().flatten())
            .map(|s| s.smt.stats().checks)
            .sum::<u64>();
    (verdict, engine.stats)
}

/// When no path of edges leads from the start to the error location (a
/// program whose property has nothing to check, such as memory safety
/// without memory), the invariant that the locations no path reaches are
/// never current: no search, and an invariant whose check reads only the
/// program counter (the engine's own would carry every location's facts).
fn error_unreachable(cfa: &Cfa, ts: &Ts) -> Option<WordInvariant> {
    let mut reached = HashSet::from([cfa.init]);
    let mut queue = vec![cfa.init];
    while let Some(at) = queue.pop() {
        for e in cfa.edges.iter().filter(|e| e.from == at) {
            if reached.insert(e.to) {
                queue.push(e.to);
            }
        }
    }
    if reached.contains(&cfa.error) {
        return None;
    }
    let mut terms = ts.terms.clone();
    let (pc, valid) = (ts.states[0].var, ts.states[1].var);
    let width = terms.sort(pc).bv_width().expect("pc is a bit-vector");
    let index = crate::ir::cfa::encode::pc_numbers(cfa);
    let mut never = Vec::new();
    for l in cfa.live_locations() {
        if !reached.contains(&l) {
            let k = terms.bv(BvValue::from_u64(width, index[&l] as u64));
            let at = terms.eq(pc, k);
            never.push(terms.not(at));
        }
    }
    let lemmas = never.len();
    let idle = terms.not(valid);
    let elsewhere = terms.and_all(&never);
    let invariant = terms.or_all(&[idle, elsewhere]);
    Some(WordInvariant {
        store: Box::new(terms),
        invariant,
        lemmas,
    })
}

impl<'a> Engine<'a> {
    fn new(
        cfa: &'a Cfa,
        ts: &'a Ts,
        options: Ic3CfaOptions,
        backend: smt::Backend,
        budget: &Budget,
    ) -> Result<Engine<'a>, String> {
        let mut terms = ts.terms.clone();
        let locs = cfa.live_locations();
        let index = crate::ir::cfa::encode::pc_numbers(cfa);
        let mut norm = Normalizer::default();
        let mut edges = Vec::new();
        let mut incoming = vec![Vec::new(); locs.len()];
        let mut fresh = 0usize;
        let mut merged = 0u64;
        for e in &cfa.edges {
            let mut name = |terms: &mut Terms, x: Term| {
                let sort = terms.sort(x).clone();
                let base = terms.var_name(x).unwrap_or("v").to_string();
                fresh += 1;
                terms.var(&format!("ic3cfa.havoc!{fresh}!{base}"), sort)
            };
            let split = match options.split {
                true => path::paths(&mut terms, &mut norm, &e.command, MAX_PATHS, &mut name),
                false => None,
            };
            let paths = split.unwrap_or_else(|| {
                merged += 1;
                vec![path::merged(&mut terms, &mut norm, &e.command, &mut name)]
            });
            let paths: Vec<Path> = paths.into_iter().filter(|p| !p.infeasible).collect();
            incoming[index[&e.to]].push(edges.len());
            edges.push(EdgeInfo {
                from: index[&e.from],
                to: index[&e.to],
                paths,
            });
        }
        let n = locs.len();
        let mut facts = vec![Vec::new(); n];
        let mut count = 0;
        if options.affine {
            let found = crate::ir::cfa::affine::analyse_cfa(cfa);
            for (i, l) in locs.iter().enumerate() {
                let l = l.0 as usize;
                // A location no path of edges reaches holds no state: its
                // invariant is `false` (without it, an edge from it into a
                // location with equalities breaks consecution).
                if !found.reachable[l] {
                    facts[i].push(terms.bool(false));
                    count += 1;
                    continue;
                }
                for e in &found.equalities[l] {
                    let t = e.term(&mut terms);
                    facts[i].push(norm.normalize(&mut terms, t));
                    count += 1;
                }
            }
        }
        let mut seeded = 0;
        let mut seed_checks = 0;
        if options.seeds {
            let proposed =
                seeds::candidates(&mut terms, &mut norm, cfa.edges.iter().map(|e| &e.command));
            let init = index[&cfa.init];
            let (found, checks) = seeds::houdini(
                &mut terms, &mut norm, &edges, n, init, &facts, &proposed, backend, budget,
            );
            seed_checks = checks;
            for (l, kept) in found.into_iter().flatten().enumerate() {
                seeded += kept.len() as u64;
                facts[l].extend(kept);
            }
        }
        let stats = CfaStats {
            equalities: count,
            seeds: seeded,
            seed_checks,
            merged,
            ..CfaStats::default()
        };
        Ok(Engine {
            terms,
            ts,
            init: index[&cfa.init],
            error: index[&cfa.error],
            locs,
            edges,
            incoming,
            lemmas: (0..n).map(|_| Vec::new()).collect(),
            solvers: (0..n).map(|_| None).collect(),
            acts: Vec::new(),
            norm,
            options,
            backend,
            budget: budget.clone(),
            stats,
            top: 0,
            old_checks: 0,
            low_bit_lemmas: HashMap::new(),
            facts,
        })
    }

    fn check_budget(&self) -> Result<(), Interrupted> {
        if self.budget.expired() {
            Err(Interrupted(self.budget.reason().to_string()))
        } else {
            Ok(())
        }
    }

    fn act(&mut self, level: usize) -> Term {
        while self.acts.len() <= level {
            let name = format!("ic3cfa.level!{}", self.acts.len());
            let t = self.terms.var(&name, crate::ir::term::Sort::Bool);
            self.acts.push(t);
        }
        self.acts[level]
    }

    /// `¬cube` as a term.
    fn clause(&mut self, cube: &[Term]) -> Term {
        let negated: Vec<Term> = cube.iter().map(|&l| self.terms.not(l)).collect();
        self.terms.or_all(&negated)
    }

    /// The solver of location `l`, built with its lemmas when missing or
    /// worn out.
    fn solver(&mut self, l: usize) -> Result<&mut LocSolver, Interrupted> {
        let stale = match &self.solvers[l] {
            None => true,
            Some(s) => s.scopes >= REBUILD_AFTER,
        };
        if stale {
            if let Some(old) = self.solvers[l].take() {
                self.old_checks += old.smt.stats().checks;
            }
            let mut smt = self
                .backend
                .start(&self.budget)
                .map_err(|e| Interrupted(format!("cannot start the SMT solver ({e})")))?;
            let lemmas: Vec<(Vec<Term>, usize)> = (self.lemmas[l].iter())
                .map(|m| (m.cube.clone(), m.level))
                .collect();
            for (cube, level) in lemmas {
                let guarded = self.guarded(&cube, level);
                smt.assert(&self.terms, guarded);
            }
            // Invariants of the location: in every frame. (At the initial
            // location, the level-0 query asks about every state; neither
            // Karr's analysis nor Houdini puts a fact there, since C
            // variables start with any value.)
            for &e in &self.facts[l] {
                smt.assert(&self.terms, e);
            }
            self.solvers[l] = Some(LocSolver { smt, scopes: 0 });
        }
        Ok(self.solvers[l].as_mut().expect("built above"))
    }

    /// `act(level) ⇒ ¬cube`.
    fn guarded(&mut self, cube: &[Term], level: usize) -> Term {
        let clause = self.clause(cube);
        let act = self.act(level);
        let off = self.terms.not(act);
        self.terms.or_all(&[off, clause])
    }

    /// The image of `lit` along `path`, normalised.
    fn image(&mut self, path: (usize, usize), lit: Term) -> Term {
        let after = &self.edges[path.0].paths[path.1].after;
        let t = if after.is_empty() {
            lit
        } else {
            self.terms.substitute(&[lit], after)[0]
        };
        self.norm.normalize(&mut self.terms, t)
    }

    /// Is some lemma of F(level, l) a subset of `lits` (keys: the literals
    /// and those they imply, see [`Engine::implied`])?
    fn subsumed_in_frame(
        &self,
        l: usize,
        level: usize,
        lits: &HashMap<Term, Term>,
    ) -> Option<usize> {
        (self.lemmas[l].iter().enumerate())
            .find(|(_, m)| m.level >= level && m.cube.iter().all(|x| lits.contains_key(x)))
            .map(|(i, _)| i)
    }

    /// Each of `lits` mapped to itself, and, with the low-bits weakening on,
    /// each literal `t[k-1:0] = c[k-1:0]` that a literal `t = c` implies
    /// mapped to that literal, for the k some lemma uses on `t` (only those:
    /// building every k for every literal would grow the term store by
    /// about three terms per bit and literal): a lemma weakened to low bits
    /// is then found inside a cube by its identity, as predecessor cubes
    /// need.
    fn implied(&mut self, lits: &[Term]) -> HashMap<Term, Term> {
        let mut map: HashMap<Term, Term> = lits.iter().map(|&t| (t, t)).collect();
        if self.options.low_bits {
            for &lit in lits {
                let Some((t, c)) = self.bv_equality(lit) else {
                    continue;
                };
                let Some(ks) = self.low_bit_lemmas.get(&t) else {
                    continue;
                };
                for k in ks.clone() {
                    let weaker = self.low_bits(t, &c, k);
                    map.entry(weaker).or_insert(lit);
                }
            }
        }
        map
    }

    /// `t[k-1:0] = c[k-1:0]`, normalised like every other literal (images
    /// are, and predecessor cubes compare literals by identity).
    fn low_bits(&mut self, t: Term, c: &BvValue, k: u32) -> Term {
        let low = self.terms.mk(Op::Extract(k - 1, 0), &[t]);
        let mut bits = BvValue::zero(k);
        for i in 0..k {
            bits.set_bit(i, c.bit(i));
        }
        let value = self.terms.bv(bits);
        let literal = self.terms.eq(low, value);
        self.norm.normalize(&mut self.terms, literal)
    }

    /// Is any state of F(level, from) ∧ wp(path, cube) (∧ ¬cube on a
    /// self-loop)? Without `want_pred`, a predecessor is reported with an
    /// empty cube.
    fn query(
        &mut self,
        edge: usize,
        path: usize,
        cube: &[Term],
        level: usize,
        want_pred: bool,
    ) -> Result<Query, Interrupted> {
        let from = self.edges[edge].from;
        if from != self.init && level == 0 {
            return Ok(Query::Blocked(Vec::new()));
        }
        let images: Vec<Term> = cube.iter().map(|&l| self.image((edge, path), l)).collect();
        if let Some(i) = images
            .iter()
            .position(|&t| *self.terms.op(t) == Op::Bool(false))
        {
            return Ok(Query::Blocked(vec![cube[i]]));
        }
        let guard = self.edges[edge].paths[path].guard.clone();
        if self.options.predecessor_cubes && from != self.init {
            let wp_lits: Vec<Term> = guard.iter().chain(&images).copied().collect();
            let wp = self.implied(&wp_lits);
            if let Some(m) = self.subsumed_in_frame(from, level, &wp) {
                self.stats.syntactic += 1;
                let used: HashSet<Term> =
                    (self.lemmas[from][m].cube.iter()).map(|x| wp[x]).collect();
                return Ok(Query::Blocked(whose_images(cube, &images, &used)));
            }
        }
        let self_loop = self.edges[edge].to == from;
        let negated = self_loop.then(|| self.clause(cube));
        let mut assumptions: Vec<Term> = Vec::new();
        if from != self.init {
            for k in level..=self.top {
                let a = self.act(k);
                assumptions.push(a);
            }
        }
        assumptions.extend(
            images
                .iter()
                .copied()
                .filter(|&t| *self.terms.op(t) != Op::Bool(true)),
        );
        let havocs = self.edges[edge].paths[path].havocs.clone();
        let start = Instant::now();
        self.solver(from)?;
        let mut solver = self.solvers[from].take().expect("built above");
        let (smt, terms) = (&mut solver.smt, &self.terms);
        smt.push();
        for &g in &guard {
            smt.assert(terms, g);
        }
        if let Some(n) = negated {
            smt.assert(terms, n);
        }
        let answer = smt.check(terms, &assumptions);
        // The havoc values are read before the scope closes.
        let raw: Result<Raw, Interrupted> = match answer {
            SmtResult::Unsat => {
                let core: HashSet<Term> = smt.unsat_core().into_iter().collect();
                Ok(Raw::Core(whose_images(cube, &images, &core)))
            }
            SmtResult::Sat if !want_pred => Ok(Raw::Model(Vec::new())),
            SmtResult::Sat => havocs
                .iter()
                .map(|&h| smt.value(terms, h).map(|v| (h, v)))
                .collect::<Result<Vec<_>, String>>()
                .map(Raw::Model)
                .map_err(|e| Interrupted(format!("the SMT solver gave no model value ({e})"))),
            SmtResult::Unknown(why) => Err(Interrupted(if self.budget.expired() {
                self.budget.reason().to_string()
            } else {
                format!("the SMT solver gave up ({why})")
            })),
        };
        smt.pop();
        solver.scopes += 1;
        self.solvers[from] = Some(solver);
        self.stats.smt_time += start.elapsed();
        Ok(match raw? {
            Raw::Core(core) => Query::Blocked(core),
            Raw::Model(_) if !want_pred => Query::Predecessor(Vec::new()),
            Raw::Model(values) => Query::Predecessor(self.predecessor(&guard, &images, &values)),
        })
    }

    /// The predecessor cube of a satisfiable query: the WP's literals with
    /// the havoc variables at the model's values.
    fn predecessor(
        &mut self,
        guard: &[Term],
        images: &[Term],
        values: &[(Term, Value)],
    ) -> Vec<Term> {
        let mut subst = HashMap::new();
        for (h, v) in values {
            let sort = self.terms.sort(*h).clone();
            if let Some(c) = normalize::constant_term(&mut self.terms, v, &sort) {
                subst.insert(*h, c);
            }
        }
        let mut cube = Vec::new();
        for &t in guard.iter().chain(images) {
            let t = if subst.is_empty() {
                t
            } else {
                let s = self.terms.substitute(&[t], &subst)[0];
                self.norm.normalize(&mut self.terms, s)
            };
            literals(&mut self.terms, t, &mut cube);
        }
        cube.sort_unstable();
        cube.dedup();
        cube
    }

    /// Is `cube` at `l` blocked at `level`: no state of F(level-1) at a
    /// predecessor steps into it? The literals the proof needed, or a
    /// predecessor (its edge and cube) when `want_pred`.
    fn blocked(
        &mut self,
        l: usize,
        cube: &[Term],
        level: usize,
        want_pred: bool,
    ) -> Result<Blocking, Interrupted> {
        let mut needed: HashSet<Term> = HashSet::new();
        for e in self.incoming[l].clone() {
            for p in 0..self.edges[e].paths.len() {
                match self.query(e, p, cube, level - 1, want_pred)? {
                    Query::Blocked(core) => needed.extend(core),
                    Query::Predecessor(cube) => return Ok(Blocking::Predecessor { edge: e, cube }),
                }
            }
        }
        let mut kept: Vec<Term> = cube
            .iter()
            .copied()
            .filter(|t| needed.contains(t))
            .collect();
        kept.sort_unstable();
        Ok(Blocking::Blocked(kept))
    }

    /// A smaller cube than `core` (blocked at `level`) that is still blocked.
    fn generalize(
        &mut self,
        l: usize,
        mut core: Vec<Term>,
        level: usize,
    ) -> Result<Vec<Term>, Interrupted> {
        if !self.options.drop_literals {
            return Ok(core);
        }
        let mut i = 0;
        while i < core.len() {
            self.check_budget()?;
            let mut candidate = core.clone();
            candidate.remove(i);
            match self.blocked(l, &candidate, level, false)? {
                Blocking::Blocked(smaller) => core = smaller,
                Blocking::Predecessor { .. } => i += 1,
            }
        }
        if self.options.low_bits {
            core = self.weaken_to_low_bits(l, core, level)?;
        }
        Ok(core)
    }

    /// Weakens each literal `t = c` (bit-vectors, `c` constant) of a
    /// blocked cube to `t[k-1:0] = c[k-1:0]` for the smallest k below the
    /// width that keeps the cube blocked.
    ///
    /// Predecessor cubes fix values (`y = 6`), and a word literal can only
    /// be dropped whole, so a property that rests on a residue (`y` stays
    /// odd when it grows by `2·n`) is otherwise learnt one value at a time.
    /// The weaker literal still contains the cube's states, so the lemma
    /// still excludes the obligation. More low bits make a smaller cube,
    /// which is blocked more easily, so the widest candidate is tried first
    /// (one failed query settles most literals) and the smallest k that
    /// works is then found by bisection.
    fn weaken_to_low_bits(
        &mut self,
        l: usize,
        mut core: Vec<Term>,
        level: usize,
    ) -> Result<Vec<Term>, Interrupted> {
        for lit in core.clone() {
            let Some((t, c)) = self.bv_equality(lit) else {
                continue;
            };
            // Bit counts below `lo` fail; `hi` is the smallest that has
            // kept the cube blocked (`best` the cube it gave).
            let (mut lo, mut hi) = (1, c.width());
            let mut best = None;
            while lo < hi {
                self.check_budget()?;
                if !core.contains(&lit) {
                    break;
                }
                let k = if best.is_none() {
                    hi - 1
                } else {
                    (lo + hi) / 2
                };
                let weaker = self.low_bits(t, &c, k);
                let candidate: Vec<Term> = (core.iter())
                    .map(|&x| if x == lit { weaker } else { x })
                    .collect();
                match self.blocked(l, &candidate, level, false)? {
                    Blocking::Blocked(smaller) => {
                        best = Some(smaller);
                        hi = k;
                    }
                    Blocking::Predecessor { .. } if best.is_none() => break,
                    Blocking::Predecessor { .. } => lo = k + 1,
                }
            }
            if let Some(smaller) = best {
                core = smaller;
                let ks = self.low_bit_lemmas.entry(t).or_default();
                if !ks.contains(&hi) {
                    ks.push(hi);
                }
            }
        }
        Ok(core)
    }

    /// `(t, c)` when `lit` is `t = c` or `c = t` over bit-vectors of width
    /// at least 2 with `c` a constant and `t` not.
    fn bv_equality(&self, lit: Term) -> Option<(Term, BvValue)> {
        if *self.terms.op(lit) != Op::Eq {
            return None;
        }
        let (a, b) = (self.terms.args(lit)[0], self.terms.args(lit)[1]);
        let (t, c) = match (self.terms.op(a), self.terms.op(b)) {
            (Op::Bv(_), Op::Bv(_)) => return None,
            (_, Op::Bv(c)) => (a, c),
            (Op::Bv(c), _) => (b, c),
            _ => return None,
        };
        (c.width() >= 2).then(|| (t, c.clone()))
    }

    /// Is `cube` at `l` already excluded from F(level) by a lemma?
    fn already_blocked(&mut self, l: usize, cube: &[Term], level: usize) -> bool {
        let set = self.implied(cube);
        self.subsumed_in_frame(l, level, &set).is_some()
    }

    fn add_lemma(&mut self, l: usize, cube: Vec<Term>, level: usize) {
        // Lemmas it subsumes at lower or equal levels go.
        let set: HashSet<Term> = cube.iter().copied().collect();
        self.lemmas[l].retain(|m| {
            !(m.level <= level
                && m.cube.len() >= set.len()
                && m.cube.iter().filter(|x| set.contains(x)).count() == set.len())
        });
        let guarded = self.guarded(&cube, level);
        if let Some(s) = self.solvers[l].as_mut() {
            s.smt.assert(&self.terms, guarded);
        }
        self.lemmas[l].push(Lemma { cube, level });
        self.stats.lemmas += 1;
    }

    /// Blocks the obligations until none is left below the top frame; a
    /// real counterexample comes back as its chain of obligations.
    fn block(
        &mut self,
        obligations: &mut Vec<Obligation>,
        queue: &mut BinaryHeap<Reverse<(usize, usize, usize)>>,
    ) -> Result<Option<usize>, Interrupted> {
        while let Some(Reverse((level, _, id))) = queue.pop() {
            self.check_budget()?;
            self.stats.obligations += 1;
            let (loc, cube) = (obligations[id].loc, obligations[id].cube.clone());
            if loc == self.init {
                return Ok(Some(id));
            }
            if self.already_blocked(loc, &cube, level) {
                if level < self.top {
                    queue.push(Reverse((level + 1, obligations[id].depth, id)));
                    obligations[id].level = level + 1;
                }
                continue;
            }
            match self.blocked(loc, &cube, level, true)? {
                Blocking::Blocked(core) => {
                    let mut g = self.generalize(loc, core, level)?;
                    g.sort_unstable();
                    let mut at = level;
                    while at < self.top {
                        match self.blocked(loc, &g, at + 1, false)? {
                            Blocking::Blocked(_) => at += 1,
                            Blocking::Predecessor { .. } => break,
                        }
                    }
                    self.add_lemma(loc, g, at);
                    if at < self.top {
                        obligations[id].level = at + 1;
                        queue.push(Reverse((at + 1, obligations[id].depth, id)));
                    }
                }
                Blocking::Predecessor { edge, cube: pred } => {
                    let from = self.edges[edge].from;
                    let depth = obligations[id].depth + 1;
                    obligations.push(Obligation {
                        loc: from,
                        level: level - 1,
                        cube: pred,
                        parent: Some(id),
                        edge,
                        depth,
                    });
                    queue.push(Reverse((level - 1, depth, obligations.len() - 1)));
                    queue.push(Reverse((level, obligations[id].depth, id)));
                }
            }
        }
        Ok(None)
    }

    /// Pushes lemmas forward; `Some(k)` when F(k) = F(k+1) everywhere.
    fn propagate(&mut self) -> Result<Option<usize>, Interrupted> {
        for k in 1..self.top {
            for l in 0..self.locs.len() {
                let mut i = 0;
                while i < self.lemmas[l].len() {
                    if self.lemmas[l][i].level == k {
                        self.check_budget()?;
                        let cube = self.lemmas[l][i].cube.clone();
                        if let Blocking::Blocked(_) = self.blocked(l, &cube, k + 1, false)? {
                            self.lemmas[l][i].level = k + 1;
                            let guarded = self.guarded(&cube, k + 1);
                            if let Some(s) = self.solvers[l].as_mut() {
                                s.smt.assert(&self.terms, guarded);
                            }
                        }
                    }
                    i += 1;
                }
            }
            if self.lemmas.iter().flatten().all(|m| m.level != k) {
                return Ok(Some(k));
            }
        }
        Ok(None)
    }

    fn run(&mut self, progress: &mut dyn FnMut(&str)) -> Result<InvariantVerdict, Interrupted> {
        let paths: usize = self.edges.iter().map(|e| e.paths.len()).sum();
        progress(&format!(
            "{} locations, {} edges, {paths} choice-free paths",
            self.locs.len(),
            self.edges.len()
        ));
        if self.error == self.init {
            return self.counterexample(&[], &[]);
        }
        loop {
            self.top += 1;
            self.stats.frames = self.top;
            let mut obligations = vec![Obligation {
                loc: self.error,
                level: self.top,
                cube: Vec::new(),
                parent: None,
                edge: usize::MAX,
                depth: 0,
            }];
            let mut queue = BinaryHeap::new();
            queue.push(Reverse((self.top, 0, 0)));
            if let Some(id) = self.block(&mut obligations, &mut queue)? {
                let mut locs = Vec::new();
                let mut edges = Vec::new();
                let mut at = Some(id);
                while let Some(i) = at {
                    locs.push(obligations[i].loc);
                    if obligations[i].parent.is_some() {
                        edges.push(obligations[i].edge);
                    }
                    at = obligations[i].parent;
                }
                return self.counterexample(&locs, &edges);
            }
            if let Some(k) = self.propagate()? {
                progress(&format!("frame {k} equals frame {}: proved", k + 1));
                return Ok(self.invariant(k + 1));
            }
            let lemmas: usize = self.lemmas.iter().map(Vec::len).sum();
            progress(&format!("frame {}: {lemmas} lemmas", self.top));
        }
    }

    /// `¬valid ∨ ⋀_l (pc = l ⇒ F(level, l))` over the encoded system.
    fn invariant(&mut self, level: usize) -> InvariantVerdict {
        let pc = self.ts.states[0].var;
        let valid = self.ts.states[1].var;
        let width = self.terms.sort(pc).bv_width().expect("pc is a bit-vector");
        let mut parts = vec![self.terms.not(valid)];
        let mut conj = Vec::new();
        let mut count = 0;
        for l in 0..self.locs.len() {
            let cubes: Vec<Vec<Term>> = (self.lemmas[l].iter())
                .filter(|m| m.level >= level)
                .map(|m| m.cube.clone())
                .collect();
            if cubes.is_empty() && self.facts[l].is_empty() {
                continue;
            }
            count += cubes.len();
            let mut clauses: Vec<Term> = cubes.iter().map(|c| self.clause(c)).collect();
            clauses.extend(self.facts[l].iter().copied());
            let inv = self.terms.and_all(&clauses);
            let k = self
                .terms
                .bv(crate::ir::bv::BvValue::from_u64(width, l as u64));
            let at = self.terms.eq(pc, k);
            let not_at = self.terms.not(at);
            conj.push(self.terms.or_all(&[not_at, inv]));
        }
        parts.push(self.terms.and_all(&conj));
        let invariant = self.terms.or_all(&parts);
        InvariantVerdict::Safe(WordInvariant {
            store: Box::new(self.terms.clone()),
            invariant,
            lemmas: count,
        })
    }

    /// The trace of the encoded system along `locs` (initial first), found
    /// by BMC with the program counter fixed at each step.
    fn counterexample(
        &mut self,
        locs: &[usize],
        _edges: &[usize],
    ) -> Result<InvariantVerdict, Interrupted> {
        let mut u = Unfolding::new(self.ts);
        let mut smt = self
            .backend
            .start(&self.budget)
            .map_err(|e| Interrupted(format!("cannot start the SMT solver ({e})")))?;
        let width = self
            .terms
            .sort(self.ts.states[0].var)
            .bv_width()
            .expect("pc is a bit-vector");
        let at: Vec<Vec<Term>> = (locs.iter())
            .map(|&l| {
                let pc = self.ts.states[0].var;
                let value = (u.terms_mut()).bv(crate::ir::bv::BvValue::from_u64(width, l as u64));
                vec![u.terms_mut().eq(pc, value)]
            })
            .collect();
        // A long path of a large system takes seconds to encode: the
        // budget is looked at between steps, not only in the solver.
        for part in u.path(&at, &[0]) {
            self.check_budget()?;
            smt.assert(u.terms(), part);
        }
        match crate::smt::unfold::trace_along(smt.as_mut(), &mut u, locs.len()) {
            Ok(Some(trace)) => Ok(InvariantVerdict::Unsafe(trace)),
            Ok(None) => Ok(InvariantVerdict::Unknown(format!(
                "internal error: the path of {} locations found by IC3CFA is not a path of the encoded system",
                locs.len()
            ))),
            Err(why) => Err(Interrupted(format!("the trace's BMC gave up ({why})"))),
        }
    }
}
