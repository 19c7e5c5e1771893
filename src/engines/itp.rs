//! Interpolation-based model checking (McMillan, "Interpolation and
//! SAT-based model checking", CAV 2003).
//!
//! For a bound k, with R the initial states at first: A is R(s0) ∧ C(s0) ∧
//! T(s0, s1) and B says that from s1 a bad state comes within k steps
//! (constraints holding up to it). If A ∧ B is satisfiable and R is still
//! the initial states, the model is a counterexample; if R had grown, R may
//! over-approximate, and k grows. If it is unsatisfiable, the interpolant I
//! (over s1, from the refutation: [`crate::sat::proof`]) contains every
//! successor of R and reaches no bad state within k steps; when I adds
//! nothing to R, R is an inductive invariant excluding the bad states,
//! otherwise R := R ∨ I and the question is asked again.
//!
//! The invariant is a circuit over the latches ([`CircuitInvariant`]),
//! checked apart from this engine through its witness circuit
//! (`check::certificate`). The engine complements IC3: its invariants are
//! not clauses, and on some HWMCC circuits (zipcpu's MMU) ABC's
//! interpolation proves in seconds what its PDR and invar's IC3 do not in a
//! minute.

use super::{interrupted_reason, CircuitInvariant, Limits, Outcome, Proof, Stats, Verdict};
use crate::ir::aig::{self, Aig, Node};
use crate::ir::trace::Trace;
use crate::sat::proof::{Part, ProofSolver};
use crate::sat::{Lit, SolveResult};
use std::time::Instant;

/// Counters of a run.
#[derive(Default)]
struct Counters {
    queries: u64,
}

/// Runs interpolation until a proof, a counterexample, the bound on k or
/// the budget.
pub fn check(aig: &Aig, limits: &Limits) -> Outcome {
    if let Some(outcome) = super::sabotaged_outcome(super::EngineId::Itp, limits.backend) {
        return outcome;
    }
    let start = Instant::now();
    let mut counters = Counters::default();
    let (verdict, depth) = run(aig, limits, &mut counters);
    let mut stats = Stats {
        depth,
        time: start.elapsed(),
        ..Stats::default()
    };
    stats.sat.calls = counters.queries;
    let outcome = Outcome {
        verdict,
        engine: super::EngineId::Itp,
        backend: limits.backend,
        stats,
    };
    super::sabotage(aig, outcome)
}

fn run(aig: &Aig, limits: &Limits, counters: &mut Counters) -> (Verdict, usize) {
    let budget = &limits.budget;
    let mut inv = Aig::new();
    let latch_inputs: Vec<aig::Lit> = aig.latches.iter().map(|_| inv.add_input()).collect();
    let mut init = aig::Lit::TRUE;
    for (latch, &x) in aig.latches.iter().zip(&latch_inputs) {
        if let Some(v) = latch.init {
            init = inv.and(init, x.xor(!v));
        }
    }
    // A bad initial state first.
    let mut query = Query::new(aig, &inv, init, 0);
    counters.queries += 1;
    match query.solver.solve(budget) {
        SolveResult::Sat => return (Verdict::Unsafe(query.trace(0)), 0),
        SolveResult::Interrupted => return (Verdict::Unknown(interrupted_reason(budget)), 0),
        SolveResult::Unsat => {}
    }
    let mut k = 1;
    loop {
        if limits.max_depth.is_some_and(|m| k > m) {
            return (
                Verdict::Unknown(format!("not proved up to k = {}", k - 1)),
                k,
            );
        }
        let mut reached = init;
        let mut first = true;
        let mut images = 0;
        loop {
            let mut query = Query::new(aig, &inv, reached, k);
            counters.queries += 1;
            let answer = query.solver.solve(budget);
            match answer {
                SolveResult::Interrupted => {
                    return (Verdict::Unknown(interrupted_reason(budget)), k)
                }
                SolveResult::Sat if first => {
                    let bad_at = query.first_bad();
                    return (Verdict::Unsafe(query.trace(bad_at)), k);
                }
                SolveResult::Sat => break,
                SolveResult::Unsat => {}
            }
            let image = query.interpolant(&mut inv, &latch_inputs);
            // Done when reached ∨ image is inductive (ABC's "inductive
            // containment"; image ⇒ reached, McMillan's test, implies it and
            // comes later): it holds initially, excludes the bad states (no
            // image reaches one) and is then an invariant.
            let candidate = inv.or(reached, image);
            counters.queries += 1;
            match inductive(aig, &inv, candidate, budget) {
                SolveResult::Unsat => {
                    let proof = Proof::Circuit(CircuitInvariant {
                        circuit: inv,
                        invariant: candidate,
                    });
                    return (Verdict::Safe(proof), k);
                }
                SolveResult::Interrupted => {
                    return (Verdict::Unknown(interrupted_reason(budget)), k)
                }
                SolveResult::Sat => {}
            }
            reached = candidate;
            first = false;
            images += 1;
        }
        // After n images without a real counterexample, no bad state is
        // within n + k − 1 steps of the initial states, approximately: the
        // next bound starts there (as ABC's `int` does), at least one deeper.
        k += images.max(1);
    }
}

