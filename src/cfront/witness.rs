//! Loop invariants in C for SV-COMP correctness witnesses: an inductive
//! invariant of the encoded system (a term over `pc`, `valid` and the
//! program variables) is projected onto each loop head (`pc` fixed, `valid`
//! true), split into conjuncts, and each conjunct is written as a C
//! expression over the variables in scope there.
//!
//! A conjunct that mentions a variable not in scope (a temporary, another
//! function's local) or an operator with no faithful C rendering is left
//! out: a conjunction with fewer conjuncts still holds wherever the whole
//! does, so the loop invariant stays true (it may no longer be inductive on
//! its own, which the format does not ask). A loop inlined at several call
//! sites gets the disjunction of its instances' invariants.
//!
//! Bit-vectors are written as their bit patterns in `unsigned long long`
//! (every operation masked to its width), so C's promotions and signedness
//! never change a value: `x` of type `int` reads as
//! `(unsigned long long)(unsigned int)x`, and signed comparisons flip the
//! sign bit of both sides before comparing.

use super::lower::Program;
use super::types::CType;
use crate::formats::svcomp::{InvariantKind, SourcePoint, WitnessInvariant};
use crate::ir::bv::BvValue;
use crate::ir::cfa::encode::pc_numbers;
use crate::ir::term::normalize::Normalizer;
use crate::ir::term::{Op, Term, Terms};
use crate::ir::ts::Ts;
use std::collections::{BTreeMap, HashMap};

/// Longest C expression written for one conjunct: a bit-level invariant
/// can have thousands of cubes, and a witness is meant to be read.
const MAX_EXPRESSION: usize = 20_000;

/// Deepest term rendered (the renderer recurses).
const MAX_DEPTH: usize = 500;

/// The loop invariants that `invariant`, an invariant of `ts` (the
/// encoding of `program`'s automaton) and a term of `store` (`ts`'s terms,
/// extended), implies at the program's loops: one per loop keyword, leaving
/// out loops whose invariant says nothing.
pub fn loop_invariants(
    program: &Program,
    ts: &Ts,
    store: &Terms,
    invariant: Term,
) -> Result<Vec<WitnessInvariant>, String> {
    let mut terms = store.clone();
    let (pc, valid) = match ts.states.as_slice() {
        [pc, valid, ..] => (pc.var, valid.var),
        _ => return Err("the system has no pc and valid states".into()),
    };
    let pc_width = terms.sort(pc).bv_width().ok_or("pc is not a bit-vector")?;
    let numbers = pc_numbers(&program.cfa);
    let mut normalizer = Normalizer::default();
    // Per loop keyword, the invariant of each instance (None: says nothing).
    let mut at_loops: BTreeMap<SourcePoint, Vec<Option<String>>> = BTreeMap::new();
    for head in &program.loop_heads {
        let Some(at) = &head.at else { continue };
        let rendered = match numbers.get(&head.loc) {
            // Large-block encoding merged the head away: no fact about it.
            None => None,
            Some(&number) => {
                let value = terms.bv(BvValue::from_u64(pc_width, number as u64));
                let yes = terms.bool(true);
                let subst = HashMap::from([(pc, value), (valid, yes)]);
                let projected = terms.substitute(&[invariant], &subst)[0];
                let projected = normalizer.normalize(&mut terms, projected);
                let names: HashMap<Term, (String, CType)> = (head.scope.iter())
                    .filter_map(|(name, var)| {
                        Some((*var, (name.clone(), *program.types.get(var)?)))
                    })
                    .collect();
                let writer = Writer {
                    terms: &terms,
                    names: &names,
                };
                writer.conjunction(projected)
            }
        };
        at_loops.entry(at.clone()).or_default().push(rendered);
    }
    let mut out = Vec::new();
    for (at, instances) in at_loops {
        // An instance that says nothing makes the disjunction say nothing.
        let Some(values) = instances.into_iter().collect::<Option<Vec<String>>>() else {
            continue;
        };
        let value = if values.len() == 1 {
            values.into_iter().next().expect("one")
        } else {
            let parts: Vec<String> = values.iter().map(|v| format!("({v})")).collect();
            parts.join(" || ")
        };
        out.push(WitnessInvariant {
            at,
            value,
            kind: InvariantKind::Loop,
        });
    }
    Ok(out)
}

