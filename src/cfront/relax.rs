//! Invariants of a program's integer relaxation, carried to its machine
//! integers.
//!
//! Under `--int` the front end lowers a program over mathematical integers,
//! ignoring wrap-around. Where the word-level engine proves that relaxation
//! safe, its invariant, read with each integer variable standing for the
//! mathematical value of the machine integer of the same name (sign- or
//! zero-extended by its C type), is a candidate invariant of the
//! bit-precise encoding. It is only a candidate: the caller checks it on the
//! bit-precise system like any engine's proof, so wrap-around that the
//! relaxation ignores can make a transfer fail but never make a verdict
//! wrong. Loop invariants of the kind `x + y = n` or `i <= k`, which IC3
//! over predicates finds on integers with Farkas interpolants, have no
//! short description in the bits of a 32-bit state, and bit-level IC3 does
//! not find them there.
//!
//! The arithmetic is exact: each integer subterm is computed in a
//! bit-vector width that holds every value it can take once the variables
//! are within their types' ranges (bounds from the variables' widths and the
//! constants), so the translated invariant means what the relaxation's
//! invariant says about those values.
//!
//! This is the integer abstraction of bit-vector programs with the proof
//! checked at the bit level, as in the bit-width-independent approaches (for
//! example Gurfinkel, Kahsai, Navas, "SeaHorn", CAV 2015, which verifies
//! over integers and reports when overflow can break that).

use super::types::CType;
use crate::ir::bv::BvValue;
use crate::ir::cfa::Cfa;
use crate::ir::term::{Op, Rational, Sort, Term, Terms};
use crate::ir::ts::Ts;
use std::collections::HashMap;

/// Widest bit-vector an integer subterm is computed in; beyond it the
/// transfer is refused (the checking solver would drown in it anyway).
const MAX_WIDTH: u32 = 256;

/// Whether two automata of one program (lowered with different integer
/// representations, then compressed the same way) have the same live
/// locations and the same edges between them, so that the program counters
/// of their encodings agree.
pub fn aligned(a: &Cfa, b: &Cfa) -> bool {
    let ends =
        |c: &Cfa| -> Vec<(u32, u32)> { c.edges.iter().map(|e| (e.from.0, e.to.0)).collect() };
    a.live_locations() == b.live_locations()
        && a.init == b.init
        && a.error == b.error
        && ends(a) == ends(b)
}

/// Makes a raised overflow flag (`flag`, a Bool state of `relaxed`, see
/// [`super::Program::overflow`]) a bad state of the relaxation, initially
/// lowered. An invariant of the result rules out every assignment outside a
/// variable's range, so that where it holds the integer and the machine
/// semantics assign the same values, and it stays inductive when carried
/// to the machine integers (short of overflow inside a condition, which
/// the check on the bit-precise system catches).
pub fn watch_overflow(relaxed: &mut Ts, flag: Term, types: &HashMap<Term, CType>) {
    let no = relaxed.terms.bool(false);
    // A variable that is not initialised holds some value of its type.
    for s in &relaxed.states {
        if let (Sort::Int, Some(ty)) = (relaxed.terms.sort(s.var), types.get(&s.var)) {
            let (lo, hi) = ty.range();
            let lo = relaxed.terms.mk(Op::Num(Rational::int(lo), Sort::Int), &[]);
            let hi = relaxed.terms.mk(Op::Num(Rational::int(hi), Sort::Int), &[]);
            let above = relaxed.terms.mk(Op::Le, &[lo, s.var]);
            let below = relaxed.terms.mk(Op::Le, &[s.var, hi]);
            relaxed.init.push(above);
            relaxed.init.push(below);
        }
    }
    let Some(valid) = (relaxed.states.iter())
        .map(|s| s.var)
        .find(|&v| relaxed.terms.var_name(v) == Some("valid"))
    else {
        return;
    };
    for s in relaxed.states.iter_mut().filter(|s| s.var == flag) {
        s.init = Some(no);
    }
    let raised = relaxed.terms.mk(Op::And, &[valid, flag]);
    for p in &mut relaxed.bad {
        p.term = relaxed.terms.mk(Op::Or, &[p.term, raised]);
    }
}

