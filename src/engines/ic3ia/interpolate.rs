//! Interpolants from Farkas conflicts: the arithmetic solver's refutation
//! of a spurious chain explains each theory conflict as a weighted sum of
//! its constraints; the part of a sum on one side of a cut between steps
//! is a predicate over that step's state (McMillan's interpolating proofs).

use super::Predicates;
use crate::ir::term::{Op, Sort, Term, Terms};
use crate::smt;
use crate::smt::num::Num;
use std::collections::{HashMap, HashSet};

impl Predicates {
    /// Predicates from the Farkas conflicts of the refutation of a spurious
    /// chain of `n` steps: at each cut between step `i` and what follows,
    /// the conflict's constraints on the prefix side, summed with their
    /// multipliers, make the partial interpolant of that theory lemma (as
    /// in McMillan's interpolating proofs, where the atoms of the
    /// interpolant are the shared atoms and these sums); every variable
    /// not of step `i` cancels in it. Constraints over step `i` alone may
    /// go to either side, so both sums are kept.
    pub(super) fn interpolant_predicates(
        &mut self,
        conflicts: &[smt::FarkasConflict],
        n: usize,
    ) -> Vec<Term> {
        // Position of each variable of the path: state of step k at 2k,
        // input of step k at 2k + 1.
        let mut position: HashMap<Term, usize> = HashMap::new();
        let mut current: Vec<HashMap<Term, Term>> = vec![HashMap::new(); n];
        let states: Vec<Term> = self.u.ts().states.iter().map(|s| s.var).collect();
        let inputs = self.u.ts().inputs.len();
        for (k, back) in current.iter_mut().enumerate() {
            for (i, &var) in states.iter().enumerate() {
                let at = self.u.state(i, k);
                position.insert(at, 2 * k);
                back.insert(at, var);
            }
            for j in 0..inputs {
                position.insert(self.u.input(j, k), 2 * k + 1);
            }
        }
        let mut found = Vec::new();
        let mut seen = HashSet::new();
        for conflict in conflicts {
            // The span of positions of each constraint.
            let spans: Option<Vec<(usize, usize)>> = (conflict.parts.iter())
                .map(|(bound, _)| {
                    let leaves: Vec<Term> = bound.sum.iter().map(|(t, _)| *t).collect();
                    let mut span: Option<(usize, usize)> = None;
                    for v in self.u.terms().topological(&leaves) {
                        if let Op::Var(..) = self.u.terms().op(v) {
                            let p = *position.get(&v)?;
                            span = Some(span.map_or((p, p), |(a, b)| (a.min(p), b.max(p))));
                        }
                    }
                    span
                })
                .collect();
            let Some(spans) = spans else {
                continue;
            };
            for (cut, back) in current.iter().enumerate() {
                let p = 2 * cut;
                let mut prefix = Vec::new();
                let mut shared = Vec::new();
                let mut straddles = false;
                for (k, &(lo, hi)) in spans.iter().enumerate() {
                    if lo < p && hi > p {
                        straddles = true;
                    } else if hi < p || (lo < p && hi == p) {
                        prefix.push(k);
                    } else if lo == p && hi == p {
                        shared.push(k);
                    }
                }
                if straddles {
                    continue;
                }
                let with_shared: Vec<usize> = prefix.iter().chain(&shared).copied().collect();
                for side in [prefix, with_shared] {
                    if side.is_empty() {
                        continue;
                    }
                    let Some(sum) = farkas_sum(conflict, &side) else {
                        continue;
                    };
                    if sum.sum.iter().any(|(t, _)| !self.at_step(*t, &position, p)) {
                        continue;
                    }
                    let Some(pred) = linear_predicate(self.u.terms_mut(), &sum) else {
                        continue;
                    };
                    let pred = self.u.terms_mut().substitute(&[pred], back)[0];
                    if seen.insert(pred) {
                        found.push(pred);
                    }
                }
            }
        }
        found
    }

    /// Whether every variable of `t` sits at position `p`.
    pub(super) fn at_step(&self, t: Term, position: &HashMap<Term, usize>, p: usize) -> bool {
        let terms = self.u.terms();
        terms
            .topological(&[t])
            .into_iter()
            .all(|v| !matches!(terms.op(v), Op::Var(..)) || position.get(&v) == Some(&p))
    }
}

/// The sum of the constraints `parts` of `conflict`, weighted by their
/// multipliers: `Σ c·t ≤ bound` (`<` if strict), zero terms dropped.
fn farkas_sum(conflict: &smt::FarkasConflict, parts: &[usize]) -> Option<smt::LinearBound> {
    let mut sum: HashMap<Term, Num> = HashMap::new();
    let mut bound = Num::ZERO;
    let mut strict = false;
    for &k in parts {
        let (c, lambda) = &conflict.parts[k];
        if lambda.signum() < 0 {
            return None;
        }
        for (t, a) in &c.sum {
            let e = sum.entry(*t).or_insert(Num::ZERO);
            *e = &*e + &(a * lambda);
        }
        bound = &bound + &(&c.bound * lambda);
        strict |= c.strict;
    }
    let mut sum: Vec<(Term, Num)> = sum.into_iter().filter(|(_, c)| !c.is_zero()).collect();
    sum.sort_by_key(|(t, _)| *t);
    Some(smt::LinearBound { sum, bound, strict })
}

