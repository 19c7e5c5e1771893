//! Witness circuits in the sense of Certifaiger (Yu, Biere, Heljanko,
//! "Progress in Certifying Hardware Model Checking Results", CAV 2021), the
//! HWMCC'24 certificate format: building one from an inductive invariant,
//! and checking one against a model.
//!
//! A witness W shares the first inputs and latches of the model M (the
//! default mapping, no symbol-table mapping). With R reset, C constraints,
//! T transition and P "no bad", the checks are:
//!
//! | reset      | R_M ∧ C_M ⇒ R_W ∧ C_W                       (on shared latches) |
//! | transition | C_M0 ∧ C_M1 ∧ C_W0 ⇒ T_W = T_M ∧ C_W1        (on shared latches) |
//! | property   | C_M ∧ C_W ∧ ¬P_M ⇒ ¬P_W                                         |
//! | base       | R_W ∧ C_W ⇒ P_W                                                 |
//! | step       | P_W0 ∧ T_W ∧ C_W0 ∧ C_W1 ⇒ P_W1                                 |
//!
//! The first three make W simulate M, the last two make P_W inductive, so M
//! is safe. From an invariant Inv, the witness is M itself with the bad
//! property `bad ∨ ¬Inv`.
//!
//! From a k-induction proof, W is M with a window of the last k−1 states
//! (latches and the inputs of their steps, and a flag saying the step
//! happened): P_W says that the window is a run of M (each state's step
//! keeps the constraints and leads to the next one), all of it good and
//! within the lemmas the proof assumed, and that it starts in an initial
//! state unless it is full. P_W is inductive exactly when the proof is
//! right: a full window is k good steps, after which k-induction's step
//! case makes the next state good; a window that is not full is a run from
//! reset shorter than k, after which the base case does. The checks re-prove
//! both cases in one query each, with a solver of their own.

use crate::ir::aig::{map_lit, Aig, Lit, Node};
use crate::ir::invariant::CircuitInvariant;
use crate::sat::{self, Backend, SolveResult, Solver};
use crate::util::budget::Budget;
use std::collections::HashMap;

/// The witness circuit for invariant `cubes` (clauses `¬cube` over latch
/// positions of `model`) of the property "no `bad`".
pub fn witness_from_invariant(model: &Aig, bad: &[Lit], cubes: &[Vec<(usize, bool)>]) -> Aig {
    let mut w = model.clone();
    w.justice.clear();
    w.fairness.clear();
    let latches: Vec<Lit> = (w.latches.iter()).map(|l| Lit::new(l.var, false)).collect();
    let inv = outside_cubes(&mut w, &latches, cubes);
    let any_bad = w.or_all(bad);
    let bad = w.or(any_bad, !inv);
    w.bad = vec![bad];
    w
}

/// The witness circuit for an invariant given as a circuit over `model`'s
/// latches and inputs (interpolation's, signal correspondence's), of the
/// property "no `bad`".
pub fn witness_from_circuit(model: &Aig, bad: &[Lit], inv: &CircuitInvariant) -> Aig {
    let mut w = model.clone();
    w.justice.clear();
    w.fairness.clear();
    let leaves: Vec<Lit> = (w.latches.iter().map(|l| l.var))
        .chain(w.inputs.iter().copied())
        .map(|v| Lit::new(v, false))
        .collect();
    let holds = inv.copy_into(&mut w, &leaves);
    let any_bad = w.or_all(bad);
    let bad = w.or(any_bad, !holds);
    w.bad = vec![bad];
    w
}

/// Whether the state whose latches are `latches` lies outside every cube
/// (cubes over latch positions).
fn outside_cubes(w: &mut Aig, latches: &[Lit], cubes: &[Vec<(usize, bool)>]) -> Lit {
    let mut outside = Lit::TRUE;
    for cube in cubes {
        let mut inside = Lit::TRUE;
        for &(l, v) in cube {
            inside = w.and(inside, latches[l].xor(!v));
        }
        outside = w.and(outside, !inside);
    }
    outside
}

