//! invar's SMT solver against z3 on random formulas of each supported
//! theory (QF_BV, QF_LIA, QF_LRA, QF_ABV with small arrays, blasted, and
//! with 32-bit indices, decided by lemmas on demand).
//!
//! For every formula: the same answer as z3; a `sat` answer's model makes
//! every assertion true under the reference evaluator (`ir::term::eval`,
//! which shares no code with the solver); an `unsat` answer's core (the
//! assertions are checked as assumptions) is unsatisfiable for z3 too.
//! z3 answers a whole batch in one process (push/pop per formula).
//!
//! `INVAR_SMT_RANDOM=N` runs N formulas per theory (the CI share is a few
//! hundred each, fixed seeds).

use invar::formats::smtlib::{Command, ScriptReader};
use invar::ir::term::eval::Value;
use invar::ir::term::Terms;
use invar::smt::inhouse::InvarSmt;
use invar::smt::{SmtResult, SmtSolver};
use invar::util::budget::Budget;
use invar::util::rng::Rng;
use std::process::Command as Process;
use std::time::Duration;

/// A random formula: declarations and assertions, as SMT-LIB text.
struct Formula {
    decls: String,
    asserts: Vec<String>,
}

fn pick<'a>(rng: &mut Rng, xs: &[&'a str]) -> &'a str {
    xs[rng.below(xs.len() as u64) as usize]
}

fn bv_const(rng: &mut Rng, w: u32) -> String {
    let bits: String = (0..w).map(|_| if rng.coin() { '1' } else { '0' }).collect();
    format!("#b{bits}")
}

fn bv_term(rng: &mut Rng, w: u32, vars: &[String], depth: u32) -> String {
    if depth == 0 || rng.below(4) == 0 {
        return if rng.below(3) == 0 {
            bv_const(rng, w)
        } else {
            vars[rng.below(vars.len() as u64) as usize].clone()
        };
    }
    let a = bv_term(rng, w, vars, depth - 1);
    let b = bv_term(rng, w, vars, depth - 1);
    match rng.below(6) {
        0 => format!("({} {a})", pick(rng, &["bvnot", "bvneg"])),
        1 => format!("(ite {} {a} {b})", bv_atom(rng, w, vars, depth - 1)),
        2 if w > 1 => {
            // Width-preserving slicing: extract the low bits of a concat.
            format!("((_ extract {} 0) (concat {a} {b}))", w - 1)
        }
        _ => {
            let op = pick(
                rng,
                &[
                    "bvadd", "bvsub", "bvmul", "bvand", "bvor", "bvxor", "bvshl", "bvlshr",
                    "bvashr", "bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod",
                ],
            );
            format!("({op} {a} {b})")
        }
    }
}

fn bv_atom(rng: &mut Rng, w: u32, vars: &[String], depth: u32) -> String {
    let a = bv_term(rng, w, vars, depth);
    let b = bv_term(rng, w, vars, depth);
    let op = pick(
        rng,
        &[
            "=", "bvult", "bvule", "bvslt", "bvsle", "distinct", "bvugt", "bvsge",
        ],
    );
    format!("({op} {a} {b})")
}

fn arith_term(rng: &mut Rng, vars: &[String], int: bool, depth: u32) -> String {
    let constant = |rng: &mut Rng| {
        let n = rng.below(21) as i64 - 10;
        let text = if int || rng.coin() {
            n.abs().to_string()
        } else {
            format!("(/ {} {})", n.abs(), 1 + rng.below(5))
        };
        // Real numerals are written as decimals.
        let text = if !int && !text.starts_with('(') {
            format!("{text}.0")
        } else {
            text
        };
        if n < 0 {
            format!("(- {text})")
        } else {
            text
        }
    };
    if depth == 0 || rng.below(3) == 0 {
        return if rng.below(4) == 0 {
            constant(rng)
        } else {
            vars[rng.below(vars.len() as u64) as usize].clone()
        };
    }
    let a = arith_term(rng, vars, int, depth - 1);
    let b = arith_term(rng, vars, int, depth - 1);
    match rng.below(if int { 7 } else { 5 }) {
        0 | 1 => format!("(+ {a} {b})"),
        2 => format!("(- {a} {b})"),
        3 => format!("(* {} {a})", constant(rng)),
        4 => format!("(ite {} {a} {b})", arith_atom(rng, vars, int, depth - 1)),
        5 => format!("({} {a} {})", pick(rng, &["div", "mod"]), 1 + rng.below(4)),
        _ => format!("(abs {a})"),
    }
}

