//! Helpers shared by integration tests (each test crate includes this
//! module with `mod common;`).

use std::path::Path;
use std::process::Command;

/// Compiles `program` with gcc (warnings off, `flags` added) in `dir` under
/// `name`, runs it, and returns what it printed. gcc is the oracle of the C
/// tests: a program it rejects is a bug in the test.
pub fn gcc_run(dir: &Path, name: &str, program: &str, flags: &[&str]) -> String {
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
    let out = Command::new(&exe).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}
