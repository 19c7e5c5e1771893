//! A C parse the front end gives up on must not run on in the process.
//!
//! `lang-c`'s parser backtracks, and on `dangling_else_nesting.i` (40
//! levels of `if (a) if (b) {} else {` around a syntax error) its time
//! doubles with each level: minutes. The front end asks gcc after 2 s and
//! answers with gcc's error; before the stop flag (`vendor/lang-c`), the
//! parse kept its thread, and a long-lived process (the fuzzer) gathered
//! spinning parsers. This file holds one test, so that no other test's
//! parse is in the process when it counts the parser threads.

use std::time::{Duration, Instant};

/// Names of this process's threads called `c-parser` (the front end's).
fn parser_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim() == "c-parser")
        .count()
}

#[test]
fn a_parse_given_up_on_stops_with_the_answer() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/formats/c/malformed/dangling_else_nesting.i"
    );
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(parser_threads(), 0);
    let started = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let options = invar::cfront::Options::default();
        let _ = tx.send(invar::cfront::lower_preprocessed(text, &options).err());
    });
    // Generous: 2 s of patience, then gcc, then the stop (milliseconds).
    let error = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the front end answers within 60 s")
        .expect("a syntax error")
        .to_string();
    assert!(
        error.contains("line 43: error at column 7: expected expression before '=' token"),
        "{error}"
    );
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "lang-c answered on its own: the test no longer reaches the stop"
    );
    assert_eq!(parser_threads(), 0, "a parser thread runs on");
}
