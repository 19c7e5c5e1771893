//! Term normalisation for syntactic comparison: constants folded, `ite`
//! compared with constants turned into its condition, `distinct` into a
//! negated equality, so that equal literals become the same term. IC3CFA's
//! syntactic checks compare literals by identity, and the SV-COMP witness
//! writer renders invariants in this form.

use super::eval::{Evaluator, Value};
use super::{Op, Sort, Term, Terms};
use std::collections::HashMap;

/// Normalises terms (constants folded, `ite` compared with constants
/// turned into its condition, `distinct` into a negated equality), with a
/// memo, so that equal literals become the same term: the syntactic checks
/// compare literals by identity.
#[derive(Default)]
pub struct Normalizer {
    memo: HashMap<Term, Term>,
}

fn constant_value(terms: &Terms, t: Term) -> Option<Value> {
    match terms.op(t) {
        Op::Bool(b) => Some(Value::Bool(*b)),
        Op::Bv(v) => Some(Value::Bv(v.clone())),
        Op::Num(r, _) => Some(Value::Num(*r)),
        _ => None,
    }
}

/// The constant term of `value` in `sort`.
pub fn constant_term(terms: &mut Terms, value: &Value, sort: &Sort) -> Option<Term> {
    Some(match value {
        Value::Bool(b) => terms.bool(*b),
        Value::Bv(v) => terms.bv(v.clone()),
        Value::Num(r) => terms.mk(Op::Num(*r, sort.clone()), &[]),
        Value::Array(_) => return None,
    })
}

/// `op` applied to constants, evaluated in a store of its own (the
/// evaluator's tables are as large as the store it reads).
fn fold(terms: &mut Terms, op: &Op, args: &[Term], sort: &Sort) -> Option<Term> {
    let mut tiny = Terms::new();
    let mut small = Vec::with_capacity(args.len());
    for &a in args {
        let v = constant_value(terms, a)?;
        small.push(constant_term(&mut tiny, &v, terms.sort(a))?);
    }
    let t = tiny.app(op.clone(), &small).ok()?;
    let v = Evaluator::new(&tiny).eval(t).ok()?;
    constant_term(terms, &v, sort)
}

impl Normalizer {
    /// The normal form of `t`.
    pub fn normalize(&mut self, terms: &mut Terms, t: Term) -> Term {
        if let Some(&n) = self.memo.get(&t) {
            return n;
        }
        // Depth-first over the terms not normalised yet (the memo is the
        // visited set: a store-sized one per call would cost more than the
        // rewriting).
        let mut stack = vec![(t, false)];
        while let Some((s, expanded)) = stack.pop() {
            if self.memo.contains_key(&s) {
                continue;
            }
            if !expanded {
                stack.push((s, true));
                for &a in terms.args(s) {
                    if !self.memo.contains_key(&a) {
                        stack.push((a, false));
                    }
                }
                continue;
            }
            let args: Vec<Term> = terms.args(s).iter().map(|a| self.memo[a]).collect();
            let n = self.rewrite(terms, s, &args);
            self.memo.insert(s, n);
        }
        self.memo[&t]
    }

    fn rewrite(&mut self, terms: &mut Terms, t: Term, args: &[Term]) -> Term {
        let op = terms.op(t).clone();
        if args.is_empty() {
            return t;
        }
        let sort = terms.sort(t).clone();
        if args.iter().all(|&a| constant_value(terms, a).is_some()) {
            if let Some(c) = fold(terms, &op, args, &sort) {
                return c;
            }
        }
        let is = |terms: &Terms, a: Term, b: bool| *terms.op(a) == Op::Bool(b);
        match op {
            Op::Not => terms.not(args[0]),
            Op::And => {
                if args.iter().any(|&a| is(terms, a, false)) {
                    return terms.bool(false);
                }
                terms.and_all(args)
            }
            Op::Or => {
                if args.iter().any(|&a| is(terms, a, true)) {
                    return terms.bool(true);
                }
                terms.or_all(args)
            }
            Op::Ite if constant_value(terms, args[0]).is_some() => {
                if is(terms, args[0], true) {
                    args[1]
                } else {
                    args[2]
                }
            }
            Op::Ite if args[1] == args[2] => args[1],
            Op::BvSub => {
                if let Op::Bv(c) = terms.op(args[1]) {
                    let neg = terms.bv(c.neg());
                    return self.offset(terms, args[0], neg);
                }
                terms.mk(op, args)
            }
            Op::BvAdd if args.len() == 2 => match (terms.op(args[0]), terms.op(args[1])) {
                (_, Op::Bv(_)) => self.offset(terms, args[0], args[1]),
                (Op::Bv(_), _) => self.offset(terms, args[1], args[0]),
                _ => terms.mk(op, args),
            },
            // Unsigned: t > 0 iff t != 0, t <= 0 iff t = 0.
            Op::BvUgt if matches!(terms.op(args[1]), Op::Bv(c) if c.is_zero()) => {
                let e = self.equality(terms, args[0], args[1]);
                terms.not(e)
            }
            Op::BvUle if matches!(terms.op(args[1]), Op::Bv(c) if c.is_zero()) => {
                self.equality(terms, args[0], args[1])
            }
            Op::BvMul if args.len() == 2 => {
                for (c, x) in [(args[0], args[1]), (args[1], args[0])] {
                    match terms.op(c) {
                        Op::Bv(v) if v.is_zero() => return c,
                        Op::Bv(v) if v.to_u64() == Some(1) => return x,
                        _ => {}
                    }
                }
                terms.mk(op, args)
            }
            Op::Extract(hi, 0) => self.low_bits(terms, hi + 1, args[0]),
            // Unsigned `x mod 2^k` is x's low k bits, zero-extended: C's
            // `x % 2` then meets the low-bit literals of the lemmas.
            Op::BvUrem => match terms.op(args[1]).clone() {
                Op::Bv(c) if c.count_ones() == 1 && !c.bit(0) => {
                    let k = (0..c.width()).find(|&i| c.bit(i)).expect("one bit set");
                    let low = self.low_bits(terms, k, args[0]);
                    let t = terms.mk(Op::ZeroExtend(c.width() - k), &[low]);
                    self.normalize(terms, t)
                }
                _ => terms.mk(op, args),
            },
            Op::Eq if args.len() == 2 => self.equality(terms, args[0], args[1]),
            Op::Distinct if args.len() == 2 => {
                let e = self.equality(terms, args[0], args[1]);
                terms.not(e)
            }
            _ => terms.mk(op, args),
        }
    }

