//! Helpers shared by integration tests (each test crate includes this
//! module with `mod common;`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles `program` with gcc (warnings off, `flags` added) in `dir` under
/// `name`, runs it, and returns what it printed. gcc is the oracle of the C
/// tests: a program it rejects is a bug in the test.
#[allow(dead_code)] // Not every test crate runs a program once.
pub fn gcc_run(dir: &Path, name: &str, program: &str, flags: &[&str]) -> String {
    let exe = gcc_compile(dir, name, program, flags);
    let out = Command::new(&exe).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Compiles `program` as [`gcc_run`] does and returns the executable.
#[allow(dead_code)] // Not every test crate runs programs more than once.
pub fn gcc_compile(dir: &Path, name: &str, program: &str, flags: &[&str]) -> PathBuf {
    let src = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&src, program).unwrap();
    let cc = Command::new("gcc")
        .arg("-w")
        .args(flags)
        .args(["-o", exe.to_str().unwrap(), src.to_str().unwrap()])
        .output()
        .expect("this test needs gcc");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    exe
}

/// A program for gcc that runs `body` in `main` with two `int` inputs `x`
/// and `y` taken from `values` (C expressions): the run's first argument
/// `i` picks `values[i % n]` and `values[i / n % n]`, so that the runs
/// `0 .. n * n` cover every pair. `reach_error` runs `reached` and exits.
#[allow(dead_code)] // Not every test crate runs such a harness.
pub fn two_input_harness(values: &[&str], reached: &str, body: &str) -> String {
    let values = values.join(", ");
    format!(
        "#include <limits.h>\n#include <stdio.h>\n#include <stdlib.h>\n\
         static const int values[] = {{{values}}};\nstatic int input, calls;\n\
         static void reach_error(void) {{ {reached}exit(0); }}\n\
         static int __VERIFIER_nondet_int(void) {{\n\
           int n = sizeof values / sizeof values[0];\n\
           int k = calls++ == 0 ? input % n : input / n % n;\n  return values[k];\n}}\n\
         int main(int argc, char **argv) {{\n  input = atoi(argv[1]);\n\
         int x = __VERIFIER_nondet_int();\n  int y = __VERIFIER_nondet_int();\n\
         {body}\n  return 0;\n}}\n"
    )
}

/// A C verdict by invar's exit code: 10 `false`, 20 `true`, 0 `unknown`,
/// anything else `error`.
#[allow(dead_code)] // Not every test crate reads C verdicts.
pub fn c_verdict(code: Option<i32>) -> &'static str {
    match code {
        Some(10) => "false",
        Some(20) => "true",
        Some(0) => "unknown",
        _ => "error",
    }
}

/// Writes the C `program` to `path`, runs `invar check path args`, and
/// returns its verdict ([`c_verdict`]) and, for a failing assertion, the
/// program and what invar printed.
#[allow(dead_code)] // Not every test crate checks C programs.
pub fn check_c(program: &str, path: &Path, args: &[&str]) -> (String, String) {
    std::fs::write(path, program).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_invar"))
        .arg("check")
        .arg(path)
        .args(args)
        .output()
        .unwrap();
    let detail = format!(
        "{program}\n--- invar {args:?}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (c_verdict(out.status.code()).to_string(), detail)
}

/// aigsim 1.9.26 (`tests/tools/aiger`, unmodified upstream sources), built
/// once per test process with `cc` into the target directory.
#[allow(dead_code)] // Not every test crate checks AIGER witnesses.
pub fn aigsim() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tools/aiger");
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("aigsim");
            std::fs::create_dir_all(&dir).unwrap();
            let exe = dir.join(format!("aigsim-{}", std::process::id()));
            let cc = Command::new("cc")
                .args(["-O2", "-w", "-o"])
                .arg(&exe)
                .arg(src.join("aigsim.c"))
                .arg(src.join("aiger.c"))
                .output()
                .expect("building aigsim needs a C compiler (cc)");
            assert!(
                cc.status.success(),
                "{}",
                String::from_utf8_lossy(&cc.stderr)
            );
            exe
        })
        .clone()
}

/// Whether aigsim accepts `witness` (an HWMCC witness file) for `model`:
/// the first state agrees with the reset functions and every claimed bad
/// property is reached. The message when it does not.
#[allow(dead_code)] // Not every test crate checks AIGER witnesses.
pub fn aigsim_accepts(model: &Path, witness: &Path) -> Result<(), String> {
    let out = Command::new(aigsim())
        .arg("-c")
        .arg(model)
        .arg(witness)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The value of every variable of a file-level circuit in binary order
/// (its gates in file order are topological), given inputs and latches.
#[allow(dead_code)] // Not every test crate simulates AIGER files.
pub fn aiger_values(
    a: &invar::formats::aiger::Aiger,
    inputs: &[bool],
    latches: &[bool],
) -> Vec<bool> {
    let mut v = vec![false; a.maxvar as usize + 1];
    for (&i, &b) in a.inputs.iter().zip(inputs) {
        v[(i >> 1) as usize] = b;
    }
    for (l, &b) in a.latches.iter().zip(latches) {
        v[(l.lit >> 1) as usize] = b;
    }
    for g in &a.ands {
        let val = |l: u32| v[(l >> 1) as usize] ^ (l & 1 == 1);
        v[(g.lhs >> 1) as usize] = val(g.rhs0) && val(g.rhs1);
    }
    v
}

/// A literal's value among [`aiger_values`].
#[allow(dead_code)] // Not every test crate simulates AIGER files.
pub fn aiger_value(v: &[bool], lit: u32) -> bool {
    v[(lit >> 1) as usize] ^ (lit & 1 == 1)
}

/// A random literal of a variable up to `vars` (0 included), either sign.
#[allow(dead_code)] // Not every test crate builds random circuits.
pub fn random_lit(rng: &mut invar::util::rng::Rng, vars: u32) -> u32 {
    (2 * rng.below(vars as u64 + 1) as u32) | rng.coin() as u32
}

/// A random circuit in binary order with `inputs` inputs and `ands` gates,
/// each reading two random literals below it; its `latches` latches (the
/// variables between inputs and gates) are the caller's to add.
#[allow(dead_code)] // Not every test crate builds random circuits.
pub fn random_gates(
    rng: &mut invar::util::rng::Rng,
    inputs: u32,
    latches: u32,
    ands: u32,
) -> invar::formats::aiger::Aiger {
    let mut a = invar::formats::aiger::Aiger {
        maxvar: inputs + latches + ands,
        inputs: (1..=inputs).map(|v| 2 * v).collect(),
        ..Default::default()
    };
    for k in 0..ands {
        let lhs = 2 * (inputs + latches + 1 + k);
        let (x, y) = (random_lit(rng, lhs / 2 - 1), random_lit(rng, lhs / 2 - 1));
        a.ands.push(invar::formats::aiger::AigerAnd {
            lhs,
            rhs0: x.max(y),
            rhs1: x.min(y),
        });
    }
    a
}
