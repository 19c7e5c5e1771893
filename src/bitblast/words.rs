//! Word-level circuits over AIG literals. A word is its bits, least significant first.

use crate::ir::aig::{Aig, Lit};

/// A bit-vector as literals, LSB first.
pub type Word = Vec<Lit>;

/// The constant word of `value`'s bits.
pub fn constant(bits: impl Iterator<Item = bool>) -> Word {
    bits.map(|b| if b { Lit::TRUE } else { Lit::FALSE })
        .collect()
}

/// Bitwise map of two words.
pub fn zip(aig: &mut Aig, a: &[Lit], b: &[Lit], f: fn(&mut Aig, Lit, Lit) -> Lit) -> Word {
    a.iter().zip(b).map(|(&x, &y)| f(aig, x, y)).collect()
}

/// Bitwise complement.
pub fn not(a: &[Lit]) -> Word {
    a.iter().map(|&l| !l).collect()
}

/// Sum with carry in; returns the sum and the carry out.
pub fn add(aig: &mut Aig, a: &[Lit], b: &[Lit], carry_in: Lit) -> (Word, Lit) {
    let mut carry = carry_in;
    let mut sum = Vec::with_capacity(a.len());
    for (&x, &y) in a.iter().zip(b) {
        let t = aig.xor(x, y);
        sum.push(aig.xor(t, carry));
        // carry' = x·y + carry·(x ⊕ y)
        let xy = aig.and(x, y);
        let ct = aig.and(carry, t);
        carry = aig.or(xy, ct);
    }
    (sum, carry)
}

