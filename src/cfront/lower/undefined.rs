//! Undefined behaviour as SV-COMP reads it: an execution ends where it
//! performs undefined behaviour, so a path through it is no counterexample
//! to unreach-call. Each arithmetic operation that may be undefined puts an
//! assumption before its use: the operation is defined. Covered (C11 6.5):
//! signed `+`, `-`, `*`, unary `-`, `++` and `--` that overflow; `/` and `%`
//! by zero, and `INT_MIN / -1` (whose quotient overflows; `%` likewise);
//! shifts by a negative amount or by the promoted left operand's width or
//! more; a signed left shift of a negative value or whose value does not
//! fit. Under SV-COMP's no-overflow property the signed overflows (of
//! `+ - *`, unary `-`, `++`, `--`, `<<` and `INT_MIN / -1`) lead to the
//! error location instead, and `reach_error` ends the execution.
//! `--wrap-signed` (gcc's `-fwrapv`) makes the overflows of `+`, `-`,
//! `*`, unary `-` and `<<` wrap around; division and shift amounts stay
//! undefined, as they are under `-fwrapv`.
//!
//! An operand that C evaluates only under a condition (the right of `&&`
//! and `||`, the branches of `?:`) asserts its definedness under that
//! condition: `x != 0 && y / x > 1` is defined for `x == 0`. Only terms
//! without control flow are lowered that way; the others branch.
//!
//! Under `--int` (the integer relaxation) the same assumptions are made at
//! the same places, over mathematical integers: an operation's exact value
//! lies in its type's range. The relaxation's automaton then keeps the
//! locations of the bit-precise one, which its proofs are mapped onto, and
//! agrees with it wherever signed arithmetic is defined.

use super::expr::shift_amount;
use super::{Lowerer, Span};
use crate::cfront::types::CType;
use crate::cfront::Spec;
use crate::ir::cfa::Command;
use crate::ir::term::eval::{Evaluator, Value};
use crate::ir::term::{Op, Term};
use lang_c::ast::BinaryOperator;

impl<'a> Lowerer<'a> {
    /// `ok` under the conditions of the operands being lowered
    /// ([`Lowerer::guards`]): `None` when it holds regardless (an operand
    /// never evaluated, or constant operands that are fine).
    pub(super) fn guarded_condition(&mut self, ok: Term) -> Option<Term> {
        let terms = &mut self.cfa.terms;
        let no = terms.bool(false);
        if self.guards.contains(&no) {
            return None;
        }
        // Constant operands: decided here (the operation is defined in
        // almost every such case, and an assumption of `true` is noise).
        let constant =
            (terms.topological(&[ok]).iter()).all(|&t| !matches!(terms.op(t), Op::Var(..)));
        if constant {
            if let Ok(Value::Bool(true)) = Evaluator::new(terms).eval(ok) {
                return None;
            }
        }
        Some(if self.guards.is_empty() {
            ok
        } else {
            let evaluated = terms.and_all(&self.guards);
            let skipped = terms.not(evaluated);
            terms.or_all(&[skipped, ok])
        })
    }

    /// The execution goes on only where `ok` holds: otherwise it performs
    /// undefined behaviour.
    pub(super) fn defined_only_if(&mut self, ok: Term, span: Span) {
        if let Some(ok) = self.guarded_condition(ok) {
            self.emit(Command::Assume(ok), span);
        }
    }

    /// `ok`: a signed operation does not overflow. Under no-overflow an
    /// overflow violates the property (an edge to the error location, the
    /// operation a violation witness's target); otherwise it is undefined
    /// behaviour.
    fn fits_or_overflows(&mut self, ok: Term, span: Span) {
        if self.options.property != Spec::NoOverflow {
            return self.defined_only_if(ok, span);
        }
        let Some(ok) = self.guarded_condition(ok) else {
            return;
        };
        let overflows = self.cfa.terms.not(ok);
        self.cfa
            .add_edge(self.cur, Command::Assume(overflows), self.cfa.error);
        self.error_calls.extend(self.point(span));
        self.emit(Command::Assume(ok), span);
    }

