//! Certificates: every IC3 proof on the safe examples yields a witness
//! circuit that `invar certify` accepts, and broken witnesses are rejected
//! by the check that they break.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn invar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_invar"))
        .args(args)
        .output()
        .expect("runs invar")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("invar-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn certify(model: &Path, cert: &Path) -> (i32, String) {
    let o = invar(&["certify", model.to_str().unwrap(), cert.to_str().unwrap()]);
    (
        o.status.code().unwrap(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// Proves `model` safe with IC3, writing its certificate to `cert`.
fn prove(model: &Path, cert: &Path) {
    let args = [
        "check",
        model.to_str().unwrap(),
        "--engine",
        "ic3",
        "--certificate",
        cert.to_str().unwrap(),
    ];
    let o = invar(&args);
    assert_eq!(o.status.code(), Some(20), "{}", model.display());
}

#[test]
fn ic3_proofs_yield_valid_certificates() {
    let models = [
        "formats/aiger/resets.aag",
        "formats/aiger/reset_functions.aag",
        "formats/aiger/constraint.aag",
        "formats/aiger/constraint_last.aag",
        "formats/aiger/symbols_comments.aag",
        "hwmcc-samples/ric3ex-fifo.aig",
        "hwmcc-samples/goel-industry-cal3-cal3.aig",
        "hwmcc-samples/hwmcc24gyhu-simple_MAC_no_stall.aig",
    ];
    for (n, model) in models.iter().enumerate() {
        let model = root().join(model);
        for ext in ["aag", "aig"] {
            let cert = tmp(&format!("cert{n}.{ext}"));
            prove(&model, &cert);
            let (code, out) = certify(&model, &cert);
            assert_eq!(code, 0, "{}: {out}", model.display());
        }
    }
}

#[test]
fn interpolation_proofs_yield_valid_certificates() {
    // Invariants of 328 and 225 gates (measured), besides the trivial ones
    // of the small examples; a counterexample of aigerex-cnt1 is replayed.
    for model in [
        "formats/aiger/constraint.aag",
        "formats/aiger/resets.aag",
        "hwmcc-samples/ric3ex-fifo.aig",
        "hwmcc-samples/hwmcc24gyhu-simple_MAC_no_stall.aig",
    ] {
        let model = root().join(model);
        let m = model.to_str().unwrap();
        let cert = tmp("itp.aig");
        let args = ["check", m, "--engine", "itp", "--json", "--certificate"];
        let o = invar(&[&args[..], &[cert.to_str().unwrap()]].concat());
        assert_eq!(o.status.code(), Some(20), "{m}");
        let json = String::from_utf8_lossy(&o.stdout);
        assert!(json.contains("\"invariant_gates\""), "{json}");
        let (code, out) = certify(&model, &cert);
        assert_eq!(code, 0, "{m}: {out}");
    }
    let cnt = root().join("hwmcc-samples/aigerex-cnt1.aig");
    let o = invar(&["check", cnt.to_str().unwrap(), "--engine", "itp"]);
    assert_eq!(o.status.code(), Some(10));
}

#[test]
fn signal_correspondence_proofs_yield_valid_certificates() {
    // Industrial circuits that signal correspondence reduces to nothing:
    // invariants of 842, 3,069 and 3,783 gates (measured), equalities
    // between gates that read the current inputs too; then two circuits
    // with invariant constraints (1 and 15), whose equalities hold where
    // the constraints do.
    for name in [
        "goel-industry-cal3-cal3",
        "goel-industry-cal26-cal26",
        "goel-industry-cal78-cal78",
        "ric3ex-fifo",
        "wolf-2019C-zipversa_composecrc_prf-p06",
    ] {
        let model = root().join(format!("hwmcc-samples/{name}.aig"));
        let m = model.to_str().unwrap();
        let cert = tmp(&format!("scorr-{name}.aig"));
        let args = ["check", m, "--engine", "scorr", "--json", "--certificate"];
        let o = invar(&[&args[..], &[cert.to_str().unwrap()]].concat());
        assert_eq!(o.status.code(), Some(20), "{m}");
        let json = String::from_utf8_lossy(&o.stdout);
        assert!(json.contains("\"invariant_gates\""), "{json}");
        let (code, out) = certify(&model, &cert);
        assert_eq!(code, 0, "{m}: {out}");
    }
    // It never claims a counterexample.
    let cnt = root().join("hwmcc-samples/aigerex-cnt1.aig");
    let o = invar(&["check", cnt.to_str().unwrap(), "--engine", "scorr"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn kinduction_proofs_yield_valid_certificates() {
    // Proofs of depth 3, 10 and 24: the witness circuit holds a window of
    // k−1 past steps. That its check is no rubber stamp is tested in
    // tests/differential.rs: on random circuits, the construction one step
    // shallower passes exactly when the proof checker accepts that depth.
    for (model, k) in [
        ("hwmcc-samples/hwmcc24gyhu-simple_MAC_no_stall.aig", 3),
        (
            "hwmcc-samples/wolf-2019B-marlann_compute_cp_fail2-p0.aig",
            10,
        ),
        ("hwmcc-samples/wolf-2019C-vgasim_imgfifo-p099.aig", 24),
    ] {
        let model = root().join(model);
        let cert = tmp(&format!("kind{k}.aig"));
        let m = model.to_str().unwrap();
        let o = invar(&[
            "check",
            m,
            "--engine",
            "kind",
            "--json",
            "--certificate",
            cert.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(20), "{m}");
        let json = String::from_utf8_lossy(&o.stdout);
        assert!(
            json.contains(&format!("\"k\": {k}")) || json.contains(&format!("\"k\":{k}")),
            "{json}"
        );
        let (code, out) = certify(&model, &cert);
        assert_eq!(code, 0, "{m}: {out}");
    }
}

#[test]
fn broken_certificates_are_rejected() {
    // resets.aag is 2-inductive but not 1-inductive: the model is no witness of itself.
    let model = root().join("formats/aiger/resets.aag");
    let (code, out) = certify(&model, &model);
    assert_eq!(
        (code, out.trim()),
        (3, "certificate invalid: the step check fails")
    );

    // A valid certificate, then the same with one reset and one next-state changed.
    let cert = tmp("resets.aag");
    prove(&model, &cert);
    let text = std::fs::read_to_string(&cert).unwrap();
    assert_eq!(certify(&model, &cert).0, 0);
    let lines: Vec<&str> = text.lines().collect();
    // Binary order: 1 input, then latch lines "lit next [reset]" on lines 3..=5.
    assert!(lines[2].starts_with("4 "), "{text}");
    let edit = |line: usize, new: &str| {
        let mut l = lines.clone();
        l[line] = new;
        let path = tmp(&format!("edit{line}.aag"));
        std::fs::write(&path, l.join("\n") + "\n").unwrap();
        path
    };
    // Latch 1 (stuck at one) reset to 0 instead: the reset check fails.
    let next1 = lines[3].split(' ').nth(1).unwrap().to_string();
    let bad_reset = edit(3, &format!("6 {next1}"));
    assert_eq!(
        certify(&model, &bad_reset),
        (3, "certificate invalid: the reset check fails\n".into())
    );
    // Latch 0 (toggle) keeps its value instead of toggling: the transition check fails.
    let bad_next = edit(2, "4 4");
    assert_eq!(
        certify(&model, &bad_next),
        (
            3,
            "certificate invalid: the transition check fails\n".into()
        )
    );
}

#[test]
fn certify_rejects_malformed_files() {
    let model = root().join("formats/aiger/resets.aag");
    let bad = root().join("formats/aiger/malformed/cyclic.aag");
    let o = invar(&["certify", model.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cyclic.aag:5: cyclic AND definitions"));
}

/// Certifaiger's own test data (`formats/aiger/certifaiger`, copied with
/// provenance): its valid witness passes `invar certify`, its invalid one
/// and a tampered copy do not, and invar's certificate for the same model
/// passes too.
#[test]
fn certifaiger_examples_get_certifaigers_answers() {
    let dir = root().join("formats/aiger/certifaiger");
    let model = dir.join("03_factor_model.aag");
    let (code, out) = certify(&model, &dir.join("03_factor_witness.aag"));
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("certificate valid"), "{out}");
    let (code, out) = certify(
        &dir.join("example_model.aag"),
        &dir.join("example_witness.aag"),
    );
    assert_eq!(code, 0, "{out}");
    // Without the strengthening (bad := the model's bad, output 20) the
    // witness is not inductive.
    let text = std::fs::read_to_string(dir.join("03_factor_witness.aag")).unwrap();
    let weak = tmp("03_factor_weak.aag");
    std::fs::write(&weak, text.replacen("\n25\n", "\n20\n", 1)).unwrap();
    let (code, out) = certify(&model, &weak);
    assert_eq!(
        (code, out.trim()),
        (3, "certificate invalid: the step check fails")
    );
    let mine = tmp("03_factor_invar.aag");
    prove(&model, &mine);
    assert_eq!(certify(&model, &mine).0, 0);
    // The non-stratified reset (a latch reset to its own negation) is not
    // AIGER: refused as malformed, never valid.
    let o = invar(&[
        "certify",
        dir.join("negated_reset_model.aag").to_str().unwrap(),
        dir.join("negated_reset_witness.aag").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("latches 2 depend on each other in a cycle")
    );
}

/// A BTOR2 model proved by the bit-level engines gets a word-level
/// certificate (the model as VMT and `invar-certificate` over the bits of
/// its states) that `invar certify` accepts on the model as read; a false
/// one is refused. So does a relational VMT model, whose circuit has the
/// blaster's `first` and `valid` latches, which are no state of the model.
#[test]
fn btor2_proofs_yield_word_level_certificates() {
    let dir = std::env::temp_dir().join(format!("invar-btor2-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = dir.join("cert.vmt");
    let c = cert.to_str().unwrap();
    for name in [
        "btor2/pono_counter-true.btor2",
        "btor2/hwmcc19_goel_cal9.btor2",
        "vmt/bv_up3.c.vmt",
    ] {
        let model = root().join("hwmcc-samples").join(name);
        let m = model.to_str().unwrap();
        // No stale certificate: each check must write its own.
        std::fs::remove_file(&cert).ok();
        let out = invar(&["check", m, "--timeout", "20", "--certificate", c]);
        assert_eq!(out.status.code(), Some(20), "{name}: {out:?}");
        let text = std::fs::read_to_string(&cert).unwrap();
        assert!(text.contains("(define-fun invar-certificate ("), "{name}");
        let ok = invar(&["certify", m, c]);
        assert_eq!(ok.status.code(), Some(0), "{name}: {ok:?}");
        // INV = false fails initiation.
        let at = text.rfind(") Bool ").unwrap();
        std::fs::write(&cert, format!("{}) Bool false)\n", &text[..at])).unwrap();
        let refused = invar(&["certify", m, c]);
        assert_eq!(refused.status.code(), Some(3), "{name}: {refused:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