/// The predicate `Σ c·t ≤ bound` (`<` if strict) as a term, in a canonical
/// form so that the same half-space found twice is one predicate: the
/// first coefficient positive (a negated sum gives the complement's
/// predicate, `Σ ≥ b` being `¬(Σ < b)`), integral and coprime over the
/// integers, where `<` becomes `≤`. `None` for a constant comparison or
/// numbers too large for a term.
fn linear_predicate(terms: &mut Terms, c: &smt::LinearBound) -> Option<Term> {
    use crate::ir::term::Rational;
    let (sum, bound, strict) = (&c.sum, &c.bound, c.strict);
    let first = sum.first()?;
    let flip = first.1.signum() < 0;
    let sign = if flip { -&Num::ONE } else { Num::ONE };
    let mut coeffs: Vec<Num> = sum.iter().map(|(_, c)| c * &sign).collect();
    let mut b = bound * &sign;
    // Flipped: Σ' ≥ b' (or >), whose complement is Σ' < b' (or ≤).
    let mut strict = if flip { !strict } else { strict };
    let int = sum.iter().all(|(t, _)| *terms.sort(*t) == Sort::Int);
    if int {
        use num_integer::Integer;
        let lcm = (coeffs.iter()).fold(num_bigint::BigInt::from(1), |m, c| m.lcm(&c.denominator()));
        coeffs = coeffs.iter().map(|c| c.scale(&lcm)).collect();
        b = b.scale(&lcm);
        let gcd = (coeffs.iter()).fold(num_bigint::BigInt::from(0), |g, c| {
            g.gcd(&c.to_bigint().unwrap_or_default())
        });
        if gcd > num_bigint::BigInt::from(1) {
            let inv = &Num::ONE / &Num::from_bigint(gcd);
            coeffs = coeffs.iter().map(|c| c * &inv).collect();
            b = &b * &inv;
        }
        // Σ < b ⇔ Σ ≤ ⌈b⌉ − 1; Σ ≤ b ⇔ Σ ≤ ⌊b⌋.
        b = if strict {
            &b.ceil() - &Num::ONE
        } else {
            b.floor()
        };
        strict = false;
    }
    let sort = if int { Sort::Int } else { Sort::Real };
    let number = |terms: &mut Terms, n: &Num| -> Option<Term> {
        let r: Rational = n.to_rational()?;
        Some(terms.mk(Op::Num(r, sort.clone()), &[]))
    };
    let mut summands = Vec::new();
    for ((t, _), c) in sum.iter().zip(&coeffs) {
        let t = if !int && *terms.sort(*t) == Sort::Int {
            terms.mk(Op::ToReal, &[*t])
        } else {
            *t
        };
        summands.push(if *c == Num::ONE {
            t
        } else {
            let k = number(terms, c)?;
            terms.mk(Op::Mul, &[k, t])
        });
    }
    let lhs = if summands.len() == 1 {
        summands[0]
    } else {
        terms.mk(Op::Add, &summands)
    };
    let rhs = number(terms, &b)?;
    Some(terms.mk(if strict { Op::Lt } else { Op::Le }, &[lhs, rhs]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::term::print::Printer;

    fn bound(sum: Vec<(Term, Num)>, bound: i64, strict: bool) -> smt::LinearBound {
        smt::LinearBound {
            sum,
            bound: Num::int(bound),
            strict,
        }
    }

    /// Worked by hand: the conflict x − y ≤ 0, y − z < 0, z − x ≤ 0 (each
    /// multiplier 1) sums to 0 < 0. The prefix {first} is x − y ≤ 0; the
    /// prefix {first, second} is x − z < 0, over the integers x − z ≤ −1.
    /// Doubled coefficients are divided out, a negative leading coefficient
    /// gives the complement's predicate (−2x ≤ 3 is ¬(x ≤ −2)).
    #[test]
    fn farkas_sums_become_canonical_linear_predicates() {
        let mut terms = Terms::new();
        let x = terms.var("x", Sort::Int);
        let y = terms.var("y", Sort::Int);
        let z = terms.var("z", Sort::Int);
        let one = Num::ONE;
        let minus = -&Num::ONE;
        let conflict = smt::FarkasConflict {
            parts: vec![
                (
                    bound(vec![(x, one.clone()), (y, minus.clone())], 0, false),
                    one.clone(),
                ),
                (
                    bound(vec![(y, one.clone()), (z, minus.clone())], 0, true),
                    one.clone(),
                ),
                (
                    bound(vec![(x, minus.clone()), (z, one.clone())], 0, false),
                    one.clone(),
                ),
            ],
        };
        let show = |terms: &mut Terms, parts: &[usize]| -> Option<String> {
            let sum = farkas_sum(&conflict, parts)?;
            let p = linear_predicate(terms, &sum)?;
            Some(Printer::new(terms).term(p))
        };
        assert_eq!(show(&mut terms, &[0]).unwrap(), "(<= (+ x (* (- 1) y)) 0)");
        assert_eq!(
            show(&mut terms, &[0, 1]).unwrap(),
            "(<= (+ x (* (- 1) z)) (- 1))"
        );
        // The whole conflict is the constant 0 < 0: no predicate.
        assert_eq!(show(&mut terms, &[0, 1, 2]), None);
        let doubled = bound(vec![(x, Num::int(2)), (y, Num::int(4))], 3, true);
        let p = linear_predicate(&mut terms, &doubled).unwrap();
        assert_eq!(Printer::new(&terms).term(p), "(<= (+ x (* 2 y)) 1)");
        let negative = bound(vec![(x, Num::int(-2))], 3, false);
        let p = linear_predicate(&mut terms, &negative).unwrap();
        assert_eq!(Printer::new(&terms).term(p), "(<= x (- 2))");
    }
}