/// The witness circuit of a k-induction proof (no simple-path
/// constraints) of "no `bad`" on `model`, strengthened by `lemmas` (cubes
/// over latch positions that no reachable state satisfies, inductive on
/// their own): see the module header. Its size is k copies of the model.
pub fn witness_from_kinduction(
    model: &Aig,
    bad: &[Lit],
    k: usize,
    lemmas: &[Vec<(usize, bool)>],
) -> Aig {
    let mut w = model.clone();
    w.justice.clear();
    w.fairness.clear();
    let n = model.num_nodes();
    // A window position: its latches, its step's inputs and its flag.
    struct Slot {
        latches: Vec<Lit>,
        inputs: Vec<Lit>,
        flag: Lit,
    }
    let current = Slot {
        latches: (model.latches.iter())
            .map(|l| Lit::new(l.var, false))
            .collect(),
        inputs: (model.inputs.iter()).map(|&v| Lit::new(v, false)).collect(),
        flag: Lit::TRUE,
    };
    let mut slots = vec![current];
    for i in 1..k {
        // Slot i holds what slot i−1 held one step ago (uninitialised: the
        // flag says whether it means anything).
        let latches: Vec<Lit> = (0..model.latches.len())
            .map(|_| w.add_latch(None))
            .collect();
        let inputs: Vec<Lit> = (0..model.inputs.len()).map(|_| w.add_latch(None)).collect();
        let flag = w.add_latch(Some(false));
        let first = w.latches.len() - latches.len() - inputs.len() - 1;
        let prev = &slots[i - 1];
        let nexts: Vec<Lit> = (prev.latches.iter().chain(&prev.inputs))
            .copied()
            .chain([prev.flag])
            .collect();
        for (j, next) in nexts.into_iter().enumerate() {
            w.set_next(first + j, next);
        }
        slots.push(Slot {
            latches,
            inputs,
            flag,
        });
    }
    // The model's functions over each slot: bad, constraints, next states.
    let mut good = Lit::TRUE;
    for (i, slot) in slots.iter().enumerate() {
        let mut map = vec![Lit::FALSE; n];
        for (l, latch) in model.latches.iter().enumerate() {
            map[latch.var.0 as usize] = slot.latches[l];
        }
        for (j, &v) in model.inputs.iter().enumerate() {
            map[v.0 as usize] = slot.inputs[j];
        }
        w.copy_ands(model, &mut map, |_| true);
        let any_bad = {
            let images: Vec<Lit> = bad.iter().map(|&b| map_lit(&map, b)).collect();
            w.or_all(&images)
        };
        let within = outside_cubes(&mut w, &slot.latches, lemmas);
        let mut fine = w.and(!any_bad, within);
        if i > 0 {
            // A step of the model: constraints hold, and it leads to the
            // state one slot nearer the present.
            for &c in &model.constraints {
                fine = w.and(fine, map_lit(&map, c));
            }
            for (l, latch) in model.latches.iter().enumerate() {
                let next = map_lit(&map, latch.next);
                let same = !w.xor(next, slots[i - 1].latches[l]);
                fine = w.and(fine, same);
            }
            // Flags only ever fill from the present backwards.
            let ordered = w.or(!slot.flag, slots[i - 1].flag);
            fine = w.and(fine, ordered);
        }
        // The oldest meaningful state of a window that is not full is a
        // reset state (a full window, the last slot, need not be).
        if i + 1 < k {
            let oldest = w.and(slot.flag, !slots[i + 1].flag);
            let mut reset = Lit::TRUE;
            for (l, latch) in model.latches.iter().enumerate() {
                if let Some(v) = latch.init {
                    reset = w.and(reset, slot.latches[l].xor(!v));
                }
            }
            let started = w.or(!oldest, reset);
            fine = w.and(fine, started);
        }
        let meant = w.or(!slot.flag, fine);
        good = w.and(good, meant);
    }
    w.bad = vec![!good];
    w
}