    /// Lowers with `guard` added to the conditions under which the
    /// operands are evaluated.
    pub(super) fn guarded<T>(&mut self, guard: Term, lower: impl FnOnce(&mut Self) -> T) -> T {
        self.guards.push(guard);
        let out = lower(self);
        self.guards.pop();
        out
    }

    /// Whether a signed overflow in `ty` is checked: under no-overflow it
    /// is the property; otherwise it is undefined unless `--wrap-signed`.
    fn signed_overflow_checked(&self, ty: CType) -> bool {
        ty.signed && (self.options.property == Spec::NoOverflow || !self.options.wrap_signed)
    }

    /// `e`, an exact value under `--int`, within the range of `ty`.
    pub(super) fn in_range(&mut self, e: Term, ty: CType) -> Term {
        let (lo, hi) = ty.range();
        let terms = &mut self.cfa.terms;
        let lo = self.num.constant(terms, lo, ty);
        let hi = self.num.constant(terms, hi, ty);
        let above = terms.mk(Op::Le, &[lo, e]);
        let below = terms.mk(Op::Le, &[e, hi]);
        terms.mk(Op::And, &[above, below])
    }

    /// `l op r` (`op` one of `Add`, `Sub`, `Mul`) does not overflow the
    /// signed type `ty`. Written in SMT-LIB's own operators, so that every
    /// solver, the compiled evaluator and exported models read it: a sum
    /// or difference overflows when its sign differs from the left
    /// operand's while the operands' signs agree (a sum) or differ (a
    /// difference); a product is computed in twice the width and compared
    /// with the range.
    fn fits(&mut self, op: Op, l: Term, r: Term, ty: CType) -> Term {
        if self.num.int {
            let e = self.cfa.terms.mk(op, &[l, r]);
            return self.in_range(e, ty);
        }
        let terms = &mut self.cfa.terms;
        let zero = self.num.constant(terms, 0, ty);
        match op {
            Op::Add | Op::Sub => {
                let bv = if op == Op::Add { Op::BvAdd } else { Op::BvSub };
                let e = terms.mk(bv, &[l, r]);
                let (sl, sr, se) = (
                    terms.mk(Op::BvSlt, &[l, zero]),
                    terms.mk(Op::BvSlt, &[r, zero]),
                    terms.mk(Op::BvSlt, &[e, zero]),
                );
                let signs_allow = if op == Op::Add {
                    terms.mk(Op::Distinct, &[sl, sr])
                } else {
                    terms.eq(sl, sr)
                };
                let sign_kept = terms.eq(se, sl);
                terms.mk(Op::Or, &[signs_allow, sign_kept])
            }
            _ => {
                let wide = CType::int(2 * ty.width, true);
                let (lo, hi) = ty.range();
                let (a, b) = (
                    self.num.convert(terms, l, ty, wide),
                    self.num.convert(terms, r, ty, wide),
                );
                let p = terms.mk(Op::BvMul, &[a, b]);
                let lo = self.num.constant(terms, lo, wide);
                let hi = self.num.constant(terms, hi, wide);
                let above = terms.mk(Op::BvSle, &[lo, p]);
                let below = terms.mk(Op::BvSle, &[p, hi]);
                terms.mk(Op::And, &[above, below])
            }
        }
    }

    /// Before `l op r` in type `ty` (both converted to it): the operation
    /// is defined.
    pub(super) fn arithmetic_defined(
        &mut self,
        op: &BinaryOperator,
        l: Term,
        r: Term,
        ty: CType,
        span: Span,
    ) {
        use BinaryOperator::*;
        let exact = match op {
            Plus | AssignPlus => Op::Add,
            Minus | AssignMinus => Op::Sub,
            Multiply | AssignMultiply => Op::Mul,
            Divide | AssignDivide | Modulo | AssignModulo => {
                let terms = &mut self.cfa.terms;
                let zero = self.num.constant(terms, 0, ty);
                let nonzero = terms.mk(Op::Distinct, &[r, zero]);
                self.defined_only_if(nonzero, span);
                if ty.signed {
                    // INT_MIN / -1 overflows, and so INT_MIN % -1 is
                    // undefined as well (C11 6.5.5p6), -fwrapv or not.
                    let terms = &mut self.cfa.terms;
                    let min = self.num.constant(terms, ty.range().0, ty);
                    let minus_one = self.num.constant(terms, -1, ty);
                    let is_min = terms.eq(l, min);
                    let by_minus_one = terms.eq(r, minus_one);
                    let both = terms.mk(Op::And, &[is_min, by_minus_one]);
                    let fits = terms.not(both);
                    self.fits_or_overflows(fits, span);
                }
                return;
            }
            _ => return,
        };
        if self.signed_overflow_checked(ty) {
            let fits = self.fits(exact, l, r, ty);
            self.fits_or_overflows(fits, span);
        }
    }