/// Writes terms as C over the variables in scope.
struct Writer<'a> {
    terms: &'a Terms,
    names: &'a HashMap<Term, (String, CType)>,
}

/// `2^w - 1` as a C constant.
fn mask(w: u32) -> String {
    if w >= 64 {
        "0xffffffffffffffffULL".into()
    } else {
        format!("{:#x}ULL", (1u64 << w) - 1)
    }
}

/// The unsigned C type of a width, for the conversion that makes a signed
/// value its bit pattern.
fn unsigned_type(w: u32) -> Option<&'static str> {
    Some(match w {
        8 => "unsigned char",
        16 => "unsigned short",
        32 => "unsigned int",
        64 => "unsigned long long",
        _ => return None,
    })
}

/// The value of a bit pattern in C type `ty` as a C constant of that
/// value; None for the most negative value of a type (no literal has it).
fn constant_in(bits: u64, ty: CType) -> Option<String> {
    let w = ty.width;
    if w > 64 {
        return None;
    }
    if ty.signed {
        let shift = 64 - w;
        let v = ((bits << shift) as i64) >> shift;
        if v == i64::MIN >> shift {
            return None;
        }
        Some(if w > 32 {
            format!("{v}LL")
        } else {
            format!("{v}")
        })
    } else {
        Some(match w {
            64 => format!("{bits}ULL"),
            32 => format!("{bits}U"),
            // Narrower unsigned types promote to int.
            _ => format!("{bits}"),
        })
    }
}