fn arith_atom(rng: &mut Rng, vars: &[String], int: bool, depth: u32) -> String {
    let a = arith_term(rng, vars, int, depth);
    let b = arith_term(rng, vars, int, depth);
    let op = pick(rng, &["<=", "<", "=", ">=", ">", "distinct"]);
    format!("({op} {a} {b})")
}

fn array_term(rng: &mut Rng, arrays: &[String], bvs: &[String], depth: u32) -> String {
    if depth == 0 || rng.coin() {
        return arrays[rng.below(arrays.len() as u64) as usize].clone();
    }
    let a = array_term(rng, arrays, bvs, depth - 1);
    let i = bv_term(rng, 2, &bvs[..2], 1);
    let e = bv_term(rng, 4, &bvs[2..], 1);
    format!("(store {a} {i} {e})")
}

fn array_atom(rng: &mut Rng, arrays: &[String], bvs: &[String]) -> String {
    if rng.below(3) == 0 {
        let a = array_term(rng, arrays, bvs, 2);
        let b = array_term(rng, arrays, bvs, 2);
        return format!("(= {a} {b})");
    }
    let a = array_term(rng, arrays, bvs, 2);
    let i = bv_term(rng, 2, &bvs[..2], 1);
    let e = bv_term(rng, 4, &bvs[2..], 1);
    format!(
        "({} (select {a} {i}) {e})",
        pick(rng, &["=", "bvule", "distinct"])
    )
}

/// A 32-bit index from a pool that makes indices meet often.
fn wide_index(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => "i0".into(),
        1 => "i1".into(),
        2 => "#x00000000".into(),
        3 => "#x00000001".into(),
        4 => format!("(bvadd {} #x00000001)", pick(rng, &["i0", "i1"])),
        _ => format!("(ite (= e0 {}) i0 i1)", bv_const(rng, 4)),
    }
}

/// An array over 32-bit indices: variables, stores and `ite`s.
fn wide_array_term(rng: &mut Rng, depth: u32) -> String {
    if depth == 0 || rng.below(3) == 0 {
        return pick(rng, &["a0", "a1", "a2"]).into();
    }
    let a = wide_array_term(rng, depth - 1);
    if rng.below(4) == 0 {
        let b = wide_array_term(rng, depth - 1);
        let c = format!("(= {} {})", wide_index(rng), wide_index(rng));
        return format!("(ite {c} {a} {b})");
    }
    let i = wide_index(rng);
    let e = wide_element(rng, depth - 1);
    format!("(store {a} {i} {e})")
}

fn wide_element(rng: &mut Rng, depth: u32) -> String {
    match rng.below(4) {
        0 if depth > 0 => format!(
            "(select {} {})",
            wide_array_term(rng, depth - 1),
            wide_index(rng)
        ),
        1 => bv_const(rng, 4),
        _ => pick(rng, &["e0", "e1"]).into(),
    }
}

fn wide_array_atom(rng: &mut Rng) -> String {
    if rng.below(3) == 0 {
        let a = wide_array_term(rng, 3);
        let b = wide_array_term(rng, 3);
        return format!("(= {a} {b})");
    }
    let a = wide_array_term(rng, 3);
    let i = wide_index(rng);
    let e = wide_element(rng, 2);
    format!(
        "({} (select {a} {i}) {e})",
        pick(rng, &["=", "bvule", "distinct"])
    )
}

