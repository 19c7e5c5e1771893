//! The word-level reference semantics against z3, and the bit-blaster against
//! the reference semantics.
//!
//! z3 (Debian package `z3`, installed by `.ci/run`) simplifies random ground
//! terms of every bit-vector operator at widths 1, 7, 8, 32, 64, 65 and 128;
//! invar's evaluator must give the same value. Operators z3 4.8 lacks
//! (overflow predicates, `bvredxor`) are sent to z3 in their SMT-LIB
//! definition, written here from the standard, not from invar's code.

use invar::bitblast::blast_terms;
use invar::ir::aig::lit_value;
use invar::ir::bv::BvValue;
use invar::ir::term::eval::{Evaluator, Value};
use invar::ir::term::{Op, Sort, Term, Terms};
use invar::util::rng::Rng;
use std::io::Write;
use std::process::{Command, Stdio};

const WIDTHS: [u32; 7] = [1, 7, 8, 32, 64, 65, 128];

/// Random values biased to the edges: 0, 1, all ones, the signed extremes.
fn random_value(rng: &mut Rng, w: u32) -> BvValue {
    let mut v = BvValue::zero(w);
    match rng.below(8) {
        0 => {}
        1 => v = BvValue::from_u64(w, 1),
        2 => v = BvValue::ones(w),
        3 => v.set_bit(w - 1, true),
        4 => v = BvValue::ones(w).lshr_by(1),
        5 => v = BvValue::from_u64(w, rng.below(w as u64 + 2)),
        _ => {
            for i in 0..w {
                v.set_bit(i, rng.coin());
            }
        }
    }
    v
}

fn lit(v: &BvValue) -> String {
    format!("#b{}", v.to_binary())
}

/// An operator case: how invar builds it and how z3 is asked for it.
struct Case {
    op: Op,
    arity: usize,
    /// z3's text given the argument literals and the width.
    z3: fn(&[String], u32) -> String,
}

