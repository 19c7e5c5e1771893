//! Exact rationals for the arithmetic solver: 64-bit numerator and
//! denominator while they fit (products and sums are formed in 128 bits and
//! reduced), arbitrary precision (`num-bigint`) when they do not. The form
//! is canonical (reduced, positive denominator, small whenever it fits), so
//! equal numbers are equal values.
//!
//! [`Delta`] extends them with an infinitesimal for strict bounds
//! (Dutertre and de Moura, "A Fast Linear-Arithmetic Solver for DPLL(T)",
//! CAV 2006): `x < c` is `x ≤ c − δ`.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// An exact rational number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Num {
    /// Numerator and (positive) denominator, reduced.
    Small(i64, i64),
    /// Anything larger.
    Big(BigRational),
}

/// The greatest common divisor of `|a|` and `|b|`. Numbers that fit 64
/// bits (nearly all) take the binary algorithm, which needs no division: the
/// 128-bit divisions of Euclid's were a tenth of an LIA query's profile.
pub(super) fn gcd128(a: i128, b: i128) -> i128 {
    let (a, b) = (a.unsigned_abs(), b.unsigned_abs());
    if let (Ok(a), Ok(b)) = (u64::try_from(a), u64::try_from(b)) {
        return gcd64(a, b) as i128;
    }
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i128
}

/// Binary (Stein's) gcd.
fn gcd64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Num {
    /// Zero.
    pub const ZERO: Num = Num::Small(0, 1);
    /// One.
    pub const ONE: Num = Num::Small(1, 1);

    /// The integer `n`.
    pub fn int(n: i64) -> Num {
        Num::Small(n, 1)
    }

    /// `n / d` (d ≠ 0) from 128-bit parts, reduced.
    pub fn ratio(n: i128, d: i128) -> Num {
        debug_assert!(d != 0);
        // Integers, the usual case of LIA, are reduced already; numbers that
        // fit 64 bits are reduced without 128-bit division.
        if let (Ok(n), Ok(d)) = (i64::try_from(n), i64::try_from(d)) {
            if d == 1 {
                return Num::Small(n, 1);
            }
            let g = gcd64(n.unsigned_abs(), d.unsigned_abs());
            if let Ok(g) = i64::try_from(g) {
                let (n, d) = (n / g, d / g);
                if d > 0 {
                    return Num::Small(n, d);
                }
                if n != i64::MIN && d != i64::MIN {
                    return Num::Small(-n, -d);
                }
            }
        }
        let g = gcd128(n, d).max(1);
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            (n, d) = (-n, -d);
        }
        match (i64::try_from(n), i64::try_from(d)) {
            (Ok(n), Ok(d)) => Num::Small(n, d),
            _ => Num::Big(BigRational::new(BigInt::from(n), BigInt::from(d))),
        }
    }

    fn from_big(r: BigRational) -> Num {
        match (r.numer().to_i64(), r.denom().to_i64()) {
            (Some(n), Some(d)) => Num::Small(n, d),
            _ => Num::Big(r),
        }
    }

    fn big(&self) -> BigRational {
        match self {
            Num::Small(n, d) => BigRational::new_raw(BigInt::from(*n), BigInt::from(*d)),
            Num::Big(r) => r.clone(),
        }
    }

    /// Whether the number is 0.
    pub fn is_zero(&self) -> bool {
        matches!(self, Num::Small(0, _))
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self {
            Num::Small(n, _) => n.signum() as i32,
            Num::Big(r) => {
                if r.is_negative() {
                    -1
                } else if r.is_zero() {
                    0
                } else {
                    1
                }
            }
        }
    }

    /// Whether the number is an integer.
    pub fn is_integer(&self) -> bool {
        match self {
            Num::Small(_, d) => *d == 1,
            Num::Big(r) => r.is_integer(),
        }
    }

    /// The largest integer not above the number.
    pub fn floor(&self) -> Num {
        match self {
            Num::Small(n, d) => Num::int(n.div_euclid(*d)),
            Num::Big(r) => Num::from_big(r.floor()),
        }
    }

    /// The smallest integer not below the number.
    pub fn ceil(&self) -> Num {
        match self {
            Num::Small(n, d) => Num::int(-((-n).div_euclid(*d))),
            Num::Big(r) => Num::from_big(r.ceil()),
        }
    }

    /// The absolute value.
    pub fn abs(&self) -> Num {
        if self.signum() < 0 {
            -self
        } else {
            self.clone()
        }
    }

    /// Numerator and denominator as 128-bit integers, if they fit.
    pub fn to_i128_parts(&self) -> Option<(i128, i128)> {
        match self {
            Num::Small(n, d) => Some((*n as i128, *d as i128)),
            Num::Big(r) => Some((r.numer().to_i128()?, r.denom().to_i128()?)),
        }
    }

    /// The number from the term language's rational.
    pub fn from_rational(r: crate::ir::term::Rational) -> Num {
        Num::ratio(r.numer(), r.denom())
    }

    /// The term language's rational, if it fits.
    pub fn to_rational(&self) -> Option<crate::ir::term::Rational> {
        let (n, d) = self.to_i128_parts()?;
        crate::ir::term::Rational::new(n, d)
    }

    /// The least common multiple of the denominators, for scaling to integers.
    pub fn denominator(&self) -> BigInt {
        match self {
            Num::Small(_, d) => BigInt::from(*d),
            Num::Big(r) => r.denom().clone(),
        }
    }

    /// `self · k` for an integer k.
    pub fn scale(&self, k: &BigInt) -> Num {
        Num::from_big(self.big() * BigRational::from_integer(k.clone()))
    }

    /// The numerator when the number is an integer.
    pub fn to_bigint(&self) -> Option<BigInt> {
        self.is_integer().then(|| self.big().to_integer())
    }

    /// The number from a big integer.
    pub fn from_bigint(n: BigInt) -> Num {
        Num::from_big(BigRational::from_integer(n))
    }

    /// The greatest common divisor of two integers (as numbers).
    pub fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
        a.gcd(b)
    }
}