/// Whether `candidate` (in `inv`, over the latches) fails to be inductive
/// relative to the constraints: `Unsat` when candidate ∧ C ∧ T ∧
/// ¬candidate' has no model.
fn inductive(
    aig: &Aig,
    inv: &Aig,
    candidate: aig::Lit,
    budget: &crate::util::budget::Budget,
) -> SolveResult {
    let mut solver = ProofSolver::new();
    let mut enc = CircuitEncoder::new(&mut solver, Part::A);
    let state: Vec<Lit> = aig.latches.iter().map(|_| solver.new_var()).collect();
    let all = vec![true; aig.num_nodes()];
    let (nodes, _) = frame(aig, &mut solver, &enc, &state, &all);
    for &c in &aig.constraints {
        solver.add_clause(&[lit(&nodes, c)], Part::A);
    }
    let now = enc.encode(&mut solver, inv, candidate, &state);
    let next_state: Vec<Lit> = aig.latches.iter().map(|l| lit(&nodes, l.next)).collect();
    let next = enc.encode(&mut solver, inv, candidate, &next_state);
    solver.add_clause(&[now], Part::A);
    solver.add_clause(&[!next], Part::A);
    solver.solve(budget)
}

/// Encodes circuits into a [`ProofSolver`], all into one part.
struct CircuitEncoder {
    part: Part,
    tru: Lit,
}

impl CircuitEncoder {
    fn new(solver: &mut ProofSolver, part: Part) -> CircuitEncoder {
        let tru = solver.new_var();
        solver.add_clause(&[tru], part);
        CircuitEncoder { part, tru }
    }

    /// `x ∧ y`, constants folded.
    fn and(&self, solver: &mut ProofSolver, x: Lit, y: Lit) -> Lit {
        let (tru, fls) = (self.tru, !self.tru);
        if x == fls || y == fls || x == !y {
            return fls;
        }
        if x == tru || x == y {
            return y;
        }
        if y == tru {
            return x;
        }
        let g = solver.new_var();
        solver.add_clause(&[!g, x], self.part);
        solver.add_clause(&[!g, y], self.part);
        solver.add_clause(&[g, !x, !y], self.part);
        g
    }

