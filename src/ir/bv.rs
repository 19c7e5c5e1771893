//! Arbitrary-width bit-vector values with SMT-LIB semantics.
//!
//! A value is a width and little-endian 64-bit words whose bits above the
//! width are always zero. Every operation follows SMT-LIB's
//! FixedSizeBitVectors theory (division by zero included), so the evaluator,
//! the bit-blaster's tests and witness replay share one reference.

use std::cmp::Ordering;
use std::fmt;

/// A bit-vector of `width` bits (1 or more).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BvValue {
    width: u32,
    words: Vec<u64>,
}

/// A natural number read digit by digit (hex and decimal constants): the
/// words in use grow with the digits, so reading costs digits × words in
/// use, not the declared width (a 999,831-bit `(_ bv379 999831)` multiplied
/// full-width vectors per digit and took 14 s to read; found by fuzzing).
struct Magnitude {
    words: Vec<u64>,
}

impl Magnitude {
    /// The value of `digits` (most significant first) in `base`; `None` once
    /// it needs more than `max_bits` bits.
    fn parse(base: u64, digits: &[u64], max_bits: u32) -> Option<Magnitude> {
        let mut m = Magnitude { words: Vec::new() };
        for &d in digits {
            let mut carry = d as u128;
            for w in m.words.iter_mut() {
                let p = (*w as u128) * (base as u128) + carry;
                *w = p as u64;
                carry = p >> 64;
            }
            if carry > 0 {
                m.words.push(carry as u64);
            }
            if m.significant_bits() > max_bits {
                return None;
            }
        }
        Some(m)
    }

    fn significant_bits(&self) -> u32 {
        for (i, &w) in self.words.iter().enumerate().rev() {
            if w != 0 {
                return i as u32 * 64 + 64 - w.leading_zeros();
            }
        }
        0
    }

    fn is_power_of_two(&self) -> bool {
        self.words.iter().map(|w| w.count_ones()).sum::<u32>() == 1
    }

    /// The low `width` bits as a bit-vector.
    fn into_bv(self, width: u32) -> BvValue {
        let mut v = BvValue::zero(width);
        let n = v.words.len().min(self.words.len());
        v.words[..n].copy_from_slice(&self.words[..n]);
        v.mask();
        v
    }
}

fn words_for(width: u32) -> usize {
    (width as usize).div_ceil(64)
}

impl BvValue {
    /// The all-zero vector of `width` bits.
    pub fn zero(width: u32) -> BvValue {
        assert!(width > 0, "bit-vectors have at least one bit");
        BvValue {
            width,
            words: vec![0; words_for(width)],
        }
    }

    /// The vector holding `value` truncated to `width` bits.
    pub fn from_u64(width: u32, value: u64) -> BvValue {
        let mut v = BvValue::zero(width);
        v.words[0] = value;
        v.mask();
        v
    }

    /// The vector of `width` bits whose bit i is `bits[i]` (LSB first).
    pub fn from_bits(bits: &[bool]) -> BvValue {
        let mut v = BvValue::zero(bits.len() as u32);
        for (i, &b) in bits.iter().enumerate() {
            v.set_bit(i as u32, b);
        }
        v
    }

    /// The all-ones vector.
    pub fn ones(width: u32) -> BvValue {
        BvValue::zero(width).not()
    }

    /// Parses a string of `0`/`1` digits, most significant first; its length is the width.
    pub fn from_binary(text: &str) -> Option<BvValue> {
        if text.is_empty() || !text.bytes().all(|c| c == b'0' || c == b'1') {
            return None;
        }
        let n = text.len() as u32;
        let mut v = BvValue::zero(n);
        for (i, c) in text.bytes().rev().enumerate() {
            v.set_bit(i as u32, c == b'1');
        }
        Some(v)
    }

    /// Parses hexadecimal digits into a vector of `width` bits; `None` if it does not fit.
    pub fn from_hex(width: u32, text: &str) -> Option<BvValue> {
        if text.is_empty() {
            return None;
        }
        let mut digits = Vec::with_capacity(text.len());
        for c in text.chars() {
            digits.push(c.to_digit(16)? as u64);
        }
        let magnitude = Magnitude::parse(16, &digits, width)?;
        Some(magnitude.into_bv(width))
    }