impl Default for Num {
    fn default() -> Self {
        Num::ZERO
    }
}

impl Add for &Num {
    type Output = Num;
    fn add(self, o: &Num) -> Num {
        match (self, o) {
            (Num::Small(a, b), Num::Small(c, d)) => {
                let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
                if b == d {
                    Num::ratio(a + c, b)
                } else {
                    Num::ratio(a * d + c * b, b * d)
                }
            }
            _ => Num::from_big(self.big() + o.big()),
        }
    }
}

impl Sub for &Num {
    type Output = Num;
    fn sub(self, o: &Num) -> Num {
        self + &(-o)
    }
}

impl Mul for &Num {
    type Output = Num;
    fn mul(self, o: &Num) -> Num {
        match (self, o) {
            (Num::Small(a, b), Num::Small(c, d)) => {
                Num::ratio(*a as i128 * *c as i128, *b as i128 * *d as i128)
            }
            _ => Num::from_big(self.big() * o.big()),
        }
    }
}

impl Div for &Num {
    type Output = Num;
    fn div(self, o: &Num) -> Num {
        debug_assert!(!o.is_zero(), "division by zero");
        match (self, o) {
            (Num::Small(a, b), Num::Small(c, d)) => {
                Num::ratio(*a as i128 * *d as i128, *b as i128 * *c as i128)
            }
            _ => Num::from_big(self.big() / o.big()),
        }
    }
}

impl Neg for &Num {
    type Output = Num;
    fn neg(self) -> Num {
        match self {
            Num::Small(n, d) if *n != i64::MIN => Num::Small(-n, *d),
            _ => Num::from_big(-self.big()),
        }
    }
}

impl Ord for Num {
    fn cmp(&self, o: &Num) -> Ordering {
        match (self, o) {
            (Num::Small(a, b), Num::Small(c, d)) => {
                (*a as i128 * *d as i128).cmp(&(*c as i128 * *b as i128))
            }
            _ => self.big().cmp(&o.big()),
        }
    }
}

impl PartialOrd for Num {
    fn partial_cmp(&self, o: &Num) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Small(n, 1) => write!(f, "{n}"),
            Num::Small(n, d) => write!(f, "{n}/{d}"),
            Num::Big(r) if r.is_integer() => write!(f, "{}", r.numer()),
            Num::Big(r) => write!(f, "{}/{}", r.numer(), r.denom()),
        }
    }
}

impl From<i64> for Num {
    fn from(n: i64) -> Num {
        Num::int(n)
    }
}

