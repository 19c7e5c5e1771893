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
