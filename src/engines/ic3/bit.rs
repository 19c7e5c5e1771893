//! The bit-level domain of IC3: atoms are latches, and every query is a
//! SAT query on the circuit (named after what it asks, as ABC's `pdrSat.c`).
//!
//! Each frame F_i has its own solver holding T, the constraints and the
//! lemmas of levels >= i (delta encoding); F_0's solver holds the initial
//! states instead of lemmas. Solvers are built by the same deterministic
//! procedure, so a state or input variable has the same solver literal in
//! all of them ([`TsLits`]). Temporary clauses carry an activation literal
//! that is disabled for good after the query; a solver is rebuilt once too
//! many such dead clauses have piled up.
//!
//! With `shared_solver`, one solver holds T once and every level's lemmas
//! under that level's activation literal; a query on F_k assumes the
//! literals of levels k and up and of the infinite frame (F_0: Init's).

use super::cube::{Cube, StateLit};
use super::domain::{Consecution, Counterexample, Domain, Lift, Model, Step, Target, Want};
use super::frames::Frames;
use super::{Ic3Options, Ic3Stats, Interrupted};
use crate::ir::aig::{self, Aig};
use crate::ir::trace::Trace;
use crate::sat::tseitin::Unroller;
use crate::sat::{Backend, Lit, Roots, SatStats, SolveResult, Solver};
use crate::util::budget::Budget;

/// Dead temporary clauses a solver may carry before it is rebuilt.
const REBUILD_AFTER: usize = 2000;

/// Solver literals of one step of the transition system.
pub struct TsLits {
    /// Current value of each latch.
    pub state: Vec<Lit>,
    /// Next value of each latch (a variable equivalent to its next function).
    pub primed: Vec<Lit>,
    /// Each input in the current step.
    pub inputs: Vec<Lit>,
    /// The bad property in the current step.
    pub bad: Lit,
    /// The invariant constraints in the current step.
    pub constraints: Vec<Lit>,
}

impl TsLits {
    /// The current-state literal of `l`.
    pub fn state_lit(&self, l: StateLit) -> Lit {
        self.state[l.latch()].xor(!l.value())
    }

    /// The lemma `¬cube` as a clause over current-state literals.
    pub fn blocking_clause(&self, cube: &Cube) -> Vec<Lit> {
        cube.lits().iter().map(|&l| !self.state_lit(l)).collect()
    }
}

/// Loads one step of `aig` into `solver`; constraints become unit clauses if
/// `assert_constraints`.
pub fn load_transition(aig: &Aig, solver: &mut dyn Solver, assert_constraints: bool) -> TsLits {
    let mut unroller = Unroller::new(aig, solver, false);
    let state: Vec<Lit> = (0..aig.latches.len())
        .map(|i| unroller.latch_lit(solver, i, 0))
        .collect();
    let nexts: Vec<Lit> = (aig.latches.iter())
        .map(|l| unroller.encode(solver, l.next, 0))
        .collect();
    let constraints: Vec<Lit> = (aig.constraints.iter())
        .map(|&c| unroller.encode(solver, c, 0))
        .collect();
    let bad = unroller.encode(solver, aig.bad[0], 0);
    let inputs = (aig.inputs.iter())
        .map(|&v| unroller.encode(solver, aig::Lit::new(v, false), 0))
        .collect();
    let primed = nexts
        .iter()
        .map(|&n| {
            let p = solver.new_var();
            solver.add_definition(p.var(), &[!p, n]);
            solver.add_definition(p.var(), &[p, !n]);
            p
        })
        .collect();
    if assert_constraints {
        for &c in &constraints {
            solver.add_clause(&[c]);
        }
    }
    TsLits {
        state,
        primed,
        inputs,
        bad,
        constraints,
    }
}

/// A solver with its count of dead temporary clauses.
pub struct QuerySolver {
    pub solver: Box<dyn Solver>,
    /// Activation literals of temporary clauses disabled so far (backends
    /// without native temporary clauses only).
    dead: usize,
    /// The activation literal of the last temporary clause, to disable.
    pending: Option<Lit>,
    scratch: Vec<Lit>,
}

