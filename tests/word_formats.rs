//! BTOR2 and VMT end to end: the hand-written conformance models, malformed
//! inputs, VMT round trips of every benchmark file, verdicts on the real
//! instances in `hwmcc-samples/btor2` and `hwmcc-samples/vmt` against their
//! expected answers, witness replay, and `invar crosscheck`.

use invar::formats::{btor2, vmt};
use invar::ir::term::eval::{Evaluator, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn invar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_invar"))
        .args(args)
        .output()
        .expect("invar runs")
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

/// Expected verdicts (safe/unsafe/unknown) from a SOURCES.tsv.
fn expectations(dir: &Path) -> Vec<(PathBuf, String)> {
    let text = std::fs::read_to_string(dir.join("SOURCES.tsv")).expect("SOURCES.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = header
        .iter()
        .position(|h| h.starts_with("expected"))
        .expect("an expected column");
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let word = f[col].split_whitespace().next().unwrap_or("");
            let verdict = match word {
                "sat" => "unsafe",
                "unsat" => "safe",
                w => w,
            };
            (dir.join(f[0]), verdict.to_string())
        })
        .collect()
}

#[test]
fn btor2_conformance_models_hold_in_the_evaluator_and_the_engines() {
    let models: Vec<PathBuf> = files(&root().join("formats/btor2"), "btor2")
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("ops_"))
        .collect();
    assert_eq!(models.len(), 4);
    for path in models {
        let ts = btor2::read_file(&path).expect("reads");
        assert!(ts.bad.len() >= 9, "{}", path.display());
        let mut ev = Evaluator::new(&ts.terms);
        for p in &ts.bad {
            let v = ev.eval(p.term).expect("ground");
            assert_eq!(
                v,
                Value::Bool(false),
                "{}: {} fails",
                path.display(),
                p.name
            );
        }
        let out = invar(&["check", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(20), "{}", path.display());
        assert_eq!(String::from_utf8_lossy(&out.stdout), "unsat\n");
    }
}

