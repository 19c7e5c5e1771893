//! C's scalar integer types and conversions, bit-precise (C11 6.3.1).

use crate::ir::bv::BvValue;
use crate::ir::term::{Op, Sort, Term, Terms};

/// A scalar integer type: width, signedness, and whether it is `_Bool`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CType {
    /// Width in bits.
    pub width: u32,
    /// Whether values are two's complement signed.
    pub signed: bool,
    /// `_Bool`: conversion to it maps nonzero to 1.
    pub boolean: bool,
}

impl CType {
    /// `int` (32 bits in both ILP32 and LP64).
    pub const INT: CType = CType {
        width: 32,
        signed: true,
        boolean: false,
    };

    /// A plain integer type.
    pub fn int(width: u32, signed: bool) -> CType {
        CType {
            width,
            signed,
            boolean: false,
        }
    }

    /// `_Bool`, kept in 8 bits as compilers store it.
    pub fn bool() -> CType {
        CType {
            width: 8,
            signed: false,
            boolean: true,
        }
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

    /// The bit-vector sort of values of this type.
    pub fn sort(self) -> Sort {
        Sort::BitVec(self.width)
    }
}

/// `value` (of type `from`) converted to `to` (C11 6.3.1.2-3): `_Bool` tests
/// for nonzero; otherwise truncate or extend by the source's signedness.
pub fn convert(terms: &mut Terms, value: Term, from: CType, to: CType) -> Term {
    if to.boolean && !from.boolean {
        let zero = terms.bv(BvValue::zero(from.width));
        let nonzero = terms.mk(Op::Distinct, &[value, zero]);
        return from_bool(terms, nonzero, to);
    }
    resize(terms, value, from, to.width)
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

/// The value 1 or 0 of type `to` for a Bool term.
pub fn from_bool(terms: &mut Terms, b: Term, to: CType) -> Term {
    let one = terms.bv(BvValue::from_u64(to.width, 1));
    let zero = terms.bv(BvValue::zero(to.width));
    terms.mk(Op::Ite, &[b, one, zero])
}

/// Whether a value of type `ty` is nonzero (C's truth).
pub fn truth(terms: &mut Terms, value: Term, ty: CType) -> Term {
    let zero = terms.bv(BvValue::zero(ty.width));
    terms.mk(Op::Distinct, &[value, zero])
}
