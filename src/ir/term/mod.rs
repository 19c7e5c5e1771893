//! Hash-consed word-level terms: the one term language of every word-level
//! front end (BTOR2, VMT, DimSpec, C) and of the bit-blaster.
//!
//! A [`Term`] is a `Copy` index into a [`Terms`] store. Building the same
//! operator on the same arguments twice gives the same index, so sharing in a
//! file survives into the IR and back out through a writer. Every application
//! is sort-checked when it is built; a well-sorted store is an invariant that
//! the evaluator and the bit-blaster rely on.

pub mod compiled;
pub mod eval;
pub mod normalize;
pub mod num;
pub mod print;
mod sorts;

pub use num::Rational;
pub use sorts::SortError;

use crate::ir::bv::BvValue;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

/// The widest bit-vector invar accepts (2^20 bits). Readers refuse wider
/// sorts with a located error, and operators whose result would be wider are
/// sort errors: a value that wide cannot be bit-blasted anyway, and without a
/// bound a declared width near 2^32 made constant parsing overflow its width
/// arithmetic and allocate gigabytes (found by fuzzing the BTOR2 reader).
pub const MAX_BV_WIDTH: u32 = 1 << 20;

/// The sort of a term.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Sort {
    /// Booleans.
    Bool,
    /// Bit-vectors of the given width (at least 1).
    BitVec(u32),
    /// Mathematical integers.
    Int,
    /// Real numbers.
    Real,
    /// Arrays from the first sort to the second.
    Array(Arc<Sort>, Arc<Sort>),
}

impl Sort {
    /// An array sort.
    pub fn array(index: Sort, element: Sort) -> Sort {
        Sort::Array(Arc::new(index), Arc::new(element))
    }

    /// The width of a bit-vector sort.
    pub fn bv_width(&self) -> Option<u32> {
        match self {
            Sort::BitVec(w) => Some(*w),
            _ => None,
        }
    }
}

impl fmt::Display for Sort {
    /// SMT-LIB syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => write!(f, "Bool"),
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
            Sort::Int => write!(f, "Int"),
            Sort::Real => write!(f, "Real"),
            Sort::Array(i, e) => write!(f, "(Array {i} {e})"),
        }
    }
}

/// A term: an index into its [`Terms`] store.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Term(u32);

impl Term {
    /// The position of the term in its store (terms are stored bottom-up).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An operator with its indices; leaves carry their value or name.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// A free constant (state variable, input, next-state copy) with its name and sort.
    Var(Arc<str>, Sort),
    /// `true` / `false`.
    Bool(bool),
    /// A bit-vector literal.
    Bv(BvValue),
    /// An Int (integral) or Real literal; the sort tells which.
    Num(Rational, Sort),
    /// The array of the given sort holding its argument everywhere.
    ConstArray(Sort),
    // Core.
    Not,
    And,
    Or,
    Xor,
    Implies,
    Eq,
    Distinct,
    Ite,
    // FixedSizeBitVectors (and the common extensions BTOR2 needs).
    BvNot,
    BvNeg,
    BvAnd,
    BvOr,
    BvXor,
    BvNand,
    BvNor,
    BvXnor,
    BvAdd,
    BvSub,
    BvMul,
    BvUdiv,
    BvUrem,
    BvSdiv,
    BvSrem,
    BvSmod,
    BvShl,
    BvLshr,
    BvAshr,
    /// Rotation by a variable amount (BTOR2 `rol`), modulo the width.
    BvRol,
    /// Rotation right by a variable amount (BTOR2 `ror`).
    BvRor,
    Concat,
    /// Bits hi..lo.
    Extract(u32, u32),
    ZeroExtend(u32),
    SignExtend(u32),
    RotateLeft(u32),
    RotateRight(u32),
    Repeat(u32),
    /// `bvcomp`: `#b1` iff equal.
    BvComp,
    BvUlt,
    BvUle,
    BvUgt,
    BvUge,
    BvSlt,
    BvSle,
    BvSgt,
    BvSge,
    BvRedAnd,
    BvRedOr,
    BvRedXor,
    /// Unsigned addition overflows.
    BvUaddo,
    BvSaddo,
    /// Unsigned subtraction borrows.
    BvUsubo,
    BvSsubo,
    BvUmulo,
    BvSmulo,
    /// Signed division overflows (INT_MIN / -1).
    BvSdivo,
    // Ints and Reals.
    Neg,
    Add,
    Sub,
    Mul,
    /// Real division `/`.
    Div,
    /// Integer division `div` (floor for positive divisors, SMT-LIB's Euclidean rule).
    IntDiv,
    Mod,
    Abs,
    Le,
    Lt,
    Ge,
    Gt,
    ToReal,
    ToInt,
    IsInt,
    // ArraysEx.
    Select,
    Store,
}

