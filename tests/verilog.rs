//! The hardware flow: the Verilog designs of `examples/verilog/` go through
//! Yosys (`examples/verilog/yosys-flow.sh`) to AIGER and to BTOR2, and invar
//! must give each the verdict of `examples/verilog/EXPECTED.tsv` (derived by
//! hand, confirmed by ABC) on both routes. Every counterexample replays in
//! `invar sim` (and, for AIGER, in the independent `tests/tools/aigsim.py`),
//! and BMC's shortest counterexample has the hand-computed length, so the
//! two routes agree on the behaviour, not only on the verdict. Every
//! counterexample's waveform (`--vcd`) is read back by the independent
//! `tests/tools/vcdcheck.py` and compared with the simulator or the witness.
//! Needs `yosys` on PATH (CI installs the Debian package).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn invar(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_invar"))
        .args(args)
        .output()
        .expect("run invar")
}

struct Design {
    file: String,
    top: String,
    defines: Vec<String>,
    verdict: String,
    depth: Option<usize>,
}

fn designs() -> Vec<Design> {
    let text = std::fs::read_to_string(root().join("examples/verilog/EXPECTED.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 5, "EXPECTED.tsv: short row {l:?}");
            Design {
                file: f[0].into(),
                top: f[1].into(),
                defines: match f[2] {
                    "-" => vec![],
                    d => d.split(' ').map(String::from).collect(),
                },
                verdict: f[3].into(),
                depth: f[4].parse().ok(),
            }
        })
        .collect()
}

/// Runs the Yosys flow; returns the AIGER and BTOR2 files it wrote.
fn synthesize(design: &Design, out: &Path) -> (PathBuf, PathBuf) {
    let dir = root().join("examples/verilog");
    let status = Command::new("bash")
        .arg(dir.join("yosys-flow.sh"))
        .arg(dir.join(&design.file))
        .arg(&design.top)
        .arg(out)
        .args(&design.defines)
        .status()
        .expect("run yosys-flow.sh (is yosys installed?)");
    assert!(status.success(), "{}: the Yosys flow failed", design.file);
    (
        out.join(format!("{}.aig", design.top)),
        out.join(format!("{}.btor2", design.top)),
    )
}

/// The number of transitions of a witness: AIGER has one input line per
/// step after the initial-state line, BTOR2 one `@k` frame per step.
fn witness_depth(witness: &str, btor2: bool) -> usize {
    let lines: Vec<&str> = witness.lines().collect();
    if btor2 {
        lines.iter().filter(|l| l.starts_with('@')).count() - 1
    } else {
        let end = lines.iter().position(|l| *l == ".").expect("witness end");
        // "1", the properties, the initial latches, then the inputs.
        end - 3 - 1
    }
}