    /// The low `k` bits of `a` (normalised). They depend only on the low
    /// `k` bits of the operands of `+`, `-`, `·` and the bitwise operators,
    /// so the extraction moves into them: the image of a lemma on `y`'s low
    /// bits under `y := y + 2·h` is again a literal on `y`'s low bits, which
    /// predecessor cubes can find by identity.
    fn low_bits(&mut self, terms: &mut Terms, k: u32, a: Term) -> Term {
        let width = terms.sort(a).bv_width().expect("a bit-vector");
        if k == width {
            return a;
        }
        let op = terms.op(a).clone();
        let inner = terms.args(a).to_vec();
        match op {
            Op::BvAdd
            | Op::BvSub
            | Op::BvMul
            | Op::BvNeg
            | Op::BvNot
            | Op::BvAnd
            | Op::BvOr
            | Op::BvXor => {
                let low: Vec<Term> = (inner.iter())
                    .map(|&x| self.low_bits(terms, k, x))
                    .collect();
                let t = terms.mk(op, &low);
                self.normalize(terms, t)
            }
            Op::Extract(_, 0) => self.low_bits(terms, k, inner[0]),
            Op::ZeroExtend(_) | Op::SignExtend(_) => {
                let w = terms.sort(inner[0]).bv_width().expect("a bit-vector");
                if k <= w {
                    self.low_bits(terms, k, inner[0])
                } else {
                    terms.mk(Op::Extract(k - 1, 0), &[a])
                }
            }
            _ => {
                let t = terms.mk(Op::Extract(k - 1, 0), &[a]);
                match constant_value(terms, a) {
                    Some(_) => self.normalize(terms, t),
                    None => t,
                }
            }
        }
    }

    /// `a + c` for a bit-vector constant `c`, offsets summed (`(x + 1) + 1`
    /// is `x + 2`, `x - 1` is `x + (-1)`), so that a loop's repeated
    /// updates give one literal per value instead of a tower of terms.
    fn offset(&mut self, terms: &mut Terms, a: Term, c: Term) -> Term {
        let Op::Bv(cv) = terms.op(c).clone() else {
            unreachable!("called with a constant")
        };
        if let (Op::BvAdd, [x, y]) = (terms.op(a), terms.args(a)) {
            let (x, y) = (*x, *y);
            if let Op::Bv(inner) = terms.op(y).clone() {
                let sum = terms.bv(inner.add(&cv));
                return self.offset(terms, x, sum);
            }
        }
        if cv.is_zero() {
            return a;
        }
        terms.mk(Op::BvAdd, &[a, c])
    }

    /// `a = b`, where an `ite` of constants compared with a constant
    /// becomes its condition (C's `(c ? 1 : 0) != 0`).
    fn equality(&mut self, terms: &mut Terms, a: Term, b: Term) -> Term {
        if a == b {
            return terms.bool(true);
        }
        let (a, b) = if constant_value(terms, a).is_some() {
            (b, a)
        } else {
            (a, b)
        };
        if *terms.op(a) == Op::Ite && constant_value(terms, b).is_some() {
            let (c, x, y) = (terms.args(a)[0], terms.args(a)[1], terms.args(a)[2]);
            if constant_value(terms, x).is_some() && constant_value(terms, y).is_some() {
                return match (x == b, y == b) {
                    (true, true) => terms.bool(true),
                    (true, false) => c,
                    (false, true) => terms.not(c),
                    (false, false) => terms.bool(false),
                };
            }
        }
        // A zero-extended term equals a constant iff the constant's high
        // bits are zero and its low bits equal the term.
        if let (&Op::ZeroExtend(n @ 1..), Op::Bv(k)) = (terms.op(a), terms.op(b).clone()) {
            let inner = terms.args(a)[0];
            let w = k.width() - n;
            if !k.extract(k.width() - 1, w).is_zero() {
                return terms.bool(false);
            }
            let low = terms.bv(k.extract(w - 1, 0));
            return self.equality(terms, inner, low);
        }
        if let (Op::BvAdd, Op::Bv(k)) = (terms.op(a).clone(), terms.op(b).clone()) {
            let (x, y) = (terms.args(a)[0], terms.args(a)[1]);
            if let Op::Bv(c) = terms.op(y).clone() {
                let moved = terms.bv(k.sub(&c));
                return self.equality(terms, x, moved);
            }
        }
        if *terms.op(a) == Op::Bool(true) {
            return b;
        }
        if *terms.op(b) == Op::Bool(true) {
            return a;
        }
        let (x, y) = if a < b { (a, b) } else { (b, a) };
        terms.eq(x, y)
    }
}
