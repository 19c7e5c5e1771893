//! Sort checking: the result sort of each operator, or why it does not apply.

use super::{Op, Sort};
use std::fmt;

/// An ill-sorted application: the operator and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortError(pub String);

impl fmt::Display for SortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SortError {}

impl Op {
    /// The SMT-LIB name of the operator (leaves and indexed operators included).
    pub fn smt_name(&self) -> &'static str {
        use Op::*;
        match self {
            Var(..) => "var",
            Bool(_) => "bool",
            Bv(_) => "bv",
            Num(..) => "num",
            ConstArray(_) => "const",
            Not => "not",
            And => "and",
            Or => "or",
            Xor => "xor",
            Implies => "=>",
            Eq => "=",
            Distinct => "distinct",
            Ite => "ite",
            BvNot => "bvnot",
            BvNeg => "bvneg",
            BvAnd => "bvand",
            BvOr => "bvor",
            BvXor => "bvxor",
            BvNand => "bvnand",
            BvNor => "bvnor",
            BvXnor => "bvxnor",
            BvAdd => "bvadd",
            BvSub => "bvsub",
            BvMul => "bvmul",
            BvUdiv => "bvudiv",
            BvUrem => "bvurem",
            BvSdiv => "bvsdiv",
            BvSrem => "bvsrem",
            BvSmod => "bvsmod",
            BvShl => "bvshl",
            BvLshr => "bvlshr",
            BvAshr => "bvashr",
            BvRol => "bvrol",
            BvRor => "bvror",
            Concat => "concat",
            Extract(..) => "extract",
            ZeroExtend(_) => "zero_extend",
            SignExtend(_) => "sign_extend",
            RotateLeft(_) => "rotate_left",
            RotateRight(_) => "rotate_right",
            Repeat(_) => "repeat",
            BvComp => "bvcomp",
            BvUlt => "bvult",
            BvUle => "bvule",
            BvUgt => "bvugt",
            BvUge => "bvuge",
            BvSlt => "bvslt",
            BvSle => "bvsle",
            BvSgt => "bvsgt",
            BvSge => "bvsge",
            BvRedAnd => "bvredand",
            BvRedOr => "bvredor",
            BvRedXor => "bvredxor",
            BvUaddo => "bvuaddo",
            BvSaddo => "bvsaddo",
            BvUsubo => "bvusubo",
            BvSsubo => "bvssubo",
            BvUmulo => "bvumulo",
            BvSmulo => "bvsmulo",
            BvSdivo => "bvsdivo",
            Neg => "-",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            IntDiv => "div",
            Mod => "mod",
            Abs => "abs",
            Le => "<=",
            Lt => "<",
            Ge => ">=",
            Gt => ">",
            ToReal => "to_real",
            ToInt => "to_int",
            IsInt => "is_int",
            Select => "select",
            Store => "store",
        }
    }
}

fn err(op: &Op, args: &[&Sort], what: &str) -> SortError {
    let sorts: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    SortError(format!(
        "`{}` {what}, got ({})",
        op.smt_name(),
        sorts.join(", ")
    ))
}

/// The error of an operator whose result is wider than [`super::MAX_BV_WIDTH`].
const WIDER: &str = "gives a width above 2^20 bits (invar's limit)";

