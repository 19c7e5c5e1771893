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
        Value::Array(a) => {
            // The default everywhere, then the entries stored over it.
            let Sort::Array(index, element) = sort else {
                return None;
            };
            let default = constant_term(terms, &a.default, element)?;
            let mut t = terms.mk(Op::ConstArray(sort.clone()), &[default]);
            for (i, e) in &a.entries {
                let i = constant_term(terms, i, index)?;
                let e = constant_term(terms, e, element)?;
                t = terms.mk(Op::Store, &[t, i, e]);
            }
            t
        }
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
            // A read at a constant index looks past writes at other
            // constant indices, and a write there is the element read.
            Op::Select if constant_value(terms, args[1]).is_some() => {
                let (mut a, j) = (args[0], args[1]);
                while *terms.op(a) == Op::Store {
                    let (under, i, e) = (terms.args(a)[0], terms.args(a)[1], terms.args(a)[2]);
                    if i == j {
                        return e;
                    }
                    if constant_value(terms, i).is_none() {
                        break;
                    }
                    a = under;
                }
                match terms.op(a) {
                    Op::ConstArray(_) => terms.args(a)[0],
                    _ => terms.mk(op, &[a, j]),
                }
            }
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

    /// `roots` with the terms of `fixed` replaced by their images (constants,
    /// typically) and normalised, visiting only what the fixed values leave
    /// live: an `ite` whose condition becomes constant yields its taken
    /// branch without the other being read, and a conjunction or disjunction
    /// stops at its first absorbing argument. An encoded transition relation
    /// with the edge and the state fixed reduces so to the edge's own terms,
    /// a small part of the relation.
    pub fn partial(
        &mut self,
        terms: &mut Terms,
        roots: &[Term],
        fixed: &HashMap<Term, Term>,
    ) -> Vec<Term> {
        enum Phase {
            Start,
            /// The `ite`'s condition is known.
            Condition,
            /// The `ite`'s taken branch is known.
            Taken(Term),
            /// The arguments before this one (of `and`/`or`) are known.
            Argument(usize),
            /// Every argument is known.
            Build,
        }
        let mut image: HashMap<Term, Term> = fixed.clone();
        let mut stack: Vec<(Term, Phase)> = roots.iter().map(|&r| (r, Phase::Start)).collect();
        while let Some((t, phase)) = stack.pop() {
            if image.contains_key(&t) {
                continue;
            }
            let args = terms.args(t).to_vec();
            match phase {
                Phase::Start if args.is_empty() => {
                    image.insert(t, t);
                }
                Phase::Start => match terms.op(t) {
                    Op::Ite => {
                        let c = args[0];
                        stack.extend([(t, Phase::Condition), (c, Phase::Start)]);
                    }
                    Op::And | Op::Or => stack.push((t, Phase::Argument(0))),
                    _ => {
                        stack.push((t, Phase::Build));
                        stack.extend(args.into_iter().map(|a| (a, Phase::Start)));
                    }
                },
                Phase::Condition => {
                    let (c, a, b) = (image[&args[0]], args[1], args[2]);
                    match terms.op(c) {
                        Op::Bool(true) => stack.extend([(t, Phase::Taken(a)), (a, Phase::Start)]),
                        Op::Bool(false) => stack.extend([(t, Phase::Taken(b)), (b, Phase::Start)]),
                        _ => {
                            stack.extend([(t, Phase::Build), (a, Phase::Start), (b, Phase::Start)])
                        }
                    }
                }
                Phase::Taken(branch) => {
                    image.insert(t, image[&branch]);
                }
                Phase::Argument(i) => {
                    let absorbing = *terms.op(t) == Op::Or;
                    if i > 0 && *terms.op(image[&args[i - 1]]) == Op::Bool(absorbing) {
                        let c = terms.bool(absorbing);
                        image.insert(t, c);
                    } else if i == args.len() {
                        stack.push((t, Phase::Build));
                    } else {
                        let a = args[i];
                        stack.extend([(t, Phase::Argument(i + 1)), (a, Phase::Start)]);
                    }
                }
                Phase::Build => {
                    let op = terms.op(t).clone();
                    let new: Vec<Term> = args.iter().map(|a| image[a]).collect();
                    let rebuilt = terms.mk(op, &new);
                    let n = self.normalize(terms, rebuilt);
                    image.insert(t, n);
                }
            }
        }
        roots.iter().map(|r| image[r]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::bv::BvValue;
    use crate::util::rng::Rng;

    /// A random term of `sort` (Bool or 4-bit vectors) over `vars`.
    fn random(terms: &mut Terms, rng: &mut Rng, vars: &[Term], boolean: bool, depth: u32) -> Term {
        if depth == 0 || rng.below(4) == 0 {
            return match boolean {
                true => {
                    let (a, b) = (vars[rng.below(2) as usize], vars[rng.below(2) as usize]);
                    terms.mk(Op::BvUlt, &[a, b])
                }
                false if rng.below(3) == 0 => terms.bv(BvValue::from_u64(4, rng.below(16))),
                false => vars[rng.below(vars.len() as u64) as usize],
            };
        }
        let d = depth - 1;
        if boolean {
            let a = random(terms, rng, vars, true, d);
            let b = random(terms, rng, vars, true, d);
            return match rng.below(4) {
                0 => terms.and_all(&[a, b]),
                1 => terms.or_all(&[a, b]),
                2 => terms.not(a),
                _ => {
                    let (x, y) = (
                        random(terms, rng, vars, false, d),
                        random(terms, rng, vars, false, d),
                    );
                    terms.eq(x, y)
                }
            };
        }
        let a = random(terms, rng, vars, false, d);
        let b = random(terms, rng, vars, false, d);
        match rng.below(3) {
            0 => terms.mk(Op::BvAdd, &[a, b]),
            1 => terms.mk(Op::BvMul, &[a, b]),
            _ => {
                let c = random(terms, rng, vars, true, d);
                terms.mk(Op::Ite, &[c, a, b])
            }
        }
    }

    /// `partial` with x fixed gives a term over y alone that agrees with
    /// the original under every value of y (the evaluator the oracle).
    #[test]
    fn partial_evaluation_agrees_with_evaluation() {
        let mut rng = Rng::new(7);
        for round in 0..300 {
            let mut terms = Terms::new();
            let (x, y) = (
                terms.var("x", Sort::BitVec(4)),
                terms.var("y", Sort::BitVec(4)),
            );
            let t = random(&mut terms, &mut rng, &[x, y], round % 2 == 0, 5);
            let xv = BvValue::from_u64(4, rng.below(16));
            let fixed = HashMap::from([(x, terms.bv(xv.clone()))]);
            let r = Normalizer::default().partial(&mut terms, &[t], &fixed)[0];
            assert!(!terms.topological(&[r]).contains(&x), "x is gone");
            for yv in 0..16 {
                let mut ev = Evaluator::new(&terms);
                ev.set(x, Value::Bv(xv.clone()));
                ev.set(y, Value::Bv(BvValue::from_u64(4, yv)));
                let want = ev.eval(t).expect("evaluates");
                let got = ev.eval(r).expect("evaluates");
                assert_eq!(got, want, "round {round}, x = {xv:?}, y = {yv}");
            }
        }
    }

    /// The branch an `ite`'s fixed condition does not take is not visited:
    /// a term under it stays out of the store's new terms.
    #[test]
    fn partial_evaluation_skips_the_branch_not_taken() {
        let mut terms = Terms::new();
        let (c, y) = (terms.var("c", Sort::Bool), terms.var("y", Sort::BitVec(4)));
        let one = terms.bv(BvValue::from_u64(4, 1));
        let taken = terms.mk(Op::BvAdd, &[y, one]);
        let mut other = y;
        for _ in 0..1000 {
            other = terms.mk(Op::BvMul, &[other, y]);
        }
        let t = terms.mk(Op::Ite, &[c, taken, other]);
        let yes = terms.bool(true);
        let before = terms.len();
        let r = Normalizer::default().partial(&mut terms, &[t], &HashMap::from([(c, yes)]));
        assert!(
            terms.len() - before < 5,
            "{} new terms",
            terms.len() - before
        );
        let expected = Normalizer::default().normalize(&mut terms, taken);
        assert_eq!(r, vec![expected]);
    }
}
