//! The concrete evaluator: the reference semantics of every operator, used by
//! simulation and witness replay.

use super::{Op, Rational, Sort, Term, Terms};
use crate::ir::bv::BvValue;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A concrete value of some sort.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Value {
    /// A Boolean.
    Bool(bool),
    /// A bit-vector.
    Bv(BvValue),
    /// An Int or Real number.
    Num(Rational),
    /// An array.
    Array(Arc<ArrayValue>),
}

/// An array value: a default element and the indices where it differs.
///
/// The representation is canonical, so that `==` is equality of the
/// functions: over an infinite index sort the default is the value taken
/// almost everywhere; over a small finite one (Bool or at most 16-bit
/// bit-vectors) the default is the element at the all-zero index. Larger
/// finite domains keep the first form, which is exact unless every index is
/// overridden.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ArrayValue {
    /// The element at every index not in `entries`.
    pub default: Value,
    /// Indices whose element differs from the default (never equal to it).
    pub entries: BTreeMap<Value, Value>,
    /// The index sort, when it is small enough to enumerate.
    index: Option<Sort>,
    /// Whether only `entries` are known and `default` stands for elements
    /// nobody knows ([`ArrayValue::known_only_at_entries`]).
    partial: bool,
}

/// Finite index sorts up to this many bits are enumerated.
const MAX_ENUMERATED_INDEX_BITS: u32 = 16;

impl ArrayValue {
    /// The index sort, when it is small enough to enumerate.
    pub fn index_sort(&self) -> Option<&Sort> {
        self.index.as_ref()
    }

    /// The array over `index` holding `default` everywhere.
    pub fn constant(index: &Sort, default: Value) -> ArrayValue {
        let index = match index {
            Sort::Bool => Some(Sort::Bool),
            Sort::BitVec(w) if *w <= MAX_ENUMERATED_INDEX_BITS => Some(index.clone()),
            _ => None,
        };
        ArrayValue {
            default,
            entries: BTreeMap::new(),
            index,
            partial: false,
        }
    }

    /// An array over a large index sort (more than 16 bits, or an infinite
    /// one) whose elements are unknown until stored: reading one that was
    /// not stored, or comparing the array, is an evaluation error. For
    /// explicit execution, where a value computed from an unknown one is
    /// unknown (a region of the heap starts arbitrary, and a program reads
    /// back what it wrote). `None` for small index sorts.
    pub fn known_only_at_entries(index: &Sort, element: &Sort) -> Option<ArrayValue> {
        let mut a = ArrayValue::constant(index, Value::default_of(element));
        a.partial = true;
        a.index.is_none().then_some(a)
    }

    /// Whether only the entries are known.
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// The `j`-th index of a small finite index sort.
    fn index_value(sort: &Sort, j: u64) -> Value {
        match sort {
            Sort::Bool => Value::Bool(j == 1),
            Sort::BitVec(w) => Value::Bv(BvValue::from_u64(*w, j)),
            _ => unreachable!("only small finite index sorts are enumerated"),
        }
    }

    /// The element at `i`.
    pub fn get(&self, i: &Value) -> &Value {
        self.entries.get(i).unwrap_or(&self.default)
    }

    /// The array with `v` at `i`, in canonical form.
    pub fn store(&self, i: Value, v: Value) -> ArrayValue {
        let mut a = self.clone();
        if a.partial {
            a.entries.insert(i, v);
        } else if v == a.default {
            a.entries.remove(&i);
        } else {
            a.entries.insert(i, v);
        }
        if let Some(sort) = a.index.clone() {
            let zero = ArrayValue::index_value(&sort, 0);
            let at_zero = a.get(&zero).clone();
            if at_zero != a.default {
                let size = if sort == Sort::Bool {
                    2
                } else {
                    1u64 << sort.bv_width().unwrap_or(0)
                };
                let all: Vec<(Value, Value)> = (0..size)
                    .map(|j| {
                        let idx = ArrayValue::index_value(&sort, j);
                        let e = a.get(&idx).clone();
                        (idx, e)
                    })
                    .collect();
                a.entries = all.into_iter().filter(|(_, e)| *e != at_zero).collect();
                a.default = at_zero;
            }
        }
        a
    }
}

