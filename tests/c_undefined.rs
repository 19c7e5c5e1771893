//! Undefined behaviour read as SV-COMP reads it: an execution ends where it
//! performs undefined behaviour, so a path through it is no counterexample
//! (and `--wrap-signed` reads signed overflow as gcc's `-fwrapv` does).
//!
//! The oracle is gcc with its undefined-behaviour sanitizer: each program
//! has two `int` inputs, and the harness runs it once per pair of boundary
//! values (a process each, since the sanitizer ends the run where the
//! behaviour is undefined, as SV-COMP does): `false` if some run reaches
//! `reach_error`, else `true`. The programs are written so that boundary
//! values decide them (the overflows need `INT_MAX`, `INT_MIN` or 46341,
//! whose square is the first above `INT_MAX`). invar must give gcc's
//! verdict under `auto`, and each engine alone never the other one.

mod common;

use std::path::Path;
use std::process::Command;

/// The values each input takes in the harness.
const VALUES: &[&str] = &[
    "INT_MIN",
    "INT_MIN + 1",
    "-46341",
    "-2",
    "-1",
    "0",
    "1",
    "2",
    "5",
    "31",
    "32",
    "46341",
    "65536",
    "INT_MAX - 1",
    "INT_MAX",
];

/// Programs over `x` and `y`, each with what it tests.
const PROGRAMS: &[(&str, &str)] = &[
    (
        "signed + overflows",
        "if (x > 0) { int z = x + 1; if (z < 0) reach_error(); }",
    ),
    (
        "a doubling loop overflows (the issue's example)",
        "int a = 1, b = 1; for (int i = 0; i < x && i < 40; i++) { a = a + b; b = a; }\n\
         if (b < 1) reach_error();",
    ),
    (
        "signed * overflows",
        "if (x > 46340 && x < 50000) { int s = x * x; if (s < 0) reach_error(); }",
    ),
    (
        "signed - overflows",
        "if (x < 0) { int z = x - INT_MAX; if (z > 0) reach_error(); }",
    ),
    (
        "unary - of INT_MIN",
        "if (x < 0) { int z = -x; if (z < 0) reach_error(); }",
    ),
    (
        "++ past INT_MAX",
        "int i = x; if (i == INT_MAX) { i++; if (i < 0) reach_error(); }",
    ),
    (
        "-- past INT_MIN",
        "int i = x; if (i < -1) { --i; if (i > 0) reach_error(); }",
    ),
    (
        "*= overflows",
        "int z = x; z *= 2; if (x > 0 && z < 0) reach_error();",
    ),
    (
        "division by zero",
        "int q = 100 / x; if (x == 0) reach_error();",
    ),
    (
        "remainder by zero, unsigned",
        "unsigned r = 100u % (unsigned)x; if (x == 0) reach_error();",
    ),
    (
        "INT_MIN / -1",
        "if (y == -1) { int q = x / y; if (x == INT_MIN) reach_error(); }",
    ),
    (
        "INT_MIN % -1",
        "if (y == -1) { int r = x % y; if (x == INT_MIN) reach_error(); }",
    ),
    (
        "a shift by the width or more",
        "if (y >= 0) { unsigned u = 1u << y; if (y >= 32) reach_error(); }",
    ),
    (
        "a shift by a negative amount",
        "unsigned u = 8u >> y; if (y < 0) reach_error();",
    ),
    (
        "a signed left shift that overflows",
        "if (x > 0) { int z = x << 1; if (z < 0) reach_error(); }",
    ),
    (
        "a left shift of a negative value",
        "if (x < 0) { int z = x << 1; reach_error(); }",
    ),
    (
        "&& does not evaluate its right operand",
        "if (x == 0 || 100 / x < 1000) { if (x == 0) reach_error(); }",
    ),
    (
        "?: evaluates one branch",
        "int w = (x == 0) ? 7 : 100 / x; if (w == 7 && x == 0) reach_error();",
    ),
    (
        "an operand of || whose value decides",
        "int t = (x != 0 && 10 / x > 1) || y > 0; if (x == 0 && t == 0) reach_error();",
    ),
    (
        "sizeof does not evaluate its operand",
        "int s = sizeof(100 / x); if (x == 0 && s == 4) reach_error();",
    ),
    (
        "unsigned arithmetic wraps, defined",
        "unsigned u = x; u = u + 1; if (x == -1 && u == 0) reach_error();",
    ),
    (
        "promotion keeps char arithmetic in range",
        "signed char c = 100; int d = c + c; if (x == 1 && d == 200) reach_error();",
    ),
    (
        "an overflow after the error is too late",
        "if (x == 5) reach_error(); int z = x + INT_MAX;",
    ),
    (
        "an overflow on another path",
        "int z = 0; if (x > 0) z = x * x; else if (x == -2) reach_error();",
    ),
];

