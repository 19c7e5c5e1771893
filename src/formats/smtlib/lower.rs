//! Rewrites the operators that are not in SMT-LIB's FixedSizeBitVectors
//! theory (BTOR2's reductions, overflow predicates and rotations by a
//! variable amount) into standard ones, so that written files parse in any
//! SMT-LIB solver. Each rewrite is the operator's definition.

use crate::ir::bv::BvValue;
use crate::ir::term::{Op, Term, Terms};
use std::collections::HashMap;

/// `roots` with every non-standard operator replaced by its definition.
pub fn lower(terms: &mut Terms, roots: &[Term]) -> Vec<Term> {
    let mut image: HashMap<Term, Term> = HashMap::new();
    for t in terms.topological(roots) {
        let args: Vec<Term> = terms.args(t).iter().map(|a| image[a]).collect();
        let new = match terms.op(t).clone() {
            op @ (Op::BvRedAnd
            | Op::BvRedOr
            | Op::BvRedXor
            | Op::BvRol
            | Op::BvRor
            | Op::BvUaddo
            | Op::BvSaddo
            | Op::BvUsubo
            | Op::BvSsubo
            | Op::BvUmulo
            | Op::BvSmulo
            | Op::BvSdivo) => define(terms, &op, &args),
            op if args.as_slice() != terms.args(t) => terms.mk(op, &args),
            _ => t,
        };
        image.insert(t, new);
    }
    roots.iter().map(|r| image[r]).collect()
}

fn width(terms: &Terms, t: Term) -> u32 {
    terms.sort(t).bv_width().expect("a bit-vector operand")
}

fn bit(terms: &mut Terms, b: bool) -> Term {
    terms.bv(BvValue::from_u64(1, b as u64))
}

/// `ite(p, #b1, #b0)`.
fn to_bv1(terms: &mut Terms, p: Term) -> Term {
    let (one, zero) = (bit(terms, true), bit(terms, false));
    terms.mk(Op::Ite, &[p, one, zero])
}

/// `a op b` computed at width w+k after extending both operands, compared with
/// the extension of the w-bit result: unequal means overflow.
fn widened_differs(terms: &mut Terms, op: Op, a: Term, b: Term, k: u32, signed: bool) -> Term {
    let ext = |terms: &mut Terms, x: Term| {
        let e = if signed {
            Op::SignExtend(k)
        } else {
            Op::ZeroExtend(k)
        };
        terms.mk(e, &[x])
    };
    let (wa, wb) = (ext(terms, a), ext(terms, b));
    let wide = terms.mk(op.clone(), &[wa, wb]);
    let narrow = terms.mk(op, &[a, b]);
    let narrow_ext = ext(terms, narrow);
    terms.mk(Op::Distinct, &[wide, narrow_ext])
}

fn define(terms: &mut Terms, op: &Op, args: &[Term]) -> Term {
    let a = args[0];
    let w = width(terms, a);
    match op {
        Op::BvRedAnd | Op::BvRedOr => {
            let (c, eq_gives) = if *op == Op::BvRedAnd {
                (BvValue::ones(w), true)
            } else {
                (BvValue::zero(w), false)
            };
            let c = terms.bv(c);
            let eq = terms.eq(a, c);
            let p = if eq_gives { eq } else { terms.not(eq) };
            to_bv1(terms, p)
        }
        Op::BvRedXor => {
            let bits: Vec<Term> = (0..w).map(|i| terms.mk(Op::Extract(i, i), &[a])).collect();
            if bits.len() == 1 {
                bits[0]
            } else {
                terms.mk(Op::BvXor, &bits)
            }
        }
        Op::BvRol | Op::BvRor => {
            // r = b mod w; rol = (a << r) | (a >> (w − r)); shifting by w gives 0.
            let b = args[1];
            let wc = terms.bv(BvValue::from_u64(w, w as u64));
            let r = terms.mk(Op::BvUrem, &[b, wc]);
            let rest = terms.mk(Op::BvSub, &[wc, r]);
            let (first, second) = if *op == Op::BvRol {
                (Op::BvShl, Op::BvLshr)
            } else {
                (Op::BvLshr, Op::BvShl)
            };
            let x = terms.mk(first, &[a, r]);
            let y = terms.mk(second, &[a, rest]);
            terms.mk(Op::BvOr, &[x, y])
        }
        Op::BvUaddo => widened_differs(terms, Op::BvAdd, a, args[1], 1, false),
        Op::BvSaddo => widened_differs(terms, Op::BvAdd, a, args[1], 1, true),
        Op::BvUsubo => terms.mk(Op::BvUlt, &[a, args[1]]),
        Op::BvSsubo => widened_differs(terms, Op::BvSub, a, args[1], 1, true),
        Op::BvUmulo => widened_differs(terms, Op::BvMul, a, args[1], w, false),
        Op::BvSmulo => widened_differs(terms, Op::BvMul, a, args[1], w, true),
        Op::BvSdivo => {
            let mut min = BvValue::zero(w);
            min.set_bit(w - 1, true);
            let min = terms.bv(min);
            let ones = terms.bv(BvValue::ones(w));
            let is_min = terms.eq(a, min);
            let minus_one = terms.eq(args[1], ones);
            terms.mk(Op::And, &[is_min, minus_one])
        }
        _ => unreachable!("only non-standard operators are defined here"),
    }
}
