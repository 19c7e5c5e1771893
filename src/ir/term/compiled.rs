//! Terms over Bools and bit-vectors of at most 64 bits, compiled to
//! straight-line code over `u64` slots: the evaluator of long concrete runs
//! (explicit execution's tests take millions of steps), where
//! [`super::eval::Evaluator`]'s arbitrary-width values cost an allocation
//! per operation. Every term has a slot (indexed by term); a Bool is 0 or 1,
//! a bit-vector is kept masked to its width. Semantics are SMT-LIB's,
//! division by zero included; the unit test compares with the evaluator.

use super::{Op, Sort, Term, Terms};
use crate::ir::bv::BvValue;
use crate::ir::term::eval::Value;

/// One operation: `slots[dst] = op(args)`, `width` the result's.
#[derive(Clone, Debug)]
struct Instr {
    op: Code,
    dst: u32,
    args: [u32; 3],
    width: u32,
}

#[derive(Clone, Copy, Debug)]
enum Code {
    Not,
    Implies,
    Eq,
    Ne,
    Ite,
    BvNot,
    BvNeg,
    BvAnd,
    BvOr,
    BvXor,
    BvAdd,
    BvSub,
    BvMul,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    Smod,
    Shl,
    Lshr,
    Ashr,
    Ult,
    Ule,
    Slt,
    Sle,
    Comp,
    /// Shift right by the immediate in `args[1]`, then mask.
    Extract,
    /// `args[0] << args[1]` (immediate) | `args[2]`.
    Concat,
    Sext,
    Copy,
}

/// A compiled cone: its code, and the variables it reads.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    code: Vec<Instr>,
    /// The variables of the cone.
    pub vars: Vec<Term>,
    root: u32,
}

fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

fn signed(v: u64, w: u32) -> i64 {
    ((v << (64 - w)) as i64) >> (64 - w)
}

/// The width of a Bool or bit-vector sort of at most 64 bits.
fn width_of(sort: &Sort) -> Option<u32> {
    match sort {
        Sort::Bool => Some(1),
        Sort::BitVec(w) if *w <= 64 => Some(*w),
        _ => None,
    }
}

/// The slots of a store's terms.
pub struct Slots {
    /// The value of every term, by term index.
    pub values: Vec<u64>,
}

impl Slots {
    /// Slots for `terms`, constants loaded.
    pub fn new(terms: &Terms) -> Slots {
        let mut values = vec![0; terms.len()];
        for (i, v) in values.iter_mut().enumerate() {
            if let Some(c) = constant(terms, Term(i as u32)) {
                *v = c;
            }
        }
        Slots { values }
    }

    /// Runs `c` and returns its root's value.
    pub fn run(&mut self, c: &Compiled) -> u64 {
        let s = &mut self.values;
        for i in &c.code {
            let [a, b, d] = i.args;
            let (a, b, d) = (a as usize, b as usize, d as usize);
            let w = i.width;
            let m = mask(w);
            let v = match i.op {
                Code::Not => s[a] ^ 1,
                Code::Implies => (s[a] == 0 || s[b] != 0) as u64,
                Code::Eq => (s[a] == s[b]) as u64,
                Code::Ne => (s[a] != s[b]) as u64,
                Code::Ite => {
                    if s[a] != 0 {
                        s[b]
                    } else {
                        s[d]
                    }
                }
                Code::BvNot => !s[a] & m,
                Code::BvNeg => s[a].wrapping_neg() & m,
                Code::BvAnd => s[a] & s[b],
                Code::BvOr => s[a] | s[b],
                Code::BvXor => s[a] ^ s[b],
                Code::BvAdd => s[a].wrapping_add(s[b]) & m,
                Code::BvSub => s[a].wrapping_sub(s[b]) & m,
                Code::BvMul => s[a].wrapping_mul(s[b]) & m,
                Code::Udiv => udiv(s[a], s[b], m),
                Code::Urem => urem(s[a], s[b]),
                Code::Sdiv => sdiv(s[a], s[b], w),
                Code::Srem => srem(s[a], s[b], w),
                Code::Smod => smod(s[a], s[b], w),
                Code::Shl => {
                    if s[b] >= w as u64 {
                        0
                    } else {
                        (s[a] << s[b]) & m
                    }
                }
                Code::Lshr => {
                    if s[b] >= w as u64 {
                        0
                    } else {
                        s[a] >> s[b]
                    }
                }
                Code::Ashr => {
                    let x = signed(s[a], w);
                    let k = s[b].min(w as u64 - 1);
                    ((x >> k) as u64) & m
                }
                Code::Ult => (s[a] < s[b]) as u64,
                Code::Ule => (s[a] <= s[b]) as u64,
                Code::Slt => (signed(s[a], i.args[2]) < signed(s[b], i.args[2])) as u64,
                Code::Sle => (signed(s[a], i.args[2]) <= signed(s[b], i.args[2])) as u64,
                Code::Comp => (s[a] == s[b]) as u64,
                Code::Extract => (s[a] >> i.args[1]) & m,
                Code::Concat => (s[a] << i.args[1]) | s[d],
                Code::Sext => (signed(s[a], i.args[1]) as u64) & m,
                Code::Copy => s[a],
            };
            s[i.dst as usize] = v;
        }
        s[c.root as usize]
    }
}