/// Compiles the harness for `body` with `flags` and returns gcc's verdict
/// on unreach-call: `false` if a run reaches `reach_error`, else `true`;
/// or with `overflow` on no-overflow: `false` if the sanitizer reports a
/// value that cannot be represented (a signed overflow, of `+ - *`, `-`,
/// `<<` or `INT_MIN / -1`) in some run, which `reach_error` ends.
fn gcc_verdict(dir: &Path, name: &str, body: &str, flags: &[&str], overflow: bool) -> String {
    let reached = if overflow { "" } else { "puts(\"false\"); " };
    let program = common::two_input_harness(VALUES, reached, body);
    // The sanitizer needs libubsan (.ci/run installs it where missing).
    let flags: Vec<&str> = ["-O0", "-fno-sanitize-recover=all"]
        .into_iter()
        .chain(flags.iter().copied())
        .collect();
    let exe = common::gcc_compile(dir, name, &program, &flags);
    for input in 0..VALUES.len() * VALUES.len() {
        let run = Command::new(&exe).arg(input.to_string()).output().unwrap();
        let overflowed = String::from_utf8_lossy(&run.stderr).contains("cannot be represented");
        if String::from_utf8_lossy(&run.stdout).trim() == "false" || overflow && overflowed {
            return "false".into();
        }
    }
    "true".into()
}

/// invar's verdict on `body`, with `extra` arguments.
fn invar_verdict(dir: &Path, name: &str, body: &str, extra: &[&str]) -> (String, String) {
    let program = format!(
        "#include <limits.h>\nextern void reach_error(void);\n\
         extern int __VERIFIER_nondet_int(void);\nint main(void) {{\n\
         int x = __VERIFIER_nondet_int();\n  int y = __VERIFIER_nondet_int();\n\
         {body}\n  return 0;\n}}\n"
    );
    let mut args = extra.to_vec();
    if !extra.contains(&"--timeout") {
        args.extend(["--timeout", "20"]);
    }
    common::check_c(&program, &dir.join(format!("{name}-invar.c")), &args)
}

/// Every program under SV-COMP's reading (gcc with the sanitizer for every
/// kind of undefined behaviour) and under `--wrap-signed` (gcc with
/// `-fwrapv`, the sanitizer for division by zero and shift amounts only);
/// then each engine alone under SV-COMP's reading, which may answer unknown
/// but never the other verdict (explicit execution cannot prove these: it
/// gets two seconds of tests).
#[test]
fn undefined_behaviour_ends_the_execution_as_gcc_sanitizer_says() {
    let dir = std::env::temp_dir().join(format!("invar-c-undefined-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let modes: [(&[&str], &[&str]); 2] = [
        (&["-fsanitize=undefined"], &[]),
        (
            &[
                "-fwrapv",
                "-fsanitize=integer-divide-by-zero,shift-exponent",
            ],
            &["--wrap-signed"],
        ),
    ];
    let engines: [&[&str]; 4] = [
        &["--engine", "ic3cfa", "--timeout", "5"],
        &["--engine", "explicit", "--timeout", "2"],
        &["--engine", "ic3ia", "--timeout", "5"],
        &["--engine", "smt", "--timeout", "5"],
    ];
    let mut differ = 0;
    let mut overflows = 0;
    for (n, (what, body)) in PROGRAMS.iter().enumerate() {
        let mut expected = Vec::new();
        for (m, (gcc_flags, invar_flags)) in modes.iter().enumerate() {
            let name = format!("p{n}m{m}");
            let want = gcc_verdict(&dir, &name, body, gcc_flags, false);
            let (got, detail) = invar_verdict(&dir, &name, body, invar_flags);
            assert_eq!(
                got, want,
                "{what} ({invar_flags:?}): gcc says {want}, invar {got}\n{detail}"
            );
            expected.push(want);
        }
        for engine in engines {
            let (got, detail) = invar_verdict(&dir, &format!("p{n}"), body, engine);
            assert!(
                got == expected[0] || got == "unknown",
                "{what} ({engine:?}): gcc says {}, invar {got}\n{detail}",
                expected[0]
            );
        }
        differ += usize::from(expected[0] != expected[1]);
        // SV-COMP's no-overflow property on the same program.
        let name = format!("p{n}o");
        let want = gcc_verdict(&dir, &name, body, &["-fsanitize=undefined"], true);
        let prp = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/properties/no-overflow.prp");
        let (got, detail) = invar_verdict(&dir, &name, body, &["--prop", prp.to_str().unwrap()]);
        assert_eq!(
            got, want,
            "{what} (no-overflow): gcc says {want}, invar {got}\n{detail}"
        );
        overflows += usize::from(want == "false");
    }
    // The set tests both readings and the property: signed overflow
    // decides some programs.
    eprintln!(
        "{} programs: {differ} with another verdict under --wrap-signed, \
         {overflows} violating no-overflow",
        PROGRAMS.len()
    );
    assert!(
        differ >= 8,
        "only {differ} programs tell the readings apart"
    );
    assert!(overflows >= 8, "only {overflows} programs overflow");
    std::fs::remove_dir_all(&dir).ok();
}