impl QuerySolver {
    /// A solver holding one step of `aig`.
    pub fn new(
        aig: &Aig,
        backend: Backend,
        budget: &Budget,
        assert_constraints: bool,
    ) -> (QuerySolver, TsLits) {
        let mut solver = backend.create(budget.clone());
        let lits = load_transition(aig, solver.as_mut(), assert_constraints);
        let solver = QuerySolver {
            solver,
            dead: 0,
            pending: None,
            scratch: Vec::new(),
        };
        (solver, lits)
    }

    /// Solves under `assumptions` with `clause` present for this call only:
    /// natively where the backend can remove a clause, else guarded by an
    /// activation literal that [`QuerySolver::retire`] disables.
    fn solve_with_temporary(
        &mut self,
        clause: &[Lit],
        assumptions: &[Lit],
        roots: Roots,
    ) -> SolveResult {
        debug_assert!(self.pending.is_none());
        if let Some(result) = self.solver.solve_with_temporary(assumptions, clause, roots) {
            return result;
        }
        let act = self.solver.new_var();
        self.scratch.clear();
        self.scratch.push(!act);
        self.scratch.extend_from_slice(clause);
        self.solver.add_clause(&self.scratch);
        self.scratch.clear();
        self.scratch.push(act);
        self.scratch.extend_from_slice(assumptions);
        let result = self.solver.solve(&self.scratch);
        self.pending = Some(act);
        result
    }

    /// Disables the last temporary clause (after reading the model or core).
    fn retire(&mut self) {
        if let Some(act) = self.pending.take() {
            self.solver.add_clause(&[!act]);
            self.dead += 1;
        }
    }
}

/// The SAT solvers of the frames.
pub enum FrameSolvers {
    /// One solver per frame, holding the lemmas of its level and above.
    PerFrame(Vec<QuerySolver>),
    /// One solver; `levels[i]` activates level i's lemmas (level 0: Init).
    Shared {
        /// The solver.
        solver: QuerySolver,
        /// Activation literal of each level.
        levels: Vec<Lit>,
        /// Activation literal of the infinite frame.
        infinite: Lit,
    },
}

impl FrameSolvers {
    /// Every live solver (for statistics).
    pub fn all(&self) -> Box<dyn Iterator<Item = &QuerySolver> + '_> {
        match self {
            FrameSolvers::PerFrame(v) => Box::new(v.iter()),
            FrameSolvers::Shared { solver, .. } => Box::new(std::iter::once(solver)),
        }
    }

    /// The solver of frame `level` and the activation literals to assume.
    pub(super) fn frame(&mut self, level: usize) -> (&mut QuerySolver, Vec<Lit>) {
        match self {
            FrameSolvers::PerFrame(v) => (&mut v[level], Vec::new()),
            FrameSolvers::Shared {
                solver,
                levels,
                infinite,
            } => {
                let acts = if level == 0 {
                    vec![levels[0]]
                } else {
                    let mut a = levels[level..].to_vec();
                    a.push(*infinite);
                    a
                };
                (solver, acts)
            }
        }
    }
}

/// The bit-level domain of one circuit (single bad property `aig.bad[0]`).
pub struct BitLevel<'a> {
    aig: &'a Aig,
    backend: Backend,
    budget: Budget,
    shared_solver: bool,
    lift_from_model: bool,
    /// Lift obligations' predecessors under several orders (`relift`).
    relift: bool,
    /// State of the shuffles of `relift`.
    rng: u64,
    init: Vec<Option<bool>>,
    lits: TsLits,
    solvers: FrameSolvers,
    lift_solver: QuerySolver,
    /// SAT calls of solvers already dropped (rebuilt or temporary).
    retired: SatStats,
    lift_fallbacks: u64,
    rebuilds: u64,
}

fn check(result: SolveResult) -> Result<bool, Interrupted> {
    match result {
        SolveResult::Sat => Ok(true),
        SolveResult::Unsat => Ok(false),
        SolveResult::Interrupted => Err(Interrupted),
    }
}