    /// Parses a decimal, possibly with a leading `-` (two's complement), into `width` bits.
    /// `None` if the magnitude needs more than `width` bits (signed range for negatives,
    /// unsigned range otherwise), as btor2parser's `constd` check.
    pub fn from_decimal(width: u32, text: &str) -> Option<BvValue> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, text),
        };
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let digits: Vec<u64> = digits.bytes().map(|c| (c - b'0') as u64).collect();
        let magnitude = Magnitude::parse(10, &digits, width)?;
        let bits = magnitude.significant_bits();
        // -2^(w-1) is the smallest: a magnitude of at most 2^(w-1), which
        // has w bits only as that power of two.
        if negative && bits == width && !magnitude.is_power_of_two() {
            return None;
        }
        let v = magnitude.into_bv(width);
        Some(if negative { v.neg() } else { v })
    }

    /// The width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Bit `i` (0 = least significant).
    pub fn bit(&self, i: u32) -> bool {
        self.words[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    /// Sets bit `i`.
    pub fn set_bit(&mut self, i: u32, value: bool) {
        let w = &mut self.words[(i / 64) as usize];
        if value {
            *w |= 1 << (i % 64);
        } else {
            *w &= !(1 << (i % 64));
        }
    }

    /// The low 64 bits.
    pub fn low_u64(&self) -> u64 {
        self.words[0]
    }

    /// The value as a `u64` if it fits.
    pub fn to_u64(&self) -> Option<u64> {
        self.words[1..]
            .iter()
            .all(|&w| w == 0)
            .then_some(self.words[0])
    }

    /// Whether every bit is zero.
    pub fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The most significant bit (the sign in two's complement).
    pub fn msb(&self) -> bool {
        self.bit(self.width - 1)
    }

    /// The digits `0`/`1`, most significant first.
    pub fn to_binary(&self) -> String {
        (0..self.width)
            .rev()
            .map(|i| if self.bit(i) { '1' } else { '0' })
            .collect()
    }

    fn mask(&mut self) {
        let extra = self.words.len() as u32 * 64 - self.width;
        if extra > 0 {
            let last = self.words.len() - 1;
            self.words[last] &= u64::MAX >> extra;
        }
    }

    fn map2(&self, other: &BvValue, f: impl Fn(u64, u64) -> u64) -> BvValue {
        debug_assert_eq!(self.width, other.width);
        let mut v = BvValue {
            width: self.width,
            words: (self.words.iter().zip(&other.words))
                .map(|(&a, &b)| f(a, b))
                .collect(),
        };
        v.mask();
        v
    }

    /// Bitwise complement.
    pub fn not(&self) -> BvValue {
        let mut v = BvValue {
            width: self.width,
            words: self.words.iter().map(|w| !w).collect(),
        };
        v.mask();
        v
    }

    /// Bitwise and.
    pub fn and(&self, other: &BvValue) -> BvValue {
        self.map2(other, |a, b| a & b)
    }

    /// Bitwise or.
    pub fn or(&self, other: &BvValue) -> BvValue {
        self.map2(other, |a, b| a | b)
    }

    /// Bitwise exclusive or.
    pub fn xor(&self, other: &BvValue) -> BvValue {
        self.map2(other, |a, b| a ^ b)
    }

    /// Sum modulo 2^width.
    pub fn add(&self, other: &BvValue) -> BvValue {
        let mut carry = 0u64;
        let words = (self.words.iter().zip(&other.words))
            .map(|(&a, &b)| {
                let (s1, c1) = a.overflowing_add(b);
                let (s2, c2) = s1.overflowing_add(carry);
                carry = (c1 | c2) as u64;
                s2
            })
            .collect();
        let mut v = BvValue {
            width: self.width,
            words,
        };
        v.mask();
        v
    }

    /// Two's complement negation.
    pub fn neg(&self) -> BvValue {
        self.not().add(&BvValue::from_u64(self.width, 1))
    }

    /// Difference modulo 2^width.
    pub fn sub(&self, other: &BvValue) -> BvValue {
        self.add(&other.neg())
    }

    /// Product modulo 2^width.
    pub fn mul(&self, other: &BvValue) -> BvValue {
        let n = self.words.len();
        let mut out = vec![0u64; n];
        for i in 0..n {
            let mut carry = 0u128;
            for j in 0..n - i {
                let cur =
                    out[i + j] as u128 + self.words[i] as u128 * other.words[j] as u128 + carry;
                out[i + j] = cur as u64;
                carry = cur >> 64;
            }
        }
        let mut v = BvValue {
            width: self.width,
            words: out,
        };
        v.mask();
        v
    }

    /// Unsigned comparison.
    pub fn ucmp(&self, other: &BvValue) -> Ordering {
        for (a, b) in self.words.iter().rev().zip(other.words.iter().rev()) {
            match a.cmp(b) {
                Ordering::Equal => continue,
                o => return o,
            }
        }
        Ordering::Equal
    }

    /// Signed (two's complement) comparison.
    pub fn scmp(&self, other: &BvValue) -> Ordering {
        match (self.msb(), other.msb()) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => self.ucmp(other),
        }
    }

    /// Unsigned quotient and remainder; x / 0 = all ones, x % 0 = x (SMT-LIB).
    pub fn udivrem(&self, other: &BvValue) -> (BvValue, BvValue) {
        if other.is_zero() {
            return (BvValue::ones(self.width), self.clone());
        }
        let mut quotient = BvValue::zero(self.width);
        let mut rem = BvValue::zero(self.width);
        for i in (0..self.width).rev() {
            // rem < other ≤ 2^w - 1, so 2·rem + 1 may need one bit more.
            let top = rem.msb();
            rem = rem.shl_by(1);
            rem.set_bit(0, self.bit(i));
            if top || rem.ucmp(other) != Ordering::Less {
                rem = rem.sub(other);
                quotient.set_bit(i, true);
            }
        }
        (quotient, rem)
    }

    /// `bvudiv`.
    pub fn udiv(&self, other: &BvValue) -> BvValue {
        self.udivrem(other).0
    }

    /// `bvurem`.
    pub fn urem(&self, other: &BvValue) -> BvValue {
        self.udivrem(other).1
    }

    fn abs(&self) -> BvValue {
        if self.msb() {
            self.neg()
        } else {
            self.clone()
        }
    }

    /// `bvsdiv`: truncating signed division, defined through `bvudiv`.
    pub fn sdiv(&self, other: &BvValue) -> BvValue {
        let q = self.abs().udiv(&other.abs());
        if self.msb() != other.msb() {
            q.neg()
        } else {
            q
        }
    }

    /// `bvsrem`: the remainder takes the sign of the dividend.
    pub fn srem(&self, other: &BvValue) -> BvValue {
        let r = self.abs().urem(&other.abs());
        if self.msb() {
            r.neg()
        } else {
            r
        }
    }

    /// `bvsmod`: the remainder takes the sign of the divisor.
    pub fn smod(&self, other: &BvValue) -> BvValue {
        let u = self.abs().urem(&other.abs());
        if u.is_zero() {
            return u;
        }
        match (self.msb(), other.msb()) {
            (false, false) => u,
            (true, false) => u.neg().add(other),
            (false, true) => u.add(other),
            (true, true) => u.neg(),
        }
    }

    /// The shift amount as a number of bits, saturated at the width.
    fn amount(&self, width: u32) -> u32 {
        match self.to_u64() {
            Some(a) if a < width as u64 => a as u32,
            _ => width,
        }
    }

    /// Left shift by a constant number of bits (0 when ≥ width).
    pub fn shl_by(&self, amount: u32) -> BvValue {
        let mut v = BvValue::zero(self.width);
        for i in amount..self.width {
            v.set_bit(i, self.bit(i - amount));
        }
        v
    }

    /// Logical right shift by a constant number of bits.
    pub fn lshr_by(&self, amount: u32) -> BvValue {
        let mut v = BvValue::zero(self.width);
        for i in 0..self.width.saturating_sub(amount) {
            v.set_bit(i, self.bit(i + amount));
        }
        v
    }

    /// Arithmetic right shift by a constant number of bits.
    pub fn ashr_by(&self, amount: u32) -> BvValue {
        let mut v = self.lshr_by(amount);
        let sign = self.msb();
        for i in self.width.saturating_sub(amount)..self.width {
            v.set_bit(i, sign);
        }
        v
    }

    /// `bvshl`: shift amount is the unsigned value of `other`.
    pub fn shl(&self, other: &BvValue) -> BvValue {
        self.shl_by(other.amount(self.width))
    }

    /// `bvlshr`.
    pub fn lshr(&self, other: &BvValue) -> BvValue {
        self.lshr_by(other.amount(self.width))
    }

    /// `bvashr`.
    pub fn ashr(&self, other: &BvValue) -> BvValue {
        self.ashr_by(other.amount(self.width))
    }

    /// Rotation left by `amount` modulo the width.
    pub fn rotate_left(&self, amount: u32) -> BvValue {
        let a = amount % self.width;
        let mut v = BvValue::zero(self.width);
        for i in 0..self.width {
            v.set_bit((i + a) % self.width, self.bit(i));
        }
        v
    }

    /// The unsigned value modulo `width`, as a rotation amount.
    pub fn rotate_amount(&self, width: u32) -> u32 {
        let w = BvValue::from_u64(self.width.max(33), width as u64);
        let a = self.zext(w.width - self.width).urem(&w);
        a.low_u64() as u32
    }

    /// Rotation left by the unsigned value of `other` modulo the width.
    pub fn rotate_left_by(&self, other: &BvValue) -> BvValue {
        self.rotate_left(other.rotate_amount(self.width))
    }

    /// `concat`: `self` is the high part.
    pub fn concat(&self, low: &BvValue) -> BvValue {
        let mut v = BvValue::zero(self.width + low.width);
        for i in 0..low.width {
            v.set_bit(i, low.bit(i));
        }
        for i in 0..self.width {
            v.set_bit(low.width + i, self.bit(i));
        }
        v
    }

    /// Bits `hi` down to `lo`.
    pub fn extract(&self, hi: u32, lo: u32) -> BvValue {
        let mut v = BvValue::zero(hi - lo + 1);
        for i in lo..=hi {
            v.set_bit(i - lo, self.bit(i));
        }
        v
    }

    /// Zero extension by `by` bits.
    pub fn zext(&self, by: u32) -> BvValue {
        let mut v = BvValue::zero(self.width + by);
        v.words[..self.words.len()].copy_from_slice(&self.words);
        v
    }

    /// Sign extension by `by` bits.
    pub fn sext(&self, by: u32) -> BvValue {
        let mut v = self.zext(by);
        if self.msb() {
            for i in self.width..self.width + by {
                v.set_bit(i, true);
            }
        }
        v
    }

    /// Number of set bits.
    pub fn count_ones(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }
}

impl fmt::Debug for BvValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#b{}", self.to_binary())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bv(w: u32, v: u64) -> BvValue {
        BvValue::from_u64(w, v)
    }

    #[test]
    fn division_by_zero_follows_smtlib() {
        assert_eq!(bv(8, 7).udiv(&bv(8, 0)), bv(8, 255));
        assert_eq!(bv(8, 7).urem(&bv(8, 0)), bv(8, 7));
        // bvsdiv of a negative by 0 is 1 (the negated all-ones of the magnitude).
        assert_eq!(bv(8, 0xf9).sdiv(&bv(8, 0)), bv(8, 1));
        assert_eq!(bv(8, 7).sdiv(&bv(8, 0)), bv(8, 255));
        assert_eq!(bv(8, 0xf9).srem(&bv(8, 0)), bv(8, 0xf9));
        assert_eq!(bv(8, 0xf9).smod(&bv(8, 0)), bv(8, 0xf9));
    }

    #[test]
    fn signed_remainders_take_the_documented_signs() {
        // -7 srem 2 = -1, -7 smod 2 = 1, 7 smod -2 = -1.
        assert_eq!(bv(8, 0xf9).srem(&bv(8, 2)), bv(8, 0xff));
        assert_eq!(bv(8, 0xf9).smod(&bv(8, 2)), bv(8, 1));
        assert_eq!(bv(8, 7).smod(&bv(8, 0xfe)), bv(8, 0xff));
        assert_eq!(bv(8, 0xf9).sdiv(&bv(8, 2)), bv(8, 0xfd));
    }

    #[test]
    fn wide_arithmetic_carries_across_words() {
        let a = BvValue::ones(128);
        assert!(a.add(&bv(128, 1)).is_zero());
        let big = bv(65, 1).shl_by(64);
        assert_eq!(big.mul(&bv(65, 2)), bv(65, 0));
        assert_eq!(
            bv(128, u64::MAX).mul(&bv(128, u64::MAX)).to_binary().len(),
            128
        );
        let (q, r) = big.udivrem(&bv(65, 3));
        assert_eq!(q.mul(&bv(65, 3)).add(&r), big);
    }

    #[test]
    fn constants_parse_with_range_checks() {
        assert_eq!(BvValue::from_decimal(8, "-128"), Some(bv(8, 0x80)));
        assert_eq!(BvValue::from_decimal(8, "-129"), None);
        assert_eq!(BvValue::from_decimal(8, "255"), Some(bv(8, 255)));
        assert_eq!(BvValue::from_decimal(8, "256"), None);
        assert_eq!(BvValue::from_hex(8, "ff"), Some(bv(8, 255)));
        assert_eq!(BvValue::from_hex(4, "1f"), None);
        assert_eq!(BvValue::from_binary("0101"), Some(bv(4, 5)));
        assert_eq!(BvValue::from_decimal(1, "1"), Some(bv(1, 1)));
        assert_eq!(BvValue::from_decimal(1, "-1"), Some(bv(1, 1)));
    }

    #[test]
    fn shifts_saturate_and_rotations_wrap() {
        assert_eq!(bv(8, 0x81).shl(&bv(8, 9)), bv(8, 0));
        assert_eq!(bv(8, 0x81).ashr(&bv(8, 200)), bv(8, 0xff));
        assert_eq!(bv(8, 0x81).rotate_left(1), bv(8, 0x03));
        assert_eq!(bv(8, 0x81).rotate_left_by(&bv(8, 9)), bv(8, 0x03));
    }
}