/// Difference a − b and whether it borrows (a <u b).
pub fn sub(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> (Word, Lit) {
    let (d, carry) = add(aig, a, &not(b), Lit::TRUE);
    (d, !carry)
}

/// Two's complement negation.
pub fn neg(aig: &mut Aig, a: &[Lit]) -> Word {
    let zero = vec![Lit::FALSE; a.len()];
    sub(aig, &zero, a).0
}

/// Product modulo 2^w (shift and add over the partial products).
pub fn mul(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Word {
    let w = a.len();
    let mut acc = vec![Lit::FALSE; w];
    for (i, &bi) in b.iter().enumerate() {
        if bi == Lit::FALSE {
            continue;
        }
        let partial: Word = (0..w - i).map(|j| aig.and(a[j], bi)).collect();
        let (s, _) = add(aig, &acc[i..], &partial, Lit::FALSE);
        acc[i..].copy_from_slice(&s);
    }
    acc
}

/// Bitwise if-then-else.
pub fn ite(aig: &mut Aig, c: Lit, t: &[Lit], e: &[Lit]) -> Word {
    t.iter().zip(e).map(|(&x, &y)| aig.ite(c, x, y)).collect()
}

/// Equality of two words.
pub fn eq(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let mut all = Lit::TRUE;
    for (&x, &y) in a.iter().zip(b) {
        let d = aig.xor(x, y);
        all = aig.and(all, !d);
    }
    all
}

/// Unsigned a < b.
pub fn ult(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    sub(aig, a, b).1
}

/// Signed a < b: flip the sign bits and compare unsigned.
pub fn slt(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> Lit {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    let top = a.len() - 1;
    a[top] = !a[top];
    b[top] = !b[top];
    ult(aig, &a, &b)
}

/// Unsigned quotient and remainder by restoring division; b = 0 gives
/// all ones and a, as SMT-LIB defines.
pub fn udivrem(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> (Word, Word) {
    let w = a.len();
    let mut quotient = vec![Lit::FALSE; w];
    let mut rem = vec![Lit::FALSE; w];
    let mut divisor = b.to_vec();
    divisor.push(Lit::FALSE);
    for i in (0..w).rev() {
        // rem·2 + a[i] needs w+1 bits.
        let mut shifted = vec![a[i]];
        shifted.extend_from_slice(&rem);
        let (diff, borrow) = sub(aig, &shifted, &divisor);
        quotient[i] = !borrow;
        rem = ite(aig, borrow, &shifted[..w], &diff[..w]);
    }
    (quotient, rem)
}

/// Absolute value of a two's complement word.
pub fn abs(aig: &mut Aig, a: &[Lit]) -> Word {
    let n = neg(aig, a);
    ite(aig, a[a.len() - 1], &n, a)
}

/// `bvsdiv`, `bvsrem` and `bvsmod` from unsigned division of magnitudes.
pub fn signed_div(aig: &mut Aig, a: &[Lit], b: &[Lit]) -> (Word, Word, Word) {
    let (sa, sb) = (a[a.len() - 1], b[b.len() - 1]);
    let (ua, ub) = (abs(aig, a), abs(aig, b));
    let (q, r) = udivrem(aig, &ua, &ub);
    let nq = neg(aig, &q);
    let signs_differ = aig.xor(sa, sb);
    let sdiv = ite(aig, signs_differ, &nq, &q);
    let nr = neg(aig, &r);
    let srem = ite(aig, sa, &nr, &r);
    // smod: r = 0 → 0; same signs → ±r by the dividend; else r' + b with r' = ±r.
    let (r_plus_b, _) = add(aig, &srem, b, Lit::FALSE);
    let zero = r.iter().fold(Lit::TRUE, |acc, &l| aig.and(acc, !l));
    let adjusted = ite(aig, signs_differ, &r_plus_b, &srem);
    let zero_word = vec![Lit::FALSE; a.len()];
    let smod = ite(aig, zero, &zero_word, &adjusted);
    (sdiv, srem, smod)
}

/// Which shift a barrel shifter performs.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Shift {
    Left,
    LogicalRight,
    ArithmeticRight,
}

/// Shift by the unsigned value of `amount` (same width); ≥ width shifts all bits out.
pub fn shift(aig: &mut Aig, a: &[Lit], amount: &[Lit], kind: Shift) -> Word {
    let w = a.len();
    let fill = if kind == Shift::ArithmeticRight {
        a[w - 1]
    } else {
        Lit::FALSE
    };
    let mut cur = a.to_vec();
    let mut too_far = Lit::FALSE;
    for (k, &bit) in amount.iter().enumerate() {
        let step = 1usize.checked_shl(k as u32).filter(|&s| s < w);
        let Some(step) = step else {
            too_far = aig.or(too_far, bit);
            continue;
        };
        let shifted: Word = (0..w)
            .map(|i| match kind {
                Shift::Left => {
                    if i >= step {
                        cur[i - step]
                    } else {
                        Lit::FALSE
                    }
                }
                _ => {
                    if i + step < w {
                        cur[i + step]
                    } else {
                        fill
                    }
                }
            })
            .collect();
        cur = ite(aig, bit, &shifted, &cur);
    }
    let out = vec![fill; w];
    ite(aig, too_far, &out, &cur)
}

/// Rotation left by a constant.
pub fn rotate_left(a: &[Lit], by: usize) -> Word {
    let w = a.len();
    (0..w).map(|i| a[(i + w - by % w) % w]).collect()
}

/// Rotation left by the unsigned value of `amount` modulo the width.
pub fn rotate_left_by(aig: &mut Aig, a: &[Lit], amount: &[Lit]) -> Word {
    let w = a.len();
    let amount = if w.is_power_of_two() {
        amount.to_vec()
    } else {
        let wide = amount.len().max(64);
        let mut x = amount.to_vec();
        x.resize(wide, Lit::FALSE);
        let modulus = constant((0..wide).map(|i| i < 64 && (w as u64) >> i & 1 == 1));
        udivrem(aig, &x, &modulus).1
    };
    let mut cur = a.to_vec();
    for (k, &bit) in amount.iter().enumerate() {
        let step = 1u128
            .checked_shl(k as u32)
            .map(|s| (s % w as u128) as usize);
        match step {
            Some(0) | None => {} // a multiple of the width: identity
            Some(s) => {
                let r = rotate_left(&cur, s);
                cur = ite(aig, bit, &r, &cur);
            }
        }
    }
    cur
}

/// AND of all bits.
pub fn and_all(aig: &mut Aig, a: &[Lit]) -> Lit {
    a.iter().fold(Lit::TRUE, |acc, &l| aig.and(acc, l))
}

/// XOR of all bits.
pub fn xor_all(aig: &mut Aig, a: &[Lit]) -> Lit {
    a.iter().fold(Lit::FALSE, |acc, &l| aig.xor(acc, l))
}