    /// The literal of `out`, a node of `circuit` whose inputs are `inputs`
    /// (only its cone is encoded).
    fn encode(
        &mut self,
        solver: &mut ProofSolver,
        circuit: &Aig,
        out: aig::Lit,
        inputs: &[Lit],
    ) -> Lit {
        let top = out.var().0 as usize;
        let mut needed = vec![false; top + 1];
        needed[top] = true;
        for v in (0..=top).rev() {
            if let (true, Node::And(a, b)) = (needed[v], circuit.nodes()[v]) {
                needed[a.var().0 as usize] = true;
                needed[b.var().0 as usize] = true;
            }
        }
        let mut lits = vec![!self.tru; top + 1];
        for v in 0..=top {
            if !needed[v] {
                continue;
            }
            lits[v] = match circuit.nodes()[v] {
                Node::False => !self.tru,
                Node::Input(i) => inputs[i as usize],
                Node::Latch(_) => unreachable!("an invariant circuit has no latches"),
                Node::And(a, b) => {
                    let x = lits[a.var().0 as usize].xor(a.is_negated());
                    let y = lits[b.var().0 as usize].xor(b.is_negated());
                    self.and(solver, x, y)
                }
            };
        }
        lits[top].xor(out.is_negated())
    }
}

/// One question of the loop: `reached` in frame 0 (part A) and a bad state
/// within `k` steps after it (part B); with k = 0, a bad state in frame 0.
struct Query {
    solver: ProofSolver,
    /// Latch literals of frame 0 and frame 1 (the shared variables).
    state0: Vec<Lit>,
    state1: Vec<Lit>,
    /// Input literals per frame.
    inputs: Vec<Vec<Lit>>,
    /// Per frame 1..=k: bad there, constraints holding up to it.
    bad: Vec<Lit>,
}

impl Query {
    fn new(aig: &Aig, inv: &Aig, reached: aig::Lit, k: usize) -> Query {
        // Each frame encodes only the cone of what the frames after it read
        // (ABC's unrolling does the same): fewer variables, and fewer shared
        // ones, so smaller proofs and interpolants.
        let mut roots: Vec<aig::Lit> = aig.constraints.clone();
        roots.push(aig.bad[0]);
        let mut masks = vec![Vec::new(); k + 1];
        let mut after: Option<&Vec<bool>> = None;
        let reads = |mask: Option<&Vec<bool>>, base: &[aig::Lit]| {
            let mut r = base.to_vec();
            if let Some(m) = mask {
                r.extend(
                    (aig.latches.iter())
                        .filter(|l| m[l.var.0 as usize])
                        .map(|l| l.next),
                );
            }
            cone(aig, &r)
        };
        for j in (1..=k).rev() {
            masks[j] = reads(after, &roots);
            after = Some(&masks[j]);
        }
        let base0: Vec<aig::Lit> = match k {
            0 => roots.clone(),
            _ => aig.constraints.clone(),
        };
        masks[0] = reads(after, &base0);

        let mut solver = ProofSolver::new();
        let mut a = CircuitEncoder::new(&mut solver, Part::A);
        let b = CircuitEncoder::new(&mut solver, Part::B);
        let state0: Vec<Lit> = aig.latches.iter().map(|_| solver.new_var()).collect();
        let (nodes0, inputs0) = frame(aig, &mut solver, &a, &state0, &masks[0]);
        let r = a.encode(&mut solver, inv, reached, &state0);
        solver.add_clause(&[r], Part::A);
        for &c in &aig.constraints {
            solver.add_clause(&[lit(&nodes0, c)], Part::A);
        }
        let mut query = Query {
            solver,
            state0,
            state1: Vec::new(),
            inputs: vec![inputs0],
            bad: Vec::new(),
        };
        if k == 0 {
            let bad0 = lit(&nodes0, aig.bad[0]);
            query.solver.add_clause(&[bad0], Part::A);
            return query;
        }
        // Frame 1's latches that it reads: fresh variables defined in A,
        // read by B, the only shared ones.
        let solver = &mut query.solver;
        for latch in &aig.latches {
            if !masks[1][latch.var.0 as usize] {
                query.state1.push(!b.tru);
                continue;
            }
            let s = solver.new_var();
            let next = lit(&nodes0, latch.next);
            solver.add_clause(&[!s, next], Part::A);
            solver.add_clause(&[s, !next], Part::A);
            query.state1.push(s);
        }
        let mut state = query.state1.clone();
        let mut ok = b.tru;
        for mask in &masks[1..] {
            let (nodes, inputs) = frame(aig, solver, &b, &state, mask);
            for &c in &aig.constraints {
                ok = b.and(solver, ok, lit(&nodes, c));
            }
            let bad = b.and(solver, ok, lit(&nodes, aig.bad[0]));
            query.bad.push(bad);
            query.inputs.push(inputs);
            state = aig.latches.iter().map(|l| lit(&nodes, l.next)).collect();
        }
        solver.add_clause(&query.bad, Part::B);
        query
    }

