//! Tseitin encoding of AIG cones, unrolled over time frames.
//!
//! Encoding is lazy: only the cone of what a caller asks for is added, frame
//! by frame. A latch in frame `k > 0` is the encoding of its next-state
//! function in frame `k - 1` (no variable, no equality clauses); in frame 0
//! it is its reset constant when the unrolling starts from the initial
//! states, and a fresh variable otherwise. Constants are propagated while
//! encoding, which keeps the first frames of BMC small.
//!
//! The clauses are those of the circuit's gates, not of its two-input ANDs
//! (as ABC's CNF derivation and rIC3's simplification of T make them
//! smaller): a tree of ANDs whose inner nodes feed nothing else becomes one
//! wide AND (k binary clauses and one long one, over one variable), and the
//! three ANDs of a multiplexer or XOR whose inner two feed nothing else
//! become one if-then-else (four clauses, two more for propagation). Fewer
//! variables and clauses mean less propagation in every SAT call; the
//! shapes are found once per unrolling, from fanout counts ([`Shapes`]).

use super::{Lit, Solver};
use crate::ir::aig::{self, Aig, Node, Var};
use crate::ir::trace::Trace;

/// How each AND node of a circuit is encoded.
struct Shapes {
    /// Per node: how many gates and roots read it.
    refs: Vec<u32>,
    /// Per node: `(s, t, e)` when the node is `¬(s ? t : e)`.
    ite: Vec<Option<(aig::Lit, aig::Lit, aig::Lit)>>,
    /// Per node, once asked: its AND tree's leaves are
    /// `leaves[start..start + len]`.
    wide: Vec<Option<(u32, u32)>>,
    leaves: Vec<aig::Lit>,
}

impl Shapes {
    fn of(aig: &Aig) -> Shapes {
        let nodes = aig.nodes();
        let mut refs = vec![0u32; nodes.len()];
        for node in nodes {
            if let Node::And(a, b) = *node {
                refs[a.var().0 as usize] += 1;
                refs[b.var().0 as usize] += 1;
            }
        }
        let roots = (aig.latches.iter().map(|l| l.next))
            .chain(aig.bad.iter().copied())
            .chain(aig.constraints.iter().copied())
            .chain(aig.fairness.iter().copied())
            .chain(aig.justice.iter().flatten().copied());
        for l in roots {
            refs[l.var().0 as usize] += 1;
        }
        let mut shapes = Shapes {
            refs,
            ite: Vec::new(),
            wide: vec![None; nodes.len()],
            leaves: Vec::new(),
        };
        shapes.ite = (nodes.iter())
            .map(|node| {
                let Node::And(x, y) = *node else { return None };
                if !x.is_negated() || !y.is_negated() {
                    return None;
                }
                let ((a0, a1), (b0, b1)) = (shapes.inner(aig, x)?, shapes.inner(aig, y)?);
                for (s, t) in [(a0, a1), (a1, a0)] {
                    for (r, e) in [(b0, b1), (b1, b0)] {
                        if r == !s {
                            return Some((s, t, e));
                        }
                    }
                }
                None
            })
            .collect();
        shapes
    }

    /// The operands of `l`'s AND if it feeds only one gate (so that gate can
    /// absorb it).
    fn inner(&self, aig: &Aig, l: aig::Lit) -> Option<(aig::Lit, aig::Lit)> {
        match aig.node(l.var()) {
            Node::And(a, b) if self.refs[l.var().0 as usize] == 1 => Some((a, b)),
            _ => None,
        }
    }