/// AND gates encoded in one solver, hashed on their operand literals, so that
/// model and witness share every gate they have in common: the simulation
/// checks then compare identical literals instead of solving a miter of two
/// copies of the same (possibly arithmetic) circuit.
struct Gates {
    table: HashMap<(sat::Lit, sat::Lit), sat::Lit>,
    tru: sat::Lit,
}

impl Gates {
    fn new(tru: sat::Lit) -> Gates {
        Gates {
            table: HashMap::new(),
            tru,
        }
    }

    fn and(&mut self, solver: &mut dyn Solver, x: sat::Lit, y: sat::Lit) -> sat::Lit {
        let (x, y) = if x < y { (x, y) } else { (y, x) };
        let (t, f) = (self.tru, !self.tru);
        if x == f || y == f || x == !y {
            return f;
        }
        if x == t || x == y {
            return y;
        }
        if y == t {
            return x;
        }
        *self.table.entry((x, y)).or_insert_with(|| {
            let g = solver.new_var();
            solver.add_clause(&[!g, x]);
            solver.add_clause(&[!g, y]);
            solver.add_clause(&[g, !x, !y]);
            g
        })
    }
}

/// One circuit's copy in a solver, frame by frame, each encoded as far as
/// the checks read it (the reset check reads only latches and constraints;
/// encoding whole frames of a model and of a witness that holds an
/// invariant of 100,000 equalities took 3.4 of a 7.7 s check on `cal229`).
struct Copy<'a> {
    aig: &'a Aig,
    frames: Vec<Lazy<'a>>,
}

impl<'a> Copy<'a> {
    /// Adds a frame of `aig`; `shared` gives the solver literals of its
    /// first inputs and latches (shared with the other circuit), the others
    /// are fresh.
    fn frame(
        &mut self,
        solver: &mut dyn Solver,
        shared_inputs: &[sat::Lit],
        shared_latches: &[sat::Lit],
    ) {
        let mut leaves = |shared: &[sat::Lit], n: usize| -> Vec<sat::Lit> {
            (0..n)
                .map(|i| shared.get(i).copied().unwrap_or_else(|| solver.new_var()))
                .collect()
        };
        let inputs = leaves(shared_inputs, self.aig.inputs.len());
        let latches = leaves(shared_latches, self.aig.latches.len());
        self.frames.push(Lazy::new(self.aig, inputs, latches));
    }

    fn lit(&mut self, s: &mut dyn Solver, g: &mut Gates, l: Lit, k: usize) -> sat::Lit {
        self.frames[k].lit(s, g, l)
    }

    /// A literal equivalent to "all constraints hold in frame k".
    fn constraints(&mut self, s: &mut dyn Solver, g: &mut Gates, k: usize) -> sat::Lit {
        let lits = self.frames[k].lits_of(s, g, &self.aig.constraints);
        let all = s.new_var();
        let mut clause = vec![all];
        for l in lits {
            s.add_clause(&[!all, l]);
            clause.push(!l);
        }
        s.add_clause(&clause);
        all
    }

    /// A literal equivalent to "some bad property holds in frame k": a
    /// model's property is that none ever does.
    fn bad(&mut self, s: &mut dyn Solver, g: &mut Gates, k: usize) -> sat::Lit {
        let lits = self.frames[k].lits_of(s, g, &self.aig.bad);
        let any = s.new_var();
        let mut clause = vec![!any];
        for l in lits {
            s.add_clause(&[any, !l]);
            clause.push(l);
        }
        s.add_clause(&clause);
        any
    }