impl Writer<'_> {
    /// The projected invariant weakened to what can be written: under
    /// `and` and `or` (positive positions), a part that cannot be written
    /// becomes `true`, which only makes the formula weaker. None when the
    /// result says nothing (it is `true`).
    fn conjunction(&self, t: Term) -> Option<String> {
        self.weakened(t, 0).filter(|s| s.len() <= MAX_EXPRESSION)
    }

    fn weakened(&self, t: Term, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        let args = self.terms.args(t);
        match self.terms.op(t) {
            Op::Bool(true) => None,
            Op::And => {
                let parts: Vec<String> = (args.iter())
                    .filter_map(|&a| self.weakened(a, depth + 1))
                    .collect();
                match parts.len() {
                    0 => None,
                    1 => parts.into_iter().next(),
                    _ => Some(parts.join(" && ")),
                }
            }
            Op::Or => {
                let parts: Option<Vec<String>> =
                    args.iter().map(|&a| self.weakened(a, depth + 1)).collect();
                let parts = parts?;
                Some(format!("({})", parts.join(" || ")))
            }
            _ => self.truth(t, depth),
        }
    }

    fn width(&self, t: Term) -> Option<u32> {
        self.terms.sort(t).bv_width().filter(|&w| w <= 64)
    }

    /// A Bool term as a C expression of value 0 or 1.
    fn truth(&self, t: Term, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        let args = self.terms.args(t);
        let arg = |i: usize| self.truth(args[i], d);
        let bits = |i: usize| self.bits(args[i], d);
        let all = |sep: &str| -> Option<String> {
            let parts: Option<Vec<String>> = args.iter().map(|&a| self.truth(a, d)).collect();
            Some(format!("({})", parts?.join(sep)))
        };
        let signed = |op: &str| -> Option<String> {
            let w = self.width(args[0])?;
            let sign = format!("{:#x}ULL", 1u64 << (w - 1));
            Some(format!(
                "(({} ^ {sign}) {op} ({} ^ {sign}))",
                bits(0)?,
                bits(1)?
            ))
        };
        if let Some(plain) = self.plain_comparison(t) {
            return Some(plain);
        }
        Some(match self.terms.op(t) {
            Op::Bool(b) => (if *b { "1" } else { "0" }).into(),
            Op::Not => format!("!{}", arg(0)?),
            Op::And => all(" && ")?,
            Op::Or => all(" || ")?,
            Op::Implies if args.len() == 2 => format!("(!{} || {})", arg(0)?, arg(1)?),
            Op::Xor if args.len() == 2 => format!("({} != {})", arg(0)?, arg(1)?),
            Op::Ite => format!("({} ? {} : {})", arg(0)?, arg(1)?, arg(2)?),
            Op::Eq | Op::Distinct if args.len() == 2 => {
                let op = if *self.terms.op(t) == Op::Eq {
                    "=="
                } else {
                    "!="
                };
                if self.width(args[0]).is_some() {
                    format!("({} {op} {})", bits(0)?, bits(1)?)
                } else if *self.terms.sort(args[0]) == crate::ir::term::Sort::Bool {
                    format!("({} {op} {})", arg(0)?, arg(1)?)
                } else {
                    return None;
                }
            }
            Op::BvUlt => format!("({} < {})", bits(0)?, bits(1)?),
            Op::BvUle => format!("({} <= {})", bits(0)?, bits(1)?),
            Op::BvUgt => format!("({} > {})", bits(0)?, bits(1)?),
            Op::BvUge => format!("({} >= {})", bits(0)?, bits(1)?),
            Op::BvSlt => signed("<")?,
            Op::BvSle => signed("<=")?,
            Op::BvSgt => signed(">")?,
            Op::BvSge => signed(">=")?,
            _ => return None,
        })
    }

    /// A comparison of variables of one C type and constants, written in
    /// that type (`i < n`, `x == -1`): no arithmetic, so no promotion or
    /// conversion changes a value. None for anything else.
    fn plain_comparison(&self, t: Term) -> Option<String> {
        let (op, signed) = match self.terms.op(t) {
            Op::Eq => ("==", None),
            Op::Distinct => ("!=", None),
            Op::BvUlt => ("<", Some(false)),
            Op::BvUle => ("<=", Some(false)),
            Op::BvUgt => (">", Some(false)),
            Op::BvUge => (">=", Some(false)),
            Op::BvSlt => ("<", Some(true)),
            Op::BvSle => ("<=", Some(true)),
            Op::BvSgt => (">", Some(true)),
            Op::BvSge => (">=", Some(true)),
            _ => return None,
        };
        let args = self.terms.args(t);
        if args.len() != 2 {
            return None;
        }
        // The one C type of the variables.
        let mut ty: Option<CType> = None;
        for &a in args {
            if let Op::Var(..) = self.terms.op(a) {
                let (_, t) = self.names.get(&a)?;
                if ty.is_some_and(|u| u != *t) {
                    return None;
                }
                ty = Some(*t);
            }
        }
        let ty = ty?;
        if signed.is_some_and(|s| s != ty.signed) || ty.boolean {
            return None;
        }
        let side = |a: Term| -> Option<String> {
            match self.terms.op(a) {
                Op::Var(..) => Some(self.names.get(&a)?.0.clone()),
                Op::Bv(v) if v.width() == ty.width => constant_in(v.to_u64()?, ty),
                _ => None,
            }
        };
        Some(format!("({} {op} {})", side(args[0])?, side(args[1])?))
    }

    /// A bit-vector term (at most 64 bits) as a C expression of type
    /// `unsigned long long` whose value is the term's bit pattern.
    fn bits(&self, t: Term, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        let d = depth + 1;
        let w = self.width(t)?;
        let m = mask(w);
        let args = self.terms.args(t);
        let bits = |i: usize| self.bits(args[i], d);
        let fold = |op: &str| -> Option<String> {
            let parts: Option<Vec<String>> = args.iter().map(|&a| self.bits(a, d)).collect();
            Some(format!("({})", parts?.join(op)))
        };
        Some(match self.terms.op(t) {
            Op::Bv(v) => format!("{}ULL", v.to_u64()?),
            Op::Var(..) => {
                let (name, ty) = self.names.get(&t)?;
                if ty.width != w {
                    return None;
                }
                if ty.signed {
                    format!("((unsigned long long)({}){name})", unsigned_type(w)?)
                } else {
                    format!("((unsigned long long){name})")
                }
            }
            Op::Ite => format!(
                "({} ? {} : {})",
                self.truth(args[0], d)?,
                bits(1)?,
                bits(2)?
            ),
            Op::BvNot => format!("(~{} & {m})", bits(0)?),
            Op::BvNeg => format!("((0ULL - {}) & {m})", bits(0)?),
            Op::BvAnd => fold(" & ")?,
            Op::BvOr => fold(" | ")?,
            Op::BvXor => fold(" ^ ")?,
            Op::BvAdd => format!("({} & {m})", fold(" + ")?),
            Op::BvMul => format!("({} & {m})", fold(" * ")?),
            Op::BvSub if args.len() == 2 => format!("(({} - {}) & {m})", bits(0)?, bits(1)?),
            // SMT-LIB: x / 0 is all ones and x % 0 is x.
            Op::BvUdiv => {
                let (a, b) = (bits(0)?, bits(1)?);
                format!("({b} == 0ULL ? {m} : {a} / {b})")
            }
            Op::BvUrem => {
                let (a, b) = (bits(0)?, bits(1)?);
                format!("({b} == 0ULL ? {a} : {a} % {b})")
            }
            Op::BvShl => {
                let (a, b) = (bits(0)?, bits(1)?);
                format!("({b} >= {w}ULL ? 0ULL : (({a} << {b}) & {m}))")
            }
            Op::BvLshr => {
                let (a, b) = (bits(0)?, bits(1)?);
                format!("({b} >= {w}ULL ? 0ULL : ({a} >> {b}))")
            }
            Op::Concat if args.len() == 2 => {
                let low = self.width(args[1])?;
                format!("(({} << {low}) | {})", bits(0)?, bits(1)?)
            }
            Op::Extract(hi, lo) => format!("(({} >> {lo}) & {})", bits(0)?, mask(hi - lo + 1)),
            Op::ZeroExtend(_) => bits(0)?,
            Op::SignExtend(_) => {
                let inner = self.width(args[0])?;
                let sign = format!("{:#x}ULL", 1u64 << (inner - 1));
                format!("((({} ^ {sign}) - {sign}) & {m})", bits(0)?)
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::term::Sort;

    /// Compiles `expr` over `int x; unsigned u;` with gcc and evaluates it
    /// for each pair, when gcc is installed.
    fn gcc_values(expr: &str, pairs: &[(i32, u32)]) -> Option<Vec<u64>> {
        let dir = std::env::temp_dir().join(format!("invar-cw-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let list: Vec<String> = pairs
            .iter()
            .map(|(x, u)| format!("{{{x}, {u}u}}"))
            .collect();
        let program = format!(
            "#include <stdio.h>\nstruct p {{ int x; unsigned u; }};\nint main(void) {{\n  struct p ps[] = {{{}}};\n  for (unsigned i = 0; i < sizeof ps / sizeof ps[0]; i++) {{\n    int x = ps[i].x; unsigned u = ps[i].u;\n    printf(\"%llu\\n\", (unsigned long long)({expr}));\n  }}\n  return 0;\n}}\n",
            list.join(", ")
        );
        let source = dir.join("e.c");
        let binary = dir.join("e");
        std::fs::write(&source, program).ok()?;
        let status = std::process::Command::new("gcc")
            .args(["-std=c11", "-o"])
            .arg(&binary)
            .arg(&source)
            .status()
            .ok()?;
        assert!(status.success(), "gcc refused {expr}");
        let out = std::process::Command::new(&binary).output().ok()?;
        let _ = std::fs::remove_dir_all(&dir);
        Some(
            String::from_utf8(out.stdout)
                .ok()?
                .lines()
                .map(|l| l.parse().unwrap())
                .collect(),
        )
    }

    #[test]
    fn written_terms_evaluate_in_c_as_the_evaluator_says() {
        use crate::ir::term::eval::{Evaluator, Value};
        let mut terms = Terms::new();
        let x = terms.var("x#1", Sort::BitVec(32));
        let u = terms.var("u#2", Sort::BitVec(32));
        let c = |terms: &mut Terms, v: u64| terms.bv(BvValue::from_u64(32, v));
        let seven = c(&mut terms, 7);
        let big = c(&mut terms, 0xffff_fff0);
        let three = c(&mut terms, 3);
        let sum = terms.mk(Op::BvAdd, &[x, u, big]);
        let prod = terms.mk(Op::BvMul, &[x, seven]);
        let quot = terms.mk(Op::BvUdiv, &[u, x]);
        let rem = terms.mk(Op::BvUrem, &[u, three]);
        let shl = terms.mk(Op::BvShl, &[x, u]);
        let low = terms.mk(Op::Extract(7, 0), &[x]);
        let wide = terms.mk(Op::SignExtend(24), &[low]);
        let neg = terms.mk(Op::BvNeg, &[x]);
        let minus_five = c(&mut terms, (-5i32) as u32 as u64);
        let bools = [
            // Written plainly: one C type and constants.
            terms.mk(Op::BvSlt, &[x, minus_five]),
            terms.mk(Op::BvUge, &[u, big]),
            terms.mk(Op::Eq, &[minus_five, x]),
            // Written as bit patterns.
            terms.mk(Op::BvSlt, &[x, u]),
            terms.mk(Op::BvUlt, &[x, u]),
            terms.mk(Op::BvSge, &[sum, prod]),
            terms.mk(Op::Eq, &[quot, rem]),
            terms.mk(Op::BvUle, &[shl, neg]),
            terms.mk(Op::BvSgt, &[wide, x]),
        ];
        let names = HashMap::from([
            (x, ("x".to_string(), CType::INT)),
            (u, ("u".to_string(), CType::int(32, false))),
        ]);
        let writer = Writer {
            terms: &terms,
            names: &names,
        };
        let pairs = [
            (0, 0),
            (-1, 5),
            (7, 4_294_967_295),
            (i32::MIN, 3),
            (i32::MAX, 31),
            (-300, 40),
            (12, 2),
            (-5, 4_294_967_280),
        ];
        for &b in &bools {
            let expr = writer.truth(b, 0).expect("written");
            let Some(values) = gcc_values(&expr, &pairs) else {
                return;
            };
            for (&(xv, uv), got) in pairs.iter().zip(values) {
                let mut eval = Evaluator::new(&terms);
                eval.set(x, Value::Bv(BvValue::from_u64(32, xv as u32 as u64)));
                eval.set(u, Value::Bv(BvValue::from_u64(32, uv as u64)));
                let want = eval.eval(b).unwrap().as_bool().unwrap() as u64;
                assert_eq!(got, want, "{expr} at x={xv} u={uv}");
            }
        }
    }

    #[test]
    fn variables_out_of_scope_drop_their_conjuncts() {
        let mut terms = Terms::new();
        let x = terms.var("x#1", Sort::BitVec(32));
        let tmp = terms.var("tmp#2", Sort::BitVec(32));
        let zero = terms.bv(BvValue::from_u64(32, 0));
        let a = terms.mk(Op::BvUlt, &[zero, x]);
        let b = terms.mk(Op::BvUlt, &[zero, tmp]);
        let both = terms.mk(Op::And, &[a, b]);
        let names = HashMap::from([(x, ("x".to_string(), CType::int(32, false)))]);
        let writer = Writer {
            terms: &terms,
            names: &names,
        };
        assert_eq!(writer.conjunction(both).as_deref(), Some("(0U < x)"));
        assert_eq!(writer.conjunction(b), None);
    }
}