impl Value {
    /// The Boolean inside, if any.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The bit-vector inside, if any.
    pub fn as_bv(&self) -> Option<&BvValue> {
        match self {
            Value::Bv(v) => Some(v),
            _ => None,
        }
    }

    /// The default value of a sort: false, zero, the zero array.
    pub fn default_of(sort: &Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(false),
            Sort::BitVec(w) => Value::Bv(BvValue::zero(*w)),
            Sort::Int | Sort::Real => Value::Num(Rational::int(0)),
            Sort::Array(i, e) => {
                Value::Array(Arc::new(ArrayValue::constant(i, Value::default_of(e))))
            }
        }
    }
}

impl Value {
    /// The value of `sort` in SMT-LIB syntax; an array as stores into a
    /// constant array, `(store ((as const (Array (_ BitVec 2) Bool)) false)
    /// #b01 true)` (the sort names the constant array, which the value
    /// alone cannot when it has no entries).
    pub fn smtlib(&self, sort: &Sort) -> String {
        match (self, sort) {
            (Value::Array(a), Sort::Array(index, element)) => {
                let mut text = format!("((as const {sort}) {})", a.default.smtlib(element));
                for (i, e) in &a.entries {
                    text = format!("(store {text} {} {})", i.smtlib(index), e.smtlib(element));
                }
                text
            }
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for Value {
    /// SMT-LIB syntax for scalars.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Bv(v) => write!(f, "#b{}", v.to_binary()),
            Value::Num(r) => write!(f, "{r}"),
            Value::Array(a) if a.partial => {
                write!(f, "[unknown")?;
                for (i, e) in &a.entries {
                    write!(f, ", {i} -> {e}")?;
                }
                write!(f, "]")
            }
            Value::Array(a) => {
                write!(f, "[default {}", a.default)?;
                for (i, e) in &a.entries {
                    write!(f, ", {i} -> {e}")?;
                }
                write!(f, "]")
            }
        }
    }
}

/// Why a term has no value: an unassigned variable or an arithmetic case the
/// evaluator cannot decide (overflow of its exact numbers, division by zero
/// in Int/Real, which SMT-LIB leaves uninterpreted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError(pub String);

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Evaluates terms of one store under an assignment of its variables,
/// remembering every value until [`Evaluator::clear`].
pub struct Evaluator<'a> {
    terms: &'a Terms,
    values: Vec<Option<Value>>,
}

fn overflow() -> EvalError {
    EvalError("arithmetic overflow of the evaluator's 128-bit rationals".into())
}