    /// A literal equivalent to "latches `0..n` are at their reset values"
    /// (a reset function's value read in frame 0).
    fn reset(&mut self, solver: &mut dyn Solver, g: &mut Gates, n: usize) -> sat::Lit {
        let all = solver.new_var();
        let mut clause = vec![all];
        for i in 0..n {
            let latch = self.aig.latches[i];
            let current = self.frames[0].latches[i];
            let l = match (latch.init, latch.reset) {
                (_, Some(r)) => {
                    let value = self.lit(solver, g, r, 0);
                    equal(solver, current, value)
                }
                (Some(v), None) => current.xor(!v),
                (None, None) => continue,
            };
            solver.add_clause(&[!all, l]);
            clause.push(!l);
        }
        solver.add_clause(&clause);
        all
    }
}

/// A literal equivalent to `a = b` (fresh variable).
fn equal(solver: &mut dyn Solver, a: sat::Lit, b: sat::Lit) -> sat::Lit {
    let e = solver.new_var();
    solver.add_clause(&[!e, !a, b]);
    solver.add_clause(&[!e, a, !b]);
    solver.add_clause(&[e, a, b]);
    solver.add_clause(&[e, !a, !b]);
    e
}

/// Builds one check into a solver (with its gate table) and returns the
/// assumptions under which the check's negation is satisfiable.
type CheckBuilder<'a> = dyn Fn(&mut dyn Solver, &mut Gates) -> Vec<sat::Lit> + 'a;

/// Checks that `witness` certifies that none of `model`'s bad properties
/// is ever reached. Each check runs on a fresh solver of `backend`.
pub fn check_witness(
    model: &Aig,
    witness: &Aig,
    backend: Backend,
    budget: &Budget,
) -> Result<(), String> {
    if witness.inputs.len() < model.inputs.len() || witness.latches.len() < model.latches.len() {
        return Err(format!(
            "the witness has {} inputs and {} latches, fewer than the model's {} and {}",
            witness.inputs.len(),
            witness.latches.len(),
            model.inputs.len(),
            model.latches.len()
        ));
    }
    // The base and step checks read the witness's one property.
    if witness.bad.len() != 1 {
        return Err(format!(
            "the witness has {} bad properties; expected one",
            witness.bad.len()
        ));
    }
    let shared = model.latches.len();
    // Each check: build, then ask whether its negation is satisfiable.
    let checks: [(&str, &CheckBuilder); 3] = [
        ("reset", &|s, g| {
            let (mut m, mut w) = pair(s, model, witness);
            let (rm, cm) = (m.reset(s, g, shared), m.constraints(s, g, 0));
            let (rw, cw) = (w.reset(s, g, shared), w.constraints(s, g, 0));
            let both = s.new_var();
            s.add_clause(&[!both, rw]);
            s.add_clause(&[!both, cw]);
            s.add_clause(&[both, !rw, !cw]);
            vec![rm, cm, !both]
        }),
        ("transition", &|s, g| {
            let (mut m, mut w) = pair(s, model, witness);
            let ins1: Vec<sat::Lit> = (0..model.inputs.len()).map(|_| s.new_var()).collect();
            let next: Vec<sat::Lit> = (0..shared)
                .map(|i| m.lit(s, g, model.latches[i].next, 0))
                .collect();
            // In frame 1 the shared latches hold the model's next state, the
            // witness's own latches their own next state.
            let mut w_next = next.clone();
            for l in &witness.latches[shared..] {
                w_next.push(w.lit(s, g, l.next, 0));
            }
            m.frame(s, &ins1, &next);
            w.frame(s, &ins1, &w_next);
            let (cm0, cm1, cw0, cw1) = (
                m.constraints(s, g, 0),
                m.constraints(s, g, 1),
                w.constraints(s, g, 0),
                w.constraints(s, g, 1),
            );
            let mut agree = vec![cw1];
            for (latch, &n) in witness.latches.iter().zip(&next) {
                // The same literal (the witness copies the model's next
                // state) agrees without a question to the solver.
                let x = w.lit(s, g, latch.next, 0);
                if x != n {
                    agree.push(equal(s, x, n));
                }
            }
            let all = s.new_var();
            let mut clause = vec![all];
            for &a in &agree {
                s.add_clause(&[!all, a]);
                clause.push(!a);
            }
            s.add_clause(&clause);
            vec![cm0, cm1, cw0, !all]
        }),
        ("property", &|s, g| {
            let (mut m, mut w) = pair(s, model, witness);
            let (cm, cw) = (m.constraints(s, g, 0), w.constraints(s, g, 0));
            vec![cm, cw, m.bad(s, g, 0), !w.bad(s, g, 0)]
        }),
    ];
    for (name, build) in checks {
        let mut solver = backend.create(budget.clone());
        let tru = solver.new_var();
        solver.add_clause(&[tru]);
        let mut gates = Gates::new(tru);
        let assumptions = build(solver.as_mut(), &mut gates);
        match solver.solve(&assumptions) {
            SolveResult::Unsat => {}
            SolveResult::Sat => return Err(format!("the {name} check fails")),
            SolveResult::Interrupted => return Err(format!("the {name} check ran out of time")),
        }
    }
    check_inductive(witness, backend, budget)
}

