//! SV-COMP witnesses (`--witness-out`, format 2.0) on the bundled C
//! programs: every `false` writes a violation witness and every `true` a
//! correctness witness; each validates against the format's schema
//! (`formats/svcomp-witness/`) with the `jsonschema` Python package, with
//! the program's SHA-256 computed by Python's hashlib and every location
//! checked against the source; every invariant holds on at least 1,000
//! concrete runs of the program compiled by gcc with random inputs
//! (`tests/tools/witnesscheck.py`). The expected verdicts are SV-COMP's
//! (tests/c/SOURCES.tsv).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `tests/tools/witnesscheck.py`: its exit code and what it printed.
fn run_witnesscheck(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new("python3")
        .arg(root().join("tests/tools/witnesscheck.py"))
        .args(args)
        .output()
        .expect("this test needs python3 (with the yaml and jsonschema packages)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

/// Runs `witnesscheck.py`, which must pass; what it printed.
fn witnesscheck(args: &[&str]) -> String {
    let (code, text) = run_witnesscheck(args);
    assert_eq!(code, Some(0), "witnesscheck.py {args:?}: {text}");
    text
}

/// The fewest runs that checked one invariant, from `witnesscheck.py
/// runs`'s "runs R checks C least L".
fn least_runs(runs: &str) -> u64 {
    (runs.split_whitespace())
        .skip_while(|t| *t != "least")
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no count of runs in {runs:?}"))
}

/// The bundled programs with SV-COMP's expected unreach-call verdict.
fn programs() -> Vec<(PathBuf, bool)> {
    let dir = root().join("tests/c");
    let table = std::fs::read_to_string(dir.join("SOURCES.tsv")).unwrap();
    let mut out = Vec::new();
    for line in table.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (file, expected) = (fields[0], fields[4]);
        let path = dir.join(file);
        if path.exists() && (expected == "true" || expected == "false") {
            out.push((path, expected == "true"));
        }
    }
    out
}

/// Taken by each test for its whole run: each runs `auto` (two threads and
/// an SMT process) on programs whose proofs are confirmed by cvc5 in
/// seconds; side by side on a loaded machine they ran out of time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A scratch folder of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("invar-svw-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn check(program: &Path, witness: &Path, extra: &[&str]) -> Option<i32> {
    Command::new(env!("CARGO_BIN_EXE_invar"))
        .arg("check")
        .arg(program)
        .arg("--witness-out")
        .arg(witness)
        // Generous: the time is not what these tests check.
        .args(["--timeout", "120"])
        .args(extra)
        .output()
        .expect("run invar")
        .status
        .code()
}

#[test]
fn every_verdict_on_the_bundled_programs_writes_a_valid_witness_whose_invariants_hold() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("all");
    let (mut violations, mut correctness, mut loop_invariants) = (0, 0, 0);
    for (program, expected_true) in programs() {
        let name = program.file_name().unwrap().to_string_lossy().to_string();
        let witness = dir.join(format!("{name}.yml"));
        let _ = std::fs::remove_file(&witness);
        let code = check(&program, &witness, &[]);
        let p = program.to_str().unwrap();
        let w = witness.to_str().unwrap();
        match code {
            Some(20) => {
                assert!(expected_true, "{name}: true, SV-COMP says false");
                let text = witnesscheck(&["schema", w, p, "correctness"]);
                assert!(text.contains("valid correctness witness"), "{text}");
                let runs = witnesscheck(&["runs", w, p, "1000", "7"]);
                let least = least_runs(&runs);
                assert!(
                    least >= 1000,
                    "{name}: an invariant checked in only {least} runs: {runs}"
                );
                let yaml = std::fs::read_to_string(&witness).unwrap();
                loop_invariants += yaml.matches("\"loop_invariant\"").count();
                correctness += 1;
            }
            Some(10) => {
                assert!(!expected_true, "{name}: false, SV-COMP says true");
                let text = witnesscheck(&["schema", w, p, "violation"]);
                assert!(text.contains("valid violation witness"), "{text}");
                violations += 1;
            }
            // Undecided within the time: no witness is owed.
            other => {
                assert!(
                    !witness.exists(),
                    "{name}: a witness without a verdict ({other:?})"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Floors from this set (2026-11-26): 5 true programs decided with 5
    // loop invariants among them, 5 false ones decided.
    assert!(correctness >= 5, "{correctness} correctness witnesses");
    assert!(violations >= 5, "{violations} violation witnesses");
    assert!(loop_invariants >= 4, "{loop_invariants} loop invariants");
}

#[test]
fn a_wrong_invariant_is_caught_by_the_concrete_runs() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // The check must be able to fail: nested6's outer loop invariant
    // replaced by one that breaks after a few iterations.
    let program = root().join("tests/c/nested6.i");
    let dir = scratch("bad");
    let witness = dir.join("w.yml");
    assert_eq!(check(&program, &witness, &[]), Some(20));
    let text = std::fs::read_to_string(&witness).unwrap();
    let start = text.find("value: ").expect("an invariant");
    let end = start + text[start..].find('\n').unwrap();
    let bad = format!("{}value: \"i < 3\"{}", &text[..start], &text[end..]);
    std::fs::write(&witness, bad).unwrap();
    let (w, p) = (witness.to_str().unwrap(), program.to_str().unwrap());
    let (code, text) = run_witnesscheck(&["runs", w, p, "1000", "7"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("i < 3"), "{text}");
}

#[test]
fn a_bit_level_proof_gives_loop_invariants_over_bits_that_hold() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // IC3 on the bit-blasted program (0.1 s): its invariant is over the
    // bits of the variables, written with shifts and masks (jain_1-1: y
    // stays odd).
    let program = root().join("tests/c/jain_1-1.c");
    let dir = scratch("bits");
    let witness = dir.join("w.yml");
    let code = check(&program, &witness, &["--engine", "ic3"]);
    assert_eq!(code, Some(20));
    let (p, w) = (program.to_str().unwrap(), witness.to_str().unwrap());
    witnesscheck(&["schema", w, p, "correctness"]);
    let text = std::fs::read_to_string(&witness).unwrap();
    assert!(
        text.contains("\"loop_invariant\"") && text.contains(">> "),
        "{text}"
    );
    let runs = witnesscheck(&["runs", w, p, "1000", "11"]);
    assert!(least_runs(&runs) >= 1000, "{runs}");
    let _ = std::fs::remove_dir_all(&dir);
}