/// SMT-LIB: `x / 0` is all ones, `x % 0` is `x`.
fn udiv(a: u64, b: u64, m: u64) -> u64 {
    a.checked_div(b).unwrap_or(m)
}

fn urem(a: u64, b: u64) -> u64 {
    a.checked_rem(b).unwrap_or(a)
}

fn neg(a: u64, w: u32) -> u64 {
    a.wrapping_neg() & mask(w)
}

fn msb(a: u64, w: u32) -> bool {
    a >> (w - 1) & 1 == 1
}

fn sdiv(a: u64, b: u64, w: u32) -> u64 {
    let m = mask(w);
    match (msb(a, w), msb(b, w)) {
        (false, false) => udiv(a, b, m),
        (true, false) => neg(udiv(neg(a, w), b, m), w),
        (false, true) => neg(udiv(a, neg(b, w), m), w),
        (true, true) => udiv(neg(a, w), neg(b, w), m),
    }
}

fn srem(a: u64, b: u64, w: u32) -> u64 {
    match (msb(a, w), msb(b, w)) {
        (false, false) => urem(a, b),
        (true, false) => neg(urem(neg(a, w), b), w),
        (false, true) => urem(a, neg(b, w)),
        (true, true) => neg(urem(neg(a, w), neg(b, w)), w),
    }
}

fn smod(a: u64, b: u64, w: u32) -> u64 {
    let abs = |x: u64| if msb(x, w) { neg(x, w) } else { x };
    let u = urem(abs(a), abs(b));
    if u == 0 {
        return u;
    }
    let m = mask(w);
    match (msb(a, w), msb(b, w)) {
        (false, false) => u,
        (true, false) => neg(u, w).wrapping_add(b) & m,
        (false, true) => u.wrapping_add(b) & m,
        (true, true) => neg(u, w),
    }
}

/// The value of a constant term as a slot.
fn constant(terms: &Terms, t: Term) -> Option<u64> {
    match terms.op(t) {
        Op::Bool(b) => Some(*b as u64),
        Op::Bv(v) if v.width() <= 64 => Some(v.low_u64()),
        _ => None,
    }
}

/// A value as a slot (None beyond 64 bits or of another sort).
pub fn to_slot(v: &Value) -> Option<u64> {
    match v {
        Value::Bool(b) => Some(*b as u64),
        Value::Bv(b) if b.width() <= 64 => Some(b.low_u64()),
        _ => None,
    }
}

/// A slot as a value of `sort`.
pub fn from_slot(v: u64, sort: &Sort) -> Value {
    match sort {
        Sort::Bool => Value::Bool(v != 0),
        Sort::BitVec(w) => Value::Bv(BvValue::from_u64(*w, v)),
        _ => unreachable!("only Bool and bit-vector slots"),
    }
}

