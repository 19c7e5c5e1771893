//! Exact rational numbers for Int and Real constants and their evaluation.
//!
//! Numerators and denominators are `i128`; an operation whose result does not
//! fit reports overflow instead of wrapping, so evaluation never gives a wrong
//! value silently.

use std::cmp::Ordering;
use std::fmt;

/// A rational number in lowest terms with a positive denominator.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Rational {
    num: i128,
    den: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

impl Rational {
    /// The integer `n`.
    pub fn int(n: i128) -> Rational {
        Rational { num: n, den: 1 }
    }

    /// `num / den` reduced; `None` when `den` is zero or on overflow.
    pub fn new(num: i128, den: i128) -> Option<Rational> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den);
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = n.checked_neg()?;
            d = d.checked_neg()?;
        }
        Some(Rational { num: n, den: d })
    }

    /// Parses an SMT-LIB numeral (`123`) or decimal (`1.25`).
    pub fn parse(text: &str) -> Option<Rational> {
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        if int.is_empty() || !int.bytes().chain(frac.bytes()).all(|c| c.is_ascii_digit()) {
            return None;
        }
        let mut num: i128 = 0;
        let mut den: i128 = 1;
        for c in int.bytes().chain(frac.bytes()) {
            num = num.checked_mul(10)?.checked_add((c - b'0') as i128)?;
        }
        for _ in 0..frac.len() {
            den = den.checked_mul(10)?;
        }
        Rational::new(num, den)
    }

    /// The numerator.
    pub fn numer(self) -> i128 {
        self.num
    }

    /// The denominator (positive).
    pub fn denom(self) -> i128 {
        self.den
    }

    /// Whether the number is an integer.
    pub fn is_int(self) -> bool {
        self.den == 1
    }

    /// Sum.
    pub fn checked_add(self, o: Rational) -> Option<Rational> {
        let n = self
            .num
            .checked_mul(o.den)?
            .checked_add(o.num.checked_mul(self.den)?)?;
        Rational::new(n, self.den.checked_mul(o.den)?)
    }

    /// Negation.
    pub fn checked_neg(self) -> Option<Rational> {
        Some(Rational {
            num: self.num.checked_neg()?,
            den: self.den,
        })
    }

    /// Difference.
    pub fn checked_sub(self, o: Rational) -> Option<Rational> {
        self.checked_add(o.checked_neg()?)
    }

    /// Product.
    pub fn checked_mul(self, o: Rational) -> Option<Rational> {
        Rational::new(self.num.checked_mul(o.num)?, self.den.checked_mul(o.den)?)
    }

    /// Quotient; `None` for division by zero (whose value SMT-LIB leaves open).
    pub fn checked_div(self, o: Rational) -> Option<Rational> {
        Rational::new(self.num.checked_mul(o.den)?, self.den.checked_mul(o.num)?)
    }

    /// The largest integer not above the number.
    pub fn floor(self) -> i128 {
        self.num.div_euclid(self.den)
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Rational {
    fn cmp(&self, o: &Self) -> Ordering {
        // Cross-multiplying in i128 may overflow; compare floors first, then fractions.
        let (fa, fb) = (self.floor(), o.floor());
        if fa != fb {
            return fa.cmp(&fb);
        }
        let ra = (self.num - fa * self.den, self.den);
        let rb = (o.num - fb * o.den, o.den);
        match (ra.0.checked_mul(rb.1), rb.0.checked_mul(ra.1)) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => (ra.0 as f64 / ra.1 as f64).total_cmp(&(rb.0 as f64 / rb.1 as f64)),
        }
    }
}

impl fmt::Display for Rational {
    /// SMT-LIB syntax: `5`, `(- 5)`, `(/ 1 3)`, `(- (/ 1 3))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mag = self.num.unsigned_abs();
        let body = if self.den == 1 {
            format!("{mag}")
        } else {
            format!("(/ {mag} {})", self.den)
        };
        if self.num < 0 {
            write!(f, "(- {body})")
        } else {
            write!(f, "{body}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_decimals_and_reduces() {
        assert_eq!(Rational::parse("1.50"), Rational::new(3, 2));
        assert_eq!(Rational::parse("007"), Some(Rational::int(7)));
        assert_eq!(Rational::parse("1."), Some(Rational::int(1)));
        assert_eq!(Rational::parse("x"), None);
        assert_eq!(Rational::new(2, -4), Rational::new(-1, 2));
    }

    #[test]
    fn floor_rounds_down_for_negatives() {
        assert_eq!(Rational::new(-3, 2).unwrap().floor(), -2);
        assert!(Rational::new(-3, 2).unwrap() < Rational::int(-1));
        assert_eq!(Rational::new(-1, 3).unwrap().to_string(), "(- (/ 1 3))");
    }
}
