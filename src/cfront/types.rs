//! C's scalar integer types and conversions (C11 6.3.1), bit-precise or
//! on mathematical integers.

use crate::ir::bv::BvValue;
use crate::ir::term::{Op, Rational, Sort, Term, Terms};

/// A scalar integer type: width, signedness, and whether it is `_Bool`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CType {
    /// Width in bits.
    pub width: u32,
    /// Whether values are two's complement signed.
    pub signed: bool,
    /// `_Bool`: conversion to it maps nonzero to 1.
    pub boolean: bool,
    /// A pointer: the front end's number for what it points to (a pointer
    /// is 64 bits of object and byte offset, whatever the data model;
    /// `cfront::lower::heap`).
    pub pointee: Option<u32>,
}

impl CType {
    /// `int` (32 bits in both ILP32 and LP64).
    pub const INT: CType = CType {
        width: 32,
        signed: true,
        boolean: false,
        pointee: None,
    };

    /// A plain integer type.
    pub fn int(width: u32, signed: bool) -> CType {
        CType {
            width,
            signed,
            boolean: false,
            pointee: None,
        }
    }

    /// `_Bool`, kept in 8 bits as compilers store it.
    pub fn bool() -> CType {
        CType {
            width: 8,
            signed: false,
            boolean: true,
            pointee: None,
        }
    }

    /// A pointer to the pointee numbered `pointee`.
    pub fn pointer(pointee: u32) -> CType {
        CType {
            width: 64,
            signed: false,
            boolean: false,
            pointee: Some(pointee),
        }
    }

    /// Whether this is a pointer type.
    pub fn is_pointer(self) -> bool {
        self.pointee.is_some()
    }

    /// The integer conversion rank, ordered by width (`_Bool` lowest).
    fn rank(self) -> u32 {
        if self.boolean {
            0
        } else {
            self.width
        }
    }

    /// The integer promotion (C11 6.3.1.1): types narrower than int become int.
    pub fn promoted(self) -> CType {
        if self.boolean || self.width < 32 {
            CType::INT
        } else {
            self
        }
    }

    /// The common type of the usual arithmetic conversions (C11 6.3.1.8).
    pub fn common(a: CType, b: CType) -> CType {
        // (Arithmetic on pointers is lowered before; `c ? p : 0` is a pointer.)
        if a.is_pointer() {
            return a;
        }
        if b.is_pointer() {
            return b;
        }
        let (a, b) = (a.promoted(), b.promoted());
        if a == b {
            return a;
        }
        if a.signed == b.signed {
            return if a.rank() >= b.rank() { a } else { b };
        }
        let (u, s) = if a.signed { (b, a) } else { (a, b) };
        if u.rank() >= s.rank() {
            u
        } else if s.width > u.width {
            // The signed type represents every value of the unsigned one.
            s
        } else {
            CType::int(s.width, false)
        }
    }

    /// The smallest and largest value of this type.
    pub fn range(self) -> (i128, i128) {
        match (self.boolean, self.signed) {
            (true, _) => (0, 1),
            (_, true) => (
                -(1i128 << (self.width - 1)),
                (1i128 << (self.width - 1)) - 1,
            ),
            (_, false) => (0, (1i128 << self.width) - 1),
        }
    }
}

/// How C integers are represented: bit-precise machine integers (the
/// default) or mathematical integers (`--int`), which ignore wrap-around and
/// treat casts as the identity. The second is unsound for programs whose
/// verdict depends on overflow or truncation, and is documented so.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Numbers {
    /// Mathematical integers (SMT-LIB `Int`) instead of bit-vectors.
    pub int: bool,
}

impl Numbers {
    /// The sort of values of type `ty`.
    pub fn sort(self, ty: CType) -> Sort {
        if self.int {
            Sort::Int
        } else {
            Sort::BitVec(ty.width)
        }
    }

    /// The constant `value` of type `ty` (two's complement when bit-precise).
    pub fn constant(self, terms: &mut Terms, value: i128, ty: CType) -> Term {
        if self.int {
            return terms.mk(Op::Num(Rational::int(value), Sort::Int), &[]);
        }
        let mut bv = BvValue::zero(ty.width);
        for b in 0..ty.width.min(128) {
            bv.set_bit(b, value >> b & 1 == 1);
        }
        terms.bv(bv)
    }

    /// `value` (of type `from`) converted to `to` (C11 6.3.1.2-3): `_Bool`
    /// tests for nonzero; otherwise truncate or extend by the source's
    /// signedness (mathematical integers keep the value).
    pub fn convert(self, terms: &mut Terms, value: Term, from: CType, to: CType) -> Term {
        if to.boolean && !from.boolean {
            let nonzero = self.truth(terms, value, from);
            return self.from_bool(terms, nonzero, to);
        }
        if self.int {
            return value;
        }
        resize(terms, value, from, to.width)
    }

    /// The value 1 or 0 of type `to` for a Bool term.
    pub fn from_bool(self, terms: &mut Terms, b: Term, to: CType) -> Term {
        let one = self.constant(terms, 1, to);
        let zero = self.constant(terms, 0, to);
        terms.mk(Op::Ite, &[b, one, zero])
    }

    /// Whether a value of type `ty` is nonzero (C's truth).
    pub fn truth(self, terms: &mut Terms, value: Term, ty: CType) -> Term {
        let zero = self.constant(terms, 0, ty);
        terms.mk(Op::Distinct, &[value, zero])
    }

    /// C's `/` and `%` on mathematical integers: the quotient truncates
    /// toward zero, while SMT-LIB's `div` is Euclidean, so both work on
    /// absolute values and the signs are put back (C11 6.5.5).
    pub fn int_div_rem(self, terms: &mut Terms, a: Term, b: Term) -> (Term, Term) {
        let zero = terms.mk(Op::Num(Rational::int(0), Sort::Int), &[]);
        let abs_a = terms.mk(Op::Abs, &[a]);
        let abs_b = terms.mk(Op::Abs, &[b]);
        let q = terms.mk(Op::IntDiv, &[abs_a, abs_b]);
        let neg_q = terms.mk(Op::Neg, &[q]);
        let a_nonneg = terms.mk(Op::Ge, &[a, zero]);
        let b_nonneg = terms.mk(Op::Ge, &[b, zero]);
        let same_sign = terms.mk(Op::Eq, &[a_nonneg, b_nonneg]);
        let quotient = terms.mk(Op::Ite, &[same_sign, q, neg_q]);
        let product = terms.mk(Op::Mul, &[b, quotient]);
        let remainder = terms.mk(Op::Sub, &[a, product]);
        (quotient, remainder)
    }
}

fn resize(terms: &mut Terms, value: Term, from: CType, width: u32) -> Term {
    use std::cmp::Ordering::*;
    match width.cmp(&from.width) {
        Equal => value,
        Less => terms.mk(Op::Extract(width - 1, 0), &[value]),
        Greater => {
            let by = width - from.width;
            let op = if from.signed {
                Op::SignExtend(by)
            } else {
                Op::ZeroExtend(by)
            };
            terms.mk(op, &[value])
        }
    }
}