impl<'a> BitLevel<'a> {
    /// The domain of `aig`, with solvers for F_0 and an empty F_1.
    pub fn new(aig: &'a Aig, options: &Ic3Options) -> BitLevel<'a> {
        let limits = &options.limits;
        let (lift_solver, lits) = QuerySolver::new(aig, limits.backend, &limits.budget, false);
        let mut domain = BitLevel {
            aig,
            backend: limits.backend,
            budget: limits.budget.clone(),
            shared_solver: options.shared_solver,
            lift_from_model: options.lift_from_model,
            relift: options.relift,
            rng: 0x9e37_79b9_7f4a_7c15,
            init: aig.latches.iter().map(|l| l.init).collect(),
            lits,
            solvers: FrameSolvers::PerFrame(Vec::new()),
            lift_solver,
            retired: SatStats::default(),
            lift_fallbacks: 0,
            rebuilds: 0,
        };
        let frames = Frames::new();
        domain.solvers = if domain.shared_solver {
            domain.shared_solvers(&frames)
        } else {
            let f0 = domain.frame_solver(0, &frames);
            let f1 = domain.frame_solver(1, &frames);
            FrameSolvers::PerFrame(vec![f0, f1])
        };
        domain
    }

    /// The circuit.
    pub fn aig(&self) -> &'a Aig {
        self.aig
    }

    fn primed_lit(&self, l: StateLit) -> Lit {
        self.lits.primed[l.latch()].xor(!l.value())
    }

    /// The concrete initial state inside `cube` (which meets Init).
    fn initial_state(&self, cube: &Cube) -> Vec<bool> {
        let mut state: Vec<bool> = self.init.iter().map(|v| v.unwrap_or(false)).collect();
        for l in cube.lits() {
            state[l.latch()] = l.value();
        }
        state
    }

    /// What `want` asks of `solver`'s last model; lifting from the trail
    /// consumes the model, so it comes last.
    fn read_model(lits: &TsLits, solver: &mut dyn Solver, want: Want, lift: bool) -> Model {
        let mut model = Model {
            state: Vec::new(),
            inputs: Vec::new(),
            needed: Vec::new(),
            next: (want.next.iter())
                .map(|l| StateLit::new(l.latch(), solver.value(lits.primed[l.latch()])))
                .collect(),
        };
        if !want.model {
            return model;
        }
        model.state = lits.state.iter().map(|&l| solver.value(l)).collect();
        model.inputs = lits.inputs.iter().map(|&l| solver.value(l)).collect();
        let mut needed = vec![true; model.state.len()];
        let mut try_lift = |i: usize| {
            needed[i] = !solver.try_unassign(lits.state[i].xor(!model.state[i]));
        };
        match want.lift {
            _ if !lift => {}
            Lift::Nothing => {}
            Lift::All => (0..lits.state.len()).for_each(&mut try_lift),
            Lift::Only(atoms) => atoms.iter().for_each(|l| try_lift(l.latch())),
        }
        model.needed = needed;
        model
    }

    /// One lifting query with `latches` assumed in that order (the core
    /// prefers earlier ones): the cube of the failed latch assumptions, or
    /// `None` if the assumed latches do not force the target.
    fn lift_with(
        &mut self,
        model: &Model,
        clause: &[Lit],
        latches: &[usize],
    ) -> Result<Option<Cube>, Interrupted> {
        let mut assumptions: Vec<Lit> = (self.lits.inputs.iter().zip(&model.inputs))
            .map(|(&l, &v)| l.xor(!v))
            .collect();
        let first_state = assumptions.len();
        assumptions.extend(
            latches
                .iter()
                .map(|&i| self.lits.state[i].xor(!model.state[i])),
        );
        // Only the target's cone matters: assumptions outside it are
        // irrelevant, and a backend with domains leaves them out.
        let result = self
            .lift_solver
            .solve_with_temporary(clause, &assumptions, Roots::Clause);
        let cube = match check(result) {
            Err(e) => {
                self.lift_solver.retire();
                return Err(e);
            }
            Ok(true) => None,
            Ok(false) => {
                let solver = self.lift_solver.solver.as_ref();
                Some(Cube::new(
                    (latches.iter().zip(&assumptions[first_state..]))
                        .filter(|&(_, &l)| solver.failed(l))
                        .map(|(&i, _)| StateLit::new(i, model.state[i]))
                        .collect(),
                ))
            }
        };
        self.lift_solver.retire();
        if self.lift_solver.dead > REBUILD_AFTER {
            self.retired += self.lift_solver.solver.stats();
            self.lift_solver = QuerySolver::new(self.aig, self.backend, &self.budget, false).0;
        }
        Ok(cube)
    }

