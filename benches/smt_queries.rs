//! invar's SMT solver on one query of each kind it answers most: a
//! bit-blasted bit-vector query (one the word-level engine asked) and a
//! linear real arithmetic query decided by the simplex (a random system of
//! two-variable inequalities with disjunctions). Each iteration starts a
//! fresh solver, so blasting and tableau building are part of the time.

use criterion::{criterion_group, criterion_main, Criterion};
use invar::smt::inhouse::InvarSmt;
use invar::smt::script;
use invar::util::budget::Budget;
use std::fmt::Write;
use std::hint::black_box;

/// A BMC query the word-level engine asked on a VMT model (see the file).
const BV_QUERY: &str = include_str!("data/bv_madwifi_bmc7.smt2");

/// 40 reals, 120 inequalities `a·x_i + b·x_j ≤ c` in pairs of disjunctions,
/// from a fixed linear congruential sequence.
fn lra_query() -> String {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    let mut text = String::new();
    for i in 0..40 {
        let _ = writeln!(text, "(declare-fun x{i} () Real)");
    }
    let atom = |next: &mut dyn FnMut(u64) -> u64| {
        let (i, j) = (next(40), next(40));
        let (a, b, c) = (next(9) as i64 - 4, next(9) as i64 - 4, next(41) as i64 - 20);
        let num = |n: i64| {
            if n < 0 {
                format!("(- {}.0)", -n)
            } else {
                format!("{n}.0")
            }
        };
        format!(
            "(<= (+ (* {} x{i}) (* {} x{j})) {})",
            num(a),
            num(b),
            num(c)
        )
    };
    for _ in 0..60 {
        let (p, q) = (atom(&mut next), atom(&mut next));
        let _ = writeln!(text, "(assert (or {p} {q}))");
    }
    text + "(check-sat)\n"
}

fn answer(text: &str) -> String {
    let mut solver = InvarSmt::new(Budget::unlimited());
    let mut out = Vec::new();
    script::run("bench", text, &mut solver, &mut out).expect("writes to memory");
    String::from_utf8(out).expect("text")
}

fn bench_smt(c: &mut Criterion) {
    assert_eq!(answer(BV_QUERY), "sat\n");
    let lra = lra_query();
    let expected = answer(&lra);
    assert!(expected == "sat\n" || expected == "unsat\n", "{expected}");
    let mut group = c.benchmark_group("smt");
    group.sample_size(20);
    group.bench_function("bit-blasted query (BMC step 7 of a VMT model, sat)", |b| {
        b.iter(|| black_box(answer(BV_QUERY)))
    });
    group.bench_function(
        format!("simplex query (40 reals, {})", expected.trim()),
        |b| b.iter(|| black_box(answer(&lra))),
    );
    group.finish();
}

criterion_group!(benches, bench_smt);
criterion_main!(benches);