/// `real + delta·δ` for an infinitesimal δ > 0, ordered lexicographically.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Delta {
    /// The standard part.
    pub real: Num,
    /// The coefficient of δ.
    pub delta: Num,
}

impl Delta {
    /// The number `c` (no infinitesimal).
    pub fn exact(c: Num) -> Delta {
        Delta {
            real: c,
            delta: Num::ZERO,
        }
    }

    /// `c + k·δ`.
    pub fn new(c: Num, k: Num) -> Delta {
        Delta { real: c, delta: k }
    }

    /// `self + o`.
    pub fn add(&self, o: &Delta) -> Delta {
        Delta::new(&self.real + &o.real, &self.delta + &o.delta)
    }

    /// `self - o`.
    pub fn sub(&self, o: &Delta) -> Delta {
        Delta::new(&self.real - &o.real, &self.delta - &o.delta)
    }

    /// `k · self`.
    pub fn scale(&self, k: &Num) -> Delta {
        Delta::new(&self.real * k, &self.delta * k)
    }

    /// The value with δ replaced by `delta`.
    pub fn at(&self, delta: &Num) -> Num {
        &self.real + &(&self.delta * delta)
    }
}

impl Ord for Delta {
    fn cmp(&self, o: &Delta) -> Ordering {
        self.real
            .cmp(&o.real)
            .then_with(|| self.delta.cmp(&o.delta))
    }
}

impl PartialOrd for Delta {
    fn partial_cmp(&self, o: &Delta) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The binary gcd answers as Euclid's on random and edge values.
    #[test]
    fn binary_gcd_is_euclids() {
        fn euclid(mut a: u64, mut b: u64) -> u64 {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        }
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let edges = [0, 1, 2, 3, 12, 18, 1 << 40, u64::MAX, u64::MAX - 1];
        for &a in &edges {
            for &b in &edges {
                assert_eq!(gcd64(a, b), euclid(a, b), "{a} {b}");
            }
        }
        for _ in 0..10_000 {
            let shift = next() % 40;
            let (a, b) = (
                (next() >> (next() % 64)) << shift,
                (next() >> (next() % 64)) << shift,
            );
            assert_eq!(gcd64(a, b), euclid(a, b), "{a} {b}");
        }
        // Reduced ratios equal the big-rational reduction, signs included.
        for _ in 0..10_000 {
            let n = (next() as i64 >> (next() % 64)) as i128;
            let d = (next() as i64 >> (next() % 64)) as i128;
            if d == 0 {
                continue;
            }
            let expected = Num::from_big(BigRational::new(BigInt::from(n), BigInt::from(d)));
            assert_eq!(Num::ratio(n, d), expected, "{n}/{d}");
        }
        let min = i64::MIN as i128;
        for (n, d) in [
            (min, -1),
            (min, 1),
            (min, min),
            (1, min),
            (min, 2),
            (0, min),
        ] {
            let expected = Num::from_big(BigRational::new(BigInt::from(n), BigInt::from(d)));
            assert_eq!(Num::ratio(n, d), expected, "{n}/{d}");
        }
        assert_eq!(gcd128(-12, 18), 6);
        assert_eq!(gcd128(1 << 100, 3 << 70), 1 << 70);
    }

    #[test]
    fn small_and_big_agree() {
        // 2^63 − 1 is a multiple of 7, not of 11: the numerator stays 3·(2^63 − 1).
        let big = Num::ratio(i64::MAX as i128 * 3, 11);
        assert!(matches!(big, Num::Big(_)));
        let back = &(&big * &Num::int(11)) / &Num::int(3);
        assert_eq!(back, Num::int(i64::MAX));
        assert!(matches!(back, Num::Small(..)));
        assert_eq!(&Num::ratio(1, 3) + &Num::ratio(1, 6), Num::ratio(1, 2));
        assert!(Num::ratio(-7, 2).floor() == Num::int(-4));
        assert!(Num::ratio(-7, 2).ceil() == Num::int(-3));
        assert!(Num::ratio(1, 3) < Num::ratio(1, 2));
        // Mixed comparisons: 3/11 of 2^63 − 1 lies between a quarter of it and it.
        assert!(big > Num::int(i64::MAX / 4) && big < Num::int(i64::MAX));
        let d = Delta::new(Num::int(5), Num::int(-1));
        assert!(d < Delta::exact(Num::int(5)) && d > Delta::exact(Num::ratio(49, 10)));
    }
}