    /// Lifts again a cube that a first query already lifted, under other
    /// orders of its latches, while that keeps shrinking it (as rIC3 does:
    /// the reverse order, then shuffles): a failed-assumption core is
    /// minimal for no order in particular, and each round can only drop
    /// latches.
    fn relift(
        &mut self,
        model: &Model,
        clause: &[Lit],
        mut cube: Cube,
    ) -> Result<Cube, Interrupted> {
        const ROUNDS: usize = 4;
        let mut order: Vec<usize> = cube.lits().iter().map(|l| l.latch()).collect();
        for round in 0..ROUNDS {
            if order.len() <= 1 {
                break;
            }
            if round == 0 {
                order.reverse();
            } else {
                self.shuffle(&mut order);
            }
            match self.lift_with(model, clause, &order)? {
                Some(smaller) if smaller.len() < cube.len() => cube = smaller,
                _ => break,
            }
            order = cube.lits().iter().map(|l| l.latch()).collect();
        }
        Ok(cube)
    }

    /// A deterministic shuffle (xorshift), so runs repeat.
    fn shuffle(&mut self, items: &mut [usize]) {
        for i in (1..items.len()).rev() {
            self.rng ^= self.rng << 13;
            self.rng ^= self.rng >> 7;
            self.rng ^= self.rng << 17;
            items.swap(i, (self.rng % (i as u64 + 1)) as usize);
        }
    }

    /// The shared solver with Init, every level's lemmas and the infinite
    /// frame, each under its activation literal.
    fn shared_solvers(&mut self, frames: &Frames) -> FrameSolvers {
        let (mut solver, _) = QuerySolver::new(self.aig, self.backend, &self.budget, true);
        let levels: Vec<Lit> = (0..=frames.top())
            .map(|_| solver.solver.new_var())
            .collect();
        let infinite = solver.solver.new_var();
        for (i, init) in self.init.iter().enumerate() {
            if let Some(v) = *init {
                solver
                    .solver
                    .add_clause(&[!levels[0], self.lits.state[i].xor(!v)]);
            }
        }
        let guarded = (1..=frames.top())
            .flat_map(|l| {
                let act = levels[l];
                frames.at(l).iter().map(move |c| (c, act))
            })
            .chain(frames.infinite().iter().map(|c| (c, infinite)));
        for (cube, act) in guarded {
            let mut clause: Vec<Lit> = self.lits.blocking_clause(cube);
            clause.push(!act);
            solver.solver.add_clause(&clause);
        }
        FrameSolvers::Shared {
            solver,
            levels,
            infinite,
        }
    }

    /// A fresh solver for frame `level` with its lemmas (or Init for level 0).
    fn frame_solver(&mut self, level: usize, frames: &Frames) -> QuerySolver {
        let (mut solver, _) = QuerySolver::new(self.aig, self.backend, &self.budget, true);
        if level == 0 {
            for (i, init) in self.init.iter().enumerate() {
                if let Some(v) = *init {
                    solver.solver.add_clause(&[self.lits.state[i].xor(!v)]);
                }
            }
        } else {
            for cube in frames.lemmas_from(level) {
                let clause: Vec<Lit> = self.lits.blocking_clause(&cube);
                solver.solver.add_clause(&clause);
            }
        }
        solver
    }

    fn maybe_rebuild(&mut self, level: usize, frames: &Frames) {
        let solver = self.solvers.frame(level).0;
        if solver.dead <= REBUILD_AFTER {
            return;
        }
        self.retired += solver.solver.stats();
        self.rebuilds += 1;
        if let FrameSolvers::PerFrame(_) = self.solvers {
            let fresh = self.frame_solver(level, frames);
            if let FrameSolvers::PerFrame(v) = &mut self.solvers {
                v[level] = fresh;
            }
        } else {
            self.solvers = self.shared_solvers(frames);
        }
    }
}

