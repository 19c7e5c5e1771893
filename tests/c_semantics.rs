//! C's integer semantics in the front end against gcc: each expression is
//! compiled by gcc and run to get its value, then invar checks a program
//! asserting that the expression has exactly that value (`true` expected),
//! and that it does not have the value plus one (`false` expected).
//!
//! gcc runs natively (x86-64, LP64), so invar runs with `--lp64`; the cases
//! avoid `long` anyway. Implementation-defined behaviour (conversion of
//! out-of-range values to signed types, right shift of negatives) is gcc's,
//! which is also what SV-COMP assumes.

mod common;

use std::path::Path;
use std::process::Command;

const CASES: &[&str] = &[
    // Integer promotions and usual arithmetic conversions.
    "(unsigned char)200 + (unsigned char)100",
    "(unsigned char)255 + 1",
    "(signed char)100 + (signed char)100",
    "-1 < 1u",
    "-1 > 0u",
    "(short)-1 == (unsigned short)65535",
    "(unsigned short)65535 + 1",
    "0x7fffffff + 1u",
    "~0u",
    "~(unsigned char)0",
    // Unsigned wrap-around.
    "0u - 1",
    "(unsigned)4000000000 + (unsigned)1000000000",
    "(unsigned)-10 % 3",
    // Signed division and remainder truncate toward zero.
    "-7 / 2",
    "-7 % 2",
    "7 % -2",
    "-10 % 3",
    "10 / -3",
    // Shifts.
    "1u << 31",
    "1 << 30",
    "(-7) >> 1",
    "0x80000000u >> 4",
    "(unsigned char)1 << 8",
    // Casts to narrow types.
    "(signed char)200",
    "(unsigned char)300",
    "(short)70000",
    "(unsigned short)-1",
    "(int)0x80000000u",
    "(char)-1 < 0",
    "(_Bool)5",
    "(_Bool)0 + 1",
    // Comparisons of mixed signedness and logic.
    "(unsigned char)-1 == 255",
    "(unsigned)-1 == -1",
    "!5 + !0",
    "(3 > 2) + (2 > 3) * 10",
    "5 ? 7 : 9",
    "(0 && 1) + (0 || 3) * 2",
    // sizeof: bytes of the type, as an unsigned size_t; the operand is not evaluated.
    "sizeof(int)",
    "sizeof(char) + sizeof(short) * 10",
    "sizeof(long) + sizeof(long long) * 10",
    "sizeof((unsigned char)1)",
    "sizeof(1 + (char)1)",
    "sizeof(_Bool)",
    "sizeof 1u - 5 > 0",
];

/// The value gcc's program prints for every case.
fn gcc_values(dir: &Path) -> Vec<i64> {
    let mut program = String::from("#include <stdio.h>\nint main(void) {\n");
    for c in CASES {
        program += &format!("  printf(\"%lld\\n\", (long long)({c}));\n");
    }
    program += "  return 0;\n}\n";
    let printed = common::gcc_run(dir, "values", &program, &[]);
    let values: Vec<i64> = printed.lines().map(|l| l.trim().parse().unwrap()).collect();
    assert_eq!(values.len(), CASES.len());
    values
}

/// invar's verdict on `assert((long long)(expr) == value)`.
fn invar_verdict(dir: &Path, expr: &str, value: i64) -> String {
    let program = format!(
        "extern void abort(void);\nvoid reach_error(void) {{}}\n\
         void __VERIFIER_assert(int cond) {{ if (!cond) {{ reach_error(); abort(); }} }}\n\
         int main(void) {{\n  __VERIFIER_assert((long long)({expr}) == ({value}LL));\n  return 0;\n}}\n"
    );
    let path = dir.join("case.c");
    std::fs::write(&path, program).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_invar"))
        .args(["check", path.to_str().unwrap(), "--lp64", "--timeout", "20"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

#[test]
fn integer_semantics_agree_with_gcc() {
    let dir = std::env::temp_dir().join(format!("invar-csem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let values = gcc_values(&dir);
    for (expr, &value) in CASES.iter().zip(&values) {
        assert_eq!(
            invar_verdict(&dir, expr, value),
            "true",
            "{expr} is {value} in gcc"
        );
        assert_eq!(
            invar_verdict(&dir, expr, value + 1),
            "false",
            "{expr} is not {}",
            value + 1
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