    /// The first frame (1..=k) whose bad literal the model sets.
    fn first_bad(&self) -> usize {
        1 + (self.bad.iter())
            .position(|&b| self.solver.model_value(b))
            .expect("a model of the query reaches a bad state")
    }

    /// The model's counterexample, bad at step `steps_to_bad`.
    fn trace(&self, steps_to_bad: usize) -> Trace {
        let value = |l: &Lit| self.solver.model_value(*l);
        Trace {
            init: self.state0.iter().map(value).collect(),
            inputs: (self.inputs[..=steps_to_bad].iter())
                .map(|frame| frame.iter().map(value).collect())
                .collect(),
        }
    }

    /// The interpolant over frame 1's latches, built in `inv` over
    /// `latch_inputs`.
    fn interpolant(&self, inv: &mut Aig, latch_inputs: &[aig::Lit]) -> aig::Lit {
        let mut of_var = vec![None; self.solver.num_vars()];
        for (i, s) in self.state1.iter().enumerate() {
            of_var[s.var() as usize] = Some(latch_inputs[i].xor(s.is_negative()));
        }
        self.solver.interpolant(inv, &|v| {
            of_var[v as usize].expect("only frame 1's latches are shared")
        })
    }
}

/// Encodes one frame of `aig` over the latch literals `state`: every
/// node's literal and the fresh input variables.
fn frame(
    aig: &Aig,
    solver: &mut ProofSolver,
    enc: &CircuitEncoder,
    state: &[Lit],
    needed: &[bool],
) -> (Vec<Lit>, Vec<Lit>) {
    let mut nodes = Vec::with_capacity(aig.num_nodes());
    let mut inputs = Vec::with_capacity(aig.inputs.len());
    for (v, node) in aig.nodes().iter().enumerate() {
        // Nodes outside the cone are never read; an input outside it may
        // take any value in a trace, false here.
        let l = match *node {
            _ if !needed[v] => !enc.tru,
            Node::False => !enc.tru,
            Node::Input(_) => solver.new_var(),
            Node::Latch(i) => state[i as usize],
            Node::And(a, b) => {
                let x = lit(&nodes, a);
                let y = lit(&nodes, b);
                enc.and(solver, x, y)
            }
        };
        if let Node::Input(_) = node {
            inputs.push(l);
        }
        nodes.push(l);
    }
    (nodes, inputs)
}

/// The nodes in the cone of `roots` (through AND gates; latches are
/// leaves).
fn cone(aig: &Aig, roots: &[aig::Lit]) -> Vec<bool> {
    let mut needed = vec![false; aig.num_nodes()];
    for r in roots {
        needed[r.var().0 as usize] = true;
    }
    for v in (0..aig.num_nodes()).rev() {
        if let (true, Node::And(a, b)) = (needed[v], aig.nodes()[v]) {
            needed[a.var().0 as usize] = true;
            needed[b.var().0 as usize] = true;
        }
    }
    needed
}

/// The literal of `l` in a frame whose node literals are `nodes`.
fn lit(nodes: &[Lit], l: aig::Lit) -> Lit {
    nodes[l.var().0 as usize].xor(l.is_negated())
}
