//! What the IC3 core asks of a domain, and what it gets back.
//!
//! The core (`mod.rs`, `generalize.rs`, `propagate.rs`) owns frames, lemmas,
//! obligations, generalization and propagation; it never sees a solver. A
//! domain owns the solvers and answers the queries: initiation, the bad
//! states of a frame, relative induction, lifting a predecessor, the
//! inductive subset for the infinite frame and the check of a
//! counterexample. A cube is a set of literals over the domain's *atoms*:
//! latches for the bit level (`bit.rs`), predicates for implicit predicate
//! abstraction.

use super::cube::{Cube, StateLit};
use super::frames::Frames;
use super::{Ic3Stats, Interrupted};

/// The answer to a relative-induction query.
pub enum Consecution {
    /// The cube is unreachable in one step from F ∧ ¬cube; the reduced cube
    /// (from the failed assumptions) is too, and still excludes Init.
    Inductive(Cube),
    /// A state of F ∧ ¬cube with inputs that step into the cube.
    Predecessor(Model),
}

/// A state and inputs read from a model, with the atom values the model
/// seems to need (the rest could be lifted away without a query).
pub struct Model {
    /// The value of every atom (empty when the caller wanted none).
    pub state: Vec<bool>,
    /// The inputs (empty when the caller wanted none, or the domain keeps
    /// none: an abstract step has no concrete inputs).
    pub inputs: Vec<bool>,
    /// Per atom: whether its value is needed (all true without lifting
    /// from the trail).
    pub needed: Vec<bool>,
    /// The next-state values of the atoms the caller asked for.
    pub next: Vec<StateLit>,
}

/// What a caller of [`Domain::relative_induction`] reads from a predecessor.
#[derive(Copy, Clone)]
pub struct Want<'a> {
    /// The state and inputs.
    pub model: bool,
    /// Which atoms are tried for lifting from the trail ([`Model::needed`]).
    pub lift: Lift<'a>,
    /// The next-state values of these atoms.
    pub next: &'a [StateLit],
}

/// Which atoms a predecessor's model is lifted on: the others count as
/// needed.
#[derive(Copy, Clone)]
pub enum Lift<'a> {
    /// None.
    Nothing,
    /// Every atom (the predecessor becomes an obligation).
    All,
    /// Only the atoms of these literals, when the caller reads no other
    /// (MIC's `down` reads the cube's atoms only). Trying an atom costs a
    /// walk over the clauses that watch it, lemmas included, so on a
    /// circuit of a thousand latches trying all of them took 15% of IC3's
    /// time.
    Only(&'a [StateLit]),
}

impl Want<'_> {
    /// Nothing: only whether a predecessor exists.
    pub const NOTHING: Want<'static> = Want {
        model: false,
        lift: Lift::Nothing,
        next: &[],
    };
    /// The state and inputs, marked for lifting.
    pub const LIFTABLE: Want<'static> = Want {
        model: true,
        lift: Lift::All,
        next: &[],
    };
}

/// What a lifted predecessor must guarantee.
pub enum Target<'c> {
    /// Every state of the lifted cube steps into this cube.
    Cube(&'c Cube),
    /// Every state of the lifted cube is bad.
    Bad,
}

/// What a chain of obligations from an initial cube to a bad one turned out
/// to be.
pub enum Counterexample<T> {
    /// A real trace of the system.
    Real(T),
    /// Not a trace of the system; the domain has refined itself (more
    /// atoms) so that the chain no longer exists, and the search goes on
    /// with the frames it has.
    Spurious,
}

/// One step of an obligation chain: the cube and the inputs that take it
/// into the next cube (or into the bad states).
pub struct Step<'a> {
    /// The states.
    pub cube: &'a Cube,
    /// The inputs of the step.
    pub inputs: &'a [bool],
}

/// The queries of one IC3 domain.
///
/// Levels follow the core: frame F_0 is Init, a lemma at level i belongs to
/// F_1..F_i, and lemmas in the infinite frame belong to every F_i, i ≥ 1.
/// `activity` is the core's per-atom count of lemma occurrences, for
/// ordering assumptions (cores then prefer active atoms).
pub trait Domain {
    /// A real counterexample of the domain's system.
    type Trace;

    /// Number of atoms; it only grows (refinement adds atoms).
    fn atoms(&self) -> usize;

    /// Whether some initial state lies in `cube`.
    fn intersects_init(&mut self, cube: &Cube) -> Result<bool, Interrupted>;

    /// A bad state of F_level, as a lifted cube with its inputs, if any.
    fn bad_state(
        &mut self,
        level: usize,
        activity: &[f64],
    ) -> Result<Option<(Cube, Vec<bool>)>, Interrupted>;

    /// Is `cube` (which excludes Init) inductive relative to F_{level-1}:
    /// F_{level-1} ∧ C ∧ ¬cube ∧ T ∧ cube' unsatisfiable? A predecessor
    /// comes with what `want` asks for.
    fn relative_induction(
        &mut self,
        cube: &Cube,
        level: usize,
        want: Want,
        activity: &[f64],
        frames: &Frames,
    ) -> Result<Consecution, Interrupted>;

    /// Shrinks a predecessor's state to a cube of states that, under its
    /// inputs, all satisfy the constraints and reach `target`; `thorough`
    /// when the cube becomes an obligation (worth more effort than a
    /// counterexample to generalization).
    fn lift(
        &mut self,
        model: &Model,
        target: Target,
        activity: &[f64],
        thorough: bool,
    ) -> Result<Cube, Interrupted>;

    /// Lemma `¬cube` now holds in frames 1..=`level`.
    fn add_lemma(&mut self, cube: &Cube, level: usize);

    /// The core opened frame `level` (its lemmas, if any, are in `frames`).
    fn add_level(&mut self, level: usize, frames: &Frames);

    /// `cubes` moved to the infinite frame.
    fn add_infinite(&mut self, cubes: &[Cube]);

    /// For each candidate: whether no state of the infinite frame and all
    /// candidates (as lemmas) steps into it.
    fn closed_under_step(
        &mut self,
        infinite: &[Cube],
        candidates: &[Cube],
    ) -> Result<Vec<bool>, Interrupted>;

    /// Generalization of cubes inside `cube` at `level` begins: a domain
    /// may fix the solver's search space for all its queries.
    fn pin(&mut self, _cube: &Cube, _level: usize) {}

    /// Generalization at `level` ended.
    fn unpin(&mut self, _level: usize) {}

    /// Checks a chain of obligations from an initial cube (first) to a bad
    /// one (last): a real trace, or a spurious chain the domain refined away.
    fn counterexample(
        &mut self,
        chain: &[Step],
    ) -> Result<Counterexample<Self::Trace>, Interrupted>;

    /// Adds the domain's counters (solver calls, fallbacks) to `stats`.
    fn add_stats(&self, stats: &mut Ic3Stats);
}