/// Compiles the cone of `root`; `None` if it has a sort wider than 64 bits,
/// an Int, Real or array, or an operator outside the subset.
pub fn compile(terms: &Terms, root: Term) -> Option<Compiled> {
    let mut out = Compiled {
        root: root.0,
        ..Compiled::default()
    };
    for t in terms.topological(&[root]) {
        let w = width_of(terms.sort(t))?;
        let args = terms.args(t);
        let arg = |i: usize| args[i].0;
        let width = |i: usize| width_of(terms.sort(args[i]));
        let emit = |op: Code, a: [u32; 3], out: &mut Compiled| {
            out.code.push(Instr {
                op,
                dst: t.0,
                args: a,
                width: w,
            })
        };
        // n-ary operators become chains that accumulate in the term's slot.
        let chain = |op: Code, out: &mut Compiled| {
            out.code.push(Instr {
                op,
                dst: t.0,
                args: [arg(0), arg(1), 0],
                width: w,
            });
            for i in 2..args.len() {
                out.code.push(Instr {
                    op,
                    dst: t.0,
                    args: [t.0, arg(i), 0],
                    width: w,
                });
            }
        };
        match terms.op(t) {
            Op::Var(..) => {
                out.vars.push(t);
            }
            Op::Bool(_) | Op::Bv(_) => {}
            Op::Not => emit(Code::Not, [arg(0), 0, 0], &mut out),
            Op::And
            | Op::Or
            | Op::Xor
            | Op::BvAnd
            | Op::BvOr
            | Op::BvXor
            | Op::BvAdd
            | Op::BvMul
                if args.len() >= 2 =>
            {
                let op = match terms.op(t) {
                    // Bools are 0 or 1: the bitwise operators serve.
                    Op::And | Op::BvAnd => Code::BvAnd,
                    Op::Or | Op::BvOr => Code::BvOr,
                    Op::Xor | Op::BvXor => Code::BvXor,
                    Op::BvAdd => Code::BvAdd,
                    _ => Code::BvMul,
                };
                chain(op, &mut out);
            }
            Op::Implies if args.len() == 2 => emit(Code::Implies, [arg(0), arg(1), 0], &mut out),
            Op::Eq if args.len() == 2 => emit(Code::Eq, [arg(0), arg(1), 0], &mut out),
            Op::Distinct if args.len() == 2 => emit(Code::Ne, [arg(0), arg(1), 0], &mut out),
            Op::Ite => emit(Code::Ite, [arg(0), arg(1), arg(2)], &mut out),
            Op::BvNot => emit(Code::BvNot, [arg(0), 0, 0], &mut out),
            Op::BvNeg => emit(Code::BvNeg, [arg(0), 0, 0], &mut out),
            Op::BvSub if args.len() == 2 => emit(Code::BvSub, [arg(0), arg(1), 0], &mut out),
            Op::BvUdiv => emit(Code::Udiv, [arg(0), arg(1), 0], &mut out),
            Op::BvUrem => emit(Code::Urem, [arg(0), arg(1), 0], &mut out),
            Op::BvSdiv => emit(Code::Sdiv, [arg(0), arg(1), 0], &mut out),
            Op::BvSrem => emit(Code::Srem, [arg(0), arg(1), 0], &mut out),
            Op::BvSmod => emit(Code::Smod, [arg(0), arg(1), 0], &mut out),
            Op::BvShl => emit(Code::Shl, [arg(0), arg(1), 0], &mut out),
            Op::BvLshr => emit(Code::Lshr, [arg(0), arg(1), 0], &mut out),
            Op::BvAshr => emit(Code::Ashr, [arg(0), arg(1), 0], &mut out),
            Op::BvUlt => emit(Code::Ult, [arg(0), arg(1), 0], &mut out),
            Op::BvUle => emit(Code::Ule, [arg(0), arg(1), 0], &mut out),
            Op::BvUgt => emit(Code::Ult, [arg(1), arg(0), 0], &mut out),
            Op::BvUge => emit(Code::Ule, [arg(1), arg(0), 0], &mut out),
            Op::BvSlt => emit(Code::Slt, [arg(0), arg(1), width(0)?], &mut out),
            Op::BvSle => emit(Code::Sle, [arg(0), arg(1), width(0)?], &mut out),
            Op::BvSgt => emit(Code::Slt, [arg(1), arg(0), width(0)?], &mut out),
            Op::BvSge => emit(Code::Sle, [arg(1), arg(0), width(0)?], &mut out),
            Op::BvComp => emit(Code::Comp, [arg(0), arg(1), 0], &mut out),
            Op::Extract(_, lo) => emit(Code::Extract, [arg(0), *lo, 0], &mut out),
            Op::ZeroExtend(_) => emit(Code::Copy, [arg(0), 0, 0], &mut out),
            Op::SignExtend(_) => emit(Code::Sext, [arg(0), width(0)?, 0], &mut out),
            Op::Concat if args.len() == 2 => {
                emit(Code::Concat, [arg(0), width(1)?, arg(1)], &mut out)
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::term::eval::Evaluator;
    use crate::util::rng::Rng;

    /// A value biased to the corners: 0, 1, all ones, the sign bit, or
    /// uniform.
    fn corner(rng: &mut Rng, w: u32) -> u64 {
        let m = mask(w);
        match rng.below(6) {
            0 => 0,
            1 => 1,
            2 => m,
            3 => 1 << (w - 1),
            4 => (1 << (w - 1)) - 1,
            _ => rng.next_u64() & m,
        }
    }

    /// Random terms of every compiled operator, at widths 1 to 64, agree with
    /// the arbitrary-width evaluator on random and corner values.
    #[test]
    fn compiled_terms_agree_with_the_evaluator() {
        let mut rng = Rng::new(7);
        let binary = [
            Op::BvAnd,
            Op::BvOr,
            Op::BvXor,
            Op::BvAdd,
            Op::BvSub,
            Op::BvMul,
            Op::BvUdiv,
            Op::BvUrem,
            Op::BvSdiv,
            Op::BvSrem,
            Op::BvSmod,
            Op::BvShl,
            Op::BvLshr,
            Op::BvAshr,
        ];
        let compare = [
            Op::BvUlt,
            Op::BvUle,
            Op::BvUgt,
            Op::BvUge,
            Op::BvSlt,
            Op::BvSle,
            Op::BvSgt,
            Op::BvSge,
            Op::Eq,
            Op::Distinct,
        ];
        let mut checked = 0;
        for round in 0..400 {
            let mut terms = Terms::default();
            let w = [1, 3, 8, 16, 31, 32, 33, 63, 64][round % 9];
            let x = terms.var("x", Sort::BitVec(w));
            let y = terms.var("y", Sort::BitVec(w));
            let p = terms.var("p", Sort::Bool);
            let mut pool = vec![x, y];
            for _ in 0..6 {
                let a = pool[rng.below(pool.len() as u64) as usize];
                let b = pool[rng.below(pool.len() as u64) as usize];
                let op = binary[rng.below(binary.len() as u64) as usize].clone();
                pool.push(terms.mk(op, &[a, b]));
            }
            let mut bools = vec![p];
            for &a in &pool[2..] {
                let b = pool[rng.below(pool.len() as u64) as usize];
                let op = compare[rng.below(compare.len() as u64) as usize].clone();
                bools.push(terms.mk(op, &[a, b]));
            }
            let cond = terms.mk(Op::Xor, &[bools[1], bools[2]]);
            let both = terms.mk(Op::And, &[bools[3], p, bools[4]]);
            let either = terms.mk(Op::Or, &[cond, both]);
            let last = *pool.last().unwrap();
            let pick = terms.mk(Op::Ite, &[either, last, pool[3]]);
            let mut roots = vec![pick, either];
            if w < 64 {
                let hi = if w > 1 { w / 2 } else { 0 };
                let ex = terms.mk(Op::Extract(hi, 0), &[pick]);
                let sx = terms.mk(Op::SignExtend(64 - w), &[pick]);
                let zx = terms.mk(Op::ZeroExtend(64 - w), &[last]);
                roots.extend([ex, sx, zx]);
                if hi + 1 + w <= 64 {
                    roots.push(terms.mk(Op::Concat, &[ex, pool[2]]));
                }
            }
            for &r in &roots {
                let c = compile(&terms, r).expect("compilable");
                let mut slots = Slots::new(&terms);
                for _ in 0..20 {
                    let (vx, vy, vp) = (corner(&mut rng, w), corner(&mut rng, w), rng.coin());
                    slots.values[x.index()] = vx;
                    slots.values[y.index()] = vy;
                    slots.values[p.index()] = vp as u64;
                    let got = from_slot(slots.run(&c), terms.sort(r));
                    let mut ev = Evaluator::new(&terms);
                    ev.set(x, Value::Bv(BvValue::from_u64(w, vx)));
                    ev.set(y, Value::Bv(BvValue::from_u64(w, vy)));
                    ev.set(p, Value::Bool(vp));
                    let want = ev.eval(r).unwrap();
                    assert_eq!(got, want, "width {w}, x={vx:#x}, y={vy:#x}, p={vp}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
    }
}
