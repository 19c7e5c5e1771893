//! Linear forms `Σ c·x + k` over simplex variables, and their normal form
//! for atoms: `Σ c·x ⋈ b` with variables in order and the first coefficient
//! positive; over integers with coprime integral coefficients, otherwise
//! with the first coefficient 1. Forms that differ by a positive factor, or
//! by sign with the comparison turned around, then share one slack variable.

use super::num::Num;
use super::simplex::SVar;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// A comparison of a linear form with zero.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `form ≤ 0`.
    Le,
    /// `form < 0`.
    Lt,
    /// `form = 0`.
    Eq,
}

/// `Σ coeff · var + constant`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Linear {
    /// Non-zero coefficients by variable.
    pub terms: BTreeMap<SVar, Num>,
    /// The constant.
    pub constant: Num,
}

impl Linear {
    /// The form `v`.
    pub fn var(v: SVar) -> Linear {
        Linear {
            terms: BTreeMap::from([(v, Num::ONE)]),
            constant: Num::ZERO,
        }
    }

    /// The form `c`.
    pub fn constant(c: Num) -> Linear {
        Linear {
            terms: BTreeMap::new(),
            constant: c,
        }
    }

    /// The constant, if the form has no variable.
    pub fn as_constant(&self) -> Option<Num> {
        self.terms.is_empty().then(|| self.constant.clone())
    }

    /// `self + o`.
    pub fn add(&self, o: &Linear) -> Linear {
        let mut out = self.clone();
        for (v, c) in &o.terms {
            let sum = &out.terms.get(v).cloned().unwrap_or_default() + c;
            if sum.is_zero() {
                out.terms.remove(v);
            } else {
                out.terms.insert(*v, sum);
            }
        }
        out.constant = &out.constant + &o.constant;
        out
    }

    /// `self − o`.
    pub fn sub(&self, o: &Linear) -> Linear {
        self.add(&o.scale(&-&Num::ONE))
    }

    /// `k · self`.
    pub fn scale(&self, k: &Num) -> Linear {
        if k.is_zero() {
            return Linear::default();
        }
        Linear {
            terms: self.terms.iter().map(|(v, c)| (*v, c * k)).collect(),
            constant: &self.constant * k,
        }
    }

    /// The normal form of `self ⋈ 0` (`⋈` being `≤` or `<`): terms, bound
    /// and whether the comparison turned around (`≥`, `>`); `None` for a
    /// constant form.
    pub fn normalize(&self, is_int: &dyn Fn(SVar) -> bool) -> Option<NormalForm> {
        let (_, lead) = self.terms.iter().next()?;
        let flip = lead.signum() < 0;
        let ints = self.terms.keys().all(|&v| is_int(v));
        let factor = if ints {
            // Integral coefficients, then coprime.
            let mut lcm = BigInt::one();
            for c in self.terms.values() {
                let d = c.denominator();
                lcm = &lcm / Num::gcd(&lcm, &d) * d;
            }
            let scaled: Vec<BigInt> = (self.terms.values())
                .map(|c| c.scale(&lcm).to_bigint().expect("integral"))
                .collect();
            let g = scaled.iter().fold(BigInt::zero(), |g, c| Num::gcd(&g, c));
            &Num::from_bigint(lcm) / &Num::from_bigint(g)
        } else {
            &Num::ONE / &lead.abs()
        };
        let factor = if flip { -&factor } else { factor };
        let terms = self.terms.iter().map(|(v, c)| (*v, c * &factor)).collect();
        // Σ c·x + k ⋈ 0  ⇔  Σ f·c·x ⋈' −f·k.
        let bound = -&(&self.constant * &factor);
        Some(NormalForm {
            terms,
            bound,
            flipped: flip,
        })
    }
}

/// `Σ terms ⋈ bound`, scaled so forms differing by a factor coincide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalForm {
    pub terms: Vec<(SVar, Num)>,
    pub bound: Num,
    /// The comparison turned around (`≥`, `>` for `≤`, `<`).
    pub flipped: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_that_differ_by_a_factor_share_a_normal_form() {
        let ints = |_: SVar| true;
        // 2x − 4y + 6 ≤ 0  →  x − 2y ≤ −3
        let a = Linear::var(0)
            .scale(&Num::int(2))
            .sub(&Linear::var(1).scale(&Num::int(4)))
            .add(&Linear::constant(Num::int(6)));
        let n = a.normalize(&ints).unwrap();
        assert_eq!(n.terms, vec![(0, Num::ONE), (1, Num::int(-2))]);
        assert_eq!((n.bound.clone(), n.flipped), (Num::int(-3), false));
        // −x + 2y ≤ 0  →  x − 2y ≥ 0
        let n2 = a
            .scale(&Num::ratio(-1, 2))
            .add(&Linear::constant(Num::int(3)))
            .normalize(&ints)
            .unwrap();
        assert_eq!((n2.terms, n2.bound, n2.flipped), (n.terms, Num::ZERO, true));
        let reals = |_: SVar| false;
        let n3 = Linear::var(3)
            .scale(&Num::int(4))
            .add(&Linear::constant(Num::ONE))
            .normalize(&reals)
            .unwrap();
        assert_eq!(
            (n3.terms, n3.bound),
            (vec![(3, Num::ONE)], Num::ratio(-1, 4))
        );
    }
}