/// One stored application.
#[derive(Clone, Debug)]
struct Node {
    op: Op,
    args: Box<[Term]>,
    sort: Sort,
}

/// The store of hash-consed terms.
///
/// The table maps the hash of an application to the first term with that
/// hash (rare collisions go to `overflow`), so each application is stored
/// once, in `nodes`, not a second time as a key.
#[derive(Clone, Debug, Default)]
pub struct Terms {
    nodes: Vec<Node>,
    table: HashMap<u64, Term>,
    overflow: HashMap<u64, Vec<Term>>,
}

fn application_hash(op: &Op, args: &[Term]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    op.hash(&mut h);
    args.hash(&mut h);
    h.finish()
}

impl Terms {
    /// An empty store.
    pub fn new() -> Terms {
        Terms::default()
    }

    /// Number of distinct terms.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the store is empty.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The operator of `t`.
    pub fn op(&self, t: Term) -> &Op {
        &self.nodes[t.index()].op
    }

    /// The arguments of `t`.
    pub fn args(&self, t: Term) -> &[Term] {
        &self.nodes[t.index()].args
    }

    /// The sort of `t`.
    pub fn sort(&self, t: Term) -> &Sort {
        &self.nodes[t.index()].sort
    }

    /// The application of `op` to `args`, sort-checked and hash-consed.
    pub fn app(&mut self, op: Op, args: &[Term]) -> Result<Term, SortError> {
        let hash = application_hash(&op, args);
        let same = |t: &Term| {
            let n = &self.nodes[t.index()];
            n.op == op && *n.args == *args
        };
        if let Some(t) = self.table.get(&hash) {
            if same(t) {
                return Ok(*t);
            }
            if let Some(t) = self
                .overflow
                .get(&hash)
                .and_then(|v| v.iter().find(|t| same(t)))
            {
                return Ok(*t);
            }
        }
        let arg_sorts: Vec<&Sort> = args.iter().map(|&a| self.sort(a)).collect();
        let sort = sorts::result_sort(&op, &arg_sorts)?;
        let t = Term(self.nodes.len() as u32);
        match self.table.entry(hash) {
            std::collections::hash_map::Entry::Occupied(_) => {
                self.overflow.entry(hash).or_default().push(t)
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(t);
            }
        }
        self.nodes.push(Node {
            op,
            args: args.into(),
            sort,
        });
        Ok(t)
    }

    /// Like [`Terms::app`] for applications the caller has built well-sorted.
    ///
    /// # Panics
    /// On a sort error, which is a bug in the caller, never in the input.
    pub fn mk(&mut self, op: Op, args: &[Term]) -> Term {
        match self.app(op, args) {
            Ok(t) => t,
            Err(e) => panic!("ill-sorted term built internally: {e}"),
        }
    }

    /// The variable `name` of `sort`.
    pub fn var(&mut self, name: &str, sort: Sort) -> Term {
        self.mk(Op::Var(name.into(), sort), &[])
    }

    /// The Boolean constant `b`.
    pub fn bool(&mut self, b: bool) -> Term {
        self.mk(Op::Bool(b), &[])
    }

    /// The bit-vector constant `v`.
    pub fn bv(&mut self, v: BvValue) -> Term {
        self.mk(Op::Bv(v), &[])
    }