/// The base and step checks: R_W ∧ C_W ⇒ P_W and P_W0 ∧ T_W ∧ C_W0 ∧
/// C_W1 ⇒ P_W1. P_W is split into its conjuncts (its tree of AND gates),
/// proved one at a time in the order of their nodes; each proved one is
/// kept for the next (the consequent proved by steps, p_1, then p_2 given
/// p_1, …). A conjunct that says two literals are equal (an XNOR) is used
/// as such: once proved, the later encoding reads the higher node as the
/// lower one, and in frame 0 of the step, where P_W is assumed, every such
/// node reads its partner, with its own gate constrained equal to it. An
/// invariant of thousands of equalities between gates (signal
/// correspondence) then costs a SAT call per equality that is not
/// structural, where one query over all of it makes the solver
/// rediscover every lower equality alone.
fn check_inductive(witness: &Aig, backend: Backend, budget: &Budget) -> Result<(), String> {
    let holds = witness.bad.first().map_or(Lit::TRUE, |&b| !b);
    // A conjunct that is a literal says its node equals a constant: it is
    // merged and used like an equality.
    let mut parts: Vec<(Lit, Option<(Lit, Lit)>)> = (conjuncts(witness, holds).into_iter())
        .map(|p| match equality(witness, p) {
            None if p.is_const() => (p, None),
            eq => (p, Some(eq.unwrap_or((p, Lit::TRUE)))),
        })
        .collect();
    // In the order of the higher node of each: what a conjunct's encoding
    // reads below it is proved (and merged) first.
    parts.sort_by_key(|&(p, eq)| eq.map_or(p.var(), |(a, b)| a.var().max(b.var())));
    for name in ["base", "step"] {
        let mut solver = backend.create_incremental(budget.clone());
        let s = solver.as_mut();
        let tru = s.new_var();
        s.add_clause(&[tru]);
        let g = &mut Gates::new(tru);
        let inputs: Vec<sat::Lit> = witness.inputs.iter().map(|_| s.new_var()).collect();
        let mut frame = if name == "base" {
            let latches: Vec<sat::Lit> = (witness.latches.iter())
                .map(|l| l.init.map_or_else(|| s.new_var(), |v| tru.xor(!v)))
                .collect();
            let mut reset = Lazy::new(witness, inputs, latches.clone());
            // A reset function: the latch equals its literal in this frame.
            for (latch, &current) in witness.latches.iter().zip(&latches) {
                if let Some(r) = latch.reset {
                    let value = reset.lit(s, g, r);
                    s.add_clause(&[!current, value]);
                    s.add_clause(&[current, !value]);
                }
            }
            reset
        } else {
            // Frame 0, with P_W assumed (encoded as far as the checks read).
            let latches = witness.latches.iter().map(|_| s.new_var()).collect();
            let mut zero = Lazy::new(witness, inputs, latches);
            // Every merge before any encoding, then the other conjuncts.
            let unmerged: Vec<Lit> = (parts.iter())
                .filter(|&&(_, eq)| !eq.is_some_and(|(a, b)| zero.merge(a, b)))
                .map(|&(p, _)| p)
                .collect();
            for p in unmerged {
                let l = zero.lit(s, g, p);
                s.add_clause(&[l]);
            }
            // A merged gate's own function equals what it reads.
            let merged: Vec<(u32, Lit)> = zero.subst.iter().map(|(&v, &t)| (v, t)).collect();
            for (v, t) in merged {
                if let Node::And(a, b) = witness.node(crate::ir::aig::Var(v)) {
                    let (x, y) = (zero.lit(s, g, a), zero.lit(s, g, b));
                    let own = g.and(s, x, y);
                    let to = zero.lit(s, g, t);
                    if own != to {
                        s.add_clause(&[!own, to]);
                        s.add_clause(&[own, !to]);
                    }
                }
            }
            let next: Vec<sat::Lit> = (witness.latches.iter())
                .map(|l| zero.lit(s, g, l.next))
                .collect();
            let c0 = zero.lits_of(s, g, &witness.constraints);
            for c in c0 {
                s.add_clause(&[c]);
            }
            let inputs1 = witness.inputs.iter().map(|_| s.new_var()).collect();
            Lazy::new(witness, inputs1, next)
        };
        for c in frame.lits_of(s, g, &witness.constraints) {
            s.add_clause(&[c]);
        }
        for &(p, eq) in &parts {
            if budget.expired() {
                return Err(format!("the {name} check ran out of time"));
            }
            let (x, y) = match eq {
                Some((a, b)) => (frame.lit(s, g, a), frame.lit(s, g, b)),
                None => (frame.lit(s, g, p), tru),
            };
            for query in [[x, !y], [!x, y]] {
                if x == y {
                    break;
                }
                match s.solve(&query) {
                    SolveResult::Unsat => {}
                    SolveResult::Sat => return Err(format!("the {name} check fails")),
                    SolveResult::Interrupted => {
                        return Err(format!("the {name} check ran out of time"))
                    }
                }
            }
            if x != y {
                s.add_clause(&[!x, y]);
                s.add_clause(&[x, !y]);
            }
            if let Some((a, b)) = eq {
                frame.proved_equal(s, g, a, b);
            }
        }
    }
    Ok(())
}

