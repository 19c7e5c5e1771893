//! Equalities of nonlinear bit-vector polynomials, blasted in a normal form.
//!
//! `a = b` over `bvadd`, `bvsub`, `bvneg` and `bvmul` is `p = 0` for the
//! polynomial `p = a − b` over the ring of integers modulo 2^w, whose
//! monomials are products of the other terms (atoms). Written as a sum of
//! monomials in one order (atoms by their index in the store, monomials
//! in the order of their atoms, the sign fixed by the first coefficient),
//! two equalities that are the same polynomial become one circuit, and
//! structural hashing makes them one literal. This is what proves the
//! polynomial invariants of programs (`y*y - 2*x + y == 0` kept by
//! `y = y + 1; x = x + y`, the form of SV-COMP's nla-digbench tasks): the
//! step's equality, once the updates are put in, is the polynomial of the
//! invariant itself, which a SAT solver on two different multiplier
//! circuits cannot see (the equivalence of multipliers is hard for it;
//! commercial and academic equivalence checkers normalise the same way,
//! e.g. Kaufmann, Biere, Kauers, "Verifying Large Multipliers by
//! Combining SAT and Computer Algebra", FMCAD 2019).
//!
//! Only equalities with a product of two non-constant factors are taken
//! (linear ones blast as before), and only polynomials of a few monomials
//! of low degree: expanding products of sums multiplies the multipliers.

use crate::ir::term::{Op, Sort, Term, Terms};
use std::collections::BTreeMap;

/// At most this many monomials in a normal form.
const MAX_MONOMIALS: usize = 16;

/// At most this many atoms in a monomial.
const MAX_DEGREE: usize = 4;

/// A polynomial modulo 2^width: monomials (sorted atoms) to coefficients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poly {
    pub width: u32,
    pub monomials: BTreeMap<Vec<Term>, u64>,
}

/// 2^width − 1.
fn mask(width: u32) -> u64 {
    match width {
        64 => u64::MAX,
        w => (1u64 << w) - 1,
    }
}

impl Poly {
    fn mask(&self) -> u64 {
        mask(self.width)
    }

    fn constant(width: u32, c: u64) -> Poly {
        let mut p = Poly {
            width,
            monomials: BTreeMap::new(),
        };
        p.add_monomial(Vec::new(), c);
        p
    }

    fn atom(width: u32, t: Term) -> Poly {
        let mut p = Poly {
            width,
            monomials: BTreeMap::new(),
        };
        p.add_monomial(vec![t], 1);
        p
    }

    fn add_monomial(&mut self, monomial: Vec<Term>, c: u64) {
        let mask = self.mask();
        let entry = self.monomials.entry(monomial).or_insert(0);
        *entry = entry.wrapping_add(c) & mask;
        if *entry == 0 {
            self.monomials.retain(|_, c| *c != 0);
        }
    }

    fn add(&self, other: &Poly, scale: u64) -> Poly {
        let mut p = self.clone();
        for (m, &c) in &other.monomials {
            p.add_monomial(m.clone(), c.wrapping_mul(scale));
        }
        p
    }

    fn mul(&self, other: &Poly) -> Option<Poly> {
        let mut p = Poly::constant(self.width, 0);
        for (m1, &c1) in &self.monomials {
            for (m2, &c2) in &other.monomials {
                let mut m: Vec<Term> = m1.iter().chain(m2).copied().collect();
                if m.len() > MAX_DEGREE {
                    return None;
                }
                m.sort();
                p.add_monomial(m, c1.wrapping_mul(c2));
            }
            if p.monomials.len() > MAX_MONOMIALS {
                return None;
            }
        }
        Some(p)
    }

    /// Whether some monomial multiplies two atoms.
    fn is_nonlinear(&self) -> bool {
        self.monomials.keys().any(|m| m.len() >= 2)
    }

    /// The atoms, each once.
    pub fn atoms(&self) -> Vec<Term> {
        let mut atoms: Vec<Term> = self.monomials.keys().flatten().copied().collect();
        atoms.sort();
        atoms.dedup();
        atoms
    }
}

