//! Tseitin encoding of AIG cones, unrolled over time frames.
//!
//! Encoding is lazy: only the cone of what a caller asks for is added, frame
//! by frame. A latch in frame `k > 0` is the encoding of its next-state
//! function in frame `k - 1` (no variable, no equality clauses); in frame 0
//! it is its reset constant when the unrolling starts from the initial
//! states, and a fresh variable otherwise. Constants are propagated while
//! encoding, which keeps the first frames of BMC small.

use super::{Lit, Solver};
use crate::ir::aig::{self, Aig, Node, Var};
use crate::ir::trace::Trace;

/// An unrolling of one AIG into one solver.
pub struct Unroller<'a> {
    aig: &'a Aig,
    /// `frames[k][v]`: the solver literal of node `v` in frame `k` (0: not yet).
    frames: Vec<Vec<i32>>,
    tru: Lit,
    from_init: bool,
    stack: Vec<(Var, usize)>,
}

impl<'a> Unroller<'a> {
    /// An empty unrolling; `from_init` fixes frame-0 latches to their resets.
    pub fn new(aig: &'a Aig, solver: &mut dyn Solver, from_init: bool) -> Unroller<'a> {
        let tru = solver.new_var();
        solver.add_clause(&[tru]);
        Unroller {
            aig,
            frames: Vec::new(),
            tru,
            from_init,
            stack: Vec::new(),
        }
    }

    /// The circuit being unrolled.
    pub fn aig(&self) -> &'a Aig {
        self.aig
    }

    /// Number of frames made so far.
    pub fn num_frames(&self) -> usize {
        self.frames.len()
    }

    /// The solver literal that is always TRUE.
    pub fn true_lit(&self) -> Lit {
        self.tru
    }

    fn ensure_frame(&mut self, frame: usize) {
        while self.frames.len() <= frame {
            let mut nodes = vec![0; self.aig.num_nodes()];
            nodes[0] = (!self.tru).dimacs();
            self.frames.push(nodes);
        }
    }

    fn get(&self, lit: aig::Lit, frame: usize) -> Option<Lit> {
        match self.frames[frame][lit.var().0 as usize] {
            0 => None,
            d => Some(Lit::from_dimacs(d).xor(lit.is_negated())),
        }
    }

    /// The solver literal of `lit` in `frame`, encoding its cone as needed.
    pub fn encode(&mut self, solver: &mut dyn Solver, lit: aig::Lit, frame: usize) -> Lit {
        self.ensure_frame(frame);
        if let Some(l) = self.get(lit, frame) {
            return l;
        }
        self.stack.push((lit.var(), frame));
        while let Some(&(var, k)) = self.stack.last() {
            if self.frames[k][var.0 as usize] != 0 {
                self.stack.pop();
                continue;
            }
            let done = match self.aig.node(var) {
                Node::False => Some(!self.tru),
                Node::Input(_) => Some(solver.new_var()),
                Node::Latch(i) => self.latch(solver, i as usize, k),
                Node::And(a, b) => self.and(solver, a, b, k),
            };
            if let Some(l) = done {
                self.frames[k][var.0 as usize] = l.dimacs();
                self.stack.pop();
            }
        }
        self.get(lit, frame).expect("encoded above")
    }

    /// Encodes latch `i` in frame `k`, or schedules what it needs first.
    fn latch(&mut self, solver: &mut dyn Solver, i: usize, k: usize) -> Option<Lit> {
        let latch = self.aig.latches[i];
        if k == 0 {
            return Some(match latch.init {
                Some(v) if self.from_init => self.tru.xor(!v),
                _ => solver.new_var(),
            });
        }
        match self.get(latch.next, k - 1) {
            Some(l) => Some(l),
            None => {
                self.stack.push((latch.next.var(), k - 1));
                None
            }
        }
    }

    /// Encodes an AND in frame `k`, or schedules its operands first.
    fn and(&mut self, solver: &mut dyn Solver, a: aig::Lit, b: aig::Lit, k: usize) -> Option<Lit> {
        let (Some(x), Some(y)) = (self.get(a, k), self.get(b, k)) else {
            for op in [a, b] {
                if self.get(op, k).is_none() {
                    self.stack.push((op.var(), k));
                }
            }
            return None;
        };
        let (t, f) = (self.tru, !self.tru);
        Some(if x == f || y == f || x == !y {
            f
        } else if x == t || x == y {
            y
        } else if y == t {
            x
        } else {
            let g = solver.new_var();
            solver.add_definition(g.var(), &[!g, x]);
            solver.add_definition(g.var(), &[!g, y]);
            solver.add_definition(g.var(), &[g, !x, !y]);
            g
        })
    }

    /// The solver literal of latch `i`'s current value in `frame`.
    pub fn latch_lit(&mut self, solver: &mut dyn Solver, i: usize, frame: usize) -> Lit {
        let var = self.aig.latches[i].var;
        self.encode(solver, aig::Lit::new(var, false), frame)
    }

    /// Reads a trace of `steps` frames from the solver's last model.
    ///
    /// Nodes never encoded cannot influence anything asserted, so they take
    /// their reset value (latches) or 0.
    pub fn trace(&self, solver: &dyn Solver, steps: usize) -> Trace {
        let value = |var: Var, k: usize| match self.frames.get(k).map(|f| f[var.0 as usize]) {
            Some(d) if d != 0 => Some(solver.value(Lit::from_dimacs(d))),
            _ => None,
        };
        let init = self
            .aig
            .latches
            .iter()
            .map(|l| value(l.var, 0).unwrap_or(l.init.unwrap_or(false)))
            .collect();
        let inputs = (0..steps)
            .map(|k| {
                self.aig
                    .inputs
                    .iter()
                    .map(|&v| value(v, k).unwrap_or(false))
                    .collect()
            })
            .collect();
        Trace { init, inputs }
    }
}

/// The core literal of circuit literal `l`, Tseitin-encoding into `core`
/// the part of its cone not yet in `map` (node index → literal; `fals` is
/// the constant false). Iterative, so cones of any depth fit; shared by SAT
/// sweeping and the SMT layer's bit-blasting.
pub fn encode_cone(
    aig: &Aig,
    l: aig::Lit,
    map: &mut Vec<Option<Lit>>,
    fals: Lit,
    core: &mut crate::sat::core::Core,
) -> Lit {
    if map.len() < aig.num_nodes() {
        map.resize(aig.num_nodes(), None);
    }
    let mut stack = vec![l.var().0 as usize];
    while let Some(&v) = stack.last() {
        if map[v].is_some() {
            stack.pop();
            continue;
        }
        match aig.nodes()[v] {
            Node::False => map[v] = Some(fals),
            Node::Input(_) | Node::Latch(_) => map[v] = Some(core.new_var()),
            Node::And(a, b) => {
                let (va, vb) = (a.var().0 as usize, b.var().0 as usize);
                match (map[va], map[vb]) {
                    (Some(x), Some(y)) => {
                        let (x, y) = (x.xor(a.is_negated()), y.xor(b.is_negated()));
                        let g = core.new_var();
                        core.add_definition(g.var(), &[!g, x]);
                        core.add_definition(g.var(), &[!g, y]);
                        core.add_definition(g.var(), &[g, !x, !y]);
                        map[v] = Some(g);
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
        }
        stack.pop();
    }
    map[l.var().0 as usize]
        .expect("encoded")
        .xor(l.is_negated())
}