fn cases() -> Vec<Case> {
    macro_rules! plain {
        ($op:expr, $arity:expr, $name:expr) => {
            Case {
                op: $op,
                arity: $arity,
                z3: |a, _| format!("({} {})", $name, a.join(" ")),
            }
        };
    }
    use Op::*;
    vec![
        plain!(BvNot, 1, "bvnot"),
        plain!(BvNeg, 1, "bvneg"),
        plain!(BvAnd, 2, "bvand"),
        plain!(BvOr, 2, "bvor"),
        plain!(BvXor, 2, "bvxor"),
        plain!(BvNand, 2, "bvnand"),
        plain!(BvNor, 2, "bvnor"),
        plain!(BvXnor, 2, "bvxnor"),
        plain!(BvAdd, 2, "bvadd"),
        plain!(BvSub, 2, "bvsub"),
        plain!(BvMul, 2, "bvmul"),
        plain!(BvUdiv, 2, "bvudiv"),
        plain!(BvUrem, 2, "bvurem"),
        plain!(BvSdiv, 2, "bvsdiv"),
        plain!(BvSrem, 2, "bvsrem"),
        plain!(BvSmod, 2, "bvsmod"),
        plain!(BvShl, 2, "bvshl"),
        plain!(BvLshr, 2, "bvlshr"),
        plain!(BvAshr, 2, "bvashr"),
        plain!(BvRol, 2, "ext_rotate_left"),
        plain!(BvRor, 2, "ext_rotate_right"),
        plain!(Concat, 2, "concat"),
        plain!(BvComp, 2, "bvcomp"),
        plain!(BvUlt, 2, "bvult"),
        plain!(BvUle, 2, "bvule"),
        plain!(BvUgt, 2, "bvugt"),
        plain!(BvUge, 2, "bvuge"),
        plain!(BvSlt, 2, "bvslt"),
        plain!(BvSle, 2, "bvsle"),
        plain!(BvSgt, 2, "bvsgt"),
        plain!(BvSge, 2, "bvsge"),
        plain!(Eq, 2, "="),
        plain!(Distinct, 2, "distinct"),
        plain!(BvRedAnd, 1, "bvredand"),
        plain!(BvRedOr, 1, "bvredor"),
        Case {
            op: BvRedXor,
            arity: 1,
            z3: |a, w| {
                let bits: Vec<String> = (0..w)
                    .map(|i| format!("((_ extract {i} {i}) {})", a[0]))
                    .collect();
                if w == 1 {
                    bits[0].clone()
                } else {
                    format!("(bvxor {})", bits.join(" "))
                }
            },
        },
        Case {
            op: BvUaddo,
            arity: 2,
            z3: |a, w| {
                format!(
                    "(= ((_ extract {w} {w}) (bvadd ((_ zero_extend 1) {}) ((_ zero_extend 1) {}))) #b1)",
                    a[0], a[1]
                )
            },
        },
        Case {
            op: BvSaddo,
            arity: 2,
            z3: |a, _| {
                format!(
                    "(not (= (bvadd ((_ sign_extend 1) {0}) ((_ sign_extend 1) {1})) ((_ sign_extend 1) (bvadd {0} {1}))))",
                    a[0], a[1]
                )
            },
        },
        Case {
            op: BvUsubo,
            arity: 2,
            z3: |a, _| format!("(bvult {} {})", a[0], a[1]),
        },
        Case {
            op: BvSsubo,
            arity: 2,
            z3: |a, _| {
                format!(
                    "(not (= (bvsub ((_ sign_extend 1) {0}) ((_ sign_extend 1) {1})) ((_ sign_extend 1) (bvsub {0} {1}))))",
                    a[0], a[1]
                )
            },
        },
        Case {
            op: BvUmulo,
            arity: 2,
            z3: |a, w| {
                format!(
                    "(not (= (bvmul ((_ zero_extend {w}) {0}) ((_ zero_extend {w}) {1})) ((_ zero_extend {w}) (bvmul {0} {1}))))",
                    a[0], a[1]
                )
            },
        },
        Case {
            op: BvSmulo,
            arity: 2,
            z3: |a, w| {
                format!(
                    "(not (= (bvmul ((_ sign_extend {w}) {0}) ((_ sign_extend {w}) {1})) ((_ sign_extend {w}) (bvmul {0} {1}))))",
                    a[0], a[1]
                )
            },
        },
        Case {
            op: BvSdivo,
            arity: 2,
            z3: |a, w| {
                let min = format!("(bvshl (_ bv1 {w}) (_ bv{} {w}))", w - 1);
                format!("(and (= {} {min}) (= {} (bvnot (_ bv0 {w}))))", a[0], a[1])
            },
        },
    ]
}

/// Indexed operators with random indices valid for width `w`.
fn indexed(rng: &mut Rng, w: u32) -> Vec<(Op, String)> {
    let hi = rng.below(w as u64) as u32;
    let lo = rng.below(hi as u64 + 1) as u32;
    let k = rng.below(3 * w as u64) as u32;
    let e = rng.below(40) as u32;
    let r = 1 + rng.below(3) as u32;
    vec![
        (Op::Extract(hi, lo), format!("(_ extract {hi} {lo})")),
        (Op::ZeroExtend(e), format!("(_ zero_extend {e})")),
        (Op::SignExtend(e), format!("(_ sign_extend {e})")),
        (Op::RotateLeft(k), format!("(_ rotate_left {k})")),
        (Op::RotateRight(k), format!("(_ rotate_right {k})")),
        (Op::Repeat(r), format!("(_ repeat {r})")),
    ]
}

/// Parses z3's printed value: `true`, `false`, `#b…` or `#x…`.
fn parse_z3(text: &str, width: Option<u32>) -> Value {
    match text {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ if text.starts_with("#b") => Value::Bv(BvValue::from_binary(&text[2..]).expect("binary")),
        _ if text.starts_with("#x") => {
            let w = width.expect("a bit-vector result");
            Value::Bv(BvValue::from_hex(w, &text[2..]).expect("hex"))
        }
        _ => panic!("unexpected z3 output `{text}`"),
    }
}