impl Domain for BitLevel<'_> {
    type Trace = Trace;

    fn atoms(&self) -> usize {
        self.aig.latches.len()
    }

    fn intersects_init(&mut self, cube: &Cube) -> Result<bool, Interrupted> {
        Ok(cube.intersects_init(&self.init))
    }

    fn bad_state(
        &mut self,
        level: usize,
        activity: &[f64],
    ) -> Result<Option<(Cube, Vec<bool>)>, Interrupted> {
        let bad = self.lits.bad;
        let (solver, mut assumptions) = self.solvers.frame(level);
        assumptions.push(bad);
        if !check(solver.solver.solve(&assumptions))? {
            return Ok(None);
        }
        let lift = self.lift_from_model;
        let solver = self.solvers.frame(level).0.solver.as_mut();
        let model = Self::read_model(&self.lits, solver, Want::LIFTABLE, lift);
        let cube = self.lift(&model, Target::Bad, activity, true)?;
        Ok(Some((cube, model.inputs)))
    }

    fn relative_induction(
        &mut self,
        cube: &Cube,
        level: usize,
        want: Want,
        activity: &[f64],
        frames: &Frames,
    ) -> Result<Consecution, Interrupted> {
        debug_assert!(level >= 1 && !cube.intersects_init(&self.init));
        let clause: Vec<Lit> = self.lits.blocking_clause(cube);
        // The cube's literals as primed assumptions, most active first.
        let order = cube.by_activity(activity);
        let mut assumptions: Vec<Lit> = order.iter().map(|&l| self.primed_lit(l)).collect();
        let (solver, acts) = self.solvers.frame(level - 1);
        assumptions.extend(acts);
        let result = solver.solve_with_temporary(&clause, &assumptions, Roots::Assumptions);
        let answer = match check(result) {
            Err(e) => Err(e),
            Ok(true) => {
                let lift = self.lift_from_model;
                let solver = self.solvers.frame(level - 1).0.solver.as_mut();
                Ok(Consecution::Predecessor(Self::read_model(
                    &self.lits, solver, want, lift,
                )))
            }
            Ok(false) => {
                let primed: Vec<(StateLit, Lit)> = cube
                    .lits()
                    .iter()
                    .map(|&l| (l, self.primed_lit(l)))
                    .collect();
                let solver = self.solvers.frame(level - 1).0.solver.as_ref();
                let mut core: Vec<StateLit> = (primed.iter())
                    .filter(|&&(_, p)| solver.failed(p))
                    .map(|&(l, _)| l)
                    .collect();
                if !core
                    .iter()
                    .any(|l| self.init[l.latch()].is_some_and(|v| v != l.value()))
                {
                    // The core meets Init: keep a literal that excludes Init.
                    let keep = cube
                        .lits()
                        .iter()
                        .find(|l| self.init[l.latch()].is_some_and(|v| v != l.value()));
                    core.push(*keep.expect("cube excludes Init"));
                }
                Ok(Consecution::Inductive(Cube::new(core)))
            }
        };
        self.solvers.frame(level - 1).0.retire();
        self.maybe_rebuild(level - 1, frames);
        answer
    }

    /// A SAT call on the transition's cone whose failed state assumptions
    /// form the cube. The latches the model does not need are left out
    /// first; should that have been too bold (see `sat/core/lift.rs`), all
    /// are tried.
    fn lift(
        &mut self,
        model: &Model,
        target: Target,
        activity: &[f64],
        thorough: bool,
    ) -> Result<Cube, Interrupted> {
        // Target fails or some constraint fails: unsatisfiable under the assumptions.
        let mut clause: Vec<Lit> = self.lits.constraints.iter().map(|&c| !c).collect();
        match target {
            Target::Bad => clause.push(!self.lits.bad),
            Target::Cube(c) => clause.extend(c.lits().iter().map(|&l| !self.primed_lit(l))),
        }
        // Most active latches first, so that the core prefers them.
        let by_activity = |only_needed: bool| {
            let mut latches: Vec<usize> = (0..model.state.len())
                .filter(|&i| !only_needed || model.needed[i])
                .collect();
            latches.sort_by(|&a, &b| activity[b].total_cmp(&activity[a]));
            latches
        };
        let mut cube = self.lift_with(model, &clause, &by_activity(true))?;
        if cube.is_none() && model.needed.iter().any(|&n| !n) {
            self.lift_fallbacks += 1;
            cube = self.lift_with(model, &clause, &by_activity(false))?;
        }
        // No lifting at all cannot fail for a model of the query that
        // produced the state; the full state is a correct, if large, answer.
        let Some(cube) = cube else {
            return Ok(Cube::from_values(&model.state));
        };
        if thorough && self.relift {
            return self.relift(model, &clause, cube);
        }
        Ok(cube)
    }

    fn add_lemma(&mut self, cube: &Cube, level: usize) {
        debug_assert!(!cube.intersects_init(&self.init));
        let mut clause: Vec<Lit> = self.lits.blocking_clause(cube);
        match &mut self.solvers {
            FrameSolvers::PerFrame(v) => {
                for solver in &mut v[1..=level] {
                    solver.solver.add_clause(&clause);
                }
            }
            FrameSolvers::Shared { solver, levels, .. } => {
                clause.push(!levels[level]);
                solver.solver.add_clause(&clause);
            }
        }
    }

    fn add_level(&mut self, level: usize, frames: &Frames) {
        if let FrameSolvers::Shared { solver, levels, .. } = &mut self.solvers {
            levels.push(solver.solver.new_var());
            return;
        }
        let solver = self.frame_solver(level, frames);
        if let FrameSolvers::PerFrame(v) = &mut self.solvers {
            v.push(solver);
        }
    }

    /// Puts lemmas moved to the infinite frame under its activation literal
    /// (frame solvers built later get them from the frames).
    fn add_infinite(&mut self, cubes: &[Cube]) {
        if let FrameSolvers::Shared {
            solver, infinite, ..
        } = &mut self.solvers
        {
            for cube in cubes {
                let mut clause = self.lits.blocking_clause(cube);
                clause.push(!*infinite);
                solver.solver.add_clause(&clause);
            }
        }
    }

    /// One solver with T, the constraints, the infinite frame and the
    /// candidates as lemmas.
    fn closed_under_step(
        &mut self,
        infinite: &[Cube],
        candidates: &[Cube],
    ) -> Result<Vec<bool>, Interrupted> {
        let (mut solver, _) = QuerySolver::new(self.aig, self.backend, &self.budget, true);
        for cube in infinite.iter().chain(candidates) {
            let clause: Vec<Lit> = self.lits.blocking_clause(cube);
            solver.solver.add_clause(&clause);
        }
        let mut closed = Vec::with_capacity(candidates.len());
        let mut answer = Ok(());
        for cube in candidates {
            let assumptions: Vec<Lit> = cube.lits().iter().map(|&l| self.primed_lit(l)).collect();
            match check(solver.solver.solve(&assumptions)) {
                Ok(steps_into) => closed.push(!steps_into),
                Err(e) => {
                    answer = Err(e);
                    break;
                }
            }
        }
        self.retired += solver.solver.stats();
        answer.map(|()| closed)
    }

    fn pin(&mut self, cube: &Cube, level: usize) {
        let roots: Vec<Lit> = (cube.lits().iter())
            .flat_map(|&l| [self.lits.state_lit(l), self.primed_lit(l)])
            .collect();
        self.solvers.frame(level - 1).0.solver.pin_domain(&roots);
    }

    fn unpin(&mut self, level: usize) {
        self.solvers.frame(level - 1).0.solver.unpin_domain();
    }

    /// Every chain is real: the cubes were lifted under their inputs, so
    /// any initial state of the first cube follows the inputs to a bad state.
    fn counterexample(&mut self, chain: &[Step]) -> Result<Counterexample<Trace>, Interrupted> {
        Ok(Counterexample::Real(Trace {
            init: self.initial_state(chain[0].cube),
            inputs: chain.iter().map(|s| s.inputs.to_vec()).collect(),
        }))
    }

    fn add_stats(&self, stats: &mut Ic3Stats) {
        stats.sat += &self.retired;
        for s in self.solvers.all().chain(std::iter::once(&self.lift_solver)) {
            stats.sat += s.solver.stats();
        }
        stats.lift_fallbacks += self.lift_fallbacks;
        stats.rebuilds += self.rebuilds;
    }
}