#[test]
fn vmt_conformance_model_gives_the_hand_computed_verdicts() {
    let path = root().join("formats/vmt/ops_bv.vmt");
    let p = path.to_str().unwrap();
    let out = invar(&["check", p, "--property", "0", "--witness"]);
    assert_eq!(out.status.code(), Some(10));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("unsafe\ncounterexample\n"), "{text}");
    // 250 … 255, 0, 1, 2, 3: the property fails in step 9.
    assert!(
        text.contains(";; step 9\n") && !text.contains(";; step 10"),
        "{text}"
    );
    assert!(text.contains("(= |x y| #b00000011)"), "{text}");
    for prop in ["1", "2", "3"] {
        let out = invar(&["check", p, "--property", prop]);
        assert_eq!(out.status.code(), Some(20), "property {prop}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "safe\n");
    }
    // Int goes to the word-level engines: x starts at 0 and grows, so x >= 0
    // is 1-inductive (k-induction) and an invariant of one clause (IC3+IA);
    // either proof is confirmed by a second solver.
    let lia = root().join("formats/vmt/lia_counter.vmt");
    let out = invar(&["check", lia.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(20));
    let json = String::from_utf8_lossy(&out.stdout);
    let kind = json.contains("\"engine\": \"smt\"") && json.contains("\"k\": 1");
    let ia = json.contains("\"engine\": \"ic3ia\"") && json.contains("\"invariant_clauses\": 1");
    assert!(kind || ia, "{json}");
    assert!(json.contains("\"proof_checked_by\""), "{json}");
    let out = invar(&["check", lia.to_str().unwrap(), "--json", "--engine", "smt"]);
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(
        json.contains("\"engine\": \"smt\"") && json.contains("\"k\": 1"),
        "{json}"
    );
}

#[test]
fn malformed_btor2_and_vmt_exit_1_naming_file_line_and_reason() {
    let mut count = 0;
    for (dir, ext) in [
        ("formats/btor2/malformed", "btor2"),
        ("formats/vmt/malformed", "vmt"),
    ] {
        for path in files(&root().join(dir), ext) {
            let text = std::fs::read_to_string(&path).unwrap();
            let expect = text
                .lines()
                .next()
                .unwrap()
                .trim_start_matches("; expect: ");
            let p = path.to_str().unwrap();
            let out = invar(&["check", p]);
            assert_eq!(out.status.code(), Some(1), "{p}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(err.trim_end(), format!("invar: {p}:{expect}"), "{p}");
            assert!(
                out.stdout.is_empty(),
                "{p}: no verdict on a malformed model"
            );
            count += 1;
        }
    }
    assert!(count >= 20);
}

#[test]
fn every_benchmark_file_reads_and_round_trips_through_vmt() {
    let samples = root().join("hwmcc-samples");
    let mut paths = files(&samples.join("btor2"), "btor2");
    paths.extend(files(&samples.join("vmt"), "vmt"));
    assert_eq!(paths.len(), 58);
    let dir = std::env::temp_dir().join(format!("invar-vmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for path in paths {
        let name = path.display().to_string();
        let ts = if name.ends_with(".btor2") {
            btor2::read_file(&path)
        } else {
            vmt::read_file(&path)
        }
        .unwrap_or_else(|e| panic!("{e}"));
        let first = vmt::write(&ts);
        let again = vmt::read_str("first", &first).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(again.states.len(), ts.states.len(), "{name}");
        assert_eq!(again.inputs.len(), ts.inputs.len(), "{name}");
        assert_eq!(again.bad.len(), ts.bad.len(), "{name}");
        assert_eq!(
            vmt::write(&again),
            first,
            "{name}: writing is not a fixed point"
        );
        // z3 parses the export as SMT-LIB (it only warns about the VMT attributes).
        let out_path = dir.join("export.smt2");
        std::fs::write(&out_path, &first).unwrap();
        let z3 = Command::new("z3")
            .arg(&out_path)
            .output()
            .expect("this test needs z3 (apt-get install z3; .ci/run installs it)");
        let said = String::from_utf8_lossy(&z3.stdout);
        assert!(
            z3.status.success() && !said.contains("(error"),
            "{name}: z3 says {said}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Checks every sample of `dir` in two threads; returns the solved count.
fn check_samples(dir: &Path, timeout: &str) -> usize {
    let jobs = Mutex::new(expectations(dir));
    let solved = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some((path, expected)) = jobs.lock().unwrap().pop() else {
                    break;
                };
                let p = path.to_str().unwrap();
                let out = invar(&["check", p, "--timeout", timeout, "--witness"]);
                let verdict = match out.status.code() {
                    Some(10) => "unsafe",
                    Some(20) => "safe",
                    Some(0) => "unknown",
                    other => {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{p}: exit {other:?}"));
                        continue;
                    }
                };
                if verdict == "unknown" {
                    continue;
                }
                // `unknown` in SOURCES.tsv means no reference verdict exists
                // (cav12_array_max-2): nothing to compare with, and invar's
                // own checks (replay, proof confirmed by a second solver)
                // already stood behind the answer.
                if verdict != expected && expected != "unknown" {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("{p}: {verdict}, expected {expected}"));
                    continue;
                }
                *solved.lock().unwrap() += 1;
                if verdict == "unsafe" {
                    let w = std::env::temp_dir().join(format!(
                        "invar-wit-{}-{}",
                        std::process::id(),
                        path.file_name().unwrap().to_string_lossy()
                    ));
                    std::fs::write(&w, &out.stdout).unwrap();
                    let sim = invar(&["sim", p, w.to_str().unwrap()]);
                    std::fs::remove_file(&w).ok();
                    if sim.status.code() != Some(0) {
                        failures.lock().unwrap().push(format!(
                            "{p}: witness does not replay: {}",
                            String::from_utf8_lossy(&sim.stdout)
                        ));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{failures:#?}");
    solved.into_inner().unwrap()
}

#[test]
fn btor2_samples_give_expected_verdicts_and_replayable_witnesses() {
    // Alone on a 2-core machine, 20 of 30 are solved in 10 s each (22 in
    // 60 s, docs/decisions/word-level-sets-*.md); beside the other tests it was 17, so the bound
    // leaves room for a loaded machine. Wrong verdicts fail at any load.
    let solved = check_samples(&root().join("hwmcc-samples/btor2"), "10");
    assert!(solved >= 15, "only {solved} BTOR2 samples solved");
}

#[test]
fn vmt_samples_are_decided_at_bit_and_word_level() {
    // The 9 bit-vector files by bit-blasting, the Int and Real ones by the
    // SMT engine: alone on a 2-core machine 19 of 28 are decided in 10 s
    // (docs/decisions/word-level-sets-*.md); the bound leaves room for a loaded machine.
    // Every counterexample replays in `invar sim`.
    let solved = check_samples(&root().join("hwmcc-samples/vmt"), "10");
    assert!(solved >= 15, "only {solved} VMT samples solved");
}

#[test]
fn crosscheck_agrees_across_representations_and_engines() {
    // 13 rows: IC3, BMC and k-induction on three bit-level representations,
    // and the SMT engine and IC3+IA on the word-level model and on its VMT
    // export.
    let dir = root().join("hwmcc-samples/btor2");
    for (file, verdict) in [
        ("btor2tools_noninitstate.btor2", "all 13 verdicts unsafe"),
        ("btor2tools_twocount2c.btor2", "all 13 verdicts unsafe"),
        ("hwmcc19_goel_cal9.btor2", "verdicts safe"),
        ("pono_counter-true.btor2", "verdicts safe"),
    ] {
        let p = dir.join(file);
        let out = invar(&["crosscheck", p.to_str().unwrap(), "--timeout", "3"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{file}: {text}");
        assert!(text.contains(verdict), "{file}: {text}");
    }
    let aig = root().join("formats/vmt/ops_bv.vmt");
    let out = invar(&[
        "crosscheck",
        aig.to_str().unwrap(),
        "--property",
        "0",
        "--timeout",
        "3",
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("all 13 verdicts unsafe"));
    // An Int model has only the word-level engines' rows (the SMT engine and
    // IC3+IA): the model and its export.
    let lia = root().join("formats/vmt/lia_counter.vmt");
    let out = invar(&["crosscheck", lia.to_str().unwrap(), "--timeout", "3"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("all 4 verdicts safe"));
}

#[test]
fn dimspec_reads_checks_and_converts_with_verdicts_kept() {
    let counter = root().join("formats/dimspec/counter.dimspec");
    let out = invar(&["check", counter.to_str().unwrap(), "--witness"]);
    assert_eq!(out.status.code(), Some(10));
    let text = String::from_utf8_lossy(&out.stdout);
    // 00, 01, 10, 11: the goal holds in step 3, and U keeps x3 false throughout.
    assert!(
        text.contains(";; step 3\n(and (= x1 true) (= x2 true) (= x3 false))"),
        "{text}"
    );
    assert!(
        !text.contains("step 4") && !text.contains("(= x3 true)"),
        "{text}"
    );
    for dir in ["formats/dimspec/malformed"] {
        for path in files(&root().join(dir), "dimspec") {
            let text = std::fs::read_to_string(&path).unwrap();
            let expect = text
                .lines()
                .next()
                .unwrap()
                .trim_start_matches("c expect: ");
            let p = path.to_str().unwrap();
            let out = invar(&["check", p]);
            assert_eq!(out.status.code(), Some(1), "{p}");
            assert_eq!(
                String::from_utf8_lossy(&out.stderr).trim_end(),
                format!("invar: {p}:{expect}")
            );
        }
    }
    // BTOR2 → DimSpec (through the bit-blaster) keeps the verdict.
    let tmp = std::env::temp_dir().join(format!("invar-dimspec-{}.dimspec", std::process::id()));
    for (file, code) in [
        ("hwmcc19_goel_cal9.btor2", 20),
        ("hwmcc19_goel_h_b05.btor2", 10),
    ] {
        let p = root().join("hwmcc-samples/btor2").join(file);
        let conv = invar(&["convert", p.to_str().unwrap(), tmp.to_str().unwrap()]);
        assert_eq!(conv.status.code(), Some(0), "{file}");
        let out = invar(&["check", tmp.to_str().unwrap(), "--timeout", "30"]);
        assert_eq!(out.status.code(), Some(code), "{file}");
    }
    std::fs::remove_file(&tmp).ok();
}

#[test]
fn btor2_export_keeps_verdicts_of_vmt_dimspec_and_btor2_models() {
    let tmp = std::env::temp_dir().join(format!("invar-export-{}.btor2", std::process::id()));
    let mut models: Vec<PathBuf> = files(&root().join("hwmcc-samples/vmt"), "vmt")
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("bv_"))
        .collect();
    models.extend(files(&root().join("formats/btor2"), "btor2"));
    models.push(root().join("formats/dimspec/counter.dimspec"));
    models.push(root().join("formats/vmt/ops_bv.vmt"));
    models.push(root().join("hwmcc-samples/btor2/hwmcc19_goel_usb_phy.btor2"));
    models.push(root().join("hwmcc-samples/btor2/hwmcc19_goel_vcegar_QF_BV_itc99_b13_p06.btor2"));
    for path in models {
        let p = path.to_str().unwrap();
        let direct = invar(&["check", p, "--timeout", "30"]).status.code();
        assert!(matches!(direct, Some(10 | 20)), "{p}: {direct:?}");
        let conv = invar(&["convert", p, tmp.to_str().unwrap()]);
        assert_eq!(
            conv.status.code(),
            Some(0),
            "{p}: {}",
            String::from_utf8_lossy(&conv.stderr)
        );
        let out = invar(&["check", tmp.to_str().unwrap(), "--timeout", "30"]);
        assert_eq!(
            out.status.code(),
            direct,
            "{p}: the BTOR2 export changes the verdict"
        );
        if direct == Some(10) {
            let w = tmp.with_extension("wit");
            std::fs::write(&w, &out.stdout).unwrap();
            let sim = invar(&["sim", tmp.to_str().unwrap(), w.to_str().unwrap()]);
            assert_eq!(sim.status.code(), Some(0), "{p}");
            std::fs::remove_file(&w).ok();
        }
    }
    std::fs::remove_file(&tmp).ok();
}

#[test]
fn small_arrays_are_expanded_and_their_witnesses_replay() {
    let model = root().join("formats/btor2/array_memory.btor2");
    let m = model.to_str().unwrap();
    let safe = invar(&["check", m, "--property", "0"]);
    assert_eq!(safe.status.code(), Some(20));
    let out = invar(&["check", m, "--property", "1"]);
    assert_eq!(out.status.code(), Some(10));
    let text = String::from_utf8_lossy(&out.stdout);
    // Write 0101 at address 3 in step 0, read it in step 1.
    assert!(
        text.starts_with(
            "sat\nb1\n#0\n0 [*] 0000 mem#0\n@0\n0 11 addr@0\n1 0101 data@0\n#1\n@1\n0 11 addr@1\n"
        ),
        "{text}"
    );
    let w = std::env::temp_dir().join(format!("invar-array-{}.wit", std::process::id()));
    std::fs::write(&w, &out.stdout).unwrap();
    let sim = invar(&["sim", m, w.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(0));
    std::fs::remove_file(&w).ok();
    for prop in ["0", "1"] {
        let cc = invar(&["crosscheck", m, "--property", prop, "--timeout", "5"]);
        assert_eq!(
            cc.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&cc.stdout)
        );
    }
}

#[test]
fn wide_arrays_are_decided_by_the_array_theory_with_checked_answers() {
    // 2^32 entries: never expanded; BMC and k-induction on the SMT layer.
    let model = root().join("formats/btor2/array_wide.btor2");
    let m = model.to_str().unwrap();
    let tmp = std::env::temp_dir().join(format!("invar-wide-array-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let cert = tmp.join("cert.smt2");
    let c = cert.to_str().unwrap();
    let safe = invar(&["check", m, "--property", "0", "--certificate", c]);
    assert_eq!(
        safe.status.code(),
        Some(20),
        "{}",
        String::from_utf8_lossy(&safe.stderr)
    );
    let certified = invar(&["certify", m, c, "--property", "0"]);
    assert_eq!(certified.status.code(), Some(0));
    let out = invar(&["check", m, "--property", "1"]);
    assert_eq!(out.status.code(), Some(10));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    // Write 0101 at 0x80000003 in step 0, read it in step 1.
    assert!(
        text.starts_with("sat\nb1\n#0\n0 [*] 0000 mem#0\n"),
        "{text}"
    );
    assert!(
        text.contains("@0\n0 10000000000000000000000000000011 addr@0\n1 0101 data@0\n"),
        "{text}"
    );
    let w = tmp.join("w.txt");
    std::fs::write(&w, &text).unwrap();
    let sim = invar(&["sim", m, w.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(0));
    // The value written is what makes it fail: another one does not.
    std::fs::write(&w, text.replace("1 0101 data@0", "1 0100 data@0")).unwrap();
    let sim = invar(&["sim", m, w.to_str().unwrap()]);
    assert_ne!(sim.status.code(), Some(0));
    std::fs::remove_dir_all(&tmp).ok();
}

#[test]
fn vmt_and_dimspec_traces_replay_in_sim_and_tampered_ones_are_rejected() {
    let tmp = std::env::temp_dir().join(format!("invar-vmt-trace-{}.txt", std::process::id()));
    for model in ["formats/vmt/ops_bv.vmt", "formats/dimspec/counter.dimspec"] {
        let p = root().join(model);
        let p = p.to_str().unwrap();
        let out = invar(&["check", p, "--witness"]);
        assert_eq!(out.status.code(), Some(10), "{model}");
        std::fs::write(&tmp, &out.stdout).unwrap();
        let sim = invar(&["sim", p, tmp.to_str().unwrap()]);
        assert_eq!(
            sim.status.code(),
            Some(0),
            "{model}: {}",
            String::from_utf8_lossy(&sim.stdout)
        );
    }
    // The counter cannot jump from 10 to 10: the transition check rejects it.
    let p = root().join("formats/dimspec/counter.dimspec");
    let out = invar(&["check", p.to_str().unwrap(), "--witness"]);
    let text = String::from_utf8_lossy(&out.stdout).replace(
        "(= x1 true) (= x2 true) (= x3 false)",
        "(= x1 false) (= x2 true) (= x3 false)",
    );
    std::fs::write(&tmp, text).unwrap();
    let sim = invar(&["sim", p.to_str().unwrap(), tmp.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&sim.stdout).contains("transition condition 0 is false"));
    // Array values are written as SMT-LIB stores into a constant array and
    // read back: the wide array model's export fails after writing 0101 at
    // 0x80000003; the memory claimed to hold 0100 there is no successor.
    let vmt = tmp.with_extension("vmt");
    let btor2 = root().join("formats/btor2/array_wide.btor2");
    let conv = invar(&["convert", btor2.to_str().unwrap(), vmt.to_str().unwrap()]);
    assert_eq!(conv.status.code(), Some(0));
    let v = vmt.to_str().unwrap();
    let out = invar(&["check", v, "--property", "1", "--witness"]);
    assert_eq!(out.status.code(), Some(10));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let stored = "(store ((as const (Array (_ BitVec 32) (_ BitVec 4))) #b0000) \
                  #b10000000000000000000000000000011 #b0101)";
    assert!(text.contains(stored), "{text}");
    std::fs::write(&tmp, &text).unwrap();
    let sim = invar(&["sim", v, tmp.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(0), "{text}");
    let tampered = stored.replace("#b0101)", "#b0100)");
    std::fs::write(&tmp, text.replace(stored, &tampered)).unwrap();
    let sim = invar(&["sim", v, tmp.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(3));
    std::fs::remove_file(&tmp).ok();
    std::fs::remove_file(&vmt).ok();
}

#[test]
fn vmt_edge_case_model_holds_in_the_evaluator_and_the_engines() {
    let path = root().join("formats/vmt/ops_edge.vmt");
    let ts = vmt::read_file(&path).expect("reads");
    assert_eq!(ts.bad.len(), 19);
    let mut ev = Evaluator::new(&ts.terms);
    for p in &ts.bad {
        // Each bad term is the negated property over constants.
        assert_eq!(
            ev.eval(p.term),
            Ok(Value::Bool(false)),
            "property {}",
            p.name
        );
    }
    let out = invar(&["check", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(20));
}

/// The Horn clauses `invar convert` writes (`.chc`) mean what the model
/// means: z3's Spacer, an independent CHC solver, finds them satisfiable
/// (safe) or unsatisfiable (unsafe) as the VMT samples' manifest says.
#[test]
fn horn_clauses_give_the_manifest_verdicts_to_spacer() {
    let dir = root().join("hwmcc-samples/vmt");
    let dir_out = std::env::temp_dir().join(format!("invar-chc-{}", std::process::id()));
    std::fs::create_dir_all(&dir_out).unwrap();
    let mut agreed = 0;
    for (path, expected) in expectations(&dir) {
        if expected != "safe" && expected != "unsafe" {
            continue;
        }
        let chc = dir_out.join("model.chc");
        let out = invar(&["convert", path.to_str().unwrap(), chc.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", path.display());
        let z3 = Command::new("z3")
            .args(["-smt2", "-T:10", chc.to_str().unwrap()])
            .output()
            .expect("z3 runs");
        let answer = String::from_utf8_lossy(&z3.stdout);
        let verdict = match answer.lines().next() {
            Some("sat") => "safe",
            Some("unsat") => "unsafe",
            _ => continue,
        };
        assert_eq!(
            verdict,
            expected,
            "{}: Spacer on the clauses",
            path.display()
        );
        agreed += 1;
    }
    std::fs::remove_dir_all(&dir_out).ok();
    // Measured: 24 of the 26 with a reference, within 10 s each.
    assert!(agreed >= 18, "Spacer decided only {agreed}");
}

#[test]
fn wide_constants_read_in_time_linear_in_their_digits() {
    // A 2^20-bit `(_ bv379 1048576)` with leading zeros: reading multiplied
    // full-width vectors once per digit, 14 s for a 999,831-bit one (found
    // by fuzzing the VMT reader); now the words in use grow with the digits.
    // The bound is generous: it fails only on that quadratic behaviour.
    let p = root().join("formats/vmt/malformed/wide_constant.vmt");
    let start = std::time::Instant::now();
    let out = invar(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(start.elapsed().as_secs_f64() < 5.0, "{:?}", start.elapsed());
}