/// Boolean structure over atoms.
fn formula(rng: &mut Rng, atom: &mut dyn FnMut(&mut Rng) -> String) -> String {
    match rng.below(5) {
        0 => format!("(or {} {})", atom(rng), atom(rng)),
        1 => format!("(not {})", atom(rng)),
        2 => format!("(=> {} {})", atom(rng), atom(rng)),
        _ => atom(rng),
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Theory {
    Bv,
    Lia,
    Lra,
    Arrays,
    WideArrays,
}

fn random_formula(rng: &mut Rng, theory: Theory) -> Formula {
    let count = 1 + rng.below(5) as usize;
    match theory {
        Theory::Bv => {
            let w = [1u32, 3, 4, 8][rng.below(4) as usize];
            let vars: Vec<String> = (0..3).map(|i| format!("x{i}")).collect();
            let decls = vars
                .iter()
                .map(|v| format!("(declare-const {v} (_ BitVec {w}))"))
                .collect();
            let asserts = (0..count)
                .map(|_| formula(rng, &mut |r| bv_atom(r, w, &vars, 2)))
                .collect();
            Formula { decls, asserts }
        }
        Theory::Lia | Theory::Lra => {
            let int = matches!(theory, Theory::Lia);
            let sort = if int { "Int" } else { "Real" };
            let vars: Vec<String> = (0..3).map(|i| format!("x{i}")).collect();
            let decls = vars
                .iter()
                .map(|v| format!("(declare-const {v} {sort})"))
                .collect();
            let asserts = (0..count)
                .map(|_| formula(rng, &mut |r| arith_atom(r, &vars, int, 2)))
                .collect();
            Formula { decls, asserts }
        }
        Theory::Arrays => {
            let arrays: Vec<String> = (0..2).map(|i| format!("a{i}")).collect();
            let bvs: Vec<String> = vec!["i0".into(), "i1".into(), "e0".into(), "e1".into()];
            let mut decls: String = arrays
                .iter()
                .map(|a| format!("(declare-const {a} (Array (_ BitVec 2) (_ BitVec 4)))"))
                .collect();
            decls += "(declare-const i0 (_ BitVec 2))(declare-const i1 (_ BitVec 2))";
            decls += "(declare-const e0 (_ BitVec 4))(declare-const e1 (_ BitVec 4))";
            let asserts = (0..count)
                .map(|_| formula(rng, &mut |r| array_atom(r, &arrays, &bvs)))
                .collect();
            Formula { decls, asserts }
        }
        Theory::WideArrays => {
            // More assertions than the other theories: reads of three
            // arrays rarely clash in fewer.
            let count = count + 2 + rng.below(4) as usize;
            let mut decls: String = (0..3)
                .map(|i| format!("(declare-const a{i} (Array (_ BitVec 32) (_ BitVec 4)))"))
                .collect();
            decls += "(declare-const i0 (_ BitVec 32))(declare-const i1 (_ BitVec 32))";
            decls += "(declare-const e0 (_ BitVec 4))(declare-const e1 (_ BitVec 4))";
            let asserts = (0..count)
                .map(|_| formula(rng, &mut wide_array_atom))
                .collect();
            Formula { decls, asserts }
        }
    }
}

/// z3's answers to each group of assertions (each in its own scope).
fn z3_answers(groups: &[(String, Vec<String>)]) -> Vec<String> {
    let mut script = String::new();
    for (decls, asserts) in groups {
        script.push_str("(push 1)\n");
        script.push_str(decls);
        for a in asserts {
            script.push_str(&format!("(assert {a})\n"));
        }
        script.push_str("(check-sat)\n(pop 1)\n");
    }
    static BATCH: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = BATCH.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("invar-smt-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("batch{n}.smt2"));
    std::fs::write(&path, script).unwrap();
    let out = Process::new("z3")
        .arg(&path)
        .output()
        .expect("z3 runs (the test's oracle)");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let answers: Vec<String> = text.lines().map(|l| l.trim().to_string()).collect();
    assert_eq!(answers.len(), groups.len(), "z3 said: {text}");
    answers
}

/// Runs one theory; returns (sat, unsat) counts.
fn campaign(theory: Theory, seed: u64, count: usize) -> (usize, usize) {
    let mut rng = Rng::new(seed);
    let formulas: Vec<Formula> = (0..count)
        .map(|_| random_formula(&mut rng, theory))
        .collect();
    let groups: Vec<(String, Vec<String>)> = (formulas.iter())
        .map(|f| (f.decls.clone(), f.asserts.clone()))
        .collect();
    let expected = z3_answers(&groups);
    let mut cores: Vec<(String, Vec<String>)> = Vec::new();
    let (mut sat, mut unsat, mut unknown) = (0, 0, 0);
    for (n, f) in formulas.iter().enumerate() {
        let text = format!(
            "{}{}",
            f.decls,
            f.asserts
                .iter()
                .map(|a| format!("(assert {a})"))
                .collect::<String>()
        );
        let mut terms = Terms::new();
        let mut reader = ScriptReader::new("random", &text, &mut terms);
        let mut asserted = Vec::new();
        while let Some(c) = reader.next_command().expect("a well-formed formula") {
            if let Command::Assert { term, .. } = c {
                asserted.push(term);
            }
        }
        let terms = reader.terms();
        if std::env::var_os("SMT_TRACE").is_some() {
            eprintln!("{theory:?} #{n}: {text}");
        }
        let mut solver = InvarSmt::new(Budget::with_timeout(Duration::from_secs(5)));
        let answer = solver.check(terms, &asserted);
        let word = match &answer {
            SmtResult::Sat => "sat",
            SmtResult::Unsat => "unsat",
            SmtResult::Unknown(why) => {
                eprintln!("{theory:?} #{n}: unknown ({why}) on {text}");
                unknown += 1;
                continue;
            }
        };
        assert_eq!(
            word, expected[n],
            "{theory:?} #{n}: invar {word}, z3 {} on {text}",
            expected[n]
        );
        match answer {
            SmtResult::Sat => {
                sat += 1;
                for &a in &asserted {
                    assert_eq!(
                        solver.value(terms, a),
                        Ok(Value::Bool(true)),
                        "{theory:?} #{n}: the model falsifies an assertion of {text}"
                    );
                }
            }
            _ => {
                unsat += 1;
                let core = solver.unsat_core();
                let kept: Vec<String> = (asserted.iter().zip(&f.asserts))
                    .filter(|(t, _)| core.contains(t))
                    .map(|(_, a)| a.clone())
                    .collect();
                cores.push((f.decls.clone(), kept));
            }
        }
    }
    // Every core is unsatisfiable on its own, for z3.
    for (k, answer) in z3_answers(&cores).iter().enumerate() {
        assert_eq!(
            answer, "unsat",
            "{theory:?}: core {:?} is not unsat for z3",
            cores[k].1
        );
    }
    // Linear integer arithmetic is decided by splits and cuts, which can
    // run out of time on some formulas (an answer of unknown, never a wrong
    // one); measured: 2 of 1,000 (seed 12). Every other theory is complete.
    let allowed = if theory == Theory::Lia {
        count / 100
    } else {
        0
    };
    assert!(
        unknown <= allowed,
        "{theory:?}: {unknown} unknown of {count} (at most {allowed})"
    );
    (sat, unsat)
}

fn share() -> usize {
    std::env::var("INVAR_SMT_RANDOM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

#[test]
fn random_bit_vector_formulas_agree_with_z3() {
    let (sat, unsat) = campaign(Theory::Bv, 11, share());
    eprintln!("QF_BV: {sat} sat, {unsat} unsat");
    assert!(sat > 0 && unsat > 0);
}

#[test]
fn random_integer_formulas_agree_with_z3() {
    let (sat, unsat) = campaign(Theory::Lia, 12, share());
    eprintln!("QF_LIA: {sat} sat, {unsat} unsat");
    assert!(sat > 0 && unsat > 0);
}

#[test]
fn random_real_formulas_agree_with_z3() {
    let (sat, unsat) = campaign(Theory::Lra, 13, share());
    eprintln!("QF_LRA: {sat} sat, {unsat} unsat");
    assert!(sat > 0 && unsat > 0);
}

#[test]
fn random_wide_array_formulas_agree_with_z3() {
    let (sat, unsat) = campaign(Theory::WideArrays, 15, share());
    eprintln!("QF_ABV, 32-bit indices: {sat} sat, {unsat} unsat");
    assert!(sat > 0 && unsat > 0);
}

#[test]
fn random_array_formulas_agree_with_z3() {
    let (sat, unsat) = campaign(Theory::Arrays, 14, share());
    eprintln!("QF_ABV: {sat} sat, {unsat} unsat");
    assert!(sat > 0 && unsat > 0);
}