impl<'a> Evaluator<'a> {
    /// An evaluator with no variable assigned.
    pub fn new(terms: &'a Terms) -> Evaluator<'a> {
        Evaluator {
            terms,
            values: vec![None; terms.len()],
        }
    }

    /// An evaluator that starts from `values` (indexed by term, as
    /// [`Evaluator::into_values`] returns them; grown to the table's size):
    /// a caller that evaluates many terms in one model keeps what earlier
    /// calls computed instead of allocating a table-sized vector per call.
    pub fn with_values(terms: &'a Terms, mut values: Vec<Option<Value>>) -> Evaluator<'a> {
        if values.len() < terms.len() {
            values.resize(terms.len(), None);
        }
        Evaluator { terms, values }
    }

    /// The values computed so far, indexed by term.
    pub fn into_values(self) -> Vec<Option<Value>> {
        self.values
    }

    /// Forgets every value (variables included).
    pub fn clear(&mut self) {
        self.values.iter_mut().for_each(|v| *v = None);
    }

    /// Assigns `value` to the variable `var`.
    pub fn set(&mut self, var: Term, value: Value) {
        self.values[var.index()] = Some(value);
    }

    /// Forgets the value of `t` (a variable becomes unassigned): a caller
    /// that changes a few variables forgets the terms above them instead of
    /// clearing the whole table.
    pub fn forget(&mut self, t: Term) {
        self.values[t.index()] = None;
    }

    /// The value of `root`.
    pub fn eval(&mut self, root: Term) -> Result<Value, EvalError> {
        if let Some(v) = &self.values[root.index()] {
            return Ok(v.clone());
        }
        for t in self.terms.topological(&[root]) {
            if self.values[t.index()].is_none() {
                let v = self.apply(t)?;
                self.values[t.index()] = Some(v);
            }
        }
        Ok(self.values[root.index()].clone().expect("evaluated above"))
    }

    /// Evaluates `order`, a list of terms in which every argument comes
    /// before its term (as [`Terms::topological`] lists a cone), keeping the
    /// values already known, and returns the last term's value: the caller
    /// that evaluates one cone many times computes its order once.
    pub fn eval_ordered(&mut self, order: &[Term]) -> Result<Value, EvalError> {
        let Some(&root) = order.last() else {
            return Err(EvalError("nothing to evaluate".into()));
        };
        for &t in order {
            if self.values[t.index()].is_none() {
                let v = self.apply(t)?;
                self.values[t.index()] = Some(v);
            }
        }
        Ok(self.values[root.index()].clone().expect("evaluated above"))
    }

    /// The value of `root`, evaluating only what decides it: an `ite`'s
    /// branch that its condition does not take, and the arguments of an
    /// `and`/`or` after one that decides it, are not read. A variable
    /// without a value there is no error: a read of a small array
    /// (`d[x]`, an `ite` over its elements ending in an out-of-bounds
    /// value no run fixes) has a value wherever the index is known.
    pub fn eval_lazy(&mut self, root: Term) -> Result<Value, EvalError> {
        use std::collections::HashMap;
        let terms = self.terms;
        let mut failed: HashMap<Term, EvalError> = HashMap::new();
        let mut stack = vec![root];
        let known = |me: &Self, t: Term| me.values[t.index()].is_some();
        while let Some(&t) = stack.last() {
            if known(self, t) || failed.contains_key(&t) {
                stack.pop();
                continue;
            }
            let args = terms.args(t);
            let fail = |failed: &HashMap<Term, EvalError>, a: Term| failed.get(&a).cloned();
            match terms.op(t) {
                Op::Ite => {
                    let c = args[0];
                    if let Some(e) = fail(&failed, c) {
                        failed.insert(t, e);
                        continue;
                    }
                    let Some(cv) = self.values[c.index()].as_ref() else {
                        stack.push(c);
                        continue;
                    };
                    let taken = match cv.as_bool() {
                        Some(true) => args[1],
                        _ => args[2],
                    };
                    if let Some(e) = fail(&failed, taken) {
                        failed.insert(t, e);
                        continue;
                    }
                    match self.values[taken.index()].clone() {
                        Some(v) => self.values[t.index()] = Some(v),
                        None => stack.push(taken),
                    }
                }
                op @ (Op::And | Op::Or) => {
                    let absorbing = matches!(op, Op::Or);
                    let mut next = None;
                    let mut error = None;
                    let mut decided = false;
                    for &a in args {
                        match self.values[a.index()].as_ref().and_then(Value::as_bool) {
                            Some(b) if b == absorbing => {
                                decided = true;
                                break;
                            }
                            Some(_) => {}
                            None => match fail(&failed, a) {
                                Some(e) => error = error.or(Some(e)),
                                None => next = next.or(Some(a)),
                            },
                        }
                    }
                    if decided {
                        self.values[t.index()] = Some(Value::Bool(absorbing));
                    } else if let Some(a) = next {
                        stack.push(a);
                    } else if let Some(e) = error {
                        failed.insert(t, e);
                    } else {
                        self.values[t.index()] = Some(Value::Bool(!absorbing));
                    }
                }
                _ => {
                    if let Some(e) = args.iter().find_map(|&a| fail(&failed, a)) {
                        failed.insert(t, e);
                        continue;
                    }
                    let missing: Vec<Term> =
                        args.iter().copied().filter(|&a| !known(self, a)).collect();
                    if !missing.is_empty() {
                        stack.extend(missing);
                        continue;
                    }
                    match self.apply(t) {
                        Ok(v) => self.values[t.index()] = Some(v),
                        Err(e) => {
                            failed.insert(t, e);
                        }
                    }
                }
            }
        }
        match failed.remove(&root) {
            Some(e) => Err(e),
            None => Ok(self.values[root.index()].clone().expect("evaluated above")),
        }
    }

    fn arg(&self, t: Term, i: usize) -> &Value {
        let a = self.terms.args(t)[i];
        self.values[a.index()]
            .as_ref()
            .expect("arguments evaluate first")
    }

    fn bv(&self, t: Term, i: usize) -> &BvValue {
        self.arg(t, i).as_bv().expect("sort-checked")
    }

    fn boolean(&self, t: Term, i: usize) -> bool {
        self.arg(t, i).as_bool().expect("sort-checked")
    }

    fn num(&self, t: Term, i: usize) -> Rational {
        match self.arg(t, i) {
            Value::Num(r) => *r,
            _ => unreachable!("sort-checked"),
        }
    }

    fn apply(&self, t: Term) -> Result<Value, EvalError> {
        use Op::*;
        let terms = self.terms;
        let n = terms.args(t).len();
        let bvs = |f: &dyn Fn(&BvValue, &BvValue) -> BvValue| -> Value {
            let mut acc = self.bv(t, 0).clone();
            for i in 1..n {
                acc = f(&acc, self.bv(t, i));
            }
            Value::Bv(acc)
        };
        let bv2 =
            |f: &dyn Fn(&BvValue, &BvValue) -> BvValue| Value::Bv(f(self.bv(t, 0), self.bv(t, 1)));
        let pred =
            |f: &dyn Fn(&BvValue, &BvValue) -> bool| Value::Bool(f(self.bv(t, 0), self.bv(t, 1)));
        let bv1 = |b: bool| Value::Bv(BvValue::from_u64(1, b as u64));
        let nums =
            |f: &dyn Fn(Rational, Rational) -> Option<Rational>| -> Result<Value, EvalError> {
                let mut acc = self.num(t, 0);
                for i in 1..n {
                    acc = f(acc, self.num(t, i)).ok_or_else(overflow)?;
                }
                Ok(Value::Num(acc))
            };
        let chain = |f: &dyn Fn(Ordering) -> bool| {
            Value::Bool((1..n).all(|i| f(self.num(t, i - 1).cmp(&self.num(t, i)))))
        };
        Ok(match terms.op(t) {
            Var(name, _) => return Err(EvalError(format!("variable `{name}` has no value"))),
            Op::Bool(b) => Value::Bool(*b),
            Bv(v) => Value::Bv(v.clone()),
            Num(r, _) => Value::Num(*r),
            ConstArray(sort) => {
                let Sort::Array(index, _) = sort else {
                    unreachable!("sort-checked")
                };
                Value::Array(Arc::new(ArrayValue::constant(
                    index,
                    self.arg(t, 0).clone(),
                )))
            }
            Not => Value::Bool(!self.boolean(t, 0)),
            And => Value::Bool((0..n).all(|i| self.boolean(t, i))),
            Or => Value::Bool((0..n).any(|i| self.boolean(t, i))),
            Xor => Value::Bool((0..n).fold(false, |acc, i| acc ^ self.boolean(t, i))),
            // Right-associative: a => (b => c) is false only if all premises hold and c fails.
            Implies => {
                Value::Bool(!(0..n - 1).all(|i| self.boolean(t, i)) || self.boolean(t, n - 1))
            }
            Eq | Distinct
                if (0..n).any(|i| matches!(self.arg(t, i), Value::Array(a) if a.partial)) =>
            {
                return Err(EvalError("an array known only in part compared".into()))
            }
            Eq => Value::Bool((1..n).all(|i| self.arg(t, i) == self.arg(t, 0))),
            Distinct => {
                Value::Bool((0..n).all(|i| (i + 1..n).all(|j| self.arg(t, i) != self.arg(t, j))))
            }
            Ite => {
                if self.boolean(t, 0) {
                    self.arg(t, 1).clone()
                } else {
                    self.arg(t, 2).clone()
                }
            }
            BvNot => Value::Bv(self.bv(t, 0).not()),
            BvNeg => Value::Bv(self.bv(t, 0).neg()),
            BvAnd => bvs(&|a, b| a.and(b)),
            BvOr => bvs(&|a, b| a.or(b)),
            BvXor => bvs(&|a, b| a.xor(b)),
            BvNand => bv2(&|a, b| a.and(b).not()),
            BvNor => bv2(&|a, b| a.or(b).not()),
            BvXnor => bv2(&|a, b| a.xor(b).not()),
            BvAdd => bvs(&|a, b| a.add(b)),
            BvSub => bv2(&|a, b| a.sub(b)),
            BvMul => bvs(&|a, b| a.mul(b)),
            BvUdiv => bv2(&|a, b| a.udiv(b)),
            BvUrem => bv2(&|a, b| a.urem(b)),
            BvSdiv => bv2(&|a, b| a.sdiv(b)),
            BvSrem => bv2(&|a, b| a.srem(b)),
            BvSmod => bv2(&|a, b| a.smod(b)),
            BvShl => bv2(&|a, b| a.shl(b)),
            BvLshr => bv2(&|a, b| a.lshr(b)),
            BvAshr => bv2(&|a, b| a.ashr(b)),
            BvRol => bv2(&|a, b| a.rotate_left_by(b)),
            BvRor => bv2(&|a, b| {
                let w = a.width();
                let r = b.rotate_amount(w);
                a.rotate_left((w - r) % w)
            }),
            Concat => bvs(&|a, b| a.concat(b)),
            Extract(hi, lo) => Value::Bv(self.bv(t, 0).extract(*hi, *lo)),
            ZeroExtend(k) => Value::Bv(self.bv(t, 0).zext(*k)),
            SignExtend(k) => Value::Bv(self.bv(t, 0).sext(*k)),
            RotateLeft(k) => Value::Bv(self.bv(t, 0).rotate_left(*k)),
            RotateRight(k) => {
                let a = self.bv(t, 0);
                let w = a.width();
                Value::Bv(a.rotate_left(w - k % w))
            }
            Repeat(k) => {
                let a = self.bv(t, 0);
                let mut acc = a.clone();
                for _ in 1..*k {
                    acc = acc.concat(a);
                }
                Value::Bv(acc)
            }
            BvComp => bv1(self.bv(t, 0) == self.bv(t, 1)),
            BvUlt => pred(&|a, b| a.ucmp(b) == Ordering::Less),
            BvUle => pred(&|a, b| a.ucmp(b) != Ordering::Greater),
            BvUgt => pred(&|a, b| a.ucmp(b) == Ordering::Greater),
            BvUge => pred(&|a, b| a.ucmp(b) != Ordering::Less),
            BvSlt => pred(&|a, b| a.scmp(b) == Ordering::Less),
            BvSle => pred(&|a, b| a.scmp(b) != Ordering::Greater),
            BvSgt => pred(&|a, b| a.scmp(b) == Ordering::Greater),
            BvSge => pred(&|a, b| a.scmp(b) != Ordering::Less),
            BvRedAnd => bv1(self.bv(t, 0).not().is_zero()),
            BvRedOr => bv1(!self.bv(t, 0).is_zero()),
            BvRedXor => bv1(self.bv(t, 0).count_ones() % 2 == 1),
            BvUaddo => pred(&|a, b| a.zext(1).add(&b.zext(1)).msb()),
            BvSaddo => pred(&|a, b| {
                let s = a.add(b);
                a.msb() == b.msb() && s.msb() != a.msb()
            }),
            BvUsubo => pred(&|a, b| a.ucmp(b) == Ordering::Less),
            BvSsubo => pred(&|a, b| {
                let d = a.sub(b);
                a.msb() != b.msb() && d.msb() != a.msb()
            }),
            BvUmulo => pred(&|a, b| {
                let w = a.width();
                let p = a.zext(w).mul(&b.zext(w));
                !p.extract(2 * w - 1, w).is_zero()
            }),
            BvSmulo => pred(&|a, b| {
                let w = a.width();
                let p = a.sext(w).mul(&b.sext(w));
                // Representable iff the top w+1 bits all equal the sign.
                let top = p.extract(2 * w - 1, w - 1);
                !(top.is_zero() || top.not().is_zero())
            }),
            BvSdivo => pred(&|a, b| {
                let w = a.width();
                let min = BvValue::from_u64(w, 1).shl_by(w - 1);
                *a == min && b.not().is_zero()
            }),
            Neg => Value::Num(self.num(t, 0).checked_neg().ok_or_else(overflow)?),
            Abs => {
                let r = self.num(t, 0);
                Value::Num(if r < Rational::int(0) {
                    r.checked_neg().ok_or_else(overflow)?
                } else {
                    r
                })
            }
            Add => nums(&|a, b| a.checked_add(b))?,
            Sub => nums(&|a, b| a.checked_sub(b))?,
            Mul => nums(&|a, b| a.checked_mul(b))?,
            Div => {
                if (1..n).any(|i| self.num(t, i) == Rational::int(0)) {
                    return Err(EvalError("real division by zero is uninterpreted".into()));
                }
                nums(&|a, b| a.checked_div(b))?
            }
            IntDiv | Mod => {
                let (a, b) = (self.num(t, 0).numer(), self.num(t, 1).numer());
                if b == 0 {
                    return Err(EvalError(
                        "integer division by zero is uninterpreted".into(),
                    ));
                }
                // SMT-LIB: a = b·q + r with 0 ≤ r < |b|, which is Euclidean division.
                let v = if *terms.op(t) == IntDiv {
                    a.checked_div_euclid(b)
                } else {
                    a.checked_rem_euclid(b)
                };
                Value::Num(Rational::int(v.ok_or_else(overflow)?))
            }
            Le => chain(&|o| o != Ordering::Greater),
            Lt => chain(&|o| o == Ordering::Less),
            Ge => chain(&|o| o != Ordering::Less),
            Gt => chain(&|o| o == Ordering::Greater),
            ToReal => Value::Num(self.num(t, 0)),
            ToInt => Value::Num(Rational::int(self.num(t, 0).floor())),
            IsInt => Value::Bool(self.num(t, 0).is_int()),
            Select => match self.arg(t, 0) {
                Value::Array(a) if a.partial => match a.entries.get(self.arg(t, 1)) {
                    Some(v) => v.clone(),
                    None => return Err(EvalError("an array element nobody knows".into())),
                },
                Value::Array(a) => a.get(self.arg(t, 1)).clone(),
                _ => unreachable!("sort-checked"),
            },
            Store => match self.arg(t, 0) {
                Value::Array(a) => {
                    let (i, e) = (self.arg(t, 1).clone(), self.arg(t, 2).clone());
                    Value::Array(Arc::new(a.store(i, e)))
                }
                _ => unreachable!("sort-checked"),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bv(w: u32, v: u64) -> Value {
        Value::Bv(BvValue::from_u64(w, v))
    }

    /// `eval_lazy` reads an `ite`'s taken branch only and stops an
    /// `and`/`or` at its deciding argument; a value it needs and lacks is
    /// still an error. Checked by hand: with i = 1, `ite(i = 0, a, b)` is
    /// b = 7 whatever a; with i = 0 it needs a, which has no value.
    #[test]
    fn lazy_evaluation_reads_only_what_decides() {
        let mut terms = Terms::new();
        let (i, a, b) = (
            terms.var("i", Sort::BitVec(4)),
            terms.var("a", Sort::BitVec(4)),
            terms.var("b", Sort::BitVec(4)),
        );
        let zero = terms.bv(BvValue::from_u64(4, 0));
        let at0 = terms.eq(i, zero);
        let read = terms.mk(Op::Ite, &[at0, a, b]);
        let a_zero = terms.eq(a, zero);
        let stop = terms.and_all(&[at0, a_zero]);
        let go = terms.or_all(&[a_zero, at0]);
        for (iv, read_v, stop_v, go_v) in [
            (1, Some(bv(4, 7)), Some(Value::Bool(false)), None),
            (0, None, None, Some(Value::Bool(true))),
        ] {
            let mut ev = Evaluator::new(&terms);
            ev.set(i, bv(4, iv));
            ev.set(b, bv(4, 7));
            assert_eq!(ev.eval_lazy(read).ok(), read_v, "i = {iv}");
            assert_eq!(ev.eval_lazy(stop).ok(), stop_v, "i = {iv}");
            assert_eq!(ev.eval_lazy(go).ok(), go_v, "i = {iv}");
        }
    }

    #[test]
    fn array_values_over_small_domains_compare_as_functions() {
        let index = Sort::BitVec(1);
        // [5, 5] built two ways: a constant array, and 0 everywhere overwritten twice.
        let constant = ArrayValue::constant(&index, bv(4, 5));
        let stored = ArrayValue::constant(&index, bv(4, 0))
            .store(bv(1, 1), bv(4, 5))
            .store(bv(1, 0), bv(4, 5));
        assert_eq!(constant, stored);
        assert!(stored.entries.is_empty());
        // Changing the element at index 0 moves the default with it.
        let changed = constant.store(bv(1, 0), bv(4, 7));
        assert_eq!(changed.default, bv(4, 7));
        assert_eq!(changed.get(&bv(1, 1)), &bv(4, 5));
        assert_ne!(changed, constant);
    }

    #[test]
    fn array_values_over_infinite_domains_keep_the_default() {
        let a = ArrayValue::constant(&Sort::Int, Value::Num(Rational::int(0)));
        let b = a.store(Value::Num(Rational::int(3)), Value::Num(Rational::int(1)));
        assert_eq!(
            b.get(&Value::Num(Rational::int(3))),
            &Value::Num(Rational::int(1))
        );
        assert_eq!(
            b.store(Value::Num(Rational::int(3)), Value::Num(Rational::int(0))),
            a
        );
    }

    #[test]
    fn arrays_known_at_their_entries_read_back_what_was_stored_only() {
        let mut terms = Terms::new();
        let sort = Sort::array(Sort::BitVec(32), Sort::BitVec(8));
        let a = terms.var("a", sort.clone());
        let b = terms.var("b", sort);
        let (i, j) = (
            terms.bv(BvValue::from_u64(32, 7)),
            terms.bv(BvValue::from_u64(32, 8)),
        );
        let zero = terms.bv(BvValue::from_u64(8, 0));
        let stored = terms.mk(Op::Store, &[a, i, zero]);
        let (at_i, at_j) = (
            terms.mk(Op::Select, &[stored, i]),
            terms.mk(Op::Select, &[stored, j]),
        );
        let same = terms.eq(stored, b);
        let partial = ArrayValue::known_only_at_entries(&Sort::BitVec(32), &Sort::BitVec(8))
            .expect("a wide index");
        // Over a small index sort every element would have to be listed.
        assert!(ArrayValue::known_only_at_entries(&Sort::BitVec(4), &Sort::Bool).is_none());
        let mut ev = Evaluator::new(&terms);
        ev.set(a, Value::Array(Arc::new(partial.clone())));
        ev.set(b, Value::Array(Arc::new(partial)));
        // Even a store of the element the default stands for is kept.
        assert_eq!(ev.eval(at_i).unwrap(), bv(8, 0));
        assert!(ev.eval(at_j).is_err());
        assert!(ev.eval(same).is_err());
    }
}