    /// Before `-v`, `v` of type `ty`: it is not the most negative value.
    pub(super) fn negation_defined(&mut self, v: Term, ty: CType, span: Span) {
        if self.signed_overflow_checked(ty) {
            let terms = &mut self.cfa.terms;
            let min = self.num.constant(terms, ty.range().0, ty);
            let fits = terms.mk(Op::Distinct, &[v, min]);
            self.fits_or_overflows(fits, span);
        }
    }

    /// Before `v + 1` (`up`) or `v - 1` in type `ty`, for `++` and `--`.
    pub(super) fn step_defined(&mut self, v: Term, one: Term, up: bool, ty: CType, span: Span) {
        if self.signed_overflow_checked(ty) {
            let exact = if up { Op::Add } else { Op::Sub };
            let fits = self.fits(exact, v, one, ty);
            self.fits_or_overflows(fits, span);
        }
    }

    /// Before `l << r` or `l >> r`: `l` of the promoted type `lt`, `r` the
    /// amount in its own promoted type `rt` (under `--int` a constant).
    /// The amount is at least 0 and below `lt`'s width; a signed left shift
    /// needs `0 <= l` and `l * 2^r <= MAX` (bit-precise: `l <= MAX >> r`).
    pub(super) fn shift_defined(
        &mut self,
        left: bool,
        (l, lt): (Term, CType),
        (r, rt): (Term, CType),
        span: Span,
    ) {
        let terms = &mut self.cfa.terms;
        let width = self.num.constant(terms, i128::from(lt.width), rt);
        let in_range = if self.num.int {
            let zero = self.num.constant(terms, 0, rt);
            let nonnegative = terms.mk(Op::Le, &[zero, r]);
            let below = terms.mk(Op::Lt, &[r, width]);
            terms.mk(Op::And, &[nonnegative, below])
        } else {
            // A negative amount, read unsigned, is not below the width.
            terms.mk(Op::BvUlt, &[r, width])
        };
        self.defined_only_if(in_range, span);
        if left && self.signed_overflow_checked(lt) {
            let terms = &mut self.cfa.terms;
            let zero = self.num.constant(terms, 0, lt);
            let max = self.num.constant(terms, (1i128 << (lt.width - 1)) - 1, lt);
            let (nonnegative, fits) = if self.num.int {
                let nonnegative = terms.mk(Op::Le, &[zero, l]);
                // The amount is a constant here (a variable one is refused).
                let by = match terms.op(r) {
                    Op::Num(n, _) if n.is_int() && (0..lt.width as i128).contains(&n.numer()) => {
                        n.numer()
                    }
                    _ => 0,
                };
                let factor = self.num.constant(terms, 1i128 << by, lt);
                let shifted = terms.mk(Op::Mul, &[l, factor]);
                let fits = terms.mk(Op::Le, &[shifted, max]);
                (nonnegative, fits)
            } else {
                let amount = shift_amount(terms, r, rt, lt);
                let nonnegative = terms.mk(Op::BvSle, &[zero, l]);
                let limit = terms.mk(Op::BvLshr, &[max, amount]);
                let fits = terms.mk(Op::BvUle, &[l, limit]);
                (nonnegative, fits)
            };
            // A negative value shifted is undefined; a value too large
            // for the type overflows (under no-overflow, the property).
            self.defined_only_if(nonnegative, span);
            let terms = &mut self.cfa.terms;
            let negative = terms.not(nonnegative);
            let fits = terms.mk(Op::Or, &[negative, fits]);
            self.fits_or_overflows(fits, span);
        }
    }
}