/// How a variable of the relaxation is read in the bit-precise system.
#[derive(Copy, Clone)]
enum Image {
    /// An integer variable: the machine integer of this C type.
    Integer(Term, CType),
    /// A Bool or bit-vector variable (the program counter, `valid`): itself.
    Same(Term),
    /// The overflow flag, lowered where the invariant holds.
    Lowered,
}

/// The translation of one invariant.
struct Transfer<'a> {
    from: &'a Terms,
    to: Terms,
    vars: HashMap<Term, Image>,
    width: u32,
    bits: HashMap<Term, u32>,
    done: HashMap<Term, Term>,
}

/// Bits of the magnitude of `n`.
fn bit_length(n: i128) -> u32 {
    128 - n.unsigned_abs().leading_zeros()
}

/// Bits of `n` (rounded up), for sums of `n` terms.
fn log2_ceil(n: usize) -> u32 {
    usize::BITS - n.saturating_sub(1).leading_zeros()
}

impl Transfer<'_> {
    /// Bits of the magnitude of an integer subterm's values, given its
    /// arguments' (already computed).
    fn magnitude(&self, t: Term) -> Result<u32, String> {
        let args = self.from.args(t);
        let arg = |i: usize| self.bits[&args[i]];
        let widest = || args.iter().map(|a| self.bits[a]).max().unwrap_or(0);
        Ok(match self.from.op(t) {
            Op::Var(name, _) => match self.vars.get(&t) {
                Some(Image::Integer(_, ty)) => ty.width,
                _ => return Err(format!("integer variable `{name}` has no machine integer")),
            },
            Op::Num(r, Sort::Int) if r.is_int() => bit_length(r.numer()),
            Op::Add | Op::Sub => widest() + log2_ceil(args.len().max(2)),
            Op::Neg | Op::Abs => arg(0) + 1,
            Op::Mul => args.iter().map(|a| self.bits[a]).sum(),
            // |a div d| <= |a| for d != 0 (the value at 0 is the
            // translation's own choice, which the check on the machine
            // integers judges like any other).
            Op::IntDiv if args.len() == 2 => arg(0) + 1,
            Op::Mod if args.len() == 2 => arg(1) + 1,
            Op::Ite => arg(1).max(arg(2)),
            op => {
                return Err(format!(
                    "integer operator {op:?} is not carried to machine integers"
                ))
            }
        })
    }

    fn int_constant(&mut self, value: i128) -> Term {
        let mut bv = BvValue::zero(self.width);
        for b in 0..self.width {
            bv.set_bit(b, value >> b.min(127) & 1 == 1);
        }
        self.to.bv(bv)
    }

    /// Left fold of a binary bit-vector operator.
    fn fold(&mut self, op: Op, args: &[Term]) -> Term {
        let mut acc = args[0];
        for &a in &args[1..] {
            acc = self.to.mk(op.clone(), &[acc, a]);
        }
        acc
    }

    /// The image of the product `t`, whose arguments' images are `args`.
    /// A constant factor `c` becomes `|c| * x` and a negation, since the
    /// checking solver bit-blasts a product: `-1 * x` as a multiplier by
    /// all-ones bits is a sum of `width` shifted copies of `x`, which it
    /// cannot relate to `-x` in reasonable time (count_up_down-1: no answer
    /// in 60 s).
    fn product(&mut self, t: Term, args: &[Term]) -> Term {
        let mut sign = false;
        let mut constant: i128 = 1;
        let mut rest = Vec::new();
        for (&a, &image) in self.from.args(t).iter().zip(args) {
            match self.from.op(a) {
                Op::Num(r, Sort::Int) if r.is_int() => match constant.checked_mul(r.numer()) {
                    Some(c) => constant = c,
                    None => rest.push(image),
                },
                _ => rest.push(image),
            }
        }
        if constant < 0 {
            sign = true;
            constant = constant.checked_neg().unwrap_or(constant);
        }
        if constant != 1 || rest.is_empty() {
            let c = self.int_constant(constant);
            rest.insert(0, c);
        }
        let product = self.fold(Op::BvMul, &rest);
        if sign {
            self.to.mk(Op::BvNeg, &[product])
        } else {
            product
        }
    }

    /// A chained comparison `a op b op c ...` as a conjunction of pairs.
    fn chain(&mut self, op: Op, args: &[Term]) -> Term {
        let pairs: Vec<Term> = (args.windows(2))
            .map(|w| self.to.mk(op.clone(), &[w[0], w[1]]))
            .collect();
        self.to.and_all(&pairs)
    }

    /// The image of `t`, whose arguments' images are known.
    fn image(&mut self, t: Term) -> Result<Term, String> {
        let args: Vec<Term> = self.from.args(t).iter().map(|a| self.done[a]).collect();
        let int_args = (self.from.args(t).iter()).any(|&a| *self.from.sort(a) == Sort::Int);
        let op = self.from.op(t).clone();
        Ok(match op {
            Op::Var(name, _) => match self.vars.get(&t) {
                Some(&Image::Integer(v, ty)) => {
                    let by = self.width - ty.width;
                    if ty.signed {
                        self.to.mk(Op::SignExtend(by), &[v])
                    } else {
                        self.to.mk(Op::ZeroExtend(by), &[v])
                    }
                }
                Some(&Image::Same(v)) => v,
                Some(Image::Lowered) => self.to.bool(false),
                None => return Err(format!("`{name}` is not a state of the program")),
            },
            Op::Num(r, Sort::Int) if r.is_int() => self.int_constant(r.numer()),
            Op::Add => self.fold(Op::BvAdd, &args),
            Op::Sub if args.len() == 1 => self.to.mk(Op::BvNeg, &args),
            Op::Sub => self.fold(Op::BvSub, &args),
            Op::Neg => self.to.mk(Op::BvNeg, &args),
            Op::Mul => self.product(t, &args),
            Op::Abs => {
                let zero = self.int_constant(0);
                let negative = self.to.mk(Op::BvSlt, &[args[0], zero]);
                let minus = self.to.mk(Op::BvNeg, &[args[0]]);
                self.to.mk(Op::Ite, &[negative, minus, args[0]])
            }
            // SMT-LIB's `div` and `mod` are Euclidean: the remainder is in
            // [0, |d|). bvsdiv truncates toward zero and bvsrem takes the
            // dividend's sign, so a negative remainder moves both, by the
            // divisor's sign.
            Op::IntDiv | Op::Mod => {
                let zero = self.int_constant(0);
                let one = self.int_constant(1);
                let (a, d) = (args[0], args[1]);
                let q = self.to.mk(Op::BvSdiv, &[a, d]);
                let r = self.to.mk(Op::BvSrem, &[a, d]);
                let negative = self.to.mk(Op::BvSlt, &[r, zero]);
                let positive_d = self.to.mk(Op::BvSgt, &[d, zero]);
                if op == Op::IntDiv {
                    let below = self.to.mk(Op::BvSub, &[q, one]);
                    let above = self.to.mk(Op::BvAdd, &[q, one]);
                    let moved = self.to.mk(Op::Ite, &[positive_d, below, above]);
                    self.to.mk(Op::Ite, &[negative, moved, q])
                } else {
                    let abs_d = self.to.mk(Op::BvNeg, &[d]);
                    let abs_d = self.to.mk(Op::Ite, &[positive_d, d, abs_d]);
                    let up = self.to.mk(Op::BvAdd, &[r, abs_d]);
                    self.to.mk(Op::Ite, &[negative, up, r])
                }
            }
            Op::Le => self.chain(Op::BvSle, &args),
            Op::Lt => self.chain(Op::BvSlt, &args),
            Op::Ge => self.chain(Op::BvSge, &args),
            Op::Gt => self.chain(Op::BvSgt, &args),
            Op::Not
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::Implies
            | Op::Eq
            | Op::Distinct
            | Op::Ite
            | Op::Bool(_) => self.to.mk(op, &args),
            // Bit-vector terms (the program counter's) carry over unchanged.
            Op::Bv(_) => self.to.mk(op, &args),
            op if !int_args && matches!(self.from.sort(t), Sort::Bool | Sort::BitVec(_)) => {
                match self.to.app(op.clone(), &args) {
                    Ok(t) => t,
                    Err(e) => return Err(format!("{op:?} does not carry over: {e}")),
                }
            }
            op => return Err(format!("{op:?} is not carried to machine integers")),
        })
    }
}

