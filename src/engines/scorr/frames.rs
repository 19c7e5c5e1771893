//! The SAT side: the base case's frame at the initial states and the
//! inductive step's two frames, frame 0 speculatively reduced; each check
//! of a member against its representative, encoded on demand.

use crate::ir::aig::{Aig, Lit, Node};
use crate::sat::core::{Core, Value};
use crate::sat::{self, SolveResult, Solver};
use crate::util::budget::Budget;
use crate::util::rng::Rng;
use std::collections::HashMap;

/// Which check a round makes.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Mode {
    /// One frame, latches at their initial values (free where
    /// uninitialised): the base case.
    Initial,
    /// Frame 0 with free latches, frame 1 fed by its next states: the
    /// inductive step.
    Step,
}

/// Frames of the circuit in one solver, encoded on demand and
/// speculatively reduced: every node is read as its representative of the
/// round's start (`repr`), and a member is checked through its own gate
/// over reduced fanins. If every member's own gate equals its
/// representative, then, by induction in topological order, every node
/// equals its representative in the last frame; frame 0 read that way is
/// exactly the assumption that all equalities hold there.
pub(super) struct Frames<'a> {
    pub(super) aig: &'a Aig,
    pub(super) mode: Mode,
    pub(super) repr: Vec<Lit>,
    pub(super) solver: Core,
    pub(super) fals: sat::Lit,
    /// Per frame, then the last frame once more without reduction (the
    /// exact view, where the invariant constraints are read): each node's
    /// literal once encoded.
    pub(super) lits: Vec<Vec<Option<sat::Lit>>>,
    /// Frame 0's latches where they are free (their variable, made once).
    pub(super) free_latches: Vec<Option<sat::Lit>>,
    /// Gates by their fanins, across frames: a member whose own gate
    /// reads the same reduced fanins as its representative's is equal to
    /// it without a SAT call (most are, on circuits that hold two copies
    /// of one design).
    pub(super) strash: HashMap<(sat::Lit, sat::Lit), sat::Lit>,
}