/// The sort of `op` applied to arguments of `args` sorts.
pub(super) fn result_sort(op: &Op, args: &[&Sort]) -> Result<Sort, SortError> {
    use Op::*;
    let arity = |n: usize| -> Result<(), SortError> {
        if args.len() == n {
            Ok(())
        } else {
            Err(err(op, args, &format!("takes {n} argument(s)")))
        }
    };
    let at_least = |n: usize| -> Result<(), SortError> {
        if args.len() >= n {
            Ok(())
        } else {
            Err(err(op, args, &format!("takes at least {n} arguments")))
        }
    };
    let all_bool = || args.iter().all(|s| **s == Sort::Bool);
    // The common width of bit-vector arguments, if they all have one.
    let same_bv = || -> Result<u32, SortError> {
        match args.first().and_then(|s| s.bv_width()) {
            Some(w) if args.iter().all(|s| s.bv_width() == Some(w)) => Ok(w),
            _ => Err(err(op, args, "needs bit-vectors of one width")),
        }
    };
    let arith = || -> Result<Sort, SortError> {
        match args.first() {
            Some(s @ (Sort::Int | Sort::Real)) if args.iter().all(|a| a == s) => Ok((*s).clone()),
            _ => Err(err(op, args, "needs Int or Real arguments of one sort")),
        }
    };
    match op {
        Var(_, s) | Num(_, s) => {
            arity(0)?;
            Ok(s.clone())
        }
        Bool(_) => arity(0).map(|_| Sort::Bool),
        Bv(v) => arity(0).map(|_| Sort::BitVec(v.width())),
        ConstArray(s) => {
            arity(1)?;
            match s {
                Sort::Array(_, e) if **e == *args[0] => Ok(s.clone()),
                _ => Err(err(
                    op,
                    args,
                    &format!("of sort {s} needs its element value"),
                )),
            }
        }
        Not => {
            arity(1)?;
            if all_bool() {
                Ok(Sort::Bool)
            } else {
                Err(err(op, args, "needs Bool"))
            }
        }
        And | Or | Xor | Implies => {
            at_least(2)?;
            if all_bool() {
                Ok(Sort::Bool)
            } else {
                Err(err(op, args, "needs Bool arguments"))
            }
        }
        Eq | Distinct => {
            at_least(2)?;
            if args.iter().all(|s| *s == args[0]) {
                Ok(Sort::Bool)
            } else {
                Err(err(op, args, "needs arguments of one sort"))
            }
        }
        Ite => {
            arity(3)?;
            if *args[0] == Sort::Bool && args[1] == args[2] {
                Ok(args[1].clone())
            } else {
                Err(err(
                    op,
                    args,
                    "needs a Bool condition and two branches of one sort",
                ))
            }
        }
        BvNot | BvNeg => {
            arity(1)?;
            same_bv().map(Sort::BitVec)
        }
        BvAnd | BvOr | BvXor | BvAdd | BvMul => {
            at_least(2)?;
            same_bv().map(Sort::BitVec)
        }
        BvNand | BvNor | BvXnor | BvSub | BvUdiv | BvUrem | BvSdiv | BvSrem | BvSmod | BvShl
        | BvLshr | BvAshr | BvRol | BvRor => {
            arity(2)?;
            same_bv().map(Sort::BitVec)
        }
        BvComp => {
            arity(2)?;
            same_bv().map(|_| Sort::BitVec(1))
        }
        BvUlt | BvUle | BvUgt | BvUge | BvSlt | BvSle | BvSgt | BvSge | BvUaddo | BvSaddo
        | BvUsubo | BvSsubo | BvUmulo | BvSmulo | BvSdivo => {
            arity(2)?;
            same_bv().map(|_| Sort::Bool)
        }
        BvRedAnd | BvRedOr | BvRedXor => {
            arity(1)?;
            same_bv().map(|_| Sort::BitVec(1))
        }
        Concat => {
            at_least(2)?;
            let mut total: u64 = 0;
            for s in args {
                match s.bv_width() {
                    Some(w) => total += w as u64,
                    None => return Err(err(op, args, "needs bit-vectors")),
                }
            }
            u32::try_from(total)
                .ok()
                .filter(|&w| w <= super::MAX_BV_WIDTH)
                .map(Sort::BitVec)
                .ok_or_else(|| err(op, args, WIDER))
        }
        Extract(hi, lo) => {
            arity(1)?;
            let w = same_bv()?;
            if lo <= hi && *hi < w {
                Ok(Sort::BitVec(hi - lo + 1))
            } else {
                Err(err(
                    op,
                    args,
                    &format!("needs lo <= hi < width, not {hi}..{lo}"),
                ))
            }
        }
        ZeroExtend(n) | SignExtend(n) => {
            arity(1)?;
            let w = same_bv()?;
            w.checked_add(*n)
                .filter(|&w| w <= super::MAX_BV_WIDTH)
                .map(Sort::BitVec)
                .ok_or_else(|| err(op, args, WIDER))
        }
        RotateLeft(_) | RotateRight(_) => {
            arity(1)?;
            same_bv().map(Sort::BitVec)
        }
        Repeat(n) => {
            arity(1)?;
            let w = same_bv()?;
            match w.checked_mul(*n) {
                Some(r) if r > 0 && r <= super::MAX_BV_WIDTH => Ok(Sort::BitVec(r)),
                _ => Err(err(
                    op,
                    args,
                    "needs a count of at least 1 and a result of at most 2^20 bits (invar's limit)",
                )),
            }
        }
        Neg | Abs => {
            arity(1)?;
            arith()
        }
        Add | Mul => {
            at_least(2)?;
            arith()
        }
        Sub => {
            at_least(2)?;
            arith()
        }
        Div => {
            at_least(2)?;
            match arith()? {
                Sort::Real => Ok(Sort::Real),
                _ => Err(err(op, args, "needs Real arguments")),
            }
        }
        IntDiv | Mod => {
            arity(2)?;
            match arith()? {
                Sort::Int => Ok(Sort::Int),
                _ => Err(err(op, args, "needs Int arguments")),
            }
        }
        Le | Lt | Ge | Gt => {
            at_least(2)?;
            arith().map(|_| Sort::Bool)
        }
        ToReal => {
            arity(1)?;
            match args[0] {
                Sort::Int => Ok(Sort::Real),
                _ => Err(err(op, args, "needs Int")),
            }
        }
        ToInt | IsInt => {
            arity(1)?;
            match (args[0], op) {
                (Sort::Real, ToInt) => Ok(Sort::Int),
                (Sort::Real, _) => Ok(Sort::Bool),
                _ => Err(err(op, args, "needs Real")),
            }
        }
        Select => {
            arity(2)?;
            match args[0] {
                Sort::Array(i, e) if **i == *args[1] => Ok((**e).clone()),
                _ => Err(err(
                    op,
                    args,
                    "needs an array and an index of its index sort",
                )),
            }
        }
        Store => {
            arity(3)?;
            match args[0] {
                Sort::Array(i, e) if **i == *args[1] && **e == *args[2] => Ok(args[0].clone()),
                _ => Err(err(
                    op,
                    args,
                    "needs an array, an index and an element of its sorts",
                )),
            }
        }
    }
}