fn check_route(design: &Design, model: &Path, btor2: bool) {
    let name = format!("{} {:?} {}", design.file, design.defines, model.display());
    let m = model.to_str().unwrap();
    let out = invar(&["check", m, "--timeout", "60"]);
    let verdict = match out.status.code() {
        Some(20) => "safe",
        Some(10) => "unsafe",
        other => panic!(
            "{name}: exit {other:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    };
    assert_eq!(verdict, design.verdict, "{name}");
    if verdict != "unsafe" {
        return;
    }
    // The shortest counterexample, from BMC, replayed.
    let bmc = invar(&["check", m, "--engine", "bmc", "--timeout", "60"]);
    assert_eq!(bmc.status.code(), Some(10), "{name}: BMC");
    let text = String::from_utf8_lossy(&bmc.stdout).to_string();
    assert_eq!(
        Some(witness_depth(&text, btor2)),
        design.depth,
        "{name}: shortest counterexample\n{text}"
    );
    // The waveform of the first counterexample, checked by the independent
    // reader against the simulator (AIGER) or the witness (BTOR2); `sim
    // --vcd` on the same witness writes the same file.
    let vcd = model.with_extension("vcd");
    let v = vcd.to_str().unwrap();
    let with_vcd = invar(&["check", m, "--timeout", "60", "--vcd", v]);
    assert_eq!(with_vcd.status.code(), Some(10), "{name}: --vcd");
    let witness = model.with_extension("wit");
    std::fs::write(&witness, &with_vcd.stdout).unwrap();
    let w = witness.to_str().unwrap();
    let mode_args: Vec<&str> = if btor2 {
        vec!["btor2", w, v]
    } else {
        vec!["aiger", m, w, v]
    };
    let check = Command::new("python3")
        .arg(root().join("tests/tools/vcdcheck.py"))
        .args(&mode_args)
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{name}: vcdcheck.py: {}",
        String::from_utf8_lossy(&check.stdout)
    );
    let again = model.with_extension("sim.vcd");
    let sim = invar(&["sim", m, w, "--vcd", again.to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(0), "{name}: sim --vcd");
    assert_eq!(
        std::fs::read_to_string(&vcd).unwrap(),
        std::fs::read_to_string(&again).unwrap(),
        "{name}: check --vcd and sim --vcd differ"
    );
    for witness_text in [&out.stdout, &bmc.stdout] {
        std::fs::write(&witness, witness_text).unwrap();
        let sim = invar(&["sim", m, w]);
        assert_eq!(
            sim.status.code(),
            Some(0),
            "{name}: invar sim rejects the witness: {}",
            String::from_utf8_lossy(&sim.stdout)
        );
        if !btor2 {
            let py = Command::new("python3")
                .arg(root().join("tests/tools/aigsim.py"))
                .args([m, w])
                .output()
                .unwrap();
            assert_eq!(
                py.status.code(),
                Some(0),
                "{name}: aigsim.py rejects the witness: {}",
                String::from_utf8_lossy(&py.stdout)
            );
        }
    }
}

#[test]
fn verilog_designs_get_their_verdicts_through_aiger_and_btor2() {
    let designs = designs();
    assert!(designs.len() >= 4, "examples/verilog/EXPECTED.tsv rows");
    assert!(
        designs.iter().any(|d| d.verdict == "safe")
            && designs.iter().any(|d| d.verdict == "unsafe")
    );
    let tmp = std::env::temp_dir().join(format!("invar-verilog-{}", std::process::id()));
    for (i, design) in designs.iter().enumerate() {
        let out = tmp.join(i.to_string());
        let (aig, btor2) = synthesize(design, &out);
        check_route(design, &aig, false);
        check_route(design, &btor2, true);
        // Yosys's map names the latches after the design's registers.
        let map = std::fs::read_to_string(out.join(format!("{}.aim", design.top))).unwrap();
        assert!(
            map.lines().any(|l| l.starts_with("latch ")),
            "{}: no latch names in the map",
            design.file
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Runs `invar check` on a design in one command; its exit code, stdout
/// and stderr.
fn check_design(args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--timeout", "60"]);
    let o = invar(&all);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `invar check DESIGN.sv --top T` runs Yosys itself: every design of
/// EXPECTED.tsv gets its verdict at the word level (the default) and at the
/// bit level, as the two-step flow gives it.
#[test]
fn designs_check_in_one_command_at_both_levels() {
    for design in designs() {
        let file = root().join("examples/verilog").join(&design.file);
        let mut args = vec![file.to_str().unwrap(), "--top", &design.top];
        for d in &design.defines {
            args.extend(["--define", d.trim_start_matches("-D")]);
        }
        let want = if design.verdict == "safe" { 20 } else { 10 };
        let (code, out, err) = check_design(&args);
        assert_eq!(
            code,
            Some(want),
            "{} {:?}: {out}{err}",
            design.file,
            design.defines
        );
        args.push("--bit-level");
        let (code, out, err) = check_design(&args);
        assert_eq!(
            code,
            Some(want),
            "{} {:?} bit level: {out}{err}",
            design.file,
            design.defines
        );
    }
}

/// A SystemVerilog design of two files (`logic`, `always_ff` with an
/// asynchronous reset, `'0`, a parameter, `.*` ports, labelled assertions,
/// an assumption): each assertion gets the hand-derived verdict at both
/// levels, the failing one is named, BMC's counterexample has the
/// hand-derived 5 transitions, and the waveform shows the design's signals
/// under their names and widths (checked against the witness by the
/// independent vcdcheck.py).
#[test]
fn a_systemverilog_design_of_two_files() {
    let dir = root().join("examples/verilog/credits");
    let top = dir.join("credit_top.sv");
    let sub = dir.join("credit_counter.sv");
    let (t, s) = (top.to_str().unwrap(), sub.to_str().unwrap());
    let base = [t, s, "--top", "credit_top"];
    // (property, label, exit code)
    for (p, label, want) in [("0", "bounded", 20), ("1", "never_empty", 10)] {
        for bit_level in [false, true] {
            let mut args = base.to_vec();
            args.extend(["--property", p]);
            if bit_level {
                args.push("--bit-level");
            }
            let (code, out, err) = check_design(&args);
            assert_eq!(
                code,
                Some(want),
                "{label} (bit level {bit_level}): {out}{err}"
            );
            if want == 10 {
                assert!(
                    err.contains(&format!("assertion {label} (b{p}) fails")),
                    "{label}: {err}"
                );
            }
        }
    }
    let mut args = base.to_vec();
    args.extend(["--property", "1", "--engine", "bmc"]);
    let (code, out, _) = check_design(&args);
    assert_eq!(code, Some(10));
    assert_eq!(witness_depth(&out, true), 5, "{out}");
    let tmp = std::env::temp_dir().join(format!("invar-sv-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let vcd = tmp.join("credits.vcd");
    let mut args = base.to_vec();
    args.extend(["--property", "1", "--vcd", vcd.to_str().unwrap()]);
    let (code, out, _) = check_design(&args);
    assert_eq!(code, Some(10));
    let waves = std::fs::read_to_string(&vcd).unwrap();
    for (width, name) in [(3, "credits"), (1, "started"), (1, "take"), (1, "rst_n")] {
        assert!(
            waves
                .lines()
                .any(|l| l.starts_with(&format!("$var wire {width} "))
                    && l.split_whitespace().nth(4) == Some(name)),
            "{name} ({width} bits) missing from the waveform:\n{waves}"
        );
    }
    let witness = tmp.join("credits.wit");
    std::fs::write(&witness, &out).unwrap();
    let check = Command::new("python3")
        .arg(root().join("tests/tools/vcdcheck.py"))
        .args(["btor2", witness.to_str().unwrap(), vcd.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

/// What the flow does not take is refused by name: flip-flops on two
/// clocks answer unknown naming them; a syntax error and a missing Yosys
/// are errors (exit 1) with Yosys's words or the way out.
#[test]
fn designs_outside_the_flow_are_refused_by_name() {
    let tmp = std::env::temp_dir().join(format!("invar-sv-refused-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let two = tmp.join("two_clocks.sv");
    std::fs::write(
        &two,
        "module two_clocks (input logic c1, input logic c2, output logic a, output logic b);\n\
         initial a = 0; initial b = 0;\n\
         always_ff @(posedge c1) a <= !a;\n\
         always_ff @(posedge c2) b <= !b;\n\
         always_comb assert (!(a && b));\nendmodule\n",
    )
    .unwrap();
    let (code, _, err) = check_design(&[two.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("several clocks"), "{err}");
    let bad = tmp.join("syntax.sv");
    std::fs::write(&bad, "module syntax (input x;\nendmodule\n").unwrap();
    let (code, _, err) = check_design(&[bad.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(err.contains("syntax.sv:1: ERROR: syntax error"), "{err}");
    let (code, _, err) = check_design(&[two.to_str().unwrap(), "--yosys", "/nonexistent/yosys"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("--yosys PATH"), "{err}");
    let _ = std::fs::remove_dir_all(&tmp);
}