    /// The leaves of the AND tree rooted at AND node `v`: its operands,
    /// with every positive operand that is an AND feeding only this tree
    /// (and no if-then-else) replaced by its own operands. Found on first
    /// use, so each node is expanded in one tree only (its root's) and the
    /// whole circuit costs linear time.
    fn fanins(&mut self, aig: &Aig, v: Var) -> (usize, usize) {
        if let Some((start, len)) = self.wide[v.0 as usize] {
            return (start as usize, len as usize);
        }
        let Node::And(a, b) = aig.node(v) else {
            unreachable!("only ANDs have fanins")
        };
        let start = self.leaves.len();
        let mut stack = vec![b, a];
        while let Some(l) = stack.pop() {
            let tree = if l.is_negated() || self.ite[l.var().0 as usize].is_some() {
                None
            } else {
                self.inner(aig, l)
            };
            match tree {
                Some((c, d)) => stack.extend([d, c]),
                None => self.leaves.push(l),
            }
        }
        let len = self.leaves.len() - start;
        self.wide[v.0 as usize] = Some((start as u32, len as u32));
        (start, len)
    }
}

/// An unrolling of one AIG into one solver.
pub struct Unroller<'a> {
    aig: &'a Aig,
    shapes: Shapes,
    /// Scratch for one gate's solver literals.
    lits: Vec<Lit>,
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
            shapes: Shapes::of(aig),
            lits: Vec::new(),
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
                Node::And(..) => self.gate(solver, var, k),
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

    /// Encodes AND node `var` in frame `k` as its shape says, or schedules
    /// the nodes it reads first.
    fn gate(&mut self, solver: &mut dyn Solver, var: Var, k: usize) -> Option<Lit> {
        let ite = self.shapes.ite[var.0 as usize];
        let (start, len) = match ite {
            Some(_) => (0, 3),
            None => self.shapes.fanins(self.aig, var),
        };
        let mut missing = false;
        self.lits.clear();
        for i in 0..len {
            let l = match ite {
                Some((s, t, e)) => [s, t, e][i],
                None => self.shapes.leaves[start + i],
            };
            match self.get(l, k) {
                Some(x) => self.lits.push(x),
                None => {
                    self.stack.push((l.var(), k));
                    missing = true;
                }
            }
        }
        if missing {
            return None;
        }
        let mut lits = std::mem::take(&mut self.lits);
        let g = match lits[..] {
            [s, t, e] if ite.is_some() => !self.ite(solver, s, t, e),
            _ => self.and(solver, &mut lits),
        };
        self.lits = lits;
        Some(g)
    }

    /// A literal for the conjunction of `lits` (sorted and deduplicated here).
    fn and(&mut self, solver: &mut dyn Solver, lits: &mut Vec<Lit>) -> Lit {
        let (t, f) = (self.tru, !self.tru);
        lits.retain(|&l| l != t);
        lits.sort_unstable_by_key(|l| l.code());
        lits.dedup();
        if lits.contains(&f) || lits.windows(2).any(|w| w[0] == !w[1]) {
            return f;
        }
        match lits[..] {
            [] => t,
            [x] => x,
            _ => {
                let g = solver.new_var();
                for &x in lits.iter() {
                    solver.add_definition(g.var(), &[!g, x]);
                }
                let mut long: Vec<Lit> = lits.iter().map(|&x| !x).collect();
                long.push(g);
                solver.add_definition(g.var(), &long);
                g
            }
        }
    }

    /// A literal for `s ? t : e`.
    fn ite(&mut self, solver: &mut dyn Solver, s: Lit, t: Lit, e: Lit) -> Lit {
        let (tru, f) = (self.tru, !self.tru);
        let is_const = |l: Lit| l == tru || l == f;
        if s == tru || t == e {
            return t;
        }
        if s == f {
            return e;
        }
        // A constant or repeated operand makes it an AND or an OR.
        if is_const(t) || is_const(e) || s.var() == t.var() || s.var() == e.var() {
            let then = self.and(solver, &mut vec![s, t]);
            let other = self.and(solver, &mut vec![!s, e]);
            return !self.and(solver, &mut vec![!then, !other]);
        }
        let g = solver.new_var();
        solver.add_definition(g.var(), &[!s, !t, g]);
        solver.add_definition(g.var(), &[!s, t, !g]);
        solver.add_definition(g.var(), &[s, !e, g]);
        solver.add_definition(g.var(), &[s, e, !g]);
        if t != !e {
            // Implied, but they let `t = e` decide `g` without `s`.
            solver.add_definition(g.var(), &[!t, !e, g]);
            solver.add_definition(g.var(), &[t, e, !g]);
        }
        g
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::{Backend, SolveResult};
    use crate::util::budget::Budget;

    /// Encodes `out` of `aig` and checks, for every input assignment, that
    /// the encoding allows the circuit's value of `out` and refutes the
    /// other; returns the number of variables the encoding made.
    fn encode_and_compare(aig: &Aig, out: aig::Lit) -> usize {
        let mut solver = Backend::Core.create(Budget::unlimited());
        let mut u = Unroller::new(aig, solver.as_mut(), false);
        let before = solver.new_var().var();
        let inputs: Vec<Lit> = (aig.inputs.iter())
            .map(|&v| u.encode(solver.as_mut(), aig::Lit::new(v, false), 0))
            .collect();
        let o = u.encode(solver.as_mut(), out, 0);
        let made = solver.new_var().var() - before - 1 - inputs.len() as u32;
        for bits in 0..1u32 << inputs.len() {
            let values: Vec<bool> = (0..inputs.len()).map(|i| bits >> i & 1 == 1).collect();
            let mut assumptions: Vec<Lit> = (inputs.iter().zip(&values))
                .map(|(&l, &v)| l.xor(!v))
                .collect();
            let expect = aig::lit_value(&aig.eval(&values, &[]), out);
            assumptions.push(o.xor(!expect));
            assert_eq!(solver.solve(&assumptions), SolveResult::Sat);
            *assumptions.last_mut().unwrap() = o.xor(expect);
            assert_eq!(
                solver.solve(&assumptions),
                SolveResult::Unsat,
                "inputs {values:?}"
            );
        }
        made as usize
    }

    #[test]
    fn a_tree_of_ands_feeding_nothing_else_is_one_wide_gate() {
        let mut aig = Aig::new();
        let x: Vec<aig::Lit> = (0..4).map(|_| aig.add_input()).collect();
        let ab = aig.and(x[0], x[1]);
        let cd = aig.and(x[2], !x[3]);
        let all = aig.and(ab, cd);
        aig.bad.push(all);
        // One variable for a & b & c & ¬d (three two-input ANDs before).
        assert_eq!(encode_and_compare(&aig, all), 1);
    }

    #[test]
    fn shared_and_negated_operands_stay_gates_of_their_own() {
        let mut aig = Aig::new();
        let x: Vec<aig::Lit> = (0..3).map(|_| aig.add_input()).collect();
        let shared = aig.and(x[0], x[1]);
        let left = aig.and(shared, x[2]);
        let right = aig.and(!shared, !x[2]);
        let out = aig.and(!left, !right);
        aig.bad.push(out);
        aig.bad.push(shared);
        // `shared` feeds three places: it keeps its variable; `out` is the
        // XOR of `shared` and x2: one more.
        assert_eq!(encode_and_compare(&aig, out), 2);
    }

    #[test]
    fn multiplexers_and_xors_are_one_gate() {
        let mut aig = Aig::new();
        let x: Vec<aig::Lit> = (0..3).map(|_| aig.add_input()).collect();
        let mux = aig.ite(x[0], x[1], x[2]);
        let xor = aig.xor(mux, x[0]);
        aig.bad.push(xor);
        assert_eq!(encode_and_compare(&aig, xor), 2);
        let mut aig = Aig::new();
        let x: Vec<aig::Lit> = (0..2).map(|_| aig.add_input()).collect();
        let xnor = !aig.xor(x[0], !x[1]);
        aig.bad.push(xnor);
        assert_eq!(encode_and_compare(&aig, xnor), 1);
    }
}