#[test]
fn evaluator_agrees_with_z3_on_every_bit_vector_operator() {
    let mut rng = Rng::new(2026);
    let mut terms = Terms::new();
    let mut queries: Vec<(Term, String)> = Vec::new();
    for &w in &WIDTHS {
        for case in cases() {
            for _ in 0..6 {
                let vals: Vec<BvValue> =
                    (0..case.arity).map(|_| random_value(&mut rng, w)).collect();
                let args: Vec<Term> = vals.iter().map(|v| terms.bv(v.clone())).collect();
                let t = terms.app(case.op.clone(), &args).expect("well-sorted");
                let texts: Vec<String> = vals.iter().map(lit).collect();
                queries.push((t, (case.z3)(&texts, w)));
            }
        }
        for _ in 0..4 {
            let v = random_value(&mut rng, w);
            for (op, name) in indexed(&mut rng, w) {
                let a = terms.bv(v.clone());
                let t = terms.app(op, &[a]).expect("well-sorted");
                queries.push((t, format!("({name} {})", lit(&v))));
            }
        }
    }
    let mut script = String::new();
    for (_, q) in &queries {
        script += &format!("(simplify {q})\n");
    }
    let mut child = match Command::new("z3")
        .args(["-in", "-smt2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => panic!("this test needs z3 (apt-get install z3; .ci/run installs it): {e}"),
    };
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write to z3");
    let out = child.wait_with_output().expect("z3 runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let answers: Vec<&str> = text.lines().map(str::trim).collect();
    assert_eq!(answers.len(), queries.len(), "z3 answered {text}");
    let mut ev = Evaluator::new(&terms);
    let mut per_op = std::collections::BTreeMap::new();
    for ((t, q), answer) in queries.iter().zip(&answers) {
        let width = terms.sort(*t).bv_width();
        let expected = parse_z3(answer, width);
        let got = ev.eval(*t).expect("ground terms evaluate");
        assert_eq!(got, expected, "{q}: invar gives {got}, z3 gives {answer}");
        *per_op.entry(terms.op(*t).smt_name()).or_insert(0) += 1;
    }
    // Every operator of the table was exercised at every width.
    assert!(per_op.len() >= 47, "operators covered: {per_op:?}");
}

#[test]
fn bit_blasted_circuits_compute_what_the_evaluator_computes() {
    let mut rng = Rng::new(7);
    for &w in &[1u32, 3, 7, 8, 33, 65] {
        let mut terms = Terms::new();
        let a = terms.var("a", Sort::BitVec(w));
        let b = terms.var("b", Sort::BitVec(w));
        let mut roots = Vec::new();
        for case in cases() {
            let args = if case.arity == 1 { vec![a] } else { vec![a, b] };
            roots.push(terms.app(case.op, &args).expect("well-sorted"));
        }
        for (op, _) in indexed(&mut rng, w) {
            roots.push(terms.app(op, &[a]).expect("well-sorted"));
        }
        let (aig, words) = blast_terms(&terms, &[a, b], &roots).expect("blastable");
        for _ in 0..40 {
            let (va, vb) = (random_value(&mut rng, w), random_value(&mut rng, w));
            let bits: Vec<bool> = (0..w)
                .map(|i| va.bit(i))
                .chain((0..w).map(|i| vb.bit(i)))
                .collect();
            let values = aig.eval(&bits, &[]);
            let mut ev = Evaluator::new(&terms);
            ev.set(a, Value::Bv(va.clone()));
            ev.set(b, Value::Bv(vb.clone()));
            for (&r, word) in roots.iter().zip(&words) {
                let circuit: Vec<bool> = word.iter().map(|&l| lit_value(&values, l)).collect();
                let expected = match ev.eval(r).expect("evaluates") {
                    Value::Bool(x) => vec![x],
                    Value::Bv(v) => (0..v.width()).map(|i| v.bit(i)).collect(),
                    other => panic!("unexpected {other}"),
                };
                assert_eq!(
                    circuit,
                    expected,
                    "{} at width {w} on {va:?}, {vb:?}",
                    terms.op(r).smt_name()
                );
            }
        }
    }
}
