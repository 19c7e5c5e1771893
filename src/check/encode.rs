//! The checkers' own encoding: every node of the whole circuit in every
//! frame, eagerly, with constraints asserted. Deliberately simple and apart
//! from the engines' lazy `sat::tseitin` encoding.

use crate::ir::aig::{Aig, Lit, Node};
use crate::sat::{self, Backend, Solver};
use crate::util::budget::Budget;

/// Eagerly encoded frames of the whole circuit, constraints asserted.
pub(crate) struct Frames<'a> {
    aig: &'a Aig,
    pub(crate) solver: Box<dyn Solver>,
    from_init: bool,
    /// `lits[k][v]`: the solver literal of node v in frame k.
    lits: Vec<Vec<sat::Lit>>,
    tru: sat::Lit,
}

impl<'a> Frames<'a> {
    pub(crate) fn new(
        aig: &'a Aig,
        backend: Backend,
        budget: &Budget,
        from_init: bool,
    ) -> Frames<'a> {
        let mut solver = backend.create(budget.clone());
        let tru = solver.new_var();
        solver.add_clause(&[tru]);
        Frames {
            aig,
            solver,
            from_init,
            lits: Vec::new(),
            tru,
        }
    }

    pub(crate) fn lit(&self, l: Lit, k: usize) -> sat::Lit {
        self.lits[k][l.var().0 as usize].xor(l.is_negated())
    }

    /// The literal of latch `l`'s current value in frame `k`.
    pub(crate) fn latch(&self, l: usize, k: usize) -> sat::Lit {
        self.lit(Lit::new(self.aig.latches[l].var, false), k)
    }

    /// Adds the next frame; constraints are asserted in it if `constrained`.
    /// Adds the clause `¬cube` for every cube, in frame `k`.
    pub(crate) fn exclude(&mut self, cubes: &[Vec<(usize, bool)>], k: usize) {
        for cube in cubes {
            let clause: Vec<sat::Lit> = cube
                .iter()
                .map(|&(l, v)| !self.latch(l, k).xor(!v))
                .collect();
            self.solver.add_clause(&clause);
        }
    }

    pub(crate) fn push_frame(&mut self, constrained: bool) {
        let k = self.lits.len();
        let mut frame: Vec<sat::Lit> = Vec::with_capacity(self.aig.num_nodes());
        for node in self.aig.nodes() {
            let l = match *node {
                Node::False => !self.tru,
                Node::Input(_) => self.solver.new_var(),
                Node::Latch(i) => {
                    let latch = self.aig.latches[i as usize];
                    if k > 0 {
                        self.lit(latch.next, k - 1)
                    } else {
                        let v = self.solver.new_var();
                        if let (true, Some(init)) = (self.from_init, latch.init) {
                            self.solver.add_clause(&[v.xor(!init)]);
                        }
                        v
                    }
                }
                Node::And(a, b) => {
                    let x = frame[a.var().0 as usize].xor(a.is_negated());
                    let y = frame[b.var().0 as usize].xor(b.is_negated());
                    let g = self.solver.new_var();
                    self.solver.add_clause(&[!g, x]);
                    self.solver.add_clause(&[!g, y]);
                    self.solver.add_clause(&[g, !x, !y]);
                    g
                }
            };
            frame.push(l);
        }
        self.lits.push(frame);
        for &c in self.aig.constraints.iter().filter(|_| constrained) {
            let l = self.lit(c, k);
            self.solver.add_clause(&[l]);
        }
    }

    /// A literal equivalent to the disjunction of `bad` in frame k.
    pub(crate) fn any(&mut self, bad: &[Lit], k: usize) -> sat::Lit {
        let any = self.solver.new_var();
        let mut clause = vec![!any];
        for &b in bad {
            let l = self.lit(b, k);
            clause.push(l);
            self.solver.add_clause(&[any, !l]);
        }
        self.solver.add_clause(&clause);
        any
    }

    pub(crate) fn distinct(&mut self, latches: &[usize], i: usize, j: usize) {
        let mut differs = Vec::new();
        for &l in latches {
            let var = Lit::new(self.aig.latches[l].var, false);
            let (a, b) = (self.lit(var, i), self.lit(var, j));
            let d = self.solver.new_var();
            self.solver.add_clause(&[!d, a, b]);
            self.solver.add_clause(&[!d, !a, !b]);
            differs.push(d);
        }
        self.solver.add_clause(&differs);
    }
}