/// The invariant `invariant` (a Bool term of `store`, which extends the
/// relaxation's terms) over the states of `relaxed`, read over the states
/// of `machine` (the same program's bit-precise encoding): the terms it is
/// built in (an extension of `machine`'s) and the term. `types` gives the C
/// type of each of the relaxation's integer variables; `flag`, its overflow
/// flag (read as false), if it has one.
pub fn transfer(
    relaxed: &Ts,
    store: &Terms,
    invariant: Term,
    types: &HashMap<Term, CType>,
    flag: Option<Term>,
    machine: &Ts,
) -> Result<(Terms, Term), String> {
    let by_name: HashMap<&str, Term> = (machine.states.iter())
        .filter_map(|s| machine.terms.var_name(s.var).map(|n| (n, s.var)))
        .collect();
    let mut vars = HashMap::new();
    for s in &relaxed.states {
        if Some(s.var) == flag {
            vars.insert(s.var, Image::Lowered);
            continue;
        }
        let name = store.var_name(s.var).unwrap_or_default();
        let Some(&image) = by_name.get(name) else {
            continue;
        };
        let (from_sort, to_sort) = (store.sort(s.var), machine.terms.sort(image));
        let entry = match (from_sort, types.get(&s.var)) {
            (Sort::Int, Some(&ty)) if *to_sort == Sort::BitVec(ty.width) => {
                Image::Integer(image, ty)
            }
            _ if from_sort == to_sort => Image::Same(image),
            _ => {
                return Err(format!(
                    "state `{name}` is {from_sort} in one encoding, {to_sort} in the other"
                ))
            }
        };
        vars.insert(s.var, entry);
    }
    let order = store.topological(&[invariant]);
    let mut t = Transfer {
        from: store,
        to: machine.terms.clone(),
        vars,
        width: 0,
        bits: HashMap::new(),
        done: HashMap::new(),
    };
    let mut widest = 1;
    for &s in &order {
        if *store.sort(s) == Sort::Int {
            let b = t.magnitude(s)?;
            widest = widest.max(b);
            t.bits.insert(s, b);
        }
    }
    // One bit of sign, one of slack for the magnitudes' inclusive bounds.
    t.width = widest + 2;
    if t.width > MAX_WIDTH {
        return Err(format!(
            "the invariant's arithmetic needs {} bits (at most {MAX_WIDTH})",
            t.width
        ));
    }
    for &s in &order {
        let image = t.image(s)?;
        t.done.insert(s, image);
    }
    let result = t.done[&invariant];
    Ok((t.to, result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::term::eval::{Evaluator, Value};
    use crate::ir::ts::StateVar;

    fn state(var: Term) -> StateVar {
        StateVar {
            var,
            next_var: None,
            init: None,
            next: None,
        }
    }

    /// Every value of two 4-bit machine integers (one signed, one unsigned):
    /// the translated atom holds exactly where the integer atom holds of
    /// their mathematical values (an exhaustive oracle, not invar's solver).
    #[test]
    fn translated_arithmetic_is_exact_on_every_value() {
        let (sx, ux) = (CType::int(4, true), CType::int(4, false));
        let mut int_terms = Terms::default();
        let x = int_terms.var("x", Sort::Int);
        let y = int_terms.var("y", Sort::Int);
        let num = |t: &mut Terms, n: i128| t.mk(Op::Num(Rational::int(n), Sort::Int), &[]);
        // 3x - 5y + (x div 3) - (x mod 4) + |x| <= -7, or x*y > 2, or ...
        let three = num(&mut int_terms, 3);
        let five = num(&mut int_terms, 5);
        let four = num(&mut int_terms, 4);
        let minus7 = num(&mut int_terms, -7);
        let two = num(&mut int_terms, 2);
        let a = int_terms.mk(Op::Mul, &[three, x]);
        let b = int_terms.mk(Op::Mul, &[five, y]);
        let c = int_terms.mk(Op::IntDiv, &[x, three]);
        let d = int_terms.mk(Op::Mod, &[x, four]);
        let e = int_terms.mk(Op::Abs, &[x]);
        let sum = int_terms.mk(Op::Sub, &[a, b]);
        let sum = int_terms.mk(Op::Add, &[sum, c, e]);
        let sum = int_terms.mk(Op::Sub, &[sum, d]);
        let atom1 = int_terms.mk(Op::Le, &[sum, minus7]);
        let prod = int_terms.mk(Op::Mul, &[x, y]);
        let atom2 = int_terms.mk(Op::Gt, &[prod, two]);
        // (x div (y - 7)) + (x mod (y - 7)) = 1, where y - 7 is nonzero.
        let seven = num(&mut int_terms, 7);
        let d = int_terms.mk(Op::Sub, &[y, seven]);
        let q = int_terms.mk(Op::IntDiv, &[x, d]);
        let m = int_terms.mk(Op::Mod, &[x, d]);
        let qm = int_terms.mk(Op::Add, &[q, m]);
        let one = num(&mut int_terms, 1);
        let atom3 = int_terms.mk(Op::Eq, &[qm, one]);
        let inv = int_terms.mk(Op::Or, &[atom1, atom2, atom3]);
        let relaxed = Ts {
            terms: int_terms.clone(),
            states: vec![state(x), state(y)],
            ..Ts::default()
        };
        let mut bv_terms = Terms::default();
        let bx = bv_terms.var("x", Sort::BitVec(4));
        let by = bv_terms.var("y", Sort::BitVec(4));
        let machine = Ts {
            terms: bv_terms,
            states: vec![state(bx), state(by)],
            ..Ts::default()
        };
        let types = HashMap::from([(x, sx), (y, ux)]);
        let (store, image) = transfer(&relaxed, &int_terms, inv, &types, None, &machine).unwrap();
        let floor_div = |a: i128, b: i128| a.div_euclid(b);
        for xv in 0..16u64 {
            for yv in 0..16u64 {
                let xi = if xv >= 8 { xv as i128 - 16 } else { xv as i128 };
                let yi = yv as i128;
                let expected = 3 * xi - 5 * yi + floor_div(xi, 3) + xi.abs() - xi.rem_euclid(4)
                    <= -7
                    || xi * yi > 2
                    || (yi != 7 && xi.div_euclid(yi - 7) + xi.rem_euclid(yi - 7) == 1);
                if yi == 7 {
                    // Division by zero: SMT-LIB leaves it open.
                    continue;
                }
                let mut e = Evaluator::new(&store);
                e.set(bx, Value::Bv(BvValue::from_u64(4, xv)));
                e.set(by, Value::Bv(BvValue::from_u64(4, yv)));
                let got = e.eval(image).unwrap();
                assert_eq!(got, Value::Bool(expected), "x = {xi}, y = {yi}");
            }
        }
    }

    #[test]
    fn a_state_of_another_sort_is_refused() {
        let mut int_terms = Terms::default();
        let x = int_terms.var("x", Sort::Int);
        let zero = int_terms.mk(Op::Num(Rational::int(0), Sort::Int), &[]);
        let inv = int_terms.mk(Op::Ge, &[x, zero]);
        let relaxed = Ts {
            terms: int_terms.clone(),
            states: vec![state(x)],
            ..Ts::default()
        };
        let mut bv_terms = Terms::default();
        let bx = bv_terms.var("x", Sort::BitVec(8));
        let machine = Ts {
            terms: bv_terms,
            states: vec![state(bx)],
            ..Ts::default()
        };
        let types = HashMap::from([(x, CType::int(32, true))]);
        let e = transfer(&relaxed, &int_terms, inv, &types, None, &machine).unwrap_err();
        assert!(e.contains("state `x` is Int in one encoding"), "{e}");
    }
}
