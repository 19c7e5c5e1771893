//! `--vcd` beyond the Yosys designs (`tests/verilog.rs`): an AIGER circuit
//! without symbols, a VMT model and a C program. Each waveform is read back
//! by the independent `tests/tools/vcdcheck.py` and compared with an oracle
//! that is not invar's Rust code: aigsim.py's simulator, or the printed
//! counterexample.

use std::path::PathBuf;
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

fn vcdcheck(args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(root().join("tests/tools/vcdcheck.py"))
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(0), "vcdcheck.py {args:?}: {text}");
    text
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("invar-vcd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn an_unnamed_circuit_shows_inputs_latches_and_properties_by_position() {
    // No symbols, no inputs (a witness of empty input lines), two properties.
    let model = root().join("formats/aiger/ic3_long_chain.aag");
    let m = model.to_str().unwrap();
    let vcd = scratch("chain.vcd");
    let v = vcd.to_str().unwrap();
    let out = invar(&["check", m, "--vcd", v]);
    assert_eq!(out.status.code(), Some(10));
    let witness = scratch("chain.wit");
    std::fs::write(&witness, &out.stdout).unwrap();
    vcdcheck(&["aiger", m, witness.to_str().unwrap(), v]);
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(
        text.contains(" l0 $end") && text.contains(" b1 $end"),
        "{text}"
    );
}

#[test]
fn a_vmt_counterexample_is_shown_in_words() {
    let model = root().join("formats/vmt/ops_bv.vmt");
    let vcd = scratch("ops.vcd");
    let v = vcd.to_str().unwrap();
    let out = invar(&[
        "check",
        model.to_str().unwrap(),
        "--property",
        "0",
        "--witness",
        "--vcd",
        v,
    ]);
    assert_eq!(out.status.code(), Some(10));
    let cex = scratch("ops.cex");
    std::fs::write(&cex, &out.stdout).unwrap();
    vcdcheck(&["vmt", cex.to_str().unwrap(), v]);
    // Property 0 fails in step 9 (worked out by hand in the model's header):
    // ten steps, and the 8-bit state as one word.
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$var wire 8 ! x_y $end"), "{text}");
    assert!(text.contains("\n#9\n") && text.ends_with("#10\n"), "{text}");
}

#[test]
fn a_c_counterexample_has_the_program_variables() {
    let program = root().join("tests/c/integerpromotion-3.c");
    let vcd = scratch("promotion.vcd");
    let v = vcd.to_str().unwrap();
    let out = invar(&["check", program.to_str().unwrap(), "--json", "--vcd", v]);
    assert_eq!(out.status.code(), Some(10));
    let json = String::from_utf8_lossy(&out.stdout);
    let steps: usize = json
        .split("\"steps\": ")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .expect("steps in the JSON");
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains(" pc $end"), "{text}");
    assert!(
        text.ends_with(&format!("#{steps}\n")),
        "{steps} steps: {text}"
    );
}
