//! The and-inverter graph: the bit-level circuit every bit-level engine consumes.
//!
//! Nodes are numbered so that every AND gate refers only to lower-numbered nodes
//! (construction order is a topological order). Node 0 is the constant FALSE.
//! Gates are structurally hashed and constants are folded as they are built, so
//! equal cones share one node.

use std::collections::HashMap;
use std::fmt;
use std::ops::Not;

/// A node index of an [`Aig`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// A possibly negated node: `2 * var + sign`, as in AIGER.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(pub u32);

impl Lit {
    /// The constant FALSE.
    pub const FALSE: Lit = Lit(0);
    /// The constant TRUE.
    pub const TRUE: Lit = Lit(1);

    /// The positive or negative literal of `var`.
    pub fn new(var: Var, negated: bool) -> Lit {
        Lit(var.0 << 1 | negated as u32)
    }
    /// The node this literal points to.
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }
    /// Whether the literal is negated.
    pub fn is_negated(self) -> bool {
        self.0 & 1 == 1
    }
    /// Whether the literal is TRUE or FALSE.
    pub fn is_const(self) -> bool {
        self.0 < 2
    }
    /// The literal negated if `flip` holds.
    pub fn xor(self, flip: bool) -> Lit {
        Lit(self.0 ^ flip as u32)
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a node is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// The constant FALSE (node 0 only).
    False,
    /// The primary input at this position of [`Aig::inputs`].
    Input(u32),
    /// The latch at this position of [`Aig::latches`].
    Latch(u32),
    /// The conjunction of two literals of lower-numbered nodes.
    And(Lit, Lit),
}

/// A state bit: its current-state node, next-state function and initial value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Latch {
    /// The node that reads the latch's current value.
    pub var: Var,
    /// The next-state function.
    pub next: Lit,
    /// The reset value; `None` means uninitialised (any value).
    pub init: Option<bool>,
    /// A reset function (AIGER 1.9.23; `init` is then `None`): the latch
    /// starts at this literal's value in the first state. Only files and
    /// certificates carry them; the engines see circuits lowered by
    /// [`Aig::without_resets`].
    pub reset: Option<Lit>,
}

/// A sequential circuit with safety properties, constraints and liveness parts.
#[derive(Clone, Debug)]
pub struct Aig {
    nodes: Vec<Node>,
    strash: HashMap<(Lit, Lit), Var>,
    /// Primary inputs, in input order.
    pub inputs: Vec<Var>,
    /// Latches, in latch order.
    pub latches: Vec<Latch>,
    /// Invariant constraints: only paths on which all hold in every step count.
    pub constraints: Vec<Lit>,
    /// Bad-state properties: a path reaching `bad[i] = 1` violates property i.
    pub bad: Vec<Lit>,
    /// Justice properties (kept, not yet checked by any engine).
    pub justice: Vec<Vec<Lit>>,
    /// Fairness constraints (kept, not yet used by any engine).
    pub fairness: Vec<Lit>,
}

impl Default for Aig {
    fn default() -> Self {
        Aig::new()
    }
}

impl Aig {
    /// An empty circuit holding only the constant node.
    pub fn new() -> Aig {
        Aig {
            nodes: vec![Node::False],
            strash: HashMap::new(),
            inputs: Vec::new(),
            latches: Vec::new(),
            constraints: Vec::new(),
            bad: Vec::new(),
            justice: Vec::new(),
            fairness: Vec::new(),
        }
    }

    /// Number of nodes, the constant included.
    pub fn num_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Number of AND gates.
    pub fn num_ands(&self) -> usize {
        self.nodes.len() - 1 - self.inputs.len() - self.latches.len()
    }

    /// The kind of node `var`.
    pub fn node(&self, var: Var) -> Node {
        self.nodes[var.0 as usize]
    }

    /// All nodes, indexed by variable.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Adds a primary input and returns its positive literal.
    pub fn add_input(&mut self) -> Lit {
        let var = self.push(Node::Input(self.inputs.len() as u32));
        self.inputs.push(var);
        Lit::new(var, false)
    }

    /// Adds a latch with next state FALSE (set it with [`Aig::set_next`]).
    pub fn add_latch(&mut self, init: Option<bool>) -> Lit {
        let var = self.push(Node::Latch(self.latches.len() as u32));
        self.latches.push(Latch {
            var,
            next: Lit::FALSE,
            init,
            reset: None,
        });
        Lit::new(var, false)
    }

    /// Sets the next-state function of the latch at position `index`.
    pub fn set_next(&mut self, index: usize, next: Lit) {
        debug_assert!(next.var().0 < self.nodes.len() as u32);
        self.latches[index].next = next;
    }

    fn push(&mut self, node: Node) -> Var {
        let var = Var(self.nodes.len() as u32);
        assert!(var.0 < u32::MAX >> 1, "AIG exceeds 2^31 nodes");
        self.nodes.push(node);
        var
    }