    /// Negation, folding double negation and constants.
    pub fn not(&mut self, a: Term) -> Term {
        match self.op(a) {
            Op::Not => self.args(a)[0],
            Op::Bool(b) => {
                let b = !*b;
                self.bool(b)
            }
            _ => self.mk(Op::Not, &[a]),
        }
    }

    /// Conjunction of `terms` (`true` when empty), dropping `true`s.
    pub fn and_all(&mut self, terms: &[Term]) -> Term {
        let kept: Vec<Term> = (terms.iter().copied())
            .filter(|&t| *self.op(t) != Op::Bool(true))
            .collect();
        match kept.len() {
            0 => self.bool(true),
            1 => kept[0],
            _ => self.mk(Op::And, &kept),
        }
    }

    /// Disjunction of `terms` (`false` when empty), dropping `false`s.
    pub fn or_all(&mut self, terms: &[Term]) -> Term {
        let kept: Vec<Term> = (terms.iter().copied())
            .filter(|&t| *self.op(t) != Op::Bool(false))
            .collect();
        match kept.len() {
            0 => self.bool(false),
            1 => kept[0],
            _ => self.mk(Op::Or, &kept),
        }
    }

    /// Equality of two terms of one sort.
    pub fn eq(&mut self, a: Term, b: Term) -> Term {
        self.mk(Op::Eq, &[a, b])
    }

    /// The name of a variable term.
    pub fn var_name(&self, t: Term) -> Option<&str> {
        match self.op(t) {
            Op::Var(name, _) => Some(name),
            _ => None,
        }
    }

    /// The terms reachable from `roots`, arguments before their users.
    pub fn topological(&self, roots: &[Term]) -> Vec<Term> {
        let mut seen = Visited::Few(HashSet::new());
        let mut order = Vec::new();
        let mut stack: Vec<(Term, bool)> = roots.iter().rev().map(|&t| (t, false)).collect();
        while let Some((t, expanded)) = stack.pop() {
            if expanded {
                order.push(t);
                continue;
            }
            if !seen.insert(t, self.nodes.len()) {
                continue;
            }
            stack.push((t, true));
            for &a in self.args(t).iter().rev() {
                if !seen.contains(a) {
                    stack.push((a, false));
                }
            }
        }
        order
    }

    /// Rebuilds `roots` with every term in `subst` replaced by its image.
    pub fn substitute(&mut self, roots: &[Term], subst: &HashMap<Term, Term>) -> Vec<Term> {
        let mut image: HashMap<Term, Term> = subst.clone();
        for t in self.topological(roots) {
            if image.contains_key(&t) {
                continue;
            }
            let args: Vec<Term> = self.args(t).iter().map(|a| image[a]).collect();
            let new = if args.as_slice() == self.args(t) {
                t
            } else {
                self.mk(self.op(t).clone(), &args)
            };
            image.insert(t, new);
        }
        roots.iter().map(|r| image[r]).collect()
    }
}

/// The terms a traversal has visited: a hash set while they are few, a
/// table as large as the store once they are many. Most traversals (a
/// command's substitution, a guard's literals) touch a few terms of a large
/// store, where clearing a store-sized table each time cost more than the
/// traversal (a fifth of IC3CFA's time on test_locks_14).
enum Visited {
    Few(HashSet<Term>),
    Many(Vec<bool>),
}

impl Visited {
    /// Marks `t`; whether it was new. `store` is the store's size.
    fn insert(&mut self, t: Term, store: usize) -> bool {
        match self {
            Visited::Few(set) => {
                let new = set.insert(t);
                if set.len() > 64 && set.len() * 64 > store {
                    let mut table = vec![false; store];
                    for s in set.iter() {
                        table[s.index()] = true;
                    }
                    *self = Visited::Many(table);
                }
                new
            }
            Visited::Many(table) => !std::mem::replace(&mut table[t.index()], true),
        }
    }

    fn contains(&self, t: Term) -> bool {
        match self {
            Visited::Few(set) => set.contains(&t),
            Visited::Many(table) => table[t.index()],
        }
    }
}