/// The two sides of `p` if it says that two literals are equal: the
/// complement of an XOR, `¬(¬(a ∧ b) ∧ ¬(¬a ∧ ¬b))`.
fn equality(aig: &Aig, p: Lit) -> Option<(Lit, Lit)> {
    let Node::And(x, y) = aig.node(p.var()) else {
        return None;
    };
    let (Node::And(a, b), Node::And(c, d)) = (aig.node(x.var()), aig.node(y.var())) else {
        return None;
    };
    let both_negated = p.is_negated() && x.is_negated() && y.is_negated();
    let opposite = (c == !a && d == !b) || (c == !b && d == !a);
    (both_negated && opposite && a.var() != b.var()).then_some((a, b))
}

/// One frame of a circuit in a solver, encoded on demand; a node in
/// `subst` reads a literal of a lower node instead of its own gate.
struct Lazy<'a> {
    aig: &'a Aig,
    inputs: Vec<sat::Lit>,
    latches: Vec<sat::Lit>,
    lits: Vec<Option<sat::Lit>>,
    subst: HashMap<u32, Lit>,
}

impl<'a> Lazy<'a> {
    fn new(aig: &'a Aig, inputs: Vec<sat::Lit>, latches: Vec<sat::Lit>) -> Lazy<'a> {
        Lazy {
            aig,
            inputs,
            latches,
            lits: vec![None; aig.num_nodes()],
            subst: HashMap::new(),
        }
    }

    /// Makes the higher node of `a = b` read the lower, if it has not been
    /// encoded or merged yet; whether it did.
    fn merge(&mut self, a: Lit, b: Lit) -> bool {
        let (hi, lo) = higher_lower(a, b);
        let v = hi.var().0;
        if self.lits[v as usize].is_some() || self.subst.contains_key(&v) {
            return false;
        }
        self.subst.insert(v, lo.xor(hi.is_negated()));
        true
    }

    /// After `a = b` is proved (and its clauses added): the higher node
    /// reads the lower from now on, encoded or not (what already reads its
    /// own literal is tied to it by those clauses).
    fn proved_equal(&mut self, s: &mut dyn Solver, g: &mut Gates, a: Lit, b: Lit) {
        let (hi, lo) = higher_lower(a, b);
        let l = self.lit(s, g, lo).xor(hi.is_negated());
        self.lits[hi.var().0 as usize] = Some(l);
    }

    fn lits_of(&mut self, s: &mut dyn Solver, g: &mut Gates, ls: &[Lit]) -> Vec<sat::Lit> {
        ls.iter().map(|&l| self.lit(s, g, l)).collect()
    }

    fn lit(&mut self, s: &mut dyn Solver, g: &mut Gates, l: Lit) -> sat::Lit {
        let mut stack = vec![l.var().0 as usize];
        while let Some(&v) = stack.last() {
            if self.lits[v].is_some() {
                stack.pop();
                continue;
            }
            if let Some(&t) = self.subst.get(&(v as u32)) {
                match self.lits[t.var().0 as usize] {
                    Some(x) => {
                        self.lits[v] = Some(x.xor(t.is_negated()));
                        stack.pop();
                    }
                    None => stack.push(t.var().0 as usize),
                }
                continue;
            }
            let x = match self.aig.nodes()[v] {
                Node::False => !g.tru,
                Node::Input(i) => self.inputs[i as usize],
                Node::Latch(i) => self.latches[i as usize],
                Node::And(a, b) => {
                    let (va, vb) = (a.var().0 as usize, b.var().0 as usize);
                    match (self.lits[va], self.lits[vb]) {
                        (Some(x), Some(y)) => {
                            g.and(s, x.xor(a.is_negated()), y.xor(b.is_negated()))
                        }
                        (x, y) => {
                            if x.is_none() {
                                stack.push(va);
                            }
                            if y.is_none() {
                                stack.push(vb);
                            }
                            continue;
                        }
                    }
                }
            };
            self.lits[v] = Some(x);
            stack.pop();
        }
        self.lits[l.var().0 as usize]
            .expect("encoded")
            .xor(l.is_negated())
    }
}

/// The two sides of an equality, the one of the higher node first.
fn higher_lower(a: Lit, b: Lit) -> (Lit, Lit) {
    if a.var() > b.var() {
        (a, b)
    } else {
        (b, a)
    }
}

/// The literals whose conjunction is `root` by its tree of (unnegated)
/// AND gates, in the order of their nodes.
fn conjuncts(aig: &Aig, root: Lit) -> Vec<Lit> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![root];
    while let Some(l) = stack.pop() {
        if !seen.insert(l) {
            continue;
        }
        match aig.node(l.var()) {
            Node::And(a, b) if !l.is_negated() => {
                stack.push(a);
                stack.push(b);
            }
            _ => out.push(l),
        }
    }
    out.sort_unstable_by_key(|l| l.0);
    out
}

/// Frame 0 of model and witness over shared inputs and latches.
fn pair<'a>(s: &mut dyn Solver, model: &'a Aig, witness: &'a Aig) -> (Copy<'a>, Copy<'a>) {
    let ins: Vec<sat::Lit> = (0..model.inputs.len()).map(|_| s.new_var()).collect();
    let ls: Vec<sat::Lit> = (0..model.latches.len()).map(|_| s.new_var()).collect();
    let mut m = Copy {
        aig: model,
        frames: Vec::new(),
    };
    let mut w = Copy {
        aig: witness,
        frames: Vec::new(),
    };
    m.frame(s, &ins, &ls);
    w.frame(s, &ins, &ls);
    (m, w)
}