    /// The conjunction of `a` and `b`, folded and structurally hashed.
    pub fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let (a, b) = if a < b { (b, a) } else { (a, b) };
        if b == Lit::FALSE || a == !b {
            return Lit::FALSE;
        }
        if b == Lit::TRUE || a == b {
            return a;
        }
        if let Some(&var) = self.strash.get(&(a, b)) {
            return Lit::new(var, false);
        }
        let var = self.push(Node::And(a, b));
        self.strash.insert((a, b), var);
        Lit::new(var, false)
    }

    /// The disjunction of `a` and `b`.
    pub fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }

    /// Exclusive or of `a` and `b`.
    pub fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let both = self.and(a, b);
        let neither = self.and(!a, !b);
        self.and(!both, !neither)
    }

    /// If-then-else: `c ? t : e`.
    pub fn ite(&mut self, c: Lit, t: Lit, e: Lit) -> Lit {
        let then = self.and(c, t);
        let other = self.and(!c, e);
        self.or(then, other)
    }

    /// The disjunction of all `lits` (FALSE when empty).
    pub fn or_all(&mut self, lits: &[Lit]) -> Lit {
        lits.iter().fold(Lit::FALSE, |acc, &l| self.or(acc, l))
    }

    /// Evaluates every node for one step under the given input and latch values.
    pub fn eval(&self, inputs: &[bool], latches: &[bool]) -> Vec<bool> {
        let mut value = vec![false; self.nodes.len()];
        for (v, node) in self.nodes.iter().enumerate() {
            value[v] = match *node {
                Node::False => false,
                Node::Input(i) => inputs[i as usize],
                Node::Latch(i) => latches[i as usize],
                Node::And(a, b) => lit_value(&value, a) && lit_value(&value, b),
            };
        }
        value
    }
}

/// The image of `lit` under `map`, a literal per node of the source circuit.
pub fn map_lit(map: &[Lit], lit: Lit) -> Lit {
    map[lit.var().0 as usize].xor(lit.is_negated())
}

/// The image of `lit` under a partial map (a node without an image was
/// dropped by the stage that made the map).
pub fn map_partial_lit(map: &[Option<Lit>], lit: Lit) -> Option<Lit> {
    map[lit.var().0 as usize].map(|image| image.xor(lit.is_negated()))
}

/// The partial map that sends each of `aig`'s nodes to itself.
pub fn identity_images(aig: &Aig) -> Vec<Option<Lit>> {
    (0..aig.num_nodes() as u32)
        .map(|v| Some(Lit::new(Var(v), false)))
        .collect()
}

impl Aig {
    /// Copies the AND gates of `from` whose node `keep` accepts into `self`,
    /// in topological order, recording each gate's image in `map` (whose
    /// entries for the gates' operands must already be set).
    pub fn copy_ands(&mut self, from: &Aig, map: &mut [Lit], keep: impl Fn(usize) -> bool) {
        for (v, node) in from.nodes().iter().enumerate() {
            if let (Node::And(a, b), true) = (*node, keep(v)) {
                map[v] = self.and(map_lit(map, a), map_lit(map, b));
            }
        }
    }

    /// A new circuit with `from`'s inputs and latches (initial values
    /// kept, next states unset) at their positions and nothing else, and
    /// the map from `from`'s nodes (each leaf to its copy, the rest to
    /// false, to be filled).
    pub fn with_leaves_of(from: &Aig) -> (Aig, Vec<Lit>) {
        let mut out = Aig::new();
        let mut map = vec![Lit::FALSE; from.num_nodes()];
        for &v in &from.inputs {
            map[v.0 as usize] = out.add_input();
        }
        for latch in &from.latches {
            map[latch.var.0 as usize] = out.add_latch(latch.init);
        }
        (out, map)
    }

    /// Sets the next state of latch i to the image under `map` of latch
    /// i's in `from` (the same latches, in the same order).
    pub fn copy_next_states(&mut self, from: &Aig, map: &[Lit]) {
        for (i, latch) in from.latches.iter().enumerate() {
            self.set_next(i, map_lit(map, latch.next));
        }
    }

    /// Sets the constraints, bad properties, justice and fairness to the
    /// images under `map` of `from`'s.
    pub fn copy_properties(&mut self, from: &Aig, map: &[Lit]) {
        let image = |lits: &[Lit]| lits.iter().map(|&l| map_lit(map, l)).collect::<Vec<_>>();
        self.constraints = image(&from.constraints);
        self.bad = image(&from.bad);
        self.justice = from.justice.iter().map(|j| image(j)).collect();
        self.fairness = image(&from.fairness);
    }
}

/// The value of `lit` given the value of every node.
pub fn lit_value(values: &[bool], lit: Lit) -> bool {
    values[lit.var().0 as usize] ^ lit.is_negated()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn and_folds_constants_and_hashes_structure() {
        let mut aig = Aig::new();
        let a = aig.add_input();
        let b = aig.add_input();
        assert_eq!(aig.and(a, Lit::FALSE), Lit::FALSE);
        assert_eq!(aig.and(Lit::TRUE, a), a);
        assert_eq!(aig.and(a, !a), Lit::FALSE);
        assert_eq!(aig.and(a, a), a);
        let g = aig.and(a, b);
        assert_eq!(aig.and(b, a), g);
        assert_eq!(aig.num_ands(), 1);
    }

    #[test]
    fn eval_computes_xor_and_ite() {
        let mut aig = Aig::new();
        let a = aig.add_input();
        let b = aig.add_input();
        let c = aig.add_input();
        let x = aig.xor(a, b);
        let m = aig.ite(c, a, b);
        for bits in 0..8u32 {
            let ins = [bits & 1 != 0, bits & 2 != 0, bits & 4 != 0];
            let v = aig.eval(&ins, &[]);
            assert_eq!(lit_value(&v, x), ins[0] ^ ins[1]);
            assert_eq!(lit_value(&v, m), if ins[2] { ins[0] } else { ins[1] });
        }
    }
}