/// The normal form of `a − b` when `(= a b)` is a nonlinear equality of
/// bit-vectors of at most 64 bits the normal form can hold, else `None`.
/// Its sign is fixed: the first monomial's coefficient is below 2^(w−1)
/// (`p = 0` and `−p = 0` are one equality).
pub fn of_equality(terms: &Terms, a: Term, b: Term) -> Option<Poly> {
    let width = match terms.sort(a) {
        Sort::BitVec(w) if *w <= 64 => *w,
        _ => return None,
    };
    if !has_product(terms, a) && !has_product(terms, b) {
        return None;
    }
    let mut memo = BTreeMap::new();
    let pa = polynomial(terms, a, width, &mut memo)?;
    let pb = polynomial(terms, b, width, &mut memo)?;
    let mask = pa.mask();
    let mut p = pa.add(&pb, mask); // a + (2^w − 1)·b = a − b
    if !p.is_nonlinear() || p.monomials.len() > MAX_MONOMIALS {
        return None;
    }
    if let Some((_, &c)) = p.monomials.iter().next() {
        if c > mask >> 1 {
            p = Poly::constant(width, 0).add(&p, mask);
        }
    }
    Some(p)
}

/// Whether `t`'s arithmetic (through `bvadd`, `bvsub`, `bvneg`, `bvmul`)
/// multiplies two non-constant terms. Each term is visited once: a
/// program's terms share subterms, and a walk of every path through a
/// chain of sums is exponential.
fn has_product(terms: &Terms, t: Term) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        let args = terms.args(u);
        match terms.op(u) {
            Op::BvMul => {
                let variable = args
                    .iter()
                    .filter(|&&x| !matches!(terms.op(x), Op::Bv(_)))
                    .count();
                if variable >= 2 {
                    return true;
                }
                stack.extend_from_slice(args);
            }
            Op::BvAdd | Op::BvSub | Op::BvNeg => stack.extend_from_slice(args),
            _ => {}
        }
    }
    false
}

fn polynomial(terms: &Terms, t: Term, width: u32, memo: &mut BTreeMap<Term, Poly>) -> Option<Poly> {
    if let Some(p) = memo.get(&t) {
        return Some(p.clone());
    }
    let args = terms.args(t);
    let mask = mask(width);
    let p = match terms.op(t) {
        Op::Bv(v) => Poly::constant(width, v.to_u64()?),
        Op::BvAdd => {
            let mut p = Poly::constant(width, 0);
            for &x in args {
                p = p.add(&polynomial(terms, x, width, memo)?, 1);
            }
            p
        }
        Op::BvSub => {
            let mut p = polynomial(terms, args[0], width, memo)?;
            for &x in &args[1..] {
                p = p.add(&polynomial(terms, x, width, memo)?, mask);
            }
            p
        }
        Op::BvNeg => Poly::constant(width, 0).add(&polynomial(terms, args[0], width, memo)?, mask),
        Op::BvMul => {
            let mut p = Poly::constant(width, 1);
            for &x in args {
                p = p.mul(&polynomial(terms, x, width, memo)?)?;
            }
            p
        }
        _ => Poly::atom(width, t),
    };
    if p.monomials.len() > MAX_MONOMIALS {
        return None;
    }
    memo.insert(t, p.clone());
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::bv::BvValue;

    #[test]
    fn a_step_of_an_invariant_is_the_invariant() {
        // y*y - 2*x + y = 0, and the same after y := y + 1; x := x + y.
        let mut t = Terms::new();
        let s = Sort::BitVec(32);
        let (x, y) = (t.var("x", s.clone()), t.var("y", s.clone()));
        let c = |t: &mut Terms, v: u64| t.bv(BvValue::from_u64(32, v));
        let zero = c(&mut t, 0);
        let two = c(&mut t, 2);
        let one = c(&mut t, 1);
        let invariant = |t: &mut Terms, x: Term, y: Term| {
            let yy = t.mk(Op::BvMul, &[y, y]);
            let x2 = t.mk(Op::BvMul, &[two, x]);
            let d = t.mk(Op::BvSub, &[yy, x2]);
            t.mk(Op::BvAdd, &[d, y])
        };
        let now = invariant(&mut t, x, y);
        let y1 = t.mk(Op::BvAdd, &[y, one]);
        let x1 = t.mk(Op::BvAdd, &[x, y1]);
        let next = invariant(&mut t, x1, y1);
        let p = of_equality(&t, now, zero).expect("nonlinear");
        assert_eq!(Some(p.clone()), of_equality(&t, next, zero));
        // Either side, either sign.
        assert_eq!(Some(p), of_equality(&t, zero, next));
        // A different polynomial differs.
        let other = invariant(&mut t, y, x);
        assert_ne!(of_equality(&t, other, zero), of_equality(&t, now, zero));
        // Linear equalities are left alone.
        assert_eq!(of_equality(&t, x1, zero), None);
    }
}