impl<'a> Frames<'a> {
    pub(super) fn new(aig: &'a Aig, mode: Mode, repr: Vec<Lit>, budget: &Budget) -> Frames<'a> {
        let mut solver = Core::new(budget.clone());
        let tru = solver.new_var();
        Solver::add_clause(&mut solver, &[tru]);
        let frames = match mode {
            Mode::Initial => 1,
            Mode::Step => 2,
        };
        Frames {
            aig,
            mode,
            repr,
            solver,
            fals: !tru,
            lits: vec![vec![None; aig.num_nodes()]; frames + 1],
            free_latches: vec![None; aig.latches.len()],
            strash: HashMap::new(),
        }
    }

    /// The last frame.
    pub(super) fn last(&self) -> usize {
        self.lits.len() - 2
    }

    /// The view of the last frame without speculative reduction.
    pub(super) fn exact(&self) -> usize {
        self.lits.len() - 1
    }

    /// Assumes the invariant constraints: in frame 0 of the step as
    /// reduced (the equalities hold there), in the last frame through the
    /// circuit itself. Read reduced there, a constraint would lean on
    /// equalities not yet proved: a state where a lower member fails could
    /// be cut off by a constraint that reads a higher one, so no check
    /// would see the failure.
    pub(super) fn assume_constraints(&mut self) {
        let aig = self.aig;
        let mut views = vec![self.exact()];
        if self.mode == Mode::Step {
            views.push(0);
        }
        for view in views {
            for &c in &aig.constraints {
                let x = self.lit(view, c);
                Solver::add_clause(&mut self.solver, &[x]);
            }
        }
    }

    /// The AND of `x` and `y`: folded, hashed, or a new defined variable.
    pub(super) fn gate(&mut self, x: sat::Lit, y: sat::Lit) -> sat::Lit {
        let (x, y) = if x.code() < y.code() { (x, y) } else { (y, x) };
        let tru = !self.fals;
        if x == self.fals || y == self.fals || x == !y {
            return self.fals;
        }
        if x == tru || x == y {
            return y;
        }
        if y == tru {
            return x;
        }
        if let Some(&g) = self.strash.get(&(x, y)) {
            return g;
        }
        let g = self.solver.new_var();
        self.strash.insert((x, y), g);
        self.solver.add_definition(g.var(), &[!g, x]);
        self.solver.add_definition(g.var(), &[!g, y]);
        self.solver.add_definition(g.var(), &[g, !x, !y]);
        g
    }

    /// The literal of latch `i` in frame `f`, if its source is encoded;
    /// otherwise the node to encode first, `(frame, node)`.
    pub(super) fn latch(&mut self, f: usize, i: usize) -> Result<sat::Lit, (usize, usize)> {
        let latch = self.aig.latches[i];
        match (f, self.mode, latch.init) {
            (0, Mode::Initial, Some(b)) => Ok(self.fals.xor(b)),
            (0, ..) => Ok(match self.free_latches[i] {
                Some(x) => x,
                None => {
                    let x = self.solver.new_var();
                    self.free_latches[i] = Some(x);
                    x
                }
            }),
            _ => {
                let nv = latch.next.var().0 as usize;
                match self.lits[f - 1][nv] {
                    Some(x) => Ok(x.xor(latch.next.is_negated())),
                    None => Err((f - 1, nv)),
                }
            }
        }
    }

    /// The solver literal of `l` in view `f` (a frame, or the exact view),
    /// encoding what it needs.
    pub(super) fn lit(&mut self, f: usize, l: Lit) -> sat::Lit {
        let (last, exact) = (self.last(), self.exact());
        let mut stack = vec![(f, l.var().0 as usize)];
        while let Some(&(f, v)) = stack.last() {
            if self.lits[f][v].is_some() {
                stack.pop();
                continue;
            }
            let r = self.repr[v];
            let rv = r.var().0 as usize;
            if rv != v && f != exact {
                match self.lits[f][rv] {
                    Some(x) => {
                        self.lits[f][v] = Some(x.xor(r.is_negated()));
                        stack.pop();
                    }
                    None => stack.push((f, rv)),
                }
                continue;
            }
            match self.aig.nodes()[v] {
                Node::False => self.lits[f][v] = Some(self.fals),
                // The exact view shares the last frame's leaves.
                Node::Input(_) if f == exact => match self.lits[last][v] {
                    Some(x) => self.lits[f][v] = Some(x),
                    None => {
                        stack.push((last, v));
                        continue;
                    }
                },
                Node::Input(_) => self.lits[f][v] = Some(self.solver.new_var()),
                Node::Latch(i) => match self.latch(f.min(last), i as usize) {
                    Ok(x) => self.lits[f][v] = Some(x),
                    Err(first) => {
                        stack.push(first);
                        continue;
                    }
                },
                Node::And(a, b) => {
                    let (va, vb) = (a.var().0 as usize, b.var().0 as usize);
                    match (self.lits[f][va], self.lits[f][vb]) {
                        (Some(x), Some(y)) => {
                            let g = self.gate(x.xor(a.is_negated()), y.xor(b.is_negated()));
                            self.lits[f][v] = Some(g);
                        }
                        (x, y) => {
                            if x.is_none() {
                                stack.push((f, va));
                            }
                            if y.is_none() {
                                stack.push((f, vb));
                            }
                            continue;
                        }
                    }
                }
            }
            stack.pop();
        }
        self.lits[f][l.var().0 as usize]
            .expect("encoded")
            .xor(l.is_negated())
    }

    /// Assumes in frame 0 that every gate equals its representative: its
    /// own gate over reduced fanins is constrained to it (reading members
    /// as representatives alone would leave their fanins free to disagree:
    /// a gate constant in every reachable state is often a mutual
    /// exclusion between latches).
    pub(super) fn assume_equalities(&mut self, members: &[u32]) {
        for &m in members {
            if let Node::And(..) = self.aig.nodes()[m as usize] {
                let x = self.own_in(0, m as usize);
                let y = self.lit(0, self.repr[m as usize]);
                if x != y {
                    Solver::add_clause(&mut self.solver, &[!x, y]);
                    Solver::add_clause(&mut self.solver, &[x, !y]);
                }
            }
        }
    }

    /// After the classes changed (`repr`, the new representatives): forgets
    /// the encoding of every node of frame 0 whose reduced reading changed,
    /// and says per node whether its check reads such a node (its own
    /// reading, or its own gate's fanins). A representative is the lowest
    /// node of its class, so one pass in node order sees every cause first.
    pub(super) fn reread(&mut self, repr: &[Lit]) -> Vec<bool> {
        let mut dirty = vec![false; repr.len()];
        let mut check_changed = vec![false; repr.len()];
        for (v, node) in self.aig.nodes().iter().enumerate() {
            let r = repr[v];
            let fanins = match *node {
                Node::And(a, b) => dirty[a.var().0 as usize] || dirty[b.var().0 as usize],
                _ => false,
            };
            dirty[v] = r != self.repr[v]
                || match r.var().0 as usize != v {
                    true => dirty[r.var().0 as usize],
                    false => fanins,
                };
            if dirty[v] {
                self.lits[0][v] = None;
            }
            check_changed[v] = dirty[v] || fanins;
        }
        self.repr.clone_from_slice(repr);
        check_changed
    }

    /// Member `m`'s own function in the last frame, over reduced fanins.
    pub(super) fn own(&mut self, m: usize) -> sat::Lit {
        self.own_in(self.last(), m)
    }

    /// Member `m`'s own function in frame `f`, over reduced fanins.
    pub(super) fn own_in(&mut self, f: usize, m: usize) -> sat::Lit {
        match self.aig.nodes()[m] {
            Node::And(a, b) => {
                let (x, y) = (self.lit(f, a), self.lit(f, b));
                self.gate(x, y)
            }
            Node::Latch(i) => {
                if f > 0 {
                    let next = self.aig.latches[i as usize].next;
                    self.lit(f - 1, next);
                }
                self.latch(f, i as usize)
                    .expect("the next state is encoded")
            }
            Node::False | Node::Input(_) => unreachable!("members are latches and gates"),
        }
    }

    /// Whether `x ≠ y` is satisfiable: `Some(true)` with a model; `None`
    /// if a query ran out of `conflicts`.
    pub(super) fn differ(&mut self, x: sat::Lit, y: sat::Lit, conflicts: u64) -> Option<bool> {
        if x == y {
            return Some(false);
        }
        self.solver.set_conflict_limit(Some(conflicts));
        // Both queries have the same cone: computed once.
        self.solver.pin_domain(&[x, y]);
        let mut answer = Some(false);
        for (p, q) in [(x, !y), (!x, y)] {
            answer = match Solver::solve(&mut self.solver, &[p, q]) {
                SolveResult::Sat => Some(true),
                SolveResult::Unsat => continue,
                SolveResult::Interrupted => None,
            };
            break;
        }
        self.solver.unpin_domain();
        self.solver.set_conflict_limit(None);
        answer
    }

    /// The value of `l` in the last model, if the query assigned it.
    pub(super) fn model(&self, l: Option<sat::Lit>) -> Option<bool> {
        match self.solver.value(l?) {
            Value::True => Some(true),
            Value::False => Some(false),
            Value::Unassigned => None,
        }
    }

    /// The leaves (inputs, then latches) of the last frame's state in the
    /// last model. Where the model says nothing, inputs are random and
    /// frame-0 latches take their initial values or `reachable`'s; the
    /// next states of the reduced frame 0 are simulated from there, so the
    /// pattern is a full model of the query (its latches not random, which
    /// would split true correspondences).
    pub(super) fn pattern(&self, reachable: &[bool], rng: &mut Rng) -> Vec<bool> {
        let aig = self.aig;
        let mut leaves: Vec<bool> = (aig.inputs.iter())
            .map(|v| {
                self.model(self.lits[0][v.0 as usize])
                    .unwrap_or_else(|| rng.coin())
            })
            .collect();
        leaves.extend(
            (aig.latches.iter().enumerate()).map(|(i, l)| match (self.mode, l.init) {
                (Mode::Initial, Some(b)) => b,
                _ => self.model(self.free_latches[i]).unwrap_or(reachable[i]),
            }),
        );
        if self.mode == Mode::Initial {
            return leaves;
        }
        // Frame 0 as the query reads it: each node its representative.
        let ni = aig.inputs.len();
        let mut value = vec![false; aig.num_nodes()];
        let lit_value = |value: &[bool], l: Lit| value[l.var().0 as usize] ^ l.is_negated();
        for (v, node) in aig.nodes().iter().enumerate() {
            let r = self.repr[v];
            value[v] = if r.var().0 as usize != v {
                lit_value(&value, r)
            } else {
                match *node {
                    Node::False => false,
                    Node::Input(i) => leaves[i as usize],
                    Node::Latch(i) => leaves[ni + i as usize],
                    Node::And(a, b) => lit_value(&value, a) && lit_value(&value, b),
                }
            };
        }
        let mut out: Vec<bool> = (aig.inputs.iter())
            .map(|v| {
                self.model(self.lits[1][v.0 as usize])
                    .unwrap_or_else(|| rng.coin())
            })
            .collect();
        out.extend(aig.latches.iter().map(|l| lit_value(&value, l.next)));
        out
    }
}
